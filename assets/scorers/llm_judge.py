"""The LLM judges of the ForeSci metric stack (Appendix C.1/C.2), behind the one doorway.

Two protocols, both through `resources.llm.LLMClient.structured` (cached, retried,
accounted) and both scored with the formulas of `core.metrics`:

* ``compact`` (default; the cost target of the issue: <= 5 calls and <= 40k prompt
  characters per judged answer):
    1. one **Fact** call: extract the answer's atomic claims, label each against the hidden
       claim bank (phi) and label every hidden claim's coverage (psi);
    2. R **rubric** calls (R = repeats, default 3): Evidence Traceability components
       e/s/t, the family's Reviewer Persuasiveness rubric, and the four
       evidence-to-decision drift severities, all from ONE shared evidence packet.
  => 1 + R calls (4 with R = 3). Each prompt part has a character budget.
* ``reference`` (one claim per call, as the authors' stack): one extraction call, one
  verification call per claim (at most 8), one coverage call, then per repeat one
  Traceability call and one Persuasiveness call, each with its own packet. Used to
  measure agreement and cost against the compact protocol.

FTA needs no LLM (embeddings / deterministic ranking, `assets.judging.scoring`).

Every call is counted per answer (`JudgeLedger`: logical requests and prompt characters,
independent of the cache) so judge_scores can report calls and characters per answer.
Tests and the cost benchmark run the whole path without a server by giving a client that
passes canned replies to litellm as `mock_response` (`tests/factories.py`).


Length (over ~500 lines on purpose): the judge's prompts, rubric, claim decomposition and their
validation are one contract with the model (App. C), versioned together."""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Literal

from pydantic import BaseModel, Field, create_model

from assets.families.registry import get_family
from core import metrics
from core.metrics import swap_verdict
from core.records import Answer, GoldTarget, Task

PROMPT_VERSIONS = {
    "fact": "fact-batched-v1",
    "fact_reference": "fact-per-claim-v1",
    "rubric": "rubric-shared-packet-v1",
    "rubric_reference": "trace-v1+pers-v1",
    "pairwise": "pairwise-swap-v1",
}
MAX_CLAIMS = 8  # the authors verify at most 8 claims per answer
MAX_TOKENS = {
    "judge:fact": 1500,
    "judge:fact_extract": 600,
    "judge:fact_verify": 200,
    "judge:fact_coverage": 800,
    "judge:rubric": 900,
    "judge:trace": 400,
    "judge:pers": 700,
    "judge:pairwise": 400,
}
BUDGET = {"task": 1500, "answer": 3000, "bank": 2000, "packet": 3000, "brief": 1200}
MIN_PART = {"answer": 1200, "packet": 600}  # the adaptive budget never shrinks these parts further
SNIPPET_CHARS = 200
COST_TARGET = {"calls": 5, "prompt_chars": 40_000}

SupportLabel = Literal["supported", "partially_supported", "unsupported", "not_checkable"]
CoverageLabel = Literal["covered", "partially_covered", "not_covered"]

# Reviewer Persuasiveness rubric (Appendix C.1): the family's own dimensions
# (`TaskFamily.rubric_dimensions`, in each family module) + these generic ones.
GENERIC_DIMENSIONS: dict[str, str] = {
    "decision_clarity": "the decision (choice / ranking / bottleneck / venue) is stated unambiguously",
    "mechanistic_reasoning": "explains the mechanism behind the call",
    "comparative_reasoning": "compares against the alternatives",
    "uncertainty_risk_awareness": "acknowledges uncertainty and risks",
}
DRIFT_DESCRIPTIONS: dict[str, str] = {
    "scope_granularity": "discusses a related direction at the wrong level of specificity",
    "causal_role": "assigns the wrong role to a technical factor (e.g. an opportunity named as the root bottleneck)",
    "intervention_mode": "right issue, wrong type of intervention (e.g. systems work where a training-objective change is called for)",
    "temporal_horizon": "targets the wrong maturity stage (e.g. a long-term vision for a near-term question)",
}
TRACE_FIELDS = ("evidence_linkage", "support_specificity", "internal_trace")


# --------------------------------------------------------------------------------------
# Reply schemas
# --------------------------------------------------------------------------------------


class ClaimVerdict(BaseModel):
    claim: str = Field(description="one atomic claim made by the answer")
    label: SupportLabel
    matched: list[str] = Field(default_factory=list, description="hidden claim ids it was checked against")


class CoverageVerdict(BaseModel):
    claim_id: str
    label: CoverageLabel


class FactJudgement(BaseModel):
    claims: list[ClaimVerdict] = Field(default_factory=list)
    coverage: list[CoverageVerdict] = Field(default_factory=list)


class ExtractedClaims(BaseModel):
    claims: list[str] = Field(default_factory=list)


class SingleClaimVerdict(BaseModel):
    label: SupportLabel
    matched: list[str] = Field(default_factory=list)


class CoverageJudgement(BaseModel):
    coverage: list[CoverageVerdict] = Field(default_factory=list)


class PairwiseVerdict(BaseModel):
    rationale: str = ""
    winner: Literal["1", "2", "tie"]


def _score_field(lo: int, hi: int, desc: str):
    """An integer score as an enum (llama.cpp's JSON grammar enforces enums, not min/max)."""
    return (Literal[tuple(range(lo, hi + 1))], Field(description=desc))


def rubric_schema(family: str, parts: Sequence[str] = ("trace", "pers", "drift")) -> type[BaseModel]:
    """The rubric reply schema of a family: a short rationale, then integer scores
    (trace and persuasiveness dimensions 0–10, drift severities 0–3)."""
    fields: dict = {"rationale": (str, Field(default="", description="one or two sentences"))}
    if "trace" in parts:
        fields.update({f: _score_field(0, 10, f) for f in TRACE_FIELDS})
    if "pers" in parts:
        fields.update({d: _score_field(0, 10, desc) for d, desc in get_family(family).rubric_dimensions.items()})
        fields.update({d: _score_field(0, 10, desc) for d, desc in GENERIC_DIMENSIONS.items()})
        fields["holistic"] = _score_field(0, 10, "overall persuasiveness to a knowledgeable reviewer")
    if "drift" in parts:
        fields.update({f"drift_{d}": _score_field(0, 3, desc) for d, desc in DRIFT_DESCRIPTIONS.items()})
    name = "Rubric_" + family + "_" + "_".join(parts)
    return create_model(name, **fields)


# --------------------------------------------------------------------------------------
# Accounting
# --------------------------------------------------------------------------------------


@dataclass
class JudgeLedger:
    """Logical judge requests of one answer and the characters of their prompts."""

    calls: int = 0
    prompt_chars: int = 0
    by_purpose: dict[str, int] = field(default_factory=dict)
    errors: list[str] = field(default_factory=list)

    def add(self, purpose: str, messages: list[dict]) -> None:
        self.calls += 1
        self.prompt_chars += sum(len(m["content"]) for m in messages)
        self.by_purpose[purpose] = self.by_purpose.get(purpose, 0) + 1


def ask(
    client,
    messages: list[dict],
    schema: type[BaseModel],
    *,
    purpose: str,
    ledger: JudgeLedger,
    temperature: float | None = None,
    seed: int | None = None,
    max_tokens: int | None = None,
) -> BaseModel:
    ledger.add(purpose, messages)
    max_tokens = max_tokens or MAX_TOKENS.get(purpose)
    return client.structured(messages, schema, purpose=purpose, temperature=temperature, seed=seed, max_tokens=max_tokens)


# --------------------------------------------------------------------------------------
# Prompt parts
# --------------------------------------------------------------------------------------


def clip(text: str, limit: int) -> str:
    text = text.strip()
    return text if len(text) <= limit else text[: max(0, limit - 15)].rstrip() + " [... truncated]"


def task_view(task: Task, limit: int = BUDGET["task"]) -> str:
    lines = [
        f"Family: {task.family}. Knowledge cutoff {task.cutoff.isoformat()}; forecast window "
        f"{task.window_start.isoformat()} to {task.window_end.isoformat()}.",
        task.question.strip(),
    ]
    if task.options:
        lines += ["Options:"] + [f"- {o.option_id}: {o.text}" for o in task.options]
    return clip("\n".join(lines), limit)


_HEADER = re.compile(r"^\*.*answer by `.*$", re.M)


def answer_view(answer: Answer, limit: int = BUDGET["answer"]) -> str:
    """The answer as a judge sees it: blind (method and backbone removed), bounded."""
    text = _HEADER.sub("", answer.text or "").strip()
    if not text:
        parts = []
        if answer.choice:
            parts.append(f"Choice: {answer.choice}")
        if answer.trajectory:
            parts.append(f"Trajectory: {answer.trajectory}")
        if answer.ranking:
            parts.append("Ranking: " + " > ".join(answer.ranking))
        parts += [f"- {c}" for c in answer.claims]
        if answer.evidence_ids:
            parts.append("Cited: " + ", ".join(answer.evidence_ids))
        text = "\n".join(parts)
    text = re.sub(r"\n{3,}", "\n\n", text)
    if len(text) > limit and answer.claims:
        # keep the decision-carrying claims whole (up to half the budget); clip the prose
        block = clip("**Claims:**\n" + "\n".join(f"- {c}" for c in answer.claims), limit // 2)
        body = text.split("**Claims:**", 1)[0].rstrip()
        return clip(body, max(0, limit - len(block) - 2)) + "\n\n" + block
    return clip(text, limit)


def hidden_bank(gold: GoldTarget, limit: int = BUDGET["bank"]) -> tuple[str, dict[str, str]]:
    """The hidden claim bank with short ids h1..hn (returned map: short id -> claim_id),
    most important claims first, bounded; claims past the budget are not shown and are
    therefore scored as not covered (recorded by the caller)."""
    claims = sorted(gold.claims, key=lambda c: -c.importance)
    lines, ids, used = [], {}, 0
    for i, c in enumerate(claims, 1):
        line = f"[h{i}] ({c.type}) {c.text.strip()}"
        if used + len(line) > limit and lines:
            break
        lines.append(line)
        ids[f"h{i}"] = c.claim_id
        used += len(line) + 1
    return "\n".join(lines), ids


def reference_brief(task: Task, gold: GoldTarget, limit: int = BUDGET["brief"]) -> str:
    """Family-conditioned research brief from the hidden target (what actually happened)."""
    opt = {o.option_id: o.text for o in task.options}
    lines = []
    if gold.preferred_ranking:
        lines.append(
            "Preferred ranking after the cutoff: " + " > ".join(f"{r} ({opt.get(r, r)[:60]})" for r in gold.preferred_ranking)
        )
    if gold.trajectory:
        lines.append(f"Trajectory of the leading option: {gold.trajectory}")
    for s in gold.slots[:4]:
        if s.variants:
            lines.append(f"Target {s.slot}: {s.variants[0].strip()[:200]}")
    for c in sorted(gold.claims, key=lambda c: -c.importance)[:4]:
        lines.append(f"- {c.text.strip()[:200]}")
    lines += get_family(task.family).judge_brief(task, gold)  # e.g. planning: what the window did per option
    return clip("\n".join(lines) or "(no reference target)", limit)


def evidence_packet(answer: Answer, task: Task, kb_get: Callable[[str], object] | None, limit: int = BUDGET["packet"]) -> str:
    """One evidence packet shared by the Trace and Persuasiveness judgements: what the
    answer cited (resolved in the cutoff-bound KB; unresolvable ids are marked), then the
    task's support papers it did not cite, each as `[id] (date) title — snippet`."""
    lines, used, seen = [], 0, set()

    def add(pid: str, cited: bool) -> bool:
        nonlocal used
        hit = kb_get(pid) if kb_get is not None else None
        tag = "cited" if cited else "support packet"
        if hit is None:
            line = f"[{pid}] ({tag}) NOT FOUND in the pre-cutoff knowledge base"
        else:
            snippet = " ".join(str(getattr(hit, "snippet", "")).split())[:SNIPPET_CHARS]
            line = f"[{pid}] ({tag}; {getattr(hit, 'published', '')}) {getattr(hit, 'title', '')} — {snippet}"
        if used + len(line) > limit and lines:
            return False
        lines.append(line)
        used += len(line) + 1
        return True

    for pid in answer.evidence_ids:
        if pid not in seen:
            seen.add(pid)
            if not add(pid, True):
                break
    for pid in task.support_paper_ids:
        if pid not in seen:
            seen.add(pid)
            if not add(pid, False):
                break
    if not answer.evidence_ids:
        lines.insert(0, "(the answer cites no evidence)")
    return "\n".join(lines)


SYSTEM = (
    "You are an expert evaluator for ForeSci, a benchmark of forward-looking AI-research judgement. "
    "Answers were written at the knowledge cutoff; the hidden reference describes what was published "
    "after it. Be strict and consistent. Reply with a single JSON object matching the schema, nothing else."
)

FACT_RULES = (
    "Labels for answer claims: supported = a hidden claim states or clearly entails it; partially_supported = "
    "agrees in part or at a different granularity; unsupported = checkable but contradicted by or absent from "
    "the hidden claims; not_checkable = too vague, or about something the hidden bank does not address.\n"
    "Labels for hidden claims: covered = the answer states it or clearly entails it; partially_covered = the "
    "answer states part of it; not_covered = otherwise."
)


def fact_messages(task: Task, answer: Answer, bank: str) -> list[dict]:
    user = (
        f"## Task\n{task_view(task)}\n\n## Candidate answer\n{answer_view(answer)}\n\n"
        f"## Hidden claim bank\n{bank}\n\n## Instructions\n"
        f"1. Extract the answer's atomic claims (at most {MAX_CLAIMS}): short, self-contained, checkable "
        "statements carrying its decision and forecasts. Do not invent claims.\n"
        "2. Label each against the hidden claim bank; list the ids it was checked against in `matched`.\n"
        "3. Label the coverage of EVERY hidden claim id.\n" + FACT_RULES + "\n"
        'Reply as {"claims": [{"claim": str, "label": str, "matched": [id]}], '
        '"coverage": [{"claim_id": id, "label": str}]}'
    )
    return [{"role": "system", "content": SYSTEM}, {"role": "user", "content": user}]


def clip_lines(text: str, limit: int) -> str:
    """Keep whole lines of `text` up to `limit` characters (at least the first line, clipped)."""
    if len(text) <= limit:
        return text
    out, used = [], 0
    for line in text.splitlines():
        if used + len(line) + 1 > limit:
            break
        out.append(line)
        used += len(line) + 1
    return "\n".join(out) if out else clip(text, limit)


def rubric_messages(
    task: Task,
    answer: Answer,
    packet: str,
    brief: str,
    parts: Sequence[str] = ("trace", "pers", "drift"),
    *,
    budget: int | None = None,
) -> list[dict]:
    """The rubric prompt; with `budget` (characters) the packet, then the answer, are shrunk
    (down to MIN_PART) until the prompt fits, so R repeats stay within the per-answer target."""
    answer_limit = BUDGET["answer"]
    msgs = _rubric_messages(task, answer, packet, brief, parts, answer_limit)
    size = sum(len(m["content"]) for m in msgs)
    if budget is not None and size > budget:
        over = size - budget
        packet = clip_lines(packet, max(MIN_PART["packet"], len(packet) - over))
        msgs = _rubric_messages(task, answer, packet, brief, parts, answer_limit)
        over = sum(len(m["content"]) for m in msgs) - budget
        if over > 0:
            answer_limit = max(MIN_PART["answer"], answer_limit - over)
            msgs = _rubric_messages(task, answer, packet, brief, parts, answer_limit)
    return msgs


def _rubric_messages(task: Task, answer: Answer, packet: str, brief: str, parts: Sequence[str], answer_limit: int) -> list[dict]:
    sections = [f"## Task\n{task_view(task)}", f"## Candidate answer\n{answer_view(answer, answer_limit)}"]
    if "trace" in parts or "pers" in parts:
        sections.append(f"## Pre-cutoff evidence packet\n{packet}")
    if "pers" in parts or "drift" in parts:
        sections.append(
            "## Reference brief (hidden; what happened after the cutoff. Judge decision quality "
            f"against it; do not reward copied wording)\n{brief}"
        )
    rules = []
    if "trace" in parts:
        rules.append(
            "Evidence traceability, integers 0-10: evidence_linkage = the reasoning uses relevant packet "
            "evidence through the cited ids (0 if nothing is cited); support_specificity = the cited "
            "evidence supports the stated decision specifically, not just the topic; internal_trace = "
            "the steps from evidence to decision avoid unsupported jumps."
        )
    if "pers" in parts:
        dims = {**get_family(task.family).rubric_dimensions, **GENERIC_DIMENSIONS}
        rules.append(
            "Reviewer persuasiveness, integers 0-10:\n"
            + "\n".join(f"- {d}: {desc}" for d, desc in dims.items())
            + "\n- holistic: overall, how persuasive this research call is to a knowledgeable reviewer."
        )
    if "drift" in parts:
        rules.append(
            "Evidence-to-decision drift against the reference, integers 0 (none) to 3 (severe):\n"
            + "\n".join(f"- drift_{d}: {desc}" for d, desc in DRIFT_DESCRIPTIONS.items())
        )
    user = "\n\n".join(sections) + "\n\n## Score\nWrite a one-sentence rationale first.\n" + "\n".join(rules)
    return [{"role": "system", "content": SYSTEM}, {"role": "user", "content": user}]


# --------------------------------------------------------------------------------------
# Judgements
# --------------------------------------------------------------------------------------


@dataclass
class FactResult:
    precision: float | None
    recall: float | None
    f1: float | None
    claims: list[str]
    phi_labels: list[str]
    psi_labels: dict[str, str]  # gold claim_id -> coverage label (every gold claim)
    note: str = ""


def _fact_result(
    gold: GoldTarget, ids: dict[str, str], verdicts: list[tuple[str, str]], coverage: Sequence[CoverageVerdict]
) -> FactResult:
    """Scores from labels; hidden claims the judge did not label (or that were past the
    prompt budget) count as not covered, and that is noted."""
    verdicts = verdicts[: MAX_CLAIMS * 2]
    psi: dict[str, str] = {}
    for c in coverage:
        key = ids.get(c.claim_id.strip().strip("[]"))
        if key and key not in psi:
            psi[key] = c.label
    missing = [g.claim_id for g in gold.claims if g.claim_id not in psi]
    for gid in missing:
        psi[gid] = "not_covered"
    psi_labels = [psi[g.claim_id] for g in gold.claims]
    scored = metrics.prediction_factuality([lab for _, lab in verdicts], psi_labels)
    note = f"{len(missing)} hidden claims unlabelled -> not_covered" if missing else ""
    return FactResult(
        scored["precision"], scored["recall"], scored["f1"], [c for c, _ in verdicts], [lab for _, lab in verdicts], psi, note
    )


def judge_fact(task: Task, answer: Answer, gold: GoldTarget, client, ledger: JudgeLedger, *, seed: int = 0) -> FactResult:
    """Compact Fact: one call extracts, verifies all claims and labels coverage."""
    bank, ids = hidden_bank(gold)
    reply = ask(
        client, fact_messages(task, answer, bank), FactJudgement, purpose="judge:fact", ledger=ledger, temperature=0.0, seed=seed
    )
    verdicts = [(v.claim.strip(), v.label) for v in reply.claims if v.claim.strip()][:MAX_CLAIMS]
    return _fact_result(gold, ids, verdicts, reply.coverage)


def judge_fact_per_claim(
    task: Task, answer: Answer, gold: GoldTarget, client, ledger: JudgeLedger, *, seed: int = 0
) -> FactResult:
    """Reference Fact: extraction call, one verification call per claim (at most 8),
    one coverage call: 2 + m calls."""
    bank, ids = hidden_bank(gold)
    base = f"## Task\n{task_view(task)}\n\n## Candidate answer\n{answer_view(answer)}\n\n"
    extract = [
        {"role": "system", "content": SYSTEM},
        {
            "role": "user",
            "content": base
            + (
                f"Extract the answer's atomic claims (at most {MAX_CLAIMS}): short, self-contained, checkable statements "
                'carrying its decision and forecasts. Do not invent claims. Reply as {"claims": [str]}'
            ),
        },
    ]
    claims = [
        c.strip()
        for c in ask(
            client, extract, ExtractedClaims, purpose="judge:fact_extract", ledger=ledger, temperature=0.0, seed=seed
        ).claims
        if c.strip()
    ][:MAX_CLAIMS]
    verdicts = []
    for claim in claims:
        msgs = [
            {"role": "system", "content": SYSTEM},
            {
                "role": "user",
                "content": (
                    f"## Task\n{task_view(task)}\n\n## Hidden claim bank\n{bank}\n\n## Claim to verify\n{claim}\n\n"
                    + FACT_RULES.split("\n")[0]
                    + '\nReply as {"label": str, "matched": [id]}'
                ),
            },
        ]
        v = ask(client, msgs, SingleClaimVerdict, purpose="judge:fact_verify", ledger=ledger, temperature=0.0, seed=seed)
        verdicts.append((claim, v.label))
    cover = [
        {"role": "system", "content": SYSTEM},
        {
            "role": "user",
            "content": base
            + (
                f"## Hidden claim bank\n{bank}\n\nLabel the coverage of EVERY hidden claim id by the answer.\n"
                + FACT_RULES.split("\n")[1]
                + '\nReply as {"coverage": [{"claim_id": id, "label": str}]}'
            ),
        },
    ]
    coverage = ask(
        client, cover, CoverageJudgement, purpose="judge:fact_coverage", ledger=ledger, temperature=0.0, seed=seed
    ).coverage
    return _fact_result(gold, ids, verdicts, coverage)


@dataclass
class RubricResult:
    """One rubric repeat, normalised to [0, 1] (drift stays on its 0–3 scale)."""

    trace_e: float | None
    trace_s: float | None
    trace_t: float | None
    dimensions: dict[str, float]
    holistic: float | None
    drift: dict[str, float]
    rationale: str = ""


def _rubric_result(reply: BaseModel) -> RubricResult:
    data = reply.model_dump()
    norm = {k: max(0, min(10, int(v))) / 10.0 for k, v in data.items() if isinstance(v, int) and not k.startswith("drift_")}
    return RubricResult(
        trace_e=norm.get("evidence_linkage"),
        trace_s=norm.get("support_specificity"),
        trace_t=norm.get("internal_trace"),
        dimensions={k: v for k, v in norm.items() if k not in TRACE_FIELDS and k != "holistic"},
        holistic=norm.get("holistic"),
        drift={k[len("drift_") :]: float(max(0, min(3, int(v)))) for k, v in data.items() if k.startswith("drift_")},
        rationale=str(data.get("rationale", ""))[:500],
    )


def judge_rubric(
    task: Task,
    answer: Answer,
    gold: GoldTarget,
    packet: str,
    client,
    ledger: JudgeLedger,
    *,
    repeat: int,
    temperature: float,
    budget: int | None = None,
) -> RubricResult:
    """Compact rubric: Trace e/s/t + Persuasiveness + drift in one call over the shared packet
    (`budget`: the call's prompt-character allowance)."""
    msgs = rubric_messages(task, answer, packet, reference_brief(task, gold), budget=budget)
    reply = ask(
        client, msgs, rubric_schema(task.family), purpose="judge:rubric", ledger=ledger, temperature=temperature, seed=repeat
    )
    return _rubric_result(reply)


def judge_rubric_separate(
    task: Task,
    answer: Answer,
    gold: GoldTarget,
    packet: str,
    client,
    ledger: JudgeLedger,
    *,
    repeat: int,
    temperature: float,
    budget: int | None = None,
) -> RubricResult:
    """Reference rubric: one Traceability call and one Persuasiveness (+ drift) call (no
    character budget: this is the unconstrained reference variant)."""
    brief = reference_brief(task, gold)
    t = ask(
        client,
        rubric_messages(task, answer, packet, brief, ("trace",)),
        rubric_schema(task.family, ("trace",)),
        purpose="judge:trace",
        ledger=ledger,
        temperature=temperature,
        seed=repeat,
    )
    p = ask(
        client,
        rubric_messages(task, answer, packet, brief, ("pers", "drift")),
        rubric_schema(task.family, ("pers", "drift")),
        purpose="judge:pers",
        ledger=ledger,
        temperature=temperature,
        seed=repeat,
    )
    a, b = _rubric_result(t), _rubric_result(p)
    return RubricResult(
        a.trace_e, a.trace_s, a.trace_t, b.dimensions, b.holistic, b.drift, (a.rationale + " | " + b.rationale).strip(" |")
    )


def pairwise_messages(task: Task, first: Answer, second: Answer, gold: GoldTarget) -> list[dict]:
    user = (
        f"## Task\n{task_view(task)}\n\n## Answer 1\n{answer_view(first, 2500)}\n\n"
        f"## Answer 2\n{answer_view(second, 2500)}\n\n## Reference brief (hidden)\n{reference_brief(task, gold, 900)}"
        "\n\nWhich answer is the better forward-looking research judgement: closer to what happened, better "
        'grounded and more persuasive? Ignore length and style. Reply as {"rationale": str, "winner": "1"|"2"|"tie"}'
    )
    return [{"role": "system", "content": SYSTEM}, {"role": "user", "content": user}]


def judge_pair(task: Task, a: Answer, b: Answer, gold: GoldTarget, client, ledger: JudgeLedger, *, seed: int = 0) -> dict:
    """LLM preference between two answers to one task, judged in both presentation orders;
    disagreeing orders make a tie. Returns {"winner", "first", "second"} with 'a'/'b'/'tie'."""
    v1 = ask(
        client,
        pairwise_messages(task, a, b, gold),
        PairwiseVerdict,
        purpose="judge:pairwise",
        ledger=ledger,
        temperature=0.0,
        seed=seed,
    ).winner
    v2 = ask(
        client,
        pairwise_messages(task, b, a, gold),
        PairwiseVerdict,
        purpose="judge:pairwise",
        ledger=ledger,
        temperature=0.0,
        seed=seed,
    ).winner
    first = {"1": "a", "2": "b", "tie": "tie"}[v1]
    second = {"1": "b", "2": "a", "tie": "tie"}[v2]
    return {"winner": swap_verdict(first, second), "first": first, "second": second}

"""Offline validators of each final claim's chain: evidence -> mechanism -> decision -> claim.

Each stage returns Xcientist's outcomes pass / partial / blocked (App. A.4.2: "a phase
marked partial or blocked is never accepted as sufficient"); the claim's chain passes only
if every stage passes. The rules (docs/xcientist.md, "Offline rules") are lexical proxies
for what a judge model decides on the model path (`judge.py`):

* claim: the claim names at least MIN_CLAIM_WORDS informative words (template, trajectory
  and generic words removed); fewer -> blocked (generic: nothing a quote could state).
* evidence: the verified quote (from a cited, pre-cutoff paper) that holds the largest
  share of the claim's informative words: >= PASS_OVERLAP pass, >= PARTIAL_OVERLAP partial;
  support only from an altered (non-verbatim) quote is at most partial; else blocked.
* mechanism: a statement of why that shares a word with the claim: another claim or decision
  text of the answer with a mechanism cue (a cause, a reported finding, a trend), or the
  claim itself when it reports a finding rather than forecasts (no FORECAST_CUES: a
  forecast needs a separate why). Grounded when a verified quote holds >= PASS_OVERLAP of
  its words: grounded pass, stated but ungrounded partial, none blocked.
* decision: the claim is on the answer's decision chain (it shares >= PASS_OVERLAP of a
  decision text's words, or the decision shares that much of the claim's): pass; a claim
  that crowns an option the decision did not choose: blocked; otherwise partial.
"""

from __future__ import annotations

from dataclasses import dataclass

from assets.artifacts.text import (
    FORECAST_CUES,
    MECHANISM_CUES,
    MIN_CLAIM_WORDS,
    claim_words,
    has_cue,
    overlap,
    source_words,
)
from core.records import Answer, ChainValidation, EvidenceTuple, Task

PASS_OVERLAP = 0.5  # the judging stage's lexical support threshold (metrics.SUPPORT_OVERLAP)
PARTIAL_OVERLAP = 0.25
ORDER = {"pass": 0, "partial": 1, "blocked": 2}
TOP_CUES = ("most", "first", "best", "top", "highest", "strongest")
STAGES = ("evidence", "mechanism", "decision", "claim")


def worst(outcomes) -> str:
    """The chain's outcome: blocked if any stage is blocked, else partial if any is partial."""
    return max(outcomes, key=lambda o: ORDER[o], default="blocked")


@dataclass
class Verdict:
    stage: str
    outcome: str
    reason: str
    tuple_ids: list[str]


def best_quote(words: set[str], tuples: list[EvidenceTuple], statuses=("verified",)) -> tuple[float, EvidenceTuple | None]:
    scored = [(overlap(words, source_words(t.quote)), t) for t in tuples if t.quote_status in statuses and t.quote]
    return max(scored, key=lambda s: s[0], default=(0.0, None))


def claim_stage(claim: str) -> Verdict:
    words = claim_words(claim)
    if len(words) >= MIN_CLAIM_WORDS:
        return Verdict("claim", "pass", f"names {len(words)} informative words", [])
    return Verdict("claim", "blocked", "generic: too few informative words for any quote to state it", [])


def evidence_stage(claim: str, tuples: list[EvidenceTuple]) -> Verdict:
    words = claim_words(claim)
    if not tuples:
        return Verdict("evidence", "blocked", "no evidence: the answer cites no retrieved pre-cutoff paper", [])
    share, best = best_quote(words, tuples)
    if best is not None and share >= PASS_OVERLAP:
        return Verdict("evidence", "pass", f"verified quote holds {share:.0%} of the claim's words", [best.tuple_id])
    altered, alt = best_quote(words, tuples, ("altered",))
    if alt is not None and altered >= PARTIAL_OVERLAP and altered > share:
        return Verdict("evidence", "partial", f"support only from a quote not found verbatim ({altered:.0%})", [alt.tuple_id])
    if best is not None and share >= PARTIAL_OVERLAP:
        return Verdict(
            "evidence", "partial", f"closest verified quote holds only {share:.0%} of the claim's words", [best.tuple_id]
        )
    return Verdict("evidence", "blocked", f"no verified quote holds {PARTIAL_OVERLAP:.0%} of the claim's words", [])


def mechanism_statements(answer: Answer) -> list[str]:
    return [s for s in dict.fromkeys(list(answer.claims) + list(answer.decision)) if has_cue(s, MECHANISM_CUES)]


def mechanism_stage(claim: str, answer: Answer, tuples: list[EvidenceTuple]) -> Verdict:
    words = claim_words(claim)
    stated = [m for m in mechanism_statements(answer) if m != claim and claim_words(m) & words]
    if not has_cue(claim, FORECAST_CUES):
        stated.insert(0, claim)
    if not stated:
        return Verdict("mechanism", "blocked", "no mechanism: nothing in the answer says why", [])
    grounded = [(best_quote(claim_words(m), tuples), m) for m in stated]
    (share, best), m = max(grounded, key=lambda g: g[0][0])
    if best is not None and share >= PASS_OVERLAP:
        return Verdict("mechanism", "pass", f"mechanism grounded in a verified quote: {m[:120]}", [best.tuple_id])
    return Verdict("mechanism", "partial", f"mechanism stated but no verified quote holds it: {m[:120]}", [])


def decision_stage(claim: str, answer: Answer, task: Task | None) -> Verdict:
    if not answer.decision:
        return Verdict("decision", "blocked", "the answer commits to no decision", [])
    words = claim_words(claim)
    chosen = answer.choice or (answer.ranking[0] if answer.ranking else None)
    if task is not None and chosen and has_cue(claim, TOP_CUES):
        opts = {o.option_id: claim_words(o.text) for o in task.options}
        named = max(opts, key=lambda o: (overlap(opts[o], words), o == chosen), default=None)
        if (
            named
            and named != chosen
            and overlap(opts[named], words) >= PASS_OVERLAP
            and overlap(opts[named], words) > overlap(opts.get(chosen, set()), words)
        ):
            return Verdict("decision", "blocked", f"crowns option {named}, the decision chose {chosen}", [])
    for d in answer.decision:
        dw = claim_words(d)
        if overlap(dw, words) >= PASS_OVERLAP or overlap(words, dw) >= PASS_OVERLAP:
            return Verdict("decision", "pass", f"on the decision chain: {d[:120]}", [])
    return Verdict("decision", "partial", "the claim does not bear on the answer's decision", [])


def validate_claim(k: int, claim: str, answer: Answer, task: Task | None, tuples: list[EvidenceTuple]) -> list[ChainValidation]:
    """The four stage verdicts and the chain outcome of claim `k` (offline rules)."""
    verdicts = [
        evidence_stage(claim, tuples),
        mechanism_stage(claim, answer, tuples),
        decision_stage(claim, answer, task),
        claim_stage(claim),
    ]
    chain = worst(v.outcome for v in verdicts)
    weak = [v.stage for v in verdicts if v.outcome != "pass"]
    verdicts.append(
        Verdict(
            "chain",
            chain,
            "every stage passed" if not weak else "not passed: " + ", ".join(weak),
            sorted({t for v in verdicts for t in v.tuple_ids}),
        )
    )
    return [validation(answer, k, claim, v.stage, v.outcome, v.reason, v.tuple_ids, "offline") for v in verdicts]


def validation(
    answer: Answer, k: int, claim: str, stage: str, outcome: str, reason: str, tuple_ids: list[str], validator: str
) -> ChainValidation:
    return ChainValidation(
        answer_id=answer.answer_id,
        task_id=answer.task_id,
        family=answer.family,
        method=answer.method,
        backbone=answer.backbone,
        claim_index=k,
        claim=claim,
        stage=stage,
        outcome=outcome,
        reason=reason,
        tuple_ids=tuple_ids,
        validator=validator,
    )

"""LLM drafting of task text with a judge-rewrite loop (ForeSci §3.4 / B.6, LLM mode).

The ForeSci authors drafted task questions with an LLM and then had a judge score and
a rewriter polish them. Here, for one task:

1. **draft**: the model writes a title and question from the task's `Draft` (family,
   window, options, subdirection or project) with the offline template text as a
   reference;
2. **judge**: the model scores the draft on `CRITERIA` (each in [0, 1]) and gives
   feedback; the draft's score is the mean;
3. **rewrite**: below `threshold` the model rewrites the draft from the feedback, and the
   new text is judged again, at most `max_rounds` rewrites.

Every step goes through `LLMClient.structured` (so it is cached: a rebuild costs no
calls) and is recorded as a `BuildStep` in the task's hidden `TaskBuild.build_trace`.
The best-scoring text is kept. If a call fails for good, the template text is used and
the trace says why (step "fallback"). The builder still runs the deterministic
leakage and curation checks on whatever text comes back.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field

from pydantic import BaseModel, Field

from assets.families import get_family
from assets.toolbox.building import Draft
from core.records import BuildStep

CRITERIA = ("clarity", "clear_decision", "temporal_discipline", "no_internal_ids", "family_fit")
DEFAULT_THRESHOLD = 0.8
DEFAULT_MAX_ROUNDS = 2


class DraftText(BaseModel):
    title: str = Field(description="a short task title")
    question: str = Field(description="the public question an agent answers")


class DraftJudgement(BaseModel):
    clarity: float = Field(ge=0.0, le=1.0)
    clear_decision: float = Field(ge=0.0, le=1.0)
    temporal_discipline: float = Field(ge=0.0, le=1.0)
    no_internal_ids: float = Field(ge=0.0, le=1.0)
    family_fit: float = Field(ge=0.0, le=1.0)
    feedback: str = ""

    @property
    def overall(self) -> float:
        return sum(getattr(self, c) for c in CRITERIA) / len(CRITERIA)


@dataclass
class DraftResult:
    """What a drafter returns: the text plus its construction trace."""

    title: str
    question: str
    trace: list[BuildStep] = field(default_factory=list)
    drafted_by: str = "template"


def _sha(messages: list[dict]) -> str:
    return hashlib.sha256(json.dumps(messages, sort_keys=True).encode()).hexdigest()[:16]


def describe(draft: Draft) -> str:
    """The facts a drafter may use, as plain text (nothing internal, nothing after the cutoff)."""
    lines = [
        f"Family: {get_family(draft.family).title} ({get_family(draft.family).summary})",
        f"Domain: {draft.domain_title}",
        f"Cutoff (last day of visible literature): {draft.cutoff.isoformat()}",
        f"Forecast window: {draft.window_start.isoformat()} to {draft.window_end.isoformat()}",
        "Horizon: " + get_family(draft.family).horizon_text.format(months=draft.horizon_months),
    ]
    if draft.subdirection:
        lines.append(f"Subdirection: {draft.subdirection}")
    if draft.team_size:
        lines.append(f"Team size: {draft.team_size} researchers")
    if draft.project:
        lines.append(
            f'Project description (keep it verbatim in the question, written as Project description: "..."): "{draft.project}"'
        )
    if draft.options:
        lines.append("Options (listed separately to the agent; refer to them, do not rename them):")
        lines += [f"- {o.option_id}: {o.text}" for o in draft.options]
    return "\n".join(lines)


RULES = (
    "Rules: write in plain academic English; ask exactly one decision; state the cutoff and the window "
    "with their ISO dates; mention no date after the cutoff other than the window bounds; name no paper, "
    "method, result or event after the cutoff; never include identifiers (no ids with colons, no 'ev:' or "
    "'sig:' strings); do not reveal or hint at which option is correct."
)


def draft_messages(draft: Draft, ref_title: str, ref_question: str) -> list[dict]:
    return [
        {
            "role": "system",
            "content": "You write benchmark tasks that test forward-looking research judgement. "
            'Reply with a JSON object {"title": ..., "question": ...}.',
        },
        {
            "role": "user",
            "content": f"{describe(draft)}\n\nReference wording (improve it, keep every fact):\n"
            f"Title: {ref_title}\nQuestion: {ref_question}\n\n{RULES}",
        },
    ]


def judge_messages(draft: Draft, text: DraftText) -> list[dict]:
    crit = ", ".join(CRITERIA)
    return [
        {
            "role": "system",
            "content": "You review benchmark tasks. Score each criterion from 0 to 1 and give "
            f"one paragraph of concrete feedback. Reply with JSON with keys {crit}, feedback.",
        },
        {
            "role": "user",
            "content": f"{describe(draft)}\n\nDraft title: {text.title}\nDraft question: {text.question}\n\n"
            f"Criteria: clarity (unambiguous, readable); clear_decision (exactly one decision "
            f"is asked); temporal_discipline (cutoff and window stated, nothing after the "
            f"cutoff); no_internal_ids (no identifiers or construction artefacts); family_fit "
            f"(asks what the family asks).\n{RULES}",
        },
    ]


def rewrite_messages(draft: Draft, text: DraftText, feedback: str) -> list[dict]:
    return [
        {"role": "system", "content": 'You revise benchmark tasks. Reply with a JSON object {"title": ..., "question": ...}.'},
        {
            "role": "user",
            "content": f"{describe(draft)}\n\nCurrent title: {text.title}\nCurrent question: {text.question}\n\n"
            f"Reviewer feedback: {feedback}\n\nRewrite the task to address the feedback. {RULES}",
        },
    ]


class LLMDrafter:
    """Drafter for `build_tasks` in LLM mode (see the module docstring)."""

    def __init__(
        self,
        client,
        *,
        threshold: float = DEFAULT_THRESHOLD,
        max_rounds: int = DEFAULT_MAX_ROUNDS,
        seed: int = 0,
        temperature: float = 0.0,
    ):
        if client is None or client.offline:
            raise ValueError("LLMDrafter needs a configured (online) LLM client")
        self.client, self.threshold, self.max_rounds = client, threshold, max_rounds
        self.seed, self.temperature = seed, temperature

    def _ask(self, messages, schema, purpose):
        return self.client.structured(messages, schema, purpose=purpose, temperature=self.temperature, seed=self.seed)

    def __call__(self, draft: Draft) -> DraftResult:
        from resources.llm import LLMCallError

        ref_title, ref_question = get_family(draft.family).template(draft)
        model = self.client.model
        trace: list[BuildStep] = []
        fam = draft.family
        try:
            msgs = draft_messages(draft, ref_title, ref_question)
            text = self._ask(msgs, DraftText, f"task_draft:{fam}")
            trace.append(
                BuildStep(
                    step="draft", model=model, purpose=f"task_draft:{fam}", request_sha=_sha(msgs), output=text.model_dump_json()
                )
            )
            best: tuple[float, DraftText] | None = None
            for rnd in range(self.max_rounds + 1):
                msgs = judge_messages(draft, text)
                verdict = self._ask(msgs, DraftJudgement, f"task_judge:{fam}")
                score = round(verdict.overall, 4)
                ok = score >= self.threshold
                trace.append(
                    BuildStep(
                        step="judge",
                        round=rnd,
                        model=model,
                        purpose=f"task_judge:{fam}",
                        request_sha=_sha(msgs),
                        output=verdict.model_dump_json(),
                        score=score,
                        accepted=ok,
                    )
                )
                if best is None or score > best[0]:
                    best = (score, text)
                if ok or rnd == self.max_rounds:
                    break
                msgs = rewrite_messages(draft, text, verdict.feedback)
                text = self._ask(msgs, DraftText, f"task_rewrite:{fam}")
                trace.append(
                    BuildStep(
                        step="rewrite",
                        round=rnd + 1,
                        model=model,
                        purpose=f"task_rewrite:{fam}",
                        request_sha=_sha(msgs),
                        output=text.model_dump_json(),
                    )
                )
        except LLMCallError as exc:
            trace.append(
                BuildStep(
                    step="fallback",
                    model=model,
                    error=str(exc)[:500],
                    output=json.dumps({"title": ref_title, "question": ref_question}),
                )
            )
            return DraftResult(ref_title, ref_question, trace, "template")
        score, chosen = best
        return DraftResult(chosen.title.strip(), chosen.question.strip(), trace, model)

"""The shared rubric call(s) behind Evidence Traceability and Reviewer Persuasiveness.

One evidence packet, R repeats; the compact protocol asks Trace, Persuasiveness and drift
in one call per repeat, the reference protocol in two. Run once per answer (memoised in
the scoring context) whichever of the two scorers asks first."""

from __future__ import annotations

import statistics

import assets.scorers.llm_judge as llm_judge
from assets.scorers.base import ScoringContext


def mean_std(values: list[float | None]) -> tuple[float | None, float | None]:
    """Mean and population SD of the repeats that produced a value."""
    xs = [float(v) for v in values if v is not None]
    if not xs:
        return None, None
    return sum(xs) / len(xs), statistics.pstdev(xs) if len(xs) > 1 else 0.0


def rubric_repeats(ctx: ScoringContext) -> list[llm_judge.RubricResult]:
    """The R rubric repeats of ctx's answer (failed repeats are recorded and left out)."""
    if "rubric" in ctx.memo:
        return ctx.memo["rubric"]
    settings = ctx.settings
    judge = llm_judge.judge_rubric_separate if settings.protocol == "reference" else llm_judge.judge_rubric
    packet = llm_judge.evidence_packet(ctx.answer, ctx.task, ctx.kb_get)
    temperature = settings.temperature if settings.repeats > 1 else 0.0
    n_repeats = max(1, settings.repeats)
    # what is left of the per-answer character target, shared evenly by the rubric repeats
    budget = max(0, llm_judge.COST_TARGET["prompt_chars"] - ctx.ledger.prompt_chars - 200) // n_repeats
    repeats: list[llm_judge.RubricResult] = []
    for r in range(n_repeats):
        try:
            repeats.append(
                judge(
                    ctx.task,
                    ctx.answer,
                    ctx.gold,
                    packet,
                    ctx.judge,
                    ctx.ledger,
                    repeat=r,
                    temperature=temperature,
                    budget=budget,
                )
            )
        except Exception as exc:  # noqa: BLE001 - recorded; the other repeats go on
            ctx.fail(f"rubric repeat {r}", exc)
    ctx.memo["rubric"] = repeats
    return repeats

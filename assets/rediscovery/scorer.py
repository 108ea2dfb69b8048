"""Claim-level P/R/F1 of rediscovered findings (FIRE-Bench §3.3) with the error taxonomy (§5.2).

The values go to the FTA columns (`fta` = claim F1, `fta_precision`, `fta_recall`): FTA is
the benchmark's "agreement with the hidden target" column that the validity report, the
leaderboard and the release read, and for this family the hidden target is a set of
findings, so agreement is claim F1 (as ranking FTA is the F1 of a ranking). Error-type
counts of the unmatched claims go to `Score.values` (`fp_<type>`, `fn_<type>`).

Offline: the lexical entailment proxy of `core/claims.py`. With a judge model:
one batched call per answer (`assets/rediscovery/llm.py: judge_claims`); a failed call is a
Failure row and the offline matcher scores the answer (noted in the rationale).
"""

from __future__ import annotations

from assets.rediscovery.llm import judge_claims
from assets.scorers.base import Scorer, ScorerResult, ScoringContext
from core import claims as cl

ERROR_VALUES = cl.ERROR_VALUES


def answer_findings(answer) -> list[str]:
    """The answer's atomic claims: its findings (the hedge control states them as its decision)."""
    return cl.atomic_claims(list(answer.claims or answer.decision))


class RediscoveryClaims(Scorer):
    name = "rediscovery_claims"
    title = "Claim-level rediscovery F1"
    summary = "answer vs hidden findings: TP if a gold claim entails it; P = TP/|answer|, R = 1 - FN/|gold|, F1; error types"
    source = "FIRE-Bench §3.3, §5.2"
    values = ("fta", "fta_precision", "fta_recall", *ERROR_VALUES)
    reported = ("fta", "fta_precision", "fta_recall")
    headline = ("fta",)
    families = ("rediscovery",)

    def score(self, ctx: ScoringContext) -> ScorerResult:
        answer = answer_findings(ctx.answer)
        gold = [c.text for c in ctx.gold.claims]
        if not gold:
            return ScorerResult({v: None for v in self.values}, "no hidden findings")
        how = "offline lexical entailment proxy"
        result = None
        if ctx.judge is not None:
            try:
                result = judge_claims(ctx.judge, ctx.task.question, answer, gold)
                how = f"judge {ctx.judge.model} (one batched call)"
            except Exception as exc:  # noqa: BLE001 - recorded; the offline matcher scores it
                ctx.fail("rediscovery_claims", exc)
        if result is None:
            result = cl.score_claims(answer, gold)
        counts = result.error_counts()
        values = {
            "fta": result.f1,
            "fta_precision": result.precision,
            "fta_recall": result.recall,
            **{k: float(v) for k, v in counts.items()},
        }
        errors = ", ".join(f"{k} {v}" for k, v in counts.items() if v)
        return ScorerResult(
            values,
            f"{how}: TP {result.tp}/{len(answer)} answer claims, "
            f"{len(gold) - len(result.fn_types)}/{len(gold)} findings rediscovered" + (f"; {errors}" if errors else ""),
        )

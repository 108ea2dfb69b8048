"""Future-Target Alignment (ForeSci Appendix C.1, eqs. 6-11): how close the answer's
decision is to what happened after the cutoff. Needs no model: reference-guided FTA embeds
claims and gold slot variants; ranking FTA compares orderings."""

from __future__ import annotations

from assets.judging import metrics
from assets.scorers.base import Scorer, ScorerResult, ScoringContext


class ReferenceFTA(Scorer):
    name = "fta_reference"
    title = "Future-Target Alignment (reference-guided)"
    summary = "mean over hidden gold slots of the best cosine match among the answer's claims"
    source = "ForeSci Appendix C.1, eqs. 6-7"
    values = ("fta",)
    labels = {"fta": "FTA"}
    answer_kinds = ("choice", "text")

    def score(self, ctx: ScoringContext) -> ScorerResult:
        answer = ctx.answer
        claims = [c for c in answer.claims if c.strip()] or ([answer.text] if answer.text.strip() else [])
        slots = [s for s in ctx.gold.slots if s.variants]
        if not slots:
            return ScorerResult({"fta": None}, "no gold slot with variants: FTA undefined")
        claim_vecs = ctx.embed(claims) if claims else ctx.embed([""])[:0]
        result = metrics.fta_reference_guided(claim_vecs, [ctx.embed(s.variants) for s in slots])
        per_slot = ", ".join(f"{s.slot}={v:.2f}" for s, v in zip(slots, result["slot_scores"]))
        return ScorerResult({"fta": result["score"]}, f"{len(claims)} claims vs gold slots: {per_slot}")


class RankingFTA(Scorer):
    name = "fta_ranking"
    title = "Future-Target Alignment (ranking)"
    summary = "F1 of ranking precision and recall (top-1, positions, pairs) against the hidden preferred ranking"
    source = "ForeSci Appendix C.1, eqs. 8-11"
    values = ("fta", "fta_precision", "fta_recall")
    reported = ("fta",)
    labels = {"fta": "FTA", "fta_precision": "FTA-P", "fta_recall": "FTA-R"}
    answer_kinds = ("ranking",)

    def score(self, ctx: ScoringContext) -> ScorerResult:
        result = metrics.fta_ranking(ctx.gold.preferred_ranking, ctx.answer.ranking)
        values = {"fta": result["f1"], "fta_precision": result["precision"], "fta_recall": result["recall"]}
        if result["f1"] is None:
            return ScorerResult(values, "no hidden preferred ranking: FTA undefined")
        return ScorerResult(values, f"top-1 {'hit' if result['top'] else 'miss'}, positions {result['pos']:.2f}, "
                                    f"pairs {result['pair']:.2f} over {len(ctx.answer.ranking)} ranked options")

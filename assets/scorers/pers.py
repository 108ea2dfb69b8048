"""Reviewer Persuasiveness (ForeSci Appendix C.1) with the evidence-to-decision drift
labels (Appendix C.2) read from the same rubric reply: holistic score, mean and SD over R
repeats, the family's own rubric dimensions (`TaskFamily.rubric_dimensions`) plus the
generic ones."""

from __future__ import annotations

from assets.scorers.base import Scorer, ScorerResult, ScoringContext
from assets.scorers.rubric import mean_std, rubric_repeats


class Persuasiveness(Scorer):
    name = "pers"
    title = "Reviewer Persuasiveness"
    summary = "holistic rubric score of a knowledgeable reviewer, with per-dimension scores and drift labels"
    source = "ForeSci Appendix C.1-C.2"
    values = ("pers", "pers_std")
    reported = ("pers",)
    leaderboard_rank = 30
    labels = {"pers": "Pers", "pers_std": "Pers-SD"}
    answer_kinds = ("choice", "ranking", "text")
    needs_judge = True

    def score(self, ctx: ScoringContext) -> ScorerResult:
        if ctx.judge is None:
            return ScorerResult({"pers": None, "pers_std": None})
        repeats = rubric_repeats(ctx)
        pers, pers_std = mean_std([rr.holistic for rr in repeats])
        dims = sorted({d for rr in repeats for d in rr.dimensions})
        dimensions = {d: mean_std([rr.dimensions.get(d) for rr in repeats])[0] for d in dims}
        drift_keys = sorted({d for rr in repeats for d in rr.drift})
        drift = {d: mean_std([rr.drift.get(d) for rr in repeats])[0] for d in drift_keys}
        return ScorerResult(
            {"pers": pers, "pers_std": pers_std},
            details={
                "pers_dimensions": {k: v for k, v in dimensions.items() if v is not None},
                "drift": {k: v for k, v in drift.items() if v is not None},
            },
        )

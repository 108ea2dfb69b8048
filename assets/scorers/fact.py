"""Prediction Factuality (ForeSci Appendix C.1): the answer's atomic claims checked against
the hidden claim bank (precision) and the bank's coverage by the answer (recall), F1.
Needs a judge model: compact protocol one call, reference protocol one call per claim."""

from __future__ import annotations

import assets.scorers.llm_judge as llm_judge
from assets.scorers.base import Scorer, ScorerResult, ScoringContext

NULL = {"fact": None, "fact_precision": None, "fact_recall": None}


class Fact(Scorer):
    name = "fact"
    title = "Prediction Factuality"
    summary = "claim-level precision/recall/F1 of the answer against the hidden post-cutoff claim bank"
    source = "ForeSci Appendix C.1"
    values = ("fact", "fact_precision", "fact_recall")
    labels = {"fact": "Fact", "fact_precision": "Fact-P", "fact_recall": "Fact-R"}
    leaderboard_rank = 20
    answer_kinds = ("choice", "ranking", "text")
    needs_judge = True

    def score(self, ctx: ScoringContext) -> ScorerResult:
        if ctx.judge is None:
            return ScorerResult(dict(NULL))
        if not ctx.gold.claims:
            return ScorerResult(dict(NULL), "empty hidden claim bank: Fact undefined")
        judge = llm_judge.judge_fact_per_claim if ctx.settings.protocol == "reference" else llm_judge.judge_fact
        try:
            fact = judge(ctx.task, ctx.answer, ctx.gold, ctx.judge, ctx.ledger)
        except Exception as exc:  # noqa: BLE001 - recorded; the other metrics go on
            ctx.fail("fact", exc)
            return ScorerResult(dict(NULL))
        ctx.memo["fact"] = fact  # the agreement study reads the labels
        return ScorerResult({"fact": fact.f1, "fact_precision": fact.precision, "fact_recall": fact.recall}, fact.note)

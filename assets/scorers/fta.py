"""Future-Target Alignment (ForeSci Appendix C.1, eqs. 6-11): how close the answer's
decision is to what happened after the cutoff. Needs no model: reference-guided FTA embeds
the answer's decision and the gold slot variants; ranking FTA compares orderings.

Reference-guided FTA rewards commitment (a deviation from eq. 6, docs/deviations.md):
* it scores the answer's DECISION (`Answer.decision`: the chosen option and its
  trajectory, the named bottleneck and opportunity), not every claim, capped at
  MAX_DECISION texts, so listing many guesses cannot raise the best match;
* polarity: a decision text that negates (``not``, ``decline``, ``cooling`` ...) matches
  no slot whose variants do not negate too, so "X will not grow" never matches "X grows";
* hedging: if the decision names k > 1 candidates (the task's options, or the candidates
  the gold ranked for a task without options), the score is divided by k.
"""

from __future__ import annotations

import re

import numpy as np

from assets.judging import metrics
from assets.scorers.base import Scorer, ScorerResult, ScoringContext

MAX_DECISION = 3
NEGATION = re.compile(r"\b(not|no longer|never|won't|cannot|decline\w*|cool\w*|fad\w*|shrink\w*|least|fall\w*)\b",
                      re.I)


def decision_of(answer) -> list[str]:
    """The texts an answer commits to (older answers without `decision`: their first claim)."""
    texts = [t for t in answer.decision if t.strip()] or [c for c in answer.claims[:1] if c.strip()]
    return texts[:MAX_DECISION]


def candidates_named(task, gold, texts: list[str]) -> int:
    """How many candidates the decision texts name (case-insensitive substring): the task's
    options, or for a task without options the candidates its gold ranked (hidden)."""
    low = " ".join(texts).lower()
    names = {n.strip().lower() for n in ([o.text for o in task.options] or list(gold.preferred_ranking)) if n.strip()}
    matched = [n for n in names if n in low]
    # a name inside a longer matched name ("security" in "vulnerabilities / security") is that one candidate
    return sum(1 for n in matched if not any(n != m and n in m for m in matched))


def negates(text: str) -> bool:
    return bool(NEGATION.search(text))


class ReferenceFTA(Scorer):
    name = "fta_reference"
    title = "Future-Target Alignment (reference-guided)"
    summary = "mean over hidden gold slots of the best cosine match among the answer's decision texts"
    source = "ForeSci Appendix C.1, eqs. 6-7 (decision-only, polarity, hedging penalty)"
    values = ("fta",)
    labels = {"fta": "FTA"}
    answer_kinds = ("choice", "text", "report")  # report: the phase family's key points vs its reference keypoints

    def score(self, ctx: ScoringContext) -> ScorerResult:
        texts = decision_of(ctx.answer)
        slots = [s for s in ctx.gold.slots if s.variants]
        if not slots:
            return ScorerResult({"fta": None}, "no gold slot with variants: FTA undefined")
        if not texts:
            return ScorerResult({"fta": 0.0}, "the answer commits to nothing")
        claim_vecs = ctx.embed(texts)
        per_slot = []
        for s in slots:
            # polarity: a negated decision text cannot match a slot that states the positive
            usable = [i for i, t in enumerate(texts) if not negates(t) or any(negates(v) for v in s.variants)]
            if not usable:
                per_slot.append(0.0)
                continue
            result = metrics.fta_reference_guided(np.asarray(claim_vecs)[usable], [ctx.embed(s.variants)])
            per_slot.append(result["score"])
        score = float(sum(per_slot) / len(per_slot))
        k = candidates_named(ctx.task, ctx.gold, texts)
        note = ""
        if k > 1:
            score /= k
            note = f"; names {k} candidates: divided by {k}"
        detail = ", ".join(f"{s.slot}={v:.2f}" for s, v in zip(slots, per_slot))
        return ScorerResult({"fta": score}, f"decision vs gold slots: {detail}{note}")


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

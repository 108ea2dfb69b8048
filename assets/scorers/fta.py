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
  the gold ranked for a task without options), the score is divided by k (0 for a family with
  `hedge_scores_zero`: bottleneck, whose pick is one open phrase).
"""

from __future__ import annotations

import re

import numpy as np

from assets.families.registry import family_names, get_family
from assets.scorers.base import Scorer, ScorerResult, ScoringContext
from core import metrics

MAX_DECISION = 3
# Open ranking tasks (imported questions that list no options: the gold ranks TEXTS): an
# answer's ranked text names a gold candidate when their cosine is at least this, matched one
# to one, best pairs first. 0.75 is the median cosine between two candidates of one task in
# the authors' refined release (static embedder): a text less similar to a candidate than two
# sibling candidates are to each other names none of them.
OPEN_MATCH_MIN = 0.75
NEGATION = re.compile(r"\b(not|no longer|never|won't|cannot|decline\w*|cool\w*|fad\w*|shrink\w*|least|fall\w*)\b", re.I)


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


def hedge_texts(task, texts: list[str]) -> list[str]:
    """The decision texts the hedging penalty reads: all of them, or the pick alone for a
    family whose other texts describe the pick (`TaskFamily.hedge_in_pick_only`)."""
    family = get_family(task.family) if task.family in family_names() else None
    return texts[:1] if family is not None and family.hedge_in_pick_only else texts


def hedge_scores_zero(task) -> bool:
    """A hedge scores 0 rather than 1/k for a family that says so (`TaskFamily.hedge_scores_zero`)."""
    family = get_family(task.family) if task.family in family_names() else None
    return family is not None and family.hedge_scores_zero


def negates(text: str) -> bool:
    return bool(NEGATION.search(text))


class ReferenceFTA(Scorer):
    name = "fta_reference"
    title = "Future-Target Alignment (reference-guided)"
    summary = "mean over hidden gold slots of the best cosine match among the answer's decision texts"
    source = "ForeSci Appendix C.1, eqs. 6-7 (decision-only, polarity, hedging penalty)"
    values = ("fta",)
    labels = {"fta": "FTA"}
    leaderboard_rank = 0  # the first column: the statistics (n, MDD, pairwise) are on FTA
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
        k = candidates_named(ctx.task, ctx.gold, hedge_texts(ctx.task, texts))
        note = ""
        if k > 1 and hedge_scores_zero(ctx.task):
            score = 0.0
            note = f"; names {k} candidates: a hedge, scored 0"
        elif k > 1:
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
    leaderboard_rank = 0
    answer_kinds = ("ranking",)

    def score(self, ctx: ScoringContext) -> ScorerResult:
        result = metrics.fta_ranking(ctx.gold.preferred_ranking, matched_ranking(ctx))
        values = {"fta": result["f1"], "fta_precision": result["precision"], "fta_recall": result["recall"]}
        if result["f1"] is None:
            return ScorerResult(values, "no hidden preferred ranking: FTA undefined")
        return ScorerResult(
            values,
            f"top-1 {'hit' if result['top'] else 'miss'}, positions {result['pos']:.2f}, "
            f"pairs {result['pair']:.2f} over {len(ctx.answer.ranking)} ranked options",
        )


def matched_ranking(ctx: ScoringContext) -> list[str]:
    """The answer's ranking in the gold's terms. With options: the option ids as given. For an
    open task (no options; the gold ranks texts): each ranked text replaced by the gold
    candidate it names (cosine >= OPEN_MATCH_MIN, one to one, best pairs first, the same
    embedding match reference-guided FTA uses); a text that names none stays a miss."""
    ranking, gold = list(ctx.answer.ranking), list(ctx.gold.preferred_ranking)
    if ctx.task.options or not ranking or not gold:
        return ranking
    a, g = np.asarray(ctx.embed(ranking), dtype=float), np.asarray(ctx.embed(gold), dtype=float)
    a /= np.maximum(np.linalg.norm(a, axis=1, keepdims=True), 1e-12)
    g /= np.maximum(np.linalg.norm(g, axis=1, keepdims=True), 1e-12)
    cos = a @ g.T
    out = [f"(no candidate) {r}" for r in ranking]
    used: set[int] = set()
    for value, i, j in sorted(
        ((float(cos[i, j]), i, j) for i in range(len(ranking)) for j in range(len(gold))), key=lambda x: (-x[0], x[1], x[2])
    ):
        if value < OPEN_MATCH_MIN:
            break
        if out[i].startswith("(no candidate) ") and j not in used:
            out[i] = gold[j]
            used.add(j)
    return out

"""Reference validity (ScholarEval §4, with a temporal bound): the share of an answer's cited
ids that exist in the knowledge base and are dated on or before the task's cutoff.

ScholarEval checks that a cited URL answers HTTP 200; existence in the KB plus the date
bound is the stronger, temporal check. It applies to every family's answers; an answer that
cites nothing has no value (null, not 0). It is reported in the leaderboard, not a headline
value: it says whether the citations are admissible, not whether the judgement is good."""

from __future__ import annotations

from collections.abc import Iterable
from datetime import date

from assets.scorers.base import Scorer, ScorerResult, ScoringContext


def reference_validity(cited: Iterable[str], known: dict[str, date], cutoff: date) -> dict:
    """Share of cited ids that exist in `known` (id -> publication date) and are dated on or
    before `cutoff`; None when nothing is cited."""
    ids = list(dict.fromkeys(c.strip().removeprefix("arXiv:").removeprefix("arxiv:") for c in cited if c.strip()))
    unknown = [c for c in ids if c not in known]
    late = [c for c in ids if c in known and _day(known[c]) > cutoff]
    valid = [c for c in ids if c in known and _day(known[c]) <= cutoff]
    return {
        "share": round(len(valid) / len(ids), 4) if ids else None,
        "cited": len(ids),
        "valid": len(valid),
        "after_cutoff": late,
        "unknown": unknown,
    }


def _day(value) -> date:
    return value if isinstance(value, date) else date.fromisoformat(str(value)[:10])


class ReferenceValidity(Scorer):
    """Checked against the partition's knowledge-base dates (`ScoringContext.kb_dates`) and
    the task's own cutoff (`Task.cutoff`, which may precede the partition's)."""

    name, title = "reference_validity", "Reference validity"
    summary = "share of cited ids that exist in the KB and are dated on or before the task's cutoff"
    source = "ScholarEval §4 (reference validity), with a temporal bound"
    values = ("reference_validity",)
    headline = ()  # reported, never charted or diagnosed as a judgement metric
    labels = {"reference_validity": "Ref-valid"}
    leaderboard = {"ref_valid": "reference_validity"}
    leaderboard_rank = 70

    def applies_to(self, family) -> bool:
        return True

    def score(self, ctx: ScoringContext) -> ScorerResult:
        res = reference_validity(ctx.answer.evidence_ids, ctx.kb_dates, ctx.task.cutoff)
        return ScorerResult(
            {"reference_validity": res["share"]},
            f"{res['valid']}/{res['cited']} cited ids valid, {len(res['after_cutoff'])} after "
            f"the cutoff, {len(res['unknown'])} not in the KB",
        )

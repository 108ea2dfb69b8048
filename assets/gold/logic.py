"""Hidden gold targets from the future window (ForeSci §3.4 G_{>t}(q), Appendix C.1).

Gold is measured, not opined: every target is computed from the papers published in
(cutoff, window_end] and records the numbers and future paper ids it rests on. Each
task's family computes it (`TaskFamily.gold`) from the shared partition context
(`assets.gold.measure.GoldContext`).
"""

from __future__ import annotations

from datetime import date

from assets.families import get_family
from assets.gold.measure import Claims, GoldContext, VenueScorer, insufficient
from core.records import (
    GoldTarget,
    ScreenedPaper,
    Signal,
    Task,
    TaskBuild,
    TaxonomyNode,
)


def build_gold(
    tasks: list[Task],
    builds: list[TaskBuild],
    signals: list[Signal],
    nodes: list[TaxonomyNode],
    public_papers: list[ScreenedPaper],
    future_papers: list[ScreenedPaper],
    embed,
    *,
    cutoff: date,
    window_end: date,
    venue_scorer: VenueScorer | None = None,
    prior_from: str = "recomputed",
) -> list[GoldTarget]:
    """One hidden `GoldTarget` per task, in task order.

    `venue_scorer(texts) -> {family name: score}` ranks venue families for texts (the
    evidence stage's `venue_similarity` bound to its venue lists and date); without it the
    families are ranked by similarity to their profiles' top terms and example titles.
    `prior_from` ("recomputed" or "signal") is where option momentum takes its pre-cutoff share.
    """
    ctx = GoldContext(nodes, public_papers, future_papers, embed, cutoff, window_end,
                      venue_scorer=venue_scorer, prior_from=prior_from)
    by_id = {s.signal_id: s for s in signals}
    build_of = {b.task_id: b for b in builds}
    out: list[GoldTarget] = []
    for task in tasks:
        family = get_family(task.family)  # an unknown family is an error, never a default
        build = build_of.get(task.task_id)
        if build is None:
            out.append(insufficient(task, Claims(task.task_id), "no construction record", {}, []))
        else:
            out.append(family.gold(ctx, task, build, by_id))
    return out

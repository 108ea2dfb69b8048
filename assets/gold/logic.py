"""Hidden gold targets from the future window (ForeSci §3.4 G_{>t}(q), Appendix C.1).

Gold is measured, not opined: every target is computed from the papers published in
(cutoff, window_end] and records the numbers and future paper ids it rests on. Each
task's family computes it (`TaskFamily.gold`) from the shared partition context
(`assets.toolbox.measure.GoldContext`).
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import date

import numpy as np

from assets.families import get_family
from assets.toolbox.measure import Claims, GoldContext, VenueScorer, insufficient
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
    venue_on_topic: Callable[[str], bool] | None = None,
    prior_from: str = "recomputed",
    stability_resamples: int = 0,
    seed: int = 0,
) -> list[GoldTarget]:
    """One hidden `GoldTarget` per task, in task order.

    `venue_scorer(texts) -> {family name: score}` ranks venue families for texts (the
    evidence stage's `venue_similarity` bound to its venue lists and date); without it the
    families are ranked by similarity to their profiles' top terms and example titles.
    `venue_on_topic(project) -> bool` says whether a venue task's project fits any community
    as a paper of the domain does (False: no confident venue gold); None: every project does.
    `prior_from` ("recomputed" or "signal") is where option momentum takes its pre-cutoff share.
    `stability_resamples` > 0: each gold with evidence is recomputed on that many bootstrap
    resamples of the window's papers, and `numbers["stability_top1"]` records how often its
    first-ranked object stays first.
    """
    ctx = GoldContext(
        nodes,
        public_papers,
        future_papers,
        embed,
        cutoff,
        window_end,
        venue_scorer=venue_scorer,
        venue_on_topic=venue_on_topic,
        prior_from=prior_from,
    )
    by_id = {s.signal_id: s for s in signals}
    build_of = {b.task_id: b for b in builds}
    out: list[GoldTarget] = []
    for task in tasks:
        family = get_family(task.family)  # an unknown family is an error, never a default
        build = build_of.get(task.task_id)
        if build is None:
            out.append(insufficient(task, Claims(task.task_id), "no construction record", {}, []))
        elif family.gold is None:  # the family measures no gold here (e.g. idea review: its own job)
            out.append(insufficient(task, Claims(task.task_id), f"family {family.name} has no gold measure", {}, []))
        else:
            out.append(family.gold(ctx, task, build, by_id))
    if stability_resamples > 0:
        add_stability(out, tasks, build_of, by_id, ctx, stability_resamples, seed)
    return out


def add_stability(
    golds: list[GoldTarget],
    tasks: list[Task],
    build_of: dict[str, TaskBuild],
    signals: dict[str, Signal],
    ctx: GoldContext,
    resamples: int,
    seed: int,
) -> None:
    """Top-1 agreement of each gold with its recomputation on bootstrap resamples of the window.

    Only golds the release gate could still pass are resampled: a gold its family's own rules
    already refuse on the full window (`evidence_problems`, `validity_problems`: margin,
    measures, premise ...) is never released, whatever its stability (`assets.ranking.gate`
    reads those rules first), and resampling it was most of this stage's time (issue 33: ten
    recomputations of each of 373 candidate tasks to release 35)."""
    contexts = [ctx.resampled(np.random.default_rng([seed, r])) for r in range(resamples)]
    for task, gold in zip(tasks, golds):
        family = get_family(task.family)
        if gold.strength <= 0 or not gold.preferred_ranking or task.task_id not in build_of or family.gold is None:
            continue
        if family.evidence_problems(task, gold) or family.validity_problems(task, gold):
            continue
        same = sum(
            family.gold(c, task, build_of[task.task_id], signals).preferred_ranking[:1] == gold.preferred_ranking[:1]
            for c in contexts
        )
        gold.numbers["stability_top1"] = round(same / resamples, 4)

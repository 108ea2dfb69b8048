"""The planning gold beyond the ordering (ForeSci App. B.4, C.1 planning rubric): per
candidate, what the window's papers did first, what it built on, and whether it stalled.

Measured from the window papers the momentum gold counted for each option
(`GoldTarget.counted`, the neighbour vote of `assets.gold.measure`), so a reader checks it
against the same listed papers:

* milestones: the candidate's first MILESTONES window papers by date, papers that state a
  method (`assets.gold.measure.method_sentence`) first: what the field did first;
* dependencies: the other options whose defining phrases appear in the title or abstract of
  at least DEPENDENCY_MIN_PAPERS of the candidate's window papers (most first): the
  directions its window work built on;
* kill criterion: "stop if the candidate's share of the domain's new papers in the first half
  of the window falls below COOLING_MAX x its pre-cutoff share" (COOLING_MAX: the same bar that
  labels a trajectory "cooling"); `stalled` says whether it fired.

FTA (ranking) scores the ordering; the rubric judge reads these through the reference brief
(`assets.judging.llm_judge.reference_brief`).
"""

from __future__ import annotations

from datetime import timedelta

from assets.gold.measure import COOLING_MAX, GoldContext, method_sentence, pct
from core.records import GoldTarget, PlanTarget, Signal, Task
from core.phrases import phrase_keys

MILESTONES = 3
DEPENDENCY_MIN_PAPERS = 2
MAX_DEPENDENCIES = 3


def plan_targets(ctx: GoldContext, task: Task, gold: GoldTarget, option_signals: dict[str, Signal],
                 names: dict[str, str]) -> dict[str, PlanTarget]:
    by_id = {p.arxiv_id: p for p in ctx.future}
    mid = task.window_start + timedelta(days=(task.window_end - task.window_start).days // 2)
    first_half = [p for p in ctx.future if p.published <= mid]
    phrases = {oid: set(s.details.get("defining_phrases", [])) for oid, s in option_signals.items()}
    out: dict[str, PlanTarget] = {}
    for oid in gold.preferred_ranking:
        papers = [by_id[e.split(" ", 1)[0]] for e in gold.counted.get(oid, []) if e.split(" ", 1)[0] in by_id]
        papers.sort(key=lambda p: (p.published, p.arxiv_id))
        ordered = [p for p in papers if method_sentence(p.abstract)] + [p for p in papers if not method_sentence(p.abstract)]
        first = sorted(ordered[:MILESTONES], key=lambda p: (p.published, p.arxiv_id))
        milestones = [f"{p.published} {p.arxiv_id}: {p.title[:110]}" for p in first]
        deps = []
        for other, wanted in phrases.items():
            if other == oid or not wanted:
                continue
            n = sum(not wanted.isdisjoint(phrase_keys(f"{p.title} {p.abstract}")) for p in papers)
            if n >= DEPENDENCY_MIN_PAPERS:
                deps.append((-n, other, f"{names[other]} ({n} of its {len(papers)} window papers also work on it)"))
        prior = gold.numbers.get(f"prior_share:{oid}", 0.0)
        bar = COOLING_MAX * prior
        early = sum(p.published <= mid for p in papers) / len(first_half) if first_half else 0.0
        gold.numbers[f"first_half_share:{oid}"] = round(early, 6)
        out[oid] = PlanTarget(
            milestones=milestones, dependencies=[d for _, _, d in sorted(deps)[:MAX_DEPENDENCIES]],
            kill_criterion=(f"stop {names[oid]} if it holds less than {pct(bar)} of the domain's new papers "
                            f"from {task.window_start} to {mid} (its share before the cutoff was {pct(prior)})"),
            stalled=bool(first_half) and early < bar)
    return out

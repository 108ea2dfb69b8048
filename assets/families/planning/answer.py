"""The planning answer: its schema, how an answer reads, the offline baselines' plan fields and
the hidden plan per approach (what the window's papers that built on it did)."""

from __future__ import annotations

from datetime import timedelta

from pydantic import BaseModel, Field

from assets.families.answers import bullets, ranking_lines
from assets.toolbox.measure import COOLING_MAX, GoldContext, method_sentence, pct
from core.records import GoldTarget, PlanTarget, Task

MILESTONES = 3
DEPENDENCY_MIN_PAPERS = 2
MAX_DEPENDENCIES = 3


class PlanningAnswer(BaseModel):
    ranking: list[str] = Field(default_factory=list, description="all option_ids, highest priority first")
    milestones: list[str] = Field(default_factory=list)
    dependencies: list[str] = Field(default_factory=list)
    risks: list[str] = Field(default_factory=list)
    go_no_go: str = ""
    claims: list[str] = Field(default_factory=list)
    cited_ids: list[str] = Field(default_factory=list)


def answer_lines(task: Task, parsed: PlanningAnswer, ranking: list[str]) -> list[str]:
    lines = ranking_lines(task, ranking)
    for title, items in (("Milestones", parsed.milestones), ("Dependencies", parsed.dependencies), ("Risks", parsed.risks)):
        if items:
            lines += [f"**{title}:**"] + bullets(items) + [""]
    if parsed.go_no_go.strip():
        lines += [f"**Go / no-go:** {parsed.go_no_go.strip()}", ""]
    return lines


def offline_fields(found: dict) -> dict:
    """The offline baselines' plan. momentum (the options' normalised trends): the options in
    trend order as milestones, the most recent work on the leader as dependency, the cooling
    options as risks, go while the leader's share keeps rising; retrieval: the options in
    support order, go on the best supported."""
    if "top" not in found:
        return {}
    top, ranked = found["top"], found["ranked"]
    if found.get("method") == "momentum":
        return {
            "milestones": [f"{i}. Work on '{t}' (trend {r:.2f}x)." for i, (t, r) in enumerate(zip(ranked, found["ratios"]), 1)],
            "dependencies": [
                f"Start from the most recent pre-cutoff work on '{top}': "
                + "; ".join(f"{title} ({pid})" for title, pid in found["recent_work"])
            ],
            "risks": [
                f"'{t}' is {label} ({r:.2f}x); effort there may not pay off within {found['window']}."
                for t, r, label in zip(ranked, found["ratios"], found["labels"])
                if r <= found["cooling_at"]
            ],
            "go_no_go": (
                f"Go on '{top}' while its normalised share keeps rising; no-go if it falls back under its prior-6-month level."
            ),
        }
    return {
        "milestones": [f"{i}. '{t}'" for i, t in enumerate(ranked, 1)],
        "go_no_go": f"Go on '{top}', which has the most pre-cutoff support.",
    }


def judge_brief(gold: GoldTarget) -> list[str]:
    """What the window's papers did per leading option: milestones, dependencies, kill criterion."""
    lines = []
    for oid in gold.preferred_ranking[:3]:
        plan = gold.plan.get(oid)
        if plan is not None:
            lines.append(
                f"Option {oid}: first milestones {'; '.join(m[:90] for m in plan.milestones[:2]) or 'none'}; "
                f"builds on {'; '.join(plan.dependencies[:2]) or 'no other option'}; "
                f"kill criterion: {plan.kill_criterion} ({'fired' if plan.stalled else 'not fired'})"
            )
    return lines


def plan_for(
    ctx: GoldContext,
    task: Task,
    gold: GoldTarget,
    per: dict[str, tuple[list[str], list[str]]],
    name: dict[str, str],
    window: list,
) -> dict[str, PlanTarget]:
    """Per approach, what the window's papers that built on it did (ForeSci App. B.4, C.1 planning
    rubric), from the papers the gold counted, so a reader checks it against the same list:

    * milestones: its first MILESTONES window papers by date, papers that state a method
      (`assets.toolbox.measure.method_sentence`) first;
    * dependencies: the other options built on by at least DEPENDENCY_MIN_PAPERS of its window
      papers (most first);
    * kill criterion: "stop if its share of the subfield's papers in the first half of the
      window falls below COOLING_MAX x its pre-cutoff share"; `stalled` says whether it fired.
    """
    by_id = {p.arxiv_id: p for p in ctx.future}
    mid = task.window_start + timedelta(days=(task.window_end - task.window_start).days // 2)
    first_half = [p for p in window if p.published <= mid]
    out: dict[str, PlanTarget] = {}
    for oid in gold.preferred_ranking:
        papers = sorted((by_id[i] for i in per[oid][0] if i in by_id), key=lambda p: (p.published, p.arxiv_id))
        ordered = [p for p in papers if method_sentence(p.abstract)] + [p for p in papers if not method_sentence(p.abstract)]
        first = sorted(ordered[:MILESTONES], key=lambda p: (p.published, p.arxiv_id))
        deps = []
        for other in gold.preferred_ranking:
            n = len(set(per[oid][0]) & set(per[other][0])) if other != oid else 0
            if n >= DEPENDENCY_MIN_PAPERS:
                deps.append((-n, other, f"{name[other]} ({n} of its {len(papers)} window papers also build on it)"))
        prior = gold.numbers.get(f"prior_share:{oid}", 0.0)
        early = sum(p.published <= mid for p in papers) / len(first_half) if first_half else 0.0
        gold.numbers[f"first_half_share:{oid}"] = round(early, 6)
        out[oid] = PlanTarget(
            milestones=[f"{p.published} {p.arxiv_id}: {p.title[:110]}" for p in first],
            dependencies=[d for _, _, d in sorted(deps)[:MAX_DEPENDENCIES]],
            kill_criterion=(
                f"stop {name[oid]} if it is built on by less than {pct(COOLING_MAX * prior)} of the papers on "
                f"this subfield from {task.window_start} to {mid} (its share before the cutoff was {pct(prior)})"
            ),
            stalled=bool(first_half) and early < COOLING_MAX * prior,
        )
    return out

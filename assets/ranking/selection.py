"""Rank tasks by Elo within each family and choose the release (top-N of validated tasks)."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable

from assets.ranking.elo import Judge, run_elo_until_stable, top_n
from core.records import Task, TaskRating


def rank_and_select(
    tasks: list[Task],
    quality: dict[str, dict[str, float]],
    make_judge: Callable[[list[str]], Judge],
    *,
    judge_name: str,
    top_n_per_family: int,
    top_n_by_family: dict[str, int] | None = None,
    gates: dict[str, str | None] | None = None,
    gold_answers: dict[str, str] | None = None,
    veto: Callable[[str, set[str]], str | None] | None = None,
    seed: int = 0,
    **elo_options,
) -> tuple[list[TaskRating], dict[str, float | None], dict[str, dict]]:
    """Elo per family until stable; the top-N tasks whose gold was validated are released.

    `quality[task_id]` holds `quality` and `gold_strength` (assets.ranking.judge.task_quality);
    `gates[task_id]`, if given, is why a task's gold may not be released (assets.ranking.gate);
    `gold_answers[task_id]`, if given, is the task's gold answer (its top option's text):
    two released tasks of a family never share one, so another task's gold is no shortcut
    (the `other_gold` control of assets/validity/controls.py) and a release asks distinct questions;
    `veto(task_id, released_so_far)`, if given, is why a task may not join the tasks released so
    far (families are selected in name order, e.g. direction before planning:
    `assets.ranking.defects.overlap_with_released`);
    `make_judge(ids)` returns the judge for one family. Returns the ratings, the rank
    correlation of the last two rounds per family, and the rounds played per family.
    """
    by_family: dict[str, list[str]] = defaultdict(list)
    for t in tasks:
        by_family[t.family].append(t.task_id)
    ratings: list[TaskRating] = []
    released_so_far: set[str] = set()
    correlations: dict[str, float | None] = {}
    rounds: dict[str, dict] = {}
    for family, ids in sorted(by_family.items()):
        # a task whose gold could not be validated (strength 0, or held back by the validity
        # gate) is never released
        why = {
            i: (gates or {}).get(i)
            or ("insufficient future evidence to validate (gold strength 0)" if quality[i]["gold_strength"] <= 0 else None)
            for i in ids
        }
        result = run_elo_until_stable(ids, make_judge(ids), seed=seed, **elo_options)
        correlations[family] = result.rank_correlation_last_two
        rounds[family] = {"rounds": result.rounds, "stable": result.stable, "ties": result.ties}
        order = top_n(result.ratings, len(ids))
        n_keep = (top_n_by_family or {}).get(family, top_n_per_family)
        keep: list[str] = []
        kept_answer: dict[str, str] = {}
        for i in order:
            answer = (gold_answers or {}).get(i)
            if why[i] is not None or len(keep) >= n_keep:
                continue
            if answer and answer in kept_answer:
                why[i] = f"same gold answer as released task {kept_answer[answer]}"
                continue
            if veto is not None and (reason := veto(i, released_so_far)) is not None:
                why[i] = reason
                continue
            keep.append(i)
            released_so_far.add(i)
            if answer:
                kept_answer[answer] = i
        for rank, task_id in enumerate(order, start=1):
            note = "" if task_id in keep else (why[task_id] or f"below the top {n_keep} of its family")
            ratings.append(
                TaskRating(
                    task_id=task_id,
                    family=family,
                    elo=round(result.ratings[task_id], 4),
                    rank_in_family=rank,
                    released=task_id in keep,
                    quality=round(quality[task_id]["quality"], 4),
                    note=note,
                    judge=judge_name,
                )
            )
    return ratings, correlations, rounds

"""The rediscovery lines of `foresci demo-rediscovery` (FIRE-Bench family, docs/rediscovery.md):
per domain, tasks built / dropped (by reason kind) / released with the difficulty histogram, claim
F1 / precision / recall per method (controls too), error types per method, and the pre/post
knowledge-date contamination split. Plain functions over a `PartitionStore` (no Dagster, no printing);
the figures are `assets.rediscovery.report`'s."""

from __future__ import annotations

from collections import Counter

from assets.agents.backbones import default_registry
from assets.rediscovery import report as rd
from assets.validity.report import reason_kind
from core.records import Failure, GoldTarget, Score, TaskBuild, TaskRating


def rediscovery_lines(store, cutoff: str, domains: list[str]) -> list[str]:
    """The report lines of every domain in `domains` with a validity report at `cutoff`."""

    lines = []
    for d in domains:
        if not store.exists("validity_report", d, cutoff):
            continue
        builds = [b for b in store.read_records("task_builds", d, cutoff, TaskBuild) if "-rediscovery-" in b.task_id]
        dropped = Counter(
            reason_kind(f.reason.split(":", 1)[-1].strip()).split(":")[0]
            for f in (
                store.read_records("tasks_failures", d, cutoff, Failure) if store.exists("tasks_failures", d, cutoff) else []
            )
            if "-rediscovery-" in f.item_id
        )
        released = {
            r.task_id
            for r in store.read_records("task_ranking", d, cutoff, TaskRating)
            if r.released and "-rediscovery-" in r.task_id
        }
        golds = {g.task_id: g for g in store.read_records("gold_targets", d, cutoff, GoldTarget) if g.family == "rediscovery"}
        scores = [s for s in store.read_records("judge_scores", d, cutoff, Score) if s.family == "rediscovery"]
        controls = [s for s in store.read_records("validity_controls", d, cutoff, Score) if s.family == "rediscovery"]
        lines.append(
            f"  {d}: built {len(builds)}, dropped {dict(dropped)}, released {len(released)}; difficulty "
            f"{rd.difficulty_histogram(list(golds.values()), released)}"
        )
        for m, v in rd.method_means(controls + scores, released).items():
            lines.append(f"    {m:>22}: F1 {v['f1']} P {v['precision']} R {v['recall']} (n={v['n']})")
        for m, c in rd.error_counts([s for s in scores if s.task_id in released]).items():
            lines.append(f"    errors {m}: {c}")
        split = rd.contamination_split(
            [s for s in scores if s.task_id in released], rd.source_dates(builds), golds, default_registry()
        )
        both = [r for r in split if r["pre_n"] and r["post_n"]]  # splits with tasks on both sides
        for row in both or [r for r in split if r["level"] == "all"][:2]:
            lines.append(
                f"    split {row['method']} by {row['split_by']} ({row['knowledge_date']}), {row['level']}: pre "
                f"{row['pre_f1']} (n={row['pre_n']}) / post {row['post_f1']} (n={row['post_n']})"
            )
    return lines

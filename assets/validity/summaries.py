"""Validity over built partitions, as `foresci validity` and `foresci demo` show it.

Plain functions over a `PartitionStore` (no Dagster, no printing): they read the stored
`validity_report`, `validity_controls`, `judge_scores` and `task_ranking` of partitions and return
rows or text lines.

* `validity_partitions`: (domain, cutoff) of every partition with a validity report.
* `pooled_validity`: the control checks per family over the released tasks of many partitions
  pooled (`assets.validity.statistics.pooled_control_checks`: the closest control's excess over
  chance with its one-sided bootstrap lower bound; gated from `min_gated_tasks` pooled tasks).
* `validity_failures`: family -> where it misses a threshold (a domain's report row, or the pooled check).
* `overall_lines`: one line per family over every domain's released tasks (best baseline vs chance
  vs the gold answer) and the pooled check.
* `row_lines`, `pooled_lines`, `check_sheet_lines`: the text of one report row, of the pooled
  checks over many partitions, and of a maintainer's hand-check sheet (hidden gold: not for release).
"""

from __future__ import annotations

import json
import statistics
from collections import defaultdict

from assets.ranking.presentation import PRESENTED_GOLDS, PRESENTED_TASKS
from assets.validity.report import control_line, summary_line
from assets.validity.statistics import pooled_control_checks, pooled_line
from core.records import GoldTarget, Score, Task, TaskRating
from core.thresholds import Thresholds


def validity_partitions(store, domains: list[str] | None = None, cutoffs: list[str] | None = None) -> list[tuple[str, str]]:
    """(domain, cutoff) of every partition with a validity report, restricted to `domains` /
    `cutoffs` when given."""
    import pyarrow.fs as pafs

    found = []
    root = f"{store.base}/public/validity_report"
    if store.fs.get_file_info(root).type != pafs.FileType.Directory:
        return []
    for info in store.fs.get_file_info(pafs.FileSelector(root, recursive=True)):
        parts = dict(p.split("=", 1) for p in info.path.split("/") if "=" in p)
        if info.path.endswith("/data.parquet") and {"domain", "cutoff"} <= set(parts):
            found.append((parts["domain"], parts["cutoff"]))
    return sorted(p for p in set(found) if (not domains or p[0] in domains) and (not cutoffs or p[1] in cutoffs))


def pooled_validity(store, partitions: list[tuple[str, str]]) -> list[dict]:
    """The control checks per family over the released tasks of `partitions` pooled
    (`assets.validity.statistics.pooled_control_checks`)."""

    controls, families = {}, set()
    for d, c in partitions:
        if store.exists("validity_controls", d, c):
            controls[f"{d}@{c}"] = store.read_records("validity_controls", d, c, Score)
        families |= {r["family"] for r in store.read_table("validity_report", d, c).to_pylist()}
    return pooled_control_checks(controls, families=families)


def validity_failures(store, cutoff: str, domains: list[str]) -> dict[str, list[str]]:
    """Family -> where it misses a threshold (docs/validity.md): each domain whose validity report
    misses one for it, and "pooled over N partitions" when the pooled control check fails."""
    failing: dict[str, list[str]] = {}
    parts = [(d, cutoff) for d in domains if store.exists("validity_report", d, cutoff)]
    for d, c in parts:
        for row in store.read_table("validity_report", d, c).to_pylist():
            if not row["passed"]:
                failing.setdefault(row["family"], []).append(f"{d} ({row['problems']})")
    for row in pooled_validity(store, parts) if parts else []:
        if not row["passed"]:
            failing.setdefault(row["family"], []).append(f"pooled over {row['n_partitions']} partitions ({row['problems']})")
    return failing


def overall_lines(store, cutoff: str, domains: list[str]) -> list[str]:
    """One line per family over every domain's released tasks: best baseline vs chance vs gold
    answer (mean FTA; a method is a baseline unless it is a `control:`), then the pooled control
    check (the closest control's excess over chance with its one-sided 95% lower bound)."""

    fta: dict[tuple[str, str], list[float]] = defaultdict(list)
    failing: dict[str, list[str]] = defaultdict(list)
    parts = []
    for d in domains:
        if not store.exists("validity_report", d, cutoff):
            continue
        parts.append((d, cutoff))
        released = {r.task_id for r in store.read_records("task_ranking", d, cutoff, TaskRating) if r.released}
        for s in store.read_records("validity_controls", d, cutoff, Score) + store.read_records("judge_scores", d, cutoff, Score):
            if s.task_id in released and s.fta is not None:
                fta[(s.family, s.method)].append(s.fta)
        for row in store.read_table("validity_report", d, cutoff).to_pylist():
            if not row["passed"]:
                failing[row["family"]].append(d)
    pooled = {r["family"]: r for r in pooled_validity(store, parts)} if parts else {}
    lines = []
    for fam in sorted({f for f, _ in fta} | set(pooled)):
        mean = {m: statistics.fmean(v) for (f, m), v in fta.items() if f == fam}
        methods = {m: v for m, v in mean.items() if not m.startswith("control:")}
        best = max(methods, key=methods.get) if methods else None
        lines.append(
            f"{fam:>10}: best baseline {best} {methods.get(best, float('nan')):.3f} | chance "
            f"{mean.get('control:random', float('nan')):.3f} | gold answer {mean.get('control:gold', float('nan')):.3f}"
            " | "
            + (
                "per-domain thresholds met in every domain"
                if not failing[fam]
                else f"thresholds missed in {', '.join(failing[fam])} (foresci validity)"
            )
        )
        if fam in pooled:
            lines.append(f"{'':>12}pooled controls: " + pooled_line(pooled[fam]).split(": ", 1)[1])
    return lines


def row_lines(row: dict) -> list[str]:
    """The text of one validity report row: its summary, controls, counts and coverage."""

    lines = [summary_line(row), f"{'':>12}{control_line(row)}; methods {row['methods']}"]
    if row.get("notes"):
        lines.append(f"{'':>12}note: {row['notes']}")
    lines.append(
        f"{'':>12}released {row['tasks_released']}/{row['tasks_built']}, gold stability "
        f"{row['gold_stability']}, claims verified {row['claim_bank_verified']}, duplicates "
        f"{row['duplicate_titles'] + row['duplicate_option_sets'] + row['duplicate_golds']}; "
        f"dropped: {row['drop_reasons']}"
    )
    if row.get("option_names"):
        lines.append(
            f"{'':>12}options of released tasks: {row['option_names']} names, {row['one_word_options']} of "
            f"them one word ({row['one_word_option_share']:.0%}, each a recognised name); released tasks "
            f"with a hard defect: {row['released_with_defects']}"
        )
    if row.get("window_coverage") is not None:
        themes = ", ".join(
            f"{t['phrase']} ({t['papers']} papers, x{t['growth']})" for t in json.loads(row["uncaptured_themes"] or "[]")
        )
        lines.append(
            f"{'':>12}candidates cover {100 * row['window_coverage']:.1f}% of the window's papers; "
            f"growing themes no candidate captures: {themes or 'none'}"
        )
    return lines


def pooled_report(store, partitions: list[tuple[str, str]]) -> tuple[dict[str, list[dict]], list[dict]]:
    """Every partition's report rows ("domain@cutoff" -> rows) and the pooled control checks."""
    per_part = {f"{d}@{c}": store.read_table("validity_report", d, c).to_pylist() for d, c in partitions}
    return per_part, pooled_validity(store, partitions)


def pooled_lines(per_part: dict[str, list[dict]], pooled: list[dict]) -> list[str]:
    """The text of `pooled_report`: each partition's family lines, then the pooled checks with
    the rule behind them (thresholds from assets/validity/thresholds.yaml)."""

    lines = []
    for label, rows in per_part.items():
        lines.append(f"{label}:")
        lines += ["  " + summary_line(row) for row in rows]
    th = Thresholds.load()
    lines.append(
        f"\nPooled over {len(per_part)} partitions (control - chance per task; a control fails when the lower "
        f"end of its one-sided {1 - th.control_alpha:.0%} bootstrap interval exceeds {th.control_margin}; "
        f"gated from {th.min_gated_tasks} released tasks, docs/validity.md):"
    )
    lines += ["  " + pooled_line(row) for row in pooled]
    return lines


def all_passed(per_part: dict[str, list[dict]], pooled: list[dict]) -> bool:
    return all(r["passed"] for rows in per_part.values() for r in rows) and all(r["passed"] for r in pooled)


def check_sheet_lines(store, domain: str, cutoff: str, per_family: int) -> list[str]:
    """A hand-check sheet (hidden data: for maintainers): per family, the first `per_family`
    released tasks with their options, the gold ranking and the window papers it counted per candidate."""

    ratings = store.read_records("task_ranking", domain, cutoff, TaskRating)
    released = {r.task_id for r in ratings if r.released}
    golds = {g.task_id: g for g in store.read_records(PRESENTED_GOLDS, domain, cutoff, GoldTarget)}
    tasks = [t for t in store.read_records(PRESENTED_TASKS, domain, cutoff, Task) if t.task_id in released]
    lines = []
    for fam in dict.fromkeys(t.family for t in tasks):
        for t in [t for t in tasks if t.family == fam][:per_family]:
            g = golds[t.task_id]
            lines.append(f"### {t.task_id}: {t.title}\n{t.question}")
            lines += [f"- option {o.option_id}: {o.text}" for o in t.options]
            lines.append(f"gold ranking: {g.preferred_ranking}; trajectory: {g.trajectory}; strength {g.strength}")
            lines += [f"  counted for {cand} ({len(papers)}): " + "; ".join(papers[:4]) for cand, papers in g.counted.items()]
            lines.append("")
    return lines


def partition_rows(store) -> list[dict]:
    """One row per partition with a validity report (`foresci partitions`): tasks built and
    released (summed over families), the families that miss a threshold, and whether its release
    package is written."""
    rows = []
    for d, c in validity_partitions(store):
        report = store.read_table("validity_report", d, c).to_pylist()
        failing = [r["family"] for r in report if not r["passed"]]
        rows.append(
            {
                "domain": d,
                "cutoff": c,
                "families": len(report),
                "built": sum(r["tasks_built"] or 0 for r in report),
                "released": sum(r["tasks_released"] or 0 for r in report),
                "validity": "passed" if not failing else "missed: " + ", ".join(failing),
                "package": "yes" if store.exists("release_package", d, c) else "no",
            }
        )
    return rows

"""The validity gate's control checks, decided with confidence over tasks (plain functions).

A control that carries no judgement (empty, every option, first option / given order, another
task's gold; `controls.NO_JUDGEMENT`) must not beat the chance line (the random control, 20
draws per task) by more than `control_margin`. With the 3-10 released tasks of one family in
one partition, comparing two means decided that by noise ("always the first option" passed in
one build and failed in the next). So:

* **The test.** Per task, seeds and draws averaged first: the excess d_t = control_t - random_t.
  A control FAILS when the lower end of the one-sided (1 - `control_alpha`) BCa bootstrap
  interval of mean(d) (`core.statistics.control_excess`, `scipy.stats.bootstrap`, 9,999
  resamples, seed 0) exceeds `control_margin`: it beats chance by more than the margin with
  95% confidence. A control whose mean sits above chance + margin by noise passes.
* **When the test is gated: `min_gated_tasks`.** A check over fewer tasks is shown but decides
  nothing. The number is derived (`gated_size`, `thresholds.yaml`): the smallest n at which the
  one-sided MDD of a control-vs-random difference,
  (t_{n-1, 1-alpha} + t_{n-1, power}) * sd / sqrt(n), drops to the margin -- at that n the test
  catches, with 80% power, a control that beats chance by twice the margin, and a pass means the
  control is not grossly above chance. sd = `control_sd`, the per-task sd of (control - random)
  measured on the default release (docs/validity.md). Below that n the bootstrap bound is also
  too optimistic (in simulation its one-sided 5% error was 9-48% at 3-6 tasks, ~5% from 20).
* **Per partition and pooled.** The validity report's family rows (one partition) carry the
  check and gate it only when the family released >= `min_gated_tasks` tasks there.
  `pooled_control_checks` runs the same check over the released tasks of many partitions
  (cutoffs x domains) pooled per family -- the verdict a release that spans them should be gated
  on; `foresci validity --pooled` prints it.
* **An empty family** (no released task) is not a failed control: it is reported as "empty
  family", and fails only where it is gated (never, with `min_gated_tasks` >= 1).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from statistics import fmean

from assets.validity.controls import NO_JUDGEMENT
from core import statistics as st
from core.records import Score
from core.thresholds import Thresholds

GOLD, RANDOM = "control:gold", "control:random"


def column(control: str) -> str:
    """ "control:first_option" -> "control_first_option" (the report's column prefix)."""
    return control.replace("control:", "control_")


def gated_size(th: Thresholds) -> int:
    """The minimum number of released tasks at which a family's control checks are gated: the
    smallest n whose one-sided MDD for sd `control_sd` is at most `control_margin`."""
    return st.min_tasks_for(th.control_margin, th.control_sd, alpha=th.control_alpha, power=th.control_power, sided=1)


def per_task(scores: Iterable[Score], task_ids: set | None = None, key=lambda s: s.task_id) -> dict[str, dict]:
    """method -> {task key: FTA averaged over the method's seeds / draws on that task}."""
    acc: dict[str, dict] = defaultdict(lambda: defaultdict(list))
    for s in scores:
        if s.fta is not None and (task_ids is None or s.task_id in task_ids):
            acc[s.method][key(s)].append(s.fta)
    return {m: {t: fmean(v) for t, v in by_task.items()} for m, by_task in acc.items()}


def control_checks(values: Mapping[str, Mapping], th: Thresholds) -> dict:
    """The statistical control figures of one family (one partition, or pooled): per control of
    `NO_JUDGEMENT`, `<column>_excess` (mean of control - random over tasks), `<column>_excess_low`
    (lower end of its one-sided 1 - alpha bootstrap interval) and `<column>_beats_margin`, plus
    `control_tasks` (tasks with a random line), `controls_gated` and `min_gated_tasks`."""
    random = values.get(RANDOM, {})
    out: dict = {
        "control_tasks": len(random),
        "min_gated_tasks": th.min_gated_tasks,
        "controls_gated": len(random) >= th.min_gated_tasks,
    }
    for k in NO_JUDGEMENT:
        check = st.control_excess(values.get(k, {}), random, th.control_margin, alpha=th.control_alpha)
        out[f"{column(k)}_excess"] = None if check["excess"] is None else round(check["excess"], 4)
        out[f"{column(k)}_excess_low"] = None if check["excess_low"] is None else round(check["excess_low"], 4)
        out[f"{column(k)}_beats_margin"] = check["beats_margin"]
    return out


def control_problems(row: Mapping, th: Thresholds) -> list[str]:
    """The control checks a (gated) row misses, in words."""
    out = []
    for k in NO_JUDGEMENT:
        c = column(k)
        if row.get(f"{c}_beats_margin"):
            out.append(
                f"{k} beats chance by {row[f'{c}_excess']:.3f} over {row['control_tasks']} tasks "
                f"(one-sided {1 - th.control_alpha:.0%} lower bound {row[f'{c}_excess_low']:.3f} > "
                f"margin {th.control_margin})"
            )
    return out


def control_notes(row: Mapping, th: Thresholds) -> list[str]:
    """What a reader must know about a row's control checks that is not a failure: an empty
    family, or checks shown but not gated (too few tasks), with what they would have said."""
    n = row.get("control_tasks") or 0
    if not row.get("tasks_released"):
        return ["empty family: no released task (not a failed control)"]
    if row.get("controls_gated"):
        return []
    would = [k for k in NO_JUDGEMENT if row.get(f"{column(k)}_beats_margin")]
    return [
        f"controls not gated: {n} released tasks < {th.min_gated_tasks} (docs/validity.md)"
        + (f"; above chance + margin with confidence but ungated: {', '.join(would)}" if would else "")
    ]


def pooled_control_checks(
    partitions: Mapping[str, Sequence[Score]], th: Thresholds | None = None, families: Iterable[str] = ()
) -> list[dict]:
    """The control checks per family over the released tasks of many partitions pooled.

    `partitions`: partition label (e.g. "llm_agent@2025-12-31") -> the control scores of its
    released tasks (the `validity_controls` table of each partition holds exactly those).
    `families`: families to report even when no partition released a task of theirs (reported
    as empty). Returns one row per family: `partitions` (labels that released a task of it),
    `tasks_released`, the mean of the gold and random controls and of each no-judgement control,
    the figures of `control_checks`, `problems` (a gold answer below `gold_min`; a control that
    beats chance by more than the margin with confidence, where gated), `notes` and `passed`.
    """
    th = th or Thresholds.load()
    by_family: dict[str, list[tuple[str, Score]]] = defaultdict(list)
    for label, scores in partitions.items():
        for s in scores:
            by_family[s.family].append((label, s))
    rows = []
    for fam in sorted(set(by_family) | set(families)):
        pairs = by_family.get(fam, [])
        values = per_task([s for _, s in pairs], key=_pooled_key(pairs))
        labels = sorted({label for label, s in pairs})
        n = len(values.get(RANDOM, {}))
        row: dict = {
            "family": fam,
            "partitions": ", ".join(labels),
            "n_partitions": len(labels),
            "tasks_released": n,
            **{column(k): _mean(values.get(k)) for k in (GOLD, RANDOM, *NO_JUDGEMENT)},
            **control_checks(values, th),
        }
        problems = []
        if n and (row["control_gold"] is None or row["control_gold"] < th.gold_min):
            problems.append(f"gold answer scores {row['control_gold']} < {th.gold_min}")
        if row["controls_gated"]:
            problems += control_problems(row, th)
            if not n:
                problems.append("empty family: no released task in any partition")
        row["notes"] = "; ".join(control_notes(row, th))
        row["problems"] = "; ".join(problems)
        row["passed"] = not problems
        rows.append(row)
    return rows


def _pooled_key(pairs: list[tuple[str, Score]]):
    label_of = {id(s): label for label, s in pairs}
    return lambda s: (label_of[id(s)], s.task_id)


def _mean(by_task: Mapping | None) -> float | None:
    return round(fmean(by_task.values()), 4) if by_task else None


def pooled_line(row: Mapping) -> str:
    """One line per family of the pooled check."""
    fmt = lambda v: "–" if v is None else f"{v:+.3f}"  # noqa: E731
    worst = max(
        NO_JUDGEMENT,
        key=lambda k: row.get(f"{column(k)}_excess_low") if row.get(f"{column(k)}_excess_low") is not None else float("-inf"),
    )
    c = column(worst)
    state = (
        ("FAIL: " + row["problems"])
        if not row["passed"]
        else ("EMPTY" if not row["tasks_released"] else "PASS" if row["controls_gated"] else "NOT GATED")
    )
    return (
        f"{row['family']:>10}: {row['tasks_released']} tasks from {row['n_partitions']} partitions | chance "
        f"{'–' if row['control_random'] is None else format(row['control_random'], '.3f')} | closest control "
        f"{worst.removeprefix('control:')} {fmt(row.get(f'{c}_excess'))} over chance (95% lower bound "
        f"{fmt(row.get(f'{c}_excess_low'))}) | {state}" + (f" | {row['notes']}" if row["notes"] else "")
    )

"""The leaderboard's statistics over per-task rows (plain functions, no Dagster).

Input: one row per (task, system) with every metric averaged over the system's seeds on that
task (`report.task_rows`, or the CLI's DuckDB query over many partitions). A task is keyed by
`task_key` (the task id inside one partition; (domain, cutoff, task id) over many), a system by
`system_keys` ((method, backbone) in the asset; (method,) in the CLI).

* `group_statistics`: per family (and "all") and system, for every metric: the mean over tasks
  with the 95% bootstrap interval, the number of tasks, and the MDD (`core.statistics`) of a
  paired comparison of two of the family's systems over that many tasks. The sd behind the MDD
  is the family's per-task difference sd pooled over its pairs of systems; with fewer than
  `MIN_OWN_SD_TASKS` tasks the larger of that and the release's ("all" families) pooled sd, or the
  prior sd when the release itself is that small (`mdd_sd`, `mdd_sd_source` name it for FTA).
* `pairwise_rows`: per family and metric, every pair of systems on the tasks both answered:
  mean difference with its interval, sign-flip p, Holm-adjusted p, MDD and the verdict
  ("differs" / "cannot tell") by the rule of `core.statistics`.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Hashable, Sequence

from core import statistics as st

ALL = "all"


def _keyer(task_key: str | Sequence[str] | Callable[[dict], Hashable]) -> Callable[[dict], Hashable]:
    if callable(task_key):
        return task_key
    if isinstance(task_key, str):
        return lambda r: r[task_key]
    return lambda r: tuple(r[k] for k in task_key)


def system_name(row: dict, system_keys: Sequence[str]) -> str:
    """ "method" or "method@backbone" (the pairwise rows' system names)."""
    return "@".join(str(row[k]) for k in system_keys)


def per_system_values(
    rows: Sequence[dict],
    metric: str,
    *,
    system_keys: Sequence[str] = ("method", "backbone"),
    task_key="task_id",
    with_all: bool = True,
) -> dict[str, dict[str, dict[Hashable, float]]]:
    """family -> system -> {task: value} for one metric (tasks without the value left out)."""
    key = _keyer(task_key)
    out: dict[str, dict[str, dict[Hashable, float]]] = defaultdict(lambda: defaultdict(dict))
    for r in rows:
        if r.get(metric) is None:
            continue
        name = system_name(r, system_keys)
        for fam in (r["family"], ALL) if with_all else (r["family"],):
            out[fam][name][(r["family"], key(r)) if fam == ALL else key(r)] = float(r[metric])
    return {f: dict(v) for f, v in out.items()}


def release_sd(values: dict[str, dict[str, dict[Hashable, float]]]) -> tuple[float | None, int]:
    """The release's per-task difference sd for one metric and the tasks behind it: the "all"
    family's (every task of every family) when there is one, else pooled over the families."""
    if ALL in values:
        return st.family_sd(values[ALL])
    sds = [(fam, *st.family_sd(s)) for fam, s in values.items()]
    pooled, _ = st.pooled_sd(
        st.paired_diffs(s[a], s[b]) for s in values.values() for i, a in enumerate(sorted(s)) for b in sorted(s)[i + 1 :]
    )
    return pooled, sum(n for _, _, n in sds)


def group_statistics(
    rows: Sequence[dict],
    metrics: Sequence[str],
    *,
    system_keys: Sequence[str] = ("method", "backbone"),
    task_key="task_id",
    with_all: bool = True,
    n_resamples: int = st.N_RESAMPLES,
    seed: int = st.SEED,
) -> dict[tuple, dict]:
    """(family, *system) -> {metric, metric_lo, metric_hi, n_metric, metric_mdd} for every metric,
    plus `mdd_sd` / `mdd_sd_source` of FTA (see the module docstring)."""
    groups: dict[tuple, list[dict]] = defaultdict(list)
    for r in rows:
        sys = tuple(r[k] for k in system_keys)
        groups[(r["family"], *sys)].append(r)
        if with_all:
            groups[(ALL, *sys)].append(r)
    out: dict[tuple, dict] = {g: {} for g in groups}
    for metric in metrics:
        values = per_system_values(rows, metric, system_keys=system_keys, task_key=task_key, with_all=with_all)
        # the release's sd: over every task of every family (the "all" family's pairs) when it
        # exists, else pooled over the families' pairs
        pooled, pooled_tasks = release_sd(values)
        own = {fam: st.family_sd(s) for fam, s in values.items()}
        for g, group in groups.items():
            vals = [r.get(metric) for r in group]
            ci = st.mean_ci(vals, n_resamples=n_resamples, seed=seed)
            stat = out[g]
            stat[metric], stat[f"{metric}_lo"], stat[f"{metric}_hi"] = ci.as_tuple()
            stat[f"n_{metric}"] = ci.n
            sd, source = st.mdd_sd(*own[g[0]], pooled, pooled_tasks) if ci.n >= 2 and g[0] in own else (None, None)
            stat[f"{metric}_mdd"] = st.mdd(ci.n, sd)
            if metric == "fta":
                stat["mdd_sd"], stat["mdd_sd_source"] = sd, source
    return out


def pairwise_rows(
    rows: Sequence[dict],
    metrics: Sequence[str],
    *,
    system_keys: Sequence[str] = ("method", "backbone"),
    task_key="task_id",
    with_all: bool = True,
    n_resamples: int = st.N_RESAMPLES,
    seed: int = st.SEED,
) -> list[dict]:
    """Family x metric x pair of systems: `core.statistics.pairwise` (verdicts Holm-adjusted
    over the family's pairs for that metric)."""
    out = []
    for metric in metrics:
        values = per_system_values(rows, metric, system_keys=system_keys, task_key=task_key, with_all=with_all)
        pooled, pooled_tasks = release_sd(values)
        for fam in sorted(values, key=lambda f: (f == ALL, f)):
            for r in st.pairwise(values[fam], pooled=pooled, pooled_tasks=pooled_tasks, n_resamples=n_resamples, seed=seed):
                out.append({"family": fam, "metric": metric, **r})
    return out


def pairwise_text(row: dict) -> str:
    """One line: "aris > native_llm by 0.21 [0.12, 0.30] over 30 tasks (p 0.0002, MDD 0.08): differs"."""
    a, b, d = row["system_a"], row["system_b"], row["diff"]
    if row["verdict"] == st.DIFFERS:
        first, second, shown = (a, b, d) if d > 0 else (b, a, -d)
        lo, hi = (
            (row["diff_ci_low"], row["diff_ci_high"])
            if d > 0
            else (
                None if row["diff_ci_high"] is None else -row["diff_ci_high"],
                None if row["diff_ci_low"] is None else -row["diff_ci_low"],
            )
        )
        head = f"{first} > {second} by {shown:.3f}"
    else:
        lo, hi = row["diff_ci_low"], row["diff_ci_high"]
        head = f"{a} - {b} = {d:+.3f}"
    ci = "" if lo is None else f" [{lo:+.2f}, {hi:+.2f}]"
    mdd = "–" if row["mdd"] is None else f"{row['mdd']:.3f} ({row['mdd_sd_source']} sd)"
    p = "–" if row["p_holm"] is None else f"{row['p_holm']:.3g}"
    return f"{head}{ci} over {row['n']} task{'' if row['n'] == 1 else 's'} (p {p}, MDD {mdd}): {row['verdict']}"


# -- over a release: the released tasks of many partitions ---------------------------------------
# `foresci leaderboard` (assets/leaderboard/board.py, task rows from DuckDB) and a release's statistics
# (assets/release/card.py `release_statistics`, task rows from Score records) both compute
# `method_statistics` over task rows: one row per released task x method, every metric
# averaged over the task's answers (seeds, backbones; nulls left out), a task being
# (domain, cutoff, task id), so the tasks of several domains and cutoffs are one sample.


# task-row column -> the Score metric it averages (a typed field or a `values` key), from the scorer
# registry: `assets.leaderboard.columns.leaderboard_metrics` (the CLI's SQL reads the same columns from
# judge_scores and its `metrics` map). `RELEASE_METRICS` (module __getattr__) is that mapping now.
def release_metrics() -> dict[str, str]:
    from assets.leaderboard.columns import leaderboard_metrics

    return leaderboard_metrics()


def __getattr__(name: str):
    if name == "RELEASE_METRICS":
        return release_metrics()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


TASK_KEY = ("domain", "cutoff", "task_id")

STATISTICS_NOTE = (
    "Means over released tasks (seeds averaged per task first; tasks of every selected domain and cutoff pooled) "
    "with BCa bootstrap 95% intervals over tasks. mdd = minimum detectable FTA difference of two methods on these "
    "tasks (paired, 80% power, two-sided 5%: (t_{n-1,.975} + t_{n-1,.80}) sd_d / sqrt(n); sd_d = per-task "
    "difference sd, or a pooled / prior sd (0.35) with fewer than 10 tasks, named in mdd_sd_source). Pairwise: "
    'exact paired sign-flip test, Holm-adjusted per family; "differs" needs >= 6 shared tasks, p < 0.05 and '
    '|diff| >= MDD, else "cannot tell" (docs/judging.md).'
)


def release_task_rows(partitions) -> list[dict]:
    """Task rows from Score records: `partitions` yields (domain, cutoff, released task ids,
    scores); scores of tasks that are not released are left out (as the CLI's join on
    `task_ranking.released`)."""
    groups: dict[tuple, list] = defaultdict(list)
    for domain, cutoff, released, scores in partitions:
        for s in scores:
            if s.task_id in released:
                groups[(domain, str(cutoff), s.task_id, s.family, s.method)].append(s)
    out, columns = [], release_metrics()
    for (domain, cutoff, task_id, family, method), group in sorted(groups.items()):
        row = {"domain": domain, "cutoff": cutoff, "task_id": task_id, "family": family, "method": method, "answers": len(group)}
        for column, metric in columns.items():
            vals = [v for v in (s.value(metric) for s in group) if v is not None]
            row[column] = sum(vals) / len(vals) if vals else None
        out.append(row)
    return out


def _r(v, digits: int = 3):
    return None if v is None else round(v, digits)


def method_statistics(task_rows: Sequence[dict]) -> tuple[list[dict], list[dict]]:
    """Family x method rows (mean over tasks with bootstrap 95% CI per metric, `n` tasks with
    FTA, the FTA MDD and the sd behind it) and the FTA pairwise comparisons with their verdicts.
    The rows are put in one order first (family, method, then the task key): the bootstrap and the
    sampled sign-flip test resample by position, so any source of the same rows (DuckDB's group
    order is arbitrary) gives the same figures."""
    metrics = tuple(release_metrics())
    task_rows = sorted(task_rows, key=lambda r: (r["family"], r["method"], *(str(r[k]) for k in TASK_KEY)))
    figures = group_statistics(task_rows, metrics, system_keys=("method",), task_key=TASK_KEY, with_all=False)
    answers: dict[tuple[str, str], int] = defaultdict(int)
    for r in task_rows:
        answers[(r["family"], r["method"])] += r["answers"]
    rows = []
    for (family, method), f in figures.items():
        row = {
            "family": family,
            "method": method,
            "answers": answers[(family, method)],
            "n": f["n_fta"],
            "fta": _r(f["fta"]),
            "fta_ci_low": _r(f["fta_lo"]),
            "fta_ci_high": _r(f["fta_hi"]),
            "mdd": _r(f["fta_mdd"]),
            "mdd_sd": _r(f.get("mdd_sd")),
            "mdd_sd_source": f.get("mdd_sd_source"),
        }
        for m in metrics[1:]:
            row.update({m: _r(f[m]), f"{m}_ci_low": _r(f[f"{m}_lo"]), f"{m}_ci_high": _r(f[f"{m}_hi"])})
        rows.append(row)
    rows.sort(key=lambda r: (r["family"], -(r["fta"] if r["fta"] is not None else -1)))
    pairs = [
        {k: _r(v, 4) if isinstance(v, float) else v for k, v in p.items()}
        for p in pairwise_rows(task_rows, ["fta"], system_keys=("method",), task_key=TASK_KEY, with_all=False)
    ]
    return rows, pairs

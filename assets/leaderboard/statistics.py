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
    """"method" or "method@backbone" (the pairwise rows' system names)."""
    return "@".join(str(row[k]) for k in system_keys)


def per_system_values(rows: Sequence[dict], metric: str, *, system_keys: Sequence[str] = ("method", "backbone"),
                      task_key="task_id", with_all: bool = True) -> dict[str, dict[str, dict[Hashable, float]]]:
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
    pooled, _ = st.pooled_sd(st.paired_diffs(s[a], s[b]) for s in values.values()
                             for i, a in enumerate(sorted(s)) for b in sorted(s)[i + 1:])
    return pooled, sum(n for _, _, n in sds)


def group_statistics(rows: Sequence[dict], metrics: Sequence[str], *, system_keys: Sequence[str] = ("method", "backbone"),
                     task_key="task_id", with_all: bool = True, n_resamples: int = st.N_RESAMPLES,
                     seed: int = st.SEED) -> dict[tuple, dict]:
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
            sd, source = (st.mdd_sd(*own[g[0]], pooled, pooled_tasks) if ci.n >= 2 and g[0] in own
                          else (None, None))
            stat[f"{metric}_mdd"] = st.mdd(ci.n, sd)
            if metric == "fta":
                stat["mdd_sd"], stat["mdd_sd_source"] = sd, source
    return out


def pairwise_rows(rows: Sequence[dict], metrics: Sequence[str], *, system_keys: Sequence[str] = ("method", "backbone"),
                  task_key="task_id", with_all: bool = True, n_resamples: int = st.N_RESAMPLES,
                  seed: int = st.SEED) -> list[dict]:
    """Family x metric x pair of systems: `core.statistics.pairwise` (verdicts Holm-adjusted
    over the family's pairs for that metric)."""
    out = []
    for metric in metrics:
        values = per_system_values(rows, metric, system_keys=system_keys, task_key=task_key, with_all=with_all)
        pooled, pooled_tasks = release_sd(values)
        for fam in sorted(values, key=lambda f: (f == ALL, f)):
            for r in st.pairwise(values[fam], pooled=pooled, pooled_tasks=pooled_tasks, n_resamples=n_resamples,
                                 seed=seed):
                out.append({"family": fam, "metric": metric, **r})
    return out


def pairwise_text(row: dict) -> str:
    """One line: "aris > native_llm by 0.21 [0.12, 0.30] over 30 tasks (p 0.0002, MDD 0.08): differs"."""
    a, b, d = row["system_a"], row["system_b"], row["diff"]
    if row["verdict"] == st.DIFFERS:
        first, second, shown = (a, b, d) if d > 0 else (b, a, -d)
        lo, hi = (row["diff_ci_low"], row["diff_ci_high"]) if d > 0 else (
            None if row["diff_ci_high"] is None else -row["diff_ci_high"],
            None if row["diff_ci_low"] is None else -row["diff_ci_low"])
        head = f"{first} > {second} by {shown:.3f}"
    else:
        lo, hi = row["diff_ci_low"], row["diff_ci_high"]
        head = f"{a} - {b} = {d:+.3f}"
    ci = "" if lo is None else f" [{lo:+.2f}, {hi:+.2f}]"
    mdd = "–" if row["mdd"] is None else f"{row['mdd']:.3f} ({row['mdd_sd_source']} sd)"
    p = "–" if row["p_holm"] is None else f"{row['p_holm']:.3g}"
    return f"{head}{ci} over {row['n']} task{'' if row['n'] == 1 else 's'} (p {p}, MDD {mdd}): {row['verdict']}"

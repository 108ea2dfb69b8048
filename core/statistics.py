"""Statistics a reader can trust: intervals, minimum detectable differences and paired tests
over TASKS (plain functions, scipy; no Dagster).

A task is the unit of every statement: a method's seeds on one task are averaged first (the
callers do that), then every figure is over tasks, so 3 released tasks are 3 observations
however many seeds or draws stand behind each. One partition or the pooled tasks of many
partitions (cutoffs x domains) go through the same functions: a task is keyed by whatever the
caller passes (a task id, or (domain, cutoff, task id)).

* `mean_ci`: the mean with a bootstrap confidence interval, `scipy.stats.bootstrap` (BCa,
  `N_RESAMPLES` resamples of tasks, seed `SEED`; the percentile interval when BCa is degenerate).
  One task: no interval (None). Tasks that all score the same: the interval is that value.
  A bootstrap interval is too narrow with few tasks: over 400 simulated releases the one-sided
  95% bound missed the true mean in 9-14% of draws at 3-10 normal tasks and in 25-48% at 3-6
  tasks of a skewed, 0/1-like score, and in ~5% from 20 tasks on (`docs/judging.md`). Read an
  interval over fewer than `FEW_TASKS` tasks as a lower bound on the uncertainty.
* `mdd`: the minimum detectable difference of a paired comparison of two methods on the same n
  tasks at power `POWER` and two-sided level `ALPHA`,

      MDD(n) = (t_{n-1, 1-alpha/2} + t_{n-1, power}) * sd_d / sqrt(n),

  sd_d the standard deviation of the per-task differences. It is the usual normal formula
  MDD ~ (z_{1-alpha/2} + z_power) sd_d / sqrt(n) = 2.80 sd_d / sqrt(n) with Student-t quantiles in
  place of the normal ones (paired-t power), which matters at the sizes of a release (n = 5:
  4.72 sd_d / sqrt(n); n = 30: 2.90; n -> inf: 2.80). The one-sided variant (`sided=1`) uses
  t_{n-1, 1-alpha}: what the control gate of the validity report detects.
* `mdd_sd`: which sd_d the MDD uses. With at least `MIN_OWN_SD_TASKS` tasks, the comparison's
  own sd (pooled over the pairs of methods of the family, `pooled_sd`); with fewer, the own sd
  is itself noise (3 differences give an sd anywhere from half to twice the true one), so the
  MDD takes the LARGER of the own sd and a pooled one -- the sd pooled over every family of the
  release when that rests on >= `MIN_OWN_SD_TASKS` differences, else the conservative prior
  `PRIOR_DIFF_SD` = 0.35 (two methods with a per-task score spread of 0.25, the upper end seen
  in releases, that do not co-vary: 0.25 * sqrt(2)). The source is reported with the number
  ("own", "pooled", "prior"), so the reader sees when the MDD is an assumption.
* `paired_comparison` / `pairwise`: two methods on the tasks both answered. The test is the
  exact paired sign-flip permutation test of the mean difference (`scipy.stats.permutation_test`,
  permutation_type="samples": every sign pattern when 2^n <= `N_RESAMPLES`, else that many
  random ones), two-sided; the p values of a family's pairs are Holm-adjusted. The verdict is
  **"differs"** when (1) n >= `MIN_TESTABLE_TASKS` (with fewer tasks no sign-flip test can reach
  p < 0.05: its smallest two-sided p is 2 / 2^n, 0.0625 at n = 5), (2) the Holm-adjusted p <
  `ALPHA`, and (3) |mean difference| >= the MDD -- the difference is both significant and at
  least as large as the smallest difference this many tasks detect reliably (a significant
  difference below the MDD is the kind that flips between builds). Otherwise **"cannot tell"**.
* `control_excess`: the validity gate's test of a control answer against the chance line: the
  mean over tasks of (control - random) and the lower end of its one-sided (1 - alpha) BCa
  bootstrap interval; a control fails when that lower end exceeds the margin.
* `min_tasks_for`: the smallest n whose one-sided MDD is at most a given difference (how the
  validity report's minimum gated partition size is derived, `core/thresholds.yaml`).
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass

import numpy as np
from scipy import stats

ALPHA = 0.05
POWER = 0.80
N_RESAMPLES = 9999
SEED = 0
MIN_OWN_SD_TASKS = 10
PRIOR_DIFF_SD = 0.35
FEW_TASKS = 10
# the smallest n at which the two-sided sign-flip test can reach p < ALPHA: 2 / 2^n < ALPHA
MIN_TESTABLE_TASKS = next(n for n in range(1, 64) if 2 / 2**n < ALPHA)

DIFFERS, CANNOT_TELL = "differs", "cannot tell"


def _clean(values: Iterable[float | None]) -> np.ndarray:
    return np.array([float(v) for v in values if v is not None and not math.isnan(float(v))], dtype=float)


def _mean(x, axis=-1):
    return np.mean(x, axis=axis)


@dataclass(frozen=True)
class Interval:
    """A mean over tasks with its confidence interval (None where it is not defined)."""

    mean: float | None
    low: float | None
    high: float | None
    n: int
    method: str  # "BCa", "percentile", "degenerate" (no spread), "none" (< 2 tasks)

    def as_tuple(self) -> tuple[float | None, float | None, float | None]:
        return (self.mean, self.low, self.high)


def mean_ci(
    values: Iterable[float | None],
    *,
    confidence: float = 1 - ALPHA,
    alternative: str = "two-sided",
    n_resamples: int = N_RESAMPLES,
    seed: int = SEED,
) -> Interval:
    """Mean of `values` (None and NaN dropped) with a `scipy.stats.bootstrap` interval over them.

    `alternative`: "two-sided" (low, high), "greater" (a one-sided lower bound; high is None) or
    "less" (an upper bound; low is None). BCa unless it is degenerate (NaN), then percentile.
    """
    xs = _clean(values)
    n = int(xs.size)
    if n == 0:
        return Interval(None, None, None, 0, "none")
    mean = float(xs.mean())
    if n == 1:
        return Interval(mean, None, None, 1, "none")
    if np.ptp(xs) == 0:  # every task the same: no spread to resample
        return Interval(
            mean, mean if alternative != "less" else None, mean if alternative != "greater" else None, n, "degenerate"
        )
    for method in ("BCa", "percentile"):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # DegenerateDataWarning / BCa NaN: handled below
            res = stats.bootstrap(
                (xs,),
                _mean,
                n_resamples=n_resamples,
                confidence_level=confidence,
                alternative=alternative,
                method=method,
                vectorized=True,
                rng=np.random.default_rng(seed),
            )
        lo, hi = float(res.confidence_interval.low), float(res.confidence_interval.high)
        needed = [v for v, side in ((lo, "greater"), (hi, "less")) if alternative in ("two-sided", side)]
        if not any(math.isnan(v) for v in needed):
            return Interval(mean, None if alternative == "less" else lo, None if alternative == "greater" else hi, n, method)
    return Interval(mean, None, None, n, "none")


def sample_sd(values: Iterable[float | None]) -> float | None:
    """Sample standard deviation (ddof 1); None below 2 values."""
    xs = _clean(values)
    return float(xs.std(ddof=1)) if xs.size >= 2 else None


def pooled_sd(groups: Iterable[Sequence[float]]) -> tuple[float | None, int]:
    """Pooled sd of several samples, each around its own mean: sqrt(sum (n_i - 1) s_i^2 /
    sum (n_i - 1)), and its degrees of freedom sum (n_i - 1). (None, 0) without any sample of 2."""
    ss, dof = 0.0, 0
    for g in groups:
        xs = _clean(g)
        if xs.size >= 2:
            ss += float(((xs - xs.mean()) ** 2).sum())
            dof += int(xs.size) - 1
    return (math.sqrt(ss / dof), dof) if dof else (None, 0)


def mdd(n: int, sd: float | None, *, alpha: float = ALPHA, power: float = POWER, sided: int = 2) -> float | None:
    """Minimum detectable difference of a paired comparison over `n` tasks whose per-task
    differences have standard deviation `sd` (see the module docstring); None below 2 tasks."""
    if sd is None or n < 2:
        return None
    df = n - 1
    q = stats.t.ppf(1 - alpha / sided, df) + stats.t.ppf(power, df)
    return float(q * sd / math.sqrt(n))


def mdd_sd(own_sd: float | None, own_tasks: int, pooled: float | None = None, pooled_tasks: int = 0) -> tuple[float, str]:
    """The sd the MDD uses and where it comes from ("own", "pooled" or "prior"), by the rule of
    the module docstring. `own_tasks` / `pooled_tasks`: how many tasks stand behind each estimate."""
    if own_sd is not None and own_tasks >= MIN_OWN_SD_TASKS:
        return own_sd, "own"
    candidates: list[tuple[float, str]] = [(own_sd, "own")] if own_sd is not None else []
    if pooled is not None and pooled_tasks >= MIN_OWN_SD_TASKS:
        candidates.append((pooled, "pooled"))
    else:
        candidates.append((PRIOR_DIFF_SD, "prior"))
    return max(candidates, key=lambda c: c[0])


def min_tasks_for(
    difference: float,
    sd: float,
    *,
    alpha: float = ALPHA,
    power: float = POWER,
    sided: int = 1,
    at_least: int = 2,
    at_most: int = 100_000,
) -> int:
    """The smallest n (>= `at_least`) whose MDD for `sd` is at most `difference`."""
    n = max(at_least, 2)
    while n < at_most and (m := mdd(n, sd, alpha=alpha, power=power, sided=sided)) is not None and m > difference:
        n += 1
    return n


def sign_flip_p(
    diffs: Sequence[float], *, alternative: str = "two-sided", n_resamples: int = N_RESAMPLES, seed: int = SEED
) -> float | None:
    """p value of the paired sign-flip permutation test of mean(diffs) = 0
    (`scipy.stats.permutation_test`, permutation_type="samples"); None below 2 differences."""
    d = _clean(diffs)
    if d.size < 2:
        return None
    if not np.any(d):
        return 1.0
    res = stats.permutation_test(
        (d,),
        _mean,
        permutation_type="samples",
        vectorized=True,
        n_resamples=n_resamples,
        alternative=alternative,
        rng=np.random.default_rng(seed),
    )
    return float(min(1.0, res.pvalue))


def holm(pvalues: Sequence[float | None]) -> list[float | None]:
    """Holm step-down adjusted p values (None stays None)."""
    given = {i: p for i, p in enumerate(pvalues) if p is not None}
    idx = sorted(given, key=lambda i: given[i])
    m = len(idx)
    out: list[float | None] = [None] * len(pvalues)
    running = 0.0
    for rank, i in enumerate(idx):
        running = max(running, min(1.0, (m - rank) * given[i]))
        out[i] = running
    return out


def paired_diffs(a: Mapping[Hashable, float | None], b: Mapping[Hashable, float | None]) -> list[float]:
    """a - b over the tasks both have a value for, in task order."""
    both = {k: (x, y) for k in a.keys() & b.keys() if (x := a[k]) is not None and (y := b[k]) is not None}
    return [float(x) - float(y) for x, y in (both[k] for k in sorted(both, key=str))]


def paired_comparison(
    a: Mapping[Hashable, float | None],
    b: Mapping[Hashable, float | None],
    *,
    pooled: float | None = None,
    pooled_tasks: int = 0,
    alpha: float = ALPHA,
    n_resamples: int = N_RESAMPLES,
    seed: int = SEED,
) -> dict:
    """Method a against method b over the tasks both answered (per-task values, seeds averaged):
    mean difference a - b with its 95% bootstrap interval, the sign-flip p value, the MDD and the
    sd behind it. The verdict needs the family's Holm adjustment: see `pairwise` / `verdict`."""
    d = paired_diffs(a, b)
    n = len(d)
    ci = mean_ci(d, confidence=1 - alpha, n_resamples=n_resamples, seed=seed)
    own = sample_sd(d)
    sd, source = mdd_sd(own, n, pooled, pooled_tasks) if n >= 2 else (None, "none")
    return {
        "n": n,
        "mean_a": _avg([a[k] for k in a if a[k] is not None and b.get(k) is not None]),
        "mean_b": _avg([b[k] for k in b if b[k] is not None and a.get(k) is not None]),
        "diff": ci.mean,
        "diff_ci_low": ci.low,
        "diff_ci_high": ci.high,
        "p_value": sign_flip_p(d, n_resamples=n_resamples, seed=seed),
        "mdd": mdd(n, sd, alpha=alpha),
        "sd_diff": own,
        "mdd_sd": sd,
        "mdd_sd_source": source,
    }


def _avg(xs: list) -> float | None:
    return float(np.mean(xs)) if xs else None


def verdict(row: dict, p_adjusted: float | None, alpha: float = ALPHA) -> tuple[str, str]:
    """("differs" | "cannot tell", why) for one `paired_comparison` row, by the rule of the
    module docstring."""
    n, diff, m = row["n"], row["diff"], row["mdd"]
    if n < MIN_TESTABLE_TASKS:
        return CANNOT_TELL, f"{n} shared tasks < {MIN_TESTABLE_TASKS}: no paired test reaches p < {alpha}"
    if p_adjusted is None or p_adjusted >= alpha:
        return CANNOT_TELL, f"p = {_g(p_adjusted)} >= {alpha}"
    if m is not None and abs(diff) < m:
        return CANNOT_TELL, f"|diff| {abs(diff):.3f} < MDD {m:.3f}"
    return DIFFERS, f"p = {_g(p_adjusted)} < {alpha} and |diff| {abs(diff):.3f} >= MDD {_g(m)}"


def _g(v: float | None) -> str:
    return "–" if v is None else f"{v:.3g}"


def pairwise(
    per_system: Mapping[str, Mapping[Hashable, float | None]],
    *,
    pooled: float | None = None,
    pooled_tasks: int = 0,
    alpha: float = ALPHA,
    n_resamples: int = N_RESAMPLES,
    seed: int = SEED,
) -> list[dict]:
    """Every pair of systems (method or method@backbone -> {task: value}) of ONE family: the
    `paired_comparison` figures, the Holm-adjusted p over the family's pairs, the verdict and, when
    it differs, the better system. Pairs without a shared task are left out."""
    names = sorted(per_system)
    rows = []
    for i, a in enumerate(names):
        for b in names[i + 1 :]:
            row = paired_comparison(
                per_system[a],
                per_system[b],
                pooled=pooled,
                pooled_tasks=pooled_tasks,
                alpha=alpha,
                n_resamples=n_resamples,
                seed=seed,
            )
            if row["n"]:
                rows.append({"system_a": a, "system_b": b, **row})
    for row, p_adj in zip(rows, holm([r["p_value"] for r in rows])):
        row["p_holm"] = p_adj
        row["verdict"], row["why"] = verdict(row, p_adj, alpha)
        row["better"] = (row["system_a"] if row["diff"] > 0 else row["system_b"]) if row["verdict"] == DIFFERS else None
    return rows


def family_sd(per_system: Mapping[str, Mapping[Hashable, float | None]]) -> tuple[float | None, int]:
    """The sd of per-task differences pooled over every pair of systems of one family (each pair
    around its own mean difference, `pooled_sd`), and the number of distinct tasks behind it: the
    sd a family's MDD is computed from."""
    names = sorted(per_system)
    pairs = [(per_system[a], per_system[b]) for i, a in enumerate(names) for b in names[i + 1 :]]
    sd, _ = pooled_sd(paired_diffs(a, b) for a, b in pairs)
    tasks = {k for a, b in pairs for k in a.keys() & b.keys() if a[k] is not None and b[k] is not None}
    return sd, len(tasks)


def control_excess(
    control: Mapping[Hashable, float | None],
    random: Mapping[Hashable, float | None],
    margin: float,
    *,
    alpha: float = ALPHA,
    n_resamples: int = N_RESAMPLES,
    seed: int = SEED,
) -> dict:
    """A control answer against the chance line over the tasks both scored: the mean excess
    (control - random), the lower end of its one-sided (1 - alpha) bootstrap interval, and whether
    that lower end exceeds `margin` (the control beats chance by more than the margin with
    confidence). `beats_margin` is None when no bound exists (fewer than 2 tasks)."""
    d = paired_diffs(control, random)
    ci = mean_ci(d, confidence=1 - alpha, alternative="greater", n_resamples=n_resamples, seed=seed)
    return {
        "n": ci.n,
        "excess": ci.mean,
        "excess_low": ci.low,
        "sd": sample_sd(d),
        "beats_margin": None if ci.low is None else bool(ci.low > margin),
    }

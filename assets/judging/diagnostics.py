"""Diagnostics over judged answers (ForeSci §5.2, Appendix F), as pure functions.

* Low-score rates (Table A10 shape): for each metric the rank-selected bottom 20% of the
  rows that have the metric are "low"; a group's rate is the share of its rows (with the
  metric) that are low. Traceability is only defined for methods with a support
  artifact, so Native LLM rows simply do not enter its ranking (shown as "–").
* Evidence-to-decision drift effect (§5.2): Δnorm(m) = (E[m | s = 0] − E[m | s ≥ 2]) / SD(m),
  SD over all audited rows of that metric (population SD, ddof = 0).
* Pairwise method comparisons aggregated into Bradley–Terry strengths (MM algorithm,
  Hunter 2004) and Elo ratings (order-averaged), plus agreement statistics used to
  compare the compact judge with the one-claim-per-call reference variant.

No model calls here: LLM pairwise verdicts come from `assets.scorers.llm_judge`, metric
verdicts from `pairwise_from_scores`.
"""

from __future__ import annotations

import math
import random
import warnings
from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence

import numpy as np

from assets.ranking.elo import INITIAL_RATING, K_FACTOR, elo_update
from core.metrics import swap_verdict  # noqa: F401  (pairwise verdicts: llm_judge and the offline ratings)

LOW_SCORE_QUANTILE = 0.2
DRIFT_TYPES: tuple[str, ...] = ("scope_granularity", "causal_role", "intervention_mode", "temporal_horizon")
SEVERE_DRIFT = 2  # severity >= 2 counts as high drift (Appendix F.2); 0 is aligned


# --------------------------------------------------------------------------------------
# Low-score rates (Table A10)
# --------------------------------------------------------------------------------------


def low_score_ids(
    rows: Sequence[Mapping], metric: str, quantile: float = LOW_SCORE_QUANTILE, id_key: str = "answer_id"
) -> set[str]:
    """Ids of the rank-selected bottom `quantile` of the rows that have `metric`.

    k = round(quantile * n) rows (half up, at least 1 when n > 0) with the lowest values;
    ties are broken by id so the selection is deterministic.
    """
    present = [r for r in rows if r.get(metric) is not None and not _isnan(r[metric])]
    if not present:
        return set()
    k = max(1, int(math.floor(quantile * len(present) + 0.5)))
    ranked = sorted(present, key=lambda r: (float(r[metric]), str(r[id_key])))
    return {str(r[id_key]) for r in ranked[:k]}


def low_score_rates(
    rows: Sequence[Mapping],
    metrics: Sequence[str],
    groupings: Sequence[str] = ("family", "method"),
    quantile: float = LOW_SCORE_QUANTILE,
    id_key: str = "answer_id",
) -> list[dict]:
    """Table A10: one row per (grouping, unit) with `low_<metric>` rates and `n_<metric>`.

    A rate is None where the group has no row with that metric (e.g. Trace of Native LLM).
    """
    low = {m: low_score_ids(rows, m, quantile, id_key) for m in metrics}
    out = []
    for grouping in groupings:
        units = sorted({str(r[grouping]) for r in rows})
        for unit in units:
            group = [r for r in rows if str(r[grouping]) == unit]
            row: dict = {"grouping": grouping, "unit": unit, "n_rows": len(group)}
            for m in metrics:
                have = [r for r in group if r.get(m) is not None and not _isnan(r[m])]
                row[f"n_{m}"] = len(have)
                row[f"low_{m}"] = (sum(str(r[id_key]) in low[m] for r in have) / len(have)) if have else None
            out.append(row)
    return out


# --------------------------------------------------------------------------------------
# Evidence-to-decision drift (§5.2, Appendix F.2)
# --------------------------------------------------------------------------------------


def delta_norm(values: Sequence[float | None], severities: Sequence[float | None], severe: float = SEVERE_DRIFT) -> dict:
    """Δnorm(m) = (E[m | s = 0] − E[m | s ≥ severe]) / SD(m).

    Rows where either the metric or the severity is missing are not audited. SD is the
    population standard deviation of m over the audited rows. Returns {"delta_norm",
    "mean_aligned", "mean_severe", "sd", "n_aligned", "n_severe"}; delta_norm is None when
    either group is empty or SD is 0. Severity 0 means aligned; a mean severity over judge
    repeats is used as is (so 0.33 is neither aligned nor severe).
    """
    pairs = [
        (float(v), float(s))
        for v, s in zip(values, severities)
        if v is not None and s is not None and not _isnan(v) and not _isnan(s)
    ]
    aligned = [v for v, s in pairs if s == 0]
    high = [v for v, s in pairs if s >= severe]
    sd = float(np.std([v for v, _ in pairs])) if pairs else 0.0
    out = {
        "mean_aligned": _mean(aligned),
        "mean_severe": _mean(high),
        "sd": sd if pairs else None,
        "n_aligned": len(aligned),
        "n_severe": len(high),
        "delta_norm": None,
    }
    if aligned and high and sd > 0:
        out["delta_norm"] = (out["mean_aligned"] - out["mean_severe"]) / sd
    return out


def drift_effects(
    rows: Sequence[Mapping], metrics: Sequence[str], drift_types: Sequence[str] = DRIFT_TYPES, by_family: bool = True
) -> list[dict]:
    """Δnorm of severe drift on every metric, overall ("all") and per family (Figure A7).

    `rows` carry the metrics and a `drift` mapping {drift type: severity 0–3}. Rows with no
    drift labels (offline judging) are ignored; with none at all the result is [].
    """
    labelled = [r for r in rows if r.get("drift")]
    if not labelled:
        return []
    families = ["all"] + (sorted({str(r["family"]) for r in labelled}) if by_family else [])
    out = []
    for family in families:
        group = labelled if family == "all" else [r for r in labelled if str(r["family"]) == family]
        for drift in drift_types:
            for m in metrics:
                eff = delta_norm([r.get(m) for r in group], [r["drift"].get(drift) for r in group])
                out.append({"family": family, "drift_type": drift, "metric": m, **eff})
    return out


# --------------------------------------------------------------------------------------
# Pairwise comparisons -> Bradley-Terry and Elo
# --------------------------------------------------------------------------------------


def system_of(method: str, backbone: str) -> str:
    """The rated unit: a method on a backbone."""
    return f"{method}@{backbone}"


def metric_verdict(a: float | None, b: float | None, tol: float = 1e-9) -> str | None:
    """'a', 'b' or 'tie' by comparing two metric values; None if either is missing."""
    if a is None or b is None or _isnan(a) or _isnan(b):
        return None
    if abs(a - b) <= tol:
        return "tie"
    return "a" if a > b else "b"


def pairwise_from_scores(rows: Sequence[Mapping], metric: str = "fta") -> list[dict]:
    """Per-task comparisons of every pair of systems by one metric (the offline comparison).

    Seeds are averaged per (task, system) first. A metric comparison is symmetric, so the
    position swap of the LLM comparison has nothing to swap here: each pair is compared
    once. Returns dicts {task_id, family, system_a, system_b, winner ('a'|'b'|'tie'), source}.
    """
    by_task: dict[str, dict[str, list[float]]] = defaultdict(lambda: defaultdict(list))
    family: dict[str, str] = {}
    for r in rows:
        v = r.get(metric)
        if v is None or _isnan(v):
            continue
        by_task[str(r["task_id"])][system_of(str(r["method"]), str(r["backbone"]))].append(float(v))
        family[str(r["task_id"])] = str(r["family"])
    out = []
    for task_id in sorted(by_task):
        systems = sorted(by_task[task_id])
        means = {s: sum(v) / len(v) for s, v in by_task[task_id].items()}
        for i, a in enumerate(systems):
            for b in systems[i + 1 :]:
                out.append(
                    {
                        "task_id": task_id,
                        "family": family[task_id],
                        "system_a": a,
                        "system_b": b,
                        "winner": metric_verdict(means[a], means[b]),
                        "source": f"metric:{metric}",
                    }
                )
    return out


def _tally(comparisons: Iterable[Mapping]) -> tuple[list[str], dict[tuple[str, str], list[float]]]:
    """(systems, {(a, b): [wins of a, games]}) with ties as half a win each."""
    games: dict[tuple[str, str], list[float]] = {}
    systems: set[str] = set()
    for c in comparisons:
        w = c.get("winner")
        if w not in ("a", "b", "tie"):
            continue
        a, b = str(c["system_a"]), str(c["system_b"])
        if a == b:
            continue
        systems |= {a, b}
        key, flip = ((a, b), False) if a < b else ((b, a), True)
        cell = games.setdefault(key, [0.0, 0.0])
        score_a = {"a": 1.0, "b": 0.0, "tie": 0.5}[w]
        cell[0] += (1.0 - score_a) if flip else score_a
        cell[1] += 1.0
    return sorted(systems), games


def bradley_terry(
    comparisons: Iterable[Mapping], prior_ties: float = 1.0, iters: int = 1000, tol: float = 1e-10
) -> dict[str, float]:
    """Bradley–Terry strengths p (P(i beats j) = p_i / (p_i + p_j)) by the MM algorithm.

    Ties count half a win for each side. `prior_ties` virtual ties are added to every pair
    that was compared at least once, so a system that never won (or never lost) keeps a
    finite strength. Strengths are normalised to geometric mean 1. Example (hand-checked in
    the tests): A beats B twice, B beats A once, one prior tie -> p_A / p_B = 2.5 / 1.5.
    """
    systems, games = _tally(comparisons)
    if not systems:
        return {}
    wins = {s: 0.0 for s in systems}
    pairs: list[tuple[str, str, float]] = []
    for (a, b), (wa, n) in games.items():
        wa_p, n_p = wa + prior_ties / 2, n + prior_ties
        wins[a] += wa_p
        wins[b] += n_p - wa_p
        pairs.append((a, b, n_p))
    p = {s: 1.0 for s in systems}
    for _ in range(iters):
        denom = {s: 0.0 for s in systems}
        for a, b, n in pairs:
            d = n / (p[a] + p[b])
            denom[a] += d
            denom[b] += d
        new = {s: (wins[s] / denom[s]) if denom[s] > 0 else p[s] for s in systems}
        g = math.exp(sum(math.log(max(v, 1e-300)) for v in new.values()) / len(new))
        new = {s: v / g for s, v in new.items()}
        delta = max(abs(new[s] - p[s]) for s in systems)
        p = new
        if delta < tol:
            break
    return p


def bt_rating(strength: float, base: float = INITIAL_RATING) -> float:
    """A Bradley–Terry strength on the Elo scale: base + 400 log10(p)."""
    return base + 400.0 * math.log10(strength)


def elo_ratings(comparisons: Sequence[Mapping], k: float = K_FACTOR, permutations: int = 200, seed: int = 0) -> dict[str, float]:
    """Elo ratings (start 1200, K = 32, s = 1 / 0.5 / 0) averaged over `permutations`
    seeded shuffles of the comparison order (Elo depends on order; averaging removes it)."""
    valid = [c for c in comparisons if c.get("winner") in ("a", "b", "tie") and c["system_a"] != c["system_b"]]
    systems = sorted({str(c["system_a"]) for c in valid} | {str(c["system_b"]) for c in valid})
    if not systems:
        return {}
    rng = random.Random(seed)
    totals = {s: 0.0 for s in systems}
    order = list(valid)
    for _ in range(max(1, permutations)):
        rng.shuffle(order)
        r = {s: INITIAL_RATING for s in systems}
        for c in order:
            a, b = str(c["system_a"]), str(c["system_b"])
            s_a = {"a": 1.0, "b": 0.0, "tie": 0.5}[c["winner"]]
            r[a], r[b] = elo_update(r[a], r[b], s_a, k)
        for s in systems:
            totals[s] += r[s]
    return {s: totals[s] / max(1, permutations) for s in systems}


def method_ratings(comparisons: Sequence[Mapping], seed: int = 0) -> list[dict]:
    """One row per system: wins/losses/ties, Bradley–Terry strength and rating, Elo."""
    bt = bradley_terry(comparisons)
    elo = elo_ratings(comparisons, seed=seed)
    record: dict[str, dict[str, int]] = defaultdict(lambda: {"wins": 0, "losses": 0, "ties": 0})
    sources: dict[str, set[str]] = defaultdict(set)
    for c in comparisons:
        w = c.get("winner")
        if w not in ("a", "b", "tie") or c["system_a"] == c["system_b"]:
            continue
        a, b = str(c["system_a"]), str(c["system_b"])
        sources[a].add(str(c.get("source", "")))
        sources[b].add(str(c.get("source", "")))
        if w == "tie":
            record[a]["ties"] += 1
            record[b]["ties"] += 1
        else:
            win, lose = (a, b) if w == "a" else (b, a)
            record[win]["wins"] += 1
            record[lose]["losses"] += 1
    rows = []
    for s in sorted(bt, key=lambda s: -bt[s]):
        method, _, backbone = s.partition("@")
        rows.append(
            {
                "system": s,
                "method": method,
                "backbone": backbone,
                **record[s],
                "n_comparisons": sum(record[s].values()),
                "bt_strength": bt[s],
                "bt_rating": bt_rating(bt[s]),
                "elo": elo[s],
                "source": ",".join(sorted(sources[s])),
            }
        )
    return rows


# --------------------------------------------------------------------------------------
# Agreement of two judge variants
# --------------------------------------------------------------------------------------


def cohen_kappa(a: Sequence[str], b: Sequence[str]) -> float | None:
    """Cohen's kappa of two label sequences; None if empty, 1.0 if both are constant and equal."""
    if len(a) != len(b):
        raise ValueError("label sequences differ in length")
    n = len(a)
    if n == 0:
        return None
    po = sum(x == y for x, y in zip(a, b)) / n
    labels = set(a) | set(b)
    pe = sum((list(a).count(lab) / n) * (list(b).count(lab) / n) for lab in labels)
    if pe >= 1.0:
        return 1.0 if po == 1.0 else 0.0
    return (po - pe) / (1.0 - pe)


def score_agreement(x: Sequence[float | None], y: Sequence[float | None], within: float = 0.1) -> dict:
    """Agreement of two score lists on the same items: n, mean |x − y|, share within
    `within`, Pearson and Spearman r (None when undefined)."""
    pairs = [(float(a), float(b)) for a, b in zip(x, y) if a is not None and b is not None]
    out: dict = {"n": len(pairs), "mean_abs_diff": None, f"share_within_{within}": None, "pearson": None, "spearman": None}
    if not pairs:
        return out
    xs, ys = np.array([p[0] for p in pairs]), np.array([p[1] for p in pairs])
    out["mean_abs_diff"] = float(np.abs(xs - ys).mean())
    out[f"share_within_{within}"] = float((np.abs(xs - ys) <= within + 1e-12).mean())
    if len(pairs) >= 3 and xs.std() > 0 and ys.std() > 0:
        from scipy.stats import spearmanr

        out["pearson"] = float(np.corrcoef(xs, ys)[0, 1])
        out["spearman"] = float(spearmanr(xs, ys).statistic)
    return out


def spearman_matrix(rows: Sequence[Mapping], metrics: Sequence[str], min_n: int = 3) -> dict[str, dict[str, float | None]]:
    """Pairwise Spearman correlation of metrics over rows having both (Appendix F.3)."""
    from scipy.stats import spearmanr

    out: dict[str, dict[str, float | None]] = {}
    for a in metrics:
        out[a] = {}
        for b in metrics:
            pairs = [
                (float(r[a]), float(r[b]))
                for r in rows
                if r.get(a) is not None and r.get(b) is not None and not _isnan(r[a]) and not _isnan(r[b])
            ]
            xs, ys = np.array([p[0] for p in pairs]), np.array([p[1] for p in pairs])
            if len(pairs) < min_n or xs.std() == 0 or ys.std() == 0:
                out[a][b] = None
            elif a == b:
                out[a][b] = 1.0
            else:
                with warnings.catch_warnings():  # tied ranks can still make scipy warn
                    warnings.simplefilter("ignore")
                    rho = float(spearmanr(xs, ys).statistic)
                out[a][b] = None if math.isnan(rho) else rho
    return out


def _isnan(v) -> bool:
    try:
        return math.isnan(float(v))
    except (TypeError, ValueError):
        return False


def _mean(xs: Sequence[float]) -> float | None:
    return float(sum(xs) / len(xs)) if xs else None

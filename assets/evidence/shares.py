"""Volume-normalised shares, momentum and slice growth (ForeSci §3.3).

Coverage of the corpus is uneven over time, so every volume number is a *share* of the
domain's monthly volume, never a raw count.
"""

from __future__ import annotations

import re
from collections import Counter, defaultdict
from datetime import date

import numpy as np

from assets.taxonomy.slices import slice_starts

EPS = 1e-3  # floor of the prior share in growth = recent / prior
GROWTH_CAP = 10.0  # growth of a node with (almost) no prior papers is capped here
RECENT_MONTHS = 3
PRIOR_MONTHS = 6
SLOPE_MONTHS = 9


def month_key(day: date) -> str:
    return day.strftime("%Y-%m")


def months_back(end: date, n: int, skip: int = 0) -> list[str]:
    """`n` month keys, oldest first, ending `skip` months before `end`'s month."""
    index = end.year * 12 + end.month - 1 - skip
    keys = []
    for i in range(index - n + 1, index + 1):
        keys.append(f"{i // 12:04d}-{i % 12 + 1:02d}")
    return keys


def parse_slice(label: str) -> date | None:
    """First day of a slice label: "2024-Q3" -> 2024-07-01, "2025-11" -> 2025-11-01."""
    m = re.fullmatch(r"(\d{4})-Q([1-4])", label.strip())
    if m:
        return date(int(m.group(1)), 3 * int(m.group(2)) - 2, 1)
    m = re.fullmatch(r"(\d{4})-(\d{2})(?:-\d{2})?", label.strip())
    if m and 1 <= int(m.group(2)) <= 12:
        return date(int(m.group(1)), int(m.group(2)), 1)
    m = re.fullmatch(r"(\d{4})", label.strip())
    return date(int(m.group(1)), 1, 1) if m else None


def months_between(start: date, end: date) -> int:
    return max(0, (end.year - start.year) * 12 + end.month - start.month)


def share(counts: dict[str, int], volume: dict[str, int], months: list[str]) -> float:
    """Volume-weighted share over `months`: sum of node papers / sum of domain papers."""
    total = sum(volume.get(m, 0) for m in months)
    return sum(counts.get(m, 0) for m in months) / total if total else 0.0


def monthly_shares(counts: dict[str, int], volume: dict[str, int], months: list[str]) -> list[tuple[int, float]]:
    """(month index, share) for months with any domain volume."""
    return [(i, counts.get(m, 0) / volume[m]) for i, m in enumerate(months) if volume.get(m, 0) > 0]


def ls_slope(points: list[tuple[int, float]]) -> float:
    """Least-squares slope (share per month); 0 with fewer than two points."""
    if len(points) < 2:
        return 0.0
    x = np.array([p[0] for p in points], dtype=float)
    y = np.array([p[1] for p in points], dtype=float)
    x -= x.mean()
    denom = float((x * x).sum())
    return float((x * (y - y.mean())).sum() / denom) if denom else 0.0


def momentum(paper_dates: list[date], volume: dict[str, int], cutoff: date) -> dict[str, float]:
    """Volume-normalised momentum of a set of papers at the cutoff.

    share_recent: node papers in the last RECENT_MONTHS months (cutoff month included) /
    domain papers in those months; share_prior: the same over the PRIOR_MONTHS before
    (a volume-weighted per-month share); growth = share_recent / max(share_prior, EPS),
    capped at GROWTH_CAP (0 when nothing recent); slope over the last SLOPE_MONTHS months.
    """
    counts = Counter(month_key(d) for d in paper_dates if d <= cutoff)
    recent = months_back(cutoff, RECENT_MONTHS)
    prior = months_back(cutoff, PRIOR_MONTHS, skip=RECENT_MONTHS)
    s_recent, s_prior = share(counts, volume, recent), share(counts, volume, prior)
    growth = min(GROWTH_CAP, s_recent / max(s_prior, EPS)) if s_recent > 0 else 0.0
    slope = ls_slope(monthly_shares(counts, volume, months_back(cutoff, SLOPE_MONTHS)))
    return {
        "share_recent": round(s_recent, 6),
        "share_prior": round(s_prior, 6),
        "growth": round(growth, 4),
        "slope": round(slope, 7),
        "n_recent": float(sum(counts.get(m, 0) for m in recent)),
        "n_prior": float(sum(counts.get(m, 0) for m in prior)),
    }


def quarter_key(month: str) -> str:
    year, mon = month.split("-")
    return f"{year}-Q{(int(mon) - 1) // 3 + 1}"


def quarterly_shares(paper_dates: list[date], volume: dict[str, int], cutoff: date, n_quarters: int = 4) -> dict[str, float]:
    """Share of domain volume per calendar quarter, the last `n_quarters` up to the cutoff."""
    months = months_back(cutoff, 3 * n_quarters + 2)
    quarters: dict[str, list[str]] = defaultdict(list)
    for m in months:
        quarters[quarter_key(m)].append(m)
    keys = sorted(quarters)[-n_quarters:]
    counts = Counter(month_key(d) for d in paper_dates if d <= cutoff)
    return {q: round(share(counts, volume, quarters[q]), 6) for q in keys}


def slice_shares(
    paper_dates: list[date], volume: dict[str, int], cutoff: date, *, recent_months: int = 6, n_slices: int = 6
) -> dict[str, float]:
    """Share of the domain's volume per taxonomy slice (quarters early, months near the
    cutoff, as `assets.taxonomy.logic.slice_starts`), the last `n_slices` slices."""
    months = sorted(m for m in volume if m <= month_key(cutoff))
    if not months:
        return {}
    first = date(int(months[0][:4]), int(months[0][5:]), 1)
    starts = slice_starts(first, cutoff, recent_months)
    counts = Counter(month_key(d) for d in paper_dates if d <= cutoff)
    out: dict[str, float] = {}
    for k, (label, start) in enumerate(starts):
        end = starts[k + 1][1] if k + 1 < len(starts) else date(cutoff.year + 1, 1, 1)
        ms = [m for m in months if month_key(start) <= m < month_key(end)]
        out[label] = round(share(counts, volume, ms), 6)
    return dict(list(out.items())[-n_slices:])


def slice_growth(series: dict[str, float]) -> float:
    """Last slice's share over the mean of the slices before it (capped like `growth`)."""
    values = list(series.values())
    if len(values) < 2 or values[-1] <= 0:
        return 0.0
    prior = float(np.mean(values[:-1]))
    return round(min(GROWTH_CAP, values[-1] / max(prior, EPS)), 4)

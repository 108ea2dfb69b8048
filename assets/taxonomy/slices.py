"""Chronological slices of the taxonomy (quarters early, months near the cutoff) and the
growth queries over them ("what emerged when")."""

from __future__ import annotations

import re
from datetime import date

import numpy as np

from core.records import TaxonomyNode


def _quarter(day: date) -> tuple[int, int]:
    return day.year, (day.month - 1) // 3 + 1


def _month_shift(year: int, month: int, delta: int) -> tuple[int, int]:
    index = year * 12 + (month - 1) + delta
    return index // 12, index % 12 + 1


def slice_starts(first: date, cutoff: date, recent_months: int = 6) -> list[tuple[str, date]]:
    """Chronological slices from `first` to `cutoff`: (label, first day), in order.

    The last `recent_months` calendar months up to and including the cutoff's month are
    monthly slices ("2025-11"); everything before is quarterly ("2024-Q3"). A quarter cut
    by the start of the monthly window keeps its label but covers only its earlier
    months. Slices start at the one containing `first`; empty slices are kept so the
    growth curve has a point for every period.
    """
    if first > cutoff:
        raise ValueError(f"first paper date {first} is after the cutoff {cutoff}")
    m_year, m_month = _month_shift(cutoff.year, cutoff.month, -(recent_months - 1))
    monthly_start = date(m_year, m_month, 1)
    starts: list[tuple[str, date]] = []
    if first < monthly_start:
        year, quarter = _quarter(first)
        while True:
            q_start = date(year, 3 * (quarter - 1) + 1, 1)
            if q_start >= monthly_start:
                break
            starts.append((f"{year}-Q{quarter}", q_start))
            year, quarter = (year + 1, 1) if quarter == 4 else (year, quarter + 1)
        year, month = m_year, m_month
    else:
        year, month = first.year, first.month
    while date(year, month, 1) <= cutoff:
        starts.append((f"{year}-{month:02d}", date(year, month, 1)))
        year, month = _month_shift(year, month, 1)
    return starts


def slice_index(published: list[date], starts: list[tuple[str, date]]) -> np.ndarray:
    """Index of the slice each date falls into (dates before the first slice go to 0)."""
    bounds = np.array([np.datetime64(s) for _, s in starts])
    days = np.array([np.datetime64(d) for d in published])
    return np.maximum(np.searchsorted(bounds, days, side="right") - 1, 0)


# ------------------------------------------------------------------------- dimensions


def slice_first_day(label: str) -> date:
    """First day of a slice label: "2024-Q3" -> 2024-07-01, "2025-11" -> 2025-11-01."""
    m = re.fullmatch(r"(\d{4})-Q([1-4])", label.strip())
    if m:
        return date(int(m.group(1)), 3 * int(m.group(2)) - 2, 1)
    m = re.fullmatch(r"(\d{4})-(\d{2})", label.strip())
    if m and 1 <= int(m.group(2)) <= 12:
        return date(int(m.group(1)), int(m.group(2)), 1)
    raise ValueError(f"not a slice label: {label!r} (expected YYYY-Qn or YYYY-MM)")


def nodes_created_between(
    nodes: list[TaxonomyNode],
    start_slice: str | date,
    end_slice: str | date,
    *,
    created_by: tuple[str, ...] = ("initial", "width", "depth"),
    include_roots: bool = False,
) -> list[TaxonomyNode]:
    """Nodes that emerged in the slices from `start_slice` to `end_slice` (both inclusive).

    Slices are compared by their first day, so a quarter label and a month label mix
    ("2025-Q3" .. "2026-02"); dates may be passed instead of labels. Roots (the
    dimensions themselves) are left out unless `include_roots`. Ordered by creation
    slice, then node id: "what emerged when" for later stages.
    """
    lo = start_slice if isinstance(start_slice, date) else slice_first_day(start_slice)
    hi = end_slice if isinstance(end_slice, date) else slice_first_day(end_slice)
    out = [
        n
        for n in nodes
        if lo <= slice_first_day(n.created_slice) <= hi
        and n.created_by in created_by
        and (include_roots or n.parent_id is not None)
    ]
    return sorted(out, key=lambda n: (slice_first_day(n.created_slice), n.node_id))


def growth_table(nodes: list[TaxonomyNode], slices: list[str] | None = None) -> dict[str, dict[str, int]]:
    """Nodes created per dimension and slice: {dimension: {slice: count}} (every slice listed)."""
    slices = slices or sorted({n.created_slice for n in nodes}, key=slice_first_day)
    table = {d: {s: 0 for s in slices} for d in sorted({n.dimension for n in nodes})}
    for n in nodes:
        table[n.dimension][n.created_slice] = table[n.dimension].get(n.created_slice, 0) + 1
    return table


def growth_markdown(nodes: list[TaxonomyNode], slices: list[str] | None = None) -> str:
    """The growth table as markdown: one row per slice, one column per dimension, plus totals."""
    table = growth_table(nodes, slices)
    dims = list(table)
    slices = slices or sorted({n.created_slice for n in nodes}, key=slice_first_day)
    head = "| slice | " + " | ".join(dims) + " | total | cumulative |\n|" + "---|" * (len(dims) + 3) + "\n"
    rows, cum = [], 0
    for s in slices:
        counts = [table[d].get(s, 0) for d in dims]
        cum += sum(counts)
        rows.append(f"| {s} | " + " | ".join(map(str, counts)) + f" | {sum(counts)} | {cum} |")
    return head + "\n".join(rows) + "\n"

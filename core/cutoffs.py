"""Which cutoffs may become partitions, checked before a cutoff reaches the Dagster instance.

A cutoff key must be a real date written YYYY-MM-DD, inside the span every domain's
corpus covers, and its forecast window (cutoff + horizon) must have closed inside the
corpus, so the hidden gold can be measured; a cutoff whose window is still open is only
accepted when marked prospective (forecasts frozen now, scored once the window is
harvested). A refused cutoff never becomes a partition that shows as failed for ever.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date

from core.papers import add_months
from core.registry import parse_cutoff


class CutoffError(ValueError):
    """A cutoff that cannot become a partition; the message says why and what to do."""


@dataclass(frozen=True)
class CorpusSpan:
    """Dates every domain's corpus covers: the latest first date and the earliest last date."""

    first: date
    last: date


def check_cutoff(key: str, horizon_months: int, span: CorpusSpan, *, prospective: bool = False) -> date:
    """The cutoff's date if `key` may become a partition, else `CutoffError` with the reason."""
    cutoff = parse_cutoff(key)  # "not a YYYY-MM-DD date" for month 13, Feb 30, "last-tuesday"
    if key != cutoff.isoformat():  # fromisoformat also takes 20251231: partition keys stay canonical
        raise CutoffError(f"cutoff {key!r} is not written YYYY-MM-DD (use {cutoff.isoformat()})")
    if cutoff < span.first:
        raise CutoffError(f"cutoff {key} is before the corpus starts ({span.first}): no domain has papers before it")
    if cutoff > span.last:
        raise CutoffError(
            f"cutoff {key} is after the corpus ends ({span.last}): no paper after the cutoff "
            "could ever be seen; harvest more papers first"
        )
    window_end = add_months(cutoff, horizon_months)
    if window_end > span.last and not prospective:
        raise CutoffError(
            f"the {horizon_months}-month window of cutoff {key} ends {window_end}, after the corpus "
            f"ends ({span.last}), so its gold cannot be measured yet; add it with --prospective to "
            "freeze forecasts now and score them once the window is harvested"
        )
    return cutoff

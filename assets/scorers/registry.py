"""The scorer registry: scorers run, and metrics are listed, in registration order."""

from __future__ import annotations

from assets.families.base import TaskFamily
from assets.families.registry import all_families, get_family
from assets.scorers.base import Scorer
from core.plugins import Registry, UnknownPluginError


class UnknownScorerError(UnknownPluginError):
    pass


SCORERS: Registry[Scorer] = Registry("scorer", UnknownScorerError)
register_scorer = SCORERS.register
unregister_scorer = SCORERS.unregister
get_scorer = SCORERS.get
all_scorers = SCORERS.all


def scorers_for(family: str | TaskFamily) -> list[Scorer]:
    """The scorers that apply to a family (an unknown family is an error)."""
    fam = get_family(family) if isinstance(family, str) else family
    return [s for s in SCORERS.all() if s.applies_to(fam)]


def families_of(scorer: Scorer) -> list[str]:
    return [f.name for f in all_families() if scorer.applies_to(f)]


def _unique(names) -> tuple[str, ...]:
    return tuple(dict.fromkeys(names))


def reported_values() -> tuple[str, ...]:
    """Every value a leaderboard shows, in registry order (shared names once)."""
    return _unique(v for s in SCORERS.all() for v in (s.values if s.reported is None else s.reported))


def headline_values() -> tuple[str, ...]:
    """The values people compare on, charted and diagnosed (shared names once)."""
    return _unique(v for s in SCORERS.all() for v in (s.values[:1] if s.headline is None else s.headline))


def value_label(name: str) -> str:
    for s in SCORERS.all():
        if name in s.labels:
            return s.labels[name]
    return name

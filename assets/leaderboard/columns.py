"""The leaderboard's metric columns, from the scorer registry.

Every registered scorer names its leaderboard columns (`Scorer.leaderboard`: column -> the value it
averages; by default its headline values under their own names) and a `leaderboard_rank`;
`leaderboard_metrics` lists them ordered by rank, then registration order, a column shared by
scorers once (two scorers giving one column different values is an error, as is a name that is not
a plain identifier: the names go into SQL). The built-in scorers give, in order: fta, trace_link
(trace_linkage), fact, pers, ksr, kcr, kor, ace, attrib (attribution), ref_valid
(reference_validity); a plugin scorer's columns follow (default rank 100). `foresci leaderboard`
(`assets.leaderboard.board`) and the release card's statistics (`assets.leaderboard.statistics`)
both use them.
"""

from __future__ import annotations

import re

from assets.scorers.registry import all_scorers

IDENTIFIER = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")


def leaderboard_metrics(scorers=None) -> dict[str, str]:
    """Leaderboard column -> the Score value it averages, from the scorer registry (module docstring)."""
    if scorers is None:
        import assets.scorers  # noqa: F401 - registers the built-in scorers

        scorers = all_scorers()
    ranked = sorted(enumerate(scorers), key=lambda p: (p[1].leaderboard_rank, p[0]))
    columns: dict[str, str] = {}
    for _, s in ranked:
        own = s.leaderboard if s.leaderboard is not None else {v: v for v in (s.values[:1] if s.headline is None else s.headline)}
        for column, value in own.items():
            if not (IDENTIFIER.match(column) and IDENTIFIER.match(value)):
                raise ValueError(f"scorer {s.name!r}: leaderboard column {column!r} -> {value!r} is not a plain name")
            if columns.setdefault(column, value) != value:
                raise ValueError(f"leaderboard column {column!r} is {columns[column]!r} and, for scorer {s.name!r}, {value!r}")
    return columns

"""The planning gold's margin rule (assets/families/planning/gold.py: margin_problems): first leads
second by >= 3 papers and >= 30% of its count; the first two never share a count."""

from datetime import date

import pytest

from assets.families.planning import PlanningFamily
from assets.families.planning.gold import margin_problems
from core.records import GoldTarget


def gold(*counts: int) -> GoldTarget:
    ids = "ABCDE"[: len(counts)]
    return GoldTarget(
        task_id="t",
        family="planning",
        domain="d",
        cutoff=date(2025, 12, 31),
        preferred_ranking=list(ids),
        numbers={f"future_count:{i}": float(c) for i, c in zip(ids, counts)},
    )


@pytest.mark.parametrize(
    "counts, ok",
    [
        ((7, 7, 2), False),  # a tie at the top
        ((5, 3, 1), False),  # 2 papers
        ((40, 30, 5), False),  # 10 papers but 25%
        ((10, 7, 1), True),  # 3 papers, 30%
        ((117, 26, 13, 3), True),
        ((20, 10, 4, 4), True),  # a tie further down leaves the gold decided (ordered by the pre-cutoff count)
    ],
)
def test_margin_rule(counts, ok):
    assert (margin_problems(gold(*counts)) == []) is ok


def test_the_family_refuses_an_indecisive_gold():
    assert PlanningFamily().validity_problems(None, gold(5, 5, 1))  # type: ignore[arg-type]

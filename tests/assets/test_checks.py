"""The asset checks' invariants catch what they are for (assets/checks.py)."""

from __future__ import annotations

from datetime import date

from assets.checks import table_problems
from core.records import GoldTarget, ScreenedPaper, Task
from core.tables import records_to_table
from tests.factories import screened_paper

CUT = date(2025, 12, 31)


def _paper(pid: str) -> ScreenedPaper:
    return screened_paper(pid, published=CUT, relevance=1.0)


def _task(**kw) -> Task:
    base = dict(
        task_id="t1",
        family="direction",
        domain="d",
        cutoff=CUT,
        window_start=date(2026, 1, 1),
        window_end=date(2026, 6, 30),
        horizon="6-month",
        title="T",
        question="Q?",
        instructions="I",
        answer_requirements=["r"],
    )
    return Task(**(base | kw))


def test_clean_tables_pass():
    assert table_problems("corpus_snapshot", records_to_table([_paper("2512.00001")], ScreenedPaper), {"2601.00001"}) == []
    assert table_problems("tasks", records_to_table([_task()], Task), {"2601.00001"}) == []


def test_required_empty_table_fails():
    assert "required table is empty" in table_problems("corpus_snapshot", records_to_table([], ScreenedPaper), set())
    assert table_problems("tasks", records_to_table([], Task), set()) == []  # a partition may have no tasks


def test_post_cutoff_id_in_a_public_table_fails():
    leaky = _task(support_paper_ids=["2512.00001", "2601.00001"])
    problems = table_problems("tasks", records_to_table([leaky], Task), {"2601.00001"})
    assert any("post-cutoff paper id" in p and "2601.00001" in p for p in problems)


def test_hidden_field_in_a_public_table_fails():
    gold = GoldTarget(task_id="t1", family="direction", domain="d", cutoff=CUT, preferred_ranking=["A"])
    problems = table_problems("tasks", records_to_table([gold], GoldTarget), set())
    assert any("hidden field" in p and "preferred_ranking" in p for p in problems)
    assert table_problems("gold_targets", records_to_table([gold], GoldTarget), set()) == []  # hidden is fine there


def test_missing_schema_column_fails():
    import pyarrow as pa

    table = records_to_table([_paper("2512.00001")], ScreenedPaper).drop_columns(["title"])
    assert any("columns missing" in p and "title" in p for p in table_problems("corpus_snapshot", table, set()))
    assert isinstance(table, pa.Table)

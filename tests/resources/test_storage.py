"""The Parquet warehouse: Hive paths, atomic writes, round trips, DuckDB views."""

from datetime import date

import pyarrow.fs as pafs
import pytest

from core.records import Failure, ScreenedPaper, Task, TaskOption
from resources.storage import PartitionStore


def _paper(i: int) -> ScreenedPaper:
    return ScreenedPaper(
        arxiv_id=f"2501.{i:05d}",
        title=f"T{i}",
        abstract="A",
        published=date(2025, 1, 1 + i),
        domain="llm_agent",
        relevance=0.1,
        label="core",
        reason="r",
    )


def test_hive_layout_and_round_trip(tmp_path):
    store = PartitionStore(str(tmp_path / "wh"))
    papers = [_paper(i) for i in range(3)]
    path = store.write_records("corpus_snapshot", "llm_agent", "2025-12-31", papers, ScreenedPaper)
    assert path.endswith("public/corpus_snapshot/domain=llm_agent/cutoff=2025-12-31/data.parquet")
    assert store.read_records("corpus_snapshot", "llm_agent", "2025-12-31", ScreenedPaper) == papers
    # analysts see typed columns, not just JSON
    assert {"arxiv_id", "published", "label", "record_json"} <= set(
        store.read_table("corpus_snapshot", "llm_agent", "2025-12-31").column_names
    )


def test_nested_records_round_trip_exactly(tmp_path):
    store = PartitionStore(str(tmp_path))
    task = Task(
        task_id="t1",
        family="direction",
        domain="d",
        cutoff=date(2025, 12, 31),
        window_start=date(2026, 1, 1),
        window_end=date(2026, 6, 30),
        horizon="6-month",
        title="x",
        question="q?",
        instructions="i",
        answer_requirements=["a"],
        options=[TaskOption(option_id="A", text="alpha")],
    )
    store.write_records("tasks", "d", "2025-12-31", [task], Task)
    assert store.read_records("tasks", "d", "2025-12-31", Task) == [task]


def test_hidden_assets_live_apart(tmp_path):
    store = PartitionStore(str(tmp_path))
    store.write_records("gold_targets", "d", "2025-12-31", [], Failure)
    assert store.exists("gold_targets", "d", "2025-12-31")
    assert "/hidden/gold_targets/" in store.parquet_path("gold_targets", "d", "2025-12-31")  # never the public tree


def test_atomic_write_leaves_no_temp_files_and_old_file_survives_a_failed_write(tmp_path):
    store = PartitionStore(str(tmp_path))
    store.write_records("x", "d", "c", [_paper(1)], ScreenedPaper)
    with pytest.raises(RuntimeError):
        store._atomic_write(store.parquet_path("x", "d", "c"), lambda tmp: (_ for _ in ()).throw(RuntimeError("boom")))
    assert len(store.read_records("x", "d", "c", ScreenedPaper)) == 1
    names = [i.base_name for i in store.fs.get_file_info(pafs.FileSelector(str(tmp_path), recursive=True))]
    assert not [n for n in names if n.startswith(".tmp-")]


def test_missing_partition_error_names_asset_and_partition(tmp_path):
    store = PartitionStore(str(tmp_path))
    with pytest.raises(FileNotFoundError, match="tasks.*domain=d cutoff=2025-12-31"):
        store.read_table("tasks", "d", "2025-12-31")


def test_duckdb_views_over_partitions_and_readable_while_writing(tmp_path):
    store = PartitionStore(str(tmp_path / "wh"), str(tmp_path / "f.duckdb"))
    store.write_records("corpus_snapshot", "llm_agent", "2025-06-30", [_paper(1)], ScreenedPaper)
    store.write_records("corpus_snapshot", "rag", "2025-12-31", [_paper(2), _paper(3)], ScreenedPaper)
    views = store.refresh_views()
    assert "corpus_snapshot" in views and "tasks" not in views  # no tasks written yet
    with store.connect() as con:  # resolves the views' relative globs against the file's folder
        rows = con.execute("SELECT domain, cutoff, count(*) FROM corpus_snapshot GROUP BY ALL ORDER BY 1").fetchall()
        assert [(r[0], str(r[1]), r[2]) for r in rows] == [("llm_agent", "2025-06-30", 1), ("rag", "2025-12-31", 2)]
        # a new partition written while the analyst holds the file is visible on the next query
        store.write_records("corpus_snapshot", "rag", "2025-06-30", [_paper(4)], ScreenedPaper)
        assert con.execute("SELECT count(*) FROM corpus_snapshot").fetchone()[0] == 4


def test_object_store_uri_is_accepted(tmp_path):
    # the same code path takes a URI; file:// stands in for s3:// here
    store = PartitionStore(f"file://{tmp_path}/wh")
    store.write_records("x", "d", "c", [_paper(1)], ScreenedPaper)
    assert store.exists("x", "d", "c")

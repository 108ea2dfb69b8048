"""The analysts' DuckDB file: a reader held open never blocks a run (no step writes the
file), and the views resolve against the file's folder, so a moved warehouse still works."""

import shutil
import subprocess
import sys
from datetime import date

import dagster as dg

from assets.leaderboard.definitions import leaderboard
from assets.partitions import partition_key
from core.records import Score, ScreenedPaper, TaskRating
from resources.storage import PartitionStore, StorageResource
from tests.factories import screened_paper

D, C = "llm_agent", "2025-12-31"


def _scored_partition(store: PartitionStore) -> None:
    """What the leaderboard reads: two released tasks, scored for two methods."""
    store.write_records(
        "task_ranking",
        D,
        C,
        [
            TaskRating(task_id=t, family="direction", elo=1200.0, rank_in_family=i, released=True, quality=0.5)
            for i, t in enumerate(["t1", "t2"])
        ],
        TaskRating,
    )
    store.write_records(
        "judge_scores",
        D,
        C,
        [
            Score(answer_id=f"{t}:{m}", task_id=t, family="direction", method=m, backbone="", fta=0.5, trace_linkage=0.2)
            for t in ("t1", "t2")
            for m in ("momentum", "retrieval")
        ],
        Score,
    )
    store.write_records(
        "corpus_snapshot", D, C, [screened_paper("2501.00001", published=date(2025, 1, 2), domain=D)], ScreenedPaper
    )


def test_a_reader_held_open_does_not_block_a_run(tmp_path):
    storage = StorageResource(root=str(tmp_path / "data" / "warehouse"), duckdb_path=str(tmp_path / "data" / "f.duckdb"))
    store = storage.store()
    _scored_partition(store)
    assert "judge_scores" in store.refresh_views()
    # an analyst's session in another process, holding the file open while the run writes
    reader = subprocess.Popen(
        [
            sys.executable,
            "-c",
            "import duckdb, sys, time; con = duckdb.connect(sys.argv[1], read_only=True); "
            "print('open', flush=True); time.sleep(300)",
            store.duckdb_path,
        ],
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert reader.stdout.readline().strip() == "open"
        instance = dg.DagsterInstance.ephemeral()
        instance.add_dynamic_partitions("cutoff", [C])
        result = dg.materialize(
            [leaderboard],
            partition_key=partition_key(D, C),
            instance=instance,
            resources={"storage": storage},
            raise_on_error=False,
        )
        assert result.success
        [mat] = result.asset_materializations_for_node("leaderboard")
        assert mat.metadata["duckdb_views"].value >= 3  # the views bound, in memory
        assert store.exists("leaderboard", D, C)
    finally:
        reader.kill()
        reader.wait()


def test_memory_views_need_no_file(tmp_path):
    store = PartitionStore(str(tmp_path / "warehouse"), str(tmp_path / "never.duckdb"))
    _scored_partition(store)
    con, views = store.memory_views()
    assert "leaderboard_by_family_method_domain" in views
    assert con.execute("SELECT count(*) FROM judge_scores").fetchone()[0] == 4
    assert not (tmp_path / "never.duckdb").exists()


def test_a_moved_warehouse_is_queried_through_its_views(tmp_path):
    old = tmp_path / "old" / ".foresci"
    store = PartitionStore(str(old / "warehouse"), str(old / "foresci.duckdb"))
    _scored_partition(store)
    store.refresh_views()
    new = tmp_path / "elsewhere" / "copy"
    shutil.move(str(old), str(new))
    moved = PartitionStore(str(new / "warehouse"), str(new / "foresci.duckdb"))
    with moved.connect() as con:
        sql = " ".join(r[0] for r in con.execute("SELECT sql FROM duckdb_views() WHERE NOT internal").fetchall())
        assert str(tmp_path) not in sql and "warehouse/public/judge_scores" in sql  # relative globs
        rows = con.execute("SELECT method, n_answers, fta FROM leaderboard_by_family_method_domain ORDER BY method").fetchall()
    assert rows == [("momentum", 2, 0.5), ("retrieval", 2, 0.5)]
    # a plain DuckDB session started in the data folder works too (relative to the working directory)
    out = subprocess.run(
        [
            sys.executable,
            "-c",
            "import duckdb; print(duckdb.connect('foresci.duckdb', read_only=True)"
            ".execute('SELECT count(*) FROM judge_scores').fetchone()[0])",
        ],
        cwd=new,
        capture_output=True,
        text=True,
        check=True,
    )
    assert out.stdout.strip() == "4"


def test_refreshing_a_file_another_session_holds_is_a_clear_error(tmp_path):
    store = PartitionStore(str(tmp_path / "warehouse"), str(tmp_path / "f.duckdb"))
    _scored_partition(store)
    store.refresh_views()
    reader = subprocess.Popen(
        [
            sys.executable,
            "-c",
            "import duckdb, sys, time; con = duckdb.connect(sys.argv[1]); print('open', flush=True); time.sleep(300)",
            store.duckdb_path,
        ],
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert reader.stdout.readline().strip() == "open"
        try:
            store.refresh_views()
            raised = ""
        except RuntimeError as exc:
            raised = str(exc)
        assert "cannot write the DuckDB views" in raised
    finally:
        reader.kill()
        reader.wait()


def test_the_cli_refreshes_the_views_after_a_run_or_says_why_not(tmp_path, monkeypatch, capsys):
    from pipelines.cli import _refresh_views_or_note
    from pipelines.resources import default_resources

    monkeypatch.setenv("FORESCI_HOME", str(tmp_path / "fh"))
    store = default_resources()["storage"].store()
    _scored_partition(store)
    _refresh_views_or_note()
    with store.connect() as con:
        assert con.execute("SELECT count(*) FROM judge_scores").fetchone()[0] == 4
    writer = subprocess.Popen(
        [
            sys.executable,
            "-c",
            "import duckdb, sys, time; con = duckdb.connect(sys.argv[1]); print('open', flush=True); time.sleep(300)",
            store.duckdb_path,
        ],
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert writer.stdout.readline().strip() == "open"
        _refresh_views_or_note()
        assert "DuckDB views not refreshed" in capsys.readouterr().err
    finally:
        writer.kill()
        writer.wait()

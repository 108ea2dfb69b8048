"""The analysts' DuckDB views open from any working directory and after the data folder moved:
`foresci.connect()`, `foresci sql` (pipelines/sql_shell.py) and a bare DuckDB client with the
init file written next to the database (resources/duckdb_views.py)."""

import io
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import foresci
from core.records import Score
from pipelines.sql_shell import format_result, shell
from resources.duckdb_views import INIT_FILE
from resources.storage import PartitionStore

D, C = "llm_agent", "2025-12-31"
ROOT = Path(__file__).resolve().parents[2]


def _warehouse(folder: Path) -> PartitionStore:
    store = PartitionStore(str(folder / "warehouse"), str(folder / "foresci.duckdb"))
    store.write_records(
        "judge_scores",
        D,
        C,
        [
            Score(answer_id=f"{t}:{m}", task_id=t, family="direction", method=m, backbone="", fta=0.5)
            for t in ("t1", "t2", "t3")
            for m in ("momentum", "retrieval")
        ],
        Score,
    )
    assert "judge_scores" in store.refresh_views()
    return store


def _python(code: str, cwd: Path, env: dict | None = None) -> str:
    out = subprocess.run([sys.executable, "-c", code], cwd=cwd, capture_output=True, text=True, env=env, check=False)
    assert out.returncode == 0, out.stderr[-2000:]
    return out.stdout.strip()


def test_connect_works_from_another_folder_and_after_a_move(tmp_path):
    home = tmp_path / "project" / ".foresci"
    _warehouse(home)
    elsewhere = tmp_path / "notebooks"
    elsewhere.mkdir()
    env = {"FORESCI_HOME": str(home), "PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"}
    query = "import foresci; print(foresci.connect().execute('SELECT count(*) FROM judge_scores').fetchone()[0])"
    assert _python(query, elsewhere, env) == "6"  # default: $FORESCI_HOME/foresci.duckdb
    moved = tmp_path / "archive" / "copy"
    shutil.move(str(home), str(moved))
    query = f"import foresci; print(foresci.connect({str(moved)!r}).execute('SELECT count(*) FROM judge_scores').fetchone()[0])"
    assert _python(query, elsewhere, env) == "6"  # a folder works, and the moved copy resolves its own globs


def test_connect_says_what_to_do_without_a_views_file(tmp_path):
    with pytest.raises(FileNotFoundError, match="make demo"):
        foresci.connect(tmp_path / "nothing.duckdb")


def test_a_bare_client_runs_the_init_file_from_anywhere(tmp_path):
    home = tmp_path / "data"
    _warehouse(home)
    moved = tmp_path / "moved"
    shutil.move(str(home), str(moved))
    init = (moved / INIT_FILE).read_text()
    # what `duckdb -init foresci_init.sql foresci.duckdb` does, in a plain Python DuckDB session elsewhere
    code = (
        "import duckdb, sys; con = duckdb.connect(sys.argv[1], read_only=True); con.execute(open(sys.argv[2]).read()); "
        "print(con.execute('SELECT count(*) FROM judge_scores').fetchone()[0])"
    )
    out = subprocess.run(
        [sys.executable, "-c", code, str(moved / "foresci.duckdb"), str(moved / INIT_FILE)],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        check=True,
    )
    assert out.stdout.strip() == "6"
    assert str(tmp_path) not in init  # the init file derives the folder: it stays right after a move


def test_the_duckdb_cli_opens_the_views_file(tmp_path):
    """The real DuckDB shell (the duckdb-cli package, an older DuckDB than the Python one) reads
    the views file written in the portable storage format."""
    cli = shutil.which("duckdb", path=str(Path(sys.executable).parent))
    if cli is None:
        pytest.skip("the duckdb CLI is not installed (make install adds it)")
    home = tmp_path / "data"
    _warehouse(home)
    out = subprocess.run(
        [
            cli,
            "-init",
            str(home / INIT_FILE),
            "-csv",
            str(home / "foresci.duckdb"),
            "-c",
            "SELECT count(*) AS n FROM judge_scores",
        ],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip().splitlines()[-1] == "6"


def test_sql_formats_and_the_shell(tmp_path):
    store = _warehouse(tmp_path / "d")
    with store.connect() as con:
        rows = json.loads(format_result(con, "SELECT method, count(*) AS n FROM judge_scores GROUP BY 1 ORDER BY 1", "json"))
        assert rows == [{"method": "momentum", "n": 3}, {"method": "retrieval", "n": 3}]
        csv_text = format_result(con, "SELECT method, fta FROM judge_scores ORDER BY 1 LIMIT 1", "csv")
        assert csv_text.splitlines() == ["method,fta", "momentum,0.5"]
        assert "momentum" in format_result(con, "SELECT DISTINCT method FROM judge_scores", "table")
        with pytest.raises(ValueError, match="unknown format"):
            format_result(con, "SELECT 1", "xml")
        out = io.StringIO()
        failed = shell(
            con,
            io.StringIO(".tables\nSELECT count(*)\n  FROM judge_scores;\nSELECT * FROM nope;\n.quit\n"),
            out,
            interactive=False,
        )
    text = out.getvalue()
    assert "judge_scores" in text.splitlines()  # .tables: one view a line
    assert "6" in text and "Error:" in text and failed == 1


def test_foresci_sql_from_another_folder_and_on_a_moved_copy(tmp_path):
    home = tmp_path / "project" / ".foresci"
    _warehouse(home)
    elsewhere = tmp_path / "somewhere"
    elsewhere.mkdir()
    env = {**os.environ, "FORESCI_HOME": str(home), "FORESCI_PROGRESS": "plain"}

    def sql(*args: str) -> subprocess.CompletedProcess:
        return subprocess.run(
            [sys.executable, "-m", "pipelines.cli", "sql", *args],
            cwd=elsewhere,
            env=env,
            capture_output=True,
            text=True,
            timeout=120,
        )

    out = sql("-c", "SELECT count(*) AS n FROM judge_scores", "--format", "json")
    assert out.returncode == 0, out.stderr
    assert json.loads(out.stdout) == [{"n": 6}]
    moved = tmp_path / "copy"
    shutil.copytree(home, moved)
    shutil.rmtree(home)
    out = sql("--db", str(moved), "-c", "SELECT method FROM judge_scores GROUP BY 1 ORDER BY 1", "--format", "csv")
    assert out.returncode == 0 and out.stdout.splitlines() == ["method", "momentum", "retrieval"], out.stderr
    bad = sql("--db", str(moved), "-c", "SELECT * FROM no_such_view")
    assert bad.returncode == 2 and "foresci: error: DuckDB:" in bad.stderr
    missing = sql("-c", "SELECT 1")  # FORESCI_HOME's warehouse is gone: say what to do
    assert missing.returncode == 2 and "make demo" in missing.stderr

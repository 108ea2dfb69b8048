"""Opening the analysts' DuckDB views file from anywhere.

The views file (`foresci.duckdb`) holds only views whose Parquet globs are relative to the
file's own folder, so the data directory can be moved or copied as a whole. DuckDB resolves
relative paths against the working directory unless `file_search_path` says otherwise; every
way of opening the file therefore first points `file_search_path` at the file's folder:

* `open_views(path)` (what `foresci.connect()`, `foresci sql` and `PartitionStore.connect()` use);
* a bare DuckDB client runs `INIT_SQL`, which `refresh_views` writes next to the database as
  `foresci_init.sql`: `duckdb -init <folder>/foresci_init.sql <folder>/foresci.duckdb`. The SQL reads
  the folder from the open database's own path, so the file stays right after a move.

The views file is written in an old storage format (`VIEWS_STORAGE_VERSION`): it holds only view
definitions, and an analyst's DuckDB CLI or notebook may be older than the pinned Python package
(the 1.5 CLI cannot open a file in DuckDB 2.0's default format).
"""

from __future__ import annotations

from pathlib import Path

import duckdb

INIT_FILE = "foresci_init.sql"
VIEWS_STORAGE_VERSION = "v1.0.0"  # the oldest format DuckDB 2.0 writes; readable by every client since 1.0
INIT_SQL = """\
-- foresci: point DuckDB's relative paths at this database's folder, where the views' Parquet
-- globs start. A bare client runs it with: duckdb -init <folder>/foresci_init.sql <folder>/foresci.duckdb
SET VARIABLE foresci_dir = (SELECT regexp_replace(path, '[^/]*$', '') FROM duckdb_databases()
                            WHERE database_name = current_database());
SET file_search_path = getvariable('foresci_dir');
"""


def open_views(path: str | Path, read_only: bool = True) -> duckdb.DuckDBPyConnection:
    """The views file at `path` (or `path/foresci.duckdb` for a folder), with its relative globs
    resolving against its own folder whatever the working directory."""
    path = Path(path)
    if path.is_dir():
        path = path / "foresci.duckdb"
    if not path.exists():
        raise FileNotFoundError(
            f"no DuckDB views file at {path}: build a partition first (`make demo`) or write the views with `foresci views`"
        )
    con = duckdb.connect(str(path), read_only=read_only)
    con.execute(INIT_SQL)
    return con


def create_views_file(path: str | Path) -> duckdb.DuckDBPyConnection:
    """A new, empty views file at `path` in the portable format (the caller fills and closes it)."""
    return duckdb.connect(str(path), config={"storage_compatibility_version": VIEWS_STORAGE_VERSION})


def write_init_file(folder: str | Path) -> Path:
    """`foresci_init.sql` next to the views file, for bare DuckDB clients."""
    target = Path(folder) / INIT_FILE
    target.write_text(INIT_SQL)
    return target

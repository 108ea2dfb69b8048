"""The `foresci` namespace users meet outside the pipeline: the Inspect AI tasks and the
warehouse for notebooks.

`inspect eval foresci/<family> -T release=<folder of foresci export hf>` (the entry point
in pyproject.toml loads foresci._registry). `foresci.connect()` opens the analysts' DuckDB
views from any working directory. The pipeline itself lives in core, resources, assets and
pipelines; nothing there imports this package (import-linter contract).
"""

from __future__ import annotations

import os
from pathlib import Path

import duckdb

from core.paths import state_dir
from resources.duckdb_views import open_views

__all__ = ["connect"]


def connect(path: str | Path | None = None, read_only: bool = True) -> duckdb.DuckDBPyConnection:
    """The warehouse's DuckDB views, from any working directory (a notebook, another project).

    `path` is the views file or its folder; default `$FORESCI_HOME/foresci.duckdb` (else the
    checkout's `.foresci/foresci.duckdb`). A moved or copied data folder works as it is: the
    views' globs are relative to the file's folder. An object-store warehouse
    (`FORESCI_STORAGE_ROOT=s3://…`) is opened through the storage resource, which lends DuckDB
    its filesystem.

        import foresci
        con = foresci.connect()
        con.sql("SELECT family, count(*) FROM tasks GROUP BY family").show()
    """
    if path is None and "://" in os.environ.get("FORESCI_STORAGE_ROOT", ""):
        from resources.storage import StorageResource  # imports Dagster (seconds): only for this case

        return StorageResource().store().connect(read_only=read_only)
    if path is None:
        path = state_dir() / "foresci.duckdb"
    return open_views(path, read_only=read_only)

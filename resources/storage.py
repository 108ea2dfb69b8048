"""Parquet-per-partition warehouse with DuckDB views over it.

Each asset partition is one Parquet file under a Hive-style path

    <root>/<visibility>/<asset>/domain=<domain>/cutoff=<cutoff>/data.parquet

written atomically (temporary file, then rename), so concurrent runs never see a
half-written file and never contend for a database lock. `visibility` is `public` or
`hidden`: hidden gold and the future window live in their own subtree, apart from what
is released. The analysts' DuckDB file holds only views (`sql/*.sql`) with globs relative
to its folder; pipeline steps never open it (they use an in-memory DuckDB), so an analyst
can keep it open while runs write Parquet, and the data directory can be moved (opening the
file from anywhere: resources/duckdb_views.py).

Paths go through pyarrow filesystems, so `root` may also be an object-store URI
(`s3://bucket/foresci`; endpoint and credentials from the standard `AWS_*` environment
variables, docs/scaling.md). DuckDB reads such a warehouse through the same pyarrow
filesystem, registered into the connection as an fsspec filesystem: DuckDB's own S3
extension (httpfs) cannot be downloaded here and the pip-packaged builds
(`duckdb-ext-httpfs` 1.4.4) refuse to load into the pinned DuckDB 2.0.0.
"""

from __future__ import annotations

import os
import re
import uuid
from pathlib import Path

import dagster as dg
import duckdb
import pyarrow as pa
import pyarrow.fs as pafs
import pyarrow.parquet as pq
from pydantic import BaseModel, Field

from core.paths import REPO_ROOT, state_dir
from core.tables import records_to_table, table_to_records
from core.visibility import artifact_visibility, visibility_of
from resources.duckdb_views import create_views_file, open_views, write_init_file

SQL_DIR = REPO_ROOT / "sql"


class PartitionStore:
    """Reads and writes asset partitions. Plain class: usable without Dagster."""

    def __init__(self, root: str, duckdb_path: str | None = None):
        if "://" not in root:
            root = str(Path(root).resolve())
        self.fs, self.base = pafs.FileSystem.from_uri(root)
        self.root = root
        self.is_local = isinstance(self.fs, pafs.LocalFileSystem)
        self.duckdb_path = duckdb_path

    # paths -----------------------------------------------------------------
    def partition_dir(self, asset: str, domain: str, cutoff: str) -> str:
        return f"{self.base}/{visibility_of(asset)}/{asset}/domain={domain}/cutoff={cutoff}"

    def parquet_path(self, asset: str, domain: str, cutoff: str) -> str:
        return f"{self.partition_dir(asset, domain, cutoff)}/data.parquet"

    def uri(self, path: str) -> str:
        """A path as a user or DuckDB would write it."""
        return path if self.is_local else f"{self.root.split('://')[0]}://{path}"

    # writing ---------------------------------------------------------------
    def _atomic_write(self, path: str, write) -> None:
        directory = path.rsplit("/", 1)[0]
        self.fs.create_dir(directory, recursive=True)
        tmp = f"{directory}/.tmp-{uuid.uuid4().hex}"
        try:
            write(tmp)
            self.fs.move(tmp, path)
        finally:
            if self.fs.get_file_info(tmp).type != pafs.FileType.NotFound:
                self.fs.delete_file(tmp)

    def write_table(self, asset: str, domain: str, cutoff: str, table: pa.Table) -> str:
        path = self.parquet_path(asset, domain, cutoff)
        self._atomic_write(path, lambda tmp: pq.write_table(table, tmp, filesystem=self.fs))
        return self.uri(path)

    def write_records(self, asset: str, domain: str, cutoff: str, records: list[BaseModel], model: type[BaseModel]) -> str:
        return self.write_table(asset, domain, cutoff, records_to_table(records, model))

    def write_bytes(self, path: str, data: bytes) -> str:
        """Write an artifact file (release files, plots) atomically; `path` is absolute in fs."""

        def _write(tmp: str) -> None:
            with self.fs.open_output_stream(tmp) as out:
                out.write(data)

        self._atomic_write(path, _write)
        return self.uri(path)

    def artifact_path(self, kind: str, domain: str, cutoff: str, name: str) -> str:
        return f"{self.base}/{artifact_visibility(name)}/_artifacts/{kind}/domain={domain}/cutoff={cutoff}/{name}"

    # reading ---------------------------------------------------------------
    def exists(self, asset: str, domain: str, cutoff: str) -> bool:
        info = self.fs.get_file_info(self.parquet_path(asset, domain, cutoff))
        return info.type == pafs.FileType.File

    def read_table(self, asset: str, domain: str, cutoff: str) -> pa.Table:
        path = self.parquet_path(asset, domain, cutoff)
        if self.fs.get_file_info(path).type != pafs.FileType.File:
            raise FileNotFoundError(
                f"no {visibility_of(asset)} partition of asset {asset!r} for domain={domain} cutoff={cutoff} "
                f"at {self.uri(path)}: materialize it first"
            )
        return pq.read_table(path, filesystem=self.fs)

    def read_records(self, asset: str, domain: str, cutoff: str, model: type[BaseModel]) -> list:
        return table_to_records(self.read_table(asset, domain, cutoff), model)

    def read_bytes(self, path: str) -> bytes:
        with self.fs.open_input_stream(path) as f:
            return f.read()

    # DuckDB ----------------------------------------------------------------
    def glob(self, asset: str, visibility: str) -> str:
        return self.uri(f"{self.base}/{visibility}/{asset}/*/*/data.parquet")

    def refresh_views(self) -> list[str]:
        """(Re)create the analysts' DuckDB views from sql/*.sql in `duckdb_path`; returns the
        views created. Only the CLI calls this (`foresci views`, `demo`, `leaderboard`): no
        pipeline step writes the file, so a reader holding it open never blocks a run.

        Globs are relative to the file's folder (see `connect`), so the data directory can be
        copied or moved as a whole. A view over an asset with no files yet is skipped (DuckDB
        binds globs at creation); it appears at the next refresh.
        """
        if not self.duckdb_path:
            return []
        Path(self.duckdb_path).parent.mkdir(parents=True, exist_ok=True)
        try:
            con = create_views_file(self.duckdb_path)
        except duckdb.IOException as exc:  # another process holds the file (an analyst's session)
            raise RuntimeError(
                f"cannot write the DuckDB views in {self.duckdb_path}: {exc}. Close the other "
                "session, or read through `store.memory_views()`, which needs no file"
            ) from exc
        with con:
            con.execute(f"SET file_search_path = '{self._views_dir()}'")
            created = self._create_views(self._with_filesystem(con), relative=True)
        write_init_file(self._views_dir())  # for a bare DuckDB client (resources/duckdb_views.py)
        return created

    def connect(self, read_only: bool = True) -> duckdb.DuckDBPyConnection:
        """The analysts' views file, opened so its relative globs resolve against its own folder
        (DuckDB otherwise resolves them against the working directory)."""
        return self._with_filesystem(open_views(self.duckdb_path, read_only=read_only))

    def _with_filesystem(self, con: duckdb.DuckDBPyConnection) -> duckdb.DuckDBPyConnection:
        """Let DuckDB read a remote warehouse through our pyarrow filesystem (no httpfs needed)."""
        if not self.is_local:
            from fsspec.implementations.arrow import ArrowFSWrapper

            con.register_filesystem(ArrowFSWrapper(self.fs))  # its protocol is the URI scheme (s3)
        return con

    def memory_views(self) -> tuple[duckdb.DuckDBPyConnection, list[str]]:
        """An in-memory DuckDB with every view over the Parquet files: what pipeline steps use,
        since it takes no file lock. Returns the connection and the views created."""
        con = self._with_filesystem(duckdb.connect(":memory:"))
        return con, self._create_views(con, relative=False)

    def _views_dir(self) -> str:
        return str(Path(self.duckdb_path).resolve().parent)

    def _create_views(self, con: duckdb.DuckDBPyConnection, relative: bool) -> list[str]:
        created: list[str] = []
        for sql_file in sorted(SQL_DIR.glob("*.sql")):
            for statement in _split_sql(sql_file.read_text()):
                name = _view_name(statement)
                try:
                    con.execute(self._render(statement, relative))
                    if name:
                        created.append(name)
                except duckdb.Error as exc:
                    if "No files found" in str(exc) or "does not exist" in str(exc):
                        continue  # its asset (or an upstream view) has no data yet
                    raise RuntimeError(f"{sql_file.name}: view {name}: {exc}") from exc
        return created

    def _render(self, statement: str, relative: bool = False) -> str:
        def repl(match: re.Match) -> str:
            visibility, asset = match.group(1), match.group(2)
            glob = self.glob(asset, visibility)
            if relative and self.is_local:
                folder = os.path.relpath(f"{self.base}/{visibility}/{asset}", self._views_dir())
                glob = f"{folder}/*/*/data.parquet"
            return f"read_parquet('{glob}', hive_partitioning=true, union_by_name=true)"

        return re.sub(r"\{\{\s*(public|hidden)\.(\w+)\s*\}\}", repl, statement)


def _split_sql(text: str) -> list[str]:
    lines = [line for line in text.splitlines() if not line.strip().startswith("--")]
    return [s.strip() for s in re.split(r";\s*$", "\n".join(lines), flags=re.M) if s.strip()]


def _view_name(statement: str) -> str | None:
    match = re.search(r"create\s+or\s+replace\s+view\s+(\w+)", statement, flags=re.I)
    return match.group(1) if match else None


class StorageResource(dg.ConfigurableResource):
    """The warehouse: Parquet partitions under `root` and DuckDB views in `duckdb_path`."""

    root: str = Field(
        default="", description="Local folder or s3:// URI; empty: $FORESCI_STORAGE_ROOT, else <FORESCI_HOME>/warehouse"
    )
    duckdb_path: str = Field(default="", description="DuckDB file for the views; empty: <FORESCI_HOME>/foresci.duckdb")

    def store(self) -> PartitionStore:
        return PartitionStore(
            self.root or os.environ.get("FORESCI_STORAGE_ROOT") or str(state_dir() / "warehouse"),
            self.duckdb_path or str(state_dir() / "foresci.duckdb"),
        )

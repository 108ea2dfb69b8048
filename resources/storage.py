"""Parquet-per-partition warehouse with DuckDB views over it.

Each asset partition is one Parquet file under a Hive-style path

    <root>/<visibility>/<asset>/domain=<domain>/cutoff=<cutoff>/data.parquet

written atomically (temporary file, then rename), so concurrent runs never see a
half-written file and never contend for a database lock. `visibility` is `public` or
`hidden`: hidden gold and the future window live in their own subtree, apart from what
is released. DuckDB holds only views (`sql/*.sql`), created on demand, so an analyst can
keep the DuckDB file open while runs write Parquet.

Paths go through pyarrow filesystems, so `root` may also be an object-store URI
(`s3://bucket/foresci`) once a team runs Dagster on Kubernetes.
"""

from __future__ import annotations

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

    def write_records(self, asset: str, domain: str, cutoff: str, records: list[BaseModel],
                      model: type[BaseModel]) -> str:
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
        """(Re)create the DuckDB views from sql/*.sql; returns the views created.

        A view over an asset with no files yet is skipped (DuckDB binds globs at creation);
        it appears at the next refresh. Statements are split on `;` at line ends.
        """
        if not self.duckdb_path:
            return []
        Path(self.duckdb_path).parent.mkdir(parents=True, exist_ok=True)
        created: list[str] = []
        with duckdb.connect(self.duckdb_path) as con:
            for sql_file in sorted(SQL_DIR.glob("*.sql")):
                for statement in _split_sql(sql_file.read_text()):
                    name = _view_name(statement)
                    try:
                        con.execute(self._render(statement))
                        if name:
                            created.append(name)
                    except duckdb.Error as exc:
                        if "No files found" in str(exc) or "does not exist" in str(exc):
                            continue  # its asset (or an upstream view) has no data yet
                        raise RuntimeError(f"{sql_file.name}: view {name}: {exc}") from exc
        return created

    def _render(self, statement: str) -> str:
        def repl(match: re.Match) -> str:
            visibility, asset = match.group(1), match.group(2)
            return f"read_parquet('{self.glob(asset, visibility)}', hive_partitioning=true, union_by_name=true)"
        return re.sub(r"\{\{\s*(public|hidden)\.(\w+)\s*\}\}", repl, statement)


def _split_sql(text: str) -> list[str]:
    lines = [line for line in text.splitlines() if not line.strip().startswith("--")]
    return [s.strip() for s in re.split(r";\s*$", "\n".join(lines), flags=re.M) if s.strip()]


def _view_name(statement: str) -> str | None:
    match = re.search(r"create\s+or\s+replace\s+view\s+(\w+)", statement, flags=re.I)
    return match.group(1) if match else None


class StorageResource(dg.ConfigurableResource):
    """The warehouse: Parquet partitions under `root` and DuckDB views in `duckdb_path`."""

    root: str = Field(default="", description="Local folder or s3:// URI; empty: <FORESCI_HOME>/warehouse")
    duckdb_path: str = Field(default="", description="DuckDB file for the views; empty: <FORESCI_HOME>/foresci.duckdb")

    def store(self) -> PartitionStore:
        return PartitionStore(
            self.root or str(state_dir() / "warehouse"),
            self.duckdb_path or str(state_dir() / "foresci.duckdb"),
        )

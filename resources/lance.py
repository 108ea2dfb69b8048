"""LanceDB: the embedded vector + full-text store behind every knowledge base."""

from __future__ import annotations

import os

import dagster as dg
from pydantic import Field

from core.paths import state_dir

os.environ.setdefault("LANCE_LOG", "error")  # lance warns on every scored query otherwise
# lancedb's own Rust logger reads LANCEDB_LOG, not LANCE_LOG: without it every new table prints
# "WARN lance::dataset::write::insert No existing dataset ..." (~10 lines per partition).
os.environ.setdefault("LANCEDB_LOG", "error")


class LanceResource(dg.ConfigurableResource):
    """A LanceDB database (local folder, or an object-store URI)."""

    uri: str = Field(
        default="",
        description="LanceDB URI (folder or s3://bucket/prefix); empty: $FORESCI_LANCE_URI, else <FORESCI_HOME>/lancedb",
    )
    # Lance's object-store options (endpoint, allow_http, region, ...); unset ones come from the
    # standard AWS_* environment variables, which is where credentials belong (docs/scaling.md).
    storage_options: dict[str, str] = Field(default_factory=dict, description="LanceDB object-store options")

    def connect(self):
        import lancedb

        uri = self.uri or os.environ.get("FORESCI_LANCE_URI") or str(state_dir() / "lancedb")
        return lancedb.connect(uri, storage_options=self.storage_options or None)

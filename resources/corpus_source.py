"""Where papers come from. The default is the corpus shipped in the repo (offline)."""

from __future__ import annotations

from pathlib import Path
from typing import Literal

import dagster as dg
from pydantic import Field

from assets.corpus.logic import SHIPPED_DIR, read_jsonl
from assets.records import Failure, Paper


class CorpusSourceResource(dg.ConfigurableResource):
    """Source of a domain's papers: `shipped` reads `<shipped_dir>/<domain file>`."""

    kind: Literal["shipped"] = "shipped"
    shipped_dir: str = Field(default="", description="folder of <domain>.jsonl.gz files; empty: the shipped corpus")

    def load(self, shipped_file: str) -> tuple[list[Paper], list[Failure]]:
        folder = Path(self.shipped_dir) if self.shipped_dir else SHIPPED_DIR
        path = folder / shipped_file
        if not path.exists():
            raise FileNotFoundError(f"corpus file {path} not found (shipped_dir={folder})")
        return read_jsonl(path)

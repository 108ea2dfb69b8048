"""Where foresci keeps its local state by default (all ignored by git)."""

import os
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[1]


def state_dir() -> Path:
    """`$FORESCI_HOME`, else `<repo>/.foresci`: warehouse, LanceDB, LLM cache, DuckDB."""
    return Path(os.environ.get("FORESCI_HOME", REPO_ROOT / ".foresci")).resolve()

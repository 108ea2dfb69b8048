"""The one doorway from tests to ../shared (skips clearly when it is absent)."""
from pathlib import Path

import pytest

SHARED = Path(__file__).resolve().parents[2] / "shared" / "data"
def shared_path(relative: str) -> Path:
    path = SHARED / relative
    if not path.exists():
        pytest.skip(f"shared data not available: {path} (tests that read ../shared need the shared/ folder beside the repo)")
    return path

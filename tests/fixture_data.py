"""The real-data fixtures the tests read, shipped in the repo (tests/fixtures/data, with
their provenance in its PROVENANCE.md): a clone with no ../shared tests everything."""

from pathlib import Path

FIXTURES = Path(__file__).resolve().parent / "fixtures" / "data"


def fixture_path(relative: str) -> Path:
    path = FIXTURES / relative
    if not path.exists():  # a missing fixture is a broken repo, never a skip
        raise FileNotFoundError(f"test fixture missing: {path}")
    return path

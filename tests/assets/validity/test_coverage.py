"""The candidates' coverage of the window and the growing themes they miss (assets/validity/coverage.py)."""

from datetime import date

from assets.validity.coverage import candidate_coverage
from core.records import Signal
from tests.factories import screened_paper

CUTOFF = date(2025, 12, 31)


def _candidate(phrase: str) -> Signal:
    return Signal(
        signal_id=f"sig:candidate_direction:{phrase}",
        kind="candidate_direction",
        domain="d",
        cutoff=CUTOFF,
        title=phrase,
        summary="",
        details={"defining_phrases": [phrase]},
    )


def test_coverage_counts_titles_and_names_the_growing_theme_no_candidate_holds():
    recent = [screened_paper(f"r{i:02d}", f"Tool calling study {i}", "x", date(2025, 11, 1)) for i in range(20)]
    recent += [screened_paper("r99", "World models for robots", "x", date(2025, 11, 2))]
    window = [screened_paper(f"w{i:02d}", f"Tool calling at scale {i}", "x", date(2026, 2, 1)) for i in range(10)]
    window += [screened_paper(f"m{i:02d}", f"World models for games {i}", "x", date(2026, 3, 1)) for i in range(12)]
    out = candidate_coverage([_candidate("tool calling")], recent, window, CUTOFF)
    assert out["window_papers"] == 22 and out["covered"] == 10 and out["coverage"] == round(10 / 22, 4)
    themes = [t["phrase"] for t in out["uncaptured_themes"]]
    # the mover no candidate holds, named as titles name it; bare words ("games") could be no option
    assert themes == ["world models"]
    assert not any("tool" in t or "calling" in t for t in themes)
    first = out["uncaptured_themes"][0]
    assert first["papers"] == 12 and first["growth"] > 1.5 and first["examples"][0].startswith("m00 ")

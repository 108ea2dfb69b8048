"""Cutoffs are checked before they reach the Dagster instance, and a stored one can be removed."""

from datetime import date

import dagster as dg
import pytest

from core.cutoffs import CorpusSpan, CutoffError, check_cutoff
from core.registry import load_user_cutoffs
from pipelines.cli import main

SPAN = CorpusSpan(first=date(2023, 1, 8), last=date(2026, 8, 21))  # the shipped corpus


@pytest.mark.parametrize(
    "key, horizon, reason",
    [
        ("2025-13-01", 6, "not a YYYY-MM-DD date (month must be in 1..12)"),
        ("2025-02-30", 6, "not a YYYY-MM-DD date"),
        ("last-tuesday", 6, "not a YYYY-MM-DD date"),
        ("20251231", 6, "not written YYYY-MM-DD (use 2025-12-31)"),
        ("2022-12-31", 6, "before the corpus starts (2023-01-08)"),
        ("2026-09-30", 3, "after the corpus ends (2026-08-21)"),
        ("2026-05-31", 6, "ends 2026-11-30, after the corpus ends (2026-08-21), so its gold cannot be measured"),
    ],
)
def test_bad_cutoffs_are_refused_with_the_reason(key, horizon, reason):
    with pytest.raises(ValueError) as err:
        check_cutoff(key, horizon, SPAN)
    assert reason in str(err.value)


def test_good_and_prospective_cutoffs_pass():
    assert check_cutoff("2025-12-31", 6, SPAN) == date(2025, 12, 31)
    assert check_cutoff("2026-05-15", 3, SPAN) == date(2026, 5, 15)  # window ends 2026-08-15
    with pytest.raises(CutoffError):
        check_cutoff("2026-07-31", 3, SPAN)
    assert check_cutoff("2026-07-31", 3, SPAN, prospective=True) == date(2026, 7, 31)
    with pytest.raises(CutoffError, match="after the corpus ends"):  # prospective still needs a pre-cutoff corpus
        check_cutoff("2026-09-30", 3, SPAN, prospective=True)


def test_the_shipped_corpus_span():
    from core.registry import load_registry
    from resources.corpus_source import CorpusSourceResource

    span = CorpusSourceResource().span(list(load_registry().domains.values()))
    assert span == SPAN


@pytest.fixture
def homes(tmp_path, monkeypatch):
    monkeypatch.setenv("DAGSTER_HOME", str(tmp_path / "dh"))
    monkeypatch.setenv("FORESCI_HOME", str(tmp_path / "fh"))
    return tmp_path


def _partitions(homes) -> set[str]:
    return set(dg.DagsterInstance.from_config(str(homes / "dh")).get_dynamic_partitions("cutoff"))


@pytest.mark.parametrize("key", ["2025-13-01", "2026-09-30", "not-a-date"])
def test_the_cli_refuses_bad_cutoffs_before_they_reach_the_instance(homes, key, capsys):
    # a user error: one line, exit 2, no traceback
    assert main(["add-cutoff", key]) == 2
    assert main(["materialize", "--domain", "llm_agent", "--cutoff", key]) == 2
    err = capsys.readouterr().err
    assert err.count("foresci: error: ") == 2 and "Traceback" not in err
    assert not (homes / "dh").exists() or key not in _partitions(homes)
    assert key not in load_user_cutoffs()


def test_a_stored_cutoff_is_removable(homes, capsys):
    assert main(["add-cutoff", "2026-03-31", "--horizon", "3"]) == 0
    assert "2026-03-31" in _partitions(homes) and "2026-03-31" in load_user_cutoffs()
    assert main(["remove-cutoff", "2026-03-31"]) == 0
    out = capsys.readouterr().out
    assert "cutoff 2026-03-31: partition removed from the Dagster instance; removed from the user cutoffs file" in out
    assert "2026-03-31" not in _partitions(homes) and "2026-03-31" not in load_user_cutoffs()
    assert main(["remove-cutoff", "2026-03-31"]) == 0
    assert "no such partition" in capsys.readouterr().out


def test_a_bad_cutoff_added_behind_the_cli_can_be_removed(homes, capsys):
    """A key typed in the UI's "Add partition" box skips the CLI's check; it can still go."""
    from pipelines.instance import init_instance

    instance, _ = init_instance()
    instance.add_dynamic_partitions("cutoff", ["2025-13-01"])
    assert main(["remove-cutoff", "2025-13-01"]) == 0
    assert "partition removed" in capsys.readouterr().out
    assert "2025-13-01" not in _partitions(homes)


def test_a_prospective_cutoff_is_marked(homes, capsys):
    assert main(["add-cutoff", "2026-07-31", "--horizon", "3", "--prospective"]) == 0
    assert load_user_cutoffs()["2026-07-31"] == {"horizon_months": 3, "prospective": True}
    assert "prospective" in capsys.readouterr().out

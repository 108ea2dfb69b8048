"""Bad input gives a clear error or a recorded failure row, never a silent loss."""

import gzip
import itertools

import dagster as dg

from assets.corpus.definitions import corpus_snapshot
from assets.partitions import partition_key
from core.papers import SHIPPED_DIR
from pipelines.cli import main
from resources.corpus_source import CorpusSourceResource
from resources.embeddings import EmbeddingResource
from resources.llm import LLMResource
from resources.storage import StorageResource


def _resources(tmp_path, **source):
    if not source:  # a small corpus: the first 300 shipped llm_agent papers
        corpus = tmp_path / "corpus"
        corpus.mkdir()
        with gzip.open(SHIPPED_DIR / "llm_agent.jsonl.gz", "rt") as src, gzip.open(corpus / "llm_agent.jsonl.gz", "wt") as dst:
            dst.writelines(itertools.islice(src, 300))
        source = {"shipped_dir": str(corpus)}
    return {
        "storage": StorageResource(root=str(tmp_path / "wh"), duckdb_path=str(tmp_path / "f.duckdb")),
        "corpus_source": CorpusSourceResource(**source),
        "embeddings": EmbeddingResource(),
        "llm": LLMResource(model="", cache_dir=str(tmp_path / "llm")),
    }


def _errors(result) -> str:
    """Every message in the failure's cause chain (Dagster wraps the asset's exception)."""
    messages = []
    for ev in result.all_events:
        if ev.event_type_value == "STEP_FAILURE":
            error = ev.event_specific_data.error
            while error is not None:
                messages.append(error.message)
                error = error.cause
    return " ".join(messages)


def test_empty_partition_is_a_clear_error(tmp_path):
    instance = dg.DagsterInstance.ephemeral()
    instance.add_dynamic_partitions("cutoff", ["2020-01-01"])
    result = dg.materialize(
        [corpus_snapshot],
        partition_key=partition_key("llm_agent", "2020-01-01"),
        instance=instance,
        resources=_resources(tmp_path),
        raise_on_error=False,
    )
    assert not result.success
    assert "no papers published on or before 2020-01-01" in _errors(result)


def test_cutoff_that_is_not_a_date_is_a_clear_error(tmp_path):
    instance = dg.DagsterInstance.ephemeral()
    instance.add_dynamic_partitions("cutoff", ["last-tuesday"])
    result = dg.materialize(
        [corpus_snapshot],
        partition_key=partition_key("llm_agent", "last-tuesday"),
        instance=instance,
        resources=_resources(tmp_path),
        raise_on_error=False,
    )
    assert "is not a YYYY-MM-DD date" in _errors(result)


def test_missing_corpus_file_is_a_clear_error(tmp_path):
    instance = dg.DagsterInstance.ephemeral()
    instance.add_dynamic_partitions("cutoff", ["2025-12-31"])
    result = dg.materialize(
        [corpus_snapshot],
        partition_key=partition_key("llm_agent", "2025-12-31"),
        instance=instance,
        resources=_resources(tmp_path, shipped_dir=str(tmp_path / "nowhere")),
        raise_on_error=False,
    )
    assert "corpus file" in _errors(result) and "not found" in _errors(result)


def test_unknown_domain_from_the_cli(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("DAGSTER_HOME", str(tmp_path / "dh"))
    monkeypatch.setenv("FORESCI_HOME", str(tmp_path / "fh"))
    # a user error: one line on stderr, exit 2, no traceback (tests/ops/test_cli_errors.py)
    assert main(["materialize", "--domain", "not_a_domain", "--cutoff", "2025-12-31"]) == 2
    assert "unknown domain 'not_a_domain'" in capsys.readouterr().err


def test_cli_rejects_a_bad_cutoff(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("DAGSTER_HOME", str(tmp_path / "dh"))
    monkeypatch.setenv("FORESCI_HOME", str(tmp_path / "fh"))
    assert main(["add-cutoff", "2025-02-30"]) == 2
    assert "is not a date YYYY-MM-DD" in capsys.readouterr().err

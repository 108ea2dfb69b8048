"""The taxonomy, evidence_records and research_signals assets in LLM mode, through
Dagster, with the counting stub behind the `llm` resource (no model, no network)."""

from __future__ import annotations

import gzip

import dagster as dg
import pytest

from assets.corpus.definitions import corpus_snapshot
from assets.evidence.definitions import evidence_records, research_signals
from assets.partitions import partition_key
from assets.taxonomy.definitions import taxonomy
from core.records import EvidenceRecord, Signal, TaxonomyNode
from resources.corpus_source import CorpusSourceResource
from resources.embeddings import EmbeddingResource
from resources.llm import LLMResource
from resources.storage import StorageResource
from tests.fixture_data import fixture_path
from tests.llm_stub import CountingStubClient

DOMAIN, CUTOFF = "llm_agent", "2025-12-31"
_STUB = CountingStubClient()


class StubLLMResource(LLMResource):
    """The `llm` resource answering with the shared counting stub."""

    def client(self):  # type: ignore[override]
        return _STUB


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    root = tmp_path_factory.mktemp("tax_assets")
    corpus = root / "corpus"
    corpus.mkdir()
    sample = fixture_path(f"arxiv/samples/{DOMAIN}.sample.jsonl")
    with open(sample, "rb") as src, gzip.open(corpus / f"{DOMAIN}.jsonl.gz", "wb") as dst:
        dst.write(src.read())
    resources = {
        "storage": StorageResource(root=str(root / "wh"), duckdb_path=str(root / "f.duckdb")),
        "corpus_source": CorpusSourceResource(shipped_dir=str(corpus)),
        "embeddings": EmbeddingResource(),
        "llm": LLMResource(model="", cache_dir=str(root / "cache")),  # the corpus screen stays offline
    }
    instance = dg.DagsterInstance.ephemeral()
    instance.add_dynamic_partitions("cutoff", [CUTOFF])
    key = partition_key(DOMAIN, CUTOFF)
    assert dg.materialize([corpus_snapshot], partition_key=key, instance=instance, resources=resources).success
    resources["llm"] = StubLLMResource(model="", cache_dir=str(root / "cache"))
    config = {"ops": {"taxonomy": {"config": {"max_density": 8}}}}
    result = dg.materialize(
        [taxonomy, evidence_records, research_signals],
        partition_key=key,
        instance=instance,
        resources=resources,
        run_config=config,
        selection=None,
    )
    assert result.success
    return resources["storage"].store(), result


def _meta(result, asset):
    [mat] = result.asset_materializations_for_node(asset)
    return {k: v.value for k, v in mat.metadata.items()}


def test_taxonomy_asset_reports_llm_calls_and_growth_table(built):
    store, result = built
    meta = _meta(result, "taxonomy")
    nodes = store.read_records("taxonomy", DOMAIN, CUTOFF, TaxonomyNode)
    assert meta["mode"] == "llm" and meta["rows"] == len(nodes)
    assert 0 < meta["llm_calls_per_paper"] <= 1.5
    assert meta["llm_calls"] == sum(meta["taxonomy_llm_requests"].values())  # client usage == the stage's count
    table = meta["nodes_by_dimension_and_slice"]
    assert table.startswith("| slice | datasets | evaluation_methods | methodologies | real_world_domains | tasks |")
    assert f"| {len(nodes)} |" in table.strip().splitlines()[-1]  # cumulative count of the last slice
    assert sum(meta["nodes_by_dimension"].values()) == len(nodes)


def test_evidence_and_signals_assets_in_llm_mode(built):
    store, result = built
    ev = _meta(result, "evidence_records")
    records = store.read_records("evidence_records", DOMAIN, CUTOFF, EvidenceRecord)
    assert ev["mode"] == "llm" and ev["llm_calls"] >= 1 and ev["rows"] == len(records)
    assert ev["quotes_unverified"] == {"problem": 0, "method": 0, "evaluation_focus": 0, "limitation": 0}
    assert all(p.extractor == "llm" for r in records for p in r.papers)
    sig = _meta(result, "research_signals")
    signals = store.read_records("research_signals", DOMAIN, CUTOFF, Signal)
    assert sig["mode"] == "llm" and sig["rows"] == len(signals)
    assert "| title | dimension | papers | growth |" in sig["top_candidate_directions"]

"""The warehouse and the knowledge base on S3-compatible object storage (moto's server on
loopback): a partition written and read back, the DuckDB views queried over it, a LanceDB
knowledge base built and searched with the same results as on local disk, and a whole small
partition materialized with every store on S3. Round-trip figures are printed (-s) and
recorded in benchmarks/results.md ("Object storage")."""

import time

import dagster as dg
import pytest

from assets.corpus.logic import screen
from assets.knowledge_base.logic import KnowledgeBaseView, build_kb, table_name
from core.papers import read_jsonl
from core.records import ScreenedPaper
from core.registry import load_registry
from resources.embeddings import load_embedder
from resources.lance import LanceResource
from resources.storage import StorageResource
from tests.fixture_data import fixture_path
from tests.ops.servers import moto_s3

pytestmark = pytest.mark.slow
BUCKET = "foresci-test"
CUTOFF = "2025-12-31"


@pytest.fixture(scope="module")
def s3():
    with moto_s3() as server:
        server.create_bucket(BUCKET)
        yield server


@pytest.fixture
def s3_env(s3, monkeypatch):
    for name, value in s3.env.items():
        monkeypatch.setenv(name, value)
    return s3


@pytest.fixture(scope="module")
def screened():
    embed = load_embedder().encode
    papers, _ = read_jsonl(fixture_path("arxiv/samples/rag_and_retrieval_structuring.sample.jsonl"))
    descs = {k: v.description for k, v in load_registry().domains.items()}
    return screen(papers, "rag_and_retrieval_structuring", descs, embed)


def _timed(fn):
    start = time.perf_counter()
    out = fn()
    return out, (time.perf_counter() - start) * 1000


def test_partition_round_trip_and_views_on_s3(s3_env, screened, tmp_path):
    store = StorageResource(root=f"s3://{BUCKET}/rt/warehouse", duckdb_path=str(tmp_path / "views.duckdb")).store()
    assert not store.is_local
    uri, write_ms = _timed(lambda: store.write_records("corpus_snapshot", "rag", CUTOFF, screened, ScreenedPaper))
    assert uri == f"s3://{BUCKET}/rt/warehouse/public/corpus_snapshot/domain=rag/cutoff={CUTOFF}/data.parquet"
    back, read_ms = _timed(lambda: store.read_records("corpus_snapshot", "rag", CUTOFF, ScreenedPaper))
    assert back == screened
    # hidden tables keep their own subtree on the bucket too
    store.write_records("future_window", "rag", CUTOFF, screened[:3], ScreenedPaper)
    assert store.exists("future_window", "rag", CUTOFF)
    assert store.fs.get_file_info(f"{BUCKET}/rt/warehouse/hidden/future_window").type.name == "Directory"

    # in-memory views (what pipeline steps use) and the analysts' views file both read the bucket
    (con, views), mem_ms = _timed(store.memory_views)
    assert {"corpus_snapshot", "hidden_future_window"} <= set(views)
    query = "SELECT count(*), count(DISTINCT arxiv_id), min(domain), CAST(min(cutoff) AS VARCHAR) FROM corpus_snapshot"
    got, query_ms = _timed(lambda: con.execute(query).fetchone())
    assert got == (len(screened), len({p.arxiv_id for p in screened}), "rag", CUTOFF)
    assert "corpus_snapshot" in store.refresh_views()
    with store.connect() as analyst:
        labels = dict(analyst.execute("SELECT label, count(*) FROM corpus_snapshot GROUP BY label").fetchall())
    assert labels == {lab: sum(p.label == lab for p in screened) for lab in {p.label for p in screened}}
    print(
        f"\nS3 (moto, loopback): {len(screened)} papers: write {write_ms:.0f} ms, read {read_ms:.0f} ms, "
        f"views {mem_ms:.0f} ms, view query {query_ms:.0f} ms"
    )


def test_lancedb_knowledge_base_on_s3_matches_local(s3, screened, tmp_path):
    """LanceDB's native object store, configured through the resource's storage_options
    (here: the endpoint and credentials given explicitly, no environment)."""
    embed = load_embedder().encode
    options = {
        "endpoint": s3.endpoint,
        "allow_http": "true",
        "aws_access_key_id": "testing",
        "aws_secret_access_key": "testing",
        "region": "us-east-1",
    }
    remote = LanceResource(uri=f"s3://{BUCKET}/rt/lancedb", storage_options=options).connect()
    local = LanceResource(uri=str(tmp_path / "lancedb")).connect()
    name = table_name("rag", CUTOFF)
    (table, info), build_ms = _timed(lambda: build_kb(remote, name, screened, embed))
    local_table, _ = build_kb(local, name, screened, embed)
    assert info["rows"] == len(screened)
    reopened, open_ms = _timed(lambda: remote.open_table(name))
    assert reopened.count_rows() == len(screened)
    from datetime import date

    view = KnowledgeBaseView(reopened, date(2025, 6, 30), embed)
    local_view = KnowledgeBaseView(local_table, date(2025, 6, 30), embed)
    timings = []
    for query in ("retrieval augmented generation", "graph rag", "reranking passages", "hallucination"):
        hits, ms = _timed(lambda query=query: view.search(query, k=10))
        timings.append(ms)
        assert hits, query
        assert [h.arxiv_id for h in hits] == [h.arxiv_id for h in local_view.search(query, k=10)], query
        assert all(h.published <= date(2025, 6, 30) for h in hits)
    print(
        f"\nLanceDB on S3 (moto): build {len(screened)} papers {build_ms:.0f} ms, open {open_ms:.0f} ms, "
        f"hybrid search {min(timings):.0f}-{max(timings):.0f} ms"
    )


def test_a_whole_partition_materializes_with_every_store_on_s3(s3_env, tmp_path):
    """Every asset's reads and writes (Parquet, artifacts, release files, LanceDB) go through the
    configured URIs: nothing needs a local warehouse."""
    from assets.partitions import partition_key
    from pipelines.definitions import ALL_ASSETS, ALL_CHECKS
    from resources.corpus_source import CorpusSourceResource
    from resources.llm import LLMResource
    from tests.factories import sampled_shipped_corpus

    corpus = sampled_shipped_corpus(tmp_path / "corpus", 8)  # enough papers to release tasks
    root = f"s3://{BUCKET}/e2e"
    resources = {
        "storage": StorageResource(root=f"{root}/warehouse", duckdb_path=str(tmp_path / "views.duckdb")),
        "lance": LanceResource(uri=f"{root}/lancedb"),
        "corpus_source": CorpusSourceResource(shipped_dir=str(corpus)),
        "llm": LLMResource(model="", cache_dir=str(tmp_path / "llm_cache")),
        "judge_llm": LLMResource(model="", cache_dir=str(tmp_path / "llm_cache")),
    }
    instance = dg.DagsterInstance.ephemeral()
    instance.add_dynamic_partitions("cutoff", [CUTOFF])
    from pipelines.resources import default_resources

    start = time.perf_counter()
    result = dg.materialize(
        ALL_ASSETS + ALL_CHECKS,
        partition_key=partition_key("llm_agent", CUTOFF),
        instance=instance,
        resources={**default_resources(), **resources},
        raise_on_error=False,
    )
    seconds = time.perf_counter() - start
    failed = [ev.step_key for ev in result.all_events if ev.event_type_value == "STEP_FAILURE"]
    assert result.success, failed
    store = resources["storage"].store()
    for asset in ("corpus_snapshot", "tasks", "gold_targets", "judge_scores", "leaderboard"):
        assert store.exists(asset, "llm_agent", CUTOFF), asset
    assert store.read_table("tasks", "llm_agent", CUTOFF).num_rows > 0
    assert store.read_table("judge_scores", "llm_agent", CUTOFF).num_rows > 0  # agents searched the S3 KB
    con, _ = store.memory_views()
    assert con.execute("SELECT count(*) FROM tasks").fetchone()[0] > 0
    lance = resources["lance"].connect()
    assert table_name("llm_agent", CUTOFF) in lance.list_tables().tables
    print(f"\none small partition (every 8th llm_agent paper) with warehouse + LanceDB on S3: {seconds:.1f} s")

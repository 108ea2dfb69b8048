"""The cutoff-bound knowledge base: no query path can return a post-cutoff paper."""

from datetime import date, timedelta

import lancedb
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from assets.corpus.logic import screen
from assets.knowledge_base.logic import (
    KnowledgeBaseView,
    build_kb,
    chunk_table_name,
    table_name,
)
from core.papers import read_jsonl
from core.records import PaperFullText, Section
from core.registry import load_registry
from resources.embeddings import load_embedder
from tests.fixture_data import fixture_path


def _fulltexts(papers):
    """Synthetic GROBID sections for every third paper, so chunk search has sections to hide too."""
    return {
        p.arxiv_id: PaperFullText(
            arxiv_id=p.arxiv_id,
            source="grobid",
            sections=[
                Section(name="method", heading="3 Method", text=f"Our method for {p.title.lower()} uses a retriever. " * 30),
                Section(name="limitations", heading="Limitations", text=f"Limitations of {p.title}: future work on agents."),
            ],
        )
        for p in papers[::3]
    }


@pytest.fixture(scope="module")
def kb_tables(tmp_path_factory):
    """A KB over ALL sample papers (2023..2026): views must still hide what is after their cutoff.
    Built with an IVF vector index (forced: the sample is below the auto threshold) so the
    property test covers the indexed dense path as well as the flat one."""
    embed = load_embedder().encode
    papers, _ = read_jsonl(fixture_path("arxiv/samples/rag_and_retrieval_structuring.sample.jsonl"))
    descs = {k: v.description for k, v in load_registry().domains.items()}
    screened = screen(papers, "rag_and_retrieval_structuring", descs, embed)
    db = lancedb.connect(str(tmp_path_factory.mktemp("lance")))
    name = table_name("rag", "all")
    table, info = build_kb(db, name, screened, embed, _fulltexts(screened), vector_index="IVF_SQ")
    assert info["rows"] == len(screened)
    assert info["vector_index"] == "IvfSq" and info["chunk_vector_index"] == "IvfSq"
    return table, db.open_table(chunk_table_name(name)), screened


@pytest.fixture(scope="module")
def kb_table(kb_tables):
    table, _, screened = kb_tables
    return table, screened


WORDS = [
    "retrieval",
    "graph",
    "agent",
    "benchmark",
    "rerank",
    "hallucination",
    "diffusion",
    "query",
    "llm",
    "2026",
    "future",
    "*",
    "OR",
    "'",
    "published > date '2030-01-01'",
]


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    words=st.lists(st.sampled_from(WORDS), min_size=1, max_size=5),
    days=st.integers(min_value=0, max_value=(date(2026, 8, 31) - date(2023, 1, 1)).days),
    k=st.integers(min_value=1, max_value=40),
    mode=st.sampled_from(["dense", "text", "hybrid"]),
    fusion=st.sampled_from(["weighted", "rrf"]),
)
def test_no_query_returns_a_paper_after_the_cutoff(kb_tables, words, days, k, mode, fusion):
    table, chunks, papers = kb_tables
    cutoff = date(2023, 1, 1) + timedelta(days=days)
    view = KnowledgeBaseView(table, cutoff, load_embedder().encode, chunks, fusion=fusion)
    query = " ".join(words)
    hits = view.search(query, k=k, mode=mode)
    assert len(hits) <= k and len({h.arxiv_id for h in hits}) == len(hits)
    for hit in hits:
        assert hit.published <= cutoff
    for chunk in view.search_chunks(query, k=k, mode=mode):
        assert chunk.published <= cutoff
    probe = papers[days % len(papers)]
    got = view.get(probe.arxiv_id)
    assert (got is not None) == (probe.published <= cutoff)
    assert all(c.published <= cutoff for c in view.sections(probe.arxiv_id))


def test_get_by_id_hides_future_papers_and_dates_are_bounded(kb_table):
    table, papers = kb_table
    cutoff = date(2025, 6, 30)
    view = KnowledgeBaseView(table, cutoff, load_embedder().encode)
    future = next(p for p in papers if p.published > cutoff)
    past = next(p for p in papers if p.published <= cutoff)
    assert view.get(future.arxiv_id) is None
    assert view.get(past.arxiv_id).arxiv_id == past.arxiv_id
    dates = view.dates()
    assert future.arxiv_id not in dates and max(dates.values()) <= cutoff
    assert sum(view.monthly_volume().values()) == len(dates)


def test_hybrid_search_finds_the_paper_by_its_title(kb_table):
    table, papers = kb_table
    view = KnowledgeBaseView(table, date(2026, 12, 31), load_embedder().encode)
    found = sum(papers[i].arxiv_id in {h.arxiv_id for h in view.search(papers[i].title, k=5)} for i in range(0, 150, 10))
    assert found >= 13  # titles are in the indexed text; 15 probes


def test_visible_papers_are_exactly_those_on_or_before_the_cutoff(kb_table):
    table, papers = kb_table
    for cutoff in (date(2023, 6, 30), date(2024, 12, 31), date(2025, 9, 30)):
        view = KnowledgeBaseView(table, cutoff, load_embedder().encode)
        assert set(view.dates()) == {p.arxiv_id for p in papers if p.published <= cutoff}


def test_get_by_id_is_not_an_injection_path(kb_table):
    table, papers = kb_table
    cutoff = date(2024, 1, 1)
    view = KnowledgeBaseView(table, cutoff, load_embedder().encode)
    future = next(p for p in papers if p.published > cutoff)
    assert view.get(f"{future.arxiv_id}' OR '1'='1") is None
    assert view.get(f"x' OR published > date '2000-01-01' OR arxiv_id = '{future.arxiv_id}") is None


def test_vector_index_is_trained_only_from_the_row_threshold(tmp_path):
    from assets.knowledge_base import logic

    papers, _ = read_jsonl(fixture_path("arxiv/samples/llm_agent.sample.jsonl"))
    descs = {k: v.description for k, v in load_registry().domains.items()}
    screened = screen(papers, "llm_agent", descs, load_embedder().encode)
    db = lancedb.connect(str(tmp_path))
    _, info = build_kb(db, "auto_small", screened, load_embedder().encode)
    assert info["vector_index"].startswith("none")  # 150 rows < VECTOR_INDEX_MIN_ROWS: exact flat scan
    assert {"text:FTS", "published:BTree", "arxiv_id:BTree"} <= set(info["indexes"])
    old = logic.VECTOR_INDEX_MIN_ROWS
    logic.VECTOR_INDEX_MIN_ROWS = 100
    try:
        _, info = build_kb(db, "auto_large", screened, load_embedder().encode)
    finally:
        logic.VECTOR_INDEX_MIN_ROWS = old
    assert info["vector_index"] == "IvfSq" and "vector:IvfSq" in info["indexes"]
    with pytest.raises(ValueError, match="vector_index"):
        build_kb(db, "bad", screened, load_embedder().encode, vector_index="LSH")


def test_empty_snapshot_is_a_clear_error(tmp_path):
    with pytest.raises(ValueError, match="no papers"):
        build_kb(lancedb.connect(str(tmp_path)), "t", [], load_embedder().encode)

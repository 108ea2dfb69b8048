"""The cutoff-bound knowledge base: no query path can return a post-cutoff paper."""

from datetime import date, timedelta

import lancedb
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from assets.corpus.logic import read_jsonl, screen
from assets.knowledge_base.logic import KnowledgeBaseView, build_kb, table_name
from pipelines.registry import load_registry
from resources.embeddings import load_embedder
from tests.shared_data import shared_path


@pytest.fixture(scope="module")
def kb_table(tmp_path_factory):
    """A KB over ALL sample papers (2023..2026): views must still hide what is after their cutoff."""
    embed = load_embedder().encode
    papers, _ = read_jsonl(shared_path("arxiv/samples/rag_and_retrieval_structuring.sample.jsonl"))
    descs = {k: v.description for k, v in load_registry().domains.items()}
    screened = screen(papers, "rag_and_retrieval_structuring", descs, embed)
    db = lancedb.connect(str(tmp_path_factory.mktemp("lance")))
    table, info = build_kb(db, table_name("rag", "all"), screened, embed)
    assert info["rows"] == len(screened)
    return table, screened


WORDS = ["retrieval", "graph", "agent", "benchmark", "rerank", "hallucination", "diffusion", "query", "llm",
         "2026", "future", "*", "OR", "'", "published > date '2030-01-01'"]


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    words=st.lists(st.sampled_from(WORDS), min_size=1, max_size=5),
    days=st.integers(min_value=0, max_value=(date(2026, 8, 31) - date(2023, 1, 1)).days),
    k=st.integers(min_value=1, max_value=40),
    mode=st.sampled_from(["dense", "text", "hybrid"]),
)
def test_no_query_returns_a_paper_after_the_cutoff(kb_table, words, days, k, mode):
    table, _ = kb_table
    cutoff = date(2023, 1, 1) + timedelta(days=days)
    view = KnowledgeBaseView(table, cutoff, load_embedder().encode)
    for hit in view.search(" ".join(words), k=k, mode=mode):
        assert hit.published <= cutoff


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


def test_empty_snapshot_is_a_clear_error(tmp_path):
    with pytest.raises(ValueError, match="no papers"):
        build_kb(lancedb.connect(str(tmp_path)), "t", [], load_embedder().encode)

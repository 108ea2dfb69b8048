"""The knowledge base's in-memory engine (the default fast path) against the LanceDB engine
(the reference path) on a fixture KB: abstracts indexed, titles as queries."""

from datetime import date

import lancedb
import pytest

from assets.knowledge_base.logic import KnowledgeBaseView, build_kb
from assets.knowledge_base.memory_index import DenseIndex, Tokenizer, memory_index
from core.papers import read_jsonl
from core.records import ScreenedPaper
from tests.fixture_data import fixture_path

CUTOFFS = (date(2025, 6, 30), date(2026, 12, 31))


@pytest.fixture(scope="module")
def fixture_kb(tmp_path_factory, embed):
    papers, seen = [], set()
    for domain in ("llm_agent", "rag_and_retrieval_structuring"):
        for p in read_jsonl(fixture_path(f"arxiv/samples/{domain}.sample.jsonl"))[0]:
            if p.arxiv_id not in seen:
                seen.add(p.arxiv_id)
                papers.append(ScreenedPaper(**p.model_dump(), domain="all", relevance=1.0, label="core", reason="t"))
    db = lancedb.connect(str(tmp_path_factory.mktemp("fast")))
    table, _ = build_kb(db, "fast", papers, embed, with_chunks=False, text_of=lambda p: p.abstract)
    return table, papers


def _ids(view, queries, mode):
    return [[h.arxiv_id for h in view.search(q, 10, mode)] for q in queries]


@pytest.mark.parametrize("cutoff", CUTOFFS)
def test_fast_path_returns_the_reference_paths_ids(fixture_kb, embed, cutoff):
    table, papers = fixture_kb
    titles = [p.title for p in papers]
    fast = KnowledgeBaseView(table, cutoff, embed, engine="memory")
    reference = KnowledgeBaseView(table, cutoff, embed, engine="lance")
    # dense: both exact scans of the same vectors; text: BM25 with LanceDB's analyzer and formula;
    # hybrid: the same candidates and fusion -> the same ids in the same order, in every mode
    for mode in ("dense", "text", "hybrid"):
        got = _ids(fast, titles, mode)
        assert got == _ids(reference, titles, mode), mode
        visible = {p.arxiv_id for p in papers if p.published <= cutoff}
        assert all(set(g) <= visible for g in got) and any(got)


def test_bm25_scores_equal_lancedbs(fixture_kb, embed):
    table, papers = fixture_kb
    fast = KnowledgeBaseView(table, CUTOFFS[1], embed, engine="memory")
    reference = KnowledgeBaseView(table, CUTOFFS[1], embed, engine="lance")
    for paper in papers[::10]:
        want = {h.arxiv_id: h.score for h in reference.search(paper.title, 5, "text")}
        got = {h.arxiv_id: h.score for h in fast.search(paper.title, 20, "text")}
        for key, score in want.items():
            assert key in got and abs(got[key] - score) <= 1e-3 * score


def test_batched_queries_give_the_same_hits_as_one_by_one(fixture_kb, embed):
    table, papers = fixture_kb
    view = KnowledgeBaseView(table, CUTOFFS[0], embed)
    queries = [p.title for p in papers[:40]] + ["", "   "]
    for mode in ("dense", "text", "hybrid"):
        batched = view.search_many(queries, k=7, mode=mode)
        assert batched == [view.search(q, 7, mode) for q in queries]
    assert view.search_many(queries, k=0) == [[] for _ in queries]


def test_ivf_dense_index_is_exact_when_it_probes_every_list_and_respects_the_mask(fixture_kb, embed):
    table, papers = fixture_kb
    index = memory_index(table, "arxiv_id", ["arxiv_id"])
    ivf = DenseIndex(index.dense.vectors, ivf=True)
    visible = index.visible(CUTOFFS[0])
    queries = embed([p.title for p in papers[:50]])
    for vector in queries:  # the default probes a share of the lists: approximate, but never an invisible row
        approx = ivf.top(vector, 10, visible)
        assert len(approx) == 10 and all(visible[r] for r, _ in approx)
    ivf.nprobe = len(ivf.centroids)
    for vector in queries:
        assert [r for r, _ in ivf.top(vector, 10, visible)] == [r for r, _ in index.dense.top(vector, 10, visible)]


def test_tokenizer_follows_lancedb_stemming_then_stop_words():
    tokenize = Tokenizer()
    assert tokenize("The Agents' planning, with TOOLS!") == ["agent", "plan", "tool"]
    # LanceDB stems first, then drops stop words: "only" survives as "onli", "others" -> "other" is dropped
    assert tokenize("only the others") == ["onli"]
    assert tokenize("x" * 41 + " retrieval") == ["retriev"]

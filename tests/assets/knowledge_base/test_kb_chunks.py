"""Section chunks, incremental updates and hybrid fusion of the knowledge base."""

from datetime import date

import lancedb
import pytest

from assets.knowledge_base.logic import (
    CHUNK_CHARS,
    KnowledgeBaseView,
    build_kb,
    chunk_rows,
    chunk_table_name,
    fuse_rrf,
    fuse_weighted,
    split_text,
)
from core.records import PaperFullText, ScreenedPaper, Section
from resources.embeddings import load_embedder
from tests.factories import screened_paper
from tests.fixture_data import fixture_path

CUTOFF = date(2025, 6, 30)


def _paper(arxiv_id: str, title: str, abstract: str, published: date) -> ScreenedPaper:
    return screened_paper(arxiv_id, title, abstract, published, relevance=0.9)


PAPERS = [
    _paper(
        "2501.00001",
        "Sparse retrieval with learned expansions",
        "We study sparse lexical retrieval with learned term expansions for passage ranking.",
        date(2025, 1, 5),
    ),
    _paper(
        "2502.00002",
        "Diffusion models for layout generation",
        "A denoising diffusion model that generates document layouts from constraints.",
        date(2025, 2, 9),
    ),
    _paper(
        "2503.00003",
        "Tool-using agents in spreadsheets",
        "Language model agents that call spreadsheet tools to answer financial questions.",
        date(2025, 3, 1),
    ),
    # after the cutoff: must never surface, not even through its sections
    _paper(
        "2509.00004",
        "Quantum annealing for retrieval",
        "Quantum annealers rank passages for retrieval augmented generation.",
        date(2025, 9, 1),
    ),
]

FULLTEXTS = {
    "2501.00001": PaperFullText(
        arxiv_id="2501.00001",
        source="grobid",
        sections=[
            Section(name="abstract", heading="Abstract", text="GROBID's copy of the abstract."),
            Section(name="introduction", heading="1 Introduction", text="Lexical retrieval remains strong. " * 10),
            Section(name="method", heading="3 Method", text="We expand each passage with predicted terms. " * 60),
            Section(
                name="limitations",
                heading="Limitations",
                text="Our expansion model is slow on long documents and ignores multilingual corpora.",
            ),
            Section(name="other", heading="Acknowledgements", text=""),
        ],
    ),
    "2502.00002": PaperFullText(arxiv_id="2502.00002", source="abstract_only", sections=[], error="no server"),
    "2509.00004": PaperFullText(
        arxiv_id="2509.00004",
        source="grobid",
        sections=[
            Section(
                name="limitations",
                heading="Limitations",
                text="Annealing hardware is scarce and our multilingual corpora results are preliminary.",
            ),
        ],
    ),
}


def test_split_text_respects_the_limit_and_sentence_boundaries():
    text = "\n\n".join(["First sentence here. Second one follows." * 20, "Short paragraph."])
    pieces = split_text(text, limit=200)
    assert all(len(p) <= 200 for p in pieces)
    assert all(p.endswith(".") for p in pieces)  # cut between sentences, not inside
    assert "".join(pieces).replace(" ", "") == text.replace("\n", "").replace(" ", "")
    assert split_text("x" * 450, limit=200) == ["x" * 200, "x" * 200, "x" * 50]  # one huge sentence: hard cut
    assert split_text("   ") == [] and split_text("tiny.") == ["tiny."]


def test_chunk_rows_use_sections_of_grobid_papers_and_abstracts_for_the_rest():
    rows = chunk_rows(PAPERS, FULLTEXTS)
    by_paper = {}
    for row in rows:
        by_paper.setdefault(row["arxiv_id"], []).append(row)
    assert [r["section"] for r in by_paper["2502.00002"]] == ["abstract"]  # abstract_only: no sections
    assert [r["section"] for r in by_paper["2503.00003"]] == ["abstract"]  # no full text at all
    sections = [r["section"] for r in by_paper["2501.00001"]]
    assert sections[0] == "abstract" and sections.count("abstract") == 1  # GROBID's abstract is skipped
    assert sections.count("introduction") == 1 and sections.count("limitations") == 1
    assert sections.count("method") == 2  # 2,700 characters of method split at CHUNK_CHARS
    assert "other" not in sections  # the empty section is dropped
    assert all(len(r["text"]) <= CHUNK_CHARS for r in rows if r["section"] != "abstract")
    assert by_paper["2501.00001"][0]["text"].startswith("Sparse retrieval with learned expansions. We study")
    assert len({r["chunk_id"] for r in rows}) == len(rows)


@pytest.fixture()
def chunked_kb(tmp_path):
    db = lancedb.connect(str(tmp_path))
    table, info = build_kb(db, "kb_chunks", PAPERS, load_embedder().encode, FULLTEXTS)
    return db, table, info


def test_search_chunks_returns_section_snippets_with_paper_and_section(chunked_kb):
    db, table, info = chunked_kb
    assert info["fulltext_papers"] == 2 and info["chunks"] == 4 + 1 + 2 + 1 + 1
    assert info["chunks_by_section"] == {"abstract": 4, "introduction": 1, "limitations": 2, "method": 2}
    view = KnowledgeBaseView(table, CUTOFF, load_embedder().encode, db.open_table(chunk_table_name("kb_chunks")))
    for mode in ("text", "dense", "hybrid"):
        hits = view.search_chunks("multilingual corpora limitations of expansion", k=5, mode=mode)
        assert hits, mode
        assert all(h.published <= CUTOFF for h in hits)
        assert "2509.00004" not in {h.arxiv_id for h in hits}
    top = view.search_chunks("multilingual corpora limitations of expansion", k=1, mode="hybrid")[0]
    assert (top.arxiv_id, top.section, top.heading) == ("2501.00001", "limitations", "Limitations")
    assert "multilingual" in top.snippet
    assert [c.section for c in view.sections("2501.00001")] == ["abstract", "introduction", "method", "method", "limitations"]
    assert view.sections("2509.00004") == []  # after the cutoff


def test_view_without_a_chunk_table_falls_back_to_abstracts(chunked_kb):
    _, table, _ = chunked_kb
    view = KnowledgeBaseView(table, CUTOFF, load_embedder().encode)
    hits = view.search_chunks("spreadsheet tools for financial questions", k=2, mode="text")
    assert hits[0].arxiv_id == "2503.00003" and hits[0].section == "abstract"


def test_rebuild_is_incremental_and_new_rows_join_the_indexes(tmp_path):
    db = lancedb.connect(str(tmp_path))
    embed = load_embedder().encode
    _, first = build_kb(db, "kb_inc", PAPERS[:2], embed)
    assert first["write"] == "created"
    relabelled = PAPERS[1].model_copy(update={"label": "support"})
    newcomer = _paper(
        "2504.00005",
        "Graph neural rerankers for citation recommendation",
        "A graph neural reranker recommends citations from a bibliographic network.",
        date(2025, 4, 2),
    )
    table, second = build_kb(db, "kb_inc", [relabelled, PAPERS[2], newcomer], embed)
    assert second["write"] == "incremental"
    assert (second["added"], second["deleted"]) == (3, 2)  # 2 new + 1 changed; 1 gone + 1 changed
    assert second["created"] == []  # existing indexes kept, rows folded in by optimize()
    assert all(cfg.num_unindexed_rows == 0 for cfg in table.list_indices())
    view = KnowledgeBaseView(table, CUTOFF, embed)
    assert set(view.dates()) == {"2502.00002", "2503.00003", "2504.00005"}
    for mode in ("text", "dense", "hybrid"):
        assert view.search("graph neural reranker citations", k=1, mode=mode)[0].arxiv_id == "2504.00005", mode
    assert view.get("2501.00001") is None
    _, third = build_kb(db, "kb_inc", [relabelled, PAPERS[2], newcomer], embed)
    assert (third["added"], third["deleted"]) == (0, 0)  # nothing changed: nothing rewritten


def test_real_tei_sections_are_chunked_and_searchable(tmp_path):
    from resources.grobid_tei import parse_tei

    tei = fixture_path("grobid_tei/arxiv-2312.07559.paperqa.paragraphs.grobid-0.8.1.tei.xml").read_bytes()
    full = parse_tei(tei, "2312.07559")
    paper = _paper(
        "2312.07559",
        "PaperQA: Retrieval-Augmented Generative Agent for Scientific Research",
        "Large language models generalize well but hallucinate; PaperQA answers questions over the scientific literature.",
        date(2023, 12, 8),
    )
    db = lancedb.connect(str(tmp_path))
    _, info = build_kb(db, "kb_tei", [paper], load_embedder().encode, {"2312.07559": full})
    assert info["fulltext_papers"] == 1 and info["chunks"] > 5
    assert {"abstract", "introduction", "method"} <= set(info["chunks_by_section"])
    view = KnowledgeBaseView(
        db.open_table("kb_tei"), date(2024, 1, 1), load_embedder().encode, db.open_table(chunk_table_name("kb_tei"))
    )
    hits = view.search_chunks("LitQA benchmark results", k=3, mode="text")
    assert hits and all(h.arxiv_id == "2312.07559" for h in hits)
    assert {h.section for h in hits} <= {
        "experiments",
        "method",
        "introduction",
        "conclusion",
        "other",
        "limitations",
        "abstract",
    }
    assert hits[0].section != "abstract"  # the body, not only the abstract, is retrievable


def test_weighted_fusion_and_rrf_on_hand_computed_examples():
    text = [("a", 10.0), ("b", 5.0)]
    cosine = {"a": 0.1, "b": 0.9, "c": 0.8}
    fused = fuse_weighted(text, cosine, k=3, text_weight=0.7)
    assert [key for key, _ in fused] == ["a", "b", "c"]
    assert fused[0][1] == pytest.approx(0.7 * 1.0 + 0.3 * 0.1)
    assert fused[1][1] == pytest.approx(0.7 * 0.5 + 0.3 * 0.9)
    assert fused[2][1] == pytest.approx(0.3 * 0.8)  # no BM25 score: cosine only
    assert [key for key, _ in fuse_weighted(text, cosine, k=3, text_weight=0.2)] == ["b", "c", "a"]
    rrf = fuse_rrf([["a", "b"], ["b", "c"]], k=3, rrf_k=60)
    assert rrf[0] == ("b", pytest.approx(1 / 62 + 1 / 61))
    assert [key for key, _ in rrf] == ["b", "a", "c"]


def test_sync_query_path_gives_the_same_results_as_the_async_one(chunked_kb):
    """Tables without LanceDB's async handle go through the sync builder: same filters, same answers."""
    db, table, _ = chunked_kb
    chunks = db.open_table(chunk_table_name("kb_chunks"))
    fast = KnowledgeBaseView(table, CUTOFF, load_embedder().encode, chunks)
    slow = KnowledgeBaseView(table, CUTOFF, load_embedder().encode, chunks)
    assert fast._papers._async is not None
    slow._papers._async = None
    slow._chunk_search._async = None
    for mode in ("dense", "text", "hybrid"):
        for query in ("retrieval of passages", "quantum annealing retrieval", "diffusion layouts"):
            a = [(h.arxiv_id, round(h.score, 5)) for h in fast.search(query, k=3, mode=mode)]
            b = [(h.arxiv_id, round(h.score, 5)) for h in slow.search(query, k=3, mode=mode)]
            assert a == b and "2509.00004" not in {i for i, _ in a}, (mode, query)
            assert [c.chunk_id for c in fast.search_chunks(query, k=4, mode=mode)] == [
                c.chunk_id for c in slow.search_chunks(query, k=4, mode=mode)
            ]

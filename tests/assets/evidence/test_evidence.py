"""Evidence stage: verbatim full-text evidence and node evidence records."""

from __future__ import annotations

from datetime import date

import numpy as np
import pytest

from assets.evidence.logic import build_evidence, build_evidence_records
from assets.evidence.quotes import (
    SENTENCE_FIELDS,
    classify_contribution,
    extract_paper_evidence,
    paper_source_text,
    split_sentences,
    verify_quote,
)
from core.records import ScreenedPaper, TaxonomyNode
from tests.factories import kmeans_taxonomy, screened_paper
from tests.factories import labelled_sample_papers as sample_papers

CUTOFF = date(2025, 12, 31)


def screened(arxiv_id: str, title: str, abstract: str, published=date(2025, 1, 10), label="core") -> ScreenedPaper:
    return screened_paper(arxiv_id, title, abstract, published, label=label)


# ----------------------------------------------------------------------------- quotes


def test_verify_quote_accepts_verbatim_and_whitespace_variants_only():
    source = "Agents  fail on long\nhorizons. We propose X."
    assert verify_quote("Agents fail on long horizons.", source)
    assert verify_quote("We propose X.", source)
    assert verify_quote("", source)  # an empty field claims nothing
    assert not verify_quote("Agents fail on short horizons.", source)  # one word changed
    assert not verify_quote("We propose Y.", source)


def test_sentence_split_keeps_abbreviations_and_spans_are_verbatim():
    text = "Agents (e.g. ReAct) plan well. However, they fail on long tasks! Results show 3.5 points gain."
    sentences = split_sentences(text)
    assert sentences == ["Agents (e.g. ReAct) plan well.", "However, they fail on long tasks!", "Results show 3.5 points gain."]
    assert all(s in text for s in sentences)


def test_fields_pick_the_sentence_with_their_cues():
    abstract = (
        "Large language model agents are widely used. However, existing agents struggle with long-horizon "
        "planning. We propose PlanNet, a hierarchical planner for web agents. Experiments on WebArena show "
        "that PlanNet outperforms strong baselines by 12 points. Our approach still suffers from high latency "
        "and costly inference."
    )
    paper = screened("2501.00001", "PlanNet: hierarchical planning for agents", abstract)
    ev = extract_paper_evidence(paper)
    assert ev.method == "We propose PlanNet, a hierarchical planner for web agents."
    assert ev.evaluation_focus.startswith("Experiments on WebArena")
    assert ev.limitation == "Our approach still suffers from high latency and costly inference."
    assert ev.problem == "However, existing agents struggle with long-horizon planning."
    assert ev.contribution_type == "method"
    assert ev.arxiv_id == "2501.00001" and ev.published == date(2025, 1, 10)


def test_fields_stay_empty_without_cues():
    ev = extract_paper_evidence(screened("2501.00002", "A note", "The sky is blue. Grass is green and tall."))
    assert (ev.problem, ev.method, ev.evaluation_focus, ev.limitation) == ("", "", "", "")
    assert ev.contribution_type == "method"


@pytest.mark.parametrize(
    "title,abstract,expected",
    [
        ("A Survey of LLM Agents", "We review agent research.", "survey"),
        ("WebShopBench: Evaluating Shopping Agents", "We evaluate agents.", "benchmark/dataset"),
        ("AgentSafety: A Benchmark for Agent Safety", "We release a dataset.", "benchmark/dataset"),
        ("Position: Agents Need Memory", "We argue that agents need memory.", "position"),
        ("ReAct++", "We propose a method. We evaluate it on a benchmark.", "method"),
        ("Provably Efficient Agent Exploration", "We prove a regret bound; the theorem holds.", "theory"),
    ],
)
def test_contribution_type_from_cue_words(title, abstract, expected):
    assert classify_contribution(title, abstract) == expected


def test_every_field_of_every_record_from_a_sample_is_verbatim(embed):
    papers = sample_papers()
    nodes = kmeans_taxonomy(papers, embed)
    excluded = next(p.arxiv_id for p in papers if p.label == "excluded")
    nodes[1] = nodes[1].model_copy(update={"paper_ids": nodes[1].paper_ids + [excluded]})
    records, failures = build_evidence(nodes, papers, CUTOFF, embed)
    by_id = {p.arxiv_id: p for p in papers}
    non_root = [n for n in nodes if n.parent_id]
    assert [r.record_id for r in records] == [f"ev:{n.node_id}" for n in non_root]
    checked = 0
    for record in records:
        assert record.cutoff == CUTOFF and record.domain == "llm_agent"
        assert len(record.representative_ids) <= 5 and len(record.supporting_ids) <= 20
        assert [pe.arxiv_id for pe in record.papers] == record.representative_ids + record.supporting_ids
        for pe in record.papers:
            paper = by_id[pe.arxiv_id]
            assert paper.label != "excluded"  # off-domain papers are never evidence
            for field in SENTENCE_FIELDS:
                quote = getattr(pe, field)
                assert verify_quote(quote, paper_source_text(paper)), (pe.arxiv_id, field, quote)
                checked += bool(quote)
            assert pe.contribution_type in {
                "method",
                "benchmark/dataset",
                "empirical study",
                "survey",
                "system/tool",
                "theory",
                "position",
            }
    assert checked > 300  # the sample really exercises the extractor
    # excluded papers in nodes are reported, not silently dropped
    assert [(f.item_id, f.reason) for f in failures] == [
        (nodes[1].node_id, "1 excluded (off-domain) paper(s) not used as evidence")
    ]


# ----------------------------------------------------------------------------- records


def fake_embed_from(vectors: dict[str, list[float]]):
    """Embed a paper text by the id embedded at its start ("<id>. abstract")."""

    def embed(texts):
        rows = []
        for t in texts:
            key = t.split(" ", 1)[0].rstrip(".")
            v = np.asarray(vectors.get(key, [0.0, 0.0, 1.0]), dtype=np.float32)
            rows.append(v / np.linalg.norm(v))
        return np.stack(rows) if rows else np.zeros((0, 3), np.float32)

    return embed


def node(node_id, paper_ids, parent="d:m", level=1):
    return TaxonomyNode(
        node_id=node_id,
        domain="d",
        dimension="methodologies",
        label=node_id,
        description="",
        parent_id=parent,
        level=level,
        created_slice="2025-Q1",
        created_by="initial",
        paper_ids=paper_ids,
    )


def test_representative_papers_are_the_most_central_with_core_preference():
    # p0..p5 spread around the x axis; p6 is far away; p7 is as central as p1 but support.
    angles = {"p0": 0.0, "p1": 0.05, "p2": 0.1, "p3": 0.3, "p4": 0.6, "p5": 0.8, "p6": 1.5, "p7": 0.05}
    vectors = {k: [np.cos(a), np.sin(a), 0.0] for k, a in angles.items()}
    papers = [screened(k, k, "text", label="support" if k == "p7" else "core") for k in sorted(angles)]
    nodes = [node("d:m", list(angles), parent=None, level=0), node("d:m/a", list(angles))]
    records = build_evidence_records(nodes, papers, CUTOFF, fake_embed_from(vectors), n_representative=3, n_supporting=3)
    assert len(records) == 1  # the root gets no record
    rec = records[0]
    vecs = np.array([vectors[k] for k in sorted(angles)])
    centroid = vecs.mean(axis=0) / np.linalg.norm(vecs.mean(axis=0))
    cos = dict(zip(sorted(angles), vecs @ centroid))
    by_centrality = sorted(cos, key=lambda k: -cos[k])
    assert set(rec.representative_ids) <= set(by_centrality[:4])
    assert "p7" not in rec.representative_ids  # equally central support paper loses to core ones
    assert "p6" not in rec.representative_ids + rec.supporting_ids  # the outlier is least central
    assert rec.supporting_ids[0] in by_centrality[:5]


def test_unknown_ids_are_reported_and_late_papers_raise():
    papers = [screened("a", "A", "x"), screened("b", "B", "y"), screened("late", "L", "z", published=date(2026, 2, 1))]
    embed = fake_embed_from({"a": [1, 0, 0], "b": [0, 1, 0]})
    nodes = [node("d:m", ["a", "b"], parent=None, level=0), node("d:m/a", ["a", "b", "ghost1", "ghost2"])]
    records, failures = build_evidence(nodes, papers, CUTOFF, embed)
    assert sorted(records[0].representative_ids) == ["a", "b"]
    assert [f.reason for f in failures] == ["2 unknown paper id(s) skipped"]
    assert failures[0].raw == "ghost1,ghost2"
    with pytest.raises(ValueError, match="after the cutoff"):
        build_evidence_records([node("d:m/b", ["a", "late"])], papers, CUTOFF, embed)


def test_node_without_papers_still_gets_a_traceable_empty_record():
    papers = [screened("a", "A", "x")]
    records, failures = build_evidence([node("d:m/empty", ["ghost"])], papers, CUTOFF, fake_embed_from({"a": [1, 0, 0]}))
    assert records[0].record_id == "ev:d:m/empty" and records[0].papers == []
    assert any("no usable" in f.reason for f in failures)


def test_evidence_is_deterministic(embed):
    papers = sample_papers("rag_and_retrieval_structuring")
    nodes = kmeans_taxonomy(papers, embed, domain="rag_and_retrieval_structuring")
    a = build_evidence_records(nodes, papers, CUTOFF, embed)
    b = build_evidence_records(list(reversed(nodes[:1])) + nodes[1:], list(reversed(papers)), CUTOFF, embed)
    assert [r.model_dump() for r in a] == [r.model_dump() for r in b]

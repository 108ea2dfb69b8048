"""Evidence and signals: LLM mode through the counting stub, quote verification, full
text, citation-aware representatives, and provenance of every signal."""

from __future__ import annotations

from datetime import date

import numpy as np
import pytest

from assets.evidence.llm_mode import extract_evidence_llm
from assets.evidence.logic import build_evidence, rank_by_centrality
from assets.evidence.quotes import evidence_source_text, extract_paper_evidence
from assets.evidence.shares import slice_growth, slice_shares
from assets.evidence.signals import build_signals
from core.records import PaperFullText, Section
from tests.factories import CUTOFF, kmeans_taxonomy
from tests.factories import labelled_sample_papers as sample_papers
from tests.factories import screened_paper as screened
from tests.llm_stub import CountingStubClient

ABSTRACT = (
    "Agents often fail on long-horizon tasks. However, existing planners lack memory of past errors. "
    "We propose ReMem, a framework that stores reflections. Experiments on WebArena show ReMem "
    "outperforms strong baselines."
)


def _paper(i=1, abstract=ABSTRACT, published=date(2025, 3, 1)):
    return screened(f"2503.{i:05d}", f"ReMem {i}: reflective memory for agents", abstract, published)


def test_a_fabricated_quote_is_kept_but_marked_unverified():
    paper = _paper()

    def answer(payload):
        key = payload["papers"][0]["key"]
        return {
            "papers": [
                {
                    "paper": key,
                    "contribution_type": "method",
                    "problem": {"summary": "planners forget", "quote": "However, existing planners lack memory of past errors."},
                    "method": {"summary": "reflection store", "quote": "We propose ReMem, a framework that stores reflections."},
                    # fabricated: not in the abstract
                    "limitation": {"summary": "costly", "quote": "ReMem requires expensive GPT-4 calls for every step."},
                    "evaluation_focus": {
                        "summary": "web tasks",
                        "quote": "Experiments  on WebArena show ReMem\noutperforms strong baselines.",
                    },
                }
            ]
        }

    stub = CountingStubClient(overrides={"EvidenceBatch": answer})
    out, failures = extract_evidence_llm([paper], stub)
    ev = out[paper.arxiv_id]
    assert not failures and stub.calls == 1
    assert ev.unverified == ["limitation"]  # the fabricated quote, and only it (whitespace differences are fine)
    assert ev.limitation == "ReMem requires expensive GPT-4 calls for every step."  # kept, not dropped
    assert ev.extractor == "llm" and ev.summaries["method"] == "reflection store"
    assert ev.method == "We propose ReMem, a framework that stores reflections."


def test_llm_extraction_is_batched_and_failures_fall_back_to_rules():
    papers = [_paper(i) for i in range(1, 20)]
    stub = CountingStubClient()
    out, failures = extract_evidence_llm(papers, stub, abstract_batch=8)
    assert stub.batch_sizes["evidence.extract"] == [8, 8, 3] and not failures
    assert all(ev.extractor == "llm" and not ev.unverified for ev in out.values())
    broken = CountingStubClient(fail_purposes=("evidence.extract",))
    out, failures = extract_evidence_llm(papers, broken, abstract_batch=8)
    assert len(failures) == 3 and all(f.stage == "evidence" for f in failures)
    assert set(out) == {p.arxiv_id for p in papers} and all(ev.extractor == "rules" for ev in out.values())


def _fulltext(paper):
    return PaperFullText(
        arxiv_id=paper.arxiv_id,
        source="grobid",
        sections=[
            Section(
                name="introduction",
                heading="1 Introduction",
                text="Language agents are increasingly deployed on the web. However, they remain unable to recall "
                "earlier failures across episodes.",
            ),
            Section(name="method", heading="3 Method", text="We introduce a reflection buffer keyed by task."),
            Section(
                name="experiments",
                heading="4 Experiments",
                text="We evaluate on WebArena and Mind2Web with success rate as the metric.",
            ),
            Section(
                name="limitations",
                heading="Limitations",
                text="A limitation of our work is that the buffer grows without bound and is costly to search.",
            ),
        ],
    )


def test_fulltext_sections_are_quoted_and_verified_offline_and_in_llm_mode():
    paper = _paper()
    ft = _fulltext(paper)
    ev = extract_paper_evidence(paper, ft)
    assert ev.quote_source == "fulltext" and not ev.unverified
    assert ev.limitation == "A limitation of our work is that the buffer grows without bound and is costly to search."
    assert ev.limitation in evidence_source_text(paper, ft) and ev.limitation not in paper.abstract
    # LLM mode with full text: one paper per call, the prompt shows the sections
    stub = CountingStubClient()
    out, _ = extract_evidence_llm([paper, _paper(2)], stub, fulltexts={paper.arxiv_id: ft})
    assert sorted(stub.batch_sizes["evidence.extract"]) == [1, 1]
    shown = [r["payload"]["papers"][0]["text"] for r in stub.requests if "[limitations]" in r["payload"]["papers"][0]["text"]]
    assert len(shown) == 1
    assert out[paper.arxiv_id].quote_source == "fulltext" and not out[paper.arxiv_id].unverified
    # an abstract-only record (no GROBID) is treated as no full text
    degraded = PaperFullText(
        arxiv_id=paper.arxiv_id, source="abstract_only", sections=[Section(name="abstract", text=paper.abstract)]
    )
    assert extract_paper_evidence(paper, degraded).quote_source == "abstract"


def test_representatives_weigh_citations_as_of_the_cutoff_when_given():
    vecs = np.array([[1.0, 0.0], [0.98, 0.2], [0.9, 0.44]], dtype=np.float32)
    vecs /= np.linalg.norm(vecs, axis=1, keepdims=True)
    ids, labels = ["a", "b", "c"], ["core", "core", "core"]
    assert [pid for pid, _ in rank_by_centrality(vecs, ids, labels)] == ["b", "a", "c"]  # centrality only
    cited = rank_by_centrality(vecs, ids, labels, citations={"c": 500, "b": 3})
    assert [pid for pid, _ in cited][0] == "c"  # central enough and far more cited
    assert [pid for pid, _ in rank_by_centrality(vecs, ids, labels, citations={})] == ["b", "a", "c"]


@pytest.fixture(scope="module")
def llm_run(embed):
    from assets.corpus.logic import monthly_volume

    papers = sample_papers()
    nodes = kmeans_taxonomy(papers, embed)
    stub = CountingStubClient()
    records, ev_failures = build_evidence(
        nodes, papers, CUTOFF, embed, llm_client=stub, citations={p.arxiv_id: i for i, p in enumerate(papers)}
    )
    failures: list = []
    signals = build_signals(
        nodes,
        records,
        papers,
        CUTOFF,
        monthly_volume([p for p in papers if p.label != "excluded"]),
        embed,
        domain="llm_agent",
        llm_client=stub,
        failures=failures,
        min_support=4,
        min_theme_papers=2,
    )  # 120 sample papers
    return papers, nodes, records, signals, stub, failures + ev_failures


def test_llm_mode_records_are_verified_and_ranked_with_citations(llm_run):
    papers, nodes, records, signals, stub, failures = llm_run
    # the only rows allowed: candidate phrases the curation rules left out, recorded with the reason
    # (the 120-paper sample holds no phrase alive enough to be a direction: assets/evidence/candidates.py)
    assert all(f.reason.startswith(("candidate dropped", "curation: candidate phrase")) for f in failures)
    assert stub.usage.by_purpose["evidence.extract"] >= 1
    by_id = {p.arxiv_id: p for p in papers}
    assert all(r.rank_basis == "centrality+citations" for r in records)
    for r in records:
        for pe in r.papers:
            assert pe.extractor == "llm" and not pe.unverified
            for f in ("problem", "method", "evaluation_focus", "limitation"):
                assert getattr(pe, f) in evidence_source_text(by_id[pe.arxiv_id])


def test_every_llm_mode_signal_traces_back_to_records_and_papers(llm_run):
    papers, nodes, records, signals, stub, _ = llm_run
    record_ids = {r.record_id for r in records}
    node_ids = {n.node_id for n in nodes}
    visible = {p.arxiv_id for p in papers if p.published <= CUTOFF}
    kinds = {s.kind for s in signals}
    assert {"method_development", "bottleneck"} <= kinds
    for s in signals:
        assert s.evidence_ids and set(s.evidence_ids) <= record_ids, s.signal_id
        assert s.paper_ids and set(s.paper_ids) <= visible, s.signal_id
        assert set(s.node_ids) <= node_ids
        record_papers = {pid for r in records if r.record_id in s.evidence_ids for pid in r.representative_ids + r.supporting_ids}
        if s.kind == "bottleneck":  # limitations stated anywhere before the cutoff, >= 1 paper in a linked record
            assert set(s.paper_ids) & record_papers, s.signal_id
        else:
            assert set(s.paper_ids) <= record_papers, s.signal_id  # papers come from the linked records
    dev = [s for s in signals if s.kind == "method_development"]
    assert stub.usage.by_purpose["signals.relation"] >= 1
    assert all(
        s.details["decided_by"] == ["llm"]
        and s.details["relation"][0] in ("extension", "adaptation", "replacement", "component_reuse", "competition")
        for s in dev
    )
    assert all(any(k.startswith("child_slice_share_") for k in s.stats) for s in dev)
    bottlenecks = [s for s in signals if s.kind == "bottleneck"]
    assert all(s.details["decided_by"] == ["llm"] and s.stats["recurrence"] == len(set(s.paper_ids)) for s in bottlenecks)
    by_id = {p.arxiv_id: p for p in papers}
    assert bottlenecks and all(
        q in by_id[pid].abstract for s in bottlenecks for q, pid in zip(s.details["quotes"], s.details["quote_papers"])
    )


def test_signal_llm_failures_keep_the_rule_and_are_recorded(embed):
    from assets.corpus.logic import monthly_volume

    papers = sample_papers()
    nodes = kmeans_taxonomy(papers, embed)
    records, _ = build_evidence(nodes, papers, CUTOFF, embed)
    stub = CountingStubClient(fail_purposes=("signals.relation", "signals.bottleneck"))
    failures: list = []
    signals = build_signals(
        nodes,
        records,
        papers,
        CUTOFF,
        monthly_volume(papers),
        embed,
        domain="llm_agent",
        llm_client=stub,
        failures=failures,
        min_support=4,
    )
    assert failures and all(f.stage == "research_signals" for f in failures)
    assert any(not f.reason.startswith("candidate dropped") for f in failures)  # the failed model calls
    dev = [s for s in signals if s.kind == "method_development"]
    assert dev and all(s.details["decided_by"] == ["rule"] and s.details["relation"] == s.details["rule_relation"] for s in dev)


def test_slice_shares_are_normalised_by_volume():
    volume = {"2025-07": 100, "2025-08": 200, "2025-09": 400, "2025-10": 400, "2025-11": 800, "2025-12": 800}
    dates = [date(2025, 7, 5)] * 10 + [date(2025, 8, 5)] * 20 + [date(2025, 12, 5)] * 80
    shares = slice_shares(dates, volume, date(2025, 12, 31))
    assert shares == {"2025-07": 0.1, "2025-08": 0.1, "2025-09": 0.0, "2025-10": 0.0, "2025-11": 0.0, "2025-12": 0.1}
    assert slice_growth(shares) == pytest.approx(0.1 / (0.2 / 5))
    assert slice_growth({"a": 0.1, "b": 0.0}) == 0.0

"""LLM mode of the temporal taxonomy, measured through the counting stub (no model).

Same synthetic "blob" corpus as tests/assets/taxonomy/test_taxonomy.py: the stub proposes the label
"blobK topicK" for a blobK paper and clusters labels by their first word, so the expected
structure is known; the stub counts every call and records its payload.
"""

from __future__ import annotations

from collections import Counter
from datetime import date

import numpy as np
import pytest

from assets.taxonomy.dimensions import ambiguous_dimensions
from assets.taxonomy.llm_mode import TEMPERATURES, ambiguous_routes
from assets.taxonomy.logic import induce_taxonomy
from assets.taxonomy.slices import (
    growth_markdown,
    growth_table,
    nodes_created_between,
    slice_first_day,
)
from tests.factories import blob_embed as fake_embed
from tests.factories import blob_of, blob_papers
from tests.fixture_data import fixture_path
from tests.llm_stub import CountingStubClient


def build_llm(papers, stub, cutoff=date(2025, 12, 31), **kw):
    kw.setdefault("dimensions", ("methodologies",))
    return induce_taxonomy(papers, cutoff, fake_embed, domain="syn", llm_client=stub, **kw)


def _corpus():
    early = blob_papers(0, 0, 15, date(2024, 2, 1)) + blob_papers(100, 1, 15, date(2024, 2, 2))
    new_topics = blob_papers(400, 2, 12, date(2024, 5, 3)) + blob_papers(500, 3, 12, date(2024, 5, 4))
    return early, new_topics


def _titles_in(request) -> set[str]:
    return {p["title"] for p in request["payload"].get("papers", [])}


def test_llm_mode_initial_split_and_width_expansion_use_model_labels():
    early, new_topics = _corpus()
    papers = early + new_topics
    stub = CountingStubClient()
    result = build_llm(papers, stub, max_depth=1, max_density=10, initial_density=20, fit_quantile=0.0)
    assert result.mode == "llm"
    level1 = [n for n in result.nodes if n.level == 1]
    by_how = {n.label: n.created_by for n in level1}
    # the initial split (2024-Q1) and the width expansion (2024-Q2) come from the model's clusters
    assert by_how == {"blob0": "initial", "blob1": "initial", "blob2": "width", "blob3": "width"}
    for n in level1:
        assert {blob_of(i, papers) for i in n.paper_ids} == {int(n.label[-1])}  # pure, and complete:
        assert len(n.paper_ids) == (15 if n.created_by == "initial" else 12)
        assert n.description.startswith("Papers whose contribution centres on")
    width = [n for n in level1 if n.created_by == "width"]
    assert {n.created_slice for n in width} == {"2024-Q2"} and result.expansions["2024-Q2"]["width"] == 2


def test_expansion_never_reclassifies_papers_it_did_not_touch():
    early, new_topics = _corpus()
    stub = CountingStubClient()
    build_llm(early + new_topics, stub, max_depth=1, max_density=10, initial_density=20, fit_quantile=0.0)
    early_titles = {p.title for p in early}
    new_titles = {p.title for p in new_topics}
    # every paper is sent for label proposal at most once per node, and the width expansion
    # of 2024-Q2 asks only about the new, unfit papers: the placed early papers never again
    proposed = Counter(t for r in stub.requests if r["purpose"] == "taxonomy.propose" for t in _titles_in(r))
    assert set(proposed.values()) == {1}
    later = [r for r in stub.requests if r["purpose"] == "taxonomy.propose" and _titles_in(r) & new_titles]
    assert later and all(not (_titles_in(r) & early_titles) for r in later)
    # no paper is ever routed twice at the same node
    routed = Counter(
        (t, r["payload"]["options"][0]["label"]) for r in stub.requests if r["purpose"] == "taxonomy.route" for t in _titles_in(r)
    )
    assert all(v == 1 for v in routed.values())


def test_calls_are_batched_and_counted():
    papers = []
    for blob in range(4):
        papers += blob_papers(1000 * blob, blob, 30, date(2024, 3, 1))
    stub = CountingStubClient()
    result = build_llm(papers, stub, max_depth=2, max_density=10, initial_density=20, llm_batch_size=10)
    assert result.llm_calls == stub.calls == sum(stub.usage.by_purpose.values()) > 0
    # the 120 papers of the first split are proposed 10 per call: 12 calls, each full
    assert stub.batch_sizes["taxonomy.propose"][:12] == [10] * 12
    assert all(n <= 10 for k, sizes in stub.batch_sizes.items() if k != "taxonomy.cluster" for n in sizes)
    # one clustering call per expansion, not one per paper
    assert (
        result.llm_requests["cluster"]
        <= sum(result.expansions[s][k] for s in result.expansions for k in ("initial", "width", "depth")) + 5
    )
    assert result.llm_calls_per_paper == pytest.approx(stub.calls / 120)
    assert result.llm_calls_per_paper <= 1.5
    # temperatures as documented
    assert stub.temperatures["taxonomy.propose"] == {TEMPERATURES["propose"]} == {0.3}
    assert stub.temperatures["taxonomy.cluster"] == {0.0}


def test_ambiguous_routes_only_go_to_the_model():
    best = np.array([0.90, 0.70, 0.81, 0.50, 0.90])
    second = np.array([0.50, 0.60, 0.50, 0.45, 0.89])
    thr = np.array([0.80, 0.80, 0.80, 0.80, 0.80])
    amb = ambiguous_routes(best, second, thr, band=0.03, gap=0.02, full=False)
    # clear fit, clear unfit, near the threshold, clear unfit, near tie between two children
    assert amb.tolist() == [False, False, True, False, True]
    # a full node cannot keep papers: only near ties are asked
    assert ambiguous_routes(best, second, thr, 0.03, 0.02, full=True).tolist() == [False, False, False, False, True]


def test_ambiguous_dimensions_are_those_near_the_membership_boundary():
    scores = np.array(
        [
            [3.0, -1.0, -2.0],  # clear: one dimension far ahead
            [2.0, 1.55, -2.0],  # runner-up right at best - margin (1.5): ambiguous
            [1.0, 0.98, -1.0],  # near tie of the best two: ambiguous
            [2.0, 0.05, -1.0],  # runner-up near 0: ambiguous
        ]
    )
    assert ambiguous_dimensions(scores, margin=0.5, band=0.1).tolist() == [False, True, True, True]


def test_failed_calls_fall_back_to_embeddings_and_are_recorded():
    early, new_topics = _corpus()
    papers = early + new_topics
    stub = CountingStubClient(fail_purposes=("taxonomy.cluster",))
    result = build_llm(papers, stub, max_depth=1, max_density=10, initial_density=20, fit_quantile=0.0)
    assert result.failures and all(f.stage == "taxonomy" and "cluster" in f.reason for f in result.failures)
    # the partition still completes: the offline clustering made the split, every paper is placed
    assert {n.created_by for n in result.nodes if n.level == 1} >= {"initial"}
    assert {a.arxiv_id for a in result.assignments} == {p.arxiv_id for p in papers}


def test_llm_mode_never_sees_or_places_a_paper_after_the_cutoff():
    early, new_topics = _corpus()
    late = blob_papers(900, 2, 30, date(2024, 7, 1))  # after the cutoff below
    stub = CountingStubClient()
    cutoff = date(2024, 6, 30)
    result = build_llm(early + new_topics + late, stub, cutoff=cutoff, max_depth=2, max_density=10, initial_density=20)
    late_titles = {p.title for p in late}
    assert all(not (_titles_in(r) & late_titles) for r in stub.requests)
    placed = {pid for n in result.nodes for pid in n.paper_ids}
    assert not placed & {p.arxiv_id for p in late} and result.dropped_after_cutoff == 30
    assert all(slice_first_day(n.created_slice) <= cutoff for n in result.nodes)


# ----------------------------------------------------------------- growth queries


def test_nodes_created_between_answers_what_emerged_when():
    early, new_topics = _corpus()
    result = build_llm(
        early + new_topics, CountingStubClient(), max_depth=1, max_density=10, initial_density=20, fit_quantile=0.0
    )
    q2 = nodes_created_between(result.nodes, "2024-Q2", "2024-Q2")
    assert sorted(n.label for n in q2) == ["blob2", "blob3"]
    assert sorted(n.label for n in nodes_created_between(result.nodes, "2024-Q1", "2025-12")) == [
        "blob0",
        "blob1",
        "blob2",
        "blob3",
    ]
    assert nodes_created_between(result.nodes, date(2024, 7, 1), date(2025, 12, 31)) == []
    assert [
        n.level for n in nodes_created_between(result.nodes, "2023-Q1", "2025-12", include_roots=True) if n.parent_id is None
    ] == [0]
    assert [n.label for n in nodes_created_between(result.nodes, "2024-Q1", "2024-12", created_by=("width",))] == [
        "blob2",
        "blob3",
    ]
    table = growth_table(result.nodes, result.slices)
    assert table["methodologies"]["2024-Q1"] == 3 and table["methodologies"]["2024-Q2"] == 2
    md = growth_markdown(result.nodes, result.slices)
    assert "| 2024-Q2 | 2 | 2 | 5 |" in md  # slice, methodologies, total, cumulative
    assert slice_first_day("2025-11") == date(2025, 11, 1) and slice_first_day("2024-Q3") == date(2024, 7, 1)


def test_llm_mode_on_the_shared_sample_stays_within_budget():
    from core.papers import read_jsonl
    from core.records import ScreenedPaper
    from resources.embeddings import load_embedder

    raw, _ = read_jsonl(fixture_path("arxiv/samples/llm_agent.sample.jsonl"))
    papers = [ScreenedPaper(**p.model_dump(), domain="llm_agent", relevance=1.0, label="core", reason="t") for p in raw]
    stub = CountingStubClient()
    cutoff = date(2026, 5, 15)
    result = induce_taxonomy(papers, cutoff, load_embedder().encode, domain="llm_agent", max_density=8, llm_client=stub)
    assert result.mode == "llm" and result.paper_vectors_used == sum(p.published <= cutoff for p in raw)
    assert 0 < result.llm_calls_per_paper <= 1.5
    assert result.llm_decided["dimension_model"] + result.llm_decided["dimension_embedding"] == result.paper_vectors_used
    assert len(result.nodes) > 5 and not result.failures

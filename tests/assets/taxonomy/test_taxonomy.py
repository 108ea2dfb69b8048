"""Behaviour of the offline temporal taxonomy (assets.taxonomy.logic).

Synthetic papers live in clear "blobs": a fake embedder maps the token `blobK` in a
text to a fixed direction plus small deterministic noise, so the expected structure is
known. The shared 150-paper sample checks the record invariants with the real embedder.
"""

from __future__ import annotations

from collections import Counter
from datetime import date

import numpy as np
import pytest

from assets.taxonomy.dimensions import DIMENSIONS, route_dimensions
from assets.taxonomy.logic import TaxonomyResult, induce_taxonomy
from assets.taxonomy.slices import slice_index, slice_starts
from assets.taxonomy.tree import route
from core.records import ScreenedPaper
from tests.factories import BLOB_CENTERS as CENTERS
from tests.factories import blob_embed as fake_embed
from tests.factories import blob_of, blob_papers
from tests.factories import blob_paper as paper
from tests.fixture_data import fixture_path


def build(papers, cutoff=date(2025, 12, 31), **kw) -> TaxonomyResult:
    kw.setdefault("dimensions", ("methodologies",))
    return induce_taxonomy(papers, cutoff, fake_embed, domain="syn", **kw)


# ---------------------------------------------------------------------------- routing


def test_route_sends_a_paper_to_the_child_with_the_nearest_centroid():
    centroids = CENTERS[:3]
    papers = np.stack([CENTERS[1] * 0.9 + CENTERS[0] * 0.3, CENTERS[2] * 0.8 + CENTERS[1] * 0.5, CENTERS[0]])
    papers /= np.linalg.norm(papers, axis=1, keepdims=True)
    best, sims, fit = route(papers, centroids, thresholds=np.array([0.5, 0.5, 0.5]))
    assert best.tolist() == [1, 2, 0]
    assert sims == pytest.approx(np.max(papers @ centroids.T, axis=1))
    assert fit.tolist() == [True, True, True]
    # the same papers stay "unfit" when their best cosine is below that child's threshold
    _, _, fit = route(papers, centroids, thresholds=np.array([0.5, 0.99, 0.5]))
    assert fit.tolist() == [False, True, True]


def test_dimension_routing_takes_the_best_and_close_runners_up():
    scores = np.array(
        [
            [2.0, 1.7, -0.5, 0.1, 0.0],  # best + a runner-up within the 0.5 margin
            [0.3, 0.2, 0.25, 0.1, 0.28],  # all close: every positive score within the margin
            [-1.0, -2.0, -0.8, -3.0, -1.5],  # all below average: still the best one
        ]
    )
    member = route_dimensions(scores, margin=0.5)
    assert member.tolist() == [
        [True, True, False, False, False],
        [True, True, True, True, True],
        [False, False, True, False, False],
    ]
    assert route_dimensions(np.array([[-4.0], [3.0]]), margin=0.5).all()  # one dimension: everyone


def test_initial_split_separates_blobs_and_later_papers_follow_their_blob():
    early = blob_papers(0, 0, 15, date(2024, 2, 1)) + blob_papers(100, 1, 15, date(2024, 2, 2))
    later = blob_papers(200, 0, 4, date(2024, 5, 1)) + blob_papers(300, 1, 4, date(2024, 5, 2))
    result = build(early + later, max_depth=1, max_density=10, initial_density=20, fit_quantile=0.0)
    children = [n for n in result.nodes if n.level == 1]
    assert len(children) == 2 and all(n.created_by == "initial" and n.created_slice == "2024-Q1" for n in children)
    for child in children:
        blobs = {blob_of(i, early + later) for i in child.paper_ids}
        assert len(blobs) == 1  # each child is one blob
    # the later papers (a new slice) were routed into the child of their own blob
    by_child = {child.node_id: {blob_of(i, early) for i in child.paper_ids if int(i[5:]) < 200} for child in children}
    for a in result.assignments:
        if a.slice == "2024-Q2" and a.fit:
            assert {blob_of(a.arxiv_id, later)} == by_child[a.node_id]
    assert sum(a.fit for a in result.assignments if a.slice == "2024-Q2") >= 7


# ---------------------------------------------------------------------------- expansion


def _width_corpus() -> list[ScreenedPaper]:
    early = blob_papers(0, 0, 15, date(2024, 2, 1)) + blob_papers(100, 1, 15, date(2024, 2, 2))
    new_topics = blob_papers(400, 2, 12, date(2024, 5, 3)) + blob_papers(500, 3, 12, date(2024, 5, 4))
    return early + new_topics


def test_width_expansion_adds_siblings_for_unfit_papers_over_max_density():
    papers = _width_corpus()
    result = build(papers, max_depth=1, max_density=10, initial_density=20, fit_quantile=0.0)
    width = [n for n in result.nodes if n.created_by == "width"]
    assert len(width) == 2
    assert all(n.level == 1 and n.created_slice == "2024-Q2" and n.parent_id == "syn:methodologies:0" for n in width)
    assert sorted({blob_of(i, papers) for i in n.paper_ids}.pop() for n in width) == [2, 3]
    assert all(len({blob_of(i, papers) for i in n.paper_ids}) == 1 for n in width)  # pure
    assert sum(len(n.paper_ids) for n in width) == 24  # every new-topic paper got a home
    # the expansion did not touch the earlier children: they keep exactly their blob-0/1 papers
    initial = [n for n in result.nodes if n.created_by == "initial" and n.level == 1]
    assert sorted(len(n.paper_ids) for n in initial) == [15, 15]
    assert result.expansions["2024-Q2"]["width"] == 2 and result.growth["2024-Q2"] == 2


def test_no_width_expansion_while_unfit_papers_stay_within_max_density():
    result = build(_width_corpus(), max_depth=1, max_density=30, initial_density=20, fit_quantile=0.0)
    assert not [n for n in result.nodes if n.created_by == "width"]
    unfit = [a for a in result.assignments if not a.fit]
    assert len(unfit) == 24 and {a.node_id for a in unfit} == {"syn:methodologies:0"}  # they wait at the root


def test_depth_expansion_splits_dense_leaves_only_below_max_depth():
    papers = []
    for blob in range(4):  # 4 blobs of 20: the root splits, dense children split again
        papers += blob_papers(1000 * blob, blob, 20, date(2024, 3, 1))
    deep = build(papers, max_depth=3, max_density=6, initial_density=6)
    shallow = build(papers, max_depth=1, max_density=6, initial_density=6)
    parents = {n.parent_id for n in deep.nodes}
    assert max(n.level for n in deep.nodes) >= 2
    assert all(n.level <= 3 for n in deep.nodes)
    assert {n.created_by for n in deep.nodes if n.level >= 2} == {"depth"}
    # no leaf below max_depth is over max_density (it would have been split)
    for n in deep.nodes:
        if n.node_id not in parents and n.level < 3:
            assert len(n.paper_ids) <= 6
    # with max_depth = 1 nothing goes below level 1, although level-1 leaves are dense
    assert max(n.level for n in shallow.nodes) == 1
    assert max(len(n.paper_ids) for n in shallow.nodes if n.level == 1) > 6
    assert not [n for n in shallow.nodes if n.created_by == "depth"]


def test_max_children_caps_every_node():
    papers = []
    for blob in range(8):
        papers += blob_papers(1000 * blob, blob, 8, date(2024, 1, 15) if blob < 2 else date(2024, 5, 1))
    result = build(papers, max_depth=1, max_density=4, initial_density=10, max_children=3)
    counts = Counter(n.parent_id for n in result.nodes if n.parent_id)
    assert counts and max(counts.values()) <= 3


# ------------------------------------------------------------------------------ slices


def test_slices_are_quarters_early_and_months_in_the_last_six_months():
    labels = [s for s, _ in slice_starts(date(2023, 2, 10), date(2025, 12, 31))]
    assert labels == [
        "2023-Q1",
        "2023-Q2",
        "2023-Q3",
        "2023-Q4",
        "2024-Q1",
        "2024-Q2",
        "2024-Q3",
        "2024-Q4",
        "2025-Q1",
        "2025-Q2",
        "2025-07",
        "2025-08",
        "2025-09",
        "2025-10",
        "2025-11",
        "2025-12",
    ]
    # a mid-month cutoff: its month is the last slice; 2025-Q2 keeps only April and May
    starts = slice_starts(date(2025, 1, 3), date(2025, 11, 15))
    assert [s for s, _ in starts] == ["2025-Q1", "2025-Q2", "2025-06", "2025-07", "2025-08", "2025-09", "2025-10", "2025-11"]
    idx = slice_index([date(2025, 5, 31), date(2025, 6, 1), date(2025, 11, 15)], starts)
    assert [starts[i][0] for i in idx] == ["2025-Q2", "2025-06", "2025-11"]
    with pytest.raises(ValueError):
        slice_starts(date(2026, 1, 1), date(2025, 12, 31))


def test_result_slices_are_chronological_and_match_paper_dates():
    papers = blob_papers(0, 0, 10, date(2023, 3, 1)) + blob_papers(100, 1, 10, date(2025, 8, 20))
    result = build(papers, cutoff=date(2025, 12, 31), max_density=5)
    assert result.slices[0] == "2023-Q1" and result.slices[-1] == "2025-12"
    assert result.slices.index("2025-Q2") + 1 == result.slices.index("2025-07")
    assert {a.slice for a in result.assignments} == {"2023-Q1", "2025-08"}
    assert result.slice_papers["2023-Q1"] == 10 and result.slice_papers["2025-08"] == 10
    assert sum(result.growth.values()) == len(result.nodes)


# ------------------------------------------------------------------------ cutoff guard


def test_papers_after_the_cutoff_or_excluded_are_never_placed():
    cutoff = date(2024, 6, 30)
    visible = _width_corpus()
    future = blob_papers(800, 0, 9, date(2024, 7, 1)) + blob_papers(900, 2, 6, date(2025, 1, 1))
    excluded = [paper(700 + j, 1, date(2024, 3, 1), label="excluded") for j in range(5)]
    result = build(visible + future + excluded, cutoff=cutoff, max_depth=2, max_density=5)
    forbidden = {p.arxiv_id for p in future + excluded}
    placed = {i for n in result.nodes for i in n.paper_ids} | {a.arxiv_id for a in result.assignments}
    assert placed == {p.arxiv_id for p in visible}
    assert not placed & forbidden
    assert result.dropped_after_cutoff == 15 and result.dropped_excluded == 5
    assert result.paper_vectors_used == len(visible)


def test_empty_or_unusable_input_raises():
    with pytest.raises(ValueError):
        build([])
    with pytest.raises(ValueError, match="no usable papers"):
        build(blob_papers(0, 0, 5, date(2025, 1, 1)), cutoff=date(2024, 6, 30))


# ----------------------------------------------------------------- real sample (shared)


@pytest.fixture(scope="module")
def sample_run():
    from assets.corpus.logic import screen
    from core.papers import read_jsonl
    from core.registry import load_registry
    from resources.embeddings import load_embedder

    registry = load_registry()
    descriptions = {k: v.description for k, v in registry.domains.items()}
    embedder = load_embedder()
    papers, failures = read_jsonl(fixture_path("arxiv/samples/llm_agent.sample.jsonl"))
    assert not failures
    screened = screen(papers, "llm_agent", descriptions, embedder.encode)
    cutoff = date(2025, 12, 31)
    kwargs = dict(domain="llm_agent", max_density=8, max_depth=3)
    first = induce_taxonomy(screened, cutoff, embedder.encode, seed=0, **kwargs)
    again = induce_taxonomy(screened, cutoff, embedder.encode, seed=0, **kwargs)
    return screened, cutoff, first, again


def test_sample_nodes_are_complete_and_consistent(sample_run):
    screened, cutoff, result, _ = sample_run
    nodes = {n.node_id: n for n in result.nodes}
    assert len(nodes) == len(result.nodes) > len(DIMENSIONS)  # unique ids, and some growth
    roots = [n for n in result.nodes if n.parent_id is None]
    assert [r.label for r in roots] == ["Tasks", "Methodologies", "Datasets", "Evaluation methods", "Real world domains"]
    usable = {p.arxiv_id for p in screened if p.label != "excluded" and p.published <= cutoff}
    for node in result.nodes:
        assert node.node_id == f"llm_agent:{node.dimension}:{'.'.join(node.node_id.split(':')[2].split('.'))}"
        assert node.created_slice in result.slices
        assert node.label and node.description and set(node.paper_ids) <= usable
        if node.parent_id is None:
            assert node.level == 0 and node.created_by == "initial" and node.node_id.endswith(":0")
            continue
        parent = nodes[node.parent_id]  # the parent exists
        assert node.level == parent.level + 1 and node.dimension == parent.dimension
        assert set(node.paper_ids) <= set(parent.paper_ids)
        assert result.slices.index(node.created_slice) >= result.slices.index(parent.created_slice)
        assert node.keywords and len(node.keywords) <= 8
    siblings: dict[str, list[str]] = {}
    for node in result.nodes:
        siblings.setdefault(str(node.parent_id), []).append(node.label)
    assert all(len(labels) == len(set(labels)) for labels in siblings.values())
    # every usable paper is routed to at least one dimension, and sits in exactly one node per dimension
    per_dim = Counter((a.arxiv_id, a.dimension) for a in result.assignments)
    assert set(per_dim.values()) == {1}
    assert {a.arxiv_id for a in result.assignments} == usable
    assert result.paper_vectors_used == len(usable)
    assert result.dropped_after_cutoff == sum(p.published > cutoff for p in screened) > 0
    for a in result.assignments:
        assert a.arxiv_id in nodes[a.node_id].paper_ids


def test_sample_is_deterministic_for_a_seed(sample_run):
    _, _, first, again = sample_run
    assert first.model_dump() == again.model_dump()

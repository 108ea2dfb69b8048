"""High-order signals and venue profiles: normalisation, recurrence, provenance, temporal integrity."""

from __future__ import annotations

import hashlib
import re
from datetime import date

import numpy as np
import pytest

from assets.evidence.bottlenecks import bottleneck_themes
from assets.evidence.logic import build_evidence_records
from assets.evidence.shares import momentum
from assets.evidence.signals import build_signals, cross_dimension_pairs, relation_for
from assets.evidence.venues import (
    build_venue_profiles,
    load_venue_lists,
    venue_similarity,
)
from core.records import EvidenceRecord, PaperEvidence, ScreenedPaper, TaxonomyNode
from tests.factories import screened_paper
from tests.test_evidence import kmeans_taxonomy, sample_papers

CUTOFF = date(2025, 12, 31)
KINDS = {"candidate_direction", "method_development", "bottleneck", "feasibility", "venue_profile"}


def hash_embed(texts):
    """Deterministic pseudo-embedding: a unit vector seeded by the text's hash."""
    rows = []
    for t in texts:
        seed = int(hashlib.sha1(t.encode()).hexdigest()[:8], 16)
        v = np.random.default_rng(seed).normal(size=16)
        rows.append(v / np.linalg.norm(v))
    return np.asarray(rows, dtype=np.float32).reshape(len(texts), 16)


def paper(pid: str, day: date, abstract: str = "We propose a method. Experiments show gains.") -> ScreenedPaper:
    return screened_paper(pid, f"Title {pid}", abstract, day)


def tnode(node_id, paper_ids, *, parent="d:methodologies", level=1, dim="methodologies", slice_="2024-Q1",
          label=None, keywords=()):
    return TaxonomyNode(node_id=node_id, domain="d", dimension=dim, label=label or node_id, description=f"about {node_id}",
                        parent_id=parent, level=level, created_slice=slice_, created_by="initial",
                        paper_ids=list(paper_ids), keywords=list(keywords))


# ----------------------------------------------------------------------------- normalisation


def rising_counts_falling_share():
    """Node papers: 2/month in Apr-Sep 2025, 4/month in Oct-Dec; domain volume 10 -> 40."""
    papers, volume = [], {}
    for month in range(4, 13):
        n = 4 if month >= 10 else 2
        volume[f"2025-{month:02d}"] = 40 if month >= 10 else 10
        papers += [paper(f"a{month:02d}{i}", date(2025, month, 5 + i)) for i in range(n)]
    return papers, volume


def test_growth_is_volume_normalised_not_raw_counts():
    papers, volume = rising_counts_falling_share()
    dates = [p.published for p in papers]
    m = momentum(dates, volume, CUTOFF)
    assert m["n_recent"] / 3 > m["n_prior"] / 6  # raw monthly count doubled ...
    assert m["share_recent"] == pytest.approx(12 / 120)
    assert m["share_prior"] == pytest.approx(12 / 60)
    assert m["growth"] == pytest.approx(0.5)  # ... but the share of the domain halved
    assert m["slope"] < 0
    flat = momentum(dates, {k: 10 for k in volume}, CUTOFF)
    assert flat["growth"] == pytest.approx(2.0) and flat["slope"] > 0


def word_embed(texts):
    """Bag of hashed words (64 dims): texts sharing words are near, as topics are for a real embedder."""
    rows = []
    for t in texts:
        v = np.zeros(64)
        for w in re.findall(r"[a-z]+", t.lower()):
            v[int(hashlib.sha1(w.encode()).hexdigest()[:8], 16) % 64] += 1.0
        rows.append(v / max(np.linalg.norm(v), 1e-9))
    return np.asarray(rows, dtype=np.float32).reshape(len(texts), 64)


def background(n: int, day: date) -> list[ScreenedPaper]:
    """Papers on unrelated one-off subjects: no title phrase repeats, nothing clusters."""
    rng = np.random.default_rng(7)
    letters = list("bcdfghjklmnpqrstvwxz")
    word = lambda: "".join(rng.choice(letters, 6))  # noqa: E731
    return [screened_paper(f"z{i:03d}", f"{word()} {word()} {word()}", f"{word()} {word()} {word()}.", day)
            for i in range(n)]


def test_candidate_direction_carries_normalised_stats():
    papers, volume = rising_counts_falling_share()
    papers = [p.model_copy(update={"title": f"Speculative decoding for {p.arxiv_id}",
                                   "abstract": "Speculative decoding drafts tokens."}) for p in papers]
    ids = [p.arxiv_id for p in papers]
    nodes = [tnode("d:methodologies", ids, parent=None, level=0), tnode("d:methodologies/a", ids, slice_="2025-Q2")]
    records = build_evidence_records(nodes, papers, CUTOFF, word_embed)
    sigs = build_signals(nodes, records, papers + background(600, date(2025, 6, 1)), CUTOFF, volume, word_embed,
                         domain="d")
    cand = [s for s in sigs if s.kind == "candidate_direction"]
    # one direction, named as the titles write it: "speculative" and "decoding" alone are bare words
    assert [c.title for c in cand] == ["speculative decoding"] and cand[0].node_ids == ["d:methodologies/a"]
    st = cand[0].stats
    assert st["growth"] == pytest.approx(0.5) and st["n_papers"] == 24  # the share of the domain halved
    assert st["age_months"] == 8  # first paper 2025-04, cutoff 2025-12
    assert cand[0].evidence_ids == ["ev:d:methodologies/a"]
    assert cand[0].signal_id == "sig:candidate_direction:000"
    assert cand[0].details["member_ids"] == sorted(ids)


def test_a_direction_is_a_title_phrase_whose_papers_share_content():
    day = date(2025, 11, 3)
    topics = {"tool calling": "Agents call external tools through function APIs.",
              "episodic memory": "Agents store episodes in a memory buffer and recall them.",
              "web navigation": "Agents browse websites and click through pages."}
    papers = [screened_paper(f"{k[:2]}{i:02d}", f"{k.title()} for {w}", text, day)
              for k, text in topics.items() for i, w in enumerate(("planning", "coding", "retrieval", "games", "science",
                                                                   "finance", "health", "robots", "travel", "shopping",
                                                                   "email", "maps"))]
    # a generic word spread over the topics: its papers share a word, not content
    papers += [screened_paper(f"an{i:02d}", f"Analysis of {w}", text, day) for i, (w, text) in enumerate(zip(
        "aurora basalt cobalt dune ember fjord glacier harbor isthmus jungle karst lagoon".split(),
        list(topics.values()) * 4))]
    papers += [screened_paper("rare01", "Quantum annealing for schedules", "Annealing.", day)]
    papers += background(300, day)
    ids = [p.arxiv_id for p in papers]
    nodes = [tnode("d:methodologies", ids, parent=None, level=0),
             *(tnode(f"d:methodologies/{k[:2]}", [p.arxiv_id for p in papers if p.arxiv_id.startswith(k[:2])],
                     label=f"junk {k[:2]}") for k in topics)]
    records = build_evidence_records(nodes, papers, CUTOFF, word_embed)
    sigs = build_signals(nodes, records, papers, CUTOFF, {"2025-11": len(papers)}, word_embed, domain="d")
    cand = [s for s in sigs if s.kind == "candidate_direction"]
    assert sorted(c.title for c in cand) == ["episodic memory", "tool calling", "web navigation"]
    for c in cand:
        # members: exactly the titles holding the phrase; placed at the node holding them; labelled by the phrase
        assert c.details["member_ids"] == sorted(p.arxiv_id for p in papers if c.title in p.title.lower())
        assert c.node_ids == [f"d:methodologies/{c.title[:2]}"] and c.details["defining_phrases"] == [c.title]
        assert 0.2 <= c.stats["recognisability"] <= 1.0
    feas = [s for s in sigs if s.kind == "feasibility"]
    assert len(feas) == 3 and all(f.title.startswith("Feasibility of ") for f in feas)


# ----------------------------------------------------------------------------- method development


def test_relation_rules():
    stats = {
        "c1": {"growth": 2.0, "n_prior": 3.0}, "c2": {"growth": 0.5, "n_prior": 6.0},
        "c3": {"growth": 1.0, "n_prior": 4.0}, "p": {"growth": 1.0, "n_prior": 9.0},
    }
    parent = tnode("p", [], label="tool learning", keywords=["tool use"])
    c1 = tnode("c1", [], parent="p", level=2, slice_="2025-Q3", label="tool retrieval")
    c2 = tnode("c2", [], parent="p", level=2, slice_="2024-Q2", label="prompted tool calls")
    c3 = tnode("c3", [], parent="p", level=2, slice_="2024-Q2", label="api agents")
    assert relation_for(c1, parent, stats, [c2, c3])[0] == "replacement"  # newer branch grows, older shrinks
    c1_same_age = c1.model_copy(update={"created_slice": "2024-Q2"})
    assert relation_for(c1_same_age, parent, stats, [c2, c3])[0] == "competition"
    assert relation_for(c1, parent, stats, [c3])[0] == "extension"  # shares "tool"
    assert relation_for(c3, parent, stats, [])[0] == "adaptation"  # no shared term


def test_component_reuse_links_dimensions_sharing_papers():
    a = tnode("d:methodologies/x", ["1", "2", "3", "4", "5"], slice_="2024-Q1")
    b = tnode("d:tasks/y", ["1", "2", "3", "4", "9"], parent="d:tasks", dim="tasks", slice_="2025-Q1")
    c = tnode("d:tasks/z", ["7", "8"], parent="d:tasks", dim="tasks")
    stats = {n.node_id: {"growth": 1.5} for n in (a, b, c)}
    pairs = cross_dimension_pairs([a, b, c], stats)
    assert [(s.node_id, d.node_id, rel) for s, d, rel, _ in pairs] == [("d:methodologies/x", "d:tasks/y", "component_reuse")]
    stats["d:tasks/y"]["growth"] = 0.9  # target not growing: no signal
    assert cross_dimension_pairs([a, b, c], stats) == []


# ----------------------------------------------------------------------------- bottlenecks

THEMES = {"hallucinat": 0, "cost": 1, "expensive": 1, "memory": 2}


def theme_embed(texts):
    """Sentences embed by their theme word (hallucination / cost / memory) plus small noise."""
    rows = []
    for t in texts:
        v = np.zeros(8)
        for word, dim in THEMES.items():
            if word in t.lower():
                v[dim] = 1.0
        v[3:] = hash_embed([t])[0][:5] * 0.1
        rows.append(v / np.linalg.norm(v))
    return np.asarray(rows, dtype=np.float32)


def ev(pid, limitation):
    return PaperEvidence(arxiv_id=pid, published=date(2025, 6, 1), limitation=limitation)


def test_bottleneck_recurrence_counts_distinct_papers():
    shared = ev("p1", "However, agents hallucinate tool outputs.")
    records = [
        EvidenceRecord(record_id="ev:n1", node_id="n1", domain="d", cutoff=CUTOFF, node_label="n1",
                       representative_ids=["p1", "p2"], supporting_ids=["p4"],
                       papers=[shared, ev("p2", "Models still hallucinate facts."), ev("p4", "Inference is costly and expensive.")]),
        EvidenceRecord(record_id="ev:n2", node_id="n2", domain="d", cutoff=CUTOFF, node_label="n2",
                       representative_ids=["p1", "p3"], supporting_ids=["p5", "p6"],
                       papers=[shared, ev("p3", "Hallucinated citations remain common."),
                               ev("p5", "Training cost is prohibitive."), ev("p6", "Long-term memory is missing.")]),
    ]
    themes = bottleneck_themes(records, theme_embed)
    # p1 appears in two records but is one paper: recurrence 3, not 4
    assert [sorted(t["paper_ids"]) for t in themes] == [["p1", "p2", "p3"], ["p4", "p5"]]
    assert themes[0]["nodes"] == ["n1", "n2"] and themes[0]["category"] == "reliability_safety"
    assert themes[1]["category"] == "technical_risk"
    papers = [paper(f"p{i}", date(2025, 6, 1)) for i in range(1, 7)]
    sigs = build_signals([], records, papers, CUTOFF, {"2025-06": 6}, theme_embed, domain="d")
    bn = [s for s in sigs if s.kind == "bottleneck"]
    assert [s.stats["recurrence"] for s in bn] == [3.0, 2.0]  # the singleton memory theme is dropped
    assert bn[0].stats["n_nodes"] == 2 and bn[0].evidence_ids == ["ev:n1", "ev:n2"]
    assert all(q in {"However, agents hallucinate tool outputs.", "Models still hallucinate facts.",
                     "Hallucinated citations remain common."} for q in bn[0].details["quotes"])
    assert bn[0].summary in bn[0].details["quotes"]


# ----------------------------------------------------------------------------- provenance on real samples


@pytest.fixture(scope="module")
def embed():
    from resources.embeddings import load_embedder

    return load_embedder().encode


@pytest.fixture(scope="module")
def venue_papers():
    papers = load_venue_lists()
    assert papers, "venue lists are shipped in assets/evidence/venues"
    return papers


def test_every_signal_traces_to_records_and_cutoff_visible_papers(embed, venue_papers):
    papers = sample_papers("llm_agent")
    nodes = kmeans_taxonomy(papers, embed)
    records = build_evidence_records(nodes, papers, CUTOFF, embed)
    volume = {}
    for p in papers:
        volume[p.published.strftime("%Y-%m")] = volume.get(p.published.strftime("%Y-%m"), 0) + 1
    sigs = build_signals(nodes, records, papers, CUTOFF, volume, embed, domain="llm_agent", min_support=5,
                         venue_papers=venue_papers)
    # the 120-paper sample holds no title phrase alive enough to be a direction (>= 5 papers in
    # the 6 months before the cutoff): candidates, and the notes and approaches built on them,
    # are traced in test_candidate_direction_carries_normalised_stats
    assert {s.kind for s in sigs} == KINDS - {"candidate_direction", "feasibility"}
    record_ids = {r.record_id for r in records}
    dates = {p.arxiv_id: p.published for p in papers}
    for s in sigs:
        assert set(s.evidence_ids) <= record_ids, s.signal_id
        assert all(dates[pid] <= CUTOFF for pid in s.paper_ids), s.signal_id
        if s.kind != "venue_profile":
            assert s.evidence_ids and s.paper_ids, s.signal_id
    assert len({s.signal_id for s in sigs}) == len(sigs)
    again = build_signals(nodes, records, papers, CUTOFF, volume, embed, domain="llm_agent", min_support=5,
                          venue_papers=venue_papers)
    assert [s.model_dump() for s in again] == [s.model_dump() for s in sigs]


# ----------------------------------------------------------------------------- venues


def test_venue_profiles_ignore_lists_dated_after_the_cutoff(embed, venue_papers):
    cutoff = date(2024, 6, 30)
    papers = [p for p in sample_papers("llm_agent") if p.published <= cutoff]
    profiles = {s.details["family"][0]: s for s in build_venue_profiles(venue_papers, papers, cutoff, embed, domain="llm_agent")}
    assert list(profiles) == ["ACL/EMNLP/NAACL", "ICLR/ICML/NeurIPS", "AAAI/IJCAI", "SIGIR/KDD", "CVPR/ICCV/ECCV"]
    ml = profiles["ICLR/ICML/NeurIPS"]
    assert ml.details["venues"] == ["ICML 2024 (decisions ~2024-05-01)"]  # no NeurIPS 2024, ICLR 2025, ICML 2025
    assert ml.stats["n_papers"] == 2610
    assert profiles["CVPR/ICCV/ECCV"].details["venues"] == ["CVPR 2024 (decisions ~2024-02-26)",
                                                            "ICCV 2023 (decisions ~2023-07-14)"]
    # every family has a list by mid-2024: NAACL/ACL 2024, AAAI 2022 + IJCAI 2024, SIGIR + KDD 2024
    assert profiles["ACL/EMNLP/NAACL"].details["venues"] == ["ACL 2024 (decisions ~2024-05-15)",
                                                             "NAACL 2024 (decisions ~2024-03-14)"]
    assert profiles["AAAI/IJCAI"].stats["n_papers"] == 1319 + 1048
    assert profiles["SIGIR/KDD"].stats["n_papers"] > 0  # SIGIR 2024 (KDD 2024 decided 2024-05-16 too)
    assert all(p.kind == "venue_profile" and p.cutoff == cutoff for p in profiles.values())
    assert 0 < ml.stats["n_close"] < ml.stats["n_papers"]
    assert sum(ml.stats[k] for k in ("style_method", "style_benchmark", "style_analysis")) == pytest.approx(1.0, abs=1e-3)
    assert all(pid in {p.arxiv_id for p in papers} for pid in ml.paper_ids)


def test_venue_lists_keep_only_accepted_papers(venue_papers):
    by_cycle = {}
    for v in venue_papers:
        by_cycle[(v.venue, v.year)] = by_cycle.get((v.venue, v.year), 0) + 1
    assert by_cycle[("ICLR", 2025)] == 3113 + 380 + 213  # Poster + Spotlight + Oral, no rejects/withdrawals
    assert ("ICLR", 2024) not in by_cycle  # submissions only, no decisions
    # a title listed twice for one cycle counts once (EMNLP 2024's list repeats 4 titles)
    assert by_cycle[("ICML", 2024)] == 2610 and by_cycle[("EMNLP", 2024)] == 2954 - 4
    assert by_cycle[("ACL", 2026)] == 2296 + 2165 + 153 + 85  # main, findings, industry, demo: no TACL, CL or SRW


def test_venue_similarity_respects_the_date(embed, venue_papers):
    texts = ["Tool-using LLM agents for web navigation", "Diffusion transformers for video generation"]
    early = venue_similarity(texts, venue_papers, date(2024, 6, 30), embed)
    late = venue_similarity(texts, venue_papers, date(2025, 12, 31), embed)
    assert set(early) == set(late) == {"ACL/EMNLP/NAACL", "ICLR/ICML/NeurIPS", "AAAI/IJCAI", "SIGIR/KDD",
                                       "CVPR/ICCV/ECCV"}
    assert early != late  # lists decided after mid-2024 count only later
    assert all(0 < v <= 1 for v in late.values())
    video = venue_similarity(texts[1:], venue_papers, date(2025, 12, 31), embed)
    assert video["CVPR/ICCV/ECCV"] > video["ACL/EMNLP/NAACL"]  # a video-generation paper fits CVPR better


def test_venue_fit_is_normalised_for_pool_size_and_base_rate(embed, venue_papers):
    """Each family is compared on an equal-size sample of its titles, against the fit of
    typical domain papers: an off-topic text fits no community (no answer), a
    retrieval paper fits SIGIR/KDD best although that pool is ten times smaller."""
    base = [f"{p.title}. {p.abstract}" for p in sample_papers("llm_agent")[:120]]
    late = date(2025, 12, 31)
    off = venue_similarity(["A recipe for sourdough bread with a long cold fermentation."], venue_papers, late,
                           embed, base_texts=base)
    assert off == {}  # no confident answer for a text no paper of the domain resembles
    ir = venue_similarity(["Dense passage retrieval and learned sparse ranking for web search engines, "
                           "click models and query-document relevance"], venue_papers, late, embed, base_texts=base)
    assert max(ir, key=ir.get) == "SIGIR/KDD"

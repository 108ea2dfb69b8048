"""High-order signals and venue profiles: normalisation, recurrence, provenance, temporal integrity."""

from __future__ import annotations

import hashlib
import re
from datetime import date

import numpy as np
import pytest

from assets.evidence.bottlenecks import (
    domain_words,
    limitation_objects,
    limitation_themes,
    object_keys,
    restates,
)
from assets.evidence.logic import build_evidence_records
from assets.evidence.shares import momentum
from assets.evidence.signals import build_signals, cross_dimension_pairs, relation_for
from assets.evidence.venues import (
    build_venue_profiles,
    load_venue_lists,
    venue_similarity,
)
from core.records import EvidenceRecord, PaperEvidence, ScreenedPaper, TaxonomyNode
from tests.factories import kmeans_taxonomy, screened_paper
from tests.factories import labelled_sample_papers as sample_papers

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


def tnode(
    node_id, paper_ids, *, parent="d:methodologies", level=1, dim="methodologies", slice_="2024-Q1", label=None, keywords=()
):
    return TaxonomyNode(
        node_id=node_id,
        domain="d",
        dimension=dim,
        label=label or node_id,
        description=f"about {node_id}",
        parent_id=parent,
        level=level,
        created_slice=slice_,
        created_by="initial",
        paper_ids=list(paper_ids),
        keywords=list(keywords),
    )


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
    return [screened_paper(f"z{i:03d}", f"{word()} {word()} {word()}", f"{word()} {word()} {word()}.", day) for i in range(n)]


def test_candidate_direction_carries_normalised_stats():
    papers, volume = rising_counts_falling_share()
    papers = [
        p.model_copy(
            update={"title": f"Speculative decoding for {p.arxiv_id}", "abstract": "Speculative decoding drafts tokens."}
        )
        for p in papers
    ]
    ids = [p.arxiv_id for p in papers]
    nodes = [tnode("d:methodologies", ids, parent=None, level=0), tnode("d:methodologies/a", ids, slice_="2025-Q2")]
    records = build_evidence_records(nodes, papers, CUTOFF, word_embed)
    sigs = build_signals(nodes, records, papers + background(600, date(2025, 6, 1)), CUTOFF, volume, word_embed, domain="d")
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
    topics = {
        "tool calling": "Agents call external tools through function APIs.",
        "episodic memory": "Agents store episodes in a memory buffer and recall them.",
        "web navigation": "Agents browse websites and click through pages.",
    }
    papers = [
        screened_paper(f"{k[:2]}{i:02d}", f"{k.title()} for {w}", text, day)
        for k, text in topics.items()
        for i, w in enumerate(
            (
                "planning",
                "coding",
                "retrieval",
                "games",
                "science",
                "finance",
                "health",
                "robots",
                "travel",
                "shopping",
                "email",
                "maps",
            )
        )
    ]
    # a generic word spread over the topics: its papers share a word, not content
    papers += [
        screened_paper(f"an{i:02d}", f"Analysis of {w}", text, day)
        for i, (w, text) in enumerate(
            zip(
                "aurora basalt cobalt dune ember fjord glacier harbor isthmus jungle karst lagoon".split(),
                list(topics.values()) * 4,
            )
        )
    ]
    papers += [screened_paper("rare01", "Quantum annealing for schedules", "Annealing.", day)]
    papers += background(300, day)
    ids = [p.arxiv_id for p in papers]
    nodes = [
        tnode("d:methodologies", ids, parent=None, level=0),
        *(
            tnode(f"d:methodologies/{k[:2]}", [p.arxiv_id for p in papers if p.arxiv_id.startswith(k[:2])], label=f"junk {k[:2]}")
            for k in topics
        ),
    ]
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


def test_a_big_direction_is_not_dropped_for_a_small_one_that_shares_a_few_of_its_papers():
    day = date(2025, 11, 3)
    big = [
        screened_paper(f"dt{i:02d}", f"Diffusion transformers for {w}", "Transformers denoise image latents.", day)
        for i, w in enumerate(
            (
                "faces cars birds maps charts rooms clouds trees boats cats dogs fish lakes roads "
                "ships desks lamps rocks waves hills caves bells coins rings keys sofas chairs "
                "cups tents forts"
            ).split()
        )
    ]
    small = [
        screened_paper(
            f"vt{i:02d}",
            f"Virtual try-on {'with diffusion transformers ' if i < 8 else ''}case {i}",
            "Garments are fitted onto a person image.",
            day,
        )
        for i in range(12)
    ]
    papers = big + small + background(800, day)  # diffusion transformers: < 5% of the domain, no umbrella
    ids = [p.arxiv_id for p in papers]
    nodes = [
        tnode("d:methodologies", ids, parent=None, level=0),
        tnode("d:methodologies/dt", [p.arxiv_id for p in big + small[:8]], label="junk dt"),
        tnode("d:methodologies/vt", [p.arxiv_id for p in small], label="junk vt"),
    ]
    records = build_evidence_records(nodes, papers, CUTOFF, word_embed)
    sigs = build_signals(nodes, records, papers, CUTOFF, {"2025-11": len(papers)}, word_embed, domain="d")
    # 8 of virtual try-on's 12 papers name diffusion transformers, but only 8 of the 38 papers of
    # diffusion transformers are virtual try-on: the share that counts is of the phrase's own papers
    assert {"diffusion transformers", "virtual try-on"} <= {s.title.lower() for s in sigs if s.kind == "candidate_direction"}


# ----------------------------------------------------------------------------- method development


def test_relation_rules():
    stats = {
        "c1": {"growth": 2.0, "n_prior": 3.0},
        "c2": {"growth": 0.5, "n_prior": 6.0},
        "c3": {"growth": 1.0, "n_prior": 4.0},
        "p": {"growth": 1.0, "n_prior": 9.0},
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

FILLER = (
    "We study agents in open environments. Our experiments cover several benchmarks. "
    "The results are reported for planning agents and web agents."
)


def limitation_corpus():
    """Papers whose abstracts state limitations (hallucination x3, prompt injection x3 in two
    wordings, scarce annotated data x3) plus filler papers, all before the cutoff."""
    statements = {
        "h1": "However, LLM agents suffer from hallucination of tool outputs.",
        "h2": "Existing agents still suffer from hallucination when planning.",
        "h3": "Yet these systems remain prone to hallucination in long tasks.",
        "p1": "However, web agents are vulnerable to prompt injection attacks hidden in pages.",
        "p2": "Such agents remain vulnerable to prompt injection from untrusted tools.",
        "p3": "Current agents are highly vulnerable to indirect prompt injection attacks.",
        "p4": "Mail agents remain vulnerable to prompt injection attacks in messages.",
        "d1": "However, progress is hindered by the scarcity of annotated trajectories.",
        "d2": "Training is limited by the scarcity of annotated trajectories for new sites.",
        "d3": "Unfortunately, the scarcity of annotated trajectories remains a bottleneck.",
        "a1": "However, LLM agents struggle with LLM agents.",  # the domain's own words: no theme
    }
    papers = [
        screened_paper(f"2505.{i:05d}", f"Paper {k}", f"{FILLER} {text}", date(2025, 5, 1 + i))
        for i, (k, text) in enumerate(statements.items())
    ]
    papers += [
        screened_paper(f"2504.{i:05d}", f"Filler {i}", f"{FILLER} Hallucination is discussed here.", date(2025, 4, 1 + i))
        for i in range(3)
    ]
    papers += [screened_paper(f"2503.{i:05d}", f"Filler {i}", FILLER, date(2025, 3, 1 + i)) for i in range(20)]
    return papers


def test_limitation_themes_are_phrases_papers_name_as_limitations(monkeypatch):
    import assets.evidence.bottlenecks as BN

    # the mined-theme rule alone (the cause lexicon and the one-word drop are tested in
    # tests/assets/families/test_bottleneck_rules.py)
    monkeypatch.setattr(BN, "DROP_ONE_WORD", False)
    monkeypatch.setattr(BN, "cause_themes", lambda rows, n: [])
    papers = limitation_corpus()
    themes = limitation_themes(papers, [], domain_title="LLM Agents", embed=None)
    by_key = {t["key"]: t for t in themes}
    inj = next(k for k in by_key if "injection" in k)
    assert set(by_key) == {"hallucination", inj, "annotated trajectory"}
    h = by_key["hallucination"]
    assert h["name"] == "hallucination" and len(h["paper_ids"]) == 3
    # every quote is a verbatim sentence of its paper, in the same order as quote_papers
    text = {p.arxiv_id: p.abstract for p in papers}
    assert all(q in text[pid] for q, pid in zip(h["quotes"], h["quote_papers"]))
    # papers that mention it without stating it as a limitation are mentions, not statements
    assert set(h["mention_ids"]) - set(h["paper_ids"]) == {f"2504.{i:05d}" for i in range(3)}
    # "prompt injection" is part of "prompt injection attacks": one theme, named by the predicate family
    p = by_key[inj]
    # keys are the objects' head-final parts: "prompt injection attacks" and "injection attacks" are one theme
    assert {"prompt injection attack", "injection attack"} <= set(p["aliases"]) and len(p["paper_ids"]) == 3
    assert p["name"] == "vulnerability to prompt injection attacks"
    d = by_key["annotated trajectory"]
    assert d["name"] == "lack of annotated trajectories" and d["category"] == "data_need"
    # the domain's own words never name a theme
    assert not any(restates(t["name"], domain_words("LLM Agents")) for t in themes)


def test_limitation_themes_merge_synonyms_and_mark_near_themes(monkeypatch):
    import assets.evidence.bottlenecks as BN

    # the mined-theme rule alone (the cause lexicon and the one-word drop are tested in
    # tests/assets/families/test_bottleneck_rules.py)
    monkeypatch.setattr(BN, "DROP_ONE_WORD", False)
    monkeypatch.setattr(BN, "cause_themes", lambda rows, n: [])
    papers = limitation_corpus()

    def embed(texts):  # hallucination and prompt injection embed together; the data theme apart
        rows = [[1.0, 0.0] if ("hallucination" in t or "injection" in t) else [0.0, 1.0] for t in texts]
        return np.asarray(rows, dtype=np.float32)

    themes = limitation_themes(papers, [], domain_title="LLM Agents", embed=embed)
    assert len(themes) == 2
    merged = next(t for t in themes if "hallucination" in t["aliases"])
    assert "prompt injection attack" in merged["aliases"] and len(merged["paper_ids"]) == 6

    def near(texts):  # cosine 0.6 between the two: distinct themes, but near ones
        rows = [[1.0, 0.0] if "hallucination" in t else [0.6, 0.8] if "injection" in t else [0.0, -1.0] for t in texts]
        return np.asarray(rows, dtype=np.float32)

    themes = limitation_themes(papers, [], domain_title="LLM Agents", embed=near)
    idx = {t["key"]: i for i, t in enumerate(themes)}
    inj = next(k for k in idx if "injection" in k)
    assert themes[idx["hallucination"]]["near"] == [idx[inj]]
    assert themes[idx["annotated trajectory"]]["near"] == []


def test_limitation_objects_follow_predicates_and_skip_the_topic():
    objs = limitation_objects("However, they suffer from error accumulation and high latency over long videos.")
    assert [(fam, " ".join(w)) for fam, w in objs] == [("suffer", "error accumulation"), ("suffer", "high latency")]
    assert object_keys(["significant", "computational", "costs"])[1] == [("computational", "cost")]
    assert object_keys(["high", "latency"]) == (["high", "latency"], [("latency",)])
    assert limitation_objects("Efficient long-context inference remains a major challenge.")[0][1] == [
        "Efficient",
        "long-context",
        "inference",
    ]


def test_bottleneck_signals_carry_quotes_keys_and_mentions(monkeypatch):
    import assets.evidence.bottlenecks as BN

    # the mined-theme rule alone (the cause lexicon and the one-word drop are tested in
    # tests/assets/families/test_bottleneck_rules.py)
    monkeypatch.setattr(BN, "DROP_ONE_WORD", False)
    monkeypatch.setattr(BN, "cause_themes", lambda rows, n: [])
    papers = limitation_corpus()
    records = [
        EvidenceRecord(
            record_id="ev:n1",
            node_id="n1",
            domain="d",
            cutoff=CUTOFF,
            node_label="n1",
            representative_ids=["2505.00000"],
            supporting_ids=["2505.00001"],
            papers=[
                PaperEvidence(
                    arxiv_id="2505.00000",
                    published=date(2025, 5, 1),
                    limitation="However, LLM agents suffer from hallucination of tool outputs.",
                )
            ],
        )
    ]
    sigs = build_signals([], records, papers, CUTOFF, {"2025-05": 10}, hash_embed, domain="d", domain_title="LLM Agents")
    bn = {s.details["key"][0]: s for s in sigs if s.kind == "bottleneck"}
    h = bn["hallucination"]
    assert h.stats["recurrence"] == 3.0 and h.summary in h.details["quotes"]
    assert h.evidence_ids == ["ev:n1"] and h.node_ids == ["n1"]
    assert h.details["rule_name"] == ["hallucination"] and h.details["decided_by"] == ["rule"]
    assert set(h.details["mention_ids"]) >= set(h.paper_ids)
    assert all(s.signal_id.startswith("sig:bottleneck:") for s in bn.values())


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
    sigs = build_signals(
        nodes,
        records,
        papers,
        CUTOFF,
        volume,
        embed,
        domain="llm_agent",
        min_support=5,
        venue_papers=venue_papers,
        min_theme_papers=2,
    )  # 120 sample papers
    # the 120-paper sample holds no title phrase alive enough to be a direction (>= 5 papers in
    # the 6 months before the cutoff): candidates, and the notes and approaches built on them,
    # are traced in test_candidate_direction_carries_normalised_stats
    assert {s.kind for s in sigs} == KINDS - {"candidate_direction", "feasibility", "approach"}
    record_ids = {r.record_id for r in records}
    dates = {p.arxiv_id: p.published for p in papers}
    for s in sigs:
        assert set(s.evidence_ids) <= record_ids, s.signal_id
        assert all(dates[pid] <= CUTOFF for pid in s.paper_ids), s.signal_id
        if s.kind != "venue_profile":
            assert s.evidence_ids and s.paper_ids, s.signal_id
    assert len({s.signal_id for s in sigs}) == len(sigs)
    again = build_signals(
        nodes,
        records,
        papers,
        CUTOFF,
        volume,
        embed,
        domain="llm_agent",
        min_support=5,
        venue_papers=venue_papers,
        min_theme_papers=2,
    )
    assert [s.model_dump() for s in again] == [s.model_dump() for s in sigs]


# ----------------------------------------------------------------------------- venues


def test_venue_profiles_ignore_lists_dated_after_the_cutoff(embed, venue_papers):
    cutoff = date(2024, 6, 30)
    papers = [p for p in sample_papers("llm_agent") if p.published <= cutoff]
    profiles = {s.details["family"][0]: s for s in build_venue_profiles(venue_papers, papers, cutoff, embed, domain="llm_agent")}
    assert list(profiles) == ["ACL/EMNLP/NAACL", "ICLR/ICML/NeurIPS", "AAAI/IJCAI", "SIGIR/KDD/WWW", "CVPR/ICCV/ECCV"]
    ml = profiles["ICLR/ICML/NeurIPS"]
    assert ml.details["venues"] == ["ICML 2024 (decisions ~2024-05-01)"]  # no NeurIPS 2024, ICLR 2025, ICML 2025
    assert ml.stats["n_papers"] == 2610
    assert profiles["CVPR/ICCV/ECCV"].details["venues"] == [
        "CVPR 2024 (decisions ~2024-02-26)",
        "ICCV 2023 (decisions ~2023-07-14)",
    ]
    # every family has a list by mid-2024: NAACL/ACL 2024, AAAI 2022 + IJCAI 2024, SIGIR + KDD 2024
    assert profiles["ACL/EMNLP/NAACL"].details["venues"] == [
        "ACL 2024 (decisions ~2024-05-15)",
        "NAACL 2024 (decisions ~2024-03-14)",
    ]
    assert profiles["AAAI/IJCAI"].stats["n_papers"] == 1319 + 1048
    assert profiles["SIGIR/KDD/WWW"].stats["n_papers"] > 0  # SIGIR 2024 (KDD 2024 decided 2024-05-16 too)
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
    assert by_cycle[("ACL", 2026)] == 2296 + 2165  # main and findings: no TACL, CL, SRW, industry or demo (lists.py)


def test_venue_similarity_respects_the_date(embed, venue_papers):
    texts = ["Tool-using LLM agents for web navigation", "Diffusion transformers for video generation"]
    early = venue_similarity(texts, venue_papers, date(2024, 6, 30), embed)
    late = venue_similarity(texts, venue_papers, date(2025, 12, 31), embed)
    assert set(early) == set(late) == {"ACL/EMNLP/NAACL", "ICLR/ICML/NeurIPS", "AAAI/IJCAI", "SIGIR/KDD/WWW", "CVPR/ICCV/ECCV"}
    assert early != late  # lists decided after mid-2024 count only later
    assert all(0 < v <= 1 for v in late.values())
    video = venue_similarity(texts[1:], venue_papers, date(2025, 12, 31), embed)
    assert video["CVPR/ICCV/ECCV"] > video["ACL/EMNLP/NAACL"]  # a video-generation paper fits CVPR better


def test_venue_fit_is_normalised_for_pool_size_and_base_rate(embed, venue_papers):
    """Each family is compared on an equal-size sample of its titles, against the fit of
    typical domain papers: an off-topic text fits no community (no answer), a
    retrieval paper fits SIGIR/KDD/WWW best although that pool is ten times smaller."""
    base = [f"{p.title}. {p.abstract}" for p in sample_papers("llm_agent")[:120]]
    late = date(2025, 12, 31)
    off = venue_similarity(
        ["A recipe for sourdough bread with a long cold fermentation."], venue_papers, late, embed, base_texts=base
    )
    assert off == {}  # no confident answer for a text no paper of the domain resembles
    ir = venue_similarity(
        ["Dense passage retrieval and learned sparse ranking for web search engines, click models and query-document relevance"],
        venue_papers,
        late,
        embed,
        base_texts=base,
    )
    assert max(ir, key=ir.get) == "SIGIR/KDD/WWW"

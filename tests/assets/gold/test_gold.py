"""Gold targets from the future window, and the leakage validators."""

from __future__ import annotations

import re
from datetime import date, timedelta
from types import SimpleNamespace

import pytest

from assets.families import get_family
from assets.gold.logic import build_gold
from core.leakage import (
    GOLD_ONLY_KEYS,
    LeakageError,
    assert_clean,
    check_public_tasks,
    future_variants,
)
from core.records import (
    TRAJECTORIES,
    GoldTarget,
    ScreenedPaper,
    Signal,
    Task,
    TaskBuild,
    TaskOption,
    TaxonomyNode,
)
from tests.factories import CUTOFF, DOMAIN, gold_of
from tests.factories import gold_background as background
from tests.factories import gold_candidate as candidate
from tests.factories import gold_paper as paper
from tests.factories import gold_task as task
from tests.fixture_data import fixture_path


def momentum_world(n_future_a: int = 10, n_future_b: int = 5, n_future_other: int = 85):
    """Candidate A "speculative decoding" (dim 0) and B "sparse attention" (dim 1): 5 / 10 of the
    100 recent public papers, and n_future_a / n_future_b of the future window, each naming its
    candidate in title and abstract; the rest is background."""
    old = date(2025, 3, 1)
    recent = date(2025, 10, 5)
    # the factory's domain is llm_agent: a counted paper must be about it (`momentum.lexical_counts`)
    a_title, b_title = "Speculative decoding study for LLM agents {}", "Sparse attention study for LLM agents {}"
    pub_a = [
        paper(f"2503.a{i:04d}", f"t0 speculative decoding noisy old {i}", old + timedelta(days=i), title=a_title.format(i))
        for i in range(20)
    ]
    pub_a += [
        paper(f"2510.a{i:04d}", "t0 speculative decoding", recent + timedelta(days=i), title=a_title.format(100 + i))
        for i in range(5)
    ]
    pub_b = [
        paper(f"2503.b{i:04d}", f"t1 sparse attention noisy old {i}", old + timedelta(days=i), title=b_title.format(i))
        for i in range(20)
    ]
    pub_b += [
        paper(f"2510.b{i:04d}", "t1 sparse attention", recent + timedelta(days=i), title=b_title.format(100 + i))
        for i in range(10)
    ]
    public = pub_a + pub_b + background("2510", 85, recent, 80) + background("2504", 50, old, 90)
    public.append(paper("2511.x0001", "t0", recent, label="excluded"))  # excluded papers never count
    fut_day = date(2026, 2, 1)
    future = [
        paper(f"2602.a{i:04d}", "t0 speculative decoding", fut_day, title=f"Speculative decoding at scale for LLM agents {i}")
        for i in range(n_future_a)
    ]
    future += [
        paper(f"2602.b{i:04d}", "t1 sparse attention", fut_day, title=f"Sparse attention at scale for LLM agents {i}")
        for i in range(n_future_b)
    ]
    future += background("2603", n_future_other, fut_day, 100)
    future.append(paper("2603.x0001", "t0", fut_day, label="excluded"))
    sig_a = candidate(0, 0, [p.arxiv_id for p in pub_a], share_recent=0.05, growth=1.0)
    sig_b = candidate(1, 1, [p.arxiv_id for p in pub_b], share_recent=0.10, growth=1.0)
    t = task("direction", ["A", "B"])
    b = TaskBuild(
        task_id=t.task_id,
        signal_ids=[sig_a.signal_id, sig_b.signal_id],
        node_ids=sig_a.node_ids + sig_b.node_ids,
        option_signal_ids={"A": sig_a.signal_id, "B": sig_b.signal_id},
    )
    return t, b, [sig_a, sig_b], public, future


def test_momentum_is_normalised_by_window_volume():
    g = gold_of(*momentum_world())
    n = g.numbers
    assert n["n_future_total"] == 100 and n["n_recent_public"] == 100
    assert n["future_count:A"] == 10 and n["prior_count:A"] == 5
    assert n["momentum:A"] == pytest.approx(2.0) and n["momentum:B"] == pytest.approx(0.5)
    assert n["coverage_drift"] == pytest.approx(1.0)
    assert g.preferred_ranking == ["A", "B"]
    assert g.trajectory == "accelerating"
    assert TRAJECTORIES[int(n["trajectory:B"])] == "cooling"
    assert len(g.future_paper_ids) == 15 and "2603.x0001" not in g.future_paper_ids
    assert 0 < g.strength <= 1


def test_doubling_window_volume_halves_title_momentum_only_the_content_view_is_drift_corrected():
    g = gold_of(*momentum_world(n_future_other=185))
    n = g.numbers
    assert n["n_future_total"] == 200
    # the gold is the question's own measure: a share of ALL the window's new papers
    assert n["momentum:A"] == pytest.approx(1.0) and n["momentum:B"] == pytest.approx(0.25)
    assert n["abstract_momentum:A"] == pytest.approx(1.0)
    # the diagnostic content view divides by the coverage drift (15/200 of the window vs 15/100)
    assert n["embedding_momentum_raw:A"] == pytest.approx(1.0) and n["coverage_drift"] == pytest.approx(0.5)
    assert n["embedding_momentum:A"] == pytest.approx(2.0) and g.preferred_ranking == ["A", "B"]
    # A did not grow: such a task is never released (assets/families/momentum.py)
    from assets.families.momentum import momentum_problems

    assert any("did not grow" in p for p in momentum_problems(g))


def test_prior_from_signal_uses_share_recent_in_the_content_view():
    g = gold_of(*momentum_world(), prior_from="signal")
    assert g.numbers["prior_share:A"] == pytest.approx(0.05) and g.numbers["momentum:A"] == pytest.approx(2.0)
    assert g.numbers["embedding_momentum:A"] == pytest.approx(2.0)


def test_direction_slots_and_claims():
    g = gold_of(*momentum_world())
    slots = {s.slot: s.variants for s in g.slots}
    assert slots["primary_direction"][:2] == ["Option A text", "speculative decoding"]
    assert "Speculative decoding at scale for LLM agents 0" in slots["primary_direction"]
    assert future_variants(g) == [v for v in slots["primary_direction"] if v.startswith("Speculative decoding at")]
    # "accelerating" follows from choosing the top grower: not a slot of its own (a constant
    # answer would collect it); the label is still a claim of the gold
    assert g.trajectory == "accelerating" and "trajectory" not in slots
    assert any("speculative decoding is accelerating" in c.text for c in g.claims)
    assert "neighbour" not in slots  # B's momentum is far below A's
    types = {c.type for c in g.claims}
    assert {"historical", "future-realisation", "statistical"} <= types
    assert any("gained the largest volume-normalised share" in c.text and "speculative decoding" in c.text for c in g.claims)
    # counts, not smoothed shares: 5 of the 100 recent papers, 10 of the 100 window papers
    assert any("5 of 100 new papers in the domain (5.0%) named speculative decoding" in c.text for c in g.claims)
    assert any("10 of the 100 papers of the window (10.0%) named speculative decoding" in c.text for c in g.claims)
    # a reader recounts the gold from the listed window titles
    assert g.counted["A"] == [f"2602.a{i:04d} Speculative decoding at scale for LLM agents {i}" for i in range(10)]
    assert all(0 <= c.importance <= 1 for c in g.claims)


def test_thin_future_evidence_gives_zero_strength():
    g = gold_of(*momentum_world(n_future_a=1, n_future_b=1, n_future_other=98))
    assert g.strength == 0.0
    assert any("Insufficient future evidence" in c.text for c in g.claims)


def test_new_subdirection_detected_under_a_candidate():
    t, b, signals, public, future = momentum_world()
    # A's pre-cutoff papers sit in three child nodes (dims 0, 0+2, 0+3); 8 future A papers open dims 0+4
    sub2 = [paper(f"2504.s{i:04d}", f"t0 t2 noisy s2 {i}", date(2025, 4, 1)) for i in range(15)]
    sub3 = [paper(f"2504.u{i:04d}", f"t0 t3 noisy s3 {i}", date(2025, 4, 1)) for i in range(15)]
    public += sub2 + sub3
    signals[0] = signals[0].model_copy(update={"paper_ids": signals[0].paper_ids + [p.arxiv_id for p in sub2 + sub3]})
    sub1 = [p for p in public if p.arxiv_id in set(signals[0].paper_ids) - {p.arxiv_id for p in sub2 + sub3}]
    nodes = [
        TaxonomyNode(
            node_id=f"{DOMAIN}:methodologies:n0c{j}",
            domain=DOMAIN,
            dimension="methodologies",
            label=f"child {j}",
            description="",
            parent_id=signals[0].node_ids[0],
            level=2,
            created_slice="2025-Q2",
            created_by="depth",
            paper_ids=[p.arxiv_id for p in ps],
        )
        for j, ps in ((1, sub1), (2, sub2), (3, sub3))
    ]
    future += [
        paper(f"2605.n{i:04d}", f"t0 t0 t4 noisy new {i} spectral routing", date(2026, 5, 1), title=f"Spectral routing paper {i}")
        for i in range(8)
    ]
    g = gold_of(t, b, signals, public, future, nodes=nodes)
    assert g.numbers["new_subdirections:A"] >= 1
    assert g.numbers["new_subdirections:B"] == 0
    # recorded as a number; not a claim: the claim bank holds only what a validator recomputes
    assert not any(c.type == "taxonomy" for c in g.claims)


# bottleneck golds: tests/assets/families/test_bottleneck.py


def venue_world(with_future: bool = True):
    fams = ["ACL/EMNLP/NAACL", "ICLR/ICML/NeurIPS"]
    sigs = [
        Signal(
            signal_id=f"sig:venue:{i}",
            kind="venue_profile",
            domain=DOMAIN,
            cutoff=CUTOFF,
            title=f,
            summary="",
            stats={"n_papers": 10},
        )
        for i, f in enumerate(fams)
    ]
    t = task("venue", ["A", "B"], question='Project description: "We study t0 agents with a t7 planner." As of 2025-12-31, rank.')
    b = TaskBuild(
        task_id=t.task_id,
        signal_ids=[s.signal_id for s in sigs],
        node_ids=[],
        option_signal_ids={"A": sigs[0].signal_id, "B": sigs[1].signal_id},
    )
    public = background("2504", 40, date(2025, 4, 1), 90)
    future = (
        [
            paper(f"2602.v{i:04d}", f"t0 t7 noisy {i}", date(2026, 2, 1)).model_copy(update={"title": f"t0 t7 noisy {i}"})
            for i in range(4)
        ]
        if with_future
        else []
    )
    return t, b, sigs, public, future + background("2603", 60, date(2026, 3, 1), 60)


def test_venue_gold_ranks_families_by_scorer_on_future_neighbours():
    seen = []

    def scorer(texts):
        seen.append(texts)
        near = sum("t7" in x for x in texts) / len(texts)
        return {"ICLR/ICML/NeurIPS": 0.5 + near, "ACL/EMNLP/NAACL": 0.6}

    g = gold_of(*venue_world(), venue_scorer=scorer)
    assert g.preferred_ranking == ["B", "A"]
    assert g.numbers["venue_score:B"] > g.numbers["venue_score:A"]
    assert {f"2602.v{i:04d}" for i in range(4)} <= set(g.future_paper_ids)
    # no project paper with a venue outcome: the similarity proxy, labelled as such
    assert g.numbers["gold_kind_proxy"] == 1.0 and g.numbers["gold_kind_outcome"] == 0.0
    assert any(c.type == "venue" and c.text.startswith("PROXY: ICLR/ICML/NeurIPS fits the project best") for c in g.claims)
    assert g.slots[0].variants[0] == "ICLR/ICML/NeurIPS"
    assert sorted(seen[0]) == [f"t0 t7 noisy {i}" for i in range(4)]  # its window neighbours' titles


def test_venue_gold_falls_back_to_the_description_without_future_neighbours():
    seen = []
    t, b, sigs, public, _ = venue_world()
    g = gold_of(
        t,
        b,
        sigs,
        public,
        [],
        venue_scorer=lambda texts: seen.append(texts) or {"ACL/EMNLP/NAACL": 0.9, "ICLR/ICML/NeurIPS": 0.1},
    )
    assert seen == [["We study t0 agents with a t7 planner."]]
    assert g.preferred_ranking == ["A", "B"] and g.future_paper_ids == []


def test_venue_gold_has_no_confident_answer_for_an_off_topic_project():
    g = gold_of(
        *venue_world(),
        venue_scorer=lambda texts: {"ACL/EMNLP/NAACL": 0.9, "ICLR/ICML/NeurIPS": 0.1},
        venue_on_topic=lambda project: "t7 planner" not in project,
    )
    assert g.strength == 0 and g.preferred_ranking == []


def venue_outcome_world(title: str, published: date = date(2025, 11, 3)):
    """venue_world whose project is a public paper titled `title` (the build names it)."""
    t, b, sigs, public, future = venue_world()
    project = paper("2511.00042", "We study t0 agents with a t7 planner.", published, title=title)
    return t, b.model_copy(update={"project_paper_id": project.arxiv_id}), sigs, public + [project], future


ACL_FIRST = {"ACL/EMNLP/NAACL": 0.9, "ICLR/ICML/NeurIPS": 0.1}  # a proxy that prefers option A


def test_venue_gold_puts_the_real_outcome_first():
    # a real ICML 2026 paper (decisions ~April 2026, after the 2025-12-31 cutoff; an ICLR 2026 one was
    # a public OpenReview submission at the cutoff and is never released)
    title = "FastSESR: Fast Scene-level Explicit Surface Reconstruction"
    t, b, sigs, public, future = venue_outcome_world(title)
    g = gold_of(t, b, sigs, public, future, venue_scorer=lambda texts: ACL_FIRST, stability_resamples=3)
    assert g.preferred_ranking == ["B", "A"] and g.strength == 1.0
    n = g.numbers
    assert n["gold_kind_outcome"] == 1.0 and n["gold_kind_proxy"] == 0.0 and n["proxy_agrees"] == 0.0
    assert n["outcome_days_after_cutoff"] > 0 and n["stability_top1"] == 1.0
    first = g.claims[0]
    assert "ICML 2026 accepted-paper list" in first.text and "2511.00042" in first.text
    assert first.basis.check == "ranked_first" and first.basis.paper_ids == ["2511.00042"]
    assert "similarity proxy" in g.claims[1].text and "not by this project's outcome" in g.claims[1].text
    assert g.counted["B"][0].startswith(f"2511.00042 {title} -> accepted at ICML 2026")
    family = get_family("venue")
    assert family.evidence_problems(t, g.model_copy(update={"future_paper_ids": []})) == []
    assert family.validity_problems(t, g) == []


def test_venue_gold_ignores_outcomes_decided_before_the_cutoff_or_outside_the_options():
    # KDD 2026's first cycle was decided on 2025-11-23, before the cutoff: no outcome, the proxy
    kdd = "VaLUH: Fast Algorithms for the Configuration Model of Vertex-Labeled Undirected Hypergraphs"
    # a CVPR 2026 paper, but the task offers only ACL and ICLR
    cvpr = "3D Space as a Scratchpad for Editable Text-to-Image Generation"
    for title in (kdd, cvpr, "A title on no accepted-paper list"):
        g = gold_of(*venue_outcome_world(title), venue_scorer=lambda texts: ACL_FIRST)
        assert g.numbers["gold_kind_proxy"] == 1.0 and g.preferred_ranking == ["A", "B"], title


def test_a_proxy_gold_is_never_released():
    t, b, sigs, public, future = venue_world()
    proxy = gold_of(t, b, sigs, public, future, venue_scorer=lambda texts: {"ACL/EMNLP/NAACL": 0.61, "ICLR/ICML/NeurIPS": 0.6})
    assert proxy.numbers["proxy_gap"] == pytest.approx(0.01) and proxy.numbers["gold_kind_proxy"] == 1.0
    problems = get_family("venue").validity_problems(t, proxy)
    assert problems and "proxy gold" in problems[0]


def test_the_rest_of_an_outcome_ranking_follows_where_similar_papers_were_accepted():
    # three options; the project (a real ICLR 2026 paper) has 3 neighbours accepted at CVPR 2026 and 1 at ACL 2026
    fams = ["ACL/EMNLP/NAACL", "CVPR/ICCV/ECCV", "ICLR/ICML/NeurIPS"]
    sigs = [
        Signal(
            signal_id=f"sig:venue:{i}",
            kind="venue_profile",
            domain=DOMAIN,
            cutoff=CUTOFF,
            title=f,
            summary="",
            stats={"n_papers": 10},
        )
        for i, f in enumerate(fams)
    ]
    t = task("venue", ["A", "B", "C"], question='Project description: "We study t0 agents with a t7 planner." Rank.')
    b = TaskBuild(
        task_id=t.task_id,
        signal_ids=[s.signal_id for s in sigs],
        node_ids=[],
        project_paper_id="2511.00042",
        option_signal_ids={"A": sigs[0].signal_id, "B": sigs[1].signal_id, "C": sigs[2].signal_id},
    )
    similar = [
        paper(f"2510.0000{i}", f"t0 t7 noisy {i}", date(2025, 10, 1), title=title)
        for i, title in enumerate(
            [
                "3D Space as a Scratchpad for Editable Text-to-Image Generation",
                "3D-IDE: 3D Implicit Depth Emergent",
                "4D-RGPT: Toward Region-level 4D Understanding via Perceptual Distillation",
                "OctoTools: A Multi-Agent Framework with Extensible Tools for Complex Reasoning",
            ]
        )
    ]
    project = paper(
        "2511.00042",
        "We study t0 agents with a t7 planner.",
        date(2025, 11, 3),
        title="Provably Explaining Neural Additive Models",
    )
    public = background("2504", 40, date(2025, 4, 1), 90) + similar + [project]
    future = background("2603", 60, date(2026, 3, 1), 60)
    g = gold_of(
        t,
        b,
        sigs,
        public,
        future,
        venue_scorer=lambda texts: {"ACL/EMNLP/NAACL": 0.9, "CVPR/ICCV/ECCV": 0.1, "ICLR/ICML/NeurIPS": 0.5},
    )
    assert g.preferred_ranking == ["C", "B", "A"]  # the outcome, then CVPR (3 similar papers) before ACL (1)
    assert g.numbers["outcome_votes:B"] == 3 and g.numbers["outcome_votes:A"] == 1
    second = g.claims[1]
    assert second.basis.check == "ranked_second" and sorted(second.basis.paper_ids) == ["2510.00000", "2510.00001", "2510.00002"]
    assert "3 of the project's 4 most similar papers" in second.text


def test_gold_is_deterministic():
    a = gold_of(*momentum_world())
    b = gold_of(*momentum_world())
    assert a.model_dump() == b.model_dump()


# ----------------------------------------------------------------------------------------
# leakage
# ----------------------------------------------------------------------------------------


def leak_world():
    t, b, signals, public, future = momentum_world()
    g = gold_of(t, b, signals, public, future)
    fut_ids = {p.arxiv_id for p in future}
    fut_titles = [p.title for p in future]
    return t, g, fut_ids, fut_titles


def test_clean_task_passes_and_gold_never_in_task():
    t, g, ids, titles = leak_world()
    assert check_public_tasks([t], [g], ids, titles, cutoff=CUTOFF) == []
    assert not set(t.model_dump()) & GOLD_ONLY_KEYS
    assert not set(Task.model_fields) & GOLD_ONLY_KEYS


@pytest.mark.parametrize("leak", ["future_id", "future_title", "gold_claim", "future_variant", "date", "node_id", "ev_id"])
def test_leaks_are_caught_and_name_the_task(leak):
    t, g, ids, titles = leak_world()
    claim = next(c for c in g.claims if c.type == "future-realisation")
    if leak == "future_id":
        t = t.model_copy(update={"question": t.question + " See arXiv:2603.00007v2."})
    elif leak == "future_title":
        t = t.model_copy(
            update={"options": [TaskOption(option_id="A", text="Like 'speculative DECODING at scale for LLM agents 7' did")]}
        )
    elif leak == "gold_claim":
        t = t.model_copy(update={"instructions": "Note: " + claim.text})
    elif leak == "future_variant":
        g = g.model_copy(update={"slots": g.slots, "numbers": g.numbers})
        t = t.model_copy(update={"answer_requirements": [future_variants(g)[0] + " style"]})
        titles = []  # so only the gold-variant rule can catch it
    elif leak == "date":
        t = t.model_copy(update={"question": t.question + " (as of March 3, 2026)"})
    elif leak == "node_id":
        t = t.model_copy(update={"title": f"About {DOMAIN}:methodologies:n0"})
    else:
        t = t.model_copy(update={"support_evidence_ids": [f"ev:{DOMAIN}:methodologies:n0"]})
    messages = check_public_tasks([t], [g], ids, titles, cutoff=CUTOFF)
    assert messages and all(m.startswith(t.task_id) for m in messages)
    with pytest.raises(LeakageError, match=re.escape(t.task_id)):
        assert_clean([t], [g], ids, titles, cutoff=CUTOFF)


def test_window_bounds_are_the_only_allowed_future_dates():
    t, g, ids, titles = leak_world()
    ok = t.model_copy(update={"question": "Between 2026-01-01 and 2026-06-30, and before 2025-12-31."})
    assert check_public_tasks([ok], [g], ids, titles, cutoff=CUTOFF) == []
    bad = t.model_copy(update={"question": "Between 2026-01-01 and 2026-07-31."})
    assert any("2026-07-31" in m for m in check_public_tasks([bad], [g], ids, titles, cutoff=CUTOFF))


def test_dict_task_with_gold_key_is_flagged():
    t, g, ids, titles = leak_world()
    leaky = {**t.model_dump(mode="json"), "preferred_ranking": ["A"]}
    assert any("gold-only key 'preferred_ranking'" in m for m in check_public_tasks([leaky], [g], ids, titles, cutoff=CUTOFF))


# ----------------------------------------------------------------------------------------
# one run on a real sample: tasks + gold + leakage check, real embedder
# ----------------------------------------------------------------------------------------


def test_real_sample_end_to_end():
    from assets.tasks.logic import build_tasks
    from assets.toolbox.building import BuildSettings
    from core.papers import read_jsonl
    from core.records import EvidenceRecord, PaperEvidence
    from resources.embeddings import load_embedder

    papers, failures = read_jsonl(fixture_path("arxiv/samples/llm_agent.sample.jsonl"))
    assert not failures
    cutoff, window_end = date(2025, 6, 30), date(2025, 12, 31)
    screened = [ScreenedPaper(**p.model_dump(), domain=DOMAIN, relevance=0.1, label="core", reason="sample") for p in papers]
    public = [p for p in screened if p.published <= cutoff]
    future = [p for p in screened if cutoff < p.published <= window_end]
    signals, records = [], []
    APPLICATIONS = [
        "software engineering agents",
        "data science",
        "scientific discovery",
        "recommender systems",
        "gui agents",
        "social simulation",
        "embodied agents",
        "supply chain",
    ]
    for k, kw in enumerate(["tool", "benchmark", "reasoning", "code", "gui", "multi-agent", "memory", "web"]):
        ps = [p for p in public if kw in (p.title + " " + p.abstract).lower()]
        nid = f"{DOMAIN}:methodologies:{kw}"
        signals.append(
            Signal(
                signal_id=f"sig:{kw}",
                kind="candidate_direction",
                domain=DOMAIN,
                cutoff=cutoff,
                # names the lexicon places under one parent (agent applications): a direction task's
                # options are sub-directions of one parent (issue 32 sixth pass)
                title=APPLICATIONS[k],
                summary="",
                node_ids=[nid],
                evidence_ids=[f"ev:{nid}"],
                paper_ids=[p.arxiv_id for p in ps],
                stats={"growth": float(k % 4), "share_recent": 0.1},
                # an option needs a definition (a lexicon entry or a gloss): these keyword directions carry one
                details={"keywords": [kw], "representative_titles": [ps[-1].title], "gloss": [f"LLM agents built around {kw}."]},
            )
        )
        records.append(
            EvidenceRecord(
                record_id=f"ev:{nid}",
                node_id=nid,
                domain=DOMAIN,
                cutoff=cutoff,
                node_label=kw,
                representative_ids=[p.arxiv_id for p in ps[-3:]],
                supporting_ids=[p.arxiv_id for p in ps],
                papers=[
                    PaperEvidence(
                        arxiv_id=p.arxiv_id,
                        published=p.published,
                        problem=p.abstract.split(". ")[0] + ".",
                        method=p.abstract.split(". ")[1] + ".",
                    )
                    for p in ps
                ],
            )
        )
    tasks, builds, _ = build_tasks(
        signals,
        records,
        BuildSettings(domain=DOMAIN, domain_title="LLM Agents", cutoff=cutoff, window_end=window_end, horizon_months=6),
    )
    # no bottleneck, venue or approach signals given (no planning task: its options are approaches);
    # phase tasks come from the evidence records' inspirations
    assert {t.family for t in tasks} == {"direction", "phase"}
    golds = build_gold(tasks, builds, signals, [], public, future, load_embedder().encode, cutoff=cutoff, window_end=window_end)
    assert len(golds) == len(tasks)
    future_ids = {p.arxiv_id for p in future}
    for g in golds:
        assert set(g.future_paper_ids) <= future_ids
        assert sorted(g.preferred_ranking) == sorted(
            o.option_id for o in next(t for t in tasks if t.task_id == g.task_id).options
        )
        assert 0.0 <= g.strength <= 1.0
    assert (
        check_public_tasks(
            tasks, golds, future_ids, [p.title for p in future], cutoff=cutoff, internal_ids=[s.signal_id for s in signals]
        )
        == []
    )


def test_claim_bank_is_recomputed_and_a_false_or_contradicting_claim_is_caught():
    from assets.gold.claims import ClaimContext, verify_golds

    t, b, signals, public, future = momentum_world()
    g = gold_of(t, b, signals, public, future)
    cc = ClaimContext(public, future, signals, CUTOFF)
    assert g.claims and verify_golds([g], cc) == []
    assert g.numbers["claims_verified"] == len(g.claims)
    assert all(c.basis is not None for c in g.claims)
    wrong = g.model_copy(deep=True)
    share = next(c for c in wrong.claims if c.basis.check == "window_share")
    share.basis.paper_ids = share.basis.paper_ids[:-1]  # one paper fewer than the text says
    first = next(c for c in wrong.claims if c.basis.check == "ranked_first")
    wrong.claims.append(
        first.model_copy(
            update={
                "claim_id": "x-c99",
                "basis": first.basis.model_copy(update={"params": {"object": wrong.preferred_ranking[-1]}}),
            }
        )
    )
    problems = verify_golds([wrong], cc)
    assert any("papers counted" in p for p in problems)
    assert any("another claim says" in p for p in problems)
    assert wrong.numbers["claims_verified"] < len(wrong.claims)


def test_a_trajectory_that_is_a_judgement_of_its_own_is_a_slot():
    """When every option merely holds its share, the top one (B, momentum 1.07) is steady,
    which the choice does not imply: that label is scored."""
    g = gold_of(*momentum_world(n_future_a=4, n_future_b=10, n_future_other=86))
    slots = {s.slot: s.variants for s in g.slots}
    assert g.preferred_ranking[0] == "B" and g.trajectory == "steady"
    assert slots["trajectory"][0].endswith(" is steady")


def test_a_gold_its_family_already_refuses_is_not_resampled(monkeypatch):
    """Issue 33 item 3: cheap rules on the full window first; only survivors are resampled."""
    from assets.gold import logic

    calls: list[str] = []

    class Family:
        def gold(self, ctx, task, build, signals):
            calls.append(task.task_id)
            return GoldTarget(task_id=task.task_id, family="direction", domain="d", cutoff=task.cutoff, preferred_ranking=["A"])

        def evidence_problems(self, task, gold):
            return []

        def validity_problems(self, task, gold):
            return ["refused"] if task.task_id == "refused" else []

    class Ctx:
        def resampled(self, rng):
            return self

    monkeypatch.setattr(logic, "get_family", lambda name: Family())
    tasks = [SimpleNamespace(task_id=t, family="direction", cutoff=date(2025, 12, 31)) for t in ("kept", "refused")]
    golds = [
        GoldTarget(task_id=t.task_id, family="direction", domain="d", cutoff=t.cutoff, preferred_ranking=["A"], strength=1.0)
        for t in tasks
    ]
    logic.add_stability(golds, tasks, {"kept": None, "refused": None}, {}, Ctx(), 3, 0)
    assert calls == ["kept"] * 3
    assert golds[0].numbers["stability_top1"] == 1.0 and "stability_top1" not in golds[1].numbers


def test_a_findings_acceptance_is_named_as_one():
    """An ACL Findings outcome is never a silent main-conference acceptance: the claim names the
    track and the option's wording ("main conference or Findings")."""
    from assets.evidence.venues import load_venue_lists

    findings = next(v.title for v in load_venue_lists() if v.venue == "ACL" and v.year == 2026 and v.status == "findings")
    t, b, sigs, public, future = venue_outcome_world(findings)
    g = gold_of(t, b, sigs, public, future, venue_scorer=lambda texts: ACL_FIRST)
    assert g.numbers["gold_kind_outcome"] == 1.0 and g.numbers["gold_findings"] == 1.0
    assert "Findings track" in g.claims[0].text and "'main conference or Findings'" in g.claims[0].text
    # industry and demo tracks are not outcomes: the option offers main conference or Findings only
    assert all(v.status in ("main", "findings") for v in load_venue_lists() if v.venue == "ACL" and v.year == 2026)


def test_an_outcome_without_a_basis_at_the_cutoff_is_not_released():
    t, b, sigs, public, future = venue_outcome_world("FastSESR: Fast Scene-level Explicit Surface Reconstruction")  # ICML 2026
    family = get_family("venue")
    ok = b.model_copy(update={"curation": {"basis": "pass: ..."}})
    g = gold_of(t, ok, sigs, public, future, venue_scorer=lambda texts: ACL_FIRST)
    assert g.numbers["answer_basis"] == 1.0 and family.validity_problems(t, g) == []
    bad = b.model_copy(update={"curation": {"basis": "fail: ICLR/ICML/NeurIPS accepted no paper close ..."}})
    g = gold_of(t, bad, sigs, public, future, venue_scorer=lambda texts: ACL_FIRST)
    assert g.numbers["answer_basis"] == 0.0 and "no basis at the cutoff" in family.validity_problems(t, g)[0]


def test_an_outcome_that_was_a_public_submission_at_the_cutoff_is_not_released():
    """ICLR 2026 submissions were public on OpenReview from September 2025: at the 2025-12-31 cutoff
    a reader could look the project's venue up (issue 32's third-pass reading)."""
    t, b, sigs, public, future = venue_outcome_world("Provably Explaining Neural Additive Models")  # ICLR 2026
    ok = b.model_copy(update={"curation": {"basis": "pass: ..."}})
    g = gold_of(t, ok, sigs, public, future, venue_scorer=lambda texts: ACL_FIRST)
    assert g.numbers["open_submission"] == 1.0
    assert "public submission at the cutoff" in get_family("venue").validity_problems(t, g)[0]

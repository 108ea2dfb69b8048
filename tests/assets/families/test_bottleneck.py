"""Bottleneck-Opportunity Discovery: limitation candidates, subjects, the two-measure gold, audit flags."""

from __future__ import annotations

from datetime import date, timedelta

import pytest

import assets.families.bottleneck as B
import assets.families.bottleneck.gold as BG
from assets.audit import flags as F
from assets.evidence.bottlenecks import word_tokens
from assets.families.bottleneck import (
    bottleneck_problems,
    contribution_statements,
    is_background,
    linked_themes,
    same_term,
    states_key,
    subject_display,
)
from core.records import GoldTarget, Signal, TaskBuild
from tests.factories import CUTOFF, DOMAIN, GOLD_PHRASES, gold_of
from tests.factories import gold_background as background
from tests.factories import gold_candidate as candidate
from tests.factories import gold_embed as fake_embed
from tests.factories import gold_paper as paper
from tests.factories import gold_task as task


@pytest.fixture(autouse=True)
def fake_semantic(monkeypatch):
    """The semantic test reads the gold tests' token embedder (factories.gold_embed; no ONNX model in unit tests)."""
    monkeypatch.setattr(BG, "semantic_embedder", lambda: fake_embed)


def theme(sid: str, title: str, quote: str, key: str, mentions=(), near=()) -> Signal:
    return Signal(
        signal_id=sid,
        kind="bottleneck",
        domain=DOMAIN,
        cutoff=CUTOFF,
        title=title,
        summary=quote,
        node_ids=[f"{DOMAIN}:methodologies:n0"],
        paper_ids=["2505.q0001", "2505.q0002", "2505.q0003"],
        stats={"recurrence": 3.0},
        details={"quotes": [quote], "aliases": [key], "key": [key], "mention_ids": list(mentions), "near": list(near)},
    )


def world(n_x: int = 6, n_y: int = 2, x_statement: str = "We propose a memory cache that reduces long-horizon memory loss t5."):
    """A subject (dimension 0) whose window papers state they address limitation x (n_x papers)
    or y (n_y papers); background papers elsewhere. Statements embed with their limitation's
    quotes through the tokens t5 (x) and t6 (y) (`fake_embed`)."""
    old = date(2025, 5, 1)
    pub = [paper(f"2505.a{i:04d}", f"t0 t0 t0 t{5 + i % 2} noisy {i}", old + timedelta(days=i)) for i in range(20)]
    sig = candidate(0, 0, [p.arxiv_id for p in pub])
    bx = theme("sig:bn:x", "long-horizon memory loss", "Agents forget earlier steps t5.", "long-horizon memory loss")
    by = theme("sig:bn:y", "tool latency", "Tools are slow t6.", "tool latency")
    fut = [
        paper(f"2602.x{i:04d}", f"t0 t0 t0 t5. {x_statement}", date(2026, 2, 1), title=f"Memory cache {i} for {GOLD_PHRASES[0]}")
        for i in range(n_x)
    ]
    fut += [
        paper(
            f"2602.y{i:04d}",
            "t0 t0 t0 t6. We reduce tool latency t6 with caching.",
            date(2026, 2, 1),
            title=f"Fast tools {i} for {GOLD_PHRASES[0]}",
        )
        for i in range(n_y)
    ]
    fut += background("2603", 30, date(2026, 3, 1), 60)
    t = task("bottleneck", [], question='In LLM Agents research on "topic 0", identify one root bottleneck.')
    b = TaskBuild(task_id=t.task_id, signal_ids=[sig.signal_id, bx.signal_id, by.signal_id], node_ids=sig.node_ids)
    return t, b, [sig, bx, by], pub + background("2510", 40, date(2025, 10, 1), 80), fut


# ---------------------------------------------------------------------------- the gold


def test_gold_counts_papers_both_measures_agree_on_keyed_by_signal_id():
    g = gold_of(*world())
    assert g.preferred_ranking == ["long-horizon memory loss", "tool latency"]
    assert set(g.counted) == {"sig:bn:x", "sig:bn:y"}  # keyed by candidate id, never by label
    assert len(g.counted["sig:bn:x"]) == 6 and all("reduces long-horizon memory loss" in c for c in g.counted["sig:bn:x"])
    n = g.numbers
    assert n["addressed:0"] == 6 and n["lexical:0"] == 6 and n["semantic:0"] == 6
    assert n["addressed:1"] == 2 and n["margin_papers"] == 4 and n["margin"] == pytest.approx(4 / 6, abs=1e-4)
    assert n["measures_agree"] == 1.0 and bottleneck_problems(g) == []
    slots = {s.slot: s.variants for s in g.slots}
    # the theme's quote does not state the limitation (no key in it): it is no evidence for it
    # (blind reading seed 3738, `gold.root_quotes`)
    assert slots["root_bottleneck"] == ["long-horizon memory loss"]
    assert all(pid.startswith("2602.") for pid in g.future_paper_ids) and g.strength > 0


def test_same_labels_never_share_counted_papers():
    t, b, sigs, pub, fut = world()
    sigs[2] = sigs[2].model_copy(update={"title": "long-horizon memory loss"})  # two candidates, one label
    g = gold_of(t, b, sigs, pub, fut)
    assert len(g.counted["sig:bn:x"]) == 6 and len(g.counted["sig:bn:y"]) == 2
    assert [f.code for f in F.label_collision_flags(t, g)] == ["label_collision"]


def test_a_gold_decided_by_one_paper_is_not_released():
    g = gold_of(*world(n_x=4, n_y=3))
    assert g.numbers["margin_papers"] == 1 and g.strength > 0
    problems = bottleneck_problems(g)
    assert any("by 1 paper" in p for p in problems) and any("relative gold margin" in p for p in problems)
    t = world()[0]
    assert [f.code for f in B.margin_flags(t, g)] == ["small_gold_margin"]


def test_mentions_without_an_own_work_addressing_statement_do_not_count():
    g = gold_of(*world(x_statement="Long-horizon memory loss remains common in agents."))
    assert g.numbers["lexical:0"] == 0 and g.numbers["addressed:0"] == 0


def test_background_sentences_never_count():
    g = gold_of(*world(x_statement="Existing memory caches reduce long-horizon memory loss for LLMs."))
    assert g.numbers["addressed:0"] == 0
    assert is_background("RAG mitigates limitations of LLMs by introducing external knowledge.")
    assert is_background("Recent work has emerged to reduce hallucination, and we study it.")
    assert not is_background("To address this, we propose X, which reduces hallucination.")
    assert not is_background("Experiments show that X reduces latency by 30%.")


def test_semantic_test_rejects_a_lexical_hit_that_is_about_something_else(monkeypatch):
    # the statement names the key but embeds with limitation y's quotes (token t6), not x's
    monkeypatch.setattr(BG, "REQUIRE_SEMANTIC", True)
    g = gold_of(*world(x_statement="We reduce long-horizon memory loss t6 t6 t6 t6."))
    assert g.numbers["lexical:0"] == 6 and g.numbers["addressed:0"] == 0


def test_a_paper_that_does_not_name_the_subject_does_not_count():
    # blind reading seed 3637: a paper where the subject is a side element is no evidence for it
    t, b, sigs, pub, fut = world()
    fut = [p.model_copy(update={"title": "Memory cache"}) if p.arxiv_id.startswith("2602.x") else p for p in fut]
    g = gold_of(t, b, sigs, pub, fut)
    assert g.numbers["addressed:0"] == 0 and g.numbers["addressed:1"] == 2


def test_by_default_the_reduction_statement_alone_counts():
    # the semantic test is off (gold.REQUIRE_SEMANTIC): the reduction statement decides
    g = gold_of(*world(x_statement="We reduce long-horizon memory loss t6 t6 t6 t6."))
    assert g.numbers["lexical:0"] == 6 and g.numbers["addressed:0"] == 6


# ---------------------------------------------------------------------------- statements and terms


def test_statements_carry_the_gap_they_answer():
    abstract = (
        "Agents are widely used. However, agents suffer from error accumulation over long tasks. "
        "We propose X, a verifier that improves long-horizon success. To address this gap, we also "
        "release a benchmark."
    )
    sts = contribution_statements(abstract)
    assert [s.own[:12] for s in sts] == ["We propose X", "To address t"]
    assert sts[0].antecedent.startswith("However, agents suffer from error accumulation")
    assert sts[1].antecedent.startswith("We propose X")  # anaphoric: the sentence before
    assert states_key(sts[0].tokens, ("error", "accumulation"))


def test_key_terms_match_close_together_by_shared_prefix():
    toks = tuple(word_tokens("we reduce noise in the retrieved documents"))
    assert states_key(toks, ("noisy", "retrieval"))
    assert not states_key(
        tuple(word_tokens("noise is common; much later we discuss retrieval of documents in depth")), ("noisy", "retrieval")
    )
    assert same_term("hallucination", "hallucinated") and same_term("bias", "biased")
    assert not same_term("inefficiency", "efficiency") and not same_term("over", "overhead")
    assert not same_term("latent", "latency") and same_term("latency", "latencies")  # false friends (FALSE_FRIENDS)


# ---------------------------------------------------------------------------- subjects and candidates


def test_subjects_are_phrases_never_single_lowercase_words():
    assert subject_display("function calling", []) == "function calling"
    assert subject_display("GUI", ["GUI Agents for X", "Towards GUI agents", "GUI testing"]) == "GUI agents"
    assert (
        subject_display(
            "vision-language", ["Vision-Language Models are X", "Tuning vision-language models", "A vision-language benchmark"]
        )
        == "vision-language models"
    )
    assert subject_display("MCP", ["MCP-Bench", "On MCP servers", "MCP security"]) == "MCP"
    assert subject_display("safety", ["Safety alignment", "On safety", "Safety of agents"]) is None
    assert subject_display("case", ["A case study", "case study of"]) is None
    assert subject_display("multi-agent", ["multi-agent debate", "multi-agent systems", "a multi-agent view"]) is None


def test_linked_themes_skip_restating_near_and_same_named_themes():
    members = [f"2501.{i:05d}" for i in range(10)]
    cand = Signal(
        signal_id="sig:cand:0",
        kind="candidate_direction",
        domain=DOMAIN,
        cutoff=CUTOFF,
        title="web agents",
        summary="",
        node_ids=["n"],
        paper_ids=members,
        details={"member_ids": members, "defining_phrases": ["web agents"]},
    )
    themes = [
        theme("sig:bn:0", "factual hallucination", "q", "factual hallucination", members[:5]),
        theme("sig:bn:6", "bias", "q", "bias", members[:8]),  # one word: a label, never a candidate
        theme("sig:bn:1", "high latency", "q", "latency", members[:4], near=["sig:bn:2"]),
        theme("sig:bn:2", "high computational costs", "q", "computational cost", members[:3]),
        theme("sig:bn:3", "web agents", "q", "web agent", members[:9]),  # restates the subject
        theme("sig:bn:4", "Factual hallucination", "q", "factual hallucinations", members[:6]),  # same name, more mentions
        theme("sig:bn:5", "prompt injection", "q", "prompt injection", members[:1]),
    ]  # mentioned once
    got = [t.signal_id for t in linked_themes(cand, themes, {"llm", "agent"})]
    assert got == ["sig:bn:4", "sig:bn:1"]


# ---------------------------------------------------------------------------- audit flags


def test_background_evidence_flag_reads_the_counted_sentence():
    g = GoldTarget(
        task_id="t",
        family="bottleneck",
        domain=DOMAIN,
        cutoff=CUTOFF,
        strength=0.5,
        preferred_ranking=["a"],
        counted={
            "sig:bn:a": [
                '2601.1: "RAG mitigates limitations of LLMs by introducing external knowledge."',
                '2601.2: "We propose X, which reduces hallucination."',
            ]
        },
    )
    [flag] = B.background_flags(g)
    assert flag.code == "background_evidence" and "2601.1" in flag.detail and "2601.2" not in flag.detail


# ---------------------------------------------------------------------------- building


def test_build_states_subjects_as_phrases_and_skips_single_words_and_limitations():
    from assets.toolbox.building import TaskBuilder
    from core.records import EvidenceRecord, PaperEvidence, ScreenedPaper
    from tests.factories import task_settings

    def cand(k: int, name: str) -> Signal:
        pids = [f"2501.{k:02d}{i:03d}" for i in range(12)]
        return Signal(
            signal_id=f"sig:cand:{k}",
            kind="candidate_direction",
            domain=DOMAIN,
            cutoff=CUTOFF,
            title=name,
            summary="",
            node_ids=[f"{DOMAIN}:tasks:n{k}"],
            paper_ids=pids,
            stats={"n_papers": 12, "share_prior": 0.05},
            details={"member_ids": pids},
        )

    names = {0: "GUI", 1: "safety", 2: "forgetting"}
    cands = [cand(k, n) for k, n in names.items()]
    title_of = {0: "GUI agents for task {i}", 1: "On safety case {i}", 2: "Catastrophic forgetting in run {i}"}
    papers = [
        ScreenedPaper(
            arxiv_id=p,
            title=title_of[k].format(i=i),
            abstract="a",
            published=date(2025, 1, 1),
            domain=DOMAIN,
            relevance=0.1,
            label="core",
            reason="t",
        )
        for k, c in enumerate(cands)
        for i, p in enumerate(c.paper_ids)
    ]
    everyone = [p.arxiv_id for p in papers]
    themes = [
        theme(f"sig:bn:{j}", name, f"q {name}", key, mentions=everyone)
        for j, (name, key) in enumerate(
            [
                ("hallucination", "hallucination"),
                ("high latency", "latency"),
                ("lack of annotated data", "annotated data"),
                ("catastrophic forgetting", "catastrophic forgetting"),
            ]
        )
    ]
    records = [
        EvidenceRecord(
            record_id=f"ev:{c.node_ids[0]}",
            node_id=c.node_ids[0],
            domain=DOMAIN,
            cutoff=CUTOFF,
            node_label="n",
            representative_ids=c.paper_ids[:5],
            supporting_ids=c.paper_ids,
            papers=[PaperEvidence(arxiv_id=p, published=date(2025, 1, 1), limitation="x is slow.") for p in c.paper_ids],
        )
        for c in cands
    ]
    builder = TaskBuilder(cands + themes, records, task_settings(), None, [])
    builder.papers = papers
    B.BottleneckFamily().build(builder)
    assert [t.question.split(",")[0] for t in builder.tasks] == [
        'A team working on "GUI agents" in LLM Agents research must choose'
    ]
    [build] = builder.builds
    assert set(build.signal_ids) == {"sig:cand:0", "sig:bn:1", "sig:bn:2", "sig:bn:3"}  # "hallucination": one word


def test_fta_hedging_counts_the_bottleneck_pick_not_its_opportunity():
    """The stated gold of a bottleneck task is not divided when its opportunity text (a window
    paper's words) names another candidate limitation; naming two limitations as the root
    bottleneck is still a hedge."""
    import assets.families  # noqa: F401  (registers the families)
    from assets.scorers.fta import candidates_named, hedge_texts
    from core.records import GoldTarget
    from tests.factories import make_task

    task = make_task("bot1", "bottleneck", "What is the root bottleneck?")
    gold = GoldTarget(
        task_id="bot1",
        family="bottleneck",
        domain="llm_agent",
        cutoff=task.cutoff,
        preferred_ranking=["reward overoptimization", "reward hacking"],
    )
    stated = ["reward overoptimization", "detectors of reward hacking"]
    assert candidates_named(task, gold, stated) == 2  # read over every decision text, the gold hedges
    assert candidates_named(task, gold, hedge_texts(task, stated)) == 1
    assert candidates_named(task, gold, hedge_texts(task, ["reward overoptimization or reward hacking"])) == 2
    direction = make_task("dir1", "direction", "Which direction?", ["a", "b"])
    assert hedge_texts(direction, ["a", "b"]) == ["a", "b"]  # other families: every decision text


def test_a_plural_title_names_its_subject():
    import types

    from assets.families.bottleneck.subject import central

    p = types.SimpleNamespace(title="Interactive World Models for Games", abstract="We build a simulator.")
    assert central(p, frozenset({"world model"}), "world model")
    t2i = types.SimpleNamespace(title="Safe Text-to-Image Diffusion Models", abstract="")
    assert central(t2i, frozenset({"texttoimage diffusion model"}), "text-to-image diffusion models")
    q = types.SimpleNamespace(title="SAGA: Scene-Aware Agents", abstract="We plan with an LLM.")
    assert not central(q, frozenset({"reinforcement learning"}), "reinforcement learning")

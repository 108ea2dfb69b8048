"""The agentic methods (CoI-, ResearchAgent-, ARIS-style), the backbone registry, traces,
seeds, concurrency and free reruns — all through litellm mock_response."""

import json
from datetime import date

import pytest

from assets.agents import aris as aris_mod
from assets.agents.aris import aris, build_packet, contract_violations
from assets.agents.backbones import BackboneEntry, BackboneRefused, BackboneRegistry
from assets.agents.coi import build_chain, coi
from assets.agents.research_agent import research_agent
from assets.agents.runner import run_method
from assets.families.direction import DirectionAnswer
from assets.families.registry import get_family
from assets.knowledge_base.logic import Hit
from tests.factories import AGENT_CUTOFF as CUTOFF
from tests.factories import FAKE_ID, TEST_REGISTRY, RecordingClient, agent_ctx, make_task, sample_tasks
from tests.factories import MOCK_BACKBONE as MODEL

# -- CoI: chains of ideas along time and relatedness ----------------------------------------


class WordKB:
    """A tiny KB whose similarity is word-set overlap (Jaccard), to hand-compute chains."""

    def __init__(self, papers, cutoff):
        self.cutoff = cutoff
        self.papers = [p for p in papers if p[1] <= cutoff]

    def search(self, query, k=10, mode="hybrid"):
        q = set(query.lower().replace(".", " ").split())
        scored = [(len(q & set(t.split())) / len(q | set(t.split())), pid, d, t) for pid, d, t in self.papers]
        scored.sort(key=lambda x: (-x[0], x[1]))
        return [Hit(arxiv_id=pid, title=t, published=d, snippet=t, score=s) for s, pid, d, t in scored[:k]]


CHAIN_PAPERS = [
    ("A", date(2024, 1, 1), "alpha beta"),
    ("B", date(2024, 3, 1), "beta gamma"),
    ("C", date(2024, 6, 1), "gamma delta"),
    ("D", date(2024, 9, 1), "delta epsilon"),
    ("E", date(2025, 1, 1), "epsilon zeta"),
    ("N", date(2024, 5, 1), "unrelated omega"),
    ("F", date(2025, 9, 1), "zeta eta"),
]  # F is after the cutoff


def test_coi_chain_follows_relatedness_through_time_and_stops_at_the_cutoff():
    kb = WordKB(CHAIN_PAPERS, date(2025, 6, 30))
    anchor = kb.search("gamma delta", k=1)[0]
    chain = build_chain(kb, anchor, length=5, min_score=0.0)
    assert [h.arxiv_id for h in chain] == ["A", "B", "C", "D", "E"]  # backward B, A; forward D, E
    assert all(a.published < b.published for a, b in zip(chain, chain[1:]))
    # the forward end E has no related later paper before the cutoff (F is hidden): the
    # chain stops growing there instead of reaching into the future
    longer = build_chain(kb, anchor, length=7, min_score=0.0)
    assert "F" not in [h.arxiv_id for h in longer]
    assert [h.arxiv_id for h in longer] == ["A", "B", "C", "D", "E"]  # the unrelated N never joins
    # B taken by another chain: A and N share no word with C, so the chain only grows forward
    assert [h.arxiv_id for h in build_chain(kb, anchor, length=3, exclude={"B"}, min_score=0.0)] == ["C", "D", "E"]


def test_coi_builds_one_chain_per_candidate_and_analyses_each(sample_kb, tmp_path):
    client = RecordingClient(tmp_path)
    task = sample_tasks()[0]  # direction, 4 options
    answer = coi(agent_ctx(task, sample_kb, client, seed=2))
    chains = json.loads(answer.artifacts["chains"])
    analyses = json.loads(answer.artifacts["chain_analyses"])
    assert [c["label"] for c in chains] == ["o0", "o1", "o2", "o3"] and len(analyses) == 4
    assert client.purposes == ["agent:coi:chain"] * 4 + ["agent:coi:direction"]  # multi-chain, then one final
    seen = set()
    for c in chains:
        dates = [date.fromisoformat(p["published"]) for p in c["papers"]]
        assert 2 <= len(dates) <= 5 and dates == sorted(dates) and max(dates) <= CUTOFF
        ids = {p["arxiv_id"] for p in c["papers"]}
        assert not ids & seen  # chains are distinct
        seen |= ids
    final_prompt = client.seen[-1][-1]["content"]
    assert "Chain 4 (o3)" in final_prompt and "next step: self-correction" in final_prompt
    assert set(answer.evidence_ids) <= seen and FAKE_ID not in answer.evidence_ids
    assert answer.method == "coi" and answer.seed == 2 and answer.has_support_artifact


# -- ResearchAgent: problem -> method -> experiment with reviewer feedback --------------------


def test_research_agent_refines_a_rejected_draft_with_the_reviewer_feedback(sample_kb, sample_table, embed, tmp_path):
    visible = sorted(sample_kb.dates())[:2]
    task = sample_tasks()[2].model_copy(update={"support_paper_ids": visible + ["2607.00001"]})  # bottleneck
    client = RecordingClient(tmp_path, review_overall=2)  # every review rejects -> one refinement each
    answer = research_agent(agent_ctx(task, sample_kb, client))
    steps = [p.split(":")[-1] for p in client.purposes]
    assert steps == [
        "problem_draft",
        "problem_review",
        "problem_refine",
        "method_draft",
        "method_review",
        "method_refine",
        "experiment_draft",
        "experiment_review",
        "experiment_refine",
        "bottleneck",
    ]
    stages = json.loads(answer.artifacts["stages"])
    assert [s["stage"] for s in stages] == ["problem", "method", "experiment"]
    assert all(len(s["reviews"]) == 1 and len(s["refinements"]) == 1 for s in stages)
    refine_prompt = client.seen[2][-1]["content"]
    assert "Reviewer feedback to address:\n- Name the candidate explicitly." in refine_prompt
    # family-aware: the bottleneck method stage asks for the ROOT bottleneck
    assert "ROOT bottleneck" in client.seen[3][-1]["content"]
    packet = json.loads(answer.artifacts["support_packet"])
    assert packet[:2] == visible and "2607.00001" not in packet  # support packet via the cutoff-bound view

    accepting = RecordingClient(tmp_path / "b", review_overall=5)
    research_agent(agent_ctx(sample_tasks()[1], sample_kb, accepting))  # planning: accepted drafts are not refined
    assert [p.split(":")[-1] for p in accepting.purposes] == [
        "problem_draft",
        "problem_review",
        "method_draft",
        "method_review",
        "experiment_draft",
        "experiment_review",
        "planning",
    ]
    assert "priority order over ALL candidates" in accepting.seen[2][-1]["content"]
    assert all(len(get_family(f).review_stages) == 3 for f in ("direction", "bottleneck", "planning", "venue"))


# -- ARIS: family-specific evidence, contract-aware rendering ---------------------------------


def test_aris_builds_family_packets_and_repairs_contract_violations(sample_kb, tmp_path):
    direction, planning, bottleneck, venue = sample_tasks()
    packet = build_packet(direction, sample_kb)
    assert list(packet["sections"]) == [f"o{i}: {o.text}" for i, o in enumerate(direction.options)]
    assert all(lines[0].startswith("trend: ") and "volume-normalised ratio" in lines[0] for lines in packet["sections"].values())
    assert all(h.published <= CUTOFF for h in packet["hits"])
    assert set(build_packet(bottleneck, sample_kb)["sections"]) == {
        "stated limitations",
        "most recurrent limitation",
        "rising in the latest papers",
    }
    assert all(lines[0].startswith("mean similarity") for lines in build_packet(venue, sample_kb)["sections"].values())

    client = RecordingClient(tmp_path, break_contract=True)
    answer = aris(agent_ctx(direction, sample_kb, client))
    assert client.purposes == ["agent:aris:evidence", "agent:aris:direction", "agent:aris:repair"]
    violations = json.loads(answer.artifacts["contract_violations"])
    assert any("not candidates: ['o_unknown']" in v for v in violations)
    assert any("misses candidates" in v for v in violations)
    assert any(FAKE_ID in v for v in violations)
    assert "Answer contract:" in client.seen[1][-1]["content"] and "breaks the contract" in client.seen[2][-1]["content"]
    assert answer.ranking == ["o3", "o2", "o1", "o0"] and answer.choice == "o3"  # the repaired answer
    assert json.loads(answer.artifacts["draft"])["ranking"][0] == "o_unknown"  # the draft is kept for audit

    clean = RecordingClient(tmp_path / "c", fabricate=False)
    aris(agent_ctx(planning, sample_kb, clean))
    assert clean.purposes == ["agent:aris:evidence", "agent:aris:planning"]  # no violation, no repair


def test_contract_violations_on_hand_built_answers():
    task = make_task("c1", "direction", "Which?", ["a", "b", "c"])
    ok = DirectionAnswer(choice="o1", trajectory="steady", ranking=["o1", "o0", "o2"], claims=["x"], cited_ids=["p1"])
    assert contract_violations(task, ok, {"p1"}) == []
    bad = DirectionAnswer(choice="o9", trajectory="steady", ranking=["o1", "o1", "o5"], claims=[], cited_ids=["p2"])
    got = contract_violations(task, bad, {"p1"})
    assert got == [
        "ranking has ids that are not candidates: ['o5']",
        "ranking misses candidates: ['o0', 'o2']",
        "ranking repeats ids",
        "choice 'o9' is not one of ['o0', 'o1', 'o2']",
        "choice is not ranked first",
        "cited ids not in the evidence packet: ['p2']",
        "no claims",
    ]
    assert aris_mod.METHOD == "aris"


# -- backbone registry ---------------------------------------------------------------------------


def test_backbone_registry_dates_and_matching():
    reg = BackboneRegistry.load()
    for name in ("gpt-5.2", "openai/gpt-5.2", "openrouter/qwen/qwen3-235b-a22b", "z-ai/glm-4.6", "gemini/gemini-3"):
        assert reg.lookup(name) is not None, name
    # the four ForeSci backbones, dated as in the paper (§4.2)
    assert reg.lookup("qwen3-235b").effective_date == date(2025, 4, 29)
    assert reg.lookup("gpt-5.2").effective_date == date(2025, 8, 31)
    assert reg.lookup("glm-4.6").effective_date == date(2025, 9, 30)
    assert reg.lookup("gemini-3").effective_date == date(2025, 1, 31)
    assert reg.check("openai/gpt-5.2", date(2025, 6, 30)).postdates_cutoff
    assert not reg.check("openai/gpt-5.2", date(2025, 12, 31)).postdates_cutoff
    assert not reg.check("openai/gpt-5.2", date(2025, 8, 31)).postdates_cutoff  # same day: allowed
    unknown = reg.check("openai/some-new-model", date(2030, 1, 1))
    assert not unknown.known and unknown.postdates_cutoff and "not in the backbone registry" in unknown.reason
    assert not reg.check("offline", date(2000, 1, 1)).postdates_cutoff
    with pytest.raises(BackboneRefused):
        reg.enforce("gpt-5.2", date(2025, 6, 30))
    assert reg.enforce("gpt-5.2", date(2025, 6, 30), allow_post_cutoff=True) is True
    over = reg.with_entries(BackboneEntry(model="gpt-5.2", knowledge_cutoff=date(2025, 1, 1)))
    assert not over.check("gpt-5.2", date(2025, 6, 30)).postdates_cutoff  # user entries override


def test_runner_refuses_post_cutoff_backbones_unless_allowed_and_marks_them(sample_kb, tmp_path):
    client = RecordingClient(tmp_path, model="openai/gpt-5.2")  # knowledge cutoff 2025-08-31 > CUTOFF
    answers, failures = run_method("hybrid_rag", sample_tasks(), sample_kb, llm_client=client)
    assert answers == [] and len(failures) == 4
    assert all("BackboneRefused" in f.reason and "postdates the task cutoff" in f.reason for f in failures)
    assert client.usage.calls == 0  # refused before any model call
    answers, failures = run_method("hybrid_rag", sample_tasks(), sample_kb, llm_client=client, allow_post_cutoff_backbones=True)
    assert failures == [] and len(answers) == 4
    assert all(a.backbone_postdates_cutoff and a.backbone == "openai/gpt-5.2" for a in answers)
    # a pre-cutoff backbone is not marked; offline methods have no backbone to check
    ok, _ = run_method(
        "native_llm", sample_tasks()[:1], sample_kb, llm_client=RecordingClient(tmp_path / "m"), registry=TEST_REGISTRY
    )
    assert ok and not ok[0].backbone_postdates_cutoff
    off, _ = run_method("retrieval", sample_tasks()[:1], sample_kb)
    assert off and not off[0].backbone_postdates_cutoff


# -- trace, seeds, concurrency, free reruns ------------------------------------------------------


def test_every_answer_carries_its_trace_and_seeds_repeat(sample_kb, tmp_path):
    client = RecordingClient(tmp_path)
    runs = {
        seed: run_method(
            "aris", sample_tasks(), sample_kb, llm_client=client, seed=seed, registry=TEST_REGISTRY, max_concurrency=3
        )
        for seed in (0, 1)
    }
    ids = set()
    for seed, (answers, failures) in runs.items():
        assert failures == [] and [a.task_id for a in answers] == ["bot1", "dir1", "plan1", "ven1"]
        for a in answers:
            assert a.answer_id == f"{a.task_id}::aris::{MODEL}::{seed}" and a.seed == seed
            trace = json.loads(a.artifacts["kb_trace"])
            assert trace and all(c["op"] in ("search", "get") for c in trace)
            traced_ids = {i for c in trace for i in c["ids"]}
            assert set(a.evidence_ids) <= traced_ids  # cited evidence was really retrieved
            assert set(a.retrieval_queries) <= {c.get("query") for c in trace}
            run = json.loads(a.artifacts["run"])
            assert run["seed"] == seed and run["backbone"] == MODEL and run["kb_calls"] == len(trace)
            assert sum(run["llm"]["requests"].values()) == 3 or sum(run["llm"]["requests"].values()) == 2
            assert a.prompt_tokens > 0 and a.completion_tokens > 0 and a.latency_s > 0
            ids.add(a.answer_id)
    assert len(ids) == 8
    # per-task tokens add up to the client's total, even though tasks ran concurrently
    total = sum(a.prompt_tokens for answers, _ in runs.values() for a in answers)
    assert total == client.usage.prompt_tokens


def test_rerun_with_the_same_cache_makes_no_model_calls(sample_kb, tmp_path):
    first = RecordingClient(tmp_path)
    a1, _ = run_method("research_agent", sample_tasks(), sample_kb, llm_client=first, registry=TEST_REGISTRY, max_concurrency=2)
    assert first.usage.calls > 0 and first.usage.cache_hits == 0
    second = RecordingClient(tmp_path)  # a fresh process would build exactly this: same model, same cache dir
    a2, _ = run_method("research_agent", sample_tasks(), sample_kb, llm_client=second, registry=TEST_REGISTRY, max_concurrency=2)
    assert second.usage.calls == 0 and second.usage.cache_hits == first.usage.calls
    strip = {"latency_s", "artifacts", "prompt_tokens", "completion_tokens", "cost_usd"}
    assert [a.model_dump(exclude=strip) for a in a2] == [a.model_dump(exclude=strip) for a in a1]
    assert all(a.prompt_tokens == 0 for a in a2)  # cached replies cost nothing


def test_agent_asset_is_in_the_llm_pool_and_refuses_post_cutoff_backbones_by_default():
    from assets.agents.definitions import AgentRunConfig, agent_answers

    assert agent_answers.op.pool == "llm"
    config = AgentRunConfig()
    assert config.allow_post_cutoff_backbones is False and config.max_concurrency >= 1 and config.seeds == 1
    assert config.external_agents == []

"""Research agents (assets/agents): offline forecasters, LLM methods via litellm mock, runner."""

import os

os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")

import dataclasses
import inspect
import json
import re
from datetime import date

import lancedb
import pytest

from assets.agents import baselines, llm_methods, runner
from assets.agents.backbones import BackboneEntry, BackboneRegistry
from assets.agents.baselines import (
    momentum_forecaster,
    momentum_stats,
    retrieval_forecaster,
    root_bottleneck,
    trajectory_from_ratio,
)
from assets.agents.context import AgentContext
from assets.agents.llm_methods import hybrid_rag, native_llm
from assets.agents.registry import UnknownAgentError, agent_names, all_agents
from assets.agents.render import render_answer
from assets.agents.runner import available_methods, run_method
from assets.families.answers import task_subject
from assets.families.direction import DirectionAnswer
from assets.knowledge_base.logic import Hit, KnowledgeBaseView, build_kb
from core.records import Answer, ScreenedPaper
from resources.llm import LLMClient
from tests.factories import AGENT_CUTOFF as CUTOFF
from tests.factories import SUBDIRS, agent_ctx, make_task, sample_tasks
from tests.factories import VENUE_OPTIONS as VENUES

# -- momentum: synthetic knowledge base where the answer is certain -----------------------

RISING = "speculative tool orchestration graphs for LLM agents"
FADING = "symbolic chess rule induction agents"


def _synthetic_papers(sample_papers):
    """Filler = the real sample re-dated uniformly over 2024-07..2025-06; RISING papers all in
    the last 3 months before the cutoff, FADING papers all 4-9 months before it."""
    out = []
    for i, p in enumerate(sample_papers):
        month = 7 + i % 12
        day = date(2024 + (month - 1) // 12, (month - 1) % 12 + 1, 10)
        out.append(p.model_copy(update={"arxiv_id": f"fill.{i:04d}", "published": day}))
    for i in range(12):
        out.append(
            ScreenedPaper(
                arxiv_id=f"rise.{i:04d}",
                title=f"Speculative tool orchestration graphs for LLM agents, part {i}",
                abstract=f"We study speculative tool orchestration graphs that let LLM agents schedule tool calls; variant {i}.",
                published=date(2025, 4 + i % 3, 5 + i),
                domain="llm_agent",
                relevance=0.1,
                label="core",
                reason="synthetic",
            )
        )
        out.append(
            ScreenedPaper(
                arxiv_id=f"fade.{i:04d}",
                title=f"Symbolic chess rule induction agents, part {i}",
                abstract=f"Symbolic chess rule induction agents learn board-game rules from play; variant {i}.",
                published=date(2024, 10 + i % 3, 5 + i),
                domain="llm_agent",
                relevance=0.1,
                label="core",
                reason="synthetic",
            )
        )
    return out


@pytest.fixture(scope="module")
def synthetic_kb(tmp_path_factory, sample_papers, embed):
    db = lancedb.connect(tmp_path_factory.mktemp("kb_syn"))
    table, _ = build_kb(db, "kb_syn", _synthetic_papers(sample_papers), embed)
    return KnowledgeBaseView(table, CUTOFF, embed)


def test_momentum_ranks_recently_rising_option_above_old_one(synthetic_kb):
    task = make_task(
        "syn1", "direction", "Which will gain the most momentum?", [FADING, "memory and reflection for agents", RISING]
    )
    answer = momentum_forecaster(agent_ctx(task, synthetic_kb, k=20))
    assert answer.method == "momentum" and answer.family == "direction"
    assert answer.choice == "o2" and answer.ranking[0] == "o2" and answer.ranking[-1] == "o0"
    assert sorted(answer.ranking) == ["o0", "o1", "o2"]
    assert answer.trajectory == "accelerating"
    assert f"'{RISING}' will gain the most momentum" in " ".join(answer.claims)
    assert any(e.startswith("rise.") for e in answer.evidence_ids)
    assert answer.answer_id == "syn1::momentum::offline::0"
    # planning uses the same trend: the rising option is prioritised
    plan = momentum_forecaster(agent_ctx(task.model_copy(update={"family": "planning", "task_id": "syn2"}), synthetic_kb, k=20))
    assert plan.ranking[0] == "o2" and plan.choice is None and plan.trajectory is None


def test_momentum_stats_are_normalised_by_monthly_volume():
    cutoff = date(2025, 12, 31)
    recent = [date(2025, 10, 3), date(2025, 11, 3), date(2025, 12, 3), date(2025, 12, 4)]
    prior = [date(2025, 5, 3), date(2025, 7, 3), date(2025, 8, 3), date(2025, 9, 3)]
    flat = {f"2025-{m:02d}": 100 for m in range(4, 13)}
    stats = momentum_stats(recent + prior, flat, cutoff)
    assert (stats["recent_hits"], stats["prior_hits"]) == (4, 4)
    assert stats["ratio"] == pytest.approx(2.0)  # same count in half the volume
    doubled = {**flat, "2025-10": 200, "2025-11": 200, "2025-12": 200}
    assert momentum_stats(recent + prior, doubled, cutoff)["ratio"] == pytest.approx(1.0)
    assert momentum_stats(recent + [date(2026, 1, 2)] * 50, flat, cutoff)["recent_hits"] == 4  # after cutoff ignored
    assert momentum_stats(recent, {}, cutoff)["ratio"] == 1.0  # no volume: no evidence of change
    assert [trajectory_from_ratio(r) for r in (1.25, 1.1, 0.8, 0.5)] == ["accelerating", "steady", "cooling", "cooling"]


def test_root_bottleneck_is_the_most_recurrent_limitation():
    def hit(i, text):
        return Hit(arxiv_id=f"b{i}", title=f"paper {i}", published=date(2025, 1, 1 + i), snippet=text, score=1.0)

    recurring = "However, long-context memory retrieval remains costly for web agents."
    hits = [hit(i, f"Web agents browse sites. {recurring} We fix it with method {i}.") for i in range(5)]
    hits.append(hit(8, "Web agents browse. However, reward sparsity is a challenge. We propose X."))
    hits.append(hit(9, "We propose a new web agent that overcomes limited benchmarks."))  # a proposal, not a limitation
    root = root_bottleneck("web agents", hits, {})
    assert root["support"] == 5 and set(root["paper_ids"]) == {f"b{i}" for i in range(5)}
    assert {"memory", "retrieval", "long-context"} & set(root["terms"])
    assert "web" not in root["terms"] and "agent" not in root["terms"]


# -- every offline answer obeys the contract ---------------------------------------------------


@pytest.mark.parametrize("method", ["momentum", "retrieval"])
def test_offline_answers_cite_only_visible_kb_papers_and_rank_all_options(method, sample_kb, embed):
    visible = sample_kb.dates()
    assert visible and max(visible.values()) <= CUTOFF
    answers, failures = run_method(method, sample_tasks(), sample_kb, embed=embed)
    assert failures == []
    assert [a.task_id for a in answers] == ["bot1", "dir1", "plan1", "ven1"]
    tasks = {t.task_id: t for t in sample_tasks()}
    for a in answers:
        task = tasks[a.task_id]
        assert a.answer_id == f"{a.task_id}::{method}::offline::0" and a.method == method
        assert a.evidence_ids and all(e in visible and visible[e] <= CUTOFF for e in a.evidence_ids)
        assert a.has_support_artifact and a.retrieval_queries and a.claims and a.text.startswith("## ")
        assert sorted(a.ranking) == sorted(o.option_id for o in task.options)
        assert a.latency_s > 0 and a.error is None
    by_id = {a.task_id: a for a in answers}
    direction = by_id["dir1"]
    assert direction.choice == direction.ranking[0] and direction.trajectory in ("accelerating", "steady", "cooling")
    assert by_id["bot1"].ranking == [] and any(
        c.startswith("The root bottleneck in GUI and web navigation agents is") for c in by_id["bot1"].claims
    )
    # deterministic: the same inputs give the same answers (latency aside)
    again, _ = run_method(method, sample_tasks(), sample_kb, embed=embed)
    assert [a.model_dump(exclude={"latency_s"}) for a in again] == [a.model_dump(exclude={"latency_s"}) for a in answers]


def test_agents_have_no_gold_or_future_parameters():
    """Every registered agent has the one signature run(ctx), and nothing in the context
    (or the runner's parameters) is a channel for gold or the future."""
    leaky = re.compile(r"gold|future|target|hidden|reference", re.I)
    for agent in all_agents():
        assert list(inspect.signature(agent.run).parameters) == ["ctx"], agent.name
    fields = [f.name for f in dataclasses.fields(AgentContext)] + list(inspect.signature(run_method).parameters)
    assert not [f for f in fields if leaky.search(f)]


def test_earlier_cutoff_view_never_yields_post_cutoff_evidence(sample_kb, sample_table, sample_papers, embed, tmp_path):
    later = [p for p in sample_papers if p.published > CUTOFF]
    assert len(later) >= 40  # the table really holds future papers, and an unbounded view finds them
    unbounded = KnowledgeBaseView(sample_table, date(2030, 1, 1), embed)
    assert later[0].arxiv_id in [h.arxiv_id for h in unbounded.search(later[0].title, k=3, mode="hybrid")]
    # ask with the exact title of a future paper: the view must still not return it
    probe = make_task("probe", "direction", later[0].title, [later[0].title, later[1].title, SUBDIRS[0]])
    client = ScriptedClient(tmp_path)
    for answer in (
        momentum_forecaster(agent_ctx(probe, sample_kb, k=60)),
        retrieval_forecaster(agent_ctx(probe, sample_kb)),
        hybrid_rag(agent_ctx(probe, sample_kb, client)),
    ):
        assert answer.evidence_ids
        assert all(sample_kb.get(e) is not None and sample_kb.get(e).published <= CUTOFF for e in answer.evidence_ids)
        assert not {p.arxiv_id for p in later} & set(answer.evidence_ids)
    # a view whose cutoff is later than the task's would leak: refused per task
    early = make_task("early", "direction", "Which?", SUBDIRS, cutoff=date(2025, 1, 31))
    answers, failures = run_method("momentum", [early] + sample_tasks()[:1], sample_kb, embed=embed)
    assert [a.task_id for a in answers] == ["dir1"]
    assert [f.item_id for f in failures] == ["early"] and "after the task cutoff" in failures[0].reason


# -- LLM methods through litellm mock_response ---------------------------------------------------

MODEL = "openai/mock-backbone"
# the mock model is dated well before every test cutoff, so the registry lets it run
TEST_REGISTRY = BackboneRegistry.load().with_entries(
    BackboneEntry(model="mock-backbone", knowledge_cutoff=date(2024, 1, 31), source="test double")
)


class ScriptedClient(LLMClient):
    """A real LLMClient (litellm, cache, usage accounting) whose replies are litellm mock
    responses built from the prompt: it cites the first evidence id it was shown plus a
    fabricated id, and puts an unknown option id in its ranking."""

    def __init__(self, tmp_path, fail_when: str | None = None):
        super().__init__(MODEL, api_key="k", cache_dir=str(tmp_path / "llm_cache"), backoff_s=0.0, max_retries=1)
        self.fail_when = fail_when
        self.seen: list[list[dict]] = []

    def structured(self, messages, schema, *, purpose, temperature=None, seed=None, max_tokens=None, mock_response=None):
        self.seen.append(messages)
        user = messages[-1]["content"]
        if self.fail_when and self.fail_when in user:
            reply = "sorry, I cannot answer"  # never valid JSON: retries run out -> LLMCallError
        else:
            shown = re.findall(r"^\[\d+\] (\S+) \(", user, flags=re.M)
            options = re.findall(r"^- (o\d+): ", user, flags=re.M)
            cited = shown[:1] + ["9999.99999"]
            ranking = ["o_unknown"] + list(reversed(options))[:2]
            family = purpose.split(":")[-1]
            data = {
                "direction": {
                    "choice": "o_bogus",
                    "trajectory": "accelerating",
                    "ranking": ranking,
                    "rationale": "trend",
                    "claims": ["It will keep rising."],
                    "cited_ids": cited,
                },
                "bottleneck": {
                    "bottleneck": "grounding actions in unseen interfaces",
                    "opportunity": "general-purpose GUI agents",
                    "mechanism": "m",
                    "claims": [],
                    "cited_ids": cited,
                },
                "planning": {
                    "ranking": ranking,
                    "milestones": ["m1"],
                    "dependencies": [],
                    "risks": ["r"],
                    "go_no_go": "go",
                    "claims": ["Start now."],
                    "cited_ids": cited,
                },
                "venue": {
                    "ranking": ranking,
                    "framing": "f",
                    "reviewer_risks": ["r"],
                    "evidence_upgrades": [],
                    "claims": [],
                    "cited_ids": cited,
                },
            }[family]
            reply = json.dumps(data)
        return super().structured(
            messages, schema, purpose=purpose, temperature=temperature, seed=seed, max_tokens=max_tokens, mock_response=reply
        )


def test_hybrid_rag_renders_valid_answers_and_drops_unknown_ids(sample_kb, tmp_path):
    client = ScriptedClient(tmp_path)
    visible = sample_kb.dates()
    for task in sample_tasks():
        answer = hybrid_rag(agent_ctx(task, sample_kb, client, k=6, seed=3))
        prompt = client.seen[-1][-1]["content"]
        shown = re.findall(r"^\[\d+\] (\S+) \(", prompt, flags=re.M)
        assert shown and all(visible[s] <= CUTOFF for s in shown)
        assert answer.evidence_ids == shown[:1]  # the fabricated 9999.99999 is dropped
        assert "9999.99999" in answer.text and "dropped" in answer.text
        assert answer.answer_id == f"{task.task_id}::hybrid_rag::{MODEL}::3"
        assert answer.has_support_artifact and answer.retrieval_queries[0] == task.question
        assert answer.prompt_tokens > 0 and answer.completion_tokens > 0
        ids = [o.option_id for o in task.options]
        if ids:
            assert "o_unknown" not in answer.ranking and sorted(answer.ranking) == sorted(ids)
            assert answer.ranking[:2] == list(reversed(ids))[:2]  # model order kept, missing ones appended
            assert answer.ranking[2:] == [i for i in ids if i not in answer.ranking[:2]]
        if task.family == "direction":
            assert answer.choice == answer.ranking[0] == ids[-1]  # bogus choice -> first valid ranked option
            assert answer.trajectory == "accelerating" and "It will keep rising." in answer.claims
        if task.family == "bottleneck":
            assert answer.claims[0] == (
                "The root bottleneck in GUI and web navigation agents is grounding actions in unseen interfaces."
            )
            assert answer.claims[1] == "Reducing grounding actions in unseen interfaces opens general-purpose GUI agents."
    assert set(client.usage.by_purpose) == {f"agent:hybrid_rag:{f}" for f in ("direction", "planning", "bottleneck", "venue")}


def test_native_llm_has_no_support_artifact_and_no_citations(tmp_path):
    client = ScriptedClient(tmp_path)
    task = sample_tasks()[0]
    answer = native_llm(agent_ctx(task, None, client))
    assert client.usage.by_purpose == {"agent:native_llm:direction": 1}
    assert "Evidence from the pre-cutoff knowledge base" not in client.seen[-1][-1]["content"]
    assert answer.has_support_artifact is False and answer.evidence_ids == [] and answer.retrieval_queries == []
    assert answer.backbone == MODEL and sorted(answer.ranking) == ["o0", "o1", "o2", "o3"]
    assert Answer.model_validate_json(answer.model_dump_json()) == answer


def test_render_answer_validates_against_task_and_retrieved_ids():
    task = make_task("r1", "direction", "Which?", SUBDIRS[:3])
    hit = Hit(arxiv_id="2501.00001", title="A visible paper", published=date(2025, 1, 2), snippet="s", score=1.0)
    parsed = DirectionAnswer(
        choice="o1", trajectory="cooling", ranking=["o2", "oX", "o2"], cited_ids=["2501.00001", "2601.00001"]
    )
    answer = render_answer(task, parsed, method="m", backbone="b", retrieved=[hit])
    assert answer.choice == "o1" and answer.ranking == ["o1", "o2", "o0"]
    assert answer.evidence_ids == ["2501.00001"] and answer.trajectory == "cooling"
    assert "[2501.00001] A visible paper (2025-01-02)" in answer.text and "oX" in answer.text
    assert render_answer(task, parsed, method="m", backbone="b", retrieved={"2601.00001"}).evidence_ids == ["2601.00001"]
    with pytest.raises(TypeError):
        render_answer(make_task("r2", "venue", "?", VENUES), parsed, method="m", backbone="b")
    assert task_subject(sample_tasks()[2]) == "GUI and web navigation agents"


# -- runner ---------------------------------------------------------------------------------------


def test_runner_records_failing_task_and_completes_the_rest(sample_kb, tmp_path):
    client = ScriptedClient(tmp_path, fail_when="function-calling accuracy")  # the venue task fails
    answers, failures = run_method("hybrid_rag", sample_tasks(), sample_kb, llm_client=client, seed=1, registry=TEST_REGISTRY)
    assert [a.task_id for a in answers] == ["bot1", "dir1", "plan1"]
    assert len(failures) == 1
    f = failures[0]
    assert (f.stage, f.item_id) == ("agent_runs", "ven1") and "LLMCallError" in f.reason
    for a in answers:
        assert a.answer_id == f"{a.task_id}::hybrid_rag::{MODEL}::1" and a.error is None
        assert a.prompt_tokens > 0 and a.completion_tokens > 0 and a.latency_s > 0
    assert client.usage.failures == 1


def test_available_methods_and_offline_skip(sample_kb, tmp_path):
    offline = LLMClient(None, cache_dir=str(tmp_path / "c"))
    assert available_methods(None) == available_methods(offline) == ["momentum", "retrieval"]
    assert available_methods(ScriptedClient(tmp_path)) == [
        "momentum",
        "retrieval",
        "native_llm",
        "hybrid_rag",
        "coi",
        "research_agent",
        "aris",
    ]
    assert agent_names() == ["momentum", "retrieval", "native_llm", "hybrid_rag", "coi", "research_agent", "aris"]
    assert run_method("native_llm", sample_tasks(), sample_kb, llm_client=offline) == ([], [])
    with pytest.raises(UnknownAgentError):
        run_method("oracle", sample_tasks(), sample_kb)


def test_agent_modules_do_not_import_dagster():
    from assets.agents import aris as aris_mod
    from assets.agents import backbones, external, kbtool
    from assets.agents import coi as coi_mod
    from assets.agents import research_agent as ra_mod

    for module in (baselines, llm_methods, runner, aris_mod, backbones, coi_mod, external, kbtool, ra_mod):
        source = inspect.getsource(module)
        assert "import dagster" not in source and "from dagster" not in source


def test_an_option_named_by_its_text_is_that_option():
    """A structured answer that writes the chosen option's text or name (not its id) is scored
    as that option; an unknown text is still dropped."""
    from assets.families.answers import clean_ranking
    from tests.factories import make_task

    task = make_task(
        "d", "direction", "Which direction?", ["GUI agents — agents that operate graphical interfaces", "Tool learning", "Memory"]
    )
    ids = [o.option_id for o in task.options]
    assert clean_ranking(task, ["gui agents", "Tool learning"]) == ([ids[0], ids[1], ids[2]], [])
    assert clean_ranking(task, [], first="  Memory ") == ([ids[2], ids[0], ids[1]], [])
    assert clean_ranking(task, ["quantum agents"]) == ([], ["quantum agents"])

"""End to end against a real local OpenAI-compatible server (slow): an LLM research agent
(Hybrid RAG over a cutoff-bound knowledge base) answers a task, and the compact judge stack
scores that answer — every call over HTTP through litellm and the one LLM doorway.

The server is llama.cpp with Gemma 3 270M (tests/local_llm.py builds it only when missing,
binds 127.0.0.1, stops it by PID). The model is tiny, so the test asserts the contract
(parsed, range-checked, counted, cached), not the quality of its judgements."""

from __future__ import annotations

import os

os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")

from datetime import date, timedelta

import lancedb
import pytest

from assets.agents.llm_methods import hybrid_rag
from assets.corpus.logic import screen
from assets.judging.scoring import score_answers
from assets.knowledge_base.logic import KnowledgeBaseView, build_kb
from assets.scorers.base import JudgeSettings
from core.papers import read_jsonl
from core.records import GoldClaim, GoldSlot, GoldTarget, Task, TaskOption
from core.registry import load_registry
from resources.embeddings import load_embedder
from tests.factories import agent_ctx
from tests.fixture_data import fixture_path
from tests.local_llm import local_client, local_llm_server

pytestmark = pytest.mark.slow
CUTOFF = date(2025, 6, 30)


@pytest.fixture(scope="module")
def server():
    with local_llm_server() as s:
        yield s


@pytest.fixture(scope="module")
def kb(tmp_path_factory):
    embed = load_embedder().encode
    papers, _ = read_jsonl(fixture_path("arxiv/samples/llm_agent.sample.jsonl"))
    descs = {k: v.description for k, v in load_registry().domains.items()}
    table, _ = build_kb(lancedb.connect(tmp_path_factory.mktemp("kb")), "kb", screen(papers, "llm_agent", descs, embed), embed)
    return KnowledgeBaseView(table, CUTOFF, embed)


def test_llm_agent_and_judge_end_to_end(server, kb, tmp_path):
    task = Task(
        task_id="dir-e2e",
        family="direction",
        domain="llm_agent",
        cutoff=CUTOFF,
        window_start=CUTOFF + timedelta(days=1),
        window_end=date(2025, 12, 31),
        horizon="6 months",
        title="Direction forecasting",
        question="Which subdirection of LLM agents will gain the most momentum?",
        instructions="Answer from pre-cutoff evidence only.",
        answer_requirements=["choose one option"],
        options=[
            TaskOption(option_id="o1", text="GUI and web navigation agents"),
            TaskOption(option_id="o2", text="multi-agent debate"),
        ],
    )
    gold = GoldTarget(
        task_id=task.task_id,
        family="direction",
        domain="llm_agent",
        cutoff=CUTOFF,
        preferred_ranking=["o1", "o2"],
        trajectory="accelerating",
        slots=[GoldSlot(slot="primary", variants=["GUI and web navigation agents gain momentum"])],
        claims=[
            GoldClaim(
                claim_id="dir-e2e-c01",
                text="GUI agents papers grow fastest in 2025-H2.",
                type="future-realisation",
                time_scope="2025-H2",
            ),
            GoldClaim(
                claim_id="dir-e2e-c02", text="Multi-agent debate is steady.", type="future-realisation", time_scope="2025-H2"
            ),
        ],
    )
    cache = str(tmp_path / "cache")
    agent = local_client(server, cache, timeout_s=600, max_retries=2)
    answer = hybrid_rag(agent_ctx(task, kb, agent, k=3))
    assert answer.method == "hybrid_rag" and answer.backbone == server.model
    # plumbing, not quality: the 270M base model may leave the choice out (a contract violation the
    # renderer records); when it chooses, it chooses an option of the task
    assert answer.choice in ("o1", "o2", None) and answer.has_support_artifact
    assert answer.retrieval_queries and agent.usage.calls >= 1

    judge = local_client(server, cache, timeout_s=600, max_retries=2)  # judge calls set their own max_tokens
    settings = JudgeSettings(repeats=2, workers=1, temperature=0.7)
    kb_dates = kb.dates()
    [score], failures = score_answers(
        [answer],
        [task],
        [gold],
        load_embedder().encode,
        kb_dates,
        cutoff=CUTOFF,
        judge_client=judge,
        kb_get=kb.get,
        settings=settings,
    )
    assert failures == [], failures
    assert score.judge_model == server.model and score.prompt_version.startswith("fact-batched-v1")
    assert score.judge_calls == 3 and judge.usage.calls >= 3  # 1 Fact call + 2 rubric repeats (+ parse retries)
    assert 0 < score.judge_prompt_chars <= 40_000
    assert 0.0 <= score.fact <= 1.0 and 0.0 <= score.fact_precision <= 1.0 and 0.0 <= score.fact_recall <= 1.0
    assert 0.0 <= score.pers <= 1.0 and score.pers_std is not None and score.repeats == 2
    assert 0.0 <= score.trace <= 1.0
    # the renderer keeps only retrieved (pre-cutoff) ids, so every citation links; citing nothing scores 0
    assert score.trace_linkage == (1.0 if answer.evidence_ids else 0.0)
    assert set(score.drift) == {"scope_granularity", "causal_role", "intervention_mode", "temporal_horizon"}
    assert all(0.0 <= v <= 3.0 for v in score.drift.values())
    assert 0.0 <= score.fta <= 1.0

    # a rerun makes no model calls: every reply comes from the cache
    before = judge.snapshot()
    [again], _ = score_answers(
        [answer],
        [task],
        [gold],
        load_embedder().encode,
        kb_dates,
        cutoff=CUTOFF,
        judge_client=judge,
        kb_get=kb.get,
        settings=settings,
    )
    assert judge.usage_since(before).calls == 0
    assert again.model_dump() == score.model_dump()

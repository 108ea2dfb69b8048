"""The idea-review family with a model, end to end against a real local OpenAI-compatible
server (slow): the ScholarEval agent runs both pipelines with one structured call per step
over a cutoff-bound KB, and the ScholarEval §4 judge scores each expert rubric 1-5 — every
call over HTTP through litellm and the one LLM doorway (resources/llm.py).

The server is llama.cpp with Gemma 3 270M (tests/local_llm.py builds it only when missing,
binds 127.0.0.1, stops it by PID; shared/notes/known-here.md). The model is tiny, so the test
asserts the contract (steps called, answers parsed, scores in range, citations checked),
not the quality of the review."""

from __future__ import annotations

import json
import os

os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")

import pytest

from assets.agents.context import AgentContext
from assets.idea_review.dataset import load_ideas
from assets.idea_review.family import build_gold, build_tasks
from assets.idea_review.kb import IdeaCorpusIndex
from assets.idea_review.pipeline import score_review
from assets.idea_review.scholareval import scholareval
from core.papers import read_jsonl
from resources.embeddings import load_embedder
from tests.fixture_data import fixture_path
from tests.local_llm import local_client, local_llm_server

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def server():
    with local_llm_server() as s:
        yield s


def test_scholareval_agent_and_rubric_judge_end_to_end(server, tmp_path):
    embed = load_embedder().encode
    papers = read_jsonl(fixture_path("arxiv/samples/llm_agent.sample.jsonl"))[0]
    index = IdeaCorpusIndex(papers, embed)
    ideas = load_ideas()
    task = build_tasks(ideas)[0][0]
    task = task.model_copy(update={"cutoff": max(p.published for p in papers)})
    llm = local_client(server, str(tmp_path / "cache"), max_tokens=400)
    answer = scholareval(AgentContext(task=task, kb=index.view(task.cutoff), llm=llm, embed=embed))
    assert answer.error is None and answer.text
    purposes = llm.usage.by_purpose
    for step in ("methods", "dimensions", "synthesis"):
        assert purposes.get(f"agent.scholareval.{step}", 0) >= 1, purposes
    assert json.loads(answer.artifacts["methods"])  # the model's (or, per failed step, the offline) list
    judge = local_client(server, str(tmp_path / "judge_cache"), max_tokens=120)
    idea = next(i for i in ideas if f"idea-{i.idea_id}" == task.task_id)
    rubrics = [r.model_dump() for r in idea.rubrics][:4]
    score = score_review(answer, rubrics, embed, judge, {p.arxiv_id: p.published for p in papers}, task.cutoff)
    assert judge.usage.by_purpose.get("judge.idea_review.coverage", 0) >= 1
    cov = score.values["rubric_coverage_1to5"]
    assert cov is None or 1.0 <= cov <= 5.0
    assert score.values["rubric_coverage"] is None or 0.0 <= score.values["rubric_coverage"] <= 1.0
    assert "rubric_coverage_proxy" not in score.values  # with a judge the proxy is not reported
    ref = score.values["reference_validity"]
    assert ref is None or 0.0 <= ref <= 1.0
    gold = build_gold(idea, task)
    assert len(gold.claims) == len(idea.rubrics)

"""DeepResearch Arena's model-backed paths against a real local OpenAI-compatible server (slow).

llama.cpp with Gemma 3 270M (tests/local_llm.py; known-here.md) is plumbing-grade: the test
asserts the contract -- inspirations drafted with one call per evidence record and only
verbatim quotes kept (else the offline extractor, recorded), ACE stage one from the public
prompt, KAE and ACE stage two batched per answer, values in range -- not the model's judgement."""

from __future__ import annotations

import os

os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")

import pytest

from assets.agents.runner import run_method
from assets.arena.inspirations import draft_inspirations
from assets.judging.scoring import score_answers
from assets.scorers.ace import release_checklists
from tests.factories import CUTOFF
from tests.local_llm import local_client, local_llm_server

pytestmark = pytest.mark.slow


def test_inspirations_kae_and_ace_with_a_local_model(built, tmp_path):
    records, _, _, tasks, _, golds, view, embed = built
    with local_llm_server() as server:
        client = local_client(server, str(tmp_path / "cache"), timeout_s=600, max_retries=1)
        drafted = draft_inspirations(client, records[:2], CUTOFF)
        assert client.usage.by_purpose, "no model call was made"
        for insp, _ in zip(drafted, range(10)):  # a model's quote is kept only when verbatim in its paper
            paper = next(p for r in records for p in r.papers if p.arxiv_id == insp.paper_id)
            assert insp.quote == getattr(paper, insp.field)
        task = tasks[0]
        [checklist] = release_checklists([task], client)  # stage one: the public prompt only
        assert checklist.items and abs(sum(i.weight for i in checklist.items) - 1.0) < 1e-6
        answers, failed = run_method("retrieval", [task], view, embed=embed)
        assert failed == [] and answers[0].evidence_ids
        judge = local_client(server, str(tmp_path / "judge_cache"), timeout_s=600, max_retries=1)
        before = judge.snapshot()
        scores, failures = score_answers(
            answers,
            [task],
            golds,
            embed,
            view.dates(),
            cutoff=CUTOFF,
            judge_client=judge,
            kb_get=view.get,
            checklists={task.task_id: checklist},
        )
        used = judge.usage_since(before).by_purpose
    assert any("kae" in k for k in used) and any("ace" in k for k in used), used
    s = scores[0]
    for k in ("ksr", "kcr", "kor"):
        assert s.values.get(k) is None or 0.0 <= s.values[k] <= 1.0
    if s.values.get("ksr") is not None:
        assert abs(s.values["ksr"] + s.values["kcr"] + s.values["kor"] - 1.0) < 1e-6
    assert s.values.get("ace") is None or 0.0 <= s.values["ace"] <= 1.0

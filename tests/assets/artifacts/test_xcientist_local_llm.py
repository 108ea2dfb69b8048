"""Xcientist artifacts on the model path against a real local OpenAI-compatible server (slow).

llama.cpp with Gemma 3 270M (tests/local_llm.py; known-here.md) is plumbing-grade: the test
asserts the contract -- one call per answer through the LLM resource, every quote the model
writes checked mechanically, a claim's chain passing only on a verbatim quote -- not the
quality of the model's verdicts."""

from __future__ import annotations

import os

os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")

import pytest

from assets.artifacts.logic import build_artifacts
from assets.artifacts.tuples import verify
from tests.factories import ARTIFACT_SOURCES as SOURCES
from tests.factories import artifact_answer as answer
from tests.factories import artifact_lookup as lookup
from tests.local_llm import local_client, local_llm_server

pytestmark = pytest.mark.slow


def test_artifacts_with_a_local_model(tmp_path):
    a = answer(
        ["Retrieving tool documentation reduces hallucinated API calls.", "Tool retrieval outperforms fine-tuning on WebArena."]
    )
    with local_llm_server() as server:
        client = local_client(server, str(tmp_path / "cache"), timeout_s=600, max_retries=2)
        art, failures = build_artifacts(a, None, lookup, judge=client)
        calls = client.usage.by_purpose.get("artifacts:chain", 0)
    assert calls == 1  # one judge call per answer
    if failures:  # an unparseable reply from the small model: the offline rules took over, recorded
        assert art.validator == "offline" and failures[0].stage == "answer_artifacts"
    else:
        assert art.validator == server.model
    src = SOURCES[a.evidence_ids[0]]
    for t in art.tuples:  # the model's quotes are never taken as written
        assert t.quote_status == (verify(t.quote, src)[0] if t.paper_id in SOURCES else "unknown_paper")
    by_id = {t.tuple_id: t for t in art.tuples}
    for v in art.validations:
        if v.stage == "evidence" and v.outcome == "pass" and v.validator != "offline":
            assert any(by_id[i].quote_status == "verified" for i in v.tuple_ids)
    chains = [v for v in art.validations if v.stage == "chain"]
    assert len(chains) == 2 and art.n_attributed == sum(v.outcome == "pass" for v in chains)
    assert 0.0 <= art.attribution_completeness <= 1.0

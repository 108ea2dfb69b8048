"""Tests for the one LLM doorway (resources/llm.py). No network: litellm mock_response only."""

import os

os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")

import dagster as dg
import litellm
import pytest
from pydantic import BaseModel

from resources import llm as llm_mod
from resources.llm import (
    LLMCallError,
    LLMClient,
    LLMOfflineError,
    LLMResource,
    extract_json,
)

MODEL = "openai/test-model"


class Verdict(BaseModel):
    label: str
    score: int


GOOD = '{"label": "yes", "score": 3}'


@pytest.fixture
def client(tmp_path):
    return LLMClient(
        MODEL, api_base="http://127.0.0.1:9/v1", api_key="k", cache_dir=str(tmp_path / "cache"), backoff_s=0.0, max_retries=2
    )


@pytest.fixture
def scripted(monkeypatch):
    """Replace litellm.completion with a script: each item is a reply string or an exception."""
    real = litellm.completion
    state = {"script": [], "calls": []}

    def fake(**kwargs):
        state["calls"].append(kwargs)
        item = state["script"].pop(0)
        if isinstance(item, Exception):
            raise item
        kwargs["mock_response"] = item
        return real(**kwargs)

    monkeypatch.setattr(llm_mod.litellm, "completion", fake)
    return state


def test_structured_parses_into_model(client):
    v = client.structured("Is it?", Verdict, purpose="judge", mock_response=GOOD)
    assert v == Verdict(label="yes", score=3)
    u = client.usage
    assert (u.calls, u.cache_hits, u.failures) == (1, 0, 0)
    assert u.prompt_tokens > 0 and u.completion_tokens > 0
    assert u.prompt_chars == len("Is it?")
    assert u.by_purpose == {"judge": 1}
    meta = u.as_metadata()
    assert meta["llm_calls"] == 1 and meta["model"] == MODEL and meta["cost_usd"] == 0.0


def test_fenced_and_chatty_json_accepted(client):
    fenced = "Sure!\n```json\n" + GOOD + "\n```\nHope that helps."
    assert client.structured("a", Verdict, purpose="p", mock_response=fenced).score == 3
    chatty = "Here you go: " + GOOD + " -- done {not json}"
    assert client.structured("b", Verdict, purpose="p", mock_response=chatty).label == "yes"
    assert extract_json("[1, 2]") == [1, 2]
    with pytest.raises(ValueError):
        extract_json("no json here")


def test_invalid_json_is_retried_with_feedback(client, scripted):
    scripted["script"] = ["not json at all", '{"label": "x"}', GOOD]
    v = client.structured("q", Verdict, purpose="judge")
    assert v.score == 3
    assert len(scripted["calls"]) == 3
    last_convo = scripted["calls"][-1]["messages"]
    assert last_convo[0] == {"role": "user", "content": "q"}
    assert last_convo[1]["role"] == "assistant" and "not valid" in last_convo[-1]["content"]
    assert client.usage.calls == 3 and client.usage.failures == 0


def test_exhausted_retries_raise_and_count_failure(client, scripted):
    scripted["script"] = ["nope"] * 3
    with pytest.raises(LLMCallError) as err:
        client.structured("q", Verdict, purpose="judge_claims")
    msg = str(err.value)
    assert "judge_claims" in msg and MODEL in msg and "nope" in msg
    assert isinstance(err.value, RuntimeError)
    assert client.usage.failures == 1 and client.usage.calls == 3
    # failures are not cached: the next run calls the model again
    scripted["script"] = [GOOD]
    assert client.structured("q", Verdict, purpose="judge_claims").score == 3
    assert client.usage.cache_hits == 0


def test_rate_limit_is_retried(client, scripted):
    rl = litellm.RateLimitError(message="slow down", llm_provider="openai", model="m")
    scripted["script"] = [rl, rl, GOOD]
    assert client.structured("q", Verdict, purpose="p").label == "yes"
    assert client.usage.calls == 3


def test_transient_errors_exhausted(client, scripted):
    rl = litellm.RateLimitError(message="slow down", llm_provider="openai", model="m")
    scripted["script"] = [rl] * 3
    with pytest.raises(LLMCallError, match="RateLimitError"):
        client.text("q", purpose="p")
    assert client.usage.failures == 1


def test_non_transient_error_not_retried(client, scripted):
    bad = litellm.BadRequestError(message="bad", llm_provider="openai", model="m")
    scripted["script"] = [bad, GOOD]
    with pytest.raises(LLMCallError, match="BadRequestError"):
        client.text("q", purpose="p")
    assert len(scripted["calls"]) == 1


def test_cache_hit_makes_no_call(client, scripted, tmp_path):
    scripted["script"] = [GOOD]
    first = client.structured("same", Verdict, purpose="p", seed=7)
    second = client.structured("same", Verdict, purpose="p", seed=7)
    assert first == second and len(scripted["calls"]) == 1
    assert client.usage.cache_hits == 1 and client.usage.calls == 1
    # a fresh client on the same cache dir (a rerun) is served from disk too
    rerun = LLMClient(MODEL, api_base="http://127.0.0.1:9/v1", cache_dir=client.cache_dir)
    assert rerun.structured("same", Verdict, purpose="p", seed=7) == first
    assert len(scripted["calls"]) == 1
    # anything in the key changes the request
    scripted["script"] = [GOOD]
    client.structured("same", Verdict, purpose="p", seed=8)
    assert len(scripted["calls"]) == 2


def test_text_and_usage_since(client, scripted):
    snap = client.snapshot()
    scripted["script"] = ["hello there"]
    assert client.text([{"role": "user", "content": "hi"}], purpose="chat") == "hello there"
    assert client.text("hi", purpose="chat") == "hello there"  # same messages: cache hit
    delta = client.usage_since(snap)
    assert (delta.calls, delta.cache_hits, delta.by_purpose) == (1, 1, {"chat": 2})
    assert scripted["calls"][0]["messages"] == [{"role": "user", "content": "hi"}]


def test_json_modes_send_response_format(tmp_path, scripted):
    for mode in ("json_schema", "json_object"):
        c = LLMClient(MODEL, cache_dir=str(tmp_path / mode), json_mode=mode, backoff_s=0)
        scripted["script"] = [GOOD]
        c.structured("q", Verdict, purpose="p")
    schema_rf, object_rf = (call["response_format"] for call in scripted["calls"])
    assert schema_rf is Verdict
    assert object_rf == {"type": "json_object", "schema": Verdict.model_json_schema()}


def test_offline_client_raises(tmp_path):
    c = LLMClient(None, cache_dir=str(tmp_path / "c"))
    assert c.offline
    with pytest.raises(LLMOfflineError, match="no model is configured"):
        c.structured("q", Verdict, purpose="p")
    assert LLMClient("", cache_dir=str(tmp_path / "c")).offline
    assert not (tmp_path / "c").exists()
    assert c.usage.as_metadata()["model"] == "offline"


def test_resource_from_config(tmp_path, monkeypatch):
    monkeypatch.setenv("FORESCI_LLM_MODEL", "openai/from-env")
    res = LLMResource(
        model=MODEL, api_base="http://x/v1", cache_dir=str(tmp_path), json_mode="json_object", max_retries=5, backoff_s=0
    )
    c = res.client()
    assert res.client() is c
    assert (c.model, c.api_base, c.cache_dir, c.json_mode, c.max_retries) == (
        MODEL,
        "http://x/v1",
        str(tmp_path),
        "json_object",
        5,
    )


def test_resource_from_env(tmp_path, monkeypatch):
    monkeypatch.setenv("FORESCI_LLM_MODEL", "openai/from-env")
    monkeypatch.setenv("FORESCI_LLM_API_BASE", "http://env/v1")
    monkeypatch.setenv("FORESCI_LLM_CACHE", str(tmp_path / "envcache"))
    c = LLMResource().client()
    assert (c.model, c.api_base, c.cache_dir) == ("openai/from-env", "http://env/v1", str(tmp_path / "envcache"))
    assert not c.offline
    monkeypatch.delenv("FORESCI_LLM_MODEL")
    assert LLMResource().client().offline
    monkeypatch.setenv("FORESCI_LLM_MODEL", "openai/from-env")
    assert LLMResource(model="").client().offline  # explicit empty string forces offline


def test_resource_in_dagster_asset(tmp_path):
    @dg.asset
    def probe(llm: LLMResource) -> dg.MaterializeResult:
        client = llm.client()
        snap = client.snapshot()
        v = client.structured("q", Verdict, purpose="probe", mock_response=GOOD)
        return dg.MaterializeResult(metadata={"score": v.score, **client.usage_since(snap).as_metadata()})

    result = dg.materialize([probe], resources={"llm": LLMResource(model=MODEL, cache_dir=str(tmp_path))})
    assert result.success
    mats = result.asset_materializations_for_node("probe")
    assert mats[0].metadata["llm_calls"].value == 1


def test_concurrent_calls_are_counted(client):
    from concurrent.futures import ThreadPoolExecutor

    def ask(i):
        return client.structured(f"q{i}", Verdict, purpose="many", mock_response=f'{{"label": "x", "score": {i}}}').score

    with ThreadPoolExecutor(8) as pool:
        scores = list(pool.map(ask, range(40)))
    assert scores == list(range(40))
    assert client.usage.calls == 40 and client.usage.by_purpose == {"many": 40}
    assert client.usage.prompt_chars == sum(len(f"q{i}") for i in range(40))

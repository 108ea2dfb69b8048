"""The LLM doorway against a real HTTP model server on loopback (tests/ops/fake_openai.py):
Retry-After, per-call timeout, schema validation, per-stage budgets, quiet logs."""

import os

os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")

import time
from typing import Literal

import diskcache
import litellm  # noqa: F401 - imported up front: its first import (tens of seconds on a loaded machine) must not eat a call's timeout
import pytest
from pydantic import BaseModel, Field

from resources.llm import LLMBudgetError, LLMCallError, LLMClient, LLMResource
from resources.llm_policy import InvalidReply, StageBudget, retry_after_s, stage_of, validate_reply
from tests.loopback import Fault
from tests.ops.fake_openai import FakeOpenAI

MODEL = "openai/fake"


class Verdict(BaseModel):
    label: str
    score: int


class Judgement(BaseModel):
    """Like the judge schemas: every field has a default, so `{}`-ish replies validate leniently."""

    claims: list[str] = Field(default_factory=list)
    verdict: Literal["supported", "unsupported"] = "unsupported"


GOOD = '{"label": "yes", "score": 3}'


def client_for(fake, tmp_path, **kw) -> LLMClient:
    kw.setdefault("backoff_s", 0.0)
    return LLMClient(MODEL, api_base=fake.api_base, api_key="k", cache_dir=str(tmp_path / "cache"), **kw)


def cached_entries(tmp_path) -> int:
    with diskcache.Cache(str(tmp_path / "cache")) as cache:
        return len(cache)


def test_429_retry_after_is_honoured(tmp_path, capfd):
    with FakeOpenAI(GOOD) as fake:
        fake.server.faults[fake.PATH] = [Fault.http(429, retry_after="2")]
        client = client_for(fake, tmp_path, max_retries=2, timeout_s=120)
        t0 = time.monotonic()
        v = client.structured("q", Verdict, purpose="judge:test")
        elapsed = time.monotonic() - t0
        assert v == Verdict(label="yes", score=3)
        assert len(fake.requests()) == 2  # the 429, then the retry
    assert elapsed >= 2.0  # backoff_s=0: only the server's Retry-After can explain the wait
    assert client.usage.calls == 2 and client.usage.failures == 0
    assert client.budget.snapshot()["judge"].seconds >= 2.0  # the wait counts towards the stage
    out = capfd.readouterr()
    assert "Give Feedback" not in out.out + out.err  # litellm's per-error banner is off


def test_retry_after_beyond_the_timeout_fails_at_once(tmp_path):
    with FakeOpenAI(GOOD) as fake:
        fake.server.faults[fake.PATH] = [Fault.http(429, retry_after="60")]
        client = client_for(fake, tmp_path, max_retries=3, timeout_s=5)
        t0 = time.monotonic()
        with pytest.raises(LLMCallError, match="RateLimitError") as err:
            client.structured("q", Verdict, purpose="p")
        assert time.monotonic() - t0 < 60  # no pointless 60 s sleep (bound loose: a loaded machine is slow)
        assert len(fake.requests()) == 1
    assert "timeout_s=5" in str(err.value) and client.usage.failures == 1


def test_hung_server_fails_within_the_call_timeout(tmp_path):
    with FakeOpenAI(GOOD, hang=True) as fake:
        client = client_for(fake, tmp_path, max_retries=3, timeout_s=2, backoff_s=0.5)
        t0 = time.monotonic()
        with pytest.raises(LLMCallError, match="Timeout"):
            client.structured("q", Verdict, purpose="p")
        elapsed = time.monotonic() - t0
        n_requests = len(fake.requests())
    assert 1.5 <= elapsed < 120, elapsed  # was 4 x 120 s with the old defaults (loose: load)
    assert n_requests == 1  # the timeout spent the call's time: no retry
    assert client.usage.failures == 1 and cached_entries(tmp_path) == 0


def test_reply_ignoring_the_schema_is_retried_failed_and_never_cached(tmp_path):
    ignored = '{"answer": "The claims look supported to me.", "confidence": 0.9}'
    with FakeOpenAI(ignored) as fake:
        client = client_for(fake, tmp_path, max_retries=2, timeout_s=30, backoff_s=10.0)
        t0 = time.monotonic()
        with pytest.raises(LLMCallError, match="none of the schema's fields") as err:
            client.structured("judge this", Judgement, purpose="judge:fact")
        assert time.monotonic() - t0 < 30  # asked again at once: no backoff (10 s + 20 s) for a bad reply
        assert len(fake.requests()) == 3  # first attempt + max_retries
        # each retry tells the model what was wrong
        assert "not valid" in fake.requests()[-1]["messages"][-1]["content"]
        assert client.usage.failures == 1 and "3 attempt(s)" in str(err.value)
        assert cached_entries(tmp_path) == 0
        # a rerun (fresh client, same cache) asks the server again instead of reusing a default answer
        rerun = client_for(fake, tmp_path, max_retries=0, timeout_s=30)
        with pytest.raises(LLMCallError):
            rerun.structured("judge this", Judgement, purpose="judge:fact")
        assert len(fake.requests()) == 4 and rerun.usage.cache_hits == 0
        # once the server answers the schema, the reply is cached and reused
        fake.reply = '{"claims": ["c1"], "verdict": "supported"}'
        assert rerun.structured("judge this", Judgement, purpose="judge:fact").claims == ["c1"]
        assert rerun.structured("judge this", Judgement, purpose="judge:fact").verdict == "supported"
        assert len(fake.requests()) == 5 and rerun.usage.cache_hits == 1
    assert cached_entries(tmp_path) == 1


def test_validate_reply_rules():
    assert validate_reply(Judgement, {"verdict": "supported"}) == {"claims": [], "verdict": "supported"}
    for bad in ([], "text", {}, {"answer": 1}, {"verdict": "supported", "extra": 1}, {"verdict": "maybe"}):
        with pytest.raises(InvalidReply):
            validate_reply(Judgement, bad)


def test_stage_call_budget_refuses_without_calling(tmp_path):
    with FakeOpenAI(GOOD) as fake:
        res = LLMResource(
            model=MODEL,
            api_base=fake.api_base,
            api_key="k",
            cache_dir=str(tmp_path / "cache"),
            backoff_s=0,
            max_calls_per_stage=2,
        )
        client = res.client()
        assert client.budget.budget == StageBudget(max_calls=2)
        client.structured("a", Verdict, purpose="judge:fact")
        client.structured("b", Verdict, purpose="judge:pers")
        with pytest.raises(LLMBudgetError, match="'judge' budget spent"):
            client.structured("c", Verdict, purpose="judge:fact")
        assert client.structured("a", Verdict, purpose="judge:fact").score == 3  # cache hits are free
        client.structured("c", Verdict, purpose="agent:aris:direction")  # another stage has its own budget
        assert len(fake.requests()) == 3
    assert client.usage.failures == 1 and client.budget.snapshot()["judge"].refused == 1


def test_stage_time_budget_stops_a_hung_stage(tmp_path):
    with FakeOpenAI(GOOD, hang=True) as fake:
        client = client_for(fake, tmp_path, timeout_s=20, budget=StageBudget(max_seconds=1.5))
        t0 = time.monotonic()
        # the attempt's HTTP timeout is capped at the 1.5 s the stage has left (not 20 s),
        # then the retry is refused by the budget
        with pytest.raises(LLMBudgetError, match="max_seconds=1.5.*earlier attempts: Timeout"):
            client.structured("a", Verdict, purpose="evidence.extract")
        with pytest.raises(LLMBudgetError):  # the budget is spent: refused at once, no request
            client.structured("b", Verdict, purpose="evidence.extract")
        elapsed = time.monotonic() - t0
        assert len(fake.requests()) == 1
    assert elapsed < 20, elapsed  # neither the 20 s timeout nor a retry was spent
    assert client.usage.failures == 2


def test_retry_after_parsing_and_stage_names():
    class Exc(Exception):
        def __init__(self, headers):
            self.litellm_response_headers = headers

    assert retry_after_s(Exc({"retry-after": "2"})) == 2.0
    assert retry_after_s(Exc({"retry-after-ms": "1500", "retry-after": "9"})) == 1.5
    assert retry_after_s(Exc({"retry-after": "Wed, 25 Nov 2026 12:00:10 GMT"}), now=1795608000.0) == pytest.approx(
        10.0
    )  # HTTP-date form
    assert retry_after_s(Exc({})) is None and retry_after_s(ValueError()) is None
    assert retry_after_s(Exc({"retry-after": "soon"})) is None
    assert [stage_of(p) for p in ("judge:fact", "evidence.extract", "corpus_screen")] == ["judge", "evidence", "corpus_screen"]


def test_budget_ledger_cost_and_seconds():
    from resources.llm_policy import BudgetExceeded, BudgetLedger

    ledger = BudgetLedger(StageBudget(max_seconds=10, max_cost_usd=0.05))
    assert ledger.reserve_call("judge") == 10  # seconds left caps the attempt's timeout
    ledger.add("judge", seconds=4, cost_usd=0.03)
    assert ledger.reserve_call("judge") == 6
    ledger.add("judge", cost_usd=0.03)  # $0.06 spent: over
    with pytest.raises(BudgetExceeded, match=r"max_cost_usd=0.05"):
        ledger.reserve_call("judge")
    assert ledger.reserve_call("agent") == 10  # stages are separate
    spent = ledger.snapshot()["judge"]
    assert (spent.calls, spent.refused, round(spent.cost_usd, 2)) == (2, 1, 0.06)
    assert BudgetLedger().reserve_call("x") is None  # unlimited

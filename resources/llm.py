"""One LLM doorway: every model call in foresci goes through :class:`LLMClient`.

Why one doorway:

* **Offline first.** With no model configured the client is ``offline``; callers
  check that and use their deterministic offline implementation, so the whole
  asset graph runs (and is tested) without a server or a key.
* **Reruns are free.** Successful, parsed replies are stored in an on-disk cache
  (diskcache) keyed by the full request, so rematerialising an asset makes no
  model calls, and a rerun after a partial failure redoes only the failures. The cache
  is shared by every worker: one call per distinct request on a host (a per-request
  lock), and across hosts through an optional object-store tier (:mod:`resources.llm_cache`).
* **One retry policy** (tenacity; rules in :mod:`resources.llm_policy`). Transient
  provider errors are retried with exponential backoff, or after the wait the provider
  asks for (``Retry-After``); replies that are not a JSON object of the requested schema
  (unknown keys, none of its fields, wrong types) are retried with the error fed back to
  the model, and are never cached. ``timeout_s`` bounds a whole call, retries and waits
  included. When a call gives up, :class:`LLMCallError` says what, where and why, and
  callers record it as a per-item failure row.
* **Budgets.** Optional per-stage limits on calls, seconds and cost (a stage is the
  purpose's leading segment: ``judge:fact`` -> ``judge``); a call past the budget fails
  at once with :class:`LLMBudgetError` (an ``LLMCallError``) instead of running on.
* **Accounting.** Calls, cache hits, failures, tokens, cost and prompt size are
  counted in one place (:class:`LLMUsage`), so each asset can report its own
  stage as Dagster metadata (``snapshot()`` before, ``usage_since()`` after).

``LLMClient`` is plain Python; ``LLMResource`` is the Dagster wrapper that builds
one from run config, falling back to ``FORESCI_LLM_*`` environment variables.
"""

from __future__ import annotations

import os

os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")  # no network at import

import copy
import hashlib
import json
import re
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

import dagster as dg
import litellm
import tenacity
from pydantic import BaseModel, PrivateAttr

from resources.llm_cache import ResponseCache
from resources.llm_policy import (
    BudgetExceeded,
    BudgetLedger,
    Deadline,
    InvalidReply,
    StageBudget,
    is_valid_reply,
    quiet_third_party_logs,
    retry_after_s,
    stage_of,
    validate_reply,
)

quiet_third_party_logs(litellm)  # once per process: no banner on every provider error

REPO_ROOT = Path(__file__).resolve().parents[1]
TRANSIENT_ERRORS = (
    litellm.RateLimitError,
    litellm.Timeout,
    litellm.APIConnectionError,
    litellm.ServiceUnavailableError,
    litellm.InternalServerError,
)
_FENCE = re.compile(r"```(?:json|JSON)?\s*(.*?)```", re.DOTALL)


class LLMOfflineError(RuntimeError):
    """A model call was requested but no model is configured."""


class LLMCallError(RuntimeError):
    """A model call failed for good (retries exhausted or a non-retryable error)."""


class LLMBudgetError(LLMCallError):
    """A stage's budget (calls, seconds or cost) was spent: the call was not made."""


class DeadlineReached(RuntimeError):
    """The call's timeout_s ran out before another attempt could start."""


def default_cache_dir() -> str:
    return os.environ.get("FORESCI_LLM_CACHE") or str(REPO_ROOT / ".foresci" / "llm_cache")


def extract_json(text: str | None) -> Any:
    """Parse a model reply as JSON: strip ```json fences, else take the first JSON object."""
    s = (text or "").strip()
    fenced = _FENCE.search(s)
    if fenced:
        s = fenced.group(1).strip()
    try:
        return json.loads(s)
    except json.JSONDecodeError:
        pass
    decoder = json.JSONDecoder()
    for i, ch in enumerate(s):
        if ch == "{":
            try:
                return decoder.raw_decode(s, i)[0]
            except json.JSONDecodeError:
                continue
    raise ValueError(f"no JSON object found in model reply: {s[:200]!r}")


@dataclass
class LLMUsage:
    model: str = ""
    calls: int = 0  # real litellm calls, retries included
    cache_hits: int = 0
    failures: int = 0  # requests that ended in LLMCallError
    prompt_tokens: int = 0
    completion_tokens: int = 0
    cost_usd: float = 0.0
    prompt_chars: int = 0
    by_purpose: dict[str, int] = field(default_factory=dict)  # requests per purpose

    def minus(self, earlier: LLMUsage) -> LLMUsage:
        purposes = {k: v - earlier.by_purpose.get(k, 0) for k, v in self.by_purpose.items() if v - earlier.by_purpose.get(k, 0)}
        return LLMUsage(
            model=self.model,
            calls=self.calls - earlier.calls,
            cache_hits=self.cache_hits - earlier.cache_hits,
            failures=self.failures - earlier.failures,
            prompt_tokens=self.prompt_tokens - earlier.prompt_tokens,
            completion_tokens=self.completion_tokens - earlier.completion_tokens,
            cost_usd=self.cost_usd - earlier.cost_usd,
            prompt_chars=self.prompt_chars - earlier.prompt_chars,
            by_purpose=purposes,
        )

    def as_metadata(self) -> dict[str, Any]:
        return {
            "llm_calls": self.calls,
            "llm_cache_hits": self.cache_hits,
            "llm_failures": self.failures,
            "prompt_tokens": self.prompt_tokens,
            "completion_tokens": self.completion_tokens,
            "cost_usd": round(self.cost_usd, 6),
            "prompt_chars": self.prompt_chars,
            "model": self.model or "offline",
        }


def _chars(messages: list[dict]) -> int:
    return sum(len(c) if isinstance(c := m.get("content"), str) else len(json.dumps(c, default=str)) for m in messages)


class LLMClient:
    """Cached, retrying, accounted access to one litellm model (or none: offline)."""

    def __init__(
        self,
        model: str | None = None,
        *,
        api_base: str | None = None,
        api_key: str | None = None,
        temperature: float = 0.0,
        max_retries: int = 3,
        timeout_s: float = 120.0,
        cache_dir: str | None = None,
        cache_uri: str | None = None,
        json_mode: Literal["json_schema", "json_object"] = "json_schema",
        backoff_s: float = 1.0,
        budget: StageBudget | None = None,
    ):
        self.model = model or None
        self.api_base, self.api_key = api_base or None, api_key or None
        self.temperature, self.max_retries = temperature, max_retries
        self.timeout_s, self.json_mode, self.backoff_s = timeout_s, json_mode, backoff_s
        self.cache_dir = cache_dir or default_cache_dir()
        self.cache_uri = cache_uri or None
        self.usage = LLMUsage(model=self.model or "")
        self._lock = threading.Lock()
        self._cache: ResponseCache | None = None  # opened on first use
        # shared by reference with forks (runner.fork_client copies the client shallowly)
        self.budget = BudgetLedger(budget or StageBudget())

    @property
    def offline(self) -> bool:
        return self.model is None

    def snapshot(self) -> LLMUsage:
        with self._lock:
            return copy.deepcopy(self.usage)

    def usage_since(self, snapshot: LLMUsage) -> LLMUsage:
        return self.snapshot().minus(snapshot)

    def structured(
        self,
        messages: list[dict] | str,
        schema: type[BaseModel],
        *,
        purpose: str,
        temperature: float | None = None,
        seed: int | None = None,
        max_tokens: int | None = None,
        mock_response: str | None = None,
    ) -> BaseModel:
        """Ask for a JSON reply and return it parsed into ``schema``."""
        data = self._request(messages, schema, purpose, temperature, seed, max_tokens, mock_response)
        return schema.model_validate(data)

    def text(
        self,
        messages: list[dict] | str,
        *,
        purpose: str,
        temperature: float | None = None,
        seed: int | None = None,
        max_tokens: int | None = None,
        mock_response: str | None = None,
    ) -> str:
        """Ask for a free-text reply."""
        return self._request(messages, None, purpose, temperature, seed, max_tokens, mock_response)

    # -- internals ---------------------------------------------------------------

    def _request(self, messages, schema, purpose, temperature, seed, max_tokens, mock_response):
        if self.offline:
            raise LLMOfflineError(
                f"LLM call for {purpose!r} requested but no model is configured "
                "(set LLMResource.model or FORESCI_LLM_MODEL); use the offline implementation"
            )
        if isinstance(messages, str):
            messages = [{"role": "user", "content": messages}]
        temperature = self.temperature if temperature is None else temperature
        with self._lock:
            self.usage.by_purpose[purpose] = self.usage.by_purpose.get(purpose, 0) + 1
        key_doc = {
            "model": self.model,
            "api_base": self.api_base,
            "messages": messages,
            "schema": schema.model_json_schema() if schema else None,
            "temperature": temperature,
            "seed": seed,
            "max_tokens": max_tokens,
        }
        if mock_response is not None:  # keep mocked replies apart from real ones
            key_doc["mock_response"] = mock_response
        key = hashlib.sha256(json.dumps(key_doc, sort_keys=True, default=str).encode()).hexdigest()
        cache = self._open_cache()
        hit = self._cached(cache, key, schema)
        if hit is not None:
            return hit
        # One call per distinct request among every worker sharing this cache: whoever holds the
        # request's lock calls; the others find its reply when they get the lock.
        with cache.single_flight(key, self.timeout_s):
            hit = self._cached(cache, key, schema)
            if hit is not None:
                return hit
            result = self._call_model(messages, schema, purpose, temperature, seed, max_tokens, mock_response)
            cache.set(key, result)  # only replies that passed validation get here
            return result

    def _cached(self, cache: ResponseCache, key: str, schema):
        hit = cache.get(key)
        if hit is not None and (schema is None or is_valid_reply(schema, hit)):
            with self._lock:
                self.usage.cache_hits += 1
            return hit
        return None

    def _call_model(self, messages, schema, purpose, temperature, seed, max_tokens, mock_response):
        kwargs: dict[str, Any] = {
            "model": self.model,
            "temperature": temperature,
            "max_retries": 0,
            "drop_params": True,  # retries are ours; drop unsupported params
        }
        for name, value in (
            ("api_base", self.api_base),
            ("api_key", self.api_key),
            ("seed", seed),
            ("max_tokens", max_tokens),
            ("mock_response", mock_response),
        ):
            if value is not None:
                kwargs[name] = value
        if schema is not None:
            kwargs["response_format"] = (
                {"type": "json_object", "schema": schema.model_json_schema()} if self.json_mode == "json_object" else schema
            )

        attempt = _Attempt(self, purpose, list(messages), kwargs, schema, Deadline(self.timeout_s))
        try:
            result = self._retrying(attempt)(attempt)
        except Exception as exc:  # retries exhausted, budget spent or a non-retryable error
            with self._lock:
                self.usage.failures += 1
            error = LLMBudgetError if isinstance(exc, BudgetExceeded) else LLMCallError
            raise error(
                f"LLM call for purpose={purpose!r} model={self.model!r} failed after "
                f"{attempt.number} attempt(s) in {attempt.elapsed():.1f}s: "
                f"{type(exc).__name__}: {exc}{attempt.stop_note}{attempt.history()}"
            ) from exc
        return result

    def _retrying(self, attempt: _Attempt) -> tenacity.Retrying:
        """Transient errors and invalid replies are retried up to `max_retries` times, never
        past the call's deadline; a provider's Retry-After is honoured, else exponential
        backoff from `backoff_s` (invalid replies are asked again at once)."""

        def wait(state: tenacity.RetryCallState) -> float:
            exc = state.outcome.exception()
            if isinstance(exc, InvalidReply):  # the server is fine, the reply was not: ask again now
                return 0.0
            asked = retry_after_s(exc)
            return asked if asked is not None else self.backoff_s * 2 ** (state.attempt_number - 1)

        def stop(state: tenacity.RetryCallState) -> bool:
            if state.attempt_number > self.max_retries:
                return True
            left = attempt.deadline.remaining()
            if state.upcoming_sleep >= left:
                attempt.stop_note = (
                    f" (next attempt would start after {state.upcoming_sleep:.1f}s, "
                    f"{left:.1f}s left of timeout_s={self.timeout_s})"
                )
                return True
            return False

        return tenacity.Retrying(
            retry=tenacity.retry_if_exception_type((*TRANSIENT_ERRORS, InvalidReply)),
            wait=wait,
            stop=stop,
            sleep=lambda seconds: self._sleep(seconds, attempt.stage),
            reraise=True,
        )

    def _call(self, convo: list[dict], kwargs: dict[str, Any], stage: str):
        with self._lock:
            self.usage.calls += 1
            self.usage.prompt_chars += _chars(convo)
        started = time.monotonic()
        try:
            response = litellm.completion(messages=convo, **kwargs)
        finally:
            self.budget.add(stage, seconds=time.monotonic() - started)
        try:
            cost = float(litellm.completion_cost(completion_response=response) or 0.0)
        except Exception:  # unmapped (e.g. local) models have no price
            cost = 0.0
        tokens = getattr(response, "usage", None)
        with self._lock:
            self.usage.prompt_tokens += getattr(tokens, "prompt_tokens", 0) or 0
            self.usage.completion_tokens += getattr(tokens, "completion_tokens", 0) or 0
            self.usage.cost_usd += cost
        self.budget.add(stage, cost_usd=cost)
        return response

    def _sleep(self, seconds: float, stage: str) -> None:
        """A retry wait; counts towards the stage's time budget like the attempts do."""
        time.sleep(seconds)
        self.budget.add(stage, seconds=seconds)

    def _open_cache(self) -> ResponseCache:
        with self._lock:
            if self._cache is None:
                self._cache = ResponseCache(self.cache_dir, self.cache_uri)
            return self._cache


class _Attempt:
    """One request across its attempts. Each attempt reserves a call in the stage budget,
    gets as HTTP timeout what is left of the call's deadline (and of the stage's time
    budget), and validates the reply; an invalid reply is fed back to the model in the
    conversation of the next attempt."""

    def __init__(
        self,
        client: LLMClient,
        purpose: str,
        convo: list[dict],
        kwargs: dict[str, Any],
        schema: type[BaseModel] | None,
        deadline: Deadline,
    ):
        self.client, self.stage, self.convo, self.kwargs = client, stage_of(purpose), convo, kwargs
        self.schema, self.deadline = schema, deadline
        self.number, self.stop_note, self._started = 0, "", time.monotonic()
        self.errors: list[Exception] = []

    def elapsed(self) -> float:
        return time.monotonic() - self._started

    def __call__(self) -> Any:
        self.number += 1
        try:
            return self._once()
        except Exception as exc:
            self.errors.append(exc)
            raise

    def history(self) -> str:
        """The earlier attempts' errors (the last one is reported by itself)."""
        earlier = [f"{type(e).__name__}: {str(e)[:200]}" for e in self.errors[:-1]]
        return f"; earlier attempts: {' | '.join(earlier)}" if earlier else ""

    def _once(self) -> Any:
        stage_left = self.client.budget.reserve_call(self.stage)  # BudgetExceeded: not retried
        timeout = self.deadline.remaining()
        if stage_left is not None:
            timeout = min(timeout, stage_left)
        if timeout <= 0:
            raise DeadlineReached(f"no time left for attempt {self.number} (timeout_s={self.client.timeout_s})")
        response = self.client._call(self.convo, {**self.kwargs, "timeout": timeout}, self.stage)
        content = response.choices[0].message.content
        if self.schema is None:
            if not content:
                raise InvalidReply("empty reply")
            return content
        try:
            return validate_reply(self.schema, extract_json(content))
        except ValueError as exc:  # InvalidReply, or no JSON object in the reply
            self.convo = self.convo + [
                {"role": "assistant", "content": content or ""},
                {
                    "role": "user",
                    "content": f"That reply was not valid: {exc}\n"
                    "Reply again with only a JSON object that matches the requested schema.",
                },
            ]
            raise InvalidReply(str(exc)) from exc


class LLMResource(dg.ConfigurableResource):
    """Dagster resource for the one LLM doorway; unset fields fall back to FORESCI_LLM_* env."""

    model: str | None = None  # litellm model string; None -> FORESCI_LLM_MODEL; empty -> offline
    api_base: str | None = None  # None -> FORESCI_LLM_API_BASE
    api_key: str | None = None  # None -> FORESCI_LLM_API_KEY, else litellm's provider env keys
    temperature: float = 0.0
    max_retries: int = 3  # retries after the first attempt (transient errors, invalid replies)
    timeout_s: float = 120.0  # wall-clock limit of one call, retries and waits included
    cache_dir: str | None = None  # None -> FORESCI_LLM_CACHE or <repo>/.foresci/llm_cache
    # shared tier for workers on several hosts (s3://...); None -> FORESCI_LLM_CACHE_URI, else none
    cache_uri: str | None = None
    json_mode: Literal["json_schema", "json_object"] = "json_schema"
    backoff_s: float = 1.0  # first backoff when the provider names no Retry-After; doubles
    # per-stage budgets (stage = the purpose's leading segment); None = unlimited
    max_calls_per_stage: int | None = None
    max_seconds_per_stage: float | None = None
    max_cost_usd_per_stage: float | None = None

    _client: LLMClient | None = PrivateAttr(default=None)

    def client(self) -> LLMClient:
        if self._client is None:
            env = os.environ.get
            self._client = LLMClient(
                self.model if self.model is not None else env("FORESCI_LLM_MODEL"),
                api_base=self.api_base or env("FORESCI_LLM_API_BASE"),
                api_key=self.api_key or env("FORESCI_LLM_API_KEY"),
                temperature=self.temperature,
                max_retries=self.max_retries,
                timeout_s=self.timeout_s,
                cache_dir=self.cache_dir or default_cache_dir(),
                cache_uri=self.cache_uri or env("FORESCI_LLM_CACHE_URI"),
                json_mode=self.json_mode,
                backoff_s=self.backoff_s,
                budget=StageBudget(self.max_calls_per_stage, self.max_seconds_per_stage, self.max_cost_usd_per_stage),
            )
        return self._client

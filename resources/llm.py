"""One LLM doorway: every model call in foresci goes through :class:`LLMClient`.

Why one doorway:

* **Offline first.** With no model configured the client is ``offline``; callers
  check that and use their deterministic offline implementation, so the whole
  asset graph runs (and is tested) without a server or a key.
* **Reruns are free.** Successful, parsed replies are stored in an on-disk cache
  (diskcache) keyed by the full request, so rematerialising an asset makes no
  model calls, and a rerun after a partial failure redoes only the failures.
* **One retry policy.** Transient provider errors are retried with exponential
  backoff; replies that are not valid JSON for the requested schema are retried
  with the error fed back to the model. When retries run out, :class:`LLMCallError`
  says what, where and why, and callers record it as a per-item failure row.
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
import diskcache
import litellm
from pydantic import BaseModel, PrivateAttr, ValidationError

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
        purposes = {
            k: v - earlier.by_purpose.get(k, 0)
            for k, v in self.by_purpose.items()
            if v - earlier.by_purpose.get(k, 0)
        }
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
    return sum(
        len(c) if isinstance(c := m.get("content"), str) else len(json.dumps(c, default=str))
        for m in messages
    )


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
        json_mode: Literal["json_schema", "json_object"] = "json_schema",
        backoff_s: float = 1.0,
    ):
        self.model = model or None
        self.api_base, self.api_key = api_base or None, api_key or None
        self.temperature, self.max_retries = temperature, max_retries
        self.timeout_s, self.json_mode, self.backoff_s = timeout_s, json_mode, backoff_s
        self.cache_dir = cache_dir or default_cache_dir()
        self.usage = LLMUsage(model=self.model or "")
        self._lock = threading.Lock()
        self._cache: diskcache.Cache | None = None  # opened on first use

    @property
    def offline(self) -> bool:
        return self.model is None

    def snapshot(self) -> LLMUsage:
        with self._lock:
            return copy.deepcopy(self.usage)

    def usage_since(self, snapshot: LLMUsage) -> LLMUsage:
        return self.snapshot().minus(snapshot)

    def structured(self, messages: list[dict] | str, schema: type[BaseModel], *, purpose: str,
                   temperature: float | None = None, seed: int | None = None,
                   max_tokens: int | None = None, mock_response: str | None = None) -> BaseModel:
        """Ask for a JSON reply and return it parsed into ``schema``."""
        data = self._request(messages, schema, purpose, temperature, seed, max_tokens, mock_response)
        return schema.model_validate(data)

    def text(self, messages: list[dict] | str, *, purpose: str, temperature: float | None = None,
             seed: int | None = None, max_tokens: int | None = None,
             mock_response: str | None = None) -> str:
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
            "model": self.model, "api_base": self.api_base, "messages": messages,
            "schema": schema.model_json_schema() if schema else None,
            "temperature": temperature, "seed": seed, "max_tokens": max_tokens,
        }
        if mock_response is not None:  # keep mocked replies apart from real ones
            key_doc["mock_response"] = mock_response
        key = hashlib.sha256(json.dumps(key_doc, sort_keys=True, default=str).encode()).hexdigest()
        cache = self._open_cache()
        hit = cache.get(key)
        if hit is not None and (schema is None or self._valid(schema, hit)):
            with self._lock:
                self.usage.cache_hits += 1
            return hit

        kwargs: dict[str, Any] = {
            "model": self.model, "temperature": temperature, "timeout": self.timeout_s,
            "max_retries": 0, "drop_params": True,  # retries are ours; drop unsupported params
        }
        for name, value in (("api_base", self.api_base), ("api_key", self.api_key), ("seed", seed),
                            ("max_tokens", max_tokens), ("mock_response", mock_response)):
            if value is not None:
                kwargs[name] = value
        if schema is not None:
            kwargs["response_format"] = (
                {"type": "json_object", "schema": schema.model_json_schema()}
                if self.json_mode == "json_object" else schema
            )

        convo, last_error = list(messages), None
        for attempt in range(self.max_retries + 1):
            try:
                response = self._call(convo, kwargs)
            except TRANSIENT_ERRORS as exc:
                last_error = exc
                if attempt < self.max_retries:
                    time.sleep(self.backoff_s * 2**attempt)
                continue
            except Exception as exc:  # auth, bad request, ...: retrying will not help
                last_error = exc
                break
            content = response.choices[0].message.content
            if schema is None:
                if content:
                    cache.set(key, content)
                    return content
                last_error = ValueError("empty reply")
                continue
            try:
                data = schema.model_validate(extract_json(content)).model_dump(mode="json")
            except (ValueError, ValidationError) as exc:  # JSONDecodeError is a ValueError
                last_error = exc
                convo = convo + [
                    {"role": "assistant", "content": content or ""},
                    {"role": "user", "content": f"That reply was not valid: {exc}\n"
                     "Reply again with only a JSON object that matches the requested schema."},
                ]
                continue
            cache.set(key, data)
            return data

        with self._lock:
            self.usage.failures += 1
        raise LLMCallError(
            f"LLM call for purpose={purpose!r} model={self.model!r} failed: "
            f"{type(last_error).__name__}: {last_error}"
        )

    def _call(self, convo: list[dict], kwargs: dict[str, Any]):
        with self._lock:
            self.usage.calls += 1
            self.usage.prompt_chars += _chars(convo)
        response = litellm.completion(messages=convo, **kwargs)
        try:
            cost = float(litellm.completion_cost(completion_response=response) or 0.0)
        except Exception:  # unmapped (e.g. local) models have no price
            cost = 0.0
        tokens = getattr(response, "usage", None)
        with self._lock:
            self.usage.prompt_tokens += getattr(tokens, "prompt_tokens", 0) or 0
            self.usage.completion_tokens += getattr(tokens, "completion_tokens", 0) or 0
            self.usage.cost_usd += cost
        return response

    def _open_cache(self) -> diskcache.Cache:
        with self._lock:
            if self._cache is None:
                self._cache = diskcache.Cache(self.cache_dir)
            return self._cache

    @staticmethod
    def _valid(schema: type[BaseModel], data: Any) -> bool:
        try:
            schema.model_validate(data)
            return True
        except ValidationError:
            return False


class LLMResource(dg.ConfigurableResource):
    """Dagster resource for the one LLM doorway; unset fields fall back to FORESCI_LLM_* env."""

    model: str | None = None  # litellm model string; None -> FORESCI_LLM_MODEL; empty -> offline
    api_base: str | None = None  # None -> FORESCI_LLM_API_BASE
    api_key: str | None = None  # None -> FORESCI_LLM_API_KEY, else litellm's provider env keys
    temperature: float = 0.0
    max_retries: int = 3
    timeout_s: float = 120.0
    cache_dir: str | None = None  # None -> FORESCI_LLM_CACHE or <repo>/.foresci/llm_cache
    json_mode: Literal["json_schema", "json_object"] = "json_schema"
    backoff_s: float = 1.0

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
                json_mode=self.json_mode,
                backoff_s=self.backoff_s,
            )
        return self._client

"""The rules one model call obeys: how long it may take, when it is retried and for how
long we wait, what counts as a valid reply, and how much a stage may spend.

Plain Python (no Dagster, no litellm import), used by :mod:`resources.llm`:

* :class:`Deadline` — a call's wall-clock limit, retries and waits included.
* :func:`retry_after_s` — the wait a provider asks for (``Retry-After`` / ``retry-after-ms``).
* :func:`validate_reply` — a reply is valid only if it is a JSON object of the requested
  schema: unknown keys (at any depth) and an object naming none of the schema's fields are
  rejected, because every field of our answer schemas has a default and a reply to some
  other question would otherwise validate as an all-default answer.
* :class:`StageBudget` / :class:`BudgetLedger` — max calls, seconds and cost per stage.
"""

from __future__ import annotations

import email.utils
import logging
import re
import threading
import time
from dataclasses import dataclass, field
from typing import Any

from pydantic import BaseModel, ValidationError


class InvalidReply(ValueError):
    """A model reply that is not a JSON object of the requested schema (retried, never cached)."""


class BudgetExceeded(RuntimeError):
    """A stage's call, time or cost budget is spent (not retried)."""


# -- deadline and waits -------------------------------------------------------------------


class Deadline:
    """Wall-clock limit of one call; every attempt's HTTP timeout is what remains of it."""

    def __init__(self, seconds: float, clock=time.monotonic):
        self._clock = clock
        self.seconds = max(0.0, float(seconds))
        self._end = clock() + self.seconds

    def remaining(self) -> float:
        return max(0.0, self._end - self._clock())


def _header(headers: Any, name: str) -> str | None:
    if headers is None:
        return None
    try:
        value = headers.get(name)
    except AttributeError:
        return None
    return None if value is None else str(value)


def retry_after_s(exc: BaseException, *, now: float | None = None) -> float | None:
    """Seconds a rate-limit / unavailable reply asks us to wait, or None if it does not say.

    litellm keeps the provider's headers on the exception (``litellm_response_headers``; the
    openai-style ``response.headers`` as a fallback). ``retry-after-ms`` (OpenAI) wins over
    ``retry-after``, which is either delta-seconds or an HTTP date (RFC 9110 §10.2.3).
    """
    for headers in (getattr(exc, "litellm_response_headers", None), getattr(getattr(exc, "response", None), "headers", None)):
        ms = _header(headers, "retry-after-ms")
        if ms is not None:
            try:
                return max(0.0, float(ms) / 1000.0)
            except ValueError:
                pass
        value = _header(headers, "retry-after")
        if value is None:
            continue
        value = value.strip()
        if re.fullmatch(r"\d+(\.\d+)?", value):
            return float(value)
        try:
            when = email.utils.parsedate_to_datetime(value)
        except (TypeError, ValueError):
            continue
        return max(0.0, when.timestamp() - (time.time() if now is None else now))
    return None


# -- reply validation -----------------------------------------------------------------------


def validate_reply(schema: type[BaseModel], data: Any) -> dict:
    """The reply as the schema's JSON dump, or :class:`InvalidReply` saying why not."""
    if not isinstance(data, dict):
        raise InvalidReply(f"expected a JSON object, got {type(data).__name__}")
    fields = set(schema.model_fields)
    if fields and not fields & set(data):
        raise InvalidReply(
            f"the reply names none of the schema's fields {sorted(fields)}; got keys {sorted(map(str, data))[:10]}"
        )
    try:
        return schema.model_validate(data, extra="forbid").model_dump(mode="json")
    except ValidationError as exc:
        raise InvalidReply(str(exc)) from exc


def is_valid_reply(schema: type[BaseModel], data: Any) -> bool:
    try:
        validate_reply(schema, data)
        return True
    except InvalidReply:
        return False


# -- per-stage budgets ------------------------------------------------------------------------


def stage_of(purpose: str) -> str:
    """A purpose's stage: its leading segment (``judge:fact`` -> ``judge``, ``evidence.extract``
    -> ``evidence``); purposes name their stage first by convention."""
    return re.split(r"[:.]", purpose, maxsplit=1)[0] or purpose


@dataclass(frozen=True)
class StageBudget:
    """Limits per stage (None: unlimited). Calls are real model requests (retries included),
    seconds are wall time spent inside calls (attempts and waits, summed over threads)."""

    max_calls: int | None = None
    max_seconds: float | None = None
    max_cost_usd: float | None = None


@dataclass
class StageSpend:
    calls: int = 0
    seconds: float = 0.0
    cost_usd: float = 0.0
    refused: int = 0  # calls refused because the budget was spent


@dataclass
class BudgetLedger:
    """What each stage has spent, shared by a client and all its forks (one lock)."""

    budget: StageBudget = field(default_factory=StageBudget)
    spent: dict[str, StageSpend] = field(default_factory=dict)
    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False)

    def _stage(self, stage: str) -> StageSpend:
        return self.spent.setdefault(stage, StageSpend())

    def reserve_call(self, stage: str) -> float | None:
        """Count one model request for `stage`, or raise :class:`BudgetExceeded`. Returns the
        seconds left in the stage's time budget (None: unlimited) to cap the attempt."""
        b = self.budget
        with self._lock:
            s = self._stage(stage)
            why = None
            if b.max_calls is not None and s.calls >= b.max_calls:
                why = f"{s.calls} calls of max_calls={b.max_calls}"
            elif b.max_seconds is not None and s.seconds >= b.max_seconds:
                why = f"{s.seconds:.1f} s of max_seconds={b.max_seconds}"
            elif b.max_cost_usd is not None and s.cost_usd >= b.max_cost_usd:
                why = f"${s.cost_usd:.4f} of max_cost_usd={b.max_cost_usd}"
            if why is not None:
                s.refused += 1
                raise BudgetExceeded(f"stage {stage!r} budget spent: {why}")
            s.calls += 1
            return None if b.max_seconds is None else b.max_seconds - s.seconds

    def add(self, stage: str, *, seconds: float = 0.0, cost_usd: float = 0.0) -> None:
        with self._lock:
            s = self._stage(stage)
            s.seconds += seconds
            s.cost_usd += cost_usd

    def snapshot(self) -> dict[str, StageSpend]:
        with self._lock:
            return {k: StageSpend(**vars(v)) for k, v in self.spent.items()}


# -- third-party log noise ---------------------------------------------------------------------

_QUIET_LOGGERS = ("LiteLLM", "LiteLLM Router", "LiteLLM Proxy", "litellm", "httpx", "httpcore", "openai")
_quieted = False


def quiet_third_party_logs(litellm_module) -> None:
    """Silence litellm's per-error banner ("Give Feedback / Get Help", printed with print()
    on every exception) and its INFO/DEBUG logging, and httpx's per-request INFO lines.
    Idempotent; warnings and errors still reach the logs."""
    global _quieted
    if _quieted:
        return
    litellm_module.suppress_debug_info = True
    litellm_module.set_verbose = False
    for name in _QUIET_LOGGERS:
        logging.getLogger(name).setLevel(logging.WARNING)
    _quieted = True

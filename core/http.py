"""One retry policy for every outside HTTP source of the corpus stage (arXiv, Semantic
Scholar, PDF downloads). No Dagster here.

Retried: connection errors, timeouts, bodies cut mid-transfer, HTTP 429 (honouring a
numeric `Retry-After`, capped) and 5xx, and replies a `validate` callback rejects (a
truncated or malformed page). Not retried: other 4xx. When the retries run out a
`FetchError` carries the last reason, and callers turn it into a `Failure` row.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import requests


class FetchError(RuntimeError):
    """A request failed for good; `reason` is short enough for a failure row."""

    def __init__(self, reason: str, status: int | None = None):
        super().__init__(reason)
        self.reason, self.status = reason, status


@dataclass
class RetryPolicy:
    max_retries: int = 4
    backoff_s: float = 3.0  # sleep backoff_s * 2**attempt between tries
    max_backoff_s: float = 120.0
    timeout_s: float = 60.0
    sleep: Callable[[float], None] = field(default=time.sleep, repr=False)

    def wait(self, attempt: int, retry_after: str | None = None) -> None:
        delay = self.backoff_s * 2**attempt
        if retry_after and retry_after.strip().isdigit():
            delay = max(delay, float(retry_after))
        self.sleep(min(delay, self.max_backoff_s))


def request(
    session: requests.Session,
    method: str,
    url: str,
    policy: RetryPolicy,
    *,
    validate: Callable[[requests.Response], Any] | None = None,
    **kwargs: Any,
) -> tuple[Any, int]:
    """Send with retries. Returns (validate(response) or the response, attempts used)."""
    last = "no attempt made"
    status: int | None = None
    for attempt in range(policy.max_retries + 1):
        retry_after = None
        try:
            response = session.request(method, url, timeout=policy.timeout_s, **kwargs)
        except requests.Timeout as exc:
            last, status = f"timeout after {policy.timeout_s}s ({type(exc).__name__})", None
        except (requests.ConnectionError, requests.exceptions.ChunkedEncodingError) as exc:
            last, status = f"connection error: {type(exc).__name__}: {str(exc)[:160]}", None
        else:
            status = response.status_code
            if status == 429 or status >= 500:
                retry_after = response.headers.get("Retry-After")
                last = f"HTTP {status}" + (" (rate limited)" if status == 429 else "")
            elif status >= 400:
                raise FetchError(f"HTTP {status}: {response.text[:200]}", status)
            else:
                if validate is None:
                    return response, attempt + 1
                try:
                    return validate(response), attempt + 1
                except ValueError as exc:  # malformed / truncated body
                    last = str(exc)[:300]
        if attempt < policy.max_retries:
            policy.wait(attempt, retry_after)
    raise FetchError(f"{last} (after {policy.max_retries + 1} attempts)", status)

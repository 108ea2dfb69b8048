"""The Semantic Scholar Graph API (batch endpoint), behind one Dagster resource."""

from __future__ import annotations

import os

import dagster as dg
from pydantic import Field

from core.http import RetryPolicy
from core.paths import state_dir
from resources.semantic_scholar_client import ObservationStore, S2Client


class SemanticScholarResource(dg.ConfigurableResource):
    """Off by default (offline). `enabled=True` (or FORESCI_S2_ENABLED=1) turns it on; the API
    key comes from `api_key` or the S2_API_KEY environment variable (optional: without one
    the shared unauthenticated rate limit applies, and 429s are backed off)."""

    enabled: bool = Field(default=False, description="look papers up on Semantic Scholar")
    base_url: str = Field(default="https://api.semanticscholar.org/graph/v1")
    api_key: str | None = Field(default=None, description="None: the S2_API_KEY environment variable")
    batch_size: int = Field(default=100, description="ids per /paper/batch call (max 500)")
    delay_s: float = Field(default=1.0, description="pause between batch calls (S2 allows about 1 request/s)")
    max_retries: int = 5
    backoff_s: float = Field(default=2.0, description="first backoff on 429/5xx, doubled each retry")
    timeout_s: float = 60.0
    refresh_days: int | None = Field(default=None, description="re-fetch observations older than this; None: never")
    observations_dir: str = Field(default="", description="empty: $FORESCI_HOME/semantic_scholar")

    def is_enabled(self) -> bool:
        return self.enabled or os.environ.get("FORESCI_S2_ENABLED", "") in ("1", "true", "yes")

    def client(self) -> S2Client:
        policy = RetryPolicy(max_retries=self.max_retries, backoff_s=self.backoff_s, timeout_s=self.timeout_s)
        return S2Client(
            self.base_url, self.api_key or os.environ.get("S2_API_KEY") or None, self.batch_size, policy, delay_s=self.delay_s
        )

    def observations(self) -> ObservationStore:
        return ObservationStore(self.observations_dir or state_dir() / "semantic_scholar")

"""The arXiv Atom API (https://info.arxiv.org/help/api/): its settings and client.

`ArxivConfig` is nested config of `CorpusSourceResource` (`corpus_source.arxiv`, used when
`kind: arxiv`), so it is set in run config / the Launchpad like any resource field.
"""

from __future__ import annotations

import dagster as dg
from pydantic import Field

from core.http import RetryPolicy
from core.paths import state_dir
from resources.arxiv_harvest import ArxivHarvester, HarvestStore


class ArxivConfig(dg.Config):
    """Month-by-month harvest of a domain query (see `resources.arxiv_harvest`).

    Defaults follow arXiv's API terms: one request every 3 s, at most a few thousand
    results per query (one month of one domain stays well under that).
    """

    base_url: str = Field(default="https://export.arxiv.org/api/query", description="Atom API endpoint")
    start_month: str = Field(default="2023-01", description="first submittedDate month harvested (YYYY-MM)")
    page_size: int = Field(default=100, description="max_results per request (arXiv allows up to 2000)")
    delay_s: float = Field(default=3.0, description="polite delay between requests, seconds")
    max_retries: int = Field(default=4, description="retries per request on 429 / 5xx / timeout / bad page")
    backoff_s: float = Field(default=5.0, description="first backoff, doubled each retry")
    timeout_s: float = Field(default=60.0, description="per-request timeout, seconds")
    harvest_dir: str = Field(default="", description="where windows are stored; empty: $FORESCI_HOME/harvest")
    user_agent: str = Field(default="foresci-harvester (research benchmark; mailto unset)")

    def store(self, domain: str) -> HarvestStore:
        return HarvestStore(self.harvest_dir or state_dir() / "harvest", domain)

    def harvester(self) -> ArxivHarvester:
        policy = RetryPolicy(max_retries=self.max_retries, backoff_s=self.backoff_s, timeout_s=self.timeout_s)
        return ArxivHarvester(self.base_url, self.page_size, self.delay_s, policy, self.user_agent)

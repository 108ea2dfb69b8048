"""A GROBID server (https://github.com/kermitt2/grobid) through grobid-client-python."""

from __future__ import annotations

import os

import dagster as dg
from pydantic import Field

from core.http import RetryPolicy
from core.paths import state_dir
from resources.grobid_tei import GrobidService


class GrobidResource(dg.ConfigurableResource):
    """Empty `url` (and no FORESCI_GROBID_URL): no server, full text degrades to abstracts."""

    url: str = Field(default="", description="GROBID base URL, e.g. http://localhost:8070; empty: FORESCI_GROBID_URL")
    pdf_url_template: str = Field(
        default="https://arxiv.org/pdf/{arxiv_id}v1", description="where PDFs are downloaded; v1 = the text as first submitted"
    )
    timeout_s: int = Field(default=180, description="GROBID request timeout")
    max_busy_retries: int = Field(default=3, description="retries when GROBID answers 503 (busy)")
    busy_sleep_s: int = 5
    max_retries: int = Field(default=3, description="PDF download retries on 429 / 5xx / timeout")
    backoff_s: float = 3.0
    max_papers: int | None = Field(default=None, description="GROBID at most this many core papers per partition")
    cache_dir: str = Field(default="", description="TEI cache; empty: $FORESCI_HOME/grobid_tei")
    segment_sentences: bool = False

    def resolved_url(self) -> str:
        return self.url or os.environ.get("FORESCI_GROBID_URL", "")

    def service(self) -> GrobidService | None:
        if not self.resolved_url():
            return None
        return GrobidService(
            self.resolved_url(),
            self.pdf_url_template,
            self.cache_dir or str(state_dir() / "grobid_tei"),
            self.timeout_s,
            self.max_busy_retries,
            self.busy_sleep_s,
            RetryPolicy(max_retries=self.max_retries, backoff_s=self.backoff_s, timeout_s=120.0),
            segment_sentences=self.segment_sentences,
        )

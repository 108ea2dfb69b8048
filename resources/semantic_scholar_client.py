"""Semantic Scholar enrichment: venue, publication date, citation count, open-access PDF.

No Dagster here. Papers are looked up through the batch endpoint
(`POST /graph/v1/paper/batch`, ids `ARXIV:<id>`, up to 500 per call), with an optional API
key and backoff on 429 / 5xx / timeouts.

Temporal rule. The API only says what is true *now*. Every response is kept as an
observation with the time it was fetched (`<root>/<arxiv_id>.json`, a list), and a
partition with cutoff t uses, for its public row, only the latest observation fetched on
or before t. With none, the cutoff-sensitive fields (citation count, venue, publication
date after t) are null in the public row, listed in `withheld`, and the newest observation
goes only to the hidden side table. So a harvester run regularly accumulates cutoff-valid
counts over time, and a one-off run today never attaches today's count to a past cutoff.
The open-access PDF link and the S2 paper id are public either way (they identify the
paper; they say nothing about its future).

Incremental: a paper with an observation is not fetched again (unless older than
`refresh_days`); a failed batch becomes one Failure row per paper and is retried by the
next run.
"""

from __future__ import annotations

import json
import os
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, date, datetime, timedelta
from pathlib import Path

import requests

from core.http import FetchError, RetryPolicy, request
from core.records import Failure, PaperMetadata

STAGE = "semantic_scholar"
FIELDS = "externalIds,venue,publicationVenue,publicationDate,citationCount,openAccessPdf,title"
CUTOFF_SENSITIVE = ("citation_count", "venue", "publication_date")


class S2Client:
    def __init__(
        self,
        base_url: str = "https://api.semanticscholar.org/graph/v1",
        api_key: str | None = None,
        batch_size: int = 100,
        policy: RetryPolicy | None = None,
        session: requests.Session | None = None,
        delay_s: float = 1.0,
        sleep: Callable[[float], None] = time.sleep,
    ):
        if not 1 <= batch_size <= 500:
            raise ValueError("Semantic Scholar batch_size must be in 1..500")
        self.base_url, self.batch_size = base_url.rstrip("/"), batch_size
        self.policy = policy or RetryPolicy(backoff_s=2.0)
        self.session = session or requests.Session()
        if api_key:
            self.session.headers["x-api-key"] = api_key
        self.requests = 0
        self.delay_s, self.sleep, self._last = delay_s, sleep, 0.0  # S2 allows about 1 request/s

    def batch(self, arxiv_ids: list[str]) -> list[dict | None]:
        """One batch call; the reply lists one record (or null: not found) per requested id."""
        ids = [f"ARXIV:{a}" for a in arxiv_ids]

        def validate(response):
            try:
                data = response.json()
            except ValueError as exc:
                raise ValueError(f"malformed JSON from /paper/batch: {str(exc)[:120]}") from exc
            if not isinstance(data, list) or len(data) != len(ids):
                raise ValueError(
                    f"/paper/batch returned {type(data).__name__} of length "
                    f"{len(data) if isinstance(data, list) else '-'} for {len(ids)} ids"
                )
            if any(x is not None and not isinstance(x, dict) for x in data):
                raise ValueError("/paper/batch returned a non-object record")
            return data

        wait = self._last + self.delay_s - time.monotonic()
        if wait > 0:
            self.sleep(wait)
        self._last = time.monotonic()
        data, attempts = request(
            self.session,
            "POST",
            f"{self.base_url}/paper/batch",
            self.policy,
            validate=validate,
            params={"fields": FIELDS},
            json={"ids": ids},
        )
        self.requests += attempts
        return data


class ObservationStore:
    """S2 responses by arXiv id, each with the time it was fetched."""

    def __init__(self, root: str | Path):
        self.root = Path(root)

    def _path(self, arxiv_id: str) -> Path:
        return self.root / f"{arxiv_id.replace('/', '_')}.json"

    def get(self, arxiv_id: str) -> list[dict]:
        path = self._path(arxiv_id)
        return json.loads(path.read_text()) if path.exists() else []

    def add(self, arxiv_id: str, fetched_at: str, record: dict | None) -> None:
        obs = self.get(arxiv_id) + [{"fetched_at": fetched_at, "record": record}]
        path = self._path(arxiv_id)
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
        tmp.write_text(json.dumps(obs))
        os.replace(tmp, path)


def _day(value: str | None) -> date | None:
    try:
        return date.fromisoformat(value[:10]) if value else None
    except ValueError:
        return None


def metadata_from_record(arxiv_id: str, record: dict | None, fetched_at: str) -> PaperMetadata:
    """All fields of one S2 record, as observed at `fetched_at` (no cutoff rule applied)."""
    record = record or {}
    venue = record.get("venue") or ((record.get("publicationVenue") or {}).get("name")) or None
    pdf = (record.get("openAccessPdf") or {}).get("url") or None
    count = record.get("citationCount")
    return PaperMetadata(
        arxiv_id=arxiv_id,
        s2_paper_id=record.get("paperId"),
        venue=venue,
        publication_date=_day(record.get("publicationDate")),
        citation_count=int(count) if isinstance(count, int) else None,
        citation_count_as_of=_day(fetched_at) if isinstance(count, int) else None,
        open_access_pdf=pdf,
        observed_at=fetched_at,
        source="semantic_scholar" if record else "semantic_scholar:not_found",
    )


def as_of_cutoff(arxiv_id: str, observations: list[dict], cutoff: date) -> tuple[PaperMetadata | None, PaperMetadata | None]:
    """(public row, hidden row): public uses the latest observation fetched <= cutoff; the
    newest observation, if fetched after the cutoff, goes to the hidden row."""
    if not observations:
        return None, None
    ordered = sorted(observations, key=lambda o: o["fetched_at"])
    before = [o for o in ordered if _day(o["fetched_at"]) <= cutoff]
    newest = ordered[-1]
    hidden = (
        None if _day(newest["fetched_at"]) <= cutoff else metadata_from_record(arxiv_id, newest["record"], newest["fetched_at"])
    )
    if before:
        pub = metadata_from_record(arxiv_id, before[-1]["record"], before[-1]["fetched_at"])
        if pub.publication_date and pub.publication_date > cutoff:  # a scheduled future date
            pub = pub.model_copy(update={"publication_date": None, "withheld": ["publication_date"]})
        return pub, hidden
    full = hidden
    withheld = [f for f in CUTOFF_SENSITIVE if getattr(full, f) is not None]
    keep_date = full.publication_date if full.publication_date and full.publication_date <= cutoff else None
    if full.publication_date and keep_date:
        withheld.remove("publication_date")
    pub = full.model_copy(
        update={
            "venue": None,
            "citation_count": None,
            "citation_count_as_of": None,
            "publication_date": keep_date,
            "withheld": withheld,
        }
    )
    return pub, hidden


@dataclass
class EnrichReport:
    public: list[PaperMetadata]
    hidden: list[PaperMetadata]
    failures: list[Failure]
    fetched: int = 0
    cached: int = 0
    requests: int = 0
    extra: dict = field(default_factory=dict)


def enrich(
    arxiv_ids: list[str],
    cutoff: date,
    client: S2Client,
    store: ObservationStore,
    now: Callable[[], datetime] | None = None,
    refresh_days: int | None = None,
) -> EnrichReport:
    now = now or (lambda: datetime.now(UTC))
    todo, cached = [], 0
    for aid in arxiv_ids:
        obs = store.get(aid)
        stale = (
            refresh_days is not None
            and obs
            and (_day(max(o["fetched_at"] for o in obs)) < now().date() - timedelta(days=refresh_days))
        )
        if obs and not stale:
            cached += 1
        else:
            todo.append(aid)
    failures: list[Failure] = []
    requests_before = client.requests
    for i in range(0, len(todo), client.batch_size):
        chunk = todo[i : i + client.batch_size]
        fetched_at = now().isoformat()
        try:
            records = client.batch(chunk)
        except FetchError as exc:
            failures.extend(
                Failure(stage=STAGE, item_id=aid, reason=f"Semantic Scholar batch failed: {exc.reason}") for aid in chunk
            )
            continue
        for aid, record in zip(chunk, records):
            store.add(aid, fetched_at, record)
    public, hidden = [], []
    for aid in arxiv_ids:
        pub, hid = as_of_cutoff(aid, store.get(aid), cutoff)
        if pub is not None:
            public.append(pub)
        if hid is not None:
            hidden.append(hid)
    return EnrichReport(
        public, hidden, failures, fetched=len(todo) - len(failures), cached=cached, requests=client.requests - requests_before
    )

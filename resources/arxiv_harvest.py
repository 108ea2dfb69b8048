"""arXiv harvest through the Atom API, month by month, incremental. No Dagster here.

Like the ForeSci authors' harvester: one `submittedDate` window per calendar month,
`page_size` results per request sorted by submission date, a polite delay between
requests (arXiv asks for 3 s), retries with backoff on 429 / 5xx / timeouts / bad pages.

Incremental state lives next to the harvested records, one file per domain x month:

    <root>/<domain>/<YYYY-MM>.jsonl           papers of that window (Paper records)
    <root>/<domain>/<YYYY-MM>.failures.jsonl  records of that window that could not be used
    <root>/<domain>/<YYYY-MM>.state.json      {status, complete, n, harvested_at, query, reason}

A window is skipped by a re-harvest when its state is `ok`, it was fetched with the same
query, and it was `complete` (harvested more than `SETTLE_DAYS` after the month ended, so
late announcements are in). Failed, missing and still-open windows are fetched again.
Each file is written atomically and windows are independent, so two assets harvesting
the same domain at once cannot corrupt each other's state.
"""

from __future__ import annotations

import calendar
import json
import os
import re
import time
import xml.etree.ElementTree as ET
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, date, datetime, timedelta
from pathlib import Path

import requests

from core.http import FetchError, RetryPolicy, request
from core.papers import EARLIEST_VALID
from core.records import Failure, Paper

NS = {
    "atom": "http://www.w3.org/2005/Atom",
    "opensearch": "http://a9.com/-/spec/opensearch/1.1/",
    "arxiv": "http://arxiv.org/schemas/atom",
}
SETTLE_DAYS = 3
STAGE = "harvest"
_ID = re.compile(r"arxiv\.org/abs/(.+?)(v\d+)?$")
_WS = re.compile(r"\s+")


# -- months -----------------------------------------------------------------------------


def month_of(day: date) -> str:
    return f"{day.year:04d}-{day.month:02d}"


def month_bounds(month: str) -> tuple[date, date]:
    year, mon = map(int, month.split("-"))
    return date(year, mon, 1), date(year, mon, calendar.monthrange(year, mon)[1])


def month_windows(start: str, end: date) -> list[str]:
    """Calendar months from `start` (YYYY-MM) through the month of `end`, inclusive."""
    first, _ = month_bounds(start)
    out, cur = [], first
    while cur <= end:
        out.append(month_of(cur))
        cur = date(cur.year + cur.month // 12, cur.month % 12 + 1, 1)
    return out


def window_query(query: str, month: str) -> str:
    first, last = month_bounds(month)
    return f"({query}) AND submittedDate:[{first:%Y%m%d}0000 TO {last:%Y%m%d}2359]"


# -- Atom parsing -------------------------------------------------------------------------


@dataclass
class AtomPage:
    total: int
    start: int
    papers: list[Paper]
    failures: list[Failure]
    n_entries: int


def _text(node: ET.Element | None) -> str:
    return _WS.sub(" ", "".join(node.itertext())).strip() if node is not None else ""


def _date(value: str) -> date:
    return datetime.fromisoformat(value.strip().replace("Z", "+00:00")).date()


def parse_atom(text: str, source: str, harvested_at: str, where: str = "") -> AtomPage:
    """Parse one arXiv API Atom page. A page that is not a well-formed arXiv feed (truncated,
    HTML error page, arXiv's error entry) raises ValueError; a bad entry becomes a Failure."""
    try:
        root = ET.fromstring(text)
    except ET.ParseError as exc:
        raise ValueError(f"malformed Atom page{' ' + where if where else ''}: {exc}") from exc
    if root.tag != f"{{{NS['atom']}}}feed":
        raise ValueError(f"not an Atom feed{' ' + where if where else ''}: root element {root.tag!r}")
    total_node = root.find("opensearch:totalResults", NS)
    if total_node is None or not (total_node.text or "").strip().isdigit():
        raise ValueError(f"Atom page without opensearch:totalResults{' ' + where if where else ''}")
    entries = root.findall("atom:entry", NS)
    for entry in entries:  # arXiv reports query errors as a single entry titled "Error"
        if "/api/errors" in _text(entry.find("atom:id", NS)):
            raise ValueError(f"arXiv API error: {_text(entry.find('atom:summary', NS))[:200]}")
    start_node = root.find("opensearch:startIndex", NS)
    papers, failures = [], []
    for i, entry in enumerate(entries):
        paper, failure = parse_entry(entry, source, harvested_at, f"{where}#{i}")
        if paper is not None:
            papers.append(paper)
        else:
            failures.append(failure)
    start = int(start_node.text) if start_node is not None and (start_node.text or "").strip().isdigit() else 0
    return AtomPage(int(total_node.text), start, papers, failures, len(entries))


def parse_entry(entry: ET.Element, source: str, harvested_at: str, where: str) -> tuple[Paper | None, Failure | None]:
    raw = ET.tostring(entry, encoding="unicode")[:500]
    match = _ID.search(_text(entry.find("atom:id", NS)))
    if not match:
        return None, Failure(stage=STAGE, item_id=where, reason="entry has no arXiv id", raw=raw)
    arxiv_id = match.group(1)
    published = _text(entry.find("atom:published", NS))
    if not published:
        return None, Failure(stage=STAGE, item_id=arxiv_id, reason="record has no publication date", raw=raw)
    try:
        day = _date(published)  # Atom <published> is the v1 submission date: versions collapse to it
    except ValueError:
        return None, Failure(stage=STAGE, item_id=arxiv_id, reason=f"invalid publication date {published!r}", raw=raw)
    if day < EARLIEST_VALID:
        return None, Failure(stage=STAGE, item_id=arxiv_id, reason=f"date {day} predates arXiv (1991)", raw=raw)
    title, abstract = _text(entry.find("atom:title", NS)), _text(entry.find("atom:summary", NS))
    if not title or not abstract:
        return None, Failure(stage=STAGE, item_id=arxiv_id, reason="empty title or abstract", raw=raw)
    primary = entry.find("arxiv:primary_category", NS)
    cats = [c.get("term", "") for c in entry.findall("atom:category", NS) if c.get("term")]
    if primary is not None and primary.get("term"):
        cats = [primary.get("term")] + [c for c in cats if c != primary.get("term")]
    authors = [_text(a.find("atom:name", NS)) for a in entry.findall("atom:author", NS)]
    return Paper(
        arxiv_id=arxiv_id,
        title=title,
        abstract=abstract,
        published=day,
        published_precision="exact",
        categories=cats,
        authors=[a for a in authors if a],
        source=source,
        harvested_at=harvested_at,
    ), None


# -- the per-window store -------------------------------------------------------------------


def _atomic_write(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    tmp.write_text(text, encoding="utf-8")
    os.replace(tmp, path)


class HarvestStore:
    def __init__(self, root: str | Path, domain: str):
        self.dir = Path(root) / domain

    def state(self, month: str) -> dict | None:
        path = self.dir / f"{month}.state.json"
        return json.loads(path.read_text()) if path.exists() else None

    def save(self, month: str, papers: list[Paper], failures: list[Failure], state: dict) -> None:
        _atomic_write(self.dir / f"{month}.jsonl", "".join(p.model_dump_json() + "\n" for p in papers))
        _atomic_write(self.dir / f"{month}.failures.jsonl", "".join(f.model_dump_json() + "\n" for f in failures))
        _atomic_write(self.dir / f"{month}.state.json", json.dumps(state, sort_keys=True))

    def save_failed(self, month: str, state: dict) -> None:
        """A failed window keeps whatever an earlier successful fetch stored; only its state changes."""
        _atomic_write(self.dir / f"{month}.state.json", json.dumps(state, sort_keys=True))

    def load(self, months: list[str]) -> tuple[list[Paper], list[Failure]]:
        papers, failures = [], []
        for month in months:
            for name, model, out in ((f"{month}.jsonl", Paper, papers), (f"{month}.failures.jsonl", Failure, failures)):
                path = self.dir / name
                if path.exists():
                    out.extend(model.model_validate_json(line) for line in path.read_text().splitlines() if line)
        return papers, failures


# -- the harvester --------------------------------------------------------------------------


@dataclass
class HarvestReport:
    papers: list[Paper]
    failures: list[Failure]
    fetched: list[str] = field(default_factory=list)
    skipped: list[str] = field(default_factory=list)
    failed: list[str] = field(default_factory=list)
    requests: int = 0

    def as_metadata(self) -> dict:
        return {
            "windows_fetched": len(self.fetched),
            "windows_skipped": len(self.skipped),
            "windows_failed": len(self.failed),
            "failed_windows": ",".join(self.failed),
            "http_requests": self.requests,
        }


class ArxivHarvester:
    """Fetch a domain query month by month into a `HarvestStore`; see the module docstring."""

    def __init__(
        self,
        base_url: str = "https://export.arxiv.org/api/query",
        page_size: int = 100,
        delay_s: float = 3.0,
        policy: RetryPolicy | None = None,
        user_agent: str = "foresci-harvester",
        session: requests.Session | None = None,
        now: Callable[[], datetime] | None = None,
        sleep: Callable[[float], None] = time.sleep,
    ):
        self.base_url, self.page_size, self.delay_s = base_url, page_size, delay_s
        self.policy = policy or RetryPolicy()
        self.session = session or requests.Session()
        self.session.headers.setdefault("User-Agent", user_agent)
        self.now = now or (lambda: datetime.now(UTC))
        self.sleep = sleep
        self._last_request = 0.0

    def harvest(self, store: HarvestStore, domain: str, query: str, months: list[str]) -> HarvestReport:
        report = HarvestReport([], [])
        for month in months:
            state = store.state(month)
            if state and state.get("status") == "ok" and state.get("complete") and state.get("query") == query:
                report.skipped.append(month)
                continue
            fetched_at = self.now()
            try:
                papers, failures, n_requests = self._fetch_window(domain, query, month, fetched_at)
            except FetchError as exc:
                report.failed.append(month)
                store.save_failed(
                    month,
                    {
                        "status": "failed",
                        "complete": False,
                        "query": query,
                        "n": 0,
                        "harvested_at": fetched_at.isoformat(),
                        "reason": exc.reason,
                    },
                )
                report.failures.append(
                    Failure(stage=STAGE, item_id=f"arxiv:{domain}:{month}", reason=f"window {month} not harvested: {exc.reason}")
                )
                continue
            report.requests += n_requests
            _, last = month_bounds(month)
            complete = fetched_at.date() > last + timedelta(days=SETTLE_DAYS)
            store.save(
                month,
                papers,
                failures,
                {
                    "status": "ok",
                    "complete": complete,
                    "query": query,
                    "n": len(papers),
                    "harvested_at": fetched_at.isoformat(),
                    "reason": "",
                },
            )
            report.fetched.append(month)
        papers, failures = store.load(months)
        report.papers = papers
        report.failures = failures + report.failures
        return report

    def _polite(self) -> None:
        wait = self._last_request + self.delay_s - time.monotonic()
        if wait > 0:
            self.sleep(wait)
        self._last_request = time.monotonic()

    def _fetch_window(self, domain: str, query: str, month: str, fetched_at: datetime):
        source = f"arxiv-api:{query}"
        harvested_at = fetched_at.isoformat()
        search = window_query(query, month)
        papers: dict[str, Paper] = {}
        failures: list[Failure] = []
        start, total, n_requests = 0, None, 0
        while total is None or start < total:
            params = {
                "search_query": search,
                "start": start,
                "max_results": self.page_size,
                "sortBy": "submittedDate",
                "sortOrder": "ascending",
            }
            where = f"{domain}:{month}@{start}"

            def validate(response, where=where, start=start):
                page = parse_atom(response.text, source, harvested_at, where)
                if page.n_entries == 0 and start < page.total:
                    # the API sometimes answers an empty page mid-listing: ask again
                    raise ValueError(f"empty page at start={start} of {page.total} ({where})")
                return page

            self._polite()
            page, attempts = request(self.session, "GET", self.base_url, self.policy, validate=validate, params=params)
            n_requests += attempts
            total = page.total
            for paper in page.papers:
                papers.setdefault(paper.arxiv_id, paper)  # a window lists each id once; guard anyway
            failures.extend(page.failures)
            if page.n_entries == 0:
                break
            start += page.n_entries
        return sorted(papers.values(), key=lambda p: (p.published, p.arxiv_id)), failures, n_requests

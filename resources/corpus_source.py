"""Where papers come from: the corpus shipped in the repo (default, offline) or live arXiv."""

from __future__ import annotations

import gzip
import re
from dataclasses import dataclass, field
from datetime import UTC, date, datetime
from pathlib import Path
from typing import Literal

import dagster as dg
from pydantic import Field

from core.cutoffs import CorpusSpan
from core.papers import EARLIEST_VALID, SHIPPED_DIR, latest_valid, read_jsonl
from core.records import Failure, Paper
from core.registry import DomainSpec
from resources.arxiv import ArxivConfig
from resources.arxiv_harvest import month_of, month_windows

_PUBLISHED = re.compile(r'"published"\s*:\s*"(\d{4}-\d{2}-\d{2})')


def file_dates(path: Path) -> tuple[date, date] | None:
    """First and last plausible publication date in a JSONL corpus file, read by a regex over
    each line (validating every record is the corpus asset's job, not a cutoff check's);
    dates read_jsonl would refuse (before arXiv, in the future) are skipped the same way."""
    opener = gzip.open if str(path).endswith(".gz") else open
    lo = hi = None
    latest = latest_valid()
    with opener(path, "rt", encoding="utf-8") as handle:
        for line in handle:
            m = _PUBLISHED.search(line)
            if not m:
                continue
            try:
                day = date.fromisoformat(m.group(1))
            except ValueError:
                continue
            if day > latest or day < EARLIEST_VALID:
                continue
            lo, hi = (day if lo is None or day < lo else lo), (day if hi is None or day > hi else hi)
    return (lo, hi) if lo is not None else None


@dataclass
class SourceLoad:
    papers: list[Paper]
    failures: list[Failure]
    info: dict = field(default_factory=dict)


class CorpusSourceResource(dg.ConfigurableResource):
    """Source of a domain's papers, chosen by `kind`; the corpus assets use `load_domain`
    either way, so the same asset code handles both.

    - `shipped`: `<shipped_dir>/<domain file>` (the real corpus shipped in the repo).
    - `arxiv`: harvest the domain's registry `query` month by month from `arxiv.start_month`
      through the month of `until` (never past today), incrementally (see
      `resources.arxiv_harvest`), then read every stored window.
    """

    kind: Literal["shipped", "arxiv"] = "shipped"
    shipped_dir: str = Field(default="", description="folder of <domain>.jsonl.gz files; empty: the shipped corpus")
    arxiv: ArxivConfig = Field(default_factory=ArxivConfig, description="harvest settings (kind=arxiv)")

    def load(self, shipped_file: str) -> tuple[list[Paper], list[Failure]]:
        folder = Path(self.shipped_dir) if self.shipped_dir else SHIPPED_DIR
        path = folder / shipped_file
        if not path.exists():
            raise FileNotFoundError(f"corpus file {path} not found (shipped_dir={folder})")
        return read_jsonl(path)

    def span(self, specs: list[DomainSpec]) -> CorpusSpan:
        """The dates every listed domain's corpus covers (cutoffs are checked against it).
        A harvested corpus reaches from the harvest's first month to today."""
        if self.kind != "shipped":
            start = date.fromisoformat(f"{self.arxiv.start_month}-01")
            return CorpusSpan(start, datetime.now(UTC).date())
        folder = Path(self.shipped_dir) if self.shipped_dir else SHIPPED_DIR
        spans = []
        for spec in specs:
            path = folder / spec.shipped_file
            found = file_dates(path) if path.exists() else None
            if found is None:
                raise FileNotFoundError(f"corpus file {path} not found or without dated records")
            spans.append(found)
        return CorpusSpan(max(lo for lo, _ in spans), min(hi for _, hi in spans))

    def load_domain(self, spec: DomainSpec, until: date) -> SourceLoad:
        if self.kind == "shipped":
            papers, failures = self.load(spec.shipped_file)
            return SourceLoad(papers, failures, {"source": "shipped", "file": spec.shipped_file})
        arxiv = self.arxiv
        today = datetime.now(UTC).date()
        months = month_windows(arxiv.start_month, min(until, today))
        report = arxiv.harvester().harvest(arxiv.store(spec.name), spec.name, spec.query, months)
        info = {
            "source": "arxiv",
            "query": spec.query,
            "months": f"{months[0]}..{month_of(min(until, today))}" if months else "",
            **report.as_metadata(),
        }
        return SourceLoad(report.papers, report.failures, info)

"""Reading paper records and the calendar arithmetic every stage shares.

Malformed input never disappears silently: each bad line becomes a `Failure` row with
its reason, and the rest of the file is used.
"""

from __future__ import annotations

import calendar
import gzip
import json
import re
from datetime import UTC, date, datetime, timedelta
from pathlib import Path

from pydantic import ValidationError

from core.paths import REPO_ROOT
from core.records import Failure, Paper

SHIPPED_DIR = REPO_ROOT / "assets" / "corpus" / "shipped"  # the corpus shipped with the product
EARLIEST_VALID = date(1991, 8, 1)  # arXiv opened in August 1991
RELIST_MONTHS = 2  # a listing date this many months or more after the id's month is a re-listing
_NEW_STYLE_ID = re.compile(r"^(\d{2})(\d{2})\.\d{4,5}(?:v\d+)?$")


def latest_valid() -> date:
    """No paper can be published after today; one day of slack covers time zones."""
    return datetime.now(UTC).date() + timedelta(days=1)


def read_jsonl(path: Path, stage: str = "corpus") -> tuple[list[Paper], list[Failure]]:
    """Parse a (gzipped) JSONL file of papers; returns papers and per-line failures."""
    opener = gzip.open if str(path).endswith(".gz") else open
    papers: list[Paper] = []
    failures: list[Failure] = []
    with opener(path, "rt", encoding="utf-8") as handle:
        for lineno, line in enumerate(handle, start=1):
            if not line.strip():
                continue
            paper, failure = parse_paper_line(line, f"{Path(path).name}:{lineno}", stage)
            if paper is not None:
                papers.append(paper)
            elif failure is not None:
                failures.append(failure)
    return papers, failures


def parse_paper_line(line: str, where: str, stage: str = "corpus") -> tuple[Paper | None, Failure | None]:
    try:
        raw = json.loads(line)
    except json.JSONDecodeError as exc:
        return None, Failure(stage=stage, item_id=where, reason=f"malformed JSON: {exc.msg}", raw=line[:500])
    if not isinstance(raw, dict):
        return None, Failure(stage=stage, item_id=where, reason="line is not a JSON object", raw=line[:500])
    item = str(raw.get("arxiv_id") or where)
    if not raw.get("published"):
        return None, Failure(stage=stage, item_id=item, reason="record has no publication date", raw=line[:500])
    try:
        paper = Paper.model_validate({k: v for k, v in raw.items() if k in Paper.model_fields})
    except ValidationError as exc:
        first = exc.errors()[0]
        reason = f"invalid field {'.'.join(map(str, first['loc']))}: {first['msg']}"
        return None, Failure(stage=stage, item_id=item, reason=reason, raw=line[:500])
    if paper.published < EARLIEST_VALID:
        return None, Failure(stage=stage, item_id=item, reason=f"date {paper.published} predates arXiv (1991)", raw=line[:500])
    if paper.published > latest_valid():  # a typo'd year would otherwise sit beyond every window, unseen
        return None, Failure(
            stage=stage, item_id=item, reason=f"date {paper.published} is in the future (after {latest_valid()})", raw=line[:500]
        )
    if not paper.title.strip() or not paper.abstract.strip():
        return None, Failure(stage=stage, item_id=item, reason="empty title or abstract", raw=line[:500])
    return date_by_id(paper), None


def id_month(arxiv_id: str) -> date | None:
    """The first day of the month a new-style arXiv id (YYMM.NNNNN) was assigned, or None."""
    m = _NEW_STYLE_ID.match(arxiv_id.strip())
    if not m or not 1 <= int(m.group(2)) <= 12:
        return None
    return date(2000 + int(m.group(1)), int(m.group(2)), 1)


def date_by_id(paper: Paper) -> Paper:
    """A paper listed again long after its first version is dated by its id month.

    arXiv assigns the id when a paper is first submitted; some sources give the date of a
    later listing (a new version, a cross-list), so a paper of 2025-09 can show up as a
    window paper of 2026-05. When the listing date is RELIST_MONTHS or more months after the
    id's month, the paper is dated by the **last day of its id month** (the latest day its
    first version can carry: never earlier than it was public, so never a leak into an earlier
    cutoff) and `published_precision` becomes "arxiv_id_month"; the rest is unchanged."""
    first = id_month(paper.arxiv_id)
    if first is None:
        return paper
    lag = (paper.published.year - first.year) * 12 + paper.published.month - first.month
    if lag < RELIST_MONTHS:
        return paper
    last = date(first.year, first.month, calendar.monthrange(first.year, first.month)[1])
    return paper.model_copy(update={"published": last, "published_precision": "arxiv_id_month"})


def add_months(day: date, months: int) -> date:
    """`day` plus whole months, clamped to the month's last day (2025-08-31 + 6 = 2026-02-28)."""
    month_index = day.month - 1 + months
    year, month = day.year + month_index // 12, month_index % 12 + 1
    for d in (day.day, 30, 29, 28):
        try:
            return date(year, month, d)
        except ValueError:
            continue
    raise AssertionError("unreachable")


# Licences of paper metadata (title, abstract, dates) by where a record came from. arXiv
# releases its metadata (titles, authors, abstracts) under CC0 1.0; the shipped corpus is
# arXiv metadata collected by public GitHub digests (the `source` names repo@commit:path),
# so the licence of the text is arXiv's. A source we cannot place says so.
ARXIV_METADATA_LICENCE = "CC0-1.0"


def source_kind(source: str) -> str:
    """The family of a paper's `source`: `arxiv-api`, `github:<owner>/<repo>`, or `unknown`."""
    if source.startswith("arxiv-api"):
        return "arxiv-api"
    if source.startswith("github.com/"):
        return "github:" + source.removeprefix("github.com/").split("@", 1)[0]
    return "unknown"


def metadata_licence(source: str) -> str:
    """SPDX id of the licence under which a paper's title and abstract may be redistributed."""
    kind = source_kind(source)
    return ARXIV_METADATA_LICENCE if kind == "arxiv-api" or kind.startswith("github:") else "unknown"


def shipped_dates(folder=SHIPPED_DIR) -> dict[str, date]:
    """Every shipped paper's date, any date (for reference validity: known vs unknown ids)."""
    out: dict[str, date] = {}
    for path in sorted(folder.glob("*.jsonl.gz")):
        for p in read_jsonl(path)[0]:
            out.setdefault(p.arxiv_id, p.published)
    return out

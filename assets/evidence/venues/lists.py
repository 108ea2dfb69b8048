"""Venue accepted-paper lists (`VENUE_LISTS`), their loading and the outcomes read from them
(which family accepted a paper, in which cycle). See the package docstring."""

from __future__ import annotations

import gzip
import json
import re
from dataclasses import dataclass
from datetime import date
from functools import lru_cache
from pathlib import Path

from pydantic import BaseModel

from core.papers import add_months

VENUE_DIR = Path(__file__).parent  # the shipped lists sit beside this package's modules
FAMILIES = ("ACL/EMNLP/NAACL", "ICLR/ICML/NeurIPS", "AAAI/IJCAI", "SIGIR/KDD/WWW", "CVPR/ICCV/ECCV")
ACCEPTED_ICLR = ("poster", "spotlight", "oral")


class VenuePaper(BaseModel):
    title: str
    venue: str
    year: int
    family: str
    status: str
    venue_date: date
    abstract: str = ""
    file: str = ""  # the list it comes from (VENUE_LISTS)


@dataclass(frozen=True)
class VenueList:
    file: str
    venue: str
    year: int
    family: str
    venue_date: date  # approximate decision/notification date of the cycle
    title_field: str
    status_field: str | None
    kind: str  # "accepted" (every row accepted), "decision" (filter on Decision), "submissions"
    skip_status: tuple[str, ...] = ()  # rows with these statuses are not this cycle's decisions (dropped)


VENUE_LISTS: tuple[VenueList, ...] = (
    VenueList("icml2024.paperlists.jsonl.gz", "ICML", 2024, "ICLR/ICML/NeurIPS", date(2024, 5, 1), "title", "status", "accepted"),
    VenueList("icml2025.paperlists.jsonl.gz", "ICML", 2025, "ICLR/ICML/NeurIPS", date(2025, 5, 1), "title", "status", "accepted"),
    VenueList(
        "neurips2024.paperlists.jsonl.gz", "NeurIPS", 2024, "ICLR/ICML/NeurIPS", date(2024, 9, 25), "title", "status", "accepted"
    ),
    VenueList(
        "iclr2025.openreview_submissions.jsonl.gz",
        "ICLR",
        2025,
        "ICLR/ICML/NeurIPS",
        date(2025, 1, 22),
        "Title",
        "Decision",
        "decision",
    ),
    VenueList(
        "iclr2024.openreview_submissions_reviewscores_20231110.jsonl.gz",
        "ICLR",
        2024,
        "ICLR/ICML/NeurIPS",
        date(2023, 11, 10),
        "Title",
        None,
        "submissions",
    ),
    VenueList("cvpr2024.paperlists.jsonl.gz", "CVPR", 2024, "CVPR/ICCV/ECCV", date(2024, 2, 26), "title", "status", "accepted"),
    VenueList("cvpr2025.paperlists.jsonl.gz", "CVPR", 2025, "CVPR/ICCV/ECCV", date(2025, 2, 26), "title", "status", "accepted"),
    VenueList("emnlp2024.taxoadapt.jsonl.gz", "EMNLP", 2024, "ACL/EMNLP/NAACL", date(2024, 9, 20), "Title", None, "accepted"),
    VenueList(
        "naacl2024.paperlists.jsonl.gz", "NAACL", 2024, "ACL/EMNLP/NAACL", date(2024, 3, 14), "title", "status", "accepted"
    ),
    VenueList("acl2024.doragd_confsummary.jsonl.gz", "ACL", 2024, "ACL/EMNLP/NAACL", date(2024, 5, 15), "链接", None, "accepted"),
    VenueList("acl2025.doragd_confsummary.jsonl.gz", "ACL", 2025, "ACL/EMNLP/NAACL", date(2025, 5, 15), "链接", None, "accepted"),
    VenueList("iccv2023.paperlists.jsonl.gz", "ICCV", 2023, "CVPR/ICCV/ECCV", date(2023, 7, 14), "title", "status", "accepted"),
    VenueList("eccv2024.paperlists.jsonl.gz", "ECCV", 2024, "CVPR/ICCV/ECCV", date(2024, 7, 1), "title", "status", "accepted"),
    VenueList("iccv2025.paperlists.jsonl.gz", "ICCV", 2025, "CVPR/ICCV/ECCV", date(2025, 6, 25), "title", "status", "accepted"),
    VenueList("aaai2022.paperlists.jsonl.gz", "AAAI", 2022, "AAAI/IJCAI", date(2021, 12, 1), "title", "status", "accepted"),
    VenueList("ijcai2024.paperlists.jsonl.gz", "IJCAI", 2024, "AAAI/IJCAI", date(2024, 4, 16), "title", "status", "accepted"),
    VenueList("kdd2024.paperlists.jsonl.gz", "KDD", 2024, "SIGIR/KDD/WWW", date(2024, 5, 16), "title", None, "accepted"),
    VenueList(
        "sigir2024.doragd_confsummary.jsonl.gz", "SIGIR", 2024, "SIGIR/KDD/WWW", date(2024, 3, 25), "链接", None, "accepted"
    ),
    VenueList(
        "sigir2025.doragd_confsummary.jsonl.gz", "SIGIR", 2025, "SIGIR/KDD/WWW", date(2025, 4, 4), "链接", None, "accepted"
    ),
    # Decisions after 2025 (shared/data/venues, normalised schema: title, venue, year, decision, source).
    # Decision dates are the cycles' announced author-notification dates (approximate, from the
    # conferences' calls for papers and dates pages):
    # ICLR 2026: final decisions late January 2026 (ICLR 2025's were 2025-01-22); 5,358 accepted
    # (poster / oral / conditional).
    VenueList(
        "iclr2026.hazirliver_iclr_2026_analysis.jsonl.gz",
        "ICLR",
        2026,
        "ICLR/ICML/NeurIPS",
        date(2026, 1, 22),
        "title",
        "decision",
        "accepted",
    ),
    # ICML 2026: full papers due 2026-01-28, author notification about 2026-04-30.
    VenueList(
        "icml2026.juyoungml_icml2026.jsonl.gz",
        "ICML",
        2026,
        "ICLR/ICML/NeurIPS",
        date(2026, 4, 30),
        "title",
        "decision",
        "accepted",
    ),
    # CVPR 2026: submissions November 2025, final decisions February 2026 (CVPR 2025: 2025-02-26).
    VenueList(
        "cvpr2026.sunshine_code8_cvpr2026_paper_crawler.jsonl.gz",
        "CVPR",
        2026,
        "CVPR/ICCV/ECCV",
        date(2026, 2, 20),
        "title",
        "decision",
        "accepted",
    ),
    # ACL 2026: ARR October 2025 / January 2026 cycles, notification 2026-04-04. `decision` holds the
    # track; TACL and CL papers (journal decisions, dated otherwise) and the student research
    # workshop (a workshop, not the conference's decision) are not this cycle's outcomes, nor are
    # the industry and demo tracks: the option offers the family's "main conference or Findings"
    # (`venue.options.FAMILY_TRACKS`), and an outcome counts only what the option names.
    VenueList(
        "acl2026.aclorg_acl2026_website.jsonl.gz",
        "ACL",
        2026,
        "ACL/EMNLP/NAACL",
        date(2026, 4, 4),
        "title",
        "decision",
        "accepted",
        skip_status=("tacl", "cl", "srw", "industry", "demo"),
    ),
    # NeurIPS 2025 (main + datasets and benchmarks): author notification 2025-09-18.
    VenueList(
        "neurips2025.arivero_neurips2025_acceptedpapers.jsonl.gz",
        "NeurIPS",
        2025,
        "ICLR/ICML/NeurIPS",
        date(2025, 9, 18),
        "title",
        "decision",
        "accepted",
    ),
    # COLM 2025 (Conference on Language Modeling): notification 2025-07-08. Counted with the NLP
    # family: a language-modelling venue whose accepted papers are language papers.
    VenueList("colm2025.paperlists.jsonl.gz", "COLM", 2025, "ACL/EMNLP/NAACL", date(2025, 7, 8), "title", "decision", "accepted"),
    # WWW 2025 (The Web Conference, a SIGIR/KDD/WWW-family venue): notification 2025-01-20; two lists
    # of one cycle (388 titles shared; a title is counted once, see `_load_cached`).
    VenueList("www2025.paperlists.jsonl.gz", "WWW", 2025, "SIGIR/KDD/WWW", date(2025, 1, 20), "title", "decision", "accepted"),
    VenueList(
        "www2025.doragd_confsummary.jsonl.gz", "WWW", 2025, "SIGIR/KDD/WWW", date(2025, 1, 20), "title", "decision", "accepted"
    ),
    # KDD 2025, partial: the first proceedings volume (DOIs 10.1145/3690624.*), i.e. the August 2024
    # cycle, notified 2024-11-16.
    VenueList(
        "kdd2025.doragd_confsummary.jsonl.gz", "KDD", 2025, "SIGIR/KDD/WWW", date(2024, 11, 16), "title", "decision", "accepted"
    ),
    # KDD 2026, first cycle (papers due 2025-07-31): notification 2025-11-23.
    VenueList(
        "kdd2026_cycle1.hydrogenhy_ai_conference_paperlist.jsonl.gz",
        "KDD",
        2026,
        "SIGIR/KDD/WWW",
        date(2025, 11, 23),
        "title",
        "decision",
        "accepted",
    ),
    # NAACL 2025 (probably partial): notification 2025-01-22.
    VenueList(
        "naacl2025.doragd_confsummary.jsonl.gz",
        "NAACL",
        2025,
        "ACL/EMNLP/NAACL",
        date(2025, 1, 22),
        "title",
        "decision",
        "accepted",
    ),
    # WWW 2026 (The Web Conference, official site; main proceedings: research, short, Web4Good and
    # industry tracks): author notification 2026-01-13.
    VenueList(
        "www2026.thewebconf2026_www2026_website.jsonl.gz",
        "WWW",
        2026,
        "SIGIR/KDD/WWW",
        date(2026, 1, 13),
        "title",
        "decision",
        "accepted",
    ),
    # EMNLP 2025 (official site): ARR May 2025 cycle, notification 2025-08-20. `decision` holds the
    # track; TACL and CL papers are journal decisions, dated otherwise.
    VenueList(
        "emnlp2025.aclorg_emnlp2025_website.jsonl.gz",
        "EMNLP",
        2025,
        "ACL/EMNLP/NAACL",
        date(2025, 8, 20),
        "title",
        "decision",
        "accepted",
        skip_status=("tacl", "cl"),
    ),
    # IJCAI 2025: author notification 2025-04-29.
    VenueList(
        "ijcai2025.euisuk_chung_vlm_paper_search.jsonl.gz",
        "IJCAI",
        2025,
        "AAAI/IJCAI",
        date(2025, 4, 29),
        "title",
        "decision",
        "accepted",
    ),
    # AAAI 2025, probably partial (2,501 of ~3,000 technical papers): notification 2024-12-09.
    VenueList(
        "aaai2025.euisuk_chung_vlm_paper_search.jsonl.gz",
        "AAAI",
        2025,
        "AAAI/IJCAI",
        date(2024, 12, 9),
        "title",
        "decision",
        "accepted",
    ),
)
VENUE_CYCLE_MONTHS = 6  # default: an outcome counts when its list was decided within the (6-month) window after the cutoff
# dblp-crawl lists (`*.doragd_confsummary`) hold the title as a Markdown link "[title](url)".
_MD_LINK = re.compile(r"^\[(.*)\]\((\S+)\)$")


def load_venue_lists(folder: Path = VENUE_DIR, *, include_submissions: bool = False) -> list[VenuePaper]:
    """Accepted papers of every known list in `folder` (rows without a title skipped).

    ICLR 2025: only Poster / Spotlight / Oral decisions; withdrawn, desk-rejected and
    "Submitted to ICLR 2025" (= rejected) rows are dropped. ICLR 2024 (no decisions)
    only with `include_submissions`, as status "submitted". Parsed once per process
    (the records are immutable in practice; the list returned is a fresh copy).
    """
    return list(_load_cached(str(Path(folder).resolve()), include_submissions))


@lru_cache(maxsize=4)
def _load_cached(folder: str, include_submissions: bool) -> tuple[VenuePaper, ...]:
    out: list[VenuePaper] = []
    seen: set[tuple[str, int, str]] = set()  # a title listed twice for one cycle (two lists of WWW 2025) counts once
    for spec in VENUE_LISTS:
        path = Path(folder) / spec.file
        if not path.exists():
            plain = path.with_suffix("")  # the uncompressed copy in shared/data/venues
            if not plain.exists():
                continue
            path = plain
        if spec.kind == "submissions" and not include_submissions:
            continue
        opener = gzip.open if str(path).endswith(".gz") else open
        with opener(path, "rt", encoding="utf-8") as handle:
            for line in handle:
                if not line.strip():
                    continue
                try:
                    raw = json.loads(line)
                except json.JSONDecodeError:
                    continue
                title = " ".join(str(raw.get(spec.title_field) or "").split())
                link = _MD_LINK.match(title)
                if link:
                    title = link.group(1).strip()
                if not title or title.lower() == "frontmatter":
                    continue
                status = str(raw.get(spec.status_field) or "accepted") if spec.status_field else "accepted"
                if status.lower() in spec.skip_status:
                    continue
                if spec.kind == "decision":
                    if not any(w in status.lower() for w in ACCEPTED_ICLR):
                        continue
                    status = status.replace(f"ICLR {spec.year} Conference", "").strip() or status
                if spec.kind == "submissions":
                    status = "submitted"
                key = (spec.venue, spec.year, norm_title(title))
                if key in seen:
                    continue
                seen.add(key)
                out.append(
                    VenuePaper(
                        title=title,
                        venue=spec.venue,
                        year=spec.year,
                        family=spec.family,
                        status=status,
                        venue_date=spec.venue_date,
                        file=spec.file,
                        abstract=" ".join(str(raw.get("Abstract") or "").split()),
                    )
                )
    return tuple(out)


# ----------------------------------------------------------------------------- outcomes

_NON_ALNUM = re.compile(r"[^a-z0-9]")


def norm_title(title: str) -> str:
    """A title as the lists are matched: lower-case alphanumerics only."""
    return _NON_ALNUM.sub("", title.lower())


@dataclass(frozen=True)
class VenueOutcome:
    """Where a paper was accepted: one row of an accepted-paper list."""

    family: str
    venue: str
    year: int
    decision: str
    venue_date: date  # the list's approximate decision date
    file: str
    title: str  # as the list spells it

    def label(self) -> str:
        return f"{self.venue} {self.year} ({self.decision}; decisions ~{self.venue_date.isoformat()})"


def outcome_window(cutoff: date, until: date | None = None) -> tuple[date, date]:
    """(after, until): an outcome counts when its list was decided in (cutoff, until]; `until` is the
    task's window end (default: cutoff + VENUE_CYCLE_MONTHS, the default 6-month window)."""
    return cutoff, until or add_months(cutoff, VENUE_CYCLE_MONTHS)


@lru_cache(maxsize=4)
def _outcome_index(folder: str) -> dict[str, tuple[VenueOutcome, ...]]:
    index: dict[str, list[VenueOutcome]] = {}
    for v in _load_cached(folder, False):
        index.setdefault(norm_title(v.title), []).append(
            VenueOutcome(
                family=v.family,
                venue=v.venue,
                year=v.year,
                decision=v.status,
                venue_date=v.venue_date,
                file=v.file,
                title=v.title,
            )
        )
    return {k: tuple(vs) for k, vs in index.items() if k}


def venue_outcome(title: str, cutoff: date, folder: Path = VENUE_DIR, *, until: date | None = None) -> VenueOutcome | None:
    """Where the paper titled `title` was accepted in a cycle decided after `cutoff` (see the
    module docstring), or None: not found, decided before the cutoff or beyond the cycle, or
    found in lists of two families (ambiguous)."""
    after, until = outcome_window(cutoff, until)
    hits = [o for o in _outcome_index(str(Path(folder).resolve())).get(norm_title(title), ()) if after < o.venue_date <= until]
    if not hits or len({o.family for o in hits}) > 1:
        return None
    return sorted(hits, key=lambda o: (o.venue_date, o.venue, o.file))[0]


def accepted_family(title: str, folder: Path = VENUE_DIR) -> str | None:
    """The family that accepted the paper titled `title` in any listed cycle (whatever its date),
    or None: on no list, or on lists of two families. For the hidden gold only (it reads lists
    decided after any cutoff)."""
    fams = {o.family for o in _outcome_index(str(Path(folder).resolve())).get(norm_title(title), ())}
    return fams.pop() if len(fams) == 1 else None


def outcome_families(cutoff: date, folder: Path = VENUE_DIR, *, until: date | None = None) -> list[str]:
    """Families (FAMILIES order) with an accepted-paper list decided in (cutoff, until] (the task's
    window) and present in `folder`: the only families an outcome can name."""
    after, until = outcome_window(cutoff, until)
    have = {v.family for v in _load_cached(str(Path(folder).resolve()), False) if after < v.venue_date <= until}
    return [f for f in FAMILIES if f in have]


def listed_by(cutoff: date, folder: Path = VENUE_DIR) -> list[str]:
    """Titles on accepted-paper lists decided on or before `cutoff`: text public at the cutoff. The
    venue options quote some of them (`nearest_accepted`), so the leakage checks count them as
    pre-cutoff text: a term they hold is not new after the cutoff, and a window preprint of a paper
    accepted before the cutoff is not a future title."""
    return sorted({v.title for v in _load_cached(str(Path(folder).resolve()), False) if v.venue_date <= cutoff})


def unlisted(titles: list[str], cutoff: date, folder: Path = VENUE_DIR) -> list[str]:
    """`titles` (window papers') less those on a list decided on or before `cutoff` (`listed_by`)."""
    listed = {norm_title(t) for t in listed_by(cutoff, folder)}
    return [t for t in titles if norm_title(t) not in listed]

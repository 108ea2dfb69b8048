"""Venue-community profiles (ForeSci §3.3 (5), Appendix B.5) from accepted-paper lists.

The paper profiles venue families (ACL/EMNLP/NAACL, ICLR/ICML/NeurIPS, AAAI/IJCAI,
SIGIR/KDD, CVPR/ICCV/ECCV) by contribution style, maturity expectations, reviewer
risks, evidence-package expectations and nearby compatible families. Offline we derive
them from the venue lists shipped in `venues/` (copies of shared/data/venues): which
accepted papers are close to the domain (nearest-neighbour title cosine), what those
papers are about (distinctive terms), and their contribution style (title cue words).
The qualitative sentences are templates filled and selected by those numbers; each
sentence names the numbers that drive it.

Temporal integrity: a list is only used for a profile when its cycle's decision date
(`venue_date`) is on or before the cutoff. The dates are approximate public decision /
notification dates of each cycle (VENUE_LISTS, each with its source in a comment). ICLR
2024 has submissions only (no decisions, snapshot 2023-11-10): it is skipped unless
`include_submissions=True`, and never counted as accepted. A family with no list dated
on or before the cutoff gets a profile that says so (n_papers = 0, nothing invented).

Outcomes (the venue family's gold, `assets/families/venue.py`): the same lists, read the
other way round. A paper whose normalised title (lower-case alphanumerics, `norm_title`)
is in a list was accepted in that venue's cycle; `venue_outcome` returns it only when the
list's decision date lies AFTER the cutoff and within VENUE_CYCLE_MONTHS of it (a decision
known at the cutoff is not a forecast; the task asks about "the next venue cycle"), and
only when every matching list names one family (a title accepted in two families is
ambiguous and gives no outcome). `outcome_families` are the families with at least one
list decided in that interval: the only families an outcome task can offer. The lists
with 2025-2026 decisions (ICLR/ICML 2026, CVPR 2026, ACL 2026, NeurIPS 2025, COLM 2025,
WWW 2025, KDD 2025 (partial), KDD 2026 first cycle, NAACL 2025) come from the normalised
files of shared/data/venues (PROVENANCE.md here). No AAAI or IJCAI list with a 2025-2026
decision exists in the shared data, so AAAI/IJCAI is never an outcome family at the
registry's cutoffs (2025-06-30 ... 2026-05-15). A paper found in no list is "unknown", not
"rejected".


Length (over ~500 lines on purpose): the venue lists, their matching to arXiv papers and the venue-
similarity measure share the normalisation of titles and venue names."""

from __future__ import annotations

import gzip
import hashlib
import json
import re
from collections import Counter
from dataclasses import dataclass
from datetime import date
from functools import lru_cache
from pathlib import Path

import numpy as np
from pydantic import BaseModel

from core.papers import add_months
from core.records import ScreenedPaper, Signal
from core.text import STOP_WORDS

VENUE_DIR = Path(__file__).with_name("venues")
FAMILIES = ("ACL/EMNLP/NAACL", "ICLR/ICML/NeurIPS", "AAAI/IJCAI", "SIGIR/KDD", "CVPR/ICCV/ECCV")
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
    VenueList("kdd2024.paperlists.jsonl.gz", "KDD", 2024, "SIGIR/KDD", date(2024, 5, 16), "title", None, "accepted"),
    VenueList("sigir2024.doragd_confsummary.jsonl.gz", "SIGIR", 2024, "SIGIR/KDD", date(2024, 3, 25), "链接", None, "accepted"),
    VenueList("sigir2025.doragd_confsummary.jsonl.gz", "SIGIR", 2025, "SIGIR/KDD", date(2025, 4, 4), "链接", None, "accepted"),
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
    # workshop (a workshop, not the conference's decision) are not this cycle's outcomes.
    VenueList(
        "acl2026.aclorg_acl2026_website.jsonl.gz",
        "ACL",
        2026,
        "ACL/EMNLP/NAACL",
        date(2026, 4, 4),
        "title",
        "decision",
        "accepted",
        skip_status=("tacl", "cl", "srw"),
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
    # WWW 2025 (The Web Conference, a SIGIR/KDD-family venue): notification 2025-01-20; two lists
    # of one cycle (388 titles shared; a title is counted once, see `_load_cached`).
    VenueList("www2025.paperlists.jsonl.gz", "WWW", 2025, "SIGIR/KDD", date(2025, 1, 20), "title", "decision", "accepted"),
    VenueList(
        "www2025.doragd_confsummary.jsonl.gz", "WWW", 2025, "SIGIR/KDD", date(2025, 1, 20), "title", "decision", "accepted"
    ),
    # KDD 2025, partial: the first proceedings volume (DOIs 10.1145/3690624.*), i.e. the August 2024
    # cycle, notified 2024-11-16.
    VenueList(
        "kdd2025.doragd_confsummary.jsonl.gz", "KDD", 2025, "SIGIR/KDD", date(2024, 11, 16), "title", "decision", "accepted"
    ),
    # KDD 2026, first cycle (papers due 2025-07-31): notification 2025-11-23.
    VenueList(
        "kdd2026_cycle1.hydrogenhy_ai_conference_paperlist.jsonl.gz",
        "KDD",
        2026,
        "SIGIR/KDD",
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
)
VENUE_CYCLE_MONTHS = 12  # an outcome counts when its list was decided within this many months after the cutoff
# dblp-crawl lists (`*.doragd_confsummary`) hold the title as a Markdown link "[title](url)".
_MD_LINK = re.compile(r"^\[(.*)\]\((\S+)\)$")

# Title cue words of contribution style; anything else counts as "method".
STYLE_CUES: dict[str, tuple[str, ...]] = {
    "benchmark": ("benchmark", "dataset", "corpus", "testbed", "leaderboard", "arena", "evaluating", "evaluation of", "suite"),
    "analysis": (
        "understanding",
        "analysis",
        "analyzing",
        "analysing",
        "study",
        "investigat",
        "revisit",
        "rethink",
        "on the",
        "when ",
        "why ",
        "how ",
        "do ",
        "does ",
        "are ",
        "is ",
        "can ",
        "empirical",
        "survey",
        "lessons",
        "towards a theory",
        "what ",
    ),
}
_BENCH_SUFFIX = re.compile(r"bench\b|gym\b", re.IGNORECASE)


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


def outcome_window(cutoff: date) -> tuple[date, date]:
    """(after, until): an outcome counts when its list was decided in (cutoff, cutoff + cycle]."""
    return cutoff, add_months(cutoff, VENUE_CYCLE_MONTHS)


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


def venue_outcome(title: str, cutoff: date, folder: Path = VENUE_DIR) -> VenueOutcome | None:
    """Where the paper titled `title` was accepted in a cycle decided after `cutoff` (see the
    module docstring), or None: not found, decided before the cutoff or beyond the cycle, or
    found in lists of two families (ambiguous)."""
    after, until = outcome_window(cutoff)
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


def outcome_families(cutoff: date, folder: Path = VENUE_DIR) -> list[str]:
    """Families (FAMILIES order) with an accepted-paper list decided in (cutoff, cutoff + cycle]
    and present in `folder`: the only families an outcome can name."""
    after, until = outcome_window(cutoff)
    have = {v.family for v in _load_cached(str(Path(folder).resolve()), False) if after < v.venue_date <= until}
    return [f for f in FAMILIES if f in have]


# ----------------------------------------------------------------------------- embeddings

_VECTOR_CACHE: dict[tuple[object, str], np.ndarray] = {}


def _embed_titles_cached(titles: list[str], embed) -> np.ndarray:
    """Embeddings of venue titles, cached per process by (embedder, content digest).

    A bound method (`embedder.encode`) is a new object on each access, so the key uses
    the object it is bound to. ~30k titles take a few seconds; the cache makes the
    second domain / the gold builder free.
    """
    owner = getattr(embed, "__self__", embed)
    digest = hashlib.sha1("\n".join(titles).encode("utf-8")).hexdigest()
    key = (getattr(owner, "model_path", None) or id(owner), digest)
    if key not in _VECTOR_CACHE:
        if len(_VECTOR_CACHE) >= 16:
            _VECTOR_CACHE.pop(next(iter(_VECTOR_CACHE)))
        _VECTOR_CACHE[key] = embed(titles) if titles else np.zeros((0, 1), dtype=np.float32)
    return _VECTOR_CACHE[key]


def _eligible(venue_papers: list[VenuePaper], cutoff: date) -> list[VenuePaper]:
    return [v for v in venue_papers if v.venue_date <= cutoff and v.status != "submitted"]


def _max_cos(a: np.ndarray, b: np.ndarray, chunk: int = 512) -> tuple[np.ndarray, np.ndarray]:
    """For every row of a: max cosine to the rows of b and its argmax (chunked)."""
    best = np.full(len(a), -1.0, dtype=np.float32)
    arg = np.zeros(len(a), dtype=np.int64)
    if len(a) == 0 or len(b) == 0:
        return best, arg
    for s in range(0, len(a), chunk):
        sims = a[s : s + chunk] @ b.T
        arg[s : s + chunk] = sims.argmax(axis=1)
        best[s : s + chunk] = sims.max(axis=1)
    return best, arg


def _topk_mean(a: np.ndarray, b: np.ndarray, k: int, chunk: int = 2048) -> np.ndarray:
    out = np.zeros(len(a), dtype=np.float32)
    if len(b) == 0:
        return out
    k = min(k, len(b))
    for s in range(0, len(a), chunk):
        sims = a[s : s + chunk] @ b.T
        top = np.partition(sims, -k, axis=1)[:, -k:]
        out[s : s + chunk] = top.mean(axis=1)
    return out


OFF_TOPIC_QUANTILE = 0.02  # texts fitting their best community worse than 98% of typical domain papers: off-topic


def venue_similarity(
    texts: list[str],
    venue_papers: list[VenuePaper],
    cutoff: date,
    embed,
    *,
    k: int = 5,
    base_texts: list[str] | None = None,
    seed: int = 0,
) -> dict[str, float]:
    """Per family: how well `texts` fit its community, normalised for size; {} when off-topic.

    Each family is represented by the SAME number of accepted titles (a seeded sample the
    size of the smallest eligible family), so a big pool does not win by having more near
    neighbours; the fit is the mean over `texts` of the mean top-k cosine to that sample.
    Pass titles: the communities are known by their accepted titles, and like is compared
    with like. The ranking is by this absolute fit: subtracting a domain base rate per family
    (tried) makes the community farthest from the domain win for most projects (CVPR for
    LLM-agent papers), i.e. it measures distance from the domain, not fit.
    With `base_texts` (typical papers of the domain, as titles) the base rate decides
    confidence instead: when the texts' best fit is below the OFF_TOPIC_QUANTILE of the typical
    papers' best fits, the texts fit no community as a paper of the domain does, and the
    result is {} (no confident answer).
    Only lists with venue_date <= `cutoff` count (the gold builder passes a later date to
    see where future papers fit); families without an eligible list are omitted.
    """
    if not texts:
        return {}
    vecs, samples = _community_samples(venue_papers, cutoff, embed, seed)
    if not samples:
        return {}
    q = embed(list(texts))
    out = {fam: round(float(_topk_mean(q, vecs[sample], k).mean()), 6) for fam, sample in samples.items()}
    if base_texts and max(out.values()) < _off_topic_floor(base_texts, samples, vecs, embed, k, (str(cutoff), seed)):
        return {}
    return out


_SAMPLE_CACHE: dict[tuple, tuple[list, np.ndarray, dict[str, np.ndarray]]] = {}


def _community_samples(
    venue_papers: list[VenuePaper], cutoff: date, embed, seed: int
) -> tuple[np.ndarray, dict[str, np.ndarray]]:
    """(vectors of every listed title, per family the seeded equal-size sample of its eligible
    titles' rows): the same for every call of a partition (a venue gold asks it once per
    project), so cached by the lists' identity (the entry holds the list, so the id is not
    reused while cached), the cutoff and the seed."""
    owner = getattr(embed, "__self__", embed)
    key = (id(venue_papers), len(venue_papers), cutoff, seed, getattr(owner, "model_path", None) or id(owner))
    if key not in _SAMPLE_CACHE or _SAMPLE_CACHE[key][0] is not venue_papers:
        if len(_SAMPLE_CACHE) >= 16:
            _SAMPLE_CACHE.pop(next(iter(_SAMPLE_CACHE)))
        titles = sorted({v.title for v in venue_papers})  # one vector cache entry for every cutoff
        vecs = _embed_titles_cached(titles, embed)
        row = {t: i for i, t in enumerate(titles)}
        eligible = _eligible(venue_papers, cutoff)
        pools = {fam: sorted({row[v.title] for v in eligible if v.family == fam}) for fam in FAMILIES}
        pools = {fam: idx for fam, idx in pools.items() if idx}
        size = min((len(idx) for idx in pools.values()), default=0)
        samples = {
            fam: np.sort(np.random.default_rng([seed, FAMILIES.index(fam)]).choice(idx, size=size, replace=False))
            for fam, idx in pools.items()
        }
        _SAMPLE_CACHE[key] = (venue_papers, vecs, samples)
    return _SAMPLE_CACHE[key][1:]


_FLOOR_CACHE: dict[tuple, float] = {}


def _off_topic_floor(base_texts: list[str], samples: dict, vecs: np.ndarray, embed, k: int, key: tuple) -> float:
    """The OFF_TOPIC_QUANTILE of the typical papers' best-family fits: the same for every
    project of a partition, so cached (by the base texts' digest, the cutoff and the seed)."""
    digest = hashlib.sha1("\n".join(base_texts).encode("utf-8")).hexdigest()
    full = (digest, k, *key)
    if full not in _FLOOR_CACHE:
        if len(_FLOOR_CACHE) >= 16:
            _FLOOR_CACHE.pop(next(iter(_FLOOR_CACHE)))
        base = embed(list(base_texts))
        best = np.max(np.stack([_topk_mean(base, vecs[sample], k) for sample in samples.values()]), axis=0)
        _FLOOR_CACHE[full] = float(np.quantile(best, OFF_TOPIC_QUANTILE))
    return _FLOOR_CACHE[full]


# ----------------------------------------------------------------------------- profiles


def title_style(title: str) -> str:
    low = title.lower() + " "
    if _BENCH_SUFFIX.search(title) or any(c in low for c in STYLE_CUES["benchmark"]):
        return "benchmark"
    if any(low.startswith(c) or f" {c}" in low or f": {c}" in low for c in STYLE_CUES["analysis"]):
        return "analysis"
    return "method"


def distinctive_terms(close: list[str], rest: list[str], k: int = 10) -> list[str]:
    """Terms over-represented in the close titles vs the rest of the family (log-odds)."""

    def counts(titles):
        c = Counter()
        for t in titles:
            toks = [w for w in re.findall(r"[a-z][a-z0-9\-]+", t.lower()) if w not in STOP_WORDS and len(w) > 2]
            c.update(set(toks))
        return c

    a, b = counts(close), counts(rest)
    na, nb = max(1, len(close)), max(1, len(rest))
    scored = [(-(np.log((a[w] + 0.5) / na) - np.log((b[w] + 0.5) / nb)), w) for w in a if a[w] >= 2]
    return [w for _, w in sorted(scored)[:k]]


def _domain_reference(domain_papers: list[ScreenedPaper], cutoff: date, max_ref: int) -> list[ScreenedPaper]:
    """Cutoff-visible, non-excluded domain papers; the `max_ref` most relevant if more."""
    ref = [p for p in domain_papers if p.published <= cutoff and p.label != "excluded"]
    ref.sort(key=lambda p: (-p.relevance, p.arxiv_id))
    return sorted(ref[:max_ref], key=lambda p: p.arxiv_id)


def build_venue_profiles(
    venue_papers: list[VenuePaper],
    domain_papers: list[ScreenedPaper],
    cutoff: date,
    embed,
    *,
    domain: str,
    threshold: float = 0.75,
    max_ref: int = 3000,
    n_examples: int = 5,
) -> list[Signal]:
    """One venue_profile signal per family (FAMILIES order), from lists dated <= cutoff.

    A venue paper is *close* to the domain when the cosine of its title to the nearest
    domain-paper title is >= `threshold` (titles on both sides, so lengths match). The
    domain side is at most `max_ref` cutoff-visible papers (most relevant first) to keep
    the nearest-neighbour search a few seconds. paper_ids = the domain papers that are
    nearest neighbours of the family's close papers (the KB papers this profile rests on).
    """
    eligible = _eligible(venue_papers, cutoff)
    ref = _domain_reference(domain_papers, cutoff, max_ref)
    titles = sorted({v.title for v in venue_papers})
    row = {t: i for i, t in enumerate(titles)}
    all_vecs = _embed_titles_cached(titles, embed) if titles else np.zeros((0, 1))
    ref_vecs = embed([p.title for p in ref]) if ref else np.zeros((0, 1), dtype=np.float32)
    per_family: dict[str, dict] = {}
    for fam in FAMILIES:
        fam_papers = sorted((v for v in eligible if v.family == fam), key=lambda v: (v.venue, v.year, v.title))
        if not fam_papers:
            per_family[fam] = {"n": 0}
            continue
        vecs = all_vecs[[row[v.title] for v in fam_papers]]
        best, arg = _max_cos(vecs, ref_vecs)
        close = [i for i in range(len(fam_papers)) if best[i] >= threshold]
        close.sort(key=lambda i: (-float(best[i]), fam_papers[i].title))
        styles = Counter(title_style(fam_papers[i].title) for i in close)
        nn = Counter(ref[int(arg[i])].arxiv_id for i in close)
        per_family[fam] = {
            "n": len(fam_papers),
            "papers": fam_papers,
            "close": close,
            "best": best,
            "styles": styles,
            "nn": [pid for pid, _ in sorted(nn.items(), key=lambda kv: (-kv[1], kv[0]))[:10]],
            "venues": sorted({f"{v.venue} {v.year} (decisions ~{v.venue_date})" for v in fam_papers}),
        }
    shares = {f: len(d["close"]) / d["n"] for f, d in per_family.items() if d["n"]}
    signals = []
    for i, fam in enumerate(FAMILIES):
        d = per_family[fam]
        sid = f"sig:venue_profile:{i:03d}"
        if not d["n"]:
            has_list = any(spec.family == fam and spec.kind != "submissions" for spec in VENUE_LISTS)
            note = "no accepted-paper list dated on or before the cutoff" if has_list else "no accepted-paper list available"
            signals.append(
                Signal(
                    signal_id=sid,
                    kind="venue_profile",
                    domain=domain,
                    cutoff=cutoff,
                    title=f"{fam} profile",
                    summary=f"{fam}: {note}; no profile is derived (nothing invented).",
                    stats={"n_papers": 0.0, "n_close": 0.0, "share_close": 0.0},
                    details={"family": [fam], "note": [note]},
                )
            )
            continue
        n, close = d["n"], d["close"]
        n_close = len(close)
        share_close = n_close / n
        st = {s: (d["styles"][s] / n_close if n_close else 0.0) for s in ("method", "benchmark", "analysis")}
        papers = d["papers"]
        close_titles = [papers[j].title for j in close]
        rest_titles = [papers[j].title for j in range(n) if j not in set(close)]
        terms = distinctive_terms(close_titles, rest_titles)
        others = sorted(((s, f) for f, s in shares.items() if f != fam), reverse=True)
        compatible = [f"{f} (share_close {s:.3f})" for s, f in others if s >= 0.5 * share_close and s > 0]
        maturity, risks, expectations = profile_sentences(fam, n, n_close, share_close, st)
        signals.append(
            Signal(
                signal_id=sid,
                kind="venue_profile",
                domain=domain,
                cutoff=cutoff,
                title=f"{fam} profile",
                summary=(
                    f"{fam}: {n_close} of {n} accepted papers ({share_close:.1%}) are close to {domain} "
                    f"(title cosine >= {threshold}); style mix method {st['method']:.0%} / benchmark "
                    f"{st['benchmark']:.0%} / analysis {st['analysis']:.0%}."
                ),
                paper_ids=sorted(p for p in d["nn"]),
                stats={
                    "n_papers": float(n),
                    "n_close": float(n_close),
                    "share_close": round(share_close, 5),
                    "style_method": round(st["method"], 4),
                    "style_benchmark": round(st["benchmark"], 4),
                    "style_analysis": round(st["analysis"], 4),
                    "mean_nn_cos": round(float(np.mean(d["best"])), 4),
                    "threshold": threshold,
                },
                details={
                    "family": [fam],
                    "venues": d["venues"],
                    "terms": terms,
                    "example_titles": close_titles[:n_examples],
                    "maturity": maturity,
                    "reviewer_risks": risks,
                    "evidence_expectations": expectations,
                    "compatible_families": compatible,
                },
            )
        )
    return signals


def profile_sentences(fam: str, n: int, n_close: int, share_close: float, st: dict[str, float]):
    """Template sentences chosen by the numbers; each one states what drives it."""
    if share_close >= 0.05:
        maturity = [
            f"established topic here: {share_close:.1%} of accepted papers are close (>= 5%); "
            f"reviewers will compare against the {n_close} accepted close papers, so incremental "
            "gains need strong baselines."
        ]
    elif share_close >= 0.01:
        maturity = [
            f"present but not central: {share_close:.1%} of accepted papers are close (1-5%); "
            "a clear positioning against the closest accepted work is expected."
        ]
    else:
        maturity = [
            f"emerging or marginal here: {share_close:.1%} close (< 1%); venue fit must be argued "
            "and novelty is easier to claim than relevance."
        ]
    risks = []
    if st["method"] >= 0.6:
        risks.append(f"incremental-method risk: {st['method']:.0%} of close accepted titles are methods (>= 60%).")
    if st["benchmark"] >= 0.15:
        risks.append(
            f"benchmark-crowding risk: {st['benchmark']:.0%} of close titles are benchmarks/datasets (>= 15%); "
            "a new benchmark must show what existing ones miss."
        )
    if st["analysis"] >= 0.2:
        risks.append(f"analysis papers are common ({st['analysis']:.0%} >= 20%): claims must generalise beyond one setup.")
    if share_close < 0.01:
        risks.append(f"scope-fit risk: only {n_close} of {n} accepted papers are close (< 1%).")
    if not risks:
        risks.append("no dominant risk from the style mix (no style above its threshold).")
    expectations = [
        f"evidence mix of close accepted papers: method {st['method']:.0%}, benchmark/dataset "
        f"{st['benchmark']:.0%}, analysis {st['analysis']:.0%}; match the dominant style's evidence package."
    ]
    if st["benchmark"] >= 0.15:
        expectations.append("benchmark share >= 15%: released data, baseline sweeps and contamination checks expected.")
    if st["method"] >= 0.6:
        expectations.append(
            "method share >= 60%: head-to-head comparisons with the closest accepted methods and ablations expected."
        )
    return maturity, risks, expectations

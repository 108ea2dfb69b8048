"""The venue options: which families a task offers and how each is described."""

from __future__ import annotations

import re
from functools import lru_cache

from assets.evidence.venues.similarity import TITLE_RHETORIC
from assets.toolbox.building import clean_text
from core.records import Signal
from core.text import STOP_WORDS

# ForeSci B.5 venue families (all five; a task offers those with an outcome list, see above).
VENUE_FAMILIES = ("AAAI/IJCAI", "ACL/EMNLP/NAACL", "CVPR/ICCV/ECCV", "ICLR/ICML/NeurIPS", "SIGIR/KDD/WWW")
# Their release's venue buckets -> venue family.
VENUE_BUCKETS = {
    "AAAI": "AAAI/IJCAI",
    "IJCAI": "AAAI/IJCAI",
    "ACL": "ACL/EMNLP/NAACL",
    "EMNLP": "ACL/EMNLP/NAACL",
    "NAACL": "ACL/EMNLP/NAACL",
    "EACL": "ACL/EMNLP/NAACL",
    "COLING": "ACL/EMNLP/NAACL",
    "COLM": "ACL/EMNLP/NAACL",
    "CVPR": "CVPR/ICCV/ECCV",
    "ICCV": "CVPR/ICCV/ECCV",
    "ECCV": "CVPR/ICCV/ECCV",
    "ICLR": "ICLR/ICML/NeurIPS",
    "ICML": "ICLR/ICML/NeurIPS",
    "NEURIPS": "ICLR/ICML/NeurIPS",
    "SIGIR": "SIGIR/KDD/WWW",
    "KDD": "SIGIR/KDD/WWW",
    "WSDM": "SIGIR/KDD/WWW",
    "WWW": "SIGIR/KDD/WWW",
    "CIKM": "SIGIR/KDD/WWW",
}


def venue_family(profile: Signal) -> str:
    """Family name of a venue_profile signal ("ICLR/ICML/NeurIPS"), as venue_similarity keys it."""
    fam = profile.details.get("family") or []
    return fam[0] if fam else profile.title.removesuffix(" profile").strip()


# What each family is, in the words a researcher uses, and which of its tracks an outcome counts.
FAMILY_FIELDS = {
    "AAAI/IJCAI": "general AI conferences",
    "ACL/EMNLP/NAACL": "NLP conferences",
    "CVPR/ICCV/ECCV": "computer vision conferences",
    "ICLR/ICML/NeurIPS": "machine learning conferences",
    "SIGIR/KDD/WWW": "search, data mining and web conferences",
}
# ACL-family lists hold the main conference and Findings, and an outcome counts either (industry and
# demo tracks are not counted, `assets.evidence.venues.lists`): the option says so, never silently.
FAMILY_TRACKS = {"ACL/EMNLP/NAACL": "main conference or Findings"}
CLOSE_COSINE = 0.6  # an accepted title this close to the project's title (embedding cosine) is close work
CLOSE_JACCARD = 0.2  # ... or, without an embedder, this close by the Jaccard of content words
NEAR_EXAMPLES = 2  # accepted titles a descriptor shows
EXAMPLE_CHARS = 200  # titles shown whole: the reading of issue 32 found "…"-cut titles unreadable


def family_label(family: str) -> str:
    """ "ACL/EMNLP/NAACL (NLP conferences, main conference or Findings)": the family as a reader names it."""
    what = [w for w in (FAMILY_FIELDS.get(family, ""), FAMILY_TRACKS.get(family, "")) if w]
    return f"{family} ({', '.join(what)})" if what else family


# The shipped title embedder is a small static model: at cosine 0.6 it calls "Fair Clustering via
# Alignment" close to an LM-safety game paper and "ChatReID" close to a knowledge-graph RAG paper
# (blind reading seed 3637). Close work must therefore also be among the project's CLOSE_TOP_K
# nearest accepted titles over every family (close relative to what exists, so a family whose
# nearest titles are the field's generic ones is not "close") and share CLOSE_SHARED topic words
# with the project's title (words a researcher would name the topic by, not "model" or "learning").
CLOSE_TOP_K = 20
CLOSE_SHARED = 2
NEAR_K_CLOSE = CLOSE_TOP_K  # the nearest titles per family the build reads (the top-k bar needs as many)
GENERIC_TITLE_WORDS = (
    frozenset(
        "large language model models llm llms learning neural network networks deep via toward towards using based "
        "framework frameworks approach approaches method methods efficient effective novel new improving improved "
        "enhancing enhanced study analysis data multi generation task tasks system systems ai augment augmented self "
        "aware adaptive driven guided free open scalable robust general".split()
    )
    | TITLE_RHETORIC
)  # "Bridging ..." titles share no topic with each other by that word


@lru_cache(maxsize=200_000)
def topic_words(title: str) -> frozenset[str]:
    """A title's topic words: content words, hyphen parts split, a plural or -ing/-ed ending cut
    ("Agents" = "agent", "Reasoning" = "reason"), generic research words dropped."""
    out = set()
    for w in re.findall(r"[a-z][a-z0-9]+", title.lower().replace("-", " ")):
        if w in STOP_WORDS or w in GENERIC_TITLE_WORDS or len(w) < 3:
            continue
        for suffix in ("ing", "ed", "es", "s"):
            if len(w) > 4 and w.endswith(suffix):
                w = w[: -len(suffix)]
                break
        if w not in GENERIC_TITLE_WORDS:
            out.add(w)
    return frozenset(out)


def close_rows(near: dict[str, list], family: str, title: str | None = None, lexical: bool = False) -> list:
    """A family's accepted papers (its `nearest_accepted` rows) that are close work to the project:
    without an embedder (`lexical`), a content-word Jaccard of CLOSE_JACCARD; with one, cosine
    >= CLOSE_COSINE and, given the project's `title`, among the CLOSE_TOP_K nearest rows over all
    families and sharing CLOSE_SHARED topic words with it (see CLOSE_TOP_K)."""
    rows = near.get(family, [])
    if lexical:
        return [(s, v) for s, v in rows if s >= CLOSE_JACCARD]
    if title is None:
        return [(s, v) for s, v in rows if s >= CLOSE_COSINE]
    scores = sorted((s for r in near.values() for s, _ in r), reverse=True)
    bar = max(CLOSE_COSINE, scores[CLOSE_TOP_K - 1] if len(scores) >= CLOSE_TOP_K else 0.0)
    mine = topic_words(title)
    return [(s, v) for s, v in rows if s >= bar and len(mine & topic_words(v.title)) >= CLOSE_SHARED]


# Families whose accepted work before the cutoff came close to the project (`close_rows`): the
# gold's and two real rivals. The fifth-pass blind reading of issue 32 scored venue tasks
# "decision-worthy" 1.1 because two of the four families were filler (SIGIR/KDD/WWW for an image
# generator, CVPR for a tool-planning benchmark): with one close rival only, the task is a coin
# between two families dressed as a ranking of four.
MIN_CLOSE_FAMILIES = 3


def too_few_close_families(close: dict[str, list], offered: list[str]) -> str | None:
    """Why the offered families are too few real bets for the project (`close`: per family its
    `close_rows`), or None: at least MIN_CLOSE_FAMILIES of them (all, where fewer are offered)
    accepted close work before the cutoff."""
    need = min(MIN_CLOSE_FAMILIES, len(offered))
    if sum(bool(close.get(f)) for f in offered) < need:
        return f"fewer than {need} offered families accepted close work before the cutoff (options.MIN_CLOSE_FAMILIES)"
    return None


def close_count(near: list, lexical: bool = False) -> int:
    """How many of a family's nearest pre-cutoff accepted papers (`nearest_accepted` rows) pass the
    cosine (or Jaccard) bar alone (`close_rows` without a title)."""
    return sum(s >= (CLOSE_JACCARD if lexical else CLOSE_COSINE) for s, _ in near)


def _cite(v) -> str:
    t = clean_text(v.title)
    t = t if len(t) <= EXAMPLE_CHARS else t[: EXAMPLE_CHARS - 1].rsplit(" ", 1)[0] + "…"
    return f"'{t}' ({v.venue} {v.year})"


def venue_text(profile: Signal, near: list | None = None, lexical: bool = False, close: list | None = None) -> str:
    """The option a reader sees: the family, what it is, which tracks count, and its accepted papers
    decided before the cutoff nearest to THIS project: its close work (`close`, from `close_rows`)
    first, then its nearest titles (`near`, from `assets.evidence.venues.nearest_accepted`), always
    NEAR_EXAMPLES of them and in one neutral wording. The fourth-pass reading of issue 32 found that a
    verdict in the option ("none of the papers it accepted ... is close to this project") handed the
    reader the bottom ranks; the titles themselves are the evidence, and judging them is the task.
    (Earlier domain-level descriptors, "set apart by ...; more analyses 17%", were unreadable.)
    Without `near` (no list rows) the family and what it is."""
    fam = venue_family(profile)
    label = clean_text(family_label(fam))
    if not near:
        return label
    if close is None:
        close = [(s, v) for s, v in near if s >= (CLOSE_JACCARD if lexical else CLOSE_COSINE)]
    shown: list = []
    for _, v in [*close, *near]:
        if len(shown) < NEAR_EXAMPLES and all(v.title != w.title for w in shown):
            shown.append(v)
    return f"{label}: its accepted papers before the cutoff nearest to this project: " + "; ".join(_cite(v) for v in shown) + "."


# ----------------------------------------------------------------------------- the premise

UNDER_REVIEW_DAYS = 75  # decided within ~2.5 months of the cutoff: submitted before it (ICLR, WWW, CVPR 2026)
PREMISE_UNDER_REVIEW = "under_review"
PREMISE_NEXT_CYCLE = "next_cycle"


def premise_kind(decision_days_after_cutoff: int) -> str:
    """Whether the project's paper was already under review at the cutoff: its decision came
    within UNDER_REVIEW_DAYS of it (no venue reviews a paper submitted after the cutoff that fast:
    ICLR 2026 ~22 days, WWW 2026 ~13, CVPR 2026 ~51), or later (ACL 2026 ~94 days, via ARR cycles
    of October 2025 or January 2026; ICML 2026 ~120 days, papers due 2026-01-28): then it was
    submitted around the cutoff, before or after it."""
    return PREMISE_UNDER_REVIEW if decision_days_after_cutoff <= UNDER_REVIEW_DAYS else PREMISE_NEXT_CYCLE


# Whether the question's wording follows each project's premise kind. Off: measured on the RAG
# partition of 2025-12-31, the per-project wording told the gold family apart (5 of 6 "under review
# or about to be submitted" projects were ACL, none of 9 "already under review" ones was), so every
# question states the premise that is true of every project, and the kind stays in the hidden build.
PREMISE_PER_PROJECT = False


def premise_sentence(kind: str, cutoff: str, per_project: bool = PREMISE_PER_PROJECT) -> str:
    """The question's premise, true for the project at the cutoff. With `per_project`, by its real
    decision date (`premise_kind`): "already under review" when decided within UNDER_REVIEW_DAYS.
    Otherwise (the default) the wording true of every project, which says nothing about when its
    decision came: no decision yet, under review or about to be submitted."""
    if per_project and kind == PREMISE_UNDER_REVIEW:
        return (
            f"As of {cutoff}, this project's paper is already under review (it was submitted before the cutoff) "
            "and has no decision yet. Rank the venue families below by how likely each is to be the one that "
            "accepts it (most likely first), and position it for the top choice."
        )
    return (
        f"As of {cutoff}, this project's paper has no venue decision yet: it is under review or about to be "
        "submitted, in the venue cycles that decide in the coming months. Rank the venue families below by how "
        "likely each is to accept it (most likely first), and position it for the top choice."
    )


# ----------------------------------------------------------------------------- plausible rival

RIVAL_GAP = 0.02  # a non-gold family whose fit to the project is within this cosine of the best fit is a real rival


def plausible_rival(fits: dict[str, float], gold: str) -> str | None:
    """The non-gold family a reader would seriously consider for the project, or None when every
    rival is filler: the best-fitting non-gold family, if its fit (the project title's mean top-5
    cosine to an equal-size sample of the family's pre-cutoff accepted titles,
    `assets.evidence.venues.venue_similarity`) is the best of all or within RIVAL_GAP of it."""
    if not fits:
        return None
    rivals = {f: v for f, v in fits.items() if f != gold}
    if not rivals:
        return None
    best_rival = max(rivals, key=lambda f: (rivals[f], f))
    return best_rival if rivals[best_rival] >= max(fits.values()) - RIVAL_GAP else None


# ----------------------------------------------------------------------------- answer basis

BASIS_TOP = 2  # the gold family must be one of the 2 families whose pre-cutoff accepted work is nearest the project
BASIS_NEAREST = 3  # a family's nearness: the mean similarity of its 3 accepted titles nearest to the project


def nearness(near: dict[str, list]) -> dict[str, float]:
    """Per family, the mean similarity of its BASIS_NEAREST accepted titles nearest to the project."""
    return {f: sum(s for s, _ in rows[:BASIS_NEAREST]) / len(rows[:BASIS_NEAREST]) for f, rows in near.items() if rows}


def nearness_note(near: dict[str, list]) -> str:
    """The build's record of `nearness` ("ACL/EMNLP/NAACL=0.7012; CVPR/ICCV/ECCV=0.6634"), which the
    gold reads back (`read_nearness`) to order the families that similar papers' outcomes cannot."""
    return "; ".join(f"{f}={v:.4f}" for f, v in sorted(nearness(near).items()))


def read_nearness(note: str) -> dict[str, float]:
    """`nearness_note` read back ({} for an empty or older note)."""
    out = {}
    for part in note.removeprefix("pass: ").split(";"):
        fam, _, value = part.strip().rpartition("=")
        try:
            out[fam] = float(value)
        except ValueError:
            continue
    return {f: v for f, v in out.items() if f}


def answer_basis(
    near: dict[str, list], gold: str, offered: list[str], lexical: bool = False, title: str | None = None
) -> str | None:
    """Why a reader at the cutoff has no basis to reach the real outcome `gold`, or None when there is
    one. The blind reading of issue 32 scored atypical outcomes (a general tool-using agent accepted
    at WWW, a video-generation method at ACL Findings) as luck: nothing a reader could see pointed to
    them. A basis is evidence dated by the cutoff, shown in the options (`venue_text`), not the
    outcome itself: the gold family accepted work close to the project before the cutoff
    (`close_count` of its `nearest_accepted` rows >= 1), and it is one of the BASIS_TOP offered
    families whose accepted work is nearest the project (`nearness`). Close work is `close_rows`
    (with the project's `title`, the stricter reading the options show)."""
    if not close_rows(near, gold, title, lexical):
        return f"{gold} accepted no paper close to the project before the cutoff"
    score = {f: v for f, v in nearness(near).items() if f in offered}
    if gold in score:
        rank = 1 + sum(v > score[gold] for v in score.values())
        if rank > BASIS_TOP:
            return f"{gold} is only number {rank} of {len(score)} families by the nearness of its accepted work"
    return None

"""Venue projects: which pre-cutoff papers become venue tasks, and how they are described.

A venue task's project is one real paper, published in the PROJECT_MONTHS before the cutoff
(a recent pre-cutoff preprint), whose acceptance was decided after the cutoff
(`assets.evidence.venues.venue_outcome`). Window papers (published after the cutoff) are
never projects: their abstracts are post-cutoff text. Every rule here is deterministic.

**Home domain** (one project text, one task, across domains). A paper can sit in several
domain corpora. It becomes a project only in its home domain: of the registry domains
whose shipped corpus holds it (and the partition's own domain), the one whose description
it fits best, i.e. the highest cosine of the paper's embedded title + abstract to the
domain's registry description (the `own` term of the corpus screen, `assets.corpus.logic.
screen`, whose contrastive relevance ranks domains in the same order). Every partition
computes the same cosines from the same registry and embedder, so a paper is claimed by
exactly one domain, inside one partition's build. Without an embedder (unit tests) the
rule is the first registry domain holding the paper.

**Description** (`project_description`): 2-3 consecutive sentences of the abstract,
verbatim (double quotes turned into single ones: the question quotes the description),
ending with the first sentence that states the paper's own approach (a self-reference such
as "we" or "this paper" followed, after at most two adverbs, by an approach verb such as
propose, introduce, present or study) and starting at a sentence that reads on its own:

* it starts with a capital letter (or a mixed-case name such as "vLLM") and not with a
  connective, pronoun or self-reference (OPENERS: "However", "Moreover", "To this end",
  "In this paper", "We", "This", "These", "It", ...);
* its first FIRST_WORDS words hold no anaphor ("this", "these", "such", "aforementioned",
  ...) that points at a sentence left out, and no self-reference ("In our experiments, we
  find ...": the paper's own work before it is introduced);
* no sentence holds markup or LaTeX (`$ \\ { } ^ _ < >`, "**", a URL), names a venue or
  an acceptance (VENUE_WORDS), or repeats the paper's title (>= MIN_TITLE_CHARS);
* the whole is MIN_WORDS-MAX_WORDS words.

A paper whose title or abstract names a venue or an acceptance anywhere is no project (its
abstract is in the knowledge base and would give the outcome away). The arXiv id is never
shown; the task's title names the project by its paper's title (`naming.project_name`), and
the system's name inside the approach sentence is kept (the paper's own wording, which says
nothing about the venue).
"""

from __future__ import annotations

import gzip
import json
import re
from collections import Counter
from dataclasses import dataclass
from datetime import date
from functools import lru_cache
from pathlib import Path

import numpy as np

from assets.corpus.logic import paper_text
from assets.evidence.venues import VENUE_DIR, venue_outcome
from core.papers import add_months
from core.records import ScreenedPaper
from core.registry import load_registry

PROJECT_MONTHS = 6  # projects: papers published in the 6 months up to the cutoff
MIN_WORDS, MAX_WORDS = 25, 130
MAX_SENTENCES = 3
FIRST_WORDS = 8  # an anaphor among the opening sentence's first words points back: no opener
MIN_TITLE_CHARS = 20

OPENERS = (
    "however",
    "but",
    "and",
    "or",
    "so",
    "yet",
    "nor",
    "moreover",
    "furthermore",
    "additionally",
    "in addition",
    "also",
    "besides",
    "thus",
    "therefore",
    "hence",
    "consequently",
    "accordingly",
    "as a result",
    "as such",
    "meanwhile",
    "nevertheless",
    "nonetheless",
    "still",
    "instead",
    "in contrast",
    "conversely",
    "on the other hand",
    "to this end",
    "to that end",
    "to address",
    "to tackle",
    "to overcome",
    "to mitigate",
    "to solve",
    "to bridge",
    "to fill",
    "to remedy",
    "to alleviate",
    "to close",
    "to handle",
    "to resolve",
    "to achieve",
    "to enable",
    "to this",
    "in response",
    "in this paper",
    "in this work",
    "in this study",
    "in this article",
    "in this report",
    "in this position paper",
    "here",
    "herein",
    "this",
    "these",
    "that",
    "those",
    "it",
    "its",
    "they",
    "their",
    "them",
    "such",
    "we",
    "our",
    "us",
    "specifically",
    "in particular",
    "notably",
    "finally",
    "lastly",
    "first",
    "firstly",
    "second",
    "secondly",
    "third",
    "then",
    "next",
    "unlike",
    "compared",
    "building on",
    "building upon",
    "based on",
    "following",
    "experiments",
    "extensive",
    "results",
    "overall",
    "together",
    "both",
    "each",
    "either",
    "neither",
    "the former",
    "the latter",
    "the proposed",
    "the resulting",
    "in doing so",
    "by doing so",
    "by contrast",
    "in summary",
    "to summarize",
    "in short",
    "ultimately",
    "further",
    "other",
    "another",
    "otherwise",
    "similarly",
    "likewise",
    "accordingly",
    "namely",
    "i.e.",
    "e.g.",
)
ANAPHORS = (
    "this",
    "these",
    "those",
    "such",
    "aforementioned",
    "above-mentioned",
    "above",
    "former",
    "latter",
    "said",
    "thereof",
    "therein",
    "it",
    "they",
    "them",
    "their",
    "its",
    "we",
    "our",
    "us",
)  # "In our experiments, we find ...": the paper's own work, not yet introduced
_SELF = r"\b(?:we|this (?:paper|work|study|article|report)|here)\b"
_VERB = (
    r"\b(?:propose[sd]?|introduce[sd]?|present(?:s|ed)?|develop(?:s|ed)?|design(?:s|ed)?|builds?|built|"
    r"construct(?:s|ed)?|release[sd]?|curate[sd]?|devise[sd]?|create[sd]?|formulate[sd]?|establish(?:es|ed)?|"
    r"contribute[sd]?|offer(?:s|ed)?|stud(?:y|ies|ied)|investigate[sd]?|explore[sd]?|examine[sd]?|"
    r"analy[sz]e[sd]?|puts? forward)\b"
)
# the paper's own approach: a self-reference, at most two adverbs ("we first propose"), an approach verb; group 1 = its object
APPROACH_OBJECT = re.compile(
    _SELF + r",?(?:\s+(?:\w+ly|first|further|also|then|thus|therefore|hence|here|now|instead|"
    r"next|newly|jointly)){0,2},?\s+" + _VERB + r"\s+(.+)$",
    re.IGNORECASE,
)
_MARKUP = re.compile(r"[$\\{}^_<>]|\*\*|`|https?://|www\.|github\.com|\[\d")
VENUE_WORDS = re.compile(
    r"\b(ICLR|ICML|NeurIPS|NIPS|CVPR|ICCV|ECCV|ACL|EMNLP|NAACL|EACL|AACL|COLING|COLM|AAAI|IJCAI|SIGIR|KDD|WWW|"
    r"WSDM|CIKM|TACL|TMLR|AISTATS|UAI|CoRL|ICRA|IROS|MICCAI|ICASSP|Interspeech|SIGGRAPH|3DV|WACV|BMVC|MM)\b"
    r"|\b(accepted (?:at|to|by|in|for)|to appear (?:at|in)|camera[- ]ready|conference on|proceedings|"
    r"workshop|main conference|oral presentation|spotlight)\b",
    re.IGNORECASE,
)
_QUOTES = re.compile(r'["“”]')
_ABBREV = re.compile(
    r"(?:\b(?:e\.g|i\.e|et al|etc|vs|cf|approx|Fig|Figs|Eq|Eqs|Sec|No|resp|incl|Dr|Mr|Ms|St)\.|"
    r"\b[A-Z]\.)$"
)
_SPLIT = re.compile(r"(?<=[.!?])\s+(?=[\"“(\[]?[A-Z0-9])")


def split_sentences(text: str) -> list[str]:
    """Sentences of an abstract (abbreviations such as "e.g." and "et al." do not end one)."""
    parts = _SPLIT.split(" ".join((text or "").split()))
    out: list[str] = []
    for part in parts:
        if out and _ABBREV.search(out[-1]):
            out[-1] = f"{out[-1]} {part}"
        else:
            out.append(part)
    return [s.strip() for s in out if s.strip()]


def names_a_venue(text: str) -> bool:
    return bool(VENUE_WORDS.search(text or ""))


def _words(text: str) -> list[str]:
    return re.findall(r"[A-Za-z][A-Za-z'\-]*|\d+", text)


# A later item of a list ("(2) The performance of PRAG ...", "Second, ..."): a description opening on
# it never says what the first item was (sixth-pass blind reading of issue 32, a PRAG project).
LATER_ITEM = re.compile(r"^\s*(?:\(?(?:[2-9]|ii+|iv|v|vi+|[b-h])\)|(?:second|third|fourth|finally|lastly)\b)", re.I)


def good_opener(sentence: str) -> bool:
    """Whether a description may start with `sentence` (module docstring): never on a later list item."""
    words = sentence.split()
    if not words or LATER_ITEM.search(sentence):
        return False
    first = words[0].strip("\"“(['")
    if not first or not (first[0].isupper() or first[0].isdigit() or any(c.isupper() for c in first[1:])):
        return False
    low = " ".join(w.lower().strip(",;:") for w in words[:5])
    if any(low == o or low.startswith(o + " ") or low.startswith(o + ",") for o in OPENERS):
        return False
    head = [w.lower() for w in _words(" ".join(words[:FIRST_WORDS]))]
    return not any(w in ANAPHORS for w in head)


def is_approach(sentence: str) -> bool:
    """A sentence stating the paper's own approach: a self-reference ("we", "this paper", "here")
    followed, after at most two adverbs, by an approach verb (propose, introduce, present, study, ...)."""
    return bool(APPROACH_OBJECT.search(sentence))


def _clean(sentence: str, title: str) -> bool:
    if _MARKUP.search(sentence) or names_a_venue(sentence):
        return False
    t = re.sub(r"\W+", " ", title.lower()).strip()
    return not (len(t) >= MIN_TITLE_CHARS and t in re.sub(r"\W+", " ", sentence.lower()))


# A survey or position paper is no positioning decision between research venues: the main tracks
# of CVPR or ICLR/NeurIPS are unrealistic for it (the fourth-pass reading of issue 32: a survey
# project offered CVPR second).
SURVEY = re.compile(
    r"\bsurvey (?:of|on)\b|\bsurvey\s*$|:\s*a (?:\w+ )?survey\b|^\s*position:|\bposition paper\b"
    r"|\b(?:systematic|literature) review\b|\btutorial\b",
    re.I,
)


def project_description(title: str, abstract: str) -> tuple[str | None, str]:
    """(description, "") or (None, why not) for a paper (rules in the module docstring)."""
    if names_a_venue(title) or names_a_venue(abstract):
        return None, "the title or abstract names a venue or an acceptance"
    if SURVEY.search(title) or re.search(
        r"\b(?:this|our) (?:survey|position paper|systematic review)\b|\bwe survey\b", abstract, re.I
    ):
        return None, "a survey or position paper: no venue positioning decision"
    sents = split_sentences(abstract)
    m = next((i for i, s in enumerate(sents) if is_approach(s)), None)
    if m is None:
        return None, "no sentence states the paper's own approach"
    if m == 0:
        return None, "the abstract opens with its approach: no problem sentence to start from"
    for start in range(max(0, m - MAX_SENTENCES + 1), m):
        if not good_opener(sents[start]):
            continue
        chosen = sents[start : m + 1]
        text = _QUOTES.sub("'", " ".join(chosen))  # the question quotes the description in double quotes
        n = len(text.split())
        if not all(_clean(s, title) for s in chosen) or not MIN_WORDS <= n <= MAX_WORDS:
            continue
        return text, ""
    return None, "no span of 2-3 sentences before the approach starts cleanly, without markup, in length"


# --------------------------------------------------------------------------------------
# home domain
# --------------------------------------------------------------------------------------


@lru_cache(maxsize=2)
def corpus_holdings(shipped_dir: str = "") -> dict[str, tuple[str, ...]]:
    """arXiv id -> the registry domains (registry order) whose shipped corpus file holds it."""
    from resources.corpus_source import SHIPPED_DIR

    folder = Path(shipped_dir) if shipped_dir else SHIPPED_DIR
    out: dict[str, list[str]] = {}
    for name, spec in load_registry().domains.items():
        path = folder / spec.shipped_file
        if not path.exists():
            continue
        with gzip.open(path, "rt", encoding="utf-8") as handle:
            for line in handle:
                try:
                    pid = json.loads(line).get("arxiv_id")
                except json.JSONDecodeError:
                    continue
                if pid:
                    out.setdefault(re.sub(r"v\d+$", "", str(pid)), []).append(name)
    return {k: tuple(dict.fromkeys(v)) for k, v in out.items()}


def home_domains(papers: list, domain: str, embed=None, holdings: dict[str, tuple[str, ...]] | None = None) -> dict[str, str]:
    """arXiv id -> home domain of each paper of `papers` (held by `domain`'s corpus), see the
    module docstring. `embed` maps texts to L2-normalised vectors; None: first registry domain."""
    reg = load_registry()
    order = list(reg.domains)
    holdings = corpus_holdings() if holdings is None else holdings
    held = {p.arxiv_id: [d for d in order if d == domain or d in holdings.get(p.arxiv_id, ())] for p in papers}
    out = {pid: ds[0] for pid, ds in held.items() if len(ds) == 1}
    multi = [p for p in papers if len(held[p.arxiv_id]) > 1]
    if not multi:
        return out
    if embed is None:
        return out | {p.arxiv_id: held[p.arxiv_id][0] for p in multi}
    desc = np.asarray(embed([reg.domains[d].description for d in order]))
    vecs = np.asarray(embed([paper_text(p) for p in multi]))
    sims = vecs @ desc.T
    for p, row in zip(multi, sims):
        cands = held[p.arxiv_id]
        out[p.arxiv_id] = max(cands, key=lambda d: (round(float(row[order.index(d)]), 6), -order.index(d)))
    return out


# --------------------------------------------------------------------------------------
# project selection
# --------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Project:
    """A paper that becomes a venue task: its public description and (hidden) outcome family."""

    paper: ScreenedPaper  # a ScreenedPaper of the partition (published on or before the cutoff)
    description: str
    family: str  # where it was accepted: used only to balance the selection, never shown
    home_note: str = ""


def select_projects(
    papers: list,
    cutoff: date,
    domain: str,
    families: list[str],
    *,
    embed=None,
    holdings: dict[str, tuple[str, ...]] | None = None,
    folder: Path | None = None,
    until: date | None = None,
) -> tuple[list[Project], Counter]:
    """The partition's outcome projects, in build order, and why other candidates were skipped.

    Candidates: non-excluded papers published in the PROJECT_MONTHS up to `cutoff` with an
    outcome (`venue_outcome`) in one of `families` and a clean description, whose home domain
    is `domain`. Order: round-robin over `families` (their given order), most recent paper
    first within each, so the built tasks' outcomes are spread over the families as evenly as
    the corpus allows (a constant "always the largest family" answer then gains little).
    """
    start = add_months(cutoff, -PROJECT_MONTHS)
    reasons: Counter = Counter()
    cands: list[tuple[ScreenedPaper, str, str]] = []
    seen: set[str] = set()
    for p in sorted(papers, key=lambda p: (p.published, p.arxiv_id), reverse=True):
        if getattr(p, "label", "") == "excluded" or not (start < p.published <= cutoff):
            continue
        outcome = venue_outcome(p.title, cutoff, folder or VENUE_DIR, until=until)
        if outcome is None or outcome.family not in families:
            continue
        text, why = project_description(p.title, p.abstract)
        if text is None:
            reasons[why] += 1
            continue
        key = " ".join(re.findall(r"[a-z0-9]+", text.lower()))
        if key in seen:
            reasons["the same description as another project"] += 1
            continue
        seen.add(key)
        cands.append((p, text, outcome.family))
    home = home_domains([c[0] for c in cands], domain, embed, holdings)
    by_family: dict[str, list[Project]] = {f: [] for f in families}
    for p, text, fam in cands:
        if home.get(p.arxiv_id, domain) != domain:
            reasons[f"home domain is {home[p.arxiv_id]}"] += 1
            continue
        by_family[fam].append(
            Project(
                paper=p,
                description=text,
                family=fam,
                home_note=f"pass: home domain {domain} (best fit of the corpora holding it)",
            )
        )
    out: list[Project] = []
    for i in range(max((len(v) for v in by_family.values()), default=0)):
        out += [by_family[f][i] for f in families if i < len(by_family[f])]
    return out, reasons

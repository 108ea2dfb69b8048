"""Approaches inside a candidate direction: what a team working on the direction could build on
(the planning family's options, ForeSci App. B.4).

A planning decision is made inside one direction ("our team works on GUI agents: reinforcement
learning, visual grounding, world models or synthetic trajectories first?"), so its options are
the named approaches that the direction's own papers use. The rule, on cutoff-visible papers only:

1. The direction's papers: those whose title or abstract names it (its defining phrase key,
   `core.phrases.phrase_keys`); the direction qualifies with at least MIN_DIRECTION_PAPERS of
   them, MIN_DIRECTION_RECENT of them in the RECENT_MONTHS before the cutoff.
2. An approach is a phrase key of those papers' titles and abstracts (read from the direction's
   DISCOVERY_PAPERS most recent papers) that
   * is held by at least MIN_APPROACH_PAPERS of them and by at most MAX_APPROACH_SHARE (a phrase
     most of the direction's papers use is the direction itself, not a choice inside it),
   * is a name researchers put in titles: a key of at least MIN_TITLE_USES titles of the domain
     (so abstract boilerplate, "experimental results", never qualifies),
   * passes the option rules of `core.phrases` (no contribution type, no bare common word, no
     backbone model: "GPT-4", "pre-trained models", no whole field: "machine learning"), is not the truncation of a longer key
     ("singular value" of "singular value decomposition", `prefer_longer`), and shares no word
     stem with the direction's name,
   * names a method, not a goal or capability it serves nor a problem it removes
     (`vague_approach`: last word in GOAL_HEADS, "multi-step reasoning", "model alignment", or in
     PROBLEM_HEADS, "catastrophic forgetting"; or generic data, "training data"),
   * is used as a method: in at least MIN_METHOD_USE of its occurrences in the direction's
     texts it follows a method cue ("via", "using", "with", "through", "by", "based on",
     "leveraging", "combining", "integrating", "incorporating", "built on", "powered by",
     "employing", "adopting", "applying" within METHOD_CUE_WINDOW words before it) -- a
     method, not a task or a setting ("question answering", "GUI environments"),
   * is alive: at least MIN_APPROACH_RECENT of its papers in the RECENT_MONTHS before the cutoff.
3. Distinct: taken most papers first; one that names the same thing as a taken one
   (`core.phrases.same_direction`) or shares more than MAX_APPROACH_OVERLAP of the smaller one's
   papers is skipped; at most MAX_APPROACHES per direction.

No Dagster here.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from datetime import date

from core.papers import add_months
from core.phrases import (
    _spans,
    backbone_problem,
    contribution_type,
    field_problem,
    key_of,
    names,
    normal_text,
    one_word_problem,
    prefer_longer,
    readable_case,
    same_direction,
    segments,
    stems,
    umbrella_problem,
)
from core.records import ScreenedPaper

RECENT_MONTHS = 6
MIN_DIRECTION_PAPERS = 40
MIN_DIRECTION_RECENT = 15
MIN_APPROACH_PAPERS = 6
MAX_APPROACH_SHARE = 0.35
MIN_TITLE_USES = 5
MIN_APPROACH_RECENT = 3
MAX_APPROACH_OVERLAP = 0.3
MAX_APPROACHES = 12
DISCOVERY_PAPERS = 300  # the direction's most recent papers its approaches are read from
MIN_METHOD_USE = 0.1
METHOD_CUE_WINDOW = 3
METHOD_CUES = frozenset(
    "via using with through by leveraging combining integrating incorporating employing adopting "
    "applying utilizing utilising exploiting powered built based".split()
)


# A goal or capability is what a method serves, not a method ("multi-step reasoning", "model
# alignment", "user preferences"); a generic modifier of data names no data strategy
# ("training data", unlike "synthetic data"). Found reading released planning tasks.
GOAL_HEADS = frozenset(
    "alignment reasoning preference preferences understanding generalization generalisation "
    "performance capability capabilities efficiency robustness safety quality accuracy".split()
)
GENERIC_DATA_MODIFIERS = frozenset("training model user input task".split())
# A problem is what an approach removes, not an approach ("catastrophic forgetting", "spurious correlations").
PROBLEM_HEADS = frozenset("forgetting hallucination correlation bias collapse overfitting overthinking".split())


def vague_approach(key: str) -> bool:
    """True for an approach key that names a goal or a problem, or data by a generic modifier
    (constants above)."""
    words = key.split()
    return words[-1] in GOAL_HEADS | PROBLEM_HEADS or (
        len(words) == 2 and words[1] == "data" and words[0] in GENERIC_DATA_MODIFIERS
    )


@dataclass
class Approach:
    key: str
    display: str
    members: list[str]  # the direction's papers that name the approach, sorted
    n_recent: int


def normal_texts(papers: list[ScreenedPaper]) -> dict[str, str]:
    """Each paper's title and abstract as `core.phrases.normal_text` (computed once per partition)."""
    return {p.arxiv_id: normal_text(f"{p.title}. {p.abstract}") for p in papers}


def direction_papers(key: str, papers: list[ScreenedPaper], normal: dict[str, str]) -> list[ScreenedPaper]:
    """The papers whose title or abstract names the direction's key."""
    return [p for p in papers if names(key, normal[p.arxiv_id])]


class PhraseIndex:
    """The domain's papers' title-vocabulary phrases, found once per paper and shared by every
    direction: for each paper, (key, surface form, follows a method cue) of every span of its
    title and abstract whose key is a title phrase of at least MIN_TITLE_USES domain titles."""

    def __init__(self, papers: list[ScreenedPaper], title_df: Counter):
        self.normal = normal_texts(papers)
        self.vocab = {k for k, c in title_df.items() if c >= MIN_TITLE_USES}
        self._found: dict[str, list[tuple[str, str, bool]]] = {}

    def found(self, p: ScreenedPaper) -> list[tuple[str, str, bool]]:
        if p.arxiv_id not in self._found:
            out = []
            for text in (p.title, p.abstract):
                for words in segments(text):
                    low = [w.lower() for w in words]
                    for a, b in _spans(words):
                        k = key_of(words[a:b])
                        if k in self.vocab:
                            cued = any(w in METHOD_CUES for w in low[max(0, a - METHOD_CUE_WINDOW) : a])
                            out.append((k, " ".join(words[a:b]), cued))
            self._found[p.arxiv_id] = out
        return self._found[p.arxiv_id]


def direction_approaches(
    direction_key: str, direction_name: str, papers: list[ScreenedPaper], index: PhraseIndex, cutoff: date
) -> list[Approach]:
    """The direction's approaches by the rule in the module docstring, most papers first.
    `papers` are the cutoff-visible papers of the domain, `index` their `PhraseIndex`."""
    own = direction_papers(direction_key, papers, index.normal)
    recent_start = add_months(cutoff, -RECENT_MONTHS)
    if len(own) < MIN_DIRECTION_PAPERS or sum(p.published > recent_start for p in own) < MIN_DIRECTION_RECENT:
        return []
    # which phrases the direction's work uses: read from its DISCOVERY_PAPERS most recent papers
    sample = sorted(own, key=lambda p: (p.published, p.arxiv_id))[-DISCOVERY_PAPERS:]
    df: Counter = Counter()
    seen: Counter = Counter()
    cued: Counter = Counter()
    surface: dict[str, Counter] = {}
    for p in sample:
        keys = set()
        for k, form, cue in index.found(p):
            keys.add(k)
            seen[k] += 1
            cued[k] += cue
            surface.setdefault(k, Counter())[form] += 1
        df.update(keys)
    n = len(sample)
    truncated = prefer_longer(dict(df))
    pool = [
        k
        for k, c in df.items()
        if MIN_APPROACH_PAPERS * n / len(own) <= c <= MAX_APPROACH_SHARE * n and k != direction_key and k not in truncated
    ]
    name_stems = stems(direction_name)
    recent = {p.arxiv_id for p in own if p.published > recent_start}
    out: list[Approach] = []
    for k in sorted(pool, key=lambda k: (-df[k], k)):
        name = readable_case(max(surface[k].items(), key=lambda kv: (kv[1], kv[0]))[0])
        if (
            contribution_type(name)
            or one_word_problem(name)
            or backbone_problem(name)
            or field_problem(name)
            or umbrella_problem(name)
            or stems(name) & name_stems
            or same_direction(name, direction_name)
            or cued[k] / seen[k] < MIN_METHOD_USE
            or vague_approach(k)
        ):
            continue
        members = sorted(p.arxiv_id for p in own if names(k, index.normal[p.arxiv_id]))
        n_recent = sum(i in recent for i in members)
        if len(members) < MIN_APPROACH_PAPERS or n_recent < MIN_APPROACH_RECENT:
            continue
        rows = set(members)
        if any(
            same_direction(name, a.display) or len(rows & set(a.members)) > MAX_APPROACH_OVERLAP * min(len(rows), len(a.members))
            for a in out
        ):
            continue
        out.append(Approach(key=k, display=name, members=members, n_recent=n_recent))
        if len(out) >= MAX_APPROACHES:
            break
    return out

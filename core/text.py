"""Text normalisation shared by every stage: word sets, Jaccard, stop words.

One module, so that "which words count" is decided in one place.
"""

from __future__ import annotations

import math
import re

_WORDS = re.compile(r"[a-z0-9][a-z0-9\-]+")

# The one stop-word list: English function words, research-abstract boilerplate ("we
# propose", "results show"), words every paper of these domains uses ("llm", "agent",
# "model") and limitation cue words ("fails", "struggles"), which name no topic by
# themselves. Words that do name a topic in some phrase ("learning", "data",
# "evaluation", "benchmark", "neural", "system") are kept. Every lexical step (labels, top terms, bottleneck phrases, venue terms,
# future-only terms, decision signatures) drops these. TF-IDF over titles adds
# scikit-learn's English list on top (assets/taxonomy).
STOP_WORDS = (
    frozenset(
        """
a abilities ability about above achieve achieves across address addresses after again against agent agentic
agents ai all also although among an and any approach approaches are as at based be because been before being
below between beyond both bottleneck bottlenecks but by can capabilities capability challenge challenges
challenging comprehensive costly could critical crucial current demonstrate demonstrated demonstrates did
different do does doing due during each effective effectively efficient either enable enables enhancing
especially et even existing fail failing fails failure few first for framework frameworks from further had
has have having here high how however if important impressive improve improved improves improving in
including into is issue issues it its itself just key lack lacks language large largely lead leads leveraging
limitation limitations limited llm llm-based llms lm lms low made mainly make makes making many may method
methods might model models more moreover most much must need needs new no nor not novel of off often on once
one only or other our ours out over own paper particularly per performance present primarily promise
promising propose proposed provide recent recently relies rely remain remains remarkable results same several
should show shown shows significant significantly so some specific state-of-the-art still struggle struggles
studies study such suffer suffers task tasks than that the their them then there these they this those three
through thus to too toward towards two typically under until up upon use used uses using various versus very
via vs was we well were what when where whether which while who whom whose why will with within without work
works would yet you your
""".split()
    )
    | frozenset(
        # web and release boilerplate of abstracts ("code is publicly available at github"):
        # never a research direction (issue: readable labels, no generic or web terms)
        "github https http www com org html io url available publicly release released strong extensive superior".split()
    )
    | frozenset(
        # filler of complaint sentences that otherwise reaches bottleneck labels ("generalizable / like")
        "like better fully advances settings".split()
    )
)
# Words that never start or end a term in the leakage checks (core/leakage): function
# words and the domain's omnipresent nouns only. Deliberately shorter than STOP_WORDS: the
# check must keep "use" in "tool use", and a shorter list flags more, which is the safe side.
TERM_STOP_WORDS = frozenset(
    """
a about above after again against all also an and any are as at be been before being between both but by can
could did do does for from further had has have how if in into is it its more most no nor not of off on once
only or other our out over own same should so some such than that the their them then there these they this
those through to too under until up very via was we were what when where which while who whom why will with
within without would you your new towards toward using based vs versus via beyond large language model models
llm llms agent agents
""".split()
)
# Scaffolding of our own gold claims ("between ... and ...", "share among the options").
CLAIM_SCAFFOLD_WORDS = frozenset("between before after among options option domain papers paper share".split())
# Scaffolding of our own option texts ("keywords: ...; e.g. ...", "Feasibility: ...").
SCAFFOLD_WORDS = frozenset("keywords e.g feasibility support pre-cutoff papers".split())


def word_set(text: str) -> set[str]:
    """Lower-cased word tokens (letters, digits, hyphens) without stop and scaffolding words."""
    return {w for w in _WORDS.findall(text.lower()) if w not in STOP_WORDS and w not in SCAFFOLD_WORDS}


def jaccard(a: set, b: set) -> float:
    return len(a & b) / len(a | b) if a | b else 0.0


def content_tokens(text: str) -> list[str]:
    """Lower-cased word tokens of 3+ characters that are not stop words, in text order."""
    return [t for t in re.findall(r"[a-z][a-z0-9\-]+", text.lower()) if t not in STOP_WORDS and len(t) > 2]


def term_stems(term: str) -> set[str]:
    """Crude word stems of a term: hyphen parts, lower-cased, plural 's' dropped."""
    return {w[:-1] if len(w) > 3 and w.endswith("s") else w for w in re.split(r"[\s\-]+", term.lower()) if w}


def pick_terms(ranked: list[str], n: int) -> list[str]:
    """Top terms, skipping ones that share a stem with a picked one ("tool" / "tools" / "tool use")."""
    picked: list[str] = []
    seen: set[str] = set()
    for term in ranked:
        stems = term_stems(term)
        if stems & seen:
            continue
        picked.append(term)
        seen |= stems
        if len(picked) == n:
            break
    return picked


PHRASE_MIN_LIFT = 3.0  # a defining phrase is >= 3x as frequent in the group's titles as in the domain's
PHRASE_MIN_DOCS = 3  # ... and in >= 3 of the group's titles
PHRASE_MIN_COVERAGE = 0.05  # ... and in >= 5% of them


def distinctive_title_phrases(own: list[set[str]], title_df: dict[str, int], n_all: int) -> list[str]:
    """Title phrases that distinguish a group of papers from its domain (class-based
    TF-IDF over titles, the documented rule behind candidate labels):

    `own` holds the group's titles as phrase sets (`title_phrases`). A phrase (a content
    n-gram of a title, n <= 3) qualifies when it is in
    >= PHRASE_MIN_DOCS and >= PHRASE_MIN_COVERAGE of the group's titles and its lift (share
    of the group's titles / share of the domain's `n_all` titles, `title_df` counting
    them) is >= PHRASE_MIN_LIFT; qualifying phrases are ranked by coverage x log(lift)
    (frequent in the group AND specific to it), longer phrases first on ties, and phrases that
    repeat a better one's word stems are skipped ("agent memory" after "memory").
    """
    if not own or n_all <= 0:
        return []
    own_df: dict[str, int] = {}
    for phrases in own:
        for ph in phrases:
            own_df[ph] = own_df.get(ph, 0) + 1
    n_own = len(own)
    min_docs = max(PHRASE_MIN_DOCS, PHRASE_MIN_COVERAGE * n_own)
    scored = []
    for phrase, k in own_df.items():
        if k < min_docs:
            continue
        lift = (k / n_own) / (max(title_df.get(phrase, k), k) / n_all)
        if lift >= PHRASE_MIN_LIFT:
            scored.append((-(k / n_own) * math.log(lift), -phrase.count(" "), phrase))
    return pick_terms([p for _, _, p in sorted(scored)], len(scored))


def title_phrases(title: str) -> set[str]:
    """Content unigrams, bigrams and trigrams of a title (stop words removed): the phrases a
    candidate's defining phrases are drawn from and matched against."""
    words = [w for w in re.findall(r"[a-z][a-z0-9\-]+", title.lower()) if w not in STOP_WORDS and len(w) > 2]
    return (
        set(words)
        | {f"{a} {b}" for a, b in zip(words, words[1:])}
        | {f"{a} {b} {c}" for a, b, c in zip(words, words[1:], words[2:])}
    )

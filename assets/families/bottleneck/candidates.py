"""Subjects and their candidate limitations (task building; module docstring of
`assets.families.bottleneck`).

Candidates (`linked_themes`) are the partition's bottleneck themes (mined ones with a
multi-word key, and the curated causes of `assets.evidence.causes`) that the subject's
pre-cutoff papers mention. Issue 32: a one-word label is never a candidate (`multi_word`), and
the subject's MOST STATED limitations are always candidates: the MUST_STATED themes that the
most of its pre-cutoff member papers *state* (a limitation sentence holding a key; theme
`paper_ids`) come first, before the n x log(1 + lift) ranking fills the rest. A mined theme
whose name reads as a topic, not a limitation ("parametric knowledge"), is never a candidate
(`reads_as_limitation`). Blind reading seed 3637: two candidates that are one phenomenon are
never offered side by side (`same_phenomenon`: lexicon `near` causes, or one's phrasing holds the
other's, a member beside its umbrella); the higher-ranked one stays.
"""

from __future__ import annotations

import math
import re
from collections import Counter

from assets.evidence.bottlenecks import FUNCTION_WORDS, norm_word, restates
from assets.evidence.causes import defines_subject, model_failure_of_method, near_causes, scope_of, umbrella
from assets.evidence.limitation_phrases import contains_key, same_term, word_tokens
from assets.toolbox.building import direction_name, members
from core.records import Signal
from core.text import term_stems

LINK_MIN_PAPERS = 2  # a limitation is a candidate of a subject its pre-cutoff papers mention this often
LINK_MIN_LIFT = 1.0  # ... at least as often (share of its papers) as the domain's papers do
MIN_THEMES = 3  # a task decides among at least this many limitations
MAX_THEMES = 6
MUST_STATED = 3  # the subject's this many most stated limitations are always candidates
MUST_MIN_STATED = 2  # ... when at least this many of its papers state them
# a scoped cause (causes.yaml `scope`: RL-training causes) is a candidate of a subject when at least
# this share of its pre-cutoff papers match the scope in title or abstract (RL in LLM agents 1.0, GUI
# agents 0.30, preference optimisation 0.78; RAG in LLM agents 0.11, deep research 0.20: not about RL)
SCOPE_MIN_SHARE = 0.25
SUBJECT_GENRE_WORDS = frozenset(
    "study studies survey analysis review overview approach approaches framework "
    "method methods perspective tutorial position paper case".split()
)


def is_name(word: str) -> bool:
    """An acronym or a name as written: a hyphen part with two capitals or a capital after its
    first letter ("GUI", "MCP", "GraphRAG", "LoRA"); a title-cased word ("Multi-Agent") is not."""
    return any(sum(c.isupper() for c in part) >= 2 or any(c.isupper() for c in part[1:]) for part in word.split("-") if part)


SUBJECT_PHRASE_SHARE = 0.35  # a title phrase displays a subject when >= 35% of its titles hold it
SUBJECT_LONGER_SHARE = 0.6  # a three-word phrase at least this share of the best two-word one's count wins


def subject_ok(name: str) -> bool:
    """A display name a reader recognises as a field: >= 2 words ("function calling"; a
    hyphenated compound is one word: "multi-agent", "vision-language") or an acronym / name
    (a capital after the first character: "GUI", "MCP", "GraphRAG")."""
    name = name.strip()
    return len(name.split()) >= 2 or is_name(name)


def subject_display(name: str, titles: list[str]) -> str | None:
    """How a task states its subject (module docstring): the candidate's name when it has >= 2
    words; else the most frequent title phrase of two or three words that holds the name, when
    >= SUBJECT_PHRASE_SHARE of the subject's titles hold it (a three-word phrase wins when its
    count is >= SUBJECT_LONGER_SHARE of the best: "protocol" -> "model context protocol",
    "adversarial" -> "generative adversarial networks"; "GUI" -> "GUI agents"; never with a function or genre word, SUBJECT_GENRE_WORDS:
    "case study"); else the name if it is an acronym or name; else None (a single lower-case
    word names no subdirection). Words are lower-cased unless they are acronyms or names
    (`is_name`)."""
    name = name.strip()
    if len(name.split()) >= 2:
        return " ".join(w if is_name(w) else w.lower() for w in name.split())
    low = name.lower()
    counts: Counter = Counter()
    spelled: dict[str, Counter] = {}
    for title in titles:
        words = re.findall(r"[A-Za-z][A-Za-z0-9\-]*", title)
        seen = set()
        for n in (2, 3):
            for i in range(len(words) - n + 1):
                gram = words[i : i + n]
                lows = [w.lower() for w in gram]
                if low not in lows or len(set(lows)) < n:
                    continue
                others = [w for w in lows if w != low]
                if any(
                    o in FUNCTION_WORDS or o in SUBJECT_GENRE_WORDS or o in ("using", "based", "via") or len(o) < 3
                    for o in others
                ):
                    continue
                key = " ".join(norm_word(w) for w in lows)  # "network" and "networks" are one phrase
                if key not in seen:
                    seen.add(key)
                    counts[key] += 1
                    spelled.setdefault(key, Counter())[" ".join(gram)] += 1
    if titles and counts:
        best = max(counts.values())
        key = max(counts, key=lambda k: (counts[k] >= SUBJECT_LONGER_SHARE * best, len(k.split()), counts[k], k))
        if counts[key] >= SUBJECT_PHRASE_SHARE * len(titles):
            phrase = spelled[key].most_common(1)[0][0]
            return " ".join(w if is_name(w) else w.lower() for w in phrase.split())
    return name if subject_ok(name) else None


def subject_words(cand: Signal) -> set[str]:
    """Stems of a subject's display name and defining phrases."""
    out: set[str] = set()
    for text in [direction_name(cand), *cand.details.get("defining_phrases", [])]:
        for tok in re.findall(r"[A-Za-z][A-Za-z0-9\-]*", text):
            out |= term_stems(tok)
    return out


def label_key(label: str) -> str:
    """A limitation's label as compared for uniqueness: lower-cased, whitespace squeezed."""
    return " ".join(label.lower().split())


# the words of a limitation's name that name the problem itself (its head when it is one):
# LIMITATION_WORDS and the problem nouns of the curated causes
PROBLEM_NOUNS = frozenset(
    "hallucination hallucinations forgetting hacking sycophancy jailbreak jailbreaks contamination memorization "
    "flicker overthinking oversaturation injection poisoning leakage drift collapse bias error errors inconsistency "
    "latency noise artifacts attack attacks misalignment instability".split()
)
TRUE_LACK = re.compile(r"^(?:insufficient|limited|lack of|scarcity of|absence of|shortage of)\s+", re.I)


def cause_heads(title: str) -> tuple[set[str], set[str]]:
    """(problem heads, lacking heads) of a limitation's name: for each conjunct ("entropy collapse
    and insufficient exploration"), its head noun (the last word before a preposition) when it is
    a problem noun (PROBLEM_NOUNS: "factual hallucination" -> hallucination), and, for a true lack
    ("insufficient exploration", "limited long-term memory", TRUE_LACK; not "sparse rewards", a
    density), the head of what is lacking (exploration, memory)."""
    problems, lacking = set(), set()
    for part in re.split(r"\s+(?:and|or)\s+", title.lower()):
        m = TRUE_LACK.match(part)
        core = re.split(r"\s+(?:in|of|at|for|between|after|under|with|from)\s+|\(", part[m.end() :] if m else part)[0]
        words = word_tokens(core)
        if not words:
            continue
        if m:
            lacking.add(words[-1].split("-")[-1])
        elif words[-1] in PROBLEM_NOUNS:
            problems.add(words[-1])
    return problems, lacking


def names_the_subject(title: str, subject: str) -> bool:
    """The limitation names the subject's own topic (blind reading seed 3738: "hallucination
    detection" whose gold was "factual hallucination", the answer in the question): its problem head
    is a word of the subject ("hallucination" in "hallucination detection"), or what it says is
    lacking is ("insufficient exploration" for "exploration strategies", "limited long-term memory"
    for "agent memory": the subject exists to supply it). Either is a tautology, never a candidate."""
    problems, lacking = cause_heads(title)
    subj = [p for w in word_tokens(subject) for p in w.split("-") if len(p) > 2]
    return any(same_term(h, w) or same_term(h.rstrip("s"), w.rstrip("s")) for h in problems | lacking for w in subj)


def out_of_level(title: str, subject: str, texts: list[str] | None) -> bool:
    """A cause of another level than the subject's own method (blind reading seed 3840): an umbrella
    or symptom ("high inference latency" beside "quadratic attention cost", its cause: causes.yaml
    `umbrella`); a model failure offered for a method used against it (`model_failure_of_method`:
    hallucination for RAG); a scoped cause (RL-training causes) in a subject whose papers (`texts`,
    title + abstract) match its scope less than SCOPE_MIN_SHARE of the time (sparse outcome rewards in
    RAG for agents). `texts` None: the scope is not checked."""
    if umbrella(title) or model_failure_of_method(title, subject):
        return True
    scope = scope_of(title)
    if scope is None or texts is None:
        return False
    return not texts or sum(bool(scope.search(t)) for t in texts) / len(texts) < SCOPE_MIN_SHARE


def linked_themes(
    cand: Signal, themes: list[Signal], dom: set[str], display: str = "", texts: dict[str, str] | None = None
) -> list[Signal]:
    """The subject's candidate limitations (module docstring), most-mentioned first, with
    unique labels. `display`: how the task states the subject (`subject_display`); a limitation
    that names it (`names_the_subject`) is no candidate, nor one of another level (`out_of_level`;
    `texts`: paper id -> title and abstract, for the members' scope share)."""
    mem = members(cand)
    words = dom | subject_words(cand)
    subject = "; ".join([direction_name(cand), *cand.details.get("defining_phrases", [])])
    shown = "; ".join(x for x in (direction_name(cand), display) if x)
    member_texts = None if texts is None else [texts[p] for p in sorted(mem) if p in texts]
    rows = []
    for b in themes:
        if out_of_level(b.title, shown, member_texts):
            continue
        mentions = set(b.details.get("mention_ids", []))
        n = len(mem & mentions)
        if n < LINK_MIN_PAPERS or restates(b.title, words) or not multi_word(b.title) or not reads_as_limitation(b):
            continue
        if defines_subject(b.title, subject) or names_the_subject(b.title, shown):
            continue  # the subject's raison d'etre or its own topic is no bottleneck of it: a tautology
        domain = b.stats.get("domain_papers", 0.0)
        lift = (n / len(mem)) / (len(mentions) / domain) if domain and mentions else 1.0
        if lift < LINK_MIN_LIFT:
            continue
        rows.append((-round(n * math.log(1.0 + lift), 6), -n, b.signal_id, b))
    stated = {b.signal_id: len(mem & set(b.paper_ids)) for _, _, _, b in rows}
    must = sorted((r for r in rows if stated[r[3].signal_id] >= MUST_MIN_STATED), key=lambda r: (-stated[r[3].signal_id], r[:3]))[
        :MUST_STATED
    ]
    out: list[Signal] = []
    labels: set[str] = set()
    for *_, b in must + sorted(rows, key=lambda r: r[:3]):
        if b in out or label_key(b.title) in labels:
            continue  # taken, or two themes with one name: the less mentioned one is dropped
        if any(o.signal_id in b.details.get("near", []) or b.signal_id in o.details.get("near", []) for o in out):
            continue  # a near theme of a taken one ("overhead" after "high computational costs")
        if any(same_phenomenon(b, o) for o in out):
            continue  # a member or umbrella of a taken one, or a lexicon-near cause (`same_phenomenon`)
        labels.add(label_key(b.title))
        out.append(b)
        if len(out) == MAX_THEMES:
            break
    return out


def _alias_keys(theme: Signal) -> list[tuple[str, ...]]:
    return [k for a in [theme.title, *theme.details.get("aliases", [])] if (k := tuple(word_tokens(a)))]


def same_phenomenon(a: Signal, b: Signal) -> bool:
    """Two candidate limitations one task must not offer side by side (blind reading seed 3637:
    "labels are near-duplicates of one phenomenon or umbrellas beside their members"): the lexicon
    marks them near (`causes.yaml` `near`: limited long-term memory / limited context window), or
    one's phrasing holds the other's ("hallucination" in "object hallucination"; "context window" in
    "limited context window"): a paper stating the narrower one states the broader one too, so
    their window papers would split between them."""
    if near_causes(a.title, b.title):
        return True
    ka, kb = _alias_keys(a), _alias_keys(b)
    return any(contains_key(list(x), y) for x in ka for y in kb if len(x) >= len(y)) or any(
        contains_key(list(y), x) for x in ka for y in kb if len(y) >= len(x)
    )


NAME_PREFIXES = ("lack of ", "vulnerability to ", "difficulty with ")
CAUSE_PREDICATE = "lexicon"  # `assets.evidence.causes.CAUSE_FAMILY`: a curated cause
# Words that make a mined theme's name read as a limitation ("high latency", "data
# heterogeneity"); without one, a mined key names a topic ("parametric knowledge", "retrieved
# content", "long videos": issue 32's third-pass reading), never a cause to reduce.
LIMITATION_WORDS = frozenset(
    "cost costs costly expensive prohibitive overhead latency slow bias biased noise noisy error errors "
    "drift leakage loss lossy degradation degraded inconsistency inconsistencies instability unstable "
    "hallucination hallucinations attack attacks interference forgetting collapse hacking distortion "
    "oversaturation artifacts demands inefficient inefficiency inaccurate incorrect misalignment "
    "contamination poisoning repetition limited insufficient poor weak unsafe harmful heterogeneity "
    "scarcity sparse sparsity shortage bottleneck failure failures vulnerabilities vulnerability "
    "exposure unintended ambiguity ambiguous redundancy redundant injection jailbreak jailbreaks".split()
)


def reads_as_limitation(theme: Signal) -> bool:
    """A candidate names a limitation, not a topic: a curated cause (`causes.yaml`), a mined theme
    named with a limitation predicate ("lack of", "vulnerability to", "difficulty with"), or one
    whose name holds a LIMITATION_WORDS word."""
    predicate = (theme.details.get("predicate") or [""])[0]
    if predicate == CAUSE_PREDICATE or any(theme.title.lower().startswith(p) for p in NAME_PREFIXES):
        return True
    return bool(set(re.findall(r"[a-z]+", theme.title.lower())) & LIMITATION_WORDS)


def multi_word(title: str) -> bool:
    """A candidate's label names a cause in >= 2 words beyond its predicate prefix ("reward
    hacking", "lack of annotated data"; never "bias", "hallucinations", "lack of data")."""
    low = title.lower().strip()
    for prefix in NAME_PREFIXES:
        if low.startswith(prefix):
            low = low[len(prefix) :]
    return len(re.findall(r"[a-z0-9][a-z0-9\-]*", low)) >= 2

"""Which words of a claim count, and the cue lists of the offline validators and drift
detectors (docs/xcientist.md, "Offline rules"). One module so every rule reads the same words."""

from __future__ import annotations

import re
from collections.abc import Iterable

from assets.evidence.quotes import normalise_ws
from core.metrics import TRAJECTORY_WORDS, _stem_set
from core.text import SCAFFOLD_WORDS, content_tokens

# Template words of our own rendered answers ("... will gain the most momentum in <window>",
# "Pre-cutoff work close to ... reports:"): they name no finding, and no paper states them.
ANSWER_SCAFFOLD = frozenset(
    """
gain momentum least candidates candidate prioritised prioritized window knowledge-base closest reports report
root opens reducing recent increasingly mention mentions fits venue family best project profile similarity
strongest month months share accelerating fragmenting steady cooling among papers paper pre-cutoff
""".split()
)
# Words that make a claim sound substantive without naming anything a paper could state:
# a claim made only of these (and stop words) is generic and cannot be attributed.
GENERIC_WORDS = frozenset(
    """
research area areas field fields continue continues continued grow grows growing growth future direction
directions important importance interest interesting progress advance advances advancing topic topics trend
trends expected likely attention attract attracts build builds community researchers years year time soon rapidly
rapid steadily popular
popularity emerging emerge relevant relevance valuable impact impactful progress promising work
""".split()
)
MIN_CLAIM_WORDS = 2  # fewer informative words than this: the claim names nothing checkable

# Semantic drift: absolute or amplifying words a claim adds that its evidence does not use.
AMPLIFIERS = (
    "always",
    "never",
    "all",
    "every",
    "guarantee",
    "guarantees",
    "guaranteed",
    "solve",
    "solves",
    "solved",
    "eliminate",
    "eliminates",
    "completely",
    "fully",
    "entirely",
    "universally",
    "proves",
    "proven",
    "definitively",
    "dominate",
    "dominates",
    "breakthrough",
    "any",
)
# Experimental drift: a claim resting on an evaluation names one of these.
EVAL_CUES = (
    "outperform",
    "benchmark",
    "accuracy",
    "f1",
    "bleu",
    "rouge",
    "state-of-the-art",
    "sota",
    "evaluat",
    "experiment",
    "ablation",
    "baseline",
    "improves",
    "improved",
    "improvement",
    "gains",
    "speedup",
    "faster",
    "success rate",
    "win rate",
    "pass@",
    "results show",
    "empirical",
)
# Mechanistic drift: a claim naming a cause uses one of these; the cause is what follows
# ("X because Y") or, for the forward cues, what precedes ("Y leads to X").
CAUSE_AFTER = (
    "because of",
    "because",
    "due to",
    "driven by",
    "caused by",
    "thanks to",
    "as a result of",
    "owing to",
    "comes from",
    "stems from",
    "by reducing",
    "by using",
    "by removing",
    "by adding",
)
CAUSE_BEFORE = ("leads to", "lead to", "enables", "enable", "opens", "results in", "causes", "allows")
# A mechanism statement (the step between evidence and decision) carries one of these.
MECHANISM_CUES = (
    CAUSE_AFTER
    + CAUSE_BEFORE
    + (
        "reports",
        "states",
        "state a",
        "recur",
        "share of",
        "increasingly",
        "grew",
        "growth",
        "rising",
        "declin",
        "limitation",
        "bottleneck",
        "support",
        "evidence",
        "similarity",
        "x that of",
        "papers",
    )
)

# A forecast or recommendation (not a reported finding) needs a separate "why": it is never
# its own mechanism, however well its subject is quoted.
FORECAST_CUES = ("will", "should", "would", "expected", "likely", "fits", "prioritised", "prioritized", "forecast", "predict")

_WORD = re.compile(r"[a-z0-9@\-]+")


def claim_words(text: str) -> set[str]:
    """The informative word stems of a claim or quote: content words minus template,
    trajectory and generic words (what a verbatim quote would have to contain)."""
    drop = SCAFFOLD_WORDS | TRAJECTORY_WORDS | ANSWER_SCAFFOLD | GENERIC_WORDS
    return _stem_set(w for w in content_tokens(text) if w not in drop)


def source_words(text: str) -> set[str]:
    """Word stems of a source passage (nothing dropped but stop words)."""
    return _stem_set(content_tokens(text))


def overlap(claim: set[str], source: set[str]) -> float:
    """Share of a claim's words the source contains (0 when the claim has none)."""
    return len(claim & source) / len(claim) if claim else 0.0


def _padded(text: str) -> str:
    return " " + " ".join(_WORD.findall(text.lower())) + " "


def has_cue(text: str, cues: Iterable[str]) -> list[str]:
    """The cues that occur in `text` as words or word prefixes (case-insensitive)."""
    words = _padded(text)
    return [c for c in cues if f" {c}" in words]


_QUOTED = (re.compile(r'"[^"]*"|“[^”]*”'), re.compile(r"(?<![A-Za-z])'[^']+'(?![A-Za-z])"))


def unquoted(text: str, names: Iterable[str] = ()) -> str:
    """The claim without its quoted spans and the task's option texts (`names`): option texts
    and paper titles an answer names ("'Tool (keywords: evaluation); e.g. "ToolScope: ..."'
    will ...", "ACL/EMNLP (... 16% benchmark ...)") are names, not what the claim asserts, so
    no drift cue is read from them."""
    for name in sorted((n for n in names if n), key=len, reverse=True):
        text = text.replace(name, " ")
    for pattern in _QUOTED:
        text = pattern.sub(" ", text)
    return text


def amplifiers(text: str, names: Iterable[str] = ()) -> set[str]:
    words = set(_WORD.findall(unquoted(text, names).lower()))
    return {a for a in AMPLIFIERS if a in words}


def cause_span(text: str, names: Iterable[str] = ()) -> str:
    """The cause a claim names ("" if it names none): after a backward cue, before a forward one."""
    low = normalise_ws(unquoted(text, names).lower())
    for cue in CAUSE_AFTER:
        i = _padded(low).find(f" {cue} ")
        if i >= 0:
            j = low.find(cue)
            return low[j + len(cue) :].strip(" .;:")
    for cue in CAUSE_BEFORE:
        j = low.find(f" {cue} ")
        if j >= 0:
            return low[:j].strip(" .;:")
    return ""

"""Text normalisation shared by every stage: word sets, Jaccard, stop words.

One module, so that "which words count" is decided in one place.
"""

from __future__ import annotations

import re

_WORDS = re.compile(r"[a-z0-9][a-z0-9\-]+")
# Words that carry no decision: scaffolding of option texts ("keywords", "e.g.", "Feasibility")
# plus the commonest function words. Used for decision signatures and option distinctness.
SIGNATURE_STOP = frozenset("keywords e.g feasibility support pre-cutoff papers agents the of and for in with a an to on".split())


def word_set(text: str) -> set[str]:
    """Lower-cased word tokens (letters, digits, hyphens) without SIGNATURE_STOP."""
    return {w for w in _WORDS.findall(text.lower()) if w not in SIGNATURE_STOP}


def jaccard(a: set, b: set) -> float:
    return len(a & b) / len(a | b) if a | b else 0.0

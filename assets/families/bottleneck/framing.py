"""The framing gap: the problem a method paper's abstract opens on, before its first own-work
sentence, and where such a sentence states a candidate limitation (the bottleneck gold counts a paper
for it when no contribution statement names a candidate; `gold` module docstring)."""

from __future__ import annotations

import re

from assets.evidence.bottlenecks import word_tokens
from assets.evidence.building_on import STUDY_TITLE
from assets.evidence.quotes import limitation_score, split_sentences
from assets.families.bottleneck.statements import (
    ADDRESS_CUES,
    CONTRIBUTION_CUES,
    OWN_PRIOR,
    STUDY_STATEMENT,
    cue_object,
    is_background,
    limitation_senses,
    reduction_positions,
)

# Blind reading seed 3840 (reader A: "quadratic attention cost" counted 0 in a DiT task although >= 8
# window papers open on it: "Diffusion Transformers ... are bottlenecked by the quadratic complexity of
# attention. ... We propose PISA, a training-free sparse attention"): a method paper's abstract states
# the problem it sets out to reduce in its opening, before its first own-work sentence, often with a
# sentence on prior fixes in between and no anaphora back to it. That opening problem statement is
# the paper's *framing gap*.
FRAMING_SPAN = 4  # the problem statement is among the abstract's first this many sentences
# a framing sentence is no remedy or own-work sentence (`limitation_score` >= this): the curated cause's
# key it must state is the limitation cue itself ("The quadratic complexity of the attention mechanism
# severely limits ..." scores 0: the extractor's cue list misses "severely limits")
FRAMING_MIN_SCORE = -0.5


# the contribution is a study or a resource, not a method that reduces the opened problem ("Beyond the
# survey itself, we contribute ...", "we first construct TS-Bench, a novel benchmark")
FRAMING_NOT_METHOD = re.compile(r"\b(?:survey|benchmark|dataset|taxonomy|position\s+paper|perspective|checklist)s?\b", re.I)


def framing_gaps(abstract: str, title: str = "") -> tuple[str, list[str]]:
    """(the contribution sentence, the framing gaps). The abstract's problem statement (the framing
    gap): its sentences that are no remedy (`limitation_score` >= FRAMING_MIN_SCORE) before its first own-work sentence and among its
    first FRAMING_SPAN sentences, nearest to the contribution first (the gap a contribution answers
    is the last one stated before it: "LLMs hallucinate. RAG helps. Yet retrieved passages are noisy.
    We propose ..." answers the noise). None when the title says the paper is a study (benchmark,
    survey, analysis: it reduces nothing), when the abstract has no own-work sentence, or when its
    first contribution sentence is a study (STUDY_STATEMENT), supplies a survey or benchmark
    (FRAMING_NOT_METHOD), or is absent."""
    if STUDY_TITLE.search(title or ""):
        return "", []
    sentences = split_sentences(abstract or "")
    first = next((i for i, s in enumerate(sentences) if not is_background(s)), None)
    if first is None:
        return "", []
    contribution = next(
        (s for s in sentences[first:] if not is_background(s) and (CONTRIBUTION_CUES.search(s) or ADDRESS_CUES.search(s))), ""
    )
    if not contribution or STUDY_STATEMENT.search(contribution) or OWN_PRIOR.search(contribution):
        return "", []
    if FRAMING_NOT_METHOD.search(contribution):
        return "", []  # a survey or a benchmark reduces nothing it opens on
    gaps = [s for s in sentences[: min(first, FRAMING_SPAN)] if limitation_score(s) >= FRAMING_MIN_SCORE]
    return contribution, gaps[::-1]


def framed_position(
    sentence: str,
    keys: list[tuple[str, ...]],
    lack: bool = False,
    lacking: tuple[str, ...] = (),
    unlike: frozenset[str] = frozenset(),
) -> int | None:
    """Where a framing-gap sentence first states the limitation as a problem (`states_limitation`'s
    senses), or None. A key that is the object of a reduction cue is the purpose prior work serves,
    not a limitation ("RAG mitigates hallucination": the method used AGAINST a problem, blind reading
    seed 3840), and never counts."""
    toks = word_tokens(sentence)
    cues = reduction_positions(toks)
    found = []
    for k in limitation_senses(toks, keys, lack, lacking, unlike):
        c = max((x for x in cues if x < k), default=None)
        if c is not None and cue_object(toks, c, k):
            continue  # "... to mitigate hallucination": a purpose, not the problem
        found.append(k)
    return min(found) if found else None

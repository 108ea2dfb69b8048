"""The venue task's title: the project as its own approach sentence names it."""

from __future__ import annotations

import re

from assets.families.venue.projects import APPROACH_OBJECT, split_sentences

TITLE_WORDS = 14  # the title names the project by its approach phrase, at most this many words ...
TITLE_CHARS = 110  # ... and characters (the title stays under the audit's 160)

_CLAUSE_END = re.compile(
    r"[.;:]\s|[.;:]$|\s(?:(?:in|by|through|with|for|from|on|of) )?(?:that|which|whom|where|whereby|"
    r"wherein)\s|,\s(?:which|that|where|and|to|enabling|allowing|achieving|using|leveraging)\s|"
    r",?\s(?:and|then)\s(?:show|shows|find|finds|demonstrate|demonstrates|prove|proves|reveal|"
    r"reveals|propose|introduce|present|use|apply)\b"
)
_TRAILING = {
    "a",
    "an",
    "the",
    "of",
    "for",
    "to",
    "in",
    "on",
    "with",
    "by",
    "and",
    "or",
    "via",
    "from",
    "as",
    "at",
    "that",
    "which",
    "its",
    "their",
}


def _outside_parens(text: str, pos: int) -> bool:
    return text[:pos].count("(") <= text[:pos].count(")")


_CUT_WORDS = {"for", "to", "with", "via", "on", "in", "of", "by", "from", "across", "under", "over", "using", "through"}


# An approach object that names nothing ("We study these questions in ...", "We introduce a
# different paradigm: ...") gives way to the subject of the description's first sentence.
_VAGUE_OBJECT = re.compile(
    r"^(?:these|this|those|such|it|them|a different|a new|an alternative|another|the following)\b", re.IGNORECASE
)
_SUBJECT_END = re.compile(
    r"\s(?:is|are|was|were|has|have|remains?|relies|rely|enables?|offers?|requires?|faces?|"
    r"suffers?|struggles?|aims?|can|could|may|might|demonstrates?|shows?|plays?|poses?|"
    r"increasingly|often|typically|still)\b"
)


def project_name(description: str) -> str:
    """The project as its approach sentence names it ("TIR-Judge, an end-to-end RL framework for
    training LLM judges"): the object of the approach verb up to the end of its clause. Longer
    than TITLE_WORDS words or TITLE_CHARS characters, it is shortened without cutting a phrase:
    to its head before an appositive comma ("M4-RAG"), else before the last preposition that
    leaves at least 3 words; only when neither exists is it cut at a content word and marked "…".
    An object that names nothing ("these questions", "a different paradigm") gives way to the
    subject of the first sentence ("Agentic reinforcement learning")."""
    sents = split_sentences(description)
    last = sents[-1] if sents else description
    m = APPROACH_OBJECT.search(last)
    phrase = m.group(1) if m else last
    if _VAGUE_OBJECT.match(phrase.strip()) and sents:
        end = _SUBJECT_END.search(sents[0])
        phrase = sents[0][: end.start()] if end else sents[0]
    for end in _CLAUSE_END.finditer(phrase):  # the first clause end outside parentheses
        if _outside_parens(phrase, end.start()):
            phrase = phrase[: end.start()]
            break
    phrase = phrase.strip(" ,.;:")
    fits = lambda p: len(p.split()) <= TITLE_WORDS and len(p) <= TITLE_CHARS  # noqa: E731
    if not fits(phrase):
        comma = next((i for i, c in enumerate(phrase) if c == "," and _outside_parens(phrase, i)), -1)
        words = phrase.split()
        if comma > 0 and fits(phrase[:comma]):
            phrase = phrase[:comma]
        else:
            cuts = [
                i
                for i in range(3, min(len(words), TITLE_WORDS + 1))
                if words[i].lower() in _CUT_WORDS
                and _outside_parens(" ".join(words), len(" ".join(words[:i])))
                and fits(" ".join(words[:i]))
            ]
            if cuts:
                phrase = " ".join(words[: cuts[-1]])
            else:
                words = words[:TITLE_WORDS]
                while words and (words[-1].lower().strip(",;") in _TRAILING or len(" ".join(words)) > TITLE_CHARS):
                    words.pop()
                phrase = " ".join(words).rstrip(",;") + "…"
    first = phrase.split(" ", 1)[0]
    return phrase if any(c.isupper() for c in first[1:]) else phrase[:1].upper() + phrase[1:]  # "iSHIFT" stays

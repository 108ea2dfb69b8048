"""The venue task's title: the project as its paper's title names it (`project_name`); without a
title (older builds, unit drafts), as its own approach sentence names it (`approach_name`)."""

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


def approach_name(description: str) -> str:
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


# A title's head before its colon is the project's own name when it is short and reads as a name:
# an acronym or coined word ("VULCAN", "DeepAgent", "M4-RAG", "iSHIFT"), not a phrase that sells
# the paper ("Beyond Accuracy", "Less is More").
NAME_WORDS = 3
NAME_CHARS = 40
_NAMEISH = re.compile(r"[A-Za-z]*[a-z0-9][A-Z]|[A-Z]{2,}|\d|-")


def title_head(title: str) -> str:
    """The name before the title's first colon ("VULCAN: Tool-Augmented ..." -> "VULCAN"), or ""."""
    head, sep, _ = (title or "").partition(":")
    head = " ".join(head.split())
    if not sep or not head or len(head.split()) > NAME_WORDS or len(head) > NAME_CHARS:
        return ""
    return head if any(_NAMEISH.search(w) for w in head.split()) else ""


def project_name(description: str, title: str = "") -> str:
    """The task's name for the project. Measured on the released tasks of 2025-12-31, the approach
    phrase of the description named a component instead of the project 1 time in 5 ("An MCP-based
    API" for VULCAN), so the paper's title names it: the name before its colon when that is a name
    (`title_head`), else the whole title when it is short enough (TITLE_CHARS), else the part before
    the colon when that fits, else the approach phrase (`approach_name`)."""
    title = " ".join((title or "").split())
    if not title:
        return approach_name(description)
    head = title_head(title)
    if head:
        return head
    if len(title) <= TITLE_CHARS:
        return title
    before = title.partition(":")[0].strip()
    if before != title and 3 <= len(before.split()) and len(before) <= TITLE_CHARS:
        return before
    return approach_name(description)

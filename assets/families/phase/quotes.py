"""The public text of a phase task: the three phases, quotes that read on their own, what a
primary quote must state for its phase, quote identities, and the subject from a title.

Rules (docs/arena.md "What the public text may show"):
* a quote is shown only when it reads on its own (`readable_quote`): no LaTeX or markup
  (MARKUP), a leading connective clause ("However, ", "To address these challenges, ") is cut
  off (the rest is still a verbatim substring of the sentence), and a quote that then starts
  with an anaphor ("This", "These", "It") or leans on an unnamed referent ("this approach",
  "these limitations", "our framework") is not used; nor is one outside MIN_QUOTE_WORDS..
  MAX_QUOTE_WORDS words;
* the subject is the descriptive part of the primary paper's title (`subject_of`), not a
  taxonomy node label."""

from __future__ import annotations

import re
from collections.abc import Iterable

PHASES = ("synthesize", "design", "evaluate")
PHASE_TITLES = {"synthesize": "Synthesize", "design": "Design", "evaluate": "Evaluate"}
MIN_QUOTE_WORDS, MAX_QUOTE_WORDS = 8, 45  # a shorter quote is a fragment, a longer one a run-on
SENTENCE_SPLIT = re.compile(r"(?<=[.!?])\s+(?=[A-Z0-9(\[])")


def sentences(text: str) -> list[str]:
    """The sentences of an abstract (whitespace normalised)."""
    return [" ".join(s.split()) for s in SENTENCE_SPLIT.split(text or "") if s.strip()]


# ---- readable quotes ------------------------------------------------------------------------------
# LaTeX, markdown, HTML, URLs, citation brackets, identifiers: a reader cannot follow them in a quote
MARKUP = re.compile(r"[$\\{}^~<>|]|\b_|_\b|\*\*|`|https?://|www\.|&[a-z]+;|\[\d+(?:,\s*\d+)*\]|\(\s*\)")
# a leading connective clause refers back to the abstract's previous sentence: it is cut off
OPENER = re.compile(
    r"^(?:however|moreover|furthermore|additionally|in addition|in contrast|by contrast|instead|thus|therefore|hence|"
    r"consequently|meanwhile|nevertheless|nonetheless|also|besides|finally|specifically|notably|importantly|"
    r"overall|similarly|likewise|as a result|in particular|first(?:ly)?|second(?:ly)?|third(?:ly)?|to this end|"
    r"to (?:address|tackle|overcome|solve|bridge|fill|face|mitigate|close|remedy|alleviate|handle|resolve|answer|"
    r"fix|meet|achieve|study|investigate|explore|this end)\b[^,]{0,80}|"
    r"in (?:this|our|the present) (?:paper|work|study|article)|in response(?: to)?\b[^,]{0,60}|"
    r"(?:based|building|motivated|inspired|drawing) (?:on|by) (?:this|these|such|the above)\b[^,]{0,60}|"
    r"with this in mind|here|then|yet)\s*,\s+",
    re.I,
)
ANAPHORIC_START = re.compile(
    r"^(?:this|these|that|those|it|its|they|their|them|such|both|here|the latter|"
    r"the former|as such|and|but|or|which)\b",
    re.I,
)
THIS_PAPER_START = re.compile(r"^this (?:paper|work|study|article)\b", re.I)  # "This paper introduces X": fine
VAGUE_REFERENCE = re.compile(
    r"\b(?:our|the proposed|the above|this|these|such|both)\s+(?:[\w-]+\s+)?(?:methods?|approach(?:es)?|models?|"
    r"frameworks?|systems?|solutions?|techniques?|pipelines?|designs?|paradigms?|strateg(?:y|ies)|limitations?|"
    r"challenges?|issues?|problems?|gaps?|shortcomings?|difficult(?:y|ies)|settings?|ideas?|drawbacks?)\b",
    re.I,
)


ENUMERATION = re.compile(r"\((?:1|i|a)\)\s")


def readable_quote(quote: str) -> str | None:
    """The part of a verbatim sentence a task may quote, or None when it does not read on
    its own: markup anywhere -> None; a leading connective clause is cut ("However, X" ->
    "X": still a verbatim substring); then an anaphoric start ("These results ...") or an
    unnamed referent ("this approach", "these limitations", "our framework") -> None; fewer
    than MIN_QUOTE_WORDS words left, or an enumeration ("(1) ...": the list was cut) -> None."""
    text = " ".join(quote.split())
    if MARKUP.search(text):
        return None
    m = OPENER.match(text)
    body = text[m.end() :] if m else text
    again = OPENER.match(body) if m else None
    if again:  # "However, to address this, we ..." -> one more clause
        body = body[again.end() :]
    if (ANAPHORIC_START.match(body) and not THIS_PAPER_START.match(body)) or VAGUE_REFERENCE.search(body):
        return None
    if not MIN_QUOTE_WORDS <= len(body.split()) <= MAX_QUOTE_WORDS or body.endswith(":"):
        return None
    if ENUMERATION.search(body):  # "two mechanisms: (1) X." -- the sentence splitter cut the list
        return None
    return body


# What a primary quote must state for its phase (the extractor's kinds are cue-based and loose):
# synthesize a limitation, design a proposed approach, evaluate a testable finding (not a proposal).
PROPOSAL = re.compile(
    r"\b(?:we|this (?:paper|work|study))\s+(?:\w+\s+){0,2}?(?:propos|introduc|present|develop|"
    r"design|buil|creat|construct|devis)\w*",
    re.I,
)
LIMITATION = re.compile(
    r"\b(?:limitation\w*|limited (?:to|by|in)|fail(?:s|ed)? to|struggl\w*|lack\w*|bottleneck\w*|insufficient\w*|"
    r"(?:is|are|remains?|becomes?) (?:still )?(?:a |an )?(?:\w+ )?(?:challenge|challenging|difficult|hard|unclear|"
    r"unsolved|unexplored|underexplored|open)|(?:key|main|major|central|fundamental|open) (?:challenge|problem|"
    r"question)s?|challenges? (?:remain|persist)|suffer\w*|costly|expensive|brittle|unreliab\w*|hallucinat\w*|"
    r"vulnerab\w*|cannot|unable|underexplored|unexplored|overlook\w*|neglect\w*|rarely|seldom|poorly)\b",
    re.I,
)
FINDING = re.compile(
    r"\b(?:show|shows|showed|shown|find|finds|found|demonstrat\w*|reveal\w*|indicat\w*|suggest\w*|observ\w*|"
    r"confirm\w*)\b(?:\s+[\w-]+){0,3}?\s+that\b|\boutperform\w*|\bsurpass\w*|\d+(?:\.\d+)?\s?%|"
    r"\b(?:improv|increas|reduc|boost)\w*\b.{0,60}\bby\b",
    re.I,
)


def primary_fits(phase: str, quote: str) -> bool:
    """Whether a (readable) quote states what the phase's primary must: a limitation
    (synthesize), a proposed approach (design), a testable finding that is not a proposal
    (evaluate)."""
    if phase == "synthesize":
        return bool(LIMITATION.search(quote))
    if phase == "design":
        return bool(PROPOSAL.search(quote))
    return bool(FINDING.search(quote)) and not PROPOSAL.search(quote)


def quote_key(text: str) -> str:
    """A quote's identity: lower-cased words (so spacing and case do not make two quotes)."""
    return " ".join(re.findall(r"[a-z0-9]+", text.lower()))


_QUOTED = re.compile(r"\"([^\"]{30,})\"")


def quoted_keys(texts: Iterable[str]) -> set[str]:
    """The identities of every double-quoted span (>= 30 characters) in `texts`."""
    return {quote_key(q) for t in texts for q in _QUOTED.findall(t)}


def shares_quote(key: str, taken: set[str]) -> bool:
    """True when `key` is, contains or is contained in one of the quotes already taken (a
    trimmed quote is the same quote as the sentence it was cut from)."""
    return any(key == k or key in k or k in key for k in taken)


# ---- the subject ----------------------------------------------------------------------------------
_SUBJECT_LEAD = re.compile(r"^(?:a|an|the|towards?|on)\s+", re.I)
MAX_SUBJECT_WORDS = 14


# a report's subtitle names what the report did, not a research topic: a reader found "lessons from
# 5.5 billion tokens' worth of agentic AI evaluations" as a task's topic. "Lessons / insights /
# experience from ..." and a size ("5.5 billion tokens", "10,000 hours") are not a topic name;
# "A Study on X" names its topic after the genre word (STUDY_LEAD is dropped).
REPORT_SUBTITLE = re.compile(
    r"^(?:lessons?|insights?|experiences?|takeaways?|observations?|reflections?|notes|findings|results)\b|"
    r"\b\d[\d.,]*\s*(?:k|m|b|thousand|million|billion|trillion)?\s*(?:tokens?|hours?|samples?|runs?|users?|"
    r"papers?|evaluations?|trajectories|episodes?|conversations?)\b",
    re.I,
)
STUDY_LEAD = re.compile(
    r"^(?:an?\s+)?(?:(?:empirical|systematic|comparative|comprehensive|large-scale|preliminary)\s+)?"
    r"(?:study|analysis|investigation|exploration)\s+(?:on|of|into)\s+(?:the\s+)?",
    re.I,
)

# a title part that is a sentence, not a topic ("LLM Agents Present Overlooked Risks ...",
# '"MapReduce" is the Principle for ...'): a finite verb after the first words
SENTENCE_TITLE = re.compile(
    r"^(?:is|are|can|could|does|do|did|should|will|would|what|how|why|when|which|who)\s|"  # a question with its "?" split off
    r"^\S+(?:\s+\S+){0,5}?\s+(?:is|are|was|were|present|presents|should|can|could|must|may|enables?|makes?|"
    r"needs?|matters?|helps?|improves?|beats?|fails?|works?|learns?|breaks?|don't|do not|does not)\b",
    re.I,
)


def readable_subject(title: str, fallback: str) -> str | None:
    """The task's topic name, a readable noun phrase, or None (issue 32, third pass: a reader
    found badly extracted titles): `subject_of`, refused when it falls back to the domain (a task
    "on LLM Agents (2509.19136)" names no topic) or reads as a sentence or a slogan."""
    t = " ".join((title or "").split())
    parts = re.split(r"(?::\s|\s--?\s|\s—\s|[!?]\s)", t, maxsplit=1)
    # the descriptive part first; when it is a question or a slogan, the title's other part
    # ("Is Your LLM Secretly a World Model of the Internet? Model-Based Planning for Web Agents")
    for candidate in dict.fromkeys([subject_of(t, fallback)] + [subject_of(p, fallback) for p in parts if len(parts) > 1]):
        candidate = STUDY_LEAD.sub("", candidate)
        candidate = candidate[:1].upper() + candidate[1:]
        if (
            candidate != fallback
            and len(candidate.split()) >= 2
            and not SENTENCE_TITLE.search(candidate)
            and not REPORT_SUBTITLE.search(candidate)
            and '"' not in candidate
            and ". " not in candidate
        ):
            return candidate
    return None


def subject_of(title: str, fallback: str) -> str:
    """A readable subject from the primary paper's title: its descriptive part (of the parts
    around the first colon, dash or "!"/"?", the longer one with >= 3 words: the shorter is a
    name, a slogan or a genre like "A Survey"), a leading article or "Towards" dropped, the
    title's own capitalisation kept. A title with markup, a question or
    exclamation left in the part, or more than MAX_SUBJECT_WORDS words gives `fallback` (the
    domain's title)."""
    t = " ".join(title.split()).rstrip(".")
    t = re.sub(r"^([\w-]{2,20}):(?=[A-Z])", r"\1: ", t)  # "CF-VLM:CounterFactual ..." -> a name and a description
    if not t or MARKUP.search(t):
        return fallback
    head, sep, tail = (re.split(r"(:\s|\s--?\s|\s—\s|[!?]\s)", t, maxsplit=1) + ["", ""])[:3]
    head, tail = _SUBJECT_LEAD.sub("", head).strip(), _SUBJECT_LEAD.sub("", tail).strip()
    parts = [x for x in (tail, head) if sep and len(x.split()) >= 3 and not re.search(r"[!?]", x)]
    # the longer part describes (a name, a slogan or a genre like "A Survey" is the shorter one)
    part = max(parts, key=lambda x: len(x.split())) if parts else _SUBJECT_LEAD.sub("", t).strip()
    if re.search(r"(:\s|\s--?\s|\s—\s)", part) and part != t:  # "Position: A -- B": split once more
        return subject_of(part, fallback)
    while re.match(r"^(?:on|the|a|an|towards?)\s+\S+\s", part, re.I):  # "On the Effect of X": "Effect of X"
        part = part.split(None, 1)[1]
    if re.search(r"[!?]", part) or not 2 <= len(part.split()) <= MAX_SUBJECT_WORDS:
        return fallback
    return part[0].upper() + part[1:]  # "the Effect of ..." / "potential new paradigm ...": a topic name


# ---- a synthesize primary: the paper's own limitation, not the field's motivation ---------------------
# A blind reader (seed 3637) found a synthesize task quoting the abstract's opening ("the need for
# rare and diverse training data remains a challenge" for a minute-long driving world model):
# the gold then answers a generic motivation. An abstract opens on its field; the limitation a
# paper takes up is stated later and names what fails: a method, a model, a family of approaches.
LIMITATION_SUBJECT = re.compile(
    r"\b(?:existing|current|prior|previous|conventional|traditional|standard|state-of-the-art|mainstream|"
    r"typical|popular|recent|our|we)\b|\b(?:methods?|models?|approach(?:es)?|frameworks?|techniques?|algorithms?|"
    r"architectures?|pipelines?|polic(?:y|ies)|agents?|systems?|llms?|vlms?|mllms?|baselines?|solvers?|"
    r"encoders?|decoders?|retrieval|training|fine-tuning|optimi[sz]ation|inference|sampling|"
    r"[\w-]+-based)\b",
    re.I,
)


def sentence_index(quote: str, abstract: str) -> int | None:
    """The index of the abstract's sentence holding the quote (None: not found)."""
    key = quote_key(quote)
    return next((k for k, s in enumerate(sentences(abstract)) if key and key in quote_key(s)), None)


def states_own_limitation(quote: str, abstract: str) -> bool:
    """Whether a limitation quote is one the paper takes up: not its abstract's first sentence
    (the field's motivation) and about what fails (LIMITATION_SUBJECT: a method, a model, existing
    approaches), not about the field, the data or the world in general."""
    if sentence_index(quote, abstract) == 0:
        return False
    return bool(LIMITATION_SUBJECT.search(quote))


# ---- the topic named in the question: a short noun phrase -------------------------------------------
# A reader found the whole title used as the topic ("Design the next method for Learning to Ensemble
# 2D Diffusion Models for Volume-to-Volume Medical Image Translation"). The topic is the title's
# subject without its means ("with / via / using / by ..."), a leading verb of improvement
# ("Learning to X for Y": Y) and at most MAX_TOPIC_WORDS words.
MAX_TOPIC_WORDS = 8
_MEANS = re.compile(r"\s+(?:with|via|using|through|by|based on|leveraging|containing|guided by|from the perspective of)\s+", re.I)
_IMPROVE_LEAD = re.compile(
    r"^(?:learning to|enhancing|improving|boosting|advancing|rethinking|revisiting|scaling|unlocking|"
    r"empowering|exploring|exploration to|breaking new frontiers of|(?:a )?leap forward in|towards?)\s+",
    re.I,
)
_LEARNING_TO = re.compile(r"^learning to\s+", re.I)


def short_topic(subject: str) -> str:
    """A short readable noun phrase for the question's topic (module notes above MAX_TOPIC_WORDS);
    the subject itself when nothing shorter reads."""
    s = " ".join((subject or "").split())
    head = _MEANS.split(s, maxsplit=1)[0].strip()
    if len(head.split()) < 4 and len(s.split()) <= MAX_TOPIC_WORDS:  # "RAG with Hypergraph-Structured
        head = s  # Knowledge": a short head is generic, the means names the specific idea
    if _LEARNING_TO.match(head) and " for " in head:  # "Learning to Ensemble X for Y": the task is Y
        tail = head.split(" for ", 1)[1].strip()
        head = tail if len(tail.split()) >= 2 else head
    lead = _IMPROVE_LEAD.match(head)
    if lead and len(head[lead.end() :].split()) >= 2:
        head = head[lead.end() :]
    words = head.split()
    if len(words) > MAX_TOPIC_WORDS and " for " in head:  # "Long X Y Z Model for Task": trim the modifiers
        left, right = head.split(" for ", 1)
        keep = MAX_TOPIC_WORDS - 1 - len(right.split())
        if keep >= 2:  # else a cut would leave a fragment: the longer phrase reads better
            head = " ".join(left.split()[-keep:] + ["for"] + right.split())
    # title case to sentence case ("Volume-to-Volume Medical Image" -> "volume-to-volume medical image"):
    # a word whose every part is capitalised lower case; acronyms and names ("LLM-based", "W4A8") stay
    head = " ".join(w.lower() if all(_TITLE_WORD.match(x) for x in w.split("-") if x) else w for w in head.split())
    return head.rstrip(" ,;:")


_TITLE_WORD = re.compile(r"^(?:[A-Z][a-z']*|[a-z][a-z']*|to|of|for|and|in|on)$")

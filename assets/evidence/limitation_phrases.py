"""Limitation phrases: the word-level rules the bottleneck themes (`assets.evidence.bottlenecks`)
and the cause lexicon (`assets.evidence.causes`) share -- which sentences state a limitation,
the noun phrase a limitation predicate governs, keys and their normalised words, and when a
word sequence states a key (`states_key`). Split out of `assets.evidence.bottlenecks` (the
rules are documented in its module docstring, steps 1-3)."""

from __future__ import annotations

import re
from functools import lru_cache

from core.text import STOP_WORDS, term_stems

LIMITATION_MIN_SCORE = 1.5  # a sentence is a limitation sentence from this cue score on
NP_MAX_WORDS = 4
MAX_KEY_WORDS = 3
NOUN_SUFFIXES = (
    "ion",
    "ity",
    "ness",
    "ment",
    "ance",
    "ence",
    "ancy",
    "ency",
    "cy",
    "ure",
    "age",
    "ism",
    "sis",
    "ship",
    "gy",
    "ty",
    "th",
)

# predicate families: (family, regex). PRE: the object follows; POST: the object precedes.
PRE_PREDICATES: tuple[tuple[str, str], ...] = (
    ("suffer", r"suffer(?:s|ed|ing)?\s+(?:from|with)"),
    ("vulnerable", r"(?:vulnerab\w*|susceptib\w*|prone)\s+to"),
    ("struggle", r"struggl(?:e|es|ed|ing)\s+(?:with|in|to\s+handle)"),
    ("lack", r"(?:lack(?:s|ing|ed)|(?:lack|absence|scarcity|shortage|dearth|paucity)\s+of)"),
    ("by", r"(?:limited|hindered|hampered|constrained|plagued|bottlenecked|impeded|restricted)\s+by"),
    (
        "issue",
        r"(?:challenges?|difficult(?:y|ies)|issues?|problems?|limitations?|bottlenecks?|risks?|concerns?|"
        r"obstacles?|barriers?)\s+(?:of|in|such\s+as|including|like|posed\s+by|related\s+to|from|with)",
    ),
    (
        "cause",
        r"(?:due\s+to|caused\s+by|because\s+of|owing\s+to|leading\s+to|lead\s+to|leads\s+to|result\s+in|"
        r"results\s+in|resulting\s+in)",
    ),
)
POST_PREDICATES: tuple[tuple[str, str], ...] = (
    (
        "remains",
        r"(?:remains?|is|are|poses?|presents?|becomes?|constitutes?)\s+(?:still\s+)?(?:a\s+|an\s+)?"
        r"(?:\w+\s+){0,2}?(?:challenge|bottleneck|problem|limitation|obstacle|barrier|concern|"
        r"open\s+question|open\s+issue)s?\b",
    ),
    (
        "costly",
        r"(?:is|are|remains?|remain)\s+(?:still\s+|often\s+|highly\s+|very\s+|prohibitively\s+)?"
        r"(?:costly|expensive|prohibitive|unreliable|brittle|scarce|underexplored|unexplored|"
        r"insufficient|lacking|error-prone|inefficient|slow)\b",
    ),
)
NAME_PREFIX = {"lack": "lack of", "vulnerable": "vulnerability to", "struggle": "difficulty with"}

FUNCTION_WORDS = frozenset(
    """
a an the of in on for to from with by as at and or but nor so yet is are was were be been being this that these
those their its his her our your my we they it them which who whom whose what when where while how than then such
both each either neither any all some many much more most other another same own can could may might must shall
should will would do does did done has have had having not no into onto upon over under between among through during
within without about above below across after before beyond via per like unlike also even only just very too quite
rather still often usually typically remain remains remained however thus therefore hence moreover furthermore
there here due because i.e e.g etc especially particularly mainly largely highly severely significantly
""".split()
) | frozenset(  # verbs that end the noun phrase before them ("the lack of X hinders ...")
    """hinders hinder limits restricts remains makes leads causes poses prevents affects reduces degrades undermines
    impedes hampers complicates results requires becomes creates introduces raises presents constrains lies arises
    stems persists exists occurs emerges hurts harms compromises inhibits slows increases leaves""".split()
)
DETERMINERS = frozenset(
    "a an the their its these those this that such his her our your any some both each current existing".split()
)
INTENSIFIERS = frozenset(
    """
significant substantial severe considerable notable major key critical serious heavy massive huge great growing
common various different several new novel frequent excessive increased increasing persistent inherent existing
current fundamental main primary important inevitable unavoidable additional extra further potential possible
certain specific particular crucial remaining ongoing prevalent widespread non-trivial nontrivial
""".split()
)
LIMITING_MODIFIERS = frozenset(
    "high higher low lower limited poor insufficient scarce inadequate weak slow unreliable inconsistent costly expensive".split()
)
GENERIC_HEADS = frozenset(
    """
problem issue challenge limitation gap difficulty complexity nature need scenario setting case way aspect factor
ability capability performance result method approach system framework mechanism model task work field area
application development design support use usage kind type form level degree number amount lot part process
question concern obstacle barrier bottleneck drawback weakness shortcoming risk constraint requirement reason
solution technique strategy step effort study paper researcher practitioner user human people fact thing term
amount number range variety set series majority lot deal extent consequence assumption horizon applicability
implication outcome effect impact restriction deviation specificity terminology nuance randomness
""".split()
)
# stop words that may stand inside a multi-word key ("failure modes", "performance degradation")
KEY_STOP_EXCEPTIONS = frozenset("failure performance".split())
# words that name a limitation only with their complement ("reliance on ...", "absence of ..."):
# never a one-word key
RELATIONAL_WORDS = frozenset(
    """
reliance dependence dependency absence presence inability availability volume exposure lack scarcity shortage
cost costs difficulty leading limit compromise mode propagation tendency
""".split()
)
# acronyms in a domain title, expanded: their words are the domain's own words too
ACRONYMS: dict[str, str] = {
    "llm": "large language model",
    "llms": "large language models",
    "rag": "retrieval augmented generation",
    "vlm": "vision language model",
    "mllm": "multimodal large language model",
    "lm": "language model",
}

_TOKEN = re.compile(r"[A-Za-z][A-Za-z0-9\-]*|[^\sA-Za-z]")
_WORD = re.compile(r"^[a-z][a-z0-9\-]*$")


def norm_word(w: str) -> str:
    """Lower-cased, plural dropped: "attacks" -> "attack", "inefficiencies" -> "inefficiency",
    "biases" -> "bias"; "bias", "loss", "analysis" unchanged."""
    w = w.lower()
    if len(w) > 4 and w.endswith("ies"):
        return w[:-3] + "y"
    if w.endswith(("biases", "ches", "shes", "sses", "xes", "zes")):
        return w[:-2]
    return w[:-1] if len(w) > 3 and w.endswith("s") and not w.endswith(("ss", "us", "is", "as")) else w


@lru_cache(maxsize=1 << 18)  # a corpus repeats its words: each token is normalised once
def _norm_token(token: str) -> str | None:
    return norm_word(token) if _WORD.match(token.lower()) else None


def word_tokens(text: str) -> list[str]:
    """The normalised word sequence of a text (punctuation dropped): what keys are matched in."""
    return [w for t in _TOKEN.findall(text) if (w := _norm_token(t)) is not None]


def contains_key(tokens: list[str], key: tuple[str, ...]) -> bool:
    """True when `key` occurs as a contiguous run of `tokens`."""
    n = len(key)
    return any(tuple(tokens[i : i + n]) == key for i in range(len(tokens) - n + 1))


def domain_words(title: str) -> set[str]:
    """Stems of a domain title's words, with the words of its acronyms (ACRONYMS)."""
    words = set()
    for tok in re.findall(r"[A-Za-z][A-Za-z0-9\-]*", title):
        words |= term_stems(tok)
        words |= term_stems(ACRONYMS.get(tok.lower(), ""))
    return {w for w in words if w and w not in {"and", "of", "the"}}


def restates(name: str, words: set[str]) -> bool:
    """True when every content word of `name` is one of `words` (stems) or a stop word:
    the name says nothing the given words do not already say."""
    stems = [s for tok in re.findall(r"[a-z][a-z0-9\-]*", name.lower()) for s in sorted(term_stems(tok)) if tok not in STOP_WORDS]
    content = [s for s in stems if s not in STOP_WORDS and s not in {"lack", "vulnerability", "difficulty"}]
    return all(s in words for s in content)


def _run(tokens: list[str], i: int) -> int:
    """End index of the run of non-function words starting at `i`, without trailing
    participles ("attacks hidden in pages", "data collected from")."""
    start = i
    while i < len(tokens) and _WORD.match(tokens[i].lower()) and tokens[i].lower() not in FUNCTION_WORDS:
        i += 1
    while i > start + 1 and re.search(r"(?:ed|en)$", tokens[i - 1].lower()) and len(tokens[i - 1]) > 4:
        i -= 1
    return i


def objects_after(text: str) -> list[list[str]]:
    """The noun phrases right after a predicate (determiners skipped), with coordinated ones
    ("A, B and C"); each is its run's last NP_MAX_WORDS words (noun phrases are head-final)."""
    tokens = _TOKEN.findall(text)
    out: list[list[str]] = []
    i = 0
    while i < len(tokens) and len(out) < 3:
        while i < len(tokens) and tokens[i].lower() in DETERMINERS:
            i += 1
        end = _run(tokens, i)
        if end == i:
            break
        out.append(tokens[i:end][-NP_MAX_WORDS:])
        i = end
        if i < len(tokens) and tokens[i].lower() in (",", "and", "or"):
            i += 1
            if i < len(tokens) and tokens[i].lower() in ("and", "or"):
                i += 1
            continue
        break
    return out


def object_before(text: str) -> list[str]:
    """The noun phrase that ends right before a predicate (its last NP_MAX_WORDS words)."""
    out: list[str] = []
    for t in reversed(_TOKEN.findall(text)):
        low = t.lower()
        if not _WORD.match(low) or low in FUNCTION_WORDS or low in DETERMINERS:
            break
        out.append(t)
    return out[::-1][-NP_MAX_WORDS:]


_PRE = [(fam, re.compile(r"\b" + rx + r"\s+", re.I)) for fam, rx in PRE_PREDICATES]
_POST = [(fam, re.compile(r"\s+" + rx, re.I)) for fam, rx in POST_PREDICATES]


def limitation_objects(sentence: str) -> list[tuple[str, list[str]]]:
    """(predicate family, noun phrase words as written) of every limitation object of a sentence."""
    found = []
    for fam, rx in _PRE:
        for m in rx.finditer(sentence):
            found += [(fam, np_) for np_ in objects_after(sentence[m.end() :])]
    for fam, rx in _POST:
        for m in rx.finditer(sentence):
            np_ = object_before(sentence[: m.start()])
            if np_:
                found.append((fam, np_))
    return found


def surface_of(surface: list[str], n: int) -> str:
    """A key's words as written: the surface's last `n` words, with the limiting modifier
    right before them if there is one ("high latency")."""
    start = len(surface) - n
    if start > 0 and surface[start - 1].lower() in LIMITING_MODIFIERS:
        start -= 1
    return " ".join(surface[start:])


def object_keys(words: list[str]) -> tuple[list[str], list[tuple[str, ...]]]:
    """(surface words, keys) of one object: intensifiers dropped from the surface, limiting
    modifiers also from the key words; keys are the key words' last 1..MAX_KEY_WORDS words
    that neither start with a stop word nor end with a stop word or GENERIC_HEADS word."""
    surface = [w for w in words if w.lower() not in INTENSIFIERS]
    while surface and surface[0].lower() in STOP_WORDS and surface[0].lower() not in LIMITING_MODIFIERS:
        surface = surface[1:]
    lead = 0
    while lead < len(surface) and surface[lead].lower() in LIMITING_MODIFIERS:
        lead += 1
    key_words = [norm_word(w) for w in surface[lead:]]
    keys = []
    for n in range(1, min(MAX_KEY_WORDS, len(key_words)) + 1):
        key = tuple(key_words[-n:])
        if key[0] in STOP_WORDS or key[-1] in STOP_WORDS or key[-1] in GENERIC_HEADS:
            continue
        if any(w in STOP_WORDS and w not in KEY_STOP_EXCEPTIONS for w in key):  # no stop word inside
            continue
        if n == 1 and key[0] in RELATIONAL_WORDS:
            continue
        keys.append(key)
    return surface, keys


TERM_PREFIX_MIN = 4  # two words are one term when they share a prefix this long ...
TERM_PREFIX_SHARE = 0.65  # ... covering this share of the longer word
# Words that share such a prefix but name different things (issue 32, fifth pass: a DiT latency task
# quoted sentences about "latent" spaces as latency evidence): their stems never match.
FALSE_FRIENDS = (("latent", "latenc"),)
KEY_SPAN_SLACK = 2  # a key's terms lie within its length + this many words


def same_term(a: str, b: str) -> bool:
    """Two words name one term: equal, or sharing a prefix of >= TERM_PREFIX_MIN letters that
    covers >= TERM_PREFIX_SHARE of the longer ("hallucination" / "hallucinated", "noise" /
    "noisy", "retrieval" / "retrieved", "bias" / "biased"; never "over" / "overhead" or
    "inefficiency" / "efficiency")."""
    if a == b:
        return True
    if a[:TERM_PREFIX_MIN] != b[:TERM_PREFIX_MIN]:  # the common case, decided without the loop
        return False
    for x, y in FALSE_FRIENDS:
        if (a.startswith(x) and b.startswith(y)) or (a.startswith(y) and b.startswith(x)):
            return False
    n = 0
    for x, y in zip(a, b):
        if x != y:
            break
        n += 1
    return n >= TERM_PREFIX_MIN and n >= TERM_PREFIX_SHARE * max(len(a), len(b))


def key_positions(tokens: tuple[str, ...] | list[str], key: tuple[str, ...]) -> list[int]:
    """Start positions where every term of `key` occurs (`same_term`) within a span of
    len(key) + KEY_SPAN_SLACK words of `tokens`, in any order (the first term's position)."""
    if not key:
        return []
    k0 = key[0]
    p0 = k0[:TERM_PREFIX_MIN]  # same_term needs equal words or this shared prefix: tested inline first
    first = [i for i, t in enumerate(tokens) if t == k0 or (t[:TERM_PREFIX_MIN] == p0 and same_term(t, k0))]
    if len(key) == 1:
        return first
    span = len(key) + KEY_SPAN_SLACK
    out = []
    for i in first:
        window = tokens[max(0, i - span + 1) : i + span]
        if all(any(same_term(t, k) for t in window) for k in key[1:]):
            out.append(i)
    return out


def states_key(tokens: tuple[str, ...] | list[str], key: tuple[str, ...]) -> bool:
    """True when every term of `key` occurs (`same_term`) within a span of len(key) +
    KEY_SPAN_SLACK words of `tokens`, in any order ("noise in the retrieved documents" states
    "noisy retrieval")."""
    return bool(key_positions(tokens, key))

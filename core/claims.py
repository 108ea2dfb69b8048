"""Claim-level scoring of rediscovered findings (FIRE-Bench §3.3, §5.2), offline proxy.

Both the answer and the hidden target are decomposed into atomic claims
(`atomic_claims`); an answer claim is a true positive when one gold claim entails it;
precision = TP / |answer claims|, recall = 1 - FN / |gold claims| (a gold claim is a false
negative when no true-positive answer claim matches it), F1 their harmonic mean. Every
unmatched claim gets one error type of the paper's false-positive taxonomy
(contradictory, unrelated, overgeneralized, alternative), false negatives too (what the
answer did with the missed finding).

The entailment test here is a documented lexical PROXY for the paper's LLM entailment
judge (no NLI weights ship on these machines, docs/rediscovery.md): gold claim g entails
answer claim c when

* c says nothing g does not: >= COVER_MIN of c's content stems occur in g,
* c is specific: it shares >= MIN_SPECIFIC stems with g that are not generic result
  vocabulary ("improves", "performance", "baseline", ...), and covers >= GOLD_COVER_MIN of
  g's specific stems (a fragment of a finding is not the finding),
* c keeps g's polarity (improve vs degrade, more vs less, negation) and every number c
  states occurs in g,
* c claims no wider scope than g ("all", "always", "any", "consistently", ...).

The same function checks that a public task does not give its finding away
(`gives_away`). With a judge model the scorer asks the model instead, in one batched call
per answer (`assets/rediscovery/llm.py`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import lru_cache

from core.text import STOP_WORDS

ERROR_TYPES = ("contradictory", "unrelated", "overgeneralized", "alternative")
ERROR_VALUES = tuple(f"{side}_{t}" for side in ("fp", "fn") for t in ERROR_TYPES)  # score value names

COVER_MIN = 0.75  # share of the answer claim's content stems found in the gold claim
MIN_SPECIFIC = 2  # specific (non-generic) stems shared with the gold claim
GOLD_COVER_MIN = 0.3  # share of the gold claim's specific stems the answer claim carries
RELATED_MIN = 0.25  # share of specific stems shared: the claims are about the same thing

# Result vocabulary every finding uses; shared alone it says nothing about *which* finding.
GENERIC = frozenset(
    """
improve improv improves improved improvement improvements increase increases increased decrease decreases
decreased reduce reduces reduced reduction outperform outperforms outperformed performance perform performs
result results baseline baselines method methods approach approaches model models task tasks experiment
experiments show shows shown find finds found demonstrate demonstrates achieve achieves achieved better worse
higher lower gain gains effect effects effective effectiveness significant significantly substantial
substantially consistent consistently state-of-the-art sota accuracy benchmark benchmarks evaluation evaluations
data dataset datasets across compared comparison existing prior work propose proposed framework overall leads
lead yields yield enhance enhances enhanced strong stronger robust
""".split()
)
UP = frozenset(
    "improve improves improved improving improvement increase increases increased higher better "
    "outperform outperforms outperformed gain gains boost boosts boosted enhance enhances enhanced "
    "more faster stronger exceed exceeds surpass surpasses raise raises helps help benefit benefits".split()
)
DOWN = frozenset(
    "degrade degrades degraded degrading decrease decreases decreased lower worse hurt hurts harm "
    "harms reduce reduces reduced drop drops dropped decline declines less fewer slower weaker fail "
    "fails underperform underperforms impair impairs deteriorate deteriorates".split()
)
# 'reduces error/latency/cost/hallucination' is good news: the direction is about the quantity, kept as stated.
NEGATION = re.compile(
    r"\b(not|no|never|cannot|can't|doesn't|don't|didn't|isn't|aren't|fails? to|neither|nor|"
    r"unable|it is not the case)\b",
    re.I,
)
UNIVERSAL = re.compile(
    r"\b(all|always|every|any|consistently|universally|in general|generally|regardless|"
    r"invariably|across the board|in every|never fails)\b",
    re.I,
)
NUMBER = re.compile(r"(?<![\w.])\d+(?:\.\d+)?%?")
LEAD_IN = re.compile(
    r"^(?:(?:our|the|these|experimental|empirical|extensive)\s+)*(?:results?|experiments?|analys[ie]s|evaluations?|"
    r"findings|studies|we)\s+(?:further\s+|also\s+)?(?:show|shows|showed|demonstrate|demonstrates|reveal|reveals|"
    r"find|finds|found|indicate|indicates|suggest|suggests|confirm|confirms|observe|observed)\s+(?:that\s+)?",
    re.I,
)
CONNECTIVE = re.compile(
    r"^(?:first(?:ly)?|second(?:ly)?|third(?:ly)?|finally|moreover|furthermore|additionally|"
    r"in addition|overall|notably|importantly|specifically|besides|also|and|further|thus|hence|"
    r"therefore|as a result|consequently)\b,?\s*",
    re.I,
)
_SENT = re.compile(r"(?<=[.!?])\s+(?=[A-Z0-9\"'(])")


def clean_text(text: str) -> str:
    """LaTeX markup of arXiv abstracts removed (\\textbf{X} -> X, \\% -> %), whitespace collapsed."""
    text = re.sub(r"\\(?:textbf|textit|emph|texttt|mathrm|mathbf|text)\{([^{}]*)\}", r"\1", str(text))
    text = text.replace("\\%", "%").replace("\\&", "&").replace("\\_", "_").replace("~", " ")
    return " ".join(text.split())


_WORD = re.compile(r"[a-z0-9][a-z0-9\-]*")


@lru_cache(maxsize=1 << 18)  # a corpus repeats its words: every stage that compares texts stems them
def stem(word: str) -> str:
    """A crude suffix stemmer (enough to let 'improves'/'improved', 'models'/'model' meet)."""
    for suffix in ("ations", "ation", "ings", "ing", "ies", "ied", "es", "ed", "ly", "s"):
        if word.endswith(suffix) and len(word) - len(suffix) >= 4:
            return word[: -len(suffix)] + ("y" if suffix in ("ies", "ied") else "")
    return word


def content_stems(text: str) -> set[str]:
    return {stem(w) for w in _WORD.findall(text.lower()) if w not in STOP_WORDS and w not in GENERIC and len(w) > 2}


def all_stems(text: str) -> set[str]:
    """Content stems including the generic result vocabulary (coverage counts both)."""
    return {stem(w) for w in _WORD.findall(text.lower()) if w not in STOP_WORDS and len(w) > 2} | {
        stem(w) for w in _WORD.findall(text.lower()) if w in GENERIC
    }


def numbers(text: str) -> set[str]:
    return {n.rstrip("%") for n in NUMBER.findall(text)}


def polarity(text: str) -> int:
    """+1 (more/better), -1 (less/worse), 0 (neither); negation flips it."""
    words = _WORD.findall(text.lower())
    up = sum(w in UP for w in words)
    down = sum(w in DOWN for w in words)
    sign = (up > down) - (down > up)
    if NEGATION.search(text):
        sign = -sign if sign else -1
    return sign


def atomic_claims(text: str | list[str]) -> list[str]:
    """Sentences, split again at ';' and contrastive joints ('while', 'whereas', ', but'), lead-ins
    ('Results show that') removed, fragments without two content words dropped."""
    parts = [clean_text(t) for t in text] if isinstance(text, list) else _SENT.split(clean_text(text))
    out: list[str] = []
    for part in parts:
        for piece in re.split(r";\s+|,\s+(?:while|whereas|but)\s+|\s+whereas\s+", str(part)):
            piece = piece.strip(" -*\u2022")
            for _ in range(2):
                piece = LEAD_IN.sub("", CONNECTIVE.sub("", re.sub(r"^\(?\d\)\s*", "", piece))).strip()
            if len(content_stems(piece) | (all_stems(piece) & GENERIC)) >= 2 and len(piece.split()) >= 3:
                out.append(piece[0].upper() + piece[1:] if piece else piece)
    return list(dict.fromkeys(out))


@dataclass
class Relation:
    """How one answer claim stands to one gold claim."""

    entailed: bool
    related: float  # share of the specific stems the two share (0..1, of the smaller set)
    kind: str  # "entailed" or one of ERROR_TYPES


def relate(claim: str, gold: str) -> Relation:
    """The proxy entailment test of the module docstring, and the error type when it fails."""
    c_all, g_all = all_stems(claim), all_stems(gold)
    c_spec, g_spec = content_stems(claim), content_stems(gold)
    shared = c_spec & g_spec
    related = len(shared) / max(1, min(len(c_spec), len(g_spec)))
    cover = len(c_all & g_all) / max(1, len(c_all))
    gold_cover = len(shared) / max(1, len(g_spec))
    flips = polarity(claim) * polarity(gold) < 0 or bool(NEGATION.search(claim)) != bool(NEGATION.search(gold))
    extra_numbers = numbers(claim) - numbers(gold)
    wider = bool(UNIVERSAL.search(claim)) and not UNIVERSAL.search(gold)
    same_topic = len(shared) >= MIN_SPECIFIC and related >= RELATED_MIN
    if same_topic and (flips or (extra_numbers and numbers(gold))):
        return Relation(False, related, "contradictory")
    if cover >= COVER_MIN and len(shared) >= MIN_SPECIFIC and gold_cover >= GOLD_COVER_MIN:
        if wider:
            return Relation(False, related, "overgeneralized")
        if not extra_numbers:
            return Relation(True, related, "entailed")
    if same_topic:
        return Relation(False, related, "alternative")
    return Relation(False, related, "unrelated")


@dataclass
class ClaimScore:
    precision: float
    recall: float
    f1: float
    tp: int
    answer_claims: list[str]
    gold_claims: list[str]
    matches: dict[int, int] = field(default_factory=dict)  # answer claim index -> gold claim index
    fp_types: dict[int, str] = field(default_factory=dict)  # answer claim index -> error type
    fn_types: dict[int, str] = field(default_factory=dict)  # gold claim index -> error type

    def error_counts(self) -> dict[str, int]:
        out = {f"fp_{t}": 0 for t in ERROR_TYPES} | {f"fn_{t}": 0 for t in ERROR_TYPES}
        for t in self.fp_types.values():
            out[f"fp_{t}"] += 1
        for t in self.fn_types.values():
            out[f"fn_{t}"] += 1
        return out


_PRIORITY = {"contradictory": 3, "overgeneralized": 2, "alternative": 1, "unrelated": 0}


def _worst(kinds: list[tuple[float, str]]) -> str:
    """The error type of an unmatched claim: its relation to the claim on the other side it is
    most related to (ties: contradiction > overgeneralisation > alternative), 'unrelated' when
    it shares no topic with any."""
    best = max(kinds, key=lambda rk: (rk[0], _PRIORITY[rk[1]]), default=(0.0, "unrelated"))
    return best[1]


def score_claims(answer: list[str], gold: list[str]) -> ClaimScore:
    """FIRE-Bench claim P/R/F1 with error types (see the module docstring). An empty answer
    scores 0 precision and 0 recall (F1 0); an empty gold is undefined (F1 0, no claims)."""
    rel = [[relate(c, g) for g in gold] for c in answer]
    matches: dict[int, int] = {}
    fp_types: dict[int, str] = {}
    for i, row in enumerate(rel):
        hits = [j for j, r in enumerate(row) if r.entailed]
        if hits:
            matches[i] = max(hits, key=lambda j: row[j].related)
        else:
            fp_types[i] = _worst([(r.related, r.kind) for r in row if r.kind != "entailed"])
    covered = set(matches.values())
    fn_types = {
        j: _worst([(rel[i][j].related, rel[i][j].kind) for i in range(len(answer)) if rel[i][j].kind != "entailed"])
        for j in range(len(gold))
        if j not in covered
    }
    return claim_score(answer, gold, matches, fp_types, fn_types)


def claim_score(answer: list[str], gold: list[str], matches: dict, fp_types: dict, fn_types: dict) -> ClaimScore:
    """FIRE-Bench §4 from the matching (offline matcher or judge): precision = TP / |answer
    claims|, recall = 1 - FN / |gold claims|, F1 their harmonic mean."""
    tp = len(matches)
    precision = tp / len(answer) if answer else 0.0
    recall = 1 - len(fn_types) / len(gold) if gold else 0.0
    f1 = 2 * precision * recall / (precision + recall) if precision + recall else 0.0
    return ClaimScore(
        round(precision, 4), round(recall, 4), round(f1, 4), tp, list(answer), list(gold), matches, fp_types, fn_types
    )


def gives_away(public_text: str, gold: list[str]) -> list[str]:
    """Gold claims the public text already states (the same matcher: a sentence of the task
    that a gold claim entails); a task with any is dropped."""
    sentences = atomic_claims(public_text)
    return [g for g in gold if any(relate(s, g).entailed for s in sentences)]

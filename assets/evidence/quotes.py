"""Per-paper evidence quotes: cue-phrase sentence picking and verbatim verification.

Shared by the offline extractor (`assets.evidence.logic`) and LLM mode
(`assets.evidence.llm_mode`), which both quote one sentence per field and check it
against the paper text.
"""

from __future__ import annotations

import re

from core.records import PaperEvidence, PaperFullText, ScreenedPaper

SENTENCE_FIELDS = ("problem", "method", "evaluation_focus", "limitation")
CONTRIBUTION_TYPES = (
    "method",
    "benchmark/dataset",
    "empirical study",
    "survey",
    "system/tool",
    "theory",
    "position",
)

# Cue phrases per field, each with a weight; a sentence's score is the sum of the
# weights of the distinct cues it contains (case-insensitive, word-prefix match).
CUES: dict[str, dict[str, float]] = {
    "problem": {
        "challenge": 2,
        "challenging": 2,
        "however": 2,
        "remain": 2,
        "remains": 2,
        "struggle": 2,
        "lack": 2,
        "limited": 1.5,
        "difficult": 1.5,
        "problem": 1.5,
        "issue": 1,
        "gap": 1,
        "unclear": 1.5,
        "open question": 2,
        "yet": 0.5,
        "despite": 1.5,
        "existing": 1,
        "often": 0.5,
        "hinder": 1.5,
        "insufficient": 1.5,
        "nonetheless": 1.5,
        "fall short": 2,
        "falls short": 2,
    },
    "method": {
        "we propose": 3,
        "we introduce": 3,
        "we present": 3,
        "we develop": 2.5,
        "we design": 2.5,
        "this paper proposes": 3,
        "this paper introduces": 3,
        "this paper presents": 3,
        "this work": 1,
        "our method": 2.5,
        "our framework": 2.5,
        "our approach": 2.5,
        "our model": 2,
        "framework": 1,
        "novel": 1,
        "we build": 2,
        "we leverage": 1.5,
        "to address": 1.5,
        "to tackle": 1.5,
        "called": 1,
        "named": 1,
        "dubbed": 1,
    },
    "evaluation_focus": {
        "experiment": 2.5,
        "benchmark": 2,
        "evaluate": 2.5,
        "evaluation": 2,
        "outperform": 2.5,
        "results show": 3,
        "results demonstrate": 3,
        "demonstrate": 1.5,
        "achieve": 1.5,
        "accuracy": 1.5,
        "baseline": 2,
        "state-of-the-art": 1.5,
        "improve": 1,
        "empirical": 1.5,
        "ablation": 2,
        "extensive": 1,
        "human evaluation": 2,
        "success rate": 2,
        "datasets": 1,
    },
    "limitation": {
        "limitation": 3,
        "fail": 2.5,
        "suffer": 2.5,
        "costly": 2.5,
        "expensive": 2,
        "hallucinat": 2.5,
        "not robust": 3,
        "bottleneck": 2.5,
        "challenge": 1.5,
        "however": 1.5,
        "struggle": 2.5,
        "lack": 2,
        "unreliable": 2.5,
        "vulnerab": 2,
        "brittle": 2.5,
        "error-prone": 2,
        "inefficien": 2,
        "overhead": 1.5,
        "degrade": 2,
        "bias": 1.5,
        "remain": 1,
        "limited": 1.5,
        "poor": 1.5,
        "risk": 1.5,
        "unsafe": 2,
        "scarce": 2,
        "prohibitive": 2,
        "latency": 1,
        "still": 0.5,
        "hinder": 2,
        "fall short": 2.5,
        "falls short": 2.5,
        "nonetheless": 1,
        "incorrect": 1.5,
        "face challenges": 1,
        "unstable": 2,
        "instabilit": 2,
        "drawback": 3,
        "weakness": 3,
        "shortcoming": 3,
        "insufficient": 1.5,
        "difficult": 1,
    },
}

# Cues that mark a sentence as the paper's own contribution or a success claim; they
# count against the problem and limitation fields ("we propose an agent to tackle
# symbolic challenges" is not a limitation).
NEGATIVE_CUES: dict[str, float] = {
    "we propose": -3,
    "we introduce": -3,
    "we present": -3,
    "our": -1.5,
    "this paper": -1.5,
    "remarkabl": -1.5,
    "significantly": -1.5,
    "outperform": -2,
    "achieve": -1,
    "state-of-the-art": -1,
    "effective": -1,
    "can still": -2,
}
# Extra negatives for the limitation field: sentences that present a remedy ("RAG has
# emerged to overcome the knowledge limitations of LLMs") are not limitations.
LIMITATION_NEGATIVE_CUES: dict[str, float] = {
    "to overcome": -2.5,
    "overcome": -1,
    "to address": -2,
    "addresses": -2,
    "mitigat": -1.5,
    "alleviat": -1.5,
    "has emerged": -2,
    "have emerged": -2,
    "powerful": -1,
    "promising": -1,
    "enhance": -1,
    "enable": -1,
}
# A field stays empty unless its best sentence reaches this score.
MIN_SCORE = {"problem": 1.5, "method": 2.0, "evaluation_focus": 2.0, "limitation": 2.0}

# Contribution type: cue words in the title count double.
CONTRIBUTION_CUES: dict[str, tuple[str, ...]] = {
    "survey": ("survey", "a review", "systematic review", "overview of", "literature review", "roadmap"),
    "benchmark/dataset": (
        "benchmark",
        "dataset",
        "corpus",
        "testbed",
        "leaderboard",
        "arena",
        "evaluation suite",
        "test suite",
        "new benchmark",
        "novel benchmark",
        "we curate",
        "we collect",
        "we construct a",
    ),
    "empirical study": (
        "empirical study",
        "empirical analysis",
        "we investigate",
        "we analyze",
        "we analyse",
        "systematic study",
        "we study",
        "we examine",
        "case study",
        "comprehensive analysis",
        "revisiting",
        "rethinking",
        "understanding",
    ),
    "system/tool": (
        "toolkit",
        "library",
        "open-source framework",
        "platform",
        "open-source system",
        "pipeline",
        "infrastructure",
        "we release",
        "tool for",
        "demo",
    ),
    "theory": (
        "theoretical",
        "we prove",
        "theorem",
        "provably",
        "convergence",
        "regret bound",
        "generalization bound",
        "formal analysis",
    ),
    "position": ("position paper", "we argue", "this position", "call for", "perspective", "manifesto"),
}

# A sentence ends at . ! or ? followed by whitespace and something that can start a
# sentence (capital, digit, quote, bracket). "e.g. the" or "et al. show" do not split.
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[A-Z0-9\"'(\[])")
_ABBREV = re.compile(r"(?:\b(?:e\.g|i\.e|et al|vs|cf|Fig|Eq|Sec|approx|resp)\.)$", re.IGNORECASE)
_WS = re.compile(r"\s+")


def paper_source_text(paper: ScreenedPaper) -> str:
    """The text the evidence is quoted from: title, then abstract (as the KB stores it)."""
    return f"{paper.title}. {paper.abstract}"


def split_sentences(text: str) -> list[str]:
    """Sentences as exact substrings of `text` (spans, not re-joined pieces)."""
    sentences: list[str] = []
    start = 0
    for match in _SENTENCE_END.finditer(text):
        candidate = text[start : match.start()]
        if _ABBREV.search(candidate) or len(candidate.strip()) < 12:
            continue  # an abbreviation or a fragment: keep growing the sentence
        sentences.append(candidate.strip())
        start = match.end()
    tail = text[start:].strip()
    if tail:
        sentences.append(tail)
    return [s for s in sentences if s]


def normalise_ws(text: str) -> str:
    return _WS.sub(" ", text).strip()


def verify_quote(quote: str, source_text: str) -> bool:
    """True iff `quote` is a verbatim (whitespace-normalised) substring of the source.

    An empty quote verifies trivially (the field was left empty, nothing was claimed).
    """
    q = normalise_ws(quote)
    return not q or q in normalise_ws(source_text)


_NON_WORD = re.compile(r"[^a-z0-9\-]+")


def _words(text: str) -> str:
    """Lower-cased text with non-word runs as single spaces, padded: " a b c "."""
    return " " + _NON_WORD.sub(" ", text.lower()) + " "


def _has(words: str, cue: str) -> bool:
    """Word-prefix match: cue "fail" matches "failure" but not "default"."""
    return (" " + cue) in words


def _cue_hits(words: str, cues: dict[str, float]) -> float:
    """Sum of the weights of the distinct cues in a `_words` string (word-prefix match).

    Plain substring tests on a normalised string: ~100x faster than one regex per cue,
    which matters for ~10k papers per build.
    """
    return sum(w for cue, w in cues.items() if (" " + cue) in words)


def classify_contribution(title: str, abstract: str) -> str:
    """One label of CONTRIBUTION_TYPES from cue words (title hits count double)."""
    if re.match(r"\s*position\s*:", title, re.IGNORECASE):
        return "position"  # ICML-style "Position: ..." titles
    t, a = _words(title), _words(abstract)
    best, best_score = "method", 0.0
    for label in CONTRIBUTION_TYPES[1:]:
        score = 0.0
        for cue in CONTRIBUTION_CUES[label]:
            score += 2.0 * _has(t, cue) + 1.0 * _has(a, cue)
        if label == "benchmark/dataset" and re.search(r"bench\b|gym\b", t):
            score += 2.0  # "AgentBench", "WebGym": named benchmarks in the title
        if score > best_score:
            best, best_score = label, score
    # One abstract mention of "benchmark" is what method papers evaluate on; a non-method
    # label needs a title cue or three distinct abstract cues.
    return best if best_score >= 2.0 and (best_score >= 3.0 or _title_has(best, t)) else "method"


def limitation_score(sentence: str) -> float:
    """A sentence's limitation score, as the evidence extractor scores it: the limitation
    cues minus the own-work and remedy cues (`CUES["limitation"]`, `NEGATIVE_CUES`,
    `LIMITATION_NEGATIVE_CUES`). A score >= MIN_SCORE["limitation"] (2.0) makes a sentence
    eligible as a paper's limitation quote."""
    words = _words(sentence)
    return _cue_hits(words, CUES["limitation"]) + _cue_hits(words, NEGATIVE_CUES) + _cue_hits(words, LIMITATION_NEGATIVE_CUES)


def _title_has(label: str, title_lower: str) -> bool:
    if any(_has(title_lower, cue) for cue in CONTRIBUTION_CUES[label]):
        return True
    return label == "benchmark/dataset" and bool(re.search(r"bench\b|gym\b", title_lower))


# Full text: the sections each field prefers (a sentence there gets PREFERRED_BONUS).
PREFERRED_SECTIONS: dict[str, tuple[str, ...]] = {
    "problem": ("abstract", "introduction"),
    "method": ("abstract", "method"),
    "evaluation_focus": ("experiments", "abstract"),
    "limitation": ("limitations", "conclusion"),
}
PREFERRED_BONUS = 1.0
SECTION_BONUS = {("limitation", "limitations"): 2.5}  # an author-declared limitation outranks a complaint
FULLTEXT_SECTIONS = ("abstract", "introduction", "method", "experiments", "limitations", "conclusion")


def _pick_fields(sentences: list[str], sections: list[str] | None = None) -> dict[str, str]:
    """Greedy cue-phrase choice of one sentence per field (see `extract_paper_evidence`)."""
    words = [_words(x) for x in sentences]
    chosen: dict[str, str] = {}
    used: set[int] = set()
    n = len(sentences)
    for field in ("method", "evaluation_focus", "limitation", "problem"):
        scored = []
        for i in range(n):
            score = _cue_hits(words[i], CUES[field])
            if field in ("problem", "limitation"):
                score += _cue_hits(words[i], NEGATIVE_CUES)
            if field == "limitation":
                score += _cue_hits(words[i], LIMITATION_NEGATIVE_CUES)
            if score < MIN_SCORE[field]:
                continue
            if sections is not None and sections[i] in PREFERRED_SECTIONS[field]:
                score += SECTION_BONUS.get((field, sections[i]), PREFERRED_BONUS)
            position = i / max(n - 1, 1)
            tie = {"problem": -position, "evaluation_focus": position, "method": -abs(position - 0.3), "limitation": 0.0}[field]
            scored.append((i in used, -score, -tie, i))
        if not scored:
            chosen[field] = ""
            continue
        scored.sort()
        idx = scored[0][3]
        used.add(idx)
        chosen[field] = sentences[idx]
    return chosen


def extract_fields_from_text(title: str, text: str) -> tuple[dict[str, str], str]:
    """Rule-based (sentence per field, contribution type) from a title and a text."""
    return _pick_fields(split_sentences(text)), classify_contribution(title, text)


def fulltext_sections(fulltext: PaperFullText | None) -> list[tuple[str, str]]:
    """(section name, text) of a GROBID full text, in paper order; [] when there is none."""
    if fulltext is None or fulltext.source != "grobid" or fulltext.error:
        return []
    return [(sec.name, sec.text) for sec in fulltext.sections if sec.name in FULLTEXT_SECTIONS and sec.text.strip()]


def evidence_source_text(paper: ScreenedPaper, fulltext: PaperFullText | None = None) -> str:
    """Everything a quote may come from: title and abstract, plus the full-text sections."""
    parts = [paper_source_text(paper)] + [text for _, text in fulltext_sections(fulltext)]
    return "\n".join(parts)


def extract_paper_evidence(paper: ScreenedPaper, fulltext: PaperFullText | None = None) -> PaperEvidence:
    """One verbatim sentence per field, chosen by cue-phrase scores.

    From the abstract, or -- when a GROBID full text is given -- from the abstract and the
    introduction, method, experiments, limitations and conclusion sections, where a
    sentence in a field's preferred section (PREFERRED_SECTIONS: a limitation in the
    Limitations section, an evaluation focus in Experiments) gets a bonus.
    Fields are filled greedily in the order method, evaluation_focus, limitation,
    problem; a sentence already used for an earlier field is only reused when no other
    sentence has any cue for the later field (so problem and limitation can coincide on
    a single "However, ..." sentence, but prefer different ones). Position breaks ties:
    problem prefers early sentences, evaluation late ones.
    """
    sections = fulltext_sections(fulltext)
    if sections:
        sentences, names = [], []
        if not any(name == "abstract" for name, _ in sections):
            sections = [("abstract", paper.abstract)] + sections
        for name, text in sections:
            for sentence in split_sentences(text):
                sentences.append(sentence)
                names.append(name)
        chosen = _pick_fields(sentences, names)
    else:
        chosen = _pick_fields(split_sentences(paper.abstract))
    evidence = PaperEvidence(
        arxiv_id=paper.arxiv_id,
        published=paper.published,
        problem=chosen["problem"],
        method=chosen["method"],
        evaluation_focus=chosen["evaluation_focus"],
        limitation=chosen["limitation"],
        contribution_type=classify_contribution(paper.title, paper.abstract),
        quote_source="fulltext" if sections else "abstract",
    )
    evidence.unverified = unverified_fields(evidence, paper, fulltext)
    return evidence


def unverified_fields(evidence: PaperEvidence, paper: ScreenedPaper, fulltext: PaperFullText | None = None) -> list[str]:
    """Names of sentence fields whose quote is not verbatim in the paper's source text."""
    source = evidence_source_text(paper, fulltext)
    return [f for f in SENTENCE_FIELDS if not verify_quote(getattr(evidence, f), source)]

"""Evidence stage: per-paper full-text evidence and node evidence records (ForeSci §3.3).

"Node representation" in the paper: every taxonomy node gets a *node evidence record*
that links the subdirection back to the cutoff-visible literature (representative +
supporting papers), and every paper in it carries *full-text evidence*: what problem,
method, evaluation focus, limitation and contribution type had appeared before the
cutoff. The paper drafts these with an LLM and has experts audit them; offline we take
one *verbatim* sentence per field from the abstract -- or, when the `paper_fulltext`
asset has a GROBID full text, from its sections (a limitation from the Limitations
section first) -- with cue-phrase rules, so every field can be checked mechanically
against its source (`verify_quote`) and nothing is paraphrased or invented. A field
stays empty when no sentence carries its cues. LLM mode (`assets.evidence.llm_mode`)
has the model quote a sentence per field; quotes not found verbatim are kept and
listed in `PaperEvidence.unverified`. Representative papers are ranked by centrality,
plus citation counts as of the cutoff when given (offline: centrality only).

No Dagster here. Unknown paper ids in a node are skipped and reported as `Failure`
rows; a paper dated after the cutoff is a temporal-integrity bug upstream and raises.
"""

from __future__ import annotations

import re
from datetime import date

import numpy as np

from assets.records import EvidenceRecord, Failure, PaperEvidence, PaperFullText, ScreenedPaper, TaxonomyNode

SENTENCE_FIELDS = ("problem", "method", "evaluation_focus", "limitation")
CONTRIBUTION_TYPES = (
    "method", "benchmark/dataset", "empirical study", "survey", "system/tool", "theory", "position",
)

# Cue phrases per field, each with a weight; a sentence's score is the sum of the
# weights of the distinct cues it contains (case-insensitive, word-prefix match).
CUES: dict[str, dict[str, float]] = {
    "problem": {
        "challenge": 2, "challenging": 2, "however": 2, "remain": 2, "remains": 2, "struggle": 2,
        "lack": 2, "limited": 1.5, "difficult": 1.5, "problem": 1.5, "issue": 1, "gap": 1,
        "unclear": 1.5, "open question": 2, "yet": 0.5, "despite": 1.5, "existing": 1, "often": 0.5,
        "hinder": 1.5, "insufficient": 1.5, "nonetheless": 1.5, "fall short": 2, "falls short": 2,
    },
    "method": {
        "we propose": 3, "we introduce": 3, "we present": 3, "we develop": 2.5, "we design": 2.5,
        "this paper proposes": 3, "this paper introduces": 3, "this paper presents": 3,
        "this work": 1, "our method": 2.5, "our framework": 2.5, "our approach": 2.5,
        "our model": 2, "framework": 1, "novel": 1, "we build": 2, "we leverage": 1.5,
        "to address": 1.5, "to tackle": 1.5, "called": 1, "named": 1, "dubbed": 1,
    },
    "evaluation_focus": {
        "experiment": 2.5, "benchmark": 2, "evaluate": 2.5, "evaluation": 2, "outperform": 2.5,
        "results show": 3, "results demonstrate": 3, "demonstrate": 1.5, "achieve": 1.5,
        "accuracy": 1.5, "baseline": 2, "state-of-the-art": 1.5, "improve": 1, "empirical": 1.5,
        "ablation": 2, "extensive": 1, "human evaluation": 2, "success rate": 2, "datasets": 1,
    },
    "limitation": {
        "limitation": 3, "fail": 2.5, "suffer": 2.5, "costly": 2.5, "expensive": 2,
        "hallucinat": 2.5, "not robust": 3, "bottleneck": 2.5, "challenge": 1.5, "however": 1.5,
        "struggle": 2.5, "lack": 2, "unreliable": 2.5, "vulnerab": 2, "brittle": 2.5,
        "error-prone": 2, "inefficien": 2, "overhead": 1.5, "degrade": 2, "bias": 1.5,
        "remain": 1, "limited": 1.5, "poor": 1.5, "risk": 1.5, "unsafe": 2, "scarce": 2,
        "prohibitive": 2, "latency": 1, "still": 0.5, "hinder": 2, "fall short": 2.5, "falls short": 2.5,
        "nonetheless": 1, "incorrect": 1.5, "face challenges": 1, "unstable": 2, "instabilit": 2,
        "drawback": 3, "weakness": 3, "shortcoming": 3, "insufficient": 1.5, "difficult": 1,
    },
}

# Cues that mark a sentence as the paper's own contribution or a success claim; they
# count against the problem and limitation fields ("we propose an agent to tackle
# symbolic challenges" is not a limitation).
NEGATIVE_CUES: dict[str, float] = {
    "we propose": -3, "we introduce": -3, "we present": -3, "our": -1.5, "this paper": -1.5,
    "remarkabl": -1.5, "significantly": -1.5, "outperform": -2, "achieve": -1, "state-of-the-art": -1,
    "effective": -1, "can still": -2,
}
# Extra negatives for the limitation field: sentences that present a remedy ("RAG has
# emerged to overcome the knowledge limitations of LLMs") are not limitations.
LIMITATION_NEGATIVE_CUES: dict[str, float] = {
    "to overcome": -2.5, "overcome": -1, "to address": -2, "addresses": -2, "mitigat": -1.5, "alleviat": -1.5,
    "has emerged": -2, "have emerged": -2, "powerful": -1, "promising": -1, "enhance": -1, "enable": -1,
}
# A field stays empty unless its best sentence reaches this score.
MIN_SCORE = {"problem": 1.5, "method": 2.0, "evaluation_focus": 2.0, "limitation": 2.0}

# Contribution type: cue words in the title count double.
CONTRIBUTION_CUES: dict[str, tuple[str, ...]] = {
    "survey": ("survey", "a review", "systematic review", "overview of", "literature review", "roadmap"),
    "benchmark/dataset": ("benchmark", "dataset", "corpus", "testbed", "leaderboard", "arena",
                          "evaluation suite", "test suite", "new benchmark", "novel benchmark",
                          "we curate", "we collect", "we construct a"),
    "empirical study": ("empirical study", "empirical analysis", "we investigate", "we analyze",
                        "we analyse", "systematic study", "we study", "we examine", "case study",
                        "comprehensive analysis", "revisiting", "rethinking", "understanding"),
    "system/tool": ("toolkit", "library", "open-source framework", "platform", "open-source system",
                    "pipeline", "infrastructure", "we release", "tool for", "demo"),
    "theory": ("theoretical", "we prove", "theorem", "provably", "convergence", "regret bound",
               "generalization bound", "formal analysis"),
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
        candidate = text[start:match.start()]
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
        for i, sentence in enumerate(sentences):
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
            tie = {"problem": -position, "evaluation_focus": position, "method": -abs(position - 0.3),
                   "limitation": 0.0}[field]
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


def unverified_fields(evidence: PaperEvidence, paper: ScreenedPaper,
                      fulltext: PaperFullText | None = None) -> list[str]:
    """Names of sentence fields whose quote is not verbatim in the paper's source text."""
    source = evidence_source_text(paper, fulltext)
    return [f for f in SENTENCE_FIELDS if not verify_quote(getattr(evidence, f), source)]


def rank_by_centrality(
    vectors: np.ndarray, ids: list[str], labels: list[str], core_bonus: float = 0.05,
    citations: dict[str, int] | None = None, citation_weight: float = 0.1,
) -> list[tuple[str, float]]:
    """Papers ordered by cosine to the (normalised) centroid, core papers nudged up.

    `core_bonus` is added to the cosine of core papers: among near-equally central
    papers the core one wins, but a clearly more central support paper still ranks
    first. With `citations` (counts as of the cutoff, e.g. from Semantic Scholar), each
    paper also gets `citation_weight * log1p(c) / log1p(max c among these papers)`, so
    the most cited paper gains at most `citation_weight` (about a typical spread of
    centrality): central *and* cited papers lead. Offline there are no citation counts
    and the order is centrality only. Ties break on arxiv_id so the order is deterministic.
    """
    if len(ids) == 0:
        return []
    centroid = vectors.mean(axis=0)
    centroid = centroid / max(float(np.linalg.norm(centroid)), 1e-12)
    cos = vectors @ centroid
    scores = [float(c) + (core_bonus if lab == "core" else 0.0) for c, lab in zip(cos, labels)]
    if citations:
        top = max((citations.get(pid, 0) for pid in ids), default=0)
        if top > 0:
            scores = [sc + citation_weight * float(np.log1p(max(citations.get(pid, 0), 0)) / np.log1p(top))
                      for sc, pid in zip(scores, ids)]
    order = sorted(range(len(ids)), key=lambda i: (-round(scores[i], 6), ids[i]))
    return [(ids[i], scores[i]) for i in order]


def build_evidence(
    nodes: list[TaxonomyNode],
    papers: list[ScreenedPaper],
    cutoff: date,
    embed,
    *,
    n_representative: int = 5,
    n_supporting: int = 20,
    core_bonus: float = 0.05,
    llm_client=None,
    fulltexts: dict[str, PaperFullText] | None = None,
    citations: dict[str, int] | None = None,
) -> tuple[list[EvidenceRecord], list[Failure]]:
    """Node evidence records plus a `Failure` row for every problem found on the way.

    Modes: offline (default) quotes one sentence per field by cue-phrase rules; with an
    online `llm_client` the model drafts the fields with verbatim quotes, which are
    verified (`assets.evidence.llm_mode`). `fulltexts` (arxiv_id -> PaperFullText from
    the `paper_fulltext` asset) lets both modes quote full-text sections instead of
    the abstract. `citations` (counts as of the cutoff) joins centrality in ranking the
    representative papers; without it the ranking is centrality only.

    One record per non-root node (parent_id set), in node order. Excluded papers are
    never chosen as evidence (the screen judged them off-domain). Unknown paper ids are
    skipped and reported; a node with no usable paper still gets an (empty) record, so
    every node can be traced, plus a failure row. Raises ValueError when a node
    references a paper published after the cutoff.
    """
    by_id = {p.arxiv_id: p for p in papers}
    failures: list[Failure] = []
    late = sorted(
        {(pid, str(by_id[pid].published)) for n in nodes for pid in n.paper_ids
         if pid in by_id and by_id[pid].published > cutoff}
    )
    if late:
        raise ValueError(
            f"temporal integrity: {len(late)} node paper(s) published after the cutoff {cutoff}, "
            f"e.g. {late[:3]} -- the taxonomy must only use cutoff-visible papers"
        )
    non_root = [n for n in nodes if n.parent_id is not None]
    needed = sorted({pid for n in non_root for pid in n.paper_ids
                     if pid in by_id and by_id[pid].label != "excluded"})
    index = {pid: i for i, pid in enumerate(needed)}
    vectors = embed([paper_source_text(by_id[pid]) for pid in needed]) if needed else np.zeros((0, 1))
    records: list[EvidenceRecord] = []
    chosen_of: dict[str, list[str]] = {}
    for node in non_root:
        unknown = sorted({pid for pid in node.paper_ids if pid not in by_id})
        if unknown:
            failures.append(Failure(stage="evidence", item_id=node.node_id,
                                    reason=f"{len(unknown)} unknown paper id(s) skipped",
                                    raw=",".join(unknown[:50])))
        usable = sorted({pid for pid in node.paper_ids if pid in index})
        n_excluded = len({pid for pid in node.paper_ids if pid in by_id and pid not in index})
        if n_excluded:
            failures.append(Failure(stage="evidence", item_id=node.node_id,
                                    reason=f"{n_excluded} excluded (off-domain) paper(s) not used as evidence"))
        if not usable:
            failures.append(Failure(stage="evidence", item_id=node.node_id,
                                    reason="node has no usable cutoff-visible paper; empty evidence record"))
        ranked = rank_by_centrality(
            vectors[[index[pid] for pid in usable]] if usable else np.zeros((0, 1)),
            usable, [by_id[pid].label for pid in usable], core_bonus=core_bonus, citations=citations,
        )
        chosen = [pid for pid, _ in ranked[: n_representative + n_supporting]]
        representative, supporting = chosen[:n_representative], chosen[n_representative:]
        records.append(EvidenceRecord(
            record_id=f"ev:{node.node_id}", node_id=node.node_id, domain=node.domain, cutoff=cutoff,
            node_label=node.label, representative_ids=representative, supporting_ids=supporting,
            papers=[], rank_basis="centrality+citations" if citations else "centrality",
        ))
        chosen_of[records[-1].record_id] = chosen
    # Evidence of every chosen paper, once (a paper can support several nodes).
    wanted = sorted({pid for ids in chosen_of.values() for pid in ids})
    fulltexts = fulltexts or {}
    if llm_client is not None and not getattr(llm_client, "offline", True):
        from assets.evidence.llm_mode import extract_evidence_llm

        evidence_cache, llm_failures = extract_evidence_llm([by_id[pid] for pid in wanted], llm_client,
                                                            fulltexts=fulltexts)
        failures += llm_failures
    else:
        evidence_cache = {pid: extract_paper_evidence(by_id[pid], fulltexts.get(pid)) for pid in wanted}
    for record in records:
        record.papers = [evidence_cache[pid] for pid in chosen_of[record.record_id]]
    return records, failures


def build_evidence_records(
    nodes: list[TaxonomyNode],
    papers: list[ScreenedPaper],
    cutoff: date,
    embed,
    *,
    n_representative: int = 5,
    n_supporting: int = 20,
    **kwargs,
) -> list[EvidenceRecord]:
    """Node evidence records only (see `build_evidence` for the failure rows and options)."""
    records, _ = build_evidence(nodes, papers, cutoff, embed,
                                n_representative=n_representative, n_supporting=n_supporting, **kwargs)
    return records

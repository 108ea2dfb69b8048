"""Evidence tuples (Xcientist Table 3): every piece of an answer's evidence as
(keywords, summary, insight, verbatim quote, paper id), the quote verified against the
paper's pre-cutoff text in the knowledge base.

Who writes a tuple: the agent (an answer may carry `artifacts["evidence_tuples"]`), the
judge model (`judge.py`), or, by default, the documented offline extractor here: for every
cited paper, the sentence of its KB text (full-text sections when GROBID ran, else the
abstract) that shares the most informative words with one of the answer's claims. Whoever
wrote it, the quote is checked the same way (`verify`): never trusted as written.
"""

from __future__ import annotations

import difflib
import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import date

from assets.artifacts.text import claim_words, has_cue, overlap, source_words
from assets.evidence.quotes import CUES, normalise_ws, split_sentences, verify_quote
from core.records import Answer, EvidenceTuple
from core.text import content_tokens

ALTERED_RATIO = 0.8  # a quote this similar to a source sentence, but not verbatim, is "altered"
TUPLES_PER_PAPER = 3  # offline: at most this many quotes per cited paper (one per claim it best matches)
MAX_KEYWORDS = 5


@dataclass
class PaperSource:
    """A cited paper's text as the cutoff-bound KB holds it: (section, text) pairs."""

    paper_id: str
    title: str
    published: date
    sections: list[tuple[str, str]] = field(default_factory=list)

    @property
    def text(self) -> str:
        return "\n".join([self.title] + [t for _, t in self.sections])

    def sentences(self) -> list[tuple[str, str]]:
        """(section, sentence) in paper order; the title counts as one sentence."""
        out = [("title", self.title)]
        for section, text in self.sections:
            out += [(section, s) for s in split_sentences(text)]
        return out


SourceLookup = Callable[[str], "PaperSource | None"]  # paper id -> its pre-cutoff text, None if not visible


def sources_from_view(view) -> SourceLookup:
    """A lookup over a cutoff-bound `KnowledgeBaseView` (sections when chunked, else the abstract)."""
    cache: dict[str, PaperSource | None] = {}

    def lookup(pid: str) -> PaperSource | None:
        if pid not in cache:
            chunks = view.sections(pid)
            if not chunks:
                cache[pid] = None
            else:
                cache[pid] = PaperSource(pid, chunks[0].title, chunks[0].published, [(c.section, c.snippet) for c in chunks])
        return cache[pid]

    return lookup


def sources_from_get(kb_get: Callable | None) -> SourceLookup:
    """A lookup from `kb_get` (title + abstract), as the scorers hold it."""

    def lookup(pid: str) -> PaperSource | None:
        hit = kb_get(pid) if kb_get is not None else None
        return None if hit is None else PaperSource(pid, hit.title, hit.published, [("abstract", hit.snippet)])

    return lookup


def verify(quote: str, source: PaperSource | None) -> tuple[str, str]:
    """(status, section) of a quote: verified (verbatim, whitespace-normalised), altered (a
    near copy of one source sentence: a changed word, number or negation), not_found, or
    unknown_paper (the paper is not in the cutoff-bound KB, so no pre-cutoff text holds it)."""
    if source is None:
        return "unknown_paper", ""
    q = normalise_ws(quote)
    if not q:
        return "not_found", ""
    for section, text in [("title", source.title)] + source.sections:
        if verify_quote(q, text):
            return "verified", section
    best = max(
        (difflib.SequenceMatcher(None, q.lower(), normalise_ws(s).lower()).ratio() for _, s in source.sentences()), default=0.0
    )
    return ("altered" if best >= ALTERED_RATIO else "not_found"), ""


def role_of(sentence: str) -> str:
    """The evidence role of a sentence by the evidence stage's cue lists (problem, method,
    evaluation, limitation), or "context"."""
    hits = {role: len(has_cue(sentence, cues)) for role, cues in CUES.items()}
    role, n = max(hits.items(), key=lambda kv: (kv[1], kv[0]))
    return {"evaluation_focus": "evaluation"}.get(role, role) if n else "context"


def _keywords(quote: str, claims: Sequence[str]) -> list[str]:
    shared = set().union(*(claim_words(c) for c in claims)) if claims else set()
    words = list(dict.fromkeys(content_tokens(quote)))
    first = [w for w in words if source_words(w) & shared]
    return (first + [w for w in words if w not in first])[:MAX_KEYWORDS]


def offline_tuples(answer: Answer, lookup: SourceLookup) -> list[EvidenceTuple]:
    """The documented offline extractor: per cited paper, for each claim the sentence sharing
    most of its informative words (ties: the earlier sentence); up to TUPLES_PER_PAPER
    distinct sentences per paper, else the paper's first sentence with any content."""
    claims = list(answer.claims) or list(answer.decision)
    out: list[EvidenceTuple] = []
    for pid in dict.fromkeys(answer.evidence_ids):
        source = lookup(pid)
        if source is None:
            out.append(_tuple(answer, len(out), pid, "", "", "", [], "unknown_paper", "offline"))
            continue
        sentences = [(sec, s) for sec, s in source.sentences() if sec != "title"] or source.sentences()
        picked: dict[str, tuple[float, int, str, str]] = {}
        for k, claim in enumerate(claims):
            words = claim_words(claim)
            scored = [(overlap(words, source_words(s)), -i, sec, s) for i, (sec, s) in enumerate(sentences)]
            best = max(scored, default=None)
            if best is not None and best[0] > 0:
                prev = picked.get(best[3])
                if prev is None or best[0] > prev[0]:
                    picked[best[3]] = (best[0], k, best[2], best[3])
        chosen = sorted(picked.values(), key=lambda p: (-p[0], p[1]))[:TUPLES_PER_PAPER]
        if not chosen and sentences:
            chosen = [(0.0, -1, sentences[0][0], sentences[0][1])]
        for score, k, _sec, sentence in chosen:
            status, section = verify(sentence, source)
            role = role_of(sentence)
            insight = (
                f"{role} evidence for claim {k + 1} ({score:.0%} of its informative words)"
                if k >= 0
                else f"{role} evidence; shares no informative word with any claim"
            )
            out.append(
                _tuple(
                    answer,
                    len(out),
                    pid,
                    source.title,
                    insight,
                    sentence,
                    _keywords(sentence, claims),
                    status,
                    "offline",
                    section,
                )
            )
    return out


def _tuple(
    answer: Answer,
    k: int,
    pid: str,
    summary: str,
    insight: str,
    quote: str,
    keywords: list[str],
    status: str,
    source: str,
    section: str = "",
) -> EvidenceTuple:
    return EvidenceTuple(
        tuple_id=f"{answer.answer_id}#e{k}",
        answer_id=answer.answer_id,
        task_id=answer.task_id,
        family=answer.family,
        method=answer.method,
        backbone=answer.backbone,
        paper_id=pid,
        keywords=keywords,
        summary=summary,
        insight=insight,
        quote=quote,
        quote_status=status,
        source=source,
        section=section,
    )


def stated_tuples(answer: Answer, items: Sequence[dict], lookup: SourceLookup, source: str) -> list[EvidenceTuple]:
    """Tuples someone else wrote (the agent or the judge), each quote verified. A tuple for a
    paper the answer did not cite is kept but marked unknown_paper: only cited, retrieved,
    pre-cutoff evidence can carry a claim."""
    cited = set(answer.evidence_ids)
    out: list[EvidenceTuple] = []
    for item in items:
        pid = str(item.get("paper_id", "")).strip()
        quote = str(item.get("quote", ""))
        status, section = verify(quote, lookup(pid) if pid in cited else None)
        out.append(
            _tuple(
                answer,
                len(out),
                pid,
                str(item.get("summary", "")),
                str(item.get("insight", "")),
                quote,
                [str(k) for k in item.get("keywords", [])][:MAX_KEYWORDS],
                status,
                source,
                section,
            )
        )
    return out


def agent_tuples(answer: Answer) -> list[dict] | None:
    """Tuples the agent itself wrote (`artifacts["evidence_tuples"]`, or `agent:evidence_tuples`
    from a bring-your-own agent; a JSON list of {paper_id, keywords, summary, insight, quote}), or None."""
    raw = answer.artifacts.get("evidence_tuples") or answer.artifacts.get("agent:evidence_tuples")
    if not raw:
        return None
    try:
        items = json.loads(raw)
    except json.JSONDecodeError:
        return None
    return [i for i in items if isinstance(i, dict)] if isinstance(items, list) else None

"""Per-idea cutoff-bound knowledge-base views over the shipped corpus.

ScholarIdeas' cutoffs differ per idea (2023-08-11 .. 2025-07-10) and most ideas are
outside the corpus's four domains. So the family does not get its own harvested corpus:
one in-memory index holds every shipped paper (the four domain files, deduplicated) dated
on or before the latest idea cutoff, and each task gets a `CutoffView` bound to its own
idea's cutoff. Every query path (search, get, dates) filters `published <= cutoff` and
checks each row again (`CutoffViolation`), like `KnowledgeBaseView`.

Search is dense (the shared embedder, cosine) with a small title-word bonus; `Hit.score`
is the cosine, which the ScholarEval agent compares with `RELEVANCE_MIN` to decide that
there is "no relevant literature before the cutoff".
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from datetime import date

import numpy as np

from assets.knowledge_base.logic import CutoffViolation, Hit
from core.papers import SHIPPED_DIR, read_jsonl
from core.records import Paper
from core.text import content_tokens

# A retrieved paper is relevant literature for a query only if its cosine is at least
# RELEVANCE_MIN *and* it shares at least SHARED_TERMS_MIN of the query's distinctive terms
# (content words in at most DISTINCTIVE_DF of the indexed papers). Cosine alone does not
# separate: the static MiniLM gives out-of-domain plans (neuroscience, ecology) top hits at
# 0.5-0.8 among LLM papers; the shared rare terms do (docs/idea_review.md).
RELEVANCE_MIN = 0.55
SHARED_TERMS_MIN = 2
DISTINCTIVE_DF = 0.01


class IdeaCorpusIndex:
    """Every shipped paper up to `latest` with its vector (one matrix, rows sorted by date)."""

    def __init__(self, papers: list[Paper], embed: Callable[[list[str]], np.ndarray]):
        seen: dict[str, Paper] = {}
        for p in sorted(papers, key=lambda p: (p.published, p.arxiv_id)):
            seen.setdefault(p.arxiv_id, p)
        self.papers = list(seen.values())
        self.embed = embed
        self.dates = np.array([p.published.toordinal() for p in self.papers], dtype=np.int64)
        self.vectors = (
            np.asarray(embed([f"{p.title}. {p.abstract}" for p in self.papers]), dtype=np.float32)
            if self.papers
            else np.zeros((0, 1), dtype=np.float32)
        )
        self.by_id = {p.arxiv_id: i for i, p in enumerate(self.papers)}
        self.terms = [frozenset(content_tokens(f"{p.title} {p.abstract}")) for p in self.papers]
        df: Counter = Counter()
        for t in self.terms:
            df.update(t)
        self.df = df

    def distinctive_terms(self, text: str) -> set[str]:
        """Content words of `text` that at most DISTINCTIVE_DF of the papers use (and some paper does)."""
        limit = max(1, int(DISTINCTIVE_DF * len(self.papers)))
        return {t for t in content_tokens(text) if 0 < self.df.get(t, 0) <= limit}

    def shared_terms(self, arxiv_id: str, terms: set[str]) -> set[str]:
        i = self.by_id.get(arxiv_id)
        return set() if i is None else terms & self.terms[i]

    def relevant(self, hit: Hit, query: str) -> bool:
        """Is this hit relevant literature for `query` (cosine and shared rare terms)?"""
        return (
            hit.score >= RELEVANCE_MIN and len(self.shared_terms(hit.arxiv_id, self.distinctive_terms(query))) >= SHARED_TERMS_MIN
        )

    @classmethod
    def shipped(cls, embed, latest: date, folder=SHIPPED_DIR) -> IdeaCorpusIndex:
        papers: list[Paper] = []
        for path in sorted(folder.glob("*.jsonl.gz")):
            papers += [p for p in read_jsonl(path)[0] if p.published <= latest]
        return cls(papers, embed)

    def view(self, cutoff: date) -> CutoffView:
        return CutoffView(self, cutoff)


class CutoffView:
    """Read-only access to the papers dated on or before one idea's cutoff."""

    def __init__(self, index: IdeaCorpusIndex, cutoff: date):
        self._index = index
        self.cutoff = cutoff
        self._n = int(np.searchsorted(index.dates, cutoff.toordinal(), side="right"))  # rows sorted by date

    def _hit(self, i: int, score: float, full: bool = False) -> Hit:
        p = self._index.papers[i]
        if p.published > self.cutoff:
            raise CutoffViolation(f"{p.arxiv_id} dated {p.published} is after {self.cutoff}")
        return Hit(
            arxiv_id=p.arxiv_id,
            title=p.title,
            published=p.published,
            snippet=p.abstract if full else p.abstract[:400],
            score=round(float(score), 4),
        )

    def search(self, query: str, k: int = 10, mode: str = "dense") -> list[Hit]:
        if not query.strip() or k <= 0 or self._n == 0:
            return []
        q = np.asarray(self._index.embed([query]), dtype=np.float32)[0]
        sims = self._index.vectors[: self._n] @ q
        top = np.argsort(-sims, kind="stable")[:k]
        return [self._hit(int(i), sims[i]) for i in top]

    def get(self, arxiv_id: str) -> Hit | None:
        i = self._index.by_id.get(arxiv_id)
        if i is None or i >= self._n:
            return None
        return self._hit(i, 1.0, full=True)

    def dates(self) -> dict[str, date]:
        return {p.arxiv_id: p.published for p in self._index.papers[: self._n]}

    def monthly_volume(self) -> dict[str, int]:
        return dict(sorted(Counter(d.strftime("%Y-%m") for d in self.dates().values()).items()))

    def relevant(self, hit: Hit, query: str) -> bool:
        return self._index.relevant(hit, query)

    def __len__(self) -> int:
        return self._n

"""The speed anchor: a reconstruction of the ForeSci authors' offline KB retrieval.

The authors' knowledge base is hybrid sparse retrieval in pure Python: BM25 (the `rank_bm25`
package's BM25Okapi, which scores every document of the corpus per query term in Python)
plus TF-IDF cosine (scikit-learn), the two scores min-max normalised and averaged, the
cutoff applied as a filter over the scored documents. Their code is not available here,
so this module rebuilds that design; it is only used by benchmarks/kb_bench.py to measure
the anchor side by side with foresci's knowledge base in the same run, on the same
papers and queries (the figures quoted earlier, p50 108 ms / 9 q/s at 35k, were measured
separately). It is a benchmark baseline, not part of the product.
"""

from __future__ import annotations

import re
from datetime import date

import numpy as np

_WORD = re.compile(r"\w+")


def tokenize(text: str) -> list[str]:
    return _WORD.findall(text.lower())


class AnchorKB:
    def __init__(self, ids: list[str], texts: list[str], published: list[date]):
        from rank_bm25 import BM25Okapi
        from sklearn.feature_extraction.text import TfidfVectorizer

        self.ids = ids
        self.published = published
        self.bm25 = BM25Okapi([tokenize(t) for t in texts])
        self.vectorizer = TfidfVectorizer(lowercase=True, stop_words="english")
        self.tfidf = self.vectorizer.fit_transform(texts)

    def search(self, query: str, k: int, cutoff: date) -> list[tuple[str, float]]:
        bm25 = np.asarray(self.bm25.get_scores(tokenize(query)))
        tfidf = (self.tfidf @ self.vectorizer.transform([query]).T).toarray().ravel()
        scores = 0.5 * _minmax(bm25) + 0.5 * _minmax(tfidf)
        ranked = sorted(((float(s), self.ids[i]) for i, s in enumerate(scores) if self.published[i] <= cutoff), reverse=True)
        return [(key, score) for score, key in ranked[:k]]


def _minmax(x: np.ndarray) -> np.ndarray:
    span = float(x.max() - x.min()) if len(x) else 0.0
    return (x - x.min()) / span if span > 0 else np.zeros_like(x)

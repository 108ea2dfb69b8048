"""Node labels: the TF-IDF terms that distinguish a node's papers from its siblings' papers."""

from __future__ import annotations

import numpy as np
from sklearn.feature_extraction.text import ENGLISH_STOP_WORDS, TfidfVectorizer

from core.text import STOP_WORDS

_TOKEN_PATTERN = r"(?u)\b[a-zA-Z][a-zA-Z0-9]+(?:-[a-zA-Z0-9]+)*\b"


def humanise(dimension: str) -> str:
    return dimension.replace("_", " ").capitalize()


class Labeller:
    """Distinctive TF-IDF terms of a node's papers against its siblings' papers."""

    def __init__(self, titles: list[str], abstracts: list[str]):
        texts = [f"{t}. {t}. {a}" for t, a in zip(titles, abstracts)]  # titles weigh double
        min_df = 2 if len(texts) >= 20 else 1
        stop = sorted(ENGLISH_STOP_WORDS | STOP_WORDS)
        self.vectorizer = TfidfVectorizer(
            stop_words=stop,
            ngram_range=(1, 2),
            min_df=min_df,
            max_df=0.5,
            sublinear_tf=True,
            max_features=20000,
            token_pattern=_TOKEN_PATTERN,
            dtype=np.float32,
        )
        try:
            self.X = self.vectorizer.fit_transform(texts).tocsr()
        except ValueError:  # vocabulary empty after pruning (tiny or degenerate input)
            self.vectorizer = TfidfVectorizer(ngram_range=(1, 1), token_pattern=_TOKEN_PATTERN, dtype=np.float32)
            self.X = self.vectorizer.fit_transform(texts).tocsr()
        self.terms = np.array(self.vectorizer.get_feature_names_out())

    def mean(self, idx: list[int]) -> np.ndarray:
        if not idx:
            return np.zeros(len(self.terms), dtype=np.float64)
        return np.asarray(self.X[np.array(idx)].mean(axis=0)).ravel()

    def ranked(self, own: list[int], others: list[int], top: int = 40) -> list[str]:
        score = self.mean(own) - (self.mean(others) if others else 0.0)
        order = np.lexsort((self.terms, -score))[:top]
        return [str(self.terms[i]) for i in order if score[i] > 0]

"""Cosine k-means with k chosen by silhouette: the offline clustering behind depth and
width expansion."""

from __future__ import annotations

import numpy as np

from core.clustering import spherical_kmeans

KMEANS_N_INIT = 8  # restarts per k-means (best total cosine kept)


def cosine_silhouette(X: np.ndarray, labels: np.ndarray, D: np.ndarray | None = None) -> float:
    """Mean silhouette with cosine distance (singleton clusters score 0); D: 1 - X X^T if known."""
    D = 1.0 - X @ X.T if D is None else D
    ks = np.unique(labels)
    onehot = (labels[:, None] == ks[None, :]).astype(np.float64)
    counts = onehot.sum(axis=0)
    sums = D @ onehot
    own = np.searchsorted(ks, labels)
    own_count = counts[own]
    a = sums[np.arange(len(X)), own] / np.maximum(own_count - 1, 1)
    mean_other = sums / counts
    mean_other[np.arange(len(X)), own] = np.inf
    b = mean_other.min(axis=1)
    s = (b - a) / np.maximum(np.maximum(a, b), 1e-12)
    s[own_count <= 1] = 0.0
    return float(s.mean())


def cluster(
    vectors: np.ndarray, max_k: int, min_votes: int, random_state: int, min_groups: int = 1, silhouette_sample: int = 500
) -> list[np.ndarray]:
    """Cluster rows into 2..max_k groups and keep the groups of >= min_votes papers.

    k is chosen by cosine silhouette among the clusterings that leave at least
    `min_groups` groups of >= min_votes (a depth split needs two; a width expansion can
    add one sibling). Returns index arrays (into `vectors`), largest group first, or []
    when no clustering qualifies.
    """
    X = vectors.astype(np.float64)
    n = len(X)
    rng = np.random.default_rng(random_state)
    sample = np.sort(rng.choice(n, silhouette_sample, replace=False)) if n > silhouette_sample else np.arange(n)
    D = 1.0 - X[sample] @ X[sample].T
    best_groups, best_score = [], -np.inf
    for k in (k for k in range(2, max_k + 1) if k * min_votes <= n):
        labels = spherical_kmeans(X, k, rng, n_init=KMEANS_N_INIT)
        groups = [g for g in (np.flatnonzero(labels == c) for c in range(k)) if len(g) >= min_votes]
        if len(groups) < min_groups or len(np.unique(labels[sample])) < 2:
            continue
        score = cosine_silhouette(X[sample], labels[sample], D)
        if score > best_score + 1e-9:
            best_groups, best_score = groups, score
    return sorted(best_groups, key=lambda g: (-len(g), int(g[0])))

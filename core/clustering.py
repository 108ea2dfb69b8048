"""The one k-means: cosine (spherical) k-means over unit vectors, plain numpy.

Plain numpy on purpose: the taxonomy and the gold run hundreds of small clusterings a
partition, where scikit-learn's per-call threading overhead dominates (and it is slow on
a busy 2-core box).
"""

from __future__ import annotations

import numpy as np


def spherical_kmeans(X: np.ndarray, k: int, rng: np.random.Generator, n_init: int = 8, max_iter: int = 50) -> np.ndarray:
    """Cosine k-means (k-means++ seeding, best of `n_init` by total cosine); returns labels.

    Plain numpy on purpose: a taxonomy build runs hundreds of small clusterings, where
    sklearn's per-call threading overhead dominates (and it is slow on a busy 2-core box).
    """
    n = len(X)
    best_labels: np.ndarray | None = None
    best_obj = -np.inf
    for _ in range(n_init):
        centers = [int(rng.integers(n))]
        closest = 1.0 - X @ X[centers[0]]
        for _ in range(1, k):
            weights = np.maximum(closest, 0.0) ** 2
            total = weights.sum()
            nxt = int(rng.choice(n, p=weights / total)) if total > 1e-12 else int(rng.integers(n))
            centers.append(nxt)
            closest = np.minimum(closest, 1.0 - X @ X[nxt])
        C = X[centers].copy()
        labels = np.full(n, -1)
        for _ in range(max_iter):
            sims = X @ C.T
            new = sims.argmax(axis=1)
            if np.array_equal(new, labels):
                break
            labels = new
            for c in range(k):
                members = X[labels == c]
                if len(members) == 0:  # empty cluster: re-seed at the worst-served point
                    far = int(sims[np.arange(n), labels].argmin())
                    C[c] = X[far]
                    labels[far] = c
                    continue
                mean = members.mean(axis=0)
                C[c] = mean / max(float(np.linalg.norm(mean)), 1e-12)
        obj = float((X @ C.T)[np.arange(n), labels].sum())
        if obj > best_obj + 1e-9:
            best_labels, best_obj = labels.copy(), obj
    assert best_labels is not None, "n_init >= 1 and a finite objective"
    return best_labels


def unit(v: np.ndarray) -> np.ndarray:
    """`v` scaled to length 1 (a zero vector stays zero)."""
    n = np.linalg.norm(v)
    return v / n if n > 0 else v


NEIGHBOURS = 10  # the neighbour vote: a paper's k nearest papers by embedding
MEMBER_VOTE = 0.3  # ... vote it into a set when >= 30% of them are the set's members


def neighbours(queries: np.ndarray, base: np.ndarray, k: int = NEIGHBOURS, exclude: np.ndarray | None = None) -> np.ndarray:
    """Indices into `base` of each query row's k nearest rows by cosine (unit vectors);
    `exclude[i]` (a row of `base`) is never query i's neighbour (leave-one-out)."""
    k = min(k, len(base) - int(exclude is not None))
    out = np.zeros((len(queries), max(k, 0)), dtype=int)
    if k <= 0:
        return out
    for start in range(0, len(queries), 1024):  # chunks bound the similarity matrix's memory
        sims = queries[start : start + 1024] @ base.T
        if exclude is not None:
            sims[np.arange(len(sims)), exclude[start : start + 1024]] = -np.inf
        out[start : start + len(sims)] = np.argpartition(-sims, k - 1, axis=1)[:, :k]
    return out


def voted(member: np.ndarray, nn: np.ndarray) -> np.ndarray:
    """The neighbour vote: which voting rows belong to each set, i.e. >= MEMBER_VOTE of
    their neighbours are members. `member` is (base rows x sets) boolean, `nn` the
    neighbour indices (into the base rows) of the voting rows."""
    if nn.size == 0:
        return np.zeros((len(nn), member.shape[1]), dtype=bool)
    return member[nn].mean(axis=1) >= MEMBER_VOTE

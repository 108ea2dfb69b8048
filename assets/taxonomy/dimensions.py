"""Contribution dimensions (TaxoAdapt): seed descriptions, cue words and the routing rule
that puts a paper in one or more dimensions (ForeSci App. B.2; see `assets.taxonomy.logic`)."""

from __future__ import annotations

import re

import numpy as np

DIMENSIONS: tuple[str, ...] = ("tasks", "methodologies", "datasets", "evaluation_methods", "real_world_domains")

# Domain-agnostic seed descriptions of the TaxoAdapt contribution dimensions.
DIMENSION_DESCRIPTIONS: dict[str, str] = {
    "tasks": "a problem or task formulation",
    "methodologies": "a new method, model, algorithm, architecture or training technique",
    "datasets": "a new dataset, benchmark or corpus",
    "evaluation_methods": "an evaluation protocol, metric or empirical study",
    "real_world_domains": "an application in a real-world domain such as medicine, law, finance, science, education",
}

# Cue words per dimension: a static embedding gives every abstract a similar cosine to
# every short description, so explicit cues carry most of the dimension signal.
DIMENSION_CUES: dict[str, str] = {
    "tasks": r"tasks?|problems?|formulat\w*|challenges?|settings?|we (?:study|address|tackle|consider)|goal",
    "methodologies": r"we propose|propose[sd]?|novel|framework|method\w*|approach\w*|architecture\w*|algorithm\w*"
    r"|train\w*|fine-?tun\w*|techniques?|mechanism\w*|module\w*|pipeline",
    "datasets": r"datasets?|benchmarks?|corpus|corpora|annotat\w*|testbeds?|suite|leaderboard"
    r"|we (?:release|collect|curate|construct|build)|collection of|open-source\w*",
    "evaluation_methods": r"evaluat\w*|metrics?|empirical\w*|analy[sz]\w*|surveys?|assess\w*|measur\w*"
    r"|comparisons?|human study|case stud\w*|protocols?|systematic\w*|investigat\w*|reliab\w*",
    "real_world_domains": r"medic\w*|clinic\w*|health\w*|patients?|hospital\w*|legal|law|financ\w*|trading|stock"
    r"|educat\w*|students?|teach\w*|scien\w*|chemi\w*|biolog\w*|materials?|physics|drug\w*|protein\w*"
    r"|genom\w*|manufactur\w*|robot\w*|agricult\w*|climate|energy|cyber\w*|e-commerce|customer\w*"
    r"|games?|driving|urban|transport\w*|industr\w*|enterprise|mathemat\w*|engineering",
}

DIMENSION_RULE = (
    "score_d = z(cos(paper, seed description of d)) + z(log1p(2*title cue hits + abstract cue hits)), "
    "z-scored per dimension over the cutoff-visible papers; a paper joins its best dimension and every "
    "other dimension whose score is within `dimension_margin` of the best and above 0 (above average)."
)


_WORD = re.compile(r"[a-z][a-z0-9]*(?:-[a-z0-9]+)*")


def cue_counts(titles: list[str], abstracts: list[str], dimensions: tuple[str, ...]) -> np.ndarray:
    """(n, len(dimensions)) cue score: log1p(2 * title hits + abstract hits).

    Texts are tokenised once; each distinct word and word pair is matched against the
    cue patterns once (cached), which is ~20x faster than running the regexes per text.
    """
    full = [re.compile(rf"(?:{DIMENSION_CUES[dim]})", re.IGNORECASE) for dim in dimensions]
    cache: dict[str, tuple[int, ...]] = {}

    def hits(text: str) -> list[int]:
        words = _WORD.findall(text.lower())
        total = [0] * len(dimensions)
        for unit in words + [f"{a} {b}" for a, b in zip(words, words[1:])]:
            dims = cache.get(unit)
            if dims is None:
                dims = cache[unit] = tuple(j for j, pattern in enumerate(full) if pattern.fullmatch(unit))
            for j in dims:
                total[j] += 1
        return total

    out = np.array([[2 * x + y for x, y in zip(hits(t), hits(a))] for t, a in zip(titles, abstracts)], dtype=np.float64).reshape(
        len(titles), len(dimensions)
    )
    return np.log1p(out)


def _zscore(matrix: np.ndarray) -> np.ndarray:
    std = matrix.std(axis=0)
    return (matrix - matrix.mean(axis=0)) / np.where(std > 1e-9, std, 1.0)


def dimension_scores(
    vectors: np.ndarray, titles: list[str], abstracts: list[str], embed, dimensions: tuple[str, ...]
) -> np.ndarray:
    """Per-paper score for each dimension (see DIMENSION_RULE)."""
    desc_vecs = np.asarray(embed([DIMENSION_DESCRIPTIONS[d] for d in dimensions]), dtype=np.float32)
    sims = vectors @ desc_vecs.T
    return _zscore(sims.astype(np.float64)) + _zscore(cue_counts(titles, abstracts, dimensions))


def route_dimensions(scores: np.ndarray, margin: float) -> np.ndarray:
    """Boolean (n, d) membership: the best dimension, plus any within `margin` of it and > 0."""
    if scores.shape[1] == 1:
        return np.ones(scores.shape, dtype=bool)
    best = scores.max(axis=1, keepdims=True)
    member = (scores >= best - margin) & (scores > 0)
    member[np.arange(len(scores)), scores.argmax(axis=1)] = True
    return member


# ---------------------------------------------------------------------------- routing


def ambiguous_dimensions(scores: np.ndarray, margin: float, band: float) -> np.ndarray:
    """Papers whose dimension membership is close to the rule's boundary (asked in LLM mode).

    A non-best dimension j is a member iff s_j >= best - margin and s_j > 0; a paper is
    ambiguous when some s_j lies within `band` of either bound (or the best two are
    within `band`, so even the primary dimension is a near tie).
    """
    if scores.shape[1] == 1:
        return np.zeros(len(scores), dtype=bool)
    order = np.sort(scores, axis=1)
    best, second = order[:, -1:], order[:, -2]
    dist = np.minimum(np.abs(scores - (best - margin)), np.abs(scores))
    dist[np.arange(len(scores)), scores.argmax(axis=1)] = np.inf
    return (dist.min(axis=1) < band) | ((best[:, 0] - second) < band)

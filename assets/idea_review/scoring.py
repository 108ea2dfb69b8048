"""Scoring of idea reviews: rubric coverage (ScholarEval §4) and reference validity.

Rubric coverage. ScholarEval has a judge score each expert rubric 1-5 for how well the
review covers it, and averages per idea. With a judge model, `judge_coverage` does exactly
that (one call per rubric). With no model, `proxy_coverage` is a documented embedding
proxy, always reported as `rubric_coverage_proxy` (never under the judge's name):

* the review is split into units (sentences and list items of >= 4 content words);
* a rubric's similarity is the best cosine between it and any unit (the shared embedder);
* the similarity maps linearly to 1..5 between PROXY_LOW (1: what an unrelated review of
  the same discipline reaches) and PROXY_HIGH (5: the point is stated);
* the idea's coverage is the mean over its rubrics, and `coverage_norm = (mean - 1) / 4`
  in 0..1 is what the validity controls compare.

It measures coverage, not length or position: a rubric counts once whatever the review's
length, units are matched wherever they are, and filler whose units are unlike every
rubric cannot raise any rubric's best match (tests/assets/idea_review/test_idea_review.py checks all three).

Reference validity (every family) is a scorer of the default registry:
`assets/scorers/reference.py`.
"""

from __future__ import annotations

import re
from collections.abc import Callable

import numpy as np
from pydantic import BaseModel, Field

from core.text import content_tokens

PROXY_LOW = 0.55
PROXY_HIGH = 0.85
MIN_UNIT_WORDS = 4
_SPLIT = re.compile(r"(?<=[.!?])\s+|\n+")


def review_units(text: str) -> list[str]:
    """Sentences and list items of the review with at least MIN_UNIT_WORDS content words."""
    units = []
    for raw in _SPLIT.split(text or ""):
        unit = raw.strip().lstrip("-*#0123456789.) ").strip()
        if len(content_tokens(unit)) >= MIN_UNIT_WORDS:
            units.append(unit)
    return list(dict.fromkeys(units))


def to_scale(similarity: float) -> float:
    """Best cosine -> 1..5 (linear between PROXY_LOW and PROXY_HIGH, clipped)."""
    return 1.0 + 4.0 * float(np.clip((similarity - PROXY_LOW) / (PROXY_HIGH - PROXY_LOW), 0.0, 1.0))


def proxy_coverage(review: str, rubrics: list[str], embed: Callable[[list[str]], np.ndarray]) -> dict:
    """Per-rubric 1..5 scores, their mean and the normalised coverage (embedding proxy)."""
    units = review_units(review)
    if not rubrics:
        return {"per_rubric": [], "mean": None, "norm": None}
    if not units:
        per = [1.0] * len(rubrics)
    else:
        vecs = np.asarray(embed(list(rubrics) + units), dtype=np.float32)
        sims = vecs[: len(rubrics)] @ vecs[len(rubrics) :].T
        per = [round(to_scale(float(s)), 3) for s in sims.max(axis=1)]
    mean = float(np.mean(per))
    return {"per_rubric": per, "mean": round(mean, 4), "norm": round((mean - 1.0) / 4.0, 4)}


class RubricScore(BaseModel):
    score: int = Field(ge=1, le=5, description="1 = not covered at all ... 5 = fully covered")
    reason: str = ""


COVERAGE_PROMPT = """You check whether a review of a research plan covers one point an expert raised.

Expert point ({kind}, {axis}): {rubric}

Review:
{review}

Score 1-5 how well the review covers the expert point: 1 = not at all, 2 = touches the topic
only, 3 = partly, 4 = mostly, 5 = fully (the same point, stated or clearly implied).
Reply with JSON: {{"score": <1-5>, "reason": "<one sentence>"}}"""


def judge_coverage(review: str, rubrics: list[dict], judge, *, max_chars: int = 6000) -> dict:
    """ScholarEval §4: each rubric scored 1-5 by the judge model; mean and normalised mean.
    A rubric whose call fails is left out (its failure is recorded in `failed`)."""
    per, failed = [], []
    for k, r in enumerate(rubrics):
        prompt = COVERAGE_PROMPT.format(
            kind=r.get("type", ""), axis=r.get("axis", ""), rubric=r["statement"], review=(review or "(empty review)")[:max_chars]
        )
        try:
            per.append(float(judge.structured(prompt, RubricScore, purpose="judge.idea_review.coverage", max_tokens=200).score))
        except Exception as exc:  # noqa: BLE001 - one rubric's failed call must not sink the idea
            failed.append(f"rubric {k}: {type(exc).__name__}: {exc}"[:300])
    mean = float(np.mean(per)) if per else None
    return {
        "per_rubric": per,
        "mean": None if mean is None else round(mean, 4),
        "norm": None if mean is None else round((mean - 1.0) / 4.0, 4),
        "failed": failed,
    }

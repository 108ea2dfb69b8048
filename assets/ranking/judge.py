"""Offline task judge for the Elo ranking (DeepResearch Arena's RankEval, offline).

With no judge model, a task's quality is a weighted sum of measurable qualities:
- gold strength (0.4): how decisive and well-evidenced its hidden target is;
- support (0.3): pre-cutoff support packet size, saturating at 20 papers;
- specificity (0.3): how distinct its options are (1 - mean pairwise cosine of the option
  texts); tasks without options use how specific the question is (distinct terms / 40).
The preferred task is the higher-quality one; confidence c = 0.5 + |qa - qb|, capped at 1.
"""

from __future__ import annotations

import itertools
import re

import numpy as np

from assets.records import GoldTarget, Task

WEIGHTS = {"gold_strength": 0.4, "support": 0.3, "specificity": 0.3}


def specificity(task: Task, embed) -> float:
    if len(task.options) >= 2:
        vecs = embed([o.text for o in task.options])
        sims = [float(vecs[i] @ vecs[j]) for i, j in itertools.combinations(range(len(vecs)), 2)]
        return float(np.clip(1.0 - np.mean(sims), 0.0, 1.0))
    terms = set(re.findall(r"[a-z][a-z\-]{3,}", task.question.lower()))
    return min(1.0, len(terms) / 40.0)


def task_quality(task: Task, gold: GoldTarget | None, embed) -> dict[str, float]:
    parts = {
        "gold_strength": float(gold.strength) if gold else 0.0,
        "support": min(1.0, len(task.support_paper_ids) / 20.0),
        "specificity": specificity(task, embed),
    }
    parts["quality"] = sum(WEIGHTS[k] * parts[k] for k in WEIGHTS)
    return parts


def offline_judge(quality: dict[str, float]):
    """A judge over precomputed qualities: (first_id, second_id) -> (winner, confidence)."""
    def judge(a: str, b: str) -> tuple[str, float]:
        qa, qb = quality[a], quality[b]
        winner = a if qa >= qb else b
        return winner, min(1.0, 0.5 + abs(qa - qb))
    return judge

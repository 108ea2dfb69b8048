"""Offline task judge for the Elo ranking (DeepResearch Arena's RankEval, offline).

With no judge model, a task's quality is a weighted sum of measurable qualities:
- gold strength (0.4): how decisive and well-evidenced its hidden target is;
- support (0.3): pre-cutoff support packet size, saturating at 20 papers;
- specificity (0.3): how distinct its options are (1 - mean pairwise cosine of the option
  texts); tasks without options use how specific the question is (distinct terms / 40).
The preferred task is the higher-quality one; confidence c = 0.5 + |qa - qb|, capped at 1.

With a judge model (`llm_judge`), the LLM compares the two tasks' public text on
`JUDGE_CRITERIA` and returns {winner, confidence}; it never sees gold.
"""

from __future__ import annotations

import itertools
import re
from typing import Literal

import numpy as np
from pydantic import BaseModel, Field

from core.records import GoldTarget, Task

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


# --------------------------------------------------------------------------------------
# LLM judge (when a model is configured)
# --------------------------------------------------------------------------------------

JUDGE_CRITERIA = (
    "research value: the decision matters to researchers planning work at the cutoff",
    "clarity: one clear decision with well-separated options",
    "forward-looking difficulty: answering needs judgement about the future, not lookup",
    "grounding: a careful researcher could justify an answer from literature visible at the cutoff",
    "verifiability: what happens in the window can later confirm or refute an answer",
)


class TaskPreference(BaseModel):
    winner: Literal["A", "B"]
    confidence: float = Field(ge=0.0, le=1.0, description="0.5 = no preference, 1 = certain")
    reason: str = ""


def _task_block(label: str, task: Task) -> str:
    opts = "\n".join(f"  - {o.option_id}: {o.text}" for o in task.options)
    return (
        f"Task {label} ({task.family}, cutoff {task.cutoff}, window {task.window_start} to {task.window_end}):\n"
        f"Title: {task.title}\nQuestion: {task.question}\n" + (f"Options:\n{opts}\n" if opts else "")
    )


def judge_messages(first: Task, second: Task) -> list[dict]:
    crit = "\n".join(f"- {c}" for c in JUDGE_CRITERIA)
    return [
        {
            "role": "system",
            "content": "You rank candidate benchmark tasks for forward-looking research judgement. "
            'Reply with JSON {"winner": "A" or "B", "confidence": 0.5-1, "reason": ...}.',
        },
        {
            "role": "user",
            "content": f"Which task is the better benchmark item?\nCriteria:\n{crit}\n\n"
            f"{_task_block('A', first)}\n{_task_block('B', second)}",
        },
    ]


def llm_judge(client, tasks_by_id: dict[str, Task], *, fallback=None, seed: int = 0, errors: list | None = None):
    """A pairwise judge backed by the LLM: (first_id, second_id) -> (winner, confidence).

    The model sees only the public tasks (never gold). A call that fails for good falls
    back to `fallback` (the offline judge) for that pair, and the error is appended to
    `errors`; with no fallback the error propagates.
    """
    from resources.llm import LLMCallError

    def judge(a: str, b: str) -> tuple[str, float]:
        try:
            pref = client.structured(
                judge_messages(tasks_by_id[a], tasks_by_id[b]),
                TaskPreference,
                purpose="task_ranking_judge",
                temperature=0.0,
                seed=seed,
            )
        except LLMCallError as exc:
            if fallback is None:
                raise
            if errors is not None:
                errors.append(f"{a} vs {b}: {exc}")
            return fallback(a, b)
        return (a if pref.winner == "A" else b), max(0.5, min(1.0, pref.confidence))

    return judge

"""Control answers of the idea-review family (docs/validity.md, docs/idea_review.md).

* gold: a review built from the idea's expert rubrics themselves (must score >= 0.9);
* random (the chance line): as many rubric statements as the idea has, drawn at random
  from the *other* ideas of the same discipline (a review of the right shape and register
  that knows nothing about this plan);
* empty: no review; generic: a boilerplate review that fits any plan;
* other_gold: the gold review of another idea (the next one of the same discipline);
* plan_echo (reported, not thresholded): the plan's own sentences, restated.
Empty, generic and other_gold must not beat random + margin.
"""

from __future__ import annotations

import random

from assets.idea_review.family import ReviewAnswer, gold_review
from core.records import GoldTarget, Task

GENERIC_REVIEW = ReviewAnswer(
    soundness=(
        "The methodology is generally reasonable, but several design choices need more justification. "
        "The evaluation should include stronger baselines and ablation studies. Statistical significance "
        "and the robustness of the results across settings should be reported."
    ),
    contribution=(
        "The idea addresses a relevant problem, but its novelty relative to prior work is not fully "
        "established. The expected impact depends on how well the findings generalise."
    ),
    strengths=[
        "The research question is important and clearly motivated.",
        "The plan is well organised and the proposed approach is feasible.",
    ],
    weaknesses=[
        "The novelty over existing approaches is unclear.",
        "The evaluation plan lacks sufficient baselines and ablations.",
        "Scalability and generalisation to other settings are not discussed.",
        "Potential confounding factors and limitations are not addressed.",
    ],
    recommendations=["Compare against more baselines.", "Discuss limitations and threats to validity."],
)

CONTROLS = ("control:gold", "control:random", "control:empty", "control:generic", "control:other_gold", "control:plan_echo")
NO_JUDGEMENT = ("control:empty", "control:generic", "control:other_gold")


def control_answers(
    task: Task, gold: GoldTarget, golds: list[GoldTarget], tasks: dict[str, Task], seed: int = 0
) -> dict[str, ReviewAnswer]:
    """Every control's review for one task. `golds` are all ideas' golds, in order."""
    same = [g for g in golds if tasks[g.task_id].subtype == task.subtype and g.task_id != task.task_id]
    pool = [c.text for g in same for c in g.claims]
    rng = random.Random(f"{seed}:{task.task_id}")
    drawn = rng.sample(pool, min(len(gold.claims), len(pool))) if pool else []
    order = [g.task_id for g in golds if tasks[g.task_id].subtype == task.subtype]
    nxt = order[(order.index(task.task_id) + 1) % len(order)] if len(order) > 1 else None
    other = next((g for g in golds if g.task_id == nxt), None)
    plan = task.question.split("\n\n", 1)[-1]
    return {
        "control:gold": gold_review(gold),
        "control:random": ReviewAnswer(weaknesses=drawn),
        "control:empty": ReviewAnswer(),
        "control:generic": GENERIC_REVIEW,
        "control:other_gold": gold_review(other) if other else ReviewAnswer(),
        "control:plan_echo": ReviewAnswer(soundness=plan),
    }

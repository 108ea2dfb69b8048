"""Control answers: what a score means is read against them (issue: benchmark validity).

Per task, answers that carry no judgement, built through the same renderer as every
agent's answer so they obey the same contract:

* ``control:gold``         states the hidden gold (must score high: >= gold_min),
* ``control:random``       a uniformly random answer of the right shape (the chance line;
                           `draws` seeds, each its own answer),
* ``control:empty``        commits to nothing (an empty ranking stays empty),
* ``control:every_option`` names every candidate at once (a hedge),
* ``control:first_option`` the first option / the given order,
* ``control:other_gold``   states the gold of another task of the same family (each of up to
                           `draws` other tasks in turn; their scores are averaged).

The non-judgement controls must not beat the random line by more than the configured
margin. Family-specific shapes come from the family hooks `stated_answer`,
`random_answer` and `every_option_decision`. Controls read gold, so they live with the
evaluation outputs, never with agents.
"""

from __future__ import annotations

import random

from assets.agents.render import render_answer
from assets.families.registry import get_family
from core.records import Answer, GoldTarget, Task

CONTROLS = (
    "control:gold",
    "control:random",
    "control:empty",
    "control:every_option",
    "control:first_option",
    "control:other_gold",
)
NO_JUDGEMENT = ("control:empty", "control:every_option", "control:first_option", "control:other_gold")


def _render(task: Task, fields: dict, method: str, seed: int = 0, decision: list[str] | None = None) -> Answer:
    family = get_family(task.family)
    schema = family.answer_schema
    base = {name: ("" if f.annotation is str else f.get_default()) for name, f in schema.model_fields.items() if f.is_required()}
    if "trajectory" in base:
        base["trajectory"] = "steady"
    parsed = schema.model_validate({**base, **fields})
    answer = render_answer(task, parsed, method=method, backbone="control", seed=seed, retrieved=(), has_support_artifact=False)
    if decision is not None:
        answer = answer.model_copy(update={"decision": decision})
    return answer


def stated_fields(task: Task, gold: GoldTarget) -> dict:
    """Answer fields that state `gold`: the family's `stated_answer`, except for a task that
    lists no options (imported open questions), whose gold is texts: the gold's ranked texts,
    its first one (else the first variant of its first slot) as the choice, its trajectory."""
    family = get_family(task.family)
    fields = family.answer_schema.model_fields
    if task.options or not ({"choice", "ranking"} & set(fields)):
        return family.stated_answer(task, gold)
    slot = next((s.variants[0] for s in gold.slots if s.variants and s.slot not in ("trajectory", "gold_answer")), "")
    ranking = list(gold.preferred_ranking)
    out: dict = {}
    if "ranking" in fields:
        out["ranking"] = ranking
    if "choice" in fields:
        out["choice"] = ranking[0] if ranking else slot
    if "trajectory" in fields:
        out["trajectory"] = gold.trajectory or "steady"
    return out


def control_answers(tasks: list[Task], golds: list[GoldTarget], *, draws: int = 20, seed: int = 0) -> list[Answer]:
    """Every control for every task that has a gold; random draws get seeds 0..draws-1."""
    gold_of = {g.task_id: g for g in golds}
    by_family: dict[str, list[Task]] = {}
    for t in sorted(tasks, key=lambda t: t.task_id):
        if t.task_id in gold_of:
            by_family.setdefault(t.family, []).append(t)
    out: list[Answer] = []
    for family_name, group in by_family.items():
        family = get_family(family_name)
        for i, task in enumerate(group):
            gold = gold_of[task.task_id]
            others = [gold_of[t.task_id] for t in group if t.task_id != task.task_id]
            out.append(_render(task, stated_fields(task, gold), "control:gold"))
            for d in range(draws):
                rng = random.Random(f"{seed}-{task.task_id}-{d}")
                out.append(_render(task, family.random_answer(task, gold, rng, others), "control:random", seed=d))
            out.append(_render(task, {}, "control:empty"))
            out.append(_render(task, {}, "control:every_option", decision=family.every_option_decision(task, gold)))
            out.append(_render(task, {"ranking": [o.option_id for o in task.options]}, "control:first_option"))
            # every other task's gold (up to `draws`, from the next task on), averaged like the
            # random draws: one other gold alone is a single permutation, as noisy as one random draw
            for k in range(min(draws, len(others))):
                other = others[(i + k) % len(others)]
                out.append(_render(task, stated_fields(task, other), "control:other_gold", seed=k))
    return out

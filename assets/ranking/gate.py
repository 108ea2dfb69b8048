"""The release gate: a task is released only if its gold holds up.

A gold is held back, with the reason recorded in `TaskRating.note`, when it has no
evidence (strength 0), when it cites no paper from the window after the cutoff
(`TaskFamily.evidence_problems`, every family), when its family's own checks object
(`TaskFamily.validity_problems`, e.g. direction and planning: the independent measures disagree on the top candidate), when its first-ranked object is unstable under
bootstrap resampling of the window (`numbers["stability_top1"]` below the threshold), or
when part of its claim bank does not recompute (`numbers["claims_verified"]`).
"""

from __future__ import annotations

from assets.families.registry import get_family
from core.records import GoldTarget, Task
from core.thresholds import Thresholds


def gate_reason(task: Task, gold: GoldTarget | None, th: Thresholds) -> str | None:
    """None if the task may be released, else why not (the family's own validity checks,
    `TaskFamily.validity_problems`, come first after the evidence check)."""
    if gold is None or gold.strength <= 0:
        return "insufficient future evidence to validate (gold strength 0)"
    family = get_family(task.family)
    family_problems = family.evidence_problems(task, gold) + family.validity_problems(task, gold)
    if family_problems:
        return "; ".join(family_problems)
    n = gold.numbers
    if n.get("stability_top1", 1.0) < th.gold_stability_min:
        return f"gold top-1 unstable under resampling of the window ({n['stability_top1']:.2f})"
    if n.get("claims_verified", len(gold.claims)) < len(gold.claims):
        return "claim bank not fully verified"
    return None


def gold_answer(task: Task, gold: GoldTarget) -> str:
    """The gold's answer as a reader sees it: the text of its top option, or, for a task
    without options, its first gold slot's first variant; lower-cased, "" when it has none.
    The release never holds two tasks of a family with the same one.

    A family whose tasks all offer the same options (venue: the families with an outcome
    list) asks about a different subject in each task (its project) and has only a few
    distinct rankings (3 families: 6), so its answer is the whole ranking FOR that question:
    two of its tasks collide only when they ask about the same project. Another task's gold
    is no shortcut there because the release presents each task's options with the gold's
    position balanced (assets/ranking/presentation.py; the `other_gold` control measures it)."""
    text = {o.option_id: " ".join(o.text.lower().split()) for o in task.options}
    if gold.preferred_ranking and gold.preferred_ranking[0] in text:
        if get_family(task.family).fixed_options:
            ranking = " > ".join(text[r] for r in gold.preferred_ranking if r in text)
            return f"{ranking} | {' '.join(task.question.lower().split())}"
        return text[gold.preferred_ranking[0]]
    for slot in gold.slots:
        if slot.variants:
            return " ".join(slot.variants[0].lower().split())
    return ""

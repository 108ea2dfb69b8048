"""Attribution controls: does attribution completeness mean what it says?

Per released task, answers built through the common renderer and audited by the same
rules as every agent's answer:

* ``control:gold``        states the hidden gold, cites nothing: correct yet unattributable
                          (attribution measures provenance, not correctness) -> 0;
* ``control:gold_cited``  states the gold and cites the task's public support packet: the
                          gold's claims attributable as far as the packet's quotes state them;
* ``control:empty``       commits to nothing -> must be 0;
* ``control:generic``     generic claims ("research in this area will continue to grow")
                          citing the support packet: citations without content must not look
                          attributable -> must be 0.

`validity_report` lists the family means (`attribution_controls`) and fails a family whose
empty or generic control exceeds `attribution_control_max` (core/thresholds.yaml).
"""

from __future__ import annotations

import statistics
from collections import defaultdict

from assets.agents.render import render_answer
from assets.artifacts.logic import build_artifacts
from assets.artifacts.tuples import SourceLookup
from assets.families.registry import get_family
from core.records import Answer, GoldTarget, Task

GENERIC_CLAIMS = (
    "Research in this area will continue to grow.",
    "This direction is likely to attract more attention from the community.",
    "Future work will build on recent progress in the field.",
)


def _render(task: Task, fields: dict, method: str, cited: list[str]) -> Answer:
    schema = get_family(task.family).answer_schema
    base = {name: ("" if f.annotation is str else f.get_default()) for name, f in schema.model_fields.items() if f.is_required()}
    if "trajectory" in base:
        base["trajectory"] = "steady"
    data = {**base, **{k: v for k, v in fields.items() if k in schema.model_fields}}
    if "cited_ids" in schema.model_fields:
        data["cited_ids"] = cited
    return render_answer(
        task, schema.model_validate(data), method=method, backbone="control", retrieved=cited, has_support_artifact=bool(cited)
    )


def control_answers(tasks: list[Task], golds: list[GoldTarget]) -> list[Answer]:
    gold_of = {g.task_id: g for g in golds}
    out = []
    for task in sorted(tasks, key=lambda t: t.task_id):
        gold = gold_of.get(task.task_id)
        if gold is None:
            continue
        family = get_family(task.family)
        support = list(dict.fromkeys(task.support_paper_ids))
        stated = family.stated_answer(task, gold)
        out.append(_render(task, stated, "control:gold", []))
        out.append(_render(task, stated, "control:gold_cited", support))
        out.append(_render(task, {}, "control:empty", []))
        out.append(_render(task, {"claims": list(GENERIC_CLAIMS)}, "control:generic", support))
    return out


def control_attribution(tasks: list[Task], golds: list[GoldTarget], lookup: SourceLookup) -> dict[str, dict]:
    """family -> {control: mean attribution completeness over the family's tasks}."""
    by: dict[str, dict[str, list[float]]] = defaultdict(lambda: defaultdict(list))
    task_of = {t.task_id: t for t in tasks}
    for answer in control_answers(tasks, golds):
        art, _ = build_artifacts(answer, task_of[answer.task_id], lookup)
        by[answer.family][answer.method].append(art.attribution_completeness)
    return {fam: {m: round(statistics.fmean(v), 4) for m, v in sorted(ms.items())} for fam, ms in by.items()}

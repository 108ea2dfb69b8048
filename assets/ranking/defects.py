"""Task defects a reviewer rejects on sight, by documented rules (issue: tasks an expert would sign).

Each rule looks at one built task and its gold (or, for `cross_task_defects`, at all tasks of
the partition) and names the defect with a code and a detail. Every defect is HARD: the
release gate keeps the task out (`assets/ranking/definitions.py` adds them to the gate
reasons) and the audit queue shows it as a flag of the same code (`assets/audit/flags.py`).
The builders already avoid them (`assets.evidence.candidates`, `assets.evidence.approaches`,
`assets.toolbox.building`); these rules are the independent check on what was built.

Option rules (families whose options are research directions or approaches, i.e. options
whose gold carries `prior_count:<option>`; direction and planning):

* `contribution_type_option`: an option's name is a contribution type (benchmark, survey,
  dataset, framework, evaluation, analysis ...; `core.phrases.CONTRIBUTION_TYPES`);
* `bare_word_option`: an option's name is one bare word that is not a recognised name
  (`core.phrases.one_word_problem`: "Privacy", "Code"; "GUI", "LoRA" are names);
* `dead_option`: an option had fewer than `option_min_recent` papers (the builder's own
  minimum, recorded in the gold's numbers) in the recent months before the cutoff;
* `duplicate_options`: two options name the same direction (`core.phrases.same_direction`:
  equal key, an acronym and its expansion), share more than NEAR_DUPLICATE_OVERLAP of the
  smaller one's papers, or are near-synonyms by content (centroid cosine >= NEAR_DUPLICATE_COS;
  the gold records `max_pair_overlap` and `max_pair_cos`, `assets.toolbox.building`);
* `not_one_subfield`: two options' papers are unrelated (the gold's `subfield_min_cos`, the
  lowest centroid cosine of two options the lexicon does not place under one parent, against
  `assets.toolbox.building.SUBFIELD_PAIR_MIN`; curated siblings are one field,
  `assets.toolbox.option_level.same_parent`).

Partition rules (`cross_task_defects`): a family's own conflicts with the released tasks of
the partition (`TaskFamily.release_conflict`; the ranking vetoes such a task,
`overlap_with_released`), e.g. planning's `planning_direction_overlap`: a planning task whose
top gold option, or more than one of whose options, names the same thing as an option of a
RELEASED direction task (assets/families/planning/__init__.py).
"""

from __future__ import annotations

from collections.abc import Sequence

from assets.families.registry import get_family
from assets.toolbox.building import NEAR_DUPLICATE_COS, NEAR_DUPLICATE_OVERLAP, SUBFIELD_PAIR_MIN
from core.phrases import contribution_type, one_word_problem, option_name, same_direction
from core.records import GoldTarget, Task

Defect = tuple[str, str]  # (code, detail)


def option_defects(task: Task, gold: GoldTarget | None) -> list[Defect]:
    """The option rules of the module docstring (none for families without such options)."""
    if gold is None or not task.options or not any(k.startswith("prior_count:") for k in gold.numbers):
        return []
    out: list[Defect] = []
    names = {o.option_id: option_name(o.text) for o in task.options}
    for oid, name in names.items():
        if (ctype := contribution_type(name)) is not None:
            out.append(("contribution_type_option", f"option {oid} {name!r} is a contribution type ({ctype!r})"))
        if (why := one_word_problem(name)) is not None:
            out.append(("bare_word_option", f"option {oid}: {why}"))
    least = gold.numbers.get("option_min_recent")
    if least is not None:
        for oid in names:
            n = gold.numbers.get(f"prior_count:{oid}")
            if n is not None and n < least:
                out.append(
                    (
                        "dead_option",
                        f"option {oid} {names[oid]!r} had {int(n)} papers in the recent months "
                        f"before the cutoff (< {int(least)})",
                    )
                )
    ids = list(names)
    for i, a in enumerate(ids):
        for b in ids[i + 1 :]:
            if same_direction(names[a], names[b]):
                out.append(("duplicate_options", f"options {a} {names[a]!r} and {b} {names[b]!r} name the same direction"))
    if (ov := gold.numbers.get("max_pair_overlap")) is not None and ov > NEAR_DUPLICATE_OVERLAP:
        out.append(("duplicate_options", f"two options share {ov:.0%} of the smaller one's papers"))
    if (cos := gold.numbers.get("max_pair_cos")) is not None and cos >= NEAR_DUPLICATE_COS:
        out.append(("duplicate_options", f"two options are near-synonyms (centroid cosine {cos:.2f})"))
    low = gold.numbers.get("subfield_min_cos")
    if low is not None and low < SUBFIELD_PAIR_MIN:
        out.append(("not_one_subfield", f"two options' papers have centroid cosine {low:.2f} < {SUBFIELD_PAIR_MIN}"))
    return out


def cross_task_defects(
    tasks: Sequence[Task], golds: dict[str, GoldTarget], released: set[str] | None = None
) -> dict[str, list[Defect]]:
    """The partition rules of the module docstring, per task id: each task's family's
    `release_conflict` against the released tasks (every task when `released` is None)."""
    others = [t for t in tasks if released is None or t.task_id in released]
    out: dict[str, list[Defect]] = {}
    for t in tasks:
        if (d := get_family(t.family).release_conflict(t, golds.get(t.task_id), others)) is not None:
            out.setdefault(t.task_id, []).append(d)
    return out


def overlap_with_released(tasks: Sequence[Task], golds: dict[str, GoldTarget]):
    """The ranking's veto (assets/ranking/selection.py): a task whose family finds a conflict with
    the tasks released before it (`TaskFamily.release_conflict`; planning: a planning task that
    overlaps a released direction task) is not released."""
    by_id = {t.task_id: t for t in tasks}

    def veto(task_id: str, released: set[str]) -> str | None:
        others = [by_id[i] for i in released if i in by_id]
        d = get_family(by_id[task_id].family).release_conflict(by_id[task_id], golds.get(task_id), others)
        return None if d is None else f"{d[0]}: {d[1]}"

    return veto


def defect_reason(defects: Sequence[Defect]) -> str | None:
    """The gate's reason for a task with defects (None without)."""
    return "; ".join(f"{code}: {detail}" for code, detail in defects) or None

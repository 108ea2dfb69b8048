"""Release policy: which reviewed tasks ship, with which text (ForeSci App. B.7).

With `require_approval` on (publishing), a task ships only if the ranking selected it
(validity gate + Elo top-N) *and* its current decision (latest, for its current content
hash) is `approve` or `revise`; a revision replaces the title, question or option wording
in the released task (never the gold or its evidence, which the reviewer cannot edit).
Rejected and pending tasks stay out. With it off (the offline demo), the ranking alone
decides and no decision is read.

The counts `curate` returns are the figures the release metadata records (`curation`): approved (revised
included), revised, rejected by reason, pending, over the tasks the ranking selected.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from core.records import Decision, Task, TaskRating


def apply_revision(task: Task, decision: Decision | None) -> Task:
    """The task with a `revise` decision's edits applied (other decisions: unchanged)."""
    if decision is None or decision.action != "revise" or not decision.revision:
        return task
    rev = decision.revision
    options = [
        o.model_copy(update={"text": rev[f"option:{o.option_id}"]}) if rev.get(f"option:{o.option_id}") else o
        for o in task.options
    ]
    return task.model_copy(
        update={"title": rev.get("title") or task.title, "question": rev.get("question") or task.question, "options": options}
    )


def state_of(decision: Decision | None) -> str:
    """approved / revised / rejected / pending: a task's review state."""
    if decision is None:
        return "pending"
    return {"approve": "approved", "revise": "revised", "reject": "rejected"}[decision.action]


def curate(
    tasks: Sequence[Task], ratings: Sequence[TaskRating], decisions: dict[str, Decision]
) -> tuple[list[Task], set[str], dict]:
    """(tasks with revisions applied, ids approved for release, curation counts).

    `decisions` are the current ones (`DecisionStore.current`): task id -> latest decision
    for the task's current content hash."""
    selected = {r.task_id for r in ratings if r.released}
    revised_tasks = [apply_revision(t, decisions.get(t.task_id)) for t in tasks]
    approved = {t for t in selected if state_of(decisions.get(t)) in ("approved", "revised")}
    states = Counter(state_of(decisions.get(t)) for t in selected)
    rejected = Counter(decisions[t].reason for t in selected if state_of(decisions.get(t)) == "rejected")
    counts = {
        "policy": "require_approval",
        "ranked_for_release": len(selected),
        "approved": states["approved"] + states["revised"],
        "revised": states["revised"],
        "rejected": states["rejected"],
        "rejected_by_reason": dict(sorted(rejected.items())),
        "pending": states["pending"],
    }
    return revised_tasks, approved, counts

"""Planning tasks from the approach option sets: one task per role, and its wording.

The question states exactly what the gold measures: the approaches ranked by how many of the
window's new papers on the subfield build on (use or extend) each, where comparing against,
replacing or only mentioning an approach does not count. It asks for nothing the gold does not score:
no milestones or kill criterion (the s38 blind reading found that the "plan" had no checkable gold,
only a list of window titles), only the ranking and the evidence for each position."""

from __future__ import annotations

import random
from typing import Any

from assets.families.planning.candidates import option_sets, option_text
from assets.toolbox.building import (
    MIN_SUPPORT_PAPERS,
    OPTION_LETTERS,
    TEAM_SIZES,
    TITLE_MAX_CHARS,
    Draft,
    TaskBuilder,
    evidence_item_ids,
    short_name,
    support_papers,
)
from core.records import TaskOption


def build_tasks(family: Any, builder: TaskBuilder) -> None:  # the PlanningFamily (a TaskFamily)
    """One task per role with 3-5 offered approaches (`candidates.option_sets`)."""
    st = builder.settings
    for n, group in enumerate(option_sets(builder.by_kind.get("approach", []))):
        if builder.full(family.name):
            break
        support, n_support = support_papers(group, builder.records_by_node)
        if n_support < MIN_SUPPORT_PAPERS:
            continue
        options = [TaskOption(option_id=OPTION_LETTERS[i], text=option_text(s)) for i, s in enumerate(group)]
        rng = random.Random(f"{st.seed}-{st.domain}-{st.cutoff}-{family.name}-team-{n}")
        subject = group[0].details["direction_name"][0]
        role = group[0].details["role_name"][0]
        draft = builder.draft(family.name, options=options, team_size=rng.choice(TEAM_SIZES), subdirection=subject, project=role)
        builder.emit(
            family,
            draft,
            options,
            dict(zip((o.option_id for o in options), group)),
            group,
            support,
            evidence_item_ids(builder.records_by_node, list(builder.records_by_node), set(support)),
            f"{st.horizon_months}-month",
            subject=subject,
        )


def template(draft: Draft) -> tuple[str, str]:
    """Title and question; `draft.subdirection` is the subfield, `draft.project` the role."""
    ws, we, cut, dom = draft.window_start.isoformat(), draft.window_end.isoformat(), draft.cutoff.isoformat(), draft.domain_title
    names_ = [short_name(o.text) for o in draft.options]
    role = draft.project or "the approach"
    title = (
        f"{draft.horizon_months}-month plan for a team of {draft.team_size} on {draft.subdirection}: "
        f"{role} -- {', '.join(names_[:-1])} or {names_[-1]}?"
    )
    if len(title) > TITLE_MAX_CHARS:  # the options are in the question; a title a reader can scan
        title = f"{draft.horizon_months}-month plan for a team of {draft.team_size} on {draft.subdirection}: {role}?"
    question = (
        f"As of {cut}, a team of {draft.team_size} researchers working on {draft.subdirection} ({dom}) must choose "
        f"{role} to build its next {draft.horizon_months} months of work on ({ws} to {we}). Rank these "
        f"alternatives by how many of the new {dom} papers on {draft.subdirection} that appear in that window "
        f"will build on each one -- use it or extend it in their own method; a paper that only compares against "
        f"it, uses it as a baseline or replaces it does not count -- most first, with the pre-cutoff evidence "
        f"for each position."
    )
    return title, question

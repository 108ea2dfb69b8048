"""Strategic Research Planning (ForeSci §3.4, App. B.4): a team ranks the alternatives for one
role of its near-term plan.

A planning decision is a choice for one role inside one subfield: a team working on preference and
reinforcement-learning post-training picks its policy-optimisation algorithm (PPO, GRPO, DPO,
...); a team on retrieval-augmented generation picks its first-stage retriever (BM25, dense,
hybrid, late interaction). The roles and their alternatives come from a curated, shipped catalog
(`assets/evidence/roles.yaml`); the partition's pre-cutoff papers select which 3-5 members are
offered (the most used alive ones, `assets.evidence.approaches`).

The package, along its seams:

* `candidates`: the option sets (one per role) and how an option reads;
* `build`: the tasks and their wording (the question states what the gold counts);
* `gold`: the ranking by window papers that build on each option, and the margin rule
  (`margin_problems`: >= 3 papers and >= 30% between first and second, no ties);
* `answer`: the answer schema, the offline plan fields and the hidden plan per option.

A planning task that shares its top option, or more than one option, with a released direction
task of the partition is not released (`release_conflict`), so the two families ask different
decisions."""

from __future__ import annotations

from pydantic import BaseModel

from assets.families.answers import window_phrase
from assets.families.base import TaskFamily
from assets.families.planning.answer import PlanningAnswer, answer_lines, judge_brief, offline_fields
from assets.families.planning.build import build_tasks, template
from assets.families.planning.gold import margin_problems, planning_gold
from assets.toolbox.building import Draft, TaskBuilder
from assets.toolbox.measure import GoldContext
from core.phrases import option_name, same_direction
from core.records import GoldTarget, Signal, Task, TaskBuild
from core.text import word_set

__all__ = ["PlanningAnswer", "PlanningFamily", "margin_problems", "planning_gold"]


class PlanningFamily(TaskFamily):
    name = "planning"
    title = "Strategic Research Planning"
    summary = "rank the alternatives for one role of a team's plan by how many new papers will build on each"
    answer_kind = "ranking"
    # Reviewer Persuasiveness, family-specific (Appendix C.1's planning dimensions cover a plan's
    # milestones and kill criteria; the task no longer asks for a plan -- see `requirements` -- so the
    # dimensions judge what it asks: the ranking's grounding; docs/deviations.md)
    rubric_dimensions = {
        "evidence_grounding": "each position is grounded in cited pre-cutoff papers about that alternative",
        "support_and_maturity": "weighs each alternative's current support and maturity in the subfield",
        "dependency_chain_quality": "dependencies between the alternatives and their prerequisites are explicit and right",
        "risk_assessment": "states each alternative's risks and what would make it lose ground",
    }
    instructions = (
        "Use only the evidence available up to the cutoff. Rank all alternatives by how many of the window's "
        "new papers on the subfield will build on (use or extend) each, most first. Ground each position in "
        "cited pre-cutoff evidence about support, maturity, dependencies and risks."
    )
    # Only what the gold scores: the ranking and its grounding. A plan for the top option (milestones,
    # kill criterion) has no checkable gold -- the window papers that built on it are a list of titles,
    # not a plan (s38 blind reading) -- so it is not asked; the answer schema keeps the plan fields optional.
    requirements = (
        "a ranking of all option ids, highest priority first",
        "for each option, the pre-cutoff evidence (cited papers) for its position: support, maturity, dependencies and risks",
    )
    decision_cues = ("rank", "priorit")
    answer_schema = PlanningAnswer
    answer_fields = (
        "Fields: ranking (ALL option_ids, highest priority first), claims (the evidence for each position), cited_ids."
    )
    offline_reading = "option_trend"
    candidate_coverage = True  # the validity report states the candidates' coverage of the window
    review_stages = (
        (
            "problem",
            "the goals, constraints and dependencies among the candidate directions for {window}",
            ("clarity", "completeness over candidates", "grounding in the evidence", "significance"),
        ),
        (
            "method",
            "a priority order over ALL candidates with the reason for each position",
            ("global-order consistency", "dependency awareness", "grounding in the evidence", "decision clarity"),
        ),
        (
            "experiment",
            "milestones, dependencies, risks and go/no-go checks for the plan",
            ("feasibility", "checkability", "risk awareness", "temporal discipline"),
        ),
    )
    aliases = ("strategic_research_planning",)
    vocabulary = "research plan."

    def decision_claims(self, task: Task, parsed: BaseModel, ranking: list[str], choice: str | None) -> list[str]:
        if not ranking:
            return []
        text = {o.option_id: o.text for o in task.options}
        return [f"'{text[ranking[0]]}' should be prioritised first for {window_phrase(task)}."]

    def answer_lines(self, task: Task, parsed: BaseModel, ranking: list[str], choice: str | None) -> list[str]:
        return answer_lines(task, PlanningAnswer.model_validate(parsed.model_dump()), ranking)

    def offline_fields(self, task: Task, found: dict) -> dict:
        return offline_fields(found)

    def release_conflict(self, task: Task, gold: GoldTarget | None, released: list[Task]) -> tuple[str, str] | None:
        """`planning_direction_overlap`: more than one option, or the gold's top option, names
        the same thing as an option of a released direction task of the partition."""
        direction_names = [option_name(o.text) for t in released if t.family == "direction" for o in t.options]
        if not direction_names:
            return None
        names = {o.option_id: option_name(o.text) for o in task.options}
        shared = [n for n in names.values() if any(same_direction(n, d) for d in direction_names)]
        top = names.get(gold.preferred_ranking[0]) if gold and gold.preferred_ranking else None
        if len(shared) > 1 or (top is not None and top in shared):
            return (
                "planning_direction_overlap",
                f"options {shared} also name options of released direction tasks of this partition"
                + (f" (including the gold's top option {top!r})" if top in shared else ""),
            )
        return None

    def judge_brief(self, task: Task, gold: GoldTarget) -> list[str]:
        return judge_brief(gold)

    def contract_rules(self, task: Task) -> list[str]:
        ids = [o.option_id for o in task.options]
        return [f"ranking: all of {ids}, each once, highest priority first"]

    def build(self, builder: TaskBuilder) -> None:
        build_tasks(self, builder)

    def template(self, draft: Draft) -> tuple[str, str]:
        return template(draft)

    def decision_signature(self, task: Task, subject: str = "") -> set[str]:
        """The approaches AND the subfield they serve: the same methods for two subfields are two decisions."""
        return super().decision_signature(task, subject) | word_set(subject)

    def validity_problems(self, task: Task, gold: GoldTarget) -> list[str]:
        """The gold must be decisive: `assets.families.planning.gold.margin_problems`."""
        return margin_problems(gold)

    def gold(self, ctx: GoldContext, task: Task, build: TaskBuild, signals: dict[str, Signal]) -> GoldTarget:
        return planning_gold(ctx, task, build, signals)

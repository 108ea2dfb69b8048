"""Strategic Research Planning (ForeSci §3.4, App. B.4): rank candidate directions for a team.

Options are 4-5 candidate directions, each shown with its feasibility note (support,
maturity, dependencies, risks), for a team of N researchers planning the next horizon.
The gold ranking is the options' momentum over the window (`assets.families.momentum`),
plus claims about the top option's dependencies and risks known before the cutoff, and per
option the milestones, dependencies and kill criterion the window's papers bear out
(`assets.families.plan_target`).
"""

from __future__ import annotations

from pydantic import BaseModel, Field

from assets.families.answers import bullets, ranking_lines, window_phrase
from assets.families.base import TaskFamily
from assets.families.imported import ImportedGold, humanise, rank_options
from assets.families.momentum import momentum_problems, option_momentum
from assets.families.plan_target import plan_targets
from assets.gold.measure import Claims, GoldContext
from assets.tasks.building import (
    MIN_OPTIONS,
    Draft,
    TaskBuilder,
    direction_name,
    direction_text,
    feasibility_note,
    short_name,
)
from core.records import ClaimBasis, GoldTarget, Signal, Task, TaskBuild


class PlanningAnswer(BaseModel):
    ranking: list[str] = Field(default_factory=list, description="all option_ids, highest priority first")
    milestones: list[str] = Field(default_factory=list)
    dependencies: list[str] = Field(default_factory=list)
    risks: list[str] = Field(default_factory=list)
    go_no_go: str = ""
    claims: list[str] = Field(default_factory=list)
    cited_ids: list[str] = Field(default_factory=list)


class PlanningFamily(TaskFamily):
    name = "planning"
    title = "Strategic Research Planning"
    summary = "rank fixed options for a team planning at the cutoff"
    answer_kind = "ranking"
    rubric_dimensions = {  # Reviewer Persuasiveness, family-specific (Appendix C.1)
        "milestone_specificity": "milestones are concrete, ordered and dated within the window",
        "dependency_chain_quality": "dependencies between options and milestones are explicit and right",
        "experiment_executability": "the first experiments could start now with pre-cutoff resources",
        "risk_or_kill_criteria": "states risks and go/no-go or kill criteria",
    }
    instructions = (
        "Use only the evidence available up to the cutoff. Rank all options from highest to lowest "
        "priority for the team, and give a concrete plan for the top option. Ground each judgement in "
        "cited pre-cutoff evidence about support, maturity, dependencies and risks."
    )
    requirements = (
        "a ranking of all option ids, highest priority first",
        "milestones for the top option over the horizon",
        "dependencies (data, tools, compute, prior results) of the top option",
        "risks and their mitigations",
        "go/no-go criteria with measurable thresholds",
    )
    decision_cues = ("rank", "priorit")
    answer_schema = PlanningAnswer
    answer_fields = ("Fields: ranking (ALL option_ids, highest priority first), milestones, dependencies, risks, "
                     "go_no_go, claims, cited_ids.")
    offline_reading = "option_trend"
    review_stages = (
        ("problem", "the goals, constraints and dependencies among the candidate directions for {window}",
         ("clarity", "completeness over candidates", "grounding in the evidence", "significance")),
        ("method", "a priority order over ALL candidates with the reason for each position",
         ("global-order consistency", "dependency awareness", "grounding in the evidence", "decision clarity")),
        ("experiment", "milestones, dependencies, risks and go/no-go checks for the plan",
         ("feasibility", "checkability", "risk awareness", "temporal discipline")),
    )
    aliases = ("strategic_research_planning",)
    vocabulary = "research plan."

    def decision_claims(self, task: Task, parsed: PlanningAnswer, ranking: list[str], choice: str | None) -> list[str]:
        if not ranking:
            return []
        text = {o.option_id: o.text for o in task.options}
        return [f"'{text[ranking[0]]}' should be prioritised first for {window_phrase(task)}."]

    def answer_lines(self, task: Task, parsed: PlanningAnswer, ranking: list[str], choice: str | None) -> list[str]:
        lines = ranking_lines(task, ranking)
        for title, items in (("Milestones", parsed.milestones), ("Dependencies", parsed.dependencies),
                             ("Risks", parsed.risks)):
            if items:
                lines += [f"**{title}:**"] + bullets(items) + [""]
        if parsed.go_no_go.strip():
            lines += [f"**Go / no-go:** {parsed.go_no_go.strip()}", ""]
        return lines

    def contract_rules(self, task: Task) -> list[str]:
        ids = [o.option_id for o in task.options]
        return [f"ranking: all of {ids}, each once, highest priority first", "go_no_go: a checkable criterion"]

    def build(self, builder: TaskBuilder) -> None:
        feas = builder.feas_by_node
        pool = builder.candidates
        if feas:
            with_feas = [c for c in pool if any(n in feas for n in c.node_ids)]
            pool = with_feas if len(with_feas) >= MIN_OPTIONS else pool

        def text_of(s: Signal) -> str:
            note = feasibility_note(s, next((feas[n] for n in s.node_ids if n in feas), None))
            return f"{direction_text(s, 3)} Feasibility: {note}"

        builder.option_tasks(self, text_of, pool, extra_signals=lambda s: [feas[n] for n in s.node_ids if n in feas])

    def template(self, draft: Draft) -> tuple[str, str]:
        ws, we, cut, dom = draft.window_start.isoformat(), draft.window_end.isoformat(), draft.cutoff.isoformat(), draft.domain_title
        names = [short_name(o.text, 32) for o in draft.options]
        title = (f"{draft.horizon_months}-month plan for a team of {draft.team_size} from {cut}: "
                 f"prioritise {', '.join(names)}")
        question = (
            f"As of {cut}, rank these options for a team of {draft.team_size} researchers planning the next "
            f"{draft.horizon_months} months ({ws} to {we}) of {dom} research, and plan the top option."
        )
        return title, question

    def validity_problems(self, task: Task, gold: GoldTarget) -> list[str]:
        """The embedding and the lexical momentum measure must name the same top option, and
        its momentum must rest on enough papers (`assets.families.momentum.momentum_problems`)."""
        return momentum_problems(gold)

    def import_gold(self, gt: dict, out: ImportedGold) -> None:
        task = out.task
        option_ids = [o.option_id for o in task.options]
        given = [str(x) for x in gt.get("preferred_ranking") or []]
        cands = [humanise(c.get("display_name") or c.get("name") or "") if isinstance(c, dict) else str(c)
                 for c in gt.get("candidate_directions", [])]
        if given and set(given) <= set(option_ids):
            out.preferred = given
        elif task.options:
            out.preferred = rank_options(task.options, [c for c in (given or cands) if c])
        else:
            out.preferred = [c for c in (given or cands) if c]
        if out.preferred and task.options:
            top = next(o.text for o in task.options if o.option_id == out.preferred[0])
            out.slot("top_priority", [top])
            out.claim(f"{top} should be the top priority for a plan starting after {task.cutoff}.",
                      "future-realisation", out.scope, 0.9)

    def gold(self, ctx: GoldContext, task: Task, build: TaskBuild, signals: dict[str, Signal]) -> GoldTarget:
        gold, top_name = option_momentum(ctx, task, build, signals, "top_priority")
        if top_name is None:
            return gold
        claims = Claims(task.task_id)
        claims.items = gold.claims
        scope = f"{task.window_start} to {task.window_end}"
        top_sig = signals[build.option_signal_ids[gold.preferred_ranking[0]]]
        top = gold.preferred_ranking[0]
        claims.add(f"{top_name} should be the top priority for a plan starting after {task.cutoff}.",
                   "future-realisation", scope, 0.9, ClaimBasis(check="ranked_first", params={"object": top}))
        feas = [s for s in signals.values() if s.kind == "feasibility" and set(s.node_ids) & set(top_sig.node_ids)]
        for f in feas[:1]:
            for field, what in (("dependencies", "dependency"), ("risks", "risk")):
                for item in f.details.get(field, [])[:2]:
                    claims.add(f"A {what} of {top_name} before {task.cutoff}: {item}.", "historical", "pre-cutoff", 0.3,
                               ClaimBasis(check="signal_detail", values={"item": item},
                                          params={"signal_id": f.signal_id, "field": field}))
        gold.claims = claims.items
        if ctx.ranking_only:  # a bootstrap resample only re-ranks
            return gold
        option_signals = {o.option_id: signals[build.option_signal_ids[o.option_id]] for o in task.options
                          if build.option_signal_ids.get(o.option_id) in signals}
        gold.plan = plan_targets(ctx, task, gold, option_signals,
                                 {oid: direction_name(s) for oid, s in option_signals.items()})
        return gold

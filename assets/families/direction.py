"""Direction Forecasting (ForeSci §3.4, App. B.3): which candidate direction gains momentum.

Options are 4-5 candidate directions of ONE subfield and ONE level: named by phrases a
researcher recognises (never cut short), each with a gloss that defines that option and
representative pre-cutoff titles, no two of them near-duplicates, every two of them close in
content (`assets.toolbox.option_sets.subfield_option_sets`; candidates by
`assets.evidence.candidates`), and siblings: none an umbrella over another, containing
another's papers, far broader than another, or from another field
(`assets.toolbox.option_level`). The answer is one option and one trajectory
label; the gold is each option's momentum over the window (`assets.families.momentum`), and
a task is released only if its top option grew on both measures (momentum > 1), clearly:
at least the accelerating bar and 20% ahead of the runner-up.
"""

from __future__ import annotations

from pydantic import BaseModel, Field

from assets.families.answers import (
    clean_ranking,
    ranking_lines,
    ranking_violations,
    window_phrase,
)
from assets.families.base import TaskFamily
from assets.families.momentum import clear_gain_problems, momentum_problems, option_momentum
from assets.toolbox.building import Draft, TaskBuilder, direction_text, short_name
from assets.toolbox.measure import (
    ACCELERATING_MIN,
    COOLING_MAX,
    FRAGMENT_COHESION_DROP,
    FRAGMENT_MIN_NEW,
    GoldContext,
)
from assets.toolbox.option_level import level_problem
from core.phrases import option_name
from core.records import GoldTarget, Signal, Task, TaskBuild, Trajectory

# The trajectory labels the answer gives, each defined in one plain sentence in the question (a
# blind reader could not tell "fragmenting" from "steady"; blind reading seed 3840 still found
# "split into new subtopics or drift apart" vague): every threshold is the gold's own
# (`assets.toolbox.measure.trajectory_of`), stated as the gold checks it.
TRAJECTORY_DEFINITIONS = (
    f"accelerating = its share of new papers grows by at least {ACCELERATING_MIN:.2f}x; "
    f"cooling = its share falls to {COOLING_MAX:.2f}x or less; "
    f"fragmenting = its share stays between those bounds but its new papers either form at least "
    f"{FRAGMENT_MIN_NEW} clusters far from all of its pre-cutoff subtopics, or are spread out more "
    f"(their mean cosine similarity to the direction's centre falls by {FRAGMENT_COHESION_DROP:.2f} or more); "
    "steady = its share stays between those bounds and neither of these happens."
)


class DirectionAnswer(BaseModel):
    choice: str = Field(description="option_id of the direction expected to gain the most momentum")
    trajectory: Trajectory = Field(description="accelerating, fragmenting, steady or cooling")
    ranking: list[str] = Field(default_factory=list, description="all option_ids, most momentum first")
    rationale: str = ""
    claims: list[str] = Field(default_factory=list, description="short atomic prediction statements")
    cited_ids: list[str] = Field(default_factory=list, description="arXiv ids of the evidence relied on")


class DirectionFamily(TaskFamily):
    name = "direction"
    title = "Direction Forecasting"
    summary = "choose the candidate most likely to gain momentum, with one trajectory label"
    answer_kind = "choice"
    rubric_dimensions = {  # Reviewer Persuasiveness, family-specific (Appendix C.1)
        "forecast_specificity": "names a concrete direction and a checkable trajectory, not a topic",
        "signal_interpretation": "reads the pre-cutoff growth/method signals correctly and uses them",
        "trajectory_discipline": "the trajectory label follows from the signals, without hype",
        "uncertainty_calibration": "confidence matches the evidence; says what would change the call",
    }
    instructions = (
        "Use only the evidence available up to the cutoff (the offline knowledge base and the support "
        "packet). Choose exactly one option, give one trajectory label (accelerating, fragmenting, "
        "steady or cooling) for it, and justify the choice with cited pre-cutoff evidence: growth "
        "signals, method developments and open bottlenecks. Say what would make you wrong."
    )
    requirements = (
        "one chosen option id",
        "one trajectory label for the chosen option: accelerating, fragmenting, steady or cooling",
        "a rationale that cites pre-cutoff papers from the knowledge base",
        "the main competing option and why it ranks lower",
        "uncertainty: what evidence would change the forecast",
    )
    decision_cues = ("which", "choose", "gain momentum")
    answer_schema = DirectionAnswer
    answer_fields = (
        "Fields: choice (one option_id), trajectory (accelerating|fragmenting|steady|cooling), "
        "ranking (ALL option_ids, most momentum first), rationale, claims, cited_ids."
    )
    offline_reading = "option_trend"
    candidate_coverage = True  # the validity report states the candidates' coverage of the window
    review_stages = (
        (
            "problem",
            "the open problems and pressure points in the pre-cutoff evidence that will drive work in {window}",
            ("clarity", "relevance to the candidates", "grounding in the evidence", "significance"),
        ),
        (
            "method",
            "which candidate is best positioned to address them, comparing every candidate",
            ("validity", "comparative rigour", "grounding in the evidence", "decision clarity"),
        ),
        (
            "experiment",
            "the observable signals in {window} that would confirm or refute the forecast, and the "
            "trajectory (accelerating, fragmenting, steady or cooling) they imply",
            ("specificity", "falsifiability", "temporal discipline", "uncertainty calibration"),
        ),
    )
    aliases = ("direction_forecasting",)
    vocabulary = "Which direction gains momentum? accelerating, fragmenting, steady or cooling."

    def build(self, builder: TaskBuilder) -> None:
        builder.option_tasks(self, direction_text, builder.candidates, set_problem=level_problem)

    def template(self, draft: Draft) -> tuple[str, str]:
        ws, we, cut, dom = (
            draft.window_start.isoformat(),
            draft.window_end.isoformat(),
            draft.cutoff.isoformat(),
            draft.domain_title,
        )
        names = [short_name(o.text) for o in draft.options]
        title = (
            f"Which gains momentum after {cut}: {', '.join(names[:-1])} or {names[-1]}?"
            if names
            else (f"Which {dom} direction gains momentum after {cut}?")
        )
        question = (
            f"Between {ws} and {we}, which of these research directions in {dom} is most likely to gain "
            f"momentum, i.e. to take a larger share of new {dom} papers than it held just before {cut}? "
            "Choose one option and give one trajectory label for it: " + TRAJECTORY_DEFINITIONS
        )
        return title, question

    def decide(self, task: Task, parsed: DirectionAnswer) -> tuple[str | None, list[str], list[str]]:
        raw_choice = (parsed.choice or "").strip()
        ranking, dropped = clean_ranking(task, parsed.ranking, first=raw_choice or None)
        return (ranking[0] if ranking else None), ranking, dropped

    def decision_claims(self, task: Task, parsed: DirectionAnswer, ranking: list[str], choice: str | None) -> list[str]:
        if not choice:
            return []
        text = {o.option_id: o.text for o in task.options}
        window = window_phrase(task)
        claims = [
            f"'{text[choice]}' will gain the most momentum in {window}.",
            f"'{text[choice]}' will be {parsed.trajectory} in {window}.",
        ]
        if len(ranking) > 1:
            claims.append(f"'{text[ranking[-1]]}' will gain the least momentum among the candidates in {window}.")
        return claims

    def decision_texts(self, task: Task, parsed: DirectionAnswer, ranking: list[str], choice: str | None) -> list[str]:
        """The chosen direction, and the chosen direction with its trajectory label."""
        text = {o.option_id: o.text for o in task.options}
        if choice not in text:
            return []
        name = option_name(text[choice])
        return [text[choice], f"{name} is {parsed.trajectory}"]

    def answer_lines(self, task: Task, parsed: DirectionAnswer, ranking: list[str], choice: str | None) -> list[str]:
        options = {o.option_id: o.text for o in task.options}
        lines = [f"**Choice:** {choice} — {options.get(choice, '')}", f"**Trajectory:** {parsed.trajectory}", ""]
        lines += ranking_lines(task, ranking)
        if parsed.rationale.strip():
            lines += ["**Rationale:** " + parsed.rationale.strip(), ""]
        return lines

    def contract_rules(self, task: Task) -> list[str]:
        ids = [o.option_id for o in task.options]
        return [
            f"choice: exactly one of {ids}",
            f"ranking: all of {ids}, each once, most momentum first",
            "trajectory: one of accelerating, fragmenting, steady, cooling",
        ]

    def contract_violations(self, task: Task, parsed: DirectionAnswer) -> list[str]:
        ids = [o.option_id for o in task.options]
        out = ranking_violations(task, parsed.ranking)
        if parsed.choice not in ids:
            out.append(f"choice {parsed.choice!r} is not one of {ids}")
        if parsed.ranking and parsed.choice != parsed.ranking[0]:
            out.append("choice is not ranked first")
        return out

    def validity_problems(self, task: Task, gold: GoldTarget) -> list[str]:
        """The title and the abstract momentum measure must name the same top option
        (`numbers["title_abstract_agree"]`; the embedding view is reported, not gated), it must
        have grown on both, and its momentum must rest on enough papers
        (`assets.families.momentum.momentum_problems`); and it must have clearly gained: at least
        the accelerating bar, well ahead of the runner-up (`clear_gain_problems`)."""
        return momentum_problems(gold, agree="title_abstract_agree") + clear_gain_problems(gold)

    def gold(self, ctx: GoldContext, task: Task, build: TaskBuild, signals: dict[str, Signal]) -> GoldTarget:
        return option_momentum(ctx, task, build, signals, "primary_direction")[0]

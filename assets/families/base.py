"""The TaskFamily protocol: everything that makes one family of tasks what it is.

A family module subclasses `TaskFamily` and registers one instance
(`assets.families.registry.register_family`). The pipeline (task building, gold, agents,
judging, release) iterates the registry and calls these hooks; no other module branches
on a family's name. The protocol is shaped for option-based families (direction,
planning, venue), open-ended ones (bottleneck) and the open-ended families to come:
`answer_kind` says what an answer is ("choice", "ranking", "text", "claims", "review",
"report") and scorers declare which answer kinds or families they apply to.
"""

from __future__ import annotations

from abc import ABC
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, ClassVar, Literal

from pydantic import BaseModel

from assets.families.answers import clean_ranking, ranking_lines, ranking_violations
from core.phrases import option_name
from core.records import GoldTarget, Score, Signal, Task, TaskBuild
from core.text import word_set

if TYPE_CHECKING:
    from assets.toolbox.building import Draft, TaskBuilder
    from assets.toolbox.measure import GoldContext

AnswerKind = Literal["choice", "ranking", "text", "claims", "review", "report"]
# How the offline baselines (assets/agents/baselines.py) read the knowledge base for a family:
# the trend of each option's own literature, the fit of the project in the question to
# each option, the recurring limitations of the task's subject, or not at all (a failure).
OfflineReading = Literal[
    "option_trend", "option_fit", "subject_limitations", "own", "none"
]  # own: family.offline_answer(ctx, method)
Stage = tuple[str, str, tuple[str, ...]]  # (stage, what to write, reviewer criteria)

GENERIC_STAGES: tuple[Stage, ...] = (
    (
        "problem",
        "what the decision turns on in the pre-cutoff evidence for {window}",
        ("clarity", "grounding in the evidence", "significance"),
    ),
    ("method", "the decision itself, comparing the alternatives", ("validity", "comparative rigour", "decision clarity")),
    (
        "experiment",
        "the observable signals in {window} that would confirm or refute it",
        ("specificity", "falsifiability", "uncertainty calibration"),
    ),
)


@dataclass
class FamilyRecords:
    """One partition's records of one family, as the release report reads them (after the
    window closed: scores, controls and the hidden gold are all there)."""

    tasks: list[Task]
    builds: list[TaskBuild]
    golds: list[GoldTarget]
    scores: list[Score]
    controls: list[Score]
    released: set[str] = field(default_factory=set)


@dataclass
class ReportTable:
    """A family's own figures for the release report: a titled table with a note."""

    title: str
    note: str
    rows: list[dict]


class TaskFamily(ABC):
    """One task family: a spec (class attributes: public text, answer schema and kind, rubric
    dimensions, the inputs it needs) plus facets the stages look up (builder, gold measure,
    answer contract, controls, offline answer, importer, claim checks, report tables)."""

    name: ClassVar[str]
    title: ClassVar[str]  # the paper's name, e.g. "Direction Forecasting"
    summary: ClassVar[str]  # one line: the decision an agent makes
    answer_kind: ClassVar[AnswerKind]
    instructions: ClassVar[str]  # public instructions shown with every task
    requirements: ClassVar[tuple[str, ...]]  # public answer requirements
    decision_cues: ClassVar[tuple[str, ...]]  # the question must contain one (a clear decision, B.7)
    horizon_text: ClassVar[str] = "{months} months"  # how the LLM drafter states the horizon
    rubric_dimensions: ClassVar[dict[str, str]] = {}  # family-specific persuasiveness dimensions (App. C.1)
    answer_schema: ClassVar[type[BaseModel]]  # the structured answer every method fills (App. D contract)
    answer_fields: ClassVar[str]  # the structured answer's fields, as told to a model
    offline_reading: ClassVar[OfflineReading] = "none"
    fixed_options: ClassVar[bool] = False  # every task offers the same option menu (e.g. venue families)
    # FTA's hedging penalty counts the candidates named in the answer's decision texts; a family
    # whose first decision text is the pick and the rest describe it (bottleneck: the opportunity
    # and mechanism may name another limitation) counts them in the pick alone
    hedge_in_pick_only: ClassVar[bool] = False
    # a decision that names k > 1 candidates scores 0 instead of 1/k (a family whose gold is one
    # open pick among hidden candidates: naming several at once is no pick; docs/validity.md)
    hedge_scores_zero: ClassVar[bool] = False
    review_stages: ClassVar[tuple[Stage, ...]] = (
        GENERIC_STAGES  # research_agent's staged drafts (placeholders: {window}, {subject})
    )
    # Template words a task may use whatever the corpus says (exempt from the future-only-term check).
    vocabulary: ClassVar[str] = ""
    # Claim-bank checks of the family's own (name -> function(claim, gold, ClaimContext) -> None
    # or why not), beside the shared ones of assets/gold/claims.py; a gold claim's basis names one.
    claim_checks: ClassVar[dict[str, Callable]] = {}

    # The build inputs the family reads beyond signals and records (assets.toolbox.building.
    # BuildInputs: "papers", "fulltext", "embed", "llm"); the tasks stage loads only these.
    needs: ClassVar[frozenset[str]] = frozenset()
    # The validity report states the candidate directions' coverage of the window (and the
    # uncaptured growing themes) for a family whose options are drawn from those candidates.
    candidate_coverage: ClassVar[bool] = False
    # Agents get the KB re-bound to the task's own cutoff when it is before the partition's.
    per_task_cutoff: ClassVar[bool] = False

    # ---- optional facets ------------------------------------------------------------------
    # A family provides a facet as a method of that name; one it lacks stays None here and the
    # stage that would use it leaves the family out (never a stub that raises):
    #   build(builder) -> None           the tasks stage: emit tasks with builder.emit / option_tasks
    #   template(draft) -> (title, question)   offline text for a draft (builder.option_tasks)
    #   gold(ctx, task, build, signals) -> GoldTarget   the gold stage: the hidden target, from the window in ctx
    #   offline_answer(ctx, method) -> Answer   the offline baselines, for offline_reading "own"
    build: Callable[[TaskBuilder], None] | None = None
    template: Callable[[Draft], tuple[str, str]] | None = None
    gold: Callable[[GoldContext, Task, TaskBuild, dict[str, Signal]], GoldTarget] | None = None
    offline_answer: Callable[..., Any] | None = None

    def decision_problem(self, task: Task) -> str | None:
        """None if the question asks this family's decision, else why not."""
        q = task.question.lower()
        if not any(cue in q for cue in self.decision_cues):
            return f"question does not ask the {self.name} decision"
        return None

    def decision_signature(self, task: Task, subject: str = "") -> set[str]:
        """Words that identify the decision a task asks: its option names, else its subject."""
        if task.options:
            return set().union(*(word_set(option_name(o.text)) for o in task.options))
        return word_set(subject)

    # ---- answering (assets/agents) -----------------------------------------------------
    def evidence_queries(self, task: Task) -> list[tuple[str, str]]:
        """(label, query) pairs that find the pre-cutoff evidence about each candidate."""
        return [(o.option_id, o.text) for o in task.options]

    def decide(self, task: Task, parsed: BaseModel) -> tuple[str | None, list[str], list[str]]:
        """(choice, ranking, dropped unknown option ids) of a parsed answer, restricted to
        the task's own options (a ranking is always complete)."""
        if "ranking" in type(parsed).model_fields:
            ranking, dropped = clean_ranking(task, getattr(parsed, "ranking", []))
            return None, ranking, dropped
        return None, [], []

    def decision_claims(self, task: Task, parsed: BaseModel, ranking: list[str], choice: str | None) -> list[str]:
        """The decision as atomic statements, so FTA can match it whatever the method wrote."""
        return []

    def decision_texts(self, task: Task, parsed: BaseModel, ranking: list[str], choice: str | None) -> list[str]:
        """What the answer commits to, as short texts (scored by FTA and trace linkage):
        default, the text of its first-ranked option."""
        first = choice or (ranking[0] if ranking else None)
        text = {o.option_id: o.text for o in task.options}
        return [text[first]] if first in text else []

    def answer_lines(self, task: Task, parsed: BaseModel, ranking: list[str], choice: str | None) -> list[str]:
        """The family's part of an answer's markdown (between the header and the claims)."""
        return ranking_lines(task, ranking)

    def contract_rules(self, task: Task) -> list[str]:
        """The family's answer contract, as told to a model that must follow it."""
        ids = [o.option_id for o in task.options]
        return [f"ranking: all of {ids}, each once, best first"] if ids else []

    def contract_violations(self, task: Task, parsed: BaseModel) -> list[str]:
        """Where a parsed answer breaks the family's contract (empty: it keeps it)."""
        if "ranking" in type(parsed).model_fields:
            return ranking_violations(task, getattr(parsed, "ranking", []))
        return []

    # ---- control answers (assets/validity) ---------------------------------------------
    def stated_answer(self, task: Task, gold: GoldTarget) -> dict:
        """Answer fields that state `gold` (the control every family must score >= 0.9 on).
        Default, for option families: the gold ranking, its first option, its trajectory."""
        ids = [o.option_id for o in task.options]
        ranking = [r for r in gold.preferred_ranking if r in ids] + [i for i in ids if i not in gold.preferred_ranking]
        return {"choice": ranking[0] if ranking else "", "ranking": ranking, "trajectory": gold.trajectory or "steady"}

    def random_answer(self, task: Task, gold: GoldTarget, rng, others: list[GoldTarget]) -> dict:
        """A uniformly random answer of the right shape (the chance line). Default: a random
        ordering of the options, its first option and a random trajectory label."""
        ids = [o.option_id for o in task.options]
        rng.shuffle(ids)
        return {
            "choice": ids[0] if ids else "",
            "ranking": ids,
            "trajectory": rng.choice(["accelerating", "fragmenting", "steady", "cooling"]),
        }

    def every_option_decision(self, task: Task, gold: GoldTarget) -> list[str]:
        """A hedge that names every candidate (default: every option's text)."""
        return [o.text for o in task.options]

    # ---- offline baselines (assets/agents/baselines.py) ----------------------------------
    def offline_fields(self, task: Task, found: dict) -> dict:
        """The family's own answer fields from what an offline baseline found, so the shared
        baselines name no family's fields. `found` holds, per reading: option readings
        ("option_trend", "option_fit"): `top` (the best-supported option's text) and
        `ranked` (all option texts, best first); "subject_limitations": `limitation`,
        `next_step`, `rationale`. Default: no fields of its own."""
        return {}

    # ---- judging (assets/scorers) ------------------------------------------------------
    def judge_brief(self, task: Task, gold: GoldTarget) -> list[str]:
        """Family-specific lines of the judge's hidden reference brief (after the shared
        ranking, trajectory, slots and claims lines). Default: none."""
        return []

    def arena_phase(self, task: Task) -> str:
        """The DeepResearch Arena phase (synthesize / design / evaluate) whose ACE checklist
        items a task is scored on; "" for the generic checklist (default)."""
        return ""

    # ---- releases in the ForeSci authors' format (assets/release/importer) -------------
    aliases: ClassVar[tuple[str, ...]] = ()  # their names for this family

    # ---- validity (issue: benchmark validity) ------------------------------------------
    def validity_problems(self, task: Task, gold: GoldTarget) -> list[str]:
        """Family-specific reasons a built task or its gold is not valid (empty: valid)."""
        return []

    def evidence_problems(self, task: Task, gold: GoldTarget) -> list[str]:
        """Release rule: a gold must rest on papers from the window after the cutoff. Without
        one (e.g. a cutoff whose window lies past the corpus end) a family could still rank
        its options, from pre-cutoff profiles alone, and release a task nobody can verify.
        A family whose evidence is something other than window papers overrides this."""
        if gold.future_paper_ids:
            return []
        return [f"no post-cutoff evidence: the {self.name} gold cites no paper from the window"]

    # ---- release selection (assets/ranking) ---------------------------------------------
    def release_conflict(self, task: Task, gold: GoldTarget | None, released: list[Task]) -> tuple[str, str] | None:
        """A (code, detail) defect of `task` against tasks already released in the partition (the
        ranking vetoes it; the audit flags it), or None. Default: none."""
        return None

    def decision_facts(self, task: Task, build: TaskBuild | None, gold: GoldTarget | None) -> dict:
        """What the release's independence rule compares of a task (assets/release/independence.py):
        "named" (its options are named research objects), and where the family knows them its
        "subject", "project" (the one paper it is about) and "gold_texts" (gold sentences).
        Default: named options unless every task offers the same menu (`fixed_options`)."""
        return {"named": not self.fixed_options}

    # ---- curation (assets/audit) ----------------------------------------------------------
    def audit_flags(self, task: Task, gold: GoldTarget | None) -> list:
        """The family's own reviewer flags (`core.records.AuditFlag`) for a task and its gold,
        after the shared ones of assets/audit/flags.py. Default: none."""
        return []

    # ---- reporting (assets/leaderboard) -------------------------------------------------
    def report_tables(self, records: FamilyRecords) -> list[ReportTable]:
        """The family's own figures for the release report (e.g. error types, a contamination
        split); the shared tables (leaderboard, validity, diagnostics) need none of this."""
        return []

    def describe(self) -> dict[str, str]:
        """One row of `foresci families`."""
        return {"family": self.name, "title": self.title, "answer": self.answer_kind, "summary": self.summary}

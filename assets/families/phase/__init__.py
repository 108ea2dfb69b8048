"""Phase tasks (DeepResearch Arena §3, Table 2): open-ended research tasks from inspirations.

Source: the research inspirations (`assets/arena/inspirations.py`) of the partition's
pre-cutoff evidence records, typed limitation / methodology / transdisciplinarity /
hypothesis. TaskWeaver (offline: a documented template per phase; the paper's agent
aggregates several inspirations, so does ours: a primary and, when one is related, a
supporting inspiration) turns them into tasks tagged by the paper's three phases
(`Task.subtype`):

    synthesize  collect, integrate and analyse prior work to form a direction
                (primary: a limitation; support: a related finding or approach)
    design      design a solution, model or experiment that takes an approach further
                (primary: a methodology or transdisciplinarity; support: a related limitation)
    evaluate    assess a claim with structured criteria or benchmarks
                (primary: a hypothesis; support: a related methodology)

The phase-from-kind mapping is our choice (the paper gives none); a primary must also state
what its phase needs (`primary_fits`: a limitation cue, a proposal, a testable finding that
is not a proposal), since the extractor's kinds are loose. Agents get the partition's

The family is a package split along its seams:
    quotes.py     the public text: readable quotes, what a primary must state, the subject
    topic.py      the sentence embedder, topic stems, the on-topic check of inspiration quotes and
                  the topic bars (TITLE_COS, TOPIC_COS, CONTEXT_COS) of issue 32's third pass
    kinds.py      what a paper contributes (method / evaluation / review), evaluation gaps
    build.py      TaskWeaver: primaries, supports and the phase templates
    reference.py  the reference check: the phase-answering classifier, the restatement check
    gold.py       the pursuing window papers and the hidden reference, the validity rule
    answer.py     the answer schema, the offline baselines and the controls' answers
(docs/arena.md).
"""

from __future__ import annotations

from typing import ClassVar

from pydantic import BaseModel

from assets.families.base import TaskFamily
from assets.families.phase.answer import GENERIC_HEDGE, PhaseAnswer, offline_phase_answer, random_answer, stated_answer
from assets.families.phase.build import SUPPORT_COS, build_phase_tasks, question_text
from assets.families.phase.gold import (
    phase_gold,
    phase_validity_problems,
    primary_paper,
    pursued_in_window,
    query_of,
    quote_in_window,
)
from assets.families.phase.quotes import MARKUP, PHASES, primary_fits, quoted_keys, readable_quote, subject_of
from assets.families.phase.reference import (
    MIN_REFERENCE,
    answers_phase,
    answers_task,
    is_phase_sentence,
    phase_keypoints,
    restates,
)
from assets.families.phase.topic import on_topic, sentence_vectors, topic_stems
from core.records import GoldTarget, Task, TaskBuild
from core.text import content_tokens

__all__ = [
    "MARKUP",
    "MIN_REFERENCE",
    "SUPPORT_COS",
    "PhaseAnswer",
    "PhaseFamily",
    "answers_phase",
    "answers_task",
    "is_phase_sentence",
    "on_topic",
    "phase_keypoints",
    "primary_fits",
    "query_of",
    "question_text",
    "quoted_keys",
    "readable_quote",
    "restates",
    "sentence_vectors",
    "subject_of",
    "topic_stems",
]


class PhaseFamily(TaskFamily):
    name = "phase"
    title = "Research Phase Tasks (DeepResearch Arena)"
    summary = "an open-ended synthesize / design / evaluate task grounded in pre-cutoff inspirations"
    answer_kind = "report"
    instructions = (
        "Use only the evidence available up to the cutoff (the knowledge base is bound to it). Write a "
        "research report for the task's phase, cite the pre-cutoff papers it rests on, and list its key "
        "statements as atomic key points."
    )
    requirements = (
        "a research report for the task's phase (synthesize, design or evaluate)",
        "the phase's deliverable: a gap and a direction (synthesize), a method with its experiments "
        "(design), or benchmarks, metrics, baselines and tests (evaluate)",
        "1-5 key points, one atomic statement each",
        "cited pre-cutoff papers for its statements",
    )
    decision_cues = ("synthesize", "design", "evaluat")
    answer_schema = PhaseAnswer
    answer_fields = "Fields: report (markdown research report), keypoints (1-5 atomic key statements), claims, cited_ids."
    offline_reading = "own"
    needs: ClassVar[frozenset[str]] = frozenset(
        {"papers", "llm"}
    )  # the subject: the primary paper's title; llm: drafted inspirations
    vocabulary = (
        "Synthesize the research on published up to A pre-cutoff paper reported the limitation related "
        "finding Integrate what prior work says about this limitation identify the gap it leaves open and "
        "state the research direction that work published between would take up to close it Design the "
        "next method as of proposed open problem Propose the method build to take this approach further "
        "experiments that would test it what it assumes Evaluate a claim approach the evaluation run to "
        "confirm or refute such a claim benchmarks metrics baselines statistical tests"
    )
    rubric_dimensions = {"phase_fit": "the report does what the task's phase asks (synthesis, design, evaluation)"}
    claim_checks: ClassVar[dict] = {"quote_in_window": quote_in_window, "pursued_in_window": pursued_in_window}
    review_stages = (
        (
            "problem",
            "what the pre-cutoff work on the task's inspirations establishes and leaves open",
            ("grounding in the evidence", "clarity"),
        ),
        ("method", "the synthesis, design or evaluation the task's phase asks for", ("validity", "specificity")),
        ("experiment", "how the answer would be checked in {window}", ("falsifiability", "feasibility")),
    )
    phases: ClassVar[tuple[str, ...]] = PHASES

    # ---- building ------------------------------------------------------------------------
    def template(self, draft) -> tuple[str, str]:  # not used: tasks come from inspirations, not drafts
        return "Phase task", "Synthesize ..."

    def build(self, builder) -> None:
        """TaskWeaver offline (`build_phase_tasks`)."""
        build_phase_tasks(self, builder)

    # ---- answering -----------------------------------------------------------------------
    def decision_signature(self, task: Task, subject: str = "") -> set[str]:
        return set(content_tokens(task.question))

    def evidence_queries(self, task: Task) -> list[tuple[str, str]]:
        return [("task", task.question)]

    def decide(self, task, parsed):
        return None, [], []

    def decision_claims(self, task, parsed, ranking, choice) -> list[str]:
        return [k for k in parsed.keypoints if k.strip()]

    def decision_texts(self, task, parsed, ranking, choice) -> list[str]:
        return [k.strip() for k in parsed.keypoints if k.strip()]

    def answer_lines(self, task, parsed, ranking, choice) -> list[str]:
        lines = [parsed.report.strip(), ""] if parsed.report.strip() else []
        if parsed.keypoints:
            lines += ["**Key points:**"] + [f"- {k}" for k in parsed.keypoints] + [""]
        return lines

    def contract_rules(self, task: Task) -> list[str]:
        return [
            f"report: a {task.subtype or 'research'} report in markdown",
            "keypoints: 1-5 atomic key statements of the report",
        ]

    def contract_violations(self, task: Task, parsed: BaseModel) -> list[str]:
        return [] if getattr(parsed, "keypoints", None) else ["no key points"]

    def offline_answer(self, ctx, method: str):
        """The offline baselines (`offline_phase_answer`)."""
        return offline_phase_answer(ctx, method)

    # ---- controls --------------------------------------------------------------------------
    def decision_facts(self, task: Task, build: TaskBuild | None, gold: GoldTarget | None) -> dict:
        """For the independence rule: no named options; the subject, the primary paper (hidden
        construction facts) and the gold's keypoint sentences."""
        curation = build.curation if build else {}
        texts = [v for s in gold.slots if s.slot.startswith("keypoint") for v in s.variants if v.strip()] if gold else []
        return {
            "named": False,
            "subject": curation.get("subject", "") or task.title,
            "project": primary_paper(curation, task),
            "gold_texts": texts,
        }

    def arena_phase(self, task: Task) -> str:
        return task.subtype or ""

    def stated_answer(self, task: Task, gold: GoldTarget) -> dict:
        return stated_answer(gold)

    def random_answer(self, task: Task, gold: GoldTarget, rng, others: list[GoldTarget]) -> dict:
        return random_answer(gold, rng, others)

    def every_option_decision(self, task: Task, gold: GoldTarget) -> list[str]:
        return list(GENERIC_HEDGE)

    # ---- validity and gold -----------------------------------------------------------------------
    def validity_problems(self, task: Task, gold: GoldTarget) -> list[str]:
        """A pursued task whose reference does not pass the check does not answer its question."""
        return phase_validity_problems(task, gold)

    def gold(self, ctx, task: Task, build: TaskBuild, signals) -> GoldTarget:
        return phase_gold(self.name, ctx, task, build)

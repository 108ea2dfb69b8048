"""The idea-review family (ScholarEval, arXiv 2510.16234): review a research plan for
soundness and contribution, citing literature from a knowledge base bound to the idea's
cutoff. One task per ScholarIdeas idea; the hidden gold is the idea's expert rubrics.

Tasks live in the `ideas` pseudo-domain. Every task carries its own idea's cutoff
(`Task.cutoff`, which binds its KB view); the whole set is stored under one partition
whose cutoff key is the latest idea cutoff (`partition_cutoff`), see docs/idea_review.md.
Importing this module registers the family (opt-in: the default build never imports it).
"""

from __future__ import annotations

from pydantic import BaseModel, Field

from assets.families.base import TaskFamily
from assets.families.registry import FAMILIES, register_family
from assets.idea_review.dataset import Idea
from core.records import GoldClaim, GoldTarget, Task

DOMAIN = "ideas"
FAMILY = "idea_review"
NO_LITERATURE = "no relevant literature before the cutoff"


def partition_cutoff(ideas) -> str:
    """The partition key of the idea set: its latest per-idea cutoff."""
    return max(i.cutoff for i in ideas).isoformat()


class ReviewAnswer(BaseModel):
    """What every agent fills for an idea review."""

    soundness: str = Field(default="", description="the soundness review: is the method valid, given prior work?")
    contribution: str = Field(default="", description="the contribution review: what is new against prior work?")
    strengths: list[str] = Field(default_factory=list)
    weaknesses: list[str] = Field(default_factory=list)
    recommendations: list[str] = Field(default_factory=list)
    cited_ids: list[str] = Field(default_factory=list)
    no_relevant_literature: bool = False


def review_text(parsed: ReviewAnswer) -> str:
    """The review as markdown (what rubric coverage reads)."""
    parts = []
    if parsed.no_relevant_literature:
        parts.append(f"Note: {NO_LITERATURE} was found in the knowledge base.")
    for head, body in (("Soundness", parsed.soundness), ("Contribution", parsed.contribution)):
        if body.strip():
            parts.append(f"## {head}\n{body.strip()}")
    for head, items in (
        ("Strengths", parsed.strengths),
        ("Weaknesses", parsed.weaknesses),
        ("Recommendations", parsed.recommendations),
    ):
        if items:
            parts.append(f"## {head}\n" + "\n".join(f"- {i.strip()}" for i in items if i.strip()))
    if parsed.cited_ids:
        parts.append("## References\n" + "\n".join(f"- arXiv:{c}" for c in parsed.cited_ids))
    return "\n\n".join(parts)


class IdeaReviewFamily(TaskFamily):
    name, title = FAMILY, "Idea Review (ScholarEval)"
    summary = "review a research plan's soundness and contribution against literature before its cutoff"
    answer_kind = "review"
    instructions = (
        "Review the research plan for soundness (is the method valid and well designed, given "
        "prior work?) and contribution (what does it add to prior work?). Cite only papers from "
        "the knowledge base, which holds literature up to the idea's cutoff. If it holds no "
        f"relevant literature, say so ('{NO_LITERATURE}')."
    )
    requirements = (
        "a soundness review",
        "a contribution review",
        "strengths and weaknesses",
        "cited arXiv ids from the knowledge base only",
    )
    decision_cues = ("review",)
    answer_schema = ReviewAnswer
    answer_fields = (
        "Fields: soundness, contribution (paragraphs), strengths, weaknesses, recommendations "
        "(lists of sentences), cited_ids (arXiv ids from the knowledge base), "
        "no_relevant_literature (bool)."
    )

    # No builder, template or gold facet: the tasks come from the dataset (`build_tasks`) and
    # the gold is the expert rubrics (`build_gold`), in the idea-review job's own stages.

    def decision_texts(self, task, parsed, ranking, choice) -> list[str]:
        return [*parsed.weaknesses, *parsed.strengths]

    def answer_lines(self, task, parsed, ranking, choice) -> list[str]:
        return review_text(parsed).splitlines()

    def contract_rules(self, task) -> list[str]:
        return ["cited_ids: only arXiv ids the knowledge base returned (dated on or before the cutoff)"]

    def contract_violations(self, task, parsed) -> list[str]:
        return [] if (parsed.soundness.strip() or parsed.contribution.strip() or parsed.weaknesses) else ["empty review"]


def task_for(idea: Idea) -> Task:
    return Task(
        task_id=f"idea-{idea.idea_id}",
        family=FAMILY,
        domain=DOMAIN,
        cutoff=idea.cutoff,
        window_start=idea.cutoff,
        window_end=idea.cutoff,
        horizon="none (review at the cutoff)",
        title=f"Review: {idea.title}",
        question=f"Review this research plan.\n\n{idea.plan}",
        instructions=IdeaReviewFamily.instructions,
        answer_requirements=list(IdeaReviewFamily.requirements),
        subtype=idea.discipline,
    )


def build_tasks(ideas) -> tuple[list[Task], dict[str, str]]:
    """One task per idea with at least one rubric and a plan; (tasks, dropped id -> reason)."""
    tasks, dropped = [], {}
    for idea in ideas:
        if not idea.rubrics:
            dropped[idea.idea_id] = "no expert rubric"
        elif len(idea.plan.split()) < 50:
            dropped[idea.idea_id] = "plan shorter than 50 words"
        else:
            tasks.append(task_for(idea))
    return tasks, dropped


def build_gold(idea: Idea, task: Task) -> GoldTarget:
    """The hidden gold: the expert rubrics as claims (type, axis and severity kept)."""
    claims = [
        GoldClaim(
            claim_id=f"{task.task_id}-r{k}",
            text=r.statement,
            type="historical",
            time_scope=f"{r.axis}/{r.type}/{r.severity}",
            importance={"major": 1.0, "minor": 0.5}.get(r.severity, 1.0),
        )
        for k, r in enumerate(idea.rubrics, start=1)
    ]
    return GoldTarget(
        task_id=task.task_id,
        family=FAMILY,
        domain=DOMAIN,
        cutoff=task.cutoff,
        claims=claims,
        numbers={"rubrics": float(len(claims))},
    )


def gold_review(gold: GoldTarget) -> ReviewAnswer:
    """The gold control: a review built from the expert rubrics themselves."""

    def of(axis: str, kind: str) -> list[str]:
        return [c.text for c in gold.claims if c.time_scope.startswith(f"{axis}/{kind}")]

    return ReviewAnswer(
        soundness=" ".join(of("soundness", "strength") + of("soundness", "weakness")),
        contribution=" ".join(of("contribution", "strength") + of("contribution", "weakness")),
        strengths=[c.text for c in gold.claims if "/strength/" in c.time_scope],
        weaknesses=[c.text for c in gold.claims if "/weakness/" in c.time_scope],
    )


def register() -> IdeaReviewFamily:
    """Register the family once (idempotent); returns it."""
    if FAMILY not in FAMILIES.names():
        register_family(IdeaReviewFamily())
    return FAMILIES.get(FAMILY)

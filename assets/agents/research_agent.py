"""ResearchAgent-style agent (offline-adapted; ForeSci §4.2, App. D).

ResearchAgent builds research ideas in three stages — problem identification, method
development, experiment design — each drafted, then reviewed by reviewing agents
against stage-specific criteria and refined from their feedback. Adapted as in ForeSci
App. D: web-facing evidence gathering is replaced by the task's support packet
(`support_paper_ids`, fetched through the cutoff-bound view) plus hybrid retrieval of
the question, and the planning / review prompts are family-aware: each family maps the
three stages onto its own decision (see `STAGES`).

Calls per task: 3 stages x (draft + review [+ refine per round that is not accepted])
+ 1 final render. Intermediate artifacts: `stages` (each draft, review and refinement).
"""

from __future__ import annotations

from pydantic import BaseModel, Field

from assets.agents.context import Agent, AgentContext
from assets.agents.llm_methods import ask, evidence_block, final_answer, retrieve
from assets.agents.render import render_answer
from assets.families.answers import task_subject, window_phrase
from assets.families.registry import get_family
from core.records import Answer, Task

METHOD = "research_agent"
ACCEPT_AT = 4  # a reviewer's overall score (1-5) at or above which a draft is kept


class StageDraft(BaseModel):
    summary: str = Field(default="", description="the stage's conclusion in 1-3 sentences")
    points: list[str] = Field(default_factory=list, description="supporting points, each citing evidence ids")
    cited_ids: list[str] = Field(default_factory=list)


class CriterionScore(BaseModel):
    criterion: str
    score: int = Field(ge=1, le=5)


class Review(BaseModel):
    overall: int = Field(default=3, ge=1, le=5, description="overall score 1 (poor) to 5 (excellent)")
    criteria: list[CriterionScore] = Field(default_factory=list, description="a 1-5 score per criterion")
    feedback: list[str] = Field(default_factory=list, description="concrete changes to make")


def support_packet(task: Task, kb, k: int = 8) -> tuple[list, list[str]]:
    """The task's support papers (through the cutoff-bound view) then hybrid hits of the question."""
    packet = [h for h in (kb.get(pid) for pid in task.support_paper_ids[:12]) if h is not None]
    # tasks without options add the family's own evidence queries (e.g. a subject's limitations)
    queries = [task.question] + ([] if task.options else [q for _, q in get_family(task.family).evidence_queries(task)])
    seen = {h.arxiv_id for h in packet}
    packet += [h for h in retrieve(kb, queries, k) if h.arxiv_id not in seen]
    return packet[: 2 * k + 4], queries


def _stage_text(stage: str, draft: StageDraft) -> str:
    return f"{stage.upper()}: {draft.summary}" + "".join(f"\n- {p}" for p in draft.points)


def research_agent(ctx: AgentContext) -> Answer:
    """Staged drafts (the family's `review_stages`), each reviewed and refined (setting
    review_rounds, default 1), then the final answer."""
    task, kb, llm_client, seed = ctx.task, ctx.kb, ctx.llm, ctx.seed
    review_rounds = ctx.setting("review_rounds", 1)
    packet, queries = support_packet(task, kb)
    if not packet:
        raise ValueError(f"{task.task_id}: empty support packet")
    evidence = evidence_block(packet)
    options = "".join(f"\n- {o.option_id}: {o.text}" for o in task.options)
    fill = {"window": window_phrase(task), "subject": task_subject(task)}
    done: list[tuple[str, StageDraft]] = []
    log: list[dict] = []
    for stage, goal, criteria in ctx.family.review_stages:
        goal = goal.format(**fill)
        context = "".join("\n\n" + _stage_text(s, d) for s, d in done)
        base = (
            f"Task: {task.question.strip()}{(chr(10) + 'Candidates:' + options) if options else ''}\n\n"
            f"Evidence (pre-cutoff knowledge base; cite only these ids):\n{evidence}{context}\n\n"
            f"Stage '{stage}': write {goal}. Reply with JSON: summary, points, cited_ids."
        )
        draft = ask(llm_client, task, base, StageDraft, method=METHOD, step=f"{stage}_draft", seed=seed)
        entry = {"stage": stage, "draft": draft.model_dump(), "reviews": [], "refinements": []}
        for _ in range(review_rounds):
            review = ask(
                llm_client,
                task,
                f"You are a reviewing agent for the '{stage}' stage of a research judgement.\n"
                f"Task: {task.question.strip()}{(chr(10) + 'Candidates:' + options) if options else ''}\n\n"
                f"Evidence:\n{evidence}\n\nDraft:\n{_stage_text(stage, draft)}\n\n"
                f"Score it 1-5 on each criterion ({', '.join(criteria)}) and overall, and list concrete "
                "feedback. Reply with JSON: overall, criteria, feedback.",
                Review,
                method=METHOD,
                step=f"{stage}_review",
                seed=seed,
            )
            entry["reviews"].append(review.model_dump())
            if review.overall >= ACCEPT_AT:
                break
            draft = ask(
                llm_client,
                task,
                base
                + "\n\nYour previous draft:\n"
                + _stage_text(stage, draft)
                + "\n\nReviewer feedback to address:\n"
                + "\n".join(f"- {f}" for f in review.feedback),
                StageDraft,
                method=METHOD,
                step=f"{stage}_refine",
                seed=seed,
            )
            entry["refinements"].append(draft.model_dump())
        done.append((stage, draft))
        log.append(entry)
    notes = "\n\n".join(_stage_text(s, d) for s, d in done)
    parsed, _ = final_answer(
        task,
        llm_client,
        method=METHOD,
        evidence=evidence,
        notes=notes,
        seed=seed,
        extra="Turn the reviewed problem / method / experiment stages into the final answer.",
    )
    return render_answer(
        task,
        parsed,
        method=METHOD,
        backbone=ctx.backbone_name,
        seed=seed,
        retrieved=packet,
        retrieval_queries=queries,
        has_support_artifact=True,
        artifacts={"stages": log, "support_packet": [h.arxiv_id for h in packet]},
    )


RESEARCH_AGENT = Agent(
    "research_agent",
    "staged problem / method / experiment drafts, each reviewed and refined",
    research_agent,
    needs_llm=True,
    source="ForeSci §4.2, App. D (research agent)",
)

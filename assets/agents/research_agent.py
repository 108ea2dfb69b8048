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

from assets.agents.llm_methods import ask, evidence_block, final_answer, retrieve
from assets.agents.render import render_answer, task_subject, window_phrase
from core.records import Answer, Task

METHOD = "research_agent"
ACCEPT_AT = 4  # a reviewer's overall score (1-5) at or above which a draft is kept

# (stage, what to produce, reviewer criteria) per family.
STAGES: dict[str, list[tuple[str, str, list[str]]]] = {
    "direction": [
        ("problem", "the open problems and pressure points in the pre-cutoff evidence that will drive work in {window}",
         ["clarity", "relevance to the candidates", "grounding in the evidence", "significance"]),
        ("method", "which candidate is best positioned to address them, comparing every candidate",
         ["validity", "comparative rigour", "grounding in the evidence", "decision clarity"]),
        ("experiment", "the observable signals in {window} that would confirm or refute the forecast, and the "
                       "trajectory (accelerating, fragmenting, steady or cooling) they imply",
         ["specificity", "falsifiability", "temporal discipline", "uncertainty calibration"]),
    ],
    "bottleneck": [
        ("problem", "the candidate bottlenecks that recur in the pre-cutoff work on {subject}",
         ["clarity", "recurrence in the evidence", "grounding in the evidence", "significance"]),
        ("method", "the ROOT bottleneck among them (the one others follow from) and the mechanism by which it limits "
                   "progress",
         ["causal validity", "root-vs-symptom discrimination", "grounding in the evidence", "decision clarity"]),
        ("experiment", "the opportunity that opens if the root bottleneck is reduced, and how that would show in "
                       "{window}",
         ["specificity", "mechanistic reasoning", "feasibility", "risk awareness"]),
    ],
    "planning": [
        ("problem", "the goals, constraints and dependencies among the candidate directions for {window}",
         ["clarity", "completeness over candidates", "grounding in the evidence", "significance"]),
        ("method", "a priority order over ALL candidates with the reason for each position",
         ["global-order consistency", "dependency awareness", "grounding in the evidence", "decision clarity"]),
        ("experiment", "milestones, dependencies, risks and go/no-go checks for the plan",
         ["feasibility", "checkability", "risk awareness", "temporal discipline"]),
    ],
    "venue": [
        ("problem", "what the contribution is (type, community, evidence it rests on)",
         ["clarity", "accuracy of characterisation", "grounding in the evidence", "specificity"]),
        ("method", "how well each candidate venue family fits the contribution, best first",
         ["venue specificity", "comparative reasoning", "grounding in the evidence", "decision clarity"]),
        ("experiment", "the framing, reviewer risks and evidence upgrades needed for the best venue",
         ["reviewer realism", "actionability", "risk awareness", "specificity"]),
    ],
}


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
    queries = [task.question] + ([f"{task_subject(task)} limitations challenges"] if task.family == "bottleneck" else [])
    seen = {h.arxiv_id for h in packet}
    packet += [h for h in retrieve(kb, queries, k) if h.arxiv_id not in seen]
    return packet[: 2 * k + 4], queries


def _stage_text(stage: str, draft: StageDraft) -> str:
    return f"{stage.upper()}: {draft.summary}" + "".join(f"\n- {p}" for p in draft.points)


def research_agent(task: Task, kb, llm_client, *, seed: int = 0, backbone: str | None = None,
                   review_rounds: int = 1) -> Answer:
    packet, queries = support_packet(task, kb)
    if not packet:
        raise ValueError(f"{task.task_id}: empty support packet")
    evidence = evidence_block(packet)
    options = "".join(f"\n- {o.option_id}: {o.text}" for o in task.options)
    fill = {"window": window_phrase(task), "subject": task_subject(task)}
    done: list[tuple[str, StageDraft]] = []
    log: list[dict] = []
    for stage, goal, criteria in STAGES[task.family]:
        goal = goal.format(**fill)
        context = "".join("\n\n" + _stage_text(s, d) for s, d in done)
        base = (f"Task: {task.question.strip()}{(chr(10) + 'Candidates:' + options) if options else ''}\n\n"
                f"Evidence (pre-cutoff knowledge base; cite only these ids):\n{evidence}{context}\n\n"
                f"Stage '{stage}': write {goal}. Reply with JSON: summary, points, cited_ids.")
        draft = ask(llm_client, task, base, StageDraft, method=METHOD, step=f"{stage}_draft", seed=seed)
        entry = {"stage": stage, "draft": draft.model_dump(), "reviews": [], "refinements": []}
        for round_ in range(review_rounds):
            review = ask(llm_client, task,
                         f"You are a reviewing agent for the '{stage}' stage of a research judgement.\n"
                         f"Task: {task.question.strip()}{(chr(10) + 'Candidates:' + options) if options else ''}\n\n"
                         f"Evidence:\n{evidence}\n\nDraft:\n{_stage_text(stage, draft)}\n\n"
                         f"Score it 1-5 on each criterion ({', '.join(criteria)}) and overall, and list concrete "
                         "feedback. Reply with JSON: overall, criteria, feedback.",
                         Review, method=METHOD, step=f"{stage}_review", seed=seed)
            entry["reviews"].append(review.model_dump())
            if review.overall >= ACCEPT_AT:
                break
            draft = ask(llm_client, task,
                        base + "\n\nYour previous draft:\n" + _stage_text(stage, draft)
                        + "\n\nReviewer feedback to address:\n" + "\n".join(f"- {f}" for f in review.feedback),
                        StageDraft, method=METHOD, step=f"{stage}_refine", seed=seed)
            entry["refinements"].append(draft.model_dump())
        done.append((stage, draft))
        log.append(entry)
    notes = "\n\n".join(_stage_text(s, d) for s, d in done)
    parsed, _ = final_answer(task, llm_client, method=METHOD, evidence=evidence, notes=notes, seed=seed,
                             extra="Turn the reviewed problem / method / experiment stages into the final answer.")
    return render_answer(task, parsed, method=METHOD, backbone=backbone or llm_client.model, seed=seed,
                         retrieved=packet, retrieval_queries=queries, has_support_artifact=True,
                         artifacts={"stages": log, "support_packet": [h.arxiv_id for h in packet]})

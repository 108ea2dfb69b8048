"""The common answer contract: per-family output schemas and the renderer into `Answer`.

Every method — offline forecaster or LLM — fills one family schema below and hands it
to `render_answer`, so all answers obey the same contract (ForeSci App. D,
"contract-aware output module"): option ids are only the task's own (unknown ids are
dropped, missing ones appended in task order so a ranking is always complete), cited
ids are only those the method's knowledge-base view actually returned (so no
hallucinated or post-cutoff citation can reach the judges), and the decision-critical
claims are always present as short atomic statements the FTA judge can match.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from datetime import date

from pydantic import BaseModel, Field

from core.records import Answer, Task, Trajectory


class DirectionAnswer(BaseModel):
    choice: str = Field(description="option_id of the direction expected to gain the most momentum")
    trajectory: Trajectory = Field(description="accelerating, fragmenting, steady or cooling")
    ranking: list[str] = Field(default_factory=list, description="all option_ids, most momentum first")
    rationale: str = ""
    claims: list[str] = Field(default_factory=list, description="short atomic prediction statements")
    cited_ids: list[str] = Field(default_factory=list, description="arXiv ids of the evidence relied on")


class BottleneckAnswer(BaseModel):
    bottleneck: str = Field(description="the root bottleneck of the subdirection")
    opportunity: str = Field(description="what reducing the bottleneck opens")
    mechanism: str = Field(default="", description="why reducing it opens the opportunity")
    claims: list[str] = Field(default_factory=list)
    cited_ids: list[str] = Field(default_factory=list)


class PlanningAnswer(BaseModel):
    ranking: list[str] = Field(default_factory=list, description="all option_ids, highest priority first")
    milestones: list[str] = Field(default_factory=list)
    dependencies: list[str] = Field(default_factory=list)
    risks: list[str] = Field(default_factory=list)
    go_no_go: str = ""
    claims: list[str] = Field(default_factory=list)
    cited_ids: list[str] = Field(default_factory=list)


class VenueAnswer(BaseModel):
    ranking: list[str] = Field(default_factory=list, description="all option_ids, best-fitting venue first")
    framing: str = ""
    reviewer_risks: list[str] = Field(default_factory=list)
    evidence_upgrades: list[str] = Field(default_factory=list)
    claims: list[str] = Field(default_factory=list)
    cited_ids: list[str] = Field(default_factory=list)


FAMILY_SCHEMAS: dict[str, type[BaseModel]] = {
    "direction": DirectionAnswer,
    "bottleneck": BottleneckAnswer,
    "planning": PlanningAnswer,
    "venue": VenueAnswer,
}


def schema_for(family: str) -> type[BaseModel]:
    if family not in FAMILY_SCHEMAS:
        raise ValueError(f"unknown task family {family!r}; known: {sorted(FAMILY_SCHEMAS)}")
    return FAMILY_SCHEMAS[family]


_QUOTED = re.compile(r"(?:^|(?<=[\s(:]))[\"“‘']([^\"“”]{4,200}?)[\"”’'](?=[\s.,;:?!)]|$)")


def task_subject(task: Task) -> str:
    """The subdirection a task is about: the first quoted phrase of its question (task
    generators quote it), else its title, else the question itself."""
    found = _QUOTED.search(task.question)
    if found:
        return found.group(1).strip()
    return (task.title or task.question).strip()


def window_phrase(task: Task) -> str:
    return f"{task.window_start.isoformat()} to {task.window_end.isoformat()}"


def clean_ranking(task: Task, ranking: Iterable[str], first: str | None = None) -> tuple[list[str], list[str]]:
    """Keep the task's option ids in the given order (deduplicated), put `first` in front,
    append the missing ones in task order. Returns (ranking, dropped unknown ids)."""
    valid = [o.option_id for o in task.options]
    out: list[str] = []
    dropped: list[str] = []
    for oid in ([first] if first else []) + [str(r).strip() for r in ranking]:
        if oid in valid:
            if oid not in out:
                out.append(oid)
        elif oid and oid not in dropped:
            dropped.append(oid)
    out += [oid for oid in valid if oid not in out]
    return out, dropped


def _dedupe(items: Iterable[str]) -> list[str]:
    seen, out = set(), []
    for item in items:
        text = " ".join(str(item).split())
        if text and text.lower() not in seen:
            seen.add(text.lower())
            out.append(text)
    return out


def _retrieved_map(retrieved) -> dict[str, object]:
    """Accept Hits (anything with .arxiv_id) or plain ids; map id -> hit (or None)."""
    out: dict[str, object] = {}
    for item in retrieved or ():
        if isinstance(item, str):
            out.setdefault(item, None)
        else:
            out.setdefault(item.arxiv_id, item)
    return out


def decision_claims(task: Task, parsed: BaseModel, ranking: list[str], choice: str | None) -> list[str]:
    """The decision itself as atomic statements, so FTA can match it whatever the method wrote."""
    text = {o.option_id: o.text for o in task.options}
    window = window_phrase(task)
    if task.family == "direction" and choice:
        claims = [f"'{text[choice]}' will gain the most momentum in {window}.",
                  f"'{text[choice]}' will be {parsed.trajectory} in {window}."]
        if len(ranking) > 1:
            claims.append(f"'{text[ranking[-1]]}' will gain the least momentum among the candidates in {window}.")
        return claims
    if task.family == "bottleneck":
        claims = []
        if parsed.bottleneck.strip():
            claims.append(f"The root bottleneck in {task_subject(task)} is {parsed.bottleneck.strip().rstrip('.')}.")
        if parsed.opportunity.strip():
            short = parsed.bottleneck.strip().rstrip(".")
            what = short if short and len(short) <= 80 else "it"
            claims.append(f"Reducing {what} opens {parsed.opportunity.strip().rstrip('.')}.")
        return claims
    if task.family == "planning" and ranking:
        return [f"'{text[ranking[0]]}' should be prioritised first for {window}."]
    if task.family == "venue" and ranking:
        return [f"The project fits the {text[ranking[0]]} venue family best."]
    return []


def render_answer(
    task: Task,
    parsed: BaseModel,
    *,
    method: str,
    backbone: str,
    seed: int = 0,
    retrieved=None,
    retrieval_queries: list[str] | None = None,
    has_support_artifact: bool | None = None,
    prompt_tokens: int = 0,
    completion_tokens: int = 0,
    cost_usd: float = 0.0,
    latency_s: float = 0.0,
    artifacts: dict | None = None,
) -> Answer:
    """Validate a family answer against the task and the retrieved evidence; render an `Answer`.

    `retrieved` is what the method's KB view returned (Hits or ids); a cited id outside it
    is dropped, as are option ids the task does not have. The dropped items are listed at
    the end of `text` so an auditor can see what the method tried to cite. `artifacts`
    (intermediate results: chains, drafts, reviews, evidence packets) are stored as JSON
    strings in `Answer.artifacts`.
    """
    expected = schema_for(task.family)
    if not isinstance(parsed, expected):
        raise TypeError(f"{task.task_id}: family {task.family} needs {expected.__name__}, got {type(parsed).__name__}")
    hits = _retrieved_map(retrieved)

    choice: str | None = None
    ranking: list[str] = []
    dropped_options: list[str] = []
    if task.family == "direction":
        raw_choice = (parsed.choice or "").strip()
        ranking, dropped_options = clean_ranking(task, parsed.ranking, first=raw_choice or None)
        choice = ranking[0] if ranking else None
    elif task.family in ("planning", "venue"):
        ranking, dropped_options = clean_ranking(task, parsed.ranking)

    cited = _dedupe(str(c).strip() for c in parsed.cited_ids)
    evidence_ids = [c for c in cited if c in hits]
    dropped_ids = [c for c in cited if c not in hits]

    claims = _dedupe(decision_claims(task, parsed, ranking, choice) + list(parsed.claims))
    trajectory = parsed.trajectory if task.family == "direction" else None
    text = render_text(task, parsed, method=method, backbone=backbone, ranking=ranking, choice=choice,
                       claims=claims, evidence_ids=evidence_ids, hits=hits,
                       dropped_options=dropped_options, dropped_ids=dropped_ids)
    return Answer(
        answer_id=answer_id(task.task_id, method, backbone, seed),
        task_id=task.task_id, family=task.family, method=method, backbone=backbone, seed=seed,
        choice=choice, ranking=ranking, trajectory=trajectory, claims=claims, text=text,
        evidence_ids=evidence_ids, retrieval_queries=list(retrieval_queries or []),
        has_support_artifact=bool(hits) if has_support_artifact is None else has_support_artifact,
        prompt_tokens=prompt_tokens, completion_tokens=completion_tokens, cost_usd=cost_usd,
        latency_s=latency_s,
        artifacts={k: (v if isinstance(v, str) else json.dumps(v, default=str, ensure_ascii=False))
                   for k, v in (artifacts or {}).items()},
    )


def answer_id(task_id: str, method: str, backbone: str, seed: int) -> str:
    return f"{task_id}::{method}::{backbone}::{seed}"


def _bullets(items: Iterable[str]) -> list[str]:
    return [f"- {i}" for i in items if str(i).strip()]


def render_text(task: Task, parsed: BaseModel, *, method: str, backbone: str, ranking: list[str],
                choice: str | None, claims: list[str], evidence_ids: list[str], hits: dict,
                dropped_options: list[str], dropped_ids: list[str]) -> str:
    """Readable markdown: decision first, then the family's fields, claims and evidence."""
    options = {o.option_id: o.text for o in task.options}
    lines = [f"## {task.title or task.task_id}", "",
             f"*{task.family} answer by `{method}` ({backbone}); knowledge cutoff {task.cutoff.isoformat()}, "
             f"forecast window {window_phrase(task)}.*", ""]
    if task.family == "direction":
        lines += [f"**Choice:** {choice} — {options.get(choice, '')}", f"**Trajectory:** {parsed.trajectory}", ""]
    if ranking:
        lines += ["**Ranking:**"] + [f"{i}. {oid} — {options[oid]}" for i, oid in enumerate(ranking, 1)] + [""]
    if task.family == "direction" and parsed.rationale.strip():
        lines += ["**Rationale:** " + parsed.rationale.strip(), ""]
    if task.family == "bottleneck":
        lines += [f"**Root bottleneck:** {parsed.bottleneck.strip()}", "",
                  f"**Opportunity:** {parsed.opportunity.strip()}", ""]
        if parsed.mechanism.strip():
            lines += [f"**Mechanism:** {parsed.mechanism.strip()}", ""]
    if task.family == "planning":
        for title, items in (("Milestones", parsed.milestones), ("Dependencies", parsed.dependencies),
                             ("Risks", parsed.risks)):
            if items:
                lines += [f"**{title}:**"] + _bullets(items) + [""]
        if parsed.go_no_go.strip():
            lines += [f"**Go / no-go:** {parsed.go_no_go.strip()}", ""]
    if task.family == "venue":
        if parsed.framing.strip():
            lines += [f"**Framing:** {parsed.framing.strip()}", ""]
        for title, items in (("Reviewer risks", parsed.reviewer_risks), ("Evidence upgrades", parsed.evidence_upgrades)):
            if items:
                lines += [f"**{title}:**"] + _bullets(items) + [""]
    if claims:
        lines += ["**Claims:**"] + _bullets(claims) + [""]
    if evidence_ids:
        lines.append("**Evidence (pre-cutoff knowledge base):**")
        for eid in evidence_ids:
            hit = hits.get(eid)
            if hit is not None:
                published = hit.published.isoformat() if isinstance(hit.published, date) else str(hit.published)
                lines.append(f"- [{eid}] {hit.title} ({published})")
            else:
                lines.append(f"- [{eid}]")
        lines.append("")
    notes = []
    if dropped_options:
        notes.append("unknown option ids dropped: " + ", ".join(dropped_options))
    if dropped_ids:
        notes.append("citations not among the retrieved evidence dropped: " + ", ".join(dropped_ids))
    if notes:
        lines += ["_Contract check: " + "; ".join(notes) + "._", ""]
    return "\n".join(lines).rstrip() + "\n"

"""The common answer contract: the renderer of a family answer into `Answer`.

Every method — offline forecaster or LLM — fills its family's answer schema
(`TaskFamily.answer_schema`) and hands it to `render_answer`, so all answers obey the same contract (ForeSci App. D,
"contract-aware output module"): option ids are only the task's own (unknown ids are
dropped, missing ones appended in task order so a ranking is always complete), cited
ids are only those the method's knowledge-base view actually returned (so no
hallucinated or post-cutoff citation can reach the judges), and the decision-critical
claims are always present as short atomic statements the FTA judge can match.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from datetime import date

from pydantic import BaseModel

from assets.families.answers import bullets, window_phrase
from assets.families.registry import get_family
from core.records import Answer, Task


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
    expected = get_family(task.family).answer_schema
    if not isinstance(parsed, expected):
        raise TypeError(f"{task.task_id}: family {task.family} needs {expected.__name__}, got {type(parsed).__name__}")
    hits = _retrieved_map(retrieved)

    family = get_family(task.family)
    open_fields = open_decision(task, parsed)
    if open_fields is not None:  # a task without options: the answer's fields are texts
        choice, ranking, dropped_options = open_fields["choice"], open_fields["ranking"], []
    else:
        choice, ranking, dropped_options = family.decide(task, parsed)

    cited = _dedupe(str(c).strip() for c in parsed.cited_ids)
    evidence_ids = [c for c in cited if c in hits]
    dropped_ids = [c for c in cited if c not in hits]

    trajectory = getattr(parsed, "trajectory", None)
    if open_fields is not None:
        decision_claims, decision = (
            open_fields["claims"],
            open_fields["decision"] or family.decision_texts(task, parsed, [], None),
        )
    else:
        decision_claims = family.decision_claims(task, parsed, ranking, choice)
        decision = family.decision_texts(task, parsed, ranking, choice)
    claims = _dedupe(decision_claims + list(parsed.claims))
    text = render_text(
        task,
        parsed,
        method=method,
        backbone=backbone,
        ranking=ranking,
        choice=choice,
        claims=claims,
        evidence_ids=evidence_ids,
        hits=hits,
        dropped_options=dropped_options,
        dropped_ids=dropped_ids,
    )
    return Answer(
        answer_id=answer_id(task.task_id, method, backbone, seed),
        task_id=task.task_id,
        family=task.family,
        method=method,
        backbone=backbone,
        seed=seed,
        choice=choice,
        ranking=ranking,
        trajectory=trajectory,
        claims=claims,
        decision=decision,
        text=text,
        evidence_ids=evidence_ids,
        retrieval_queries=list(retrieval_queries or []),
        has_support_artifact=bool(hits) if has_support_artifact is None else has_support_artifact,
        prompt_tokens=prompt_tokens,
        completion_tokens=completion_tokens,
        cost_usd=cost_usd,
        latency_s=latency_s,
        artifacts={
            k: (v if isinstance(v, str) else json.dumps(v, default=str, ensure_ascii=False)) for k, v in (artifacts or {}).items()
        },
    )


OPEN_RANKING_DECISION = 1  # an open ranking commits to its first text (FTA caps decisions anyway)


def open_decision(task: Task, parsed: BaseModel) -> dict | None:
    """For a task that lists no options (imported open questions, docs/releases.md): the
    structured fields as texts, so they are scored instead of dropped. The choice is the
    text in `choice` (else the first ranked text), the ranking the texts in `ranking`
    (deduplicated); the decision is the choice and "<choice> is <trajectory>" when the
    answer gives a trajectory. None for a task with options, or an answer without a choice
    or ranking field (its family's own decision texts apply)."""
    fields = type(parsed).model_fields
    if task.options or not ({"choice", "ranking"} & set(fields)):
        return None
    ranking = _dedupe(str(r) for r in (getattr(parsed, "ranking", None) or []))
    choice = " ".join(str(getattr(parsed, "choice", "") or "").split()) or (ranking[0] if ranking else "")
    if choice and ranking and ranking[0].lower() != choice.lower():
        ranking = _dedupe([choice] + ranking)
    trajectory = getattr(parsed, "trajectory", None) if "trajectory" in fields else None
    window = window_phrase(task)
    decision, claims = [], []
    if choice:
        decision = [choice] + ([f"{choice} is {trajectory}"] if trajectory else [])
        decision = decision if "choice" in fields else ranking[:OPEN_RANKING_DECISION]
        claims.append(f"'{choice}' is the decision for {window}.")
        if trajectory:
            claims.append(f"'{choice}' will be {trajectory} in {window}.")
    return {"choice": choice or None, "ranking": ranking if "ranking" in fields else [], "decision": decision, "claims": claims}


def answer_id(task_id: str, method: str, backbone: str, seed: int) -> str:
    return f"{task_id}::{method}::{backbone}::{seed}"


def render_text(
    task: Task,
    parsed: BaseModel,
    *,
    method: str,
    backbone: str,
    ranking: list[str],
    choice: str | None,
    claims: list[str],
    evidence_ids: list[str],
    hits: dict,
    dropped_options: list[str],
    dropped_ids: list[str],
) -> str:
    """Readable markdown: decision first, then the family's fields, claims and evidence."""
    lines = [
        f"## {task.title or task.task_id}",
        "",
        f"*{task.family} answer by `{method}` ({backbone}); knowledge cutoff {task.cutoff.isoformat()}, "
        f"forecast window {window_phrase(task)}.*",
        "",
    ]
    if task.options:
        lines += get_family(task.family).answer_lines(task, parsed, ranking, choice)
    else:  # open task: the family's lines without option ids, then the ranked texts
        lines += get_family(task.family).answer_lines(task, parsed, [], choice)
        if ranking:
            lines += ["**Ranking:**"] + [f"{i}. {r}" for i, r in enumerate(ranking, 1)] + [""]
    if claims:
        lines += ["**Claims:**"] + bullets(claims) + [""]
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

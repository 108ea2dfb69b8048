"""Judge scores: the ForeSci metrics (Appendix C.1) applied to stored answers.

Offline (no judge model) only what needs no model is computed:
- Future-Target Alignment: reference-guided slot matching with the embedder
  (direction, bottleneck) and the deterministic ranking F1 (planning, venue);
- the deterministic part of Evidence Traceability (`trace_linkage`: cited ids exist in
  the support packet or the knowledge base and are dated <= the cutoff).
Prediction Factuality, the full Traceability score and Reviewer Persuasiveness need an
LLM judge: they stay None (null), never 0, when no judge model is configured.
"""

from __future__ import annotations

from datetime import date

from assets.judging import metrics
from assets.records import Answer, Failure, GoldTarget, Score, Task

RANKING_FAMILIES = ("planning", "venue")


def fta_for(answer: Answer, gold: GoldTarget, embed) -> dict:
    """FTA of one answer: reference-guided for direction/bottleneck, ranking F1 otherwise."""
    if answer.family in RANKING_FAMILIES:
        result = metrics.fta_ranking(gold.preferred_ranking, answer.ranking)
        return {"fta": result["f1"], "fta_precision": result["precision"], "fta_recall": result["recall"]}
    claims = [c for c in answer.claims if c.strip()] or ([answer.text] if answer.text.strip() else [])
    slots = [s for s in gold.slots if s.variants]
    if not slots:
        return {"fta": None}
    claim_vecs = embed(claims) if claims else embed([""])[:0]
    result = metrics.fta_reference_guided(claim_vecs, [embed(s.variants) for s in slots])
    return {"fta": result["score"]}


def score_answers(
    answers: list[Answer],
    tasks: list[Task],
    golds: list[GoldTarget],
    embed,
    kb_dates: dict[str, date],
    *,
    cutoff: date,
) -> tuple[list[Score], list[Failure]]:
    tasks_by_id = {t.task_id: t for t in tasks}
    golds_by_id = {g.task_id: g for g in golds}
    scores: list[Score] = []
    failures: list[Failure] = []
    for answer in answers:
        task, gold = tasks_by_id.get(answer.task_id), golds_by_id.get(answer.task_id)
        if task is None or gold is None:
            failures.append(Failure(stage="judge_scores", item_id=answer.answer_id,
                                    reason=f"no {'task' if task is None else 'gold target'} for {answer.task_id}"))
            continue
        linkage = None
        note = ""
        if answer.has_support_artifact:
            linkage = metrics.trace_linkage(answer.evidence_ids, set(task.support_paper_ids), kb_dates, cutoff)
            leaked = metrics.post_cutoff_citations(
                [i for i in answer.evidence_ids if i not in task.support_paper_ids], kb_dates, cutoff)
            if leaked:
                note = f"cites ids not dated <= cutoff in the KB: {', '.join(leaked[:5])}"
        scores.append(Score(
            answer_id=answer.answer_id, task_id=answer.task_id, family=answer.family,
            method=answer.method, backbone=answer.backbone,
            trace_linkage=linkage, note=note, **fta_for(answer, gold, embed),
        ))
    return scores, failures

"""ACE: Adaptively-generated Checklist Evaluation (DeepResearch Arena §4, App. C).

Stage one: a weighted checklist from the task's public prompt only (made once per task
and stored with the release: `checklists.jsonl`, table `ace_checklists`; the judging stage
passes the stored ones in `ScoringContext.checklists`). Stage two: each item scored in
[0, 1]; ACE = the weighted sum. Offline: the documented per-phase checklist and cue checks
of `assets/arena/ace.py`; with a judge model: the model's checklist (one call per task)
and one batched scoring call per answer.

Applies to the phase family and to bottleneck-opportunity answers (open-ended text, a
generic checklist); not to the option families, whose answer is a choice.
"""

from __future__ import annotations

import threading

from assets.arena.ace import (
    Checklist,
    ace_score,
    model_checklist,
    model_item_scores,
    offline_checklist,
    offline_item_scores,
    prompt_sha,
)
from assets.families.registry import get_family
from assets.scorers.base import Scorer, ScorerResult, ScoringContext
from assets.scorers.kae import judge_ask
from assets.scorers.llm_judge import JudgeLedger, ask

_MADE: dict[tuple[str, str, str], Checklist] = {}  # (model, task id, prompt sha) -> checklist: one stage-one call per task
_LOCK = threading.Lock()


def phase_of(task) -> str:
    """The task's Arena phase, as its family declares it (`TaskFamily.arena_phase`)."""
    return get_family(task.family).arena_phase(task)


def make_checklist(task, judge=None, ask=None) -> Checklist:
    """Stage one for a task (offline, or with the judge model once per task and process)."""
    if judge is None:
        return offline_checklist(task, phase_of(task))
    key = (judge.model, task.task_id, prompt_sha(task))
    with _LOCK:
        if key not in _MADE:
            _MADE[key] = model_checklist(ask, task, phase_of(task), judge.model)
        return _MADE[key]


class ACE(Scorer):
    name = "ace"
    title = "Adaptively-generated Checklist Evaluation"
    summary = "weighted checklist from the public prompt (stored with the release), scored item by item; weighted sum"
    source = "DeepResearch Arena §4, App. C"
    values = ("ace",)
    labels = {"ace": "ACE"}
    leaderboard_rank = 50
    families = ("phase", "bottleneck")

    def score(self, ctx: ScoringContext) -> ScorerResult:
        checklist = ctx.checklists.get(ctx.answer.task_id)
        ask = judge_ask(ctx) if ctx.judge is not None else None
        if checklist is None:
            try:
                checklist = make_checklist(ctx.task, ctx.judge, ask)
            except Exception as exc:  # noqa: BLE001 - recorded; the offline checklist stands in
                ctx.fail("ace checklist", exc)
                checklist = offline_checklist(ctx.task, phase_of(ctx.task))
        how = "offline cue checks"
        scores = None
        if ctx.judge is not None:
            try:
                scores = model_item_scores(ask, ctx.task, checklist, ctx.answer)
                how = f"judge {ctx.judge.model}"
            except Exception as exc:  # noqa: BLE001 - recorded; only ACE stays null
                ctx.fail("ace", exc)
                return ScorerResult({"ace": None}, "judge call failed")
        if scores is None:
            scores = offline_item_scores(checklist, ctx.answer)
        value = ace_score(checklist, scores)
        items = ", ".join(f"{i.item_id}={scores.get(i.item_id, 0.0):.2f}x{i.weight:.2f}" for i in checklist.items)
        return ScorerResult({"ace": value}, f"{how} ({checklist.generated_by} checklist): {items}")


def release_checklists(tasks, judge_client=None) -> list[Checklist]:
    """Stage one for every task ACE applies to (the release's released tasks): offline, or
    with a model (one call per task through the LLM resource; the release uses its own model,
    the paper's "high-capacity LLM", and stage two a separate judge), in task-id order."""
    judge = judge_client if judge_client is not None and not judge_client.offline else None
    scorer = ACE()
    out = []
    for task in sorted(tasks, key=lambda t: t.task_id):
        if not scorer.applies_to(get_family(task.family)):
            continue
        if judge is None:
            out.append(offline_checklist(task, phase_of(task)))
            continue
        ledger = JudgeLedger()
        try:
            out.append(
                make_checklist(
                    task,
                    judge,
                    lambda p, schema, purpose, ledger=ledger: ask(
                        judge, [{"role": "user", "content": p}], schema, purpose=purpose, ledger=ledger, temperature=0.0
                    ),
                )
            )
        except Exception:  # noqa: BLE001 - the documented fallback: the offline checklist, marked as such
            out.append(offline_checklist(task, phase_of(task)))
    return out

"""Judge scores: every registered scorer (`assets.scorers`) applied to stored answers.

The built-in scorers are the ForeSci metrics (Appendix C.1). Offline (no judge model) only
what needs no model is computed: Future-Target Alignment (reference-guided with the
embedder, ranking F1 for ranking answers) and the deterministic evidence linkage of
Traceability. Prediction Factuality, the full Traceability score, Reviewer Persuasiveness
and the drift labels stay None (null), never 0, when no judge model is configured.

With a judge model, each Score also carries the judge model, prompt versions, rubric
repeats and per-answer call/character counts. Pairwise system comparisons and the
Fact agreement study are here too.
"""

from __future__ import annotations

from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from datetime import date

import assets.scorers.llm_judge as llm_judge
from assets.judging import diagnostics
from assets.scorers.base import STAGE, JudgeSettings, ScoringContext
from assets.scorers.registry import scorers_for
from core.records import Answer, Failure, GoldTarget, PairwiseComparison, Score, Task


def prompt_version(settings: JudgeSettings) -> str:
    v = llm_judge.PROMPT_VERSIONS
    if settings.protocol == "reference":
        return f"{v['fact_reference']};{v['rubric_reference']}"
    return f"{v['fact']};{v['rubric']}"


@dataclass
class Judged:
    score: Score
    failures: list[Failure] = field(default_factory=list)
    fact: llm_judge.FactResult | None = None


def score_one(ctx: ScoringContext) -> Judged:
    """Run every scorer that applies to the answer's family and merge their values into one
    Score: typed fields for the ForeSci metrics, `values` for the rest. A failed judge call
    is a Failure row and leaves only its own metric null; successful calls are cached, so a
    rerun redoes only it."""
    answer = ctx.answer
    typed: dict = {}
    extra: dict[str, float | None] = {}
    notes: list[str] = []
    for scorer in scorers_for(answer.family):
        result = scorer.checked(ctx)
        for name, value in result.values.items():
            (typed if name in Score.model_fields else extra)[name] = value
        typed.update(result.details)
        if result.rationale:
            notes.append(f"{scorer.name}: {result.rationale}")
    online = ctx.judge is not None
    if online:
        typed.update(
            repeats=len(ctx.memo.get("rubric", [])),
            judge_model=ctx.judge.model,
            prompt_version=prompt_version(ctx.settings),
            judge_calls=ctx.ledger.calls,
            judge_prompt_chars=ctx.ledger.prompt_chars,
        )
    score = Score(
        answer_id=answer.answer_id,
        task_id=answer.task_id,
        family=answer.family,
        method=answer.method,
        backbone=answer.backbone,
        values=extra,
        note="; ".join(notes),
        **typed,
    )
    return Judged(score, ctx.failures, ctx.memo.get("fact"))


def score_answers(
    answers: list[Answer],
    tasks: list[Task],
    golds: list[GoldTarget],
    embed,
    kb_dates: dict[str, date],
    *,
    cutoff: date,
    judge_client=None,
    kb_get: Callable | None = None,
    settings: JudgeSettings | None = None,
    judged_out: list | None = None,
    artifacts: dict | None = None,
    checklists: dict | None = None,
) -> tuple[list[Score], list[Failure]]:
    """One Score per answer (in answer order); answers without a task or gold become Failures.

    `judge_client` None or offline: offline metrics only. `judged_out`, if given, receives
    the `Judged` objects (for agreement studies). `artifacts`: answer id -> AnswerArtifacts
    (the answer_artifacts asset); scorers that need them build them offline when absent.
    `checklists`: task id -> the ACE checklist stored with the release (assets/arena/ace.py);
    a task without one gets it made on the fly."""
    settings = settings or JudgeSettings()
    judge = judge_client if judge_client is not None and not judge_client.offline else None
    tasks_by_id = {t.task_id: t for t in tasks}
    golds_by_id = {g.task_id: g for g in golds}
    failures: list[Failure] = []
    todo: list[ScoringContext] = []
    for answer in answers:
        task, gold = tasks_by_id.get(answer.task_id), golds_by_id.get(answer.task_id)
        if task is None or gold is None:
            failures.append(
                Failure(
                    stage=STAGE,
                    item_id=answer.answer_id,
                    reason=f"no {'task' if task is None else 'gold target'} for {answer.task_id}",
                )
            )
            continue
        todo.append(
            ScoringContext(
                answer=answer,
                task=task,
                gold=gold,
                embed=embed,
                kb_dates=kb_dates,
                cutoff=cutoff,
                settings=settings,
                ledger=llm_judge.JudgeLedger(),
                judge=judge,
                kb_get=kb_get,
                checklists=checklists or {},
                artifacts=(artifacts or {}).get(answer.answer_id),
            )
        )
    if judge is None:  # offline scorers embed: no point in threads
        judged = [score_one(ctx) for ctx in todo]
    else:
        with ThreadPoolExecutor(max_workers=max(1, settings.workers)) as pool:
            judged = list(pool.map(score_one, todo))
    if judged_out is not None:
        judged_out.extend(judged)
    for j in judged:
        failures += j.failures
    return [j.score for j in judged], failures


# --------------------------------------------------------------------------------------
# Pairwise comparisons
# --------------------------------------------------------------------------------------


def pairwise_comparisons(
    answers: list[Answer],
    scores: list[Score],
    tasks: list[Task],
    golds: list[GoldTarget],
    *,
    judge_client=None,
    settings: JudgeSettings | None = None,
) -> tuple[list[PairwiseComparison], list[Failure], llm_judge.JudgeLedger]:
    """Per-task comparisons of systems (method@backbone): always by FTA (offline, symmetric),
    and, with a judge model and pairwise in (auto, llm), by LLM preference with position
    swap on the first `pairwise_max_tasks` tasks (seed-0 answers)."""
    settings = settings or JudgeSettings()
    ledger = llm_judge.JudgeLedger()
    failures: list[Failure] = []
    out: list[PairwiseComparison] = []
    if settings.pairwise == "off":
        return out, failures, ledger
    rows = [s.model_dump() for s in scores]
    for c in diagnostics.pairwise_from_scores(rows, "fta"):
        if c["winner"] is not None:
            out.append(PairwiseComparison(**c))
    online = judge_client is not None and not judge_client.offline
    if not online or settings.pairwise not in ("auto", "llm"):
        return out, failures, ledger

    tasks_by_id = {t.task_id: t for t in tasks}
    golds_by_id = {g.task_id: g for g in golds}
    by_task: dict[str, dict[str, Answer]] = {}
    for a in sorted(answers, key=lambda a: (a.task_id, a.seed, a.answer_id)):
        by_task.setdefault(a.task_id, {}).setdefault(diagnostics.system_of(a.method, a.backbone), a)
    eligible = [t for t in sorted(by_task) if len(by_task[t]) >= 2 and t in tasks_by_id and t in golds_by_id]
    version = llm_judge.PROMPT_VERSIONS["pairwise"]
    for task_id in eligible[: max(0, settings.pairwise_max_tasks)]:
        systems = sorted(by_task[task_id])
        for i, sa in enumerate(systems):
            for sb in systems[i + 1 :]:
                try:
                    v = llm_judge.judge_pair(
                        tasks_by_id[task_id],
                        by_task[task_id][sa],
                        by_task[task_id][sb],
                        golds_by_id[task_id],
                        judge_client,
                        ledger,
                    )
                except Exception as exc:  # noqa: BLE001
                    failures.append(
                        Failure(
                            stage=STAGE, item_id=f"{task_id}::{sa}::{sb}", reason=f"pairwise: {type(exc).__name__}: {exc}"[:1000]
                        )
                    )
                    continue
                out.append(
                    PairwiseComparison(
                        task_id=task_id,
                        family=tasks_by_id[task_id].family,
                        system_a=sa,
                        system_b=sb,
                        source="llm",
                        judge_model=judge_client.model,
                        prompt_version=version,
                        **v,
                    )
                )
    return out, failures, ledger


def reference_fact(
    answers: list[Answer], tasks: list[Task], golds: list[GoldTarget], client
) -> tuple[dict[str, llm_judge.FactResult], llm_judge.JudgeLedger, list[Failure]]:
    """Fact by the one-claim-per-call variant for `answers` (the agreement sample)."""
    tasks_by_id = {t.task_id: t for t in tasks}
    golds_by_id = {g.task_id: g for g in golds}
    ledger = llm_judge.JudgeLedger()
    out: dict[str, llm_judge.FactResult] = {}
    failures: list[Failure] = []
    for a in answers:
        task, gold = tasks_by_id.get(a.task_id), golds_by_id.get(a.task_id)
        if task is None or gold is None or not gold.claims:
            continue
        try:
            out[a.answer_id] = llm_judge.judge_fact_per_claim(task, a, gold, client, ledger)
        except Exception as exc:  # noqa: BLE001
            failures.append(
                Failure(stage=STAGE, item_id=a.answer_id, reason=f"reference fact: {type(exc).__name__}: {exc}"[:1000])
            )
    return out, ledger, failures


def fact_agreement(compact: dict[str, llm_judge.FactResult], reference: dict[str, llm_judge.FactResult]) -> dict:
    """Agreement of compact (one call) and one-claim-per-call Fact on the same answers:
    score agreement of F1 / precision / recall, and Cohen's kappa of the hidden-claim
    coverage labels (the one label set both variants produce on the same items)."""
    ids = sorted(set(compact) & set(reference))
    out: dict = {"n_answers": len(ids)}
    for name in ("f1", "precision", "recall"):
        out[name] = diagnostics.score_agreement(
            [getattr(compact[i], name) for i in ids], [getattr(reference[i], name) for i in ids]
        )
    a_lab, b_lab = [], []
    for i in ids:
        for gid, lab in compact[i].psi_labels.items():
            if gid in reference[i].psi_labels:
                a_lab.append(lab)
                b_lab.append(reference[i].psi_labels[gid])
    out["coverage_labels"] = {
        "n": len(a_lab),
        "exact_agreement": (sum(x == y for x, y in zip(a_lab, b_lab)) / len(a_lab)) if a_lab else None,
        "cohen_kappa": diagnostics.cohen_kappa(a_lab, b_lab),
    }
    return out

"""Judge scores: the ForeSci metrics (Appendix C.1) applied to stored answers.

Offline (no judge model) only what needs no model is computed:
- Future-Target Alignment: reference-guided slot matching with the embedder
  (direction, bottleneck) and the deterministic ranking F1 (planning, venue);
- the deterministic part of Evidence Traceability (`trace_linkage`: cited ids exist in
  the support packet or the knowledge base and are dated <= the cutoff).
Prediction Factuality, the full Traceability score, Reviewer Persuasiveness and the drift
labels need an LLM judge: they stay None (null), never 0, when no judge model is configured.

With a judge model (`judge_client` not offline) the LLM judges of
`assets.judging.llm_judge` add Fact (P/R/F1), Trace (0.50 e + 0.25 s + 0.25 t with
e = deterministic linkage x judged relevance), Persuasiveness (holistic, with the rubric
dimensions), drift severities, R rubric repeats (mean and population SD) and the judge
model, prompt versions and per-answer call/character counts on every Score.
"""

from __future__ import annotations

import statistics
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from datetime import date
from typing import Literal

from assets.judging import diagnostics, llm_judge, metrics
from core.records import Answer, Failure, GoldTarget, PairwiseComparison, Score, Task

RANKING_FAMILIES = ("planning", "venue")
STAGE = "judge_scores"


@dataclass
class JudgeSettings:
    """How answers are judged when a judge model is configured."""

    protocol: Literal["compact", "reference"] = "compact"
    repeats: int = 3  # rubric repeats R (Trace and Persuasiveness): mean and spread
    temperature: float = 0.7  # rubric sampling temperature for repeats (0 when repeats == 1)
    workers: int = 4  # answers judged concurrently (the client is thread-safe)
    pairwise: Literal["auto", "metric", "llm", "off"] = "auto"  # auto: llm with a judge model
    pairwise_max_tasks: int = 12  # LLM pairwise: first N tasks (2 calls per pair of systems)
    agreement_sample: int = 0  # also judge N answers one-claim-per-call and report agreement


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


def offline_fields(answer: Answer, task: Task, gold: GoldTarget, embed, kb_dates: dict[str, date],
                   cutoff: date) -> dict:
    """The metrics that need no model: FTA and the deterministic evidence linkage."""
    linkage = None
    note = ""
    if answer.has_support_artifact:
        linkage = metrics.trace_linkage(answer.evidence_ids, set(task.support_paper_ids), kb_dates, cutoff)
        leaked = metrics.post_cutoff_citations(
            [i for i in answer.evidence_ids if i not in task.support_paper_ids], kb_dates, cutoff)
        if leaked:
            note = f"cites ids not dated <= cutoff in the KB: {', '.join(leaked[:5])}"
    return {"trace_linkage": linkage, "note": note, **fta_for(answer, gold, embed)}


def mean_std(values: list[float | None]) -> tuple[float | None, float | None]:
    """Mean and population SD of the repeats that produced a value."""
    xs = [float(v) for v in values if v is not None]
    if not xs:
        return None, None
    return sum(xs) / len(xs), statistics.pstdev(xs) if len(xs) > 1 else 0.0


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


def judge_answer(answer: Answer, task: Task, gold: GoldTarget, base: dict, client, *,
                 settings: JudgeSettings, kb_get: Callable | None = None,
                 mock: llm_judge.Mock | None = None) -> Judged:
    """All LLM metrics of one answer. A failed judge call becomes a Failure row and leaves
    only its own metric null; the successful calls are cached, so a rerun redoes only it."""
    ledger = llm_judge.JudgeLedger()
    failures: list[Failure] = []
    notes = [base.get("note", "")]
    fact_fn = llm_judge.judge_fact_per_claim if settings.protocol == "reference" else llm_judge.judge_fact
    rubric_fn = llm_judge.judge_rubric_separate if settings.protocol == "reference" else llm_judge.judge_rubric

    fact = None
    if gold.claims:
        try:
            fact = fact_fn(task, answer, gold, client, ledger, mock=mock)
            notes.append(fact.note)
        except Exception as exc:  # noqa: BLE001 - recorded, the partition goes on
            failures.append(Failure(stage=STAGE, item_id=answer.answer_id, reason=f"fact: {type(exc).__name__}: {exc}"[:1000]))
    else:
        notes.append("empty hidden claim bank: Fact undefined")

    packet = llm_judge.evidence_packet(answer, task, kb_get)
    temperature = settings.temperature if settings.repeats > 1 else 0.0
    n_repeats = max(1, settings.repeats)
    # what is left of the per-answer character target, shared evenly by the rubric repeats
    budget = max(0, llm_judge.COST_TARGET["prompt_chars"] - ledger.prompt_chars - 200) // n_repeats
    repeats: list[llm_judge.RubricResult] = []
    for r in range(n_repeats):
        try:
            repeats.append(rubric_fn(task, answer, gold, packet, client, ledger, repeat=r,
                                     temperature=temperature, mock=mock, budget=budget))
        except Exception as exc:  # noqa: BLE001
            failures.append(Failure(stage=STAGE, item_id=answer.answer_id,
                                    reason=f"rubric repeat {r}: {type(exc).__name__}: {exc}"[:1000]))

    linkage = base.get("trace_linkage")
    traces = [metrics.trace_score(linkage * rr.trace_e, rr.trace_s, rr.trace_t,
                                  has_support_artifact=answer.has_support_artifact)
              if (linkage is not None and rr.trace_e is not None) else None for rr in repeats]
    trace, trace_std = mean_std(traces)
    pers, pers_std = mean_std([rr.holistic for rr in repeats])
    dims = sorted({d for rr in repeats for d in rr.dimensions})
    pers_dimensions = {d: mean_std([rr.dimensions.get(d) for rr in repeats])[0] for d in dims}
    drift_keys = sorted({d for rr in repeats for d in rr.drift})
    drift = {d: mean_std([rr.drift.get(d) for rr in repeats])[0] for d in drift_keys}
    score = Score(
        answer_id=answer.answer_id, task_id=answer.task_id, family=answer.family, method=answer.method,
        backbone=answer.backbone, fta=base.get("fta"), fta_precision=base.get("fta_precision"),
        fta_recall=base.get("fta_recall"), trace_linkage=linkage,
        fact=fact.f1 if fact else None, fact_precision=fact.precision if fact else None,
        fact_recall=fact.recall if fact else None,
        trace=trace, trace_std=trace_std if trace is not None else None, pers=pers, pers_std=pers_std,
        pers_dimensions={k: v for k, v in pers_dimensions.items() if v is not None},
        drift={k: v for k, v in drift.items() if v is not None}, repeats=len(repeats),
        judge_model=client.model, prompt_version=prompt_version(settings),
        judge_calls=ledger.calls, judge_prompt_chars=ledger.prompt_chars,
        note="; ".join(n for n in notes if n),
    )
    return Judged(score, failures, fact)


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
    mock: llm_judge.Mock | None = None,
    judged_out: list | None = None,
) -> tuple[list[Score], list[Failure]]:
    """One Score per answer (in answer order); answers without a task or gold become Failures.

    `judge_client` None or offline: offline metrics only. `judged_out`, if given, receives
    the `Judged` objects (for agreement studies)."""
    settings = settings or JudgeSettings()
    tasks_by_id = {t.task_id: t for t in tasks}
    golds_by_id = {g.task_id: g for g in golds}
    failures: list[Failure] = []
    todo = []
    for answer in answers:
        task, gold = tasks_by_id.get(answer.task_id), golds_by_id.get(answer.task_id)
        if task is None or gold is None:
            failures.append(Failure(stage=STAGE, item_id=answer.answer_id,
                                    reason=f"no {'task' if task is None else 'gold target'} for {answer.task_id}"))
            continue
        todo.append((answer, task, gold, offline_fields(answer, task, gold, embed, kb_dates, cutoff)))

    online = judge_client is not None and not judge_client.offline
    if not online:
        scores = [Score(answer_id=a.answer_id, task_id=a.task_id, family=a.family, method=a.method,
                        backbone=a.backbone, **base) for a, _, _, base in todo]
        return scores, failures

    def one(item):
        answer, task, gold, base = item
        return judge_answer(answer, task, gold, base, judge_client, settings=settings, kb_get=kb_get, mock=mock)

    with ThreadPoolExecutor(max_workers=max(1, settings.workers)) as pool:
        judged = list(pool.map(one, todo))
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
    mock: llm_judge.Mock | None = None,
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
            for sb in systems[i + 1:]:
                try:
                    v = llm_judge.judge_pair(tasks_by_id[task_id], by_task[task_id][sa], by_task[task_id][sb],
                                             golds_by_id[task_id], judge_client, ledger, mock=mock)
                except Exception as exc:  # noqa: BLE001
                    failures.append(Failure(stage=STAGE, item_id=f"{task_id}::{sa}::{sb}",
                                            reason=f"pairwise: {type(exc).__name__}: {exc}"[:1000]))
                    continue
                out.append(PairwiseComparison(task_id=task_id, family=tasks_by_id[task_id].family, system_a=sa,
                                              system_b=sb, source="llm", judge_model=judge_client.model,
                                              prompt_version=version, **v))
    return out, failures, ledger


def reference_fact(answers: list[Answer], tasks: list[Task], golds: list[GoldTarget], client, *,
                   mock: llm_judge.Mock | None = None) -> tuple[dict[str, llm_judge.FactResult], llm_judge.JudgeLedger, list[Failure]]:
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
            out[a.answer_id] = llm_judge.judge_fact_per_claim(task, a, gold, client, ledger, mock=mock)
        except Exception as exc:  # noqa: BLE001
            failures.append(Failure(stage=STAGE, item_id=a.answer_id,
                                    reason=f"reference fact: {type(exc).__name__}: {exc}"[:1000]))
    return out, ledger, failures


def fact_agreement(compact: dict[str, llm_judge.FactResult], reference: dict[str, llm_judge.FactResult]) -> dict:
    """Agreement of compact (one call) and one-claim-per-call Fact on the same answers:
    score agreement of F1 / precision / recall, and Cohen's kappa of the hidden-claim
    coverage labels (the one label set both variants produce on the same items)."""
    ids = sorted(set(compact) & set(reference))
    out: dict = {"n_answers": len(ids)}
    for name in ("f1", "precision", "recall"):
        out[name] = diagnostics.score_agreement([getattr(compact[i], name) for i in ids],
                                                [getattr(reference[i], name) for i in ids])
    a_lab, b_lab = [], []
    for i in ids:
        for gid, lab in compact[i].psi_labels.items():
            if gid in reference[i].psi_labels:
                a_lab.append(lab)
                b_lab.append(reference[i].psi_labels[gid])
    out["coverage_labels"] = {"n": len(a_lab),
                              "exact_agreement": (sum(x == y for x, y in zip(a_lab, b_lab)) / len(a_lab)) if a_lab else None,
                              "cohen_kappa": diagnostics.cohen_kappa(a_lab, b_lab)}
    return out

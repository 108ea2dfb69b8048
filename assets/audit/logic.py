"""Audit records: everything a reviewer needs to judge one candidate task (ForeSci App. B.6-B.7).

For every task of a partition (released by the ranking or not), one `AuditRecord` holds
the public task, its hidden gold with the window papers the gold counted, the pre-cutoff
support papers with their verbatim quotes, the validity checks' results for that task
(the release gate, the ranking's note, gold stability, measure agreement, claim bank, the
builder's curation checks), the deterministic flags (`flags.py`) and, with a model, the
model review's draft verdicts (`model_review.py`).

`content_hash` binds a reviewer's decision to exactly what was reviewed: the public task
and its gold. A rebuild that changes either gives a new hash, and the old decision no
longer applies (`policy.py`).
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Iterable, Sequence

from assets.audit import flags as F
from assets.evidence.venues import unlisted
from assets.families.registry import get_family
from assets.ranking.defects import cross_task_defects
from assets.ranking.gate import gate_reason
from core.records import (
    AuditRecord,
    EvidenceRecord,
    Failure,
    GoldTarget,
    PaperEvidence,
    ScreenedPaper,
    SupportQuote,
    Task,
    TaskBuild,
    TaskRating,
)
from core.thresholds import Thresholds

QUOTE_FIELDS = ("problem", "method", "evaluation_focus", "limitation")  # verbatim sentences (not labels)
MAX_FUTURE_EVIDENCE = 60


def content_hash(task: Task, gold: GoldTarget | None) -> str:
    """sha256 of the canonical JSON of the public task and its gold."""
    body = {"task": task.model_dump(mode="json"), "gold": gold.model_dump(mode="json") if gold else None}
    return hashlib.sha256(json.dumps(body, sort_keys=True, ensure_ascii=False).encode()).hexdigest()[:24]


def support_quotes(task: Task, evidence: dict[str, PaperEvidence], papers: dict[str, ScreenedPaper]) -> list[SupportQuote]:
    """The support packet as a reviewer reads it: each paper with the quotes the task cites."""
    cited: dict[str, list[str]] = {}
    for ev_id in task.support_evidence_ids:
        paper_id, _, field = ev_id.partition("#")
        cited.setdefault(paper_id, []).append(field)
    out = []
    for pid in task.support_paper_ids:
        pe, paper = evidence.get(pid), papers.get(pid)
        fields = [f for f in cited.get(pid, QUOTE_FIELDS) if f in QUOTE_FIELDS]
        quotes = {f: getattr(pe, f) for f in fields if pe is not None and getattr(pe, f)}
        out.append(
            SupportQuote(
                arxiv_id=pid,
                title=paper.title if paper else "",
                published=paper.published if paper else None,
                quotes=quotes,
                unverified=[f for f in (pe.unverified if pe else []) if f in quotes],
            )
        )
    return out


def future_evidence(gold: GoldTarget | None, task: Task) -> list[str]:
    """The window papers the gold counted, its top candidate first, labelled by candidate."""
    if gold is None:
        return []
    label = {o.option_id: o.text.split(" (")[0] for o in task.options}
    order = [k for k in gold.preferred_ranking if k in gold.counted] + [
        k for k in gold.counted if k not in gold.preferred_ranking
    ]
    return [f"[{label.get(k, k)}] {entry}" for k in order for entry in gold.counted[k]][:MAX_FUTURE_EVIDENCE]


def task_checks(
    task: Task, gold: GoldTarget | None, rating: TaskRating | None, build: TaskBuild | None, th: Thresholds
) -> dict[str, str]:
    """The validity checks' results for one task, as short texts."""
    checks = {"gate": gate_reason(task, gold, th) or "pass"}
    if rating is not None:
        checks["ranking"] = (
            f"released: rank {rating.rank_in_family} in {task.family}, Elo {rating.elo:.0f}"
            if rating.released
            else f"held back: {rating.note or 'not released'}"
        )
    if gold is not None:
        n = gold.numbers
        checks["gold_strength"] = f"{gold.strength:.2f}"
        for key in ("stability_top1", "measures_agree", "margin"):
            if key in n:
                checks[key] = f"{n[key]:.2f}"
        if "claims_verified" in n:
            checks["claims_verified"] = f"{int(n['claims_verified'])}/{len(gold.claims)}"
        problems = get_family(task.family).validity_problems(task, gold)
        checks["family_checks"] = "; ".join(problems) or "pass"
    for name, result in (build.curation if build else {}).items():
        checks[f"curation:{name}"] = result
    return checks


def build_audit_records(
    tasks: Sequence[Task],
    golds: Sequence[GoldTarget],
    ratings: Sequence[TaskRating],
    builds: Sequence[TaskBuild],
    records: Sequence[EvidenceRecord],
    corpus: Sequence[ScreenedPaper],
    future: Sequence[ScreenedPaper],
    *,
    th: Thresholds,
    novel_terms: set[str],
    review: Callable | None = None,
    review_selected_only: bool = True,
) -> tuple[list[AuditRecord], list[Failure]]:
    """One audit record per task (see the module docstring); `review(record)` is the model
    review (`model_review.review` bound to a client) or None offline, run on the ranking's
    selection only unless `review_selected_only` is False (held-back tasks do not ship, and
    a model call per candidate would cost 5x more). Returns the records and a failure row
    per model call that failed for good."""
    gold_of = {g.task_id: g for g in golds}
    rating_of = {r.task_id: r for r in ratings}
    build_of = {b.task_id: b for b in builds}
    evidence: dict[str, PaperEvidence] = {}
    for rec in records:
        for pe in rec.papers:
            evidence.setdefault(pe.arxiv_id, pe)
    papers = {p.arxiv_id: p for p in corpus}
    # a window preprint of a paper accepted before the cutoff is no future title (venue options quote such titles)
    future_ids, future_titles = (
        {p.arxiv_id for p in future},
        (unlisted([p.title for p in future], tasks[0].cutoff) if tasks else [p.title for p in future]),
    )
    fixed = {t.family for t in tasks if get_family(t.family).fixed_options}
    dupes = F.duplicate_flags(tasks, fixed_option_families=fixed, selected={r.task_id for r in ratings if r.released})
    leaks = F.leakage_flags(tasks, golds, future_ids, future_titles, novel_terms)
    cross = cross_task_defects(tasks, gold_of, released={r.task_id for r in ratings if r.released})
    projects = F.project_flags(tasks, golds, builds)
    shared = F.shared_quote_flags(tasks, selected={r.task_id for r in ratings if r.released})
    out, failures = [], []
    for task in tasks:
        gold, rating = gold_of.get(task.task_id), rating_of.get(task.task_id)
        support = support_quotes(task, evidence, papers)
        flags = (
            F.support_flags(task, support)
            + dupes.get(task.task_id, [])
            + F.readability_flags(task)
            + F.gold_flags(gold, th, gate_reason(task, gold, th))
            + leaks.get(task.task_id, [])
            + F.defect_flags(task, gold, cross)
            + F.evidence_flags(task, gold)
            + projects.get(task.task_id, [])
            + shared.get(task.task_id, [])
        )
        record = AuditRecord(
            task_id=task.task_id,
            family=task.family,
            domain=task.domain,
            cutoff=task.cutoff,
            content_hash=content_hash(task, gold),
            title=task.title,
            selected=bool(rating and rating.released),
            gate_note=rating.note if rating else "not ranked",
            task=task,
            gold=gold,
            future_evidence=future_evidence(gold, task),
            support=support,
            checks=task_checks(task, gold, rating, build_of.get(task.task_id), th),
            flags=flags,
        )
        if review is not None and (record.selected or not review_selected_only):
            try:
                verdicts, model_flags = review(record)
                record = record.model_copy(
                    update={
                        "model_review": verdicts,
                        "flags": flags + model_flags,
                        "review_model": getattr(review, "model", "model"),
                    }
                )
            except Exception as exc:  # noqa: BLE001 - one task's failed review must not stop the queue
                failures.append(
                    Failure(
                        stage="audit_queue",
                        item_id=task.task_id,
                        reason=f"model review failed: {type(exc).__name__}: {exc}"[:1000],
                    )
                )
        out.append(record)
    return out, failures


def flag_counts(records: Sequence[AuditRecord]) -> dict[str, int]:
    """Tasks flagged per flag code (a task counts once per code)."""
    return code_counts([f.code for f in r.flags] for r in records)


def code_counts(codes_per_task: Iterable[Iterable[str]]) -> dict[str, int]:
    """Tasks per flag code, from each task's flag codes; most frequent first."""
    counts: dict[str, int] = {}
    for codes in codes_per_task:
        for code in set(codes):
            counts[code] = counts.get(code, 0) + 1
    return dict(sorted(counts.items(), key=lambda kv: (-kv[1], kv[0])))

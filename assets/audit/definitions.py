"""Audit queue asset: what a reviewer reads before a task may ship (docs/curation.md)."""

import dagster as dg

from assets.audit.logic import build_audit_records, flag_counts
from assets.audit.model_review import review
from assets.evidence.venues import listed_by
from assets.gold.definitions import template_vocabulary
from assets.partitions import DOMAIN_CUTOFF_PARTITIONS
from assets.stage import current_partition, md_table, write_failures
from core.leakage import future_only_terms
from core.records import AuditRecord, EvidenceRecord, GoldTarget, ScreenedPaper, Task, TaskBuild, TaskRating
from core.thresholds import Thresholds
from core.visibility import visibility_tags
from resources.llm import LLMResource
from resources.storage import StorageResource

AUDIT_NOVEL_MIN_PAPERS = 2  # the release refuses terms of >= 3 window titles; show reviewers the near misses


class AuditQueueConfig(dg.Config):
    model_review: bool = True  # draft the B.3/B.7 verdicts with the model when one is configured
    model_review_selected_only: bool = True  # ... for the ranking's selection only (what would ship)


@dg.asset(
    partitions_def=DOMAIN_CUTOFF_PARTITIONS,
    group_name="hidden",
    kinds={"parquet", "python"},
    deps=["tasks", "task_ranking", "evidence_records", "corpus_snapshot", "future_window"],
    tags=visibility_tags("audit_queue"),
)
def audit_queue(
    context: dg.AssetExecutionContext, config: AuditQueueConfig, storage: StorageResource, llm: LLMResource
) -> dg.MaterializeResult:
    """One audit record per candidate task (ForeSci App. B.6-B.7): the public task, its hidden
    gold with the window papers it counted, the pre-cutoff support papers with their quotes,
    the validity checks' results for the task (gate, ranking note, stability, measures,
    claim bank, curation checks) and flags: deterministic (weak support, near-duplicate,
    label readability, gold instability, possible leakage) and, with a model, the model
    review's draft verdicts on the B.3/B.7 criteria. Hidden: reviewers read it through
    `foresci review`; decisions are stored apart (resources/decisions.py)."""
    part = current_partition(context)
    store = storage.store()
    d, c = part.domain, part.cutoff_key
    # reviewers read (and revise) the tasks as the release presents them, option letters included
    ratings = store.read_records("task_ranking", d, c, TaskRating)
    tasks = store.read_records("presented_tasks", d, c, Task)  # the presented release (task_ranking)
    golds = store.read_records("presented_golds", d, c, GoldTarget)
    corpus = store.read_records("corpus_snapshot", d, c, ScreenedPaper)
    future = store.read_records("future_window", d, c, ScreenedPaper)

    novel = future_only_terms(  # accepted-paper lists decided by the cutoff are pre-cutoff text (venue options)
        [f"{p.title} {p.abstract}" for p in corpus] + listed_by(part.cutoff),
        [p.title for p in future],
        min_papers=AUDIT_NOVEL_MIN_PAPERS,
        allowed=template_vocabulary(),
    )
    client = llm.client()
    before = client.snapshot()
    reviewer = None
    if config.model_review and not client.offline:

        def reviewer(record):
            return review(record, client)

        reviewer.model = client.model
    records, failures = build_audit_records(
        tasks,
        golds,
        ratings,
        store.read_records("task_builds", d, c, TaskBuild),
        store.read_records("evidence_records", d, c, EvidenceRecord),
        corpus,
        future,
        th=Thresholds.load(),
        novel_terms=novel,
        review=reviewer,
        review_selected_only=config.model_review_selected_only,
    )
    path = store.write_records("audit_queue", d, c, records, AuditRecord)
    write_failures(store, "audit_queue", part, failures)
    flagged = [r for r in records if r.flags]
    return dg.MaterializeResult(
        metadata={
            "rows": len(records),
            "selected": sum(r.selected for r in records),
            "flagged": len(flagged),
            "flagged_by_reason": dg.MetadataValue.json(flag_counts(records)),
            "flagged_selected_by_reason": dg.MetadataValue.json(flag_counts([r for r in records if r.selected])),
            "model_review": client.model if reviewer else "off (no model configured)",
            "review_failures": len(failures),
            "preview": md_table(
                [
                    {"task_id": r.task_id, "selected": r.selected, "flags": ", ".join(sorted({f.code for f in r.flags}))}
                    for r in records
                ],
                ["task_id", "selected", "flags"],
                12,
            ),
            "path": dg.MetadataValue.path(path),
            **client.usage_since(before).as_metadata(),
        }
    )

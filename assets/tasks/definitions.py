"""Tasks asset: the public research-decision tasks of the four ForeSci families."""


from collections import Counter

import dagster as dg

from assets.records import EvidenceRecord, Signal, Task, TaskBuild
from assets.tasks.logic import build_tasks
from pipelines.partitions import DOMAIN_CUTOFF_PARTITIONS
from pipelines.stage import current_partition, md_table
from resources.storage import StorageResource


class TaskBuildConfig(dg.Config):
    per_family_max: int = 8
    per_family_min: int = 1
    seed: int = 0


@dg.asset(
    partitions_def=DOMAIN_CUTOFF_PARTITIONS,
    group_name="tasks",
    kinds={"parquet", "python"},
    deps=["research_signals", "evidence_records"],
)
def tasks(context: dg.AssetExecutionContext, config: TaskBuildConfig, storage: StorageResource) -> dg.MaterializeResult:
    """Public tasks (ForeSci §3.4): direction forecasting, bottleneck-opportunity discovery,
    strategic research planning and venue-conditioned positioning, each with question,
    cutoff, window, instructions, answer requirements, options and a pre-cutoff support
    packet. The construction record (which signals each task came from) is kept internal."""
    part = current_partition(context)
    store = storage.store()
    signals = store.read_records("research_signals", part.domain, part.cutoff_key, Signal)
    records = store.read_records("evidence_records", part.domain, part.cutoff_key, EvidenceRecord)
    built, builds = build_tasks(signals, records, domain=part.domain, domain_title=part.spec.title,
                                cutoff=part.cutoff, window_end=part.window_end, horizon_months=part.horizon_months,
                                seed=config.seed, per_family_max=config.per_family_max,
                                per_family_min=config.per_family_min)
    path = store.write_records("tasks", part.domain, part.cutoff_key, built, Task)
    store.write_records("task_builds", part.domain, part.cutoff_key, builds, TaskBuild, visibility="hidden")
    return dg.MaterializeResult(metadata={
        "rows": len(built), "by_family": dg.MetadataValue.json(dict(Counter(t.family for t in built))),
        "preview": md_table([t.model_dump() for t in built], ["task_id", "family", "title"], 12),
        "path": dg.MetadataValue.path(path),
    })

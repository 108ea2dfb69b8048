"""Dagster asset checks: cheap invariants every partition must hold.

For each asset: its table has the columns of its record model (schema), and required
tables are not empty. For each agent-visible asset (core/visibility.py), additionally:
no paper id from the partition's future window appears anywhere in it, and it carries
no field that only hidden records have (gold, construction records). The checks read
the Parquet partitions the assets wrote; they never change them.
"""

import json
import re
import warnings

import dagster as dg
import pyarrow as pa

from assets.partitions import DOMAIN_CUTOFF_PARTITIONS
from assets.stage import current_partition
from core.records import (
    Answer,
    AnswerArtifacts,
    AuditRecord,
    EvidenceRecord,
    GoldTarget,
    MonthVolume,
    PaperFullText,
    PaperMetadata,
    Score,
    ScreenedPaper,
    Signal,
    Task,
    TaskBuild,
    TaskRating,
    TaxonomyNode,
)
from core.visibility import AGENT_VISIBLE
from resources.storage import StorageResource

# The record model each asset's table is written from (its flat columns must be present).
ASSET_MODELS = {
    "corpus_snapshot": ScreenedPaper,
    "future_window": ScreenedPaper,
    "corpus_volume": MonthVolume,
    "paper_metadata": PaperMetadata,
    "paper_fulltext": PaperFullText,
    "taxonomy": TaxonomyNode,
    "evidence_records": EvidenceRecord,
    "research_signals": Signal,
    "tasks": Task,
    "gold_targets": GoldTarget,
    "task_ranking": TaskRating,
    "agent_answers": Answer,
    "answer_artifacts": AnswerArtifacts,
    "judge_scores": Score,
    "audit_queue": AuditRecord,
}
# Side tables agents read, checked like an agent-visible table with their asset's check: the
# presented release (the released tasks as agents see them) is written by task_ranking.
AGENT_READ_SIDE_TABLES = {"task_ranking": ("presented_tasks", "tasks")}  # asset -> (table, checked as)
# Tables a partition cannot do without: the corpus and what every later stage builds on.
REQUIRED_NON_EMPTY = {"corpus_snapshot", "corpus_volume", "knowledge_base", "taxonomy"}
# Fields only hidden records carry (GoldTarget, TaskBuild, AuditRecord; not shared with any agent-visible
# record): never in an agent-visible table.
HIDDEN_FIELDS = (set(GoldTarget.model_fields) | set(TaskBuild.model_fields) | set(AuditRecord.model_fields)) - {
    f for name, model in ASSET_MODELS.items() if name in AGENT_VISIBLE for f in model.model_fields
}
_ARXIV_ID = re.compile(r"\b\d{4}\.\d{4,5}\b")


def _flat_fields(model) -> set[str]:
    """Record fields stored as columns (scalars and lists of scalars; see core.tables)."""
    out = set()
    for name, field in model.model_fields.items():
        text = str(field.annotation)
        if "dict" in text or any(
            t in text
            for t in (
                "Option",
                "Slot",
                "Claim",
                "Section",
                "Evidence",
                "BuildStep",
                "Task",
                "GoldTarget",
                "Flag",
                "Quote",
                "Verdict",
                "Validation",
                "Drift",
            )
        ):
            continue
        out.add(name)
    return out


def table_problems(asset: str, table: pa.Table, future_ids: set[str]) -> list[str]:
    """Every invariant `asset`'s partition table breaks (empty: all hold)."""
    problems = []
    if asset in REQUIRED_NON_EMPTY and table.num_rows == 0:
        problems.append("required table is empty")
    model = ASSET_MODELS.get(asset)
    if model is not None and table.num_rows:
        missing = sorted(_flat_fields(model) - set(table.column_names))
        # A column that is null in every row may be absent (core.tables drops untyped nulls).
        missing = [
            c
            for c in missing
            if c
            in {
                k
                for r in table.column("record_json").to_pylist()[:1]
                for k, v in json.loads(r).items()
                if v not in (None, [], {})
            }
        ]
        if missing:
            problems.append(f"schema: columns missing: {missing}")
    if asset in AGENT_VISIBLE:
        leaked = sorted(set(table.column_names) & HIDDEN_FIELDS)
        if "record_json" in table.column_names:
            for raw in table.column("record_json").to_pylist():
                leaked += sorted(set(json.loads(raw)) & HIDDEN_FIELDS)
                ids = set(_ARXIV_ID.findall(raw)) & future_ids
                if ids:
                    problems.append(f"post-cutoff paper id(s) {sorted(ids)[:5]} in a public row")
                    break
        if leaked:
            problems.append(f"hidden field(s) {sorted(set(leaked))} in a public table")
    return problems


# Partitioned asset checks are a Dagster preview feature (1.13); the API we use is the documented one.
warnings.filterwarnings("ignore", category=dg.PreviewWarning)


def _check_for(asset: str) -> dg.AssetChecksDefinition:
    @dg.asset_check(
        asset=asset,
        name=f"{asset}_invariants",
        partitions_def=DOMAIN_CUTOFF_PARTITIONS,
        description="non-empty when required, schema columns present; for agent-visible tables "
        "also no post-cutoff paper id and no hidden field",
    )
    def _check(context: dg.AssetCheckExecutionContext, storage: StorageResource) -> dg.AssetCheckResult:
        part = current_partition(context)
        store = storage.store()
        table = store.read_table(asset, part.domain, part.cutoff_key)
        future_ids: set[str] = set()
        side = AGENT_READ_SIDE_TABLES.get(asset)
        if (asset in AGENT_VISIBLE or side) and store.exists("future_window", part.domain, part.cutoff_key):
            future_ids = set(store.read_table("future_window", part.domain, part.cutoff_key).column("arxiv_id").to_pylist())
        problems = table_problems(asset, table, future_ids)
        if side and store.exists(side[0], part.domain, part.cutoff_key):
            problems += [
                f"{side[0]}: {p}"
                for p in table_problems(side[1], store.read_table(side[0], part.domain, part.cutoff_key), future_ids)
            ]
        return dg.AssetCheckResult(
            passed=not problems,
            metadata={"rows": table.num_rows, "problems": dg.MetadataValue.json(problems), "future_ids_checked": len(future_ids)},
        )

    return _check


def asset_checks(asset_names: list[str]) -> list[dg.AssetChecksDefinition]:
    """One invariants check per asset that stores a table."""
    return [_check_for(name) for name in asset_names if name in ASSET_MODELS or name == "knowledge_base"]

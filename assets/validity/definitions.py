"""Validity report asset: controls, gold stability, claim bank and duplicates per family,
checked against `core/thresholds.yaml`; an asset check fails the release when
a threshold is missed."""

import json

import dagster as dg
import pyarrow as pa

from assets.artifacts.controls import control_attribution
from assets.artifacts.tuples import sources_from_view
from assets.families.registry import get_family
from assets.judging.scoring import score_answers
from assets.knowledge_base.definitions import open_view
from assets.partitions import DOMAIN_CUTOFF_PARTITIONS
from assets.stage import current_partition, md_table
from assets.validity.controls import control_answers
from assets.validity.coverage import candidate_coverage
from assets.validity.report import control_check_rows, summary_line, validity_rows
from core.records import Failure, GoldTarget, Score, ScreenedPaper, Signal, Task, TaskRating
from core.thresholds import Thresholds
from resources.embeddings import EmbeddingResource
from resources.lance import LanceResource
from resources.storage import StorageResource


@dg.asset(
    partitions_def=DOMAIN_CUTOFF_PARTITIONS,
    group_name="evaluation",
    kinds={"parquet", "python"},
    deps=["tasks", "task_ranking", "judge_scores", "research_signals", "future_window", "corpus_snapshot", "knowledge_base"],
)
def validity_report(
    context: dg.AssetExecutionContext, storage: StorageResource, lance: LanceResource, embeddings: EmbeddingResource
) -> dg.MaterializeResult:
    """One row per family of the released tasks: the control answers' scores (stated gold,
    the random line, empty, every option, first option, another task's gold) next to each
    method's, gold top-1 stability, claim-bank verification, measure agreement, duplicates,
    tasks dropped and why, and every threshold it misses. Side table `validity_controls`:
    the controls' scores per task; `validity_control_checks`: per family and no-judgement control,
    its excess over chance with the one-sided 95% lower bound the statistical gate reads
    (assets/validity/statistics.py; gated from `min_gated_tasks` released tasks). Direction and
    planning rows also hold the share of window papers the candidate directions cover and the
    window's growing themes no candidate captures (assets/validity/coverage.py). Query:
    `SELECT * FROM validity_report` / `validity_control_checks`; CLI: `foresci validity`."""
    part = current_partition(context)
    store = storage.store()
    d, c = part.domain, part.cutoff_key
    th = Thresholds.load()
    failures = store.read_records("tasks_failures", d, c, Failure) if store.exists("tasks_failures", d, c) else []
    ratings = store.read_records("task_ranking", d, c, TaskRating)
    # released tasks and their golds as the release presents them (the position controls
    # read the presented order)
    tasks = store.read_records("presented_tasks", d, c, Task)  # the presented release (task_ranking)
    golds = store.read_records("presented_golds", d, c, GoldTarget)
    scores = store.read_records("judge_scores", d, c, Score)
    released = {r.task_id for r in ratings if r.released}
    shown = [t for t in tasks if t.task_id in released]
    controls = control_answers(shown, golds, draws=th.random_draws)
    control_scores, _ = score_answers(controls, shown, golds, embeddings.embedder().encode, {}, cutoff=part.cutoff)
    # attribution completeness of the gold, empty and generic controls (docs/xcientist.md)
    attribution = control_attribution(shown, golds, sources_from_view(open_view(part, lance, embeddings)))
    rows = validity_rows(tasks, ratings, golds, failures, scores, control_scores, th, attribution)
    coverage = candidate_coverage(
        store.read_records("research_signals", d, c, Signal),
        store.read_records("corpus_snapshot", d, c, ScreenedPaper),
        store.read_records("future_window", d, c, ScreenedPaper),
        part.cutoff,
    )
    for row in rows:  # the candidates' coverage of the window belongs to the families whose options they are
        options_are_candidates = get_family(row["family"]).candidate_coverage
        row["window_coverage"] = coverage["coverage"] if options_are_candidates else None
        row["uncaptured_themes"] = json.dumps(coverage["uncaptured_themes"]) if options_are_candidates else None
    store.write_records("validity_controls", d, c, control_scores, Score)
    checks = control_check_rows(rows, th)
    store.write_table(
        "validity_control_checks",
        d,
        c,
        pa.Table.from_pylist(checks)
        if checks
        else pa.table({"family": pa.array([], pa.string()), "control": pa.array([], pa.string())}),
    )
    path = store.write_table("validity_report", d, c, pa.Table.from_pylist(rows) if rows else pa.table({}))
    for row in rows:
        context.log.info(summary_line(row))
    return dg.MaterializeResult(
        metadata={
            "families": len(rows),
            "passed": sum(r["passed"] for r in rows),
            "summary": dg.MetadataValue.md("\n\n".join(summary_line(r) for r in rows)),
            "report": md_table(
                rows,
                [
                    "family",
                    "tasks_released",
                    "control_gold",
                    "control_random",
                    "control_empty",
                    "control_every_option",
                    "control_first_option",
                    "control_other_gold",
                    "best_method",
                    "best_method_fta",
                    "gold_stability",
                    "claim_bank_verified",
                    "attribution_controls",
                    "controls_gated",
                    "passed",
                    "notes",
                ],
                limit=20,
            ),
            "candidate_coverage_of_window": coverage["coverage"],
            "uncaptured_window_themes": md_table(coverage["uncaptured_themes"], ["phrase", "papers", "growth"], 10),
            "thresholds": dg.MetadataValue.json(th.__dict__),
            "path": dg.MetadataValue.path(path),
        }
    )


@dg.asset_check(
    asset="validity_report",
    name="validity_thresholds",
    partitions_def=DOMAIN_CUTOFF_PARTITIONS,
    description="every family of the release meets every threshold of core/thresholds.yaml",
)
def validity_thresholds(context: dg.AssetCheckExecutionContext, storage: StorageResource) -> dg.AssetCheckResult:
    part = current_partition(context)
    rows = storage.store().read_table("validity_report", part.domain, part.cutoff_key).to_pylist()
    problems = {r["family"]: r["problems"] for r in rows if not r["passed"]}
    return dg.AssetCheckResult(
        passed=bool(rows) and not problems, metadata={"families": len(rows), "problems": dg.MetadataValue.json(problems)}
    )

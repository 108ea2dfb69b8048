"""The foresci code location: assets, resources, jobs, sensors."""

from __future__ import annotations

import dagster as dg

from assets.agents.definitions import agent_answers
from assets.artifacts.definitions import answer_artifacts
from assets.audit.definitions import audit_queue
from assets.checks import asset_checks
from assets.corpus.definitions import (
    corpus_snapshot,
    corpus_volume,
    future_window,
    paper_fulltext,
    paper_metadata,
)
from assets.evidence.definitions import evidence_records, research_signals
from assets.export.definitions import hf_export
from assets.gold.definitions import gold_targets
from assets.idea_review.definitions import IDEA_REVIEW_ASSETS
from assets.judging.definitions import judge_scores
from assets.knowledge_base.definitions import knowledge_base
from assets.leaderboard.definitions import leaderboard
from assets.partitions import CUTOFF_PARTITIONS, DOMAIN_CUTOFF_PARTITIONS, IDEA_PARTITIONS
from assets.plugins import install_configured
from assets.ranking.definitions import task_ranking
from assets.release.definitions import release_package
from assets.tasks.definitions import tasks
from assets.taxonomy.definitions import taxonomy
from assets.validity.definitions import validity_report, validity_thresholds
from core.registry import load_registry
from core.visibility import AGENT_VISIBLE, visibility_of
from pipelines.evaluate_job import imported_evaluation, imported_evaluation_job
from pipelines.prospective import (
    PROSPECTIVE_ASSETS,
    PROSPECTIVE_JOBS,
    PROSPECTIVE_SCHEDULES,
    PROSPECTIVE_SENSORS,
)
from pipelines.release import full_release_job, release_card
from pipelines.resources import default_resources

# The composition root: the optional plugins this state directory enables ($FORESCI_HOME/plugins.yaml,
# assets/plugins.py) are registered before any run; the default registers none.
install_configured()

ALL_ASSETS = [
    corpus_snapshot,
    future_window,
    corpus_volume,
    paper_metadata,
    paper_fulltext,
    knowledge_base,
    taxonomy,
    evidence_records,
    research_signals,
    tasks,
    gold_targets,
    task_ranking,
    audit_queue,
    agent_answers,
    answer_artifacts,
    judge_scores,
    validity_report,
    release_package,
    hf_export,
    leaderboard,
]
# The idea-review family (ScholarIdeas + ScholarEval) in its `ideas` pseudo-domain: own job.
SEED_ASSETS = IDEA_REVIEW_ASSETS
ALL_CHECKS = asset_checks([a.key.to_user_string() for a in ALL_ASSETS]) + [validity_thresholds]

# Derived from core/visibility.py, where visibility is declared once.
AGENT_VISIBLE_ASSETS = sorted(a.key.to_user_string() for a in ALL_ASSETS if a.key.to_user_string() in AGENT_VISIBLE)
HIDDEN_ASSETS = sorted(a.key.to_user_string() for a in ALL_ASSETS if visibility_of(a.key.to_user_string()) == "hidden")

# One process per run. A partition's steps run one after another anyway (each reads the one
# before), and the default multiprocess executor starts a process per step that re-imports
# the code location (dagster, lancedb, litellm, sklearn, matplotlib: seconds each): a release
# launched from the UI took ~10x the CLI's wall time (benchmarks/results.md, "UI vs CLI").
RUN_EXECUTOR = dg.in_process_executor

release_job = dg.define_asset_job(
    "release_job",
    selection=dg.AssetSelection.assets(*ALL_ASSETS),
    partitions_def=DOMAIN_CUTOFF_PARTITIONS,
    description="Build one domain x cutoff release: corpus to leaderboard.",
    executor_def=RUN_EXECUTOR,
)

idea_review_job = dg.define_asset_job(
    "idea_review_job",
    selection=dg.AssetSelection.assets(*IDEA_REVIEW_ASSETS),
    partitions_def=IDEA_PARTITIONS,
    description="Build, answer and score the idea-review family (ScholarIdeas) for ideas up to a cutoff.",
    executor_def=RUN_EXECUTOR,
)


# Sensors start STOPPED: a fresh instance (or `make ui`) must not add partitions or launch
# runs by itself; turn them on in the UI (Automation) or `dagster sensor start`.
@dg.sensor(minimum_interval_seconds=300, default_status=dg.DefaultSensorStatus.STOPPED)
def default_cutoffs_sensor(context: dg.SensorEvaluationContext) -> dg.SensorResult:
    """Keeps the registry's default cutoffs present in the dynamic `cutoff` dimension."""
    existing = set(context.instance.get_dynamic_partitions(CUTOFF_PARTITIONS.name))
    missing = sorted(set(load_registry().default_cutoffs) - existing)
    requests = [CUTOFF_PARTITIONS.build_add_request(missing)] if missing else []
    return dg.SensorResult(dynamic_partitions_requests=requests)


defs = dg.Definitions(
    # release_card: over all partitions; imported_evaluation: an imported release in a partition dimension of its own
    assets=ALL_ASSETS + SEED_ASSETS + PROSPECTIVE_ASSETS + [release_card, imported_evaluation],
    asset_checks=ALL_CHECKS,  # prospective assets need a frozen package first
    jobs=[release_job, full_release_job, idea_review_job, *PROSPECTIVE_JOBS, imported_evaluation_job],
    schedules=PROSPECTIVE_SCHEDULES,
    sensors=[default_cutoffs_sensor, *PROSPECTIVE_SENSORS],
    resources=default_resources(),
    executor=RUN_EXECUTOR,  # also for "Materialize" on the asset graph (the implicit asset job)
)

"""`foresci evaluate` as a Dagster job: an imported release scored in a partition of its own.

A release in the ForeSci authors' format (their tasks.jsonl and hidden evaluation JSONL) is
not a domain x cutoff partition of ours: its tasks are never rebuilt and it may span several
domains and cutoffs. It gets its own dynamic partition dimension, `imported_release`, whose
key names the release by its files: `<name>-<sha256 of the two files' bytes, first 12 hex>`
(`release_partition_key`; name: the config's `name`, else the tasks file's folder name). A
partition therefore always means the same bytes; a changed file is a new partition, and
the asset refuses a partition key that is not its files' key (the message says which one).

The asset `imported_evaluation` (group "evaluation") is a thin shell over
`assets.release.evaluate.evaluate_release` -- the same import, knowledge bases per cutoff,
agents, scores and release controls as `foresci evaluate` -- and reports its output as
materialization metadata: the per family x agent score rows (a table, JSON, and one float
`fta/<family>/<agent>` per row, which the UI plots across materializations), the control
rows per family, the import counts, and the release's files and hashes. Its asset check
`controls_hold` fails (severity ERROR) where `foresci evaluate` exits 3: a family whose
controls miss the thresholds, or a task without gold.

Run it from the UI (Jobs -> imported_evaluation_job: add the partition key that
`foresci evaluate ... --partition-key` prints, then launch with the config below), or in one
command with `foresci evaluate ... --dagster` (adds the partition, runs the job in this
process and records it in the instance at $DAGSTER_HOME):

    ops:
      imported_evaluation:
        config: {release: path/to/tasks.jsonl, hidden: path/to/tasks_hidden_eval.jsonl,
                 agents: [momentum, "mine=path/to/agent.py:answer"]}
"""

# no `from __future__ import annotations`: Dagster resolves the Config class's field types at import
import hashlib
import json
import re
from pathlib import Path

import dagster as dg

from assets.stage import md_table
from core.visibility import visibility_tags
from resources.embeddings import EmbeddingResource

IMPORTED_RELEASE_PARTITIONS = dg.DynamicPartitionsDefinition(name="imported_release")
ASSET = "imported_evaluation"
CHECK = "controls_hold"
HASH_CHARS = 12


class ImportedEvaluationConfig(dg.Config):
    """What `foresci evaluate` takes: the release files, the agents, optional filters."""

    release: str  # their public tasks.jsonl
    hidden: str = ""  # their hidden evaluation JSONL; empty only with no_gold
    no_gold: bool = False  # answers only: nothing is scored
    agents: list[str] = ["momentum"]  # built-in method names or NAME=PATH:FUNCTION / NAME=module:function / NAME=URL
    domain: str = ""  # keep only this foresci domain
    cutoff: str = ""  # keep only this cutoff (YYYY-MM-DD)
    name: str = ""  # the release's name in its partition key; empty: the tasks file's folder name


def _slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-") or "release"


def release_partition_key(release: str | Path, hidden: str | Path | None = None, name: str = "") -> str:
    """`<name>-<first 12 hex of sha256(tasks bytes, hidden bytes)>` (module docstring)."""
    digest = hashlib.sha256()
    for path in (release, hidden):
        if path:
            digest.update(Path(path).read_bytes())
        digest.update(b"\0")
    return f"{_slug(name or Path(release).resolve().parent.name)}-{digest.hexdigest()[:HASH_CHARS]}"


def _file_sha(path: str) -> str:
    return hashlib.sha256(Path(path).read_bytes()).hexdigest() if path else ""


def evaluation_metadata(ev, config: ImportedEvaluationConfig) -> dict:
    """The materialization metadata of an Evaluation (assets/release/evaluate.py)."""
    score_cols = ["family", "agent", "n", "fta", "fta_precision", "fta_recall", "trace_linkage", "reference_validity"]
    control_cols = [
        "family",
        "n",
        "gold",
        "other_gold",
        "empty",
        "first_option",
        "every_option",
        "random",
        "ref_wins",
        "problems",
    ]
    meta: dict = {
        "evaluation": dg.MetadataValue.json(ev.document()),  # what `foresci evaluate --format json` prints
        "scores": md_table(ev.rows, score_cols, limit=len(ev.rows) or 1),
        "scores_json": dg.MetadataValue.json(ev.rows),
        "controls": md_table(ev.controls, control_cols, limit=len(ev.controls) or 1),
        "controls_json": dg.MetadataValue.json(ev.controls),
        "failed_families": ", ".join(ev.failed_families),
        "tasks": len(ev.result.tasks),
        "gold": len(ev.result.golds),
        "answers_only": ev.result.answers_only,
        "missing_gold": len(ev.result.missing_gold),
        "import_notes": len(ev.result.failures),
        "agent_failures": len(ev.failures),
        "agents": ", ".join(config.agents),
        "release": dg.MetadataValue.path(str(Path(config.release).resolve())),
        "release_sha256": _file_sha(config.release),
    }
    if config.hidden:
        meta["hidden"] = dg.MetadataValue.path(str(Path(config.hidden).resolve()))
        meta["hidden_sha256"] = _file_sha(config.hidden)
    if config.domain or config.cutoff:
        meta["filter"] = f"domain={config.domain or '*'} cutoff={config.cutoff or '*'}"
    for row in ev.rows:
        if row.get("fta") is not None:
            meta[f"fta/{row['family']}/{row['agent']}"] = float(row["fta"])
    return meta


@dg.asset(
    partitions_def=IMPORTED_RELEASE_PARTITIONS,
    group_name="evaluation",
    kinds={"python", "json"},
    tags=visibility_tags(ASSET),
    check_specs=[
        dg.AssetCheckSpec(
            CHECK,
            asset=ASSET,
            description=(
                "Every family's release controls hold (stated reference >= gold_min, the reference beats another "
                "task's reference on >= 90% of pairs, no judgement-free control above the chance line) and every "
                "task has gold: where `foresci evaluate` exits 3."
            ),
        )
    ],
)
def imported_evaluation(
    context: dg.AssetExecutionContext, config: ImportedEvaluationConfig, embeddings: EmbeddingResource
) -> dg.MaterializeResult:
    """Agents scored on a release in the ForeSci authors' format, in a partition of its own
    (`imported_release`, keyed by the release's name and file hash): the `foresci evaluate`
    path (import without rebuilding the tasks, each cutoff's knowledge base from the shipped
    corpus, the agents, foresci's scorers, the release controls). Metadata: per family x
    agent mean scores, the controls per family, the import counts; check `controls_hold`."""
    from assets.release.evaluate import evaluate_release

    expected = release_partition_key(config.release, config.hidden or None, config.name)
    if context.partition_key != expected:
        raise dg.Failure(
            description=f"partition {context.partition_key!r} is not this release's: its files' key is "
            f"{expected!r} (add that partition, or run `foresci evaluate ... --dagster`)"
        )
    ev = evaluate_release(
        config.release,
        config.hidden or None,
        list(config.agents),
        no_gold=config.no_gold,
        domain=config.domain or None,
        cutoff=config.cutoff or None,
        embed=embeddings.embedder().encode,
    )
    missing = [] if ev.result.answers_only else ev.result.missing_gold
    problems = {r["family"]: r["problems"] for r in ev.controls if r.get("problems")}
    context.log.info(
        f"{len(ev.result.tasks)} tasks, {len(ev.rows)} family x agent rows; controls fail for "
        f"{sorted(problems) or 'no family'}; {len(missing)} task(s) without gold"
    )
    return dg.MaterializeResult(
        metadata=evaluation_metadata(ev, config),
        check_results=[
            dg.AssetCheckResult(
                check_name=CHECK,
                passed=not problems and not missing,
                severity=dg.AssetCheckSeverity.ERROR,
                metadata={"failed_families": json.dumps(problems), "missing_gold": json.dumps(missing[:50])},
            )
        ],
    )


imported_evaluation_job = dg.define_asset_job(
    "imported_evaluation_job",
    selection=dg.AssetSelection.assets(imported_evaluation),
    partitions_def=IMPORTED_RELEASE_PARTITIONS,
    description="Score agents on a release in the ForeSci authors' format (foresci evaluate), one partition per "
    "release (name + file hash).",
    executor_def=dg.in_process_executor,
)


def evaluation_document(result) -> dict:
    """The evaluation document an `imported_evaluation_job` run recorded (its `evaluation` metadata)."""
    [event] = result.get_asset_materialization_events()
    return event.event_specific_data.materialization.metadata["evaluation"].value


def run_imported_evaluation(instance: dg.DagsterInstance, config: ImportedEvaluationConfig, *, resources=None):
    """Add the release's partition and run `imported_evaluation_job` in this process, recorded
    in `instance`. Returns (partition key, the job's result)."""
    from pipelines.resources import default_resources

    key = release_partition_key(config.release, config.hidden or None, config.name)
    if key not in instance.get_dynamic_partitions(IMPORTED_RELEASE_PARTITIONS.name):
        instance.add_dynamic_partitions(IMPORTED_RELEASE_PARTITIONS.name, [key])
    job = dg.Definitions(
        assets=[imported_evaluation], jobs=[imported_evaluation_job], resources=resources or default_resources()
    ).resolve_job_def("imported_evaluation_job")
    run_config = {"ops": {ASSET: {"config": config.model_dump()}}, "loggers": {"console": {"config": {"log_level": "WARNING"}}}}
    return key, job.execute_in_process(run_config=run_config, instance=instance, partition_key=key, raise_on_error=False)

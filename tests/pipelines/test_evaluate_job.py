"""`imported_evaluation` (pipelines/evaluate_job.py): `foresci evaluate` as a Dagster job, in a
partition of its own per imported release, on the synthetic release in the ForeSci authors'
format. The knowledge bases are small ones (`assets.release.evaluate.cutoff_kb` replaced, as in
tests/pipelines/test_evaluate_cli.py); the instance is ephemeral or a temporary DAGSTER_HOME."""

from __future__ import annotations

import os

os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")

import json

import dagster as dg
import pytest

from pipelines.evaluate_job import (
    IMPORTED_RELEASE_PARTITIONS,
    ImportedEvaluationConfig,
    release_partition_key,
    run_imported_evaluation,
)
from tests.factories import AUTHORS_HIDDEN as HIDDEN
from tests.factories import AUTHORS_TASKS as TASKS
from tests.factories import small_kb_factory

RAG = "rag_and_retrieval_structuring"


@pytest.fixture(scope="module")
def kbs(tmp_path_factory):
    return small_kb_factory(tmp_path_factory.mktemp("kbs"))


@pytest.fixture
def patched(kbs, tmp_path, monkeypatch):
    monkeypatch.setattr("assets.release.evaluate.cutoff_kb", kbs)
    monkeypatch.setenv("FORESCI_HOME", str(tmp_path / "fh"))
    return tmp_path


def materialization(result):
    [event] = result.get_asset_materialization_events()
    return event.event_specific_data.materialization.metadata


def check_result(result):
    [check] = [e.event_specific_data for e in result.all_events if e.event_type_value == "ASSET_CHECK_EVALUATION"]
    return check


def test_the_partition_key_names_the_release_by_its_files(tmp_path):
    key = release_partition_key(TASKS, HIDDEN)
    assert key.startswith("foresci-release-") and len(key.rsplit("-", 1)[1]) == 12
    assert release_partition_key(TASKS, HIDDEN) == key and release_partition_key(TASKS, HIDDEN, "Authors v1") == (
        "authors-v1-" + key.rsplit("-", 1)[1]
    )
    changed = tmp_path / "hidden.jsonl"
    changed.write_text(HIDDEN.read_text().replace("0.9", "0.8", 1))
    assert release_partition_key(TASKS, changed) != key  # other bytes: another partition
    assert release_partition_key(TASKS, None) != key


def test_the_job_reports_family_x_agent_rows_and_the_controls(patched):
    instance = dg.DagsterInstance.ephemeral()
    config = ImportedEvaluationConfig(release=str(TASKS), hidden=str(HIDDEN), agents=["momentum", "retrieval"], domain=RAG)
    key, result = run_imported_evaluation(instance, config)
    assert result.success and key in instance.get_dynamic_partitions(IMPORTED_RELEASE_PARTITIONS.name)
    meta = materialization(result)
    rows = {(r["family"], r["agent"]): r for r in meta["scores_json"].value}
    assert set(rows) == {(f, a) for f in ("venue", "bottleneck") for a in ("momentum", "retrieval")}
    assert rows[("venue", "retrieval")]["n"] == 2
    for (family, agent), row in rows.items():  # one plottable float per family x agent
        assert meta[f"fta/{family}/{agent}"].value == pytest.approx(row["fta"])
    assert {c["family"] for c in meta["controls_json"].value} == {"venue", "bottleneck"}
    assert (meta["tasks"].value, meta["gold"].value, meta["missing_gold"].value) == (3, 3, 0)
    assert meta["filter"].value == f"domain={RAG} cutoff=*" and len(meta["release_sha256"].value) == 64
    assert "| family | agent |" in meta["scores"].value
    doc = meta["evaluation"].value  # what `foresci evaluate --format json` prints
    assert doc["scores"] == meta["scores_json"].value and doc["import"]["tasks"] == 3
    check = check_result(result)
    assert check.check_name == "controls_hold" and check.passed


def test_the_check_fails_where_foresci_evaluate_exits_3(patched, tmp_path):
    rows = HIDDEN.read_text().splitlines()
    hidden = tmp_path / "hidden.jsonl"
    hidden.write_text("\n".join(r for r in rows if json.loads(r)["task_id"] != "RTLX-0011") + "\n")
    instance = dg.DagsterInstance.ephemeral()
    config = ImportedEvaluationConfig(release=str(TASKS), hidden=str(hidden), agents=["momentum"], domain=RAG)
    _, result = run_imported_evaluation(instance, config)
    assert result.success  # the scores are recorded; the check says they are not a valid leaderboard
    check = check_result(result)
    assert not check.passed and check.severity == dg.AssetCheckSeverity.ERROR
    assert json.loads(check.metadata["missing_gold"].value) == ["RTLX-0011"]
    assert materialization(result)["missing_gold"].value == 1


def test_a_partition_key_that_is_not_the_releases_files_is_refused(patched):
    from pipelines.evaluate_job import imported_evaluation, imported_evaluation_job
    from pipelines.resources import default_resources

    instance = dg.DagsterInstance.ephemeral()
    instance.add_dynamic_partitions(IMPORTED_RELEASE_PARTITIONS.name, ["some-other-release"])
    job = dg.Definitions(
        assets=[imported_evaluation], jobs=[imported_evaluation_job], resources=default_resources()
    ).resolve_job_def("imported_evaluation_job")
    config = {"ops": {"imported_evaluation": {"config": {"release": str(TASKS), "hidden": str(HIDDEN)}}}}
    result = job.execute_in_process(
        run_config=config, instance=instance, partition_key="some-other-release", raise_on_error=False
    )
    assert not result.success
    [failure] = [e for e in result.all_events if e.event_type_value == "STEP_FAILURE"]
    assert release_partition_key(TASKS, HIDDEN) in failure.event_specific_data.error.message


def test_foresci_evaluate_dagster_runs_the_job_and_prints_the_same(patched, monkeypatch, capsys):
    from pipelines.cli import main

    monkeypatch.setenv("DAGSTER_HOME", str(patched / "dh"))
    args = [
        "evaluate",
        "--release",
        str(TASKS),
        "--hidden",
        str(HIDDEN),
        "--agent",
        "momentum",
        "--domain",
        RAG,
        "--format",
        "json",
    ]
    assert main(args) == 0
    direct = json.loads(capsys.readouterr().out)
    assert main([*args, "--dagster"]) == 0
    out, err = capsys.readouterr()
    key = release_partition_key(TASKS, HIDDEN)
    assert f"partition {key}" in err
    via_dagster = json.loads(out)
    assert via_dagster == direct  # the same import, agents, scores and controls
    assert main(["evaluate", "--release", str(TASKS), "--hidden", str(HIDDEN), "--agent", "momentum", "--partition-key"]) == 0
    assert capsys.readouterr().out.strip() == key
    instance = dg.DagsterInstance.get()
    assert key in instance.get_dynamic_partitions(IMPORTED_RELEASE_PARTITIONS.name)

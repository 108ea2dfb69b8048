"""The distributed configurations (docs/scaling.md) against Dagster's own config schemas, with
no cluster and no broker: the k8s executor's config, the k8s instance (`deploy/k8s/dagster.yaml`:
storage, K8sRunLauncher, run queue, pools), the Helm values agreeing with that instance, and the
celery executor's config; and `pipelines.distributed` loads with either executor."""

import re
import subprocess
import sys

import pytest
import yaml
from dagster._config import process_config
from dagster._core.instance.config import dagster_instance_config

from core.paths import REPO_ROOT

DEPLOY = REPO_ROOT / "deploy"


def _valid(config_type, value) -> dict:
    result = process_config(config_type, value)
    assert result.success, [e.message for e in result.errors]
    return result.value


def _snake(name: str) -> str:
    return re.sub(r"(?<!^)([A-Z])", r"_\1", name).lower()


def test_k8s_executor_config_validates_against_the_executor_schema():
    from dagster_k8s import k8s_job_executor

    from pipelines.distributed import k8s_executor_config

    config = _valid(k8s_job_executor.config_schema.config_type, k8s_executor_config())
    assert config["job_namespace"] == "foresci" and config["max_concurrent"] >= 1
    assert set(config["per_step_k8s_config"]) <= {"agent_answers", "judge_scores"}
    # a typo is caught by the same check (the schema is strict)
    bad = process_config(k8s_job_executor.config_schema.config_type, {**k8s_executor_config(), "max_concurent": 2})
    assert not bad.success


def test_k8s_instance_validates_and_its_run_launcher_config_too():
    from dagster_k8s import K8sRunLauncher

    instance, _ = dagster_instance_config(str(DEPLOY / "k8s"), "dagster.yaml")
    assert set(instance["storage"]) == {"postgres"}  # SQLite cannot be shared between pods
    launcher = instance["run_launcher"]
    assert (launcher["module"], launcher["class"]) == ("dagster_k8s", "K8sRunLauncher")
    _valid(K8sRunLauncher.config_type(), launcher["config"])
    assert instance["concurrency"]["pools"]["default_limit"] >= 1


def test_helm_values_render_the_same_run_launcher_queue_and_pools_as_the_plain_instance():
    values = yaml.safe_load((DEPLOY / "helm" / "values.yaml").read_text())
    instance = yaml.safe_load((DEPLOY / "k8s" / "dagster.yaml").read_text())
    assert values["runLauncher"]["type"] == instance["run_launcher"]["class"]
    helm_launcher = values["runLauncher"]["config"]["k8sRunLauncher"]
    plain = instance["run_launcher"]["config"]
    for key, value in helm_launcher.items():
        if key in ("envConfigMaps", "envSecrets"):  # the chart takes [{name: x}], the instance [x]
            value = [item["name"] for item in value]
        if key == "runK8sConfig":
            value = {_snake(k): v for k, v in value.items()}
        assert plain[_snake(key)] == value, key
    assert values["dagsterDaemon"]["runCoordinator"]["type"] == instance["run_coordinator"]["class"]
    runs = values["concurrency"]["runs"]
    assert runs["maxConcurrentRuns"] == instance["concurrency"]["runs"]["max_concurrent_runs"]
    assert runs["tagConcurrencyLimits"] == instance["concurrency"]["runs"]["tag_concurrency_limits"]
    assert values["concurrency"]["pools"]["defaultLimit"] == instance["concurrency"]["pools"]["default_limit"]
    (deployment,) = values["dagster-user-deployments"]["deployments"]
    assert deployment["dagsterApiGrpcArgs"] == ["--module-name", "pipelines.distributed"]
    assert {"name": "FORESCI_EXECUTOR", "value": "k8s"} in deployment["env"]


def test_celery_executor_config_validates():
    from dagster_celery import celery_executor

    from pipelines.distributed import celery_executor_config

    config = _valid(celery_executor.config_schema.config_type, celery_executor_config())
    assert config["broker"].startswith("redis://")


@pytest.mark.slow  # two fresh interpreters importing the code location
def test_the_distributed_location_loads_with_each_executor():
    code = (
        "from pipelines.distributed import defs; job = defs.resolve_job_def('release_job'); "
        "print(job.executor_def.name, len(defs.resolve_asset_graph().get_all_asset_keys()))"
    )
    procs = {
        kind: subprocess.Popen(
            [sys.executable, "-c", code],
            cwd=REPO_ROOT,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            env={
                "PATH": "/usr/bin:/bin",
                "FORESCI_EXECUTOR": kind,
                "PYTHONPATH": str(REPO_ROOT),
                "LITELLM_LOCAL_MODEL_COST_MAP": "True",
                "HF_HUB_OFFLINE": "1",
            },
        )
        for kind in ("celery", "k8s")
    }
    for kind, proc in procs.items():
        out, err = proc.communicate(timeout=300)
        assert proc.returncode == 0, err[-2000:]
        name, assets = out.split()
        assert name == kind and int(assets) >= 18


def test_the_default_location_stays_in_process():
    import dagster as dg

    from pipelines.definitions import defs

    assert defs.resolve_job_def("release_job").executor_def is dg.in_process_executor

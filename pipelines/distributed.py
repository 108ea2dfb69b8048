"""The code location for builds that outgrow one machine (docs/scaling.md).

The same assets, checks, resources and `release_job` as `pipelines.definitions`, but every
step runs on a Dagster distributed executor instead of in the run's process:

* `FORESCI_EXECUTOR=celery` (default): each step is a celery task on the `dagster` queue,
  picked up by `celery -A dagster_celery.app worker` processes on any host that can reach the
  broker (Redis), the Dagster instance (shared `DAGSTER_HOME` on one host, Postgres across
  hosts) and the warehouse (local folder on one host, `s3://` across hosts).
  Broker and result backend: `FORESCI_CELERY_BROKER` / `FORESCI_CELERY_BACKEND`.
* `FORESCI_EXECUTOR=k8s`: each step is a Kubernetes Job (dagster-k8s), configured by
  `deploy/k8s/executor.yaml`; runs are launched as pods by the `K8sRunLauncher` of
  `deploy/k8s/dagster.yaml` / `deploy/helm/values.yaml`.

Workers import this module too (the step's job is reconstructed from it), so they must see
the same `FORESCI_*` environment. The default location (`pipelines.definitions`) stays
in-process: on one machine a process per step only adds imports (benchmarks/results.md).
"""

from __future__ import annotations

import os

import dagster as dg
import yaml

from core.paths import REPO_ROOT
from pipelines.definitions import ALL_ASSETS, ALL_CHECKS, release_job
from pipelines.resources import default_resources

K8S_EXECUTOR_CONFIG = REPO_ROOT / "deploy" / "k8s" / "executor.yaml"
DEFAULT_BROKER = "redis://localhost:6379/0"


def celery_executor_config() -> dict:
    broker = os.environ.get("FORESCI_CELERY_BROKER", DEFAULT_BROKER)
    return {
        "broker": broker,
        "backend": os.environ.get("FORESCI_CELERY_BACKEND", broker),
        # a step runs minutes, not milliseconds: one task per worker at a time, acknowledged
        # when done, so a worker that dies mid-step gives its task back to the queue
        "config_source": {"worker_prefetch_multiplier": 1, "task_acks_late": True},
    }


def k8s_executor_config() -> dict:
    return yaml.safe_load(K8S_EXECUTOR_CONFIG.read_text()) or {}


def distributed_executor(kind: str | None = None) -> dg.ExecutorDefinition:
    kind = kind or os.environ.get("FORESCI_EXECUTOR", "celery")
    if kind == "celery":
        from dagster_celery import celery_executor

        return celery_executor.configured(celery_executor_config(), name="celery")
    if kind == "k8s":
        from dagster_k8s import k8s_job_executor

        return k8s_job_executor.configured(k8s_executor_config(), name="k8s")
    raise ValueError(f"FORESCI_EXECUTOR must be celery or k8s, not {kind!r}")


EXECUTOR = distributed_executor()

distributed_release_job = dg.define_asset_job(
    release_job.name,
    selection=release_job.selection,
    partitions_def=release_job.partitions_def,
    description=f"{release_job.description} Steps run on the {EXECUTOR.name} executor.",
    executor_def=EXECUTOR,
)

defs = dg.Definitions(
    assets=ALL_ASSETS,
    asset_checks=ALL_CHECKS,
    jobs=[distributed_release_job],
    resources=default_resources(),
    executor=EXECUTOR,
)

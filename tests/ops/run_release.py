"""Run `release_job` of a code location for one partition, in this process as its run
coordinator (as `dagster job launch` would): with `pipelines.definitions` every step runs
here; with `pipelines.distributed` (FORESCI_EXECUTOR=celery) every step is sent to the celery
workers. Resources are set through run config, so the workers use the same folders. Prints one
JSON line with the outcome.

    python -m tests.ops.run_release MODULE DOMAIN CUTOFF ROOT CORPUS_DIR
"""

from __future__ import annotations

import json
import sys
import time


def run_config(root: str, corpus_dir: str) -> dict:
    llm = {"model": "", "cache_dir": f"{root}/llm_cache"}
    return {
        "resources": {
            "storage": {"config": {"root": f"{root}/warehouse", "duckdb_path": f"{root}/foresci.duckdb"}},
            "lance": {"config": {"uri": f"{root}/lancedb"}},
            "corpus_source": {"config": {"shipped_dir": corpus_dir}},
            "llm": {"config": llm},
            "judge_llm": {"config": llm},
        },
        "loggers": {"console": {"config": {"log_level": "WARNING"}}},
    }


def main(module: str, domain: str, cutoff: str, root: str, corpus_dir: str) -> dict:
    import dagster as dg
    from dagster._core.definitions.reconstruct import ReconstructableRepository

    from assets.partitions import partition_key
    from core.paths import REPO_ROOT
    from pipelines.instance import init_instance

    start = time.time()
    instance, _ = init_instance([cutoff])
    job = ReconstructableRepository.for_module(module, "defs", working_directory=str(REPO_ROOT)).get_reconstructable_job(
        "release_job"
    )
    key = partition_key(domain, cutoff)
    tags = {"dagster/partition": key, "dagster/partition/cutoff": cutoff, "dagster/partition/domain": domain}
    with dg.execute_job(job, instance, run_config=run_config(root, corpus_dir), tags=tags, raise_on_error=False) as result:
        failed = [ev.step_key for ev in result.all_events if ev.event_type_value == "STEP_FAILURE"]
        hosts = sorted(
            {
                str(ev.event_specific_data.metadata["Celery worker"].value)
                for ev in result.all_events
                if ev.event_type_value == "ENGINE_EVENT"
                and ev.event_specific_data
                and "Celery worker" in (ev.event_specific_data.metadata or {})
            }
        )
        return {
            "module": module,
            "domain": domain,
            "cutoff": cutoff,
            "success": result.success,
            "failed_steps": failed,
            "run_id": result.run_id,
            "celery_workers": hosts,
            "seconds": round(time.time() - start, 1),
        }


if __name__ == "__main__":
    print(json.dumps(main(*sys.argv[1:6])), flush=True)

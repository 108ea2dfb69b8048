"""Partition runs: one domain x cutoff through `release_job`, in this process or in workers.

`foresci materialize`, `foresci demo` and the benchmark release (`pipelines/release.py`,
`foresci release`, `make release`) all build partitions through here:

* `materialize_partition`: one run of `release_job` in this process, recorded in the Dagster
  instance at $DAGSTER_HOME (so it shows in `make ui`), optionally with a line per stage;
* `build_partitions`: several partitions, one after another in this process (`workers=1`: the
  demo, with its per-stage lines), or at most `workers` at a time, each in its own process
  (`python -m pipelines.runs DOMAIN CUTOFF`, `pipelines.release.run_in_workers`): a partition's
  steps run one after another (each reads the one before), so two partitions side by side are
  what uses two cores. Each worker initialises the instance under its lock
  (`pipelines.instance`), so concurrent runs on one home are safe.
"""

from __future__ import annotations

import json
import os
import sys
import time
from collections.abc import Callable, Sequence

os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")  # as the CLI: litellm reads no cost map from the network

from pipelines.release import PartitionRun, run_in_workers  # noqa: E402


def release_job_for(resources=None):
    """`release_job` of the code location (runs show under that name in the UI, not as an
    unnamed `__ASSET_JOB`), bound to `resources` (default: the code location's)."""
    import dagster as dg

    from pipelines.definitions import ALL_ASSETS, ALL_CHECKS, release_job
    from pipelines.resources import default_resources

    return dg.Definitions(
        assets=ALL_ASSETS, asset_checks=ALL_CHECKS, jobs=[release_job], resources=resources or default_resources()
    ).resolve_job_def("release_job")


def materialize_partition(
    instance, domain: str, cutoff: str, *, resources=None, quiet: bool = True, progress: bool = False, indent: str = ""
):
    """Run `release_job` for one domain x cutoff partition; returns the result. With
    `progress`, the stages on stderr: a rich progress bar on a terminal, else one line per finished
    stage ("[3/17] taxonomy … 754 nodes (12.3 s, peak 912 MiB)"; `pipelines.progress.stage_listener`)."""
    import uuid

    from assets.partitions import partition_key
    from pipelines.definitions import ALL_ASSETS
    from pipelines.progress import close_listener, stage_listener

    run_config = {"loggers": {"console": {"config": {"log_level": "WARNING" if quiet else "INFO"}}}}
    run_id = str(uuid.uuid4())
    listener = None
    if progress:
        listener = stage_listener([a.key.to_user_string() for a in ALL_ASSETS], indent=indent)
        instance.add_event_listener(run_id, listener)
    try:
        return release_job_for(resources).execute_in_process(
            run_config=run_config,
            instance=instance,
            partition_key=partition_key(domain, cutoff),
            run_id=run_id,
            raise_on_error=False,
        )
    finally:
        close_listener(listener)


def step_seconds(result) -> dict[str, float]:
    """Seconds per asset step of a finished in-process run."""
    return {
        ev.step_key: round(ev.event_specific_data.duration_ms / 1000, 2)
        for ev in result.all_events
        if ev.event_type_value == "STEP_SUCCESS"
    }


def slowest(steps: dict[str, float], n: int = 3) -> str:
    return ", ".join(f"{k} {v:.0f}s" for k, v in sorted(steps.items(), key=lambda kv: -kv[1])[:n])


def build_partitions(
    instance,
    partitions: Sequence[tuple[str, str]],
    *,
    workers: int = 1,
    say: Callable[[str], None] | None = None,
    stop_on_failure: bool = False,
) -> list[PartitionRun]:
    """Build `partitions` ((domain, cutoff) pairs, in order); one `PartitionRun` each.

    `workers=1`: one after another in this process, each stage's line under the partition's
    ("[1/4] llm_agent @ 2025-12-31 ..."), stopping at the first failure when `stop_on_failure`.
    `workers>1`: at most that many worker processes at once (`pipelines.release.run_in_workers`;
    each partition's stage lines go to its log file)."""
    warn = say or (lambda line: print(line, file=sys.stderr, flush=True))
    say = say or (lambda line: print(line, flush=True))
    if workers > 1:
        return run_in_workers(partitions, workers=workers, say=say)
    runs = []
    for i, (domain, cutoff) in enumerate(partitions, start=1):
        t0 = time.time()
        say(f"[{i}/{len(partitions)}] {domain} @ {cutoff} ...")
        result = materialize_partition(instance, domain, cutoff, progress=True, indent="    ")
        run = PartitionRun(domain, cutoff, result.success, round(time.time() - t0, 1), step_seconds(result), result.run_id)
        runs.append(run)
        if not run.success:
            warn("    FAILED: see the run in the UI (make ui)")
            if stop_on_failure:
                break
            continue
        say(f"    done in {run.seconds:.0f}s (slowest: {slowest(run.steps)})")
    return runs


def worker_main(domain: str, cutoff: str) -> dict:
    """One partition in this process (a `build_partitions` worker): stage lines on stderr, one
    JSON line with the outcome on stdout."""
    from pipelines.instance import init_instance

    start = time.time()
    instance, _ = init_instance([cutoff])
    result = materialize_partition(instance, domain, cutoff, progress=True)
    return {
        "domain": domain,
        "cutoff": cutoff,
        "success": result.success,
        "run_id": result.run_id,
        "seconds": round(time.time() - start, 1),
        "steps": step_seconds(result),
    }


if __name__ == "__main__":
    print(json.dumps(worker_main(*sys.argv[1:3])), flush=True)

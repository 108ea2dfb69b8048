"""UI vs CLI: wall time of one release partition built by `foresci materialize` and by a run of
`release_job` launched through the Dagster webserver's GraphQL API (what the UI's
"Materialize" button does: queued run, daemon, run worker, the job's executor).

Both share one FORESCI_HOME and DAGSTER_HOME. A first CLI run warms the caches (embeddings,
phrases); the timed runs are then UI, CLI, so both see warm caches.
Writes benchmarks/results/operations.{json,md}.

    .venv/bin/python benchmarks/ui_bench.py [--domain D] [--cutoff 2025-12-31]
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from datetime import date
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
RESULTS_DIR = ROOT / "benchmarks" / "results"
BIN = Path(sys.executable).parent


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def cli_run(env: dict, domain: str, cutoff: str) -> float:
    t0 = time.time()
    subprocess.run(
        [str(BIN / "foresci"), "materialize", "--domain", domain, "--cutoff", cutoff],
        env=env,
        cwd=ROOT,
        check=True,
        capture_output=True,
        text=True,
    )
    return time.time() - t0


def ui_run(env: dict, domain: str, cutoff: str) -> dict:
    """Start `dagster dev` (own session: SIGTERM stops every child), submit release_job for the
    partition over GraphQL, wait for the run to finish; stop the server."""
    from dagster_graphql import DagsterGraphQLClient

    port = free_port()

    # default SIGINT/SIGTERM in the server even when this script runs under `&` or nohup
    # (an inherited SIG_IGN would survive exec and SIGTERM would not stop dagster dev)
    def _default_signals():
        signal.signal(signal.SIGINT, signal.SIG_DFL)
        signal.signal(signal.SIGTERM, signal.SIG_DFL)

    server = subprocess.Popen(
        [str(BIN / "dagster"), "dev", "-h", "127.0.0.1", "-p", str(port), "-w", "workspace.yaml"],
        env=env,
        cwd=ROOT,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
        preexec_fn=_default_signals,
    )
    try:
        client = DagsterGraphQLClient("127.0.0.1", port_number=port)
        deadline = time.time() + 300
        while True:  # the code location loads in a few seconds (more on a loaded machine)
            try:
                client._execute("{ version }")
                break
            except Exception:  # noqa: BLE001 - not up yet
                if time.time() > deadline:
                    raise
                time.sleep(1)
        key = f"{cutoff}|{domain}"  # multi-partition key: dimensions sorted by name
        # the tags the UI's launch dialog sets for a multi-partition
        tags = {"dagster/partition": key, "dagster/partition/cutoff": cutoff, "dagster/partition/domain": domain}
        t0 = time.time()
        run_id = client.submit_job_execution("release_job", tags=tags)
        while (status := client.get_run_status(run_id).value) not in ("SUCCESS", "FAILURE", "CANCELED"):
            time.sleep(1)
        wall = time.time() - t0
        import dagster as dg

        os.environ["DAGSTER_HOME"] = env["DAGSTER_HOME"]
        with dg.DagsterInstance.get() as instance:
            stats = instance.get_run_stats(run_id)
            step_keys = {e.step_key for e in instance.all_logs(run_id) if e.step_key}
    finally:
        os.killpg(server.pid, signal.SIGTERM)
        try:
            server.wait(timeout=120)
        except subprocess.TimeoutExpired:
            os.killpg(server.pid, signal.SIGKILL)
            server.wait(timeout=30)
    if status != "SUCCESS":
        raise RuntimeError(f"UI run {run_id} ended {status}")
    return {
        "submit_to_finish_s": round(wall, 1),
        "run_start_to_end_s": round(stats.end_time - stats.start_time, 1),
        "steps": len(step_keys),
        "run_id": run_id,
    }


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--domain", default="rag_and_retrieval_structuring")  # the smallest shipped corpus
    parser.add_argument("--cutoff", default="2025-12-31")
    args = parser.parse_args()
    tmp = Path(tempfile.mkdtemp(prefix="ui_bench_"))
    try:
        env = dict(
            os.environ, FORESCI_HOME=str(tmp / "foresci"), DAGSTER_HOME=str(tmp / "dagster"), LITELLM_LOCAL_MODEL_COST_MAP="True"
        )
        Path(env["DAGSTER_HOME"]).mkdir(parents=True)
        shutil.copy(ROOT / "dagster.yaml", Path(env["DAGSTER_HOME"]) / "dagster.yaml")  # as `make ui`
        print("warm-up CLI run ...", flush=True)
        cold = cli_run(env, args.domain, args.cutoff)
        print("timed UI run ...", flush=True)
        ui = ui_run(env, args.domain, args.cutoff)
        print(f"  {ui}\ntimed CLI run ...", flush=True)
        cli = cli_run(env, args.domain, args.cutoff)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    result = {
        "date": date.today().isoformat(),
        "domain": args.domain,
        "cutoff": args.cutoff,
        "cli_cold_s": round(cold, 1),
        "cli_warm_s": round(cli, 1),
        "ui": ui,
        "ui_over_cli": round(ui["submit_to_finish_s"] / cli, 2),
    }
    RESULTS_DIR.mkdir(exist_ok=True)
    (RESULTS_DIR / "operations.json").write_text(json.dumps(result, indent=2))
    (RESULTS_DIR / "operations.md").write_text(f"""## Operations: a release from the UI vs the CLI

Measured {result["date"]} with `benchmarks/ui_bench.py` (one partition, {args.domain} @ {args.cutoff},
offline, shared 2-core machine; other work was running, so expect a few seconds of noise).
The UI run is `release_job` submitted through the webserver's GraphQL API (`dagster dev`:
queued run coordinator, daemon, run worker), as the UI's Materialize button does; the CLI
run is `foresci materialize`, which runs the same `release_job` in process.
Target: UI within 1.5x of the CLI.

| run | wall seconds |
|---|---|
| CLI, cold caches (warm-up) | {result["cli_cold_s"]} |
| CLI, warm (`foresci materialize`, after the UI run) | {result["cli_warm_s"]} |
| UI (GraphQL submit to run finished) | {ui["submit_to_finish_s"]} |
| UI run itself (run start to end, {ui["steps"]} steps) | {ui["run_start_to_end_s"]} |

UI / CLI: **{result["ui_over_cli"]}x**. Before, `release_job` used Dagster's default
multiprocess executor (a process per step, each re-importing the code location); the
issue measured ~10x. Every job now runs in process (`RUN_EXECUTOR` in pipelines/definitions.py).
""")
    print(json.dumps(result, indent=2))


if __name__ == "__main__":
    main()

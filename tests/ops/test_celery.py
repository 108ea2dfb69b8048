"""Two partitions built through Dagster's celery executor: Redis on loopback as the broker,
two celery workers (separate processes, as on two hosts), and `pipelines.distributed` as the
code location. Their Parquet outputs equal a local in-process build's, record for record
(timings aside). Wall times are printed (-s) and recorded in benchmarks/results.md
("Celery: two workers vs local")."""

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pyarrow.parquet as pq
import pytest

from core.paths import REPO_ROOT
from tests.factories import sampled_shipped_corpus
from tests.ops.servers import VENV_BIN, redis_binary, redis_server, stop

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(redis_binary() is None, reason="redis-server not installed (apt-get install redis-server)"),
]
# every 8th shipped llm_agent paper: the smallest corpus whose partitions release tasks of every
# family, so agents, judging, validity and the release are compared too, not only the corpus side
PARTITIONS = [("llm_agent", "2025-09-30"), ("llm_agent", "2025-12-31")]
# columns that measure the run, not its result
TIMING_COLUMNS = {"latency_s", "latency", "seconds", "elapsed_s", "created_at", "built_at", "materialized_at"}


def _env(home: Path, **extra) -> dict:
    return {
        **os.environ,
        "DAGSTER_HOME": str(home),
        "FORESCI_HOME": str(home.parent / "foresci_state"),
        "LITELLM_LOCAL_MODEL_COST_MAP": "True",
        "HF_HUB_OFFLINE": "1",
        "PYTHONPATH": str(REPO_ROOT),
        "FORESCI_LLM_MODEL": "",
        "FORESCI_JUDGE_MODEL": "",
        **extra,
    }


def _build(module: str, env: dict, root: Path, corpus: Path, parallel: bool) -> tuple[list[dict], float]:
    """Each partition's run coordinator in its own process (all at once if `parallel`)."""
    start = time.time()

    def cmd(d, c):
        return [sys.executable, "-m", "tests.ops.run_release", module, d, c, str(root), str(corpus)]

    outs = []
    if parallel:
        procs = [
            subprocess.Popen(cmd(d, c), env=env, cwd=REPO_ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
            for d, c in PARTITIONS
        ]
        comms = [p.communicate(timeout=1800) for p in procs]
        outs = [(p.returncode, o, e) for p, (o, e) in zip(procs, comms)]
    else:
        for d, c in PARTITIONS:
            p = subprocess.run(cmd(d, c), env=env, cwd=REPO_ROOT, capture_output=True, text=True, timeout=1800)
            outs.append((p.returncode, p.stdout, p.stderr))
    results = [
        json.loads(o.strip().splitlines()[-1]) if rc == 0 and o.strip() else {"success": False, "stderr": e[-3000:]}
        for rc, o, e in outs
    ]
    return results, time.time() - start


def _records(warehouse: Path) -> dict[str, list]:
    """Every Parquet partition's rows, timing columns dropped, sorted (row order is not a result)."""
    tables = {}
    for path in sorted(warehouse.rglob("data.parquet")):
        table = pq.read_table(path)
        rows = table.drop_columns([c for c in table.column_names if c in TIMING_COLUMNS]).to_pylist()
        for row in rows:
            if isinstance(row.get("record_json"), str):
                doc = json.loads(row["record_json"])
                row["record_json"] = {k: v for k, v in doc.items() if k not in TIMING_COLUMNS}
        tables[str(path.relative_to(warehouse))] = sorted(json.dumps(r, sort_keys=True, default=str) for r in rows)
    return tables


def test_two_celery_workers_build_two_partitions_like_a_local_run(tmp_path):
    corpus = sampled_shipped_corpus(tmp_path / "corpus", 8)
    local_root, celery_root = tmp_path / "local", tmp_path / "celery"

    local_env = _env(tmp_path / "local_home")
    local, local_s = _build("pipelines.definitions", local_env, local_root, corpus, parallel=False)
    assert all(r["success"] for r in local), local

    with redis_server(tmp_path / "redis") as broker:
        env = _env(
            tmp_path / "celery_home",
            FORESCI_EXECUTOR="celery",
            FORESCI_CELERY_BROKER=f"{broker}/0",
            FORESCI_CELERY_BACKEND=f"{broker}/1",
        )
        # the instance exists before any worker or run opens it (pipelines.instance)
        subprocess.run(
            [sys.executable, "-c", "from pipelines.instance import init_instance; init_instance()"],
            env=env,
            cwd=REPO_ROOT,
            check=True,
            timeout=300,
        )
        workers = [
            subprocess.Popen(
                [
                    str(VENV_BIN / "celery"),
                    "-A",
                    "dagster_celery.app",
                    "-b",
                    f"{broker}/0",
                    "--result-backend",
                    f"{broker}/1",
                    "worker",
                    "-Q",
                    "dagster",
                    "-n",
                    f"worker{i}@%h",
                    "-P",
                    "solo",
                    "-c",
                    "1",
                    "--prefetch-multiplier=1",
                    "--without-gossip",
                    "--without-mingle",
                    "-l",
                    "WARNING",
                ],
                env=env,
                cwd=REPO_ROOT,
                stdout=subprocess.DEVNULL,
                stderr=open(tmp_path / f"worker{i}.log", "w"),
                start_new_session=True,
            )
            for i in (1, 2)
        ]
        try:
            distributed, celery_s = _build("pipelines.distributed", env, celery_root, corpus, parallel=True)
        finally:
            for worker in workers:
                stop(worker)
    logs = "\n".join((tmp_path / f"worker{i}.log").read_text()[-2000:] for i in (1, 2))
    assert all(r["success"] for r in distributed), (distributed, logs)
    used = {w for r in distributed for w in r["celery_workers"]}
    assert {w.split("@")[0] for w in used} == {"worker1", "worker2"}, used  # both workers took steps

    local_tables, celery_tables = _records(local_root / "warehouse"), _records(celery_root / "warehouse")
    assert local_tables.keys() == celery_tables.keys()
    released = [n for n in local_tables if n.startswith("public/tasks/")]
    assert len(released) == 2 and all(local_tables[n] for n in released)  # both partitions built tasks
    for name in local_tables:
        assert local_tables[name] == celery_tables[name], name
    print(
        f"\ntwo llm_agent partitions (every 8th paper): local in-process {local_s:.0f} s "
        f"({', '.join(str(r['seconds']) for r in local)} s); two celery workers {celery_s:.0f} s "
        f"({', '.join(str(r['seconds']) for r in distributed)} s)"
    )

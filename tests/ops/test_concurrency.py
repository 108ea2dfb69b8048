"""Eight partition runs started at once on a fresh DAGSTER_HOME, each in its own process
(as eight `foresci materialize` commands would be): all succeed, and the instance is
usable afterwards. Before `pipelines.instance.init_instance`, half of such starts crashed
inside Dagster's SQLite schema migration and left the home broken."""

import json
import os
import subprocess
import sys
import time

import dagster as dg
import pytest

from core.paths import REPO_ROOT
from core.registry import load_registry
from tests.ops.corpora import sampled_corpora

CUTOFFS = ["2025-09-30", "2025-12-31"]


def _env(tmp_path) -> dict:
    return {
        **os.environ,
        "DAGSTER_HOME": str(tmp_path / "dagster_home"),
        "FORESCI_HOME": str(tmp_path / "foresci"),
        "LITELLM_LOCAL_MODEL_COST_MAP": "True",
        "HF_HUB_OFFLINE": "1",
        "PYTHONPATH": str(REPO_ROOT),
    }


def test_init_is_idempotent_and_seeds_the_default_cutoffs(tmp_path, monkeypatch):
    from pipelines.instance import MARKER_NAME, init_instance

    home = tmp_path / "dagster_home"
    monkeypatch.setenv("DAGSTER_HOME", str(home))
    _, added = init_instance()
    assert added == sorted(load_registry().default_cutoffs)
    assert (home / "dagster.yaml").read_text() == (REPO_ROOT / "dagster.yaml").read_text()
    assert (home / MARKER_NAME).exists()
    instance, again = init_instance(["2025-10-31"])
    assert again == ["2025-10-31"]
    assert init_instance(["2025-10-31"])[1] == []
    assert "2025-10-31" in instance.get_dynamic_partitions("cutoff")


@pytest.mark.slow
def test_eight_init_calls_at_once_on_a_fresh_home(tmp_path):
    """The bare race (no run): eight processes open a fresh home at once."""
    code = "from pipelines.instance import init_instance; i, _ = init_instance(['2025-12-31']); print('ok')"
    procs = [
        subprocess.Popen(
            [sys.executable, "-c", code],
            env=_env(tmp_path),
            cwd=REPO_ROOT,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for _ in range(8)
    ]
    outs = [p.communicate(timeout=300) for p in procs]
    assert [p.returncode for p in procs] == [0] * 8, [err[-2000:] for _, err in outs]
    instance = dg.DagsterInstance.from_config(str(tmp_path / "dagster_home"))
    assert "2025-12-31" in instance.get_dynamic_partitions("cutoff")


@pytest.mark.slow
def test_eight_partition_runs_at_once_on_a_fresh_home(tmp_path):
    corpus = sampled_corpora(tmp_path / "corpus", 128)
    env = _env(tmp_path)
    jobs = [(d, c) for d in sorted(load_registry().domains) for c in CUTOFFS]
    assert len(jobs) == 8
    start = time.time()
    procs = [
        subprocess.Popen(
            [sys.executable, "-m", "tests.ops.worker", d, c, str(tmp_path / "foresci"), str(corpus)],
            env=env,
            cwd=REPO_ROOT,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for d, c in jobs
    ]
    outs = [p.communicate(timeout=1800) for p in procs]
    wall = time.time() - start
    results = [
        json.loads(out.strip().splitlines()[-1])
        if p.returncode == 0 and out.strip()
        else {"success": False, "stderr": err[-3000:]}
        for p, (out, err) in zip(procs, outs)
    ]
    print(
        f"8 concurrent partition runs: {sum(r['success'] for r in results)}/8 succeeded in {wall:.0f}s wall; "
        + ", ".join(f"{r.get('domain')}@{r.get('cutoff')} {r.get('seconds')}s" for r in results)
    )
    assert all(r["success"] for r in results), results
    # the instance is intact: every run is recorded as a success, every cutoff is a partition
    instance = dg.DagsterInstance.from_config(env["DAGSTER_HOME"])
    runs = instance.get_runs()
    assert len(runs) == 8 and {r.status for r in runs} == {dg.DagsterRunStatus.SUCCESS}
    assert set(CUTOFFS) <= set(instance.get_dynamic_partitions("cutoff"))

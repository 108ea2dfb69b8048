"""Benchmarks: install and build time and memory of the default release, per stage, and
the embedder's throughput and retrieval quality. Writes benchmarks/results.json and the
tables in benchmarks/results.md (between the AUTO markers).

    make bench                      # everything (fresh venv install + full demo build)
    .venv/bin/python benchmarks/run.py --only embedder
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
RESULTS_JSON = ROOT / "benchmarks" / "results.json"
RESULTS_MD = ROOT / "benchmarks" / "results.md"


def run_timed(cmd: list[str], env: dict | None = None, cwd: Path = ROOT) -> tuple[float, float, str]:
    """Wall seconds and peak RSS (MiB) of a child process tree (max over children)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    t0 = time.time()
    proc = subprocess.run(cmd, env=env, cwd=cwd, capture_output=True, text=True)
    wall = time.time() - t0
    peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    if proc.returncode != 0:
        raise RuntimeError(f"{' '.join(cmd)} failed:\n{proc.stdout[-3000:]}\n{proc.stderr[-3000:]}")
    return wall, max(peak, before) / 1024, proc.stdout


def bench_install() -> dict:
    """Fresh virtualenv + locked install, as `make install` does (uv's download cache warm)."""
    with tempfile.TemporaryDirectory() as tmp:
        venv = Path(tmp) / "venv"
        t0 = time.time()
        subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
        subprocess.run([str(venv / "bin/python"), "-m", "pip", "install", "-q", "uv"], check=True)
        subprocess.run([str(venv / "bin/uv"), "pip", "install", "-q", "-p", str(venv / "bin/python"),
                        "-r", str(ROOT / "requirements.lock")], check=True)
        return {"install_s": round(time.time() - t0, 1)}


def bench_build() -> dict:
    """`foresci demo` in a fresh FORESCI_HOME and DAGSTER_HOME: wall, peak memory, per stage."""
    with tempfile.TemporaryDirectory() as tmp:
        env = dict(os.environ, FORESCI_HOME=f"{tmp}/foresci", DAGSTER_HOME=f"{tmp}/dagster",
                   LITELLM_LOCAL_MODEL_COST_MAP="True")
        os.makedirs(env["DAGSTER_HOME"])
        wall, peak, _ = run_timed([sys.executable, "-m", "pipelines.cli", "demo"], env)
        timings = json.loads(Path(env["FORESCI_HOME"], "demo_timings.json").read_text())
    per_stage: dict[str, float] = {}
    for steps in timings["steps"].values():
        for step, seconds in steps.items():
            per_stage[step] = round(per_stage.get(step, 0.0) + seconds, 1)
    return {"build_wall_s": round(wall, 1), "build_peak_rss_mib": round(peak), "per_stage_s": per_stage,
            "per_domain_s": {d: round(sum(s.values()), 1) for d, s in timings["steps"].items()}}


def bench_embedder(n: int = 5000) -> dict:
    """Throughput (no cache) and title -> abstract retrieval quality on shipped papers."""
    import numpy as np

    from assets.corpus.logic import SHIPPED_DIR, read_jsonl
    from resources.embeddings import DEFAULT_MODEL, Embedder

    papers, _ = read_jsonl(SHIPPED_DIR / "rag_and_retrieval_structuring.jsonl.gz")
    papers = papers[:: max(1, len(papers) // n)][:n]
    embedder = Embedder(str(DEFAULT_MODEL), cache_dir=None)
    t0 = time.time()
    abstracts = embedder.encode([p.abstract for p in papers])
    rate = len(papers) / (time.time() - t0)
    titles = embedder.encode([p.title for p in papers])
    ranks = np.argsort(-(titles @ abstracts.T), axis=1)
    target = np.arange(len(papers))[:, None]
    return {"embedder": "minilm-static (model2vec, distilled from all-MiniLM-L6-v2, 256 dims)",
            "texts_per_s": round(rate), "n": len(papers),
            "title_to_abstract_recall@1": round(float((ranks[:, :1] == target).any(1).mean()), 3),
            "title_to_abstract_recall@10": round(float((ranks[:, :10] == target).any(1).mean()), 3)}


def write_results(results: dict) -> None:
    old = json.loads(RESULTS_JSON.read_text()) if RESULTS_JSON.exists() else {}
    merged = old | results | {"machine": f"{os.cpu_count()} cores, {platform.python_version()}"}
    RESULTS_JSON.write_text(json.dumps(merged, indent=2, sort_keys=True) + "\n")
    print(json.dumps(results, indent=2))


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--only", choices=["install", "build", "embedder"], action="append")
    args = parser.parse_args()
    parts = args.only or ["embedder", "install", "build"]
    results = {}
    for part in parts:
        print(f"benchmark: {part} ...", flush=True)
        results[part] = {"install": bench_install, "build": bench_build, "embedder": bench_embedder}[part]()
    write_results(results)


if __name__ == "__main__":
    main()

"""gold_targets: this checkout against a baseline revision, on the same built partition, in the same run.

Runs the body of the `gold_targets` asset (assets/gold/definitions.py: build_gold with the
bootstrap resamples, claim verification, future-only terms, the leakage check) once with the
baseline's code (a `git worktree` of `--baseline`) and once with this checkout's, alternating
`--rounds` times, each in its own process reading the same built partition. Reports wall
seconds, peak RSS and the machine's load, and compares the two outputs written as Parquet
(`StorageResource.write_records`, as the asset writes them): identical tables, or the rows and
columns that differ.

    .venv/bin/python benchmarks/gold_bench.py --domain llm_agent --cutoff 2025-12-31 \
        --warehouse .foresci/warehouse --baseline 561b6bb

Results go to benchmarks/results/gold.json (`benchmarks/run.py --assemble` puts them in results.md).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import re
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
RESULTS = ROOT / "benchmarks" / "results" / "gold.json"


def worker(domain: str, cutoff: str, warehouse: str, out: str) -> dict:
    """The gold_targets asset body with the code on sys.path[0]; writes the golds under `out`."""
    from assets.evidence.venues import VENUE_DIR, load_venue_lists, venue_similarity
    from assets.gold.claims import ClaimContext, verify_golds
    from assets.gold.definitions import VENUE_BASE_PAPERS, template_vocabulary
    from assets.gold.logic import build_gold
    from core.leakage import assert_clean, future_only_terms
    from core.papers import add_months
    from core.records import GoldTarget, ScreenedPaper, Signal, Task, TaskBuild, TaxonomyNode
    from core.registry import load_registry, parse_cutoff
    from core.thresholds import Thresholds
    from resources.embeddings import EmbeddingResource
    from resources.storage import StorageResource

    store = StorageResource(root=warehouse).store()
    d, c = domain, cutoff
    t0 = time.time()
    tasks, builds = store.read_records("tasks", d, c, Task), store.read_records("task_builds", d, c, TaskBuild)
    future, public = (
        store.read_records("future_window", d, c, ScreenedPaper),
        store.read_records("corpus_snapshot", d, c, ScreenedPaper),
    )
    signals, nodes = store.read_records("research_signals", d, c, Signal), store.read_records("taxonomy", d, c, TaxonomyNode)
    embed = EmbeddingResource().embedder().encode
    venue_papers = load_venue_lists(VENUE_DIR)
    day = parse_cutoff(c)
    usable = sorted((p for p in public if p.label != "excluded"), key=lambda p: p.arxiv_id)
    base = [
        " ".join(re.split(r"(?<=[.!?])\s+", p.abstract.strip())[:2])
        for p in random.Random(0).sample(usable, min(VENUE_BASE_PAPERS, len(usable)))
    ]
    horizon = load_registry().horizon_months(c)
    golds = build_gold(
        tasks,
        builds,
        signals,
        nodes,
        public,
        future,
        embed,
        cutoff=day,
        window_end=add_months(day, horizon),
        venue_scorer=lambda texts: venue_similarity(texts, venue_papers, day, embed),
        venue_on_topic=lambda p: bool(venue_similarity([p], venue_papers, day, embed, base_texts=base)),
        stability_resamples=Thresholds.load().bootstrap_resamples,
    )
    verify_golds(golds, ClaimContext(public, future, signals, day))
    internal = {s.signal_id for s in signals} | {n.node_id for n in nodes} | {f"ev:{n.node_id}" for n in nodes}
    novel = future_only_terms(
        [f"{p.title} {p.abstract}" for p in public], [p.title for p in future], allowed=template_vocabulary()
    )
    assert_clean(
        tasks,
        golds,
        {p.arxiv_id for p in future},
        [p.title for p in future],
        cutoff=day,
        internal_ids=internal,
        novel_terms=novel,
    )
    seconds = time.time() - t0
    StorageResource(root=out).store().write_records("gold_targets", d, c, golds, GoldTarget)
    return {
        "seconds": round(seconds, 1),
        "rows": len(golds),
        "peak_rss_mib": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024),
    }


def run_worker(code_root: Path, args, out: str) -> dict:
    """One cold run: its own empty FORESCI_HOME, so no embedding is read from an earlier run's cache."""
    home = tempfile.mkdtemp(prefix="gold-bench-home-")
    env = {**os.environ, "PYTHONPATH": str(code_root), "FORESCI_HOME": home}
    load = os.getloadavg()[0]
    proc = subprocess.run(
        [
            sys.executable,
            str(Path(__file__).resolve()),
            "--worker",
            "--domain",
            args.domain,
            "--cutoff",
            args.cutoff,
            "--warehouse",
            str(Path(args.warehouse).resolve()),
            "--out",
            out,
        ],
        cwd=code_root,
        env=env,
        capture_output=True,
        text=True,
    )
    if proc.returncode != 0:
        raise RuntimeError(proc.stderr[-3000:])
    return {**json.loads(proc.stdout.strip().splitlines()[-1]), "load_before": round(load, 2)}


def compare(a: str, b: str, domain: str, cutoff: str) -> dict:
    """Identical Parquet tables, or which rows/columns differ (a row is a task's gold)."""
    import pyarrow.parquet as pq

    path = f"hidden/gold_targets/domain={domain}/cutoff={cutoff}/data.parquet"
    ta, tb = pq.read_table(Path(a) / path), pq.read_table(Path(b) / path)
    if ta.equals(tb):
        return {"identical": True, "rows": ta.num_rows}
    ra, rb = ta.to_pylist(), tb.to_pylist()
    diffs = []
    for x, y in zip(ra, rb):
        cols = [k for k in x if x[k] != y.get(k)]
        if cols:
            detail = {}
            for k in cols:
                try:  # record_json holds the whole GoldTarget: name the keys inside it that differ
                    jx, jy = json.loads(x[k]), json.loads(y[k])
                    detail[k] = {kk: [jx.get(kk), jy.get(kk)] for kk in jx if jx.get(kk) != jy.get(kk)}
                    for kk, (vx, vy) in list(detail[k].items()):
                        if isinstance(vx, dict) and isinstance(vy, dict):
                            detail[k][kk] = {n: [vx.get(n), vy.get(n)] for n in set(vx) | set(vy) if vx.get(n) != vy.get(n)}
                except (TypeError, ValueError):
                    detail[k] = "differs"
            diffs.append({"task_id": x.get("task_id"), "columns": detail})
    return {
        "identical": False,
        "rows": ta.num_rows,
        "rows_other": tb.num_rows,
        "differing_rows": len(diffs),
        "differences": diffs[:20],
    }


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--domain", default="llm_agent")
    ap.add_argument("--cutoff", default="2025-12-31")
    ap.add_argument("--warehouse", default=str(ROOT / ".foresci" / "warehouse"))
    ap.add_argument("--baseline", default="", help="git revision to compare with (empty: this checkout only)")
    ap.add_argument("--rounds", type=int, default=1)
    ap.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    ap.add_argument("--out", default="", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.worker:
        print(json.dumps(worker(args.domain, args.cutoff, args.warehouse, args.out)))
        return 0
    tmp = Path(tempfile.mkdtemp(prefix="gold-bench-"))
    roots = {"current": ROOT}
    if args.baseline:
        roots["baseline"] = tmp / "baseline-code"
        subprocess.run(
            ["git", "worktree", "add", "--detach", str(roots["baseline"]), args.baseline],
            cwd=ROOT,
            check=True,
            capture_output=True,
        )
    runs: dict[str, list] = {name: [] for name in roots}
    try:
        for _ in range(args.rounds):
            for name in ["baseline", "current"] if args.baseline else ["current"]:
                runs[name].append(run_worker(roots[name], args, str(tmp / f"out-{name}")))
                print(name, runs[name][-1], flush=True)
        result = {
            "domain": args.domain,
            "cutoff": args.cutoff,
            "baseline": args.baseline,
            "cpus": os.cpu_count(),
            "measured": time.strftime("%Y-%m-%d %H:%M"),
            "runs": runs,
        }
        if args.baseline:
            best = {n: min(x["seconds"] for x in v) for n, v in runs.items()}
            result["speedup"] = round(best["baseline"] / best["current"], 2)
            result["outputs"] = compare(str(tmp / "out-baseline"), str(tmp / "out-current"), args.domain, args.cutoff)
    finally:
        if args.baseline:
            subprocess.run(["git", "worktree", "remove", "--force", str(roots["baseline"])], cwd=ROOT, capture_output=True)
    RESULTS.parent.mkdir(parents=True, exist_ok=True)
    previous = json.loads(RESULTS.read_text()) if RESULTS.exists() else {}
    previous[f"{args.domain}@{args.cutoff}"] = result
    RESULTS.write_text(json.dumps(previous, indent=2) + "\n")
    print(json.dumps({k: v for k, v in result.items() if k != "runs"}, indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

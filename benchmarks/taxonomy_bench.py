"""Taxonomy benchmark: offline stability over seeds, induction time, LLM-mode call budget.

    .venv/bin/python benchmarks/taxonomy_bench.py            # writes benchmarks/results/taxonomy.{md,json}
    .venv/bin/python benchmarks/taxonomy_bench.py --quick    # smaller: the 150-paper shared sample

What it measures (one domain, llm_agent, from the shipped corpus):

1. Stability of the offline mode: the taxonomy at the largest registry cutoff is induced
   with seeds 0, 1, 2; for every pair of seeds and every dimension, the adjusted Rand
   index and NMI of the paper -> leaf assignment (the deepest node holding the paper)
   and of the paper -> level-1 node assignment (the coarse structure), averaged over
   dimensions (dimension membership itself does not depend on the seed).
2. Induction time of one domain at the largest cutoff: offline, and LLM mode behind the
   counting stub (time without model latency).
3. LLM-mode call budget with a counting stub behind the LLM client API (no model): calls
   per paper on (a) the pipeline's partition (screened core/support papers <= cutoff) and
   (b) the whole shipped llm_agent corpus, 11,880 papers, every paper used, cutoff = the
   last date -- the setting in which the ForeSci authors' temporal TaxoAdapt makes 9-21
   calls per paper (105k-213k calls; counted by the issue author with their code).
   Plus the evidence stage's LLM calls for the partition's evidence papers.
"""

from __future__ import annotations

import argparse
import json
import platform
import sys
import time
from collections import Counter, defaultdict
from datetime import date
from itertools import combinations
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import numpy as np  # noqa: E402
from sklearn.metrics import adjusted_rand_score, normalized_mutual_info_score  # noqa: E402

from assets.corpus.logic import screen
from assets.evidence.logic import build_evidence  # noqa: E402
from assets.taxonomy.logic import TaxonomyResult, induce_taxonomy  # noqa: E402
from core.papers import read_jsonl
from core.records import ScreenedPaper  # noqa: E402
from core.registry import load_registry  # noqa: E402
from resources.embeddings import load_embedder  # noqa: E402
from tests.llm_stub import CountingStubClient  # noqa: E402

OUT = ROOT / "benchmarks" / "results"
DOMAIN = "llm_agent"


def level_of(result: TaxonomyResult, level: int) -> dict[tuple[str, str], str]:
    """(paper, dimension) -> its ancestor node at `level` (or its own node if shallower)."""
    nodes = {n.node_id: n for n in result.nodes}
    out = {}
    for a in result.assignments:
        node = nodes[a.node_id]
        while node.level > level:
            node = nodes[node.parent_id]
        out[(a.arxiv_id, a.dimension)] = node.node_id
    return out


def agreement(a: dict, b: dict) -> dict[str, float]:
    by_dim: dict[str, list] = defaultdict(list)
    for key in sorted(set(a) & set(b)):
        by_dim[key[1]].append((a[key], b[key]))
    ari, nmi = [], []
    for pairs in by_dim.values():
        x, y = [p[0] for p in pairs], [p[1] for p in pairs]
        ari.append(adjusted_rand_score(x, y))
        nmi.append(normalized_mutual_info_score(x, y))
    return {"ari": round(float(np.mean(ari)), 4), "nmi": round(float(np.mean(nmi)), 4)}


def stub_run(papers, cutoff, embed, **kw) -> dict:
    stub = CountingStubClient()
    t0 = time.time()
    result = induce_taxonomy(papers, cutoff, embed, domain=DOMAIN, seed=0, llm_client=stub, **kw)
    wall = time.time() - t0
    sizes = {k.split(".", 1)[1]: round(float(np.mean(v)), 1) for k, v in stub.batch_sizes.items()}
    return {
        "papers": result.paper_vectors_used,
        "calls": stub.calls,
        "calls_match_result": stub.calls == result.llm_calls,
        "calls_per_paper": round(stub.calls / result.paper_vectors_used, 4),
        "by_purpose": result.llm_requests,
        "mean_batch_size": sizes,
        "decisions": result.llm_decided,
        "nodes": len(result.nodes),
        "nodes_by_creation": dict(Counter(n.created_by for n in result.nodes)),
        "max_level": max(n.level for n in result.nodes),
        "failures": len(result.failures),
        "seconds": round(wall, 1),
        "result": result,
    }


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--quick", action="store_true", help="150-paper shared sample instead of the shipped corpus")
    args = ap.parse_args()
    registry = load_registry()
    descriptions = {k: v.description for k, v in registry.domains.items()}
    embedder = load_embedder()
    embed = embedder.encode
    if args.quick:
        from tests.fixture_data import fixture_path

        raw, _ = read_jsonl(fixture_path(f"arxiv/samples/{DOMAIN}.sample.jsonl"))
        density = 8
    else:
        raw, _ = read_jsonl(ROOT / "assets" / "corpus" / "shipped" / registry.domains[DOMAIN].shipped_file)
        density = 40
    screened = screen(raw, DOMAIN, descriptions, embed)
    cutoff = max(date.fromisoformat(c) for c in registry.default_cutoffs)
    report: dict = {
        "domain": DOMAIN,
        "cutoff": str(cutoff),
        "corpus_papers": len(raw),
        "quick": args.quick,
        "machine": f"{platform.machine()}, {platform.python_version()}",
        "params": {"max_depth": 3, "max_density": density, "max_children": 5, "min_votes": 2},
    }

    # 1-2. offline: three seeds, time of each
    runs, times = {}, {}
    for seed in (0, 1, 2):
        t0 = time.time()
        runs[seed] = induce_taxonomy(screened, cutoff, embed, domain=DOMAIN, seed=seed, max_density=density)
        times[seed] = round(time.time() - t0, 1)
    stability = {}
    for s1, s2 in combinations(runs, 2):
        stability[f"{s1}-{s2}"] = {
            "leaf": agreement(level_of(runs[s1], 9), level_of(runs[s2], 9)),
            "level1": agreement(level_of(runs[s1], 1), level_of(runs[s2], 1)),
        }
    mean = {
        k: {m: round(float(np.mean([v[k][m] for v in stability.values()])), 4) for m in ("ari", "nmi")}
        for k in ("leaf", "level1")
    }
    r0 = runs[0]
    report["offline"] = {
        "papers": r0.paper_vectors_used,
        "seconds_per_seed": times,
        "nodes_per_seed": {s: len(r.nodes) for s, r in runs.items()},
        "nodes_by_creation_seed0": dict(Counter(n.created_by for n in r0.nodes)),
        "stability_pairs": stability,
        "stability_mean": mean,
    }

    # 3. LLM mode behind the counting stub
    partition = stub_run(screened, cutoff, embed, max_density=density)
    result = partition.pop("result")
    stub = CountingStubClient()
    t0 = time.time()
    records, _ = build_evidence(result.nodes, screened, cutoff, embed, llm_client=stub)
    ev_papers = len({p.arxiv_id for r in records for p in r.papers})
    partition["evidence"] = {
        "papers": ev_papers,
        "calls": stub.calls,
        "calls_per_evidence_paper": round(stub.calls / max(ev_papers, 1), 4),
        "seconds": round(time.time() - t0, 1),
    }
    report["llm_stub_partition"] = partition
    everything = [ScreenedPaper(**p.model_dump(), domain=DOMAIN, relevance=1.0, label="core", reason="all") for p in raw]
    last = max(p.published for p in raw)
    full = stub_run(everything, last, embed, max_density=density)
    full.pop("result")
    full["cutoff"] = str(last)
    report["llm_stub_full_corpus"] = full
    report["foresci_reference"] = {
        "calls_per_paper": "9-21",
        "calls_total": "105k-213k",
        "source": "issue 4: the ForeSci authors' temporal TaxoAdapt with a counting stub",
    }

    OUT.mkdir(parents=True, exist_ok=True)
    name = "taxonomy_quick" if args.quick else "taxonomy"
    (OUT / f"{name}.json").write_text(json.dumps(report, indent=2, default=str) + "\n")
    (OUT / f"{name}.md").write_text(render(report))
    print(render(report))


def render(r: dict) -> str:
    off, part, full = r["offline"], r["llm_stub_partition"], r["llm_stub_full_corpus"]
    lines = [
        f"# Taxonomy benchmark ({r['domain']}, cutoff {r['cutoff']}{', quick sample' if r['quick'] else ''})",
        "",
        "Written by `benchmarks/taxonomy_bench.py` (one command). Machine: " + r["machine"] + ", 2 cores.",
        f"Defaults: max_depth {r['params']['max_depth']}, max_density {r['params']['max_density']}, "
        f"<= {r['params']['max_children']} children, a label needs >= {r['params']['min_votes']} votes.",
        "",
        "## Offline stability (three seeds)",
        "",
        f"{off['papers']} cutoff-visible core/support papers; agreement of paper -> node assignments between seeds, "
        "mean over the five dimensions.",
        "",
        "| seeds | leaf ARI | leaf NMI | level-1 ARI | level-1 NMI |",
        "|---|---|---|---|---|",
    ]
    for pair, v in off["stability_pairs"].items():
        lines.append(f"| {pair} | {v['leaf']['ari']} | {v['leaf']['nmi']} | {v['level1']['ari']} | {v['level1']['nmi']} |")
    m = off["stability_mean"]
    lines += [
        f"| **mean** | **{m['leaf']['ari']}** | **{m['leaf']['nmi']}** | **{m['level1']['ari']}** | **{m['level1']['nmi']}** |",
        "",
        f"Nodes per seed: {off['nodes_per_seed']}; seed 0 by creation: {off['nodes_by_creation_seed0']}.",
        "",
        "## Induction time (one domain, largest cutoff)",
        "",
        "| mode | papers | seconds |",
        "|---|---|---|",
    ]
    lines += [f"| offline, seed {s} | {off['papers']} | {t} |" for s, t in off["seconds_per_seed"].items()]
    lines += [
        f"| LLM mode, counting stub (no model latency) | {part['papers']} | {part['seconds']} |",
        f"| LLM mode, counting stub, whole corpus | {full['papers']} | {full['seconds']} |",
        "",
        "## LLM-mode call budget (counting stub behind the LLM client API)",
        "",
        "| corpus | papers | calls | calls/paper | by purpose | mean papers (labels) per call |",
        "|---|---|---|---|---|---|",
    ]
    for name, v in (("partition (screened, <= cutoff)", part), (f"whole shipped corpus (<= {full['cutoff']})", full)):
        lines.append(
            f"| {name} | {v['papers']} | {v['calls']} | **{v['calls_per_paper']}** | "
            f"{json.dumps(v['by_purpose'])} | {json.dumps(v['mean_batch_size'])} |"
        )
    ev = part["evidence"]
    lines += [
        "",
        f"ForeSci authors' temporal TaxoAdapt on the same corpus: {r['foresci_reference']['calls_per_paper']} "
        f"calls/paper ({r['foresci_reference']['calls_total']} calls). Target: <= 1.5.",
        "",
        f"Routing decisions (partition): {json.dumps(part['decisions'])}.",
        "",
        f"Whole corpus: {full['nodes']} nodes {json.dumps(full['nodes_by_creation'])}, max level "
        f"{full['max_level']}; partition: {part['nodes']} nodes.",
        "",
        f"Evidence stage, LLM mode, same partition: {ev['calls']} calls for {ev['papers']} evidence papers "
        f"({ev['calls_per_evidence_paper']} calls per evidence paper, 8 abstracts per call).",
        "",
    ]
    return "\n".join(lines)


if __name__ == "__main__":
    main()

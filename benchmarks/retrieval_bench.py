"""Retrieval speed at 35k papers, side by side in one run: the knowledge base's in-memory
engine (the default), its LanceDB engine (the reference path), and the speed anchor (a
reconstruction of the ForeSci authors' pure-Python BM25 + TF-IDF offline KB,
benchmarks/anchor_kb.py), on the same papers and the same title queries (titles NOT
indexed, as in kb_bench.py).

    nice -n 10 .venv/bin/python benchmarks/retrieval_bench.py   # -> benchmarks/results/retrieval_speed.{md,json}

The corpus is embedded once with the default (static) embedder and cached in
benchmarks/cache/ (gitignored); query embeddings are computed fresh per query. Queries run
one at a time in one process (wall and CPU time per query), plus the batched API
(`KnowledgeBaseView.search_many`). The anchor is slow, so it answers the first
`ANCHOR_QUERIES` test queries, interleaved query by query with the in-memory engine so
both see the same machine load; the speed-up is the ratio of their mean times on those
queries.
"""

from __future__ import annotations

import json
import os
import platform
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))
os.environ.setdefault("LANCE_LOG", "error")

CACHE = ROOT / "benchmarks" / "cache"
RESULTS_DIR = ROOT / "benchmarks" / "results"
N_TEST, N_WARM, ANCHOR_QUERIES, BATCH = 1000, 50, 100, 100
TARGET_SPEEDUP, TARGET_RECALL = 50, 0.95
COLUMNS = ["arxiv_id", "title", "abstract", "published"]


def corpus_vectors(papers, embedder) -> np.ndarray:
    """Abstract vectors of the whole corpus, computed once and cached (keyed by ids and model)."""
    import hashlib

    digest = hashlib.blake2b("\n".join(p.arxiv_id + p.abstract for p in papers).encode(), digest_size=8).hexdigest()
    path = CACHE / f"abstracts-{Path(embedder.model_path).name}-{digest}.npy"
    if path.exists():
        return np.load(path)
    vectors = embedder._compute([p.abstract for p in papers])
    CACHE.mkdir(parents=True, exist_ok=True)
    np.save(path, vectors)
    return vectors


def timed(fn, queries):
    wall, cpu, results = [], [], []
    for query in queries:
        c0, t0 = time.process_time(), time.perf_counter()
        results.append(fn(query))
        wall.append(time.perf_counter() - t0)
        cpu.append(time.process_time() - c0)
    return results, np.asarray(wall) * 1000, np.asarray(cpu) * 1000


def summary(ids: list[list[str]], targets: list[str], wall_ms: np.ndarray, cpu_ms: np.ndarray) -> dict:
    return {
        "p50_ms": round(float(np.percentile(wall_ms, 50)), 2),
        "p95_ms": round(float(np.percentile(wall_ms, 95)), 2),
        "mean_ms": round(float(wall_ms.mean()), 3),
        "qps": round(float(1000 / wall_ms.mean()), 1),
        "cpu_ms_per_query": round(float(cpu_ms.mean()), 3),
        "recall@1": round(float(np.mean([r[:1] == [t] for r, t in zip(ids, targets)])), 4),
        "recall@10": round(float(np.mean([t in r[:10] for r, t in zip(ids, targets)])), 4),
        "n": len(ids),
    }


def agreement(a: list[list[str]], b: list[list[str]]) -> dict:
    return {
        "identical_top10_lists": round(float(np.mean([x == y for x, y in zip(a, b)])), 4),
        "same_top1": round(float(np.mean([x[:1] == y[:1] for x, y in zip(a, b)])), 4),
        "top10_overlap": round(float(np.mean([len(set(x) & set(y)) / max(1, len(x)) for x, y in zip(a, b)])), 4),
    }


def main() -> None:
    import lancedb
    from anchor_kb import AnchorKB
    from kb_bench import load_corpus

    from assets.knowledge_base.logic import KnowledgeBaseView, build_kb
    from assets.knowledge_base.memory_index import memory_index
    from resources.embeddings import DEFAULT_MODEL, Embedder

    t_start = time.perf_counter()
    out: dict = {
        "environment": {
            "cpus": os.cpu_count(),
            "platform": platform.platform(),
            "lancedb": lancedb.__version__,
            "loadavg_before": " ".join(f"{x:.1f}" for x in os.getloadavg()),
        }
    }
    papers = load_corpus()
    cutoff = max(p.published for p in papers)
    embedder = Embedder(str(DEFAULT_MODEL), cache_dir=None)
    vectors = corpus_vectors(papers, embedder)
    by_abstract = dict(zip((p.abstract for p in papers), vectors))

    def embed_build(texts):  # the cached corpus vectors; queries below are embedded fresh
        return np.stack([by_abstract[t] for t in texts])

    rng = np.random.default_rng(20251231)  # kb_bench.py's test queries
    order = rng.permutation(len(papers))
    test = [(papers[i].title, papers[i].arxiv_id) for i in order[:N_TEST]]
    warm = [(papers[i].title, papers[i].arxiv_id) for i in order[-N_WARM:]]
    titles, targets = [t for t, _ in test], [a for _, a in test]
    out["papers"] = len(papers)

    with tempfile.TemporaryDirectory() as tmp:
        t0 = time.perf_counter()
        table, info = build_kb(
            lancedb.connect(tmp), "speed", papers, embed_build, with_chunks=False, text_of=lambda p: p.abstract
        )
        out["lance_build_s"] = round(time.perf_counter() - t0, 2)
        out["lance_vector_index"] = info["vector_index"]
        t0 = time.perf_counter()
        index = memory_index(table, "arxiv_id", COLUMNS)
        out["memory_index_build_s"] = round(time.perf_counter() - t0, 2)
        out["memory_dense"] = "IVF" if index.dense.ivf else "exact"
        t0 = time.perf_counter()
        anchor = AnchorKB([p.arxiv_id for p in papers], [p.abstract for p in papers], [p.published for p in papers])
        out["anchor_build_s"] = round(time.perf_counter() - t0, 2)

        views = {engine: KnowledgeBaseView(table, cutoff, embedder._compute, engine=engine) for engine in ("lance", "memory")}
        results, ids = {}, {}
        for engine, view in views.items():
            for mode in ("dense", "text", "hybrid"):
                search = lambda q, view=view, mode=mode: view.search(q, 10, mode)  # noqa: E731
                timed(search, [t for t, _ in warm])
                hits, wall, cpu = timed(search, titles)
                ids[(engine, mode)] = [[h.arxiv_id for h in hs] for hs in hits]
                results[f"{engine} {mode}"] = summary(ids[(engine, mode)], targets, wall, cpu)
                print(engine, mode, results[f"{engine} {mode}"], flush=True)
        out["sequential"] = results

        # batched: one search_many call per BATCH queries
        memory = views["memory"]
        c0, t0 = time.process_time(), time.perf_counter()
        batched = [hs for s in range(0, N_TEST, BATCH) for hs in memory.search_many(titles[s : s + BATCH], 10, "hybrid")]
        wall_s, cpu_s = time.perf_counter() - t0, time.process_time() - c0
        batched_ids = [[h.arxiv_id for h in hs] for hs in batched]
        out["batched_hybrid"] = {
            "batch": BATCH,
            "qps": round(N_TEST / wall_s, 1),
            "mean_ms": round(wall_s * 1000 / N_TEST, 3),
            "cpu_ms_per_query": round(cpu_s * 1000 / N_TEST, 3),
            "recall@10": round(float(np.mean([t in r for r, t in zip(batched_ids, targets)])), 4),
            "same_as_sequential": batched_ids == ids[("memory", "hybrid")],
        }
        print("batched", out["batched_hybrid"], flush=True)
        out["agreement_memory_vs_lance"] = {
            mode: agreement(ids[("memory", mode)], ids[("lance", mode)]) for mode in ("dense", "text", "hybrid")
        }
        # dense: each engine's top 10 against the exact scan (the IVF indexes are approximate)
        query_vectors = embedder._compute(titles)
        exact = np.argsort(-(query_vectors @ index.dense.vectors.T), axis=1)[:, :10]
        exact_ids = [[index.keys[i] for i in row] for row in exact]
        out["dense_recall_vs_exact"] = {
            engine: agreement(ids[(engine, "dense")], exact_ids)["top10_overlap"] for engine in ("lance", "memory")
        }

        # the anchor, interleaved query by query with the in-memory hybrid engine
        pairs = test[:ANCHOR_QUERIES]
        a_wall, a_cpu, m_wall, m_cpu, a_ids, m_ids = [], [], [], [], [], []
        for title, _ in pairs:
            hits, w, c = timed(lambda q: anchor.search(q, 10, cutoff), [title])
            a_ids.append([key for key, _ in hits[0]]), a_wall.append(w[0]), a_cpu.append(c[0])
            hits, w, c = timed(lambda q: memory.search(q, 10, "hybrid"), [title])
            m_ids.append([h.arxiv_id for h in hits[0]]), m_wall.append(w[0]), m_cpu.append(c[0])
        pair_targets = [a for _, a in pairs]
        out["anchor"] = summary(a_ids, pair_targets, np.asarray(a_wall), np.asarray(a_cpu))
        out["memory_on_anchor_queries"] = summary(m_ids, pair_targets, np.asarray(m_wall), np.asarray(m_cpu))
        out["speedup"] = {
            "memory_hybrid_vs_anchor_wall": round(float(np.mean(a_wall) / np.mean(m_wall)), 1),
            "memory_hybrid_vs_anchor_cpu": round(float(np.mean(a_cpu) / np.mean(m_cpu)), 1),
            "lance_hybrid_vs_anchor_wall": round(float(np.mean(a_wall) / results["lance hybrid"]["mean_ms"]), 1),
            "batched_hybrid_vs_anchor_wall": round(float(np.mean(a_wall) / out["batched_hybrid"]["mean_ms"]), 1),
        }
        print("anchor", out["anchor"], out["speedup"], flush=True)
    out["environment"]["loadavg_after"] = " ".join(f"{x:.1f}" for x in os.getloadavg())
    out["wall_s"] = round(time.perf_counter() - t_start, 1)
    RESULTS_DIR.mkdir(exist_ok=True)
    (RESULTS_DIR / "retrieval_speed.json").write_text(json.dumps(out, indent=2, default=str) + "\n")
    (RESULTS_DIR / "retrieval_speed.md").write_text(markdown(out))
    print(markdown(out))


def markdown(r: dict) -> str:
    env, s, mem = r["environment"], r["speedup"], r["sequential"]["memory hybrid"]
    met = s["memory_hybrid_vs_anchor_wall"] >= TARGET_SPEEDUP and mem["recall@10"] >= TARGET_RECALL
    lines = [
        "## Retrieval speed at 35k: in-memory engine vs LanceDB vs the anchor (one run)",
        "",
        f"`benchmarks/retrieval_bench.py` (took {r['wall_s']} s); {r['papers']:,} papers (whole shipped corpus, "
        f"deduplicated), abstracts indexed, titles as queries (titles NOT indexed), k = 10, cutoff filter on. "
        f"Machine: {env['cpus']} CPUs, lancedb {env['lancedb']}, load average before/after {env['loadavg_before']} / "
        f"{env['loadavg_after']} (shared: other jobs ran alongside; CPU ms/query is the steadier figure). "
        "Anchor = benchmarks/anchor_kb.py, a reconstruction of the ForeSci authors' pure-Python BM25 + TF-IDF "
        f"offline KB, interleaved query by query with the in-memory engine on the first {ANCHOR_QUERIES} queries.",
        "",
        f"Target: hybrid >= {TARGET_SPEEDUP}x the anchor at recall@10 >= {TARGET_RECALL}: "
        f"**{s['memory_hybrid_vs_anchor_wall']}x** wall ({s['memory_hybrid_vs_anchor_cpu']}x CPU), recall@10 "
        f"{mem['recall@10']} — {'met' if met else '**not met**'}. LanceDB engine (the previous path): "
        f"{s['lance_hybrid_vs_anchor_wall']}x; in-memory batched (`search_many`, {r['batched_hybrid']['batch']} "
        f"per call): {s['batched_hybrid_vs_anchor_wall']}x.",
        "",
        "| engine | mode | p50 ms | p95 ms | queries/s | CPU ms/query | recall@1 | recall@10 | n |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    for name, row in r["sequential"].items():
        engine, mode = name.split()
        lines.append(
            f"| {engine} | {mode} | {row['p50_ms']} | {row['p95_ms']} | {row['qps']} | "
            f"{row['cpu_ms_per_query']} | {row['recall@1']} | {row['recall@10']} | {row['n']} |"
        )
    b = r["batched_hybrid"]
    lines.append(
        f"| memory, batched {b['batch']} | hybrid | - | - | {b['qps']} | {b['cpu_ms_per_query']} | - | "
        f"{b['recall@10']} | {N_TEST} |"
    )
    for name, key in (
        ("anchor (BM25 + TF-IDF, pure Python)", "anchor"),
        ("memory, same queries, interleaved", "memory_on_anchor_queries"),
    ):
        row = r[key]
        lines.append(
            f"| {name} | hybrid | {row['p50_ms']} | {row['p95_ms']} | {row['qps']} | "
            f"{row['cpu_ms_per_query']} | {row['recall@1']} | {row['recall@10']} | {row['n']} |"
        )
    lines += [
        "",
        f"Build: LanceDB table + indexes {r['lance_build_s']} s ({r['lance_vector_index']}); in-memory index "
        f"(one table scan, BM25 postings, dense {r['memory_dense']}) {r['memory_index_build_s']} s, once per table "
        f"version per process; anchor {r['anchor_build_s']} s.",
        "",
        "Same results? In-memory vs LanceDB engine, the same 1,000 queries:",
        "",
        "| mode | identical top-10 lists | same top-1 | top-10 overlap |",
        "|---|---|---|---|",
    ]
    for mode, row in r["agreement_memory_vs_lance"].items():
        lines.append(f"| {mode} | {row['identical_top10_lists']} | {row['same_top1']} | {row['top10_overlap']} |")
    lines += [
        "",
        f"Dense top-10 overlap with the exact scan: LanceDB IVF_SQ {r['dense_recall_vs_exact']['lance']}, "
        f"in-memory {r['dense_recall_vs_exact']['memory']}. Batched results identical to sequential: "
        f"{b['same_as_sequential']}.",
        "",
    ]
    return "\n".join(lines)


if __name__ == "__main__":
    main()

"""Knowledge-base benchmark: embedding throughput, index build time and memory, query
latency and throughput (dense, text, hybrid, cutoff filter on), and retrieval quality on
a self-supervised title -> paper test, at the 2025-12-31 cutoff (~21k papers, the four
shipped domains merged and deduplicated) and over the whole shipped corpus (~35k).

    .venv/bin/python benchmarks/kb_bench.py            # writes benchmarks/results/knowledge_base.{md,json}
    .venv/bin/python benchmarks/kb_bench.py --quick    # 3k papers, 100 queries: a smoke run (not written)

Each scenario runs in its own fresh process (so its peak RSS is its own): load the shipped
corpus, embed with the default embedder with its cache disabled, build the LanceDB table
and its indexes through `build_kb` (the knowledge_base asset's code path), then query
through `KnowledgeBaseView` (the agents' code path), one query at a time, in one process.

Self-supervised test: the indexed text and the vectors are the ABSTRACT only (no title);
each query is a visible paper's title and the target is that paper. The hybrid fusion's
text weight is chosen on a separate dev set of queries and reported on the test set.
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
from datetime import date
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("LANCE_LOG", "error")

RESULTS_DIR = ROOT / "benchmarks" / "results"
CUTOFF = date(2025, 12, 31)
ANCHOR = {  # the ForeSci authors' offline KB (BM25 + TF-IDF, pure Python), measured on this machine
    "35k": {"build_s": 16.6, "rss_mb": 1536, "p50_ms": 108, "p95_ms": 145, "qps": 9},
    "21k": {"p95_ms": 80, "qps": 18},
}
TARGETS = {"hybrid_qps_35k": 135, "hybrid_p95_ms_35k": 10.0, "hybrid_recall10": 0.95, "build_total_s_35k": 300, "rss_mb": 1536}


def peak_rss_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def current_rss_mb() -> float:
    with open("/proc/self/status") as handle:
        for line in handle:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return float("nan")


def load_corpus(limit: int | None = None):
    from assets.corpus.logic import deduplicate
    from core.papers import SHIPPED_DIR, read_jsonl
    from core.records import ScreenedPaper

    papers = []
    for path in sorted(SHIPPED_DIR.glob("*.jsonl.gz")):
        papers.extend(read_jsonl(path)[0])
    papers = deduplicate(papers)
    if limit:
        papers = papers[:: max(1, len(papers) // limit)][:limit]
    return [ScreenedPaper(**p.model_dump(), domain="all", relevance=1.0, label="core", reason="benchmark") for p in papers]


def percentiles(latencies_s: list[float]) -> dict:
    import numpy as np

    ms = np.asarray(latencies_s) * 1000
    return {
        "p50_ms": round(float(np.percentile(ms, 50)), 2),
        "p95_ms": round(float(np.percentile(ms, 95)), 2),
        "mean_ms": round(float(ms.mean()), 2),
        "qps": round(float(1000 / ms.mean()), 1),
        "n": int(len(ms)),
    }


def run_queries(view, queries, mode: str, k: int = 10) -> dict:
    """Sequential queries, one process: latency of each, rank of the target in the top k."""
    latencies, r1, r10 = [], 0, 0
    cpu0 = time.process_time()
    for title, target in queries:
        t0 = time.perf_counter()
        hits = view.search(title, k=k, mode=mode)
        latencies.append(time.perf_counter() - t0)
        ids = [h.arxiv_id for h in hits]
        r1 += ids[:1] == [target]
        r10 += target in ids[:10]
    cpu_ms = (time.process_time() - cpu0) * 1000 / len(queries)  # all threads of this process
    return {
        **percentiles(latencies),
        "cpu_ms_per_query": round(cpu_ms, 2),
        "recall@1": round(r1 / len(queries), 4),
        "recall@10": round(r10 / len(queries), 4),
    }


def scenario(name: str, quick: bool) -> dict:
    import lancedb
    import numpy as np

    from assets.knowledge_base.logic import (
        HYBRID_TEXT_WEIGHT,
        KnowledgeBaseView,
        build_kb,
    )
    from resources.embeddings import DEFAULT_MODEL, Embedder

    t_start = time.perf_counter()
    papers = load_corpus(3000 if quick else None)
    if name == "cutoff":
        papers = [p for p in papers if p.published <= CUTOFF]
    cutoff = CUTOFF if name == "cutoff" else max(p.published for p in papers)
    load_s = time.perf_counter() - t_start
    embedder = Embedder(str(DEFAULT_MODEL), cache_dir=None)  # no cache: every text is computed
    embed_s = 0.0

    def timed_embed(texts):
        nonlocal embed_s
        t0 = time.perf_counter()
        out = embedder._compute(texts)
        embed_s += time.perf_counter() - t0
        return out

    out: dict = {"scenario": name, "papers": len(papers), "cutoff_filter": str(cutoff), "load_s": round(load_s, 2)}
    with tempfile.TemporaryDirectory() as tmp:
        db = lancedb.connect(tmp)
        t0 = time.perf_counter()
        table, info = build_kb(db, "kb_bench", papers, timed_embed, with_chunks=False, text_of=lambda p: p.abstract)
        build_s = time.perf_counter() - t0
        out.update(
            {
                "embed_s": round(embed_s, 2),
                "embed_texts_per_s": round(len(papers) / embed_s, 1),
                "index_build_s": round(build_s - embed_s, 2),
                "embed_and_index_s": round(build_s, 2),
                "vector_index": info["vector_index"],
                "indexes": info["indexes"],
                "rss_after_build_mb": round(current_rss_mb(), 1),
                "peak_rss_build_mb": round(peak_rss_mb(), 1),
            }
        )
        index_dir_mb = sum(f.stat().st_size for f in Path(tmp).rglob("*") if f.is_file()) / 2**20
        out["lance_on_disk_mb"] = round(index_dir_mb, 1)

        visible = [p for p in papers if p.published <= cutoff]
        rng = np.random.default_rng(20251231)
        order = rng.permutation(len(visible))
        n_test, n_dev, n_warm = (100, 60, 20) if quick else (1000, 300, 50)
        pick = lambda idx: [(visible[i].title, visible[i].arxiv_id) for i in idx]  # noqa: E731
        test, dev, warm = pick(order[:n_test]), pick(order[n_test : n_test + n_dev]), pick(order[-n_warm:])
        # query embeddings are computed per query (no cache), as an agent's new query would be
        view = KnowledgeBaseView(table, cutoff, embedder._compute)
        for mode in ("dense", "text", "hybrid"):
            run_queries(view, warm, mode)
        modes = {mode: run_queries(view, test, mode) for mode in ("dense", "text", "hybrid")}
        out["queries"] = modes
        out["rss_after_queries_mb"] = round(current_rss_mb(), 1)
        out["peak_rss_mb"] = round(peak_rss_mb(), 1)

        # fusion choice, on the dev queries (never the test set)
        sweep = {}
        for weight in (0.5, 0.6, 0.7, 0.8, 0.9):
            dev_view = KnowledgeBaseView(table, cutoff, embedder._compute, text_weight=weight)
            sweep[f"weighted w_text={weight}"] = run_queries(dev_view, dev, "hybrid")
        sweep["rrf k=60"] = run_queries(KnowledgeBaseView(table, cutoff, embedder._compute, fusion="rrf"), dev, "hybrid")
        out["fusion_dev"] = {k: {m: v[m] for m in ("recall@1", "recall@10", "p50_ms")} for k, v in sweep.items()}
        out["fusion_default"] = f"weighted w_text={HYBRID_TEXT_WEIGHT}"
        out["rrf_test"] = run_queries(KnowledgeBaseView(table, cutoff, embedder._compute, fusion="rrf"), test, "hybrid")

        if name == "full":
            # the same 35k table queried at the 2025-12-31 cutoff: the prefilter hides ~40% of it
            at_cut = [(p.title, p.arxiv_id) for p in visible if p.published <= CUTOFF]
            sub = [at_cut[i] for i in np.random.default_rng(7).permutation(len(at_cut))[: n_test // 2]]
            cut_view = KnowledgeBaseView(table, CUTOFF, embedder._compute)
            out["full_table_filtered_to_2025_12_31"] = {m: run_queries(cut_view, sub, m) for m in ("dense", "hybrid")}
            out["vector_index_comparison"] = compare_vector_indexes(db, table, cutoff, embedder, test[:n_dev])
    out["wall_s"] = round(time.perf_counter() - t_start, 1)
    return out


def compare_vector_indexes(db, table, cutoff, embedder, queries) -> dict:
    """Build time, dense recall@10 against the exact flat scan, and dense/hybrid latency
    for each vector index type, over the same rows (a copy of the table)."""
    import numpy as np

    from assets.knowledge_base.logic import KnowledgeBaseView, ensure_indexes

    data = table.to_arrow()
    vectors = np.stack(data.column("vector").to_numpy(zero_copy_only=False))
    visible = np.asarray([d <= cutoff for d in data.column("published").to_pylist()])
    ids = np.asarray(data.column("arxiv_id").to_pylist())
    exact = []
    for title, _ in queries:
        scores = vectors @ embedder._compute([title])[0]
        scores[~visible] = -np.inf
        exact.append(set(ids[np.argsort(-scores)[:10]]))
    results = {}
    for kind in ("none", "IVF_FLAT", "IVF_SQ", "IVF_PQ", "IVF_HNSW_SQ"):
        copy = db.create_table(f"cmp_{kind.lower()}", data=data, mode="overwrite")
        ensure_indexes(copy, "none")  # FTS and B-trees first, not timed
        t0 = time.perf_counter()
        ensure_indexes(copy, kind)
        build = time.perf_counter() - t0
        view = KnowledgeBaseView(copy, cutoff, embedder._compute, engine="lance")  # the index under test
        overlap = [len({h.arxiv_id for h in view.search(t, k=10, mode="dense")} & e) / 10 for (t, _), e in zip(queries, exact)]
        dense = run_queries(view, queries, "dense")
        hybrid = run_queries(view, queries, "hybrid")
        results[kind] = {
            "build_s": round(build, 2),
            "dense_recall@10_vs_exact": round(float(np.mean(overlap)), 4),
            "dense_p50_ms": dense["p50_ms"],
            "dense_p95_ms": dense["p95_ms"],
            "hybrid_p50_ms": hybrid["p50_ms"],
            "hybrid_p95_ms": hybrid["p95_ms"],
            "hybrid_qps": hybrid["qps"],
            "hybrid_recall@10": hybrid["recall@10"],
        }
        db.drop_table(f"cmp_{kind.lower()}")
    return results


def embed_throughput(quick: bool) -> dict:
    """Texts/s of the default embedder with its cache disabled, on the shipped abstracts
    (`title. abstract`, what the KB embeds) and on titles (query-sized texts)."""
    from resources.embeddings import DEFAULT_MODEL, Embedder

    papers = load_corpus(3000 if quick else None)
    embedder = Embedder(str(DEFAULT_MODEL), cache_dir=None)
    embedder._compute(["warm up"])
    out = {}
    for label, texts in (
        ("title_and_abstract", [f"{p.title}. {p.abstract}" for p in papers]),
        ("title_only", [p.title for p in papers]),
    ):
        t0 = time.perf_counter()
        embedder._compute(texts)
        seconds = time.perf_counter() - t0
        out[label] = {
            "texts": len(texts),
            "seconds": round(seconds, 2),
            "texts_per_s": round(len(texts) / seconds, 1),
            "mean_chars": round(sum(map(len, texts)) / len(texts)),
        }
    return out


def child(kind: str, name: str, quick: bool) -> dict:
    cmd = [sys.executable, __file__, "--child", kind, "--name", name] + (["--quick"] if quick else [])
    proc = subprocess.run(cmd, capture_output=True, text=True, cwd=ROOT, env=dict(os.environ, LANCE_LOG="error"))
    if proc.returncode != 0:
        raise RuntimeError(f"{kind} {name} failed:\n{proc.stderr[-4000:]}")
    return json.loads(proc.stdout.strip().splitlines()[-1])


def verdicts(full: dict, cut: dict, emb: dict) -> list[tuple[str, str, str, bool]]:
    h35, q = full["queries"]["hybrid"], full["queries"]
    rows = [
        (
            "hybrid queries/s at 35k (sequential, 1 process)",
            f">= {TARGETS['hybrid_qps_35k']}",
            f"{h35['qps']}",
            h35["qps"] >= TARGETS["hybrid_qps_35k"],
        ),
        (
            "hybrid p95 at 35k",
            f"<= {TARGETS['hybrid_p95_ms_35k']} ms",
            f"{h35['p95_ms']} ms",
            h35["p95_ms"] <= TARGETS["hybrid_p95_ms_35k"],
        ),
        (
            "hybrid recall@10 (title -> paper, titles not indexed), 35k",
            f">= {TARGETS['hybrid_recall10']}",
            f"{h35['recall@10']}",
            h35["recall@10"] >= TARGETS["hybrid_recall10"],
        ),
        (
            "hybrid recall@10 > text-only and dense-only (35k)",
            "strictly better",
            f"{h35['recall@10']} vs text {q['text']['recall@10']}, dense {q['dense']['recall@10']}",
            h35["recall@10"] > max(q["text"]["recall@10"], q["dense"]["recall@10"]),
        ),
        (
            "hybrid recall@1 > text-only and dense-only (35k)",
            "strictly better",
            f"{h35['recall@1']} vs text {q['text']['recall@1']}, dense {q['dense']['recall@1']}",
            h35["recall@1"] > max(q["text"]["recall@1"], q["dense"]["recall@1"]),
        ),
        (
            "peak memory (35k build + queries)",
            f"< anchor {TARGETS['rss_mb']} MB",
            f"{full['peak_rss_mb']} MB",
            full["peak_rss_mb"] < TARGETS["rss_mb"],
        ),
        (
            "full corpus embedded and indexed",
            f"< {TARGETS['build_total_s_35k']} s",
            f"{full['embed_and_index_s']} s",
            full["embed_and_index_s"] < TARGETS["build_total_s_35k"],
        ),
        (
            "hybrid p95 at 21k vs anchor 80 ms",
            "lower",
            f"{cut['queries']['hybrid']['p95_ms']} ms",
            cut["queries"]["hybrid"]["p95_ms"] < ANCHOR["21k"]["p95_ms"],
        ),
    ]
    return rows


def write_markdown(result: dict) -> str:
    full, cut, emb = result["full"], result["cutoff"], result["embedding"]
    env = result["environment"]
    lines = [
        "# Knowledge base benchmark",
        "",
        f"Regenerate: `.venv/bin/python benchmarks/kb_bench.py` (took {result['wall_s']} s). Machine: "
        f"{env['cpus']} CPUs, {env['platform']}; lancedb {env['lancedb']}; load average before/after "
        f"{env['loadavg_before']} / {env['loadavg_after']} (the machine is shared: other jobs ran alongside, "
        "so latencies are upper bounds). Queries are sequential, one at a time in one process; every query "
        "carries the cutoff prefilter (`published <= cutoff`, B-tree index) and its query embedding is "
        "computed fresh (no cache).",
        "",
        "## Targets",
        "",
        "| target | wanted | measured | met |",
        "|---|---|---|---|",
    ]
    for what, wanted, got, ok in verdicts(full, cut, emb):
        lines.append(f"| {what} | {wanted} | {got} | {'yes' if ok else '**no**'} |")
    lines += [
        "",
        "## Embedding throughput (default embedder, cache disabled)",
        "",
        "| texts | n | mean chars | seconds | texts/s |",
        "|---|---|---|---|---|",
    ]
    for label, row in emb.items():
        lines.append(f"| {label} | {row['texts']} | {row['mean_chars']} | {row['seconds']} | {row['texts_per_s']} |")
    lines += [
        "",
        "## Build and memory",
        "",
        "| scenario | papers | embed s | index build s (table + FTS + B-trees + vector) | embed + index s | vector index | "
        "Lance on disk MB | RSS after build MB | peak RSS MB (build + queries) |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    for sc in (cut, full):
        lines.append(
            f"| {sc['scenario']} (filter {sc['cutoff_filter']}) | {sc['papers']} | {sc['embed_s']} | "
            f"{sc['index_build_s']} | {sc['embed_and_index_s']} | {sc['vector_index']} | "
            f"{sc['lance_on_disk_mb']} | {sc['rss_after_build_mb']} | {sc['peak_rss_mb']} |"
        )
    lines += [
        f"| anchor: ForeSci offline KB at 35k | 35k | - | {ANCHOR['35k']['build_s']} | - | - | - | - | "
        f"{ANCHOR['35k']['rss_mb']} |",
        "",
        "## Query latency and retrieval quality (title -> paper, titles NOT indexed, k = 10)",
        "",
        "| scenario | mode | p50 ms | p95 ms | queries/s | CPU ms/query | recall@1 | recall@10 | n |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    for sc in (cut, full):
        for mode, row in sc["queries"].items():
            lines.append(
                f"| {sc['scenario']} ({sc['papers']}) | {mode} | {row['p50_ms']} | {row['p95_ms']} | "
                f"{row['qps']} | {row['cpu_ms_per_query']} | {row['recall@1']} | {row['recall@10']} | "
                f"{row['n']} |"
            )
        rrf = sc["rrf_test"]
        lines.append(
            f"| {sc['scenario']} ({sc['papers']}) | hybrid, RRF k=60 (not default) | {rrf['p50_ms']} | "
            f"{rrf['p95_ms']} | {rrf['qps']} | {rrf['cpu_ms_per_query']} | {rrf['recall@1']} | "
            f"{rrf['recall@10']} | {rrf['n']} |"
        )
    for mode, row in full.get("full_table_filtered_to_2025_12_31", {}).items():
        lines.append(
            f"| full table, filter 2025-12-31 | {mode} | {row['p50_ms']} | {row['p95_ms']} | {row['qps']} | "
            f"{row['cpu_ms_per_query']} | {row['recall@1']} | {row['recall@10']} | {row['n']} |"
        )
    lines += [
        f"| anchor at 35k | BM25 + TF-IDF | {ANCHOR['35k']['p50_ms']} | {ANCHOR['35k']['p95_ms']} | "
        f"{ANCHOR['35k']['qps']} | - | - | - | - |",
        f"| anchor at 21k | BM25 + TF-IDF | - | {ANCHOR['21k']['p95_ms']} | {ANCHOR['21k']['qps']} | - | - | - | - |",
        "",
        f"## Fusion choice (dev queries, 35k; default: {full['fusion_default']})",
        "",
        "| fusion | recall@1 | recall@10 | p50 ms |",
        "|---|---|---|---|",
    ]
    for label, row in full["fusion_dev"].items():
        lines.append(f"| {label} | {row['recall@1']} | {row['recall@10']} | {row['p50_ms']} |")
    lines += [
        "",
        "## Vector index types (35k, dense recall@10 against the exact scan, same dev queries)",
        "",
        "| index | build s | dense recall@10 vs exact | dense p50 / p95 ms | hybrid p50 / p95 ms | hybrid q/s | "
        "hybrid recall@10 |",
        "|---|---|---|---|---|---|---|",
    ]
    for kind, row in full["vector_index_comparison"].items():
        lines.append(
            f"| {kind} | {row['build_s']} | {row['dense_recall@10_vs_exact']} | {row['dense_p50_ms']} / "
            f"{row['dense_p95_ms']} | {row['hybrid_p50_ms']} / {row['hybrid_p95_ms']} | {row['hybrid_qps']} | "
            f"{row['hybrid_recall@10']} |"
        )
    lines.append("")
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--quick", action="store_true", help="3k papers, 100 queries; results are not written")
    parser.add_argument("--child", choices=["scenario", "embedding"])
    parser.add_argument("--name", default="")
    args = parser.parse_args()
    if args.child == "scenario":
        print(json.dumps(scenario(args.name, args.quick), default=str))
        return
    if args.child == "embedding":
        print(json.dumps(embed_throughput(args.quick)))
        return
    import lancedb

    t0 = time.perf_counter()
    result = {
        "environment": {
            "cpus": os.cpu_count(),
            "platform": platform.platform(),
            "lancedb": lancedb.__version__,
            "python": platform.python_version(),
            "loadavg_before": " ".join(f"{x:.1f}" for x in os.getloadavg()),
        }
    }
    result["embedding"] = child("embedding", "", args.quick)
    print("embedding", json.dumps(result["embedding"]), flush=True)
    for name in ("cutoff", "full"):
        result[name] = child("scenario", name, args.quick)
        print(name, json.dumps(result[name]["queries"]), flush=True)
    result["environment"]["loadavg_after"] = " ".join(f"{x:.1f}" for x in os.getloadavg())
    result["wall_s"] = round(time.perf_counter() - t0, 1)
    result["targets"] = [
        {"target": w, "wanted": want, "measured": got, "met": ok}
        for w, want, got, ok in verdicts(result["full"], result["cutoff"], result["embedding"])
    ]
    markdown = write_markdown(result)
    if args.quick:
        print(markdown)
        return
    RESULTS_DIR.mkdir(parents=True, exist_ok=True)
    (RESULTS_DIR / "knowledge_base.json").write_text(json.dumps(result, indent=2, default=str) + "\n")
    (RESULTS_DIR / "knowledge_base.md").write_text(markdown)
    print(markdown)


if __name__ == "__main__":
    main()

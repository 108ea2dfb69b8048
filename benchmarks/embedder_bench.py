"""Embedder choice: the static default vs the int8 ONNX MiniLM on the SAME papers and queries.

Self-supervised test as in kb_bench.py: the indexed text and the vectors are the ABSTRACT
only (titles not indexed); each query is a paper's title and the target is that paper.

The ONNX model embeds only a few abstracts per second on this shared 2-core machine, so
both embedders are compared on a fixed random subset of the ~35k shipped papers: a
permutation with seed `SEED` of the deduplicated corpus, the first `QUERIES` papers of it
are the query targets and the first `--papers` (default 5,000) papers are indexed, so every
target is in the index. Vectors are computed once and cached under benchmarks/cache/
(gitignored); a rerun only reads them.

    nice -n 19 .venv/bin/python benchmarks/embedder_bench.py --embed   # slow once (ONNX: ~30 min)
    .venv/bin/python benchmarks/embedder_bench.py                     # table -> benchmarks/results/embedders.md

Reported per embedder: throughput (abstracts/s and titles/s, cache off, one process,
measured while embedding), dense-only, text-only and hybrid recall@1/@10 through the
knowledge base's real path (`build_kb` + `KnowledgeBaseView`, LanceDB), on the same queries.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("LANCE_LOG", "error")

CACHE = ROOT / "benchmarks" / "cache" / "embedders"
RESULTS_DIR = ROOT / "benchmarks" / "results"
SEED = 1625
QUERIES = 1000
CHUNK = 250  # papers per cached chunk: an interrupted run keeps what it computed
KINDS = ("static", "onnx-minilm")


def subset_order(n_corpus: int) -> np.ndarray:
    return np.random.default_rng(SEED).permutation(n_corpus)


def load_subset(n_papers: int):
    from kb_bench import load_corpus

    papers = load_corpus()
    order = subset_order(len(papers))
    return [papers[i] for i in order[:n_papers]]


def _chunk_path(kind: str, what: str, start: int) -> Path:
    return CACHE / kind / f"{what}-{start:06d}.npy"


def embed_cached(kind: str, papers, n_papers: int, log=print) -> dict:
    """Embed abstracts (chunk by chunk, cached) and the query titles; returns timing."""
    from resources.embeddings import Embedder

    embedder = Embedder("" if kind != "static" else str(ROOT / "resources/models/minilm-static"), None, kind=kind)
    (CACHE / kind).mkdir(parents=True, exist_ok=True)
    timing_path = CACHE / kind / "timing.json"
    timing = json.loads(timing_path.read_text()) if timing_path.exists() else {"abstract_s": 0.0, "abstracts": 0}
    titles = _chunk_path(kind, "titles", 0)
    if not titles.exists():
        t0 = time.perf_counter()
        vecs = embedder._compute([p.title for p in papers[:QUERIES]])
        timing.update(titles_s=time.perf_counter() - t0, titles=QUERIES)
        np.save(titles, vecs)
    for start in range(0, n_papers, CHUNK):
        path = _chunk_path(kind, "abstracts", start)
        if path.exists():
            continue
        texts = [p.abstract for p in papers[start : start + CHUNK]]
        t0 = time.perf_counter()
        vecs = embedder._compute(texts)
        timing["abstract_s"] += time.perf_counter() - t0
        timing["abstracts"] += len(texts)
        np.save(path, vecs)
        timing_path.write_text(json.dumps(timing))
        log(f"{kind}: {start + len(texts)}/{n_papers} abstracts, {timing['abstracts'] / timing['abstract_s']:.2f}/s", flush=True)
    timing_path.write_text(json.dumps(timing))
    return timing


def cached_vectors(kind: str, n_papers: int) -> np.ndarray | None:
    parts = []
    for start in range(0, n_papers, CHUNK):
        path = _chunk_path(kind, "abstracts", start)
        if not path.exists():
            return None
        parts.append(np.load(path))
    return np.concatenate(parts)[:n_papers]


def evaluate(kind: str, papers, vectors: np.ndarray, title_vectors: np.ndarray) -> dict:
    """Dense / text / hybrid recall through build_kb + KnowledgeBaseView (the agents' path)."""
    import lancedb
    from kb_bench import run_queries

    from assets.knowledge_base.logic import KnowledgeBaseView, build_kb

    by_text = {p.abstract: v for p, v in zip(papers, vectors)}
    titles = {p.title: v for p, v in zip(papers[:QUERIES], title_vectors)}

    def embed(texts):  # cached vectors only: evaluation never recomputes
        return np.stack([titles[t] if t in titles else by_text[t] for t in texts])

    cutoff = max(p.published for p in papers)
    queries = [(p.title, p.arxiv_id) for p in papers[:QUERIES]]
    with tempfile.TemporaryDirectory() as tmp:
        table, _ = build_kb(
            lancedb.connect(tmp), "emb", papers, embed, with_chunks=False, text_of=lambda p: p.abstract, vector_index="none"
        )  # exact dense: embedder, not index
        view = KnowledgeBaseView(table, cutoff, embed)
        return {
            mode: {m: run_queries(view, queries, mode)[m] for m in ("recall@1", "recall@10")}
            for mode in ("dense", "text", "hybrid")
        }


def write_markdown(result: dict) -> str:
    lines = [
        "## Embedder choice: static (default) vs int8 ONNX MiniLM",
        "",
        f"`benchmarks/embedder_bench.py`; measured {result['measured_at']}, load average {result['loadavg']} "
        "(2 shared cores: throughput is a lower bound). The same "
        f"{result['papers']:,} papers (a fixed random subset, seed {SEED}, of the {result['corpus']:,} deduplicated "
        f"shipped papers; ONNX is too slow here to embed all of them{'' if result['papers'] >= 5000 else ': 5,000 were planned, the ONNX run was stopped at this many for time'}) and the same {QUERIES:,} title queries (their "
        "targets are in the subset); indexed text and vectors are abstracts only (titles NOT indexed). "
        "Retrieval goes through `build_kb` + `KnowledgeBaseView` (exact dense scan, so the embedder is compared, "
        "not the vector index). Throughput: cache off, one process, ONNX with "
        f"{result['onnx_threads']} intra-op thread(s), run at `nice -n 19`.",
        "",
        "| embedder | dims | abstracts/s | titles/s | dense recall@1 | dense recall@10 | text recall@10 | "
        "hybrid recall@1 | hybrid recall@10 |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    for kind, row in result["embedders"].items():
        q = row["recall"]
        lines.append(
            f"| {kind} | {row['dims']} | {row['abstracts_per_s']} | {row['titles_per_s']} | "
            f"{q['dense']['recall@1']} | {q['dense']['recall@10']} | {q['text']['recall@10']} | "
            f"{q['hybrid']['recall@1']} | {q['hybrid']['recall@10']} |"
        )
    lines.append("")
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--embed", action="store_true", help="compute the missing cached vectors")
    parser.add_argument("--papers", type=int, default=5000, help="indexed papers (a prefix of the fixed permutation; >= QUERIES)")
    parser.add_argument("--kinds", nargs="+", default=list(KINDS))
    args = parser.parse_args()
    papers = load_subset(args.papers)
    if args.embed:
        for kind in args.kinds:
            embed_cached(kind, papers, args.papers)
        return
    from kb_bench import load_corpus

    result = {
        "papers": len(papers),
        "corpus": len(load_corpus()),
        "measured_at": time.strftime("%Y-%m-%d"),
        "loadavg": " ".join(f"{x:.1f}" for x in os.getloadavg()),
        "onnx_threads": os.environ.get("FORESCI_ONNX_THREADS", "default"),
        "embedders": {},
    }
    for kind in args.kinds:
        vectors = cached_vectors(kind, args.papers)
        if vectors is None:
            raise SystemExit(f"{kind}: vectors for {args.papers} papers are not cached; run with --embed first")
        timing = json.loads((CACHE / kind / "timing.json").read_text())
        result["embedders"][kind] = {
            "dims": int(vectors.shape[1]),
            "abstracts_per_s": round(timing["abstracts"] / timing["abstract_s"], 1),
            "titles_per_s": round(timing["titles"] / timing["titles_s"], 1),
            "recall": evaluate(kind, papers, vectors, np.load(_chunk_path(kind, "titles", 0))),
        }
        print(kind, json.dumps(result["embedders"][kind]), flush=True)
    RESULTS_DIR.mkdir(exist_ok=True)
    (RESULTS_DIR / "embedders.json").write_text(json.dumps(result, indent=2) + "\n")
    (RESULTS_DIR / "embedders.md").write_text(write_markdown(result))
    print(write_markdown(result))


if __name__ == "__main__":
    main()

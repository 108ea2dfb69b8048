"""Text embeddings: one embedder for screening, the knowledge base, taxonomy and FTA.

The default is a static (model2vec) embedding model distilled from all-MiniLM-L6-v2 and
shipped in `resources/models/minilm-static` (15 MB, 256 dims): it runs thousands of
texts per second on 2 cores with no network and no torch. The transformer itself runs
~45 texts/s here, too slow for a 10-minute release build. Throughput and retrieval
quality are measured in benchmarks/results.md. Any other model2vec model folder can be
configured with `model_path`.
"""

from __future__ import annotations

import hashlib
import threading
import uuid
from functools import lru_cache
from pathlib import Path

import dagster as dg
import numpy as np
from pydantic import Field

from core.paths import REPO_ROOT, state_dir

DEFAULT_MODEL = REPO_ROOT / "resources" / "models" / "minilm-static"


class Embedder:
    """L2-normalised float32 embeddings; cosine similarity is a dot product.

    Tokenising an abstract costs ~1.5 ms here, and every stage embeds the same papers
    (screening, knowledge base, taxonomy, evidence, gold), so vectors are cached by text
    hash: in memory, and on disk in `cache_dir` as append-only shards (one per encode call
    that computed anything new), so concurrent runs never overwrite each other.
    """

    def __init__(self, model_path: str, cache_dir: str | None = None):
        from model2vec import StaticModel

        self.model_path = model_path
        self._model = StaticModel.from_pretrained(model_path)
        self.dim = int(self._model.dim)
        self._lock = threading.Lock()
        self._cache: dict[bytes, np.ndarray] = {}
        self._cache_dir = Path(cache_dir) if cache_dir else None
        self._loaded = False

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
        vecs = self._model.encode(texts, batch_size=1024, show_progress_bar=False, use_multiprocessing=False)
        vecs = np.asarray(vecs, dtype=np.float32)
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
                if len(missing) >= 64:  # tiny queries are cheap: don't litter shards
                    self._save_shard(list(missing), new)
            return np.stack([self._cache[k] for k in keys])


@lru_cache(maxsize=4)
def load_embedder(model_path: str = str(DEFAULT_MODEL), cache: bool = True) -> Embedder:
    cache_dir = state_dir() / "embedding_cache" / Path(model_path).name if cache else None
    return Embedder(model_path, str(cache_dir) if cache_dir else None)


class EmbeddingResource(dg.ConfigurableResource):
    """The embedding model (a model2vec folder); default: the shipped distilled MiniLM."""

    model_path: str = Field(default="", description="model2vec model folder; empty: shipped minilm-static")

    def embedder(self) -> Embedder:
        return load_embedder(self.model_path or str(DEFAULT_MODEL))

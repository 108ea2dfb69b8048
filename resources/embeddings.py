"""Text embeddings: one embedder for screening, the knowledge base, taxonomy and FTA.

The default is a static (model2vec) embedding model distilled from all-MiniLM-L6-v2 and
shipped in `resources/models/minilm-static` (15 MB, 256 dims): it runs thousands of
texts per second on 2 cores with no network and no torch. The transformer itself runs
~45 texts/s here, too slow for a 10-minute release build. Throughput and retrieval
quality are measured in benchmarks/results.md. Any other model2vec model folder can be
configured with `model_path`.
"""

from __future__ import annotations

import threading
from functools import lru_cache

import dagster as dg
import numpy as np
from pydantic import Field

from resources.paths import REPO_ROOT

DEFAULT_MODEL = REPO_ROOT / "resources" / "models" / "minilm-static"


class Embedder:
    """L2-normalised float32 embeddings; cosine similarity is a dot product."""

    def __init__(self, model_path: str):
        from model2vec import StaticModel

        self.model_path = model_path
        self._model = StaticModel.from_pretrained(model_path)
        self.dim = int(self._model.dim)
        self._lock = threading.Lock()

    def encode(self, texts: list[str], batch_size: int = 1024) -> np.ndarray:
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        with self._lock:
            vecs = self._model.encode(list(texts), batch_size=batch_size, show_progress_bar=False)
        vecs = np.asarray(vecs, dtype=np.float32)
        norms = np.linalg.norm(vecs, axis=1, keepdims=True)
        return vecs / np.maximum(norms, 1e-12)


@lru_cache(maxsize=4)
def load_embedder(model_path: str = str(DEFAULT_MODEL)) -> Embedder:
    return Embedder(model_path)


class EmbeddingResource(dg.ConfigurableResource):
    """The embedding model (a model2vec folder); default: the shipped distilled MiniLM."""

    model_path: str = Field(default="", description="model2vec model folder; empty: shipped minilm-static")

    def embedder(self) -> Embedder:
        return load_embedder(self.model_path or str(DEFAULT_MODEL))

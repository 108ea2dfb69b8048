"""The two local embedders: the static default and the int8 ONNX MiniLM, and how one is chosen."""

import numpy as np
import pytest

from resources.embeddings import (
    EMBEDDER_ENV,
    ONNX_MINILM,
    STATIC,
    Embedder,
    EmbeddingResource,
    embedder_kind,
    load_embedder,
    onnx_files,
)

TEXTS = [
    "Dense passage retrieval for open-domain question answering",
    "Retrieval-augmented generation with a learned dense retriever for open-domain QA",
    "A recipe for baking sourdough bread at home",
]


@pytest.fixture(scope="module")
def onnx():
    return Embedder("", cache_dir=None, kind=ONNX_MINILM)


def test_onnx_model_and_tokenizer_ship_in_installed_packages(monkeypatch):
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    model, tokenizer = onnx_files()
    assert model.name == "model.onnx" and "site-packages" in str(model)
    assert tokenizer.name == "tokenizer.json" and "site-packages" in str(tokenizer)


def test_onnx_embeddings_are_unit_vectors_and_deterministic(onnx):
    first = onnx.encode(TEXTS)
    assert first.shape == (3, 384) and first.dtype == np.float32
    assert np.allclose(np.linalg.norm(first, axis=1), 1.0, atol=1e-5)
    again = Embedder("", cache_dir=None, kind=ONNX_MINILM)._compute(TEXTS)  # a fresh session, no cache
    assert np.array_equal(first, again)
    alone = onnx._compute([TEXTS[1]])[0]  # batch padding is masked: the batch does not change a vector
    assert np.allclose(alone, first[1], atol=1e-5)


def test_onnx_ranks_a_paraphrase_above_an_unrelated_text(onnx):
    vecs = onnx.encode(TEXTS)
    related, unrelated = float(vecs[0] @ vecs[1]), float(vecs[0] @ vecs[2])
    assert related > unrelated + 0.2


def test_long_texts_are_truncated_not_rejected(onnx):
    vec = onnx._compute(["retrieval " * 2000])
    assert vec.shape == (1, 384) and np.isfinite(vec).all()


def test_default_is_static_and_config_or_environment_selects_onnx(monkeypatch):
    monkeypatch.delenv(EMBEDDER_ENV, raising=False)
    assert embedder_kind() == STATIC
    static = EmbeddingResource().embedder()
    assert static.kind == STATIC and static.dim == 256
    assert EmbeddingResource(kind=ONNX_MINILM).embedder().kind == ONNX_MINILM
    monkeypatch.setenv(EMBEDDER_ENV, ONNX_MINILM)
    assert EmbeddingResource().embedder().dim == 384
    assert load_embedder(cache=False).kind == ONNX_MINILM
    assert EmbeddingResource(kind=STATIC).embedder().kind == STATIC  # explicit config wins over the environment


def test_unknown_embedder_is_refused(monkeypatch):
    with pytest.raises(ValueError, match="unknown embedder"):
        EmbeddingResource(kind="bge-huge").embedder()
    monkeypatch.setenv(EMBEDDER_ENV, "nope")
    with pytest.raises(ValueError, match="unknown embedder"):
        load_embedder()


def test_small_calls_reach_the_disk_cache(tmp_path):
    """Vectors of calls below a shard's size are pooled and written by `flush` (run at exit), so
    a later process reads them instead of recomputing; nothing is written before that."""
    from resources.embeddings import DEFAULT_MODEL, Embedder

    first = Embedder(str(DEFAULT_MODEL), cache_dir=str(tmp_path / "cache"))
    vecs = first.encode(["a sentence about agents", "another about retrieval"])
    assert not list((tmp_path / "cache").glob("shard-*.npz"))  # two vectors: pooled, not yet written
    first.flush()
    assert len(list((tmp_path / "cache").glob("shard-*.npz"))) == 1
    second = Embedder(str(DEFAULT_MODEL), cache_dir=str(tmp_path / "cache"))
    second._compute = lambda texts: (_ for _ in ()).throw(AssertionError("recomputed"))  # cached: never called
    assert (second.encode(["another about retrieval"])[0] == vecs[1]).all()

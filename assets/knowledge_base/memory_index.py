"""In-memory retrieval over one knowledge-base table: the fast path of `KnowledgeBaseView`.

LanceDB answers one query in ~8 ms of CPU here (two sub-queries, each a round trip through
its query planner), most of it fixed cost. At 35k papers the whole table fits in ~100 MB,
so the view loads it once (one scan, cached per table version) and answers from numpy:

- text: BM25 over a term -> postings index built with LanceDB's own FTS pipeline for the
  default `FTS()` config (simple tokenizer: split on non-alphanumerics, words > 40 chars
  dropped, lower case, Snowball English stemmer, then NLTK's English stop words on the
  stems, ASCII folding) and Lance's BM25 (k1 1.2, b 0.75, idf ln(1 + (N - n + 0.5) /
  (n + 0.5)), statistics over the whole table, a repeated query word counts once per
  occurrence). On the fixture KB its scores equal LanceDB's to float rounding and every
  query returns the same ids (tests/assets/knowledge_base/test_kb_fast_path.py); benchmarks/retrieval_bench.py
  measures the agreement at 35k.
- dense: exact cosine over the cached matrix below `IVF_MIN_ROWS` rows; above, an
  inverted-file index (spherical k-means, `nprobe` nearest lists, exact cosine inside them,
  20% of the lists probed, an exact scan when the probed lists hold too few visible rows) — LanceDB's IVF_SQ also
  approximates, this one keeps full-precision vectors.
- hybrid: the same candidate counts and the same `fuse_weighted` / `fuse_rrf` as the
  LanceDB path.

Every result is restricted to rows visible at the view's cutoff (a boolean mask over the
`published` column), and the view checks every returned row again.
"""

from __future__ import annotations

import re
import threading
import unicodedata
from collections import OrderedDict
from datetime import date

import numpy as np
import pyarrow as pa

STOP_WORDS = frozenset(
    """
i me my myself we our ours ourselves you your yours yourself yourselves he him his himself she her hers herself it
its itself they them their theirs themselves what which who whom this that these those am is are was were be been
being have has had having do does did doing a an the and but if or because as until while of at by for with about
against between into through during before after above below to from up down in out on off over under again further
then once here there when where why how all any both each few more most other some such no nor not only own same so
than too very s t can will just don should now d ll m o re ve y ain aren couldn didn doesn hadn hasn haven isn ma
mightn mustn needn shan shouldn wasn weren won wouldn
""".split()
)  # NLTK's English list (LanceDB's default); entries with an apostrophe never survive the tokenizer
MAX_TOKEN_CHARS = 40
BM25_K1 = 1.2
BM25_B = 0.75
IVF_MIN_ROWS = 5_000  # below: exact dense scan (a 5k x 256 matrix is ~5 MB)
IVF_NPROBE_SHARE = 0.20  # share of the lists probed: ~0.96 of the exact top 10 at 35k (benchmarks/results.md)
_WORD = re.compile(r"[^\W_]+")


class Tokenizer:
    """LanceDB's default FTS analyzer, in Python (see the module docstring)."""

    def __init__(self):
        import Stemmer

        self._stemmer = Stemmer.Stemmer("english")
        self._cache: dict[str, str] = {}

    def __call__(self, text: str) -> list[str]:
        out = []
        for word in _WORD.findall(text):
            stem = self._cache.get(word)
            if stem is None:
                stem = self._analyze(word)
                self._cache[word] = stem
            if stem:
                out.append(stem)
        return out

    def _analyze(self, word: str) -> str:
        """One word -> its indexed term, "" when dropped. Lance stems BEFORE it removes stop
        words, so a stop word whose stem differs ("only" -> "onli") is kept, and a word whose
        stem is a stop word ("others" -> "other") is dropped."""
        if len(word) > MAX_TOKEN_CHARS:
            return ""
        stem = self._stemmer.stemWord(word.lower())
        if stem in STOP_WORDS:
            return ""
        if not stem.isascii():
            stem = unicodedata.normalize("NFKD", stem).encode("ascii", "ignore").decode() or stem
        return stem


class BM25Index:
    """Term -> postings (row ids, precomputed BM25 term weights) over the whole table."""

    def __init__(self, texts: list[str], tokenizer: Tokenizer):
        self.tokenize = tokenizer
        vocab: dict[str, int] = {}
        rows, terms, counts = [], [], []
        lengths = np.zeros(len(texts), dtype=np.float64)
        for row, text in enumerate(texts):
            tokens = tokenizer(text)
            lengths[row] = len(tokens)
            for term, n in _counts(tokens).items():
                rows.append(row)
                terms.append(vocab.setdefault(term, len(vocab)))
                counts.append(n)
        self.vocab = vocab
        self.n_rows = len(texts)
        rows_a, terms_a, tf = (
            np.asarray(rows, dtype=np.int64),
            np.asarray(terms, dtype=np.int64),
            np.asarray(counts, dtype=np.float64),
        )
        order = np.lexsort((rows_a, terms_a))  # postings grouped by term, rows ascending
        rows_a, terms_a, tf = rows_a[order], terms_a[order], tf[order]
        avg = lengths.mean() if len(texts) else 1.0
        norm = BM25_K1 * (1 - BM25_B + BM25_B * lengths / max(avg, 1e-9))
        self.weights = (tf * (BM25_K1 + 1) / (tf + norm[rows_a])).astype(np.float32)
        self.postings = rows_a.astype(np.int32)
        self.offsets = np.searchsorted(terms_a, np.arange(len(vocab) + 1))
        df = np.diff(self.offsets).astype(np.float64)
        self.idf = np.log(1 + (self.n_rows - df + 0.5) / (df + 0.5)).astype(np.float32)

    def scores(self, query: str) -> np.ndarray:
        """BM25 of every row (0 where no query term occurs)."""
        ids = [self.vocab[t] for t in self.tokenize(query) if t in self.vocab]
        if not ids:
            return np.zeros(self.n_rows, dtype=np.float32)
        rows = np.concatenate([self.postings[self.offsets[i] : self.offsets[i + 1]] for i in ids])
        weights = np.concatenate([self.weights[self.offsets[i] : self.offsets[i + 1]] * self.idf[i] for i in ids])
        return np.bincount(rows, weights=weights, minlength=self.n_rows).astype(np.float32)


def _counts(tokens: list[str]) -> dict[str, int]:
    out: dict[str, int] = {}
    for token in tokens:
        out[token] = out.get(token, 0) + 1
    return out


class DenseIndex:
    """Cosine over L2-normalised rows: exact, or an inverted file (IVF) above `IVF_MIN_ROWS`."""

    def __init__(self, vectors: np.ndarray, ivf: bool | None = None, seed: int = 0):
        self.vectors = np.ascontiguousarray(vectors, dtype=np.float32)
        n = len(self.vectors)
        self.ivf = (n >= IVF_MIN_ROWS) if ivf is None else ivf
        if not self.ivf or n == 0:
            self.ivf = False
            return
        n_lists = max(4, int(np.sqrt(n)))
        self.centroids, assign = _spherical_kmeans(self.vectors, n_lists, seed)
        self.order = np.argsort(assign, kind="stable").astype(np.int64)
        self.offsets = np.searchsorted(assign[self.order], np.arange(n_lists + 1))
        self.sorted_vectors = self.vectors[self.order]  # each list contiguous: one slice per probe
        self.nprobe = max(1, int(round(IVF_NPROBE_SHARE * n_lists)))

    def top(self, vector: np.ndarray, n: int, visible: np.ndarray) -> list[tuple[int, float]]:
        if self.ivf:
            probes = np.argpartition(-(self.centroids @ vector), self.nprobe - 1)[: self.nprobe]
            rows = np.concatenate([self.order[self.offsets[p] : self.offsets[p + 1]] for p in probes])
            scores = np.concatenate([self.sorted_vectors[self.offsets[p] : self.offsets[p + 1]] @ vector for p in probes])
            keep = visible[rows]
            if int(keep.sum()) >= n:
                return _top(rows[keep], scores[keep], n)
        scores = self.vectors @ vector
        rows = np.flatnonzero(visible)
        return _top(rows, scores[rows], n)


def _spherical_kmeans(vectors: np.ndarray, n_lists: int, seed: int, iterations: int = 6):
    """k-means on the unit sphere (cosine), seeded: the same table always gets the same lists."""
    from scipy import sparse

    rng = np.random.default_rng(seed)
    centroids = vectors[rng.choice(len(vectors), n_lists, replace=False)].copy()
    for _ in range(iterations):
        assign = np.argmax(vectors @ centroids.T, axis=1)
        onehot = sparse.csr_matrix(
            (np.ones(len(vectors), dtype=np.float32), (assign, np.arange(len(vectors)))), shape=(n_lists, len(vectors))
        )
        sums = np.asarray(onehot @ vectors)
        norms = np.linalg.norm(sums, axis=1, keepdims=True)
        empty = norms[:, 0] == 0
        centroids = np.where(empty[:, None], centroids, sums / np.maximum(norms, 1e-12)).astype(np.float32)
    return centroids, np.argmax(vectors @ centroids.T, axis=1)


def _top(rows: np.ndarray, scores: np.ndarray, n: int) -> list[tuple[int, float]]:
    """The n best (row, score), best first; ties by row (stable across runs)."""
    if len(rows) == 0 or n <= 0:
        return []
    if len(rows) > n:
        cut = np.argpartition(-scores, n - 1)[:n]
        threshold = scores[cut].min()
        cut = np.flatnonzero(scores >= threshold)  # keep every tie at the boundary, then sort
        rows, scores = rows[cut], scores[cut]
    order = np.lexsort((rows, -scores))[:n]
    return [(int(rows[i]), float(scores[i])) for i in order]


class MemoryIndex:
    """One table in memory: its rows (the columns queries return), dates, BM25 and dense indexes."""

    def __init__(self, data: pa.Table, key: str, text_column: str = "text", ivf: bool | None = None):
        self.key = key
        vectors = data.column("vector").combine_chunks()
        dim = vectors.type.list_size
        self.dense = DenseIndex(vectors.values.to_numpy(zero_copy_only=False).reshape(len(vectors), dim), ivf=ivf)
        self.published = np.asarray(data.column("published").to_numpy(zero_copy_only=False), dtype="datetime64[D]")
        self.text = BM25Index(data.column(text_column).to_pylist(), Tokenizer())
        # plain Python columns: picking 10 rows from lists is ~100x cheaper than an Arrow take
        self.columns = {name: data.column(name).to_pylist() for name in data.column_names if name != "vector"}
        self.keys = self.columns[key]
        self._masks: dict[date, np.ndarray] = {}

    def visible(self, cutoff: date) -> np.ndarray:
        mask = self._masks.get(cutoff)
        if mask is None:
            mask = self.published <= np.datetime64(cutoff, "D")
            self._masks[cutoff] = mask
        return mask

    def text_top(self, query: str, n: int, visible: np.ndarray) -> list[tuple[int, float]]:
        scores = self.text.scores(query)
        rows = np.flatnonzero((scores > 0) & visible)
        return _top(rows, scores[rows], n)

    def row_dicts(self, rows: list[int], columns: list[str]) -> list[dict]:
        return [{name: self.columns[name][row] for name in columns} for row in rows]


_CACHE: OrderedDict[tuple, MemoryIndex] = OrderedDict()
_CACHE_LOCK = threading.Lock()
CACHE_TABLES = 8  # a process rarely queries more partitions than this at once


def memory_index(table, key: str, columns: list[str]) -> MemoryIndex:
    """The table's in-memory index, built on first use and cached per (table, version)."""
    ident = (str(getattr(table, "uri", id(table))), _version(table), key)
    with _CACHE_LOCK:
        index = _CACHE.get(ident)
        if index is not None:
            _CACHE.move_to_end(ident)
            return index
    data = table.to_arrow()  # every column: any later caller's columns are there
    missing = set(columns) - set(data.column_names)
    if missing:
        raise KeyError(f"columns {sorted(missing)} are not in the table")
    index = MemoryIndex(data, key)
    with _CACHE_LOCK:
        _CACHE[ident] = index
        while len(_CACHE) > CACHE_TABLES:
            _CACHE.popitem(last=False)
    return index


def _version(table) -> int:
    try:
        return int(table.version)
    except Exception:  # noqa: BLE001 - a table object without versions is never cached across changes
        return id(table)

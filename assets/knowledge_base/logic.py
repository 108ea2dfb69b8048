"""Knowledge base stage: the public snapshot in LanceDB, and the cutoff-bound view.

Two LanceDB tables per partition:

- `kb__<domain>__<cutoff>`: one row per paper (title + abstract), with a dense vector, a
  native full-text (BM25) index on `text`, B-tree indexes on `published` and `arxiv_id`,
  and an IVF vector index once the table has `VECTOR_INDEX_MIN_ROWS` rows (below that an
  exact flat scan is as fast and needs no training).
- `kb__<domain>__<cutoff>__chunks`: one row per section chunk of a paper's full text
  (`paper_fulltext`, from GROBID), or one abstract chunk for a paper without full text, so
  agents can retrieve section snippets with their paper id and section name.

Searches run on one of two engines (text and hybrid results agree; docs/knowledge_base.md,
"Retrieval speed"): `memory` (default; memory_index.py: the table cached in numpy, BM25
with LanceDB's analyzer, exact or IVF dense) or `lance` (LanceDB queries, the reference).

An agent never touches the tables directly: it holds a `KnowledgeBaseView`, whose every
query path (dense, text, hybrid, get-by-id, dates, chunk search) puts the cutoff inside
the LanceDB query (a prefilter, served by the B-tree on `published`) and checks every
returned row again, so nothing dated after the cutoff can reach it, whatever the caller
asks.

Hybrid fusion (measured in benchmarks/kb_bench.py, documented in docs/knowledge_base.md):
the candidates are the BM25 top `max(2k, 20)` and the dense top `max(k, 10)`, both
prefiltered; each candidate's score is

    HYBRID_TEXT_WEIGHT * bm25 / max(bm25 of the candidates) + (1 - HYBRID_TEXT_WEIGHT) * cosine

with the exact cosine from the stored vector (0 BM25 for a candidate the text query did
not return). Reciprocal-rank fusion (k = 60) is available as `fusion="rrf"`; it measured
lower recall here because the static embedder's dense ranking is much weaker than BM25
and RRF weighs the two ranks equally.


Length (over ~500 lines on purpose): the knowledge base's one view type and its build: the cutoff-
bound view, hybrid retrieval and the index build share the visibility rule that is the product's
temporal integrity, kept in one reviewable module."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Iterable
from datetime import date

import numpy as np
import pyarrow as pa
from pydantic import BaseModel

from assets.knowledge_base.memory_index import memory_index
from core.records import PaperFullText, ScreenedPaper

SEARCH_MODES = ("dense", "text", "hybrid")
FUSIONS = ("weighted", "rrf")
ENGINES = ("memory", "lance")  # memory: the fast path (memory_index.py); lance: LanceDB queries (the reference)
HYBRID_TEXT_WEIGHT = 0.7
HYBRID_TEXT_CANDIDATES = 20  # BM25 candidates: max(2k, this)
HYBRID_DENSE_CANDIDATES = 10  # dense candidates: max(k, this)
RRF_K = 60
VECTOR_INDEX_MIN_ROWS = 5_000  # below: exact flat scan (no IVF training in the small default build)
VECTOR_INDEX_TYPE = "IVF_SQ"  # IVF_FLAT / IVF_PQ / IVF_HNSW_SQ compared in benchmarks/kb_bench.py
CHUNK_CHARS = 1_500  # a section longer than this is split on paragraph/sentence boundaries
METRIC = "cosine"

Embed = Callable[[list[str]], np.ndarray]


class Hit(BaseModel):
    arxiv_id: str
    title: str
    published: date
    snippet: str
    score: float


class ChunkHit(BaseModel):
    """A section snippet: which paper, which section, and the text."""

    chunk_id: str
    arxiv_id: str
    title: str
    section: str  # abstract, introduction, method, experiments, limitations, conclusion, other
    heading: str
    published: date
    snippet: str
    score: float


class CutoffViolation(AssertionError):
    """Raised if a row dated after the view's cutoff ever surfaces (must never happen)."""


def table_name(domain: str, cutoff: str) -> str:
    return f"kb__{domain}__{cutoff.replace('-', '_')}"


def chunk_table_name(name: str) -> str:
    return f"{name}__chunks"


def paper_text(paper: ScreenedPaper) -> str:
    return f"{paper.title}. {paper.abstract}"


def _vector_array(vectors: np.ndarray) -> pa.Array:
    vectors = np.ascontiguousarray(vectors, dtype=np.float32)
    return pa.FixedSizeListArray.from_arrays(pa.array(vectors.reshape(-1)), vectors.shape[1])


def kb_table(papers: list[ScreenedPaper], vectors: np.ndarray, texts: list[str] | None = None) -> pa.Table:
    """The paper table; `texts` overrides the indexed text (the benchmark indexes abstracts only)."""
    return pa.table(
        {
            "arxiv_id": [p.arxiv_id for p in papers],
            "title": [p.title for p in papers],
            "abstract": [p.abstract for p in papers],
            "text": texts if texts is not None else [paper_text(p) for p in papers],
            "published": pa.array([p.published for p in papers], type=pa.date32()),
            "label": [p.label for p in papers],
            "vector": _vector_array(vectors),
        }
    )


# --- chunks --------------------------------------------------------------------------

_PARAGRAPH = re.compile(r"\n\s*\n")
_SENTENCE = re.compile(r"(?<=[.!?])\s+(?=[A-Z0-9(\[])")


def split_text(text: str, limit: int = CHUNK_CHARS) -> list[str]:
    """Split on paragraph, then sentence boundaries into pieces of at most ~`limit` chars
    (a single sentence longer than `limit` is cut hard)."""
    text = text.strip()
    if len(text) <= limit:
        return [text] if text else []
    units: list[str] = []
    for para in _PARAGRAPH.split(text):
        for sentence in _SENTENCE.split(para.strip()):
            sentence = sentence.strip()
            while len(sentence) > limit:
                units.append(sentence[:limit])
                sentence = sentence[limit:]
            if sentence:
                units.append(sentence)
    pieces: list[str] = []
    current = ""
    for unit in units:
        if current and len(current) + 1 + len(unit) > limit:
            pieces.append(current)
            current = unit
        else:
            current = f"{current} {unit}" if current else unit
    if current:
        pieces.append(current)
    return pieces


def chunk_rows(papers: list[ScreenedPaper], fulltexts: dict[str, PaperFullText] | None = None) -> list[dict]:
    """One abstract chunk per paper (its indexed text is the paper's own `title. abstract`,
    so its vector comes from the embedding cache), plus the GROBID sections of papers with
    full text, each split into pieces of at most `CHUNK_CHARS`. GROBID's own abstract is
    skipped (the corpus abstract is the canonical one); empty sections are skipped."""
    fulltexts = fulltexts or {}
    rows: list[dict] = []
    for paper in papers:
        base = {"arxiv_id": paper.arxiv_id, "title": paper.title, "published": paper.published}
        rows.append(
            {**base, "chunk_id": f"{paper.arxiv_id}#0", "section": "abstract", "heading": "Abstract", "text": paper_text(paper)}
        )
        full = fulltexts.get(paper.arxiv_id)
        if full is None or full.source != "grobid":
            continue
        n = 0
        for section in full.sections:
            if section.name == "abstract":
                continue
            for piece in split_text(section.text):
                n += 1
                rows.append(
                    {
                        **base,
                        "chunk_id": f"{paper.arxiv_id}#{n}",
                        "section": section.name,
                        "heading": section.heading,
                        "text": piece,
                    }
                )
    return rows


def chunk_table(rows: list[dict], vectors: np.ndarray) -> pa.Table:
    columns = ["chunk_id", "arxiv_id", "title", "section", "heading", "text"]
    data = {c: [r[c] for r in rows] for c in columns}
    data["published"] = pa.array([r["published"] for r in rows], type=pa.date32())
    data["vector"] = _vector_array(vectors)
    return pa.table(data)


# --- building ------------------------------------------------------------------------


def _index_names(table) -> dict[str, str]:
    """column -> index type of the table's indexes."""
    return {cfg.columns[0]: cfg.index_type for cfg in table.list_indices()}


def ensure_indexes(table, vector_index: str = "auto", key: str = "arxiv_id") -> dict:
    """Create the indexes a table lacks; fold rows added since into the existing ones.

    FTS on `text`, B-tree on `published` (the cutoff prefilter) and on the key (get by id),
    and a vector index on `vector` when `vector_index` names one, or is "auto" and the
    table has at least VECTOR_INDEX_MIN_ROWS rows (IVF partitions: rows / 1000, at least 4).
    """
    from lancedb.index import FTS, BTree, IvfFlat, IvfHnswSq, IvfPq, IvfSq

    have = _index_names(table)
    created = []
    if "text" not in have:
        table.create_index("text", config=FTS(with_position=False), replace=True)
        created.append("fts")
    for column in ("published", key):
        if column not in have:
            table.create_index(column, config=BTree(), replace=True)
            created.append(f"btree:{column}")
    rows = table.count_rows()
    kind = VECTOR_INDEX_TYPE if vector_index == "auto" and rows >= VECTOR_INDEX_MIN_ROWS else vector_index
    if kind not in ("auto", "none") and "vector" not in have:
        parts = max(4, rows // 1000)
        configs = {
            "IVF_FLAT": lambda: IvfFlat(distance_type=METRIC, num_partitions=parts),
            "IVF_SQ": lambda: IvfSq(distance_type=METRIC, num_partitions=parts),
            "IVF_PQ": lambda: IvfPq(distance_type=METRIC, num_partitions=parts, num_sub_vectors=16, max_iterations=10),
            "IVF_HNSW_SQ": lambda: IvfHnswSq(distance_type=METRIC, num_partitions=max(1, parts // 8)),
        }
        if kind not in configs:
            raise ValueError(f"vector_index must be auto, none or one of {sorted(configs)}")
        table.create_index("vector", config=configs[kind](), replace=True)
        created.append(kind.lower())
    if not created:
        table.optimize()  # appended rows join the existing FTS, B-tree and vector indexes
    indexes = _index_names(table)
    return {
        "created": created,
        "vector_index": indexes.get("vector", "none (exact flat scan)"),
        "indexes": sorted(f"{c}:{t}" for c, t in indexes.items()),
    }


def write_table(db, name: str, data: pa.Table, key: str, compare: Iterable[str]) -> tuple[object, dict]:
    """Create the table, or bring an existing one up to `data` incrementally: rows whose key
    is gone or whose `compare` columns changed are deleted, new and changed rows appended
    (then `ensure_indexes` calls optimize() so they join the indexes). A table written by
    an older schema is replaced."""
    try:
        table = db.open_table(name)
    except (ValueError, FileNotFoundError, RuntimeError):
        table = None
    if table is None or table.schema != data.schema:
        table = db.create_table(name, data=data, mode="overwrite")
        return table, {"write": "created", "added": data.num_rows, "deleted": 0}
    compare = list(compare)
    old = table.search().select([key, *compare]).limit(None).to_arrow()
    old_rows = {r[key]: tuple(r[c] for c in compare) for r in old.to_pylist()}
    new_rows = data.select([key, *compare]).to_pylist()
    new_keys = {r[key] for r in new_rows}
    stale = [k for k, v in old_rows.items() if k not in new_keys]
    changed = [r[key] for r in new_rows if r[key] in old_rows and old_rows[r[key]] != tuple(r[c] for c in compare)]
    fresh = {r[key] for r in new_rows if r[key] not in old_rows} | set(changed)
    drop = stale + changed
    for start in range(0, len(drop), 500):
        ids = ", ".join("'" + k.replace("'", "''") + "'" for k in drop[start : start + 500])
        table.delete(f"{key} IN ({ids})")
    if fresh:
        mask = pa.array([k in fresh for k in data.column(key).to_pylist()])
        table.add(data.filter(mask))
    return table, {"write": "incremental", "added": len(fresh), "deleted": len(drop)}


def build_kb(
    db,
    name: str,
    papers: list[ScreenedPaper],
    embed: Embed,
    fulltexts: dict[str, PaperFullText] | None = None,
    *,
    vector_index: str = "auto",
    with_chunks: bool = True,
    text_of: Callable[[ScreenedPaper], str] = paper_text,
) -> tuple[object, dict]:
    """Create or update the partition's paper table (and its chunk table) with dense
    vectors, a full-text index, scalar indexes and, when large enough, a vector index.
    `text_of` is what is embedded and full-text indexed (default `title. abstract`; the
    benchmark's self-supervised test indexes abstracts only)."""
    if not papers:
        raise ValueError(f"knowledge base {name}: no papers to index (empty public snapshot)")
    seen: set[str] = set()
    duplicates = [p.arxiv_id for p in papers if p.arxiv_id in seen or seen.add(p.arxiv_id)]
    if duplicates:
        raise ValueError(f"knowledge base {name}: duplicate arxiv ids {duplicates[:5]}")
    texts = [text_of(p) for p in papers]
    vectors = embed(texts)
    table, write = write_table(db, name, kb_table(papers, vectors, texts), "arxiv_id", ["text", "published", "label"])
    indexes = ensure_indexes(table, vector_index)
    info = {"rows": table.count_rows(), "lance_version": int(table.version), "dim": int(vectors.shape[1]), **write, **indexes}
    if with_chunks:
        rows = chunk_rows(papers, fulltexts)
        chunk_vectors = embed([r["text"] for r in rows])
        ctable, _ = write_table(
            db, chunk_table_name(name), chunk_table(rows, chunk_vectors), "chunk_id", ["text", "published", "section"]
        )
        cindexes = ensure_indexes(ctable, vector_index, key="chunk_id")
        sections = Counter(r["section"] for r in rows)
        info.update(
            {
                "chunks": ctable.count_rows(),
                "chunk_lance_version": int(ctable.version),
                "chunk_vector_index": cindexes["vector_index"],
                "fulltext_papers": sum(
                    1
                    for p in papers
                    if (fulltexts or {}).get(p.arxiv_id) is not None and fulltexts[p.arxiv_id].source == "grobid"
                ),
                "chunks_by_section": dict(sorted(sections.items())),
            }
        )
    return table, info


# --- fusion --------------------------------------------------------------------------


def fuse_weighted(
    text: list[tuple[str, float]], cosine: dict[str, float], k: int, text_weight: float = HYBRID_TEXT_WEIGHT
) -> list[tuple[str, float]]:
    """Weighted score fusion: text_weight * bm25 / max bm25 + (1 - text_weight) * cosine,
    over the union of candidates (BM25 0 where the text query did not return a key)."""
    top = max((s for _, s in text), default=0.0)
    bm25 = {key: (s / top if top > 0 else 0.0) for key, s in text}
    keys = list(dict.fromkeys([key for key, _ in text] + list(cosine)))
    scored = [(key, text_weight * bm25.get(key, 0.0) + (1 - text_weight) * cosine.get(key, 0.0)) for key in keys]
    return sorted(scored, key=lambda kv: (-kv[1], kv[0]))[:k]


def fuse_rrf(rankings: list[list[str]], k: int, rrf_k: int = RRF_K) -> list[tuple[str, float]]:
    """Reciprocal-rank fusion: sum over rankings of 1 / (rrf_k + rank), rank from 1."""
    scores: dict[str, float] = {}
    for ranking in rankings:
        for rank, key in enumerate(ranking, start=1):
            scores[key] = scores.get(key, 0.0) + 1.0 / (rrf_k + rank)
    return sorted(scores.items(), key=lambda kv: (-kv[1], kv[0]))[:k]


# --- the cutoff-bound view ----------------------------------------------------------


def _rows(table: pa.Table) -> list[dict]:
    """Arrow result -> row dicts; the vector column goes to numpy in one step, not via lists."""
    if "vector" not in table.column_names:
        return table.to_pylist()
    column = table.column("vector").combine_chunks()
    vectors = column.values.to_numpy(zero_copy_only=False).reshape(len(column), -1) if len(column) else []
    rows = table.drop_columns(["vector"]).to_pylist()
    for row, vec in zip(rows, vectors):
        row["vector"] = vec
    return rows


FTS_COLUMN = "text"  # the column `ensure_indexes` gives a full-text index


def fts_query(query: str):
    """The full-text query for a user's text: its words, matched as plain terms (BM25, OR).

    A bare string is parsed by LanceDB: a query wrapped in double quotes becomes a phrase
    query, which raises on our position-less index ("position is not found but required for
    phrase queries"). Passing a `MatchQuery` skips query parsing altogether, so quotes,
    colons, parentheses, AND/OR/NOT, `*`, `~`, `^` are just text (the tokenizer drops the
    punctuation); plain queries score exactly as before.
    """
    from lancedb.query import MatchQuery

    return MatchQuery(query, FTS_COLUMN)


class _Searcher:
    """Dense, text and hybrid search over one table, always prefiltered by `where`.

    Queries go to the table's async LanceDB handle when it has one: the two sub-queries of
    a hybrid search then run concurrently in one round trip to LanceDB's background event
    loop (the sync API makes ~6 round trips per query, which dominated latency on 2 busy
    cores). Any other table object goes through the sync query builder, same filters.
    """

    def __init__(
        self,
        table,
        where: str,
        embed: Embed,
        key: str,
        fusion: str,
        text_weight: float,
        nprobes: int | None,
        cutoff: date | None = None,
        engine: str = "lance",
    ):
        self.table, self.where, self.embed, self.key = table, where, embed, key
        self.fusion, self.text_weight, self.nprobes = fusion, text_weight, nprobes
        self.cutoff, self.engine = cutoff, engine
        try:
            from lancedb.table import AsyncTable

            inner = getattr(table, "_table", None)
            self._async = inner if isinstance(inner, AsyncTable) else None
        except ImportError:  # pragma: no cover - another lancedb layout
            self._async = None

    def _dense_sync(self, vector, n, columns):
        builder = self.table.search(vector, query_type="vector").distance_type(METRIC)
        if self.nprobes:
            builder = builder.nprobes(self.nprobes)
        return builder.where(self.where, prefilter=True).select([*columns, "_distance"]).limit(n).to_arrow()

    def _text_sync(self, query, n, columns):
        return (
            self.table.search(fts_query(query), query_type="fts")
            .where(self.where, prefilter=True)
            .select([*columns, "_score"])
            .limit(n)
            .to_arrow()
        )

    def _dense_async(self, vector, n, columns):
        builder = self._async.query().nearest_to(vector).distance_type(METRIC)
        if self.nprobes:
            builder = builder.nprobes(self.nprobes)
        return builder.where(self.where).select([*columns, "_distance"]).limit(n)  # async default: prefilter

    def _text_async(self, query, n, columns):
        return self._async.query().nearest_to_text(fts_query(query)).where(self.where).select([*columns, "_score"]).limit(n)

    def _run(self, text: tuple | None, dense: tuple | None) -> tuple[list[dict], list[dict]]:
        """Run the text and/or dense sub-query; returns (text rows, dense rows), each row's
        `vector` (when selected) as a numpy array."""
        if self._async is None:
            return (_rows(self._text_sync(*text)) if text else [], _rows(self._dense_sync(*dense)) if dense else [])
        import asyncio

        from lancedb.background_loop import LOOP

        builders = [self._text_async(*text) if text else None, self._dense_async(*dense) if dense else None]

        async def gather():
            return await asyncio.gather(*(b.to_arrow() for b in builders if b is not None))

        tables = iter(LOOP.run(gather()))
        return tuple(_rows(next(tables)) if b is not None else [] for b in builders)

    def search(self, query: str, k: int, mode: str, columns: list[str]) -> list[tuple[dict, float]]:
        if self.engine == "memory":
            return self.search_many([query], k, mode, columns)[0]
        if mode == "dense":
            _, rows = self._run(None, (self.embed([query])[0], k, columns))
            return [(r, 1.0 - float(r["_distance"])) for r in rows]
        if mode == "text":
            rows, _ = self._run((query, k, columns), None)
            return [(r, float(r["_score"])) for r in rows]
        vector = self.embed([query])[0]
        with_vector = [*columns, "vector"]
        text_rows, dense_rows = self._run(
            (query, max(2 * k, HYBRID_TEXT_CANDIDATES), with_vector), (vector, max(k, HYBRID_DENSE_CANDIDATES), with_vector)
        )
        rows = {r[self.key]: r for r in dense_rows}
        rows.update({r[self.key]: r for r in text_rows})
        if self.fusion == "rrf":
            fused = fuse_rrf([[r[self.key] for r in text_rows], [r[self.key] for r in dense_rows]], k)
        else:
            keys = list(rows)
            matrix = np.stack([rows[key]["vector"] for key in keys]) if keys else np.zeros((0, len(vector)))
            cosine = dict(zip(keys, (matrix @ vector).tolist())) if keys else {}
            fused = fuse_weighted([(r[self.key], float(r["_score"])) for r in text_rows], cosine, k, self.text_weight)
        return [(rows[key], score) for key, score in fused]

    def search_many(self, queries: list[str], k: int, mode: str, columns: list[str]) -> list[list[tuple[dict, float]]]:
        """Several queries at once: one embedding call for all of them (the memory engine)."""
        if self.engine != "memory":
            return [self.search(q, k, mode, columns) for q in queries]
        index = self._memory_index(columns)
        visible = index.visible(self.cutoff)
        vectors = self.embed(list(queries)) if mode != "text" else [None] * len(queries)
        out = []
        for query, vector in zip(queries, vectors):
            if mode == "dense":
                ranked = index.dense.top(vector, k, visible)
            elif mode == "text":
                ranked = index.text_top(query, k, visible)
            else:
                ranked = self._fuse_memory(index, query, vector, k, visible)
            picked = index.row_dicts([row for row, _ in ranked], columns)
            out.append(list(zip(picked, [score for _, score in ranked])))
        return out

    def _memory_index(self, columns: list[str]):
        """The table's in-memory index, looked up once per view: asking LanceDB for the
        table's uri and version costs a round trip per query. A view is a snapshot: open a
        new one after the table is rebuilt (open_view does, once per asset run)."""
        if getattr(self, "_index", None) is None:
            self._index = memory_index(self.table, self.key, columns)
        return self._index

    def _fuse_memory(self, index, query: str, vector: np.ndarray, k: int, visible: np.ndarray) -> list[tuple[int, float]]:
        """The LanceDB path's hybrid, on the in-memory index: same candidate counts, same fusion."""
        text = index.text_top(query, max(2 * k, HYBRID_TEXT_CANDIDATES), visible)
        dense = index.dense.top(vector, max(k, HYBRID_DENSE_CANDIDATES), visible)
        keys = index.keys
        row_of = {keys[row]: row for row, _ in dense}
        row_of.update({keys[row]: row for row, _ in text})
        if self.fusion == "rrf":
            fused = fuse_rrf([[keys[r] for r, _ in text], [keys[r] for r, _ in dense]], k)
        else:
            rows = list(row_of.values())
            cosine = dict(zip(row_of, (index.dense.vectors[rows] @ vector).tolist())) if rows else {}
            fused = fuse_weighted([(keys[r], s) for r, s in text], cosine, k, self.text_weight)
        return [(row_of[key], score) for key, score in fused]


class KnowledgeBaseView:
    """Read-only, cutoff-bound access to one partition's knowledge base."""

    def __init__(
        self,
        table,
        cutoff: date,
        embed: Embed,
        chunks=None,
        *,
        fusion: str = "weighted",
        text_weight: float = HYBRID_TEXT_WEIGHT,
        nprobes: int | None = None,
        engine: str = "memory",
    ):
        if fusion not in FUSIONS:
            raise ValueError(f"fusion must be one of {FUSIONS}")
        if engine not in ENGINES:
            raise ValueError(f"engine must be one of {ENGINES}")
        self._table = table
        self._chunks = chunks
        self.cutoff = cutoff
        self._embed = embed
        self._where = f"published <= date '{cutoff.isoformat()}'"
        self._papers = _Searcher(table, self._where, embed, "arxiv_id", fusion, text_weight, nprobes, cutoff, engine)
        self._chunk_search = (
            _Searcher(chunks, self._where, embed, "chunk_id", fusion, text_weight, nprobes, cutoff, engine)
            if chunks is not None
            else None
        )
        self._options = {"fusion": fusion, "text_weight": text_weight, "nprobes": nprobes, "engine": engine}

    def bound_to(self, cutoff: date) -> KnowledgeBaseView:
        """The same knowledge base bound to an earlier cutoff (a later one is refused: never widen)."""
        if cutoff > self.cutoff:
            raise CutoffViolation(f"cannot widen a view bound to {self.cutoff} to {cutoff}")
        return (
            self if cutoff == self.cutoff else KnowledgeBaseView(self._table, cutoff, self._embed, self._chunks, **self._options)
        )

    def _guard(self, rows: list[dict]) -> list[dict]:
        for row in rows:
            if row["published"] > self.cutoff:
                raise CutoffViolation(f"{row['arxiv_id']} dated {row['published']} is after {self.cutoff}")
        return rows

    @staticmethod
    def _check(query: str, k: int, mode: str) -> bool:
        if mode not in SEARCH_MODES:
            raise ValueError(f"mode must be one of {SEARCH_MODES}")
        return bool(query.strip()) and k > 0

    def search(self, query: str, k: int = 10, mode: str = "hybrid") -> list[Hit]:
        if not self._check(query, k, mode):
            return []
        results = self._papers.search(query, k, mode, ["arxiv_id", "title", "abstract", "published"])
        return self._hits(results)

    def search_many(self, queries: list[str], k: int = 10, mode: str = "hybrid") -> list[list[Hit]]:
        """`search` for several queries at once (one embedding call): the same hits as one by one."""
        self._check("x", k, mode)
        live = [q for q in queries if q.strip()] if k > 0 else []
        results = iter(self._papers.search_many(live, k, mode, ["arxiv_id", "title", "abstract", "published"]))
        return [self._hits(next(results)) if k > 0 and q.strip() else [] for q in queries]

    def _hits(self, results: list[tuple[dict, float]]) -> list[Hit]:
        self._guard([row for row, _ in results])
        return [
            Hit(
                arxiv_id=row["arxiv_id"],
                title=row["title"],
                published=row["published"],
                snippet=row["abstract"][:400],
                score=score,
            )
            for row, score in results
        ]

    def search_chunks(self, query: str, k: int = 10, mode: str = "hybrid") -> list[ChunkHit]:
        """Section snippets (paper id, section name, heading, text) for the query."""
        if not self._check(query, k, mode):
            return []
        if self._chunk_search is None:
            # a table built before chunking existed: abstracts stand in as chunks
            return [
                ChunkHit(
                    chunk_id=f"{h.arxiv_id}#0",
                    arxiv_id=h.arxiv_id,
                    title=h.title,
                    section="abstract",
                    heading="Abstract",
                    published=h.published,
                    snippet=h.snippet,
                    score=h.score,
                )
                for h in self.search(query, k, mode)
            ]
        columns = ["chunk_id", "arxiv_id", "title", "section", "heading", "text", "published"]
        results = self._chunk_search.search(query, k, mode, columns)
        self._guard([row for row, _ in results])
        return [
            ChunkHit(
                chunk_id=row["chunk_id"],
                arxiv_id=row["arxiv_id"],
                title=row["title"],
                section=row["section"],
                heading=row["heading"],
                published=row["published"],
                snippet=row["text"],
                score=score,
            )
            for row, score in results
        ]

    def get(self, arxiv_id: str) -> Hit | None:
        safe = arxiv_id.replace("'", "''")
        rows = (
            self._table.search()
            .where(f"arxiv_id = '{safe}' AND {self._where}", prefilter=True)
            .select(["arxiv_id", "title", "abstract", "published"])
            .limit(1)
            .to_list()
        )
        rows = self._guard(rows)
        if not rows:
            return None
        row = rows[0]
        return Hit(arxiv_id=row["arxiv_id"], title=row["title"], published=row["published"], snippet=row["abstract"], score=1.0)

    def sections(self, arxiv_id: str) -> list[ChunkHit]:
        """Every chunk of one visible paper, in order (empty for a paper after the cutoff)."""
        if self._chunks is None:
            hit = self.get(arxiv_id)
            return (
                []
                if hit is None
                else [
                    ChunkHit(
                        chunk_id=f"{arxiv_id}#0",
                        arxiv_id=arxiv_id,
                        title=hit.title,
                        section="abstract",
                        heading="Abstract",
                        published=hit.published,
                        snippet=hit.snippet,
                        score=1.0,
                    )
                ]
            )
        safe = arxiv_id.replace("'", "''")
        rows = (
            self._chunks.search()
            .where(f"arxiv_id = '{safe}' AND {self._where}", prefilter=True)
            .select(["chunk_id", "arxiv_id", "title", "section", "heading", "text", "published"])
            .limit(None)
            .to_list()
        )
        rows = sorted(self._guard(rows), key=lambda r: int(r["chunk_id"].rsplit("#", 1)[1]))
        return [
            ChunkHit(
                chunk_id=r["chunk_id"],
                arxiv_id=r["arxiv_id"],
                title=r["title"],
                section=r["section"],
                heading=r["heading"],
                published=r["published"],
                snippet=r["text"],
                score=1.0,
            )
            for r in rows
        ]

    def dates(self) -> dict[str, date]:
        """Publication date of every visible paper (for citation checks)."""
        table = self._table.search().where(self._where, prefilter=True).select(["arxiv_id", "published"]).limit(None).to_arrow()
        dates = dict(zip(table.column("arxiv_id").to_pylist(), table.column("published").to_pylist()))
        if dates and max(dates.values()) > self.cutoff:
            raise CutoffViolation(f"a paper dated after {self.cutoff} surfaced in dates()")
        return dates

    def monthly_volume(self) -> dict[str, int]:
        return dict(sorted(Counter(d.strftime("%Y-%m") for d in self.dates().values()).items()))

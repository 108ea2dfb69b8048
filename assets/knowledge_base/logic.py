"""Knowledge base stage: the public snapshot in LanceDB, and the cutoff-bound view.

An agent never touches the LanceDB table directly: it holds a `KnowledgeBaseView`,
whose every query path (dense, text, hybrid, get-by-id) applies the cutoff inside the
query (prefilter) and checks every returned row again, so nothing dated after the
cutoff can reach it, whatever the caller asks.
"""

from __future__ import annotations

from collections import Counter
from datetime import date

import numpy as np
import pyarrow as pa
from pydantic import BaseModel

from assets.records import ScreenedPaper

SEARCH_MODES = ("dense", "text", "hybrid")


class Hit(BaseModel):
    arxiv_id: str
    title: str
    published: date
    snippet: str
    score: float


class CutoffViolation(AssertionError):
    """Raised if a row dated after the view's cutoff ever surfaces (must never happen)."""


def table_name(domain: str, cutoff: str) -> str:
    return f"kb__{domain}__{cutoff.replace('-', '_')}"


def kb_table(papers: list[ScreenedPaper], vectors: np.ndarray) -> pa.Table:
    return pa.table(
        {
            "arxiv_id": [p.arxiv_id for p in papers],
            "title": [p.title for p in papers],
            "abstract": [p.abstract for p in papers],
            "text": [f"{p.title}. {p.abstract}" for p in papers],
            "published": pa.array([p.published for p in papers], type=pa.date32()),
            "label": [p.label for p in papers],
            "vector": pa.array(list(vectors), type=pa.list_(pa.float32(), vectors.shape[1])),
        }
    )


def build_kb(db, name: str, papers: list[ScreenedPaper], embed) -> tuple[object, dict]:
    """Create (or replace) the partition's table with dense vectors and a full-text index."""
    from lancedb.index import FTS

    if not papers:
        raise ValueError(f"knowledge base {name}: no papers to index (empty public snapshot)")
    vectors = embed([f"{p.title}. {p.abstract}" for p in papers])
    table = db.create_table(name, data=kb_table(papers, vectors), mode="overwrite")
    table.create_index("text", config=FTS(with_position=False), replace=True)
    return table, {"rows": table.count_rows(), "lance_version": int(table.version), "dim": int(vectors.shape[1])}


class KnowledgeBaseView:
    """Read-only, cutoff-bound access to one partition's knowledge base."""

    def __init__(self, table, cutoff: date, embed):
        self._table = table
        self.cutoff = cutoff
        self._embed = embed
        self._where = f"published <= date '{cutoff.isoformat()}'"

    def _guard(self, rows: list[dict]) -> list[dict]:
        for row in rows:
            if row["published"] > self.cutoff:
                raise CutoffViolation(f"{row['arxiv_id']} dated {row['published']} is after {self.cutoff}")
        return rows

    def search(self, query: str, k: int = 10, mode: str = "hybrid") -> list[Hit]:
        if mode not in SEARCH_MODES:
            raise ValueError(f"mode must be one of {SEARCH_MODES}")
        if not query.strip() or k <= 0:
            return []
        columns = ["arxiv_id", "title", "abstract", "published"]
        if mode == "dense":
            builder = self._table.search(self._embed([query])[0], query_type="vector")
            columns.append("_distance")  # asked for explicitly: lance warns otherwise
        elif mode == "text":
            builder = self._table.search(query, query_type="fts")
            columns.append("_score")
        else:
            builder = self._table.search(query_type="hybrid").vector(self._embed([query])[0]).text(query)
        rows = builder.where(self._where, prefilter=True).select(columns).limit(k).to_list()
        hits = []
        for row in self._guard(rows):
            score = row.get("_relevance_score", row.get("_score", None))
            if score is None:
                score = 1.0 - float(row.get("_distance", 1.0))
            hits.append(Hit(arxiv_id=row["arxiv_id"], title=row["title"], published=row["published"],
                            snippet=row["abstract"][:400], score=float(score)))
        return hits

    def get(self, arxiv_id: str) -> Hit | None:
        safe = arxiv_id.replace("'", "''")
        rows = (self._table.search().where(f"arxiv_id = '{safe}' AND {self._where}", prefilter=True)
                .select(["arxiv_id", "title", "abstract", "published"]).limit(1).to_list())
        rows = self._guard(rows)
        if not rows:
            return None
        row = rows[0]
        return Hit(arxiv_id=row["arxiv_id"], title=row["title"], published=row["published"],
                   snippet=row["abstract"], score=1.0)

    def dates(self) -> dict[str, date]:
        """Publication date of every visible paper (for citation checks)."""
        table = self._table.search().where(self._where, prefilter=True).select(["arxiv_id", "published"]).limit(None).to_arrow()
        return dict(zip(table.column("arxiv_id").to_pylist(), table.column("published").to_pylist()))

    def monthly_volume(self) -> dict[str, int]:
        return dict(sorted(Counter(d.strftime("%Y-%m") for d in self.dates().values()).items()))

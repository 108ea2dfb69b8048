"""The knowledge-base tool every method holds: the cutoff-bound view, traced.

`TracedKB` wraps a `KnowledgeBaseView` for one task run. It forwards search / get /
monthly_volume / dates (the view applies the cutoff inside every query and re-checks
each row) and records every retrieval call: the query, mode, k and the ids returned.
The runner stores that trace with the answer (`Answer.artifacts["kb_trace"]`) and uses
the set of ids actually returned to validate citations, for built-in and external
agents alike.

`KBTool` is the narrow, JSON-only face of the same thing handed to external agents:
`search(query, k, mode) -> list[dict]`, `get(arxiv_id) -> dict | None`, `cutoff`
(ISO date string). It returns plain dicts, never the view or the table.
"""

from __future__ import annotations

import threading
from datetime import date

MAX_K = 50


def hit_dict(hit) -> dict:
    return {
        "arxiv_id": hit.arxiv_id,
        "title": hit.title,
        "published": hit.published.isoformat(),
        "snippet": hit.snippet,
        "score": round(float(hit.score), 6),
    }


class TracedKB:
    """A cutoff-bound view that records what it was asked and what it returned."""

    def __init__(self, view):
        self._view = view
        self.cutoff: date = view.cutoff
        self.calls: list[dict] = []
        self.returned: dict[str, object] = {}  # arxiv_id -> Hit, in first-seen order
        self._lock = threading.Lock()

    def _record(self, call: dict, hits: list) -> None:
        with self._lock:
            self.calls.append({**call, "ids": [h.arxiv_id for h in hits]})
            for h in hits:
                self.returned.setdefault(h.arxiv_id, h)

    def search(self, query: str, k: int = 10, mode: str = "hybrid") -> list:
        hits = self._view.search(query, k=k, mode=mode)
        self._record({"op": "search", "query": query, "k": k, "mode": mode}, hits)
        return hits

    def get(self, arxiv_id: str):
        hit = self._view.get(arxiv_id)
        self._record({"op": "get", "arxiv_id": arxiv_id}, [hit] if hit is not None else [])
        return hit

    def dates(self) -> dict[str, date]:
        return self._view.dates()

    def monthly_volume(self) -> dict[str, int]:
        return self._view.monthly_volume()

    @property
    def queries(self) -> list[str]:
        return list(dict.fromkeys(c["query"] for c in self.calls if c["op"] == "search"))

    def trace(self) -> list[dict]:
        return list(self.calls)


class KBTool:
    """What an external agent may do with the knowledge base: search and get, bound to the cutoff."""

    def __init__(self, traced: TracedKB):
        self._kb = traced
        self.cutoff: str = traced.cutoff.isoformat()

    def search(self, query: str, k: int = 10, mode: str = "hybrid") -> list[dict]:
        k = max(0, min(int(k), MAX_K))
        return [hit_dict(h) for h in self._kb.search(str(query), k=k, mode=str(mode))]

    def get(self, arxiv_id: str) -> dict | None:
        hit = self._kb.get(str(arxiv_id))
        return hit_dict(hit) if hit is not None else None

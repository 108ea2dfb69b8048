"""The review queue of one partition: audit records joined with their current decisions.

Shared by the review page (`app.py`) and `foresci audit status`. The audit records come
from the hidden `audit_queue` asset (re-read only when its Parquet file changes); the
decisions from the append-only log (`resources/decisions.py`), read on every request so
two reviewers see each other's decisions at once.

The overview of every partition (the page's index) needs only each task's id, selection and
flag codes: `heads` reads those columns and the flags of the record JSON without validating
whole records (a partition holds up to ~500 candidates with their gold and evidence: ~0.5 s to
validate), so the first page answers in well under 2 s however many partitions are built.
"""

from __future__ import annotations

import json
import threading
from collections import Counter
from dataclasses import dataclass

import pyarrow.fs as pafs
import pyarrow.parquet as pq

from assets.audit.logic import code_counts
from assets.audit.policy import state_of
from core.records import AuditRecord, Decision
from resources.decisions import DecisionStore
from resources.storage import PartitionStore

STATES = ("pending", "approved", "revised", "rejected")


@dataclass
class Item:
    record: AuditRecord
    decision: Decision | None  # current: latest for the record's content hash

    @property
    def state(self) -> str:
        return state_of(self.decision)

    @property
    def flag_codes(self) -> list[str]:
        return sorted({f.code for f in self.record.flags})

    @property
    def selected(self) -> bool:
        return self.record.selected


@dataclass
class Head:
    """What the queue's overview needs of one task: no task text, gold or evidence."""

    task_id: str
    selected: bool
    flag_codes: list[str]
    decision: Decision | None

    @property
    def state(self) -> str:
        return state_of(self.decision)


class QueueReader:
    """Audit records per partition, cached by the Parquet file's modification time."""

    def __init__(self, store: PartitionStore, decisions: DecisionStore):
        self.store, self.decisions = store, decisions
        self._cache: dict[tuple[str, str], tuple[float, list[AuditRecord]]] = {}
        self._heads: dict[tuple[str, str], tuple[float, list[tuple[str, str, bool, list[str]]]]] = {}
        self._lock = threading.Lock()

    def partitions(self) -> list[tuple[str, str]]:
        """(domain, cutoff) of every partition with an audit queue."""
        base = f"{self.store.base}/hidden/audit_queue"
        if self.store.fs.get_file_info(base).type == pafs.FileType.NotFound:
            return []
        infos = self.store.fs.get_file_info(pafs.FileSelector(base, recursive=True))
        out = set()
        for info in infos:
            if info.path.endswith("/data.parquet"):
                parts = dict(p.split("=", 1) for p in info.path.split("/") if "=" in p)
                out.add((parts["domain"], parts["cutoff"]))
        return sorted(out)

    def records(self, domain: str, cutoff: str) -> list[AuditRecord]:
        path = self.store.parquet_path("audit_queue", domain, cutoff)
        mtime = self.store.fs.get_file_info(path).mtime_ns or 0
        with self._lock:
            hit = self._cache.get((domain, cutoff))
            if hit and hit[0] == mtime:
                return hit[1]
        records = self.store.read_records("audit_queue", domain, cutoff, AuditRecord)
        # the ranking's selection first: those are what a release ships
        records.sort(key=lambda r: (not r.selected, r.task_id))
        with self._lock:
            self._cache[(domain, cutoff)] = (mtime, records)
        return records

    def heads(self, domain: str, cutoff: str) -> list[Head]:
        """Every task's id, selection, flag codes and current decision, from three columns and
        the flags of the record JSON (cached by the file's modification time)."""
        path = self.store.parquet_path("audit_queue", domain, cutoff)
        mtime = self.store.fs.get_file_info(path).mtime_ns or 0
        with self._lock:
            hit = self._heads.get((domain, cutoff))
        if hit and hit[0] == mtime:
            rows = hit[1]
        else:
            table = pq.read_table(path, filesystem=self.store.fs, columns=["task_id", "content_hash", "selected", "record_json"])
            rows = [
                (t, h, s, sorted({f["code"] for f in json.loads(js).get("flags", [])}))
                for t, h, s, js in zip(*(table.column(c).to_pylist() for c in table.column_names))
            ]
            with self._lock:
                self._heads[(domain, cutoff)] = (mtime, rows)
        current = self.decisions.current(domain, cutoff, {t: h for t, h, _, _ in rows})
        return [Head(t, s, codes, current.get(t)) for t, _, s, codes in rows]

    def items(self, domain: str, cutoff: str) -> list[Item]:
        records = self.records(domain, cutoff)
        current = self.decisions.current(domain, cutoff, {r.task_id: r.content_hash for r in records})
        return [Item(r, current.get(r.task_id)) for r in records]


def matches(item: Item, *, family: str = "", flag: str = "", decision: str = "", selected: str = "") -> bool:
    """Whether an item passes the queue's filters ("" = any; flag "none" = unflagged)."""
    if family and item.record.family != family:
        return False
    if flag == "none" and item.record.flags:
        return False
    if flag and flag != "none" and flag not in item.flag_codes:
        return False
    if decision and item.state != decision:
        return False
    if selected == "yes" and not item.record.selected:
        return False
    return not (selected == "no" and item.record.selected)


def summary(items: list[Item] | list[Head]) -> dict:
    """Queue figures: candidates, selected, flagged by reason, decisions by state and reason."""
    selected = [i for i in items if i.selected]
    return {
        "candidates": len(items),
        "selected": len(selected),
        "flagged": sum(bool(i.flag_codes) for i in items),
        "flagged_by_reason": code_counts(i.flag_codes for i in items),
        "selected_flagged_by_reason": code_counts(i.flag_codes for i in selected),
        "states": {s: sum(i.state == s for i in items) for s in STATES},
        "selected_states": {s: sum(i.state == s for i in selected) for s in STATES},
        "rejected_by_reason": dict(Counter(i.decision.reason for i in items if i.state == "rejected")),
    }

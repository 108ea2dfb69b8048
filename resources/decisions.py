"""Reviewers' curation decisions: an append-only SQLite table in the hidden warehouse.

Decisions are written by people (the review page, `foresci review`), not by an asset, so
they are not a Parquet partition that a rebuild would overwrite. They live in one SQLite
file, `<warehouse>/hidden/audit_decisions/decisions.sqlite` (hidden: reviewer names and
notes never reach a public file), chosen because SQLite serialises concurrent writers
itself: two reviewers (two server threads, or two `foresci review` processes) can write at
once and no decision is lost.

The table is an append-only log: a decision is never updated or deleted. The current
decision of a task is its latest row (highest id) for the task's current content hash; every
earlier row stays as history. So when two reviewers decide the same task, the later write
wins and the earlier is kept. A decision is keyed by the task's content hash
(`assets/audit/logic.py: content_hash`): after a rebuild that changes the task or its gold,
no decision matches the new hash and the task is pending again.
"""

from __future__ import annotations

import json
import sqlite3
from datetime import UTC, datetime
from pathlib import Path

from core.records import REJECT_REASONS, REVISABLE_FIELDS, Decision
from core.visibility import visibility_of

SCHEMA = """
CREATE TABLE IF NOT EXISTS decisions (
    decision_id INTEGER PRIMARY KEY AUTOINCREMENT,
    domain TEXT NOT NULL, cutoff TEXT NOT NULL, task_id TEXT NOT NULL, content_hash TEXT NOT NULL,
    action TEXT NOT NULL CHECK (action IN ('approve', 'reject', 'revise')),
    reviewer TEXT NOT NULL, decided_at TEXT NOT NULL,
    reason TEXT NOT NULL DEFAULT '', note TEXT NOT NULL DEFAULT '', revision_json TEXT NOT NULL DEFAULT '{}'
);
CREATE INDEX IF NOT EXISTS decisions_task ON decisions (domain, cutoff, task_id, decision_id);
"""
BUSY_TIMEOUT_MS = 30_000  # a writer waits this long for another's transaction, never fails at once


class DecisionError(ValueError):
    """A decision that may not be stored (unknown action or reason, no reviewer, bad revision)."""


def validate(action: str, reviewer: str, reason: str, revision: dict[str, str]) -> None:
    if action not in ("approve", "reject", "revise"):
        raise DecisionError(f"unknown action {action!r}: approve, reject or revise")
    if not reviewer.strip():
        raise DecisionError("a decision needs the reviewer's name")
    if action == "reject" and reason not in REJECT_REASONS:
        raise DecisionError(f"a rejection needs a reason from {', '.join(REJECT_REASONS)} (got {reason!r})")
    bad = [
        k
        for k in revision
        if k.split(":")[0] not in ("title", "question", "option") or (k.startswith("option") and not k.startswith("option:"))
    ]
    if bad:
        raise DecisionError(f"only {', '.join(REVISABLE_FIELDS)} may be revised, not {bad}")
    if action == "revise" and not any(v.strip() for v in revision.values()):
        raise DecisionError("a revision needs at least one edited field")
    if any(not v.strip() for v in revision.values()):
        raise DecisionError("a revised field may not be empty")


class DecisionStore:
    """The decisions log of one warehouse (plain class: the review page and the release use it)."""

    def __init__(self, path: str | Path):
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        with self._connect() as con:
            con.executescript(SCHEMA)

    @classmethod
    def for_store(cls, store) -> DecisionStore:
        """The decisions of a `PartitionStore`'s warehouse (local warehouses only: SQLite)."""
        if not store.is_local:
            raise RuntimeError(f"curation decisions need a local warehouse; {store.root} is remote")
        return cls(Path(store.base) / visibility_of("audit_decisions") / "audit_decisions" / "decisions.sqlite")

    def _connect(self) -> sqlite3.Connection:
        con = sqlite3.connect(self.path, timeout=BUSY_TIMEOUT_MS / 1000, isolation_level=None)
        con.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
        con.execute("PRAGMA journal_mode = WAL")  # readers never block the writer
        return con

    def record(
        self,
        *,
        domain: str,
        cutoff: str,
        task_id: str,
        content_hash: str,
        action: str,
        reviewer: str,
        reason: str = "",
        note: str = "",
        revision: dict[str, str] | None = None,
    ) -> Decision:
        """Append one decision and return it (with its id and UTC time)."""
        revision = {k: v.strip() for k, v in (revision or {}).items()}
        validate(action, reviewer, reason, revision)
        decided_at = datetime.now(UTC).isoformat(timespec="milliseconds")
        con = self._connect()
        try:
            con.execute("BEGIN IMMEDIATE")  # take the write lock now: concurrent writers queue here
            cur = con.execute(
                "INSERT INTO decisions (domain, cutoff, task_id, content_hash, action, reviewer, decided_at, reason, "
                "note, revision_json) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    domain,
                    cutoff,
                    task_id,
                    content_hash,
                    action,
                    reviewer.strip(),
                    decided_at,
                    reason if action == "reject" else "",
                    note.strip(),
                    json.dumps(revision, sort_keys=True),
                ),
            )
            con.execute("COMMIT")
            decision_id = cur.lastrowid
        except BaseException:
            con.execute("ROLLBACK")
            raise
        finally:
            con.close()
        return Decision(
            decision_id=decision_id,
            domain=domain,
            cutoff=cutoff,
            task_id=task_id,
            content_hash=content_hash,
            action=action,
            reviewer=reviewer.strip(),
            decided_at=decided_at,
            reason=reason if action == "reject" else "",
            note=note.strip(),
            revision=revision,
        )

    def _rows(self, where: str, params: tuple) -> list[Decision]:
        con = self._connect()
        try:
            rows = con.execute(
                "SELECT decision_id, domain, cutoff, task_id, content_hash, action, reviewer, decided_at, reason, note, "
                f"revision_json FROM decisions WHERE {where} ORDER BY decision_id",
                params,
            ).fetchall()
        finally:
            con.close()
        return [
            Decision(
                decision_id=r[0],
                domain=r[1],
                cutoff=r[2],
                task_id=r[3],
                content_hash=r[4],
                action=r[5],
                reviewer=r[6],
                decided_at=r[7],
                reason=r[8],
                note=r[9],
                revision=json.loads(r[10]),
            )
            for r in rows
        ]

    def history(self, domain: str, cutoff: str, task_id: str | None = None) -> list[Decision]:
        """Every decision of a partition (or of one task), oldest first."""
        if task_id is None:
            return self._rows("domain = ? AND cutoff = ?", (domain, cutoff))
        return self._rows("domain = ? AND cutoff = ? AND task_id = ?", (domain, cutoff, task_id))

    def current(self, domain: str, cutoff: str, hashes: dict[str, str]) -> dict[str, Decision]:
        """task id -> its latest decision for the content hash in `hashes` (task id -> hash).

        A task whose latest decisions were made on another hash (an earlier build) has none:
        it is pending again."""
        latest: dict[str, Decision] = {}
        for d in self.history(domain, cutoff):
            if hashes.get(d.task_id) == d.content_hash:
                latest[d.task_id] = d  # rows come oldest first: the last one wins
        return latest

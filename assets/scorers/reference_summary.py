"""Reference validity of a partition's stored answers, per family x method (`foresci
reference-validity`): for each answer, the share of its cited paper ids that are known (the
shipped corpus' dates, and the partition's `corpus_snapshot`) and published on or before the
task's cutoff (`assets.scorers.reference.reference_validity`); answers citing nothing are left
out. Plain functions over a `PartitionStore` (no Dagster, no printing)."""

from __future__ import annotations

import statistics
from collections import defaultdict
from datetime import date

from assets.scorers.reference import reference_validity
from core.papers import shipped_dates
from core.records import Answer, ScreenedPaper, Task

DIGITS = 3  # the mean share is rounded to this many digits


def reference_validity_rows(store, domain: str, cutoff: str) -> list[dict]:
    """One row per (family, method): answers citing at least one id, mean reference validity.
    A partition without stored answers raises `LookupError`."""

    if not store.exists("agent_answers", domain, cutoff):
        raise LookupError(f"no answers for {domain} @ {cutoff}")
    known = shipped_dates()
    if store.exists("corpus_snapshot", domain, cutoff):
        known.update({p.arxiv_id: p.published for p in store.read_records("corpus_snapshot", domain, cutoff, ScreenedPaper)})
    task_cutoff = {t.task_id: t.cutoff for t in store.read_records("tasks", domain, cutoff, Task)}
    shares: dict[tuple[str, str], list[float]] = defaultdict(list)
    for a in store.read_records("agent_answers", domain, cutoff, Answer):
        res = reference_validity(a.evidence_ids, known, task_cutoff.get(a.task_id) or date.fromisoformat(cutoff))
        if res["share"] is not None:
            shares[(a.family, a.method)].append(res["share"])
    return [
        {"family": f, "method": m, "answers citing": len(v), "reference validity": round(statistics.fmean(v), DIGITS)}
        for (f, m), v in sorted(shares.items())
    ]

"""Rediscovery figures: contamination split, difficulty histogram, error-type counts.

Plain functions over stored records (no Dagster), used by `foresci demo-rediscovery` and
docs/rediscovery.md.

Contamination split (FIRE-Bench §5.3, Table 4): every score is reported separately for the
tasks whose source paper appeared on or before a backbone's knowledge date (its knowledge
cutoff, else its release date, from assets/agents/backbones.yaml: the paper may be in its
training data) and for those after it, per difficulty level. An answer written by a
registered backbone is split by that backbone's date; offline methods and controls have no
training data, so they are split by every registered backbone's date, which shows what the
task mix alone does to a split.
"""

from __future__ import annotations

import statistics
from collections import Counter, defaultdict
from datetime import date

from core.claims import ERROR_VALUES
from core.records import GoldTarget, Score, TaskBuild


def _mean(xs):
    xs = [x for x in xs if x is not None]
    return round(statistics.fmean(xs), 3) if xs else None


def level(gold: GoldTarget | None) -> str:
    s = gold.numbers.get("S") if gold else None
    return "?" if s is None else ("Easy" if s <= 4 else "Medium" if s <= 6 else "Hard")


def source_dates(builds: list[TaskBuild]) -> dict[str, date]:
    return {b.task_id: date.fromisoformat(b.curation["source_published"]) for b in builds if "source_published" in b.curation}


def contamination_split(scores: list[Score], published: dict[str, date], golds: dict[str, GoldTarget], registry) -> list[dict]:
    """Rows (method, backbone, split_by, knowledge date, level, pre/post means and counts)."""
    rows = []
    dated = [(e.model, e.effective_date) for e in registry.entries if e.effective_date is not None]
    groups: dict[tuple[str, str], list[Score]] = defaultdict(list)
    for s in scores:
        if s.task_id in published and s.fta is not None:
            groups[(s.method, s.backbone)].append(s)
    for (method, backbone), group in sorted(groups.items()):
        own = registry.lookup(backbone)
        splits = [(own.model, own.effective_date)] if own is not None and own.effective_date else dated
        for model, known in splits:
            for lvl in ("all", "Easy", "Medium", "Hard"):
                sel = [s for s in group if lvl == "all" or level(golds.get(s.task_id)) == lvl]
                pre = [s.fta for s in sel if published[s.task_id] <= known]
                post = [s.fta for s in sel if published[s.task_id] > known]
                if pre or post:
                    rows.append(
                        {
                            "method": method,
                            "backbone": backbone,
                            "split_by": model,
                            "knowledge_date": known.isoformat(),
                            "level": lvl,
                            "pre_n": len(pre),
                            "pre_f1": _mean(pre),
                            "post_n": len(post),
                            "post_f1": _mean(post),
                        }
                    )
    return rows


def difficulty_histogram(golds: list[GoldTarget], released: set[str] | None = None) -> dict[str, int]:
    c = Counter(level(g) for g in golds if released is None or g.task_id in released)
    return {k: c.get(k, 0) for k in ("Easy", "Medium", "Hard")}


def error_counts(scores: list[Score]) -> dict[str, dict[str, int]]:
    """Per method: summed error-type counts of the unmatched claims (fp_*, fn_*)."""
    out: dict[str, Counter] = defaultdict(Counter)
    for s in scores:
        for k in ERROR_VALUES:
            v = s.values.get(k)
            if v:
                out[s.method][k] += int(v)
    return {m: dict(c) for m, c in sorted(out.items())}


def method_means(scores: list[Score], released: set[str]) -> dict[str, dict[str, float | None]]:
    by: dict[str, list[Score]] = defaultdict(list)
    for s in scores:
        if s.task_id in released:
            by[s.method].append(s)
    return {
        m: {
            "n": len(v),
            "f1": _mean([s.fta for s in v]),
            "precision": _mean([s.fta_precision for s in v]),
            "recall": _mean([s.fta_recall for s in v]),
        }
        for m, v in sorted(by.items())
    }

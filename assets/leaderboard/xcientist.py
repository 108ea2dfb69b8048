"""The Xcientist lines of `foresci demo`: per domain, attribution completeness and claim drift of
the released answers (`assets.leaderboard.chains.drift_summary` over `answer_artifacts`), and the
validity controls' attribution (mean over families of the report's `attribution_controls`).
Plain functions over a `PartitionStore` (no Dagster, no printing); docs/xcientist.md."""

from __future__ import annotations

import json

from assets.leaderboard.chains import DRIFT_KINDS, drift_summary
from core.records import AnswerArtifacts, TaskRating


def artifacts_lines(store, cutoff: str, domains: list[str]) -> list[str]:
    """Per domain with stored artifacts: attributable claims, drift counts by kind, attribution by
    method; then the controls' attribution when the validity report has them."""

    lines = []
    for d in domains:
        if not store.exists("answer_artifacts", d, cutoff):
            continue
        released = {r.task_id for r in store.read_records("task_ranking", d, cutoff, TaskRating) if r.released}
        arts = [a for a in store.read_records("answer_artifacts", d, cutoff, AnswerArtifacts) if a.task_id in released]
        rows = {r["method"]: r for r in drift_summary(arts)}
        every = rows.pop("all", None)
        if every is None:
            continue
        lines.append(
            f"{d}: {every['attributed']}/{every['claims']} claims attributable; drift "
            + ", ".join(f"{k} {every[k]}" for k in DRIFT_KINDS)
            + "; attribution "
            + ", ".join(f"{m} {r['attribution']:.3f}" for m, r in sorted(rows.items()))
        )
        if store.exists("validity_report", d, cutoff):
            controls: dict[str, list[float]] = {}
            for row in store.read_table("validity_report", d, cutoff).to_pylist():
                for k, v in json.loads(row.get("attribution_controls") or "{}").items():
                    controls.setdefault(k, []).append(v)
            if controls:
                lines.append(
                    f"{'':>4}controls (mean over families): "
                    + ", ".join(f"{k.removeprefix('control:')} {sum(v) / len(v):.3f}" for k, v in sorted(controls.items()))
                )
    return lines

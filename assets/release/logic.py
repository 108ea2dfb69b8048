"""Release package and leaderboard: what a benchmark maintainer ships and reads.

A release is byte-reproducible: files are canonical JSON Lines (sorted keys, records
sorted by id) with no timestamps, and its version is the hash of its contents. The
hidden gold file is written apart from the public package (hidden/ subtree).
"""

from __future__ import annotations

import hashlib
import io
import json
from collections import Counter, defaultdict

from assets.judging.metrics import bootstrap_ci
from assets.records import GoldTarget, Score, Task, TaskRating

METRICS = ("fta", "fact", "trace", "trace_linkage", "pers")


def canonical_jsonl(records: list[dict]) -> bytes:
    return "".join(json.dumps(r, sort_keys=True, ensure_ascii=False, default=str) + "\n" for r in records).encode()


def sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def release_files(
    tasks: list[Task], ratings: list[TaskRating], golds: list[GoldTarget], kb_rows: list[dict],
    *, domain: str, cutoff: str, window_end: str, horizon_months: int, corpus_version: str, taxonomy_version: str,
) -> tuple[dict[str, bytes], dict[str, bytes], dict]:
    """Public files, hidden files and the manifest of one partition's release."""
    released = {r.task_id for r in ratings if r.released}
    public_tasks = sorted((t for t in tasks if t.task_id in released), key=lambda t: t.task_id)
    hidden_gold = sorted((g for g in golds if g.task_id in released), key=lambda g: g.task_id)
    tasks_bytes = canonical_jsonl([t.model_dump(mode="json") for t in public_tasks])
    kb_bytes = canonical_jsonl(sorted(kb_rows, key=lambda r: r["arxiv_id"]))
    gold_bytes = canonical_jsonl([g.model_dump(mode="json") for g in hidden_gold])
    manifest = {
        "domain": domain, "cutoff": cutoff, "window_end": window_end, "horizon_months": horizon_months,
        "counts": {
            "tasks": len(public_tasks),
            "by_family": dict(sorted(Counter(t.family for t in public_tasks).items())),
            "by_horizon": dict(sorted(Counter(t.horizon for t in public_tasks).items())),
            "kb_papers": len(kb_rows),
        },
        "corpus_version": corpus_version, "taxonomy_version": taxonomy_version,
        "sha256": {"tasks.jsonl": sha256(tasks_bytes), "kb_manifest.jsonl": sha256(kb_bytes), "gold.jsonl": sha256(gold_bytes)},
    }
    manifest["release_version"] = sha256(json.dumps(manifest, sort_keys=True).encode())[:16]
    public = {"tasks.jsonl": tasks_bytes, "kb_manifest.jsonl": kb_bytes,
              "manifest.json": (json.dumps(manifest, sort_keys=True, indent=2) + "\n").encode()}
    return public, {"gold.jsonl": gold_bytes}, manifest


def leaderboard_rows(scores: list[Score], released: set[str]) -> list[dict]:
    """Family x method means with bootstrap 95% intervals, over released tasks only."""
    groups: dict[tuple[str, str, str], list[Score]] = defaultdict(list)
    for s in scores:
        if s.task_id in released:
            groups[(s.family, s.method, s.backbone)].append(s)
            groups[("all", s.method, s.backbone)].append(s)
    rows = []
    for (family, method, backbone), group in sorted(groups.items()):
        row = {"family": family, "method": method, "backbone": backbone, "n_answers": len(group)}
        for metric in METRICS:
            mean, lo, hi = bootstrap_ci([getattr(s, metric) for s in group])
            row[metric], row[f"{metric}_lo"], row[f"{metric}_hi"] = mean, lo, hi
        rows.append(row)
    return rows


def leaderboard_markdown(rows: list[dict]) -> str:
    def fmt(v):
        return "–" if v is None else f"{v:.3f}"
    lines = ["| family | method | n | FTA [95% CI] | Trace-link | Fact | Pers |", "|---|---|---|---|---|---|---|"]
    for r in rows:
        fta = fmt(r["fta"]) if r["fta"] is None else f"{r['fta']:.3f} [{r['fta_lo']:.2f}, {r['fta_hi']:.2f}]"
        lines.append(f"| {r['family']} | {r['method']} | {r['n_answers']} | {fta} | {fmt(r['trace_linkage'])} | "
                     f"{fmt(r['fact'])} | {fmt(r['pers'])} |")
    return "\n".join(lines)


def leaderboard_png(rows: list[dict], title: str) -> bytes:
    """Grouped bars of FTA by family and method with 95% intervals."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    families = sorted({r["family"] for r in rows if r["family"] != "all"}) + ["all"]
    methods = sorted({r["method"] for r in rows})
    by_key = {(r["family"], r["method"]): r for r in rows}
    fig, ax = plt.subplots(figsize=(8, 4.2), dpi=110)
    width = 0.8 / max(len(methods), 1)
    for j, method in enumerate(methods):
        xs, ys, err = [], [], [[], []]
        for i, family in enumerate(families):
            r = by_key.get((family, method))
            if r is None or r["fta"] is None:
                continue
            xs.append(i + (j - (len(methods) - 1) / 2) * width)
            ys.append(r["fta"])
            err[0].append(r["fta"] - r["fta_lo"])
            err[1].append(r["fta_hi"] - r["fta"])
        ax.bar(xs, ys, width=width, yerr=err, capsize=3, label=method)
    ax.set_xticks(range(len(families)), families)
    ax.set_ylim(0, 1)
    ax.set_ylabel("Future-Target Alignment")
    ax.set_title(title)
    ax.legend(fontsize=8, loc="upper right")
    fig.tight_layout()
    buf = io.BytesIO()
    fig.savefig(buf, format="png")
    plt.close(fig)
    return buf.getvalue()

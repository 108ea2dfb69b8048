"""Counting precision of the planning gold (assets/evidence/building_on.py), on a labelled sample.

    python benchmarks/planning_counting_sample.py sample    # write the unlabelled sample
    python benchmarks/planning_counting_sample.py precision # precision of the labelled file

`sample --in-process` computes the counted items instead from the shipped corpus with the
shipped rule and catalog (`benchmarks/planning_yield.py`: every offered role of every domain at
CUTOFF, i.e. the planning golds the default release builds, before the relevance screen; pass
`--results FILE` to reuse a dump of `planning_yield.py FILE`), and adds each item's full
abstract to the unlabelled file.

`sample` draws SAMPLE_SIZE counted (paper, approach, sentence) items from the built planning golds
of the default release (every domain at CUTOFF, read from the warehouse of $FORESCI_HOME, else
<repo>/.foresci), seeded with SEED, in one of two modes:

* round-robin (the default): every built planning task, released or not; the items are shuffled,
  then taken round-robin over the (task, option) groups so that every option's counts are checked,
  not only the leaders'. It ESTIMATES the precision per option, averaged over options: the rule's
  precision on rare options (a trailing option's 3 papers) weighs as much as on the leader's 200,
  which finds wrong-sense names fast but is not the gold's precision.
* `--uniform`: only the RELEASED planning tasks (`task_ranking.released`), and every counted
  (task, option, paper) item equally likely (a simple random sample without replacement). It
  ESTIMATES the counting precision of the released gold itself: the share of the counted papers
  behind the released tasks' rankings that truly build on their option.

It writes
docs/labels/planning_counting_sample.unlabelled.jsonl with
{item_id, task_id, approach, role, paper_id, title, sentence, label: "", note: ""}, and, where a
labelled file already exists, carries its labels over by item_id into
docs/labels/planning_counting_sample.jsonl (a new item keeps an empty label).

`precision` reads docs/labels/planning_counting_sample.jsonl: label "uses" or "extends" counts
as a correct count, "foil", "mention" or "wrong" as a false positive; precision = correct /
labelled. An independent reader labels the unlabelled copy blind; the same command scores it
with `--file`.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
from pathlib import Path

import pandas as pd

ROOT = Path(__file__).resolve().parents[1]
WAREHOUSE = Path(os.environ.get("FORESCI_HOME", ROOT / ".foresci")).resolve() / "warehouse"
LABELS = ROOT / "docs" / "labels" / "planning_counting_sample.jsonl"
UNLABELLED = ROOT / "docs" / "labels" / "planning_counting_sample.unlabelled.jsonl"
DOMAINS = (
    "llm_agent",
    "llm_finetuning_post_training",
    "rag_and_retrieval_structuring",
    "visual_generative_modeling_and_diffusion",
)
CUTOFF = "2025-12-31"
SEED = 3202  # the 2026-11-28 fresh sample (in-process, all four domains); 32 drew the RAG-only one
SAMPLE_SIZE = 96
CORRECT, WRONG = {"uses", "extends"}, {"foil", "mention", "wrong"}


def _table(side: str, name: str, domain: str) -> pd.DataFrame:
    path = WAREHOUSE / side / name / f"domain={domain}" / f"cutoff={CUTOFF}" / "data.parquet"
    return pd.read_parquet(path) if path.exists() else pd.DataFrame()


def released_task_ids() -> set[str]:
    """The released planning tasks of the warehouse (every domain at CUTOFF)."""
    out: set[str] = set()
    for d in DOMAINS:
        ranking = _table("public", "task_ranking", d)
        if not ranking.empty:
            out |= set(ranking[(ranking.family == "planning") & ranking.released.astype(bool)].task_id)
    return out


def counted_items(released_only: bool = False) -> list[dict]:
    """Every counted (task, option, paper) item of the warehouse's planning golds (of the released
    tasks only with `released_only`)."""
    keep = released_task_ids() if released_only else None
    items = []
    for d in DOMAINS:
        golds, tasks, builds = (
            _table("hidden", "gold_targets", d),
            _table("public", "tasks", d),
            _table("hidden", "task_builds", d),
        )
        window, signals = _table("hidden", "future_window", d), _table("public", "research_signals", d)
        if golds.empty or tasks.empty:
            continue
        title = dict(zip(window.get("arxiv_id", []), window.get("title", [])))
        abstract = dict(zip(window.get("arxiv_id", []), window.get("abstract", [])))  # what a labeller reads
        role_of = {}
        for _, s in signals[signals.kind == "approach"].iterrows():
            role_of[s.signal_id] = json.loads(s.record_json)["details"].get("role_name", [""])[0]
        option_sig = {b["task_id"]: b["option_signal_ids"] for b in (json.loads(r) for r in builds.record_json)}
        for _, row in tasks[tasks.family == "planning"].iterrows():
            task = json.loads(row.record_json)
            gold_rows = golds[golds.task_id == row.task_id]
            if gold_rows.empty or (keep is not None and row.task_id not in keep):
                continue
            gold = json.loads(gold_rows.iloc[0].record_json)
            names = {o["option_id"]: o["text"].split(" — ")[0] for o in task["options"]}
            for oid, entries in (gold.get("counted") or {}).items():
                for e in entries:
                    pid = e.split(" ", 1)[0]
                    sentence = e.split(' -- "', 1)[1][:-1] if ' -- "' in e else title.get(pid, e.split(" ", 1)[1])
                    items.append(
                        {
                            "item_id": f"{row.task_id}|{oid}|{pid}",
                            "task_id": row.task_id,
                            "approach": names[oid],
                            "role": role_of.get(option_sig.get(row.task_id, {}).get(oid, ""), ""),
                            "paper_id": pid,
                            "title": title.get(pid, ""),
                            "sentence": sentence,
                            "abstract": abstract.get(pid, ""),
                            "label": "",
                            "note": "",
                        }
                    )
    return items


def in_process_items(results_file: Path | None = None) -> list[dict]:
    """Counted items of every offered role of every domain, from the shipped corpus (module docstring)."""
    import sys

    sys.path.insert(0, str(ROOT / "benchmarks"))
    from planning_yield import DOMAINS as YD
    from planning_yield import all_results, dump, load_papers

    if results_file is None or not results_file.exists():
        results_file = results_file or ROOT / ".foresci" / "planning_yield.json"
        results_file.parent.mkdir(parents=True, exist_ok=True)
        dump(all_results(), results_file)
    from assets.evidence.approaches import load_roles
    from assets.evidence.building_on import builds_on

    member = {(r.role_id, m.name): m for r in load_roles() for m in r.members}
    papers = {p.arxiv_id: p for d in YD for p in load_papers(d)}
    items = []
    for r in json.loads(results_file.read_text()):
        task_id = f"{r['domain']}-{CUTOFF}-planning-{r['role_id']}"
        for o in r["options"]:
            m = member.get((r["role_id"], o["name"]))
            for pid in sorted(o["counted"]):
                p = papers[pid]
                sentence = builds_on(p.title, p.abstract, m.matcher()) if m else None  # recheck with the rule now shipped
                if not sentence:
                    continue
                items.append(
                    {
                        "item_id": f"{task_id}|{o['name']}|{pid}",
                        "task_id": task_id,
                        "approach": o["name"],
                        "role": r["role"],
                        "paper_id": pid,
                        "title": p.title,
                        "sentence": sentence,
                        "abstract": p.abstract,
                        "label": "",
                        "note": "",
                    }
                )
    return items


def uniform_sample(items: list[dict], n: int = SAMPLE_SIZE, seed: int = SEED) -> list[dict]:
    """A simple random sample of n items (all of them when fewer): each counted item equally likely."""
    items = sorted(items, key=lambda x: x["item_id"])
    return sorted(random.Random(seed).sample(items, min(n, len(items))), key=lambda x: x["item_id"])


def sample(items: list[dict], n: int = SAMPLE_SIZE, seed: int = SEED) -> list[dict]:
    """Round-robin over the (task, option) groups (module docstring)."""
    rng = random.Random(seed)
    items = sorted(items, key=lambda x: x["item_id"])
    rng.shuffle(items)
    groups: dict[tuple[str, str], list[dict]] = {}
    for it in items:
        groups.setdefault((it["task_id"], it["approach"]), []).append(it)
    order = sorted(groups, key=lambda k: rng.random())
    out: list[dict] = []
    while len(out) < n and any(groups.values()):
        for k in order:
            if groups[k] and len(out) < n:
                out.append(groups[k].pop())
    return sorted(out, key=lambda x: x["item_id"])


def read(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()] if path.exists() else []


def write(path: Path, rows: list[dict]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows))


def precision(rows: list[dict]) -> tuple[float, int, int]:
    labelled = [r for r in rows if r.get("label") in CORRECT | WRONG]
    good = sum(r["label"] in CORRECT for r in labelled)
    return (good / len(labelled) if labelled else 0.0), good, len(labelled)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("command", choices=("sample", "precision", "recheck"))
    ap.add_argument("--file", type=Path, default=LABELS)
    ap.add_argument("--in-process", action="store_true", help="count on the shipped corpus, not the warehouse")
    ap.add_argument("--results", type=Path, default=None, help="a planning_yield.py dump to reuse")
    ap.add_argument("--show-dropped", action="store_true", help="recheck: list the labelled items the rule drops")
    ap.add_argument("--out", type=Path, default=None, help="sample: write only this blind copy (labelled files untouched)")
    ap.add_argument("--seed", type=int, default=SEED)
    ap.add_argument(
        "--uniform",
        action="store_true",
        help="sample: uniform over the counted items of the RELEASED tasks (the gold's precision)",
    )
    ap.add_argument("--size", type=int, default=SAMPLE_SIZE)
    args = ap.parse_args()
    if args.command == "sample":
        if args.uniform:
            if args.in_process:
                ap.error("--uniform samples the released tasks of a warehouse: not with --in-process")
            rows = uniform_sample(counted_items(released_only=True), args.size, args.seed)
        else:
            rows = sample(in_process_items(args.results) if args.in_process else counted_items(), args.size, args.seed)
        if args.out:  # a fresh blind copy for an independent labeller (issue 32 third pass: --seed 3636)
            write(args.out, [{k: v for k, v in r.items() if k not in ("label", "note")} for r in rows])
            print(f"{len(rows)} items (seed {args.seed}) -> {args.out}")
            return
        write(UNLABELLED, [{k: v for k, v in r.items() if k not in ("label", "note")} for r in rows])
        old = {r["item_id"]: r for r in read(LABELS)}
        write(
            LABELS,
            [
                {
                    **{k: v for k, v in r.items() if k != "abstract"},
                    "label": old.get(r["item_id"], r)["label"],
                    "note": old.get(r["item_id"], r)["note"],
                }
                for r in rows
            ],
        )
        print(f"{len(rows)} items (seed {SEED}) -> {UNLABELLED.relative_to(ROOT)} and {LABELS.relative_to(ROOT)}")
    elif args.command == "recheck":  # the labelled items the CURRENT rule and catalog still count
        from assets.evidence.approaches import load_roles
        from assets.evidence.building_on import builds_on

        member = {m.name: m for r in load_roles() for m in r.members}
        papers = {}
        for d in DOMAINS:
            w = _table("hidden", "future_window", d)
            papers.update({a: (t, b) for a, t, b in zip(w.get("arxiv_id", []), w.get("title", []), w.get("abstract", []))})
        # the shipped corpus holds every window paper too (a warehouse may be missing or partial)
        sys.path.insert(0, str(ROOT / "benchmarks"))
        from planning_yield import load_papers

        papers = {p.arxiv_id: (p.title, p.abstract) for d in DOMAINS for p in load_papers(d)} | papers
        rows = read(args.file)
        if args.show_dropped:
            for r in rows:
                if r["approach"] in member and r["paper_id"] in papers:
                    if not builds_on(*papers[r["paper_id"]], member[r["approach"]].matcher()):
                        print("DROPPED", r["label"], "|", r["approach"][:30], "|", r["title"][:60], "|", r["sentence"][:140])
        kept = [
            r
            for r in rows
            if r["approach"] in member
            and r["paper_id"] in papers
            and builds_on(*papers[r["paper_id"]], member[r["approach"]].matcher())
        ]
        p, good, n = precision(kept)
        print(
            f"current rule keeps {len(kept)} of {len(rows)} items; precision on them {p:.3f} ({good}/{n}); "
            f"correct items dropped: {sum(r['label'] in CORRECT for r in rows) - good}"
        )
    else:
        p, good, n = precision(read(args.file))
        by: dict[str, list[int]] = {}
        for r in read(args.file):
            if r.get("label") in CORRECT | WRONG:
                by.setdefault(r["label"], []).append(1)
        print(f"counting precision {p:.3f} ({good}/{n} labelled items correct); labels: { {k: len(v) for k, v in by.items()} }")


if __name__ == "__main__":
    main()

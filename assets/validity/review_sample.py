"""A seeded sample of released tasks for a blind expert reading (issue: tasks an expert signs).

The author of a change cannot grade its own tasks, so a reader who did not write it scores a fresh
sample: `per_family` released tasks of each family, drawn over every given partition with
`random.Random(seed).sample` from the family's released task ids (sorted, so the draw depends on
the seed and the release alone). Each entry has the task as an agent sees it (title, question,
options in the presented order) and the hidden gold a reader checks it against (the ranking, every
counted window paper with the sentence that made it count, the slots, the claims, the family's plan
or reference). No author note, rating or audit flag is included: the reader judges the task alone.

`review_sample` returns plain dicts (JSON-ready); `review_sheet_lines` renders them as Markdown.
No Dagster here.
"""

from __future__ import annotations

import random
from collections import defaultdict

from assets.ranking.presentation import PRESENTED_GOLDS, PRESENTED_TASKS
from core.records import GoldTarget, Task, TaskRating

CRITERIA = ("readable", "decision-worthy", "answerable", "gold right")


def review_sample(store, parts: list[tuple[str, str]], per_family: int, seed: int) -> list[dict]:
    """`per_family` released tasks per family over `parts`, drawn with `seed` (module docstring)."""
    tasks: dict[str, Task] = {}
    golds: dict[str, GoldTarget] = {}
    released: dict[str, list[str]] = defaultdict(list)
    for domain, cutoff in parts:
        if not store.exists("task_ranking", domain, cutoff):
            continue
        ids = {r.task_id for r in store.read_records("task_ranking", domain, cutoff, TaskRating) if r.released}
        for t in store.read_records(PRESENTED_TASKS, domain, cutoff, Task):
            if t.task_id in ids:
                key = f"{t.task_id}@{cutoff}"  # one task id per partition; ids repeat over cutoffs
                tasks[key] = t
                released[t.family].append(key)
        for g in store.read_records(PRESENTED_GOLDS, domain, cutoff, GoldTarget):
            golds[f"{g.task_id}@{cutoff}"] = g
    out = []
    for family in sorted(released):
        keys = sorted(released[family])
        for key in sorted(random.Random(seed).sample(keys, min(per_family, len(keys)))):
            out.append(entry(tasks[key], golds.get(key)))
    return out


def entry(task: Task, gold: GoldTarget | None) -> dict:
    """One sampled task: what an agent sees, and the hidden gold."""
    text = {o.option_id: o.text for o in task.options}
    hidden: dict = {}
    if gold is not None:
        # Families without options rank names and key `counted` by signal id in the ranking's
        # order (bottleneck: `assets.families.bottleneck.gold`); a reader needs the names, once
        # ("sparse outcome rewards", not "sparse outcome rewards: sparse outcome rewards").
        named = (
            dict(zip(gold.counted, gold.preferred_ranking))
            if not text and len(gold.counted) == len(gold.preferred_ranking)
            else {}
        )
        hidden = {
            "ranking": [f"{oid}: {text[oid]}" if oid in text else oid for oid in gold.preferred_ranking],
            "trajectory": gold.trajectory,
            "counted": {text.get(k) or named.get(k) or k: v for k, v in gold.counted.items()},
            "slots": {s.slot: s.variants for s in gold.slots},
            "claims": [c.text for c in gold.claims],
            "plan": {text.get(k, k): p.model_dump() for k, p in gold.plan.items()},
            "numbers": {k: v for k, v in gold.numbers.items() if ":" not in k},
        }
    return {
        "task_id": task.task_id,
        "family": task.family,
        "domain": task.domain,
        "cutoff": task.cutoff.isoformat(),
        "window": f"{task.window_start} to {task.window_end}",
        "subtype": task.subtype,
        "title": task.title,
        "question": task.question,
        "instructions": task.instructions,
        "options": [f"{o.option_id}: {o.text}" for o in task.options],
        "gold": hidden,
    }


def review_sheet_lines(sample: list[dict], seed: int) -> list[str]:
    """The sample as a Markdown sheet: per task the public part, then the hidden gold, and an
    empty score row for the four criteria."""
    lines = [
        f"# Blind reading sheet (seed {seed}; {len(sample)} released tasks)",
        "",
        "Score each task 0-2 on: " + ", ".join(CRITERIA) + " (one sentence of reasons each).",
        "",
    ]
    for e in sample:
        lines += [f"## {e['family']} · {e['task_id']} ({e['domain']}, cutoff {e['cutoff']}, window {e['window']})", ""]
        lines += [f"**{e['title']}**", "", e["question"], ""]
        lines += [f"- {o}" for o in e["options"]] + [""]
        g = e["gold"]
        if not g:
            lines += ["(no gold stored)", ""]
            continue
        lines += ["### Hidden gold", ""]
        if len(g["ranking"]) > 1:  # phase's one-entry "ranking" ("pursued") ranks nothing
            lines += ["Ranking: " + " > ".join(g["ranking"]), ""]
        elif g["claims"]:  # an open-ended task: its first claim says what the gold is, as a sentence
            lines += ["Gold: " + g["claims"][0], ""]
        for cand, papers in g["counted"].items():
            lines += [f"Counted for {cand} ({len(papers)}):"] + [f"  - {p}" for p in papers] + [""]
        for slot, variants in g["slots"].items():
            lines += [f"Slot {slot}:"] + [f"  - {v}" for v in variants] + [""]
        if g["plan"]:
            for cand, plan in g["plan"].items():
                lines.append(f"Plan for {cand}: milestones {plan['milestones']}; dependencies {plan['dependencies']}")
            lines.append("")
        lines += ["Claims:"] + [f"  - {c}" for c in g["claims"]] + [""]
        lines += [
            "| " + " | ".join(CRITERIA) + " |",
            "|" + "---|" * len(CRITERIA),
            "| " + " | ".join("" for _ in CRITERIA) + " |",
            "",
        ]
    return lines

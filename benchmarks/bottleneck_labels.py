"""Labelled samples of the bottleneck gold (issue 32): counting precision and membership recall.

    .venv/bin/python -m benchmarks.bottleneck_labels draw      # writes docs/labels/*.unlabelled.jsonl
    .venv/bin/python -m benchmarks.bottleneck_labels score     # precision / recall of the labelled files

`draw` reads the default release (cutoff 2025-12-31, the partitions present in the warehouse):
(a) counting: every counted (paper, limitation, statement) of the released bottleneck tasks'
golds (every candidate, not only the gold), SEED-shuffled, the first N_COUNTED; (b) membership:
window papers whose title or abstract holds every content word of the subject, anywhere (a net
that does not depend on the membership rule's phrases or neighbour vote), SEED-shuffled, the first N_MEMBERSHIP, each with
`member` (does the gold's membership rule put it in the subject: `gold.future_paper_ids`).
Labels are written by a reader into the labelled copies (`label`: counting "reduces" /
"studies" / "mentions" / "wrong"; membership "in" / "out").
`score`: precision = "reduces" / all labelled counting items; recall = labelled "in" papers
the rule puts in the subject / all labelled "in" papers.
"""

from __future__ import annotations

import json
import random
import re
import sys
from pathlib import Path

SEED = 32
N_COUNTED = 64
N_MEMBERSHIP = 72
CUTOFF = "2025-12-31"
DOMAINS = (
    "llm_agent",
    "llm_finetuning_post_training",
    "rag_and_retrieval_structuring",
    "visual_generative_modeling_and_diffusion",
)
LABELS = Path(__file__).resolve().parents[1] / "docs" / "labels"
COUNTING = LABELS / "bottleneck_counting_sample.jsonl"
MEMBERSHIP = LABELS / "bottleneck_membership_sample.jsonl"
GENERIC = frozenset("model models agent agents large language learning based using with from into".split())


def released_bottleneck(store, domain: str):
    from core.records import GoldTarget, ScreenedPaper, Signal, Task, TaskRating

    if not store.exists("task_ranking", domain, CUTOFF):
        return [], {}, {}
    released = {r.task_id for r in store.read_records("task_ranking", domain, CUTOFF, TaskRating) if r.released}
    tasks = {
        t.task_id: t
        for t in store.read_records("tasks", domain, CUTOFF, Task)
        if t.task_id in released and t.family == "bottleneck"
    }
    golds = [g for g in store.read_records("gold_targets", domain, CUTOFF, GoldTarget) if g.task_id in tasks]
    future = {p.arxiv_id: p for p in store.read_records("future_window", domain, CUTOFF, ScreenedPaper)}
    signals = {s.signal_id: s for s in store.read_records("research_signals", domain, CUTOFF, Signal)}
    return [(tasks[g.task_id], g) for g in golds], future, signals


def subject_of(task) -> str:
    m = re.search(r'research on "([^"]+)"', task.question)
    return m.group(1) if m else ""


def entry_sentence(entry: str) -> str:
    m = re.match(r'[^:]+: "(.*?)"(?: \(refers to: "(.*)"\))?$', entry, re.S)
    if not m:
        return entry
    return m.group(1) + (f' [refers to: "{m.group(2)}"]' if m.group(2) else "")


def from_warehouse():
    from resources.storage import StorageResource

    store = StorageResource().store()
    return [released_bottleneck(store, d) for d in DOMAINS]


def from_states(paths: list[str]):
    """The in-process builds (`pickle` of tasks, builds, golds, signals, future): the tasks whose
    gold passes the family's validity check (the release gate before its stability resamples)."""
    import pickle

    from assets.families.bottleneck import bottleneck_problems

    out = []
    for path in paths:
        st = pickle.load(open(path, "rb"))  # noqa: SIM115 - a local file this script's caller wrote
        pairs = [(t, g) for t, g in zip(st["tasks"], st["golds"]) if g.strength > 0 and not bottleneck_problems(g)]
        out.append((pairs, {p.arxiv_id: p for p in st["future"]}, {s.signal_id: s for s in st["signals"]}))
    return out


def draw(sources=None) -> None:
    counted, members = [], []
    for pairs, future, signals in sources if sources is not None else from_warehouse():
        for task, gold in pairs:
            subject = subject_of(task)
            for sid, entries in gold.counted.items():
                for e in entries:
                    pid = e.split(":", 1)[0]
                    counted.append(
                        {
                            "task_id": task.task_id,
                            "subject": subject,
                            "limitation": signals[sid].title if sid in signals else sid,
                            "gold": gold.preferred_ranking[0] if gold.preferred_ranking else "",
                            "paper_id": pid,
                            "title": future[pid].title if pid in future else "",
                            "sentence": entry_sentence(e),
                        }
                    )
            words = {w for w in re.findall(r"[a-z][a-z0-9\-]+", subject.lower()) if len(w) >= 3 and w not in GENERIC}
            inside = set(gold.future_paper_ids)
            for p in future.values():
                text = f"{p.title} {p.abstract}".lower()
                if words and all(re.search(r"\b" + re.escape(w) + r"(?:s|es)?\b", text) for w in words):
                    members.append(
                        {
                            "task_id": task.task_id,
                            "subject": subject,
                            "paper_id": p.arxiv_id,
                            "title": p.title,
                            "abstract": p.abstract[:700],
                            "member": p.arxiv_id in inside,
                        }
                    )
    rng = random.Random(SEED)
    rng.shuffle(counted)
    rng.shuffle(members)
    write(COUNTING, counted[:N_COUNTED], "c")
    write(MEMBERSHIP, members[:N_MEMBERSHIP], "m")
    print(f"counting items: {len(counted)} drawn {min(N_COUNTED, len(counted))}; membership pool {len(members)}")


def write(path: Path, rows: list[dict], prefix: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    out = [{"item_id": f"{prefix}{i:03d}", **r, "label": "", "note": ""} for i, r in enumerate(rows)]
    blind = [{k: v for k, v in r.items() if k not in ("member", "gold")} for r in out]
    path.with_suffix(".unlabelled.jsonl").write_text("".join(json.dumps(r) + "\n" for r in blind))
    if not path.exists():  # the labelled copy starts as the drawn rows; a reader fills `label`
        path.write_text("".join(json.dumps(r) + "\n" for r in out))


def read(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()] if path.exists() else []


def score() -> dict:
    c = [r for r in read(COUNTING) if r.get("label")]
    m = [r for r in read(MEMBERSHIP) if r.get("label")]
    inside = [r for r in m if r["label"] == "in"]
    out = {
        "counting_labelled": len(c),
        "precision": round(sum(r["label"] == "reduces" for r in c) / len(c), 3) if c else None,
        "counting_labels": {k: sum(r["label"] == k for r in c) for k in ("reduces", "studies", "mentions", "wrong")},
        "membership_labelled": len(m),
        "labelled_in": len(inside),
        "recall": round(sum(bool(r["member"]) for r in inside) / len(inside), 3) if inside else None,
        "member_precision": round(
            sum(r["label"] == "in" for r in m if r["member"]) / max(1, sum(bool(r["member"]) for r in m)), 3
        ),
    }
    print(json.dumps(out, indent=1))
    return out


if __name__ == "__main__":
    cmd = sys.argv[1] if len(sys.argv) > 1 else "score"
    if cmd == "draw-states":  # draw-states state1.pkl state2.pkl ...
        draw(from_states(sys.argv[2:]))
    else:
        {"draw": draw, "score": score}[cmd]()

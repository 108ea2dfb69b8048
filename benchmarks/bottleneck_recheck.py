"""Rerun a labelled bottleneck counting sample through this checkout's counting rule.

    .venv/bin/python -m benchmarks.bottleneck_recheck [--file F] [--show-dropped]

Each labelled item (docs/labels/bottleneck_counting_sample.jsonl: subject, limitation, paper,
abstract, label) is counted again, with no warehouse: the limitation's keys are its lexicon
entry's aliases (a merged name maps to its entry, `causes.current_name`), or, for a mined theme,
its own words; the paper's contribution statements (title and abstract) must state that it
reduces it (`statements.states_reduction`). An item drops out when the rule no longer counts it:
its cause is an umbrella or the subject's own definition (causes.yaml), its mined theme is one
word (dropped since issue 32), or no statement states the reduction. Precision = "reduces" among
the items still counted; the correct items lost are reported too (issue 32, third pass).
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from assets.evidence.bottlenecks import word_tokens
from assets.evidence.causes import current_name, defines_subject, joins, load_causes, umbrella
from assets.families.bottleneck.candidates import NAME_PREFIXES
from assets.families.bottleneck.statements import contribution_statements, states_reduction, supplies

ROOT = Path(__file__).resolve().parents[1]
LABELS = ROOT / "docs" / "labels" / "bottleneck_counting_sample.jsonl"
CORRECT, WRONG = {"reduces"}, {"wrong", "mentions", "studies"}


def still_counted(item: dict) -> tuple[bool, str]:
    """Does the current rule count the item, and why not when it does not."""
    lexicon = dict(load_causes())
    name = current_name(item["limitation"])
    if name in lexicon:
        if umbrella(name):
            return False, "umbrella cause"
        if defines_subject(name, item["subject"]):
            return False, "the subject's own definition"
        keys = [k for a in lexicon[name] if (k := tuple(word_tokens(a)))]
    else:  # a mined theme: its name's words past a predicate prefix ("vulnerability to ...")
        low = name.lower()
        for prefix in NAME_PREFIXES:
            low = low[len(prefix) :] if low.startswith(prefix) else low
        keys = [tuple(word_tokens(low))]
        host = next((c for c, aliases in lexicon.items() if joins(keys, [tuple(word_tokens(a)) for a in aliases])), None)
        if host and umbrella(host):
            return False, "joins an umbrella cause"
        if len(keys[0]) < 2:
            return False, "one-word mined theme"
    statements = contribution_statements(item.get("abstract", ""), item.get("title", ""))
    if any(states_reduction(s, keys, supplies(name)) for s in statements):
        return True, ""
    return False, "no statement states the reduction"


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--file", type=Path, default=LABELS)
    ap.add_argument("--show-dropped", action="store_true")
    args = ap.parse_args()
    rows = [json.loads(x) for x in args.file.read_text().splitlines() if x.strip()]
    labelled = [r for r in rows if r.get("label") in CORRECT | WRONG]
    kept = []
    for r in labelled:
        ok, why = still_counted(r)
        if ok:
            kept.append(r)
        elif args.show_dropped:
            print(f"DROPPED {r['label']:8} | {r['limitation'][:34]:34} | {why:34} | {r['title'][:60]}")
    good = sum(r["label"] in CORRECT for r in kept)
    lost = sum(r["label"] in CORRECT for r in labelled) - good
    before = sum(r["label"] in CORRECT for r in labelled)
    print(
        f"labelled {len(labelled)} (precision {before / max(1, len(labelled)):.3f}); the current rule keeps {len(kept)}: "
        f"precision {good / max(1, len(kept)):.3f} ({good}/{len(kept)}); correct items lost: {lost}"
    )


if __name__ == "__main__":
    main()

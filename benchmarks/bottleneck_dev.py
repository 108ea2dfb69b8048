# ruff: noqa: E741, E731, E402, E501
"""Development-set check of the bottleneck counting rule (issue 32): the independent reader's labels of the
seed-32 counted items (docs/labels/independent/bottleneck_items.jsonl + bottleneck_labels_independent.jsonl), re-tested
in-process on each item's abstract with the cause lexicon's aliases.

    .venv/bin/python benchmarks/bottleneck_dev.py
"""

import json
import sys

from assets.evidence.bottlenecks import word_tokens
from assets.evidence.causes import load_causes
from assets.families.bottleneck.statements import contribution_statements, states_reduction, supplies

it = [json.loads(l) for l in open("docs/labels/independent/bottleneck_items.jsonl")]
lab = {
    json.loads(l)["item_id"]: json.loads(l)["label"] for l in open("docs/labels/independent/bottleneck_labels_independent.jsonl")
}
C = dict(load_causes())
# keys recorded at draw time include mined aliases; emulate: lexicon aliases + generic extras the old build joined
EXTRA = json.loads(sys.argv[1]) if len(sys.argv) > 1 else {}
kept = tp = 0
lost = []
stillwrong = []
for i in it:
    al = list(C.get(i["limitation"], [i["limitation"]])) + EXTRA.get(i["limitation"], [])
    keys = [tuple(word_tokens(a)) for a in al if word_tokens(a)]
    ok = any(states_reduction(s, keys, supplies(i["limitation"])) for s in contribution_statements(i["abstract"]))
    L = lab[i["item_id"]]
    if ok:
        kept += 1
        tp += L == "reduces"
        if L != "reduces":
            stillwrong.append((i["item_id"], i["limitation"]))
    elif L == "reduces":
        lost.append((i["item_id"], i["limitation"], i["sentence"][:160]))
print(
    "kept",
    kept,
    "reduces kept",
    tp,
    "prec",
    round(tp / max(1, kept), 3),
    "reduces total",
    sum(v == "reduces" for v in lab.values()),
)
print("still wrong", stillwrong)
for l in lost:
    print("LOST", l)

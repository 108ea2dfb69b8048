# ruff: noqa: E741, E731, E402, E501
import json
import sys

sys.path.insert(0, ".")
from assets.families.bottleneck.subject import subject_alias_hit

M = {json.loads(l)["item_id"]: json.loads(l) for l in open("docs/labels/independent/membership_seed32_rule.jsonl")}
I = {json.loads(l)["item_id"]: json.loads(l) for l in open("docs/labels/independent/membership_items.jsonl")}
L = {
    json.loads(l)["item_id"]: json.loads(l)["label"] for l in open("docs/labels/independent/membership_labels_independent.jsonl")
}


def score(f):
    ins = [k for k in L if L[k] == "in"]
    mem = [k for k in L if f(k)]
    return dict(recall=f"{sum(f(k) for k in ins)}/{len(ins)}", precision=f"{sum(L[k] == 'in' for k in mem)}/{len(mem)}")


print("before", score(lambda k: M[k]["member"]))
new = lambda k: M[k]["member"] or bool(subject_alias_hit(I[k]["subject"], I[k]["title"], I[k]["abstract"]))
print("after", score(new))
for k in L:
    if new(k) != M[k]["member"]:
        print(k, I[k]["subject"], L[k], I[k]["title"][:70])

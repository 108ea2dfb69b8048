# ruff: noqa: E741, E731, E402, E501
"""In-process recount of the default release's bottleneck tasks with this checkout's rule."""

import json
import os
import pickle
import re
import tempfile

from assets.evidence.bottlenecks import word_tokens
from assets.evidence.causes import current_name, defines_subject, joins, load_causes, umbrella
from assets.families.bottleneck.gold import MIN_MARGIN_PAPERS, MIN_RELATIVE_MARGIN
from assets.families.bottleneck.statements import contribution_statements, states_reduction, supplies
from assets.families.bottleneck.subject import subject_alias_hit
from core.records import GoldTarget, ScreenedPaper, Signal, Task
from resources.storage import StorageResource

# The warehouse to recount (a built default release; FORESCI_HOME as everywhere, default .foresci).
HOME = os.environ.get("FORESCI_HOME", ".foresci")
W = {
    d: HOME
    for d in (
        "llm_agent",
        "llm_finetuning_post_training",
        "rag_and_retrieval_structuring",
        "visual_generative_modeling_and_diffusion",
    )
}
C = dict(load_causes())
CUT = "2025-12-31"


def umbrella_join(b):
    """A mined theme that an umbrella cause absorbs now (its key holds the cause's alias)."""
    own = [tuple(word_tokens(a)) for a in b.details.get("aliases", [])] or [tuple(word_tokens(b.title))]
    return any(umbrella(n) and joins(own, [tuple(word_tokens(a)) for a in al]) for n, al in C.items())


def keys_of(b):
    al = list(b.details.get("aliases", [])) or [b.title]
    if b.details.get("family") == "lexicon" or current_name(b.title) in C:
        own = [tuple(word_tokens(a)) for a in C.get(current_name(b.title), [b.title])]
        # mined keys the old build joined: kept only where they still join (multi-word, hold a current alias)
        al = list(C.get(current_name(b.title), [b.title])) + [
            a for a in al if len(a.split()) >= 2 and joins([tuple(word_tokens(a))], own)
        ]
    return [t for a in dict.fromkeys(al) if (t := tuple(word_tokens(a)))]


out = {}
for d, w in W.items():
    st = StorageResource(root=f"{w}/warehouse", duckdb_path=f"{tempfile.mkdtemp()}/x.duckdb").store()
    tasks = {t.task_id: t for t in st.read_records("tasks", d, CUT, Task) if t.family == "bottleneck"}
    golds = [g for g in st.read_records("gold_targets", d, CUT, GoldTarget) if g.task_id in tasks]
    fut = {p.arxiv_id: p for p in st.read_records("future_window", d, CUT, ScreenedPaper)}
    sig = {s.signal_id: s for s in st.read_records("research_signals", d, CUT, Signal)}
    stm = {pid: contribution_statements(p.abstract, p.title) for pid, p in fut.items()}
    released = set()
    if st.exists("task_ranking", d, CUT):
        from core.records import TaskRating

        released = {r.task_id for r in st.read_records("task_ranking", d, CUT, TaskRating) if r.released}
    rows = []
    for g in golds:
        t = tasks[g.task_id]
        m = re.search(r'research on "([^"]+)"', t.question)
        sub = m.group(1) if m else ""
        members = set(g.future_paper_ids) | {pid for pid, p in fut.items() if subject_alias_hit(sub, p.title, p.abstract)}
        cands = [sig[s] for s in g.counted if s in sig]
        # issue 32 third pass: umbrella causes (and the mined themes they absorb) and causes that are
        # the subject's own definition are no candidates; merged near-duplicates count as one
        cands = [b for b in cands if not umbrella(current_name(b.title)) and not umbrella_join(b)]
        cands = [b for b in cands if not defines_subject(current_name(b.title), sub)]
        if not cands:
            continue
        counted = {}
        for b in cands:
            ks, sup = keys_of(b), supplies(b.title)
            hits = []
            for pid in sorted(members):
                for s_ in stm.get(pid, []):
                    if states_reduction(s_, ks, sup):
                        hits.append((pid, s_.own, s_.antecedent))
                        break
            name = current_name(b.title)
            counted[name] = sorted(set(counted.get(name, [])) | set(hits))
        order = sorted(counted, key=lambda k: -len(counted[k]))
        c1 = len(counted[order[0]])
        c2 = len(counted[order[1]]) if len(order) > 1 else 0
        ok = c1 >= 3 and c1 - c2 >= MIN_MARGIN_PAPERS and (c1 - c2) / max(1, c1) >= MIN_RELATIVE_MARGIN
        rows.append(
            dict(
                task_id=g.task_id,
                subject=sub,
                gold=order[0],
                top=[(k, len(counted[k])) for k in order[:2]],
                passes=ok,
                n_members=len(members),
                n_rule_members=len(g.future_paper_ids),
                counted=counted,
                was_released_gold=(g.preferred_ranking or [""])[0],
                released=g.task_id in released,
            )
        )
    out[d] = rows
    print(
        d,
        "tasks",
        len(rows),
        "pass",
        sum(r["passes"] for r in rows),
        "released before",
        sum(r["released"] for r in rows),
        "of them still pass",
        sum(r["released"] and r["passes"] for r in rows),
        flush=True,
    )
    for r in rows:
        if r["passes"]:
            print("   ", r["subject"], "|", r["gold"], r["top"])
pickle.dump(out, open(f"{tempfile.gettempdir()}/bottleneck_recount.pkl", "wb"))

# ---- fresh seeded samples (docs/labels/bottleneck_*_sample.jsonl and their blind copies)
import gzip
import random
from pathlib import Path

SEED = 3636  # issue 32 third pass (s36): the fresh sample for an independent labeller; 3232 drew the last one
QUOTA_C = {
    "llm_agent": 18,
    "llm_finetuning_post_training": 18,
    "rag_and_retrieval_structuring": 18,
    "visual_generative_modeling_and_diffusion": 18,
}
QUOTA_M = {d: 16 for d in W}
GENERIC = frozenset("model models agent agents large language learning based using with from into".split())
corpus = {}
for d in W:
    for line in gzip.open(f"assets/corpus/shipped/{d}.jsonl.gz", "rt"):
        r = json.loads(line)
        corpus[r["arxiv_id"]] = r
rng = random.Random(SEED)
C_rows, M_rows = [], []
for d, rows in out.items():
    st = StorageResource(root=f"{W[d]}/warehouse", duckdb_path=f"{tempfile.mkdtemp()}/x.duckdb").store()
    golds = {g.task_id: g for g in st.read_records("gold_targets", d, CUT, GoldTarget)}
    fut = {p.arxiv_id: p for p in st.read_records("future_window", d, CUT, ScreenedPaper)}
    pool = [
        dict(
            domain=d,
            task_id=r["task_id"],
            subject=r["subject"],
            limitation=lim,
            gold=r["gold"],
            paper_id=pid,
            title=corpus.get(pid, {}).get("title", ""),
            sentence=own + (f' [refers to: "{ante}"]' if ante else ""),
            abstract=corpus.get(pid, {}).get("abstract", ""),
        )
        for r in rows
        for lim, hits in r["counted"].items()
        for pid, own, ante in hits
    ]
    rng.shuffle(pool)
    C_rows += pool[: QUOTA_C[d]]
    mpool = []
    for r in rows:
        g = golds[r["task_id"]]
        inside = set(g.future_paper_ids) | {pid for pid, p in fut.items() if subject_alias_hit(r["subject"], p.title, p.abstract)}
        words = {w for w in re.findall(r"[a-z][a-z0-9\-]+", r["subject"].lower()) if len(w) >= 3 and w not in GENERIC}
        for pid, p in fut.items():
            text = f"{p.title} {p.abstract}".lower()
            net = words and all(re.search(r"\b" + re.escape(w) + r"(?:s|es)?\b", text) for w in words)
            if net or subject_alias_hit(r["subject"], p.title, p.abstract) or (pid in inside and rng.random() < 0.02):
                mpool.append(
                    dict(
                        domain=d,
                        task_id=r["task_id"],
                        subject=r["subject"],
                        paper_id=pid,
                        title=p.title,
                        abstract=corpus.get(pid, {}).get("abstract", p.abstract),
                        member=pid in inside,
                    )
                )
    rng.shuffle(mpool)
    M_rows += mpool[: QUOTA_M[d]]
L = Path("docs/labels")


def write(path, rows, prefix, hide):
    rows = [{"item_id": f"{prefix}{i:03d}", **r, "label": "", "note": ""} for i, r in enumerate(rows)]
    (L / path).with_suffix(".unlabelled.jsonl").write_text(
        "".join(json.dumps({k: v for k, v in r.items() if k not in hide}) + "\n" for r in rows)
    )
    (L / (path + ".draft")).write_text("".join(json.dumps(r) + "\n" for r in rows))


write(os.environ.get("SAMPLE_NAME", "bottleneck_counting_sample_s36.jsonl"), C_rows, "c", ("gold",))
if os.environ.get("MEMBERSHIP_SAMPLE"):  # the membership sample is redrawn only when asked
    write("bottleneck_membership_sample.jsonl", M_rows, "m", ("member",))
print("counting", len(C_rows), "membership", len(M_rows))

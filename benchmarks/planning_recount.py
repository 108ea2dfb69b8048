"""Recount a built release's planning tasks with this checkout's counting rule (no rebuild).

    FORESCI_HOME=<home> .venv/bin/python benchmarks/planning_recount.py

For every planning task of the built default release (cutoff 2025-12-31, the warehouse under
FORESCI_HOME, default .foresci): its options' catalog members (the task build's option signals),
the window papers on the role's subfield (`Role.on_subfield`, the built future window) and each
option's count under the CURRENT rule (`building_on.builds_on`), then the margin rule
(`planning.gold.margin_problems`' thresholds). Prints per task: released before, passes now;
and the totals (issue 32 third pass: the released yield after a rule change, before a rebuild).
"""

from __future__ import annotations

import json
import os
import tempfile

from assets.evidence.approaches import load_roles
from assets.evidence.building_on import builds_on
from assets.families.planning.gold import MIN_MARGIN_PAPERS, MIN_MARGIN_SHARE
from core.records import ScreenedPaper, Signal, Task, TaskBuild, TaskRating
from resources.storage import StorageResource

HOME = os.environ.get("FORESCI_HOME", ".foresci")
CUT = "2025-12-31"
DOMAINS = (
    "llm_agent",
    "llm_finetuning_post_training",
    "rag_and_retrieval_structuring",
    "visual_generative_modeling_and_diffusion",
)


def passes(counts: list[int]) -> bool:
    n = sorted(counts, reverse=True)
    if len(n) < 2 or n[0] <= 0:
        return False
    lead = n[0] - n[1]
    return lead >= MIN_MARGIN_PAPERS and lead / n[0] >= MIN_MARGIN_SHARE and len(set(n)) == len(n)


def main() -> None:
    member = {(r.role_id, m.member_id): (r, m) for r in load_roles() for m in r.members}
    total = {"tasks": 0, "released": 0, "pass": 0, "released_pass": 0}
    for d in DOMAINS:
        st = StorageResource(root=f"{HOME}/warehouse", duckdb_path=f"{tempfile.mkdtemp()}/x.duckdb").store()
        if not st.exists("tasks", d, CUT):
            continue
        tasks = [t for t in st.read_records("tasks", d, CUT, Task) if t.family == "planning"]
        builds = {b.task_id: b for b in st.read_records("task_builds", d, CUT, TaskBuild)}
        sig = {s.signal_id: s for s in st.read_records("research_signals", d, CUT, Signal)}
        released = {r.task_id for r in st.read_records("task_ranking", d, CUT, TaskRating) if r.released}
        window = st.read_records("future_window", d, CUT, ScreenedPaper)
        for t in tasks:
            b = builds.get(t.task_id)
            if b is None:
                continue
            counts, names = [], []
            for _, sid in sorted(b.option_signal_ids.items()):
                s = sig.get(sid)
                mid = ((s.details.get("role") or [""])[0], (s.details.get("member") or [""])[0]) if s else ("", "")
                if mid not in member:
                    continue
                role, m = member[mid]
                on = [p for p in window if role.on_subfield(f"{p.title}. {p.abstract}")]
                matcher = m.matcher()
                counts.append(sum(1 for p in on if builds_on(p.title, p.abstract, matcher)))
                names.append(m.name.split(" (")[0])
            ok, rel = passes(counts), t.task_id in released
            total["tasks"] += 1
            total["released"] += rel
            total["pass"] += ok
            total["released_pass"] += rel and ok
            print(f"{t.task_id:70} released={int(rel)} passes_now={int(ok)} {json.dumps(dict(zip(names, counts)))}")
    print(total)


if __name__ == "__main__":
    main()

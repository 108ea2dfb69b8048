"""The blind reader's phase findings (issue 32, seed 3211), counted over a warehouse's released phase tasks.

    python benchmarks/phase_findings.py $FORESCI_HOME/warehouse

Per released phase task (task_ranking.released), from its build, its gold and the window papers:
design tasks whose primary paper is no method paper (by title: `contribution_kind`), design
keypoints from papers that are no method papers, tasks with fewer than 3 keypoints, keypoints
below TOPIC_COS, pursuing titles below TITLE_COS, context quotes below CONTEXT_COS, design
open problems that are evaluation gaps, topic names `readable_subject` refuses, and questions
that still say "next method on"."""

from __future__ import annotations

import json
import sys

import duckdb

from assets.families.phase.kinds import contribution_kind, is_evaluation_gap
from assets.families.phase.quotes import readable_subject
from assets.families.phase.topic import CONTEXT_COS, TITLE_COS, TOPIC_COS, topic_cos, topic_text


def _read(con, warehouse: str, table: str, cols: str, where: str = "") -> list:
    sql = f"select {cols} from read_parquet('{warehouse}/{table}/**/*.parquet', hive_partitioning=1) {where}"
    return con.execute(sql).fetchall()


def findings(warehouse: str) -> dict[str, int]:
    con = duckdb.connect()
    ids = {t for (t,) in _read(con, warehouse, "public/task_ranking", "task_id", "where family='phase' and released")}
    builds = {
        t: json.loads(r)["curation"] for t, r in _read(con, warehouse, "hidden/task_builds", "task_id, record_json") if t in ids
    }
    golds = {t: json.loads(r) for t, r in _read(con, warehouse, "hidden/gold_targets", "task_id, record_json") if t in ids}
    tasks = {t: (s, q) for t, s, q in _read(con, warehouse, "public/tasks", "task_id, subtype, question") if t in ids}
    window = {i: (ti, ab) for i, ti, ab in _read(con, warehouse, "hidden/future_window", "arxiv_id, title, abstract")}
    m = dict.fromkeys(
        "released design design_primary_not_method design_keypoints design_keypoints_not_method tasks_under_3_keypoints "
        "keypoints keypoints_below_bar pursuing pursuing_below_bar context_quotes context_below_bar "
        "design_open_problem_evaluation_gap unreadable_topic next_method_on".split(),
        0,
    )
    m["released"] = len(ids)
    for tid in ids:
        c, g, (subtype, question) = builds[tid], golds[tid], tasks[tid]
        topic = topic_text(c.get("primary_title", ""), c.get("primary_quote", ""))
        kps = [s["variants"][0] for s in g.get("slots", [])]
        srcs = [
            cl["basis"]["paper_ids"][0] for cl in g.get("claims", []) if (cl.get("basis") or {}).get("check") == "quote_in_window"
        ]
        m["keypoints"] += len(kps)
        m["tasks_under_3_keypoints"] += len(kps) < 3
        m["keypoints_below_bar"] += int((topic_cos(kps, topic) < TOPIC_COS).sum()) if kps else 0
        pursuing = [p for p in g.get("future_paper_ids", []) if p in window]
        m["pursuing"] += len(pursuing)
        m["pursuing_below_bar"] += int((topic_cos([window[p][0] for p in pursuing], topic) < TITLE_COS).sum()) if pursuing else 0
        support = c.get("support_quote", "")
        if support:
            m["context_quotes"] += 1
            m["context_below_bar"] += int(topic_cos([support], topic)[0] < CONTEXT_COS)
        m["unreadable_topic"] += readable_subject(c.get("primary_title", ""), "") is None
        m["next_method_on"] += "next method on" in question
        if subtype == "design":
            m["design"] += 1
            m["design_primary_not_method"] += contribution_kind(c.get("primary_title", ""), "") != "method"
            m["design_keypoints"] += len(srcs)
            m["design_keypoints_not_method"] += sum(contribution_kind(*window[p]) != "method" for p in srcs if p in window)
            m["design_open_problem_evaluation_gap"] += bool(support) and is_evaluation_gap(support)
    return m


if __name__ == "__main__":
    for key, value in findings(sys.argv[1]).items():
        print(f"{key}: {value}")

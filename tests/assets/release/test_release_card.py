"""The benchmark release card (assets/release/card.py) and the release's cutoffs and partition
bookkeeping (pipelines/release.py), over small hand-made partitions: no build."""

from __future__ import annotations

import json
from datetime import date

import pyarrow as pa
import pytest

from assets.release.card import PartitionData, card_files, card_markdown, release_card, write_card
from assets.release.logic import canonical_jsonl
from core.cutoffs import CorpusSpan
from core.records import GoldTarget, Score, Signal, TaskBuild
from resources.storage import PartitionStore
from tests.factories import make_task

C2, C3 = date(2025, 9, 30), date(2025, 12, 31)
CUTOFFS = [
    {"cutoff": "2025-09-30", "horizon_months": 6, "window_start": "2025-10-01", "window_end": "2026-03-30"},
    {"cutoff": "2025-12-31", "horizon_months": 6, "window_start": "2026-01-01", "window_end": "2026-06-30"},
]
DIRS = ["Tool use — calling tools", "GUI agents — screens", "World models — environments"]
MENU = ["ICLR/ICML/NeurIPS", "ACL/EMNLP/NAACL", "CVPR/ICCV/ECCV"]
RAG = "rag_and_retrieval_structuring"
DOMAINS = ["llm_agent", RAG]


def task(task_id, family, options, cutoff, domain):
    return make_task(task_id, family, "Which one?", options, cutoff).model_copy(update={"domain": domain})


def gold(t, top="o0"):
    return GoldTarget(
        task_id=t.task_id,
        family=t.family,
        domain=t.domain,
        cutoff=t.cutoff,
        preferred_ranking=[top] + [o.option_id for o in t.options if o.option_id != top],
        strength=1.0,
    )


def scores(t, fta_by_method):
    return [
        Score(answer_id=f"{t.task_id}:{m}:{i}", task_id=t.task_id, family=t.family, method=m, backbone="offline", fta=v)
        for m, vs in fta_by_method.items()
        for i, v in enumerate(vs if isinstance(vs, list) else [vs])
    ]


def validity_row(family, released, dropped, reasons, passed=True):
    return {
        "family": family,
        "tasks_released": released,
        "tasks_dropped": dropped,
        "drop_reasons": json.dumps(reasons),
        "passed": passed,
        "problems": "" if passed else "gold answer 0.5 < 0.9",
        "controls_gated": False,
        "released_with_defects": 0,
    }


def partition(domain, cutoff, released, extra_built=(), rows=(), projects=None, tops=None):
    projects, tops = projects or {}, tops or {}
    controls, judged = [], []
    for t in released:
        controls += scores(
            t,
            {
                "control:gold": 1.0,
                "control:random": [0.2, 0.4],
                "control:first_option": 0.3,
                "control:empty": 0.0,
                "control:every_option": 0.25,
                "control:other_gold": 0.3,
            },
        )
        judged += scores(t, {"momentum": [0.6, 0.8], "retrieval": 0.5})
    return PartitionData(
        domain=domain,
        cutoff=cutoff.isoformat(),
        horizon_months=6,
        window_start="",
        window_end="",
        manifest={"release_version": f"v-{domain}-{cutoff}", "counts": {"kb_papers": 10}},
        built=list(released) + list(extra_built),
        released=list(released),
        golds={t.task_id: gold(t, tops.get(t.task_id, "o0")) for t in released},
        builds={
            t.task_id: TaskBuild(task_id=t.task_id, signal_ids=[], node_ids=[], project_paper_id=projects.get(t.task_id, ""))
            for t in released
        },
        validity=list(rows),
        controls=controls,
        scores=judged,
    )


@pytest.fixture
def release():
    d2 = task("llm_agent-2025-09-30-direction-01", "direction", DIRS, C2, "llm_agent")
    d3 = task("llm_agent-2025-12-31-direction-01", "direction", list(reversed(DIRS)), C3, "llm_agent")
    p3 = task(
        "llm_agent-2025-12-31-planning-01", "planning", ["Tool use — apis", "Memory — notes", "Reflection — x"], C3, "llm_agent"
    )
    v3 = task("llm_agent-2025-12-31-venue-01", "venue", MENU, C3, "llm_agent")
    v3r = task("rag-2025-12-31-venue-01", "venue", MENU, C3, RAG)
    v3r2 = task("rag-2025-12-31-venue-02", "venue", MENU, C3, RAG)
    dropped = task("llm_agent-2025-12-31-direction-02", "direction", DIRS[:2] + ["Memory — notes"], C3, "llm_agent")
    parts = [
        partition("llm_agent", C2, [d2], rows=[validity_row("direction", 1, 0, {})]),
        partition(
            "llm_agent",
            C3,
            [d3, p3, v3],
            [dropped],
            rows=[
                validity_row(
                    "direction",
                    1,
                    2,
                    {"gold top-1 unstable under resampling of the window": 1, "curation: duplicate decision of a task": 1},
                ),
                validity_row("planning", 1, 0, {}),
                validity_row("venue", 1, 0, {}),
            ],
            projects={v3.task_id: "2512.22087"},
            tops={d3.task_id: "o2"},
        ),  # o2: Tool use
        partition(
            RAG,
            C3,
            [v3r, v3r2],
            rows=[validity_row("venue", 2, 3, {"below the top 10 of its family": 3}, passed=False)],
            projects={v3r.task_id: "2512.22087", v3r2.task_id: "2512.00001"},
        ),
    ]
    return parts


def test_card_counts_built_released_dropped_and_independent_per_family(release):
    card, hidden = release_card(release, cutoffs=CUTOFFS, domains=DOMAINS)
    fam = card["families"]
    # direction: one question asked at two consecutive cutoffs -> one decision
    assert {k: fam["direction"][k] for k in ("built", "released", "dropped", "duplicates", "effective")} == {
        "built": 3,
        "released": 2,
        "dropped": 2,
        "duplicates": 1,
        "effective": 1,
    }
    assert fam["direction"]["duplicates_by_rule"] == {"same_question": 1, "same_project": 0, "same_gold": 0}
    assert fam["direction"]["drop_reasons"] == {
        "curation: duplicate decision of a task": 1,
        "gold top-1 unstable under resampling of the window": 1,
    }
    # planning's top approach is the direction task's top direction in the same partition
    assert fam["planning"]["duplicates_by_rule"]["same_gold"] == 1 and fam["planning"]["effective"] == 0
    # venue: the same project in two domains
    assert (fam["venue"]["released"], fam["venue"]["duplicates"], fam["venue"]["effective"]) == (3, 1, 2)
    assert fam["venue"]["released_by_domain"] == {"llm_agent": 1, RAG: 2}
    assert card["totals"] == {"built": 7, "released": 6, "dropped": 5, "duplicates": 3, "effective": 3}
    # the per family x domain x cutoff table and the gate
    cell = {(r["family"], r["domain"], r["cutoff"]): r for r in card["table"]}
    assert cell[("direction", "llm_agent", "2025-12-31")]["built"] == 2
    assert cell[("venue", RAG, "2025-12-31")]["validity"].startswith("FAIL")
    assert card["gate"]["passed"] is False and card["gate"]["partition_rows_failing"] == [
        "venue rag_and_retrieval_structuring@2025-12-31: FAIL: gold answer 0.5 < 0.9"
    ]
    # ForeSci's size: 125 per family
    assert card["target"]["met"] is False and card["target"]["short_per_family"]["venue"] == 122
    # the duplicate groups are hidden rows; the public card names no task
    groups = [r for r in hidden if r["kind"] == "group"]
    assert len(groups) == 2 and {m["rule"] for g in groups for m in g["members"]} == {
        "same_question",
        "same_gold",
        "same_project",
    }
    public = card_files(card, hidden)
    for name in ("card.json", "card.md"):
        assert not any(t.task_id.encode() in public[name] for p in release for t in p.released), name


def test_card_validity_is_pooled_over_the_partitions(release):
    card, _ = release_card(release, cutoffs=CUTOFFS, domains=DOMAINS)
    v = card["validity"]["venue"]
    assert (v["tasks"], v["partitions"]) == (3, 2)
    assert v["gold_answer"] == 1.0 and v["chance"] == pytest.approx(0.3)
    assert v["controls"]["first_option"]["mean"] == pytest.approx(0.3)
    assert v["controls"]["first_option"]["excess"] == pytest.approx(0.0)
    # seeds averaged per task first: momentum (0.6, 0.8) -> 0.7 beats retrieval 0.5
    assert v["methods"] == {"momentum": 0.7, "retrieval": 0.5} and v["best_method"] == "momentum"
    assert v["controls_gated"] is False  # 3 tasks < min_gated_tasks: shown, not gated
    assert v["partition_rows"] == {"failed": 1, "passed, controls not gated": 1}


def test_card_is_canonical_and_its_version_is_its_content(release):
    one, _ = release_card(release, cutoffs=CUTOFFS, domains=list(reversed(DOMAINS)))
    two, _ = release_card(list(reversed(release)), cutoffs=CUTOFFS, domains=DOMAINS)
    assert card_files(one, [])["card.json"] == card_files(two, [])["card.json"]
    three, _ = release_card(release[:2], cutoffs=CUTOFFS, domains=DOMAINS, missing=["rag_and_retrieval_structuring@2025-12-31"])
    assert three["card_version"] != one["card_version"] and three["missing_partitions"] == [
        "rag_and_retrieval_structuring@2025-12-31"
    ]
    assert three["gate"]["passed"] is False and "missing partitions: rag_and_retrieval_structuring@2025-12-31" in card_markdown(
        three
    )


def test_card_markdown_states_the_counts_and_the_shortfall(release):
    card, _ = release_card(release, cutoffs=CUTOFFS, domains=DOMAINS)
    md = card_markdown(card)
    assert "| direction | 3 | 2 | 2 | 1 (1 / 0 / 0) | 1 |" in md
    assert "| all | 7 | 6 | 5 | 3 | 3 |" in md
    assert "NOT met" in md and f"| venue | {RAG} | – | 2 / 2 |" in md
    assert "| 2025-12-31 | 6 months | 2026-01-01 .. 2026-06-30 | 5 |" in md
    assert "Gate: NOT passed." in md


def _write_partition(store: PartitionStore, p: PartitionData) -> None:
    from core.records import Task

    d, c = p.domain, p.cutoff
    store.write_records("tasks", d, c, p.built, Task)  # first: a package older than its tasks is not built
    store.write_table(
        "release_package",
        d,
        c,
        pa.table(
            {
                "manifest_json": [
                    json.dumps(
                        {
                            **p.manifest,
                            "horizon_months": 6,
                            "window_end": "2026-06-30",
                            "windows": [{"start": "2026-01-01", "end": "2026-06-30"}],
                        }
                    )
                ]
            }
        ),
    )
    store.write_bytes(
        store.artifact_path("release", d, c, "tasks.jsonl"), canonical_jsonl([t.model_dump(mode="json") for t in p.released])
    )
    store.write_bytes(
        store.artifact_path("release", d, c, "gold.jsonl"), canonical_jsonl([g.model_dump(mode="json") for g in p.golds.values()])
    )
    store.write_records("task_builds", d, c, list(p.builds.values()), TaskBuild)
    store.write_records("research_signals", d, c, [], Signal)
    store.write_records("validity_controls", d, c, p.controls, Score)
    store.write_records("judge_scores", d, c, p.scores, Score)
    rows = [{**r, "tasks_dropped": int(r["tasks_dropped"])} for r in p.validity]
    store.write_table("validity_report", d, c, pa.Table.from_pylist(rows))


def test_partitions_read_back_from_the_warehouse_and_files_land_public_and_hidden(tmp_path, release):
    from pipelines.release import read_partition

    store = PartitionStore(str(tmp_path / "warehouse"))
    for p in release:
        _write_partition(store, p)
    read = [read_partition(store, p.domain, p.cutoff, 6) for p in release]
    assert [len(p.released) for p in read] == [1, 3, 2] and read[1].window_start == "2026-01-01"
    card, hidden = release_card(read, cutoffs=CUTOFFS, domains=DOMAINS, name="v0.1")
    expected, _ = release_card(release, cutoffs=CUTOFFS, domains=DOMAINS, name="v0.1")
    assert card["families"] == expected["families"] and card["validity"] == expected["validity"]
    written = write_card(store, card, hidden)
    root = tmp_path / "warehouse"
    assert written["card.md"].startswith(str(root / "public/_artifacts/releases/benchmark/v0.1"))
    assert written["independence.jsonl"].startswith(str(root / "hidden/_artifacts/releases/benchmark/v0.1"))
    assert (root / "public/_artifacts/release/benchmark/card.json").read_text() == (
        root / "public/_artifacts/releases/benchmark/v0.1/card.json"
    ).read_text()
    assert not (root / "public/_artifacts/release/benchmark/independence.jsonl").exists()
    assert (root / "hidden/_artifacts/release/benchmark/independence.jsonl").read_text().count('"kind": "group"') == 2


def test_release_cutoffs_are_the_registry_defaults_whose_window_closed():
    from pipelines.release import release_cutoffs

    chosen, left_out = release_cutoffs(span=CorpusSpan(date(2023, 1, 8), date(2026, 8, 21)))
    assert [(c["cutoff"], c["horizon_months"], c["window_end"]) for c in chosen] == [
        ("2025-06-30", 6, "2025-12-30"),
        ("2025-09-30", 6, "2026-03-30"),
        ("2025-12-31", 6, "2026-06-30"),
        ("2026-05-15", 3, "2026-08-15"),
    ]
    assert left_out == {}
    chosen, left_out = release_cutoffs(span=CorpusSpan(date(2023, 1, 8), date(2026, 7, 31)))
    assert [c["cutoff"] for c in chosen] == ["2025-06-30", "2025-09-30", "2025-12-31"]
    assert "2026-08-15" in left_out["2026-05-15"]


def test_is_built_needs_a_package_and_report_not_older_than_the_tasks(tmp_path):
    import os

    from pipelines.release import is_built

    store = PartitionStore(str(tmp_path / "w"))
    t = pa.table({"x": [1]})
    store.write_table("tasks", "d", "2025-12-31", t)
    assert not is_built(store, "d", "2025-12-31")
    store.write_table("release_package", "d", "2025-12-31", t)
    store.write_table("validity_report", "d", "2025-12-31", t)
    assert is_built(store, "d", "2025-12-31")
    later = os.path.getmtime(store.parquet_path("release_package", "d", "2025-12-31")) + 60
    os.utime(store.parquet_path("tasks", "d", "2025-12-31"), (later, later))  # tasks rebuilt, the run then failed
    assert not is_built(store, "d", "2025-12-31")


def test_release_command_takes_one_partition_or_the_whole_release():
    from pipelines.cli import main

    assert main(["release", "--domain", "llm_agent"]) == 2  # a user error: one partition needs both
    assert main(["release", "--require-approval"]) == 2


def test_release_command_writes_the_card_of_the_built_partitions(tmp_path, monkeypatch, capsys, release):
    """`foresci release --no-build`: `full_release_job` in process over the built partitions; the
    card names a missing one and the command exits 2 (the gate), 0 with --keep-going."""
    from pipelines.cli import main

    monkeypatch.setenv("FORESCI_HOME", str(tmp_path))
    monkeypatch.setenv("DAGSTER_HOME", str(tmp_path / "dagster"))
    store = PartitionStore(str(tmp_path / "warehouse"))
    for p in release:
        _write_partition(store, p)
    argv = ["release", "--no-build", "--cutoffs", "2025-09-30", "2025-12-31", "--domains", *DOMAINS]
    assert main(argv) == 2  # rag@2025-09-30 is missing and a venue row fails
    out = capsys.readouterr().out
    assert "(card only: nothing built)" in out and "Gate: NOT passed" in out
    assert "direction      3         2        2           1            1" in out
    card = json.loads((tmp_path / "warehouse/public/_artifacts/release/benchmark/card.json").read_text())
    assert card["missing_partitions"] == [f"{RAG}@2025-09-30"] and card["totals"]["effective"] == 3
    assert main([*argv, "--keep-going", "--name", "v0.1"]) == 0
    assert (tmp_path / "warehouse/public/_artifacts/releases/benchmark/v0.1/card.md").exists()


def test_build_release_reuses_built_partitions_and_a_failed_run_is_missing(tmp_path, monkeypatch, release):
    """Only partitions that are not built go to the workers; a run that fails leaves its partition
    out of the card (named missing) even though an older build of it is still in the warehouse."""
    import pipelines.release as rel

    monkeypatch.setenv("FORESCI_HOME", str(tmp_path))
    monkeypatch.setenv("DAGSTER_HOME", str(tmp_path / "dagster"))
    store = PartitionStore(str(tmp_path / "warehouse"))
    for p in release:
        _write_partition(store, p)
    asked = []

    def workers(parts, workers, say):
        asked.append(list(parts))
        return [rel.PartitionRun(d, c, success=False, seconds=1.0) for d, c in parts]

    monkeypatch.setattr(rel, "run_in_workers", workers)
    kw = dict(cutoffs=["2025-09-30", "2025-12-31"], domains=DOMAINS, say=lambda line: None)
    with pytest.raises(RuntimeError, match=f"1 partitions not built \\({RAG}@2025-09-30\\)"):
        rel.build_release(store, **kw)
    assert asked == [[(RAG, "2025-09-30")]]  # the three built partitions are reused
    res = rel.build_release(store, rebuild=True, allow_missing=True, **kw)
    assert len(asked[-1]) == 4 and len(res.card["missing_partitions"]) == 4 and res.card["partitions"] == []

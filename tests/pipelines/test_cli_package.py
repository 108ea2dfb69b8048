"""The `foresci` command line as a package (pipelines/cli/) and the feature code it calls:
leaderboard columns from the scorer registry, validity summaries over stored partitions,
variadic flags, parse-only, help with examples, rich tables and progress bars on a terminal
with plain lines otherwise."""

from __future__ import annotations

import io
import json
import uuid

import dagster as dg
import pyarrow as pa
import pytest

from assets.leaderboard.columns import leaderboard_metrics
from assets.scorers.base import Scorer, ScorerResult
from core.records import Score, TaskRating
from pipelines.cli import build_parser, main
from pipelines.cli.common import spread_variadic
from resources.storage import StorageResource

D, C = "llm_agent", "2025-12-31"
BUILT_IN = ("fta", "trace_link", "fact", "pers", "ksr", "kcr", "kor", "ace", "attrib", "ref_valid")


@pytest.fixture
def homes(tmp_path, monkeypatch):
    monkeypatch.setenv("DAGSTER_HOME", str(tmp_path / "dh"))
    monkeypatch.setenv("FORESCI_HOME", str(tmp_path / "fh"))
    return tmp_path


class TopHit(Scorer):
    name, title, summary = "toy_top_hit", "Top hit", "1 when the first option is the gold's"
    values = ("top_hit", "top_hit_margin")
    families = ("venue",)

    def score(self, ctx) -> ScorerResult:  # pragma: no cover - the leaderboard reads stored values
        return ScorerResult(values={"top_hit": 1.0})


@pytest.fixture
def top_hit():
    from assets.scorers.registry import register_scorer, unregister_scorer

    register_scorer(TopHit())
    yield
    unregister_scorer("toy_top_hit")


# -- leaderboard columns from the scorer registry ------------------------------------------------


def test_the_built_in_scorers_give_the_leaderboard_columns_in_order():
    assert leaderboard_metrics() == {
        "fta": "fta",
        "trace_link": "trace_linkage",
        "fact": "fact",
        "pers": "pers",
        "ksr": "ksr",
        "kcr": "kcr",
        "kor": "kor",
        "ace": "ace",
        "attrib": "attribution",
        "ref_valid": "reference_validity",
    }


def test_a_plugin_scorer_adds_its_headline_value_as_the_last_column(top_hit):
    metrics = leaderboard_metrics()
    assert tuple(metrics)[:-1] == BUILT_IN and list(metrics.items())[-1] == ("top_hit", "top_hit")


def test_conflicting_or_unsafe_columns_are_refused():
    class A(TopHit):
        name, leaderboard = "a", {"fta": "top_hit"}

    class B(TopHit):
        name, leaderboard = "b", {"x; DROP TABLE t": "top_hit"}

    from assets.scorers.fta import ReferenceFTA

    with pytest.raises(ValueError, match="leaderboard column 'fta'"):
        leaderboard_metrics([ReferenceFTA(), A()])
    with pytest.raises(ValueError, match="not a plain name"):
        leaderboard_metrics([B()])


def test_the_sql_reads_typed_fields_as_columns_and_other_values_from_the_map():
    from assets.leaderboard.board import leaderboard_sql

    sql = leaderboard_sql({"fta": "fta", "trace_link": "trace_linkage", "top_hit": "top_hit"})
    assert "avg(s.fta) AS fta" in sql and "avg(s.trace_linkage) AS trace_link" in sql
    assert "avg(metrics['top_hit']) AS top_hit" in sql


def _scored(store, values=None):
    scores = [
        Score(
            answer_id=f"t{i}::m::b::0",
            task_id=f"t{i}",
            family="venue",
            method="momentum",
            backbone="offline",
            fta=0.25 * i,
            values=values or {},
        )
        for i in range(4)
    ]
    store.write_records("judge_scores", D, C, scores, Score)
    store.write_records(
        "task_ranking",
        D,
        C,
        [
            TaskRating(task_id=f"t{i}", family="venue", elo=1200.0, rank_in_family=i + 1, released=i < 3, quality=1.0)
            for i in range(4)
        ],
        TaskRating,
    )


def test_a_plugin_scorers_value_reaches_the_leaderboard_json_and_table(homes, top_hit, capsys):
    _scored(StorageResource().store(), {"top_hit": 1.0})
    assert main(["leaderboard", "--format", "json"]) == 0
    [row] = json.loads(capsys.readouterr().out)["rows"]
    # released tasks t0..t2 only: fta 0, .25, .5
    assert (row["n"], row["fta"], row["top_hit"], row["top_hit_ci_low"]) == (3, 0.25, 1.0, 1.0)
    assert main(["leaderboard"]) == 0
    header = capsys.readouterr().out.splitlines()[0].split()
    assert header[-2:] == ["ref_valid", "top_hit"] and header[4:7] == ["fta", "fta_95ci", "mdd"]


# -- validity summaries over stored partitions ---------------------------------------------------


def _report_row(family: str, passed: bool, released: int, problems: str = "") -> dict:
    return {"family": family, "passed": passed, "problems": problems, "tasks_built": released + 2, "tasks_released": released}


def _validity_store(tmp_path):
    from resources.storage import PartitionStore

    store = PartitionStore(str(tmp_path / "wh"))
    for d, rows in (
        ("llm_agent", [_report_row("venue", True, 3), _report_row("direction", False, 2, "gold low")]),
        ("rag_and_retrieval_structuring", [_report_row("venue", True, 4)]),
    ):
        store.write_table("validity_report", d, C, pa.Table.from_pylist(rows))
        released = [f"{d}-v{i}" for i in range(3)]
        store.write_records(
            "task_ranking",
            d,
            C,
            [TaskRating(task_id=t, family="venue", elo=1200.0, rank_in_family=1, released=True, quality=1.0) for t in released],
            TaskRating,
        )
        # gold 1.0, random 0.2, momentum 0.6 on every released task; an unreleased task's score is left out
        controls = [
            Score(answer_id=f"{t}::{m}", task_id=t, family="venue", method=m, backbone="offline", fta=v)
            for t in released
            for m, v in (("control:gold", 1.0), ("control:random", 0.2))
        ]
        store.write_records("validity_controls", d, C, controls, Score)
        store.write_records(
            "judge_scores",
            d,
            C,
            [
                Score(answer_id=f"{t}::momentum", task_id=t, family="venue", method="momentum", backbone="offline", fta=0.6)
                for t in released
            ]
            + [Score(answer_id="x::momentum", task_id="x", family="venue", method="momentum", backbone="offline", fta=0.0)],
            Score,
        )
    store.write_table("validity_report", "llm_agent", "2025-09-30", pa.Table.from_pylist([_report_row("venue", True, 1)]))
    return store


def test_validity_partitions_failures_and_overall_lines(tmp_path):
    from assets.validity import summaries

    store = _validity_store(tmp_path)
    assert summaries.validity_partitions(store) == [
        ("llm_agent", "2025-09-30"),
        ("llm_agent", C),
        ("rag_and_retrieval_structuring", C),
    ]
    assert summaries.validity_partitions(store, cutoffs=[C], domains=["llm_agent"]) == [("llm_agent", C)]
    domains = ["llm_agent", "rag_and_retrieval_structuring"]
    failing = summaries.validity_failures(store, C, domains)
    assert failing["direction"] == ["llm_agent (gold low)"] and "venue" not in failing
    lines = summaries.overall_lines(store, C, domains)
    venue = next(line for line in lines if line.strip().startswith("venue:"))
    assert "best baseline momentum 0.600 | chance 0.200 | gold answer 1.000" in venue
    assert "per-domain thresholds met in every domain" in venue
    [pooled] = [line for line in lines if "pooled controls" in line and lines[lines.index(line) - 1] == venue]
    assert pooled.strip().startswith("pooled controls:")


def test_partition_rows_of_the_partitions_command(tmp_path, homes, monkeypatch, capsys):
    from assets.validity.summaries import partition_rows

    store = _validity_store(tmp_path)
    rows = {(r["domain"], r["cutoff"]): r for r in partition_rows(store)}
    assert rows[("llm_agent", C)] == {
        "domain": "llm_agent",
        "cutoff": C,
        "families": 2,
        "built": 9,
        "released": 5,
        "validity": "missed: direction",
        "package": "no",
    }
    assert rows[("rag_and_retrieval_structuring", C)]["validity"] == "passed"


# -- arguments, parse-only, help -----------------------------------------------------------------


def test_variadic_flags_are_spread_and_an_empty_one_dropped():
    assert spread_variadic(["--domains", "a", "b", "--workers", "1"], {"--domains"}) == [
        "--domains",
        "a",
        "--domains",
        "b",
        "--workers",
        "1",
    ]
    assert spread_variadic(["--domains", "--keep-going"], {"--domains"}) == ["--keep-going"]
    assert spread_variadic(["--x", "a", "b"], {"--domains"}) == ["--x", "a", "b"]
    assert spread_variadic(["--domains", "a", "--", "--domains"], {"--domains"}) == ["--domains", "a", "--", "--domains"]


def test_parse_only_gives_the_command_and_its_parameters_without_running_it(homes):
    args = build_parser().parse_args(["release", "--cutoffs", "2025-09-30", "2025-12-31", "--domains", D, "--no-build"])
    assert (args.command, args.cutoffs, args.domains, args.no_build, args.workers) == (
        "release",
        ["2025-09-30", "2025-12-31"],
        [D],
        True,
        2,
    )
    args = build_parser().parse_args(["audit", "status", "--domain", D, "--cutoff", C, "--all"])
    assert (args.command, args.domain, args.all) == ("status", D, True)
    from pipelines.console import UserError

    with pytest.raises(UserError, match="unknown domain 'nope'"):
        build_parser().parse_args(["demo", "--domains", D, "nope"])
    with pytest.raises(UserError, match="No such option"):
        build_parser().parse_args(["leaderboard", "--colour"])


def test_a_usage_error_exits_2_with_click_s_message(homes, capsys):
    assert main(["leaderboard", "--format", "yaml"]) == 2
    assert "Invalid value for '--format'" in capsys.readouterr().err
    assert main(["no-such-command"]) == 2


@pytest.mark.parametrize(
    "argv",
    [
        [],
        ["demo"],
        ["leaderboard"],
        ["validity"],
        ["audit"],
        ["audit", "status"],
        ["export"],
        ["export", "hf"],
        ["evaluate"],
        ["partitions"],
    ],
)
def test_help_shows_examples(argv, capsys):
    assert main([*argv, "--help"]) == 0
    out = capsys.readouterr().out
    assert "Examples" in out and "foresci " in out


def test_the_root_help_groups_the_commands_in_panels(capsys):
    assert main(["--help"]) == 0
    out = capsys.readouterr().out
    for panel in ("Build", "Partitions", "Inspect", "Curation", "Datasets"):
        assert f" {panel} " in out
    assert "--install-completion" in out


# -- output on a terminal --------------------------------------------------------------------------


def test_listings_are_rich_tables_on_a_terminal_and_plain_otherwise(monkeypatch, capsys):
    from pipelines.cli import common

    rows = [{"family": "venue", "n": 3}, {"family": "direction", "n": 12}]
    common.print_rows(rows)
    assert capsys.readouterr().out.splitlines() == ["family     n", "venue      3", "direction  12"]
    monkeypatch.setattr(common, "is_terminal", lambda: True)
    common.print_rows(rows, title="Families")
    out = capsys.readouterr().out
    assert "Families" in out and "direction │ 12" in out  # a rich table: box characters, numbers right-aligned


def _tiny_job_events(listener):
    @dg.asset
    def taxonomy() -> dg.MaterializeResult:
        return dg.MaterializeResult(metadata={"rows": 754})

    @dg.asset(deps=[taxonomy])
    def summary() -> dg.MaterializeResult:
        return dg.MaterializeResult(metadata={"nodes": 12})

    instance = dg.DagsterInstance.ephemeral()
    run_id = str(uuid.uuid4())
    instance.add_event_listener(run_id, listener)
    job = dg.Definitions(assets=[taxonomy, summary], jobs=[dg.define_asset_job("j")]).resolve_job_def("j")
    assert job.execute_in_process(instance=instance, run_id=run_id).success


def test_the_stage_bar_follows_a_real_run(monkeypatch):
    from rich.console import Console

    from pipelines.progress import StageBar

    out = io.StringIO()
    bar = StageBar(["taxonomy", "summary"], console=Console(file=out, force_terminal=True, width=160))
    _tiny_job_events(bar)
    task = bar.progress.tasks[bar.task]
    assert (task.completed, task.total) == (2, 2) and task.fields["last"].startswith("summary: 12 nodes, ")
    bar.close()
    assert "2/2" in out.getvalue()


def test_off_a_terminal_the_listener_prints_stage_lines(monkeypatch, capsys):
    from pipelines.console import StageProgress
    from pipelines.progress import stage_listener

    monkeypatch.setenv("FORESCI_PROGRESS", "plain")
    assert isinstance(stage_listener(["taxonomy"]), StageProgress)


def test_worker_bars_read_the_stage_lines_of_each_log(tmp_path):
    from rich.console import Console

    from pipelines.progress import WorkerBars

    parts = [(D, C), ("rag_and_retrieval_structuring", C)]
    bars = WorkerBars(parts, lambda d, c: tmp_path / f"{d}@{c}.log", console=Console(file=io.StringIO(), force_terminal=True))
    (tmp_path / f"{D}@{C}.log").write_text(
        "[1/20] corpus_snapshot … 5599 papers (23.5 s, peak 735 MiB)\n[2/20] future_window … 4861 pap"
    )  # a line still being written
    bars.read_logs()
    task = bars.progress.tasks[bars.tasks[(D, C)]]
    assert (task.completed, task.total) == (1, 20) and task.fields["last"].startswith("corpus_snapshot: 5599 papers")
    with open(tmp_path / f"{D}@{C}.log", "a") as f:
        f.write("ers (4.7 s, peak 735 MiB)\n")
    bars.read_logs()
    assert bars.progress.tasks[bars.tasks[(D, C)]].completed == 2
    other = bars.progress.tasks[bars.tasks[parts[1]]]
    assert other.total is None and other.fields["last"] == "waiting"  # no log yet
    bars.finish(D, C, True)
    assert bars.progress.tasks[bars.tasks[(D, C)]].completed == 20


# -- reference validity, the `python -m` entry point, completion -----------------------------------


def test_reference_validity_rows_per_family_and_method(tmp_path, monkeypatch, homes, capsys):
    from datetime import date

    from assets.scorers.reference_summary import reference_validity_rows
    from core.records import Answer, ScreenedPaper, Task
    from resources.storage import PartitionStore
    from tests.factories import make_task, screened_paper

    monkeypatch.setattr("assets.scorers.reference_summary.shipped_dates", lambda: {})  # known: the snapshot only
    store = PartitionStore(str(tmp_path / "wh"))
    with pytest.raises(LookupError, match="no answers for llm_agent @ 2025-12-31"):
        reference_validity_rows(store, D, C)
    store.write_records(
        "corpus_snapshot",
        D,
        C,
        [
            screened_paper("2501.00001"),
            screened_paper("2508.00003", published=date(2025, 8, 1)),
            screened_paper("2601.00002", published=date(2026, 2, 1)),
        ],
        ScreenedPaper,
    )
    # the task's own cutoff (2025-06-30) bounds it: a paper of 2025-08 is after it, though before the partition's
    store.write_records("tasks", D, C, [make_task("v1", "venue", "q", ("a", "b"))], Task)

    def answer(i: int, method: str, cited: list[str]) -> Answer:
        return Answer(
            answer_id=f"v1::{method}::{i}",
            task_id="v1",
            family="venue",
            method=method,
            backbone="offline",
            seed=i,
            evidence_ids=cited,
        )

    store.write_records(
        "agent_answers",
        D,
        C,
        [
            answer(0, "momentum", ["2501.00001", "arXiv:2601.00002"]),  # one valid, one after the cutoff: 0.5
            answer(1, "momentum", ["2501.00001", "2508.00003"]),  # the second after the task's cutoff: 0.5
            answer(2, "momentum", []),  # cites nothing: left out
            answer(0, "retrieval", ["9999.99999"]),  # unknown id: 0.0
        ],
        Answer,
    )
    assert reference_validity_rows(store, D, C) == [
        {"family": "venue", "method": "momentum", "answers citing": 2, "reference validity": 0.5},
        {"family": "venue", "method": "retrieval", "answers citing": 1, "reference validity": 0.0},
    ]


def test_python_dash_m_is_the_same_command(homes):
    import os
    import subprocess
    import sys

    out = subprocess.run(
        [sys.executable, "-m", "pipelines.cli", "families", "--format", "json"],
        capture_output=True,
        text=True,
        env=dict(os.environ, FORESCI_PROGRESS="plain"),
    )
    assert out.returncode == 0 and [r["family"] for r in json.loads(out.stdout)][:2] == ["direction", "bottleneck"]
    bad = subprocess.run(
        [sys.executable, "-m", "pipelines.cli", "leaderboard", "--cutoff", "31.12.2025"], capture_output=True, text=True
    )
    assert bad.returncode == 2 and bad.stderr.startswith("foresci: error: cutoff '31.12.2025' is not a date")


def test_completion_offers_registered_domains_and_cutoffs():
    from pipelines.cli.common import complete_cutoff, complete_domain

    assert complete_domain("llm_") == ["llm_agent", "llm_finetuning_post_training"]
    assert "ideas" in complete_domain("")
    assert "2025-12-31" in complete_cutoff("2025-") and all(c.startswith("2025-") for c in complete_cutoff("2025-"))

"""`foresci evaluate` through the CLI entry point (`pipelines.cli.main`) on the synthetic
release in the ForeSci authors' format (tests/fixtures/foresci_release): exit codes and the
JSON it prints.

Exit codes: 0 when every family's controls hold; 3 when a family's controls miss the
thresholds or a task has no gold; 2 for a user error (one line on stderr, nothing on stdout).
Each cutoff's knowledge base is a small one (every 10th shipped paper up to the cutoff):
`assets.release.evaluate.cutoff_kb` is replaced, the rest of the path is the real one.
"""

from __future__ import annotations

import os

os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")

import json

import pytest

from pipelines.cli import main
from tests.factories import AUTHORS_HIDDEN as HIDDEN
from tests.factories import AUTHORS_TASKS as TASKS
from tests.factories import BYO_AGENT_SOURCE as AGENT
from tests.factories import small_kb_factory

FAMILIES = {"direction", "bottleneck", "planning", "venue"}


@pytest.fixture(scope="module")
def small_kbs(tmp_path_factory):
    return small_kb_factory(tmp_path_factory.mktemp("kbs"))


@pytest.fixture
def cli(small_kbs, tmp_path, monkeypatch, capsys):
    """Run `foresci evaluate ...` in-process: (exit code, stdout, stderr)."""
    monkeypatch.setenv("FORESCI_HOME", str(tmp_path / "fh"))
    monkeypatch.setenv("DAGSTER_HOME", str(tmp_path / "dh"))
    monkeypatch.setattr("assets.release.evaluate.cutoff_kb", small_kbs)

    def run(*argv: str) -> tuple[int, str, str]:
        capsys.readouterr()
        code = main(["evaluate", *argv])
        out, err = capsys.readouterr()
        return code, out, err

    return run


def test_exit_0_and_json_rows_when_the_controls_hold(cli, tmp_path):
    """The fixture's RAG partition (two venue tasks, one bottleneck task): every control holds."""
    agent = tmp_path / "my_agent.py"
    agent.write_text(AGENT)
    code, out, err = cli(
        "--release",
        str(TASKS),
        "--hidden",
        str(HIDDEN),
        "--agent",
        "momentum",
        "--agent",
        f"mine={agent}:answer",
        "--domain",
        "rag_and_retrieval_structuring",
        "--format",
        "json",
    )
    assert code == 0, err
    doc = json.loads(out)  # stdout is exactly one JSON document
    rows = {(r["family"], r["agent"]): r for r in doc["scores"]}
    assert set(rows) == {(f, a) for f in ("venue", "bottleneck") for a in ("momentum", "mine")}
    assert rows[("venue", "mine")]["n"] == 2 and rows[("bottleneck", "momentum")]["n"] == 1
    for r in doc["scores"]:
        assert {"family", "agent", "n", "fta", "trace_linkage"} <= set(r)
        assert r["fta"] is not None and 0.0 <= r["fta"] <= 1.0, r
    assert {c["family"] for c in doc["controls"]} == {"venue", "bottleneck"}
    assert all(c["problems"] == "" and c["gold"] >= 0.9 for c in doc["controls"]), doc["controls"]
    assert doc["import"]["tasks"] == doc["import"]["gold"] == 3 and doc["import"]["missing_gold"] == []
    assert doc["agent_failures"] == [] and err == ""
    # the table format prints the same rows, then the controls
    code, out, _ = cli(
        "--release", str(TASKS), "--hidden", str(HIDDEN), "--agent", "momentum", "--domain", "rag_and_retrieval_structuring"
    )
    assert code == 0 and out.splitlines()[0].split()[:4] == ["family", "agent", "n", "fta"]
    assert "Release controls" in out and "3 tasks, 3 with gold" in out


def test_the_whole_release_every_family_and_agent_and_the_exit_code_follows_the_controls(cli, tmp_path):
    """Both partitions, a built-in and a bring-your-own agent: a row per family x agent, and
    exit 3 exactly when a family's control row names a problem (with only three tasks per
    family the chance line of 20 random draws is itself noisy: on this fixture planning's
    first-option control can land above it)."""
    agent = tmp_path / "my_agent.py"
    agent.write_text(AGENT)
    code, out, err = cli(
        "--release",
        str(TASKS),
        "--hidden",
        str(HIDDEN),
        "--agent",
        "momentum",
        "--agent",
        f"mine={agent}:answer",
        "--format",
        "json",
    )
    doc = json.loads(out)
    rows = {(r["family"], r["agent"]): r for r in doc["scores"]}
    assert set(rows) == {(f, a) for f in FAMILIES for a in ("momentum", "mine")}
    assert sum(r["n"] for r in doc["scores"] if r["agent"] == "mine") == 12  # every task answered once
    assert rows[("direction", "mine")]["n"] == 3 and rows[("venue", "momentum")]["n"] == 3
    assert all(r["fta"] is not None and 0.0 <= r["fta"] <= 1.0 for r in doc["scores"])
    assert {c["family"] for c in doc["controls"]} == FAMILIES
    assert all(c["gold"] >= 0.9 and c["ref_wins"] == 1.0 for c in doc["controls"]), doc["controls"]
    failed = [c["family"] for c in doc["controls"] if c["problems"]]
    assert code == (3 if failed else 0), (code, doc["controls"])
    if failed:
        assert f"controls fail for {', '.join(failed)}" in err


def test_no_gold_answers_only_exits_0_with_no_scores(cli):
    code, out, err = cli(
        "--release",
        str(TASKS),
        "--no-gold",
        "--agent",
        "momentum",
        "--format",
        "json",
        "--domain",
        "rag_and_retrieval_structuring",
    )
    assert code == 0, err
    doc = json.loads(out)
    assert doc["import"]["answers_only"] is True and doc["controls"] == []
    assert doc["scores"] and all(r["fta"] is None and r["agent"] == "momentum" for r in doc["scores"])
    assert sum(r["n"] for r in doc["scores"]) == 3


def test_exit_3_when_a_task_has_no_gold(cli, tmp_path):
    rows = HIDDEN.read_text().splitlines()
    dropped = json.loads(rows[-1])["task_id"]
    hidden = tmp_path / "hidden.jsonl"
    hidden.write_text("\n".join(rows[:-1]) + "\n")
    code, out, err = cli("--release", str(TASKS), "--hidden", str(hidden), "--agent", "momentum", "--format", "json")
    assert code == 3
    doc = json.loads(out)  # the scores of the tasks with gold are still printed
    assert doc["import"]["missing_gold"] == [dropped] and doc["import"]["gold"] == 11
    assert sum(r["n"] for r in doc["scores"]) == 11
    assert "1 task(s) without gold" in err


def test_exit_3_when_a_familys_controls_fail(cli, monkeypatch):
    """A stricter thresholds file (stated gold >= 1.01: no family can meet it) makes every
    family's controls fail: the scores are printed, the exit code says they mean nothing."""
    from core.thresholds import Thresholds

    monkeypatch.setattr("assets.release.evaluate.Thresholds.load", classmethod(lambda cls: Thresholds(gold_min=1.01)))
    code, out, err = cli(
        "--release",
        str(TASKS),
        "--hidden",
        str(HIDDEN),
        "--agent",
        "momentum",
        "--format",
        "json",
        "--domain",
        "rag_and_retrieval_structuring",
    )
    assert code == 3
    doc = json.loads(out)
    failed = sorted(c["family"] for c in doc["controls"] if c["problems"])
    assert failed and all("< 1.01" in c["problems"] for c in doc["controls"] if c["problems"])
    assert f"controls fail for {', '.join(failed)}" in err


@pytest.mark.parametrize(
    "args, message",
    [
        (["--agent", "momentum"], "--no-gold"),  # no hidden file and no --no-gold
        (["--hidden", "/no/such/hidden.jsonl", "--agent", "momentum"], "/no/such/hidden.jsonl"),
        (["--hidden", str(HIDDEN), "--agent", "nosuch_method"], "no built-in method of that name"),
        (["--hidden", str(HIDDEN), "--agent", "mine=/no/such/agent.py:answer"], "--agent 'mine=/no/such/agent.py:answer'"),
        (["--hidden", str(HIDDEN), "--agent", "mine=agent.py"], "expected module:function"),
        (["--hidden", str(HIDDEN), "--agent", "mine=json:no_such_function"], "no_such_function"),
    ],
)
def test_user_errors_exit_2_with_one_line(cli, args, message):
    code, out, err = cli("--release", str(TASKS), *args)
    assert code == 2
    assert out == "" and err.count("\n") == 1 and err.startswith("foresci: error: ") and message in err, err


def test_a_missing_release_file_is_a_user_error(cli):
    code, out, err = cli("--release", "/no/such/tasks.jsonl", "--hidden", str(HIDDEN), "--agent", "momentum")
    assert code == 2 and out == "" and "/no/such/tasks.jsonl" in err


def test_the_partition_key_needs_no_agent(cli):
    from pipelines.evaluate_job import release_partition_key

    code, out, err = cli("--release", str(TASKS), "--hidden", str(HIDDEN), "--partition-key")
    assert code == 0 and out.strip() == release_partition_key(TASKS, HIDDEN)
    code, out, err = cli("--release", str(TASKS), "--hidden", str(HIDDEN))  # evaluating does need one
    assert code == 2 and out == "" and "no --agent given" in err

"""Every SQL example and `foresci` command in docs/*.md runs against a small built partition.

Slow (one partition build, ~1-3 min): `make test-all` or `pytest -m slow tests/ops`."""

from __future__ import annotations

import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

import duckdb
import pytest

from pipelines.cli import build_parser, main, materialize_partition
from pipelines.console import check_arguments
from tests.factories import sampled_shipped_corpus

pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[2]
DOMAIN, CUTOFF = "llm_agent", "2025-12-31"
# commands that build a partition: the fixture's build is exactly what they run
# (`release_job` for one partition), so their documented lines are parsed and checked only;
# `review` serves a page until stopped (tests/pipelines/test_review_browser.py drives it); the opt-in
# families' demos are builds of their own (tests/assets/rediscovery/test_rediscovery.py, tests/assets/idea_review/test_idea_review.py); `release`
# without --domain is the whole benchmark release (every domain x release cutoff: tests/assets/release/test_release_card.py)
BUILDS = {"materialize", "demo", "review", "demo-rediscovery", "demo-ideas"}


def doc_blocks(lang: str) -> list[tuple[str, str]]:
    """(file name, block text) of every fenced ```<lang> block in docs/*.md."""
    out = []
    for path in sorted((ROOT / "docs").glob("*.md")):
        for body in re.findall(rf"^```{lang}\n(.*?)^```", path.read_text(), flags=re.S | re.M):
            out.append((path.name, body))
    return out


def sql_examples() -> list[tuple[str, str]]:
    out = []
    for name, body in doc_blocks("sql"):
        code = "\n".join(line for line in body.splitlines() if not line.strip().startswith("--"))
        out += [(name, s.strip()) for s in code.split(";") if s.strip()]
    return out


def shell_lines() -> list[tuple[str, str]]:
    out = []
    for name, body in doc_blocks("bash"):
        for line in body.replace("\\\n", " ").splitlines():
            if line.strip():
                out.append((name, line.strip()))
    return out


def foresci_examples() -> list[tuple[str, list[str]]]:
    """The argv of every documented `foresci ...` line (comments dropped)."""
    out = []
    for name, line in shell_lines():
        words = shlex.split(line, comments=True)
        if words and words[0] in ("foresci", ".venv/bin/foresci"):
            out.append((name, words[1:]))
    return out


def python_examples() -> list[tuple[str, list[str]]]:
    return [(name, shlex.split(line, comments=True)) for name, line in shell_lines() if line.startswith(".venv/bin/python -c ")]


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    """One small partition (every 8th shipped llm_agent paper) built by the CLI's
    `materialize_partition` into FORESCI_HOME=<tmp>/.foresci, as the docs' paths expect."""
    import dagster as dg

    from pipelines.resources import default_resources
    from resources.corpus_source import CorpusSourceResource

    tmp = tmp_path_factory.mktemp("docs")
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("FORESCI_HOME", str(tmp / ".foresci"))
        mp.setenv("DAGSTER_HOME", str(tmp / "dagster"))
        (tmp / "dagster").mkdir()
        resources = dict(
            default_resources(), corpus_source=CorpusSourceResource(shipped_dir=str(sampled_shipped_corpus(tmp / "corpus", 8)))
        )
        instance = dg.DagsterInstance.ephemeral()
        instance.add_dynamic_partitions("cutoff", [CUTOFF])
        result = materialize_partition(instance, DOMAIN, CUTOFF, resources=resources)
        assert result.success and result.dagster_run.job_name == "release_job"
        default_resources()["storage"].store().refresh_views()  # runs never write the views file; the CLI does
        yield tmp


def test_the_docs_have_examples():
    assert len(sql_examples()) >= 3 and len(foresci_examples()) >= 8 and python_examples()


@pytest.mark.parametrize("doc, statement", sql_examples())
def test_sql_example_runs(built, doc, statement):
    # as docs/usage.md says: the views' globs are relative to the views file's folder
    with duckdb.connect(str(built / ".foresci" / "foresci.duckdb"), read_only=True) as con:
        con.execute(f"SET file_search_path = '{built / '.foresci'}'")
        rows = con.execute(statement).fetchall()
    assert rows, f"{doc}: the example returns nothing on a built partition:\n{statement}"


@pytest.mark.parametrize("doc, argv", foresci_examples())
def test_foresci_example_runs(built, monkeypatch, capsys, doc, argv):
    monkeypatch.setenv("FORESCI_HOME", str(built / ".foresci"))
    monkeypatch.setenv("DAGSTER_HOME", str(built / "dagster"))
    # the `ideas` partition exists only after demo-ideas (tests/assets/idea_review/test_idea_review.py builds it)
    whole_release = (argv[0] == "release" and "--domain" not in argv) or (argv[0] == "export" and "--release" in argv)
    if (
        argv[0] in BUILDS or "ideas" in argv or whole_release
    ):  # a whole release (its export: tests/assets/export/test_export_release.py)
        check_arguments(build_parser().parse_args(argv))  # raises on a bad line
        return
    code = main(argv)
    out, err = capsys.readouterr()
    assert "foresci: error" not in err, f"{doc}: foresci {' '.join(argv)}: {err}"
    # validity exits 2 when a threshold is missed (a small partition may miss one)
    assert code == 0 or (argv[0] == "validity" and code == 2), f"{doc}: foresci {' '.join(argv)} -> {code}"
    assert out.strip(), f"{doc}: foresci {' '.join(argv)} printed nothing"


@pytest.mark.parametrize("doc, argv", python_examples())
def test_python_example_runs(built, doc, argv):
    proc = subprocess.run(
        [sys.executable, *argv[1:]],
        cwd=built,
        capture_output=True,
        text=True,
        env=dict(os.environ, FORESCI_HOME=str(built / ".foresci")),
    )
    assert proc.returncode == 0 and proc.stdout.strip(), f"{doc}: {proc.stderr[-2000:]}"

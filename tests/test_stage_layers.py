"""The stage packages of `assets/` are in DAG order (issue 25): no package-level import cycle,
and the import-linter layers contract (pyproject.toml) is a real check: it breaks on a
deliberately added upward or cyclic import in a copy of the tree and holds on the real one.
Imports under TYPE_CHECKING and inside functions count like any other."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import grimp
import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("core", "resources", "assets", "pipelines", "foresci")
LINT = Path(sys.executable).with_name("lint-imports")


def _stage(module: str) -> str | None:
    parts = module.split(".")
    return parts[1] if parts[0] == "assets" and len(parts) > 1 else None


def package_cycles(graph: grimp.ImportGraph) -> list[set[str]]:
    """Strongly connected components (more than one package) of the assets/ package graph."""
    edges: dict[str, set[str]] = {}
    for m in graph.modules:
        a = _stage(m)
        if a is None:
            continue
        edges.setdefault(a, set())
        for b in map(_stage, graph.find_modules_directly_imported_by(m)):
            if b is not None and b != a:
                edges[a].add(b)
                edges.setdefault(b, set())
    # reachability closure is small enough here (~25 packages)
    reach = {a: set(bs) for a, bs in edges.items()}
    changed = True
    while changed:
        changed = False
        for a in reach:
            new = set().union(*(reach[b] for b in reach[a])) - reach[a] if reach[a] else set()
            if new:
                reach[a] |= new
                changed = True
    comps = {frozenset({a} | {b for b in reach[a] if a in reach[b]}) for a in reach}
    return [set(c) for c in comps if len(c) > 1]


def test_no_package_cycle_in_assets():
    graph = grimp.build_graph(*PACKAGES, include_external_packages=False, exclude_type_checking_imports=False)
    assert package_cycles(graph) == []


def _copy_tree(dest: Path) -> Path:
    for name in PACKAGES:
        shutil.copytree(ROOT / name, dest / name, ignore=shutil.ignore_patterns("__pycache__", "*.pyc", "shipped"))
    shutil.copy(ROOT / "pyproject.toml", dest / "pyproject.toml")
    return dest


def _lint(tree: Path) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": str(tree)}  # the copy shadows the editable install
    return subprocess.run([str(LINT), "--no-cache"], cwd=tree, env=env, capture_output=True, text=True)


def _add_import(tree: Path, module: str, statement: str, *, local: bool) -> None:
    path = tree / (module.replace(".", "/") + ".py")
    text = path.read_text()
    if local:  # hidden in a function, where a cycle used to be dodged
        text += f"\n\ndef _added_for_the_test():\n    {statement}\n"
    else:
        text = text.replace("from __future__ import annotations\n", f"from __future__ import annotations\n{statement}\n", 1)
    path.write_text(text)


@pytest.fixture(scope="module")
def clean_copy(tmp_path_factory) -> Path:
    return _copy_tree(tmp_path_factory.mktemp("tree"))


def test_the_contract_holds_on_the_real_tree_and_its_copy(clean_copy):
    for tree in (ROOT, clean_copy):
        result = _lint(tree)
        assert result.returncode == 0, result.stdout[-3000:]
        assert "assets: stage packages in DAG order KEPT" in result.stdout


@pytest.mark.parametrize(
    ("module", "statement", "local"),
    [
        # upward: the family toolbox reaching up into the judging stage
        ("assets.toolbox.measure", "from assets.judging.scoring import score_answers  # noqa", False),
        # cyclic and hidden in a function (how cycles used to be dodged): the families importing the
        # agents, which import the families
        ("assets.families.answers", "from assets.agents.render import render_answer  # noqa", True),
        # a type-only import counts too
        (
            "assets.families.base",
            "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from assets.agents.context import AgentContext",
            False,
        ),
    ],
)
def test_the_contract_breaks_on_a_bad_import(tmp_path, module, statement, local):
    tree = _copy_tree(tmp_path)
    _add_import(tree, module, statement, local=local)
    result = _lint(tree)
    assert result.returncode != 0
    assert "assets: stage packages in DAG order BROKEN" in result.stdout
    assert module in result.stdout  # the report names the offending importer


def test_the_cycle_check_sees_a_cycle_the_bad_import_makes(tmp_path):
    tree = _copy_tree(tmp_path)
    _add_import(tree, "assets.families.answers", "from assets.agents.render import render_answer  # noqa", local=True)
    code = (
        "import grimp, json, sys; sys.path.insert(0, '.');"
        f"g = grimp.build_graph(*{PACKAGES!r}, include_external_packages=False, exclude_type_checking_imports=False);"
        "sys.path.insert(0, %r); from test_stage_layers import package_cycles;"
        "print(json.dumps(sorted(sorted(c) for c in package_cycles(g))))"
    ) % str(Path(__file__).parent)
    out = subprocess.run(
        [sys.executable, "-c", code],
        cwd=tree,
        env={**os.environ, "PYTHONPATH": str(tree)},
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    cycles = __import__("json").loads(out)
    assert cycles and any({"agents", "families"} <= set(c) for c in cycles)

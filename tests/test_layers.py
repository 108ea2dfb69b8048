"""The layer order of docs/architecture.md, enforced.

core < resources < stage logic < stage assets < code location < CLI:
* import-linter contracts in pyproject.toml (layers, the CLI on top);
* no import cycle between any two modules of the product;
* stage logic (everything in `assets/` but the asset definitions) imports no Dagster.
"""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import grimp

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("core", "resources", "assets", "pipelines")
# Modules of `assets/` that ARE the Dagster layer: asset definitions and their shared helpers.
DAGSTER_MODULES = {"definitions.py", "partitions.py", "stage.py", "checks.py"}


def test_import_linter_contracts_hold():
    lint = Path(sys.executable).with_name("lint-imports")
    result = subprocess.run([str(lint), "--no-cache"], cwd=ROOT, capture_output=True, text=True)
    assert result.returncode == 0, result.stdout[-4000:] + result.stderr[-2000:]


def _cycles(graph: grimp.ImportGraph) -> list[list[str]]:
    """Strongly connected components with more than one module (Tarjan, iterative enough for ~100 modules)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    out: list[list[str]] = []
    counter = [0]

    def visit(v: str) -> None:
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph.find_modules_directly_imported_by(v)):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))

    for module in sorted(graph.modules):
        if module not in index:
            visit(module)
    return out


def test_no_import_cycles():
    graph = grimp.build_graph(*PACKAGES, include_external_packages=False, exclude_type_checking_imports=False)
    # A package __init__ that imports its own submodules is not a cycle between modules.
    cycles = [c for c in _cycles(graph) if not all(m.startswith(c[0] + ".") or m == c[0] for m in c)]
    assert cycles == []


def test_stage_logic_imports_no_dagster():
    offenders = []
    for path in sorted((ROOT / "assets").rglob("*.py")):
        if path.name in DAGSTER_MODULES:
            continue
        tree = ast.parse(path.read_text())
        for node in ast.walk(tree):
            names = (
                [a.name for a in node.names]
                if isinstance(node, ast.Import)
                else ([node.module or ""] if isinstance(node, ast.ImportFrom) else [])
            )
            if any(n == "dagster" or n.startswith("dagster.") or n.startswith("dagster_") for n in names):
                offenders.append(str(path.relative_to(ROOT)))
    assert offenders == [], f"stage logic must not import Dagster: {sorted(set(offenders))}"


def test_core_and_resources_never_import_assets():
    graph = grimp.build_graph(*PACKAGES, include_external_packages=False, exclude_type_checking_imports=False)
    for low in ("core", "resources"):
        for module in graph.find_descendants(low) | {low}:
            for imported in graph.find_modules_directly_imported_by(module):
                assert not imported.startswith(("assets", "pipelines")), f"{module} imports {imported}"

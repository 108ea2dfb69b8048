"""Declared lineage equals what each asset reads.

Every asset body (and the module-level helpers it calls) reads its inputs through the
partition store (`read_records`, `read_table`, `exists`) or the knowledge base (`open_view`);
this test parses those reads and compares them with the asset's declared deps, so the
graph in the UI is the graph the code runs.
"""

from __future__ import annotations

import ast
import inspect
import textwrap

import dagster as dg

from pipelines.definitions import SEED_ASSETS, defs

READ_CALLS = {"read_records", "read_table", "exists"}
# Side tables written by an asset next to its main table: reading one is reading the asset.
SIDE_TABLES = {
    "task_builds": "tasks",
    "judge_pairwise": "judge_scores",
    "paper_metadata_observed": "paper_metadata",
    "corpus_snapshot_duplicates": "corpus_snapshot",
    "ace_checklists": "release_package",
    "validity_controls": "validity_report",
    "presented_tasks": "task_ranking",
    "presented_golds": "task_ranking",
}  # the presented release


def _owner(table: str) -> str:
    table = SIDE_TABLES.get(table, table)
    return table.removesuffix("_failures")


def _module_functions(module) -> dict[str, ast.FunctionDef]:
    tree = ast.parse(inspect.getsource(module))
    return {n.name: n for n in tree.body if isinstance(n, ast.FunctionDef)}


def _reads(fn: ast.FunctionDef, functions: dict[str, ast.FunctionDef], seen: set[str]) -> set[str]:
    out: set[str] = set()
    for node in ast.walk(fn):
        if not isinstance(node, ast.Call):
            continue
        name = node.func.attr if isinstance(node.func, ast.Attribute) else getattr(node.func, "id", "")
        if name in READ_CALLS and node.args and isinstance(node.args[0], ast.Constant):
            out.add(_owner(node.args[0].value))
        elif name == "open_view":  # the cutoff-bound LanceDB view of the knowledge_base asset
            out.add("knowledge_base")
        elif name == "read_frozen":  # the frozen prospective package
            out.add("prospective_forecasts")
        elif name in functions and name not in seen:
            seen.add(name)
            out |= _reads(functions[name], functions, seen)
    return out


def asset_reads() -> dict[str, tuple[set[str], set[str]]]:
    """asset key -> (tables read, declared deps)."""
    out = {}
    for assets_def in defs.assets:
        if not isinstance(assets_def, dg.AssetsDefinition) or assets_def in SEED_ASSETS:
            continue  # the idea-review assets read through assets/idea_review/pipeline.py's stage functions
        fn = assets_def.op.compute_fn.decorated_fn
        module = inspect.getmodule(fn)
        functions = _module_functions(module)
        tree = ast.parse(textwrap.dedent(inspect.getsource(fn)))
        node = next(n for n in tree.body if isinstance(n, ast.FunctionDef))
        key = assets_def.key.to_user_string()
        reads = _reads(node, functions, {node.name}) - {key}
        deps = {k.to_user_string() for k in assets_def.asset_deps[assets_def.key]}
        out[key] = (reads, deps)
    return out


def test_every_asset_declares_exactly_what_it_reads():
    mismatches = {
        key: {"read_but_undeclared": sorted(r - d), "declared_but_unread": sorted(d - r)}
        for key, (r, d) in asset_reads().items()
        if r != d
    }
    assert mismatches == {}

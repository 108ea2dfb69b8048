"""The presented release is one table (issue 25, item 3): task_ranking (and the importer of
an external release) write `presented_tasks` / `presented_golds` once; every later stage
reads them and none re-derives the presentation."""

from __future__ import annotations

import ast
from pathlib import Path

from core.visibility import visibility_of

ROOT = Path(__file__).resolve().parents[3]
DERIVE = {"presented_tasks", "presented_golds", "present_task", "present_gold"}
# who may derive the presentation: its module, the asset that materialises it, the importer
# that writes an imported release's tables, and `foresci evaluate`'s in-memory import
WRITERS = {"assets/ranking/presentation.py", "assets/release/evaluate.py"}  # evaluate: an in-memory import
READERS = ("agents", "artifacts", "judging", "validity", "audit", "release")


def _calls(path: Path) -> set[str]:
    out = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Call):
            name = node.func.attr if isinstance(node.func, ast.Attribute) else getattr(node.func, "id", "")
            out.add(name)
    return out


def test_no_stage_re_derives_the_presentation():
    offenders = sorted(
        str(p.relative_to(ROOT))
        for p in (ROOT / "assets").rglob("*.py")
        if str(p.relative_to(ROOT)) not in WRITERS and _calls(p) & DERIVE
    )
    assert offenders == []


def test_the_later_stages_read_the_presented_tables():
    for stage in READERS:
        text = (ROOT / "assets" / stage / "definitions.py").read_text()
        assert '"presented_tasks"' in text, stage
    for stage in ("judging", "validity", "audit", "release"):
        assert '"presented_golds"' in (ROOT / "assets" / stage / "definitions.py").read_text(), stage
    assert visibility_of("presented_golds") == "hidden" and visibility_of("presented_tasks") == "public"

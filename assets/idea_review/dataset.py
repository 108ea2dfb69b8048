"""ScholarIdeas, shipped with the product (assets/idea_review/shipped/, MIT licence).

`scholarideas.jsonl.gz` holds one idea a line: `idea_id` (`{discipline}_{n}`), `discipline`,
`cutoff` (ISO date: literature after it may not be used to judge the idea), `plan` (the
Markdown research plan, unchanged) and `rubrics` (the expert rubrics, unchanged:
`statement`, `type` strength|weakness, `axis` soundness|contribution, `severity`). It is a
format conversion of skai-research/ScholarEval@b8391a0 `ScholarIdeas/*/` (see
shipped/PROVENANCE.md); `pack_scholarideas` rebuilds it from such a folder.
"""

from __future__ import annotations

import gzip
import json
from datetime import date
from functools import lru_cache
from pathlib import Path

from pydantic import BaseModel

SHIPPED = Path(__file__).resolve().parent / "shipped" / "scholarideas.jsonl.gz"


GENERIC_HEADINGS = {"research plan", "problem", "method", "methods", "experiment design", "experiments"}


class Rubric(BaseModel):
    statement: str
    type: str  # strength | weakness
    axis: str  # soundness | contribution
    severity: str = ""


class Idea(BaseModel):
    idea_id: str
    discipline: str  # ai | neuro | biochem | eco
    cutoff: date
    plan: str
    rubrics: list[Rubric]

    @property
    def title(self) -> str:
        for line in self.plan.splitlines():
            text = line.strip().strip("#").strip().removeprefix("Research Plan:").strip()
            if line.strip().startswith("#") and text and text.lower() not in GENERIC_HEADINGS:
                return text
        body = [line.strip() for line in self.plan.splitlines() if line.strip() and not line.startswith("#")]
        return body[0].split(". ")[0][:120] if body else self.idea_id


def _order(idea_id: str) -> tuple[str, int]:
    discipline, n = idea_id.rsplit("_", 1)
    return discipline, int(n)


@lru_cache(maxsize=2)
def load_ideas(path: str = str(SHIPPED)) -> tuple[Idea, ...]:
    """Every shipped idea, ordered by discipline then number."""
    with gzip.open(path, "rt", encoding="utf-8") as f:
        ideas = [Idea.model_validate(json.loads(line)) for line in f if line.strip()]
    return tuple(sorted(ideas, key=lambda i: _order(i.idea_id)))


def pack_scholarideas(src: Path, out: Path = SHIPPED) -> int:
    """Rebuild the shipped file from a ScholarIdeas folder (`{id}/{id}.txt`, `{id}.jsonl`,
    `cutoff.txt`). Deterministic bytes (gzip mtime 0). Returns the number of ideas."""
    rows = []
    for d in sorted((p for p in src.iterdir() if p.is_dir()), key=lambda p: _order(p.name)):
        rubrics = [json.loads(line) for line in (d / f"{d.name}.jsonl").read_text().splitlines() if line.strip()]
        rows.append(
            {
                "idea_id": d.name,
                "discipline": d.name.rsplit("_", 1)[0],
                "cutoff": (d / "cutoff.txt").read_text().strip(),
                "plan": (d / f"{d.name}.txt").read_text(),
                "rubrics": rubrics,
            }
        )
    with gzip.GzipFile(out, "wb", mtime=0) as f:
        for row in rows:
            f.write((json.dumps(row, ensure_ascii=False) + "\n").encode())
    return len(rows)

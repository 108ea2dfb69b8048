"""Small real corpora for the operations tests: every n-th paper of each shipped domain file."""

from __future__ import annotations

import gzip
from pathlib import Path

from core.papers import SHIPPED_DIR
from core.registry import load_registry


def sampled_corpora(corpus_dir: Path, every: int, extra_lines: dict[str, list[str]] | None = None) -> Path:
    """Every `every`-th line of each domain's shipped file (plus raw `extra_lines` per domain)."""
    corpus_dir.mkdir(parents=True, exist_ok=True)
    for name, spec in load_registry().domains.items():
        with gzip.open(SHIPPED_DIR / spec.shipped_file, "rt") as src, gzip.open(corpus_dir / spec.shipped_file, "wt") as dst:
            for i, line in enumerate(src):
                if i % every == 0:
                    dst.write(line)
            for line in (extra_lines or {}).get(name, []):
                dst.write(line if line.endswith("\n") else line + "\n")
    return corpus_dir

"""What a family needs to map a release in the ForeSci authors' format (`foresci import-release`).

`ImportedGold` collects the slots, claims, preferred ranking and trajectory a family's
`import_gold` hook reads from their hidden `ground_truth`; the importer
(`assets.release.importer`) does the rest, the same for every family.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from core.records import GoldClaim, GoldSlot, Task, TaskOption

_WORD = re.compile(r"[a-z0-9]+")


def humanise(name: str) -> str:
    return " ".join(str(name).replace("_", " ").split())


def _words(text: str) -> set[str]:
    return set(_WORD.findall(text.lower()))


def rank_options(options: list[TaskOption], targets: list[str]) -> list[str]:
    """Options ordered by their best word-set Jaccard with the targets (earlier targets win ties)."""
    if not options or not targets:
        return []

    def score(o: TaskOption) -> tuple:
        best = (0.0, len(targets))
        for rank, t in enumerate(targets):
            a, b = _words(o.text), _words(t)
            j = len(a & b) / len(a | b) if a | b else 0.0
            best = max(best, (j, -rank))
        return best
    return [o.option_id for o in sorted(options, key=lambda o: (-score(o)[0], -score(o)[1], o.option_id))]


@dataclass
class ImportedGold:
    """A gold under construction from an imported hidden row."""

    task: Task
    claims: list[GoldClaim] = field(default_factory=list)
    slots: list[GoldSlot] = field(default_factory=list)
    preferred: list[str] = field(default_factory=list)
    trajectory: str | None = None

    @property
    def scope(self) -> str:
        return f"{self.task.window_start} to {self.task.window_end}"

    def claim(self, text, type_, time_scope, importance) -> None:
        self.claims.append(GoldClaim(claim_id=f"{self.task.task_id}-c{len(self.claims) + 1:02d}", text=str(text),
                                     type=type_, time_scope=time_scope, importance=importance))

    def slot(self, name, variants) -> None:
        variants = list(dict.fromkeys(v.strip() for v in variants if v and str(v).strip()))
        if variants:
            self.slots.append(GoldSlot(slot=name, variants=variants))

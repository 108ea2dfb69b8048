"""What a family needs to map a release in the ForeSci authors' format (`foresci import-release`).

`ImportedGold` collects the slots, claims, preferred ranking and trajectory that the
per-decision readers of `assets.release.authors_format` take from their hidden
`ground_truth`; the importer (`assets.release.importer`) finds a row's family by its name or
one of its `TaskFamily.aliases` and does the rest, the same for every family.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from core.records import GoldClaim, GoldSlot, Task


def humanise(name: str) -> str:
    return " ".join(str(name).replace("_", " ").split())


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
        self.claims.append(
            GoldClaim(
                claim_id=f"{self.task.task_id}-c{len(self.claims) + 1:02d}",
                text=str(text),
                type=type_,
                time_scope=time_scope,
                importance=importance,
            )
        )

    def slot(self, name, variants) -> None:
        variants = list(dict.fromkeys(v.strip() for v in variants if v and str(v).strip()))
        if variants:
            self.slots.append(GoldSlot(slot=name, variants=variants))

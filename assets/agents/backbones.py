"""Backbone registry: each model's knowledge cutoff or release date, and the run policy.

A forecast is only meaningful if the model writing it could not have seen the future it
forecasts (ForeSci §4.2 evaluates backbones "trained before the cutoff time"). The
registry (`backbones.yaml` next to this file, plus an optional user file) maps litellm
model strings to their knowledge cutoff or, when none is published, release date. A run
whose backbone is dated after the task cutoff is refused unless explicitly allowed, and
then every answer it produces is marked `backbone_postdates_cutoff = True`.

Backbones that are no model at all ("offline", "none": the offline forecasters and
model-free external agents) know nothing and are always allowed.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from datetime import date
from pathlib import Path

import yaml
from pydantic import BaseModel, Field

REGISTRY_FILE = Path(__file__).with_name("backbones.yaml")
NO_MODEL = frozenset({"offline", "none", ""})


class BackboneEntry(BaseModel):
    model: str
    aliases: list[str] = Field(default_factory=list)
    knowledge_cutoff: date | None = None
    released: date | None = None
    source: str = ""

    @property
    def effective_date(self) -> date | None:
        """What the model may know up to: its knowledge cutoff, else its release date."""
        return self.knowledge_cutoff or self.released


class BackboneRefused(ValueError):
    """The backbone may know the task's future (or its date is unknown) and the run did not allow it."""


@dataclass(frozen=True)
class BackboneCheck:
    backbone: str
    known: bool
    effective_date: date | None
    postdates_cutoff: bool
    reason: str


def _strip_provider(name: str) -> list[str]:
    """'openrouter/qwen/qwen3-235b' -> ['openrouter/qwen/qwen3-235b', 'qwen/qwen3-235b', 'qwen3-235b']."""
    parts = name.split("/")
    return ["/".join(parts[i:]) for i in range(len(parts))]


class BackboneRegistry:
    def __init__(self, entries: list[BackboneEntry]):
        self.entries = list(entries)
        self._by_name: dict[str, BackboneEntry] = {}
        for entry in self.entries:  # later entries (user files) override earlier ones
            for name in [entry.model, *entry.aliases]:
                self._by_name[name.lower()] = entry

    @classmethod
    def load(cls, *extra_files: str | Path | None) -> BackboneRegistry:
        """The shipped registry, then FORESCI_BACKBONES_FILE, then `extra_files` (later wins)."""
        files: list[str | Path] = [REGISTRY_FILE]
        if os.environ.get("FORESCI_BACKBONES_FILE"):
            files.append(os.environ["FORESCI_BACKBONES_FILE"])
        files += [f for f in extra_files if f]
        entries: list[BackboneEntry] = []
        for f in files:
            doc = yaml.safe_load(Path(f).read_text()) or {}
            entries += [BackboneEntry.model_validate(e) for e in doc.get("backbones", [])]
        return cls(entries)

    def with_entries(self, *entries: BackboneEntry) -> BackboneRegistry:
        return BackboneRegistry(self.entries + list(entries))

    def lookup(self, backbone: str) -> BackboneEntry | None:
        for name in _strip_provider(backbone.strip().lower()):
            if name in self._by_name:
                return self._by_name[name]
        return None

    def check(self, backbone: str, task_cutoff: date) -> BackboneCheck:
        """Is `backbone` dated on or before `task_cutoff`? Unknown models count as post-cutoff."""
        if backbone.strip().lower() in NO_MODEL:
            return BackboneCheck(backbone, True, None, False, "no language model")
        entry = self.lookup(backbone)
        if entry is None or entry.effective_date is None:
            return BackboneCheck(
                backbone,
                False,
                None,
                True,
                f"backbone {backbone!r} is not in the backbone registry (its knowledge date "
                "cannot be checked); add it to backbones.yaml or FORESCI_BACKBONES_FILE",
            )
        what = "knowledge cutoff" if entry.knowledge_cutoff else "release date"
        if entry.effective_date > task_cutoff:
            return BackboneCheck(
                backbone,
                True,
                entry.effective_date,
                True,
                f"backbone {backbone!r} ({what} {entry.effective_date}) postdates the task cutoff {task_cutoff}",
            )
        return BackboneCheck(
            backbone, True, entry.effective_date, False, f"{what} {entry.effective_date} <= task cutoff {task_cutoff}"
        )

    def enforce(self, backbone: str, task_cutoff: date, *, allow_post_cutoff: bool = False) -> bool:
        """Raise `BackboneRefused` for a post-cutoff or unknown backbone unless allowed;
        return whether the answers must be marked `backbone_postdates_cutoff`."""
        result = self.check(backbone, task_cutoff)
        if result.postdates_cutoff and not allow_post_cutoff:
            raise BackboneRefused(
                result.reason + " (set allow_post_cutoff_backbones to run it anyway; its answers are then marked)"
            )
        return result.postdates_cutoff


_DEFAULT: BackboneRegistry | None = None


def default_registry() -> BackboneRegistry:
    global _DEFAULT
    if _DEFAULT is None:
        _DEFAULT = BackboneRegistry.load()
    return _DEFAULT

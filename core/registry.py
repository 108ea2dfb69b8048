"""Load the domain/cutoff registry (`registry.yaml`), the single source of domains."""

from __future__ import annotations

from datetime import date
from functools import lru_cache
from pathlib import Path

import yaml
from pydantic import BaseModel

REGISTRY_PATH = Path(__file__).with_name("registry.yaml")


class DomainSpec(BaseModel):
    name: str
    title: str
    shipped_file: str
    query: str
    description: str


class Registry(BaseModel):
    default_horizon_months: int
    default_cutoffs: dict[str, dict[str, int]]
    domains: dict[str, DomainSpec]

    def domain(self, name: str) -> DomainSpec:
        if name not in self.domains:
            raise KeyError(f"unknown domain {name!r}; known: {sorted(self.domains)} (see {REGISTRY_PATH})")
        return self.domains[name]

    def horizon_months(self, cutoff: str) -> int:
        """Horizon of a cutoff: user-added cutoffs (cutoffs.yaml in FORESCI_HOME) first."""
        spec = {**self.default_cutoffs, **load_user_cutoffs()}.get(cutoff, {})
        return int(spec.get("horizon_months", self.default_horizon_months))


def user_cutoffs_path() -> Path:
    from core.paths import state_dir

    return state_dir() / "cutoffs.yaml"


def load_user_cutoffs() -> dict[str, dict[str, int]]:
    path = user_cutoffs_path()
    return yaml.safe_load(path.read_text()) or {} if path.exists() else {}


def save_user_cutoff(cutoff: str, horizon_months: int, prospective: bool = False) -> None:
    """Record a user cutoff's horizon; `prospective` marks one whose window has not closed
    in the corpus yet (its gold can only be measured later)."""
    if horizon_months not in (3, 6):
        raise ValueError("horizon_months must be 3 or 6")
    parse_cutoff(cutoff)
    spec: dict = {"horizon_months": horizon_months}
    if prospective:
        spec["prospective"] = True
    _write_user_cutoffs(load_user_cutoffs() | {cutoff: spec})


def forget_user_cutoff(cutoff: str) -> bool:
    """Drop `cutoff` from the user cutoffs file; True if it was there."""
    cutoffs = load_user_cutoffs()
    if cutoff not in cutoffs:
        return False
    del cutoffs[cutoff]
    _write_user_cutoffs(cutoffs)
    return True


def _write_user_cutoffs(cutoffs: dict) -> None:
    path = user_cutoffs_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(yaml.safe_dump(cutoffs, sort_keys=True))


@lru_cache(maxsize=1)
def load_registry(path: Path = REGISTRY_PATH) -> Registry:
    raw = yaml.safe_load(path.read_text())
    for name, spec in raw["domains"].items():
        spec["name"] = name
    return Registry.model_validate(raw)


def parse_cutoff(value: str) -> date:
    try:
        return date.fromisoformat(value)
    except ValueError as exc:
        raise ValueError(f"cutoff partition key {value!r} is not a YYYY-MM-DD date ({exc})") from exc

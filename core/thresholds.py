"""The validity thresholds (`thresholds.yaml`, one documented file)."""

from __future__ import annotations

from dataclasses import dataclass, fields
from pathlib import Path

import yaml

THRESHOLDS_FILE = Path(__file__).with_name("thresholds.yaml")


@dataclass(frozen=True)
class Thresholds:
    gold_min: float = 0.9
    control_margin: float = 0.05
    random_draws: int = 20
    claim_bank_verified_min: float = 1.0
    duplicates_max: int = 0
    gold_stability_min: float = 0.8
    bootstrap_resamples: int = 10
    attribution_control_max: float = 0.05
    control_alpha: float = 0.05
    control_power: float = 0.8
    control_sd: float = 0.2
    min_gated_tasks: int = 101

    @classmethod
    def load(cls, path: Path = THRESHOLDS_FILE) -> Thresholds:
        data = yaml.safe_load(path.read_text()) or {}
        unknown = sorted(set(data) - {f.name for f in fields(cls)})
        if unknown:
            raise ValueError(f"{path}: unknown thresholds {unknown}")
        return cls(**data)

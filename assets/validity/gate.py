"""The release gate: a task is released only if its gold holds up.

A gold is held back, with the reason recorded in `TaskRating.note`, when it has no
evidence (strength 0), when its independent measures disagree on the top candidate
(`numbers["measures_agree"] == 0`), when its first-ranked object is unstable under
bootstrap resampling of the window (`numbers["stability_top1"]` below the threshold), or
when part of its claim bank does not recompute (`numbers["claims_verified"]`).
"""

from __future__ import annotations

from assets.validity.config import Thresholds
from core.records import GoldTarget


def gate_reason(gold: GoldTarget | None, th: Thresholds) -> str | None:
    """None if the task may be released, else why not."""
    if gold is None or gold.strength <= 0:
        return "insufficient future evidence to validate (gold strength 0)"
    n = gold.numbers
    if n.get("measures_agree", 1.0) < 1.0:
        return "independent gold measures disagree on the top candidate"
    if n.get("stability_top1", 1.0) < th.gold_stability_min:
        return f"gold top-1 unstable under resampling of the window ({n['stability_top1']:.2f})"
    if n.get("claims_verified", len(gold.claims)) < len(gold.claims):
        return "claim bank not fully verified"
    return None

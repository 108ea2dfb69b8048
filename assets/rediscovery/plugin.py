"""The rediscovery plugin's one registration: its family and its scorer, together."""

from __future__ import annotations

from assets.families.registry import FAMILIES, register_family
from assets.rediscovery.family import RediscoveryFamily
from assets.rediscovery.scorer import RediscoveryClaims
from assets.scorers.registry import SCORERS, register_scorer


def register() -> None:
    """Register the family and the scorer (idempotent)."""
    if "rediscovery" not in FAMILIES.names():
        register_family(RediscoveryFamily())
    if "rediscovery_claims" not in SCORERS.names():
        register_scorer(RediscoveryClaims())

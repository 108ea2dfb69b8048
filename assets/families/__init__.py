"""Task families as plugins: one module per family, one registry (see `base.TaskFamily`).

Importing this package registers the built-in families, in their build order. Optional family
plugins (rediscovery, idea review) live in their own packages and are registered by the
composition root, `assets/plugins.py`.
"""

from assets.families.bottleneck import BottleneckFamily
from assets.families.direction import DirectionFamily
from assets.families.phase import PhaseFamily
from assets.families.planning import PlanningFamily
from assets.families.registry import (
    all_families,
    family_names,
    get_family,
    register_family,
    unregister_family,
)
from assets.families.venue import VenueFamily

for _family in (DirectionFamily(), BottleneckFamily(), PlanningFamily(), VenueFamily(), PhaseFamily()):
    register_family(_family)

__all__ = ["all_families", "family_names", "get_family", "register_family", "unregister_family"]

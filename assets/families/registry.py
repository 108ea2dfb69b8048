"""The family registry: the built-in families in build order, plus any registered later.

Order matters: families are built in registration order and share the builder's state
(a planning task never reuses a direction task's option set).
"""

from __future__ import annotations

from assets.families.base import TaskFamily
from core.plugins import Registry, UnknownPluginError


class UnknownFamilyError(UnknownPluginError):
    pass


FAMILIES: Registry[TaskFamily] = Registry("task family", UnknownFamilyError)
register_family = FAMILIES.register
unregister_family = FAMILIES.unregister
get_family = FAMILIES.get
all_families = FAMILIES.all
family_names = FAMILIES.names


# ForeSci's release (§3.4): 125 released tasks in each of its four families, 500 in all. The
# release card reads it from here (a stage names no family, issue 32).
FORESCI_TARGET = {"families": ("direction", "bottleneck", "planning", "venue"), "per_family": 125, "total": 500}

"""The family registry: the built-in families in build order, plus any registered later.

Order matters: families are built in registration order and share the builder's state
(a planning task never reuses a direction task's option set).
"""

from __future__ import annotations

from assets.families.base import TaskFamily

_FAMILIES: dict[str, TaskFamily] = {}


class UnknownFamilyError(KeyError):
    def __str__(self) -> str:
        return self.args[0]


def register_family(family: TaskFamily) -> TaskFamily:
    """Add a family (a new name) or replace one (same name, e.g. a test double)."""
    _FAMILIES[family.name] = family
    return family


def unregister_family(name: str) -> None:
    _FAMILIES.pop(name, None)


def get_family(name: str) -> TaskFamily:
    """The registered family called `name`; an unknown family is an error, never a default."""
    try:
        return _FAMILIES[name]
    except KeyError:
        raise UnknownFamilyError(f"unknown task family {name!r}; registered: {sorted(_FAMILIES)}") from None


def all_families() -> list[TaskFamily]:
    return list(_FAMILIES.values())


def family_names() -> list[str]:
    return list(_FAMILIES)

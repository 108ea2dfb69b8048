"""One registry shape for every kind of plugin (task families, scorers, agents): named
entries in registration order; an unknown name is an error, never a default."""

from __future__ import annotations

from typing import Generic, Protocol, TypeVar


class Named(Protocol):
    @property
    def name(self) -> str: ...


T = TypeVar("T", bound=Named)


class UnknownPluginError(KeyError):
    def __str__(self) -> str:
        return self.args[0]


class Registry(Generic[T]):
    def __init__(self, kind: str, error: type[UnknownPluginError] = UnknownPluginError):
        self.kind, self.error = kind, error
        self._items: dict[str, T] = {}

    def register(self, item: T) -> T:
        """Add an entry (a new name) or replace one (same name, e.g. a test double)."""
        self._items[item.name] = item
        return item

    def unregister(self, name: str) -> None:
        self._items.pop(name, None)

    def get(self, name: str) -> T:
        try:
            return self._items[name]
        except KeyError:
            raise self.error(f"unknown {self.kind} {name!r}; registered: {sorted(self._items)}") from None

    def all(self) -> list[T]:
        return list(self._items.values())

    def names(self) -> list[str]:
        return list(self._items)

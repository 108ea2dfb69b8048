"""Suite-wide test isolation."""

import pytest


def _clear_dagster_context_vars() -> None:
    """Dagster's sensor/schedule test contexts put an instance's storage in context variables
    and can leave it there after that instance is gone; a later materialize in the same
    thread then fails with "undefined DagsterInstance weakref". Their default is None."""
    from dagster._core.definitions.partitions import context as partition_context
    from dagster._core.storage.defs_state import base

    base._current_storage.set(None)
    partition_context._current_ctx.set(None)


@pytest.fixture(autouse=True, scope="module")
def _clean_dagster_context_per_module():
    # module-scoped fixtures (e.g. a partition built once per module) run before
    # function-scoped ones, so clear at module scope too
    _clear_dagster_context_vars()
    yield


@pytest.fixture(autouse=True)
def _clean_dagster_context_per_test():
    _clear_dagster_context_vars()
    yield

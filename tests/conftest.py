"""Suite-wide test isolation."""

import pytest


@pytest.fixture(autouse=True)
def _isolate_dagster_context_vars():
    """Dagster's sensor/schedule test contexts put an instance's storage in context variables
    and can leave it there after that instance is gone; a later materialize in the same
    thread then fails with "undefined DagsterInstance weakref". Every test starts clean."""
    from dagster._core.definitions.partitions import context as partition_context
    from dagster._core.storage.defs_state import base

    tokens = [(base._current_storage, base._current_storage.set(None)),
              (partition_context._current_ctx, partition_context._current_ctx.set(None))]
    yield
    for var, token in reversed(tokens):
        var.reset(token)

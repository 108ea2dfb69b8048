"""Inspect's entry point (pyproject `[project.entry-points.inspect_ai]`): makes the tasks
addressable as `inspect eval foresci/<family>`."""

from foresci.inspect_tasks import bottleneck, direction, family, phase, planning, venue  # noqa: F401

"""The bottom layer: records, tables, paths, the domain registry, text and HTTP utilities.

Nothing here imports `resources`, `assets` or `pipelines` (tests/test_layers.py)."""

"""The `foresci` namespace users meet outside the pipeline: the Inspect AI tasks.

`inspect eval foresci/<family> -T release=<folder of foresci export hf>` (the entry point
in pyproject.toml loads foresci._registry). The pipeline itself lives in core, resources,
assets and pipelines; nothing there imports this package (import-linter contract).
"""

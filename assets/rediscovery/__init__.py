"""Rediscovery (FIRE-Bench), one plugin package: the family (`family.py`), its scorer
(`scorer.py`), problem trees (`tree.py`), the model drafting and judging (`llm.py`) and the
release-report figures (`report.py`); claim matching is the shared `core/claims.py`.

Registered explicitly by the composition root (`assets/plugins.py`, `install`), never on import.
"""

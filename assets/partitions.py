"""Partitions: every asset is partitioned by domain x cutoff.

Domains are static (from registry.yaml); cutoffs are a dynamic dimension that users
extend from the UI ("Add partition") or `foresci add-cutoff YYYY-MM-DD`, seeded with the
registry's default cutoffs by `foresci seed` / `make demo` / the cutoff sensor.
"""

from __future__ import annotations

from datetime import date

import dagster as dg

from core.cutoffs import check_cutoff
from core.registry import load_registry, load_user_cutoffs, parse_cutoff

CUTOFF_PARTITIONS = dg.DynamicPartitionsDefinition(name="cutoff")
DOMAIN_PARTITIONS = dg.StaticPartitionsDefinition(sorted(load_registry().domains))
DOMAIN_CUTOFF_PARTITIONS = dg.MultiPartitionsDefinition({"domain": DOMAIN_PARTITIONS, "cutoff": CUTOFF_PARTITIONS})
# Families built from a dataset rather than a corpus domain (idea review: ScholarIdeas) use a
# pseudo-domain of their own, with the same cutoff dimension.
IDEA_PARTITIONS = dg.MultiPartitionsDefinition({"domain": dg.StaticPartitionsDefinition(["ideas"]), "cutoff": CUTOFF_PARTITIONS})


def partition_of(context: dg.AssetExecutionContext) -> tuple[str, str, date, int]:
    """(domain, cutoff key, cutoff date, horizon months) of the running partition."""
    keys = context.partition_key.keys_by_dimension
    domain, cutoff_key = keys["domain"], keys["cutoff"]
    load_registry().domain(domain)  # clear error for an unknown domain
    return domain, cutoff_key, parse_cutoff(cutoff_key), load_registry().horizon_months(cutoff_key)


def partition_key(domain: str, cutoff: str) -> dg.MultiPartitionKey:
    return dg.MultiPartitionKey({"domain": domain, "cutoff": cutoff})


def validate_cutoff(key: str, horizon_months: int | None = None, *, prospective: bool | None = None, source=None) -> date:
    """Check a cutoff against the corpus before it reaches the instance (`core.cutoffs`);
    raises `CutoffError` with the reason. Horizon and prospective mark default to the
    registered ones (registry, then the user cutoffs file)."""
    from resources.corpus_source import CorpusSourceResource

    registry = load_registry()
    horizon = horizon_months or registry.horizon_months(key)
    if prospective is None:
        prospective = bool(load_user_cutoffs().get(key, {}).get("prospective", False))
    span = (source or CorpusSourceResource()).span(list(registry.domains.values()))
    return check_cutoff(key, horizon, span, prospective=prospective)

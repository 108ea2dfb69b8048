"""Taxonomy asset: the temporal taxonomy of a domain at the cutoff."""

from collections import Counter

import dagster as dg

from assets.partitions import DOMAIN_CUTOFF_PARTITIONS
from assets.stage import current_partition, md_table, write_failures
from assets.taxonomy.logic import induce_taxonomy
from assets.taxonomy.slices import growth_markdown
from core.records import ScreenedPaper, TaxonomyNode
from resources.embeddings import EmbeddingResource
from resources.llm import LLMResource
from resources.storage import StorageResource


class TaxonomyConfig(dg.Config):
    seed: int = 0
    max_depth: int = 3
    max_density: int = 40
    max_children: int = 5
    min_votes: int = 2
    recent_months: int = 6
    mode: str = "auto"  # auto: LLM mode when the LLM resource has a model, else offline; or "offline" / "llm"
    llm_batch_size: int = 25


@dg.asset(
    partitions_def=DOMAIN_CUTOFF_PARTITIONS,
    group_name="knowledge",
    kinds={"parquet", "python"},
    deps=["corpus_snapshot"],
)
def taxonomy(
    context: dg.AssetExecutionContext,
    config: TaxonomyConfig,
    storage: StorageResource,
    embeddings: EmbeddingResource,
    llm: LLMResource,
) -> dg.MaterializeResult:
    """Temporal multidimensional taxonomy (TaxoAdapt-style) induced over chronological
    slices of the public snapshot: one row per node (dimension, label, parent, level,
    created slice, how it was created, paper ids). Offline mode: embedding clustering with
    density-triggered width/depth expansion and labels from distinctive terms; LLM mode:
    the same rules with batched model classification, label proposal and clustering."""
    part = current_partition(context)
    store = storage.store()
    papers = store.read_records("corpus_snapshot", part.domain, part.cutoff_key, ScreenedPaper)
    client = llm.client()
    if config.mode == "llm" and client.offline:
        raise dg.Failure("taxonomy mode 'llm' needs a model (set the llm resource's model or FORESCI_LLM_MODEL)")
    use_llm = config.mode != "offline" and not client.offline
    before = client.snapshot()
    result = induce_taxonomy(
        papers,
        part.cutoff,
        embeddings.embedder().encode,
        domain=part.domain,
        seed=config.seed,
        max_depth=config.max_depth,
        max_density=config.max_density,
        max_children=config.max_children,
        min_votes=config.min_votes,
        recent_months=config.recent_months,
        llm_client=client if use_llm else None,
        field=part.spec.title,
        llm_batch_size=config.llm_batch_size,
    )
    path = store.write_records("taxonomy", part.domain, part.cutoff_key, result.nodes, TaxonomyNode)
    write_failures(store, "taxonomy", part, result.failures)
    by_dim = Counter(n.dimension for n in result.nodes)
    by_how = Counter(n.created_by for n in result.nodes)
    return dg.MaterializeResult(
        metadata={
            "rows": len(result.nodes),
            "mode": result.mode,
            "papers": result.paper_vectors_used,
            "nodes_by_dimension": dg.MetadataValue.json(dict(by_dim)),
            "nodes_by_creation": dg.MetadataValue.json(dict(by_how)),
            "nodes_created_per_slice": dg.MetadataValue.json(result.growth),
            "nodes_by_dimension_and_slice": dg.MetadataValue.md(growth_markdown(result.nodes, result.slices)),
            "max_level": max((n.level for n in result.nodes), default=0),
            "failures": len(result.failures),
            "taxonomy_llm_requests": dg.MetadataValue.json(result.llm_requests),
            "llm_calls_per_paper": round(result.llm_calls_per_paper, 4),
            "llm_decisions": dg.MetadataValue.json(result.llm_decided),
            "preview": md_table(
                [n.model_dump() | {"papers": len(n.paper_ids)} for n in result.nodes if n.level == 1],
                ["dimension", "label", "created_slice", "created_by", "papers"],
                15,
            ),
            "path": dg.MetadataValue.path(path),
            **client.usage_since(before).as_metadata(),
        }
    )

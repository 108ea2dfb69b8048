"""Taxonomy asset: the temporal taxonomy of a domain at the cutoff."""


from collections import Counter

import dagster as dg

from assets.records import ScreenedPaper, TaxonomyNode
from assets.taxonomy.logic import induce_taxonomy
from pipelines.partitions import DOMAIN_CUTOFF_PARTITIONS
from pipelines.stage import current_partition, md_table
from resources.embeddings import EmbeddingResource
from resources.storage import StorageResource


class TaxonomyConfig(dg.Config):
    seed: int = 0
    max_depth: int = 3
    max_density: int = 40
    max_children: int = 5
    min_votes: int = 2


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
) -> dg.MaterializeResult:
    """Temporal multidimensional taxonomy (TaxoAdapt-style) induced over chronological
    slices of the public snapshot: one row per node (dimension, label, parent, level,
    created slice, how it was created, paper ids). Offline mode: embedding clustering with
    density-triggered width/depth expansion and labels from distinctive terms."""
    part = current_partition(context)
    store = storage.store()
    papers = store.read_records("corpus_snapshot", part.domain, part.cutoff_key, ScreenedPaper)
    result = induce_taxonomy(papers, part.cutoff, embeddings.embedder().encode, domain=part.domain,
                             seed=config.seed, max_depth=config.max_depth, max_density=config.max_density,
                             max_children=config.max_children, min_votes=config.min_votes)
    path = store.write_records("taxonomy", part.domain, part.cutoff_key, result.nodes, TaxonomyNode)
    by_dim = Counter(n.dimension for n in result.nodes)
    by_how = Counter(n.created_by for n in result.nodes)
    return dg.MaterializeResult(metadata={
        "rows": len(result.nodes), "nodes_by_dimension": dg.MetadataValue.json(dict(by_dim)),
        "nodes_by_creation": dg.MetadataValue.json(dict(by_how)),
        "nodes_created_per_slice": dg.MetadataValue.json(result.growth),
        "max_level": max((n.level for n in result.nodes), default=0),
        "preview": md_table([n.model_dump() | {"papers": len(n.paper_ids)} for n in result.nodes if n.level == 1],
                            ["dimension", "label", "created_slice", "created_by", "papers"], 15),
        "path": dg.MetadataValue.path(path),
    })

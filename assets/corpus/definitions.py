"""Corpus assets: the public snapshot and the hidden future window of a domain."""


from collections import Counter

import dagster as dg

from assets.corpus.logic import deduplicate, monthly_volume, screen, split_at_cutoff
from assets.records import ScreenedPaper
from pipelines.partitions import DOMAIN_CUTOFF_PARTITIONS
from pipelines.registry import load_registry
from pipelines.stage import Partition, current_partition, write_failures
from resources.corpus_source import CorpusSourceResource
from resources.embeddings import EmbeddingResource
from resources.storage import StorageResource


def _screened(part: Partition, source: CorpusSourceResource, embeddings: EmbeddingResource):
    papers, failures = source.load(part.spec.shipped_file)
    papers = deduplicate(papers)
    descriptions = {name: d.description for name, d in load_registry().domains.items()}
    return screen(papers, part.domain, descriptions, embeddings.embedder().encode), failures


@dg.asset(
    partitions_def=DOMAIN_CUTOFF_PARTITIONS,
    group_name="corpus",
    kinds={"parquet", "python"},
)
def corpus_snapshot(
    context: dg.AssetExecutionContext,
    storage: StorageResource,
    corpus_source: CorpusSourceResource,
    embeddings: EmbeddingResource,
) -> dg.MaterializeResult:
    """Public snapshot: the domain's papers published on or before the cutoff, each screened
    for domain relevance (core / support / excluded, with score and reason). Malformed
    source records are stored as failure rows in `corpus_snapshot_failures`."""
    part = current_partition(context)
    screened, failures = _screened(part, corpus_source, embeddings)
    public, _, _ = split_at_cutoff(screened, part.cutoff, part.horizon_months)
    if not public:
        raise ValueError(f"{part.domain}: no papers published on or before {part.cutoff} in the corpus")
    store = storage.store()
    path = store.write_records("corpus_snapshot", part.domain, part.cutoff_key, public, ScreenedPaper)
    write_failures(store, "corpus_snapshot", part, failures)
    labels = Counter(p.label for p in public)
    volume = monthly_volume(public)
    return dg.MaterializeResult(metadata={
        "rows": len(public), "core": labels["core"], "support": labels["support"], "excluded": labels["excluded"],
        "failures": len(failures), "first_date": str(public[0].published), "last_date": str(public[-1].published),
        "months": len(volume), "path": dg.MetadataValue.path(path),
        "monthly_volume": dg.MetadataValue.json(volume),
    })


@dg.asset(
    partitions_def=DOMAIN_CUTOFF_PARTITIONS,
    group_name="hidden",
    kinds={"parquet", "python"},
    tags={"visibility": "hidden"},
)
def future_window(
    context: dg.AssetExecutionContext,
    storage: StorageResource,
    corpus_source: CorpusSourceResource,
    embeddings: EmbeddingResource,
) -> dg.MaterializeResult:
    """Hidden future window: papers published after the cutoff, up to cutoff + horizon.
    Stored under the hidden subtree; only gold targets read it, never a public asset."""
    part = current_partition(context)
    screened, _ = _screened(part, corpus_source, embeddings)
    _, future, window_end = split_at_cutoff(screened, part.cutoff, part.horizon_months)
    path = storage.store().write_records("future_window", part.domain, part.cutoff_key, future, ScreenedPaper,
                                         visibility="hidden")
    labels = Counter(p.label for p in future)
    return dg.MaterializeResult(metadata={
        "rows": len(future), "core": labels["core"], "support": labels["support"],
        "window_start": str(part.window_start), "window_end": str(window_end),
        "path": dg.MetadataValue.path(path), "monthly_volume": dg.MetadataValue.json(monthly_volume(future)),
    })

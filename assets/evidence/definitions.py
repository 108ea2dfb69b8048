"""Evidence assets: node evidence records and the high-order research signals."""


from collections import Counter

import dagster as dg

from assets.corpus.logic import monthly_volume
from assets.evidence.logic import build_evidence_records
from assets.evidence.signals import build_signals
from assets.evidence.venues import VENUE_DIR, build_venue_profiles, load_venue_lists
from assets.records import EvidenceRecord, ScreenedPaper, Signal, TaxonomyNode
from pipelines.partitions import DOMAIN_CUTOFF_PARTITIONS
from pipelines.stage import current_partition, md_table
from resources.embeddings import EmbeddingResource
from resources.storage import StorageResource


@dg.asset(
    partitions_def=DOMAIN_CUTOFF_PARTITIONS,
    group_name="knowledge",
    kinds={"parquet", "python"},
    deps=["taxonomy", "corpus_snapshot"],
)
def evidence_records(
    context: dg.AssetExecutionContext, storage: StorageResource, embeddings: EmbeddingResource
) -> dg.MaterializeResult:
    """Node evidence records (ForeSci §3.3): per taxonomy node its representative and
    supporting papers, and per paper verbatim evidence sentences (problem, method,
    evaluation focus, limitation) and a contribution type."""
    part = current_partition(context)
    store = storage.store()
    nodes = store.read_records("taxonomy", part.domain, part.cutoff_key, TaxonomyNode)
    papers = store.read_records("corpus_snapshot", part.domain, part.cutoff_key, ScreenedPaper)
    records = build_evidence_records(nodes, papers, part.cutoff, embeddings.embedder().encode)
    path = store.write_records("evidence_records", part.domain, part.cutoff_key, records, EvidenceRecord)
    filled = Counter(f for r in records for p in r.papers
                     for f in ("problem", "method", "evaluation_focus", "limitation") if getattr(p, f))
    return dg.MaterializeResult(metadata={
        "rows": len(records), "papers_with_evidence": sum(len(r.papers) for r in records),
        "fields_filled": dg.MetadataValue.json(dict(filled)), "path": dg.MetadataValue.path(path),
    })


@dg.asset(
    partitions_def=DOMAIN_CUTOFF_PARTITIONS,
    group_name="knowledge",
    kinds={"parquet", "python"},
    deps=["evidence_records", "taxonomy", "corpus_snapshot"],
)
def research_signals(
    context: dg.AssetExecutionContext, storage: StorageResource, embeddings: EmbeddingResource
) -> dg.MaterializeResult:
    """High-order signals (ForeSci §3.3 (1)-(5)): candidate directions, method-development
    signals, bottleneck signals, feasibility/dependency/risk notes and venue-community
    profiles, each linked to its evidence record ids and paper ids."""
    part = current_partition(context)
    store = storage.store()
    nodes = store.read_records("taxonomy", part.domain, part.cutoff_key, TaxonomyNode)
    papers = store.read_records("corpus_snapshot", part.domain, part.cutoff_key, ScreenedPaper)
    records = store.read_records("evidence_records", part.domain, part.cutoff_key, EvidenceRecord)
    embed = embeddings.embedder().encode
    volume = monthly_volume([p for p in papers if p.label != "excluded"])  # same population as the taxonomy
    signals = build_signals(nodes, records, papers, part.cutoff, volume, embed, domain=part.domain)
    signals += build_venue_profiles(load_venue_lists(VENUE_DIR), papers, part.cutoff, embed, domain=part.domain)
    path = store.write_records("research_signals", part.domain, part.cutoff_key, signals, Signal)
    candidates = sorted((s for s in signals if s.kind == "candidate_direction"),
                        key=lambda s: -s.stats.get("growth", 0.0))
    return dg.MaterializeResult(metadata={
        "rows": len(signals), "by_kind": dg.MetadataValue.json(dict(Counter(s.kind for s in signals))),
        "top_candidate_directions": md_table(
            [{"title": s.title, "papers": int(s.stats.get("n_papers", 0)),
              "growth": round(s.stats.get("growth", 0.0), 2), "share_recent": round(s.stats.get("share_recent", 0.0), 4)}
             for s in candidates], ["title", "papers", "growth", "share_recent"], 10),
        "path": dg.MetadataValue.path(path),
    })

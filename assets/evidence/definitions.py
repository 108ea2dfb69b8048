"""Evidence assets: node evidence records and the high-order research signals."""

from collections import Counter

import dagster as dg

from assets.corpus.logic import monthly_volume
from assets.evidence.logic import build_evidence
from assets.evidence.quotes import SENTENCE_FIELDS
from assets.evidence.signals import build_signals
from assets.evidence.venues import VENUE_DIR, build_venue_profiles, load_venue_lists
from assets.partitions import DOMAIN_CUTOFF_PARTITIONS
from assets.stage import current_partition, md_table, write_failures
from core.records import (
    EvidenceRecord,
    PaperFullText,
    ScreenedPaper,
    Signal,
    TaxonomyNode,
)
from resources.embeddings import EmbeddingResource
from resources.llm import LLMResource
from resources.storage import StorageResource


class EvidenceConfig(dg.Config):
    mode: str = "auto"  # auto: LLM mode when the LLM resource has a model, else offline; or "offline" / "llm"
    n_representative: int = 5
    n_supporting: int = 20


def _client_for(mode: str, llm: LLMResource):
    client = llm.client()
    if mode == "llm" and client.offline:
        raise dg.Failure("mode 'llm' needs a model (set the llm resource's model or FORESCI_LLM_MODEL)")
    return client, (client if mode != "offline" and not client.offline else None)


@dg.asset(
    partitions_def=DOMAIN_CUTOFF_PARTITIONS,
    group_name="knowledge",
    kinds={"parquet", "python"},
    deps=["taxonomy", "corpus_snapshot", "paper_fulltext"],
)
def evidence_records(
    context: dg.AssetExecutionContext,
    config: EvidenceConfig,
    storage: StorageResource,
    embeddings: EmbeddingResource,
    llm: LLMResource,
) -> dg.MaterializeResult:
    """Node evidence records (ForeSci §3.3): per taxonomy node its representative and
    supporting papers, and per paper verbatim evidence quotes (problem, method, evaluation
    focus, limitation) and a contribution type. Quotes come from the full text when a
    `paper_fulltext` partition exists, else from the abstract; every quote is checked to
    occur in its source (failed checks are listed in `unverified`)."""
    part = current_partition(context)
    store = storage.store()
    nodes = store.read_records("taxonomy", part.domain, part.cutoff_key, TaxonomyNode)
    papers = store.read_records("corpus_snapshot", part.domain, part.cutoff_key, ScreenedPaper)
    fulltexts = {}
    if store.exists("paper_fulltext", part.domain, part.cutoff_key):
        fulltexts = {f.arxiv_id: f for f in store.read_records("paper_fulltext", part.domain, part.cutoff_key, PaperFullText)}
    client, use = _client_for(config.mode, llm)
    before = client.snapshot()
    records, failures = build_evidence(
        nodes,
        papers,
        part.cutoff,
        embeddings.embedder().encode,
        n_representative=config.n_representative,
        n_supporting=config.n_supporting,
        llm_client=use,
        fulltexts=fulltexts,
    )
    path = store.write_records("evidence_records", part.domain, part.cutoff_key, records, EvidenceRecord)
    write_failures(store, "evidence_records", part, failures)
    unique = {p.arxiv_id: p for r in records for p in r.papers}
    filled = Counter(f for p in unique.values() for f in SENTENCE_FIELDS if getattr(p, f))
    unverified = Counter(f for p in unique.values() for f in p.unverified)
    return dg.MaterializeResult(
        metadata={
            "rows": len(records),
            "mode": "llm" if use else "offline",
            "failures": len(failures),
            "papers_with_evidence": len(unique),
            "fields_filled": dg.MetadataValue.json(dict(filled)),
            "quotes_unverified": dg.MetadataValue.json({f: unverified.get(f, 0) for f in SENTENCE_FIELDS}),
            "quote_sources": dg.MetadataValue.json(dict(Counter(p.quote_source for p in unique.values()))),
            "fulltexts_available": len(fulltexts),
            "contribution_types": dg.MetadataValue.json(dict(Counter(p.contribution_type for p in unique.values()))),
            "path": dg.MetadataValue.path(path),
            **client.usage_since(before).as_metadata(),
        }
    )


@dg.asset(
    partitions_def=DOMAIN_CUTOFF_PARTITIONS,
    group_name="knowledge",
    kinds={"parquet", "python"},
    deps=["evidence_records", "taxonomy", "corpus_snapshot"],
)
def research_signals(
    context: dg.AssetExecutionContext,
    config: EvidenceConfig,
    storage: StorageResource,
    embeddings: EmbeddingResource,
    llm: LLMResource,
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
    client, use = _client_for(config.mode, llm)
    before = client.snapshot()
    volume = monthly_volume([p for p in papers if p.label != "excluded"])  # same population as the taxonomy
    failures: list = []
    signals = build_signals(
        nodes,
        records,
        papers,
        part.cutoff,
        volume,
        embed,
        domain=part.domain,
        llm_client=use,
        failures=failures,
        domain_title=part.spec.title,
    )
    signals += build_venue_profiles(load_venue_lists(VENUE_DIR), papers, part.cutoff, embed, domain=part.domain)
    path = store.write_records("research_signals", part.domain, part.cutoff_key, signals, Signal)
    write_failures(store, "research_signals", part, failures)
    candidates = sorted(
        (s for s in signals if s.kind == "candidate_direction"), key=lambda s: (-s.stats.get("growth", 0.0), s.signal_id)
    )
    return dg.MaterializeResult(
        metadata={
            "rows": len(signals),
            "mode": "llm" if use else "offline",
            "failures": len(failures),
            "by_kind": dg.MetadataValue.json(dict(Counter(s.kind for s in signals))),
            "method_relations": dg.MetadataValue.json(
                dict(Counter(s.details["relation"][0] for s in signals if s.kind == "method_development"))
            ),
            "bottleneck_categories": dg.MetadataValue.json(
                dict(Counter(s.details["category"][0] for s in signals if s.kind == "bottleneck"))
            ),
            "top_candidate_directions": md_table(
                [
                    {
                        "title": s.title,
                        "dimension": s.details.get("dimension", [""])[0],
                        "papers": int(s.stats.get("n_papers", 0)),
                        "growth": round(s.stats.get("growth", 0.0), 2),
                        "share_recent": round(s.stats.get("share_recent", 0.0), 4),
                        "evidence": len(s.evidence_ids),
                        "signal_id": s.signal_id,
                    }
                    for s in candidates
                ],
                ["title", "dimension", "papers", "growth", "share_recent", "evidence", "signal_id"],
                10,
            ),
            "path": dg.MetadataValue.path(path),
            **client.usage_since(before).as_metadata(),
        }
    )

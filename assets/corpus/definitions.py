"""Corpus assets: the public snapshot, its monthly volume, full text and Semantic Scholar
metadata, and the hidden future window of a domain."""

from collections import Counter

import dagster as dg

from assets.corpus.logic import monthly_volume, split_at_cutoff, volume_by_label
from assets.corpus.screening import deduplicate, screen_corpus
from assets.partitions import DOMAIN_CUTOFF_PARTITIONS
from assets.stage import Partition, current_partition, md_table, write_failures
from core.records import (
    DuplicateLink,
    MonthVolume,
    PaperFullText,
    PaperMetadata,
    ScreenedPaper,
)
from core.registry import load_registry
from core.visibility import visibility_tags
from resources.corpus_source import CorpusSourceResource
from resources.embeddings import EmbeddingResource
from resources.grobid import GrobidResource
from resources.grobid_tei import build_fulltext
from resources.llm import LLMResource
from resources.semantic_scholar import SemanticScholarResource
from resources.semantic_scholar_client import enrich
from resources.storage import StorageResource


def _screened(part: Partition, source: CorpusSourceResource, embeddings: EmbeddingResource, llm: LLMResource):
    """Load (shipped or harvested, through the window end), deduplicate, screen."""
    loaded = source.load_domain(part.spec, part.window_end)
    papers, duplicates = deduplicate(loaded.papers)
    descriptions = {name: d.description for name, d in load_registry().domains.items()}
    client = llm.client()
    screened, screen_failures, screener = screen_corpus(
        papers, part.domain, part.spec.title, descriptions, embeddings.embedder().encode, client
    )
    return screened, loaded.failures + screen_failures, duplicates, {**loaded.info, "screener": screener}


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
    llm: LLMResource,
) -> dg.MaterializeResult:
    """Public snapshot: the domain's papers published on or before the cutoff (shipped corpus
    or an incremental arXiv harvest), deduplicated by arXiv id and near-duplicate title, each
    screened (relevance + benchmark-core: core / support / excluded, with score and reason;
    offline, or the LLM screen when a model is configured). Unusable source records, failed
    harvest windows and failed screen calls are rows in `corpus_snapshot_failures`;
    dropped duplicates are in `corpus_snapshot_duplicates`."""
    part = current_partition(context)
    before = llm.client().snapshot()
    screened, failures, duplicates, info = _screened(part, corpus_source, embeddings, llm)
    public, _, _ = split_at_cutoff(screened, part.cutoff, part.horizon_months)
    if not public:
        raise ValueError(f"{part.domain}: no papers published on or before {part.cutoff} in the corpus")
    public_ids = {p.arxiv_id for p in public}
    store = storage.store()
    path = store.write_records("corpus_snapshot", part.domain, part.cutoff_key, public, ScreenedPaper)
    write_failures(store, "corpus_snapshot", part, failures)
    # only links between pre-cutoff records: a post-cutoff duplicate's id/title must not reach the public tree
    visible = [d for d in duplicates if d.kept_id in public_ids and d.dropped_published <= part.cutoff]
    store.write_records("corpus_snapshot_duplicates", part.domain, part.cutoff_key, visible, DuplicateLink)
    labels = Counter(p.label for p in public)
    volume = monthly_volume(public)
    return dg.MaterializeResult(
        metadata={
            "rows": len(public),
            "core": labels["core"],
            "support": labels["support"],
            "excluded": labels["excluded"],
            "failures": len(failures),
            "duplicates_dropped": len(visible),
            "first_date": str(public[0].published),
            "last_date": str(public[-1].published),
            "months": len(volume),
            "path": dg.MetadataValue.path(path),
            "monthly_volume": dg.MetadataValue.json(volume),
            **{k: v for k, v in info.items() if isinstance(v, (str, int, float))},
            **llm.client().usage_since(before).as_metadata(),
        }
    )


@dg.asset(
    partitions_def=DOMAIN_CUTOFF_PARTITIONS,
    group_name="hidden",
    kinds={"parquet", "python"},
    tags=visibility_tags("future_window"),
)
def future_window(
    context: dg.AssetExecutionContext,
    storage: StorageResource,
    corpus_source: CorpusSourceResource,
    embeddings: EmbeddingResource,
    llm: LLMResource,
) -> dg.MaterializeResult:
    """Hidden future window: papers published after the cutoff, up to cutoff + horizon.
    Stored under the hidden subtree; only gold targets read it, never a public asset."""
    part = current_partition(context)
    before = llm.client().snapshot()
    screened, _, _, info = _screened(part, corpus_source, embeddings, llm)
    _, future, window_end = split_at_cutoff(screened, part.cutoff, part.horizon_months)
    path = storage.store().write_records("future_window", part.domain, part.cutoff_key, future, ScreenedPaper)
    labels = Counter(p.label for p in future)
    return dg.MaterializeResult(
        metadata={
            "rows": len(future),
            "core": labels["core"],
            "support": labels["support"],
            "window_start": str(part.window_start),
            "window_end": str(window_end),
            "path": dg.MetadataValue.path(path),
            "monthly_volume": dg.MetadataValue.json(monthly_volume(future)),
            "source": info.get("source", ""),
            **llm.client().usage_since(before).as_metadata(),
        }
    )


@dg.asset(
    partitions_def=DOMAIN_CUTOFF_PARTITIONS,
    group_name="corpus",
    kinds={"parquet", "python"},
    deps=[corpus_snapshot],
)
def corpus_volume(context: dg.AssetExecutionContext, storage: StorageResource) -> dg.MaterializeResult:
    """Papers per calendar month of the public snapshot, by screen label (total, core,
    support, excluded, relevant), every month from the first to the last. The shipped
    corpus comes from crawlers with uneven coverage, so volume-based signals divide by this."""
    part = current_partition(context)
    store = storage.store()
    papers = store.read_records("corpus_snapshot", part.domain, part.cutoff_key, ScreenedPaper)
    rows = volume_by_label(papers)
    path = store.write_records("corpus_volume", part.domain, part.cutoff_key, rows, MonthVolume)
    totals = [r.total for r in rows]
    return dg.MaterializeResult(
        metadata={
            "months": len(rows),
            "papers": sum(totals),
            "empty_months": sum(t == 0 for t in totals),
            "max_month": max(rows, key=lambda r: r.total).month if rows else "",
            "min_to_max_ratio": round(min(totals) / max(totals), 4) if totals and max(totals) else 0.0,
            "path": dg.MetadataValue.path(path),
            "last_months": md_table([r.model_dump() for r in rows[::-1]], ["month", "total", "core", "support", "excluded"], 12),
        }
    )


@dg.asset(
    partitions_def=DOMAIN_CUTOFF_PARTITIONS,
    group_name="corpus",
    kinds={"parquet", "python"},
    deps=[corpus_snapshot],
)
def paper_fulltext(context: dg.AssetExecutionContext, storage: StorageResource, grobid: GrobidResource) -> dg.MaterializeResult:
    """Full text of the snapshot's core papers: PDF (arXiv v1) through a GROBID server, TEI
    parsed into sections (abstract, introduction, method, experiments, limitations,
    conclusion, other) and references. Without a reachable server every row is the abstract
    only (source `abstract_only`) and the `grobid` metadata says why; a paper whose PDF,
    GROBID call or TEI fails keeps its abstract and gets a failure row (retried next run)."""
    part = current_partition(context)
    store = storage.store()
    papers = [p for p in store.read_records("corpus_snapshot", part.domain, part.cutoff_key, ScreenedPaper) if p.label == "core"]
    rows, failures, info = build_fulltext(papers, grobid.service(), grobid.max_papers)
    path = store.write_records("paper_fulltext", part.domain, part.cutoff_key, rows, PaperFullText)
    write_failures(store, "paper_fulltext", part, failures)
    sections = Counter(s.name for r in rows for s in r.sections)
    return dg.MaterializeResult(
        metadata={
            "rows": len(rows),
            "failures": len(failures),
            **info,
            "sections": dg.MetadataValue.json(dict(sections)),
            "references": sum(len(r.references) for r in rows),
            "path": dg.MetadataValue.path(path),
        }
    )


@dg.asset(
    partitions_def=DOMAIN_CUTOFF_PARTITIONS,
    group_name="corpus",
    kinds={"parquet", "python"},
    deps=[corpus_snapshot],
)
def paper_metadata(
    context: dg.AssetExecutionContext, storage: StorageResource, semantic_scholar: SemanticScholarResource
) -> dg.MaterializeResult:
    """Semantic Scholar metadata of the snapshot's core and support papers: venue,
    publication date, citation count, open-access PDF. Only values observed on or before the
    cutoff enter this public table; a value observed later (today's count for an old cutoff)
    is null here, named in `withheld`, and kept in the hidden `paper_metadata_observed`.
    Off by default (offline): the table is empty and the metadata says so."""
    part = current_partition(context)
    store = storage.store()
    ids = [
        p.arxiv_id
        for p in store.read_records("corpus_snapshot", part.domain, part.cutoff_key, ScreenedPaper)
        if p.label != "excluded"
    ]
    if not semantic_scholar.is_enabled():
        path = store.write_records("paper_metadata", part.domain, part.cutoff_key, [], PaperMetadata)
        write_failures(store, "paper_metadata", part, [])
        return dg.MaterializeResult(
            metadata={"rows": 0, "semantic_scholar": "disabled (offline default)", "path": dg.MetadataValue.path(path)}
        )
    report = enrich(
        ids, part.cutoff, semantic_scholar.client(), semantic_scholar.observations(), refresh_days=semantic_scholar.refresh_days
    )
    path = store.write_records("paper_metadata", part.domain, part.cutoff_key, report.public, PaperMetadata)
    store.write_records("paper_metadata_observed", part.domain, part.cutoff_key, report.hidden, PaperMetadata)
    write_failures(store, "paper_metadata", part, report.failures)
    return dg.MaterializeResult(
        metadata={
            "rows": len(report.public),
            "failures": len(report.failures),
            "semantic_scholar": "enabled",
            "fetched": report.fetched,
            "from_cache": report.cached,
            "http_requests": report.requests,
            "with_citation_count": sum(r.citation_count is not None for r in report.public),
            "withheld_after_cutoff": sum(bool(r.withheld) for r in report.public),
            "with_venue": sum(r.venue is not None for r in report.public),
            "path": dg.MetadataValue.path(path),
        }
    )

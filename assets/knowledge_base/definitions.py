"""Knowledge-base asset: the public snapshot embedded and indexed in LanceDB."""

import time

import dagster as dg

from assets.knowledge_base.logic import (
    KnowledgeBaseView,
    build_kb,
    chunk_table_name,
    table_name,
)
from assets.partitions import DOMAIN_CUTOFF_PARTITIONS
from assets.stage import Partition, current_partition
from core.papers import metadata_licence
from core.records import PaperFullText, ScreenedPaper
from resources.embeddings import EmbeddingResource
from resources.lance import LanceResource
from resources.storage import PartitionStore, StorageResource


def open_view(part: Partition, lance: LanceResource, embeddings: EmbeddingResource) -> KnowledgeBaseView:
    """The only way downstream code reaches the knowledge base: bound to the cutoff."""
    db = lance.connect()
    name = table_name(part.domain, part.cutoff_key)
    try:
        chunks = db.open_table(chunk_table_name(name))
    except (ValueError, FileNotFoundError, RuntimeError):
        chunks = None  # a KB built before chunking: search_chunks falls back to abstracts
    return KnowledgeBaseView(db.open_table(name), part.cutoff, embeddings.embedder().encode, chunks)


def read_fulltexts(store: PartitionStore, part: Partition) -> dict[str, PaperFullText]:
    """The partition's GROBID full texts, when `paper_fulltext` has been materialized."""
    if not store.exists("paper_fulltext", part.domain, part.cutoff_key):
        return {}
    return {r.arxiv_id: r for r in store.read_records("paper_fulltext", part.domain, part.cutoff_key, PaperFullText)}


@dg.asset(
    partitions_def=DOMAIN_CUTOFF_PARTITIONS,
    group_name="knowledge",
    kinds={"lancedb", "parquet"},
    deps=["corpus_snapshot", "paper_fulltext"],  # full text is optional: abstracts when it is absent
)
def knowledge_base(
    context: dg.AssetExecutionContext,
    storage: StorageResource,
    lance: LanceResource,
    embeddings: EmbeddingResource,
) -> dg.MaterializeResult:
    """Cutoff-aligned knowledge base: core and support papers of the public snapshot with
    dense vectors, a native full-text (BM25) index, B-tree indexes on date and id and (from
    5,000 papers) an IVF vector index in LanceDB (table `kb__<domain>__<cutoff>`), plus a
    chunk table (`...__chunks`) of section snippets from `paper_fulltext` when it exists,
    else abstracts. A rerun updates the tables incrementally. The Parquet partition is the
    KB manifest (id, title, abstract, date, label, source, licence); the Lance table versions are in the metadata."""
    part = current_partition(context)
    store = storage.store()
    papers = [
        p for p in store.read_records("corpus_snapshot", part.domain, part.cutoff_key, ScreenedPaper) if p.label != "excluded"
    ]
    fulltexts = read_fulltexts(store, part)
    name = table_name(part.domain, part.cutoff_key)
    started = time.perf_counter()
    _, info = build_kb(lance.connect(), name, papers, embeddings.embedder().encode, fulltexts)
    build_s = time.perf_counter() - started
    import pyarrow as pa

    # the manifest holds what rebuilds the KB (ids, titles, abstracts, dates) and what may
    # be redistributed under which licence, so a release's KB can be rebuilt from the release
    manifest = pa.table(
        {
            "arxiv_id": [p.arxiv_id for p in papers],
            "title": [p.title for p in papers],
            "abstract": [p.abstract for p in papers],
            "published": pa.array([p.published for p in papers], type=pa.date32()),
            "label": [p.label for p in papers],
            "source": [p.source for p in papers],
            "licence": [metadata_licence(p.source) for p in papers],
        }
    )
    path = store.write_table("knowledge_base", part.domain, part.cutoff_key, manifest)
    return dg.MaterializeResult(
        metadata={
            "rows": info["rows"],
            "lance_table": name,
            "lance_version": info["lance_version"],
            "write": info["write"],
            "added": info["added"],
            "deleted": info["deleted"],
            "vector_index": info["vector_index"],
            "indexes": dg.MetadataValue.json(info["indexes"]),
            "chunk_table": chunk_table_name(name),
            "chunks": info["chunks"],
            "chunk_lance_version": info["chunk_lance_version"],
            "fulltext_papers": info["fulltext_papers"],
            "chunk_source": "grobid sections + abstracts" if info["fulltext_papers"] else "abstracts only",
            "chunks_by_section": dg.MetadataValue.json(info["chunks_by_section"]),
            "embedding_dim": info["dim"],
            "embedder": embeddings.embedder().model_path,
            "build_s": round(build_s, 2),
            "latest_paper": str(max(p.published for p in papers)),
            "path": dg.MetadataValue.path(path),
        }
    )

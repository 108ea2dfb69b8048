"""Knowledge-base asset: the public snapshot embedded and indexed in LanceDB."""


import dagster as dg

from assets.knowledge_base.logic import KnowledgeBaseView, build_kb, table_name
from assets.records import ScreenedPaper
from pipelines.partitions import DOMAIN_CUTOFF_PARTITIONS
from pipelines.stage import Partition, current_partition
from resources.embeddings import EmbeddingResource
from resources.lance import LanceResource
from resources.storage import StorageResource


def open_view(part: Partition, lance: LanceResource, embeddings: EmbeddingResource) -> KnowledgeBaseView:
    """The only way downstream code reaches the knowledge base: bound to the cutoff."""
    table = lance.connect().open_table(table_name(part.domain, part.cutoff_key))
    return KnowledgeBaseView(table, part.cutoff, embeddings.embedder().encode)


@dg.asset(
    partitions_def=DOMAIN_CUTOFF_PARTITIONS,
    group_name="knowledge",
    kinds={"lancedb", "parquet"},
    deps=["corpus_snapshot"],
)
def knowledge_base(
    context: dg.AssetExecutionContext,
    storage: StorageResource,
    lance: LanceResource,
    embeddings: EmbeddingResource,
) -> dg.MaterializeResult:
    """Cutoff-aligned knowledge base: core and support papers of the public snapshot with
    dense vectors and a full-text index in LanceDB (one table per partition). The Parquet
    partition is the KB manifest (id, title, date, label); the Lance table version is in
    the metadata."""
    part = current_partition(context)
    store = storage.store()
    papers = [p for p in store.read_records("corpus_snapshot", part.domain, part.cutoff_key, ScreenedPaper)
              if p.label != "excluded"]
    name = table_name(part.domain, part.cutoff_key)
    _, info = build_kb(lance.connect(), name, papers, embeddings.embedder().encode)
    import pyarrow as pa

    manifest = pa.table({
        "arxiv_id": [p.arxiv_id for p in papers], "title": [p.title for p in papers],
        "published": pa.array([p.published for p in papers], type=pa.date32()), "label": [p.label for p in papers],
    })
    path = store.write_table("knowledge_base", part.domain, part.cutoff_key, manifest)
    return dg.MaterializeResult(metadata={
        "rows": info["rows"], "lance_table": name, "lance_version": info["lance_version"],
        "embedding_dim": info["dim"], "embedder": embeddings.embedder().model_path,
        "latest_paper": str(max(p.published for p in papers)), "path": dg.MetadataValue.path(path),
    })

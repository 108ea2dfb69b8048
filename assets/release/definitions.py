"""Release package asset: the versioned, reproducible release of one partition."""


import dagster as dg
import pyarrow as pa

from assets.records import GoldTarget, Task, TaskRating
from assets.release.logic import release_files
from pipelines.partitions import DOMAIN_CUTOFF_PARTITIONS
from pipelines.stage import current_partition
from resources.storage import StorageResource


@dg.asset(
    partitions_def=DOMAIN_CUTOFF_PARTITIONS,
    group_name="release",
    kinds={"json", "parquet"},
    deps=["tasks", "task_ranking", "gold_targets", "knowledge_base", "corpus_snapshot", "taxonomy"],
)
def release_package(context: dg.AssetExecutionContext, storage: StorageResource) -> dg.MaterializeResult:
    """The partition's release: public `tasks.jsonl`, `kb_manifest.jsonl` and `manifest.json`
    (counts, versions, hashes) under public/_artifacts/release, and the hidden `gold.jsonl`
    under hidden/_artifacts/release. Byte-identical when rebuilt from the same inputs."""
    part = current_partition(context)
    store = storage.store()
    d, c = part.domain, part.cutoff_key
    kb = store.read_table("knowledge_base", d, c)
    kb_rows = [{"arxiv_id": r["arxiv_id"], "title": r["title"], "published": str(r["published"])} for r in kb.to_pylist()]
    corpus_hash = store.read_table("corpus_snapshot", d, c).column("arxiv_id").to_pylist()
    taxonomy_ids = store.read_table("taxonomy", d, c).column("node_id").to_pylist()
    from assets.release.logic import sha256

    public, hidden, manifest = release_files(
        store.read_records("tasks", d, c, Task), store.read_records("task_ranking", d, c, TaskRating),
        store.read_records("gold_targets", d, c, GoldTarget, visibility="hidden"), kb_rows,
        domain=d, cutoff=c, window_end=str(part.window_end), horizon_months=part.horizon_months,
        corpus_version=sha256("\n".join(corpus_hash).encode())[:16],
        taxonomy_version=sha256("\n".join(taxonomy_ids).encode())[:16],
    )
    paths = {name: store.write_bytes(store.artifact_path("release", d, c, name), data) for name, data in public.items()}
    for name, data in hidden.items():
        store.write_bytes(store.artifact_path("release", d, c, name, visibility="hidden"), data)
    store.write_table("release_package", d, c, pa.table({
        "release_version": [manifest["release_version"]], "tasks": [manifest["counts"]["tasks"]],
        "manifest_json": [public["manifest.json"].decode()]}))
    return dg.MaterializeResult(metadata={
        "release_version": manifest["release_version"], "tasks": manifest["counts"]["tasks"],
        "by_family": dg.MetadataValue.json(manifest["counts"]["by_family"]),
        "tasks_jsonl": dg.MetadataValue.path(paths["tasks.jsonl"]),
        "manifest": dg.MetadataValue.path(paths["manifest.json"]),
    })

"""HF export asset: the partition's release as a Hugging Face dataset (public) and its gold (private)."""

import dagster as dg

from assets.export.hf import PRIVATE_DIR, PUBLIC_DIR, export_hf, read_release
from assets.partitions import DOMAIN_CUTOFF_PARTITIONS
from assets.stage import current_partition
from resources.storage import StorageResource


@dg.asset(
    partitions_def=DOMAIN_CUTOFF_PARTITIONS,
    group_name="release",
    kinds={"parquet"},
    deps=["release_package"],
)
def hf_export(context: dg.AssetExecutionContext, storage: StorageResource) -> dg.MaterializeResult:
    """The partition's release as a Hugging Face dataset: Parquet per family config, the KB
    as its own config (ids, titles, abstracts, dates, licence per source), the release
    manifest, and a dataset card (README.md) under public/_artifacts/hf_export/.../hf/; the
    gold as a separate dataset under hidden/_artifacts/hf_export/.../hf_private/, meant for a
    private repository. Refused if the release validator finds gold in the public files.
    `foresci export hf` writes the same files (for one or several partitions) to a folder."""
    part = current_partition(context)
    store = storage.store()
    d, c = part.domain, part.cutoff_key
    released = store.read_table("release_package", d, c).to_pylist()[0]
    export = export_hf([read_release(store, d, c)])
    written = {}
    for prefix, files in ((PUBLIC_DIR, export.public), (PRIVATE_DIR, export.private)):
        for rel, data in sorted(files.items()):
            written[f"{prefix}/{rel}"] = store.write_bytes(store.artifact_path("hf_export", d, c, f"{prefix}/{rel}"), data)
    return dg.MaterializeResult(
        metadata={
            "release_id": released["release_id"],
            "configs": dg.MetadataValue.json(export.configs),
            "public_bytes": sum(len(v) for v in export.public.values()),
            "private_bytes": sum(len(v) for v in export.private.values()),
            "card": dg.MetadataValue.path(written[f"{PUBLIC_DIR}/README.md"]),
            "dataset_dir": dg.MetadataValue.path(written[f"{PUBLIC_DIR}/README.md"].rsplit("/", 1)[0]),
        }
    )

"""Leaderboard asset: per-partition leaderboard table, plot and DuckDB views."""

import dagster as dg
import pyarrow as pa

from assets.records import Score, TaskRating
from assets.release.logic import leaderboard_markdown, leaderboard_png, leaderboard_rows
from pipelines.partitions import DOMAIN_CUTOFF_PARTITIONS
from pipelines.stage import current_partition
from resources.storage import StorageResource


@dg.asset(
    partitions_def=DOMAIN_CUTOFF_PARTITIONS,
    group_name="release",
    kinds={"parquet", "duckdb"},
    deps=["judge_scores", "task_ranking"],
)
def leaderboard(context: dg.AssetExecutionContext, storage: StorageResource) -> dg.MaterializeResult:
    """Leaderboard of the partition's released tasks: family x method means with bootstrap
    95% intervals for every metric (null where the metric needs a judge model), and a PNG
    bar chart. Also refreshes the DuckDB views."""
    part = current_partition(context)
    store = storage.store()
    released = {r.task_id for r in store.read_records("task_ranking", part.domain, part.cutoff_key, TaskRating)
                if r.released}
    scores = store.read_records("judge_scores", part.domain, part.cutoff_key, Score)
    rows = leaderboard_rows(scores, released)
    path = store.write_table("leaderboard", part.domain, part.cutoff_key, pa.Table.from_pylist(rows) if rows
                             else pa.table({"family": pa.array([], pa.string())}))
    png = store.write_bytes(store.artifact_path("leaderboard", part.domain, part.cutoff_key, "leaderboard.png"),
                            leaderboard_png(rows, f"{part.spec.title} — cutoff {part.cutoff_key}"))
    views = store.refresh_views()
    return dg.MaterializeResult(metadata={
        "rows": len(rows), "leaderboard": dg.MetadataValue.md(leaderboard_markdown(rows)),
        "plot": dg.MetadataValue.path(png), "duckdb_views": len(views), "path": dg.MetadataValue.path(path),
    })

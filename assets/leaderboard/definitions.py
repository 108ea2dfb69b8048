"""Leaderboard asset: per-partition leaderboard tables, diagnostics, plot, HTML report, DuckDB views."""

import dagster as dg
import pyarrow as pa

from assets.families import all_families
from assets.leaderboard import chains, report
from assets.partitions import DOMAIN_CUTOFF_PARTITIONS
from assets.stage import current_partition
from core.records import AnswerArtifacts, GoldTarget, PairwiseComparison, Score, Task, TaskBuild, TaskRating
from resources.storage import StorageResource

ARROW_TYPES = {"str": pa.string(), "int": pa.int64(), "float": pa.float64()}


def rows_table(rows: list[dict], asset: str) -> pa.Table:
    """Rows as an Arrow table with the asset's declared column types (also when empty), so
    partitions union cleanly and the DuckDB views always bind; extra columns are inferred."""
    schema = report.empty_schemas()[asset]
    if not rows:
        return pa.table({k: pa.array([], ARROW_TYPES[t]) for k, t in schema.items()})
    table = pa.Table.from_pylist(rows)
    for i, f in enumerate(table.schema):
        if f.name in schema and f.type != ARROW_TYPES[schema[f.name]]:
            table = table.set_column(
                i, pa.field(f.name, ARROW_TYPES[schema[f.name]]), table.column(i).cast(ARROW_TYPES[schema[f.name]])
            )
    for i, f in enumerate(table.schema):
        if pa.types.is_null(f.type):
            table = table.set_column(i, pa.field(f.name, pa.float64()), table.column(i).cast(pa.float64()))
    return table


def judge_summary(scores: list[Score]) -> dict:
    """Judge model, prompt versions and per-answer cost accounting of the judged answers."""
    judged = [s for s in scores if s.judge_model]
    calls = [s.judge_calls for s in judged]
    chars = [s.judge_prompt_chars for s in judged]
    return {
        "judge_model": ",".join(sorted({s.judge_model for s in judged})) or None,
        "prompt_version": ",".join(sorted({s.prompt_version for s in judged if s.prompt_version})) or None,
        "repeats": max((s.repeats for s in judged), default=0),
        "answers": len(scores),
        "judged_answers": len(judged),
        "calls_per_answer": round(sum(calls) / len(calls), 2) if calls else 0.0,
        "calls_per_answer_max": max(calls, default=0),
        "prompt_chars_per_answer": round(sum(chars) / len(chars)) if chars else 0,
        "prompt_chars_per_answer_max": max(chars, default=0),
    }


@dg.asset(
    partitions_def=DOMAIN_CUTOFF_PARTITIONS,
    group_name="release",
    kinds={"parquet", "duckdb", "html"},
    deps=["judge_scores", "answer_artifacts", "task_ranking", "release_package", "validity_report", "tasks", "gold_targets"],
)
def leaderboard(context: dg.AssetExecutionContext, storage: StorageResource) -> dg.MaterializeResult:
    """Leaderboard of the partition's released tasks: family (and overall) × method × backbone
    means with bootstrap 95% intervals and the minimum detectable difference (MDD) for every
    metric (null where the metric needs a judge model), the pairwise method comparisons with
    their verdicts (`leaderboard_pairwise`: "differs" / "cannot tell"), Table A10 low-score
    rates, drift effects, Bradley–Terry/Elo method ratings, a PNG and a self-contained HTML report (linked below). Also checks that every DuckDB view binds
    (in memory; the analysts' file is left alone)."""
    part = current_partition(context)
    store = storage.store()
    d, c = part.domain, part.cutoff_key
    released = {r.task_id for r in store.read_records("task_ranking", d, c, TaskRating) if r.released}
    scores = store.read_records("judge_scores", d, c, Score)
    comparisons = store.read_records("judge_pairwise", d, c, PairwiseComparison) if store.exists("judge_pairwise", d, c) else []
    rows = report.leaderboard_rows(scores, released)
    pairwise = report.pairwise_table(scores, released)
    low = report.low_score_table(scores, released)
    drift = report.drift_table(scores, released)
    ratings = report.ratings_table(comparisons, released)
    judge = judge_summary([s for s in scores if s.task_id in released])
    validity = store.read_table("validity_report", d, c).to_pylist() if store.exists("validity_report", d, c) else []
    tasks = store.read_records("tasks", d, c, Task) if store.exists("tasks", d, c) else []
    builds = store.read_records("task_builds", d, c, TaskBuild) if store.exists("task_builds", d, c) else []
    golds = store.read_records("gold_targets", d, c, GoldTarget) if store.exists("gold_targets", d, c) else []
    controls = store.read_records("validity_controls", d, c, Score) if store.exists("validity_controls", d, c) else []
    own_tables = report.family_tables(all_families(), tasks, builds, golds, scores, controls, released)
    artifacts = [
        a
        for a in (store.read_records("answer_artifacts", d, c, AnswerArtifacts) if store.exists("answer_artifacts", d, c) else [])
        if a.task_id in released
    ]

    path = store.write_table("leaderboard", d, c, rows_table(rows, "leaderboard"))
    store.write_table("leaderboard_low_scores", d, c, rows_table(low, "leaderboard_low_scores"))
    store.write_table("leaderboard_drift", d, c, rows_table(drift, "leaderboard_drift"))
    store.write_table("leaderboard_ratings", d, c, rows_table(ratings, "leaderboard_ratings"))
    store.write_table("leaderboard_pairwise", d, c, rows_table(pairwise, "leaderboard_pairwise"))
    title = f"{part.spec.title} — cutoff {c}"
    png_bytes = report.family_bars_png(rows, title) if rows else b""
    png = store.write_bytes(store.artifact_path("leaderboard", d, c, "leaderboard.png"), png_bytes)
    release = {"domain": d, "cutoff": c, "window_end": str(part.window_end), "released_tasks": len(released)}
    if store.exists("release_package", d, c):
        release["release_version"] = store.read_table("release_package", d, c).column("release_version")[0].as_py()
    chains_path = store.write_bytes(
        store.artifact_path("leaderboard", d, c, chains.CHAINS_FILE),
        chains.chains_html(artifacts, f"Answer chains: {title}").encode(),
    )
    html_path = store.write_bytes(
        store.artifact_path("leaderboard", d, c, "report.html"),
        report.report_html(
            title=f"ForeSci leaderboard: {title}",
            rows=rows,
            low_rows=low,
            drift_rows=drift,
            ratings=ratings,
            correlations=report.correlation_matrix(scores, released),
            judge=judge,
            release=release,
            validity=validity,
            family_tables=own_tables,
            pairwise=pairwise,
            artifacts=artifacts,
        ).encode(),
    )
    # Bind every view on an in-memory DuckDB: a broken view fails this run, yet no step ever
    # writes (or locks) the analysts' views file, which the CLI refreshes (`foresci views`).
    con, views = store.memory_views()
    con.close()
    top = sorted((r for r in ratings if r["source"] == "metric:fta"), key=lambda r: -r["bt_rating"])
    if not released:
        context.log.warning(f"empty leaderboard for {d} @ {c}: the partition released no task")
    return dg.MaterializeResult(
        metadata={
            "empty_reason": "" if released else "the partition released no task (see release_package)",
            "rows": len(rows),
            "leaderboard": dg.MetadataValue.md(report.leaderboard_markdown(rows)),
            "table2": dg.MetadataValue.md(report.table2_markdown(rows)),
            # every two methods of a family on their shared tasks: "differs" or "cannot tell"
            "pairwise_fta": dg.MetadataValue.md(report.pairwise_markdown(pairwise)),
            # A browser does not follow a file:// link from the UI's http page: the plot is shown
            # inline (PNG data URI), the report is a path plus the command that prints its URL.
            "plot": dg.MetadataValue.md(report.png_markdown(png_bytes, "per-family bars with 95% intervals")),
            "plot_path": dg.MetadataValue.path(png),
            "report_path": dg.MetadataValue.path(html_path),
            "chains_path": dg.MetadataValue.path(chains_path),
            "claim_drift": dg.MetadataValue.json(
                {k: sum(getattr(a, f"drift_{k}") for a in artifacts) for k in chains.DRIFT_KINDS}
            ),
            "report_command": f"foresci report --domain {d} --cutoff {c}",
            "duckdb_views": len(views),
            "path": dg.MetadataValue.path(path),
            "judge": dg.MetadataValue.json(judge),
            "family_tables": dg.MetadataValue.md(
                "\n\n".join(f"**{t.title}**\n\n" + report.rows_markdown(t.rows) for t in own_tables)
            )
            if own_tables
            else "",
            "top_system_by_fta_bt": top[0]["system"] if top else None,
        }
    )

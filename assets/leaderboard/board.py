"""`foresci leaderboard`: released task x method rows from DuckDB, with metric columns from the
scorer registry.

Columns: `assets.leaderboard.columns.leaderboard_metrics`, from the scorer registry (the release
card's statistics use the same columns).

Rows. One row per released task x method (seeds averaged per task first), over one cutoff or
every cutoff and domain pooled (a task is (domain, cutoff, task_id)); the means, intervals, MDD
and pairwise verdicts are computed over these rows in Python (`statistics.method_statistics`).
A value that is a typed `Score` field is read from its column of the `judge_scores` view, any
other from the view's `metrics` map; a column or value name that is not a plain identifier is
refused (names are pasted into the SQL, the cutoff is a bound parameter).
"""

from __future__ import annotations

from assets.leaderboard.columns import leaderboard_metrics
from assets.leaderboard.statistics import pairwise_text
from core.records import Score

KEY_COLUMNS = ("family", "method", "answers", "n")  # the table's leading columns


class NoScoresError(LookupError):
    """Nothing to show: no scores stored, or none released at the cutoff asked for."""


def leaderboard_sql(metrics: dict[str, str]) -> str:
    """The task-row query over `judge_scores` joined to the released `task_ranking` rows; two
    parameters, both the cutoff (or null for every cutoff)."""
    typed = {name for name, field in Score.model_fields.items() if field.annotation == (float | None)}
    averages = ", ".join(
        f"avg(s.{value}) AS {column}" if value in typed else f"avg(metrics['{value}']) AS {column}"
        for column, value in metrics.items()
    )
    return f"""
    SELECT s.domain, CAST(s.cutoff AS VARCHAR) AS cutoff, s.task_id, family, method, count(*) AS answers,
           {averages}
    FROM judge_scores s JOIN task_ranking r USING (domain, cutoff, task_id, family)
    WHERE r.released AND (CAST(? AS VARCHAR) IS NULL OR CAST(s.cutoff AS VARCHAR) = ?)
    GROUP BY ALL"""


def leaderboard_task_rows(store, cutoff: str | None = None) -> list[dict]:
    """Released task x method rows (seeds averaged) from DuckDB, over every cutoff or one; the
    views are refreshed first. Raises `NoScoresError` when there is nothing to show."""
    views = store.refresh_views()
    if not {"judge_scores", "task_ranking"} <= set(views):
        raise NoScoresError("no scores yet: build a partition first (foresci materialize --domain D --cutoff C)")
    with store.connect() as con:
        df = con.execute(leaderboard_sql(leaderboard_metrics()), [cutoff, cutoff]).df()
    if cutoff and df.empty:
        raise NoScoresError(f"no released scores at cutoff {cutoff}: materialize a partition at that cutoff first")
    # plain ints/floats at full precision (to_json would round to 10 digits), NaN as null: the same task
    # rows as `statistics.release_task_rows` builds from the Score records, so the same figures
    return [{k: None if isinstance(v, float) and v != v else v for k, v in r.items()} for r in df.to_dict("records")]


def table_rows(rows: list[dict], metrics: dict[str, str] | None = None) -> list[dict]:
    """The leaderboard table: family, method, answers, n, fta, its 95% CI, the MDD (`*`: from a
    pooled or prior sd), then the other metric columns; "–" where a value is missing."""
    metrics = leaderboard_metrics() if metrics is None else metrics
    first, *others = metrics
    cols = [*KEY_COLUMNS, first, f"{first}_95ci", "mdd", *others]
    table = []
    for r in rows:
        ci = "–" if r.get(f"{first}_ci_low") is None else f"[{r[f'{first}_ci_low']:.2f},{r[f'{first}_ci_high']:.2f}]"
        mdd = "–" if r["mdd"] is None else f"{r['mdd']:.3f}" + ("" if r["mdd_sd_source"] == "own" else "*")
        table.append(
            {c: ("–" if v is None else v) for c, v in {**{c: r.get(c) for c in cols}, f"{first}_95ci": ci, "mdd": mdd}.items()}
        )
    return table


def footer_lines(rows: list[dict], pairs: list[dict]) -> list[str]:
    """The lines under the table: the MDD footnote, then the FTA pairwise verdicts."""

    lines = []
    if any(r["mdd_sd_source"] not in (None, "own") for r in rows):
        lines.append("* mdd from a pooled or prior sd: fewer than 10 tasks")
    lines.append("\nPairwise FTA (same tasks; differs = >= 6 tasks, Holm p < 0.05 and |diff| >= MDD):")
    lines += [f"  {p['family']:>10}: {pairwise_text(p)}" for p in pairs]
    if not pairs:
        lines.append("  (no two methods share a task)")
    return lines

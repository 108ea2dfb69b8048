"""Leaderboard tables (ForeSci Table 2 / A7 / A10 shapes), method ratings and the HTML report.

Plain functions over `Score` / `PairwiseComparison` records (no Dagster):

* `leaderboard_rows`: family × method × backbone (family "all" = Table 2, the others =
  Table A7). Seeds are averaged per task first; each metric's mean and BCa bootstrap 95%
  interval over tasks (`scipy.stats.bootstrap`, 9,999 resamples, seed 0; none for one task),
  `n_<metric>` (tasks that have it: LLM-only metrics are null offline, Trace is null without a
  support artifact) and `<metric>_mdd`, the minimum detectable difference of two methods over
  that many tasks (80% power, two-sided 5%; `mdd_sd` / `mdd_sd_source`: the FTA sd behind it).
  `assets/leaderboard/statistics.py` and `core/statistics.py` hold the formulas.
* `pairwise_table`: every two systems of a family on their shared tasks: difference, interval,
  paired sign-flip p (Holm), MDD and the verdict "differs" / "cannot tell".
* `low_score_table` (Table A10), `drift_table` (Δnorm of severe drift, §5.2),
  `ratings_table` (Bradley–Terry and Elo from pairwise comparisons).
* `report_html`: one self-contained HTML file (plots embedded as PNG): per-family bars
  with intervals, the metric correlation heatmap, drift effects, the tables, and the
  judge's cost accounting. Rendered from the autoescaping Jinja2 template
  `templates/report.html` (layout and table/image macros: `core/templates/`, `core/pages.py`);
  this module only prepares the rows and the plots.


Length (over ~500 lines on purpose): it prepares every table and plot of the report page (the page
itself is the Jinja2 template beside it)."""

from __future__ import annotations

import base64
import io
import json
from collections import defaultdict
from collections.abc import Sequence

from assets.families.base import FamilyRecords
from assets.families.registry import family_names
from assets.judging import diagnostics
from assets.leaderboard import chains
from assets.leaderboard import statistics as stats
from assets.scorers.registry import headline_values, reported_values, value_label
from core.pages import render
from core.records import AnswerArtifacts, PairwiseComparison, Score
from core.statistics import N_RESAMPLES


def empty_schemas() -> dict[str, dict[str, str]]:
    """Column types of the leaderboard tables when a partition has no rows (so the DuckDB
    views, which name columns, still bind): 'str', 'int' or 'float'."""
    lb = {"family": "str", "method": "str", "backbone": "str", "n_answers": "int", "n_tasks": "int"}
    for m in reported_values():
        lb.update({m: "float", f"{m}_lo": "float", f"{m}_hi": "float", f"n_{m}": "int", f"{m}_mdd": "float"})
    lb.update(
        {
            "mdd_sd": "float",
            "mdd_sd_source": "str",
            "mean_pers_std": "float",
            "mean_trace_std": "float",
            "judge_model": "str",
            "prompt_version": "str",
            "repeats": "int",
        }
    )
    low = {"grouping": "str", "unit": "str", "n_rows": "int"}
    for m in headline_values():
        low.update({f"n_{m}": "int", f"low_{m}": "float"})
    drift = {
        "family": "str",
        "drift_type": "str",
        "metric": "str",
        "delta_norm": "float",
        "mean_aligned": "float",
        "mean_severe": "float",
        "sd": "float",
        "n_aligned": "int",
        "n_severe": "int",
    }
    ratings = {
        "system": "str",
        "method": "str",
        "backbone": "str",
        "wins": "int",
        "losses": "int",
        "ties": "int",
        "n_comparisons": "int",
        "bt_strength": "float",
        "bt_rating": "float",
        "elo": "float",
        "source": "str",
    }
    pairwise = {
        "family": "str",
        "metric": "str",
        "system_a": "str",
        "system_b": "str",
        "n": "int",
        "mean_a": "float",
        "mean_b": "float",
        "diff": "float",
        "diff_ci_low": "float",
        "diff_ci_high": "float",
        "p_value": "float",
        "p_holm": "float",
        "mdd": "float",
        "sd_diff": "float",
        "mdd_sd": "float",
        "mdd_sd_source": "str",
        "verdict": "str",
        "why": "str",
        "better": "str",
    }
    return {
        "leaderboard": lb,
        "leaderboard_low_scores": low,
        "leaderboard_drift": drift,
        "leaderboard_ratings": ratings,
        "leaderboard_pairwise": pairwise,
    }


def _released(scores: Sequence[Score], released: set[str] | None) -> list[Score]:
    return [s for s in scores if released is None or s.task_id in released]


def answer_rows(scores: Sequence[Score], released: set[str] | None = None) -> list[dict]:
    """Answer-level dicts (what the diagnostics rank): metrics, family, method, backbone, drift."""
    return [
        {
            "answer_id": s.answer_id,
            "task_id": s.task_id,
            "family": s.family,
            "method": s.method,
            "backbone": s.backbone,
            "drift": dict(s.drift),
            **{m: s.value(m) for m in reported_values()},
        }
        for s in _released(scores, released)
    ]


def task_rows(scores: Sequence[Score], released: set[str] | None = None) -> list[dict]:
    """One row per (task, method, backbone): every metric averaged over seeds (None if no seed has it)."""
    groups: dict[tuple[str, str, str], list[Score]] = defaultdict(list)
    for s in _released(scores, released):
        groups[(s.task_id, s.method, s.backbone)].append(s)
    out = []
    for (task_id, method, backbone), group in sorted(groups.items()):
        row = {"task_id": task_id, "family": group[0].family, "method": method, "backbone": backbone, "n_seeds": len(group)}
        for m in reported_values() + ("pers_std", "trace_std"):
            vals = [s.value(m) for s in group if s.value(m) is not None]
            row[m] = sum(vals) / len(vals) if vals else None
        out.append(row)
    return out


def leaderboard_rows(scores: Sequence[Score], released: set[str] | None = None, n_boot: int = N_RESAMPLES) -> list[dict]:
    """Family (and "all") × method × backbone: mean, bootstrap 95% CI and MDD of every metric
    (`assets/leaderboard/statistics.py`)."""
    rows = task_rows(scores, released)
    answers = _released(scores, released)
    groups: dict[tuple[str, str, str], list[dict]] = defaultdict(list)
    for r in rows:
        groups[(r["family"], r["method"], r["backbone"])].append(r)
        groups[("all", r["method"], r["backbone"])].append(r)
    figures = stats.group_statistics(rows, reported_values(), n_resamples=n_boot)
    meta: dict[tuple[str, str], dict] = defaultdict(
        lambda: {"n_answers": defaultdict(int), "models": set(), "versions": set(), "repeats": set()}
    )
    for s in answers:
        for fam in (s.family, "all"):
            meta[(s.method, s.backbone)]["n_answers"][fam] += 1
        if s.judge_model:
            meta[(s.method, s.backbone)]["models"].add(s.judge_model)
        if s.prompt_version:
            meta[(s.method, s.backbone)]["versions"].add(s.prompt_version)
        if s.repeats:
            meta[(s.method, s.backbone)]["repeats"].add(s.repeats)
    out = []
    for (family, method, backbone), group in sorted(groups.items()):
        m = meta[(method, backbone)]
        row = {
            "family": family,
            "method": method,
            "backbone": backbone,
            "n_answers": m["n_answers"][family],
            "n_tasks": len(group),
        }
        fig = figures[(family, method, backbone)]
        for metric in reported_values():
            for k in (metric, f"{metric}_lo", f"{metric}_hi", f"n_{metric}", f"{metric}_mdd"):
                row[k] = fig[k]
        row["mdd_sd"], row["mdd_sd_source"] = fig.get("mdd_sd"), fig.get("mdd_sd_source")
        for sd in ("pers_std", "trace_std"):
            vals = [r[sd] for r in group if r[sd] is not None]
            row[f"mean_{sd}"] = sum(vals) / len(vals) if vals else None
        row["judge_model"] = ",".join(sorted(m["models"])) or None
        row["prompt_version"] = ",".join(sorted(m["versions"])) or None
        row["repeats"] = max(m["repeats"]) if m["repeats"] else 0
        out.append(row)
    return out


def pairwise_table(
    scores: Sequence[Score], released: set[str] | None = None, n_boot: int = N_RESAMPLES, metrics: Sequence[str] | None = None
) -> list[dict]:
    """Family (and "all") × headline metric × pair of systems (method@backbone) on the tasks both
    answered: mean difference with its 95% interval, sign-flip p (Holm-adjusted over the family's
    pairs), MDD and the verdict ("differs" / "cannot tell"; `core.statistics`)."""
    return stats.pairwise_rows(task_rows(scores, released), metrics or headline_values(), n_resamples=n_boot)


def low_score_table(scores: Sequence[Score], released: set[str] | None = None) -> list[dict]:
    """Table A10: bottom-20% low-score rates by family and by method (answer-level rows)."""
    return diagnostics.low_score_rates(answer_rows(scores, released), headline_values())


def drift_table(scores: Sequence[Score], released: set[str] | None = None) -> list[dict]:
    """Δnorm of severe drift per drift type × metric, overall and per family ([] offline)."""
    return diagnostics.drift_effects(answer_rows(scores, released), headline_values())


def ratings_table(comparisons: Sequence[PairwiseComparison], released: set[str] | None = None) -> list[dict]:
    """Bradley–Terry and Elo per system, separately per comparison source (metric:fta, llm)."""
    by_source: dict[str, list[dict]] = defaultdict(list)
    for c in comparisons:
        if released is None or c.task_id in released:
            by_source[c.source].append(c.model_dump())
    out = []
    for source in sorted(by_source):
        for r in diagnostics.method_ratings(by_source[source]):
            out.append({**r, "source": source})
    return out


def correlation_matrix(scores: Sequence[Score], released: set[str] | None = None) -> dict:
    return diagnostics.spearman_matrix(answer_rows(scores, released), headline_values())


# --------------------------------------------------------------------------------------
# Markdown
# --------------------------------------------------------------------------------------


def _fmt(v, ci=None) -> str:
    if v is None:
        return "–"
    return f"{v:.3f}" if ci is None or ci[0] is None else f"{v:.3f} [{ci[0]:.2f}, {ci[1]:.2f}]"


def table2_markdown(rows: Sequence[dict], family: str = "all") -> str:
    """Table 2 shape: one line per method, a column block per backbone (Fact, FTA, Trace, Pers)."""
    sel = [r for r in rows if r["family"] == family]
    backbones = sorted({r["backbone"] for r in sel})
    methods = sorted({r["method"] for r in sel})
    by = {(r["method"], r["backbone"]): r for r in sel}
    headline = headline_values()
    head = "| method | " + " | ".join(f"{b} {value_label(m)}" for b in backbones for m in headline) + " |"
    lines = [head, "|---|" + "---|" * (len(backbones) * len(headline))]
    for method in methods:
        cells = []
        for b in backbones:
            r = by.get((method, b))
            cells += [_fmt(r[m], (r[f"{m}_lo"], r[f"{m}_hi"])) if r else "" for m in headline]
        lines.append(f"| {method} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def _mdd(r: dict, metric: str = "fta") -> str:
    v = r.get(f"{metric}_mdd")
    if v is None:
        return "–"
    source = r.get("mdd_sd_source") if metric == "fta" else None
    return f"{v:.3f}" + (f" ({source} sd)" if source and source != "own" else "")


def leaderboard_markdown(rows: Sequence[dict]) -> str:
    lines = [
        "| family | method | backbone | answers | tasks | Fact | FTA [95% CI] | FTA MDD | Trace | Trace-link | Pers |",
        "|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    for r in rows:
        lines.append(
            f"| {r['family']} | {r['method']} | {r['backbone']} | {r['n_answers']} | {r['n_fta']} | "
            f"{_fmt(r['fact'])} | {_fmt(r['fta'], (r['fta_lo'], r['fta_hi']))} | {_mdd(r)} | "
            f"{_fmt(r['trace'])} | {_fmt(r['trace_linkage'])} | {_fmt(r['pers'])} |"
        )
    return "\n".join(lines)


def pairwise_markdown(pairs: Sequence[dict], metric: str = "fta") -> str:
    """The pairwise comparisons of one metric, one line per family and pair of systems."""
    sel = [p for p in pairs if p["metric"] == metric]
    if not sel:
        return "(no two systems share a task)"
    lines = ["| family | comparison | verdict |", "|---|---|---|"]
    lines += [f"| {p['family']} | {stats.pairwise_text(p)} | {p['verdict']} |" for p in sel]
    return "\n".join(lines)


# --------------------------------------------------------------------------------------
# Plots
# --------------------------------------------------------------------------------------


def _plt():
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt


def _png(fig) -> bytes:
    buf = io.BytesIO()
    fig.savefig(buf, format="png")
    _plt().close(fig)
    return buf.getvalue()


def family_bars_png(rows: Sequence[dict], title: str = "") -> bytes:
    """One panel per metric with data: bars per family × system with 95% intervals."""
    plt = _plt()
    metrics = [m for m in headline_values() if any(r[m] is not None for r in rows)] or ["fta"]
    families = [f for f in sorted(family_names()) if any(r["family"] == f for r in rows)] + ["all"]
    systems = sorted({(r["method"], r["backbone"]) for r in rows})
    by = {(r["family"], r["method"], r["backbone"]): r for r in rows}
    fig, axes = plt.subplots(len(metrics), 1, figsize=(9, 2.6 * len(metrics) + 0.6), dpi=100, squeeze=False)
    width = 0.8 / max(len(systems), 1)
    for ax, metric in zip(axes[:, 0], metrics):
        for j, (method, backbone) in enumerate(systems):
            xs, ys, err = [], [], [[], []]
            for i, fam in enumerate(families):
                r = by.get((fam, method, backbone))
                if r is None or r[metric] is None:
                    continue
                xs.append(i + (j - (len(systems) - 1) / 2) * width)
                ys.append(r[metric])
                lo, hi = r[f"{metric}_lo"], r[f"{metric}_hi"]  # None: one task, no interval
                err[0].append(0.0 if lo is None else max(0.0, r[metric] - lo))
                err[1].append(0.0 if hi is None else max(0.0, hi - r[metric]))
            label = method if len({b for _, b in systems}) == 1 else f"{method} ({backbone})"
            ax.bar(xs, ys, width=width, yerr=err, capsize=2, label=label)
        ax.set_xticks(range(len(families)), families)
        ax.set_ylim(0, 1)
        ax.set_ylabel(value_label(metric))
    axes[0, 0].set_title(title or "Metrics by task family (bootstrap 95% intervals)")
    axes[0, 0].legend(fontsize=7, loc="upper right", ncol=2)
    fig.tight_layout()
    return _png(fig)


def heatmap_png(
    matrix: list[list[float | None]],
    xlabels: Sequence[str],
    ylabels: Sequence[str],
    title: str,
    vmin: float = -1.0,
    vmax: float = 1.0,
    cmap: str = "RdBu_r",
) -> bytes:
    import numpy as np

    plt = _plt()
    data = np.array([[np.nan if v is None else v for v in row] for row in matrix], dtype=float)
    fig, ax = plt.subplots(figsize=(1.3 * len(xlabels) + 2.5, 0.6 * len(ylabels) + 1.8), dpi=100)
    im = ax.imshow(data, vmin=vmin, vmax=vmax, cmap=cmap)
    ax.set_xticks(range(len(xlabels)), xlabels, rotation=30, ha="right")
    ax.set_yticks(range(len(ylabels)), ylabels)
    for i in range(len(ylabels)):
        for j in range(len(xlabels)):
            v = data[i, j]  # white text on the dark ends of the colour scale
            dark = not np.isnan(v) and abs(v - (vmin + vmax) / 2) > 0.3 * (vmax - vmin)
            ax.text(
                j, i, "–" if np.isnan(v) else f"{v:.2f}", ha="center", va="center", fontsize=8, color="white" if dark else "black"
            )
    fig.colorbar(im, ax=ax, shrink=0.8)
    ax.set_title(title, fontsize=10)
    fig.tight_layout()
    return _png(fig)


def correlation_png(matrix: dict) -> bytes:
    names = list(matrix)
    return heatmap_png(
        [[matrix[a][b] for b in names] for a in names],
        [value_label(n) for n in names],
        [value_label(n) for n in names],
        "Spearman correlation between metrics (answers)",
    )


def drift_png(drift_rows: Sequence[dict]) -> bytes:
    overall = [r for r in drift_rows if r["family"] == "all"]
    metrics = list(dict.fromkeys(r["metric"] for r in overall))
    types = list(dict.fromkeys(r["drift_type"] for r in overall))
    by = {(r["drift_type"], r["metric"]): r["delta_norm"] for r in overall}
    return heatmap_png(
        [[by.get((t, m)) for t in types] for m in metrics],
        types,
        [value_label(m) for m in metrics],
        "Δnorm of severe drift: (E[m|s=0] − E[m|s≥2]) / SD(m)",
        vmin=-1.5,
        vmax=1.5,
    )


# --------------------------------------------------------------------------------------
# HTML
# --------------------------------------------------------------------------------------


def png_markdown(png: bytes, alt: str) -> str:
    """A PNG as a markdown image with a data URI (Dagster's metadata view renders it inline)."""
    if not png:
        return "(no plot: no released task was scored)"
    return f"![{alt}](data:image/png;base64,{base64.b64encode(png).decode()})"


def _ci_rows(rows: Sequence[dict]) -> list[dict]:
    out = []
    for r in rows:
        d = {k: r[k] for k in ("family", "method", "backbone", "n_answers", "n_tasks")}
        for m in headline_values():
            d[m] = _fmt(r[m], (r[f"{m}_lo"], r[f"{m}_hi"]))
        d["fta_mdd"] = _mdd(r)
        d["pers_sd"] = r.get("mean_pers_std")
        out.append(d)
    return out


def validity_png(validity: Sequence[dict]) -> bytes:
    """Per family: each method's mean FTA as a bar, the chance line (random answers, dashed),
    the stated gold (dotted) and the best control that carries no judgement (x)."""
    import json as _json

    plt = _plt()
    fams = [v for v in validity if v.get("tasks_released")]
    fig, ax = plt.subplots(figsize=(9, 3.6), dpi=100)
    width = 0.8
    for i, v in enumerate(fams):
        methods = _json.loads(v["methods"] or "{}")
        names = sorted(methods)
        for j, m in enumerate(names):
            x = i - width / 2 + (j + 0.5) * width / max(len(names), 1)
            ax.bar(x, methods[m] or 0.0, width=width / max(len(names), 1) * 0.9, color=f"C{j}", label=m if i == 0 else None)
        for key, style, label in (("control_random", "--", "chance (random)"), ("control_gold", ":", "gold answer")):
            if v.get(key) is not None:
                ax.hlines(v[key], i - width / 2, i + width / 2, colors="k", linestyles=style, label=label if i == 0 else None)
        worst = max(
            (v.get(k) or 0.0) for k in ("control_empty", "control_every_option", "control_first_option", "control_other_gold")
        )
        ax.plot(i, worst, "kx", label="best no-judgement control" if i == 0 else None)
    ax.set_xticks(range(len(fams)), [v["family"] for v in fams])
    ax.set_ylim(0, 1.3)
    ax.set_ylabel("mean FTA")
    ax.set_title("Methods against the chance line and the controls")
    ax.legend(fontsize=7, loc="upper center", ncol=5, frameon=False)
    fig.tight_layout()
    buf = io.BytesIO()
    fig.savefig(buf, format="png")
    plt.close(fig)
    return buf.getvalue()


def rows_markdown(rows: Sequence[dict]) -> str:
    """A list of dicts as a markdown table (columns in first-seen order)."""
    if not rows:
        return "(no rows)"
    cols = list(dict.fromkeys(k for r in rows for k in r))
    fmt = lambda v: "–" if v is None else f"{v:.3f}" if isinstance(v, float) else str(v)  # noqa: E731
    return "\n".join(
        ["| " + " | ".join(cols) + " |", "|" + "---|" * len(cols)]
        + ["| " + " | ".join(fmt(r.get(c)) for c in cols) + " |" for r in rows]
    )


def family_tables(families, tasks, builds, golds, scores, controls, released: set[str]) -> list:
    """Every family's own report tables (`TaskFamily.report_tables`) over its records."""
    out = []
    for fam in families:
        mine = lambda rows, name=fam.name: [r for r in rows if r.family == name]  # noqa: E731
        fam_tasks = mine(tasks)
        if not fam_tasks:
            continue
        ids = {t.task_id for t in fam_tasks}
        out += fam.report_tables(
            FamilyRecords(
                tasks=fam_tasks,
                builds=[b for b in builds if b.task_id in ids],
                golds=mine(golds),
                scores=mine(scores),
                controls=mine(controls),
                released=released & ids,
            )
        )
    return out


def report_html(
    *,
    title: str,
    rows: Sequence[dict],
    low_rows: Sequence[dict],
    drift_rows: Sequence[dict],
    ratings: Sequence[dict],
    correlations: dict,
    judge: dict,
    release: dict | None = None,
    validity: Sequence[dict] = (),
    artifacts: Sequence[AnswerArtifacts] | None = None,
    family_tables: Sequence = (),
    pairwise: Sequence[dict] = (),
) -> str:
    """The release report: tables with intervals, plots, diagnostics and judge cost accounting,
    rendered from `templates/report.html` (autoescaped; `core/pages.py`).
    `artifacts`: the answers' Xcientist artifacts, shown as the claim-drift and attribution
    section (assets/leaderboard/chains.py) right after ForeSci's evidence-to-decision drift
    (None: no section); `family_tables`: the families' own figures (`TaskFamily.report_tables`);
    `pairwise`: `pairwise_table` rows."""
    # the ForeSci columns, then every other registered scorer's headline value (e.g. Attribution)
    extra = [m for m in headline_values() if m not in ("fact", "fta", "trace", "pers", "trace_linkage")]
    cols = [
        "method",
        "backbone",
        "n_answers",
        "n_tasks",
        "fact",
        "fta",
        "fta_mdd",
        "trace",
        "pers",
        "trace_linkage",
        *extra,
        "pers_sd",
    ]
    heads = [
        "method",
        "backbone",
        "answers",
        "tasks",
        "Fact",
        "FTA",
        "FTA MDD",
        "Trace",
        "Pers",
        "Trace-link",
        *map(value_label, extra),
    ]

    def excess(v: dict, c: str) -> str:
        ex, low = v.get(f"{c}_excess"), v.get(f"{c}_excess_low")
        return "–" if ex is None else f"{ex:+.3f} (≥ {'–' if low is None else format(low, '+.3f')})"

    shown = [
        {
            **v,
            "first_excess": excess(v, "control_first_option"),
            "other_excess": excess(v, "control_other_gold"),
            "gated": {True: "yes", False: "no"}.get(v.get("controls_gated"), "–"),
        }
        for v in validity
    ]
    # what the direction/planning option sets cannot ask about (assets/validity/coverage.py)
    covered = next((v for v in validity if v.get("window_coverage") is not None), None)
    coverage = covered and {
        "share": covered["window_coverage"],
        "themes": ", ".join(
            f"{t['phrase']} ({t['papers']} papers, x{t['growth']})" for t in json.loads(covered.get("uncaptured_themes") or "[]")
        ),
    }
    correlated = any(v is not None for a in correlations for b, v in correlations[a].items() if a != b)
    return render(
        __package__,
        "report.html",
        title=title,
        release=release,
        judge=judge,
        columns=cols,
        headers=heads,
        overall=_ci_rows([r for r in rows if r["family"] == "all"]),
        by_family=_ci_rows([r for r in rows if r["family"] != "all"]),
        family_bars=family_bars_png(rows) if rows else None,
        pairwise=[p for p in pairwise if p["metric"] == "fta"] if pairwise else None,
        validity=shown,
        validity_plot=validity_png(validity) if validity else None,
        coverage=coverage,
        family_tables=[
            {"title": t.title, "note": t.note, "rows": t.rows, "columns": list(dict.fromkeys(k for r in t.rows for k in r))}
            for t in family_tables
        ],
        correlation_plot=correlation_png(correlations) if correlated else None,
        low_rows=low_rows,
        drift_rows=drift_rows,
        drift_overall=[r for r in drift_rows if r["family"] == "all"],
        drift_plot=drift_png(drift_rows) if drift_rows else None,
        chains=None if artifacts is None else chains.section_context(artifacts),
        ratings=ratings,
        judge_columns=[k for k in judge if k not in ("judge_model", "prompt_version")],
    )

"""`foresci` command line: seed cutoffs, build releases, show the leaderboard.

    foresci demo                      # default release: 4 domains at 2025-12-31, offline
    foresci init                      # create the Dagster instance once (before concurrent runs)
    foresci add-cutoff 2026-03-31 --horizon 3
    foresci remove-cutoff 2026-13-01  # drop a cutoff partition (its Parquet data stays)
    foresci materialize --domain llm_agent --cutoff 2025-12-31
    foresci leaderboard               # leaderboard with 95% CIs, MDD and pairwise verdicts (--format json)
    foresci validity --domain D --cutoff C   # one partition's validity report (--pooled: over many)
    foresci report --domain llm_agent --cutoff 2025-12-31   # file:// URL of the HTML report
    foresci views                     # (re)create the DuckDB views
    foresci demo-ideas                # the idea-review family (ScholarIdeas), offline; opt-in
    foresci reference-validity --domain D --cutoff C   # cited ids in the KB and before the cutoff
    foresci audit status --domain llm_agent --cutoff 2025-12-31   # the curation queue
    foresci review --port 8765        # the review page on http://127.0.0.1:8765
    foresci release                   # the benchmark release: every domain x release cutoff, and its card
    foresci release --domain llm_agent --cutoff 2025-12-31 --require-approval   # approved tasks only
    foresci export hf --domain llm_agent --cutoff 2025-12-31 out/foresci   # HF dataset + private gold
    foresci export hf --release out/foresci-release   # the whole release (a split per cutoff) + its card

Runs are recorded in the Dagster instance at $DAGSTER_HOME, so they show in `make ui`.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path

os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")

DEMO_CUTOFF = "2025-12-31"


def _instance(extra_cutoffs: list[str] = ()):
    """The instance at $DAGSTER_HOME, initialised once under a lock (pipelines/instance.py)."""
    from pipelines.instance import init_instance

    return init_instance(extra_cutoffs)[0]


def seed_cutoffs(instance, extra: list[str] = ()) -> list[str]:
    from assets.partitions import CUTOFF_PARTITIONS
    from core.registry import load_registry

    wanted = sorted(set(load_registry().default_cutoffs) | set(extra))
    existing = set(instance.get_dynamic_partitions(CUTOFF_PARTITIONS.name))
    missing = [c for c in wanted if c not in existing]
    if missing:
        instance.add_dynamic_partitions(CUTOFF_PARTITIONS.name, missing)
    return missing


def materialize_partition(instance, domain: str, cutoff: str, **kw):
    """`pipelines.runs.materialize_partition` (partition runs live there, shared by materialize,
    demo and the release; imported on use, so `foresci --help` does not load Dagster)."""
    from pipelines.runs import materialize_partition as run

    return run(instance, domain, cutoff, **kw)


# One row per released task x method (seeds averaged per task first); the leaderboard's means,
# intervals, MDD and pairwise verdicts are computed over these task rows in Python
# (assets/leaderboard/statistics.py). A task is (domain, cutoff, task_id): one cutoff, or every
# cutoff and domain pooled.
LEADERBOARD_SQL = """
    SELECT s.domain, CAST(s.cutoff AS VARCHAR) AS cutoff, s.task_id, family, method, count(*) AS answers,
           avg(fta) AS fta, avg(trace_linkage) AS trace_link, avg(fact) AS fact, avg(pers) AS pers,
           -- other registered scorers' values (the `metrics` MAP of judge_scores): null where they do not apply
           avg(metrics['ksr']) AS ksr, avg(metrics['kcr']) AS kcr, avg(metrics['kor']) AS kor,
           avg(metrics['ace']) AS ace, avg(metrics['attribution']) AS attrib,
           avg(metrics['reference_validity']) AS ref_valid
    FROM judge_scores s JOIN task_ranking r USING (domain, cutoff, task_id, family)
    WHERE r.released AND (CAST(? AS VARCHAR) IS NULL OR CAST(s.cutoff AS VARCHAR) = ?)
    GROUP BY ALL"""
LEADERBOARD_METRICS = ("fta", "trace_link", "fact", "pers", "ksr", "kcr", "kor", "ace", "attrib", "ref_valid")


def leaderboard_task_rows(cutoff: str | None = None) -> list[dict]:
    """Released task x method rows (seeds averaged) from DuckDB, over every cutoff or one. The
    cutoff is a bound parameter, never pasted into the SQL."""
    from pipelines.console import UserError
    from pipelines.resources import default_resources

    store = default_resources()["storage"].store()
    views = store.refresh_views()
    if not {"judge_scores", "task_ranking"} <= set(views):
        raise UserError("no scores yet: build a partition first (foresci materialize --domain D --cutoff C)")
    with store.connect() as con:
        df = con.execute(LEADERBOARD_SQL, [cutoff, cutoff]).df()
    if cutoff and df.empty:
        raise UserError(f"no released scores at cutoff {cutoff}: materialize a partition at that cutoff first")
    # plain ints/floats at full precision (to_json would round to 10 digits), NaN as null: the same task
    # rows as `release_task_rows` builds from the Score records, so the same figures
    return [{k: None if isinstance(v, float) and v != v else v for k, v in r.items()} for r in df.to_dict("records")]


def leaderboard_statistics(task_rows: list[dict]) -> tuple[list[dict], list[dict]]:
    """Family x method rows (mean with bootstrap 95% CI per metric, `n`, the FTA MDD) and the FTA
    pairwise verdicts: `assets.leaderboard.statistics.method_statistics` (the release card uses it too)."""
    from assets.leaderboard.statistics import method_statistics

    return method_statistics(task_rows)


def leaderboard_rows(cutoff: str | None = None) -> list[dict]:
    """Family x method over released tasks (all cutoffs pooled, or one): `leaderboard_statistics` rows."""
    return leaderboard_statistics(leaderboard_task_rows(cutoff))[0]


def print_leaderboard(cutoff: str | None = None, fmt: str = "table") -> None:
    from assets.leaderboard.statistics import STATISTICS_NOTE, pairwise_text

    rows, pairs = leaderboard_statistics(leaderboard_task_rows(cutoff))
    if fmt == "json":
        print(json.dumps({"rows": rows, "pairwise": pairs, "statistics": STATISTICS_NOTE}, indent=2, default=str))
        return
    cols = ["family", "method", "answers", "n", "fta", "fta_95ci", "mdd", *LEADERBOARD_METRICS[1:]]
    table = []
    for r in rows:
        ci = "–" if r["fta_ci_low"] is None else f"[{r['fta_ci_low']:.2f},{r['fta_ci_high']:.2f}]"
        mdd = "–" if r["mdd"] is None else f"{r['mdd']:.3f}" + ("" if r["mdd_sd_source"] == "own" else "*")
        table.append({c: ("–" if v is None else v) for c, v in
                      {**{c: r.get(c) for c in cols}, "fta_95ci": ci, "mdd": mdd}.items()})
    print_rows(table)
    if any(r["mdd_sd_source"] not in (None, "own") for r in rows):
        print("* mdd from a pooled or prior sd: fewer than 10 tasks")
    print("\nPairwise FTA (same tasks; differs = >= 6 tasks, Holm p < 0.05 and |diff| >= MDD):")
    for p in pairs:
        print(f"  {p['family']:>10}: {pairwise_text(p)}")
    if not pairs:
        print("  (no two methods share a task)")


def validity_partitions(store, domains: list[str] | None = None, cutoffs: list[str] | None = None) -> list[tuple[str, str]]:
    """(domain, cutoff) of every partition with a validity report, restricted to `domains` /
    `cutoffs` when given."""
    import pyarrow.fs as pafs

    found = []
    root = f"{store.base}/public/validity_report"
    if store.fs.get_file_info(root).type != pafs.FileType.Directory:
        return []
    for info in store.fs.get_file_info(pafs.FileSelector(root, recursive=True)):
        parts = dict(p.split("=", 1) for p in info.path.split("/") if "=" in p)
        if info.path.endswith("/data.parquet") and {"domain", "cutoff"} <= set(parts):
            found.append((parts["domain"], parts["cutoff"]))
    return sorted(p for p in set(found) if (not domains or p[0] in domains) and (not cutoffs or p[1] in cutoffs))


def pooled_validity(store, partitions: list[tuple[str, str]]) -> list[dict]:
    """The control checks per family over the released tasks of `partitions` pooled
    (`assets.validity.statistics.pooled_control_checks`)."""
    from assets.validity.statistics import pooled_control_checks
    from core.records import Score

    controls, families = {}, set()
    for d, c in partitions:
        if store.exists("validity_controls", d, c):
            controls[f"{d}@{c}"] = store.read_records("validity_controls", d, c, Score)
        families |= {r["family"] for r in store.read_table("validity_report", d, c).to_pylist()}
    return pooled_control_checks(controls, families=families)


def validity_failures(cutoff: str, domains: list[str]) -> dict[str, list[str]]:
    """Family -> where it misses a threshold (docs/validity.md): each domain whose validity report
    misses one for it, and "pooled over D domains" when the pooled control check fails."""
    from pipelines.resources import default_resources

    store = default_resources()["storage"].store()
    failing: dict[str, list[str]] = {}
    parts = [(d, cutoff) for d in domains if store.exists("validity_report", d, cutoff)]
    for d, c in parts:
        for row in store.read_table("validity_report", d, c).to_pylist():
            if not row["passed"]:
                failing.setdefault(row["family"], []).append(f"{d} ({row['problems']})")
    for row in pooled_validity(store, parts) if parts else []:
        if not row["passed"]:
            failing.setdefault(row["family"], []).append(f"pooled over {row['n_partitions']} partitions "
                                                         f"({row['problems']})")
    return failing


def overall_validity(cutoff: str, domains: list[str]) -> list[str]:
    """One line per family over every domain's released tasks: best baseline vs chance vs gold
    answer, and the pooled control check (the closest control's excess over chance with its
    one-sided 95% lower bound; gated from `min_gated_tasks` pooled tasks)."""
    import statistics
    from collections import defaultdict

    from assets.validity.statistics import pooled_line
    from core.records import Score, TaskRating
    from pipelines.resources import default_resources

    store = default_resources()["storage"].store()
    fta: dict[tuple[str, str], list[float]] = defaultdict(list)
    failing: dict[str, list[str]] = defaultdict(list)
    parts = []
    for d in domains:
        if not store.exists("validity_report", d, cutoff):
            continue
        parts.append((d, cutoff))
        released = {r.task_id for r in store.read_records("task_ranking", d, cutoff, TaskRating) if r.released}
        for s in store.read_records("validity_controls", d, cutoff, Score) + store.read_records(
                "judge_scores", d, cutoff, Score):
            if s.task_id in released and s.fta is not None:
                fta[(s.family, s.method)].append(s.fta)
        for row in store.read_table("validity_report", d, cutoff).to_pylist():
            if not row["passed"]:
                failing[row["family"]].append(d)
    pooled = {r["family"]: r for r in pooled_validity(store, parts)} if parts else {}
    lines = []
    for fam in sorted({f for f, _ in fta} | set(pooled)):
        mean = {m: statistics.fmean(v) for (f, m), v in fta.items() if f == fam}
        methods = {m: v for m, v in mean.items() if not m.startswith("control:")}
        best = max(methods, key=methods.get) if methods else None
        lines.append(f"{fam:>10}: best baseline {best} {methods.get(best, float('nan')):.3f} | chance "
                     f"{mean.get('control:random', float('nan')):.3f} | gold answer {mean.get('control:gold', float('nan')):.3f}"
                     " | " + ("per-domain thresholds met in every domain" if not failing[fam] else
                              f"thresholds missed in {', '.join(failing[fam])} (foresci validity)"))
        if fam in pooled:
            lines.append(f"{'':>12}pooled controls: " + pooled_line(pooled[fam]).split(": ", 1)[1])
    return lines


def print_check_sheet(store, domain: str, cutoff: str, per_family: int) -> None:
    """A hand-check sheet (hidden data: for maintainers): per family, the first released tasks
    with their options, the gold ranking and the window papers it counted per candidate."""
    from assets.ranking.presentation import presented_golds, presented_tasks
    from core.records import GoldTarget, Task, TaskRating

    ratings = store.read_records("task_ranking", domain, cutoff, TaskRating)
    released = {r.task_id for r in ratings if r.released}
    built = store.read_records("tasks", domain, cutoff, Task)
    golds = {g.task_id: g for g in presented_golds(store.read_records("gold_targets", domain, cutoff, GoldTarget),
                                                   built, ratings)}
    tasks = [t for t in presented_tasks(built, ratings) if t.task_id in released]
    for fam in dict.fromkeys(t.family for t in tasks):
        for t in [t for t in tasks if t.family == fam][:per_family]:
            g = golds[t.task_id]
            print(f"### {t.task_id}: {t.title}\n{t.question}")
            for o in t.options:
                print(f"- option {o.option_id}: {o.text}")
            print(f"gold ranking: {g.preferred_ranking}; trajectory: {g.trajectory}; strength {g.strength}")
            for cand, papers in g.counted.items():
                print(f"  counted for {cand} ({len(papers)}): " + "; ".join(papers[:4]))
            print()


def cmd_validity(args) -> int:
    from pipelines.console import UserError, check_cutoff
    from pipelines.resources import default_resources

    store = default_resources()["storage"].store()
    domains, cutoffs = args.domains or [], [check_cutoff(c) for c in args.cutoffs or []]
    if args.pooled or len(domains) > 1 or len(cutoffs) > 1:
        return cmd_validity_pooled(store, domains, cutoffs, args)
    if not (domains and cutoffs):
        raise UserError("give --domain D --cutoff C (one partition), or --pooled [--domain ...] [--cutoff ...]")
    domain, cutoff = domains[0], cutoffs[0]
    if not store.exists("validity_report", domain, cutoff):
        raise UserError(f"no validity report for {domain} @ {cutoff}: materialize the partition first")
    rows = store.read_table("validity_report", domain, cutoff).to_pylist()
    if args.sheet:
        print_check_sheet(store, domain, cutoff, args.sheet)
        return 0
    if args.json:
        print(json.dumps(rows, indent=2, default=str))
    else:
        for row in rows:
            print_validity_row(row)
    return 0 if all(r["passed"] for r in rows) else 2


def print_validity_row(row: dict) -> None:
    from assets.validity.report import control_line, summary_line

    print(summary_line(row))
    print(f"{'':>12}{control_line(row)}; methods {row['methods']}")
    if row.get("notes"):
        print(f"{'':>12}note: {row['notes']}")
    print(f"{'':>12}released {row['tasks_released']}/{row['tasks_built']}, gold stability "
          f"{row['gold_stability']}, claims verified {row['claim_bank_verified']}, duplicates "
          f"{row['duplicate_titles'] + row['duplicate_option_sets'] + row['duplicate_golds']}; "
          f"dropped: {row['drop_reasons']}")
    if row.get("option_names"):
        print(f"{'':>12}options of released tasks: {row['option_names']} names, {row['one_word_options']} of "
              f"them one word ({row['one_word_option_share']:.0%}, each a recognised name); released tasks "
              f"with a hard defect: {row['released_with_defects']}")
    if row.get("window_coverage") is not None:
        themes = ", ".join(f"{t['phrase']} ({t['papers']} papers, x{t['growth']})"
                           for t in json.loads(row["uncaptured_themes"] or "[]"))
        print(f"{'':>12}candidates cover {100 * row['window_coverage']:.1f}% of the window's papers; "
              f"growing themes no candidate captures: {themes or 'none'}")


def cmd_validity_pooled(store, domains: list[str], cutoffs: list[str], args) -> int:
    """Every matching partition's family lines, then the control checks pooled per family over
    their released tasks (exit 2 when a partition row or a pooled check fails)."""
    from assets.validity.report import summary_line
    from assets.validity.statistics import pooled_line
    from pipelines.console import UserError

    parts = validity_partitions(store, domains, cutoffs)
    if not parts:
        raise UserError("no validity report for " + (", ".join(domains) or "any domain") + " @ "
                        + (", ".join(cutoffs) or "any cutoff") + ": materialize the partitions first")
    per_part = {f"{d}@{c}": store.read_table("validity_report", d, c).to_pylist() for d, c in parts}
    pooled = pooled_validity(store, parts)
    if args.json:
        print(json.dumps({"partitions": per_part, "pooled": pooled}, indent=2, default=str))
    else:
        for label, rows in per_part.items():
            print(f"{label}:")
            for row in rows:
                print("  " + summary_line(row))
        from core.thresholds import Thresholds

        th = Thresholds.load()
        print(f"\nPooled over {len(parts)} partitions (control - chance per task; a control fails when the lower "
              f"end of its one-sided {1 - th.control_alpha:.0%} bootstrap interval exceeds {th.control_margin}; "
              f"gated from {th.min_gated_tasks} released tasks, docs/validity.md):")
        for row in pooled:
            print("  " + pooled_line(row))
    ok = all(r["passed"] for rows in per_part.values() for r in rows) and all(r["passed"] for r in pooled)
    return 0 if ok else 2


def cmd_demo(args) -> int:
    from core.registry import load_registry

    instance = _instance()
    seed_cutoffs(instance)
    domains = args.domains or sorted(load_registry().domains)
    start = time.time()
    from pipelines.runs import build_partitions

    # two partitions side by side keep two cores busy (each partition's stages run in order)
    runs = build_partitions(instance, [(d, args.cutoff) for d in domains], workers=getattr(args, "workers", 1),
                            stop_on_failure=True)
    if not all(r.success for r in runs):
        return 1
    timings = {r.domain: r.steps for r in runs}
    from pipelines.resources import default_resources

    store = default_resources()["storage"].store()
    _write_timings(timings, time.time() - start)
    print(f"\nBuilt {len(domains)} partitions in {time.time() - start:.0f}s.")
    print(f"  Parquet warehouse: {store.root}")
    print(f"  DuckDB views:      {store.duckdb_path}")
    print(f"  Releases:          {store.root}/public/_artifacts/release/")
    print(f"  Leaderboards:      {store.root}/public/_artifacts/leaderboard/ (report.html, leaderboard.png)")
    print(f"  Dagster runs:      {os.environ['DAGSTER_HOME']} (make ui)\n")
    print(f"Leaderboard (released tasks, cutoff {args.cutoff}; Fact/Pers need a judge model):")
    print_leaderboard(args.cutoff)
    print("\nValidity (mean FTA over released tasks; details: foresci validity --domain D --cutoff C):")
    for line in overall_validity(args.cutoff, domains):
        print("  " + line)
    print("\nXcientist (attribution completeness and claim drift of released answers; docs/xcientist.md):")
    for line in artifacts_summary(args.cutoff, domains):
        print("  " + line)
    failing = validity_failures(args.cutoff, domains)
    if failing:  # a release below its own bar is a failure, said where nobody can miss it
        banner = ["", "!" * 78, "VALIDITY THRESHOLDS MISSED: this release does not meet its own bar (docs/validity.md)"]
        banner += [f"  {fam}: {'; '.join(where)}" for fam, where in sorted(failing.items())]
        banner += ["Details: foresci validity --domain D --cutoff C"
                   + ("" if getattr(args, "keep_going", False) else "; `foresci demo --keep-going` builds and exits 0 anyway"),
                   "!" * 78]
        print("\n".join(banner), file=sys.stderr if not getattr(args, "keep_going", False) else sys.stdout, flush=True)
        return 0 if getattr(args, "keep_going", False) else 2
    print("\nThresholds met for every family in every domain.")
    return 0


def artifacts_summary(cutoff: str, domains: list[str]) -> list[str]:
    """Per domain: attribution by method, drift counts by kind, and the controls' attribution."""
    from assets.leaderboard.chains import DRIFT_KINDS, drift_summary
    from core.records import AnswerArtifacts, TaskRating
    from pipelines.resources import default_resources

    store = default_resources()["storage"].store()
    lines = []
    for d in domains:
        if not store.exists("answer_artifacts", d, cutoff):
            continue
        released = {r.task_id for r in store.read_records("task_ranking", d, cutoff, TaskRating) if r.released}
        arts = [a for a in store.read_records("answer_artifacts", d, cutoff, AnswerArtifacts) if a.task_id in released]
        rows = {r["method"]: r for r in drift_summary(arts)}
        every = rows.pop("all", None)
        if every is None:
            continue
        lines.append(f"{d}: {every['attributed']}/{every['claims']} claims attributable; drift "
                     + ", ".join(f"{k} {every[k]}" for k in DRIFT_KINDS) + "; attribution "
                     + ", ".join(f"{m} {r['attribution']:.3f}" for m, r in sorted(rows.items())))
        if store.exists("validity_report", d, cutoff):
            controls = {}
            for row in store.read_table("validity_report", d, cutoff).to_pylist():
                for k, v in json.loads(row.get("attribution_controls") or "{}").items():
                    controls.setdefault(k, []).append(v)
            if controls:
                lines.append(f"{'':>4}controls (mean over families): " + ", ".join(
                    f"{k.removeprefix('control:')} {sum(v) / len(v):.3f}" for k, v in sorted(controls.items())))
    return lines


def cmd_demo_rediscovery(args) -> int:
    """The default demo plus the opt-in rediscovery family (FIRE-Bench, docs/rediscovery.md), in its
    own state directory (default .foresci-rediscovery), so the default release stays as it is."""
    from core.paths import REPO_ROOT

    os.environ.setdefault("FORESCI_HOME", str(REPO_ROOT / ".foresci-rediscovery"))
    __import__("assets.plugins").plugins.enable(["rediscovery"])  # writes $FORESCI_HOME/plugins.yaml
    code = cmd_demo(args)
    if code == 0:
        print_rediscovery(args.cutoff, args.domains)
    return code


def print_rediscovery(cutoff: str, domains: list[str] | None = None) -> None:
    """Tasks built/dropped, controls vs baselines, error types, difficulty, contamination split."""
    from collections import Counter

    from assets.agents.backbones import default_registry
    from assets.rediscovery import report as rd
    from assets.validity.report import reason_kind
    from core.records import Failure, GoldTarget, Score, TaskBuild, TaskRating
    from core.registry import load_registry
    from pipelines.resources import default_resources

    store = default_resources()["storage"].store()
    print("\nRediscovery (FIRE-Bench family; claim F1 in the FTA column):")
    for d in domains or sorted(load_registry().domains):
        if not store.exists("validity_report", d, cutoff):
            continue
        builds = [b for b in store.read_records("task_builds", d, cutoff, TaskBuild) if "-rediscovery-" in b.task_id]
        dropped = Counter(reason_kind(f.reason.split(":", 1)[-1].strip()).split(":")[0]
                          for f in (store.read_records("tasks_failures", d, cutoff, Failure)
                                     if store.exists("tasks_failures", d, cutoff) else []) if "-rediscovery-" in f.item_id)
        released = {r.task_id for r in store.read_records("task_ranking", d, cutoff, TaskRating)
                    if r.released and "-rediscovery-" in r.task_id}
        golds = {g.task_id: g for g in store.read_records("gold_targets", d, cutoff, GoldTarget)
                 if g.family == "rediscovery"}
        scores = [s for s in store.read_records("judge_scores", d, cutoff, Score) if s.family == "rediscovery"]
        controls = [s for s in store.read_records("validity_controls", d, cutoff, Score) if s.family == "rediscovery"]
        print(f"  {d}: built {len(builds)}, dropped {dict(dropped)}, released {len(released)}; difficulty "
              f"{rd.difficulty_histogram(list(golds.values()), released)}")
        for m, v in rd.method_means(controls + scores, released).items():
            print(f"    {m:>22}: F1 {v['f1']} P {v['precision']} R {v['recall']} (n={v['n']})")
        for m, c in rd.error_counts([s for s in scores if s.task_id in released]).items():
            print(f"    errors {m}: {c}")
        split = rd.contamination_split([s for s in scores if s.task_id in released], rd.source_dates(builds), golds,
                                       default_registry())
        both = [r for r in split if r["pre_n"] and r["post_n"]]  # splits with tasks on both sides
        for row in both or [r for r in split if r["level"] == "all"][:2]:
            print(f"    split {row['method']} by {row['split_by']} ({row['knowledge_date']}), {row['level']}: pre "
                  f"{row['pre_f1']} (n={row['pre_n']}) / post {row['post_f1']} (n={row['post_n']})")


def _write_timings(timings: dict, total_s: float) -> None:
    import json

    from core.paths import state_dir

    path = state_dir() / "demo_timings.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps({"total_s": round(total_s, 1), "steps": timings}, indent=2))


def cmd_add_cutoff(args) -> int:
    from assets.partitions import validate_cutoff
    from core.registry import save_user_cutoff
    from pipelines.instance import init_instance

    validate_cutoff(args.cutoff, args.horizon, prospective=args.prospective)  # before anything is stored
    save_user_cutoff(args.cutoff, args.horizon, prospective=args.prospective)
    _, added = init_instance([args.cutoff])
    print(f"cutoff {args.cutoff} (horizon {args.horizon} months{', prospective' if args.prospective else ''}) "
          f"{'added' if args.cutoff in added else 'already present'}")
    return 0


def cmd_init(args) -> int:
    from pipelines.instance import dagster_home, init_instance

    _, added = init_instance()
    print(f"Dagster instance ready at {dagster_home()}" + (f"; cutoffs added: {', '.join(added)}" if added else ""))
    return 0


def cmd_remove_cutoff(args) -> int:
    from core.registry import load_registry
    from pipelines.instance import remove_cutoff

    done = remove_cutoff(args.cutoff)
    print(f"cutoff {args.cutoff}: " + ("partition removed from the Dagster instance" if done["partition_removed"]
                                       else "no such partition in the Dagster instance")
          + ("; removed from the user cutoffs file" if done["user_cutoff_forgotten"] else "")
          + "; Parquet data, if any, left in place")
    if args.cutoff in load_registry().default_cutoffs:
        print("note: a registry default cutoff: `foresci init` and default_cutoffs_sensor add it back")
    return 0


def cmd_materialize(args) -> int:
    from assets.partitions import validate_cutoff

    validate_cutoff(args.cutoff)
    instance = _instance([args.cutoff])
    result = materialize_partition(instance, args.domain, args.cutoff, quiet=not args.verbose, progress=True)
    print(f"{'success' if result.success else 'failed'}: release_job run {result.run_id}"
          f"{'' if result.success else ' (details: make ui, Runs)'}")
    if result.success:
        _refresh_views_or_note()
    return 0 if result.success else 1


def _refresh_views_or_note() -> None:
    """Runs never write the analysts' DuckDB file; the CLI refreshes it after one, unless a
    session holds it open (its views already see the new Parquet files)."""
    from pipelines.resources import default_resources

    try:
        default_resources()["storage"].store().refresh_views()
    except RuntimeError as exc:
        print(f"note: DuckDB views not refreshed ({exc}); run `foresci views` later", file=sys.stderr)


def cmd_report(args) -> int:
    """The partition's HTML report as a file:// URL (or the path, --path) a terminal can open."""
    from pipelines.console import UserError
    from pipelines.resources import default_resources

    store = default_resources()["storage"].store()
    path = store.artifact_path("leaderboard", args.domain, args.cutoff, "report.html")
    if store.fs.get_file_info(path).type.name != "File":
        raise UserError(f"no report for {args.domain} @ {args.cutoff}: materialize the partition first "
                        f"(foresci materialize --domain {args.domain} --cutoff {args.cutoff})")
    print(path if args.path or not store.is_local else Path(path).as_uri())
    return 0


def cmd_views(args) -> int:
    from pipelines.resources import default_resources

    for name in default_resources()["storage"].store().refresh_views():
        print(name)
    return 0


def print_rows(rows: list[dict], fmt: str = "table") -> None:
    """A listing as an aligned text table, or JSON (`--format json`) for scripts."""
    if fmt == "json":
        print(json.dumps(rows, indent=2))
        return
    if not rows:
        print("(none)")
        return
    cols = list(rows[0])
    widths = {c: max(len(c), *(len(str(r.get(c, ""))) for r in rows)) for c in cols}
    print("  ".join(c.ljust(widths[c]) for c in cols).rstrip())
    for r in rows:
        print("  ".join(str(r.get(c, "")).ljust(widths[c]) for c in cols).rstrip())


def cmd_families(args) -> int:
    from assets.plugins import listing

    print_rows(listing("families"), args.format)  # built-ins and every optional plugin, with whether enabled
    return 0


def cmd_agents(args) -> int:
    from assets.agents.external import specs_from
    from assets.agents.registry import all_agents

    rows = [a.describe() for a in all_agents()]
    rows += [{"agent": s.method, "needs model": "(its own)", "source": s.target,
              "summary": "bring-your-own agent from FORESCI_EXTERNAL_AGENTS"} for s in specs_from()]
    print_rows(rows, args.format)
    return 0


def cmd_scorers(args) -> int:
    from assets.scorers.registry import all_scorers, families_of

    print_rows([s.describe(families_of(s)) for s in all_scorers()], args.format)
    return 0


def cmd_import_release(args) -> int:
    from assets.release.importer import MissingGoldError, import_release, write_import
    from core.registry import save_user_cutoff
    from pipelines.console import UserError
    from pipelines.resources import default_resources

    try:
        result = import_release(args.tasks, args.hidden, domain=args.domain, cutoff=args.cutoff,
                                no_gold=getattr(args, "no_gold", False))
    except MissingGoldError as exc:
        raise UserError(str(exc)) from exc
    store = default_resources()["storage"].store()
    counts = write_import(store, result, source=Path(args.tasks).parent.name)
    for (d, c), n in counts.items():
        horizons = {t.horizon for t in result.tasks if t.domain == d and t.cutoff.isoformat() == c}
        try:
            save_user_cutoff(c, 3 if horizons == {"3-month"} else 6)
        except ValueError:
            pass
        print(f"{d} @ {c}: {n} tasks, {sum(g.domain == d and g.cutoff.isoformat() == c for g in result.golds)} gold")
    try:
        seed_cutoffs(_instance(), sorted({c for _, c in counts}))
    except Exception as exc:  # noqa: BLE001 - the files are written; partitions can be added later
        print(f"note: could not register the cutoff partitions in Dagster ({exc}); run `foresci add-cutoff`")
    if result.unmapped:
        print("fields not mapped (rows carrying them): "
              + ", ".join(f"{k} ({n})" for k, n in sorted(result.unmapped.items())))
    print(f"{len(result.failures)} failure row(s)")
    for f in result.failures[:10]:
        print(f"  {f.item_id}: {f.reason}")
    print("Next: `foresci evaluate --release ... --hidden ... --agent ...` scores agents on it in one command; "
          "or materialize corpus_snapshot and knowledge_base for each partition, then agent_answers, judge_scores "
          "and leaderboard (never `tasks`, which would replace the import).")
    if result.answers_only:
        print("answers only: imported without gold (--no-gold); nothing will be scored")
    elif result.missing_gold:
        print(f"foresci: {len(result.missing_gold)} task(s) without gold", file=sys.stderr)
        return 3
    return 0


def cmd_demo_ideas(args) -> int:
    """Build, answer and score the idea-review family (docs/idea_review.md): `idea_review_job`
    for partition (ideas, cutoff), in process; --limit/--disciplines build a sample directly."""
    from assets.idea_review.pipeline import leaderboard_lines, run_idea_review
    from core.records import Score
    from pipelines.resources import default_resources

    res = default_resources()
    store = res["storage"].store()
    start = time.time()
    if args.limit or args.disciplines:
        llm, judge = res["llm"].client(), res["judge_llm"].client()
        run = run_idea_review(store, res["embeddings"].embedder().encode, llm=None if llm.offline else llm,
                              judge=None if judge.offline else judge, limit=args.limit,
                              disciplines=args.disciplines or None, cutoff_key=args.cutoff)
        row, scores = run.validity, run.scores
    else:
        import uuid

        import dagster as dg

        from pipelines.definitions import IDEA_REVIEW_ASSETS, idea_review_job

        instance = _instance()
        seed_cutoffs(instance, [args.cutoff])
        job = dg.Definitions(assets=IDEA_REVIEW_ASSETS, jobs=[idea_review_job],
                             resources=res).resolve_job_def("idea_review_job")
        result = job.execute_in_process(
            instance=instance, run_id=str(uuid.uuid4()), raise_on_error=False,
            partition_key=dg.MultiPartitionKey({"domain": "ideas", "cutoff": args.cutoff}),
            run_config={"loggers": {"console": {"config": {"log_level": "WARNING"}}}})
        if not result.success:
            print("idea_review_job FAILED: see the run in the UI (make ui)", file=sys.stderr)
            return 1
        row = store.read_table("validity_report", "ideas", args.cutoff).to_pylist()[0]
        scores = store.read_records("judge_scores", "ideas", args.cutoff, Score)
    store.refresh_views()
    print(f"\nidea_review @ ideas|{args.cutoff}: {row['tasks_released']} tasks built, {row['tasks_dropped']} dropped "
          f"{row['drop_reasons']}; {time.time() - start:.0f}s")
    print("\n".join(leaderboard_lines(row, scores, row["metric"])))
    print(f"validity: {'PASS' if row['passed'] else 'FAIL: ' + row['problems']} "
          f"(foresci validity --domain ideas --cutoff {args.cutoff}; "
          f"report: foresci report --domain ideas --cutoff {args.cutoff})")
    return 0 if row["passed"] else 2


def cmd_reference_validity(args) -> int:
    """Reference validity of every stored answer of one partition (any family)."""
    import statistics
    from collections import defaultdict

    from assets.idea_review.pipeline import shipped_dates
    from assets.scorers.reference import reference_validity
    from core.records import Answer, ScreenedPaper, Task
    from pipelines.resources import default_resources

    store = default_resources()["storage"].store()
    if not store.exists("agent_answers", args.domain, args.cutoff):
        print(f"no answers for {args.domain} @ {args.cutoff}", file=sys.stderr)
        return 1
    known = shipped_dates()
    if store.exists("corpus_snapshot", args.domain, args.cutoff):
        known.update({p.arxiv_id: p.published for p in store.read_records(
            "corpus_snapshot", args.domain, args.cutoff, ScreenedPaper)})
    cutoff = {t.task_id: t.cutoff for t in store.read_records("tasks", args.domain, args.cutoff, Task)}
    shares: dict[tuple[str, str], list[float]] = defaultdict(list)
    for a in store.read_records("agent_answers", args.domain, args.cutoff, Answer):
        res = reference_validity(a.evidence_ids, known, cutoff.get(a.task_id) or date_of(args.cutoff))
        if res["share"] is not None:
            shares[(a.family, a.method)].append(res["share"])
    print_rows([{"family": f, "method": m, "answers citing": len(v), "reference validity": round(statistics.fmean(v), 3)}
                for (f, m), v in sorted(shares.items())])
    return 0


def date_of(text: str):
    from datetime import date

    return date.fromisoformat(text)


def cmd_audit_status(args) -> int:
    from pipelines.resources import default_resources
    from pipelines.review.queue import QueueReader, matches, summary
    from resources.decisions import DecisionStore

    store = default_resources()["storage"].store()
    if not store.exists("audit_queue", args.domain, args.cutoff):
        print(f"no audit queue for {args.domain} @ {args.cutoff}: materialize audit_queue first", file=sys.stderr)
        return 1
    items = QueueReader(store, DecisionStore.for_store(store)).items(args.domain, args.cutoff)
    s = summary(items)
    if args.format == "json":
        print(json.dumps(s, indent=2))
        return 0
    print(f"{args.domain} @ {args.cutoff}: {s['candidates']} candidate tasks, {s['selected']} selected by the ranking, "
          f"{s['flagged']} flagged")
    print("  flagged by reason (all / selected): " + ", ".join(
        f"{k} {v}/{s['selected_flagged_by_reason'].get(k, 0)}" for k, v in s["flagged_by_reason"].items()))
    print("  decisions (all / selected): " + ", ".join(
        f"{k} {v}/{s['selected_states'][k]}" for k, v in s["states"].items()))
    if s["rejected_by_reason"]:
        print("  rejected by reason: " + ", ".join(f"{k} {v}" for k, v in sorted(s["rejected_by_reason"].items())))
    shown = [i for i in items if matches(i, selected="" if args.all else "yes")]
    print_rows([{"task": i.record.task_id, "selected": "yes" if i.record.selected else "no", "decision": i.state,
                 "by": i.decision.reviewer if i.decision else "", "flags": ",".join(i.flag_codes) or "-"}
                for i in shown])
    return 0


def cmd_release(args) -> int:
    """The benchmark release (every domain x the release cutoffs, then the release card), or with
    --domain and --cutoff: rebuild only that partition's release package (e.g. --require-approval)."""
    from pipelines.console import UserError

    if bool(args.domain) != bool(args.cutoff):
        raise UserError("give both --domain and --cutoff (one partition's package), or neither (the whole release)")
    if not args.domain:
        if args.require_approval:
            raise UserError("--require-approval rebuilds one partition's package: give --domain and --cutoff")
        return cmd_release_all(args)
    import dagster as dg

    from assets.partitions import partition_key
    from assets.release.definitions import release_package
    from pipelines.resources import default_resources

    instance = _instance()
    seed_cutoffs(instance, [args.cutoff])
    config = {"require_approval": args.require_approval, "release_name": args.name or ""}
    result = dg.materialize([release_package], partition_key=partition_key(args.domain, args.cutoff),
                            instance=instance, resources=default_resources(), raise_on_error=False,
                            run_config={"ops": {"release_package": {"config": config}},
                                        "loggers": {"console": {"config": {"log_level": "WARNING"}}}})
    if not result.success:
        print("release failed: see the run in the UI (make ui)", file=sys.stderr)
        return 1
    [mat] = result.asset_materializations_for_node("release_package")
    meta = {k: v.value for k, v in mat.metadata.items()}
    print(f"release {meta['release_id']} of {args.domain} @ {args.cutoff}: {meta['tasks']} tasks")
    print(f"  curation: {json.dumps(meta['curation'])}")
    print(f"  files: {meta['versioned_dir']}")
    return 0


def cmd_release_all(args) -> int:
    """`make release`: `full_release_job` in this process (the UI launches the same job): builds the
    partitions of the release that are not built, two worker processes at a time, then writes the
    release card and prints its per-family counts (docs/releases.md)."""
    import uuid

    import dagster as dg

    from assets.partitions import validate_cutoff
    from pipelines.console import check_cutoff
    from pipelines.release import full_release_job, release_card, release_cutoffs
    from pipelines.resources import default_resources

    cutoffs = [check_cutoff(c) for c in args.cutoffs or []]
    for c in cutoffs:
        validate_cutoff(c)  # a release cutoff's window must have closed in the corpus (CutoffError says why)
    if not cutoffs:
        chosen, left_out = release_cutoffs()
        print("release cutoffs (registry defaults whose window has closed in the corpus): "
              + ", ".join(f"{c['cutoff']} ({c['horizon_months']}-month window to {c['window_end']})" for c in chosen))
        for c, why in left_out.items():
            print(f"  left out {c}: {why}")
    instance = _instance(cutoffs)
    config = {"cutoffs": cutoffs, "domains": args.domains or [], "build": not args.no_build, "rebuild": args.rebuild,
              "workers": args.workers, "name": args.name or "",
              "allow_missing": args.allow_missing or args.no_build}
    start = time.time()
    job = dg.Definitions(assets=[release_card], jobs=[full_release_job],
                         resources=default_resources()).resolve_job_def("full_release_job")
    result = job.execute_in_process(
        instance=instance, run_id=str(uuid.uuid4()), raise_on_error=False,
        run_config={"ops": {"release_card": {"config": config}},
                    "loggers": {"console": {"config": {"log_level": "WARNING"}}}})
    if not result.success:
        failure = next((ev for ev in result.all_events if ev.event_type_value == "STEP_FAILURE"), None)
        error = failure.event_specific_data.error if failure else None
        cause = (error.cause or error) if error else None
        print(f"release failed: {cause.message.strip() if cause else 'see the run in the UI (make ui)'}", file=sys.stderr)
        return 1
    [mat] = result.asset_materializations_for_node("release_card")
    meta = {k: v.value for k, v in mat.metadata.items()}
    card_md = meta["card"]
    card = json.loads(Path(card_md).with_name("card.json").read_text()) if Path(card_md).exists() else None
    _refresh_views_or_note()
    runs = meta["partition_runs"]
    print(f"\nRelease of {meta['partitions']} partitions in {time.time() - start:.0f}s"
          + (f" ({', '.join(f'{k} {v}' for k, v in runs.items())})" if runs else " (card only: nothing built)"))
    if card:
        from assets.release.card import summary_lines

        print("\n".join(summary_lines(card)))
        target = card["target"]
        print(f"ForeSci target ({target['per_family']} per family, {target['total']} in all): "
              + ("met" if target["met"] else "not met: " + ", ".join(
                  f"{f} {n} short" for f, n in target["short_per_family"].items() if n)))
        print("Gate: " + ("passed" if card["gate"]["passed"] else "NOT passed: " + "; ".join(
            card["gate"]["partition_rows_failing"] + card["gate"]["pooled_failing"])))
    print(f"Card: {card_md} (and card.json; duplicate groups in the hidden independence.jsonl)")
    if card and not card["gate"]["passed"] and not args.keep_going:
        return 2
    return 0


def cmd_review(args) -> int:
    from pipelines.resources import default_resources
    from pipelines.review.app import create_app, serve

    store = default_resources()["storage"].store()
    server = serve(create_app(store, reviewer=args.reviewer or os.environ.get("USER", "")), args.port)
    print(f"review page on http://127.0.0.1:{server.server_port}/ (Ctrl-C stops it)", flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()
    return 0


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="foresci", description=__doc__.split("\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    demo = sub.add_parser("demo", help="build the default release offline and print the leaderboard")
    demo.add_argument("--cutoff", default=DEMO_CUTOFF)
    demo.add_argument("--domains", nargs="*")
    demo.add_argument("--workers", type=int, default=2,
                      help="partitions built at once, each in its own process with its stage lines in "
                           ".foresci/release_logs/ (default 2; 1: one after another in this process)")
    demo.add_argument("--keep-going", action="store_true",
                      help="exit 0 even when a family misses a validity threshold (it is still printed)")
    demo.set_defaults(func=cmd_demo)
    redisc = sub.add_parser("demo-rediscovery", help="the demo plus the opt-in rediscovery family, in .foresci-rediscovery")
    redisc.add_argument("--cutoff", default=DEMO_CUTOFF)
    redisc.add_argument("--domains", nargs="*")
    redisc.set_defaults(func=cmd_demo_rediscovery)
    add = sub.add_parser("add-cutoff", help="add a cutoff partition (YYYY-MM-DD)")
    add.add_argument("cutoff")
    add.add_argument("--horizon", type=int, default=6, choices=(3, 6))
    add.add_argument("--prospective", action="store_true",
                     help="accept a window that has not closed in the corpus (forecasts now, gold later)")
    add.set_defaults(func=cmd_add_cutoff)
    init = sub.add_parser("init", help="create the Dagster instance at $DAGSTER_HOME once (safe to repeat)")
    init.set_defaults(func=cmd_init)
    rm = sub.add_parser("remove-cutoff", help="remove a cutoff partition from the Dagster instance")
    rm.add_argument("cutoff")
    rm.set_defaults(func=cmd_remove_cutoff)
    mat = sub.add_parser("materialize", help="materialize all assets for one partition")
    mat.add_argument("--domain", required=True)
    mat.add_argument("--cutoff", required=True)
    mat.add_argument("--verbose", action="store_true")
    mat.set_defaults(func=cmd_materialize)
    lb = sub.add_parser("leaderboard", help="print the leaderboard from DuckDB")
    lb.add_argument("--cutoff")
    lb.add_argument("--format", choices=("table", "json"), default="table")
    lb.set_defaults(func=lambda a: print_leaderboard(a.cutoff, a.format) or 0)
    rep = sub.add_parser("report", help="print the file:// URL of a partition's HTML leaderboard report")
    rep.add_argument("--domain", required=True)
    rep.add_argument("--cutoff", required=True)
    rep.add_argument("--path", action="store_true", help="print the plain path instead of a file:// URL")
    rep.set_defaults(func=cmd_report)
    views = sub.add_parser("views", help="(re)create the DuckDB views")
    views.set_defaults(func=cmd_views)
    fams = sub.add_parser("families", help="list the registered task families")
    fams.add_argument("--format", choices=("table", "json"), default="table")
    fams.set_defaults(func=cmd_families)
    val = sub.add_parser("validity", help="the validity report of one release partition, or the control checks pooled "
                                          "over several (exit 2 if a threshold is missed)")
    val.add_argument("--domain", dest="domains", nargs="+", action="extend", metavar="D",
                     help="one domain (with one --cutoff: that partition's report); several: pooled")
    val.add_argument("--cutoff", dest="cutoffs", nargs="+", action="extend", metavar="C",
                     help="one cutoff (with one --domain: that partition's report); several: pooled")
    val.add_argument("--pooled", action="store_true",
                     help="the control checks per family over the released tasks of every matching partition "
                          "(all partitions with a report when no --domain / --cutoff is given)")
    val.add_argument("--json", action="store_true")
    val.add_argument("--sheet", type=int, default=0, metavar="N",
                     help="print a hand-check sheet: N released tasks per family with gold and counted papers")
    val.set_defaults(func=cmd_validity)
    agents = sub.add_parser("agents", help="list the registered agents (research methods) and configured BYO agents")
    agents.add_argument("--format", choices=("table", "json"), default="table")
    agents.set_defaults(func=cmd_agents)
    scorers = sub.add_parser("scorers", help="list the registered scorers (metrics), their values and families")
    scorers.add_argument("--format", choices=("table", "json"), default="table")
    scorers.set_defaults(func=cmd_scorers)
    ideas = sub.add_parser("demo-ideas", help="build, answer and score the idea-review family (ScholarIdeas) offline")
    ideas.add_argument("--limit", type=int, help="only the first N ideas")
    ideas.add_argument("--disciplines", nargs="*", help="ai neuro biochem eco (default: all)")
    ideas.add_argument("--cutoff", default=DEMO_CUTOFF,
                       help=f"ideas whose own cutoff is on or before this (default {DEMO_CUTOFF})")
    ideas.set_defaults(func=cmd_demo_ideas)
    refv = sub.add_parser("reference-validity", help="share of cited ids in the KB and before the cutoff, per method")
    refv.add_argument("--domain", required=True)
    refv.add_argument("--cutoff", required=True)
    refv.set_defaults(func=cmd_reference_validity)
    imp = sub.add_parser("import-release", help="import a release in the ForeSci authors' format")
    imp.add_argument("tasks", help="their public tasks.jsonl")
    imp.add_argument("--hidden", help="their hidden evaluation JSONL (tasks_hidden_eval.jsonl)")
    imp.add_argument("--domain", help="keep only this foresci domain")
    imp.add_argument("--cutoff", help="keep only this cutoff (YYYY-MM-DD)")
    imp.add_argument("--no-gold", action="store_true", help="no hidden file: import for answering only")
    imp.set_defaults(func=cmd_import_release)
    audit = sub.add_parser("audit", help="the curation queue (docs/curation.md)")
    audit_sub = audit.add_subparsers(dest="audit_command", required=True)
    status = audit_sub.add_parser("status", help="print the review queue of one partition")
    status.add_argument("--domain", required=True)
    status.add_argument("--cutoff", required=True)
    status.add_argument("--all", action="store_true", help="list every candidate, not only the selected ones")
    status.add_argument("--format", choices=("table", "json"), default="table")
    status.set_defaults(func=cmd_audit_status)
    rel = sub.add_parser("release", help="build the benchmark release (every domain x the release cutoffs) and its "
                                          "card; with --domain and --cutoff: rebuild one partition's release package")
    rel.add_argument("--domain", help="one partition's package only (with --cutoff)")
    rel.add_argument("--cutoff", help="one partition's package only (with --domain)")
    rel.add_argument("--require-approval", action="store_true",
                     help="one partition's package: release only reviewer-approved tasks")
    rel.add_argument("--name", help="release name (e.g. v1.0); default: the content hash")
    rel.add_argument("--cutoffs", nargs="+", metavar="C",
                     help="the release's cutoffs (default: registry defaults whose window has closed in the corpus)")
    rel.add_argument("--domains", nargs="+", metavar="D", help="the release's domains (default: all)")
    rel.add_argument("--workers", type=int, default=2, help="partition runs at once, each in its own process")
    rel.add_argument("--rebuild", action="store_true", help="rebuild partitions that are already built")
    rel.add_argument("--no-build", action="store_true",
                     help="only (re)write the card from the built partitions (it names the missing ones)")
    rel.add_argument("--allow-missing", action="store_true", help="write the card even if partitions are missing")
    rel.add_argument("--keep-going", action="store_true", help="exit 0 even when the release misses its gate")
    rel.set_defaults(func=cmd_release)
    review = sub.add_parser("review", help="the review page: a local web app on 127.0.0.1")
    review.add_argument("--port", type=int, default=8765)
    review.add_argument("--reviewer", help="default reviewer name in the form (else $USER)")
    review.set_defaults(func=cmd_review)
    from pipelines.evaluate_cli import add_evaluate_parser
    from pipelines.export_cli import add_export_parser

    add_export_parser(sub)
    add_evaluate_parser(sub)
    return parser


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    from core.cutoffs import CutoffError
    from pipelines.console import EXIT_USER_ERROR, UserError, check_arguments

    try:
        check_arguments(args)
        return args.func(args)
    except (UserError, CutoffError) as exc:
        print(f"foresci: error: {exc}", file=sys.stderr)
        return EXIT_USER_ERROR


if __name__ == "__main__":
    sys.exit(main())

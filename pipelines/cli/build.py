"""Build: demo, demo-rediscovery, demo-ideas, materialize, release. Partition runs are
`pipelines.runs` (one `release_job` run per domain x cutoff, in this process or in workers), the
whole release `pipelines.release.full_release_job`; what the demo prints after its build comes
from the features (leaderboard statistics, `assets.validity.summaries`,
`assets.leaderboard.xcientist`, `assets.rediscovery.summary`)."""

import os
import sys
import time
from typing import Annotated

import typer

from pipelines.cli.common import (
    DEMO_CUTOFF,
    CutoffOpt,
    DomainOpt,
    command,
    complete_domain,
    instance,
    materialize_partition,
    refresh_views_or_note,
    say_lines,
    seed_cutoffs,
    store,
    variadic,
)

PANEL = "Build"
DomainsOpt = Annotated[
    list[str] | None,
    typer.Option(metavar="D ...", help="domains (default: every registered domain)", autocompletion=complete_domain),
]


def run_demo(cutoff: str, domains: list[str] | None, workers: int = 1, keep_going: bool = False) -> int:
    """Build the demo partitions, then print where things are, the leaderboard, validity, the
    Xcientist lines, and a banner when a family misses a validity threshold (exit 2, unless keep_going)."""
    from assets.leaderboard.xcientist import artifacts_lines
    from assets.validity.summaries import overall_lines, validity_failures
    from core.registry import load_registry
    from pipelines.cli.inspect import print_leaderboard
    from pipelines.runs import build_partitions

    inst = instance()
    seed_cutoffs(inst)
    domains = domains or sorted(load_registry().domains)
    start = time.time()
    # two partitions side by side keep two cores busy (each partition's stages run in order)
    runs = build_partitions(inst, [(d, cutoff) for d in domains], workers=workers, stop_on_failure=True)
    if not all(r.success for r in runs):
        return 1
    st = store()
    write_timings({r.domain: r.steps for r in runs}, time.time() - start)
    print(f"\nBuilt {len(domains)} partitions in {time.time() - start:.0f}s.")
    print(f"  Parquet warehouse: {st.root}")
    print(f"  DuckDB views:      {st.duckdb_path}")
    print(f"  Releases:          {st.root}/public/_artifacts/release/")
    print(f"  Leaderboards:      {st.root}/public/_artifacts/leaderboard/ (report.html, leaderboard.png)")
    print(f"  Dagster runs:      {os.environ['DAGSTER_HOME']} (make ui)\n")
    print(f"Leaderboard (released tasks, cutoff {cutoff}; Fact/Pers need a judge model):")
    print_leaderboard(cutoff)
    print("\nValidity (mean FTA over released tasks; details: foresci validity --domain D --cutoff C):")
    say_lines("  " + line for line in overall_lines(st, cutoff, domains))
    print("\nXcientist (attribution completeness and claim drift of released answers; docs/xcientist.md):")
    say_lines("  " + line for line in artifacts_lines(st, cutoff, domains))
    failing = validity_failures(st, cutoff, domains)
    if failing:  # a release below its own bar is a failure, said where nobody can miss it
        banner = ["", "!" * 78, "VALIDITY THRESHOLDS MISSED: this release does not meet its own bar (docs/validity.md)"]
        banner += [f"  {fam}: {'; '.join(where)}" for fam, where in sorted(failing.items())]
        banner += [
            "Details: foresci validity --domain D --cutoff C"
            + ("" if keep_going else "; `foresci demo --keep-going` builds and exits 0 anyway"),
            "!" * 78,
        ]
        print("\n".join(banner), file=sys.stdout if keep_going else sys.stderr, flush=True)
        return 0 if keep_going else 2
    print("\nThresholds met for every family in every domain.")
    return 0


def write_timings(timings: dict, total_s: float) -> None:
    import json

    from core.paths import state_dir

    path = state_dir() / "demo_timings.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps({"total_s": round(total_s, 1), "steps": timings}, indent=2))


def register(app: typer.Typer) -> None:
    @command(
        app,
        "demo",
        "build the default release offline and print the leaderboard",
        [
            "foresci demo",
            "foresci demo --domains llm_agent rag_and_retrieval_structuring --workers 1",
            "foresci demo --keep-going   # exit 0 even when a validity threshold is missed",
        ],
        PANEL,
        cls=variadic("--domains"),
    )
    def demo(
        cutoff: CutoffOpt = DEMO_CUTOFF,
        domains: DomainsOpt = None,
        workers: Annotated[
            int,
            typer.Option(
                help="partitions built at once, each in its own process with its "
                "stage lines in .foresci/release_logs/ (1: one after another "
                "in this process)"
            ),
        ] = 2,
        keep_going: Annotated[
            bool, typer.Option("--keep-going", help="exit 0 even when a family misses a validity threshold (it is still printed)")
        ] = False,
    ) -> int:
        return run_demo(cutoff, domains, workers, keep_going)

    @command(
        app,
        "demo-rediscovery",
        "the demo plus the opt-in rediscovery family, in .foresci-rediscovery",
        ["foresci demo-rediscovery --domains llm_agent"],
        PANEL,
        cls=variadic("--domains"),
    )
    def demo_rediscovery(cutoff: CutoffOpt = DEMO_CUTOFF, domains: DomainsOpt = None) -> int:
        """The default demo plus the rediscovery family (FIRE-Bench, docs/rediscovery.md), in its own
        state directory (default .foresci-rediscovery), so the default release stays as it is."""
        from assets import plugins
        from core.paths import REPO_ROOT
        from core.registry import load_registry

        os.environ.setdefault("FORESCI_HOME", str(REPO_ROOT / ".foresci-rediscovery"))
        plugins.enable(["rediscovery"])  # writes $FORESCI_HOME/plugins.yaml (assets/plugins.py)
        code = run_demo(cutoff, domains)
        if code == 0:
            from assets.rediscovery.summary import rediscovery_lines

            print("\nRediscovery (FIRE-Bench family; claim F1 in the FTA column):")
            say_lines(rediscovery_lines(store(), cutoff, domains or sorted(load_registry().domains)))
        return code

    @command(
        app,
        "demo-ideas",
        "build, answer and score the idea-review family (ScholarIdeas) offline",
        ["foresci demo-ideas", "foresci demo-ideas --limit 20 --disciplines ai neuro"],
        PANEL,
        cls=variadic("--disciplines"),
    )
    def demo_ideas(
        limit: Annotated[int | None, typer.Option(help="only the first N ideas")] = None,
        disciplines: Annotated[
            list[str] | None, typer.Option(metavar="D ...", help="ai neuro biochem eco (default: all)")
        ] = None,
        cutoff: Annotated[
            str, typer.Option(help=f"ideas whose own cutoff is on or before this (default {DEMO_CUTOFF})")
        ] = DEMO_CUTOFF,
    ) -> int:
        return run_demo_ideas(limit, disciplines, cutoff)

    @command(
        app,
        "materialize",
        "materialize all assets for one partition (a release_job run, one line or bar per stage)",
        ["foresci materialize --domain llm_agent --cutoff 2025-12-31"],
        PANEL,
    )
    def materialize(
        domain: DomainOpt,
        cutoff: CutoffOpt,
        verbose: Annotated[bool, typer.Option("--verbose", help="Dagster's INFO log lines too")] = False,
    ) -> int:
        from assets.partitions import validate_cutoff

        validate_cutoff(cutoff)
        inst = instance([cutoff])
        result = materialize_partition(inst, domain, cutoff, quiet=not verbose, progress=True)
        print(
            f"{'success' if result.success else 'failed'}: release_job run {result.run_id}"
            f"{'' if result.success else ' (details: make ui, Runs)'}"
        )
        if result.success:
            refresh_views_or_note()
        return 0 if result.success else 1

    from pipelines.cli.release import register as register_release

    register_release(app, PANEL)


def run_demo_ideas(limit: int | None, disciplines: list[str] | None, cutoff: str) -> int:
    """Build, answer and score the idea-review family (docs/idea_review.md): `idea_review_job` for
    partition (ideas, cutoff), in process; --limit/--disciplines build a sample directly."""
    from assets.idea_review.pipeline import leaderboard_lines, run_idea_review
    from core.records import Score
    from pipelines.resources import default_resources

    res = default_resources()
    st = res["storage"].store()
    start = time.time()
    if limit or disciplines:
        llm, judge = res["llm"].client(), res["judge_llm"].client()
        run = run_idea_review(
            st,
            res["embeddings"].embedder().encode,
            llm=None if llm.offline else llm,
            judge=None if judge.offline else judge,
            limit=limit,
            disciplines=disciplines or None,
            cutoff_key=cutoff,
        )
        row, scores = run.validity, run.scores
    else:
        import uuid

        import dagster as dg

        from pipelines.definitions import IDEA_REVIEW_ASSETS, idea_review_job

        inst = instance()
        seed_cutoffs(inst, [cutoff])
        job = dg.Definitions(assets=IDEA_REVIEW_ASSETS, jobs=[idea_review_job], resources=res).resolve_job_def("idea_review_job")
        result = job.execute_in_process(
            instance=inst,
            run_id=str(uuid.uuid4()),
            raise_on_error=False,
            partition_key=dg.MultiPartitionKey({"domain": "ideas", "cutoff": cutoff}),
            run_config={"loggers": {"console": {"config": {"log_level": "WARNING"}}}},
        )
        if not result.success:
            print("idea_review_job FAILED: see the run in the UI (make ui)", file=sys.stderr)
            return 1
        row = st.read_table("validity_report", "ideas", cutoff).to_pylist()[0]
        scores = st.read_records("judge_scores", "ideas", cutoff, Score)
    st.refresh_views()
    print(
        f"\nidea_review @ ideas|{cutoff}: {row['tasks_released']} tasks built, {row['tasks_dropped']} dropped "
        f"{row['drop_reasons']}; {time.time() - start:.0f}s"
    )
    print("\n".join(leaderboard_lines(row, scores, row["metric"])))
    print(
        f"validity: {'PASS' if row['passed'] else 'FAIL: ' + row['problems']} "
        f"(foresci validity --domain ideas --cutoff {cutoff}; report: foresci report --domain ideas --cutoff {cutoff})"
    )
    return 0 if row["passed"] else 2

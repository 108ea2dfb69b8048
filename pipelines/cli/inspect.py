"""Inspect what is built: leaderboard, report, validity, families, agents, scorers,
reference-validity. Each command reads the warehouse through feature code (the leaderboard:
`assets.leaderboard.board` and `.statistics`; validity: `assets.validity.summaries`; reference
validity: `assets.scorers.reference_summary`) and prints it."""

import sys
from pathlib import Path
from typing import Annotated

import typer

from pipelines.cli.common import (
    CutoffOpt,
    DomainOpt,
    Format,
    command,
    complete_domain,
    is_terminal,
    print_json,
    print_rows,
    say_lines,
    store,
    variadic,
)

PANEL = "Inspect"
FormatOpt = Annotated[Format, typer.Option("--format", help="table, or json for scripts")]


def leaderboard_task_rows(cutoff: str | None = None) -> list[dict]:
    """Released task x method rows (seeds averaged) from DuckDB, over every cutoff or one."""
    from assets.leaderboard.board import NoScoresError
    from assets.leaderboard.board import leaderboard_task_rows as rows
    from pipelines.console import UserError

    try:
        return rows(store(), cutoff)
    except NoScoresError as exc:
        raise UserError(str(exc)) from None


def leaderboard_statistics(task_rows: list[dict]) -> tuple[list[dict], list[dict]]:
    """Family x method rows (mean with bootstrap 95% CI per metric, `n`, the FTA MDD) and the FTA
    pairwise verdicts: `assets.leaderboard.statistics.method_statistics` (the release card's too)."""
    from assets.leaderboard.statistics import method_statistics

    return method_statistics(task_rows)


def leaderboard_rows(cutoff: str | None = None) -> list[dict]:
    """Family x method over released tasks (all cutoffs pooled, or one)."""
    return leaderboard_statistics(leaderboard_task_rows(cutoff))[0]


def print_leaderboard(cutoff: str | None = None, fmt: str = "table") -> None:
    from assets.leaderboard.board import footer_lines, table_rows
    from assets.leaderboard.statistics import STATISTICS_NOTE

    rows, pairs = leaderboard_statistics(leaderboard_task_rows(cutoff))
    if fmt == "json":
        print_json({"rows": rows, "pairwise": pairs, "statistics": STATISTICS_NOTE})
        return
    print_rows(table_rows(rows), title=f"Leaderboard, cutoff {cutoff}" if cutoff and is_terminal() else None)
    say_lines(footer_lines(rows, pairs))


def register(app: typer.Typer) -> None:
    @command(
        app,
        "leaderboard",
        "print the leaderboard from DuckDB: per family x method over released tasks, with "
        "95% CIs, the MDD and pairwise verdicts (metric columns from the scorer registry)",
        ["foresci leaderboard", "foresci leaderboard --cutoff 2025-12-31", "foresci leaderboard --format json"],
        PANEL,
    )
    def leaderboard(
        cutoff: Annotated[str | None, typer.Option(help="one cutoff (default: every cutoff pooled)")] = None,
        format: FormatOpt = Format.table,
    ) -> int:
        print_leaderboard(cutoff, format.value)
        return 0

    @command(
        app,
        "report",
        "print the file:// URL of a partition's HTML leaderboard report",
        ["foresci report --domain llm_agent --cutoff 2025-12-31"],
        PANEL,
    )
    def report(
        domain: DomainOpt,
        cutoff: CutoffOpt,
        path: Annotated[bool, typer.Option("--path", help="print the plain path instead of a file:// URL")] = False,
    ) -> int:
        from pipelines.console import UserError

        st = store()
        target = st.artifact_path("leaderboard", domain, cutoff, "report.html")
        if st.fs.get_file_info(target).type.name != "File":
            raise UserError(
                f"no report for {domain} @ {cutoff}: materialize the partition first "
                f"(foresci materialize --domain {domain} --cutoff {cutoff})"
            )
        print(target if path or not st.is_local else Path(target).as_uri())
        return 0

    @command(
        app,
        "validity",
        "the validity report of one release partition, or the control checks pooled over "
        "several (exit 2 if a threshold is missed)",
        [
            "foresci validity --domain llm_agent --cutoff 2025-12-31",
            "foresci validity --domain llm_agent --cutoff 2025-12-31 --sheet 2   # hand-check sheet (hidden gold)",
            "foresci validity --cutoff 2025-12-31 --sample 5 --seed 7   # blind-reading sheet over every domain",
            "foresci validity --pooled   # every built partition",
            "foresci validity --domain llm_agent rag_and_retrieval_structuring --cutoff 2025-12-31 --json",
        ],
        PANEL,
        cls=variadic("--domain", "--cutoff"),
    )
    def validity(
        domains: Annotated[
            list[str] | None,
            typer.Option(
                "--domain",
                metavar="D ...",
                autocompletion=complete_domain,
                help="one domain (with one --cutoff: that partition's report); several: pooled",
            ),
        ] = None,
        cutoffs: Annotated[
            list[str] | None,
            typer.Option(
                "--cutoff", metavar="C ...", help="one cutoff (with one --domain: that partition's report); several: pooled"
            ),
        ] = None,
        pooled: Annotated[
            bool,
            typer.Option(
                "--pooled",
                help="the control checks per family over the released tasks of every "
                "matching partition (all with a report when no --domain / --cutoff)",
            ),
        ] = False,
        json: Annotated[bool, typer.Option("--json", help="print the rows as JSON")] = False,
        sheet: Annotated[
            int,
            typer.Option(metavar="N", help="print a hand-check sheet: N released tasks per family with gold and counted papers"),
        ] = 0,
        sample: Annotated[
            int,
            typer.Option(
                metavar="N",
                help="a blind-reading sheet: N released tasks per family drawn with --seed over every matching "
                "partition (Markdown; with --json the entries)",
            ),
        ] = 0,
        seed: Annotated[int, typer.Option(help="the seed of --sample's draw (state it with the reading)")] = 0,
    ) -> int:
        from assets.validity import summaries
        from pipelines.console import UserError, check_cutoff

        st = store()
        domains, cutoffs = domains or [], [check_cutoff(c) for c in cutoffs or []]
        if sample:
            from assets.validity.review_sample import review_sample, review_sheet_lines

            drawn = review_sample(st, summaries.validity_partitions(st, domains, cutoffs), sample, seed)
            if not drawn:
                raise UserError("no released task in the matching partitions: materialize them first")
            if json:
                print_json(drawn)
            else:
                say_lines(review_sheet_lines(drawn, seed))
            return 0
        if pooled or len(domains) > 1 or len(cutoffs) > 1:
            parts = summaries.validity_partitions(st, domains, cutoffs)
            if not parts:
                raise UserError(
                    "no validity report for "
                    + (", ".join(domains) or "any domain")
                    + " @ "
                    + (", ".join(cutoffs) or "any cutoff")
                    + ": materialize the partitions first"
                )
            per_part, pooled_rows = summaries.pooled_report(st, parts)
            if json:
                print_json({"partitions": per_part, "pooled": pooled_rows})
            else:
                say_lines(summaries.pooled_lines(per_part, pooled_rows))
            return 0 if summaries.all_passed(per_part, pooled_rows) else 2
        if not (domains and cutoffs):
            raise UserError("give --domain D --cutoff C (one partition), or --pooled [--domain ...] [--cutoff ...]")
        domain, cutoff = domains[0], cutoffs[0]
        if not st.exists("validity_report", domain, cutoff):
            raise UserError(f"no validity report for {domain} @ {cutoff}: materialize the partition first")
        rows = st.read_table("validity_report", domain, cutoff).to_pylist()
        if sheet:
            say_lines(summaries.check_sheet_lines(st, domain, cutoff, sheet))
            return 0
        if json:
            print_json(rows)
        else:
            for row in rows:
                say_lines(summaries.row_lines(row))
        return 0 if all(r["passed"] for r in rows) else 2

    @command(app, "families", "list the registered task families", ["foresci families", "foresci families --format json"], PANEL)
    def families(format: FormatOpt = Format.table) -> int:
        from assets.plugins import listing

        print_rows(listing("families"), format.value)  # built-ins and every optional plugin, with whether enabled
        return 0

    @command(
        app,
        "agents",
        "list the registered agents (research methods) and configured BYO agents",
        ["foresci agents", "FORESCI_EXTERNAL_AGENTS=mine=my_agent.py:answer foresci agents --format json"],
        PANEL,
    )
    def agents(format: FormatOpt = Format.table) -> int:
        from assets.agents.external import specs_from
        from assets.plugins import listing

        rows = listing("agents")  # built-ins and every optional plugin's, with whether enabled
        rows += [
            {
                "agent": s.method,
                "needs model": "(its own)",
                "source": s.target,
                "summary": "bring-your-own agent from FORESCI_EXTERNAL_AGENTS",
            }
            for s in specs_from()
        ]
        print_rows(rows, format.value)
        return 0

    @command(
        app,
        "scorers",
        "list the registered scorers (metrics), their values and families",
        ["foresci scorers", "foresci scorers --format json"],
        PANEL,
    )
    def scorers(format: FormatOpt = Format.table) -> int:
        from assets.plugins import listing

        print_rows(listing("scorers"), format.value)  # built-ins and every optional plugin's, with whether enabled
        return 0

    @command(
        app,
        "reference-validity",
        "share of cited ids in the KB and before the cutoff, per family x method",
        ["foresci reference-validity --domain llm_agent --cutoff 2025-12-31"],
        PANEL,
    )
    def reference_validity(domain: DomainOpt, cutoff: CutoffOpt) -> int:
        from assets.scorers.reference_summary import reference_validity_rows

        try:
            rows = reference_validity_rows(store(), domain, cutoff)
        except LookupError as exc:
            print(exc, file=sys.stderr)
            return 1
        print_rows(rows)
        return 0

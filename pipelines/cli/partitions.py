"""Partitions: init (the Dagster instance), add-cutoff, remove-cutoff, partitions (what is
built). Cutoffs are checked before anything is stored (`assets.partitions.validate_cutoff`);
the instance is `pipelines.instance`."""

from typing import Annotated

import typer

from pipelines.cli.common import Format, command, print_rows, store

PANEL = "Partitions"


def register(app: typer.Typer) -> None:
    @command(app, "init", "create the Dagster instance at $DAGSTER_HOME once (safe to repeat)", ["foresci init"], PANEL)
    def init() -> int:
        from pipelines.instance import dagster_home, init_instance

        _, added = init_instance()
        print(f"Dagster instance ready at {dagster_home()}" + (f"; cutoffs added: {', '.join(added)}" if added else ""))
        return 0

    @command(
        app,
        "add-cutoff",
        "add a cutoff partition (YYYY-MM-DD)",
        ["foresci add-cutoff 2026-03-31 --horizon 3", "foresci add-cutoff 2026-07-31 --horizon 3 --prospective"],
        PANEL,
    )
    def add_cutoff(
        cutoff: Annotated[str, typer.Argument(help="the cutoff date YYYY-MM-DD")],
        horizon: Annotated[int, typer.Option(help="the future window in months: 3 or 6")] = 6,
        prospective: Annotated[
            bool,
            typer.Option("--prospective", help="accept a window that has not closed in the corpus (forecasts now, gold later)"),
        ] = False,
    ) -> int:
        from assets.partitions import validate_cutoff
        from core.registry import save_user_cutoff
        from pipelines.console import UserError
        from pipelines.instance import init_instance

        if horizon not in (3, 6):
            raise UserError(f"--horizon {horizon}: choose 3 or 6 (months)")
        validate_cutoff(cutoff, horizon, prospective=prospective)  # before anything is stored
        save_user_cutoff(cutoff, horizon, prospective=prospective)
        _, added = init_instance([cutoff])
        print(
            f"cutoff {cutoff} (horizon {horizon} months{', prospective' if prospective else ''}) "
            f"{'added' if cutoff in added else 'already present'}"
        )
        return 0

    @command(
        app,
        "remove-cutoff",
        "remove a cutoff partition from the Dagster instance (its Parquet data stays)",
        ["foresci remove-cutoff 2026-03-31"],
        PANEL,
    )
    def remove_cutoff(cutoff: Annotated[str, typer.Argument(help="the stored cutoff key (any, even a malformed one)")]) -> int:
        from core.registry import load_registry
        from pipelines.instance import remove_cutoff as remove

        done = remove(cutoff)
        print(
            f"cutoff {cutoff}: "
            + (
                "partition removed from the Dagster instance"
                if done["partition_removed"]
                else "no such partition in the Dagster instance"
            )
            + ("; removed from the user cutoffs file" if done["user_cutoff_forgotten"] else "")
            + "; Parquet data, if any, left in place"
        )
        if cutoff in load_registry().default_cutoffs:
            print("note: a registry default cutoff: `foresci init` and default_cutoffs_sensor add it back")
        return 0

    @command(
        app,
        "partitions",
        "list the built partitions: tasks built and released, validity, release package",
        ["foresci partitions", "foresci partitions --format json"],
        PANEL,
    )
    def partitions(format: Annotated[Format, typer.Option("--format", help="table, or json for scripts")] = Format.table) -> int:
        from assets.validity.summaries import partition_rows

        print_rows(partition_rows(store()), format.value)
        return 0

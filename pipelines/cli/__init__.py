"""`foresci`: the command line of the benchmark factory (typer + rich).

    foresci demo                      # default release: 4 domains at 2025-12-31, offline
    foresci materialize --domain llm_agent --cutoff 2025-12-31
    foresci leaderboard --format json
    foresci audit status --domain llm_agent --cutoff 2025-12-31
    foresci export hf --release out/foresci-release

One module per command group, each command a thin call into feature code:

    build.py, release.py  Build       demo, demo-rediscovery, demo-ideas, materialize, release
    partitions.py         Partitions  init, add-cutoff, remove-cutoff, partitions
    inspect.py            Inspect     leaderboard, report, validity, families, agents, scorers, reference-validity
    curation.py           Curation    audit status, review
    datasets.py           Datasets    import-release, export hf, evaluate, views

Commands keep their names at the top level (the groups are panels of `foresci --help`; `audit`
and `export` are sub-commands). `main(argv)` returns the exit code and never raises for a user's
mistake: a `UserError` (or an impossible cutoff, `CutoffError`) is one line `foresci: error: ...`
on stderr and exit 2, as is a usage error (click's message). Runs are recorded in the Dagster
instance at $DAGSTER_HOME, so they show in `make ui`. `foresci --install-completion` installs
shell completion.
"""

import sys

import typer

from pipelines.cli import build, curation, datasets, inspect, partitions
from pipelines.cli.common import (  # noqa: F401
    DEMO_CUTOFF,
    PARSED,
    Group,
    materialize_partition,
    print_rows,  # noqa: F401
    seed_cutoffs,
)
from pipelines.cli.common import instance as _instance  # noqa: F401
from pipelines.cli.common import refresh_views_or_note as _refresh_views_or_note  # noqa: F401
from pipelines.cli.inspect import leaderboard_rows, leaderboard_statistics, print_leaderboard  # noqa: F401

HELP = "A benchmark factory for forward-looking research judgement: seed cutoffs, build releases, show the leaderboard."
EXAMPLES = {
    "Build": ["foresci demo", "foresci materialize --domain llm_agent --cutoff 2025-12-31", "foresci release"],
    "Partitions": ["foresci init", "foresci add-cutoff 2026-03-31 --horizon 3", "foresci partitions"],
    "Inspect": [
        "foresci leaderboard --format json",
        "foresci validity --domain llm_agent --cutoff 2025-12-31",
        "foresci families",
    ],
    "Curation": ["foresci audit status --domain llm_agent --cutoff 2025-12-31", "foresci review"],
    "Datasets": [
        'foresci sql -c "SELECT family, count(*) FROM tasks GROUP BY family"',
        "foresci export hf --release out/foresci-release",
        "foresci evaluate --release tasks.jsonl --hidden hidden.jsonl --agent momentum",
    ],
}
EPILOG = (
    "[b]Examples[/b] (each command's --help has more)\n\n"
    + "\n\n".join(f"[b]{group}[/b]: " + "  ·  ".join(f"[cyan]{e}[/cyan]" for e in lines) for group, lines in EXAMPLES.items())
    + "\n\nRuns are recorded in the Dagster instance at $DAGSTER_HOME (make ui)."
)

app = typer.Typer(
    name="foresci",
    help=HELP,
    epilog=EPILOG,
    cls=Group,
    rich_markup_mode="rich",
    context_settings={"help_option_names": ["-h", "--help"]},
    no_args_is_help=True,
    pretty_exceptions_enable=False,
)
for _group in (build, partitions, inspect, curation, datasets):
    _group.register(app)


@app.callback()
def _install_plugins() -> None:
    """Before any command: the optional plugins that $FORESCI_HOME/plugins.yaml enables (the code
    location does the same on load), so every command sees the families a state directory built."""
    from assets.plugins import install_configured  # imported here: `foresci --help` stays fast

    install_configured()


def __getattr__(name: str):
    if name == "LEADERBOARD_METRICS":  # the leaderboard's metric columns, from the scorer registry
        from assets.leaderboard.columns import leaderboard_metrics

        return tuple(leaderboard_metrics())
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def _run(argv: list[str] | None) -> int:
    from core.cutoffs import CutoffError
    from pipelines.console import EXIT_USER_ERROR, UserError

    command = typer.main.get_command(app)
    try:
        code = command.main(args=list(sys.argv[1:] if argv is None else argv), prog_name="foresci", standalone_mode=False)
    except (UserError, CutoffError) as exc:
        print(f"foresci: error: {exc}", file=sys.stderr)
        return EXIT_USER_ERROR
    except typer._click.ClickException as exc:
        exc.show()
        return exc.exit_code
    except typer.Abort:
        print("Aborted!", file=sys.stderr)
        return 1
    except typer.Exit as exc:
        return exc.exit_code
    return code if isinstance(code, int) else 0


def main(argv: list[str] | None = None) -> int:
    """Run `foresci` with `argv` (default: the process's arguments); the exit code."""
    return _run(argv)


class _Parser:
    """`build_parser().parse_args(argv)`: the command and its parameters, without running it
    (the shared argument checks do run, and raise `UserError` on a bad line)."""

    def parse_args(self, argv: list[str]):
        from types import SimpleNamespace

        from pipelines.console import UserError

        token = PARSED.set([])
        try:
            command = typer.main.get_command(app)
            try:
                command.main(args=list(argv), prog_name="foresci", standalone_mode=False)
            except typer._click.ClickException as exc:
                raise UserError(exc.format_message()) from None
            parsed = PARSED.get()
        finally:
            PARSED.reset(token)
        if not parsed:
            raise UserError(f"no command in {argv!r}")
        name, params = parsed[-1]
        return SimpleNamespace(command=name, **params)


def build_parser() -> _Parser:
    return _Parser()


if __name__ == "__main__":
    sys.exit(main())

"""What every `foresci` command shares: the command class, option types, stores, output.

* `Command`: the class of every command. Before a command runs it checks the arguments every
  command shares (`pipelines.console.check_arguments`: `--domain(s)` against the registry,
  `--cutoff` a date, input files present), so a mistake is a one-line `UserError` before any
  work. Options listed in `variadic` take several values after one flag, as the argparse CLI
  did (`--domains a b c`, `--cutoffs C1 C2`): the words up to the next option are spread
  into one flag each before click parses them; a flag with no value is dropped (its default).
* `print_rows`: a listing as a rich table on a terminal, an aligned plain-text table
  otherwise (logs, pipes, tests), or JSON (`--format json`).
* `store`, `instance`, `seed_cutoffs`, `refresh_views_or_note`: the warehouse and the
  Dagster instance at $DAGSTER_HOME, imported on use so `foresci --help` loads no Dagster.
"""

import contextvars
import json
import os
import sys
from enum import Enum
from types import SimpleNamespace
from typing import Annotated

import typer
from typer.core import TyperCommand, TyperGroup

os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")

DEMO_CUTOFF = "2025-12-31"

# `pipelines.cli.parse_only`: commands record (name, parameters) here instead of running
PARSED: contextvars.ContextVar[list | None] = contextvars.ContextVar("foresci_parse_only", default=None)


class Format(str, Enum):  # noqa: UP042 - the str-and-Enum form typer documents for choices
    table = "table"
    json = "json"


def spread_variadic(args: list[str], variadic: set[str]) -> list[str]:
    """`--domains a b --x` -> `--domains a --domains b --x`; a variadic flag with no value is
    dropped; `--` ends the options."""
    out, i = [], 0
    while i < len(args):
        word = args[i]
        if word == "--":
            return out + args[i:]
        if word in variadic:
            i += 1
            while i < len(args) and not args[i].startswith("-"):
                out += [word, args[i]]
                i += 1
            continue
        out.append(word)
        i += 1
    return out


class Command(TyperCommand):
    variadic: frozenset[str] = frozenset()

    def parse_args(self, ctx, args: list[str]) -> list[str]:
        return super().parse_args(ctx, spread_variadic(list(args), set(self.variadic)))

    def invoke(self, ctx):
        from pipelines.console import check_arguments

        check_arguments(SimpleNamespace(command=ctx.info_name, **ctx.params))
        parsed = PARSED.get()
        if parsed is not None:
            parsed.append((ctx.info_name, dict(ctx.params)))
            return 0
        return super().invoke(ctx)


def variadic(*flags: str) -> type[Command]:
    """The command class whose `flags` take several values each."""
    return type("VariadicCommand", (Command,), {"variadic": frozenset(flags)})


class Group(TyperGroup):
    """A command group whose commands default to `Command`."""


def sub_app(parent: typer.Typer, name: str, help: str, examples: list[str] = (), panel: str | None = None) -> typer.Typer:
    """A command group `foresci <name> ...` under `parent`, shown in `panel` of the parent's help."""
    app = typer.Typer(
        name=name,
        help=help,
        epilog=examples_text(examples),
        cls=Group,
        no_args_is_help=True,
        rich_markup_mode="rich",
        add_completion=False,
    )
    parent.add_typer(app, rich_help_panel=panel)
    return app


def command(
    app: typer.Typer, name: str, help: str, examples: list[str] = (), panel: str | None = None, cls: type[Command] = Command, **kw
):
    """`app.command` with `Command` as the class, the help and an epilog of examples."""
    return app.command(name, cls=cls, help=help, epilog=examples_text(examples), rich_help_panel=panel, **kw)


def examples_text(examples) -> str | None:
    if not examples:
        return None
    return "[b]Examples[/b]\n\n" + "\n\n".join(escape(e) for e in examples)


def escape(text: str) -> str:
    from rich.markup import escape as rich_escape

    return rich_escape(text)


# -- shell completion of domains and cutoffs (`foresci --install-completion`) --------------------


def complete_domain(incomplete: str) -> list[str]:
    """The registered domains (and the idea-review pseudo-domain) that start with `incomplete`."""
    from assets.idea_review.family import DOMAIN as IDEAS
    from core.registry import load_registry

    return [d for d in [*sorted(load_registry().domains), IDEAS] if d.startswith(incomplete)]


def complete_cutoff(incomplete: str) -> list[str]:
    """The registry's default cutoffs and the user's added ones that start with `incomplete`."""
    from core.registry import load_registry, load_user_cutoffs

    return sorted(c for c in set(load_registry().default_cutoffs) | set(load_user_cutoffs()) if c.startswith(incomplete))


DomainOpt = Annotated[
    str, typer.Option(help="a registered domain (foresci partitions lists the built ones)", autocompletion=complete_domain)
]
CutoffOpt = Annotated[str, typer.Option(help="the cutoff date YYYY-MM-DD", autocompletion=complete_cutoff)]


# -- output ---------------------------------------------------------------------------------------


def is_terminal() -> bool:
    """stdout is a terminal (rich tables, colours); else plain lines for logs, pipes and tests."""
    from rich.console import Console

    return Console(file=sys.stdout).is_terminal


def print_json(doc, **kw) -> None:
    print(json.dumps(doc, indent=2, default=str, **kw))


def print_rows(rows: list[dict], fmt: str = "table", title: str | None = None) -> None:
    """A listing as a table (rich on a terminal, aligned plain text otherwise), or JSON for scripts."""
    if fmt == "json":
        print(json.dumps(rows, indent=2))
        return
    if not rows:
        print("(none)")
        return
    cols = list(dict.fromkeys(c for r in rows for c in r))
    if is_terminal():
        from rich.console import Console
        from rich.table import Table

        table = Table(title=title, header_style="bold", show_edge=False, pad_edge=False)
        for c in cols:
            numeric = all(isinstance(r.get(c), (int, float)) or r.get(c) in ("–", None) for r in rows)
            table.add_column(c, justify="right" if numeric else "left", overflow="fold")
        for r in rows:
            table.add_row(*(escape(str(r.get(c, ""))) for c in cols))
        Console(file=sys.stdout).print(table)
        return
    if title:
        print(title)
    widths = {c: max(len(c), *(len(str(r.get(c, ""))) for r in rows)) for c in cols}
    print("  ".join(c.ljust(widths[c]) for c in cols).rstrip())
    for r in rows:
        print("  ".join(str(r.get(c, "")).ljust(widths[c]) for c in cols).rstrip())


def say_lines(lines, file=None) -> None:
    for line in lines:
        print(line, file=file or sys.stdout)


# -- the warehouse and the Dagster instance -------------------------------------------------------


def store():
    from pipelines.resources import default_resources

    return default_resources()["storage"].store()


def instance(extra_cutoffs: list[str] = ()):
    """The instance at $DAGSTER_HOME, initialised once under a lock (pipelines/instance.py)."""
    from pipelines.instance import init_instance

    return init_instance(extra_cutoffs)[0]


def seed_cutoffs(inst, extra: list[str] = ()) -> list[str]:
    """Add the registry's default cutoffs and `extra` to the instance's cutoff partitions."""
    from assets.partitions import CUTOFF_PARTITIONS
    from core.registry import load_registry

    wanted = sorted(set(load_registry().default_cutoffs) | set(extra))
    existing = set(inst.get_dynamic_partitions(CUTOFF_PARTITIONS.name))
    missing = [c for c in wanted if c not in existing]
    if missing:
        inst.add_dynamic_partitions(CUTOFF_PARTITIONS.name, missing)
    return missing


def materialize_partition(inst, domain: str, cutoff: str, **kw):
    """`pipelines.runs.materialize_partition` (partition runs live there, shared by materialize,
    demo and the release; imported on use, so `foresci --help` does not load Dagster)."""
    from pipelines.runs import materialize_partition as run

    return run(inst, domain, cutoff, **kw)


def refresh_views_or_note() -> None:
    """Runs never write the analysts' DuckDB file; the CLI refreshes it after one, unless a
    session holds it open (its views already see the new Parquet files)."""
    try:
        store().refresh_views()
    except RuntimeError as exc:
        print(f"note: DuckDB views not refreshed ({exc}); run `foresci views` later", file=sys.stderr)

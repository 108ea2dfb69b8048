"""Datasets: import-release (the ForeSci authors' format), export hf (Hugging Face datasets,
docs/export.md), evaluate (score agents on an imported release end to end), views and sql (the DuckDB
views). The work is in `assets.release.importer`, `assets.export.hf`, `pipelines.export`,
`assets.release.evaluate` and `pipelines.evaluate_job`.

`foresci evaluate` exit codes: 0 ok; 2 a user error (no hidden file without --no-gold, a file not
found, an --agent that names no built-in method and no loadable agent); 3 a family whose controls
miss the thresholds (its scores do not mean what they say) or a task without gold. `--dagster` runs
the same path as `imported_evaluation_job` in the release's own partition, recorded in the instance
at $DAGSTER_HOME, and prints the same output from the materialization's metadata.
"""

import json
import sys
import time
from pathlib import Path
from typing import Annotated

import typer

from pipelines.cli.common import Format, command, instance, print_rows, seed_cutoffs, store, sub_app

PANEL = "Datasets"
EXIT_CONTROLS_FAILED = 3


def register(app: typer.Typer) -> None:
    @command(
        app,
        "import-release",
        "import a release in the ForeSci authors' format",
        [
            "foresci import-release tasks.jsonl --hidden tasks_hidden_eval.jsonl",
            "foresci import-release tasks.jsonl --no-gold --domain llm_agent",
        ],
        PANEL,
    )
    def import_release(
        tasks: Annotated[str, typer.Argument(help="their public tasks.jsonl")],
        hidden: Annotated[str | None, typer.Option(help="their hidden evaluation JSONL (tasks_hidden_eval.jsonl)")] = None,
        domain: Annotated[str | None, typer.Option(help="keep only this foresci domain")] = None,
        cutoff: Annotated[str | None, typer.Option(help="keep only this cutoff (YYYY-MM-DD)")] = None,
        no_gold: Annotated[bool, typer.Option("--no-gold", help="no hidden file: import for answering only")] = False,
    ) -> int:
        return run_import(tasks, hidden, domain, cutoff, no_gold)

    export = sub_app(
        app,
        "export",
        "export a release (Hugging Face datasets; docs/export.md)",
        [
            "foresci export hf --domain llm_agent --cutoff 2025-12-31 out/foresci",
            "foresci export hf --release out/foresci-release",
        ],
        PANEL,
    )

    @command(
        export,
        "hf",
        "a release as a Hugging Face dataset folder + a private gold folder: upload the first to a "
        "public repository and the second (default OUT-private, outside OUT) to a private one; Inspect AI runs "
        "on the pair. --release exports the whole release of the latest release card (or --name's): every "
        "built partition, a split per cutoff, the card and the method statistics",
        [
            "foresci export hf --domain llm_agent --cutoff 2025-12-31 out/foresci-release",
            "foresci export hf --domain llm_agent --domain rag_and_retrieval_structuring --cutoff 2025-12-31 out/r "
            "--private-dir secrets/r-gold",
            "foresci export hf --release out/foresci-release            # the whole release (every cutoff)",
            "foresci export hf --release --name v1.0 out/foresci-v1.0   # a named release's card",
        ],
    )
    def hf(
        out: Annotated[str, typer.Argument(help="the public dataset folder (created; existing files are overwritten)")],
        domains: Annotated[
            list[str] | None, typer.Option("--domain", help="a released domain (repeat for several partitions in one dataset)")
        ] = None,
        cutoff: Annotated[str | None, typer.Option()] = None,
        release: Annotated[
            bool,
            typer.Option("--release", help="the whole release of the release card (every built partition, a split per cutoff)"),
        ] = False,
        name: Annotated[
            str, typer.Option(help="with --release: the release's name (or r-<card version>); default: the latest card")
        ] = "",
        private_dir: Annotated[str | None, typer.Option(help="the hidden gold's folder (default: <OUT>-private)")] = None,
    ) -> int:
        return run_export_hf(out, domains or [], cutoff, release, name, private_dir)

    @command(
        app,
        "evaluate",
        "score agents on a release in the ForeSci authors' format (import, KB, agents, scores, "
        "controls); exit 3 when a family's controls fail or a task has no gold",
        [
            "foresci evaluate --release tasks.jsonl --hidden tasks_hidden_eval.jsonl --agent momentum "
            "--agent mine=path/to/agent.py:answer",
            "foresci evaluate --release tasks.jsonl --hidden tasks_hidden_eval.jsonl --agent momentum --format json",
            "foresci evaluate --release tasks.jsonl --hidden tasks_hidden_eval.jsonl --agent momentum --dagster",
        ],
        PANEL,
    )
    def evaluate(
        release: Annotated[str, typer.Option(help="their public tasks.jsonl")],
        hidden: Annotated[str | None, typer.Option(help="their hidden evaluation JSONL (tasks_hidden_eval.jsonl)")] = None,
        no_gold: Annotated[bool, typer.Option("--no-gold", help="no hidden file: answer only, nothing is scored")] = False,
        agents: Annotated[
            list[str] | None, typer.Option("--agent", help="a built-in method (e.g. momentum) or NAME=PATH:FUNCTION (repeatable)")
        ] = None,
        domain: Annotated[str | None, typer.Option(help="keep only this foresci domain")] = None,
        cutoff: Annotated[str | None, typer.Option(help="keep only this cutoff (YYYY-MM-DD)")] = None,
        format: Annotated[Format, typer.Option("--format", help="table, or json for scripts")] = Format.table,
        dagster: Annotated[
            bool,
            typer.Option(
                "--dagster",
                help="run it as imported_evaluation_job in the release's own partition, recorded in the "
                "Dagster instance (pipelines/evaluate_job.py); same output and exit codes",
            ),
        ] = False,
        partition_key: Annotated[
            bool, typer.Option("--partition-key", help="print the release's partition key (imported_release dimension) and exit")
        ] = False,
        name: Annotated[
            str, typer.Option(help="the release's name in its partition key (default: the tasks file's folder name)")
        ] = "",
    ) -> int:
        return run_evaluate(release, hidden, no_gold, agents or [], domain, cutoff, format.value, dagster, partition_key, name)

    @command(app, "views", "(re)create the DuckDB views", ["foresci views"], PANEL)
    def views() -> int:
        for view in store().refresh_views():
            print(view)
        return 0

    @command(
        app,
        "sql",
        "query the warehouse's DuckDB views from any folder: -c for one query (table, csv or "
        "json), else an interactive shell (statements end with ';', .tables, .quit)",
        [
            'foresci sql -c "SELECT family, count(*) AS n FROM tasks GROUP BY family"',
            'foresci sql -c "SELECT * FROM leaderboard_overall" --format json',
            "foresci sql --db /data/copy-of-foresci     # a moved or copied data folder",
            "foresci sql                                 # the interactive shell",
        ],
        PANEL,
    )
    def sql(
        query: Annotated[str | None, typer.Option("-c", "--command", help="one query; print its result and exit")] = None,
        format: Annotated[str, typer.Option(help="table, csv or json (with -c)")] = "table",
        db: Annotated[
            str | None, typer.Option(help="the views file or its folder (default: the warehouse's foresci.duckdb)")
        ] = None,
    ) -> int:
        return run_sql(query, format, db)


def run_sql(query: str | None, fmt: str, db: str | None) -> int:
    """`foresci sql`: the views opened as `foresci.connect()` opens them (pipelines/sql_shell.py)."""
    import duckdb

    from pipelines.console import UserError
    from pipelines.sql_shell import FORMATS, format_result, shell
    from resources.duckdb_views import open_views

    if fmt not in FORMATS:
        raise UserError(f"--format {fmt!r}: one of {', '.join(FORMATS)}")
    try:
        con = open_views(db) if db else store().connect()
    except (FileNotFoundError, duckdb.IOException) as exc:
        raise UserError(str(exc)) from exc
    with con:
        if query is None:
            return 1 if shell(con) else 0
        try:
            print(format_result(con, query, fmt), end="" if fmt == "csv" else "\n")
        except duckdb.Error as exc:
            raise UserError(f"DuckDB: {exc}") from exc
    return 0


def run_import(tasks: str, hidden: str | None, domain: str | None, cutoff: str | None, no_gold: bool) -> int:
    from assets.release.importer import MissingGoldError, import_release, write_import
    from core.registry import save_user_cutoff
    from pipelines.console import UserError

    try:
        result = import_release(tasks, hidden, domain=domain, cutoff=cutoff, no_gold=no_gold)
    except MissingGoldError as exc:
        raise UserError(str(exc)) from exc
    counts = write_import(store(), result, source=Path(tasks).parent.name)
    for (d, c), n in counts.items():
        horizons = {t.horizon for t in result.tasks if t.domain == d and t.cutoff.isoformat() == c}
        try:
            save_user_cutoff(c, 3 if horizons == {"3-month"} else 6)
        except ValueError:
            pass
        print(f"{d} @ {c}: {n} tasks, {sum(g.domain == d and g.cutoff.isoformat() == c for g in result.golds)} gold")
    try:
        seed_cutoffs(instance(), sorted({c for _, c in counts}))
    except Exception as exc:  # noqa: BLE001 - the files are written; partitions can be added later
        print(f"note: could not register the cutoff partitions in Dagster ({exc}); run `foresci add-cutoff`")
    if result.unmapped:
        print("fields not mapped (rows carrying them): " + ", ".join(f"{k} ({n})" for k, n in sorted(result.unmapped.items())))
    print(f"{len(result.failures)} failure row(s)")
    for f in result.failures[:10]:
        print(f"  {f.item_id}: {f.reason}")
    print(
        "Next: `foresci evaluate --release ... --hidden ... --agent ...` scores agents on it in one command; "
        "or materialize corpus_snapshot and knowledge_base for each partition, then agent_answers, judge_scores "
        "and leaderboard (never `tasks`, which would replace the import)."
    )
    if result.answers_only:
        print("answers only: imported without gold (--no-gold); nothing will be scored")
    elif result.missing_gold:
        print(f"foresci: {len(result.missing_gold)} task(s) without gold", file=sys.stderr)
        return 3
    return 0


def run_export_hf(out: str, domains: list[str], cutoff: str | None, release: bool, name: str, private_dir: str | None) -> int:
    from assets.export.hf import ExportError, default_private_dir, export_hf, read_release
    from pipelines.console import UserError
    from pipelines.export import release_export

    if (domains or cutoff) if release else not (domains and cutoff):
        raise UserError("give either --release [--name N] or --domain D [--domain D2 ...] --cutoff C")
    if name and not release:
        raise UserError("--name goes with --release")
    st = store()
    out_dir = Path(out)
    private = Path(private_dir) if private_dir else default_private_dir(out_dir)
    started = time.perf_counter()
    try:
        export = release_export(st, name) if release else export_hf([read_release(st, d, cutoff) for d in domains])
        sizes = export.write(out_dir, private)
    except ExportError as exc:
        raise UserError(str(exc)) from exc
    if export.splits:
        splits = sorted({s for rows in export.splits.values() for s in rows})
        print(f"splits: {', '.join(splits)}")
        for config, rows in export.splits.items():
            print(f"  {config:>10}: " + ", ".join(str(rows.get(s, 0)) for s in splits) + f"  (total {sum(rows.values())})")
    configs = ", ".join(f"{config} ({rows})" for config, rows in export.configs.items())
    print(f"public dataset: {out_dir}  ({sizes['public']:,} bytes; configs: {configs})")
    print(f"private gold:   {private}  ({sizes['private']:,} bytes): upload to a PRIVATE repository only")
    print(
        f"written in {time.perf_counter() - started:.1f} s; load with "
        f"datasets.load_dataset({str(out_dir)!r}, name=<config>, split={'<split>' if export.splits else repr('test')})"
    )
    return 0


def run_evaluate(
    release: str,
    hidden: str | None,
    no_gold: bool,
    agents: list[str],
    domain: str | None,
    cutoff: str | None,
    fmt: str,
    dagster: bool,
    partition_key: bool,
    name: str,
) -> int:
    from assets.release.evaluate import AgentSpecError, evaluate_release
    from assets.release.importer import MissingGoldError
    from pipelines.console import UserError

    if partition_key or dagster:
        from pipelines.evaluate_job import release_partition_key

        for path in (release, hidden):
            if path and not Path(path).is_file():
                raise UserError(f"release file not found: {path}")
        if partition_key:
            print(release_partition_key(release, hidden, name))
            return 0
    try:
        if dagster:
            doc = evaluate_in_dagster(release, hidden, no_gold, agents, domain, cutoff, name)
        else:
            doc = evaluate_release(release, hidden, agents, no_gold=no_gold, domain=domain, cutoff=cutoff).document()
    except (MissingGoldError, AgentSpecError, FileNotFoundError) as exc:
        raise UserError(str(exc)) from exc
    return print_evaluation(doc, fmt)


def print_evaluation(doc: dict, fmt: str = "table") -> int:
    """Print an evaluation document (`Evaluation.document()`); the exit code (module docstring)."""
    imp = doc["import"]
    if fmt == "json":
        print(json.dumps(doc, default=str))
    else:
        print_rows(doc["scores"])
        if doc["controls"]:
            print(
                "\nRelease controls (mean FTA per family; ref_wins: share of pairs where a task's reference "
                "beats another task's reference):"
            )
            print_rows(doc["controls"])
        print(
            f"\n{imp['tasks']} tasks, {imp['gold']} with gold; {len(imp['failures'])} import "
            f"note(s), {len(doc['agent_failures'])} agent/scoring failure(s)"
        )
        for f in doc["agent_failures"][:10]:
            print(f"  {f['item_id']}: {f['reason']}")
    bad = [r["family"] for r in doc["controls"] if r.get("problems")]
    missing = [] if imp["answers_only"] else imp["missing_gold"]
    if bad:
        print(f"foresci: controls fail for {', '.join(bad)}: these scores do not mean what they say", file=sys.stderr)
    if missing:
        print(f"foresci: {len(missing)} task(s) without gold", file=sys.stderr)
    return EXIT_CONTROLS_FAILED if bad or missing else 0


def evaluate_in_dagster(
    release: str, hidden: str | None, no_gold: bool, agents: list[str], domain: str | None, cutoff: str | None, name: str
) -> dict:
    """`--dagster`: imported_evaluation_job in the release's partition (added if new), in this
    process, recorded in the instance at $DAGSTER_HOME; the evaluation document read back from
    the materialization's metadata."""
    from assets.release.evaluate import check_agents
    from assets.release.importer import MissingGoldError
    from pipelines.console import UserError
    from pipelines.evaluate_job import ImportedEvaluationConfig, evaluation_document, run_imported_evaluation
    from pipelines.instance import init_instance

    if not hidden and not no_gold:
        raise MissingGoldError("no hidden evaluation file given: pass --hidden, or --no-gold to answer only")
    check_agents(agents)
    inst, _ = init_instance()
    config = ImportedEvaluationConfig(
        release=release,
        hidden=hidden or "",
        no_gold=no_gold,
        agents=list(agents),
        domain=domain or "",
        cutoff=cutoff or "",
        name=name,
    )
    key, result = run_imported_evaluation(inst, config)
    if not result.success:
        raise UserError(f"imported_evaluation_job failed for partition {key} (run {result.run_id}); see `make ui`")
    print(f"imported_evaluation_job: partition {key}, run {result.run_id}", file=sys.stderr)
    return evaluation_document(result)

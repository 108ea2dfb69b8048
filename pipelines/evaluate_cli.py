"""`foresci evaluate`: score agents on a release in the ForeSci authors' format, end to end.

    foresci evaluate --release tasks.jsonl --hidden tasks_hidden_eval.jsonl \
        --agent momentum --agent mine=path/to/agent.py:answer [--format json]

Imports the release (its tasks are never rebuilt), builds each (domain, cutoff)'s knowledge
base from the shipped corpus, runs every agent (a built-in method by name, or a
bring-your-own agent NAME=PATH:FUNCTION / NAME=module:function / NAME=http://...; docs/agents.md),
scores the answers and prints per family and agent the mean scores (FTA and the other
offline metrics; `--format json`: rows {family, agent, n, fta, ...}), then the release
controls per family (assets/release/evaluate.py). Exit codes: 0 ok; 2 a user error (no
hidden file without --no-gold, a file not found, an --agent
that names no built-in method and no loadable agent); 3 a family whose controls miss the
thresholds (its scores do not mean what they say) or a task without gold.

`--dagster` runs the same path as `imported_evaluation_job` in the release's own partition
(pipelines/evaluate_job.py: the partition is added, the run recorded in the instance at
$DAGSTER_HOME, so it shows in `make ui`), and prints the same output from the
materialization's metadata; `--partition-key` prints that partition's key (for the UI).
"""

from __future__ import annotations

import json

EXIT_CONTROLS_FAILED = 3


def add_evaluate_parser(sub) -> None:
    ev = sub.add_parser("evaluate", help="score agents on a release in the ForeSci authors' format (import, KB, "
                                         "agents, scores, controls)")
    ev.add_argument("--release", required=True, help="their public tasks.jsonl")
    ev.add_argument("--hidden", help="their hidden evaluation JSONL (tasks_hidden_eval.jsonl)")
    ev.add_argument("--no-gold", action="store_true", help="no hidden file: answer only, nothing is scored")
    ev.add_argument("--agent", dest="agents", action="append", default=[],
                    help="a built-in method (e.g. momentum) or NAME=PATH:FUNCTION (repeatable)")
    ev.add_argument("--domain", help="keep only this foresci domain")
    ev.add_argument("--cutoff", help="keep only this cutoff (YYYY-MM-DD)")
    ev.add_argument("--format", choices=("table", "json"), default="table")
    ev.add_argument("--dagster", action="store_true",
                    help="run it as imported_evaluation_job in the release's own partition, recorded in the "
                         "Dagster instance (pipelines/evaluate_job.py); same output and exit codes")
    ev.add_argument("--partition-key", action="store_true",
                    help="print the release's partition key (imported_release dimension) and exit")
    ev.add_argument("--name", default="", help="the release's name in its partition key (default: the tasks "
                                               "file's folder name)")
    ev.set_defaults(func=cmd_evaluate)


def print_rows(rows: list[dict]) -> None:
    """An aligned text table (the listing format of `pipelines.cli`, which imports this module)."""
    if not rows:
        print("(none)")
        return
    cols = list(dict.fromkeys(c for r in rows for c in r))
    widths = {c: max(len(c), *(len(str(r.get(c, ""))) for r in rows)) for c in cols}
    print("  ".join(c.ljust(widths[c]) for c in cols).rstrip())
    for r in rows:
        print("  ".join(str(r.get(c, "")).ljust(widths[c]) for c in cols).rstrip())


def cmd_evaluate(args) -> int:
    from assets.release.evaluate import AgentSpecError, evaluate_release
    from assets.release.importer import MissingGoldError
    from pipelines.console import UserError

    if args.partition_key or args.dagster:
        from pathlib import Path

        from pipelines.evaluate_job import release_partition_key

        for path in (args.release, args.hidden):
            if path and not Path(path).is_file():
                raise UserError(f"release file not found: {path}")
        if args.partition_key:
            print(release_partition_key(args.release, args.hidden, args.name))
            return 0
    try:
        if args.dagster:
            doc = _evaluate_in_dagster(args)
        else:
            doc = evaluate_release(args.release, args.hidden, args.agents, no_gold=args.no_gold, domain=args.domain,
                                   cutoff=args.cutoff).document()
    except (MissingGoldError, AgentSpecError, FileNotFoundError) as exc:
        raise UserError(str(exc)) from exc
    return print_evaluation(doc, args.format)


def print_evaluation(doc: dict, fmt: str = "table") -> int:
    """Print an evaluation document (`Evaluation.document()`); the exit code (module docstring)."""
    import sys

    imp = doc["import"]
    if fmt == "json":
        print(json.dumps(doc, default=str))
    else:
        print_rows(doc["scores"])
        if doc["controls"]:
            print("\nRelease controls (mean FTA per family; ref_wins: share of pairs where a task's reference "
                  "beats another task's reference):")
            print_rows(doc["controls"])
        print(f"\n{imp['tasks']} tasks, {imp['gold']} with gold; {len(imp['failures'])} import "
              f"note(s), {len(doc['agent_failures'])} agent/scoring failure(s)")
        for f in doc["agent_failures"][:10]:
            print(f"  {f['item_id']}: {f['reason']}")
    bad = [r["family"] for r in doc["controls"] if r.get("problems")]
    missing = [] if imp["answers_only"] else imp["missing_gold"]
    if bad:
        print(f"foresci: controls fail for {', '.join(bad)}: these scores do not mean what they say", file=sys.stderr)
    if missing:
        print(f"foresci: {len(missing)} task(s) without gold", file=sys.stderr)
    return EXIT_CONTROLS_FAILED if bad or missing else 0


def _evaluate_in_dagster(args) -> dict:
    """`--dagster`: imported_evaluation_job in the release's partition (added if new), in this
    process, recorded in the instance at $DAGSTER_HOME; the evaluation document read back from
    the materialization's metadata."""
    import sys

    from assets.release.evaluate import check_agents
    from assets.release.importer import MissingGoldError
    from pipelines.console import UserError
    from pipelines.evaluate_job import ImportedEvaluationConfig, evaluation_document, run_imported_evaluation
    from pipelines.instance import init_instance

    if not args.hidden and not args.no_gold:
        raise MissingGoldError("no hidden evaluation file given: pass --hidden, or --no-gold to answer only")
    check_agents(args.agents)
    instance, _ = init_instance()
    config = ImportedEvaluationConfig(release=args.release, hidden=args.hidden or "", no_gold=args.no_gold,
                                      agents=list(args.agents), domain=args.domain or "", cutoff=args.cutoff or "",
                                      name=args.name)
    key, result = run_imported_evaluation(instance, config)
    if not result.success:
        raise UserError(f"imported_evaluation_job failed for partition {key} (run {result.run_id}); see `make ui`")
    print(f"imported_evaluation_job: partition {key}, run {result.run_id}", file=sys.stderr)
    return evaluation_document(result)

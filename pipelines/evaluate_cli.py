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
    ev.add_argument("--agent", dest="agents", action="append", required=True,
                    help="a built-in method (e.g. momentum) or NAME=PATH:FUNCTION (repeatable)")
    ev.add_argument("--domain", help="keep only this foresci domain")
    ev.add_argument("--cutoff", help="keep only this cutoff (YYYY-MM-DD)")
    ev.add_argument("--format", choices=("table", "json"), default="table")
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

    try:
        ev = evaluate_release(args.release, args.hidden, args.agents, no_gold=args.no_gold, domain=args.domain,
                              cutoff=args.cutoff)
    except (MissingGoldError, AgentSpecError, FileNotFoundError) as exc:
        raise UserError(str(exc)) from exc
    if args.format == "json":
        print(json.dumps({"scores": ev.rows, "controls": ev.controls,
                          "import": {"tasks": len(ev.result.tasks), "gold": len(ev.result.golds),
                                     "answers_only": ev.result.answers_only,
                                     "missing_gold": ev.result.missing_gold,
                                     "unmapped": ev.result.unmapped,
                                     "failures": [f.model_dump() for f in ev.result.failures]},
                          "agent_failures": [f.model_dump() for f in ev.failures]}, default=str))
    else:
        print_rows(ev.rows)
        if ev.controls:
            print("\nRelease controls (mean FTA per family; ref_wins: share of pairs where a task's reference "
                  "beats another task's reference):")
            print_rows(ev.controls)
        print(f"\n{len(ev.result.tasks)} tasks, {len(ev.result.golds)} with gold; {len(ev.result.failures)} import "
              f"note(s), {len(ev.failures)} agent/scoring failure(s)")
        for f in ev.failures[:10]:
            print(f"  {f.item_id}: {f.reason}")
    bad = ev.failed_families
    if bad or (ev.result.missing_gold and not ev.result.answers_only):
        import sys

        if bad:
            print(f"foresci: controls fail for {', '.join(bad)}: these scores do not mean what they say",
                  file=sys.stderr)
        if ev.result.missing_gold:
            print(f"foresci: {len(ev.result.missing_gold)} task(s) without gold", file=sys.stderr)
        return EXIT_CONTROLS_FAILED
    return 0

"""What the `foresci` command says: one-line user errors, per-stage progress of a run.

A mistake in the command's input (unknown domain, a cutoff that is not a date, a partition
that was never built, a file that is not there) is a `UserError`: the CLI prints one line
on stderr and exits 2, with no traceback. A traceback is kept for what is a bug.
"""

from __future__ import annotations

import resource
import sys
import time
from pathlib import Path
from typing import TextIO

EXIT_USER_ERROR = 2


class UserError(Exception):
    """Wrong input to a command: shown as `foresci: error: <message>`, exit status 2."""


def check_domain(name: str) -> str:
    from assets.idea_review.family import DOMAIN as IDEAS  # the opt-in idea-review family's pseudo-domain
    from core.registry import load_registry

    known = sorted(load_registry().domains) + [IDEAS]
    if name not in known:
        raise UserError(f"unknown domain {name!r}; known: {', '.join(known)}")
    return name


def check_cutoff(text: str) -> str:
    """The cutoff as its partition key; a date YYYY-MM-DD (also keeps it out of file paths and SQL)."""
    from core.registry import parse_cutoff

    try:
        day = parse_cutoff(text)
    except ValueError:
        raise UserError(f"cutoff {text!r} is not a date YYYY-MM-DD") from None
    if day.isoformat() != text:  # e.g. "20251231": a date, but not the partition key users see
        raise UserError(f"cutoff {text!r} is not written YYYY-MM-DD (did you mean {day.isoformat()}?)")
    return text


def check_file(path: str) -> Path:
    p = Path(path)
    if not p.is_file():
        raise UserError(f"no such file: {path}")
    return p


def check_arguments(args) -> None:
    """Validate the arguments every command shares before any work: `--domain(s)` against the
    registry, `--cutoff` as a date, input files present. Raises `UserError`."""
    if getattr(args, "domain", None):
        check_domain(args.domain)
    for d in getattr(args, "domains", None) or ():
        check_domain(d)
    # remove-cutoff takes any stored key: removing a malformed one is its purpose
    if getattr(args, "cutoff", None) and getattr(args, "command", None) != "remove-cutoff":
        check_cutoff(args.cutoff)
    for name in ("tasks", "hidden"):  # import-release inputs
        if getattr(args, name, None):
            check_file(getattr(args, name))


class StageProgress:
    """Per-stage progress of one run from its Dagster events, one line per finished asset:

        [3/17] taxonomy … 754 nodes (12.3 s, peak 912 MiB)

    Register with `instance.add_event_listener(run_id, progress)`; failed asset checks and
    failed steps get their own line. The count is the asset's materialization metadata
    (`rows`, or the first whole-number entry)."""

    def __init__(self, asset_names: list[str], out: TextIO | None = None, indent: str = ""):
        self.assets = list(asset_names)
        self.indent = indent  # `foresci demo` nests the stages under its per-domain lines
        self.out = out or sys.stderr
        self.done: list[str] = []
        self.counts: dict[str, str] = {}
        self.started = time.monotonic()

    def __call__(self, record) -> None:
        event = record.dagster_event
        if event is None:
            return
        kind = event.event_type_value
        if kind == "ASSET_MATERIALIZATION":
            mat = event.event_specific_data.materialization
            name = mat.asset_key.to_user_string()
            self.counts[name] = count_text(mat.metadata, ROW_NOUNS.get(name, "rows"))
        elif kind == "STEP_SUCCESS" and event.step_key in self.assets:
            self.done.append(event.step_key)
            seconds = event.event_specific_data.duration_ms / 1000
            count = self.counts.get(event.step_key, "")
            # the process's peak memory so far: steps run in process, so the stage that raised it shows
            peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
            self._say(
                f"[{len(self.done)}/{len(self.assets)}] {event.step_key} … "
                f"{count + ' ' if count else ''}({seconds:.1f} s, peak {peak:,.0f} MiB)"
            )
        elif kind == "STEP_FAILURE":
            error = event.event_specific_data.error
            self._say(f"FAILED {event.step_key}: {error.message.strip().splitlines()[-1] if error else ''}")
        elif kind == "ASSET_CHECK_EVALUATION":
            check = event.event_specific_data
            if not check.passed:
                self._say(f"  check {check.asset_key.to_user_string()}:{check.check_name} failed")

    def _say(self, line: str) -> None:
        print(self.indent + line, file=self.out, flush=True)


# The materialization metadata entry that says how much a stage produced, by preference.
COUNT_KEYS = ("rows", "nodes", "papers", "tasks", "records", "signals", "answers")
# What one stored row of each asset is (docs/architecture.md, "What each asset holds").
ROW_NOUNS = {
    "corpus_snapshot": "papers",
    "future_window": "papers",
    "paper_metadata": "papers",
    "paper_fulltext": "papers",
    "knowledge_base": "papers",
    "taxonomy": "nodes",
    "evidence_records": "records",
    "research_signals": "signals",
    "tasks": "tasks",
    "gold_targets": "gold targets",
    "task_ranking": "tasks",
    "agent_answers": "answers",
    "judge_scores": "scores",
    "validity_report": "families",
    "corpus_volume": "months x labels",
}


def count_text(metadata: dict, row_noun: str = "rows") -> str:
    """'754 nodes' from an asset's metadata: `rows` (as `row_noun`) or another preferred key,
    else the first whole number."""
    values = {k: getattr(v, "value", v) for k, v in metadata.items()}
    ints = {k: v for k, v in values.items() if isinstance(v, int) and not isinstance(v, bool)}
    for key in COUNT_KEYS:
        if key in ints:
            return f"{ints[key]} {row_noun if key == 'rows' else key}"
    for key, v in ints.items():
        return f"{v} {key}"
    return ""

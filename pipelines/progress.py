"""Progress of partition runs on a terminal: rich progress bars, with plain lines otherwise.

* `stage_listener(assets, indent)`: the Dagster event listener of one in-process run
  (`pipelines.runs.materialize_partition`): on a terminal a `StageBar` (one bar, the finished
  stages over all, the last stage's count and time, failures printed above it), else
  `pipelines.console.StageProgress` (a line per finished stage, as logs and tests read).
* `follow_workers(partitions, log_of)`: while worker processes build partitions
  (`pipelines.release.run_in_workers`, used by `foresci demo` and `foresci release`), one bar per
  partition fed from the stage lines in its log file ("[3/20] taxonomy … 189 nodes (...)"), polled
  every `POLL_S` seconds; off a terminal it does nothing (the workers' start/done lines stay).

"On a terminal" is stderr being one (the progress goes to stderr, results to stdout), unless
FORESCI_PROGRESS=plain. Rich's Live display keeps printing above the bars (it redirects stdout
and stderr while it runs).
"""

from __future__ import annotations

import os
import re
import resource
import sys
import threading
import time
from collections.abc import Callable, Sequence
from contextlib import contextmanager
from pathlib import Path

POLL_S = 0.5
STAGE_LINE = re.compile(r"^\s*\[(\d+)/(\d+)\] (\S+) … (.*)$")


def on_terminal() -> bool:
    if os.environ.get("FORESCI_PROGRESS", "") == "plain":
        return False
    from rich.console import Console

    return Console(stderr=True).is_terminal


def terminal_console():
    """A rich console on a duplicate of stderr's file descriptor: an in-process Dagster run points
    fds 1 and 2 at its compute-log files while it runs (and mirrors them back with `tail`, which
    loses a live display's redraws), so the bars write to a descriptor it does not touch."""
    from rich.console import Console

    return Console(file=os.fdopen(os.dup(sys.stderr.fileno()), "w", buffering=1, encoding="utf-8", errors="replace"))


def _progress(console=None):
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, SpinnerColumn, TextColumn, TimeElapsedColumn

    return Progress(
        SpinnerColumn(),
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        TextColumn("{task.fields[last]}", style="dim"),
        console=console,
        transient=False,
    )


class StageBar:
    """A rich bar over the stages of one run, fed by its Dagster events (the interface of
    `StageProgress`); `close()` stops the display."""

    def __init__(self, asset_names: Sequence[str], label: str = "stages", console=None):
        from pipelines.console import ROW_NOUNS, count_text

        self._count_text, self._nouns = count_text, ROW_NOUNS
        self.assets = list(asset_names)
        self.counts: dict[str, str] = {}
        self.owned = console is None  # the duplicated descriptor is closed with the display
        self.progress = _progress(console or terminal_console())
        self.task = self.progress.add_task(label, total=len(self.assets), last="")
        self.progress.start()

    def __call__(self, record) -> None:
        event = record.dagster_event
        if event is None:
            return
        kind = event.event_type_value
        if kind == "ASSET_MATERIALIZATION":
            mat = event.event_specific_data.materialization
            name = mat.asset_key.to_user_string()
            self.counts[name] = self._count_text(mat.metadata, self._nouns.get(name, "rows"))
        elif kind == "STEP_START" and event.step_key in self.assets:
            self.progress.update(self.task, description=event.step_key)
        elif kind == "STEP_SUCCESS" and event.step_key in self.assets:
            seconds = event.event_specific_data.duration_ms / 1000
            peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
            count = self.counts.get(event.step_key, "")
            self.progress.update(
                self.task,
                advance=1,
                last=f"{event.step_key}: {count + ', ' if count else ''}{seconds:.1f} s, peak {peak:,.0f} MiB",
            )
        elif kind == "STEP_FAILURE":
            error = event.event_specific_data.error
            self.progress.console.print(
                f"FAILED {event.step_key}: {error.message.strip().splitlines()[-1] if error else ''}", markup=False
            )
        elif kind == "ASSET_CHECK_EVALUATION":
            check = event.event_specific_data
            if not check.passed:
                self.progress.console.print(f"  check {check.asset_key.to_user_string()}:{check.check_name} failed", markup=False)

    def close(self) -> None:
        self.progress.update(self.task, description="stages done")
        self.progress.stop()
        if self.owned:
            self.progress.console.file.close()


def stage_listener(asset_names: Sequence[str], indent: str = ""):
    """A `StageBar` on a terminal, else `StageProgress` lines (module docstring)."""
    from pipelines.console import StageProgress

    return StageBar(asset_names) if on_terminal() else StageProgress(list(asset_names), indent=indent)


def close_listener(listener) -> None:
    close = getattr(listener, "close", None)
    if close:
        close()


class WorkerBars:
    """One bar per partition built by a worker process, fed from its log file's stage lines."""

    def __init__(self, partitions: Sequence[tuple[str, str]], log_of: Callable[[str, str], Path], console=None):
        self.owned = console is None
        self.progress = _progress(console or terminal_console())
        self.since = time.time() - 1  # a log older than this is a previous build's (its worker truncates it)
        self.tasks = {p: self.progress.add_task(f"{p[0]} @ {p[1]}", total=None, start=False, last="waiting") for p in partitions}
        self.logs = {p: log_of(*p) for p in partitions}
        self.offsets = {p: 0 for p in partitions}
        self.finished: set[tuple[str, str]] = set()
        self.stopping = threading.Event()
        self.thread = threading.Thread(target=self._poll, daemon=True)

    def _poll(self) -> None:
        while not self.stopping.wait(POLL_S):
            self.read_logs()

    def read_logs(self) -> None:
        for p, log in self.logs.items():
            if p in self.finished or not log.exists() or log.stat().st_mtime < self.since:
                continue
            with open(log, encoding="utf-8", errors="replace") as f:
                f.seek(self.offsets[p])
                text = f.read()
            # only whole lines: a line being written is read on the next poll
            complete = text[: text.rfind("\n") + 1]
            self.offsets[p] += len(complete.encode("utf-8"))
            for line in complete.splitlines():
                self.stage_line(p, line)

    def stage_line(self, p: tuple[str, str], line: str) -> None:
        match = STAGE_LINE.match(line)
        if match:
            done, total, stage, rest = int(match[1]), int(match[2]), match[3], match[4]
            self.progress.start_task(self.tasks[p])
            self.progress.update(self.tasks[p], completed=done, total=total, last=f"{stage}: {rest}")
        elif line.startswith("FAILED "):
            self.progress.update(self.tasks[p], last=line)

    def finish(self, domain: str, cutoff: str, success: bool) -> None:
        p = (domain, cutoff)
        if p in self.tasks:
            self.read_logs()
            self.finished.add(p)
            task = self.progress.tasks[self.tasks[p]]
            self.progress.update(
                self.tasks[p],
                completed=task.total if success and task.total else task.completed,
                last="done" if success else "FAILED (see its log)",
            )

    def __enter__(self):
        self.progress.start()
        self.thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self.stopping.set()
        self.thread.join()
        self.progress.stop()
        if self.owned:
            self.progress.console.file.close()


class _NoBars:
    def finish(self, domain: str, cutoff: str, success: bool) -> None:
        pass


@contextmanager
def follow_workers(partitions: Sequence[tuple[str, str]], log_of: Callable[[str, str], Path]):
    """`WorkerBars` on a terminal, else a display that does nothing."""
    if not on_terminal() or not partitions:
        yield _NoBars()
        return
    with WorkerBars(partitions, log_of) as bars:
        yield bars

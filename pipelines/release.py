"""The benchmark release: every domain x the release cutoffs, built by one command, with one card.

`make release` / `foresci release` / the `full_release_job` of the UI (docs/releases.md):

1. **Cutoffs** (`release_cutoffs`): the registry's default cutoffs (`core/registry.yaml`) whose
   forecast window has closed inside the corpus every domain covers (`core.cutoffs.check_cutoff`,
   not prospective): the hidden gold of each is measured on papers already in the corpus. On
   the shipped corpus (2023-01-08 .. 2026-08-21) that is all four: 2025-06-30, 2025-09-30 and
   2025-12-31 with 6-month windows, 2026-05-15 with a 3-month window (ending 2026-08-15). A
   cutoff whose window is still open is left out, and named.
2. **Partitions**: every domain x release cutoff through `release_job`, at most `workers` (2)
   at a time, each in its own process (`run_in_workers`; `python -m pipelines.runs D C`, its
   stage lines in `<FORESCI_HOME>/release_logs/<domain>@<cutoff>.log`). A partition already
   built (`is_built`: its release package and validity report newer than its tasks) is reused
   unless `rebuild`; a failed partition is named and the others still run.
3. **Card**: the `release_card` asset reads every partition's release package, tasks, validity
   report and controls and scores (`read_partition`) and writes the release card (`assets/release/card.py`: card.json, card.md; the
   duplicate groups of `assets/release/independence.py` to the hidden independence.jsonl).

`release_card` is one unpartitioned asset whose config says whether to build the partitions
first (`build`): on in `full_release_job` (the UI's Launchpad default) and `foresci release`,
which run the same code; off when the asset is materialized on its own (it then rewrites the
card from what is built and names the partitions that are missing).
"""

import json
import os
import subprocess
import sys
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from datetime import timedelta

import dagster as dg

from assets.release.card import PartitionData, summary_lines, task_subjects, write_card
from assets.release.card import release_card as make_card
from core.cutoffs import CutoffError, check_cutoff
from core.papers import add_months
from core.paths import REPO_ROOT, state_dir
from core.records import GoldTarget, Score, Signal, Task, TaskBuild
from core.registry import load_registry, parse_cutoff
from core.visibility import visibility_tags
from resources.corpus_source import CorpusSourceResource
from resources.storage import StorageResource

DEFAULT_WORKERS = 2  # two partition runs side by side: one per core of the reference machine


@dataclass
class PartitionRun:
    """The outcome of one partition's run."""

    domain: str
    cutoff: str
    success: bool
    seconds: float
    steps: dict[str, float] = field(default_factory=dict)
    run_id: str = ""
    log: str = ""  # worker runs: the log file of its stage lines
    reused: bool = False  # already built: not run again

    @property
    def label(self) -> str:
        return f"{self.domain}@{self.cutoff}"


def window_of(cutoff: str, horizon_months: int) -> dict:
    day = parse_cutoff(cutoff)
    return {
        "cutoff": cutoff,
        "horizon_months": horizon_months,
        "window_start": (day + timedelta(days=1)).isoformat(),
        "window_end": add_months(day, horizon_months).isoformat(),
    }


def release_cutoffs(span=None, registry=None) -> tuple[list[dict], dict[str, str]]:
    """(release cutoffs in order, each with its horizon and window; cutoffs left out -> why):
    the registry's default cutoffs whose window has closed inside the corpus span."""
    registry = registry or load_registry()
    span = span or CorpusSourceResource().span(list(registry.domains.values()))
    chosen, left_out = [], {}
    for cutoff in sorted(registry.default_cutoffs):
        horizon = registry.horizon_months(cutoff)
        try:
            check_cutoff(cutoff, horizon, span)
        except CutoffError as exc:
            left_out[cutoff] = str(exc)
            continue
        chosen.append(window_of(cutoff, horizon))
    return chosen, left_out


def is_built(store, domain: str, cutoff: str) -> bool:
    """A partition whose release package and validity report exist and are not older than its
    tasks (a run that failed after rebuilding the tasks leaves an older package behind)."""

    def mtime(asset: str):
        info = store.fs.get_file_info(store.parquet_path(asset, domain, cutoff))
        return info.mtime if info.type.name == "File" else None

    tasks, package, report = mtime("tasks"), mtime("release_package"), mtime("validity_report")
    return None not in (tasks, package, report) and package >= tasks and report >= tasks


def log_dir():
    return state_dir() / "release_logs"


def run_in_workers(
    partitions: Sequence[tuple[str, str]], *, workers: int = DEFAULT_WORKERS, say: Callable[[str], None] = print
) -> list[PartitionRun]:
    """Each partition in its own process (`python -m pipelines.runs DOMAIN CUTOFF`), at most
    `workers` at once, in the given order; its stage lines go to a log file."""
    logs = log_dir()
    logs.mkdir(parents=True, exist_ok=True)
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [str(REPO_ROOT), os.environ.get("PYTHONPATH")]))}
    total = len(partitions)

    def one(index: int, domain: str, cutoff: str) -> PartitionRun:
        log = logs / f"{domain}@{cutoff}.log"
        say(f"[{index}/{total}] {domain} @ {cutoff} started (log: {log})")
        t0 = time.time()
        with open(log, "w") as err:
            proc = subprocess.run(
                [sys.executable, "-m", "pipelines.runs", domain, cutoff],
                cwd=REPO_ROOT,
                env=env,
                stdout=subprocess.PIPE,
                stderr=err,
                text=True,
            )
        lines = [x for x in proc.stdout.splitlines() if x.startswith("{")]
        out = json.loads(lines[-1]) if proc.returncode == 0 and lines else {"success": False}
        run = PartitionRun(
            domain,
            cutoff,
            bool(out.get("success")),
            round(time.time() - t0, 1),
            out.get("steps", {}),
            out.get("run_id", ""),
            str(log),
        )
        steps = ", ".join(f"{k} {v:.0f}s" for k, v in sorted(run.steps.items(), key=lambda kv: -kv[1])[:3])
        say(
            f"[{index}/{total}] {domain} @ {cutoff} "
            + (f"done in {run.seconds:.0f}s (slowest: {steps})" if run.success else f"FAILED after {run.seconds:.0f}s: see {log}")
        )
        return run

    from pipelines.progress import follow_workers

    # on a terminal, a progress bar per partition from its log's stage lines (pipelines/progress.py)
    with follow_workers(partitions, lambda d, c: logs / f"{d}@{c}.log") as bars:

        def tracked(index: int, domain: str, cutoff: str) -> PartitionRun:
            run = one(index, domain, cutoff)
            bars.finish(domain, cutoff, run.success)
            return run

        with ThreadPoolExecutor(max_workers=max(1, workers)) as pool:
            futures = [pool.submit(tracked, i, d, c) for i, (d, c) in enumerate(partitions, start=1)]
            return [f.result() for f in futures]


def read_partition(store, domain: str, cutoff: str, horizon_months: int) -> PartitionData:
    """A released partition as the card reads it: its release manifest and published
    tasks.jsonl / gold.jsonl (`release_package`), built tasks and their construction records
    (`tasks`), the approach signals that name a planning task's direction (`research_signals`),
    the validity report and controls (`validity_report`) and the scores (`judge_scores`).
    `FileNotFoundError` when one is missing."""
    d, c = domain, cutoff
    manifest = json.loads(store.read_table("release_package", d, c).column("manifest_json")[0].as_py())
    files = {
        name: store.read_bytes(store.artifact_path("release", d, c, name)).decode() for name in ("tasks.jsonl", "gold.jsonl")
    }
    released = [Task.model_validate_json(line) for line in files["tasks.jsonl"].splitlines() if line.strip()]
    golds = [GoldTarget.model_validate_json(line) for line in files["gold.jsonl"].splitlines() if line.strip()]
    builds = {b.task_id: b for b in store.read_records("task_builds", d, c, TaskBuild)}
    approaches = {s.signal_id: s for s in store.read_records("research_signals", d, c, Signal) if s.kind == "approach"}
    window = manifest.get("windows") or [{}]
    return PartitionData(
        domain=d,
        cutoff=c,
        horizon_months=int(manifest.get("horizon_months") or horizon_months),
        window_start=str(window[0].get("start", "")),
        window_end=str(manifest.get("window_end", "")),
        manifest=manifest,
        built=store.read_records("tasks", d, c, Task),
        released=released,
        golds={g.task_id: g for g in golds},
        builds=builds,
        validity=store.read_table("validity_report", d, c).to_pylist(),
        controls=store.read_records("validity_controls", d, c, Score),
        scores=store.read_records("judge_scores", d, c, Score),
        subjects=task_subjects(released, builds, approaches),
    )


@dataclass
class ReleaseResult:
    card: dict
    paths: dict[str, str]
    runs: list[PartitionRun]
    left_out: dict[str, str]
    seconds: float


def build_release(
    store,
    *,
    cutoffs: Sequence[str] = (),
    domains: Sequence[str] = (),
    build: bool = True,
    rebuild: bool = False,
    workers: int = DEFAULT_WORKERS,
    name: str = "",
    allow_missing: bool = False,
    say: Callable[[str], None] = print,
) -> ReleaseResult:
    """Build the release's partitions that need it (all with `rebuild`; none without `build`)
    and write its card. `cutoffs` / `domains` default to `release_cutoffs()` / every domain.
    Raises `RuntimeError` naming the partitions that are not built, unless `allow_missing`."""
    start = time.time()
    registry = load_registry()
    chosen, left_out = release_cutoffs(registry=registry)
    if cutoffs:
        windows = [window_of(c, registry.horizon_months(c)) for c in sorted(cutoffs)]
    else:
        windows = chosen
    domains = sorted(domains or registry.domains)
    parts = [(d, w["cutoff"]) for w in windows for d in domains]
    runs: list[PartitionRun] = []
    if build:
        todo = [p for p in parts if rebuild or not is_built(store, *p)]
        runs += [PartitionRun(d, c, True, 0.0, reused=True) for d, c in parts if (d, c) not in todo]
        if runs:
            say(f"reusing {len(runs)} built partitions ({', '.join(r.label for r in runs)}); --rebuild rebuilds them")
        if todo:
            from pipelines.instance import init_instance

            init_instance(sorted({c for _, c in todo}))  # once, before the workers open it
            say(f"building {len(todo)} partitions, {min(workers, len(todo))} at a time")
            runs += run_in_workers(todo, workers=workers, say=say)
    failed = [r.label for r in runs if not r.success]
    # a partition whose run failed now is missing even if an older build of it is still there
    missing = [f"{d}@{c}" for d, c in parts if not is_built(store, d, c) or f"{d}@{c}" in failed]
    if missing and not allow_missing:
        raise RuntimeError(
            f"release incomplete: {len(missing)} partitions not built ({', '.join(missing)})"
            + (f"; failed runs: {', '.join(failed)}" if failed else "")
        )
    data = [read_partition(store, d, c, registry.horizon_months(c)) for d, c in parts if f"{d}@{c}" not in missing]
    card, hidden = make_card(data, cutoffs=windows, domains=domains, name=name, missing=missing)
    paths = write_card(store, card, hidden)
    return ReleaseResult(card, paths, runs, left_out, round(time.time() - start, 1))


# -- Dagster: the release card asset and the job the UI launches -----------------------------------


class ReleaseCardConfig(dg.Config):
    """Materialized on its own (the asset graph, "materialize all") the card is only rewritten
    from what is built, naming missing partitions; `full_release_job` (and `foresci release`)
    sets `build` on and `allow_missing` off (`FULL_RELEASE_CONFIG`)."""

    cutoffs: list[str] = []  # empty: the release cutoffs (registry defaults whose window has closed)
    domains: list[str] = []  # empty: every domain of the registry
    build: bool = False  # build the partitions that are not built first
    rebuild: bool = False  # with build: rebuild every partition of the release, built or not
    workers: int = DEFAULT_WORKERS  # partition runs at once, each in its own process
    name: str = ""  # the release's name (e.g. "v1.0"); empty: r-<card version>
    allow_missing: bool = True  # write a card even when partitions are missing (it names them)


FULL_RELEASE_CONFIG = {"build": True, "allow_missing": False}


@dg.asset(
    group_name="release",
    kinds={"json", "markdown"},
    deps=["release_package", "tasks", "research_signals", "validity_report", "judge_scores"],
    tags=visibility_tags("release_card"),
)
def release_card(context: dg.AssetExecutionContext, config: ReleaseCardConfig, storage: StorageResource) -> dg.MaterializeResult:
    """The benchmark release over every domain x release cutoff: builds the partitions that are
    not built (two worker processes; each a `release_job` run of its own), then writes the card
    (tasks per family x domain x cutoff, built / released / dropped with reasons, validity per
    family, the effective number of independent tasks) under
    public/_artifacts/releases/benchmark/<version>/ and .../release/benchmark/ (docs/releases.md)."""

    def say(line: str) -> None:
        context.log.info(line)
        print(line, file=sys.stderr, flush=True)

    res = build_release(
        storage.store(),
        cutoffs=config.cutoffs,
        domains=config.domains,
        build=config.build,
        rebuild=config.rebuild,
        workers=config.workers,
        name=config.name,
        allow_missing=config.allow_missing,
        say=say,
    )
    card = res.card
    for line in summary_lines(card):
        context.log.info(line)
    return dg.MaterializeResult(
        metadata={
            "card_version": card["card_version"],
            "cutoffs": dg.MetadataValue.json([c["cutoff"] for c in card["cutoffs"]]),
            "left_out_cutoffs": dg.MetadataValue.json(res.left_out),
            "partitions": len(card["partitions"]),
            "missing_partitions": dg.MetadataValue.json(card["missing_partitions"]),
            "released": card["totals"]["released"],
            "independent": card["totals"]["effective"],
            "by_family": dg.MetadataValue.json(
                {f: {k: x[k] for k in ("built", "released", "duplicates", "effective")} for f, x in card["families"].items()}
            ),
            "gate_passed": card["gate"]["passed"],
            "target_met": card["target"]["met"],
            "partition_runs": dg.MetadataValue.json(
                {r.label: ("reused" if r.reused else f"{r.seconds}s" if r.success else "FAILED") for r in res.runs}
            ),
            "seconds": res.seconds,
            "card": dg.MetadataValue.path(res.paths["card.md"]),
        }
    )


full_release_job = dg.define_asset_job(
    "full_release_job",
    selection=dg.AssetSelection.assets(release_card),
    description="The benchmark release: every domain x the release cutoffs (partitions not yet built are built, "
    "two at a time, each as its own release_job run), then the release card.",
    executor_def=dg.in_process_executor,
    config={"ops": {"release_card": {"config": FULL_RELEASE_CONFIG}}},  # the Launchpad's default, editable
)

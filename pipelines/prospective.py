"""Prospective refresh (ForeSci §5.3, App. G): predict now, score once the window has closed.

Every quarter a new cutoff partition is added at the latest harvested date, a
prediction-only package is built for the coming 3-month window and its forecasts are
frozen (sha256 + UTC timestamp) before the window opens; once the window has closed and
its papers are harvested, the frozen forecasts are scored against gold computed from the
window. Nothing about a frozen package can change after freezing: `prospective_forecasts`
never overwrites one, and `prospective_scores` verifies every hash (and that the public
tasks are byte-for-byte the frozen ones) before it scores.

Dagster pieces (register them in pipelines/definitions.py):

Both sensors start STOPPED (turn them on in the UI's Automation page or with `dagster sensor
start`): a fresh instance must not add a partition or launch a run by itself.

* `prospective_cutoff_sensor` (every 30 min, once turned on): once a new calendar quarter has begun since
  the last prospective cutoff (its cursor), adds the latest harvested date (the last day
  every prospective domain's corpus reaches) as a `cutoff` partition with a 3-month horizon.
  Schedules cannot add dynamic partitions; this sensor does (`SensorResult`).
* `prospective_refresh_schedule` (quarterly, 06:00 UTC on Jan/Apr/Jul/Oct 1; stoppable in
  the UI): runs `prospective_package_job` for the newest cutoff partition of each
  prospective domain that has no frozen package yet.
* `prospective_scoring_sensor` (hourly, once turned on): for every frozen, unscored package whose window
  end the harvested corpus has reached, runs `prospective_scoring_job`.
* assets `prospective_forecasts` (group "prospective": the frozen package) and
  `prospective_scores`; jobs `prospective_package_job` (the public stages up to the frozen
  forecasts; no hidden asset) and `prospective_scoring_job` (future window, gold, scores).

A package frozen after its window opened (e.g. the 2026-05-15 demonstration rebuilt on
the shipped corpus, which already holds the window) is marked `frozen_before_window:
false`; its scores carry `replay = true` and are not prospective evidence.
"""

import json
import os
from collections import defaultdict
from datetime import UTC, date, datetime

import dagster as dg
import pyarrow as pa

from assets.partitions import CUTOFF_PARTITIONS, DOMAIN_CUTOFF_PARTITIONS, partition_key
from assets.release.logic import (
    FrozenForecastError,
    freeze_package,
    read_frozen,
    verify_package,
    write_frozen,
)
from assets.stage import current_partition, md_table, write_failures
from core.records import Answer, Score, Task
from core.registry import load_registry, save_user_cutoff
from resources.corpus_source import CorpusSourceResource
from resources.embeddings import EmbeddingResource
from resources.lance import LanceResource
from resources.llm import LLMResource
from resources.storage import StorageResource

PROSPECTIVE_HORIZON_MONTHS = 3
QUARTERLY_CRON = "0 6 1 1,4,7,10 *"
DEMO_CUTOFF, DEMO_WINDOW = "2026-05-15", ("2026-05-16", "2026-08-15")


def prospective_domains() -> list[str]:
    """Domains refreshed prospectively: FORESCI_PROSPECTIVE_DOMAINS (comma list) or all."""
    env = os.environ.get("FORESCI_PROSPECTIVE_DOMAINS", "").strip()
    return [d.strip() for d in env.split(",") if d.strip()] if env else sorted(load_registry().domains)


def today() -> date:
    """The wall-clock date (UTC); tests replace it."""
    return datetime.now(UTC).date()


def quarter_start(day: date) -> date:
    return date(day.year, 3 * ((day.month - 1) // 3) + 1, 1)


def latest_harvested_date(source: CorpusSourceResource, domains: list[str]) -> date | None:
    """The last publication date every listed domain's corpus reaches (min over domains of max date)."""
    latest = []
    registry = load_registry()
    for d in domains:
        papers, _ = (
            source.load(registry.domain(d).shipped_file)
            if source.kind == "shipped"
            else (source.load_domain(registry.domain(d), today()).papers, None)
        )
        if not papers:
            return None
        latest.append(max(p.published for p in papers))
    return min(latest) if latest else None


def due_cutoff(last_cutoff: date | None, latest: date | None, now: date) -> date | None:
    """The cutoff to add now, or None: a new quarter has begun since the last prospective cutoff."""
    if latest is None:
        return None
    if last_cutoff is not None and (quarter_start(now) <= last_cutoff or latest <= last_cutoff):
        return None
    return min(latest, now)


# --------------------------------------------------------------------------------------
# assets
# --------------------------------------------------------------------------------------


class ProspectiveConfig(dg.Config):
    methods: list[str] = []  # empty: every available method (the LLM ones only with a model)
    per_family: int = 3  # tasks per family in the package (ForeSci App. G: 12 tasks, balanced)
    seed: int = 0


@dg.asset(
    partitions_def=DOMAIN_CUTOFF_PARTITIONS,
    group_name="prospective",
    kinds={"json", "parquet"},
    deps=["tasks", "knowledge_base"],
)
def prospective_forecasts(
    context: dg.AssetExecutionContext,
    config: ProspectiveConfig,
    storage: StorageResource,
    lance: LanceResource,
    embeddings: EmbeddingResource,
    llm: LLMResource,
) -> dg.MaterializeResult:
    """Prediction-only package of the partition (ForeSci App. G): the best `per_family`
    public tasks of each family (offline quality without gold) answered by every
    available method from the cutoff-bound KB, frozen once under
    public/_artifacts/prospective/... as tasks.jsonl + forecasts.jsonl + freeze.json
    (sha256 of each file, UTC timestamp, whether it precedes the window). An existing
    package is verified and never overwritten."""
    from assets.agents.runner import available_methods, run_method
    from assets.knowledge_base.definitions import open_view
    from assets.ranking.judge import task_quality

    part = current_partition(context)
    store = storage.store()
    d, c = part.domain, part.cutoff_key
    existing = read_frozen(store, d, c)
    if existing is not None:
        freeze = verify_package(existing)
        return dg.MaterializeResult(
            metadata={
                "status": "already frozen (not overwritten)",
                "package_sha256": freeze["package_sha256"],
                "created_at": freeze["created_at"],
            }
        )
    embed = embeddings.embedder().encode
    tasks = store.read_records("tasks", d, c, Task)
    by_family: dict[str, list[Task]] = defaultdict(list)
    for t in tasks:
        by_family[t.family].append(t)
    chosen: list[Task] = []
    for _, group in sorted(by_family.items()):
        q = {t.task_id: task_quality(t, None, embed)["quality"] for t in group}
        chosen += sorted(group, key=lambda t: (-q[t.task_id], t.task_id))[: config.per_family]
    kb = open_view(part, lance, embeddings)
    client = llm.client()
    before = client.snapshot()
    answers, failures = [], []
    for method in config.methods or available_methods(client):
        got, failed = run_method(
            method, chosen, kb, llm_client=client, embed=embed, seed=config.seed, backbone=client.model or "offline"
        )
        answers += got
        failures += failed
    files = freeze_package(
        chosen,
        answers,
        domain=d,
        cutoff=c,
        window_start=str(part.window_start),
        window_end=str(part.window_end),
        created_at=datetime.now(UTC).isoformat(timespec="seconds"),
    )
    freeze, _ = write_frozen(store, d, c, files)
    store.write_records("prospective_forecasts", d, c, answers, Answer)
    write_failures(store, "prospective_forecasts", part, failures)
    return dg.MaterializeResult(
        metadata={
            "status": "frozen",
            "tasks": len(chosen),
            "forecasts": len(answers),
            "failures": len(failures),
            "by_family": dg.MetadataValue.json(freeze["by_family"]),
            "window": f"{part.window_start} .. {part.window_end}",
            "package_sha256": freeze["package_sha256"],
            "created_at": freeze["created_at"],
            "frozen_before_window": freeze["frozen_before_window"],
            "preview": md_table([t.model_dump() for t in chosen], ["task_id", "family", "title"], 12),
            **client.usage_since(before).as_metadata(),
        }
    )


class ProspectiveScoringConfig(dg.Config):
    require_closed_window: bool = True  # refuse to score before the harvested corpus reaches the window end


@dg.asset(
    partitions_def=DOMAIN_CUTOFF_PARTITIONS,
    group_name="prospective",
    kinds={"parquet", "python"},
    deps=["prospective_forecasts", "tasks", "gold_targets", "knowledge_base"],
)
def prospective_scores(
    context: dg.AssetExecutionContext,
    config: ProspectiveScoringConfig,
    storage: StorageResource,
    corpus_source: CorpusSourceResource,
    embeddings: EmbeddingResource,
) -> dg.MaterializeResult:
    """Scores of the frozen prospective forecasts once the window has closed: every file's
    hash is verified, the public tasks must equal the frozen ones byte for byte, and the
    forecasts are judged (FTA, trace linkage) against gold computed from the window. Each
    row carries the package hash, its freeze time and `replay` (frozen after the window
    opened)."""
    from assets.judging.scoring import score_answers
    from core.records import GoldTarget

    part = current_partition(context)
    store = storage.store()
    d, c = part.domain, part.cutoff_key
    files = read_frozen(store, d, c)
    if files is None:
        raise FrozenForecastError(f"no frozen prospective package for {d} @ {c}: materialize prospective_forecasts first")
    freeze = verify_package(files)
    latest = latest_harvested_date(corpus_source, [d])
    if config.require_closed_window and (latest is None or latest.isoformat() < freeze["window_end"]):
        raise FrozenForecastError(
            f"window {freeze['window_start']} .. {freeze['window_end']} not closed in the "
            f"harvested corpus (latest paper {latest}); nothing scored"
        )
    frozen_tasks = [Task.model_validate_json(line) for line in files["tasks.jsonl"].decode().splitlines() if line]
    current = {t.task_id: t for t in store.read_records("tasks", d, c, Task)}
    changed = [
        t.task_id
        for t in frozen_tasks
        if t.task_id not in current or current[t.task_id].model_dump(mode="json") != t.model_dump(mode="json")
    ]
    if changed:
        raise FrozenForecastError(f"public tasks changed after freezing: {', '.join(changed[:5])}")
    answers = [Answer.model_validate_json(line) for line in files["forecasts.jsonl"].decode().splitlines() if line]
    golds = store.read_records("gold_targets", d, c, GoldTarget)
    kb_dates = {r["arxiv_id"]: r["published"] for r in store.read_table("knowledge_base", d, c).to_pylist()}
    scores, failures = score_answers(answers, frozen_tasks, golds, embeddings.embedder().encode, kb_dates, cutoff=part.cutoff)
    replay = not freeze["frozen_before_window"]
    table = records_table(scores, freeze, replay)
    path = store.write_table("prospective_scores", d, c, table)
    write_failures(store, "prospective_scores", part, failures)
    means = {}
    for s in scores:
        if s.fta is not None:
            means.setdefault(f"{s.family}/{s.method}", []).append(s.fta)
    return dg.MaterializeResult(
        metadata={
            "rows": len(scores),
            "failures": len(failures),
            "replay": replay,
            "package_sha256": freeze["package_sha256"],
            "frozen_at": freeze["created_at"],
            "window": f"{freeze['window_start']} .. {freeze['window_end']}",
            "mean_fta": dg.MetadataValue.json({k: round(sum(v) / len(v), 4) for k, v in sorted(means.items())}),
            "path": dg.MetadataValue.path(path),
        }
    )


def records_table(scores: list[Score], freeze: dict, replay: bool) -> pa.Table:
    from core.tables import records_to_table

    table = records_to_table(scores, Score)
    n = table.num_rows
    for name, value in (
        ("package_sha256", freeze["package_sha256"]),
        ("frozen_at", freeze["created_at"]),
        ("window_end", freeze["window_end"]),
        ("replay", replay),
        ("scored_at", datetime.now(UTC).isoformat(timespec="seconds")),
    ):
        table = table.append_column(name, pa.array([value] * n))
    return table


PROSPECTIVE_ASSETS = [prospective_forecasts, prospective_scores]

prospective_package_job = dg.define_asset_job(
    "prospective_package_job",
    selection=dg.AssetSelection.assets("prospective_forecasts").upstream(),
    partitions_def=DOMAIN_CUTOFF_PARTITIONS,
    description="Prediction-only package of a new cutoff: public stages, tasks and frozen forecasts.",
)
prospective_scoring_job = dg.define_asset_job(
    "prospective_scoring_job",
    selection=dg.AssetSelection.assets("future_window", "gold_targets", "prospective_scores"),
    partitions_def=DOMAIN_CUTOFF_PARTITIONS,
    description="Score a frozen prospective package once its window has closed and been harvested.",
)


# --------------------------------------------------------------------------------------
# sensors and schedule
# --------------------------------------------------------------------------------------


@dg.sensor(minimum_interval_seconds=1800, default_status=dg.DefaultSensorStatus.STOPPED)
def prospective_cutoff_sensor(context: dg.SensorEvaluationContext, corpus_source: CorpusSourceResource):
    """Adds the latest harvested date as a new cutoff partition (3-month horizon) once a new
    quarter has begun since the last prospective cutoff (kept in the cursor)."""
    last = date.fromisoformat(context.cursor) if context.cursor else None
    latest = latest_harvested_date(corpus_source, prospective_domains())
    cutoff = due_cutoff(last, latest, today())
    if cutoff is None:
        return dg.SkipReason(f"no new quarter since the last prospective cutoff {last} (latest harvested {latest})")
    key = cutoff.isoformat()
    try:
        save_user_cutoff(key, PROSPECTIVE_HORIZON_MONTHS, prospective=True)  # its window is still open
    except ValueError:
        pass
    existing = set(context.instance.get_dynamic_partitions(CUTOFF_PARTITIONS.name))
    requests = [] if key in existing else [CUTOFF_PARTITIONS.build_add_request([key])]
    return dg.SensorResult(dynamic_partitions_requests=requests, cursor=key)


@dg.schedule(
    cron_schedule=QUARTERLY_CRON,
    job=prospective_package_job,
    execution_timezone="UTC",
    default_status=dg.DefaultScheduleStatus.RUNNING,
)
def prospective_refresh_schedule(context: dg.ScheduleEvaluationContext, storage: StorageResource):
    """Quarterly: build and freeze the prediction-only package of the newest cutoff partition
    (added by `prospective_cutoff_sensor`) for every prospective domain without one."""
    cutoffs = sorted(context.instance.get_dynamic_partitions(CUTOFF_PARTITIONS.name))
    when = context.scheduled_execution_time.date() if context.scheduled_execution_time else today()
    cutoffs = [c for c in cutoffs if c <= when.isoformat()]
    if not cutoffs:
        return dg.SkipReason("no cutoff partition yet: prospective_cutoff_sensor adds one")
    newest = cutoffs[-1]
    store = storage.store()
    requests = [
        dg.RunRequest(
            partition_key=partition_key(d, newest), run_key=f"prospective:{d}:{newest}", tags={"foresci/prospective": "package"}
        )
        for d in prospective_domains()
        if read_frozen(store, d, newest) is None
    ]
    return requests or dg.SkipReason(f"every prospective domain already has a frozen package at {newest}")


@dg.sensor(minimum_interval_seconds=3600, default_status=dg.DefaultSensorStatus.STOPPED, job=prospective_scoring_job)
def prospective_scoring_sensor(
    context: dg.SensorEvaluationContext, storage: StorageResource, corpus_source: CorpusSourceResource
):
    """Scores each frozen, unscored package once the harvested corpus reaches its window end."""
    store = storage.store()
    requests, waiting = [], []
    latest_by_domain: dict[str, date | None] = {}
    for cutoff in sorted(context.instance.get_dynamic_partitions(CUTOFF_PARTITIONS.name)):
        for d in prospective_domains():
            files = read_frozen(store, d, cutoff)
            if files is None or store.exists("prospective_scores", d, cutoff):
                continue
            freeze = json.loads(files["freeze.json"])
            if d not in latest_by_domain:
                latest_by_domain[d] = latest_harvested_date(corpus_source, [d])
            latest = latest_by_domain[d]
            if latest is not None and latest.isoformat() >= freeze["window_end"]:
                requests.append(
                    dg.RunRequest(
                        partition_key=partition_key(d, cutoff),
                        run_key=f"prospective-score:{d}:{cutoff}:{freeze['package_sha256'][:12]}",
                        tags={"foresci/prospective": "score"},
                    )
                )
            else:
                waiting.append(f"{d}@{cutoff} (window ends {freeze['window_end']}, harvested to {latest})")
    if requests:
        return requests
    return dg.SkipReason("nothing to score" + (": waiting for " + "; ".join(waiting) if waiting else ""))


PROSPECTIVE_SENSORS = [prospective_cutoff_sensor, prospective_scoring_sensor]
PROSPECTIVE_SCHEDULES = [prospective_refresh_schedule]
PROSPECTIVE_JOBS = [prospective_package_job, prospective_scoring_job]

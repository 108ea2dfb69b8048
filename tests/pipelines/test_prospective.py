"""Prospective refresh: the cutoff sensor, the quarterly schedule, frozen forecasts and the
scoring sensor, with Dagster's schedule/sensor test contexts; the 2026-05-15 demonstration
on the shipped corpus is the slow test at the end."""

from __future__ import annotations

import os

os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")

import gzip
import json
from datetime import UTC, date, datetime
from pathlib import Path

import dagster as dg
import pyarrow as pa
import pytest

from assets.partitions import partition_key
from assets.release.logic import (
    FrozenForecastError,
    freeze_package,
    read_frozen,
    verify_package,
    write_frozen,
)
from core.records import Answer, GoldSlot, GoldTarget, Task, TaskOption
from pipelines import prospective as pr
from resources.corpus_source import CorpusSourceResource
from resources.embeddings import EmbeddingResource
from resources.storage import StorageResource

D, C = "llm_agent", "2026-05-15"
CUT = date(2026, 5, 15)


@pytest.fixture(autouse=True)
def _isolate_dagster_context():
    """Sensor/schedule test contexts put the instance's state storage in a context variable
    and may leave it there after the instance is gone; keep it from leaking into later tests."""
    from dagster._core.storage.defs_state import base

    token = base._current_storage.set(None)
    yield
    base._current_storage.reset(token)


@pytest.fixture(autouse=True)
def _env(monkeypatch, tmp_path):
    monkeypatch.setenv("FORESCI_HOME", str(tmp_path / "home"))
    monkeypatch.setenv("FORESCI_PROSPECTIVE_DOMAINS", D)


def corpus_dir(root: Path, last_day: date) -> CorpusSourceResource:
    """A corpus whose last paper is dated `last_day`."""
    root.mkdir(parents=True, exist_ok=True)
    with gzip.open(root / "llm_agent.jsonl.gz", "wt") as f:
        for i, day in enumerate([date(2026, 1, 5), date(2026, 3, 1), last_day]):
            f.write(
                json.dumps(
                    {
                        "arxiv_id": f"{day:%y%m}.{i:05d}",  # an id of its own month (core.papers.date_by_id)
                        "title": f"Agents paper {i}",
                        "abstract": "An abstract.",
                        "published": day.isoformat(),
                    }
                )
                + "\n"
            )
    return CorpusSourceResource(shipped_dir=str(root))


def test_quarter_logic():
    assert pr.quarter_start(date(2026, 5, 16)) == date(2026, 4, 1)
    assert pr.quarter_start(date(2026, 12, 31)) == date(2026, 10, 1)
    assert pr.due_cutoff(None, CUT, date(2026, 5, 16)) == CUT  # first refresh: the latest harvested date
    assert pr.due_cutoff(CUT, date(2026, 6, 30), date(2026, 6, 30)) is None  # same quarter: not due
    assert pr.due_cutoff(CUT, date(2026, 6, 30), date(2026, 7, 1)) == date(2026, 6, 30)  # new quarter
    assert pr.due_cutoff(CUT, CUT, date(2026, 7, 1)) is None  # nothing new harvested
    assert pr.due_cutoff(None, None, date(2026, 7, 1)) is None


def test_cutoff_sensor_adds_the_latest_harvested_date_once_a_quarter(tmp_path, monkeypatch):
    instance = dg.DagsterInstance.ephemeral()
    monkeypatch.setattr(pr, "today", lambda: date(2026, 5, 16))
    source = corpus_dir(tmp_path / "c1", CUT)
    ctx = dg.build_sensor_context(instance=instance, resources={"corpus_source": source})
    result = pr.prospective_cutoff_sensor(ctx)
    assert isinstance(result, dg.SensorResult) and result.cursor == C
    [req] = result.dynamic_partitions_requests
    assert req.partitions_def_name == "cutoff" and list(req.partition_keys) == [C]
    # same quarter, cursor at 2026-05-15: nothing to add
    monkeypatch.setattr(pr, "today", lambda: date(2026, 6, 20))
    again = pr.prospective_cutoff_sensor(
        dg.build_sensor_context(instance=instance, cursor=C, resources={"corpus_source": source})
    )
    assert isinstance(again, dg.SkipReason)
    # next quarter with newer papers: the new latest date, registered with a 3-month horizon
    monkeypatch.setattr(pr, "today", lambda: date(2026, 7, 2))
    newer = corpus_dir(tmp_path / "c2", date(2026, 7, 1))
    nxt = pr.prospective_cutoff_sensor(dg.build_sensor_context(instance=instance, cursor=C, resources={"corpus_source": newer}))
    assert nxt.cursor == "2026-07-01" and list(nxt.dynamic_partitions_requests[0].partition_keys) == ["2026-07-01"]
    from core.registry import load_registry

    assert load_registry().horizon_months("2026-07-01") == 3
    # a partition that already exists is not requested again
    instance.add_dynamic_partitions("cutoff", ["2026-07-01"])
    known = pr.prospective_cutoff_sensor(dg.build_sensor_context(instance=instance, cursor=C, resources={"corpus_source": newer}))
    assert known.dynamic_partitions_requests == [] and known.cursor == "2026-07-01"


def frozen_files(window_start="2026-05-16", window_end="2026-08-15", created="2026-05-15T23:00:00+00:00"):
    t = Task(
        task_id=f"{D}-{C}-direction-01",
        family="direction",
        domain=D,
        cutoff=CUT,
        window_start=date.fromisoformat(window_start),
        window_end=date.fromisoformat(window_end),
        horizon="3-month",
        title="Which direction?",
        question="Which direction gains momentum? Choose one.",
        instructions="i",
        answer_requirements=["r"],
        options=[TaskOption(option_id="A", text="tool use"), TaskOption(option_id="B", text="web agents")],
    )
    a = Answer(
        answer_id=f"{t.task_id}::momentum::offline::0",
        task_id=t.task_id,
        family="direction",
        method="momentum",
        backbone="offline",
        choice="A",
        ranking=["A", "B"],
        claims=["tool use gains momentum"],
        evidence_ids=["2601.00000"],
    )
    return (
        t,
        a,
        freeze_package([t], [a], domain=D, cutoff=C, window_start=window_start, window_end=window_end, created_at=created),
    )


def test_frozen_package_hashes_timestamp_and_no_overwrite(tmp_path):
    from resources.storage import PartitionStore

    t, a, files = frozen_files()
    freeze = verify_package(files)
    assert freeze["frozen_before_window"] and freeze["created_at"] == "2026-05-15T23:00:00+00:00"
    assert freeze["n_tasks"] == 1 and freeze["methods"] == ["momentum"] and len(freeze["package_sha256"]) == 64
    late = verify_package(frozen_files(created="2026-11-21T10:00:00+00:00")[2])
    assert not late["frozen_before_window"]  # a replay
    tampered = dict(files, **{"forecasts.jsonl": files["forecasts.jsonl"].replace(b'"choice": "A"', b'"choice": "B"')})
    assert tampered["forecasts.jsonl"] != files["forecasts.jsonl"]
    with pytest.raises(FrozenForecastError, match="forecasts.jsonl .* altered"):
        verify_package(tampered)
    store = PartitionStore(str(tmp_path / "wh"))
    first, new = write_frozen(store, D, C, files)
    assert new and read_frozen(store, D, C) == files
    other = frozen_files(created="2026-05-15T23:59:00+00:00")[2]
    second, new2 = write_frozen(store, D, C, other)  # refused silently: the first freeze stands
    assert not new2 and second == first and read_frozen(store, D, C) == files


def test_schedule_requests_the_package_of_the_newest_cutoff_until_it_is_frozen(tmp_path):
    with dg.instance_for_test() as instance:  # schedule contexts need an instance with a ref
        _schedule_checks(instance, tmp_path)


def _schedule_checks(instance, tmp_path):
    storage = StorageResource(root=str(tmp_path / "wh"))
    when = datetime(2026, 7, 1, 6, tzinfo=UTC)
    ctx = dg.build_schedule_context(instance=instance, scheduled_execution_time=when, resources={"storage": storage})
    assert isinstance(pr.prospective_refresh_schedule(ctx), dg.SkipReason)  # no cutoff partition yet
    instance.add_dynamic_partitions("cutoff", ["2025-12-31", C, "2026-09-30"])
    ctx = dg.build_schedule_context(instance=instance, scheduled_execution_time=when, resources={"storage": storage})
    [req] = pr.prospective_refresh_schedule(ctx)
    assert req.partition_key == partition_key(D, C) and req.run_key == f"prospective:{D}:{C}"
    write_frozen(storage.store(), D, C, frozen_files()[2])
    ctx = dg.build_schedule_context(instance=instance, scheduled_execution_time=when, resources={"storage": storage})
    assert isinstance(pr.prospective_refresh_schedule(ctx), dg.SkipReason)
    assert pr.prospective_refresh_schedule.cron_schedule == "0 6 1 1,4,7,10 *"
    assert pr.prospective_refresh_schedule.default_status == dg.DefaultScheduleStatus.RUNNING


def test_scoring_sensor_waits_for_the_window_to_close_and_be_harvested(tmp_path):
    instance = dg.DagsterInstance.ephemeral()
    instance.add_dynamic_partitions("cutoff", [C])
    storage = StorageResource(root=str(tmp_path / "wh"))
    early = corpus_dir(tmp_path / "early", date(2026, 8, 1))
    ctx = dg.build_sensor_context(instance=instance, resources={"storage": storage, "corpus_source": early})
    assert "nothing to score" in pr.prospective_scoring_sensor(ctx).skip_message  # no package at all
    files = frozen_files()[2]
    write_frozen(storage.store(), D, C, files)
    ctx = dg.build_sensor_context(instance=instance, resources={"storage": storage, "corpus_source": early})
    skip = pr.prospective_scoring_sensor(ctx)
    assert isinstance(skip, dg.SkipReason) and "window ends 2026-08-15, harvested to 2026-08-01" in skip.skip_message
    late = corpus_dir(tmp_path / "late", date(2026, 8, 21))
    ctx = dg.build_sensor_context(instance=instance, resources={"storage": storage, "corpus_source": late})
    [req] = pr.prospective_scoring_sensor(ctx)
    sha = json.loads(files["freeze.json"])["package_sha256"]
    assert req.partition_key == partition_key(D, C) and req.run_key == f"prospective-score:{D}:{C}:{sha[:12]}"
    storage.store().write_table("prospective_scores", D, C, pa.table({"x": [1]}))
    ctx = dg.build_sensor_context(instance=instance, resources={"storage": storage, "corpus_source": late})
    assert isinstance(pr.prospective_scoring_sensor(ctx), dg.SkipReason)  # scored once


def score_run(storage, source, config=None) -> tuple[bool, str]:
    """(success, all events as text) of one prospective_scores run on its own entered instance."""
    with dg.DagsterInstance.ephemeral() as instance:
        instance.add_dynamic_partitions("cutoff", [C])
        result = dg.materialize(
            [pr.prospective_scores],
            partition_key=partition_key(D, C),
            instance=instance,
            resources={"storage": storage, "corpus_source": source, "embeddings": EmbeddingResource()},
            run_config={"ops": {"prospective_scores": {"config": config or {}}}},
            raise_on_error=False,
        )
        return result.success, str(result.all_events)


def test_scores_only_an_intact_package_after_the_window(tmp_path):
    storage = StorageResource(root=str(tmp_path / "wh"))
    store = storage.store()
    t, a, files = frozen_files()
    write_frozen(store, D, C, files)
    store.write_records("tasks", D, C, [t], Task)
    store.write_records(
        "gold_targets",
        D,
        C,
        [
            GoldTarget(
                task_id=t.task_id,
                family="direction",
                domain=D,
                cutoff=CUT,
                preferred_ranking=["A", "B"],
                slots=[GoldSlot(slot="primary_direction", variants=["tool use"])],
                strength=0.5,
            )
        ],
        GoldTarget,
    )
    store.write_table(
        "knowledge_base",
        D,
        C,
        pa.table({"arxiv_id": ["2601.00000"], "title": ["p"], "published": pa.array([date(2026, 1, 5)], pa.date32())}),
    )
    ok, events = score_run(storage, corpus_dir(tmp_path / "e", date(2026, 8, 1)))
    assert not ok and "not closed" in events
    late = corpus_dir(tmp_path / "l", date(2026, 8, 21))
    ok, events = score_run(storage, late)
    assert ok, events
    rows = store.read_table("prospective_scores", D, C).to_pylist()
    assert len(rows) == 1 and rows[0]["fta"] is not None and 0.0 < rows[0]["fta"] <= 1.0
    assert rows[0]["replay"] is False and rows[0]["package_sha256"] == json.loads(files["freeze.json"])["package_sha256"]
    # tuning the public task after freezing is refused
    store.write_records("tasks", D, C, [t.model_copy(update={"question": t.question + " (edited)"})], Task)
    ok, events = score_run(storage, late)
    assert not ok and "changed after freezing" in events


@pytest.mark.slow
def test_prospective_demo_on_the_shipped_corpus_2026_05_15(tmp_path, monkeypatch):
    """The ForeSci App. G package: cutoff 2026-05-15, window 2026-05-16 .. 2026-08-15, on every
    16th shipped llm_agent paper. Harvest up to the cutoff, sensor + schedule, freeze; then
    the full corpus (to 2026-08-21) arrives, the scoring sensor fires, and the scores exist."""
    from core.papers import SHIPPED_DIR
    from resources.lance import LanceResource
    from resources.llm import LLMResource

    lines = [line for i, line in enumerate(gzip.open(SHIPPED_DIR / "llm_agent.jsonl.gz", "rt")) if i % 16 == 0]
    then, now = tmp_path / "then", tmp_path / "now"
    for folder, keep in ((then, lambda r: r["published"] <= C), (now, lambda r: True)):
        folder.mkdir()
        with gzip.open(folder / "llm_agent.jsonl.gz", "wt") as f:
            f.writelines(line for line in lines if keep(json.loads(line)))
    from pipelines.resources import default_resources

    storage = StorageResource(root=str(tmp_path / "wh"), duckdb_path=str(tmp_path / "f.duckdb"))
    base = {
        **default_resources(),
        "storage": storage,
        "embeddings": EmbeddingResource(),
        "lance": LanceResource(uri=str(tmp_path / "lance")),
        "llm": LLMResource(model="", cache_dir=str(tmp_path / "cache")),
        "judge_llm": LLMResource(model="", cache_dir=str(tmp_path / "cache")),
    }
    with dg.instance_for_test() as instance:
        _demo(instance, then, now, storage, base, monkeypatch)


def _demo(instance, then, now, storage, base, monkeypatch):
    from pipelines.definitions import ALL_ASSETS

    monkeypatch.setattr(pr, "today", lambda: date(2026, 5, 16))
    source_then = CorpusSourceResource(shipped_dir=str(then))
    added = pr.prospective_cutoff_sensor(dg.build_sensor_context(instance=instance, resources={"corpus_source": source_then}))
    assert list(added.dynamic_partitions_requests[0].partition_keys) == [C]
    instance.add_dynamic_partitions("cutoff", [C])
    [req] = pr.prospective_refresh_schedule(
        dg.build_schedule_context(
            instance=instance, scheduled_execution_time=datetime(2026, 5, 16, 6, tzinfo=UTC), resources={"storage": storage}
        )
    )
    assets = ALL_ASSETS + pr.PROSPECTIVE_ASSETS

    def only(selection):  # the selected assets alone, so unrelated assets need no resources
        keys = selection.resolve(assets)
        return [a for a in assets if set(a.keys) & keys]

    package = dg.materialize(
        only(dg.AssetSelection.assets("prospective_forecasts").upstream()),
        partition_key=req.partition_key,
        instance=instance,
        resources={**base, "corpus_source": source_then},
    )
    assert package.success
    files = read_frozen(storage.store(), D, C)
    freeze = verify_package(files)
    assert (freeze["window_start"], freeze["window_end"]) == pr.DEMO_WINDOW
    assert freeze["n_tasks"] >= 4 and set(freeze["by_family"]) >= {"direction", "planning"}
    assert not storage.store().exists("future_window", D, C)  # prediction-only: nothing hidden built
    waiting = pr.prospective_scoring_sensor(
        dg.build_sensor_context(instance=instance, resources={"storage": storage, "corpus_source": source_then})
    )
    assert isinstance(waiting, dg.SkipReason)
    source_now = CorpusSourceResource(shipped_dir=str(now))
    [score_req] = pr.prospective_scoring_sensor(
        dg.build_sensor_context(instance=instance, resources={"storage": storage, "corpus_source": source_now})
    )
    scored = dg.materialize(
        only(dg.AssetSelection.assets("future_window", "gold_targets", "prospective_scores")),
        partition_key=score_req.partition_key,
        instance=instance,
        resources={**base, "corpus_source": source_now},
    )
    assert scored.success
    rows = storage.store().read_table("prospective_scores", D, C).to_pylist()
    assert len(rows) == freeze["n_forecasts"] and all(r["replay"] for r in rows)  # rebuilt after the window opened
    assert all(r["window_end"] == "2026-08-15" for r in rows)
    assert read_frozen(storage.store(), D, C) == files  # scoring never touched the frozen package

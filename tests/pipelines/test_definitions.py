"""The code location: it loads, every asset is partitioned and documented, and no public
asset (nor the agents' inputs) depends on the hidden future window or gold."""

import difflib
import json
import os
from pathlib import Path

import dagster as dg
import pytest

from assets.partitions import DOMAIN_CUTOFF_PARTITIONS
from pipelines.definitions import AGENT_VISIBLE_ASSETS, ALL_ASSETS, HIDDEN_ASSETS, defs


def _graph():
    return defs.resolve_asset_graph()


def _ancestors(graph, key: dg.AssetKey) -> set[str]:
    seen, stack = set(), [key]
    while stack:
        for parent in graph.get(stack.pop()).parent_keys:
            if parent.to_user_string() not in seen:
                seen.add(parent.to_user_string())
                stack.append(parent)
    return seen


def test_definitions_load_with_all_stages():
    graph = _graph()
    keys = {k.to_user_string() for k in graph.get_all_asset_keys()}
    assert keys == {
        "corpus_snapshot",
        "future_window",
        "corpus_volume",
        "paper_metadata",
        "paper_fulltext",
        "knowledge_base",
        "taxonomy",
        "evidence_records",
        "research_signals",
        "tasks",
        "gold_targets",
        "task_ranking",
        "audit_queue",
        "agent_answers",
        "answer_artifacts",
        "judge_scores",
        "validity_report",
        "release_package",
        "hf_export",
        "leaderboard",
        "prospective_forecasts",
        "prospective_scores",
        "idea_review_tasks",
        "idea_review_answers",
        "idea_review_scores",
        "release_card",
        "imported_evaluation",
    }
    assert defs.resolve_job_def("release_job") is not None
    assert defs.resolve_job_def("idea_review_job") is not None
    assert defs.resolve_job_def("full_release_job") is not None
    assert defs.resolve_job_def("imported_evaluation_job") is not None


def test_an_imported_release_is_evaluated_in_a_partition_dimension_of_its_own():
    """`imported_evaluation` (pipelines/evaluate_job.py): not a domain x cutoff asset; its own
    dynamic partitions, one per release, and the `controls_hold` check."""
    from pipelines.evaluate_job import IMPORTED_RELEASE_PARTITIONS

    node = _graph().get(dg.AssetKey("imported_evaluation"))
    assert node.partitions_def == IMPORTED_RELEASE_PARTITIONS and node.group_name == "evaluation"
    assert node.parent_keys == set() and node.description and len(node.description) > 40
    assert {c.name for c in node.check_keys} == {"controls_hold"}
    job = defs.resolve_job_def("imported_evaluation_job")
    assert {k.to_user_string() for k in job.asset_layer.executable_asset_keys} == {"imported_evaluation"}


def test_release_card_reads_every_partition_of_the_release():
    """The release-level card is the one unpartitioned asset of the release group, downstream
    of every partition's release package and validity report."""
    graph = _graph()
    node = graph.get(dg.AssetKey("release_card"))
    assert node.partitions_def is None and node.group_name == "release"
    assert {"release_package", "validity_report", "tasks"} <= {k.to_user_string() for k in node.parent_keys}
    job = defs.resolve_job_def("full_release_job")
    assert {k.to_user_string() for k in job.asset_layer.executable_asset_keys} == {"release_card"}
    # the job builds the partitions by default; the asset alone only rewrites the card
    card = job.config_mapping.resolve_from_unvalidated_config({})["ops"]["release_card"]["config"]
    assert card["build"] is True and card["allow_missing"] is False
    from pipelines.release import ReleaseCardConfig

    assert ReleaseCardConfig().build is False and ReleaseCardConfig().allow_missing is True


def test_idea_review_assets_share_the_cutoff_dimension_with_their_own_domain():
    from assets.partitions import IDEA_PARTITIONS
    from pipelines.definitions import SEED_ASSETS

    for asset in SEED_ASSETS:
        for spec in asset.specs:
            assert spec.partitions_def == IDEA_PARTITIONS and spec.description and len(spec.description) > 40
    dims = {d.name: d.partitions_def for d in IDEA_PARTITIONS.partitions_defs}
    assert dims["cutoff"] == DOMAIN_CUTOFF_PARTITIONS.get_partitions_def_for_dimension("cutoff")
    assert dims["domain"].get_partition_keys() == ["ideas"]


def test_every_asset_is_partitioned_by_domain_and_cutoff_and_documented():
    for asset in ALL_ASSETS:
        for spec in asset.specs:
            assert spec.partitions_def == DOMAIN_CUTOFF_PARTITIONS, spec.key
            assert spec.description and len(spec.description) > 40, spec.key
            assert spec.group_name != "default", spec.key
            assert spec.kinds, spec.key


def test_no_public_asset_depends_on_hidden_ones():
    graph = _graph()
    for name in AGENT_VISIBLE_ASSETS:
        leaked = _ancestors(graph, dg.AssetKey(name)) & set(HIDDEN_ASSETS)
        assert not leaked, f"{name} depends on hidden {leaked}"


def test_hidden_assets_are_actually_downstream_of_the_future_window_only_where_expected():
    graph = _graph()
    assert "future_window" in _ancestors(graph, dg.AssetKey("gold_targets"))
    # agents read public tasks, the released ids and the KB: not gold, not the future window directly
    parents = {k.to_user_string() for k in graph.get(dg.AssetKey("agent_answers")).parent_keys}
    assert parents == {"task_ranking", "knowledge_base"}  # the tasks as presented: task_ranking's presented_tasks


# -- the definitions snapshot ---------------------------------------------------------------------
# The whole code location in one checked-in file: asset keys, their deps (with any non-default
# partition mapping), groups, kinds, tags (`visibility: hidden`), partitions and checks; jobs with the
# assets they run and their partitions; schedules; sensors. A change to the graph shows up as a diff of that file in review.

SNAPSHOT = Path(__file__).with_name("definitions_snapshot.json")
UPDATE_ENV = "FORESCI_UPDATE_SNAPSHOT"


def _partitions(pd) -> object:
    if pd is None:
        return None
    if isinstance(pd, dg.MultiPartitionsDefinition):
        return {d.name: _partitions(d.partitions_def) for d in pd.partitions_defs}
    if isinstance(pd, dg.DynamicPartitionsDefinition):
        return f"dynamic:{pd.name}"
    if isinstance(pd, dg.StaticPartitionsDefinition):
        return pd.get_partition_keys()
    if isinstance(pd, dg.TimeWindowPartitionsDefinition):
        return f"time:{pd.cron_schedule}:{pd.start.isoformat()}"
    return type(pd).__name__


def definitions_snapshot() -> dict:
    graph = _graph()
    assets = {}
    for key in sorted(graph.get_all_asset_keys(), key=lambda k: k.to_user_string()):
        node = graph.get(key)
        assets[key.to_user_string()] = {
            "deps": sorted(k.to_user_string() for k in node.parent_keys),
            "partition_mappings": {
                k.to_user_string(): type(m).__name__
                for k, m in sorted(node.partition_mappings.items(), key=lambda km: km[0].to_user_string())
            },
            "group": node.group_name,
            "kinds": sorted(node.kinds),
            "tags": {k: v for k, v in sorted(node.tags.items()) if not k.startswith("dagster/kind/")},  # visibility
            "partitions": _partitions(node.partitions_def),
            "checks": sorted(c.name for c in node.check_keys),
        }
    jobs = {}
    for job in sorted(defs.resolve_all_job_defs(), key=lambda j: j.name):
        if job.name.startswith("__"):  # Dagster's implicit job over every asset
            continue
        jobs[job.name] = {
            "assets": sorted(k.to_user_string() for k in job.asset_layer.executable_asset_keys),
            "partitions": _partitions(job.partitions_def),
        }
    schedules = {}
    for s in sorted(defs.schedules or [], key=lambda s: s.name):
        s = defs.resolve_schedule_def(s.name)
        schedules[s.name] = {
            "cron": s.cron_schedule,
            "timezone": s.execution_timezone,
            "job": s.job_name,
            "default_status": s.default_status.value,
        }
    sensors = {}
    for s in sorted(defs.sensors or [], key=lambda s: s.name):
        s = defs.resolve_sensor_def(s.name)
        sensors[s.name] = {
            "jobs": sorted(t.job_name for t in s.targets),
            "minimum_interval_seconds": s.minimum_interval_seconds,
            "default_status": s.default_status.value,
        }
    return {"assets": assets, "jobs": jobs, "schedules": schedules, "sensors": sensors}


def test_definitions_match_the_checked_in_snapshot():
    current = json.dumps(definitions_snapshot(), indent=1, sort_keys=True) + "\n"
    if os.environ.get(UPDATE_ENV):
        SNAPSHOT.write_text(current)
    expected = SNAPSHOT.read_text() if SNAPSHOT.exists() else ""
    if current != expected:
        diff = "".join(
            difflib.unified_diff(expected.splitlines(True), current.splitlines(True), str(SNAPSHOT.name), "the code location now")
        )
        pytest.fail(
            f"the Dagster definitions changed:\n{diff}\nIf the change is intended, update the snapshot with\n"
            f"  {UPDATE_ENV}=1 .venv/bin/python -m pytest {Path(__file__).resolve().relative_to(Path(__file__).resolve().parents[2])} -k snapshot\n"
            "and commit tests/pipelines/definitions_snapshot.json with the change.",
            pytrace=False,
        )


def test_the_snapshot_catches_a_changed_dependency(monkeypatch):
    """The snapshot is sensitive to what it claims: a new dependency changes it."""
    snap = definitions_snapshot()
    assert snap["assets"]["agent_answers"]["deps"] == ["knowledge_base", "task_ranking"]  # the presented tasks
    assert snap["assets"]["gold_targets"]["tags"] == {"visibility": "hidden"} and snap["assets"]["tasks"]["tags"] == {}
    assert snap["jobs"]["release_job"]["partitions"] == {
        "cutoff": "dynamic:cutoff",
        "domain": DOMAIN_CUTOFF_PARTITIONS.get_partitions_def_for_dimension("domain").get_partition_keys(),
    }
    real = _graph

    class Node:
        def __init__(self, node):
            self._node = node

        def __getattr__(self, name):
            return getattr(self._node, name)

        @property
        def parent_keys(self):
            extra = {dg.AssetKey("gold_targets")} if self._node.key == dg.AssetKey("agent_answers") else set()
            return set(self._node.parent_keys) | extra

    class Graph:
        def __init__(self, graph):
            self._graph = graph

        def get_all_asset_keys(self):
            return self._graph.get_all_asset_keys()

        def get(self, key):
            return Node(self._graph.get(key))

    monkeypatch.setitem(globals(), "_graph", lambda: Graph(real()))
    changed = definitions_snapshot()
    assert changed["assets"]["agent_answers"]["deps"] == ["gold_targets", "knowledge_base", "task_ranking"]
    assert changed != snap

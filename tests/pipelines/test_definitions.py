"""The code location: it loads, every asset is partitioned and documented, and no public
asset (nor the agents' inputs) depends on the hidden future window or gold."""

import dagster as dg

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
        "corpus_snapshot", "future_window", "corpus_volume", "paper_metadata", "paper_fulltext", "knowledge_base", "taxonomy", "evidence_records", "research_signals",
        "tasks", "gold_targets", "task_ranking", "audit_queue", "agent_answers", "answer_artifacts", "judge_scores",
        "validity_report", "release_package", "hf_export", "leaderboard",
        "prospective_forecasts", "prospective_scores",
        "idea_review_tasks", "idea_review_answers", "idea_review_scores", "release_card", "imported_evaluation",
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

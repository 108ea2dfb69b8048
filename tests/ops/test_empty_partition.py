"""A partition with nothing to release completes (empty release, one-line reason), and a
paper dated in the future is a failure row, not a silent drop."""

import json

import dagster as dg
import pytest

from assets.partitions import partition_key
from core.papers import parse_paper_line
from pipelines.definitions import ALL_ASSETS, ALL_CHECKS
from tests.ops.corpora import sampled_corpora
from tests.ops.worker import resources

D, C = "llm_agent", "2023-03-31"  # three months into the corpus: too little to build any task
FUTURE_LINE = json.dumps(
    {
        "arxiv_id": "2099.00001",
        "title": "A paper from 2099",
        "abstract": "Agents, later.",
        "published": "2099-01-01",
        "categories": ["cs.AI"],
    }
)


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    root = tmp_path_factory.mktemp("empty")
    corpus = sampled_corpora(root / "corpus", 64, {D: [FUTURE_LINE]})
    res = resources(root, corpus)
    instance = dg.DagsterInstance.ephemeral()
    instance.add_dynamic_partitions("cutoff", [C])
    result = dg.materialize(
        ALL_ASSETS + ALL_CHECKS, partition_key=partition_key(D, C), instance=instance, resources=res, raise_on_error=False
    )
    return res["storage"].store(), result


def test_the_empty_partition_completes_with_an_empty_release_and_its_reason(built):
    store, result = built
    assert result.success
    assert store.read_table("tasks", D, C).num_rows == 0
    manifest = json.loads(store.read_bytes(store.artifact_path("release", D, C, "manifest.json")))
    assert manifest["counts"]["tasks"] == 0
    reason = manifest["empty_reason"]
    assert reason.startswith("no task built: ") and "\n" not in reason
    assert store.read_bytes(store.artifact_path("release", D, C, "tasks.jsonl")) == b""
    assert store.read_table("release_package", D, C).column("empty_reason").to_pylist() == [reason]
    [mat] = result.asset_materializations_for_node("release_package")
    assert mat.metadata["empty_reason"].value == reason
    assert store.read_table("leaderboard", D, C).num_rows == 0
    con, views = store.memory_views()  # the views that joined on the empty tables bind
    assert "leaderboard_by_family_method_domain" in views
    assert con.execute("SELECT count(*) FROM leaderboard_by_family_method_domain").fetchone()[0] == 0


def test_a_future_dated_paper_is_a_failure_row(built):
    store, _ = built
    rows = [r for r in store.read_table("corpus_snapshot_failures", D, C).to_pylist() if r["item_id"] == "2099.00001"]
    assert len(rows) == 1 and rows[0]["reason"].startswith("date 2099-01-01 is in the future")
    con, _ = store.memory_views()
    assert con.execute("SELECT count(*) FROM corpus_failures WHERE item_id = '2099.00001'").fetchone()[0] == 1


def test_parse_paper_line_refuses_a_future_date():
    paper, failure = parse_paper_line(FUTURE_LINE, "x.jsonl:1")
    assert paper is None and "in the future" in failure.reason and failure.item_id == "2099.00001"

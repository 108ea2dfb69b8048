"""Releases: manifest contents, byte-identical rebuilds, immutability of a version, and the
leakage validation that refuses a release."""

from __future__ import annotations

import os

os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")

import json
from datetime import date
from pathlib import Path

import dagster as dg
import pytest

from assets.partitions import partition_key
from assets.ranking.presentation import write_presented
from assets.release.logic import (
    ReleaseImmutableError,
    publish_release,
    release_files,
    release_id,
    sha256,
    validate_release,
)
from core.records import (
    Task,
)
from resources.llm import LLMResource
from resources.storage import PartitionStore, StorageResource
from tests.factories import RELEASE_GOLDS as GOLDS
from tests.factories import RELEASE_KB as KB
from tests.factories import RELEASE_RATINGS as RATINGS
from tests.factories import RELEASE_TASKS as TASKS
from tests.factories import materialize_release, sampled_shipped_corpus, seed_store

D, C = "llm_agent", "2025-12-31"
CUT = date(2025, 12, 31)


def files(**kw):
    args = dict(
        domain=D,
        cutoff=C,
        window_end="2026-06-30",
        horizon_months=6,
        corpus_version="c1",
        taxonomy_version="t1",
        window_start="2026-01-01",
    )
    args.update(kw)
    return release_files(TASKS, RATINGS, GOLDS, KB, **args)


def test_manifest_counts_versions_and_hashes():
    public, hidden, manifest = files()
    assert manifest["counts"] == {
        "tasks": 3,
        "by_family": {"direction": 1, "planning": 1, "venue": 1},
        "by_domain": {D: 3},
        "by_horizon": {"6-month": 2, "venue cycle": 1},
        "by_family_horizon": {"direction/6-month": 1, "planning/6-month": 1, "venue/venue cycle": 1},
        "kb_papers": 1,
        "gold_targets": 3,
    }
    assert manifest["cutoffs"] == [C] and manifest["windows"] == [{"start": "2026-01-01", "end": "2026-06-30"}]
    assert manifest["corpus_version"] == "c1" and manifest["taxonomy_version"] == "t1"
    assert manifest["sha256"] == {
        "tasks.jsonl": sha256(public["tasks.jsonl"]),
        "kb_manifest.jsonl": sha256(public["kb_manifest.jsonl"]),
        "gold.jsonl": sha256(hidden["gold.jsonl"]),
    }
    assert json.loads(public["manifest.json"]) == manifest
    assert release_id(manifest) == f"r-{manifest['release_version']}"
    assert "claims" not in public["tasks.jsonl"].decode() and b"preferred_ranking" in hidden["gold.jsonl"]
    named = files(release_name="v1.0")[2]
    assert release_id(named) == "v1.0" and named["release_version"] != manifest["release_version"]
    assert validate_release(public, GOLDS) == []


def test_same_inputs_same_bytes_and_version():
    a, b = files(), files()
    assert a == b
    shuffled = release_files(
        list(reversed(TASKS)),
        list(reversed(RATINGS)),
        list(reversed(GOLDS)),
        KB,
        domain=D,
        cutoff=C,
        window_end="2026-06-30",
        horizon_months=6,
        corpus_version="c1",
        taxonomy_version="t1",
        window_start="2026-01-01",
    )
    assert shuffled == a


def test_a_version_is_written_once(tmp_path):
    store = PartitionStore(str(tmp_path / "wh"))
    public, hidden, manifest = files(release_name="v1")
    paths = publish_release(store, D, C, "v1", public, hidden)
    assert set(paths) == {"tasks.jsonl", "kb_manifest.jsonl", "manifest.json", "gold.jsonl"}
    assert "/hidden/_artifacts/releases/" in paths["gold.jsonl"] and "/public/" in paths["tasks.jsonl"]
    before = {n: Path(p).stat().st_mtime_ns for n, p in paths.items()}
    assert publish_release(store, D, C, "v1", public, hidden) == paths  # same bytes: no-op
    assert {n: Path(p).stat().st_mtime_ns for n, p in paths.items()} == before
    changed = dict(public, **{"tasks.jsonl": public["tasks.jsonl"] + b"\n"})
    with pytest.raises(ReleaseImmutableError, match="v1 .* differs in tasks.jsonl"):
        publish_release(store, D, C, "v1", changed, hidden)
    assert Path(paths["tasks.jsonl"]).read_bytes() == public["tasks.jsonl"]  # untouched
    publish_release(store, D, C, "v2", changed, hidden)  # a new version is fine


def test_validate_release_reads_the_files_as_a_consumer():
    public, hidden, _ = files()
    rows = [json.loads(line) for line in public["tasks.jsonl"].decode().splitlines()]
    rows[0]["preferred_ranking"] = ["B", "A"]
    rows[1]["question"] += " Note: " + GOLDS[0].claims[0].text  # another task's answer
    leaky = dict(public, **{"tasks.jsonl": "".join(json.dumps(r) + "\n" for r in rows).encode()})
    messages = validate_release(leaky, GOLDS)
    assert any("gold-only key 'preferred_ranking'" in m for m in messages)
    assert any(m.startswith(rows[1]["task_id"]) and "gold-only content" in m for m in messages)


# -- the asset: byte-identical rebuild into two stores, refusal of a leaky release ---------


def release_bytes(storage) -> dict[str, bytes]:
    out = {}
    for vis in ("public", "hidden"):
        base = Path(storage.root) / vis / "_artifacts"
        for path in sorted(base.rglob("*")):
            if path.is_file():
                out[f"{vis}/{path.relative_to(base)}"] = path.read_bytes()
    return out


def test_release_asset_rebuilds_byte_identically_in_two_stores(tmp_path):
    one, two = seed_store(tmp_path / "one"), seed_store(tmp_path / "two")
    assert materialize_release(one, tmp_path / "one")[0]
    assert materialize_release(two, tmp_path / "two")[0]
    a, b = release_bytes(one), release_bytes(two)
    assert a == b and len(a) == 8  # latest (3 public + gold) and the versioned copy (3 + gold)
    manifest = json.loads(a["public/release/domain=llm_agent/cutoff=2025-12-31/manifest.json"])
    assert f"public/releases/domain=llm_agent/cutoff=2025-12-31/r-{manifest['release_version']}/manifest.json" in a
    # rebuilding the same version in the same store is a no-op ...
    assert materialize_release(one, tmp_path / "one")[0] and release_bytes(one) == a
    # ... but publishing different content under the same name fails
    assert materialize_release(one, tmp_path / "one", {"release_name": "v1"})[0]
    store = one.store()
    changed = [t.model_copy(update={"title": t.title + "!"}) for t in TASKS]
    store.write_records("tasks", D, C, changed, Task)
    write_presented(store, D, C, changed, GOLDS, RATINGS)  # task_ranking's rebuild after the tasks changed
    ok, error = materialize_release(one, tmp_path / "one", {"release_name": "v1"})
    assert not ok and "ReleaseImmutableError" in error and "differs in manifest.json, tasks.jsonl" in error


def test_release_asset_refuses_a_leaky_release(tmp_path):
    leaky = [
        t.model_copy(update={"question": t.question + " Hint: " + GOLDS[0].claims[0].text})
        if t.task_id == TASKS[2].task_id
        else t
        for t in TASKS
    ]
    storage = seed_store(tmp_path, leaky)
    ok, error = materialize_release(storage, tmp_path)
    assert not ok and "LeakageError" in error and TASKS[2].task_id in error
    assert not (Path(storage.root) / "public" / "_artifacts").exists()  # nothing was published


@pytest.mark.slow
def test_full_graph_rebuild_gives_a_byte_identical_release(tmp_path):
    """Every asset materialized twice (every 40th paper of the shipped llm_agent corpus) into
    two stores: the release files are byte for byte the same."""
    from pipelines.definitions import ALL_ASSETS
    from resources.corpus_source import CorpusSourceResource
    from resources.embeddings import EmbeddingResource
    from resources.lance import LanceResource

    corpus = sampled_shipped_corpus(tmp_path / "corpus", 40)
    outs = []
    for name in ("one", "two"):
        root = tmp_path / name
        storage = StorageResource(root=str(root / "wh"), duckdb_path=str(root / "f.duckdb"))
        from pipelines.resources import default_resources

        resources = {
            **default_resources(),
            "storage": storage,
            "corpus_source": CorpusSourceResource(shipped_dir=str(corpus)),
            "embeddings": EmbeddingResource(),
            "lance": LanceResource(uri=str(root / "lance")),
            "llm": LLMResource(model="", cache_dir=str(root / "cache")),
            "judge_llm": LLMResource(model="", cache_dir=str(root / "cache")),
        }
        instance = dg.DagsterInstance.ephemeral()
        instance.add_dynamic_partitions("cutoff", [C])
        selection = [a for a in ALL_ASSETS if "leaderboard" not in {k.to_user_string() for k in a.keys}]
        result = dg.materialize(selection, partition_key=partition_key(D, C), instance=instance, resources=resources)
        assert result.success
        outs.append({k: v for k, v in release_bytes(storage).items() if "/release" in k})
    assert outs[0] == outs[1] and any(k.endswith("tasks.jsonl") for k in outs[0])

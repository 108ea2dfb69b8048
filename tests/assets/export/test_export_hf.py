"""Hugging Face export: every config loads with `datasets`, the gold stays out of the public
tree, a leaky export is refused, and the KB rebuilt from the export retrieves exactly what
the original KB retrieves."""

from __future__ import annotations

import os

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("HF_DATASETS_OFFLINE", "1")

import lancedb
import pytest
import yaml

from assets.export.hf import (
    ExportError,
    ReleaseFiles,
    check_apart,
    default_private_dir,
    export_hf,
    kb_papers,
)
from assets.knowledge_base.logic import KnowledgeBaseView, build_kb
from assets.release.logic import kb_manifest_row, release_files
from core.leakage import GOLD_ONLY_KEYS, LeakageError
from core.papers import metadata_licence
from core.records import GoldTarget
from tests.factories import AGENT_CUTOFF
from tests.factories import RELEASE_GOLDS as GOLDS
from tests.factories import RELEASE_RATINGS as RATINGS
from tests.factories import RELEASE_TASKS as TASKS

QUERIES = (
    "tool use for LLM agents",
    "multi-agent collaboration benchmark",
    "planning with memory",
    "web navigation agents",
    "reinforcement learning from feedback",
)


def kb_rows(papers) -> list[dict]:
    """The knowledge_base manifest rows of the KB papers, as the release writes them."""
    return [kb_manifest_row({**p.model_dump(), "licence": metadata_licence(p.source)}) for p in papers]


@pytest.fixture(scope="module")
def kb_source(sample_papers):
    """The KB of a partition: the snapshot's non-excluded papers up to the cutoff."""
    return [p for p in sample_papers if p.published <= AGENT_CUTOFF and p.label != "excluded"]


@pytest.fixture(scope="module")
def exported(tmp_path_factory, kb_source):
    public, hidden, _ = release_files(
        TASKS,
        RATINGS,
        GOLDS,
        kb_rows(kb_source),
        domain="llm_agent",
        cutoff=AGENT_CUTOFF.isoformat(),
        window_end="2026-06-30",
        horizon_months=6,
        corpus_version="c",
        taxonomy_version="t",
        window_start="2026-01-01",
    )
    release = ReleaseFiles.from_bytes({**public, **hidden})
    out = tmp_path_factory.mktemp("hf") / "foresci-release"
    export = export_hf([release])
    export.write(out, default_private_dir(out))
    return out, default_private_dir(out), release, export


def card_header(out) -> dict:
    text = (out / "README.md").read_text()
    return yaml.safe_load(text.split("---\n")[1])


def test_every_config_loads_with_datasets(exported):
    from datasets import load_dataset

    out, _, release, export = exported
    header = card_header(out)
    configs = [c["config_name"] for c in header["configs"]]
    released = sorted(t.task_id for t in release.tasks)
    assert set(configs) == {"direction", "planning", "venue", "kb", "releases"}
    assert len(released) == 3  # the ranking held one direction task back: it is not exported
    assert header["license"] == "cc0-1.0" and header["size_categories"] and "question-answering" in header["task_categories"]
    seen = []
    for config in configs:
        data = load_dataset(str(out), name=config, split="test")
        assert len(data) == export.configs[config] > 0
        if config not in ("kb", "releases"):
            assert set(data["family"]) == {config}
            seen += data["task_id"]
            assert not set(data.column_names) & GOLD_ONLY_KEYS
            assert data[0]["options"][0]["option_id"] == "A"
    assert sorted(seen) == released
    kb = load_dataset(str(out), name="kb", split="test")
    assert {"arxiv_id", "title", "abstract", "published", "licence", "source"} <= set(kb.column_names)
    assert all(kb["abstract"]) and set(kb["licence"]) == {"CC0-1.0"}
    prose = (out / "README.md").read_text()
    for needle in ("## Cutoff and window", "## How the gold is hidden", "## How to score", "ForeSci", "## Citation"):
        assert needle in prose


def test_gold_goes_only_to_the_private_directory(exported):
    from datasets import load_dataset

    out, private, release, _ = exported
    public_bytes = b"".join(p.read_bytes() for p in out.rglob("*") if p.is_file())
    for g in release.golds:
        assert g.claims[0].text.encode() not in public_bytes
    assert not any("gold" in p.name for p in out.rglob("*"))
    golds = {}
    for config in ("direction", "planning", "venue"):
        for row in load_dataset(str(private), name=config, split="test"):
            golds[row["task_id"]] = GoldTarget.model_validate_json(row["gold_json"])
    assert golds == {g.task_id: g for g in release.golds}


def test_a_leaky_export_and_a_private_dir_inside_the_public_one_are_refused(exported, tmp_path):
    _, _, release, _ = exported
    leaky = release.tasks[0].model_copy(
        update={"question": release.tasks[0].question + " Hint: " + release.golds[0].claims[0].text}
    )
    bad = ReleaseFiles(
        domain=release.domain,
        cutoff=release.cutoff,
        manifest=release.manifest,
        tasks=[leaky, *release.tasks[1:]],
        kb_rows=release.kb_rows,
        golds=release.golds,
    )
    with pytest.raises(LeakageError, match=leaky.task_id):
        export_hf([bad])
    with pytest.raises(ExportError):
        check_apart(tmp_path / "out", tmp_path / "out" / "private")


def test_the_kb_rebuilt_from_the_export_retrieves_the_same_papers(exported, kb_source, embed, tmp_path):
    from datasets import load_dataset

    out, _, release, _ = exported
    original = build_kb(lancedb.connect(tmp_path / "a"), "kb_a", kb_source, embed)[0]
    rows = load_dataset(str(out), name="kb", split="test").to_list()
    rebuilt_papers = kb_papers(rows, release.domain, release.cutoff)
    assert len(rebuilt_papers) == len(kb_source)
    rebuilt = build_kb(lancedb.connect(tmp_path / "b"), "kb_b", rebuilt_papers, embed)[0]
    a, b = KnowledgeBaseView(original, AGENT_CUTOFF, embed), KnowledgeBaseView(rebuilt, AGENT_CUTOFF, embed)
    compared = 0
    for query in QUERIES:
        for mode in ("hybrid", "dense", "text"):
            ids = [h.arxiv_id for h in a.search(query, k=10, mode=mode)]
            assert ids == [h.arxiv_id for h in b.search(query, k=10, mode=mode)], (query, mode)
            compared += bool(ids)
    assert compared >= 10
    some = kb_source[3].arxiv_id
    assert a.get(some).snippet == b.get(some).snippet


def test_the_public_check_sees_hidden_files_and_gold_columns():
    import pyarrow as pa

    from assets.export.hf import parquet_bytes, public_violations

    leaky = {
        "gold.jsonl": b"{}\n",
        "hf_private/direction/test.parquet": b"",
        "direction/test.parquet": parquet_bytes(pa.table({"task_id": ["t1"], "preferred_ranking": [["A"]]})),
    }
    messages = public_violations(leaky, [])
    assert any("gold.jsonl: a hidden file" in m for m in messages)
    assert any("hf_private/direction/test.parquet: a hidden file" in m for m in messages)
    assert any("gold-only column 'preferred_ranking'" in m for m in messages)

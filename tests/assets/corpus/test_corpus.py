"""Corpus stage: parsing with recorded failures, dedup, screening, the cutoff split."""

import json
from datetime import date

import pytest

from assets.corpus.logic import deduplicate, monthly_volume, screen, split_at_cutoff
from core.papers import add_months, read_jsonl
from core.records import Paper
from core.registry import load_registry
from resources.embeddings import load_embedder
from tests.fixture_data import fixture_path

DESCRIPTIONS = {k: v.description for k, v in load_registry().domains.items()}


def _line(**kw):
    base = {
        "arxiv_id": "2501.00001",
        "title": "Agents that use tools",
        "abstract": "We study LLM agents.",
        "published": "2025-01-02",
        "categories": ["cs.AI"],
        "authors": [],
        "source": "test",
    }
    return json.dumps(base | kw)


def test_bad_lines_become_failure_rows_and_the_rest_is_kept(tmp_path):
    path = tmp_path / "c.jsonl"
    path.write_text(
        "\n".join(
            [
                _line(),
                '{"arxiv_id": "2501.00002", "title": "trunc',  # malformed JSON
                _line(arxiv_id="2501.00003", published=None),  # no date
                _line(arxiv_id="2501.00004", published="1985-01-01"),  # before arXiv existed
                _line(arxiv_id="2501.00005", published="2025-13-45"),  # invalid date
                _line(arxiv_id="2501.00006", title=""),  # empty title
                _line(arxiv_id="2501.00007"),
            ]
        )
        + "\n"
    )
    papers, failures = read_jsonl(path)
    assert [p.arxiv_id for p in papers] == ["2501.00001", "2501.00007"]
    reasons = {f.item_id: f.reason for f in failures}
    assert "malformed JSON" in reasons["c.jsonl:2"]
    assert "no publication date" in reasons["2501.00003"]
    assert "predates arXiv" in reasons["2501.00004"]
    assert "invalid field published" in reasons["2501.00005"]
    assert "empty title" in reasons["2501.00006"]


def test_deduplicate_collapses_versions_to_first_submission():
    a = Paper(arxiv_id="2501.00001v2", title="t", abstract="a", published=date(2025, 2, 1))
    b = Paper(arxiv_id="2501.00001", title="t", abstract="a", published=date(2025, 1, 5))
    assert [(p.arxiv_id, p.published) for p in deduplicate([a, b])] == [("2501.00001", date(2025, 1, 5))]


def test_screen_labels_on_topic_papers_above_off_topic_ones():
    embed = load_embedder().encode
    on = Paper(
        arxiv_id="1",
        title="Tool-using LLM agents for multi-step web navigation",
        abstract="We build autonomous language model agents that plan, call tools and browse the web.",
        published=date(2025, 1, 1),
    )
    off = Paper(
        arxiv_id="2",
        title="Latent diffusion for text-to-video generation",
        abstract="We train a video diffusion transformer for high-resolution text-to-video synthesis.",
        published=date(2025, 1, 1),
    )
    s_on, s_off = screen([on, off], "llm_agent", DESCRIPTIONS, embed)
    assert s_on.relevance > s_off.relevance
    assert s_on.label == "core" and s_off.label == "excluded"
    assert "relevance" in s_on.reason and "closest aspect" in s_on.reason


def test_unknown_domain_is_a_clear_error():
    with pytest.raises(KeyError, match="unknown domain"):
        screen([], "not_a_domain", DESCRIPTIONS, load_embedder().encode)
    with pytest.raises(KeyError, match="unknown domain 'nope'.*known"):
        load_registry().domain("nope")


def test_split_at_cutoff_on_real_sample():
    papers, failures = read_jsonl(fixture_path("arxiv/samples/llm_agent.sample.jsonl"))
    assert not failures
    screened = screen(papers, "llm_agent", DESCRIPTIONS, load_embedder().encode)
    public, future, end = split_at_cutoff(screened, date(2025, 12, 31), 6)
    assert end == date(2026, 6, 30)
    assert public and future
    assert max(p.published for p in public) <= date(2025, 12, 31)
    assert all(date(2025, 12, 31) < p.published <= end for p in future)
    assert not {p.arxiv_id for p in public} & {p.arxiv_id for p in future}
    assert sum(monthly_volume(public).values()) == len(public)


def test_add_months_clamps_to_month_end():
    assert add_months(date(2025, 8, 31), 6) == date(2026, 2, 28)
    assert add_months(date(2025, 12, 31), 6) == date(2026, 6, 30)
    assert add_months(date(2026, 5, 15), 3) == date(2026, 8, 15)


def _screened(aid: str, day: date, label: str):
    from core.records import ScreenedPaper

    return ScreenedPaper(
        arxiv_id=aid, title="t", abstract="a", published=day, domain="llm_agent", relevance=0.1, label=label, reason="r"
    )


def test_volume_by_label_counts_every_month_with_explicit_zeros():
    from assets.corpus.logic import volume_by_label

    papers = [
        _screened("1", date(2025, 1, 3), "core"),
        _screened("2", date(2025, 1, 9), "excluded"),
        _screened("3", date(2025, 3, 1), "support"),
        _screened("4", date(2025, 3, 30), "core"),
    ]
    rows = volume_by_label(papers)
    assert [(r.month, r.total, r.core, r.support, r.excluded, r.relevant) for r in rows] == [
        ("2025-01", 2, 1, 0, 1, 1),
        ("2025-02", 0, 0, 0, 0, 0),
        ("2025-03", 2, 1, 1, 0, 2),
    ]
    assert volume_by_label([]) == []


def test_corpus_volume_asset_matches_the_snapshot(tmp_path):
    import dagster as dg

    from assets.corpus.definitions import corpus_volume
    from assets.partitions import partition_key
    from core.records import MonthVolume, ScreenedPaper
    from resources.storage import StorageResource

    papers, _ = read_jsonl(fixture_path("arxiv/samples/llm_agent.sample.jsonl"))
    screened = screen(papers, "llm_agent", DESCRIPTIONS, load_embedder().encode)
    public, _, _ = split_at_cutoff(screened, date(2025, 12, 31), 6)
    storage = StorageResource(root=str(tmp_path / "wh"), duckdb_path=str(tmp_path / "f.duckdb"))
    storage.store().write_records("corpus_snapshot", "llm_agent", "2025-12-31", public, ScreenedPaper)
    instance = dg.DagsterInstance.ephemeral()
    instance.add_dynamic_partitions("cutoff", ["2025-12-31"])
    result = dg.materialize(
        [corpus_volume], partition_key=partition_key("llm_agent", "2025-12-31"), instance=instance, resources={"storage": storage}
    )
    rows = storage.store().read_records("corpus_volume", "llm_agent", "2025-12-31", MonthVolume)
    assert sum(r.total for r in rows) == len(public)
    assert {r.month: r.total for r in rows if r.total} == monthly_volume(public)
    assert all(r.relevant == r.core + r.support and r.total == r.relevant + r.excluded for r in rows)
    [mat] = result.asset_materializations_for_node("corpus_volume")
    assert mat.metadata["papers"].value == len(public) and mat.metadata["months"].value == len(rows)


def test_shipped_source_through_load_domain():
    from resources.corpus_source import CorpusSourceResource

    spec = load_registry().domain("llm_agent")
    loaded = CorpusSourceResource().load_domain(spec, date(2025, 12, 31))
    assert loaded.info == {"source": "shipped", "file": "llm_agent.jsonl.gz"}
    assert len(loaded.papers) == 11880 and loaded.failures == []
    assert all(p.harvested_at is None for p in loaded.papers[:10])

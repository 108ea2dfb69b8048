"""arXiv harvest: Atom parsing of pages written from real shipped records, month windows,
paging, polite retries, incremental re-harvest, and every fault as a failure row — all
through the real client against a loopback server."""

from datetime import UTC, date, datetime

import dagster as dg
import pytest

from assets.partitions import partition_key
from core.http import RetryPolicy
from resources.arxiv import ArxivConfig
from resources.arxiv_harvest import (
    ArxivHarvester,
    HarvestStore,
    month_windows,
    parse_atom,
    window_query,
)
from resources.corpus_source import CorpusSourceResource
from tests.fixtures.arxiv_atom import HERE, arxiv_handler, load_records
from tests.loopback import Fault, Loopback

QUERY = '(abs:"LLM agent" OR abs:"tool use")'
MONTHS = ["2024-07", "2024-08", "2024-09"]
LATER = datetime(2024, 11, 1, tzinfo=UTC)  # every window of MONTHS is settled


def _harvester(server, now=LATER, page_size=3, sleeps=None, retries=2):
    sleeps = [] if sleeps is None else sleeps
    policy = RetryPolicy(max_retries=retries, backoff_s=0.01, timeout_s=0.5, sleep=sleeps.append)
    return ArxivHarvester(
        server.url + "/api/query", page_size=page_size, delay_s=0.0, policy=policy, now=lambda: now, sleep=sleeps.append
    )


def _window_of(req) -> str:
    return req.query["search_query"].split("submittedDate:[")[1][:6]  # YYYYMM


def test_recorded_page_parses_to_the_real_records_and_versions_collapse():
    real = {r["arxiv_id"]: r for r in load_records()}
    page = parse_atom((HERE / "page_2024-08_start0.xml").read_text(), "arxiv-api:q", "2024-11-01T00:00:00+00:00")
    assert (page.total, page.start, page.n_entries, page.failures) == (7, 0, 5, [])
    for p in page.papers:
        r = real[p.arxiv_id]  # the versioned Atom id (e.g. 2408.03615v3) collapses to the bare id
        assert (p.title, p.abstract, p.published.isoformat()) == (r["title"], r["abstract"], r["published"])
        assert p.categories[0] == r["categories"][0] and set(p.categories) == set(r["categories"])
        assert p.authors == r["authors"]
        assert p.source == "arxiv-api:q" and p.harvested_at == "2024-11-01T00:00:00+00:00"
    assert "2408.03615v3" in (HERE / "page_2024-08_start0.xml").read_text()
    assert any(p.arxiv_id == "2408.03615" and p.published == date(2024, 8, 7) for p in page.papers)


@pytest.mark.parametrize(
    "text, message",
    [
        ((HERE / "error_feed.xml").read_text(), "arXiv API error: incorrect id format"),
        ((HERE / "page_2024-08_start0.xml").read_text()[:3000], "malformed Atom page"),
        ("<html><body>Rate exceeded.</body></html>", "not an Atom feed"),
        ('<feed xmlns="http://www.w3.org/2005/Atom"></feed>', "without opensearch:totalResults"),
    ],
)
def test_bad_pages_are_errors_with_a_reason(text, message):
    with pytest.raises(ValueError, match=message):
        parse_atom(text, "s", "t")


def test_month_windows_and_query():
    assert month_windows("2024-11", date(2025, 2, 3)) == ["2024-11", "2024-12", "2025-01", "2025-02"]
    assert window_query("cat:cs.AI", "2024-02") == "(cat:cs.AI) AND submittedDate:[202402010000 TO 202402292359]"


def test_harvest_pages_every_month_and_rerun_fetches_nothing(tmp_path):
    records = load_records()
    with Loopback(arxiv_handler(records)) as server:
        store = HarvestStore(tmp_path, "llm_agent")
        report = _harvester(server).harvest(store, "llm_agent", QUERY, MONTHS)
        assert sorted(p.arxiv_id for p in report.papers) == sorted(r["arxiv_id"] for r in records)
        assert report.fetched == MONTHS and report.failures == []
        # 7 + 7 + 6 records at 3 per page: 3 + 3 + 2 requests, each with the window's date range
        calls = server.requests_to("/api/query")
        assert [_window_of(r) for r in calls] == ["202407"] * 3 + ["202408"] * 3 + ["202409"] * 2
        assert all(r.query["sortBy"] == "submittedDate" and r.query["max_results"] == "3" for r in calls)
        assert all(QUERY in r.query["search_query"] for r in calls)

        again = _harvester(server).harvest(store, "llm_agent", QUERY, MONTHS)
        assert len(server.requests_to("/api/query")) == 8  # nothing new: every window is stored and settled
        assert again.skipped == MONTHS and len(again.papers) == 20


def test_an_open_month_is_fetched_again_but_settled_ones_are_not(tmp_path):
    with Loopback(arxiv_handler(load_records())) as server:
        store = HarvestStore(tmp_path, "llm_agent")
        mid_september = datetime(2024, 9, 20, tzinfo=UTC)
        _harvester(server, now=mid_september).harvest(store, "llm_agent", QUERY, MONTHS)
        assert store.state("2024-09")["complete"] is False and store.state("2024-08")["complete"] is True
        n = len(server.requests_to("/api/query"))
        report = _harvester(server).harvest(store, "llm_agent", QUERY, MONTHS)
        assert report.fetched == ["2024-09"] and report.skipped == ["2024-07", "2024-08"]
        assert {_window_of(r) for r in server.requests_to("/api/query")[n:]} == {"202409"}
        # a changed query invalidates the stored windows
        report = _harvester(server).harvest(store, "llm_agent", QUERY + " AND cat:cs.AI", MONTHS)
        assert report.fetched == MONTHS


def test_429_5xx_timeouts_and_cut_connections_are_retried_with_backoff(tmp_path):
    sleeps: list[float] = []
    with Loopback(arxiv_handler(load_records())) as server:
        server.faults["/api/query"] = [Fault.http(429, retry_after="7"), Fault.http(503), Fault.timeout(1.5), Fault.drop()]
        report = _harvester(server, sleeps=sleeps, retries=4).harvest(HarvestStore(tmp_path, "d"), "d", QUERY, MONTHS)
    assert report.failures == [] and len(report.papers) == 20
    assert report.requests == 8 + 4  # 4 injected faults, each retried once more
    assert 7.0 in sleeps  # Retry-After honoured
    assert sleeps[:4] == [7.0, 0.02, 0.04, 0.08]  # then exponential backoff


def test_faulty_windows_become_failure_rows_and_a_rerun_refetches_only_them(tmp_path):
    store = HarvestStore(tmp_path, "llm_agent")
    with Loopback(arxiv_handler(load_records())) as server:
        # August always answers a truncated page, September always 500: both fail after retries
        server.sticky["/api/query"] = lambda req: (
            Fault.truncate() if _window_of(req) == "202408" else Fault.http(500) if _window_of(req) == "202409" else None
        )
        first = _harvester(server).harvest(store, "llm_agent", QUERY, MONTHS)
        assert first.fetched == ["2024-07"] and first.failed == ["2024-08", "2024-09"]
        reasons = {f.item_id: f.reason for f in first.failures}
        assert "malformed Atom page" in reasons["arxiv:llm_agent:2024-08"]
        assert "HTTP 500" in reasons["arxiv:llm_agent:2024-09"] and "after 3 attempts" in reasons["arxiv:llm_agent:2024-09"]
        assert sorted(p.published.strftime("%Y-%m") for p in first.papers) == ["2024-07"] * 7  # the rest completed
        assert store.state("2024-08")["status"] == "failed"

        del server.sticky["/api/query"]
        n = len(server.requests_to("/api/query"))
        second = _harvester(server).harvest(store, "llm_agent", QUERY, MONTHS)
        assert second.skipped == ["2024-07"] and second.fetched == ["2024-08", "2024-09"]
        assert [_window_of(r) for r in server.requests_to("/api/query")[n:]] == ["202408"] * 3 + ["202409"] * 2
        assert second.failures == [] and len(second.papers) == 20


def test_records_without_dates_or_before_1991_are_failure_rows(tmp_path):
    bad = {"2408.03615": "no_date", "2408.06327": "before_1991"}
    with Loopback(arxiv_handler(load_records(), bad)) as server:
        report = _harvester(server).harvest(HarvestStore(tmp_path, "d"), "d", QUERY, MONTHS)
    reasons = {f.item_id: f.reason for f in report.failures}
    assert reasons == {"2408.03615": "record has no publication date", "2408.06327": "date 1985-03-01 predates arXiv (1991)"}
    assert len(report.papers) == 18 and not set(bad) & {p.arxiv_id for p in report.papers}


def test_corpus_snapshot_asset_runs_on_a_live_style_arxiv_source(tmp_path):
    """The same asset code path as the shipped corpus, with the source chosen by config."""
    from assets.corpus.definitions import corpus_snapshot
    from core.records import DuplicateLink, Failure, ScreenedPaper
    from resources.embeddings import EmbeddingResource
    from resources.llm import LLMResource
    from resources.storage import StorageResource

    records = load_records()
    twin = records[1]  # the same paper re-submitted under new ids: once before, once after the cutoff
    records += [
        dict(twin, arxiv_id="2408.99901", published="2024-08-20"),
        dict(twin, arxiv_id="2409.99902", published="2024-09-25"),
    ]
    with Loopback(arxiv_handler(records, {"2407.01231": "no_date"})) as server:
        arxiv = ArxivConfig(
            base_url=server.url + "/api/query",
            start_month="2024-07",
            page_size=4,
            delay_s=0.0,
            max_retries=1,
            backoff_s=0.01,
            timeout_s=2.0,
            harvest_dir=str(tmp_path / "harvest"),
        )
        storage = StorageResource(root=str(tmp_path / "wh"), duckdb_path=str(tmp_path / "f.duckdb"))
        resources = {
            "storage": storage,
            "corpus_source": CorpusSourceResource(kind="arxiv", arxiv=arxiv),
            "embeddings": EmbeddingResource(),
            "llm": LLMResource(model="", cache_dir=str(tmp_path / "c")),
        }
        instance = dg.DagsterInstance.ephemeral()
        instance.add_dynamic_partitions("cutoff", ["2024-08-31"])
        result = dg.materialize(
            [corpus_snapshot], partition_key=partition_key("llm_agent", "2024-08-31"), instance=instance, resources=resources
        )
    assert result.success
    store = storage.store()
    public = store.read_records("corpus_snapshot", "llm_agent", "2024-08-31", ScreenedPaper)
    assert len(public) == 13 and max(p.published for p in public) <= date(2024, 8, 31)  # 6 July (one undated) + 7 August
    assert all(p.source.startswith("arxiv-api:") and p.harvested_at for p in public)
    failures = store.read_records("corpus_snapshot_failures", "llm_agent", "2024-08-31", Failure)
    assert [(f.item_id, f.reason) for f in failures] == [("2407.01231", "record has no publication date")]
    dups = store.read_records("corpus_snapshot_duplicates", "llm_agent", "2024-08-31", DuplicateLink)
    assert [(d.dropped_id, d.kept_id, d.method) for d in dups] == [("2408.99901", twin["arxiv_id"], "near_title")]
    assert "2409.99902" not in store.read_table("corpus_snapshot_duplicates", "llm_agent", "2024-08-31").to_string()
    [mat] = result.asset_materializations_for_node("corpus_snapshot")
    meta = {k: v.value for k, v in mat.metadata.items()}
    assert meta["source"] == "arxiv" and meta["windows_failed"] == 0 and meta["screener"] == "offline"
    assert meta["duplicates_dropped"] == 1
    # window_end = 2025-02-28, but never past today: 2024-07 .. 2025-02
    assert meta["windows_fetched"] == 8

"""Semantic Scholar enrichment through the real batch client against a loopback server that
replays the recorded real S2 responses in tests/fixtures/data/s2; the cutoff rule for counts."""

import json
from datetime import date, datetime

import dagster as dg

from core.http import RetryPolicy
from core.records import Failure, PaperMetadata
from resources.semantic_scholar import SemanticScholarResource
from resources.semantic_scholar_client import (
    ObservationStore,
    S2Client,
    as_of_cutoff,
    enrich,
)
from tests.factories import screened_paper, snapshot_partition
from tests.fixture_data import fixture_path
from tests.loopback import Fault, Loopback, Reply

RECORDED = {  # arXiv id -> recorded real S2 response file (single record or match_title {"data": [...]})
    "2312.07559": "response.paperqa.get_paper_by_arxiv_doi.paperqa.arxiv-2312.07559.json",
    "2304.05376": "response.paperqa.get_paper_by_doi.chemcrow.arxiv-2304.05376.json",
    "1706.03762": "response.paperqa.match_title.attention_is_all_you_need.arxiv-1706.03762.json",
}
BATCH = "/graph/v1/paper/batch"


def _records() -> dict[str, dict]:
    out = {}
    for aid, name in RECORDED.items():
        data = json.loads(fixture_path(f"s2/{name}").read_text())
        out[aid] = data["data"][0] if "data" in data else data
        assert out[aid]["externalIds"]["ArXiv"] == aid
    return out


def _handler(records):
    def handle(req):
        ids = req.json()["ids"]
        return Reply.json([records.get(i.removeprefix("ARXIV:")) for i in ids])

    return handle


def _client(server, sleeps=None, **kw):
    policy = RetryPolicy(max_retries=2, backoff_s=0.01, timeout_s=0.5, sleep=(sleeps if sleeps is not None else []).append)
    return S2Client(server.url + "/graph/v1", policy=policy, delay_s=0.0, **kw)


def _at(day: str):
    return lambda: datetime.fromisoformat(day + "T12:00:00+00:00")


def test_batch_replays_recorded_records_with_nulls_for_unknown_ids():
    records = _records()
    with Loopback(_handler(records)) as server:
        got = _client(server).batch(["2312.07559", "9999.99999", "2304.05376"])
        [req] = server.requests_to(BATCH)
    assert req.method == "POST" and req.json() == {"ids": ["ARXIV:2312.07559", "ARXIV:9999.99999", "ARXIV:2304.05376"]}
    assert "citationCount" in req.query["fields"] and "openAccessPdf" in req.query["fields"]
    assert got[1] is None and got[0]["citationCount"] == 111 and got[2]["venue"] == "Nat. Mac. Intell."
    assert "x-api-key" not in req.headers


def test_recorded_batch_response_verbatim_parses(tmp_path):
    body = fixture_path("s2/response.paper_batch_allfields.json").read_text()  # 4 entries, the first null
    with Loopback(lambda req: Reply(200, body)) as server:
        got = _client(server).batch(["a", "b", "c", "d"])
    assert got[0] is None and got[1]["paperId"] == "c31c87c591a25c64fbaa82e8ac6a81831b6ac7ce"


def test_api_key_from_the_environment_is_sent(monkeypatch):
    monkeypatch.setenv("S2_API_KEY", "k-123")
    with Loopback(_handler(_records())) as server:
        SemanticScholarResource(enabled=True, base_url=server.url + "/graph/v1").client().batch(["2312.07559"])
        assert server.requests_to(BATCH)[0].headers["x-api-key"] == "k-123"


def test_counts_observed_after_the_cutoff_never_reach_the_public_row(tmp_path):
    records = _records()
    store = ObservationStore(tmp_path)
    with Loopback(_handler(records)) as server:
        report = enrich(
            ["2312.07559", "2304.05376", "0000.00000"], date(2025, 12, 31), _client(server), store, now=_at("2026-11-20")
        )
    assert report.failures == [] and report.fetched == 3
    pub = {r.arxiv_id: r for r in report.public}
    hidden = {r.arxiv_id: r for r in report.hidden}
    paperqa = pub["2312.07559"]
    assert paperqa.citation_count is None and paperqa.venue is None
    assert sorted(paperqa.withheld) == ["citation_count", "venue"]
    assert paperqa.publication_date == date(2023, 12, 8)  # before the cutoff: public
    assert paperqa.s2_paper_id == "7e55d8701785818776323b4147cb13354c820469"
    assert hidden["2312.07559"].citation_count == 111 and hidden["2312.07559"].venue == "arXiv.org"
    assert pub["2304.05376"].open_access_pdf == "https://www.nature.com/articles/s42256-024-00832-8.pdf"
    assert pub["0000.00000"].source == "semantic_scholar:not_found" and pub["0000.00000"].citation_count is None


def test_an_observation_made_before_the_cutoff_is_used_as_of_then():
    rec = {"paperId": "p", "citationCount": 40, "venue": "ICLR", "publicationDate": "2025-01-20"}
    later = dict(rec, citationCount=300)
    obs = [
        {"fetched_at": "2025-06-01T00:00:00+00:00", "record": rec},
        {"fetched_at": "2026-03-01T00:00:00+00:00", "record": later},
    ]
    pub, hidden = as_of_cutoff("x", obs, date(2025, 12, 31))
    assert (pub.citation_count, pub.citation_count_as_of, pub.venue, pub.withheld) == (40, date(2025, 6, 1), "ICLR", [])
    assert hidden.citation_count == 300
    pub, hidden = as_of_cutoff("x", obs, date(2026, 6, 30))
    assert pub.citation_count == 300 and hidden is None
    pub, _ = as_of_cutoff("x", obs, date(2025, 3, 1))  # nothing observed by then; the date is still public
    assert pub.citation_count is None and pub.publication_date == date(2025, 1, 20)
    pub, _ = as_of_cutoff("x", obs[1:], date(2024, 12, 31))  # published after the cutoff: withheld too
    assert pub.publication_date is None and "publication_date" in pub.withheld


def test_429_is_backed_off_and_a_failed_batch_is_retried_alone_next_run(tmp_path):
    records = _records()
    store = ObservationStore(tmp_path)
    sleeps: list[float] = []
    ids = ["2312.07559", "2304.05376", "1706.03762"]
    with Loopback(_handler(records)) as server:
        server.faults[BATCH] = [Fault.http(429, retry_after="3")]
        ok = enrich(ids[:1], date(2025, 12, 31), _client(server, sleeps, batch_size=1), store, now=_at("2025-06-01"))
        assert ok.failures == [] and sleeps[0] == 3.0 and len(server.requests_to(BATCH)) == 2
        # the second batch (one id each) keeps answering a truncated JSON body: recorded, the rest completes
        server.sticky[BATCH] = lambda req: Fault.truncate() if "ARXIV:2304.05376" in req.json()["ids"] else None
        first = enrich(ids, date(2025, 12, 31), _client(server, batch_size=1), store, now=_at("2025-06-01"))
        assert [(f.item_id, f.stage) for f in first.failures] == [("2304.05376", "semantic_scholar")]
        assert "malformed JSON" in first.failures[0].reason and first.cached == 1
        assert {r.arxiv_id for r in first.public} == {"2312.07559", "1706.03762"}
        del server.sticky[BATCH]
        n = len(server.requests_to(BATCH))
        second = enrich(ids, date(2025, 12, 31), _client(server, batch_size=1), store, now=_at("2025-06-02"))
        assert [r.json()["ids"] for r in server.requests_to(BATCH)[n:]] == [["ARXIV:2304.05376"]]
        assert second.failures == [] and second.cached == 2
        assert {r.arxiv_id: r.citation_count for r in second.public}["2304.05376"] == 500


def test_paper_metadata_asset_offline_and_enabled(tmp_path):
    from assets.corpus.definitions import paper_metadata

    papers = [
        screened_paper(a, published=date(2024, 1, 1), domain="llm_agent", label=lab)
        for a, lab in (("2312.07559", "core"), ("2304.05376", "support"), ("1706.03762", "excluded"))
    ]
    storage, store, instance, key = snapshot_partition(tmp_path, papers)

    off = dg.materialize(
        [paper_metadata],
        partition_key=key,
        instance=instance,
        resources={"storage": storage, "semantic_scholar": SemanticScholarResource()},
    )
    [mat] = off.asset_materializations_for_node("paper_metadata")
    assert mat.metadata["semantic_scholar"].value.startswith("disabled")

    with Loopback(_handler(_records())) as server:
        s2 = SemanticScholarResource(
            enabled=True, base_url=server.url + "/graph/v1", backoff_s=0.01, delay_s=0.0, observations_dir=str(tmp_path / "obs")
        )
        on = dg.materialize(
            [paper_metadata], partition_key=key, instance=instance, resources={"storage": storage, "semantic_scholar": s2}
        )
        assert [r.json()["ids"] for r in server.requests_to(BATCH)] == [["ARXIV:2312.07559", "ARXIV:2304.05376"]]
    assert on.success
    public = store.read_records("paper_metadata", "llm_agent", "2025-12-31", PaperMetadata)
    assert {r.arxiv_id for r in public} == {"2312.07559", "2304.05376"}  # excluded papers are not looked up
    assert all(r.citation_count is None and "citation_count" in r.withheld for r in public)  # fetched today > cutoff
    hidden = store.read_records("paper_metadata_observed", "llm_agent", "2025-12-31", PaperMetadata)
    assert {r.arxiv_id: r.citation_count for r in hidden} == {"2312.07559": 111, "2304.05376": 500}
    assert "/hidden/" in store.parquet_path("paper_metadata_observed", "llm_agent", "2025-12-31")  # never public
    assert store.read_records("paper_metadata_failures", "llm_agent", "2025-12-31", Failure) == []

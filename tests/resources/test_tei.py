"""GROBID full text: TEI parsing on every real TEI file in tests/fixtures/data/grobid_tei, broken
TEI, and the grobid-client-python path against a loopback GROBID + PDF server."""

from datetime import date

import dagster as dg
import pytest

from core.http import RetryPolicy
from core.records import Failure, PaperFullText
from resources.grobid_tei import (
    GrobidService,
    TEIError,
    build_fulltext,
    classify_heading,
    parse_tei,
)
from tests.factories import screened_paper, snapshot_partition
from tests.fixture_data import fixture_path
from tests.loopback import Fault, Loopback, Reply

PAPERQA_P = "grobid_tei/arxiv-2312.07559.paperqa.paragraphs.grobid-0.8.1.tei.xml"
PAPERQA_S = "grobid_tei/arxiv-2312.07559.paperqa.sentences.grobid-0.8.1.tei.xml"
SPECTER = "grobid_tei/acl-2020.acl-main.207.specter.grobid-0.6.1.tei.xml"
LITGRAPH = "grobid_tei/naacl-N18-3011.literature-graph.grobid-0.6.1.tei.xml"
BIOMED = "grobid_tei/nonarxiv-doi-10.1186_s12984-016-0129-6.grobid-0.6.1.tei.xml"


def _parse(rel: str, pid: str = "x") -> PaperFullText:
    return parse_tei(fixture_path(rel).read_bytes(), pid)


def _names(ft: PaperFullText) -> list[str]:
    return [s.name for s in ft.sections]


@pytest.mark.parametrize("rel", [PAPERQA_P, PAPERQA_S])
def test_paperqa_both_grobid_081_variants(rel):
    ft = _parse(rel, "2312.07559")
    assert ft.source == "grobid" and ft.arxiv_id == "2312.07559"
    by_heading = {s.heading: s.name for s in ft.sections}
    assert by_heading["INTRODUCTION"] == "introduction" and by_heading["RELATED WORKS"] == "other"
    assert by_heading["PAPERQA"] == "method" and by_heading["TOOLS"] == "method"  # 3.1 / 3.2 under 3 METHOD
    assert by_heading["RESULTS"] == "experiments" and by_heading["LIMITATIONS"] == "limitations"
    assert by_heading["CONCLUSION"] == "conclusion"
    assert by_heading["B AUTOGPT IMPLEMENTATION DETAILS"] == "other"  # appendix left in the body by GROBID 0.8
    assert _names(ft)[0] == "abstract" and ft.sections[0].text.startswith("Large Language Models (LLMs)")
    assert len(ft.references) == 78
    assert any("Science of science" in r for r in ft.references)
    limitation = next(s.text for s in ft.sections if s.name == "limitations")
    assert "PaperQA" in limitation and len(limitation) > 1000


def test_paragraph_and_sentence_segmentations_give_the_same_sections():
    p, s = _parse(PAPERQA_P), _parse(PAPERQA_S)
    assert [(x.name, x.heading) for x in p.sections] == [(x.name, x.heading) for x in s.sections]
    for a, b in zip(p.sections, s.sections):  # <s> joins differ only in spacing
        assert abs(len(a.text) - len(b.text)) <= 0.02 * len(a.text) + 5


def test_grobid_061_files():
    specter = _parse(SPECTER)
    assert {"abstract", "introduction", "method", "experiments", "conclusion"} <= set(_names(specter))
    by_heading = {s.heading: s.name for s in specter.sections}
    assert by_heading["Citation-Based Pretraining Objective"] == "method"
    assert by_heading["Background: Pretrained Transformers"] == "method"  # 2.2 under "2 Model"
    assert by_heading["Conclusions and Future Work"] == "conclusion" and by_heading["Related Work"] == "other"
    assert len(specter.references) == 57
    assert "Construction of the literature graph in semantic scholar. NAACL-HLT." in specter.references[1]

    graph = _parse(LITGRAPH)
    assert _names(graph)[:2] == ["abstract", "introduction"] and _names(graph)[-1] == "conclusion"
    assert set(_names(graph)[2:-1]) == {"method"} and len(graph.references) == 27

    bio = _parse(BIOMED)  # other-domain fixture: still sectioned
    by_heading = {s.heading: s.name for s in bio.sections}
    assert by_heading["Background"] == "introduction" and by_heading["Methods"] == "method"
    assert by_heading["Possible limitations and future perspectives"] == "limitations"
    assert by_heading["Conclusions"] == "conclusion" and len(bio.references) == 49


def test_heading_classifier():
    assert classify_heading("5.2 RESULTS") == "experiments"
    assert classify_heading("6 Limitations and Broader Impact") == "limitations"
    assert classify_heading("Concluding Remarks") == "conclusion"
    assert classify_heading("3 Our Approach") == "method"
    assert classify_heading("PaperQA") is None


@pytest.mark.parametrize(
    "mutate, message",
    [
        (lambda t: t[: len(t) // 2], "malformed TEI"),
        (lambda t: b"<html><body>GROBID error</body></html>", "not a TEI document"),
        (lambda t: b'<TEI xmlns="http://www.tei-c.org/ns/1.0"><teiHeader/><text><body/></text></TEI>', "no abstract and no body"),
        (lambda t: b"", "malformed TEI"),
    ],
)
def test_broken_tei_is_an_error_with_a_reason(mutate, message):
    with pytest.raises(TEIError, match=message):
        parse_tei(mutate(fixture_path(PAPERQA_P).read_bytes()), "x")


# -- GROBID through grobid-client-python, against loopback ----------------------------------


class FakeGrobid:
    """/api/isalive, /api/processFulltextDocument (answers the recorded TEI of the paper whose
    id is in the uploaded 'PDF'), and /pdf/<id>v1 serving a small fake PDF."""

    def __init__(self):
        self.tei = {
            "2312.07559": fixture_path(PAPERQA_P).read_bytes(),
            "2004.07180": fixture_path(SPECTER).read_bytes(),
            "2501.00002": fixture_path(LITGRAPH).read_bytes()[:5000],
        }  # the last one: broken TEI
        self.error_ids = {"2501.00001"}

    def __call__(self, req):
        if req.path == "/api/isalive":
            return Reply(200, "true", "text/plain")
        if req.path.startswith("/pdf/"):
            pid = req.path.removeprefix("/pdf/").removesuffix("v1")
            return Reply(200, f"%PDF-1.4\n% fake pdf of {pid}\n".encode(), "application/pdf")
        if req.path == "/api/processFulltextDocument":
            for pid, tei in self.tei.items():
                if f"fake pdf of {pid}".encode() in req.body:
                    return Reply(200, tei, "application/xml")
            return Reply(500, "[GENERAL] An exception occurred while running Grobid.", "text/plain")
        return Reply(404, "not found", "text/plain")


def _service(server, tmp_path):
    return GrobidService(
        server.url,
        pdf_url_template=server.url + "/pdf/{arxiv_id}v1",
        cache_dir=str(tmp_path / "tei"),
        timeout_s=5,
        busy_sleep_s=0,
        policy=RetryPolicy(max_retries=1, backoff_s=0.01, timeout_s=2),
    )


def _paper(pid, label="core"):
    return screened_paper(pid, f"title {pid}", f"abstract of {pid}", date(2024, 1, 1), domain="llm_agent", label=label)


def test_no_server_degrades_to_abstracts_and_says_why(tmp_path):
    rows, failures, info = build_fulltext([_paper("2312.07559")], None)
    assert info["grobid"] == "unavailable: no GROBID url configured" and failures == []
    assert rows[0].source == "abstract_only" and rows[0].sections[0].text == "abstract of 2312.07559"
    unreachable = GrobidService("http://127.0.0.1:9", cache_dir=str(tmp_path))  # nothing listens on port 9
    rows, failures, info = build_fulltext([_paper("2312.07559")], unreachable)
    assert info["grobid"].startswith("unavailable: server unreachable") and rows[0].source == "abstract_only"


def test_grobid_errors_and_broken_tei_are_failures_and_a_rerun_retries_only_them(tmp_path):
    fake = FakeGrobid()
    papers = [_paper(p) for p in ("2312.07559", "2004.07180", "2501.00001", "2501.00002")]
    with Loopback(fake) as server:
        server.faults["/api/processFulltextDocument"] = [Fault.http(503)]  # busy once: bounded retry
        rows, failures, info = build_fulltext(papers, _service(server, tmp_path))
        assert info["grobid"] == f"ok: {server.url}" and info["grobid_papers"] == 2
        by_id = {r.arxiv_id: r for r in rows}
        assert by_id["2312.07559"].source == "grobid" and len(by_id["2312.07559"].references) == 78
        assert by_id["2004.07180"].source == "grobid" and "method" in {s.name for s in by_id["2004.07180"].sections}
        reasons = {f.item_id: f.reason for f in failures}
        assert reasons["2501.00001"].startswith("GROBID HTTP 500") and "malformed TEI" in reasons["2501.00002"]
        assert by_id["2501.00001"].source == "abstract_only" and by_id["2501.00001"].error == reasons["2501.00001"]
        assert len(server.requests_to("/api/processFulltextDocument")) == 5  # 4 papers + the 503 retry

        fake.tei["2501.00002"] = fixture_path(LITGRAPH).read_bytes()  # fixed server side
        n = len(server.requests_to("/api/processFulltextDocument"))
        rows, failures, info = build_fulltext(papers, _service(server, tmp_path))
        retried = server.requests_to("/api/processFulltextDocument")[n:]
        assert len(retried) == 2 and all(b"2501.0000" in r.body for r in retried)  # the good TEI came from the cache
        assert [f.item_id for f in failures] == ["2501.00001"] and info["grobid_papers"] == 3
        assert info["grobid_cache_hits"] == 2


def test_always_busy_server_does_not_hang(tmp_path):
    with Loopback(FakeGrobid()) as server:
        server.sticky["/api/processFulltextDocument"] = lambda req: Fault.http(503)
        rows, failures, _ = build_fulltext([_paper("2312.07559")], _service(server, tmp_path))
        assert failures[0].reason.startswith("GROBID HTTP 503") and rows[0].source == "abstract_only"
        assert len(server.requests_to("/api/processFulltextDocument")) == 4  # 1 + 3 bounded busy retries


def test_paper_fulltext_asset_parses_core_papers_only(tmp_path):
    from assets.corpus.definitions import paper_fulltext
    from resources.grobid import GrobidResource

    papers = [_paper("2312.07559"), _paper("2501.00001"), _paper("2004.07180", "support")]
    storage, store, instance, key = snapshot_partition(tmp_path, papers)

    off = dg.materialize(
        [paper_fulltext], partition_key=key, instance=instance, resources={"storage": storage, "grobid": GrobidResource()}
    )
    [mat] = off.asset_materializations_for_node("paper_fulltext")
    assert mat.metadata["grobid"].value == "unavailable: no GROBID url configured"
    rows = store.read_records("paper_fulltext", "llm_agent", "2025-12-31", PaperFullText)
    assert [(r.arxiv_id, r.source) for r in rows] == [("2312.07559", "abstract_only"), ("2501.00001", "abstract_only")]

    with Loopback(FakeGrobid()) as server:
        grobid = GrobidResource(
            url=server.url,
            pdf_url_template=server.url + "/pdf/{arxiv_id}v1",
            cache_dir=str(tmp_path / "tei"),
            busy_sleep_s=0,
            max_retries=0,
        )
        on = dg.materialize(
            [paper_fulltext], partition_key=key, instance=instance, resources={"storage": storage, "grobid": grobid}
        )
    [mat] = on.asset_materializations_for_node("paper_fulltext")
    assert mat.metadata["grobid_papers"].value == 1 and mat.metadata["failures"].value == 1
    rows = {r.arxiv_id: r for r in store.read_records("paper_fulltext", "llm_agent", "2025-12-31", PaperFullText)}
    assert rows["2312.07559"].source == "grobid" and "limitations" in {s.name for s in rows["2312.07559"].sections}
    failures = store.read_records("paper_fulltext_failures", "llm_agent", "2025-12-31", Failure)
    assert [(f.stage, f.item_id) for f in failures] == [("grobid", "2501.00001")]

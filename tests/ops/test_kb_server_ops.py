"""The bring-your-own-agent KB server under hostile or clumsy clients (loopback only):
validated bodies, size limit, read timeout, concurrency, and any query string."""

import http.client
import json
import socket
import time
from urllib.parse import urlsplit

import pytest

from assets.agents.kb_server import MAX_BODY_BYTES, KBServer
from assets.agents.kbtool import MAX_K, TracedKB

AWKWARD_QUERIES = [
    '"tool use"',  # a whole-string phrase: LanceDB raised on it (position-less index)
    'say "hello',
    "title:agents",
    "agents (memory",
    "(planning) AND (tools)",
    "web AND navigation OR NOT gui",
    "agent*",
    "+memory -reflection ~2 ^3",
    "it's a [range TO x] {x} \\ / :",
    '"',
    "AND",
]


def request(url: str, body: bytes | None, method: str = "POST", timeout: float = 30) -> tuple[int, dict]:
    parts = urlsplit(url)
    conn = http.client.HTTPConnection(parts.hostname, parts.port, timeout=timeout)
    try:
        conn.request(method, parts.path, body=body, headers={"Content-Type": "application/json"})
        resp = conn.getresponse()
        return resp.status, json.loads(resp.read() or b"null")
    finally:
        conn.close()


def post(url: str, payload) -> tuple[int, dict]:
    return request(url, json.dumps(payload).encode())


@pytest.fixture()
def kb_session(sample_kb):
    """(session url, traced kb) on a KB server with a 1 s read timeout, stopped in teardown."""
    traced = TracedKB(sample_kb)
    with KBServer(read_timeout_s=1.0) as server:
        yield server.open_session(traced), traced


@pytest.mark.parametrize(
    "body, field",
    [
        ({"query": 5}, "query"),
        ({"query": "agents", "k": "10"}, "k"),
        ({"query": "agents", "k": True}, "k"),
        ({"query": "agents", "k": 2.5}, "k"),
        ({"query": "agents", "mode": "fuzzy"}, "mode"),
        ({"query": "agents", "top_k": 3}, "top_k"),
        ({"k": 3}, "query"),
        ({"query": "agents", "k": 0}, "k"),
        ({"query": "agents", "k": -1}, "k"),
        ({"query": "agents", "k": MAX_K + 1}, "k"),
        ({"query": "agents", "k": 10**9}, "k"),
    ],
)
def test_bad_search_bodies_get_400_naming_the_field(kb_session, body, field):
    url, traced = kb_session
    status, reply = post(f"{url}/search", body)
    assert status == 400 and field in reply["error"], reply
    assert traced.calls == []  # nothing reached the knowledge base


@pytest.mark.parametrize(
    "raw, why",
    [
        (b"[1, 2]", "JSON object"),
        (b'"agents"', "JSON object"),
        (b"null", "JSON object"),
        (b'{"query": "agents", "k": 1e400}', "k"),  # parses to inf: once an OverflowError
        (b'{"query": ', "not valid JSON"),
        (b"\xff\xfe", "not valid JSON"),
    ],
)
def test_non_object_and_malformed_bodies_get_400(kb_session, raw, why):
    url, _ = kb_session
    status, reply = request(f"{url}/search", raw)
    assert status == 400 and why in reply["error"], reply
    status, reply = request(f"{url}/get", raw)
    assert status == 400
    assert post(f"{url}/get", {"arxiv_id": 123})[0] == 400


def test_oversize_bodies_get_413(kb_session):
    url, traced = kb_session
    status, reply = post(f"{url}/search", {"query": "a" * MAX_BODY_BYTES})  # sent in full
    assert status == 413 and str(MAX_BODY_BYTES) in reply["error"]
    # only announced (1 GB): answered at once, nothing read into memory
    parts = urlsplit(url)
    with socket.create_connection((parts.hostname, parts.port), timeout=10) as s:
        s.sendall(f"POST {parts.path}/search HTTP/1.1\r\nHost: x\r\nContent-Length: {10**9}\r\n\r\n{{".encode())
        head = s.recv(4096).decode()
    assert head.startswith("HTTP/1.0 413")
    assert traced.calls == []
    assert post(f"{url}/search", {"query": "agents", "k": 2})[0] == 200  # still serving


def test_a_stalled_client_neither_blocks_others_nor_keeps_its_thread(kb_session):
    url, _ = kb_session
    parts = urlsplit(url)
    # more silent connections than the listen backlog (5): each has its own thread
    silent_ones = [socket.create_connection((parts.hostname, parts.port), timeout=10) for _ in range(8)]
    mid_body = socket.create_connection((parts.hostname, parts.port), timeout=10)
    mid_body.sendall(f"POST {parts.path}/search HTTP/1.1\r\nHost: x\r\nContent-Length: 50\r\n\r\n{{".encode())
    try:
        t0 = time.monotonic()
        status, reply = post(f"{url}/search", {"query": "tool use by agents", "k": 3})
        served_in = time.monotonic() - t0
        assert status == 200 and len(reply["hits"]) == 3
        assert served_in < 10, served_in  # not queued behind the stalled connections
        # the read timeout (1 s here) frees both threads: closed, and 408 for the one mid-body
        t0 = time.monotonic()
        assert all(s.recv(1024) == b"" for s in silent_ones)
        assert mid_body.recv(4096).decode().startswith("HTTP/1.0 408")
        assert time.monotonic() - t0 < 10
    finally:
        for s in silent_ones:
            s.close()
        mid_body.close()


@pytest.mark.parametrize("mode", ["text", "hybrid"])
def test_every_query_string_is_accepted(kb_session, sample_kb, mode):
    url, _ = kb_session
    for query in AWKWARD_QUERIES:
        status, reply = post(f"{url}/search", {"query": query, "k": 5, "mode": mode})
        assert status == 200, (query, reply)
        assert isinstance(reply["hits"], list)
    # quotes change nothing: a quoted query finds what the bare words find
    bare = [h.arxiv_id for h in sample_kb.search("tool use", k=5, mode="text")]
    assert bare and [h.arxiv_id for h in sample_kb.search('"tool use"', k=5, mode="text")] == bare


def test_unknown_sessions_and_operations(kb_session):
    url, _ = kb_session
    assert post(f"{url}/delete", {"query": "x"})[0] == 404
    assert post(url.rsplit("/", 1)[0] + "/nope/search", {"query": "x"})[0] == 404
    status, info = request(url, None, method="GET")
    assert status == 200 and info["max_k"] == MAX_K

"""Bring your own agent: the Python entry point and the HTTP contract (loopback only)."""

import json
import threading
import urllib.error
import urllib.request

import pytest

from assets.agents.external import (
    AgentRequest,
    AgentResponse,
    KBServer,
    parse_spec,
    run_external,
)
from assets.agents.kbtool import TracedKB
from docs.examples import byo_agent
from tests.factories import AGENT_CUTOFF as CUTOFF
from tests.factories import sample_tasks


def _post(url, payload):
    req = urllib.request.Request(
        url, data=json.dumps(payload).encode(), method="POST", headers={"Content-Type": "application/json"}
    )
    with urllib.request.urlopen(req, timeout=10) as resp:
        return json.loads(resp.read())


@pytest.fixture()
def agent_server():
    """The example agent as an HTTP server on a loopback port, stopped in teardown."""
    server = byo_agent.make_server("127.0.0.1", 0)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/answer"
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=5)


def _check_answers(answers, kb, method):
    visible = kb.dates()
    tasks = {t.task_id: t for t in sample_tasks()}
    assert [a.task_id for a in answers] == ["bot1", "dir1", "plan1", "ven1"]
    for a in answers:
        assert a.method == method and a.backbone == "none" and not a.backbone_postdates_cutoff
        assert a.answer_id == f"{a.task_id}::{method}::none::0"
        assert a.evidence_ids and all(visible[e] <= CUTOFF for e in a.evidence_ids)
        traced = {i for c in json.loads(a.artifacts["kb_trace"]) for i in c["ids"]}
        assert set(a.evidence_ids) <= traced  # only what the KB tool really returned to this agent
        assert sorted(a.ranking) == sorted(o.option_id for o in tasks[a.task_id].options)
        assert a.has_support_artifact and a.retrieval_queries and a.claims
    assert "agent:option_scores" in answers[1].artifacts


def test_python_entry_point_runs_the_example_agent(sample_kb):
    answers, failures = run_external("docs.examples.byo_agent:answer", sample_tasks(), sample_kb)
    assert failures == []
    _check_answers(answers, sample_kb, "ext:answer")
    by_file, _ = run_external("mine=docs/examples/byo_agent.py:answer", sample_tasks()[:1], sample_kb)
    assert by_file[0].method == "ext:mine" and by_file[0].ranking == answers[1].ranking


def test_http_contract_with_the_example_agent_on_loopback(sample_kb, agent_server):
    spec = parse_spec(f"byo={agent_server}")
    assert spec.is_http and spec.method == "ext:byo"
    answers, failures = run_external(spec, sample_tasks(), sample_kb, max_concurrency=2, timeout_s=30)
    assert failures == []
    _check_answers(answers, sample_kb, "ext:byo")
    # same agent, same decisions and evidence as in-process: the transport changes nothing
    local, _ = run_external("docs.examples.byo_agent:answer", sample_tasks(), sample_kb)
    for h, p in zip(answers, local):
        assert (h.ranking, h.evidence_ids, h.claims) == (p.ranking, p.evidence_ids, p.claims)
        # the HTTP request also carried the question's top hits: traced as a KB search
        assert json.loads(h.artifacts["kb_trace"])[0]["query"] == sample_tasks_by_id()[h.task_id].question


def sample_tasks_by_id():
    return {t.task_id: t for t in sample_tasks()}


def test_kb_server_is_cutoff_bound_session_scoped_and_capped(sample_kb, sample_papers):
    future = [p for p in sample_papers if p.published > CUTOFF]
    traced = TracedKB(sample_kb)
    with KBServer() as server:
        url = server.open_session(traced)
        assert url.startswith("http://127.0.0.1:")
        # k above max_k is a 400 now (tests/ops/test_kb_server_ops.py); max_k itself is served
        hits = _post(f"{url}/search", {"query": future[0].title, "k": 50, "mode": "hybrid"})["hits"]
        assert 0 < len(hits) <= 50 and all(h["published"] <= CUTOFF.isoformat() for h in hits)
        assert future[0].arxiv_id not in {h["arxiv_id"] for h in hits}
        assert _post(f"{url}/get", {"arxiv_id": future[0].arxiv_id}) == {"hit": None}
        assert json.loads(urllib.request.urlopen(url, timeout=5).read())["cutoff"] == CUTOFF.isoformat()
        server.close_session(url)
        with pytest.raises(urllib.error.HTTPError) as err:
            _post(f"{url}/search", {"query": "agents"})
        assert err.value.code == 404  # a closed session no longer answers
    assert [c["op"] for c in traced.calls] == ["search", "get"] and traced.calls[0]["k"] == 50


def _agent(reply):
    def fn(task, kb):
        kb.search(task["question"], k=3)
        return reply(task, kb)

    return fn


def test_external_answers_obey_the_contract(sample_kb, sample_papers, monkeypatch, tmp_path):
    future_id = next(p.arxiv_id for p in sample_papers if p.published > CUTOFF)
    task = sample_tasks()[0]  # direction
    returned = {h.arxiv_id for h in sample_kb.search(task.question, k=3)}
    visible_not_returned = next(i for i in sorted(sample_kb.dates()) if i not in returned)
    mod = tmp_path / "agents_under_test.py"
    mod.write_text("")
    monkeypatch.syspath_prepend(str(tmp_path))
    import agents_under_test as m

    m.cites_unseen = _agent(
        lambda task, kb: {
            "answer": {"choice": "o1", "trajectory": "steady", "ranking": ["o1", "oX"], "claims": ["c"]},
            "evidence_ids": [future_id, visible_not_returned, kb.search(task["question"], k=1)[0]["arxiv_id"]],
        }
    )
    m.invalid = _agent(lambda task, kb: {"answer": {"ranking": "not a list"}})
    m.late_model = _agent(lambda task, kb: {"answer": {"choice": "o0", "trajectory": "steady"}, "backbone": "gpt-5.2"})
    task = sample_tasks()[0]  # direction

    answers, failures = run_external("agents_under_test:cites_unseen", [task], sample_kb)
    assert failures == [] and len(answers) == 1
    a = answers[0]
    assert future_id not in a.evidence_ids and visible_not_returned not in a.evidence_ids and len(a.evidence_ids) == 1
    assert a.ranking[:2] == ["o1", "o0"] and "oX" in a.text  # unknown option dropped, visible in the audit text
    answers, failures = run_external("agents_under_test:invalid", [task], sample_kb)
    assert answers == [] and "ValidationError" in failures[0].reason
    answers, failures = run_external("agents_under_test:late_model", [task], sample_kb)
    assert answers == [] and "BackboneRefused" in failures[0].reason  # declared backbone postdates the cutoff
    answers, _ = run_external("agents_under_test:late_model", [task], sample_kb, allow_post_cutoff_backbones=True)
    assert answers[0].backbone_postdates_cutoff and answers[0].backbone == "gpt-5.2"
    answers, failures = run_external("agents_under_test:missing", sample_tasks(), sample_kb)
    assert answers == [] and len(failures) == 4 and "cannot load" in failures[0].reason


def test_request_and_response_schemas_are_documented():
    """docs/agents.md carries the JSON schemas of the HTTP contract; keep them in sync."""
    from pathlib import Path

    doc = (Path(__file__).resolve().parents[3] / "docs" / "agents.md").read_text()
    for model in (AgentRequest, AgentResponse):
        schema = model.model_json_schema()
        for field in schema["properties"]:
            assert f'"{field}"' in doc, (model.__name__, field)
    assert "foresci-agent/1" in doc

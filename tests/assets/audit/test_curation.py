"""Curation (docs/curation.md): audit flags, the decisions log (history, concurrency,
invalidation by content hash), the release policy, the separation validator on audit
fields, the model review through the real client path, and the review page's HTML
(escaping, CSRF, paging) through Flask's test client. The browser tests are in
test_review_browser.py."""

from __future__ import annotations

import os

os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")

import json
import multiprocessing
from datetime import date

import pytest

from assets.audit import flags as F
from assets.audit.logic import build_audit_records, content_hash
from assets.audit.model_review import CRITERIA, ReviewReply, review
from assets.audit.policy import apply_revision, curate
from assets.release.logic import release_files, validate_release
from core.records import (
    AuditRecord,
    EvidenceRecord,
    GoldTarget,
    PaperEvidence,
    ScreenedPaper,
    TaskOption,
)
from core.thresholds import Thresholds
from resources.decisions import DecisionError, DecisionStore
from resources.llm import LLMClient
from resources.storage import PartitionStore
from tests.decision_writer import write_many
from tests.factories import RELEASE_GOLDS as GOLDS
from tests.factories import RELEASE_KB as KB
from tests.factories import RELEASE_RATINGS as RATINGS
from tests.factories import RELEASE_TASKS as TASKS
from tests.factories import MockedClient, materialize_release, seed_store
from tests.factories import release_task as task

D, C = "llm_agent", "2025-12-31"
TH = Thresholds()


def paper(i: str, title: str = "A pre-cutoff paper", published=date(2025, 3, 1)) -> ScreenedPaper:
    return ScreenedPaper(
        arxiv_id=i, title=title, abstract="abs", published=published, domain=D, relevance=0.5, label="core", reason="r"
    )


def evidence(ids: list[str]) -> EvidenceRecord:
    return EvidenceRecord(
        record_id="ev:1",
        node_id="n",
        domain=D,
        cutoff=date(2025, 12, 31),
        node_label="x",
        representative_ids=ids,
        supporting_ids=[],
        papers=[
            PaperEvidence(
                arxiv_id=i,
                published=date(2025, 3, 1),
                problem=f"Agents of {i} fail to <b>plan</b> long tasks.",
                method="We propose a planner.",
            )
            for i in ids
        ],
    )


def audit(
    tasks=TASKS, golds=GOLDS, ratings=RATINGS, records=(), future=(), novel=frozenset(), review_fn=None, selected_only=True
):
    corpus = [paper(f"2501.0000{i}") for i in range(1, 8)]
    return build_audit_records(
        tasks,
        golds,
        ratings,
        [],
        list(records),
        corpus,
        list(future),
        th=TH,
        novel_terms=set(novel),
        review=review_fn,
        review_selected_only=selected_only,
    )


# -- flags --------------------------------------------------------------------------------


def test_weak_support_flags_few_papers_and_unquoted_packets():
    ids = [f"2501.0000{i}" for i in range(1, 7)]
    strong = task(5, "direction").model_copy(
        update={"support_paper_ids": ids, "support_evidence_ids": [f"{i}#problem" for i in ids]}
    )
    weak = task(6, "direction")  # one support paper, no quote
    records, _ = audit([strong, weak], [], [], records=[evidence(ids)])
    by_id = {r.task_id: r for r in records}
    assert not [f for f in by_id[strong.task_id].flags if f.code == "weak_support"]
    details = [f.detail for f in by_id[weak.task_id].flags if f.code == "weak_support"]
    assert any("1 support papers (< 5)" in d for d in details) and any(
        "1 support papers with a verified verbatim quote (< 3)" in d for d in details
    )
    quotes = by_id[strong.task_id].support[0].quotes
    assert quotes == {"problem": "Agents of 2501.00001 fail to <b>plan</b> long tasks."}  # verbatim, unescaped data


def test_near_duplicates_are_flagged_within_a_family_only():
    a = task(1, "direction")
    b = a.model_copy(update={"task_id": f"{D}-{C}-direction-09"})
    c = a.model_copy(update={"task_id": f"{D}-{C}-planning-09", "family": "planning"})
    flags = F.duplicate_flags([a, b, c], selected={b.task_id})
    assert set(flags) == {a.task_id, b.task_id}
    assert flags[a.task_id][0].detail.endswith(f"1 other(s): {b.task_id} (1.00, selected)")
    assert flags[b.task_id][0].detail.endswith(f"{a.task_id} (1.00, held back)")


def test_label_readability_flags_fragments_truncation_and_markup():
    t = task(1, "venue").model_copy(
        update={
            "title": "Venue positioning after 2025-12-31 of: However, a fundamental challenge remains…",
            "options": [
                TaskOption(option_id="A", text="Code (keywords: generation)"),
                TaskOption(option_id="B", text="Tool use with $\\mathcal{T}$ planners"),
                TaskOption(option_id="C", text="Multi-agent debate (keywords: debate)"),
            ],
        }
    )
    details = [f.detail for f in F.readability_flags(t)]
    assert any(d.startswith("title: starts like an abstract fragment, truncated") for d in details)
    assert not any(d.startswith("option A") for d in details)  # a bare word is the hard defect bare_word_option
    assert any(d.startswith("option B: markup") for d in details)
    assert not any(d.startswith("option C") for d in details)


def test_gold_instability_flags_mark_golds_the_gate_passed_only_just():
    g = GOLDS[0].model_copy(update={"numbers": {"stability_top1": 0.85, "margin": 0.05}})
    details = [f.detail for f in F.gold_flags(g, TH)]
    assert len(details) == 2 and "0.85" in details[0] and "5%" in details[1]
    assert F.gold_flags(g, TH, held_back="gold top-1 unstable") == []  # held back: the gate note says why
    assert F.gold_flags(None, TH) == []
    assert F.gold_flags(GOLDS[0], TH) == []


def test_possible_leakage_flags_post_cutoff_entities():
    leaky = task(1, "direction").model_copy(update={"question": "Will memory search agents (2602.00001) grow?"})
    future = [paper("2602.00001", "A future paper on memory search agents", date(2026, 2, 5))]
    records, _ = audit([leaky, task(2, "direction")], GOLDS[:2], [], future=future, novel={"memory search"})
    flags = [f.detail for f in records[0].flags if f.code == "possible_leakage"]
    assert any("future paper id '2602.00001'" in d for d in flags)
    assert any("'memory search', a term first seen after the cutoff" in d for d in flags)
    assert not [f for f in records[1].flags if f.code == "possible_leakage"]


def test_repeated_project_text_and_small_proxy_margin_are_flagged():
    from core.records import TaskBuild

    text = (
        "Agents forget user preferences after a few turns. Existing memories store raw transcripts. "
        "We propose a consolidation policy for episodic traces."
    )

    def venue(n: int, project: str):
        return task(n, "venue").model_copy(update={"question": f'Project description: "{project}" As of {C}, rank.'})

    a, b, c = (
        venue(1, text),
        venue(2, text.replace("We propose", "We present")),
        venue(3, "Web agents misclick on dense screens. We propose zooming."),
    )
    quoting = task(4, "direction").model_copy(update={"question": f"Which direction does this serve: {text}"})
    builds = [
        TaskBuild(task_id=t.task_id, signal_ids=[], node_ids=[], project_paper_id=p)
        for t, p in ((a, "2511.1"), (b, "2511.2"), (c, "2511.1"))
    ]
    builds[2].curation["home_domain"] = "home domain is rag_and_retrieval_structuring"
    proxy = GoldTarget(
        task_id=c.task_id,
        family="venue",
        domain=D,
        cutoff=date(2025, 12, 31),
        numbers={"gold_kind_proxy": 1.0, "proxy_gap": 0.012},
    )
    outcome = GoldTarget(
        task_id=a.task_id,
        family="venue",
        domain=D,
        cutoff=date(2025, 12, 31),
        numbers={"gold_kind_outcome": 1.0, "gold_kind_proxy": 0.0, "proxy_gap": 0.001},
    )
    flags = F.project_flags([a, b, c, quoting], [proxy, outcome], builds)
    codes = {k: [f.code for f in v] for k, v in flags.items()}
    assert "repeated_project_text" in codes[a.task_id] and "repeated_project_text" in codes[b.task_id]
    detail = " ".join(f.detail for f in flags[a.task_id])
    assert b.task_id in detail and c.task_id in detail and "same paper" in detail and quoting.task_id in detail
    assert codes[c.task_id] == ["repeated_project_text", "repeated_project_text", "small_gold_margin"]
    assert "home domain is elsewhere" in flags[c.task_id][1].detail and "0.012 < 0.04" in flags[c.task_id][2].detail
    assert quoting.task_id not in flags  # a task without a project of its own is not flagged itself
    assert F.project_flags([venue(1, text), c], [outcome], []) == {}  # one project each, an outcome gold: no flag


def test_audit_records_hold_checks_and_a_content_hash_that_follows_the_content():
    records, failures = audit()
    assert not failures and [r.task_id for r in records] == [t.task_id for t in TASKS]
    r = records[0]
    assert r.selected and r.checks["gate"] and r.checks["ranking"].startswith("released")
    assert not records[1].selected and records[1].checks["ranking"].startswith("held back")
    assert r.content_hash == content_hash(TASKS[0], GOLDS[0])
    assert content_hash(TASKS[0].model_copy(update={"title": "x"}), GOLDS[0]) != r.content_hash
    assert content_hash(TASKS[0], GOLDS[0].model_copy(update={"strength": 0.1})) != r.content_hash


# -- model review through the real client path ------------------------------------------


def test_model_review_drafts_verdicts_and_flags_what_fails(tmp_path):
    reply = {c: {"verdict": "pass", "reason": "fine"} for c in CRITERIA}
    reply["separable_from_hidden_evidence"] = {"verdict": "FAIL", "reason": "the question names the outcome"}
    reply["stable_premise"] = {"verdict": "maybe", "reason": "few early papers"}
    seen = []

    def mock(purpose, messages):
        seen.append(purpose)
        assert "hidden_gold" in messages[-1]["content"]
        return json.dumps(reply)

    client = MockedClient(LLMClient("openai/test-model", cache_dir=str(tmp_path / "c")), mock)
    records, failures = audit(review_fn=lambda rec: review(rec, client))
    assert not failures and seen == ["audit_review"] * 3  # the ranking's selection only
    assert not records[1].selected and records[1].model_review == []
    audit(review_fn=lambda rec: review(rec, client), selected_only=False)
    assert len(seen) == 3 + len(TASKS)
    verdicts = {v.criterion: v for v in records[0].model_review}
    assert set(verdicts) == set(CRITERIA) and set(ReviewReply.model_fields) == set(CRITERIA)
    assert verdicts["separable_from_hidden_evidence"].verdict == "fail"
    assert verdicts["stable_premise"].verdict == "unsure"
    model_flags = [f for f in records[0].flags if f.source == "model"]
    assert [f.detail.split(":")[0] for f in model_flags] == ["separable_from_hidden_evidence", "stable_premise"]


def test_a_failed_model_review_is_a_failure_row_not_a_lost_task():
    def broken(rec):
        raise RuntimeError("server down")

    records, failures = audit(review_fn=broken, selected_only=False)
    assert len(records) == len(TASKS) and all(not r.model_review for r in records)
    assert len(failures) == len(TASKS) and "server down" in failures[0].reason


# -- decisions -----------------------------------------------------------------------------


def test_decisions_keep_history_and_the_latest_wins(tmp_path):
    store = DecisionStore(tmp_path / "d.sqlite")
    h = {"t1": "hash1"}
    store.record(domain=D, cutoff=C, task_id="t1", content_hash="hash1", action="approve", reviewer="ana")
    store.record(
        domain=D,
        cutoff=C,
        task_id="t1",
        content_hash="hash1",
        action="reject",
        reviewer="bo",
        reason="duplicate",
        note="same as t2",
    )
    current = store.current(D, C, h)
    assert current["t1"].action == "reject" and current["t1"].reviewer == "bo"
    assert [d.action for d in store.history(D, C, "t1")] == ["approve", "reject"]
    # a rebuild changed the task: its decisions no longer apply, it is pending again
    assert store.current(D, C, {"t1": "hash2"}) == {}
    assert len(store.history(D, C, "t1")) == 2


@pytest.mark.parametrize(
    "kw, message",
    [
        (dict(action="reject", reason="because"), "a rejection needs a reason"),
        (dict(action="approve", reviewer=" "), "reviewer's name"),
        (dict(action="revise", revision={"strength": "1"}), "may be revised"),
        (dict(action="revise", revision={}), "at least one edited field"),
        (dict(action="delete"), "unknown action"),
    ],
)
def test_invalid_decisions_are_refused(tmp_path, kw, message):
    store = DecisionStore(tmp_path / "d.sqlite")
    args = dict(domain=D, cutoff=C, task_id="t1", content_hash="h", reviewer="ana") | kw
    with pytest.raises(DecisionError, match=message):
        store.record(**args)
    assert store.history(D, C) == []


def test_two_concurrent_writers_lose_no_decision(tmp_path):
    path = str(tmp_path / "d.sqlite")
    DecisionStore(path)
    ctx = multiprocessing.get_context("spawn")
    procs = [ctx.Process(target=write_many, args=(path, name, 40)) for name in ("ana", "bo")]
    for p in procs:
        p.start()
    for p in procs:
        p.join(120)
    assert all(p.exitcode == 0 for p in procs)
    rows = DecisionStore(path).history(D, C)
    assert len(rows) == 80 and {r.reviewer for r in rows} == {"ana", "bo"}
    assert len({r.decision_id for r in rows}) == 80


# -- release policy --------------------------------------------------------------------------


def _decisions(tmp_path, tasks=TASKS, golds=GOLDS) -> DecisionStore:
    store = DecisionStore(tmp_path / "d.sqlite")
    h = {t.task_id: content_hash(t, g) for t, g in zip(tasks, golds, strict=True)}
    store.record(
        domain=D,
        cutoff=C,
        task_id=tasks[0].task_id,
        content_hash=h[tasks[0].task_id],
        action="revise",
        reviewer="ana",
        revision={"title": "A clearer title", "option:B": "beta, clearer"},
    )
    store.record(
        domain=D,
        cutoff=C,
        task_id=tasks[2].task_id,
        content_hash=h[tasks[2].task_id],
        action="reject",
        reviewer="bo",
        reason="unclear_decision",
        note="the question asks two things at once",
    )
    return store


def test_curate_releases_only_approved_tasks_with_revisions(tmp_path):
    store = _decisions(tmp_path)
    current = store.current(D, C, {t.task_id: content_hash(t, g) for t, g in zip(TASKS, GOLDS, strict=True)})
    revised, approved, counts = curate(TASKS, RATINGS, current)
    assert approved == {TASKS[0].task_id}  # TASKS[1] is not selected, TASKS[2] rejected, TASKS[3] pending
    assert counts == {
        "policy": "require_approval",
        "ranked_for_release": 3,
        "approved": 1,
        "revised": 1,
        "rejected": 1,
        "rejected_by_reason": {"unclear_decision": 1},
        "pending": 1,
    }
    assert revised[0].title == "A clearer title" and revised[0].options[1].text == "beta, clearer"
    assert revised[0].options[0] == TASKS[0].options[0] and revised[1] == TASKS[1]
    assert apply_revision(TASKS[0], None) == TASKS[0]


def test_release_with_require_approval_ships_exactly_the_approved_tasks(tmp_path):
    storage = seed_store(tmp_path)
    _ = _decisions(tmp_path)  # a store elsewhere: not this warehouse's
    decisions = DecisionStore.for_store(storage.store())
    h = {t.task_id: content_hash(t, g) for t, g in zip(TASKS, GOLDS, strict=True)}
    decisions.record(
        domain=D,
        cutoff=C,
        task_id=TASKS[0].task_id,
        content_hash=h[TASKS[0].task_id],
        action="revise",
        reviewer="ana-reviewer",
        note="tightened the wording of the title",
        revision={"title": "A clearer title"},
    )
    decisions.record(
        domain=D,
        cutoff=C,
        task_id=TASKS[3].task_id,
        content_hash=h[TASKS[3].task_id],
        action="reject",
        reviewer="bo-reviewer",
        reason="not_specific",
    )
    ok, error = materialize_release(storage, tmp_path, {"require_approval": True})
    assert ok, error
    store = storage.store()
    base = store.artifact_path("release", D, C, "")
    rows = [json.loads(x) for x in store.read_bytes(base + "tasks.jsonl").decode().splitlines()]
    assert [(r["task_id"], r["title"]) for r in rows] == [(TASKS[0].task_id, "A clearer title")]
    manifest = json.loads(store.read_bytes(base + "manifest.json"))
    assert manifest["curation"]["approved"] == 1 and manifest["curation"]["pending"] == 1
    assert manifest["curation"]["rejected_by_reason"] == {"not_specific": 1}
    public = b"".join(store.read_bytes(base + n) for n in ("tasks.jsonl", "manifest.json", "kb_manifest.jsonl"))
    assert b"reviewer" not in public and b"tightened" not in public and b"content_hash" not in public
    gold = store.read_bytes(store.artifact_path("release", D, C, "gold.jsonl")).decode().splitlines()
    assert [json.loads(g)["task_id"] for g in gold] == [TASKS[0].task_id]
    # without the policy (the demo), the ranking alone decides and no curation key is written
    ok, _ = materialize_release(storage, tmp_path)
    manifest = json.loads(store.read_bytes(base + "manifest.json"))
    assert ok and manifest["counts"]["tasks"] == 3 and "curation" not in manifest


def test_separation_validator_refuses_audit_fields_and_texts():
    public, _, _ = release_files(
        TASKS,
        RATINGS,
        GOLDS,
        KB,
        domain=D,
        cutoff=C,
        window_end="2026-06-30",
        horizon_months=6,
        corpus_version="c",
        taxonomy_version="t",
    )
    rows = [json.loads(x) for x in public["tasks.jsonl"].decode().splitlines()]
    rows[0]["flags"] = [{"code": "near_duplicate"}]
    rows[1]["question"] += " (reviewer note: this one reads badly)"
    manifest = json.loads(public["manifest.json"])
    manifest["curation"] = {"approved": 1, "reviewer": "ana"}
    bad = dict(
        public,
        **{"tasks.jsonl": "".join(json.dumps(r) + "\n" for r in rows).encode(), "manifest.json": json.dumps(manifest).encode()},
    )
    messages = validate_release(bad, GOLDS, audit_texts={"notes": ["this one reads badly"], "reviewers": ["ana"]})
    assert any("audit key 'flags'" in m for m in messages)
    assert any("manifest.json: audit key 'curation.reviewer'" in m for m in messages)
    assert any("tasks.jsonl: a reviewer's note" in m for m in messages)
    assert any("manifest.json: reviewer name 'ana'" in m for m in messages)
    assert validate_release(public, GOLDS, audit_texts={"notes": ["this one reads badly"], "reviewers": ["ana"]}) == []


# -- the review page (Flask test client; the browser tests drive the same app) -----------------


@pytest.fixture
def page(tmp_path):
    from pipelines.review.app import create_app

    store = PartitionStore(str(tmp_path / "wh"))
    nasty = TASKS[0].model_copy(update={"title": "<script>alert(1)</script> & <b>bold</b>"})
    records, _ = audit([nasty, *TASKS[1:]], records=[evidence(["2501.00001"])])
    many = [r.model_copy(update={"task_id": f"{r.task_id}-{i}"}) for i in range(60) for r in records[1:2]]
    store.write_records("audit_queue", D, C, records + many, AuditRecord)
    app = create_app(store, reviewer="ana")
    return app.test_client(), store, records


def test_page_escapes_text_and_pages_the_queue(page):
    client, _, records = page
    html = client.get(f"/p/{D}/{C}/").get_data(as_text=True)
    assert "&lt;script&gt;alert(1)&lt;/script&gt; &amp; &lt;b&gt;bold&lt;/b&gt;" in html and "<script>alert" not in html
    assert "64 task(s), page 1 of 2" in html and 'id="next-page"' in html
    assert "64 task(s)" not in client.get(f"/p/{D}/{C}/?family=venue").get_data(as_text=True)
    detail = client.get(f"/p/{D}/{C}/task/{records[0].task_id}")
    text = detail.get_data(as_text=True)
    assert "&lt;b&gt;plan&lt;/b&gt;" in text and "<b>plan</b>" not in text  # a quote with HTML-like text
    assert "script-src 'self'" in detail.headers["Content-Security-Policy"]


def test_page_records_decisions_with_a_token_only(page):
    client, store, records = page
    url = f"/p/{D}/{C}/task/{records[0].task_id}"
    client.get(url)
    form = {"action": "approve", "reviewer": "ana", "content_hash": records[0].content_hash}
    assert client.post(url + "/decide", data=form).status_code == 403  # no token
    with client.session_transaction() as s:
        token = s["csrf"]
    assert client.post(url + "/decide", data=form | {"csrf": token}).status_code == 302
    stale = client.post(url + "/decide", data=form | {"csrf": token, "content_hash": "old"}, follow_redirects=True)
    assert "rebuilt since you opened it" in stale.get_data(as_text=True)
    history = DecisionStore.for_store(store).history(D, C)
    assert [(h.task_id, h.action, h.reviewer) for h in history] == [(records[0].task_id, "approve", "ana")]


def test_audit_status_prints_the_queue(tmp_path, monkeypatch, capsys):
    from pipelines.cli import main

    monkeypatch.setenv("FORESCI_HOME", str(tmp_path))
    store = PartitionStore(str(tmp_path / "warehouse"))
    records, _ = audit()
    store.write_records("audit_queue", D, C, records, AuditRecord)
    DecisionStore.for_store(store).record(
        domain=D,
        cutoff=C,
        task_id=records[0].task_id,
        content_hash=records[0].content_hash,
        action="reject",
        reviewer="ana",
        reason="duplicate",
    )
    assert main(["audit", "status", "--domain", D, "--cutoff", C]) == 0
    out = capsys.readouterr().out
    assert f"{D} @ {C}: 4 candidate tasks, 3 selected by the ranking" in out
    assert "rejected by reason: duplicate 1" in out and "pending 3/2" in out
    assert records[0].task_id in out and records[1].task_id not in out  # the selection only, unless --all
    assert main(["audit", "status", "--domain", D, "--cutoff", C, "--format", "json"]) == 0
    figures = json.loads(capsys.readouterr().out)
    assert figures["states"] == {"pending": 3, "approved": 0, "revised": 0, "rejected": 1}
    assert main(["audit", "status", "--domain", D, "--cutoff", "2020-01-01"]) == 1


def test_foresci_release_require_approval_command(tmp_path, monkeypatch, capsys):
    from pipelines.cli import main

    storage = seed_store(tmp_path)
    (tmp_path / "warehouse").symlink_to(tmp_path / "wh")  # $FORESCI_HOME/warehouse is the default root
    (tmp_path / "dagster").mkdir()
    monkeypatch.setenv("FORESCI_HOME", str(tmp_path))
    monkeypatch.setenv("DAGSTER_HOME", str(tmp_path / "dagster"))
    h = content_hash(TASKS[2], GOLDS[2])
    DecisionStore.for_store(storage.store()).record(
        domain=D, cutoff=C, task_id=TASKS[2].task_id, content_hash=h, action="approve", reviewer="ana"
    )
    assert main(["release", "--domain", D, "--cutoff", C, "--require-approval", "--name", "v1"]) == 0
    out = capsys.readouterr().out
    assert f"release v1 of {D} @ {C}: 1 tasks" in out and '"approved": 1' in out and '"pending": 2' in out


def test_the_overview_reads_only_heads_and_agrees_with_the_full_queue(page):
    """The index's figures come from each task's id, selection and flag codes (no validation of
    whole records), and equal the figures of the full queue, decisions included."""
    from pipelines.review.queue import summary

    client, store, records = page
    url = f"/p/{D}/{C}/task/{records[0].task_id}"
    client.get(url)
    with client.session_transaction() as s:
        token = s["csrf"]
    client.post(
        url + "/decide",
        data={
            "action": "reject",
            "reason": "gold_wrong",
            "reviewer": "ana",
            "csrf": token,
            "content_hash": records[0].content_hash,
        },
    )
    reader = client.application.config["reader"]
    heads, items = reader.heads(D, C), reader.items(D, C)
    assert sorted((h.task_id, h.selected, tuple(h.flag_codes), h.state) for h in heads) == sorted(
        (i.record.task_id, i.record.selected, tuple(i.flag_codes), i.state) for i in items
    )
    assert summary(heads) == summary(items)
    assert summary(heads)["flagged"] > 0 and summary(heads)["states"]["rejected"] == 1
    # with two partitions the index shows every partition's figures without validating one record
    store.write_records("audit_queue", D, "2026-05-15", records, AuditRecord)

    def no_records(*_):
        raise AssertionError("the overview validated whole audit records")

    reader.records = no_records
    html = "".join(client.get("/").get_data(as_text=True).split())
    assert f"<td>{C}</td><td>{len(items)}</td>" in html and f"<td>2026-05-15</td><td>{len(records)}</td>" in html

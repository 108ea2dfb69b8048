"""The review page driven in a real browser (headless Chromium through Playwright).

A cheap partition (60 synthetic candidate tasks in four families, 12 selected by the
ranking) is seeded into a temporary warehouse; the real `audit_queue` and `release_package`
assets are materialized on it, and the real Flask app is served on 127.0.0.1 (port 0)
in this process. The tests open the queue, page and filter it, approve one task with the
keyboard, reject one with a reason, revise one title, reload and see the decisions kept,
rebuild the release with `require_approval` and see only the approved tasks with the
revised title; two reviewers at once; a rebuild that changes a task reopens it.

Skipped, with a message, when no Chromium is installed (`apt-get install -y chromium`;
Playwright cannot download its own browser here). Screenshots go to a temporary folder,
or to `$FORESCI_SCREENSHOTS` (docs/img to refresh docs/curation.md's).
"""

from __future__ import annotations

import os

os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")

import json
import shutil
import threading
from datetime import date
from pathlib import Path

import dagster as dg
import pytest

from assets.audit.definitions import audit_queue
from assets.partitions import partition_key
from assets.ranking.presentation import write_presented
from assets.release.definitions import release_package
from core.records import (
    EvidenceRecord,
    GoldTarget,
    PaperEvidence,
    Task,
    TaskBuild,
    TaskRating,
)
from resources.llm import LLMResource
from tests.factories import release_gold as gold
from tests.factories import release_task as task
from tests.factories import seed_store

CHROMIUM = os.environ.get("FORESCI_CHROMIUM") or shutil.which("chromium") or shutil.which("chromium-browser")
ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--no-first-run",
    "--disable-sync",
    "--disable-quic",
]
try:
    import playwright.sync_api as pw
except ImportError:  # pragma: no cover - the test extra installs it
    pw = None
pytestmark = pytest.mark.skipif(
    CHROMIUM is None or pw is None,
    reason="browser tests skipped: no Chromium found (apt-get install -y chromium; .ci/run installs it) "
    "or playwright missing (make install)",
)

D, C = "llm_agent", "2025-12-31"
FAMILIES = ("direction", "planning", "venue", "bottleneck")
PER_FAMILY, SELECTED = 15, 3
NASTY = "Agents fail at <img src=x onerror=\"document.title='pwned'\"> & <script>alert(1)</script> planning."


def seed(root: Path):
    """The synthetic partition: tasks, gold, ranking, builds, evidence, corpus (and what the release reads)."""
    tasks = []
    for fam in FAMILIES:
        for i in range(1, PER_FAMILY + 1):
            t = task(i, fam, "venue cycle" if fam == "venue" else "6-month")
            tasks.append(
                t.model_copy(update={"support_paper_ids": ["2501.00001"], "support_evidence_ids": ["2501.00001#problem"]})
            )
    golds = [gold(t) for t in tasks]
    ratings = [
        TaskRating(
            task_id=t.task_id,
            family=t.family,
            elo=1300.0 - i % PER_FAMILY,
            rank_in_family=i % PER_FAMILY + 1,
            released=i % PER_FAMILY < SELECTED,
            quality=0.5,
            note="" if i % PER_FAMILY < SELECTED else "below the top 3 of its family",
        )
        for i, t in enumerate(tasks)
    ]
    storage = seed_store(root, tasks)
    store = storage.store()
    store.write_records("gold_targets", D, C, golds, GoldTarget)
    store.write_records("task_ranking", D, C, ratings, TaskRating)
    write_presented(store, D, C, tasks, golds, ratings)  # what task_ranking writes
    store.write_records(
        "task_builds",
        D,
        C,
        [TaskBuild(task_id=t.task_id, signal_ids=[], node_ids=[], curation={"premise": "pass"}) for t in tasks],
        TaskBuild,
    )
    store.write_records(
        "evidence_records",
        D,
        C,
        [
            EvidenceRecord(
                record_id="ev:1",
                node_id="n",
                domain=D,
                cutoff=date(2025, 12, 31),
                node_label="planning",
                representative_ids=["2501.00001"],
                supporting_ids=[],
                papers=[PaperEvidence(arxiv_id="2501.00001", published=date(2025, 1, 5), problem=NASTY)],
            )
        ],
        EvidenceRecord,
    )
    return storage, tasks


def materialize(assets, storage, root: Path, config: dict | None = None):
    with dg.DagsterInstance.ephemeral() as instance:
        instance.add_dynamic_partitions("cutoff", [C])
        result = dg.materialize(
            assets,
            partition_key=partition_key(D, C),
            instance=instance,
            resources={"storage": storage, "llm": LLMResource(model="", cache_dir=str(root / "cache"))},
            run_config={"ops": config or {}},
            raise_on_error=False,
        )
    assert result.success
    return result


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    from pipelines.review.app import create_app, serve

    root = tmp_path_factory.mktemp("review")
    storage, tasks = seed(root)
    materialize([audit_queue], storage, root)
    server = serve(create_app(storage.store()), 0)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    shots = Path(os.environ.get("FORESCI_SCREENSHOTS") or root / "shots")
    shots.mkdir(parents=True, exist_ok=True)
    with pw.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        try:
            yield {
                "url": f"http://127.0.0.1:{server.server_port}",
                "browser": browser,
                "storage": storage,
                "root": root,
                "tasks": tasks,
                "shots": shots,
            }
        finally:
            browser.close()
            server.shutdown()
            server.server_close()


def _page(site, width=1500, height=1000):
    context = site["browser"].new_context(viewport={"width": width, "height": height})
    return context, context.new_page()


def _state(page, task_id: str) -> str:
    return page.locator(f'tr[data-task="{task_id}"]').get_attribute("data-state")


def test_review_flow_in_a_browser_then_release_ships_only_approved(site):
    context, page = _page(site)
    ids = {fam: [t.task_id for t in site["tasks"] if t.family == fam] for fam in FAMILIES}
    page.goto(site["url"] + "/")  # one partition: straight to its queue
    assert page.locator("#count").inner_text() == "60 task(s), page 1 of 2"
    assert page.locator("#queue tbody tr").count() == 50
    page.screenshot(path=str(site["shots"] / "curation-queue.png"))
    page.click("#next-page")
    assert page.locator("#queue tbody tr").count() == 10

    # filter: the selected direction tasks
    page.select_option("select[name=family]", "direction")
    page.select_option("select[name=selected]", "yes")
    page.click("#apply-filters")
    assert page.locator("#count").inner_text() == "3 task(s)"
    first, second, third = ids["direction"][:SELECTED]
    page.click(f'tr[data-task="{first}"] a')

    # one task, evidence side by side; HTML-like text in a quote stays text
    assert page.locator("#public #task-title").inner_text() == "direction 1"
    assert "<img src=x" in page.locator("#support").inner_text()
    assert page.locator("#support img, #support script").count() == 0 and page.title() != "pwned"
    assert page.locator("#gold").inner_text().count("beta") >= 1 and page.locator("#flags .flag-item").count() >= 1
    page.fill("#reviewer", "ana")
    page.locator("body").click(position={"x": 5, "y": 300})  # leave the input: shortcuts are off while typing
    page.screenshot(path=str(site["shots"] / "curation-task.png"), full_page=True)

    # approve with the keyboard; the page moves on to the next task of the filter
    page.keyboard.press("a")
    page.wait_for_url(f"**/task/{second}?**")
    assert f"{first}: approve recorded." in page.locator(".flash").first.inner_text()

    # reject with a reason (r focuses the reason list)
    page.keyboard.press("r")
    assert page.evaluate("document.activeElement.id") == "reason"
    page.select_option("#reason", "duplicate")
    page.fill("#note", "asks what direction 2 of the other family asks")
    page.click("#reject")
    page.wait_for_url(f"**/task/{third}?**")

    # revise the title (e opens the revision form)
    page.keyboard.press("e")
    assert page.locator("#revise").is_visible()
    page.fill("#revise-title", "Which direction gains momentum: alpha 3 or beta 3?")
    page.screenshot(path=str(site["shots"] / "curation-revise.png"), full_page=True)
    page.click("#save-revision")
    page.wait_for_load_state()

    # reload the queue: the decisions are kept
    page.goto(site["url"] + f"/p/{D}/{C}/?family=direction&selected=yes")
    page.reload()
    assert [_state(page, t) for t in (first, second, third)] == ["approved", "rejected", "revised"]
    assert "Which direction gains momentum: alpha 3 or beta 3?" in page.locator(f'tr[data-task="{third}"]').inner_text()
    page.select_option("select[name=decision]", "pending")
    page.click("#apply-filters")
    assert page.locator("#count").inner_text() == "0 task(s)"
    page.goto(site["url"] + f"/p/{D}/{C}/?selected=yes")
    page.screenshot(path=str(site["shots"] / "curation-decisions.png"))
    context.close()

    # the release with require_approval: exactly the approved tasks, the revision applied, no audit field
    storage = site["storage"]
    result = materialize([release_package], storage, site["root"], {"release_package": {"config": {"require_approval": True}}})
    store = storage.store()
    base = store.artifact_path("release", D, C, "")
    rows = [json.loads(x) for x in store.read_bytes(base + "tasks.jsonl").decode().splitlines()]
    assert {r["task_id"]: r["title"] for r in rows} == {
        first: "direction 1",
        third: "Which direction gains momentum: alpha 3 or beta 3?",
    }
    manifest = json.loads(store.read_bytes(base + "manifest.json"))
    assert manifest["curation"] == {
        "policy": "require_approval",
        "ranked_for_release": 12,
        "approved": 2,
        "revised": 1,
        "rejected": 1,
        "rejected_by_reason": {"duplicate": 1},
        "pending": 9,
    }
    public = b"".join(store.read_bytes(base + n) for n in ("tasks.jsonl", "manifest.json", "kb_manifest.jsonl"))
    for word in (b"ana", b"reviewer", b"content_hash", b"flags", b"asks what direction"):
        assert word not in public
    [mat] = result.asset_materializations_for_node("release_package")
    assert mat.metadata["curation"].value["approved"] == 2


def test_two_reviewers_at_once_the_later_wins_and_history_keeps_both(site):
    target = [t.task_id for t in site["tasks"] if t.family == "venue"][0]
    url = site["url"] + f"/p/{D}/{C}/task/{target}"
    (ca, a), (cb, b) = _page(site), _page(site)
    a.goto(url)
    b.goto(url)  # both have the task open
    a.fill("#reviewer", "ana")
    a.click("#approve")
    a.wait_for_load_state()
    b.fill("#reviewer", "bo")
    b.select_option("#reason", "not_specific")
    b.click("#reject")
    b.wait_for_load_state()
    assert "ana decided" in b.locator(".flash.warning").inner_text()
    b.goto(url)
    assert b.locator("#state").inner_text() == "rejected"
    history = b.locator("#history li").all_inner_texts()
    assert len(history) == 2 and "ana approve" in history[0] and "bo reject (not_specific)" in history[1]
    ca.close()
    cb.close()


def test_a_rebuild_that_changes_a_task_reopens_it(site):
    from core.records import AuditRecord
    from resources.decisions import DecisionStore

    storage, root = site["storage"], site["root"]
    store = storage.store()
    tasks = store.read_records("tasks", D, C, Task)
    target = [t.task_id for t in tasks if t.family == "planning"][0]
    [record] = [r for r in store.read_records("audit_queue", D, C, AuditRecord) if r.task_id == target]
    DecisionStore.for_store(store).record(
        domain=D, cutoff=C, task_id=target, content_hash=record.content_hash, action="approve", reviewer="ana"
    )
    context, page = _page(site)
    page.goto(site["url"] + f"/p/{D}/{C}/?family=planning&selected=yes")
    assert _state(page, target) == "approved"
    changed = [t.model_copy(update={"question": t.question + " Explain."}) if t.task_id == target else t for t in tasks]
    store.write_records("tasks", D, C, changed, Task)
    write_presented(
        store,
        D,
        C,
        changed,
        store.read_records("gold_targets", D, C, GoldTarget),
        store.read_records("task_ranking", D, C, TaskRating),
    )  # task_ranking's rebuild
    materialize([audit_queue], storage, root)
    page.reload()
    assert _state(page, target) == "pending"
    page.goto(site["url"] + f"/p/{D}/{C}/task/{target}")
    assert "(earlier build)" in page.locator("#history").inner_text()
    context.close()


@pytest.mark.skipif(
    not os.environ.get("FORESCI_REVIEW_WAREHOUSE"),
    reason="set FORESCI_REVIEW_WAREHOUSE to a built warehouse to screenshot its review page",
)
def test_screenshots_of_a_built_partition(site):
    """Screenshots of a real partition's queue and first selected task (docs/curation.md), read-only."""
    from pipelines.review.app import create_app, serve
    from resources.decisions import DecisionStore
    from resources.storage import PartitionStore

    store = PartitionStore(os.environ["FORESCI_REVIEW_WAREHOUSE"])
    # decisions in a scratch file: screenshots never write to the warehouse they show
    server = serve(create_app(store, DecisionStore(site["root"] / "scratch.sqlite")), 0)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        context, page = _page(site)
        page.goto(f"http://127.0.0.1:{server.server_port}/")
        if page.locator("#queue").count() == 0:  # several partitions: the first
            page.click("table a")
        page.select_option("select[name=selected]", "yes")
        page.click("#apply-filters")
        page.screenshot(path=str(site["shots"] / "curation-real-queue.png"), full_page=True)
        page.click("#queue tbody tr:nth-child(1) a")
        page.screenshot(path=str(site["shots"] / "curation-real-task.png"), full_page=True)
        context.close()
    finally:
        server.shutdown()
        server.server_close()

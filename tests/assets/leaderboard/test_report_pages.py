"""The three HTML report pages (the leaderboard report, the answer-chains page, the idea-review
report), rendered from their Jinja2 templates on a built partition and opened in headless
Chromium (Playwright, as tests/test_review_browser.py drives it).

A small partition is seeded into a temporary warehouse: judged scores of two families and two
methods (so every report section has data), pairwise comparisons, a validity row per family,
and Xcientist artifacts built from answers; the real `leaderboard` asset writes report.html and
chains.html. A small idea-review build (4 ideas over the fixture papers) writes the idea
report. Text that looks like HTML (`NASTY`, in an answer's claim, a validity problem and an
idea report's problem) must stay text: shown literally, no element created, no script run.

The template tests need no browser; the browser tests are skipped, with a message, when no
Chromium is installed. Screenshots go to a temporary folder, or to `$FORESCI_SCREENSHOTS`
(docs/img to refresh the docs' ones); with `$FORESCI_REPORT_WAREHOUSE` set to a built
warehouse, `test_screenshots_of_a_built_warehouse` shows its first partition's pages.
"""

from __future__ import annotations

import os

os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")

import json
import shutil
from datetime import date
from pathlib import Path

import dagster as dg
import pytest

from assets.artifacts.logic import build_artifacts
from assets.artifacts.tuples import PaperSource
from assets.leaderboard import chains, report
from assets.leaderboard.definitions import leaderboard
from assets.partitions import partition_key
from core.pages import render
from core.records import Answer, AnswerArtifacts, PairwiseComparison, Score, TaskRating
from resources.storage import StorageResource

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
browser_only = pytest.mark.skipif(
    CHROMIUM is None or pw is None,
    reason="browser tests skipped: no Chromium found (apt-get install -y chromium) or playwright missing",
)

D, C = "llm_agent", "2025-12-31"
NASTY = "Agents fail at <img src=x onerror=\"document.title='pwned'\"> & <script>alert(1)</script> planning."
PID = "2501.00001"
ABSTRACT = (
    "Agents that retrieve tool documentation reduce hallucinated API calls. "
    "We evaluate on ToolBench and improve accuracy by 12 points over the baseline. "
    "The gain comes from filtering redundant tools before planning."
)
SOURCES = {PID: PaperSource(PID, "Retrieval of tool documentation for agents", date(2025, 1, 1), [("abstract", ABSTRACT)])}
REPORT_SECTIONS = (
    "Overall (Table 2 shape)",
    "By task family (Table A7 shape)",
    "Pairwise method comparisons (FTA)",
    "Validity: methods against chance and the controls",
    "Metric correlations",
    "Low-score rates (Table A10 shape)",
    "Evidence-to-decision drift",
    "Claim drift and attribution (Xcientist)",
    "Method ratings from pairwise comparisons",
    "Judge cost accounting",
)
CLAIMS = (
    "Tool retrieval reduces hallucinated API calls because agents memorise user preferences.",
    "Retrieving tool documentation reduces hallucinated API calls.",
    NASTY,
)


def scores() -> list[Score]:
    """Two families x two methods x 3 tasks, with judge metrics, drift labels and cost fields."""
    out = []
    for i, (fam, task) in enumerate(
        [("planning", "p1"), ("planning", "p2"), ("planning", "p3"), ("venue", "v1"), ("venue", "v2"), ("venue", "v3")]
    ):
        for method, bonus, support in (("native_llm", 0.0, False), ("aris", 0.2, True)):
            out.append(
                Score(
                    answer_id=f"{task}::{method}::b::0",
                    task_id=task,
                    family=fam,
                    method=method,
                    backbone="b",
                    fta=min(1.0, 0.2 + 0.1 * i + bonus),
                    fact=min(1.0, 0.3 + 0.1 * i + bonus),
                    pers=0.5 + bonus,
                    pers_std=0.05,
                    repeats=3,
                    trace=(0.4 + 0.05 * i) if support else None,
                    trace_linkage=1.0 if support else None,
                    judge_model="judge-x",
                    prompt_version="v1",
                    judge_calls=4,
                    judge_prompt_chars=12_000,
                    drift={"causal_role": 0.0 if bonus else 3.0, "scope_granularity": float(i % 3)},
                )
            )
    return out


def validity_rows() -> list[dict]:
    rows = []
    for fam, problems in (("planning", NASTY), ("venue", "")):
        rows.append(
            {
                "family": fam,
                "tasks_released": 3,
                "control_gold": 1.0,
                "control_random": 0.25,
                "control_empty": 0.0,
                "control_every_option": 0.25,
                "control_first_option": 0.2,
                "control_other_gold": 0.3,
                "methods": json.dumps({"native_llm": 0.4, "aris": 0.6}),
                "gold_stability": 1.0,
                "controls_gated": False,
                "passed": not problems,
                "problems": problems,
                "notes": "",
                "window_coverage": 0.5,
                "uncaptured_themes": json.dumps([{"phrase": "<skill> agents", "papers": 12, "growth": 3.5}]),
            }
        )
    return rows


def artifacts() -> list[AnswerArtifacts]:
    """Xcientist artifacts of the p1 answers: a claim with mechanistic drift, one that passes, NASTY."""
    out = []
    for method in ("native_llm", "aris"):
        answer = Answer(
            answer_id=f"p1::{method}::b::0",
            task_id="p1",
            family="planning",
            method=method,
            backbone="b",
            claims=list(CLAIMS),
            decision=["tool documentation retrieval for agents"],
            evidence_ids=[PID],
        )
        out.append(build_artifacts(answer, None, SOURCES.get)[0])
    return out


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    """The partition's report.html and chains.html from the real leaderboard asset, and the
    idea report of a small idea-review build."""
    import pyarrow as pa

    root = tmp_path_factory.mktemp("report_pages")
    storage = StorageResource(root=str(root / "wh"), duckdb_path=str(root / "f.duckdb"))
    store = storage.store()
    sc = scores()
    store.write_records("judge_scores", D, C, sc, Score)
    store.write_records(
        "task_ranking",
        D,
        C,
        [
            TaskRating(
                task_id=t, family="planning" if t[0] == "p" else "venue", elo=1200.0, rank_in_family=1, released=True, quality=1.0
            )
            for t in sorted({s.task_id for s in sc})
        ],
        TaskRating,
    )
    store.write_records(
        "judge_pairwise",
        D,
        C,
        [
            PairwiseComparison(
                task_id=t, family="planning", system_a="aris@b", system_b="native_llm@b", winner="a", source="metric:fta"
            )
            for t in ("p1", "p2", "p3")
        ],
        PairwiseComparison,
    )
    store.write_table("validity_report", D, C, pa.Table.from_pylist(validity_rows()))
    store.write_records("answer_artifacts", D, C, artifacts(), AnswerArtifacts)
    instance = dg.DagsterInstance.ephemeral()
    instance.add_dynamic_partitions("cutoff", [C])
    assert dg.materialize(
        [leaderboard], partition_key=partition_key(D, C), instance=instance, resources={"storage": storage}
    ).success
    pages = {
        "report": Path(store.artifact_path("leaderboard", D, C, "report.html")),
        "chains": Path(store.artifact_path("leaderboard", D, C, chains.CHAINS_FILE)),
    }
    pages["ideas"] = idea_report(store, root)
    return pages


def idea_report(store, root: Path) -> Path:
    """A 4-idea build over the fixture papers; the report re-rendered with NASTY as its problem
    (a built row's problems are the build's own words) beside the built one."""
    from assets.families.registry import FAMILIES, unregister_family
    from assets.idea_review.kb import IdeaCorpusIndex
    from assets.idea_review.pipeline import report_html, run_idea_review
    from core.papers import read_jsonl
    from resources.embeddings import load_embedder
    from tests.fixture_data import fixture_path

    embed = load_embedder().encode
    papers = [
        p
        for d in ("llm_agent", "rag_and_retrieval_structuring")
        for p in read_jsonl(fixture_path(f"arxiv/samples/{d}.sample.jsonl"))[0]
    ]
    registered = "idea_review" in FAMILIES.names()
    try:
        run = run_idea_review(
            store,
            embed,
            index=IdeaCorpusIndex(papers, embed),
            disciplines=["ai"],
            limit=4,
            known={p.arxiv_id: p.published for p in papers},
            log=lambda *_: None,
        )
    finally:
        if not registered and "idea_review" in FAMILIES.names():
            unregister_family("idea_review")
    built = Path(store.artifact_path("leaderboard", "ideas", run.cutoff_key, "report.html"))
    assert "<h2>Methods and controls</h2>" in built.read_text()
    failed = {**run.validity, "passed": False, "problems": NASTY}
    path = root / "ideas_report.html"
    path.write_text(report_html(run.cutoff_key, failed, run.scores, run.controls, run.validity["metric"]))
    return path


# -- templates, no browser ------------------------------------------------------------------


def test_every_value_is_escaped_and_the_layout_is_shared(built):
    page = built["report"].read_text()
    assert "<script>" not in page and "<img src=x" not in page
    assert (
        "Agents fail at &lt;img src=x onerror=&#34;document.title=&#39;pwned&#39;&#34;&gt; &amp; "
        "&lt;script&gt;alert(1)&lt;/script&gt; planning." in page
    )
    assert "&lt;skill&gt; agents (12 papers, x3.5)" in page  # the uncaptured themes of the window
    assert all(f"<h2>{h}</h2>" in page for h in REPORT_SECTIONS)
    assert page.count('src="data:image/png;base64,') == 4  # family bars, validity, correlations, drift
    chains_page, ideas = built["chains"].read_text(), built["ideas"].read_text()
    assert "<script>" not in chains_page and "<script>" not in ideas
    for p in (page, chains_page, ideas):  # core/templates/page.html
        assert p.startswith("<!doctype html>") and p.rstrip().endswith("</body></html>")
    assert "Metric: <b>rubric_coverage_proxy</b> — an embedding PROXY" in ideas


def test_number_columns_are_right_aligned_and_text_columns_are_not():
    from core.pages import numeric_columns

    rows = [
        {
            "m": "aris",
            "fta": "0.650 [0.52, 0.78]",
            "mdd": "1.084 (prior sd)",
            "n": 3,
            "x": None,
            "ok": True,
            "why": "3 shared tasks < 6",
            "ex": "+0.050 (≥ –)",
        },
        {"m": "b", "fta": "–", "n": 4, "x": None, "ok": False},
    ]
    assert numeric_columns(rows, list(rows[0])) == {"fta", "mdd", "n", "ex"}


def test_every_template_ships_in_the_wheel():
    """pyproject's package-data ships `templates/*.html` of every package: no template in a
    subfolder or with another suffix, and every template compiles."""
    import tomllib

    from core.pages import environment

    root = Path(__file__).resolve().parents[3]
    data = tomllib.loads((root / "pyproject.toml").read_text())["tool"]["setuptools"]["package-data"]["*"]
    assert "templates/*.html" in data
    for package in ("core", "assets.leaderboard", "assets.idea_review"):
        folder = root.joinpath(*package.split("."), "templates")
        files = [p for p in folder.rglob("*") if p.is_file()]
        assert files and all(p.parent == folder and p.suffix == ".html" for p in files), files
        for p in files:
            environment(package).get_template(p.name)


def test_a_template_variable_that_is_missing_fails_the_render():
    import jinja2

    with pytest.raises(jinja2.UndefinedError):
        render("assets.leaderboard", "chains.html", title="t")  # no `answers`


def test_report_without_artifacts_has_no_xcientist_section_and_with_none_says_so():
    kw = dict(title="t", rows=[], low_rows=[], drift_rows=[], ratings=[], correlations={}, judge={})
    assert "Claim drift and attribution" not in report.report_html(**kw)
    assert "No answer artifacts in this partition." in report.report_html(**kw, artifacts=[])


# -- in Chromium ----------------------------------------------------------------------------


@pytest.fixture(scope="module")
def browser():
    with pw.sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        try:
            yield b
        finally:
            b.close()


def shots() -> Path:
    folder = Path(os.environ.get("FORESCI_SCREENSHOTS") or Path(os.environ.get("TMPDIR", "/tmp")) / "foresci-shots")
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def open_page(browser, path: Path, width: int = 1280, height: int = 900):
    """The page at `path` (file://) with every console error, page error and dialog recorded."""
    context = browser.new_context(viewport={"width": width, "height": height})
    page = context.new_page()
    problems: list[str] = []
    page.on("console", lambda m: problems.append(f"console {m.type}: {m.text}") if m.type == "error" else None)
    page.on("pageerror", lambda e: problems.append(f"page error: {e}"))
    page.on("dialog", lambda d: (problems.append(f"dialog: {d.message}"), d.dismiss()))
    page.goto(path.resolve().as_uri())
    page.wait_for_load_state("load")
    return context, page, problems


def assert_text_stays_text(page, problems: list[str], title: str):
    assert page.title() == title  # the onerror handler never ran
    assert page.locator("img[src=x]").count() == 0 and page.locator("body script").count() == 0
    assert NASTY in page.locator("body").inner_text()
    assert not problems, problems


@browser_only
def test_the_report_in_chromium(built, browser):
    context, page, problems = open_page(browser, built["report"])
    title = f"ForeSci leaderboard: {page.locator('h1').inner_text().split(': ', 1)[1]}"
    assert [h for h in page.locator("h2").all_inner_texts() if h in REPORT_SECTIONS] == list(REPORT_SECTIONS)
    images = page.locator("img")
    assert images.count() == 4
    assert all(
        page.evaluate("(i) => i.complete && i.naturalWidth > 0", images.nth(k).element_handle()) for k in range(images.count())
    )  # every embedded PNG decodes
    assert_text_stays_text(page, problems, title)
    align = "(e) => getComputedStyle(e).textAlign"
    pairs = page.locator("h2:text-is('Pairwise method comparisons (FTA)') + p + div table tbody tr").first
    assert pairs.locator("td").nth(4).evaluate(align) == "right"  # A − B
    assert pairs.locator("td").nth(11).evaluate(align) == "left"  # why
    page.screenshot(path=str(shots() / "report.png"), full_page=True)
    # a drift example links to its answer's section of the chains page
    link = page.locator("a[href^='chains.html#']").first
    target = link.get_attribute("href").split("#", 1)[1]
    link.click()
    page.wait_for_load_state("load")
    assert page.url.endswith(f"chains.html#{target}") and page.locator(f"section#{target}").count() == 1
    context.close()


@browser_only
def test_the_chains_page_in_chromium(built, browser):
    context, page, problems = open_page(browser, built["chains"])
    sections = page.locator("section")
    assert sections.count() == 2
    assert page.locator("section h2").all_inner_texts() == ["p1::aris::b::0", "p1::native_llm::b::0"]
    first = sections.nth(0)
    assert first.locator("td.verified").count() >= 1  # a verified quote
    assert "mechanistic drift" in first.inner_text()
    assert first.locator("tbody tr").count() >= len(CLAIMS)  # a row per claim (and per tuple)
    assert_text_stays_text(page, problems, page.locator("h1").inner_text())
    page.screenshot(path=str(shots() / "report-chains.png"), full_page=True)
    context.close()


@browser_only
def test_the_idea_review_report_in_chromium(built, browser):
    context, page, problems = open_page(browser, built["ideas"])
    assert page.locator("h2").all_inner_texts() == ["Methods and controls"]
    head = page.locator("thead th").all_inner_texts()
    assert head == ["method", "rubric coverage (embedding PROXY, no judge) 0-1", "reference validity"]
    methods = page.locator("tbody tr td:first-child").all_inner_texts()
    assert {"scholareval", "retrieval_review", "control:gold", "control:random"} <= set(methods)
    assert "FAILED: " + NASTY in page.locator("body").inner_text()
    assert_text_stays_text(page, problems, page.locator("h1").inner_text())
    page.screenshot(path=str(shots() / "report-ideas.png"), full_page=True)
    context.close()


@browser_only
@pytest.mark.skipif(
    not os.environ.get("FORESCI_REPORT_WAREHOUSE"),
    reason="set FORESCI_REPORT_WAREHOUSE to a built warehouse to screenshot its report pages",
)
def test_screenshots_of_a_built_warehouse(browser):
    """The first partition's report and chains pages and the ideas report of a real warehouse
    (docs/img), read-only; no console error on any."""
    root = Path(os.environ["FORESCI_REPORT_WAREHOUSE"]) / "public" / "_artifacts" / "leaderboard"
    reports = sorted(p for p in root.glob("domain=*/cutoff=*/report.html") if "domain=ideas" not in str(p))
    assert reports, f"no report.html under {root}"
    pages = {"report-real.png": reports[0], "report-chains-real.png": reports[0].with_name(chains.CHAINS_FILE)}
    ideas = sorted(root.glob("domain=ideas/cutoff=*/report.html"))
    if ideas:
        pages["report-ideas-real.png"] = ideas[0]
    for name, path in pages.items():
        context, page, problems = open_page(browser, path, height=1000)
        assert not problems, problems
        # a short page whole, a long one its first 1,000 px (the ideas report is short)
        page.screenshot(path=str(shots() / name), full_page=page.evaluate("document.body.scrollHeight") <= 1600)
        context.close()

"""The rediscovery family (FIRE-Bench, issue 14 part A): hand-made findings through the claim
matcher, the sentence-role tree, the family end to end (tasks, gold, controls, offline
agents with a KB re-bound to each task's cutoff, scoring, validity), the contamination split,
the batched judge, and that the default registries are untouched unless it is enabled."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from datetime import date, timedelta

import lancedb
import pytest

from assets.agents.backbones import BackboneEntry, BackboneRegistry
from assets.agents.runner import run_method
from assets.families.registry import family_names, register_family, unregister_family
from assets.gold.claims import ClaimContext, check_claim
from assets.gold.logic import build_gold
from assets.judging.scoring import score_answers
from assets.knowledge_base.logic import CutoffViolation, KnowledgeBaseView, build_kb
from assets.rediscovery import report as rd
from assets.rediscovery.family import RediscoveryFamily
from assets.rediscovery.scorer import RediscoveryClaims
from assets.rediscovery.tree import difficulty, problem_tree, roles, target_of
from assets.scorers.registry import register_scorer, unregister_scorer
from assets.tasks.logic import build_tasks
from assets.validity.controls import control_answers
from assets.validity.report import validity_rows
from core import claims as cl
from core.records import TaskRating
from core.thresholds import Thresholds
from resources.embeddings import load_embedder
from tests.factories import REDISCOVERY_TOPICS as TOPICS
from tests.factories import rediscovery_paper as paper
from tests.factories import rediscovery_world as world
from tests.factories import task_settings

GOLD = [
    "Chain-of-thought prompting improves accuracy on multi-step arithmetic word problems by 12%.",
    "Self-consistency decoding reduces the variance of answers from small language models.",
    "Larger retrieval windows degrade factual recall in long-context question answering.",
]


# -- the claim matcher on hand-made findings ---------------------------------------------------


@pytest.mark.parametrize(
    "claim, kind",
    [
        ("Chain-of-thought prompting hurts accuracy on multi-step arithmetic word problems.", "contradictory"),
        ("Chain-of-thought prompting always improves accuracy on arithmetic word problems.", "overgeneralized"),
        ("Chain-of-thought prompting mainly changes the length of arithmetic word problem solutions.", "alternative"),
        ("Diffusion models generate sharper images with classifier-free guidance.", "unrelated"),
        ("The proposed method improves performance over strong baselines.", "unrelated"),  # generic: no specific term
    ],
)
def test_unmatched_claims_are_typed(claim, kind):
    s = cl.score_claims(cl.atomic_claims([claim]), GOLD)
    assert s.tp == 0 and s.fp_types == {0: kind}
    assert s.fn_types[0] == kind  # the missed finding says what the answer did with it
    assert set(s.fn_types.values()) <= set(cl.ERROR_TYPES)


def test_precision_recall_follow_the_paper():
    stated = cl.score_claims(cl.atomic_claims(GOLD), GOLD)
    assert (stated.precision, stated.recall, stated.f1) == (1.0, 1.0, 1.0)
    weaker = cl.score_claims(["Chain-of-thought prompting improves accuracy on arithmetic word problems."], GOLD)
    assert weaker.precision == 1.0 and weaker.recall == pytest.approx(1 / 3, abs=1e-3)  # entailed by the gold
    padded = cl.score_claims(
        GOLD[:1]
        + [
            "Diffusion models generate sharper images with guidance scales.",
            "Vision transformers need larger pretraining corpora than convolutions.",
        ],
        GOLD,
    )
    assert padded.tp == 1 and padded.precision == pytest.approx(1 / 3, abs=1e-3)  # more claims, lower precision
    assert cl.score_claims([], GOLD).f1 == 0.0
    # not position: the order of the answer's claims does not change the score
    assert cl.score_claims(list(reversed(GOLD)), GOLD).f1 == 1.0
    # not length: a long answer of other findings scores no better than a short one
    other = [
        "Retrieval-augmented agents cite more sources when given a search tool budget.",
        "Tool-use fine-tuning lowers hallucinated API calls in function calling benchmarks.",
    ] * 3
    assert cl.score_claims(other, GOLD).f1 == cl.score_claims(other[:1], GOLD).f1 == 0.0


def test_numbers_and_negation_count():
    assert (
        cl.relate("Chain-of-thought prompting improves accuracy on arithmetic word problems by 40%.", GOLD[0]).kind
        == "contradictory"
    )  # a number the gold does not state
    assert (
        cl.relate("Chain-of-thought prompting does not improve accuracy on multi-step arithmetic word problems.", GOLD[0]).kind
        == "contradictory"
    )
    # a negated finding without a more/less word, and the type follows the claim's closest finding
    assert (
        cl.relate("Retrieval depth does not matter for small web agents.", "Retrieval depth matters for small web agents.").kind
        == "contradictory"
    )
    s = cl.score_claims(
        ["It is not the case that self-consistency decoding reduces the variance of answers from small language models."], GOLD
    )
    assert s.fp_types == {0: "contradictory"} and s.fn_types[1] == "contradictory" and s.fn_types[0] == "unrelated"


def test_a_question_that_states_its_finding_is_caught():
    assert cl.gives_away("We ask how chain-of-thought prompting affects arithmetic word problems.", GOLD) == []
    leaked = cl.gives_away(
        "Does chain-of-thought prompting improve accuracy on multi-step arithmetic word problems "
        "by 12%? Chain-of-thought prompting improves accuracy on multi-step arithmetic word "
        "problems by 12%.",
        GOLD,
    )
    assert leaked == [GOLD[0]]


# -- sentence roles and the tree ---------------------------------------------------------------

ABSTRACT = (
    "Large language models are increasingly used as autonomous agents. However, their ability to recover "
    "from tool errors remains unclear. In this paper, we study how agents react to failing tool calls. "
    "We construct a benchmark of 500 tool-error episodes across three web environments. "
    "We find that retry prompting raises task success of small agents by 9% on web navigation. "
    "Error messages with stack traces reduce repeated failing calls compared with terse error codes."
)


def test_roles_tree_and_difficulty():
    labelled = [r for r, _ in roles(ABSTRACT)]
    assert labelled == ["background", "background", "objective", "method", "result", "result"]
    tree = problem_tree(paper("2512.00001", ABSTRACT, date(2025, 12, 10)))
    assert tree["problem_tree"]["type"] == "root node"
    leaf = tree["problem_tree"]["children"][0]["children"][0]
    assert leaf["type"] == "leaf node" and set(leaf) >= {
        "task",
        "dataset",
        "metrics",
        "protocol_or_setup",
        "evidence",
        "conclusion",
        "status",
    }
    question, setup, findings = target_of(tree)
    assert question.startswith("What do we learn when a study sets out to study how agents react")
    assert "500 tool-error episodes" in setup and len(findings) == 2
    assert findings[0].startswith("Retry prompting raises task success")
    d = difficulty(tree, findings)
    assert d["S"] == d["D"] + d["C"] + d["M"] and d["level"] in ("Easy", "Medium", "Hard")


# -- the family end to end ---------------------------------------------------------------------


@pytest.fixture()
def family():
    fam, scorer = register_family(RediscoveryFamily()), register_scorer(RediscoveryClaims())
    yield fam
    unregister_family(fam.name)
    unregister_scorer(scorer.name)


def test_family_builds_answers_and_scores_offline(family, tmp_path):
    cutoff, papers, background = world()
    settings = task_settings(per_family_max=16)
    settings.cutoff = cutoff
    tasks, builds, failures = build_tasks([], [], settings, papers=papers + background)
    red = [t for t in tasks if t.family == "rediscovery"]
    assert len(red) == len(TOPICS), failures
    source = {b.task_id: b.curation["source_paper"] for b in builds}
    for t in red:
        p = next(p for p in papers if p.arxiv_id == source[t.task_id])
        assert t.cutoff == p.published - timedelta(days=1) and t.question.startswith("What do we learn")
        assert "raises success" not in t.question  # the finding is hidden
    embed = load_embedder().encode
    golds = build_gold(
        red, builds, [], [], papers + background, [], embed, cutoff=cutoff, window_end=cutoff + timedelta(days=180)
    )
    assert all(g.strength == 1.0 and len(g.claims) == 2 for g in golds)
    cc = ClaimContext(papers + background, [], [], cutoff)
    assert all(check_claim(c, g, cc) is None for g in golds for c in g.claims)  # the claim bank recomputes
    for g in golds:
        g.numbers["claims_verified"] = float(sum(check_claim(c, g, cc) is None for c in g.claims))

    # agents: the partition's KB re-bound to each task's cutoff (the source paper is invisible)
    table, _ = build_kb(lancedb.connect(tmp_path / "kb"), "kb_red", papers + background, embed)
    view = KnowledgeBaseView(table, cutoff, embed)
    answers = []
    for method in ("retrieval", "momentum"):
        got, failed = run_method(method, red, view, embed=embed)
        assert failed == [] and len(got) == len(red)
        answers += got
    for a in answers:
        run = json.loads(a.artifacts["run"])
        task = next(t for t in red if t.task_id == a.task_id)
        assert run["kb_cutoff"] == task.cutoff.isoformat()
        day = {p.arxiv_id: p.published for p in papers + background}
        assert source[a.task_id] not in a.evidence_ids and all(day[e] <= task.cutoff for e in a.evidence_ids)
        assert a.claims  # prior work's results, as predicted findings

    controls = control_answers(red, golds, draws=20)
    scores, failed = score_answers(answers + controls, red, golds, embed, view.dates(), cutoff=cutoff)
    assert failed == []
    ratings = [
        TaskRating(task_id=t.task_id, family=t.family, elo=1000.0, rank_in_family=i, released=True, quality=1.0)
        for i, t in enumerate(red, 1)
    ]
    row = validity_rows(
        red,
        ratings,
        golds,
        [],
        [s for s in scores if not s.method.startswith("control:")],
        [s for s in scores if s.method.startswith("control:")],
        Thresholds(),
    )[0]
    assert row["family"] == "rediscovery" and row["control_gold"] >= 0.9
    for k in ("control_empty", "control_every_option", "control_first_option", "control_other_gold"):
        assert row[k] <= row["control_random"] + 0.05, (k, row)
    assert row["passed"], row["problems"]
    s = next(s for s in scores if s.method == "retrieval")
    assert set(s.values) >= {"fp_contradictory", "fn_unrelated"} and s.fta is not None

    # contamination split and difficulty histogram
    reg = BackboneRegistry([BackboneEntry(model="m-early", knowledge_cutoff=date(2025, 12, 10))])
    split = rd.contamination_split(
        [s for s in scores if s.method == "retrieval"], rd.source_dates(builds), {g.task_id: g for g in golds}, reg
    )
    top = next(r for r in split if r["level"] == "all")
    assert top["pre_n"] + top["post_n"] == len(red) and top["pre_n"] > 0 and top["post_n"] > 0
    assert sum(rd.difficulty_histogram(golds).values()) == len(red)

    # the release report shows the family's own figures (TaskFamily.report_tables)
    from assets.leaderboard import report

    released = {t.task_id for t in red}
    tables = report.family_tables(
        [family],
        red,
        builds,
        golds,
        [s for s in scores if not s.method.startswith("control:")],
        [s for s in scores if s.method.startswith("control:")],
        released,
    )
    by_title = {t.title.split(": ", 1)[1]: t for t in tables}
    assert set(by_title) == {
        "difficulty of the released tasks (D + C + M)",
        "claim precision, recall and F1 (methods and controls)",
        "error types of unmatched claims",
        "contamination split",
    }
    assert sum(r["tasks"] for r in by_title["difficulty of the released tasks (D + C + M)"].rows) == len(red)
    means = {r["method"]: r for r in by_title["claim precision, recall and F1 (methods and controls)"].rows}
    assert means["control:gold"]["f1"] == 1.0 and means["retrieval"]["n"] == len(red)
    errors = {r["method"]: r for r in by_title["error types of unmatched claims"].rows}
    retrieval = [s for s in scores if s.method == "retrieval"]
    assert sum(v for k, v in errors["retrieval"].items() if k.startswith("fp_")) == sum(
        int(s.values.get(k) or 0) for s in retrieval for k in s.values if k.startswith("fp_")
    )
    html = report.report_html(
        title="t", rows=[], low_rows=[], drift_rows=[], ratings=[], correlations={}, judge={}, family_tables=tables
    )
    assert "Rediscovery: contamination split" in html and "fp_" in html


def test_the_view_is_never_widened(tmp_path):
    embed = load_embedder().encode
    cutoff, papers, background = world()
    table, _ = build_kb(lancedb.connect(tmp_path / "kb"), "kb_w", papers + background, embed)
    view = KnowledgeBaseView(table, date(2025, 12, 1), embed)
    assert view.bound_to(date(2025, 11, 1)).cutoff == date(2025, 11, 1)
    with pytest.raises(CutoffViolation):
        view.bound_to(date(2025, 12, 31))
    early = view.bound_to(date(2025, 7, 1))
    assert all(h.published <= date(2025, 7, 1) for h in early.search("retry prompting web navigation", k=20))


# -- the batched judge -------------------------------------------------------------------------


class FakeJudge:
    model = "fake-judge"

    def __init__(self):
        self.calls = 0

    def structured(self, messages, schema, *, purpose, **kw):
        self.calls += 1
        assert purpose == "rediscovery_judge"
        return schema.model_validate(
            {
                "answer_claims": [{"index": 1, "entailed_by": 1}, {"index": 2, "entailed_by": None, "error_type": "alternative"}],
                "gold_claims": [
                    {"index": 1, "rediscovered": True},
                    {"index": 2, "rediscovered": False, "error_type": "contradictory"},
                    {"index": 3, "rediscovered": False, "error_type": "unrelated"},
                ],
            }
        )


def test_judge_is_one_call_per_answer():
    from assets.rediscovery.llm import judge_claims

    judge = FakeJudge()
    s = judge_claims(judge, "q", ["a one", "a two"], GOLD)
    assert judge.calls == 1 and s.tp == 1 and s.precision == 0.5 and s.recall == pytest.approx(1 / 3, abs=1e-3)
    assert s.fp_types == {1: "alternative"} and s.fn_types == {1: "contradictory", 2: "unrelated"}


# -- opt-in ------------------------------------------------------------------------------------


def test_default_registries_do_not_hold_the_family(tmp_path):
    """Importing every package registers no optional plugin; the composition root installs it
    when the state directory's plugins.yaml enables it (what the code location does on load)."""
    assert "rediscovery" not in family_names()
    code = (
        "import assets.rediscovery.family, assets.rediscovery.scorer, assets.scorers;"
        "from assets.families import family_names; from assets.scorers.registry import all_scorers;"
        "print(family_names()[-1], all_scorers()[-1].name);"
        "from assets.plugins import install_configured; install_configured();"
        "print(family_names()[-1], all_scorers()[-1].name)"
    )
    env = {**os.environ, "FORESCI_HOME": str(tmp_path), "LITELLM_LOCAL_MODEL_COST_MAP": "True"}
    run = lambda: subprocess.run(  # noqa: E731
        [sys.executable, "-c", code],
        env=env,
        capture_output=True,
        text=True,  # noqa: E731
        check=True,
    ).stdout.split()
    assert run() == ["phase", "attribution", "phase", "attribution"]
    (tmp_path / "plugins.yaml").write_text("enabled: [rediscovery]\n")
    assert run() == ["phase", "attribution", "rediscovery", "rediscovery_claims"]


def test_the_matcher_on_real_findings():
    """On findings drawn from the shipped corpus (offline trees of 60 recent abstracts): the stated
    finding is a TP, its negation a contradiction, a universal version an overgeneralisation,
    another paper's finding never a TP (the self-check table of docs/rediscovery.md)."""
    import gzip
    import types

    from core.paths import REPO_ROOT

    with gzip.open(REPO_ROOT / "assets/corpus/shipped/llm_agent.jsonl.gz", "rt") as fh:
        rows = [json.loads(line) for line in fh]
    rows = sorted((r for r in rows if r["published"][:10] <= "2025-12-31"), key=lambda r: (r["published"], r["arxiv_id"]))
    golds = []
    for r in rows[-60:]:
        p = types.SimpleNamespace(
            title=r["title"],
            abstract=r["abstract"],
            arxiv_id=r["arxiv_id"],
            authors=[],
            published=date.fromisoformat(r["published"][:10]),
        )
        findings = target_of(problem_tree(p))[2]
        if findings:
            golds.append(findings)
    assert len(golds) >= 40
    n = sum(map(len, golds))
    kinds = {"stated": [], "negated": [], "universal": [], "other": []}
    for i, gold in enumerate(golds):
        for f in gold:
            low = f[0].lower() + f[1:]
            for name, claim in (
                ("stated", f),
                ("negated", "It is not the case that " + low),
                ("universal", "In all settings and always, " + low),
            ):
                s = cl.score_claims([claim], gold)
                kinds[name].append("TP" if s.tp else s.fp_types[0])
        other = golds[(i + 1) % len(golds)][0]
        s = cl.score_claims([other], gold)
        kinds["other"].append("TP" if s.tp else s.fp_types[0])
    assert kinds["stated"].count("TP") == n
    assert kinds["negated"].count("contradictory") >= 0.95 * n
    assert kinds["universal"].count("overgeneralized") >= 0.9 * n
    assert kinds["other"].count("TP") == 0

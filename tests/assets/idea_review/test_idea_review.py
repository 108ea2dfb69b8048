"""The idea-review family (ScholarIdeas / ScholarEval): shipped data, cutoff-bound KB views,
the offline ScholarEval agent, the rubric-coverage proxy (coverage, not length or position),
reference validity, controls and the build, and that the default build never sees it."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from datetime import date
from types import SimpleNamespace

import numpy as np
import pytest

from assets.agents.context import AgentContext
from assets.idea_review.controls import GENERIC_REVIEW, control_answers
from assets.idea_review.dataset import SHIPPED, load_ideas
from assets.idea_review.family import (
    NO_LITERATURE,
    ReviewAnswer,
    build_gold,
    build_tasks,
    gold_review,
    review_text,
)
from assets.idea_review.kb import IdeaCorpusIndex
from assets.idea_review.pipeline import run_idea_review
from assets.idea_review.scholareval import (
    MAX_COMPARED,
    MAX_RECOMMENDATIONS,
    MAX_REFERENCES,
    retrieval_review,
    scholareval,
)
from assets.idea_review.scoring import proxy_coverage
from assets.knowledge_base.logic import CutoffViolation
from assets.scorers.reference import ReferenceValidity, reference_validity
from core.papers import read_jsonl
from core.records import Paper
from resources.embeddings import load_embedder
from resources.storage import PartitionStore
from tests.fixture_data import fixture_path

EMBED = load_embedder().encode
IDEAS = load_ideas()
TASKS, DROPPED = build_tasks(IDEAS)
IDEA_OF = {f"idea-{i.idea_id}": i for i in IDEAS}
GOLDS = [build_gold(IDEA_OF[t.task_id], t) for t in TASKS]
TASK_OF = {t.task_id: t for t in TASKS}
AI = [(t, g) for t, g in zip(TASKS, GOLDS) if t.subtype == "ai"][:12]


def cov(review: ReviewAnswer | str, gold) -> float:
    text = review if isinstance(review, str) else review_text(review)
    return proxy_coverage(text, [c.text for c in gold.claims], EMBED)["norm"]


def test_shipped_dataset_and_licence():
    assert len(IDEAS) == 118 and sum(len(i.rubrics) for i in IDEAS) == 1076
    assert {i.discipline for i in IDEAS} == {"ai", "neuro", "biochem", "eco"}
    assert "MIT License" in (SHIPPED.parent / "LICENSE").read_text()
    assert len(TASKS) + len(DROPPED) == 118
    assert all(t.cutoff == IDEA_OF[t.task_id].cutoff and t.domain == "ideas" for t in TASKS)
    assert all(IDEA_OF[t.task_id].plan in t.question for t in TASKS)


def test_proxy_scores_a_review_stating_the_rubrics_high_and_non_reviews_near_chance():
    rows = {k: [] for k in ("stated", "paraphrase", "random", "empty", "generic", "other")}
    for task, gold in AI:
        ctrls = control_answers(task, gold, GOLDS, TASK_OF)
        rows["stated"].append(cov(gold_review(gold), gold))
        rows["paraphrase"].append(
            cov("\n".join(f"- A reviewer would note that {c.text[0].lower()}{c.text[1:]}" for c in gold.claims), gold)
        )
        rows["random"].append(cov(ctrls["control:random"], gold))
        rows["empty"].append(cov(ctrls["control:empty"], gold))
        rows["generic"].append(cov(GENERIC_REVIEW, gold))
        rows["other"].append(cov(ctrls["control:other_gold"], gold))
    mean = {k: float(np.mean(v)) for k, v in rows.items()}
    assert mean["stated"] >= 0.9 and mean["paraphrase"] >= 0.8
    assert mean["empty"] == 0.0
    assert mean["generic"] <= mean["random"] + 0.05
    assert mean["other"] <= mean["random"] + 0.05
    assert mean["random"] < 0.4


def test_padding_and_order_do_not_raise_coverage():
    for _, gold in AI[:6]:
        half = ReviewAnswer(weaknesses=[c.text for c in gold.claims[: max(1, len(gold.claims) // 2)]])
        base = cov(half, gold)
        filler = (
            "This is an interesting submission and the authors clearly put a lot of effort into it. "
            "Overall the writing is clear and the document is easy to follow for a general reader. "
        ) * 20
        padded = "\n\n".join([review_text(half), filler, *[review_text(half)] * 3])  # filler and repetition
        assert cov(padded, gold) <= base + 1e-6
        flipped = ReviewAnswer(weaknesses=list(reversed(half.weaknesses)))
        assert cov(flipped, gold) == pytest.approx(base)
        assert cov(gold_review(gold), gold) > base  # stating more rubric points raises it


def test_reference_validity_counts_only_known_ids_on_or_before_the_cutoff():
    known = {"2401.00001": date(2024, 1, 2), "2409.00002": date(2024, 9, 24), "2410.00003": date(2024, 10, 1)}
    res = reference_validity(["2401.00001", "arXiv:2409.00002", "2410.00003", "9999.99999"], known, date(2024, 9, 24))
    assert res["share"] == 0.5 and res["valid"] == 2
    assert res["after_cutoff"] == ["2410.00003"] and res["unknown"] == ["9999.99999"]
    assert reference_validity([], known, date(2024, 9, 24))["share"] is None
    assert reference_validity(["2401.00001", "2401.00001"], known, date(2024, 9, 24))["share"] == 1.0
    ctx = SimpleNamespace(
        answer=SimpleNamespace(evidence_ids=["2401.00001", "2410.00003"]),
        kb_dates=known,
        task=SimpleNamespace(cutoff=date(2024, 9, 24)),
    )
    assert ReferenceValidity().checked(ctx).values == {"reference_validity": 0.5}


@pytest.fixture(scope="module")
def small_index():
    papers: list[Paper] = []
    for d in ("llm_agent", "rag_and_retrieval_structuring"):
        papers += read_jsonl(fixture_path(f"arxiv/samples/{d}.sample.jsonl"))[0]
    return IdeaCorpusIndex(papers, EMBED)


def test_cutoff_view_never_shows_a_later_paper(small_index):
    dates = sorted({p.published for p in small_index.papers})
    cutoff = dates[len(dates) // 2]
    view = small_index.view(cutoff)
    later = [p for p in small_index.papers if p.published > cutoff]
    assert later and len(view) == sum(p.published <= cutoff for p in small_index.papers)
    for q in ("language model agents tool use", "retrieval augmented generation", "preference optimization"):
        assert all(h.published <= cutoff for h in view.search(q, k=50))
    assert view.get(later[0].arxiv_id) is None
    assert max(view.dates().values()) <= cutoff
    with pytest.raises(CutoffViolation):
        view._hit(small_index.by_id[later[0].arxiv_id], 1.0)


def _answer(agent, task, index):
    return agent(AgentContext(task=task, kb=index.view(task.cutoff), embed=EMBED))


def test_scholareval_offline_respects_limits_and_the_cutoff(small_index):
    late = max(p.published for p in small_index.papers)
    for task in [t for t in TASKS if t.subtype == "ai"][:4] + [t for t in TASKS if t.subtype == "eco"][:2]:
        task = task.model_copy(update={"cutoff": late})
        a = _answer(scholareval, task, small_index)
        review = ReviewAnswer.model_validate_json(a.artifacts["review"])
        assert len(review.recommendations) <= MAX_RECOMMENDATIONS
        assert len(json.loads(a.artifacts["references"])) <= MAX_REFERENCES
        assert len(json.loads(a.artifacts["compared"])) <= MAX_COMPARED
        assert json.loads(a.artifacts["methods"]) and json.loads(a.artifacts["dimensions"])
        assert all(small_index.papers[small_index.by_id[c]].published <= task.cutoff for c in a.evidence_ids)
        assert review.soundness and review.contribution


def test_an_idea_with_no_literature_before_its_cutoff_still_runs_and_says_so(small_index):
    task = next(t for t in TASKS if t.subtype == "eco")
    early = task.model_copy(update={"cutoff": date(2020, 1, 1)})  # before every indexed paper
    for agent in (scholareval, retrieval_review):
        a = _answer(agent, early, small_index)
        assert NO_LITERATURE in a.text and a.evidence_ids == []
        assert ReviewAnswer.model_validate_json(a.artifacts["review"]).no_relevant_literature


@pytest.fixture
def registered_family():
    """The build registers the family; leave the registry as the other tests expect it."""
    from assets.families.registry import FAMILIES, unregister_family

    before = "idea_review" in FAMILIES.names()
    yield
    if not before and "idea_review" in FAMILIES.names():
        unregister_family("idea_review")


def test_build_writes_tasks_answers_scores_and_a_passing_validity_row(tmp_path, small_index, registered_family):
    store = PartitionStore(str(tmp_path / "wh"))
    known = {p.arxiv_id: p.published for p in small_index.papers}
    run = run_idea_review(store, EMBED, index=small_index, known=known, disciplines=["ai"], limit=8, log=lambda *_: None)
    row = run.validity
    assert row["tasks_released"] == 8 and row["metric"] == "rubric_coverage_proxy"
    assert row["control_gold"] >= 0.9 and row["passed"], row["problems"]
    assert all("embedding proxy" in s.note for s in run.scores + run.controls)
    assert {s.method for s in run.scores} == {"scholareval", "retrieval_review"}
    for asset in (
        "tasks",
        "gold_targets",
        "task_ranking",
        "agent_answers",
        "judge_scores",
        "validity_controls",
        "validity_report",
    ):
        assert store.exists(asset, "ideas", run.cutoff_key)
    assert "PROXY" in store.read_bytes(store.artifact_path("leaderboard", "ideas", run.cutoff_key, "leaderboard.md")).decode()


def test_the_default_build_never_registers_the_family_but_scores_reference_validity():
    code = (
        "import pipelines.definitions, assets.families as f, assets.scorers.registry as s, "
        "assets.agents.registry as a; assert 'idea_review' not in f.family_names(); "
        "assert 'reference_validity' in [x.name for x in s.all_scorers()]; "
        "assert 'scholareval' not in [x.name for x in a.all_agents()]"
    )
    env = dict(os.environ, LITELLM_LOCAL_MODEL_COST_MAP="True")
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env)
    assert proc.returncode == 0, proc.stderr[-2000:]


class _FakeLLM:
    """Answers every ScholarEval step with a fixed structured reply; fails the 'compare' step."""

    model = "fake-model"

    def __init__(self):
        self.purposes: list[str] = []

    def structured(self, prompt, schema, *, purpose, **kw):
        self.purposes.append(purpose)
        if purpose.endswith("compare"):
            raise RuntimeError("server said no")
        fields = {
            "items": ["We will train a retrieval-augmented language model agent with tool use."],
            "recommendation": "Add an ablation.",
            "concern": "Baselines are weak.",
            "soundness": "Model soundness text.",
            "contribution": "Model contribution text.",
            "strengths": ["s1"],
            "weaknesses": ["w1"],
        }
        return schema.model_validate({k: v for k, v in fields.items() if k in schema.model_fields})


def test_scholareval_with_a_model_calls_each_step_and_falls_back_per_step(small_index):
    llm = _FakeLLM()
    task = next(t for t in TASKS if t.subtype == "ai")
    task = task.model_copy(update={"cutoff": max(p.published for p in small_index.papers)})
    a = scholareval(AgentContext(task=task, kb=small_index.view(task.cutoff), llm=llm, embed=EMBED))
    assert {"agent.scholareval.methods", "agent.scholareval.dimensions", "agent.scholareval.synthesis"} <= set(llm.purposes)
    assert a.backbone == "fake-model" and "Model soundness text." in a.text
    if "agent.scholareval.compare" in llm.purposes:
        assert "compare: RuntimeError" in a.artifacts["fallbacks"]


def test_the_idea_review_job_materializes_the_three_assets_of_an_ideas_partition(
    tmp_path, small_index, registered_family, monkeypatch
):
    """The family as Dagster assets: partition (ideas, t) holds the ideas dated on or before t,
    the stages write tasks, hidden gold, answers, scores, the validity row, the release files
    and an HTML report; another cutoff holds fewer ideas."""
    import dagster as dg

    from assets.idea_review import pipeline
    from core.records import GoldTarget, Score, Task
    from pipelines.definitions import IDEA_REVIEW_ASSETS, idea_review_job
    from resources.embeddings import EmbeddingResource
    from resources.llm import LLMResource
    from resources.storage import StorageResource

    ai = [i for i in IDEAS if i.discipline == "ai"][:10]
    monkeypatch.setattr(pipeline, "load_ideas", lambda path=None: ai)
    monkeypatch.setattr(pipeline.IdeaCorpusIndex, "shipped", classmethod(lambda cls, embed, latest: small_index))
    monkeypatch.setattr(pipeline, "shipped_dates", lambda: {p.arxiv_id: p.published for p in small_index.papers})
    storage = StorageResource(root=str(tmp_path / "wh"), duckdb_path="")
    resources = {
        "storage": storage,
        "embeddings": EmbeddingResource(),
        "llm": LLMResource(model=""),
        "judge_llm": LLMResource(model=""),
    }
    instance = dg.DagsterInstance.ephemeral()
    instance.add_dynamic_partitions("cutoff", ["2025-12-31", "2024-06-30"])
    job = dg.Definitions(assets=IDEA_REVIEW_ASSETS, jobs=[idea_review_job], resources=resources).resolve_job_def(
        "idea_review_job"
    )
    store = storage.store()
    built = {}
    for cutoff in ("2025-12-31", "2024-06-30"):
        result = job.execute_in_process(
            instance=instance, partition_key=dg.MultiPartitionKey({"domain": "ideas", "cutoff": cutoff})
        )
        assert result.success
        tasks = store.read_records("tasks", "ideas", cutoff, Task)
        assert all(t.cutoff <= date.fromisoformat(cutoff) for t in tasks)
        built[cutoff] = tasks
    assert len(built["2024-06-30"]) < len(built["2025-12-31"]) == len([i for i in ai if len(i.plan.split()) >= 50 and i.rubrics])
    c = "2025-12-31"
    golds = store.read_records("gold_targets", "ideas", c, GoldTarget)
    assert {g.task_id for g in golds} == {t.task_id for t in built[c]}
    scores = store.read_records("judge_scores", "ideas", c, Score)
    assert {s.method for s in scores} == {"scholareval", "retrieval_review"}
    assert all(s.values.get("rubric_coverage_proxy") is not None for s in scores)
    row = store.read_table("validity_report", "ideas", c).to_pylist()[0]
    assert row["control_gold"] >= 0.9
    report = store.read_bytes(store.artifact_path("leaderboard", "ideas", c, "report.html")).decode()
    assert "PROXY" in report and "control:gold" in report
    public = store.read_bytes(store.artifact_path("release", "ideas", c, "tasks.jsonl")).decode()
    hidden_gold = store.artifact_path("release", "ideas", c, "gold.jsonl")
    assert "/hidden/" in hidden_gold and golds[0].claims[0].text in store.read_bytes(hidden_gold).decode()
    assert golds[0].claims[0].text not in public  # the rubrics stay hidden

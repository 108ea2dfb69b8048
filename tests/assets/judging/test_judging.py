"""The LLM judge stack (assets/scorers/llm_judge.py, scoring.py) through litellm `mock_response`.

Every judge reply here travels the real path: LLMClient -> litellm.completion(mock_response=...)
-> JSON parsing -> schema validation -> metrics. The mock sees the purpose and the prompt,
so the tests also check what the judge is shown (blind answer, hidden bank, packet)."""

from __future__ import annotations

import os

os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")

import json
import threading
from datetime import date

import numpy as np
import pytest

import assets.scorers.llm_judge as llm_judge
from assets.judging.scoring import (
    fact_agreement,
    pairwise_comparisons,
    reference_fact,
    score_answers,
)
from assets.scorers.base import JudgeSettings
from core.records import (
    Answer,
    GoldClaim,
    GoldSlot,
    GoldTarget,
    Score,
    Task,
    TaskOption,
)
from resources.llm import LLMClient
from tests.factories import MockedClient, mock_reply

CUTOFF = date(2025, 6, 30)
KB_DATES = {"2501.00001": date(2025, 1, 10), "2502.00002": date(2025, 2, 1), "2508.00009": date(2025, 8, 1)}


def embed(texts):
    """Deterministic toy embedder: bag of the letters a-z (enough for FTA plumbing)."""
    out = np.zeros((len(texts), 26), dtype=np.float32)
    for i, t in enumerate(texts):
        for ch in t.lower():
            if "a" <= ch <= "z":
                out[i, ord(ch) - 97] += 1
    return out


def make_task(family="direction", task_id="t1"):
    return Task(
        task_id=task_id,
        family=family,
        domain="llm_agent",
        cutoff=CUTOFF,
        window_start=date(2025, 7, 1),
        window_end=date(2025, 12, 31),
        horizon="6 months",
        title=f"{family} task",
        question="Which subdirection of LLM agents will gain the most momentum?",
        instructions="",
        answer_requirements=[],
        options=[TaskOption(option_id="o1", text="GUI agents"), TaskOption(option_id="o2", text="tool use")],
        support_paper_ids=["2501.00001", "2502.00002"],
    )


def make_gold(family="direction", task_id="t1", n_claims=3):
    return GoldTarget(
        task_id=task_id,
        family=family,
        domain="llm_agent",
        cutoff=CUTOFF,
        preferred_ranking=["o1", "o2"],
        trajectory="accelerating",
        slots=[GoldSlot(slot="primary", variants=["GUI agents gain momentum"])],
        claims=[
            GoldClaim(
                claim_id=f"{task_id}-c{i:02d}",
                text=f"HIDDEN-CLAIM-{i} about GUI agents",
                type="future-realisation",
                time_scope="2025-H2",
            )
            for i in range(1, n_claims + 1)
        ],
    )


def make_answer(
    method="hybrid_rag", evidence=("2501.00001",), support=True, task_id="t1", family="direction", text=None, ranking=("o1", "o2")
):
    return Answer(
        answer_id=f"{task_id}::{method}::m::0",
        task_id=task_id,
        family=family,
        method=method,
        backbone="m",
        choice="o1",
        ranking=list(ranking),
        trajectory="accelerating",
        claims=["'GUI agents' will gain the most momentum."],
        text=text or f"## T\n\n*direction answer by `{method}` (m); knowledge cutoff*\n\n**Choice:** o1 — GUI agents",
        evidence_ids=list(evidence),
        has_support_artifact=support,
    )


FACT_REPLY = json.dumps(
    {
        "claims": [
            {"claim": "GUI agents grow", "label": "supported", "matched": ["h1"]},
            {"claim": "tool use steady", "label": "partially_supported"},
            {"claim": "RAG cools", "label": "unsupported"},
            {"claim": "agents are important", "label": "not_checkable"},
        ],
        "coverage": [{"claim_id": "h1", "label": "covered"}, {"claim_id": "h2", "label": "partially_covered"}],
    }
)


class ScriptedJudge:
    """mock(purpose, messages) -> reply; rubric holistic scores cycle through `holistic`."""

    def __init__(self, holistic=(6, 8, 7), e=8, s=6, t=4, drift=(0, 3, 1, 2), fact=FACT_REPLY):
        self.holistic, self.e, self.s, self.t, self.drift, self.fact = holistic, e, s, t, drift, fact
        self.seen: list[tuple[str, list[dict]]] = []
        self._n = 0
        self._lock = threading.Lock()

    def __call__(self, purpose, messages):
        with self._lock:
            self.seen.append((purpose, messages))
            if purpose == "judge:fact":
                return self.fact
            if purpose == "judge:rubric":
                h = self.holistic[self._n % len(self.holistic)]
                self._n += 1
                family = "planning" if "evidence_grounding" in messages[1]["content"] else "direction"
                d = dict(
                    zip(
                        ("drift_scope_granularity", "drift_causal_role", "drift_intervention_mode", "drift_temporal_horizon"),
                        self.drift,
                    )
                )
                return mock_reply(
                    llm_judge.rubric_schema(family),
                    holistic=h,
                    evidence_linkage=self.e,
                    support_specificity=self.s,
                    internal_trace=self.t,
                    **d,
                )
            if purpose == "judge:fact_extract":
                return json.dumps({"claims": ["GUI agents grow", "tool use steady"]})
            if purpose == "judge:fact_verify":
                return json.dumps({"label": "supported"})
            if purpose == "judge:fact_coverage":
                return json.dumps({"coverage": [{"claim_id": "h1", "label": "covered"}]})
            if purpose == "judge:pairwise":  # a position-biased judge: always the first answer
                return json.dumps({"rationale": "", "winner": "1"})
            raise AssertionError(f"unexpected purpose {purpose}")


@pytest.fixture()
def client(tmp_path):
    return LLMClient("openai/judge-mock", cache_dir=str(tmp_path / "cache"), max_retries=1, backoff_s=0)


def judge(answers, client, mock, settings=None, golds=None, tasks=None):
    return score_answers(
        answers,
        tasks or [make_task()],
        golds or [make_gold()],
        embed,
        KB_DATES,
        cutoff=CUTOFF,
        judge_client=MockedClient(client, mock) if mock else client,
        kb_get=None,
        settings=settings or JudgeSettings(workers=1),
    )


def test_compact_judge_hand_computed(client):
    mock = ScriptedJudge()
    [score], failures = judge([make_answer()], client, mock)
    assert failures == []
    # Fact: phi = [1, .5, 0, 0] -> P = .375; psi = [1, .5, 0 (h3 unlabelled)] -> R = .5; F1 = 3/7
    assert score.fact_precision == pytest.approx(0.375)
    assert score.fact_recall == pytest.approx(0.5)
    assert score.fact == pytest.approx(3 / 7)
    assert "1 hidden claims unlabelled" in score.note
    # Trace: e = linkage 1.0 x 0.8, s = .6, t = .4 -> .5*.8 + .25*.6 + .25*.4 = .65 in every repeat
    assert score.trace == pytest.approx(0.65) and score.trace_std == pytest.approx(0.0)
    # Pers: holistic 6, 8, 7 /10 -> mean .7, population SD sqrt(.02/3)
    assert score.pers == pytest.approx(0.7)
    assert score.pers_std == pytest.approx((0.02 / 3) ** 0.5)
    assert set(score.pers_dimensions) == {
        "forecast_specificity",
        "signal_interpretation",
        "trajectory_discipline",
        "uncertainty_calibration",
        "decision_clarity",
        "mechanistic_reasoning",
        "comparative_reasoning",
        "uncertainty_risk_awareness",
    }
    assert score.drift == {"scope_granularity": 0.0, "causal_role": 3.0, "intervention_mode": 1.0, "temporal_horizon": 2.0}
    assert score.repeats == 3 and score.judge_model == "openai/judge-mock"
    assert score.prompt_version == "fact-batched-v1;rubric-shared-packet-v1"
    # cost: 1 fact call + 3 rubric calls, counted per answer
    assert score.judge_calls == 4
    assert score.judge_prompt_chars == sum(len(m["content"]) for _, msgs in mock.seen for m in msgs)
    assert score.judge_prompt_chars <= 40_000
    # FTA is still the embedding / deterministic one
    assert score.fta is not None and 0.0 <= score.fta <= 1.0


def test_judge_sees_a_blind_answer_the_hidden_bank_and_one_shared_packet(client):
    mock = ScriptedJudge()
    judge([make_answer()], client, mock)
    fact_prompt = next(m for p, m in mock.seen if p == "judge:fact")[1]["content"]
    assert "HIDDEN-CLAIM-1" in fact_prompt and "[h3]" in fact_prompt
    rubric_prompts = [m[1]["content"] for p, m in mock.seen if p == "judge:rubric"]
    assert len(rubric_prompts) == 3
    for prompt in rubric_prompts + [fact_prompt]:
        assert "hybrid_rag" not in prompt  # method name removed: the judge is blind
    # the same packet in every repeat: cited id first, then the uncited support paper
    assert all("[2501.00001] (cited" in p and "[2502.00002] (support packet" in p for p in rubric_prompts)
    assert len(set(rubric_prompts)) == 1
    assert "Preferred ranking after the cutoff: o1" in rubric_prompts[0]


def test_trace_uses_deterministic_linkage_and_is_null_without_support_artifact(client):
    mock = ScriptedJudge(holistic=(5,))
    # one of two cited ids is post-cutoff: linkage .5 -> e = .5 * .8 = .4 -> trace = .2 + .15 + .1 = .45
    [leaky], _ = judge([make_answer(evidence=("2501.00001", "2508.00009"))], client, mock)
    assert leaky.trace_linkage == pytest.approx(0.5)
    assert leaky.trace == pytest.approx(0.45)
    assert "2508.00009" in leaky.note
    [native], _ = judge([make_answer(method="native_llm", evidence=(), support=False)], client, ScriptedJudge())
    assert native.trace is None and native.trace_linkage is None and native.trace_std is None
    assert native.pers is not None and native.fact is not None


def test_offline_judge_leaves_llm_metrics_null(tmp_path):
    offline = LLMClient(None, cache_dir=str(tmp_path / "c"))
    [score], failures = judge([make_answer()], offline, mock=None)
    assert failures == []
    assert (score.fact, score.trace, score.pers, score.judge_model, score.prompt_version) == (None,) * 5
    assert score.judge_calls == 0 and score.repeats == 0 and score.drift == {}
    assert score.trace_linkage == 1.0 and score.fta is not None


def test_failed_fact_call_is_a_failure_row_and_only_fact_is_null(client):
    mock = ScriptedJudge(fact="this is not json")
    [score], failures = judge([make_answer()], client, mock)
    assert [f.item_id for f in failures] == [make_answer().answer_id]
    assert failures[0].reason.startswith("fact: LLMCallError")
    assert score.fact is None and score.pers == pytest.approx(0.7) and score.trace == pytest.approx(0.65)


def test_rerun_is_served_from_cache(client):
    mock = ScriptedJudge()
    first, _ = judge([make_answer()], client, mock)
    calls = client.usage.calls
    mock2 = ScriptedJudge()
    second, _ = judge([make_answer()], client, mock2)
    assert client.usage.calls == calls  # no new model calls
    assert client.usage.cache_hits == 4
    assert [s.model_dump() for s in first] == [s.model_dump() for s in second]


def test_cost_target_holds_for_long_answers_and_big_banks(client):
    long_text = "## T\n\n" + "A long, verbose planning answer. " * 2000  # ~66k characters
    answer = make_answer(family="planning", text=long_text, evidence=tuple(KB_DATES))
    task, gold = make_task("planning"), make_gold("planning", n_claims=60)
    mock = ScriptedJudge()
    [score], failures = judge([answer], client, mock, golds=[gold], tasks=[task])
    assert failures == []
    assert score.judge_calls <= 5
    assert score.judge_prompt_chars <= 40_000
    assert "[... truncated]" in mock.seen[0][1][1]["content"]
    assert "evidence_grounding" in score.pers_dimensions


def test_reference_protocol_counts_one_call_per_claim_and_agrees_on_identical_labels(client):
    replies = {
        "judge:fact_extract": json.dumps({"claims": ["GUI agents grow", "tool use steady", "RAG cools", "agents are important"]}),
        "judge:fact_coverage": json.dumps(
            {"coverage": [{"claim_id": "h1", "label": "covered"}, {"claim_id": "h2", "label": "partially_covered"}]}
        ),
    }
    verify = {
        "GUI agents grow": "supported",
        "tool use steady": "partially_supported",
        "RAG cools": "unsupported",
        "agents are important": "not_checkable",
    }

    def mock(purpose, messages):
        if purpose == "judge:fact_verify":
            claim = messages[1]["content"].split("## Claim to verify\n")[1].split("\n")[0]
            return json.dumps({"label": verify[claim], "matched": []})
        if purpose in ("judge:trace", "judge:pers"):
            parts = ("trace",) if purpose == "judge:trace" else ("pers", "drift")
            return mock_reply(
                llm_judge.rubric_schema("direction", parts),
                holistic=7,
                evidence_linkage=8,
                support_specificity=6,
                internal_trace=4,
            )
        return replies[purpose]

    judged = []
    [ref_score], failures = score_answers(
        [make_answer()],
        [make_task()],
        [make_gold()],
        embed,
        KB_DATES,
        cutoff=CUTOFF,
        judge_client=MockedClient(client, mock),
        settings=JudgeSettings(protocol="reference", workers=1, repeats=2),
        judged_out=judged,
    )
    assert failures == []
    # 1 extraction + 4 verifications + 1 coverage + 2 repeats x (trace + pers) = 10 calls
    assert ref_score.judge_calls == 10
    assert ref_score.fact == pytest.approx(3 / 7) and ref_score.trace == pytest.approx(0.65)
    assert ref_score.prompt_version == "fact-per-claim-v1;trace-v1+pers-v1"
    compact = []
    judge_client2 = client
    score_answers(
        [make_answer()],
        [make_task()],
        [make_gold()],
        embed,
        KB_DATES,
        cutoff=CUTOFF,
        judge_client=MockedClient(judge_client2, ScriptedJudge()),
        settings=JudgeSettings(workers=1),
        judged_out=compact,
    )
    agreement = fact_agreement({j.score.answer_id: j.fact for j in compact}, {j.score.answer_id: j.fact for j in judged})
    assert agreement["n_answers"] == 1
    assert agreement["f1"]["mean_abs_diff"] == pytest.approx(0.0)
    assert agreement["coverage_labels"] == {"n": 3, "exact_agreement": 1.0, "cohen_kappa": 1.0}
    # reference_fact (the agreement sample runner) gives the same Fact
    ref, ledger, fails = reference_fact([make_answer()], [make_task()], [make_gold()], MockedClient(client, mock))
    assert not fails and ref[make_answer().answer_id].f1 == pytest.approx(3 / 7) and ledger.calls == 6


def test_llm_pairwise_with_position_swap(client):
    task, gold = make_task(), make_gold()
    a = make_answer("coi", text="## T\n\nANSWER-COI")
    b = make_answer("aris", text="## T\n\nANSWER-ARIS")
    scores = [
        Score(answer_id=x.answer_id, task_id="t1", family="direction", method=x.method, backbone="m", fta=f)
        for x, f in ((a, 0.4), (b, 0.6))
    ]

    def always_first(purpose, messages):  # pure position bias: the two orders disagree -> tie
        return json.dumps({"rationale": "", "winner": "1"})

    comps, fails, ledger = pairwise_comparisons(
        [a, b], scores, [task], [gold], judge_client=MockedClient(client, always_first), settings=JudgeSettings()
    )
    assert not fails and ledger.calls == 2
    by_source = {c.source: c for c in comps}
    assert by_source["metric:fta"].system_a == "aris@m" and by_source["metric:fta"].winner == "a"
    assert (by_source["llm"].first, by_source["llm"].second, by_source["llm"].winner) == ("a", "b", "tie")

    def prefers_coi(purpose, messages):  # content-consistent: coi wins in both orders
        body = messages[1]["content"]
        return json.dumps({"winner": "1" if body.index("ANSWER-COI") < body.index("ANSWER-ARIS") else "2"})

    comps, _, _ = pairwise_comparisons(
        [a, b], scores, [task], [gold], judge_client=MockedClient(client, prefers_coi), settings=JudgeSettings()
    )
    llm = next(c for c in comps if c.source == "llm")
    assert (llm.system_a, llm.system_b, llm.winner) == ("aris@m", "coi@m", "b")
    assert llm.judge_model == "openai/judge-mock" and llm.prompt_version == "pairwise-swap-v1"


def test_offline_pairwise_is_by_fta_only(tmp_path):
    a, b = make_answer("momentum"), make_answer("retrieval")
    scores = [
        Score(answer_id=a.answer_id, task_id="t1", family="direction", method="momentum", backbone="offline", fta=0.5),
        Score(answer_id=b.answer_id, task_id="t1", family="direction", method="retrieval", backbone="offline", fta=0.5),
    ]
    comps, _, ledger = pairwise_comparisons(
        [a, b], scores, [make_task()], [make_gold()], judge_client=LLMClient(None, cache_dir=str(tmp_path))
    )
    assert [(c.source, c.winner) for c in comps] == [("metric:fta", "tie")] and ledger.calls == 0


def test_rubric_schema_has_the_paper_dimensions():
    fields = set(llm_judge.rubric_schema("venue").model_fields)
    assert {
        "venue_fit_reasoning",
        "reviewer_expectation_awareness",
        "package_upgrade_specificity",
        "contrastive_venue_discrimination",
        "decision_clarity",
        "mechanistic_reasoning",
        "comparative_reasoning",
        "uncertainty_risk_awareness",
        "holistic",
        "evidence_linkage",
        "support_specificity",
        "internal_trace",
        "drift_scope_granularity",
        "drift_causal_role",
        "drift_intervention_mode",
        "drift_temporal_horizon",
    } <= fields
    assert {
        "causal_bottleneck_analysis",
        "opportunity_plausibility",
        "technical_non_obviousness",
        "adoption_pathway_reasoning",
    } <= set(llm_judge.rubric_schema("bottleneck").model_fields)
    schema = llm_judge.rubric_schema("direction").model_json_schema()
    assert schema["properties"]["holistic"]["enum"] == list(range(11))  # enums: grammar-enforced
    assert schema["properties"]["drift_causal_role"]["enum"] == [0, 1, 2, 3]


def test_judge_asset_counts_calls_and_characters_per_answer(tmp_path):
    """The judge_scores asset with a (mocked) judge model: scores, pairwise side table, failures
    and the per-answer cost accounting in its metadata."""
    import dagster as dg

    from assets.judging.definitions import judge_scores
    from assets.knowledge_base.logic import build_kb, table_name
    from assets.partitions import partition_key
    from core.records import PairwiseComparison, ScreenedPaper
    from resources.embeddings import EmbeddingResource
    from resources.lance import LanceResource
    from resources.llm import LLMResource
    from resources.storage import StorageResource

    domain, cutoff = "llm_agent", "2025-12-31"
    mock = ScriptedJudge()

    class MockedJudge(LLMResource):
        def client(self):
            class _Client(LLMClient):
                def structured(self, messages, schema, *, purpose, mock_response=None, **kw):
                    return super().structured(messages, schema, purpose=purpose, mock_response=mock(purpose, messages), **kw)

            if self._client is None:
                self._client = _Client("openai/judge-mock", cache_dir=str(tmp_path / "cache"), max_retries=1)
            return self._client

    storage = StorageResource(root=str(tmp_path / "wh"), duckdb_path=str(tmp_path / "f.duckdb"))
    lance = LanceResource(uri=str(tmp_path / "lance"))
    embeddings = EmbeddingResource()
    papers = [
        ScreenedPaper(
            arxiv_id=pid,
            title=f"GUI agents paper {pid}",
            abstract="GUI agents navigate the web.",
            published=d,
            domain=domain,
            relevance=1.0,
            label="core",
            reason="test",
        )
        for pid, d in KB_DATES.items()
        if d <= date(2025, 12, 31)
    ]
    build_kb(lance.connect(), table_name(domain, cutoff), papers, embeddings.embedder().encode)
    store = storage.store()
    task, gold = make_task().model_copy(update={"cutoff": date(2025, 12, 31)}), make_gold()
    answers = [make_answer("aris"), make_answer("native_llm", evidence=(), support=False)]
    store.write_records("agent_answers", domain, cutoff, answers, Answer)
    store.write_records("tasks", domain, cutoff, [task], Task)
    store.write_records("gold_targets", domain, cutoff, [gold], GoldTarget)
    from core.records import TaskRating  # judge_scores reads the ranking (released, presented tasks)

    ratings = [TaskRating(task_id=task.task_id, family=task.family, elo=1500.0, rank_in_family=1, released=True, quality=1.0)]
    store.write_records("task_ranking", domain, cutoff, ratings, TaskRating)
    from assets.ranking.presentation import write_presented

    write_presented(store, domain, cutoff, [task], [gold], ratings)  # what task_ranking writes
    instance = dg.DagsterInstance.ephemeral()
    instance.add_dynamic_partitions("cutoff", [cutoff])
    result = dg.materialize(
        [judge_scores],
        partition_key=partition_key(domain, cutoff),
        instance=instance,
        resources={"storage": storage, "lance": lance, "embeddings": embeddings, "judge_llm": MockedJudge()},
        run_config={"ops": {"judge_scores": {"config": {"workers": 1, "agreement_sample": 1}}}},
    )
    assert result.success
    [mat] = result.asset_materializations_for_node("judge_scores")
    meta = {k: v.value for k, v in mat.metadata.items()}
    assert meta["rows"] == 2 and meta["failures"] == 0
    assert meta["judge_model"] == "openai/judge-mock" and meta["repeats"] == 3
    assert meta["judge_calls_per_answer"] == 4.0 and meta["judge_calls_per_answer_max"] == 4
    assert 0 < meta["judge_prompt_chars_per_answer"] <= meta["judge_prompt_chars_per_answer_max"] <= 40_000
    assert meta["cost_target_met"] is True
    # 8 requests; two answers may share an identical request, which the cache answers
    assert meta["llm_calls"] + meta["llm_cache_hits"] == 8 and 0 < meta["prompt_chars"] <= sum(
        len(m["content"]) for p, msgs in mock.seen for m in msgs if p in ("judge:fact", "judge:rubric")
    )
    scores = {s.method: s for s in store.read_records("judge_scores", domain, cutoff, Score)}
    assert scores["aris"].trace is not None and scores["native_llm"].trace is None
    assert scores["aris"].pers is not None and scores["aris"].fact == pytest.approx(3 / 7)
    pairs = {p.source: p for p in store.read_records("judge_pairwise", domain, cutoff, PairwiseComparison)}
    assert set(pairs) == {"metric:fta", "llm"} and meta["pairwise_llm_calls"] == 2
    assert pairs["llm"].winner == "tie"  # the position-biased verdicts cancel out under the swap
    # agreement sample (1 answer, one claim per call): P = 1 vs .375, R = 1/3 vs .5; coverage labels
    # h1 covered in both, h2 partially vs not, h3 not in both -> 2 of 3 agree
    agreement = meta["fact_agreement_with_per_claim"]
    assert agreement["n_answers"] == 1 and agreement["reference_calls_per_answer"] == 4.0
    assert agreement["coverage_labels"]["exact_agreement"] == pytest.approx(2 / 3)
    assert agreement["f1"]["mean_abs_diff"] == pytest.approx(abs(3 / 7 - 0.5))

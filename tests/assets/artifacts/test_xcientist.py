"""Xcientist-style answer artifacts (docs/xcientist.md): quote verification, chain validators
(partial never passes), each claim-drift kind, attribution completeness, the controls, and the
model path against a loopback OpenAI-compatible server."""

from __future__ import annotations

import json

import pytest

from assets.artifacts.controls import GENERIC_CLAIMS
from assets.artifacts.logic import attribution_completeness, build_artifacts
from assets.artifacts.text import claim_words
from assets.artifacts.tuples import offline_tuples, stated_tuples, verify
from assets.leaderboard.chains import anchor, chains_html, drift_summary, report_section
from core.records import ChainValidation
from resources.llm import LLMClient
from tests.factories import ARTIFACT_ABSTRACT as ABSTRACT
from tests.factories import ARTIFACT_PID as PID
from tests.factories import ARTIFACT_SOURCES as SOURCES
from tests.factories import artifact_answer as answer
from tests.factories import artifact_lookup as lookup
from tests.loopback import Loopback, Reply


def chain_of(art, k):
    return {v.stage: v.outcome for v in art.validations if v.claim_index == k}


# -- quotes ---------------------------------------------------------------------------------


def test_a_true_quote_verifies_and_an_altered_one_does_not():
    src = SOURCES[PID]
    assert verify("Agents that retrieve tool documentation reduce hallucinated API calls.", src) == ("verified", "abstract")
    assert verify("Agents  that retrieve tool\ndocumentation reduce", src)[0] == "verified"  # whitespace only
    # one changed word / number / negation: a near copy, not the paper's words
    assert verify("Agents that retrieve tool documentation increase hallucinated API calls.", src)[0] == "altered"
    assert verify("We evaluate on ToolBench and improve accuracy by 21 points over the baseline.", src)[0] == "altered"
    assert verify("Memory modules make agents forget less over long dialogues.", src)[0] == "not_found"
    assert verify("Agents that retrieve tool documentation", None)[0] == "unknown_paper"


def test_tuples_written_by_an_agent_are_verified_not_trusted():
    a = answer(["x"], cited=(PID,))
    items = [
        {
            "paper_id": PID,
            "keywords": ["tool"],
            "summary": "s",
            "insight": "i",
            "quote": "The gain comes from filtering redundant tools before planning.",
        },
        {"paper_id": PID, "quote": "The gain comes from adding redundant tools before planning."},
        {"paper_id": "2601.00009", "quote": "Agents that retrieve tool documentation"},
    ]  # not cited
    got = stated_tuples(a, items, lookup, "agent")
    assert [t.quote_status for t in got] == ["verified", "altered", "unknown_paper"]
    assert got[0].keywords == ["tool"] and got[0].source == "agent"


def test_offline_tuples_quote_the_sentence_a_claim_rests_on():
    a = answer(["Tool documentation retrieval reduces hallucinated API calls."])
    (t,) = offline_tuples(a, lookup)
    assert t.quote == "Agents that retrieve tool documentation reduce hallucinated API calls."
    assert t.quote_status == "verified" and t.paper_id == PID and t.summary == SOURCES[PID].title
    assert {"tool", "documentation"} <= set(t.keywords) and "claim 1" in t.insight


# -- validators ------------------------------------------------------------------------------


def test_a_claim_stated_by_a_verified_quote_passes_every_stage():
    art, _ = build_artifacts(answer(["Retrieving tool documentation reduces hallucinated API calls."]), None, lookup)
    assert chain_of(art, 0) == {"evidence": "pass", "mechanism": "pass", "decision": "pass", "claim": "pass", "chain": "pass"}
    assert art.attribution_completeness == 1.0 and art.outcome == "pass"


def test_a_partial_stage_never_counts_as_a_pass():
    # a forecast: its subject is quoted, but nothing in the answer says why -> mechanism blocked;
    # with an ungrounded why -> mechanism partial: either way the chain does not pass
    forecast = "Tool documentation retrieval will gain the most momentum."
    art, _ = build_artifacts(answer([forecast]), None, lookup)
    assert chain_of(art, 0)["evidence"] == "pass" and chain_of(art, 0)["mechanism"] == "blocked"
    art, _ = build_artifacts(answer([forecast, "Tool documentation retrieval grew because of vendor marketing."]), None, lookup)
    assert chain_of(art, 0)["mechanism"] == "partial" and chain_of(art, 0)["chain"] == "partial"
    assert art.n_attributed == 0 and art.attribution_completeness == 0.0


def test_evidence_is_blocked_without_a_citation_and_partial_on_an_altered_quote():
    art, _ = build_artifacts(answer(["Retrieving tool documentation reduces hallucinated API calls."], cited=()), None, lookup)
    assert chain_of(art, 0)["evidence"] == "blocked" and art.attribution_completeness == 0.0
    altered = json.dumps(
        [{"paper_id": PID, "quote": "Agents that retrieve tool documentation reduce hallucinated API calls entirely."}]
    )
    art, _ = build_artifacts(
        answer(["Retrieving tool documentation reduces hallucinated API calls."], artifacts={"evidence_tuples": altered}),
        None,
        lookup,
    )
    assert art.tuples[0].quote_status == "altered" and chain_of(art, 0)["evidence"] == "partial"


def test_decision_stage_blocks_a_claim_that_crowns_another_option():
    from tests.factories import make_task

    task = make_task(
        "t1", "direction", "Which direction?", options=["tool documentation retrieval", "long dialogue memory modules"]
    )
    a = answer(["Long dialogue memory modules will gain the most momentum first."], choice="o0", ranking=["o0", "o1"])
    art, _ = build_artifacts(a, task, lookup)
    assert chain_of(art, 0)["decision"] == "blocked"


def test_generic_claims_are_blocked_at_the_claim_stage():
    assert all(not claim_words(c) for c in GENERIC_CLAIMS)
    art, _ = build_artifacts(answer(list(GENERIC_CLAIMS)), None, lookup)
    assert all(chain_of(art, k)["claim"] == "blocked" for k in range(len(GENERIC_CLAIMS)))
    assert art.attribution_completeness == 0.0


# -- drift ------------------------------------------------------------------------------------


def kinds(claims):
    art, _ = build_artifacts(answer(claims), None, lookup)
    return {(d.claim_index, d.kind) for d in art.drifts}, art


def test_semantic_drift_when_a_claim_says_more_than_its_quote():
    got, art = kinds(["Retrieving tool documentation always eliminates hallucinated API calls in every agent."])
    assert got == {(0, "semantic")}
    assert "always" in art.drifts[0].detail and art.drifts[0].evidence.startswith("Agents that retrieve")
    got, _ = kinds(["Retrieving tool documentation reduces hallucinated API calls."])
    assert got == set()


def test_experimental_drift_when_the_evaluation_was_not_reported():
    got, _ = kinds(["Tool documentation retrieval outperforms fine-tuning on WebArena navigation."])
    assert (0, "experimental") in got
    got, _ = kinds(["Tool retrieval improves accuracy on ToolBench over the baseline."])  # reported
    assert (0, "experimental") not in got


def test_mechanistic_drift_when_the_claimed_cause_is_not_the_evidence_s():
    got, art = kinds(["Tool retrieval reduces hallucinated API calls because agents memorise user preferences."])
    assert (0, "mechanistic") in got
    drift = next(d for d in art.drifts if d.kind == "mechanistic")
    assert "memorise user preferences" in drift.detail and "filtering redundant tools" in drift.evidence
    got, _ = kinds(["Tool retrieval helps because it filters redundant tools before planning."])  # the paper's cause
    assert (0, "mechanistic") not in got


# -- attribution completeness ----------------------------------------------------------------


def _v(k, outcome):
    return ChainValidation(
        answer_id="a",
        task_id="t",
        family="direction",
        method="m",
        backbone="b",
        claim_index=k,
        claim="c",
        stage="chain",
        outcome=outcome,
    )


def test_attribution_completeness_is_the_share_of_passed_chains():
    vs = [_v(0, "pass"), _v(1, "partial"), _v(2, "blocked"), _v(3, "pass")]
    assert attribution_completeness(vs, 4) == 0.5
    assert attribution_completeness([_v(0, "partial")], 1) == 0.0  # partial is not a pass
    assert attribution_completeness([], 0) == 0.0  # no claim: nothing attributable
    art, _ = build_artifacts(
        answer(["Retrieving tool documentation reduces hallucinated API calls.", *GENERIC_CLAIMS[:1]]), None, lookup
    )
    assert (art.n_attributed, art.n_claims, art.attribution_completeness) == (1, 2, 0.5)


def test_report_section_and_chains_page_link_answers_by_anchor():
    art, _ = build_artifacts(
        answer(["Tool retrieval reduces hallucinated API calls because agents memorise user preferences."]), None, lookup
    )
    section = report_section([art])
    assert f"chains.html#{anchor(art.answer_id)}" in section and "mechanistic" in section
    page = chains_html([art], "t")
    assert f"id='{anchor(art.answer_id)}'" in page and "verified" in page
    (row,) = [r for r in drift_summary([art]) if r["method"] == "m"]
    assert row["mechanistic"] == 1 and row["claims"] == 1


# -- model path: a loopback OpenAI-compatible server -----------------------------------------


def _judge_handler(reply: dict, seen: list):
    def handle(req):
        seen.append(req.json()["messages"][-1]["content"])
        return Reply.json(
            {
                "id": "c",
                "object": "chat.completion",
                "created": 0,
                "model": "judge-mock",
                "choices": [
                    {"index": 0, "finish_reason": "stop", "message": {"role": "assistant", "content": json.dumps(reply)}}
                ],
                "usage": {"prompt_tokens": 100, "completion_tokens": 20, "total_tokens": 120},
            }
        )

    return handle


def test_model_path_verifies_the_judge_s_quotes(tmp_path):
    reply = {
        "tuples": [
            {
                "paper_id": PID,
                "keywords": ["tool"],
                "summary": "s",
                "insight": "i",
                "quote": "Agents that retrieve tool documentation reduce hallucinated API calls.",
            },
            {"paper_id": PID, "quote": "Filtering tools doubles accuracy on every benchmark."},
        ],
        "claims": [
            {
                "claim_index": 0,
                "tuple_indexes": [0],
                "evidence": "pass",
                "mechanism": "pass",
                "decision": "pass",
                "claim": "pass",
            },
            {
                "claim_index": 1,
                "tuple_indexes": [1],
                "evidence": "pass",
                "mechanism": "pass",
                "decision": "pass",
                "claim": "pass",
                "drift": ["experimental"],
                "drift_detail": "no benchmark reported",
            },
        ],
    }
    seen: list = []
    a = answer(
        [
            "Retrieving tool documentation reduces hallucinated API calls.",
            "Filtering tools doubles accuracy on every benchmark.",
            "Retrieving tool documentation reduces hallucinated API calls for planning agents.",
        ]
    )
    with Loopback(_judge_handler(reply, seen)) as server:
        client = LLMClient(
            "openai/judge-mock",
            api_base=server.url + "/v1",
            api_key="x",
            cache_dir=str(tmp_path / "cache"),
            max_retries=1,
            backoff_s=0.0,
            timeout_s=5,
        )
        art, failures = build_artifacts(a, None, lookup, judge=client)
    assert failures == [] and len(seen) == 1 and PID in seen[0] and ABSTRACT[:40] in seen[0]
    assert art.validator == "openai/judge-mock" and [t.source for t in art.tuples] == ["judge", "judge"]
    assert [t.quote_status for t in art.tuples] == ["verified", "not_found"]
    assert chain_of(art, 0)["chain"] == "pass"
    # the judge passed claim 1 on a quote no paper holds: downgraded, and a partial never passes
    assert chain_of(art, 1)["evidence"] == "partial" and chain_of(art, 1)["chain"] == "partial"
    assert {(d.claim_index, d.kind, d.detector) for d in art.drifts} == {(1, "experimental", "openai/judge-mock")}
    # claim 2 was left out of the reply: the offline rules judge it
    assert {v.validator for v in art.validations if v.claim_index == 2} == {"offline"}
    assert art.attribution_completeness == pytest.approx(2 / 3, abs=1e-4)


def test_model_path_falls_back_to_the_offline_rules_when_the_call_fails(tmp_path):
    with Loopback(lambda req: Reply(500, "down")) as server:
        client = LLMClient(
            "openai/judge-mock",
            api_base=server.url + "/v1",
            api_key="x",
            cache_dir=str(tmp_path / "cache"),
            max_retries=1,
            backoff_s=0.0,
            timeout_s=5,
        )
        art, failures = build_artifacts(
            answer(["Retrieving tool documentation reduces hallucinated API calls."]), None, lookup, judge=client
        )
    assert len(failures) == 1 and failures[0].stage == "answer_artifacts"
    assert art.validator == "offline" and art.attribution_completeness == 1.0


def test_option_texts_and_quoted_titles_are_names_not_drift_cues():
    from tests.factories import make_task

    venue = "ACL/EMNLP (accepted papers: 71% method, 16% benchmark)"
    task = make_task("t1", "venue", "Which venue?", options=[venue, "ICLR/ICML"])
    a = answer(
        [
            f"The project fits the {venue} venue family best.",
            "'Tool use (keywords: evaluation); e.g. \"ToolScope: tools through merging\"' will gain the most momentum.",
        ],
        choice="o0",
        ranking=["o0", "o1"],
    )
    art, _ = build_artifacts(a, task, lookup)
    assert [d for d in art.drifts if d.kind in ("experimental", "mechanistic")] == []


def test_an_external_agent_s_tuples_are_used_and_verified():
    items = json.dumps(
        [
            {
                "paper_id": PID,
                "keywords": ["tool"],
                "summary": "s",
                "insight": "i",
                "quote": "Agents that retrieve tool documentation reduce hallucinated API calls.",
            }
        ]
    )
    art, _ = build_artifacts(
        answer(["Retrieving tool documentation reduces hallucinated API calls."], artifacts={"agent:evidence_tuples": items}),
        None,
        lookup,
    )
    assert [(t.source, t.quote_status) for t in art.tuples] == [("agent", "verified")]
    assert art.attribution_completeness == 1.0

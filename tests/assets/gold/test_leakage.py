"""Leakage validators that fail a release: post-cutoff terms and labels, cross-task leakage,
gold in public files, and the prefix-continuation contamination probe (DeepResearch Arena A)."""

from __future__ import annotations

import os

os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")

import json
from datetime import date, timedelta

import pytest

from assets.gold import contamination as cp
from core.leakage import (
    LeakageError,
    assert_clean,
    check_public_tasks,
    check_release_texts,
    cross_task_violations,
    future_only_terms,
    novel_term_violations,
    post_cutoff_labels,
)
from core.records import GoldClaim, GoldSlot, GoldTarget, Task, TaskOption
from resources.llm import LLMClient

CUTOFF = date(2025, 12, 31)


def make_task(
    task_id,
    family="direction",
    question="Which direction gains momentum between 2026-01-01 and 2026-06-30?",
    options=(
        "Tool use / function calling (keywords: api, tools)",
        "Web navigation agents",
        "Memory for agents",
        "Multi-agent debate",
    ),
) -> Task:
    return Task(
        task_id=task_id,
        family=family,
        domain="llm_agent",
        cutoff=CUTOFF,
        window_start=CUTOFF + timedelta(days=1),
        window_end=date(2026, 6, 30),
        horizon="6-month",
        title="A task",
        question=question,
        instructions="Use only pre-cutoff evidence.",
        answer_requirements=["one chosen option id"],
        options=[TaskOption(option_id="ABCD"[i], text=t) for i, t in enumerate(options)],
    )


def gold_a() -> GoldTarget:
    return GoldTarget(
        task_id="T-A",
        family="direction",
        domain="llm_agent",
        cutoff=CUTOFF,
        preferred_ranking=["A", "B", "C", "D"],
        trajectory="accelerating",
        slots=[
            GoldSlot(
                slot="primary_direction",
                variants=["Tool use / function calling (keywords: api, tools)", "tool use / function calling"],
            ),
            GoldSlot(slot="trajectory", variants=["tool use / function calling is accelerating"]),
        ],
        claims=[
            GoldClaim(
                claim_id="T-A-c01",
                text="Before 2025-12-31, tool use / function calling had 40 papers.",
                type="historical",
                time_scope="pre-cutoff",
                importance=0.3,
            ),
            GoldClaim(
                claim_id="T-A-c02",
                text="Between 2026-01-01 and 2026-06-30, tool use / function calling gained "
                "the largest volume-normalised share among the options (momentum 1.52).",
                type="future-realisation",
                time_scope="2026-01-01 to 2026-06-30",
                importance=1.0,
            ),
            GoldClaim(
                claim_id="T-A-c03",
                text="New subdirection 'mcp servers / tool registries' emerged under tool use / function calling.",
                type="taxonomy",
                time_scope="window",
                importance=0.5,
            ),
        ],
        strength=0.8,
    )


# -- cross-task leakage: the deliberately leaky task ---------------------------------------


def test_a_leaky_task_restating_another_tasks_answer_is_caught():
    a = make_task("T-A")
    leaky = make_task(
        "T-B",
        family="planning",
        question=(
            "Rank these options for a team of 4. Keep in mind that function calling and tool use is accelerating right now."
        ),
    )
    messages = cross_task_violations([a, leaky], [gold_a()])
    assert messages and all(m.startswith("T-B: question: cross-task leakage: reveals task T-A's answer") for m in messages)
    with pytest.raises(LeakageError, match="T-B"):
        assert_clean([a, leaky], [gold_a()], set(), [], cutoff=CUTOFF)


def test_public_option_names_alone_are_not_leakage():
    # T-A lists the winner as an option and the trajectory labels in its question: that is the task, not a leak
    a = make_task("T-A", question="Which option gains momentum? Give one label: accelerating, fragmenting, steady or cooling.")
    other = make_task("T-C", family="planning", question="Rank these options for a team planning 6 months.")
    assert cross_task_violations([a, other], [gold_a()]) == []
    assert check_public_tasks([a, other], [gold_a()], set(), [], cutoff=CUTOFF) == []


def test_paraphrase_of_a_future_claim_is_caught_in_any_field():
    leaky = make_task(
        "T-D",
        options=(
            "Tool use / function calling",
            "Share: function calling, tool use gained the largest volume-normalised momentum (1.52) among the options",
            "x",
            "y",
        ),
    )
    messages = cross_task_violations([leaky], [gold_a()])
    assert any("options[1].text" in m and "future-realisation claim T-A-c02" in m for m in messages)


# -- terms and labels first seen after the cutoff ------------------------------------------


def test_future_only_terms_need_several_future_titles_and_absence_before_the_cutoff():
    pre = ["Tool learning for agents with API calls.", "Agents that browse the web with memory."]
    future = [
        "Quantum swarm agents for chemistry",
        "Quantum swarm planning at scale",
        "Scaling quantum swarm agents",
        "Tool learning revisited",
        "Tool learning again",
        "Tool learning forever",
        "Rare term hyperloop agents",
        "Another hyperloop idea",
    ]
    terms = future_only_terms(pre, future)
    assert {"quantum swarm", "quantum", "swarm"} <= terms
    assert "tool learning" not in terms and "tool" not in terms  # seen before the cutoff
    assert "hyperloop" not in terms  # only 2 future titles
    assert not any(t in terms for t in ("agents", "for", "at"))  # stop words never are terms
    assert "quantum" not in future_only_terms(pre, future, allowed=["a quantum leap"])


def test_public_text_naming_a_post_cutoff_term_or_subdirection_fails():
    t = make_task("T-E", options=("Quantum swarm agents", "Web navigation agents", "Memory", "Debate"))
    messages = novel_term_violations([t], {"quantum swarm", "swarm"})
    assert messages and all(m.startswith("T-E: options[0].text: names ") for m in messages)
    assert post_cutoff_labels([gold_a()]) == ["mcp servers / tool registries"]
    labelled = make_task("T-F", question="Will MCP servers / tool registries grow between 2026-01-01 and 2026-06-30?")
    msgs = check_public_tasks([labelled], [gold_a()], set(), [], cutoff=CUTOFF, novel_terms={"quantum swarm"})
    assert any("a subdirection created after the cutoff" in m for m in msgs)
    with pytest.raises(LeakageError):
        assert_clean([t], [gold_a()], set(), [], cutoff=CUTOFF, novel_terms={"quantum swarm"})


def test_release_rows_with_gold_keys_or_gold_content_fail():
    row = json.loads(make_task("T-G").model_dump_json())
    clean = check_release_texts([row], [gold_a()])
    assert clean == []
    bad = {**row, "trajectory": "accelerating"}
    assert any("gold-only key 'trajectory'" in m for m in check_release_texts([bad], [gold_a()]))
    quoted = {**row, "instructions": "Hint: tool use / function calling is accelerating."}
    assert any("gold-only content (slot 'trajectory'" in m for m in check_release_texts([quoted], [gold_a()]))


# -- prefix-continuation contamination probe ----------------------------------------------


def test_probe_metrics_by_hand():
    assert cp.lcs_length("abcbdab", "bdcaba") == 4
    assert cp.lcs_similarity("abc", "abd") == pytest.approx(2 * 2 / 6)
    assert cp.word_overlap("the cat sat", "The cat ran away") == pytest.approx(1 / 4 * 2)  # {the, cat} of 4
    idf = cp.idf_table(["a b", "a c"])
    assert cp.tfidf_cosine("a b", "a b", idf) == pytest.approx(1.0)
    assert cp.tfidf_cosine("b", "c", idf) == 0.0
    assert cp.composite(1.0, 1.0, 1.0) == pytest.approx(1.0)
    assert cp.composite(0.5, 0.5, 1.0) == pytest.approx(0.6)


def test_split_prefix_cuts_at_the_punctuation_closest_to_the_midpoint():
    prefix, suffix = cp.split_prefix("One two three. Four five six, seven eight nine ten eleven; twelve.")
    assert prefix == "One two three. Four five six," and suffix == "seven eight nine ten eleven; twelve."
    assert cp.split_prefix("nopunctuation") == ("nopunc", "tuation")


class ProbeClient(LLMClient):
    """A real LLMClient whose replies are litellm mock responses: the true suffix (a model
    that has memorised the task) or an unrelated continuation."""

    def __init__(self, tmp_path, tasks, echo: bool):
        super().__init__("openai/mock-probe", api_key="k", cache_dir=str(tmp_path / f"cache-{echo}"), backoff_s=0.0)
        self.suffix = {cp.split_prefix(cp.probe_text(t))[0]: cp.split_prefix(cp.probe_text(t))[1] for t in tasks}
        self.echo = echo

    def text(self, messages, *, purpose, temperature=None, seed=None, max_tokens=None, mock_response=None):
        prefix = messages[-1]["content"].split("\n\n", 1)[1]
        reply = self.suffix[prefix] if self.echo else "and then the weather was lovely for a long walk by the sea."
        return super().text(
            messages, purpose=purpose, temperature=temperature, seed=seed, max_tokens=max_tokens, mock_response=reply
        )


def probe_tasks():
    return [
        make_task(
            "T-1",
            question="Between 2026-01-01 and 2026-06-30, which of these research directions in LLM "
            "Agents is most likely to gain momentum, i.e. to take a larger share of new papers?",
        ),
        make_task(
            "T-2",
            family="bottleneck",
            options=(),
            question="In tool use / agents, as of 2025-12-31, identify "
            "one root bottleneck and the one-hop opportunity that opens if it is reduced.",
        ),
    ]


def test_probe_flags_a_model_that_reproduces_the_task(tmp_path):
    tasks = probe_tasks()
    results, failures = cp.run_probe(tasks, ProbeClient(tmp_path, tasks, echo=True))
    assert not failures and [r.task_id for r in results] == ["T-1", "T-2"]
    for r in results:
        assert r.flagged and r.composite == pytest.approx(1.0) and r.continuation == r.suffix
    assert len(cp.flagged_messages(results)) == 2 and "composite similarity 1.00 >= 0.7" in cp.flagged_messages(results)[0]


def test_probe_passes_a_model_that_writes_something_else(tmp_path):
    tasks = probe_tasks()
    results, _ = cp.run_probe(tasks, ProbeClient(tmp_path, tasks, echo=False))
    assert results and not any(r.flagged for r in results)
    assert all(r.composite < 0.7 for r in results) and cp.flagged_messages(results) == []


def test_probe_runs_only_with_a_model(tmp_path):
    assert cp.run_probe(probe_tasks(), LLMClient(None, cache_dir=str(tmp_path))) == ([], [])


def test_substring_index_finds_exactly_what_in_finds():
    """The one-pass index behind the future-title and gold-content checks agrees with `p in text`
    on overlapping, nested, repeated and absent patterns, in pattern order."""
    import random

    from core.leakage import SubstringIndex

    rng = random.Random(3)
    words = ["agent", "agents", "memory", "tool use", "planning", "web", "rag", "graph"]
    patterns = sorted({" ".join(rng.choices(words, k=rng.randint(1, 3))) for _ in range(60)})
    index = SubstringIndex(patterns)
    for _ in range(200):
        text = " ".join(rng.choices(words, k=rng.randint(0, 12)))
        assert index.found_in(text) == [p for p in patterns if p in text]
    assert SubstringIndex([]).found_in("anything") == []

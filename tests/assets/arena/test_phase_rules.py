"""Issue 32: phase references that answer the task's phase (assets/families/phase/reference.py) and
inspiration quotes on the task's topic (assets/families/phase/topic.py). Real-looking window
sentences: each positive does what the phase asks, each negative is the kind readers flagged."""

from __future__ import annotations

import pytest

from assets.families.phase import answers_phase, on_topic, phase_keypoints, restates, sentence_vectors
from assets.families.phase.reference import is_benchmark_paper, question_sentences, select_reference

EVALUATE = {
    True: (
        "We introduce ToolBench-RL, a benchmark of 1,200 multi-step tool-use tasks with executable checkers for each call.",
        "We evaluate twelve open and proprietary agents on WebArena and OSWorld, measuring task success rate and the "
        "number of invalid actions.",
        "We find that even the strongest agent solves only 14% of the tasks, with most failures caused by incorrect "
        "tool arguments in our test suite.",
        "Experiments on GAIA and SWE-bench show that our agent improves pass@1 by 7 points over strong baselines.",
        "WebChoreArena is a benchmark of 532 tedious web tasks that tests memory, calculation and long-term reasoning.",
    ),
    False: (
        "Our method achieves state-of-the-art performance, outperforming all prior systems by a large margin.",
        "Extensive experiments demonstrate that our approach achieves state-of-the-art results.",
        "We propose a novel memory architecture for agents.",
        "Our framework significantly improves the efficiency of multi-agent collaboration.",
        "We propose $\\alpha$-Bench, a benchmark for agents evaluated on five suites.",  # markup
    ),
}
DESIGN = {
    True: (
        "We propose MemAgent, a memory controller that rewrites a fixed-size memory after each chunk using "
        "reinforcement learning on long documents.",
        "We introduce ReTool, which interleaves code execution with reasoning by training the policy via outcome-based "
        "reinforcement learning.",
        "We propose MemAgent, a novel framework for long-context agents. It reads the document in chunks and "
        "overwrites a fixed-size memory with a learned policy.",  # a bare proposal, then how it works
    ),
    False: (
        "We propose MemAgent, a novel framework for long-context agents.",  # a bare "we propose X"
        "We present a systematic evaluation of memory modules across six agent benchmarks.",  # a study, not a method
        "We propose MemAgent, a novel framework for long-context agents. Experiments show it beats strong baselines.",
        "Memory modules are widely used by agents that read long documents in chunks.",  # not the paper's own method
    ),
}
SYNTHESIZE = {
    True: (
        "Existing benchmarks evaluate agents on short tasks and rarely test recovery from errors. We propose a "
        "benchmark of long-horizon tasks that injects failures mid-episode.",  # the gap, then the direction taken
        "To address the lack of verifiable rewards in open-ended tasks, we introduce rubric-based rewards for RL fine-tuning.",
        "We study why tool-use agents fail to recover from erroneous tool outputs in multi-turn settings.",
    ),
    False: (
        "We propose a benchmark of long-horizon tasks.",  # a direction without the gap it takes up
        "Existing methods fail to generalize to unseen tools.",  # a gap without the direction taken
        "We study tool-use agents in a multi-turn setting.",
    ),
}


@pytest.mark.parametrize(("phase", "cases"), [("evaluate", EVALUATE), ("design", DESIGN), ("synthesize", SYNTHESIZE)], ids=str)
def test_answers_phase_keeps_what_the_phase_asks_and_refuses_what_readers_flagged(phase, cases):
    for sentence in cases[True]:
        assert answers_phase(sentence, phase), sentence
    for sentence in cases[False]:
        assert not answers_phase(sentence, phase), sentence


def test_a_keypoint_answers_only_its_own_phase():
    bench = EVALUATE[True][0]
    method = DESIGN[True][0]
    assert answers_phase(bench, "evaluate") and not answers_phase(method, "evaluate")
    assert answers_phase(method, "design") and not answers_phase("Existing methods fail to scale.", "design")


def test_phase_keypoints_join_a_gap_with_its_direction_and_a_proposal_with_its_mechanism():
    abstract = (
        "Large language model agents increasingly call external tools. Existing tool-use agents fail to recover "
        "from erroneous tool outputs over long episodes. We propose ToolReflect, a framework for robust tool use. "
        "It detects a failed call from the tool's output and replans the remaining calls with a learned critic. "
        "Experiments show ToolReflect achieves state-of-the-art results."
    )
    syn = phase_keypoints(abstract, "synthesize")
    assert syn == [
        "Existing tool-use agents fail to recover from erroneous tool outputs over long episodes. We propose "
        "ToolReflect, a framework for robust tool use."
    ]
    design = phase_keypoints(abstract, "design")
    assert design == [
        "We propose ToolReflect, a framework for robust tool use. It detects a failed call from the tool's output "
        "and replans the remaining calls with a learned critic."
    ]
    assert phase_keypoints(abstract, "evaluate") == []  # a bare state-of-the-art claim answers no evaluate task
    assert all(k in " ".join(abstract.split()) for k in syn + design)  # verbatim spans (the quote_in_window check)


QUESTION = (
    "Evaluate a claim on Tool Agents (LLM Agents), as of 2025-12-31. A pre-cutoff paper (2505.00001) reported: "
    '"Experiments show that ToolPlanner improves task success by 12% on the ToolBench benchmark." Design the '
    "evaluation that work published between 2026-01-01 and 2026-06-30 would run to confirm or refute this claim of 2505.00001: "
    "benchmarks, metrics, baselines and statistical tests."
)


def test_restatement_check_refuses_a_keypoint_that_repeats_the_question():
    qs = question_sentences(QUESTION)
    assert "Experiments show that ToolPlanner improves task success by 12% on the ToolBench benchmark." in qs
    assert restates("Experiments show that ToolPlanner improves task success by 12% on the ToolBench benchmark.", qs)
    assert restates("Experiments show ToolPlanner improves the task success by 15% on the ToolBench benchmark.", qs)
    assert restates("An unrelated wording of the same claim.", qs, cos=0.93)  # the embedding half
    assert not restates("We introduce ToolSandbox, a stateful benchmark with executable checkers for 1,032 tool calls.", qs)
    assert not restates("We introduce ToolSandbox, a stateful benchmark.", qs, cos=0.7)


def test_select_reference_drops_restatements_and_puts_benchmark_papers_first():
    primary = "Experiments show that ToolPlanner improves task success by 12% on the ToolBench benchmark."
    cands = [
        ("p1", "Experiments show that ToolPlanner improves task success by 12% on the ToolBench benchmark."),
        ("p2", "We evaluate ToolPlanner variants on the ToolBench benchmark, measuring task success and pass rate."),
        ("p3", "We introduce ToolBench-Hard, a benchmark of tool-use tasks where planners must recover from failures."),
    ]
    chosen, n_pass = select_reference("evaluate", primary, QUESTION, cands, preferred={"p3"})
    ids = [pid for _, pid, _ in chosen]
    assert "p1" not in ids  # restates the question's quote
    if "p3" in ids:  # the benchmark paper on the topic comes first whenever it passes the check
        assert ids[0] == "p3"
    assert n_pass == len(chosen)


def test_benchmark_papers_are_recognised_by_title_or_by_what_they_introduce():
    assert is_benchmark_paper("WebChoreArena: Evaluating Web Browsing Agents on Realistic Tedious Web Tasks", "")
    assert is_benchmark_paper("Tool agents", "We introduce ToolSandbox, a stateful benchmark for tool-use agents.")
    assert not is_benchmark_paper("Memory for agents", "We propose a memory controller for agents.")


def test_on_topic_keeps_quotes_about_the_subject_and_drops_off_topic_ones():
    subject = "ToolRL: Reward is All Tool Learning Needs"
    on = "Reinforcement learning with outcome rewards teaches language models when and how to call external tools."
    off = "The proposed design reduces the vibration of the machine's spindle at high rotational speeds."
    v = sentence_vectors([subject, on, off])
    assert on_topic(on, subject, float(v[0] @ v[1]))
    assert not on_topic(off, subject, float(v[0] @ v[2]))
    # a shared topic stem of the subject lifts a quote the embedder finds only loosely related ...
    assert on_topic("Tool learning remains brittle when APIs change.", subject, 0.3)
    # ... but not when the stem is one of the domain's everyday words
    assert not on_topic("Tool learning remains brittle when APIs change.", subject, 0.3, {"tool": 0.6, "learn": 0.5})

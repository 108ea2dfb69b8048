"""Issue 32, third pass: the phase rules a blind reader's findings asked for (one test per rule).
docs/labels/blind/reading_seed3211_phase_venue.md: design tasks on benchmark papers answered by
benchmark papers, off-topic keypoints, pursued papers and context quotes, 2-keypoint tasks, a
generic ask, a degenerate gold header, badly extracted topic names."""

from __future__ import annotations

from datetime import date

import numpy as np

from assets.arena.inspirations import Inspiration
from assets.families.phase.build import _method_primary, _support, question_text
from assets.families.phase.gold import phase_validity_problems
from assets.families.phase.kinds import contribution_kind, is_evaluation_gap
from assets.families.phase.quotes import readable_subject
from assets.families.phase.reference import MIN_REFERENCE, select_reference
from assets.families.phase.topic import CONTEXT_COS, TITLE_COS, TOPIC_COS, topic_cos, topic_text
from assets.validity.review_sample import review_sheet_lines
from core.records import GoldTarget, Task


# ---- rule 1: a benchmark is evaluated, not designed on; design keypoints come from method papers --------
def test_a_benchmark_paper_is_no_design_primary_and_no_design_keypoint_source():
    for title in (
        "MCPToolBench++: A Large Scale AI Agent Model Context Protocol MCP Tool Use Benchmark",
        "OmniBench: A Scalable Multi-Dimensional Benchmark for Essential Virtual Agent Capabilities",
        "BrowserArena: Evaluating LLM Agents on Real-World Web Navigation Tasks",
        "WebSP-Eval: Evaluating Web Agents on Website Security and Privacy Tasks",
    ):
        assert contribution_kind(title, "") == "evaluation", title
        assert not _method_primary(title, "", "We propose a new agent that plans with a learned world model.")
    # a title that names no benchmark: the first contribution sentence decides
    assert contribution_kind("Tool agents", "Agents call tools. We introduce ToolSandbox, a stateful benchmark.") == "evaluation"
    assert (
        contribution_kind("Mango", "We propose Mango, a multi-agent web navigation method evaluated on a new benchmark.")
        == "method"
    )
    assert contribution_kind("A Survey of GUI Agents", "") == "review"
    method = ("UItron: Foundational GUI Agent with Advanced Perception and Planning", "We introduce UItron, a GUI agent model.")
    assert contribution_kind(*method) == "method"
    assert _method_primary(*method, "We introduce UItron, an open-source foundational model for automatic GUI agents.")
    # a method paper whose quoted proposal is a benchmark is no design primary either
    assert not _method_primary(*method, "We introduce UIBench, a benchmark of 500 mobile tasks.")


# ---- rule 2: the topic bar and >= 3 keypoints ---------------------------------------------------------
def test_the_topic_bar_separates_the_titles_a_reader_flagged_from_the_on_topic_ones():
    topic = topic_text(
        "BrowserArena: Evaluating LLM Agents on Real-World Web Navigation Tasks",
        "We introduce BrowserArena, a live open-web agent evaluation platform that collects user-submitted tasks.",
    )
    on = ["Mango: Multi-Agent Web Navigation via Global-View Optimization"]
    off = [
        "NeuraDock Visual Cognitive Load Agent Tutorial: A Quality-Gated Open-Source EEG Workflow for Alpha Dynamics",
        "NeuroClaw Technical Report",
    ]
    cos = topic_cos(on + off, topic)
    assert cos[0] >= TITLE_COS
    assert (cos[1:] < TITLE_COS).all()
    assert CONTEXT_COS >= TOPIC_COS >= TITLE_COS  # a sentence runs higher cosines than a title


def test_a_keypoint_below_the_topic_bar_is_not_in_the_reference():
    primary = "We introduce OmniBench, a benchmark of graph-structured tasks for virtual agents on desktop and mobile GUIs."
    title = "OmniBench: A Scalable Multi-Dimensional Benchmark for Essential Virtual Agent Capabilities"
    cands = [
        ("on", "We introduce GUI-Arena, a benchmark of cross-app tasks for virtual agents on desktop and mobile GUIs."),
        (
            "off",
            "We present a Minecraft benchmark where teams of agents must coordinate on ticking timers to craft items together.",
        ),
    ]
    cos = topic_cos([s for _, s in cands], topic_text(title, primary))
    assert cos[0] >= TOPIC_COS > cos[1]
    chosen, n_pass = select_reference("evaluate", primary, "Evaluate a claim.", cands, topic=title)
    assert [pid for _, pid, _ in chosen] == ["on"] and n_pass == 1


def test_a_task_needs_three_reference_keypoints():
    assert MIN_REFERENCE == 3
    task = _task("phase")
    two = GoldTarget(
        task_id=task.task_id,
        family="phase",
        domain=task.domain,
        cutoff=task.cutoff,
        strength=1.0,
        numbers={"reference_papers": 2.0, "n_reference_candidates": 9.0},
    )
    assert phase_validity_problems(task, two)
    three = two.model_copy(update={"numbers": {"reference_papers": 3.0}})
    assert not phase_validity_problems(task, three)


# ---- rule 3: context quotes on the topic; a design task's open problem is a method gap ---------------
def _ins(pid: str, kind: str, quote: str) -> Inspiration:
    return Inspiration(
        inspiration_id=pid,
        kind=kind,
        text=quote,
        quote=quote,
        paper_id=pid,
        published=date(2025, 6, 1),
        field="abstract",
        node_id="n",
        node_label="GUI agents",
        record_id="r",
    )


def test_a_design_context_quote_is_a_method_gap_on_the_topic_or_left_out():
    primary = _ins(
        "p", "methodology", "We introduce UItron, a foundational GUI agent model trained with curriculum RL on mobile apps."
    )
    eval_gap = _ins(
        "a3",
        "limitation",
        "Existing benchmarks for mobile GUI agents evaluate static app frames and lack a live evaluation platform.",
    )
    method_gap = _ins(
        "m", "limitation", "Mobile GUI agents trained with RL still struggle to ground small icons on dense app screens."
    )
    assert is_evaluation_gap(eval_gap.quote) and not is_evaluation_gap(method_gap.quote)
    usable = [(i, i.quote) for i in (primary, eval_gap, method_gap)]
    from assets.families.phase.topic import sentence_vectors

    vecs = sentence_vectors([b for _, b in usable])
    title = "UItron: Foundational GUI Agent with Advanced Perception and Planning"
    tvec = sentence_vectors([topic_text(title, primary.quote)])[0]
    picked = _support("design", 0, usable, vecs, {"quotes": set()}, None, None, tvec)
    assert picked is None or picked[0].paper_id == "m"  # never the evaluation gap
    # a quote below the context bar is left out, however close to the primary quote
    far = np.array(vecs)
    far_tvec = -tvec  # every quote is then far below CONTEXT_COS with the topic
    assert _support("design", 0, usable, far, {"quotes": set()}, None, None, far_tvec) is None


# ---- rule 4: the ask names the gap; the gold header reads as a sentence --------------------------------
def test_the_design_ask_names_the_open_problem_and_no_template_says_method_on_a_benchmark():
    args = ("Diffusion-Guided Repair of Novel Views", "Visual Generation", ("We propose GSFix3D, a repair method.", "2508.1"))
    with_gap = question_text(
        "design", *args, ("3DGS fails on views far from the training cameras.", "2509.2"), "2025-12-31", "a", "b"
    )
    assert "solve that open problem" in with_gap and "A related open problem (2509.2)" in with_gap
    assert "next method for" in with_gap and "next method on" not in with_gap
    assert "take this approach further" in question_text("design", *args, None, "2025-12-31", "a", "b")
    evaluate = question_text("evaluate", *args, None, "2025-12-31", "a", "b")
    assert "refute this claim of 2508.1" in evaluate


def test_an_open_ended_gold_header_reads_as_a_sentence():
    entry = {
        "family": "phase",
        "task_id": "t",
        "domain": "llm_agent",
        "cutoff": "2025-12-31",
        "window": "2026-01-01 to 2026-06-30",
        "title": "Design: X",
        "question": "Design ...",
        "options": [],
        "gold": {
            "ranking": ["pursued"],
            "counted": {},
            "slots": {},
            "plan": {},
            "claims": ["Between 2026-01-01 and 2026-06-30, 5 window papers on the task's topic pursued its inspiration."],
        },
    }
    text = "\n".join(review_sheet_lines([entry], 1))
    assert "pursued: pursued" not in text and "Ranking:" not in text
    assert "Gold: Between 2026-01-01 and 2026-06-30, 5 window papers" in text


# ---- rule 5: the topic name is a readable noun phrase --------------------------------------------------
def test_the_topic_name_is_a_readable_noun_phrase_or_the_task_is_not_built():
    assert (
        readable_subject("CF-VLM:CounterFactual Vision-Language Fine-tuning", "D") == "CounterFactual Vision-Language Fine-tuning"
    )
    assert readable_subject("On the Effect of Instruction Tuning Loss on Generalization", "D") == (
        "Effect of Instruction Tuning Loss on Generalization"
    )
    assert (
        readable_subject("A potential new paradigm for food quality inspection", "D")
        == "Potential new paradigm for food quality inspection"
    )
    question = "Is Your LLM Secretly a World Model of the Internet? Model-Based Planning for Web Agents"
    assert readable_subject(question, "D") == "Model-Based Planning for Web Agents"  # the title's other part
    for sentence_like in (
        "LLM Agents Present Overlooked Risks for Financial Applications",
        '"MapReduce" is the Principle for Long Video Understanding',
        "Compilers. Can LLMs learn how to apply a single peephole optimization",
        "Can Machines Think Like Humans?",  # falls back to the domain: no topic
    ):
        assert readable_subject(sentence_like, "D") is None, sentence_like


def _task(family: str) -> Task:
    return Task(
        task_id=f"llm_agent-2025-12-31-{family}-01",
        family=family,
        domain="llm_agent",
        cutoff=date(2025, 12, 31),
        window_start=date(2026, 1, 1),
        window_end=date(2026, 6, 30),
        horizon="6-month",
        title="Design: X",
        question="Design ...",
        instructions="",
        answer_requirements=[],
        subtype="design",
    )

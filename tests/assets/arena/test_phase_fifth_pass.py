"""Phase, fifth pass (seed-3738 blind reading): keypoints by lineage with the anchor, no stated
count, stale anchors and report subtitles refused, a theory is not a method, a support needs
lineage."""

from __future__ import annotations

from datetime import date

from assets.families.phase.build import MAX_ANCHOR_AGE_DAYS, stale_anchor
from assets.families.phase.gold import pursued_in_window
from assets.families.phase.quotes import readable_subject
from assets.families.phase.reference import answers_phase, is_phase_sentence
from assets.families.phase.topic import lineage_score, topic_stems
from core.records import ClaimBasis, GoldClaim, GoldTarget


def test_lineage_prefers_the_successor_sharing_the_anchors_specific_vocabulary():
    anchor = (
        "ZeroQuant-FP: post-training W4A8 quantization using floating-point formats. We study FP8 activations "
        "and FP4 weights; floating-point formats beat integer formats for LLM quantization."
    )
    df = {"quantiz": 0.03, "float": 0.004, "floating-point": 0.003, "format": 0.02, "integer": 0.01, "llm": 0.3}
    fp = "NVFP4 post-training quantization: floating-point formats with block scales beat integer formats."
    weight_only = "Low-bit post-training weight quantization with a dual-scale quantizer for LLMs."
    stems = topic_stems(anchor)
    assert lineage_score(stems, fp, df) > lineage_score(stems, weight_only, df)
    assert lineage_score(stems, "A paper on something else entirely.", df) == 0.0
    # an everyday word of the window (share > COMMON_DF) adds nothing
    assert lineage_score(stems, "LLM", df) == 0.0


def test_a_primary_older_than_two_years_at_the_cutoff_is_stale():
    cutoff = date(2025, 12, 31)
    assert stale_anchor(date(2023, 7, 19), cutoff)  # ZeroQuant-FP at a 2025-12-31 cutoff
    assert not stale_anchor(date(2024, 9, 26), cutoff)
    assert not stale_anchor(None, cutoff)  # an unknown date is not stale
    assert MAX_ANCHOR_AGE_DAYS == 730


def test_a_report_subtitle_is_not_a_topic_and_a_study_names_its_topic():
    t = "Towards a Standard, Enterprise-Relevant Agentic AI Benchmark: Lessons from 5.5 billion tokens' worth of agentic AI evaluations"
    s = readable_subject(t, "LLM Agents")
    assert s and "lesson" not in s.lower() and "billion" not in s
    s = readable_subject("Unifi3D: A Study on 3D Representations for Generation and Reconstruction in a Common Framework", "X")
    assert s == "3D Representations for Generation and Reconstruction in a Common Framework"
    assert (
        readable_subject("HyperGraphRAG: Retrieval-Augmented Generation with Hypergraph-Structured Knowledge Representation", "X")
        == "Retrieval-Augmented Generation with Hypergraph-Structured Knowledge Representation"
    )


def test_a_theory_is_not_a_design_keypoint():
    theory = (
        "We present generalisation bounds for RLHF, suggesting that the generalisation error stems from a "
        "sampling error from prompts and rollouts, a reward shift error, and a KL clipping error."
    )
    assert not is_phase_sentence(theory, "design") and not answers_phase(theory, "design")
    method = (
        "We introduce BV-Blend, a critic-free framework that stabilizes advantage estimation by combining "
        "prompt-local on-policy statistics with semantic-cluster-conditioned historical moments."
    )
    assert is_phase_sentence(method, "design") and answers_phase(method, "design")


class _CC:
    def __init__(self, window):
        self.window = window


def test_the_first_claim_states_no_count_and_checks_its_papers_are_window_papers():
    gold = GoldTarget(task_id="t", family="phase", domain="d", cutoff=date(2025, 12, 31))
    claim = GoldClaim(
        claim_id="t-c01",
        type="future-realisation",
        time_scope="2026-01-01 to 2026-06-30",
        text="Between 2026-01-01 and 2026-06-30, window papers on the task's topic took up its inspiration.",
        basis=ClaimBasis(check="pursued_in_window", paper_ids=["a", "b", "c"]),
    )
    assert pursued_in_window(claim, gold, _CC({"a": 1, "b": 1, "c": 1})) is None
    assert pursued_in_window(claim, gold, _CC({"a": 1, "b": 1})) is not None
    short = claim.model_copy(update={"basis": ClaimBasis(check="pursued_in_window", paper_ids=["a"])})
    assert pursued_in_window(short, gold, _CC({"a": 1})) is not None

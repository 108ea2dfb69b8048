"""Phase, sixth pass (seed-3840 blind reading): keypoints share the anchor's modalities, a paper on
the anchor's very problem pursues it whatever its title says, keypoints are ranked by closeness to the
anchor with lineage as a bonus, a defense anchor takes no attack keypoint, a limitation of earlier work
is asked as the gap the paper addressed, and the gold statement names the successors."""

from __future__ import annotations

from datetime import date

from assets.families.phase.build import own_limitation, question_text
from assets.families.phase.gold import gold_statement
from assets.families.phase.reference import same_side, stance
from assets.families.phase.topic import STRONG_COS, modalities, shares_modality, strongly_continues, title_coverage
from core.records import Task, TaskBuild


def test_a_keypoint_paper_names_the_anchors_modalities():
    anchor = "X-Dancer: Expressive Music to Human Dance Video Generation"
    assert modalities(anchor) == {"audio", "video"}
    assert shares_modality(anchor, "OmniDance: Multimodal Driven Dance Video Generation", "Music-driven dance videos ...")
    # generic human video with no music, and 3D dance motion with no video, do not
    assert not shares_modality(anchor, "HumANDiff: Articulated Noise Diffusion for Human Video Generation", "Human videos.")
    assert not shares_modality(anchor, "Drop the Beat: dance generation", "Music-to-3D-dance motion on AIST++.")
    # an image model as the means of a video task: video is the modality, image no constraint
    restoration = "DiffIR2VR-Zero: Zero-Shot Video Restoration with Diffusion-based Image Restoration Models"
    assert modalities(restoration) == {"video"}
    assert not shares_modality(restoration, "TPGDiff: Triple-Prior Guided Diffusion for Image Restoration", "Images.")
    # an anchor naming no modality constrains nothing
    assert shares_modality("L1RA: Dynamic Rank Assignment in LoRA Fine-Tuning", "ShapLoRA", "rank allocation")


def test_title_coverage_weights_the_anchors_rare_title_words():
    df = {"textur": 0.03, "preferenc": 0.05, "geometri": 0.1, "3d": 0.2}
    anchor = "Geometry-Aware Preference Learning for 3D Texture Generation"
    on = title_coverage(anchor, "GarmentPainter: 3D garment texture synthesis", "Preference-aligned texture.", df)
    off = title_coverage(anchor, "Points-to-3D: structure-aware 3D generation", "Point cloud priors.", df)
    assert on > off


def test_a_paper_on_the_anchors_very_problem_pursues_it_by_the_paper_test():
    assert strongly_continues(0.79, 0.74)  # ShapLoRA for a rank-allocation LoRA anchor
    assert not strongly_continues(0.59, 0.62)  # HumANDiff for a music-to-dance video anchor
    assert not strongly_continues(STRONG_COS, STRONG_COS - 0.01)


def test_a_defense_anchor_takes_no_attack_only_keypoint():
    anchor = "we propose a dynamic defense paradigm that monitors communication and defends against attacks."
    assert stance(anchor) == "defense"
    attack = "We propose an adaptive cooperative attack framework, where malicious agents coordinate their attacks."
    assert stance(attack) == "attack" and not same_side(attack, anchor)
    assert same_side("We propose a trust-adaptive defense that limits adversarial influence.", anchor)
    assert same_side("We propose a planner that decomposes web tasks.", anchor)  # neither side
    assert not same_side("We propose a guard model that detects jailbreaks.", "We propose a jailbreak attack on LLMs.")


def test_a_limitation_of_earlier_work_is_asked_as_the_gap_the_paper_addressed():
    prior = "Traditional video restoration methods often need retraining and struggle with limited generalization."
    own = "However, our method still struggles with long videos."
    assert not own_limitation(prior) and own_limitation(own)
    args = ("video restoration", "Visual generation")
    q = question_text("synthesize", *args, (prior, "2407.01519"), None, "2025-12-31", "2026-01-01", "2026-06-30")
    assert "set out to close this gap in earlier work" in q and "limitation of 2407.01519" not in q
    q = question_text("synthesize", *args, (own, "2407.01519"), None, "2025-12-31", "2026-01-01", "2026-06-30")
    assert "limitation of 2407.01519" in q


def test_the_gold_statement_names_the_successors_in_plain_words():
    task = Task(
        task_id="d-2025-12-31-phase-01",
        family="phase",
        domain="d",
        cutoff=date(2025, 12, 31),
        window_start=date(2026, 1, 1),
        window_end=date(2026, 6, 30),
        horizon="6-month",
        title="Design: rank allocation",
        question="Design the next method ... A pre-cutoff paper (2509.04884) proposed: ...",
        subtype="design",
        instructions="",
        answer_requirements=[],
    )
    build = TaskBuild(
        task_id=task.task_id, signal_ids=[], node_ids=[], curation={"subject": "dynamic rank assignment in LoRA fine-tuning"}
    )
    text = gold_statement(task, build, [("2603.13792", "IGU-LoRA: Adaptive Rank Allocation"), ("2601.17921", "ShapLoRA")])
    assert "2509.04884's work on dynamic rank assignment" in text
    assert "IGU-LoRA: Adaptive Rank Allocation (2603.13792) and ShapLoRA (2601.17921)" in text
    assert "specific vocabulary" not in text and "what each proposed" in text


def test_a_side_item_of_the_contributions_is_no_keypoint():
    """ "(4) We build a local simulated environment ..." stood in for the method (sixth-pass reading)."""
    from assets.families.phase.reference import SIDE_ITEM

    assert SIDE_ITEM.search("(4) We build a local simulated environment for cheap rollouts.")
    assert SIDE_ITEM.search("Besides, we propose a benchmark for multimodal search.")
    assert SIDE_ITEM.search("Third, we build an offline search engine.")
    assert SIDE_ITEM.search("We also release a dataset of 10k trajectories.")
    assert not SIDE_ITEM.search("We propose VSearcher, an agent trained with multi-turn RL for multimodal search.")
    assert not SIDE_ITEM.search("2D priors fail on 3D scenes; we introduce a 3D-aware diffusion prior.")

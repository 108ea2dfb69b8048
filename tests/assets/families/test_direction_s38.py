"""Direction rules after blind reading seed 3738: names after a negation or contrast word do not
count, coordinated and modifier-only forms do, one role per option set, example titles on the
domain beyond the option's own name, one pre-cutoff number per meaning, and "lowest" only when
the abstract measure agrees."""

from __future__ import annotations

from datetime import date

import pytest

from assets.evidence.kinds import acronym_affirmed, acronym_pattern, method_role, name_variants, names_affirmed
from assets.toolbox.option_level import level_problem
from assets.toolbox.option_text import direction_text, on_domain_title
from core.phrases import normal_text
from core.records import Signal
from tests.assets.gold.test_gold import momentum_world
from tests.factories import gold_of

VISUAL = "visual_generative_modeling_and_diffusion"


def named(name: str, title: str) -> bool:
    keys, acronyms = name_variants(name)
    text = normal_text(title)
    return any(names_affirmed(k, text) for k in keys) or acronym_affirmed(acronym_pattern(acronyms), title)


@pytest.mark.parametrize(
    "title",
    [
        "PRISM: Self-Improving Reasoning Without Verifiable Rewards",
        "Beyond Verifiable Rewards: Rubric-Based Generative Reward Models",
        "Beyond RLVR: Learning from Natural-Language Critiques",
        "Reasoning w/o RLVR",
    ],
)
def test_a_name_after_a_negation_or_contrast_word_does_not_count(title):
    assert not named("RLVR", title)


@pytest.mark.parametrize(
    "title",
    [
        "Rewards as Labels: Revisiting RLVR from a Classification Perspective",
        "Instructing LLMs to Negotiate using Reinforcement Learning with Verifiable Rewards",
        # one affirmed mention is enough, a later contrast does not undo it
        "RLVR Beyond Math: Verifiable Rewards without Verifiable Rewards Elsewhere",
    ],
)
def test_affirmed_names_still_count(title):
    assert named("RLVR", title)


@pytest.mark.parametrize(
    "title",
    [
        "UniAVGen: Unified Audio and Video Generation with Asymmetric Cross-Modal Interactions",
        "Harmony: Harmonizing Audio and Video Generation through Cross-Task Synergy",
        "Seedance 1.5 pro: A Native Audio-Visual Joint Generation Foundation Model",
        "Ovi: Twin Backbone Cross-Modal Fusion for Audio-Video Generation",
        "T2AV-Compass: Towards Unified Evaluation for Text-to-Audio-Video Generation",
        "Taming Text-to-Sounding Video Generation via Advanced Modality Condition and Interaction",
    ],
)
def test_audio_video_generation_is_counted_by_its_coordinated_forms(title):
    assert named("audio-video generation", title)
    assert not named("audio-video generation", "Audio-Driven Talking Head Generation")


@pytest.mark.parametrize(
    "title",
    [
        "One-Forcing: Towards Stable One-Step Autoregressive Video Generation",
        "WaDi: Weight Direction-aware Distillation for One-step Image Synthesis",
        "One-step Latent-free Image Generation with Pixel Mean Flows",
        "CAFlow: Adaptive-Depth Single-Step Flow Matching for Efficient Histopathology Super-Resolution",
    ],
)
def test_one_step_diffusion_is_counted_by_its_modifier(title):
    assert named("one-step diffusion", title)
    assert not named("one-step diffusion", "Few-Step Diffusion Sampling Through Instance-Aware Discretizations")


def sig(i: int, name: str, titles: list[str] | None = None, domain: str = "d") -> Signal:
    return Signal(
        signal_id=f"sig:candidate_direction:{i:03d}",
        kind="candidate_direction",
        domain=domain,
        cutoff=date(2025, 12, 31),
        title=name,
        summary="",
        stats={"n_members": 20.0},
        details={"defining_phrases": [name.lower()], "representative_titles": titles or []},
    )


@pytest.mark.parametrize(
    "names",
    [
        # a training framework, a post-training stage, a use of a prior and a sampling-cost target
        ["flow matching", "preference optimization", "diffusion priors", "one-step diffusion"],
        # an inference technique beside generative paradigms
        ["autoregressive image generation", "generative adversarial networks", "unified multimodal", "test-time scaling"],
    ],
)
def test_methods_of_different_roles_are_not_siblings(names):
    group = [sig(i, n) for i, n in enumerate(names)]
    assert (p := level_problem(group)) is not None and p.startswith("role:")


def test_methods_of_one_role_pass_and_an_unlisted_role_is_no_finding():
    assert method_role("Reward models") == method_role("RLVR") == "post-training"
    assert level_problem([sig(i, n) for i, n in enumerate(["DPO", "RLVR", "SFT", "Reward models"])]) is None
    assert method_role("zorbic quuxing") is None


def test_flow_matching_variants_are_one_family():
    p = level_problem([sig(0, "flow matching"), sig(1, "rectified flow")])
    assert p is not None and p.startswith("family:")


def test_example_titles_must_be_on_the_domain_beyond_the_options_own_name():
    gan = sig(
        0,
        "generative adversarial networks",
        [
            "Adversarial Attack Against Images Classification based on Generative Adversarial Networks",
            "Proportional Sensitivity in Generative Adversarial Network (GAN)-Augmented Brain Tumor Classification",
            "StyleGAN-T: Unlocking GANs for Fast Large-Scale Text-to-Image Synthesis",
        ],
        domain=VISUAL,
    )
    titles = gan.details["representative_titles"]
    assert [on_domain_title(gan, t) for t in titles] == [False, False, True]
    text = direction_text(gan)
    assert "StyleGAN-T" in text and "Brain Tumor" not in text and "Adversarial Attack" not in text
    # a domain without a context pattern keeps every title
    assert on_domain_title(sig(1, "generative adversarial networks", domain="d"), titles[0])


def test_one_pre_cutoff_number_per_meaning_with_its_dates():
    """Blind reading seed 3738: "RLVR had 29 papers before cutoff" (the evidence stage's cluster,
    all years) beside "46 in the 6 months before" (the title count). Every option's pre-cutoff
    claim is now the momentum baseline, with its period."""
    g = gold_of(*momentum_world())
    historical = [c.text for c in g.claims if c.type == "historical"]
    assert not any("papers in the domain." in c and "had" in c for c in historical)
    assert any(c.startswith("From 2025-07-01 to 2025-12-31 (the 6 months before the cutoff), 5 of 100") for c in historical)
    assert any("10 of 100 new papers in the domain (10.0%) named sparse attention" in c for c in historical)
    assert any(
        c.startswith("From 2026-01-01 to 2026-06-30, 10 of the 100 papers of the window") for c in (x.text for x in g.claims)
    )


def test_lowest_is_claimed_only_when_clearly_lowest_on_both_measures():
    g = gold_of(*momentum_world())  # B: momentum 0.5 against A's 2.0, lowest on titles and abstracts
    assert any("had the lowest momentum" in c.text and "sparse attention" in c.text for c in g.claims)
    tied = gold_of(*momentum_world(n_future_a=10, n_future_b=20))  # A and B both at 1.74: a tie
    assert not any("had the lowest momentum" in c.text for c in tied.claims)


def test_task_options_and_names_without_a_domain_word_keep_their_titles():
    av = sig(0, "audio-video generation", ["Ovi: Twin Backbone Cross-Modal Fusion for Audio-Video Generation"], domain=VISUAL)
    assert on_domain_title(av, av.details["representative_titles"][0])
    dpo = sig(1, "DPO", ["α-DPO: Adaptive Reward Margin is What DPO Needs"], domain="llm_finetuning_post_training")
    assert "α-DPO" in direction_text(dpo)

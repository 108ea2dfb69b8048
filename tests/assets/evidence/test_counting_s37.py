"""The planning count's s37 rules (assets/evidence/building_on.py, approaches.py, roles.yaml):
negation, breakage and failure framing, enumerations with parenthetical expansions, study framing
in the abstract, wrong-sense and wrong-role foils, contest option sets and exemplars."""

from __future__ import annotations

from datetime import date

import pytest

from assets.evidence.approaches import DOMINANT_SHARE, FILLER_SHARE, MemberUse, contest, exemplars, load_roles
from assets.evidence.building_on import Matcher, builds_on, builds_on_sentence, study_paper
from tests.factories import screened_paper

ROLES = {r.role_id: r for r in load_roles()}
DPO = Matcher(names=["DPO", "Direct Preference Optimi[sz]ation"])


def member(role: str, mid: str) -> Matcher:
    return next(m for m in ROLES[role].members if m.member_id == mid).matcher()


def counts(role: str, mid: str, sentence: str, title: str = "A method") -> bool:
    return bool(builds_on(title, sentence, member(role, mid)))


@pytest.mark.parametrize(
    "sentence",
    [
        # an enumeration whose items carry parenthetical expansions, the acronym inside them too
        "We also explore mitigation via Supervised Fine-Tuning (SFT), Direct Preference Optimization (DPO), and ORPO (Odds Ratio Preference Optimization).",
        "We compare SFT, DPO, and ORPO on three models.",
        "We reproduce and compare several alignment methods including SFT and the popular pairwise loss DPO.",
        "We add no reward model and no DPO stage to the pipeline.",
        "In this paper, we show that directly applying DPO to multi-turn data causes the margins to collapse and training to fail.",
    ],
)
def test_compared_negated_and_replaced_methods_do_not_count(sentence):
    assert not builds_on_sentence(sentence, DPO)


@pytest.mark.parametrize(
    "sentence",
    [
        "We train the policy with Direct Preference Optimization (DPO) on our preference pairs.",
        "We use DPO, a simple offline method, for alignment.",
        "Our method (based on DPO) is simple, fast, and strong.",
    ],
)
def test_real_uses_with_parentheses_and_appositions_still_count(sentence):
    assert builds_on_sentence(sentence, DPO)


def test_study_framing_in_the_abstract_makes_a_study_paper():
    assert study_paper("Not All Queries Need Help", "We present a systematic empirical study across three benchmarks.")
    assert study_paper("Credit Assignment in RL", "We survey 47 methods published between 2024 and 2026.")
    assert study_paper("Masking or Mitigating? Deconstructing the Impact of Query Rewriting", "")
    # a method paper with a pilot study or an analysis section is not a study paper; nor a question title
    assert not study_paper("ATLAS", "We propose EvoDPO. We provide a theoretical regret analysis.")
    assert not study_paper("Can Blindfolded LLMs Still Trade?", "We trade using a PPO policy.")
    assert not study_paper("Rewards as Labels: Revisiting RLVR from a Classification Perspective", "")


def test_an_alternative_to_a_method_is_not_built_on_it():
    assert not counts("weight_adaptation", "full", "We propose HypeAdapter, an efficient alternative to full fine-tuning.")
    assert counts("weight_adaptation", "full", "We apply full fine-tuning to the 7B model on our corpus.")


@pytest.mark.parametrize(
    "role,mid,sentence",
    [
        (
            "generative_objective",
            "consistency",
            "To stabilise training we propose a forward-backward consistency training strategy.",
        ),
        (
            "sampling_acceleration",
            "distill",
            "We design a three-phase distillation framework that transfers the original VAE decoder.",
        ),
        (
            "sampling_acceleration",
            "distill",
            "We keep velocity prediction and add no teacher model, distillation stage, or auxiliary loss.",
        ),
        (
            "generator_backbone",
            "unet",
            "We detect copy-move forgery from the attention graphs of a pretrained Stable Diffusion U-Net.",
        ),
        (
            "latent_space",
            "pixel",
            "Moreover, we apply a pixel-space supervision to reduce blur caused by the latent diffusion model.",
        ),
        (
            "latent_space",
            "semantic",
            "We propose a diffusion SR framework conditioned on features from a pre-trained DINOv3 encoder.",
        ),
        ("test_time_search", "mcts", "We use MCTS to synthesise safety alignment data for our reasoning model."),
        (
            "agent_scaffold",
            "plan_execute",
            "We set up two complementary settings for our agents, User-Agent and Planner-Executor.",
        ),
        ("reward_signal", "prm", "We introduce CF-GRPO, a process-level reward framework for our video reasoning model."),
        (
            "reward_signal",
            "orm",
            "We derive a Bradley-Terry preference model objective that generalises the DPO loss for our LLM.",
        ),
        (
            "query_reformulation",
            "decompose",
            "We introduce a grouping strategy that clusters sub-queries by token similarity for retrieval.",
        ),
        (
            "test_time_search",
            "sc",
            "We propose a debate framework for reasoning that keeps responses that disagree with the majority vote.",
        ),
    ],
)
def test_wrong_sense_and_wrong_role_mentions_do_not_count(role, mid, sentence):
    assert not counts(role, mid, sentence)


@pytest.mark.parametrize(
    "role,mid,sentence",
    [
        ("generative_objective", "consistency", "We train consistency models for one-step image generation."),
        (
            "sampling_acceleration",
            "distill",
            "We apply distribution matching distillation to obtain a four-step video generator.",
        ),
        ("generator_backbone", "unet", "We build our image generator on a U-Net denoiser with cross-attention."),
        ("latent_space", "pixel", "We train our diffusion model directly in pixel space, so no autoencoder is needed."),
        (
            "query_reformulation",
            "decompose",
            "We use an LLM to decompose each multi-hop question into sub-questions answered in turn.",
        ),
        ("reward_signal", "prm", "We train a process reward model to score each step of our LLM's reasoning."),
    ],
)
def test_the_real_uses_still_count_after_the_s37_foils(role, mid, sentence):
    assert counts(role, mid, sentence)


def _use(mid: str, recent: int) -> MemberUse:
    m = next(m for m in ROLES["policy_optimisation"].members if m.member_id == mid)
    return MemberUse(member=m, paper_ids=[f"{mid}{i}" for i in range(recent)], recent_ids=[f"{mid}{i}" for i in range(recent)])


def test_fillers_are_dropped_and_a_dominated_role_is_no_contest():
    # ORPO and KTO with under FILLER_SHARE of GRPO's recent use are fillers; three options remain
    uses = [_use("grpo", 200), _use("dpo", 110), _use("ppo", 23), _use("kto", 3), _use("orpo", 3)]
    assert 3 < FILLER_SHARE * 200
    assert [u.member.member_id for u in contest(uses)] == ["grpo", "dpo", "ppo"]
    # fillers gone, fewer than three options: no task (LoRA against prompt tuning and full fine-tuning)
    assert contest([_use("grpo", 230), _use("dpo", 16), _use("ppo", 11)]) == []
    # the runner-up under DOMINANT_SHARE of the leader: the answer is read off the pre-cutoff counts
    assert 20 < DOMINANT_SHARE * 120
    assert contest([_use("grpo", 120), _use("dpo", 20), _use("ppo", 15)]) == []
    assert len(contest([_use("grpo", 25), _use("dpo", 10), _use("ppo", 4)])) == 3
    # a leader with several times the runner-up's recent use is the default, not a bet (s38 reading: the
    # DiT backbone 166 vs 44, VAE latents 50 vs 14, the dense retriever 39 vs 11 before the cutoff)
    for lead, runner in ((166, 44), (50, 14), (39, 11)):
        assert contest([_use("grpo", lead), _use("dpo", runner), _use("ppo", runner)]) == []
    # ... while a runner-up with over a third of the leader's use is a live contest (RLVR 7 vs PRM 5)
    assert len(contest([_use("grpo", 79), _use("dpo", 44), _use("ppo", 28)])) == 3


def test_exemplars_are_papers_whose_abstract_says_they_use_the_approach():
    lora = next(m for m in ROLES["weight_adaptation"].members if m.member_id == "lora").matcher()
    attack = screened_paper(
        "a", "Backdoors in LoRA adapters", "We propose a backdoor attack against LoRA adapters.", date(2025, 12, 1)
    )
    use = screened_paper("b", "Domain LoRA for Law", "We fine-tune a legal assistant with LoRA adapters.", date(2025, 11, 1))
    other = screened_paper("c", "A legal assistant", "We fine-tune the model using LoRA on court rulings.", date(2025, 12, 2))
    shown = exemplars([other, attack, use], {"a": attack.title, "b": use.title, "c": "We fine-tune ..."}, lora)
    assert [p.arxiv_id for p in shown] == ["b", "c", "a"]


@pytest.mark.parametrize(
    "sentence",
    [
        "We show that LoRA-based adaptation achieves calibration parity with (and in some tasks exceeds) full fine-tuning.",
        "We show that standard full-parameter fine-tuning induces parameter changes that are too small to survive quantization.",
    ],
)
def test_parity_and_too_small_claims_are_comparisons(sentence):
    assert not counts("weight_adaptation", "full", sentence)

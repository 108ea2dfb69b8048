"""The planning count's s39 rules (blind reading seed 3840; assets/evidence/roles.yaml, approaches.py):
approaches counted by their meaning (process rewards, the DDPM objective), inverse and off-topic senses
(GAN detectors, classification VAEs, vector-quantised VAEs), exemplars that illustrate their own option,
and the new roles whose pre-cutoff contest was open."""

from __future__ import annotations

from datetime import date

from assets.evidence.approaches import exemplars, load_roles
from assets.evidence.building_on import builds_on
from tests.factories import screened_paper

ROLES = {r.role_id: r for r in load_roles()}


def member(role: str, mid: str):
    return next(m for m in ROLES[role].members if m.member_id == mid).matcher()


def test_process_rewards_count_for_the_process_reward_option_by_meaning():
    prm = member("reward_signal", "prm")
    # SmartSearch / WebArbiter / HISR (window papers the s38 reader found missed)
    llm = "Search agents built on LLMs issue poor queries."  # the role's context: LLM post-training
    assert builds_on("SmartSearch: Process Reward-Guided Query Refinement for Search Agents", llm, prm)
    assert builds_on("WebArbiter: A Principle-Guided Reasoning Process Reward Model for Web Agents", llm, prm)
    assert builds_on("A method", "We introduce WebArbiter, a reasoning-first WebPRM for LLM agents.", prm)
    # a hand-built "process-level reward framework" is still not the option (s37 labels)
    assert not builds_on("A method", "We introduce CF-GRPO, a process-level reward framework for our video reasoning model.", prm)


def test_the_ddpm_objective_counts_by_its_other_names():
    ddpm = member("generative_objective", "ddpm")
    assert builds_on("A method", "We train a denoising diffusion model with v-prediction for image generation.", ddpm)
    assert builds_on("A method", "Our generator is a diffusion probabilistic model trained on satellite images.", ddpm)


def test_gan_detectors_and_attacks_are_not_gan_training():
    gan = member("generative_objective", "gan")
    assert builds_on("Deepfake Detection with Frequency Cues", "We train a GAN-based detector for generated faces.", gan) is None
    assert builds_on("A method", "We use a GAN discriminator to detect deepfakes in video.", gan) is None
    assert builds_on("A method", "We train a GAN generator for high-resolution image synthesis.", gan)


def test_off_topic_and_quantised_vaes_are_not_continuous_latents():
    vae = member("latent_space", "vae")
    assert builds_on("Multiscale Vector-Quantized Variational Autoencoder for Tokenization", "", vae) is None
    assert builds_on("A beta-VAE for Alzheimer's Disease Classification", "We use a VAE for generation of features.", vae) is None
    assert builds_on("A method", "Our diffusion model is trained in the latent space of a pretrained VAE.", vae)


def test_an_exemplar_whose_title_names_another_option_comes_last():
    role = ROLES["retriever"]
    bm25 = member("retriever", "bm25")
    others = tuple(m.matcher() for m in role.members if m.member_id != "bm25")
    quester = screened_paper(
        "q",
        "QUESTER: Query Specification for Generative Retrieval",
        "We use BM25 keyword search as the index.",
        date(2025, 12, 1),
    )
    plain = screened_paper("p", "Legal search at scale", "We use BM25 as our first-stage retriever.", date(2025, 11, 1))
    shown = exemplars([quester, plain], {"q": "We use BM25 ...", "p": "We use BM25 ..."}, bm25, others)
    assert [p.arxiv_id for p in shown] == ["p", "q"]
    # without the other options the given order is kept within a tier
    assert [p.arxiv_id for p in exemplars([quester, plain], {}, bm25)] == ["q", "p"]


def test_retrieval_control_options_are_exclusive_controllers():
    agentic, iterative, adaptive = (member("retrieval_control", m) for m in ("agentic", "iterative", "adaptive"))
    rl_loop = "We train a search agent with reinforcement learning to perform multi-round retrieval."
    assert builds_on("A method", rl_loop, agentic)
    assert builds_on("A method", rl_loop, iterative) is None  # a policy-driven loop is the agentic option
    assert builds_on("A method", "We propose a prompted iterative retrieval pipeline for multi-hop QA.", iterative)
    # "dynamic retrieval" of KV caches or attention heads is no retrieval gate
    assert builds_on("HeteroCache: A Dynamic Retrieval Approach to KV Cache Compression", "", adaptive) is None


def test_score_distillation_sampling_is_no_few_step_student():
    dmd = member("few_step", "dmd")
    assert builds_on("A method", "We optimise a 3D Gaussian scene with score distillation sampling (SDS).", dmd) is None
    assert builds_on("A method", "We distil the teacher into a 4-step student with distribution matching distillation.", dmd)

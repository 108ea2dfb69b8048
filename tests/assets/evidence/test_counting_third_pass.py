"""Issue 32, third pass: the planning counting rules added for the blind reading's error classes
(assets/evidence/building_on.py, roles.yaml `foils`/`context`), one test per rule."""

from assets.evidence.approaches import load_roles
from assets.evidence.building_on import Matcher, builds_on, builds_on_sentence, study_paper

MEMBER = {(r.role_id, m.member_id): m for r in load_roles() for m in r.members}
KTO = Matcher(names=["KTO"])
PPO = Matcher(names=["PPO"])
QE = Matcher(phrases=["query expansion"])


def test_a_study_paper_builds_on_nothing_it_evaluates():
    for title in (
        "ToolPRMBench: Evaluating and Advancing Process Reward Models for Tool-Using Agents",
        "Mechanistic Analysis of Alignment Algorithms in Language Models",
        "RMGAP: Benchmarking the Generalization of Reward Models",
        "A Survey of Reinforcement Learning for LLM Reasoning",
    ):
        assert study_paper(title), title
    assert builds_on("Mechanistic Analysis of Alignment Algorithms", "We fine-tune models with KTO.", KTO) is None
    # a method paper keeps its count
    assert not study_paper("Segmental Advantage Estimation: Enhancing PPO for Long-Context Reasoning")
    assert builds_on("Enhancing PPO for Long-Context Reasoning", "We train with PPO.", PPO)


def test_an_enumerated_item_is_not_a_use():
    assert not builds_on_sentence(
        "We present a systematic mechanistic analysis of six preference-optimization methods: PPO, DPO, SimPO, ORPO, GRPO, "
        "and KTO across three open-weight model families.",
        KTO,
    )
    assert not builds_on_sentence(
        "In this work, we introduce RoutIR, a package that wraps arbitrary retrieval methods, including first stage retrieval, "
        "reranking, query expansion, and result fusion.",
        QE,
    )
    # an apposition or a pair is no enumeration; a first item followed by a long clause is none either
    assert builds_on_sentence("We train with PPO, a clipped actor-critic method, and release the code.", PPO)
    assert builds_on_sentence(
        "We instantiate TSR with best-of-N, beam, and shallow lookahead search, and pair it with PPO, achieving up to 15% gains.",
        PPO,
    )


def test_foil_senses_do_not_count():
    solver = MEMBER[("sampling_acceleration", "solver")].matcher()
    assert not builds_on_sentence("We propose a training-free detector leveraging DDIM inversion of the input image.", solver)
    assert builds_on_sentence("We use DDIM with 10 steps for fast sampling.", solver)
    unet = MEMBER[("generator_backbone", "unet")].matcher()
    assert not builds_on_sentence("Our system learns to segment nanoparticles using a self-attention U-Net architecture.", unet)
    vae = MEMBER[("latent_space", "vae")].matcher()
    assert not builds_on("ViBE: Visual-to-M/EEG Brain Encoding via Spatio-Temporal VAE", "We model brain responses.", vae)
    cache = MEMBER[("sampling_acceleration", "cache")].matcher()
    assert not builds_on_sentence("We present a streaming pipeline with optional text-prompt caching.", cache)
    assert not builds_on_sentence("We optimize attention with key-value (KV) caching to reduce inference time.", cache)
    assert builds_on_sentence("We propose feature caching that reuses activations across timesteps.", cache)
    pixel = MEMBER[("latent_space", "pixel")].matcher()
    assert not builds_on_sentence("We train a background noise removal module in the pixel space.", pixel)
    assert builds_on_sentence("We propose a pixel-space diffusion model that needs no autoencoder.", pixel)
    # a foil sense in one sentence does not hide a use in another
    sc = MEMBER[("test_time_search", "sc")].matcher()
    assert builds_on(
        "CoAct", "Rewards are sparse. CoAct leverages self-consistency over sampled answers to pick reliable data.", sc
    )


def test_repa_is_not_generation_on_encoder_features():
    semantic = MEMBER[("latent_space", "semantic")].matcher()
    assert not builds_on_sentence("We use REPA to align the denoiser's hidden states with DINOv2-free targets.", semantic)


def test_a_paper_off_the_roles_topic_does_not_count():
    ppo = MEMBER[("policy_optimisation", "ppo")].matcher()
    game = "We train tower-defence agents with PPO and release the environment."
    assert builds_on("TowerMind: A Tower Defence Game Environment", game, ppo) is None
    assert builds_on("Stable RL for reasoning", "We post-train language models with PPO.", ppo)


def test_a_role_is_offered_only_in_domains_whose_teams_make_the_choice():
    roles = {r.role_id: r for r in load_roles()}
    # "RL post-training of language models" posed in the RAG domain read as misplaced (blind reading seed 3211)
    assert "rag_and_retrieval_structuring" not in roles["reward_signal"].domains
    assert "rag_and_retrieval_structuring" in roles["retriever"].domains

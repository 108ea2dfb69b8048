"""The planning count's s38 rules (blind reading seed 3738; assets/evidence/building_on.py, roles.yaml):
a redefined acronym, a foil sense in the title, attack and study framing, a limitation attributed to a
method, the sentence-level context of a method with a life outside the role, one domain per role and
options that are alternatives, not layers."""

from __future__ import annotations

import pytest

from assets.evidence.approaches import load_roles
from assets.evidence.building_on import builds_on, study_paper

ROLES = {r.role_id: r for r in load_roles()}


def member(role: str, mid: str):
    return next(m for m in ROLES[role].members if m.member_id == mid).matcher()


def test_an_acronym_the_paper_defines_as_something_else_does_not_count():
    prm = member("reward_signal", "prm")
    redefined = (
        "To address these challenges, we introduce a novel reward modeling paradigm for LLMs: Probabilistic Reward "
        "Model (PRM). We train our PRM with an ordinal loss."
    )
    assert builds_on("Learning Ordinal Probabilistic Reward from Preferences", redefined, prm) is None
    # the approach's own expansion, or no definition at all, still counts
    assert builds_on("A method", "We train a Process Reward Model (PRM) and use the PRM to guide RL of LLMs.", prm)
    assert builds_on("Step-level PRMs for LLM Reinforcement Learning", "We use PRMs to train.", prm)


def test_a_foil_sense_in_the_title_is_the_papers_sense():
    unet = member("generator_backbone", "unet")
    sentence = "Our architecture combines a U-Net backbone with temporal embeddings for diffusion generation."
    assert builds_on("MTFlow: Time-Conditioned Flow Matching for Microtubule Segmentation", sentence, unet) is None
    assert builds_on("Fast Image Generation", sentence, unet)


@pytest.mark.parametrize(
    "title,abstract",
    [
        ("Depth-Dependent Indirect Prompt Injection in Tool-Calling ReAct Agents", "We measure injection depth."),
        ("A method", "We study reward-hacking monitors in ReAct-style agents acting in ALFWorld and WebShop."),
        ("A method", "In a study of 3,000 agent runs, we observe that ReAct-style agents produce distinct action sequences."),
        ("A method", "We attribute this limitation to ReAct-style prompting, which passively accumulates per-step records."),
    ],
)
def test_attacks_studies_and_blamed_methods_are_not_built_on(title, abstract):
    assert builds_on(title, abstract, member("agent_scaffold", "react")) is None


def test_an_agent_built_on_react_still_counts():
    assert builds_on(
        "A method", "We build a ReAct-style agent that plans chemistry experiments.", member("agent_scaffold", "react")
    )


def test_explaining_titles_are_studies_but_understanding_tasks_are_not():
    assert study_paper("M2-PALE: A Framework for Explaining Multi-Agent MCTS--Minimax Hybrids via Process Mining and LLMs")
    assert not study_paper("Video Understanding with Reinforcement Learning")


@pytest.mark.parametrize(
    "sentence",
    [
        "We construct a GNN graph from reasoning embeddings and trade using PPO-DSR policy.",
        "We design a hierarchical deep reinforcement learning approach based on proximal policy optimization (PPO), "
        "where the upper layer learns UAV routing.",
    ],
)
def test_ppo_outside_model_post_training_does_not_count(sentence):
    # the paper mentions LLMs elsewhere; the counted sentence itself trains a control policy
    abstract = f"Large language models plan the mission. {sentence}"
    assert builds_on("An Agentic Framework with LLMs", abstract, member("policy_optimisation", "ppo")) is None


def test_ppo_post_training_of_a_language_model_counts():
    assert builds_on(
        "A method", "We fine-tune the LLM with PPO on rollouts from our simulator.", member("policy_optimisation", "ppo")
    )


@pytest.mark.parametrize(
    "sentence",
    [
        "We design an MCTS-guided tool-use knowledge distillation mechanism for our reasoning model.",
        "Our method optimizes these edits with a Monte Carlo Tree Search (MCTS) optimizer at test-time.",
    ],
)
def test_mcts_for_distillation_or_attack_edits_is_not_test_time_search(sentence):
    assert builds_on("A method", sentence, member("test_time_search", "mcts")) is None


def test_every_role_is_asked_in_one_domain():
    # the same role in two domains is the same question released twice (s38 reading)
    assert all(len(r.domains) == 1 for r in ROLES.values())


def test_the_scaffold_role_offers_no_layer_that_composes_with_react():
    ids = {m.member_id for m in ROLES["agent_scaffold"].members}
    assert "reflexion" not in ids and "tree_search" not in ids


def test_the_approachs_own_expansion_in_lower_case_is_no_redefinition():
    abstract = "We optimize the foundational LLM through a proximal policy optimization (PPO) approach."
    assert builds_on("RLHF Fine-Tuning of LLMs", abstract, member("policy_optimisation", "ppo"))


def test_diagnostic_studies_and_observations_are_not_uses():
    ce = member("reranker", "cross_encoder")
    assert study_paper("Diagnosing LLM Reranker Behavior Under Fixed Evidence Pools")
    assert study_paper("A title", "This paper presents a systematic diagnostic study of cross-encoder rerankers.")
    sentence = "While token compression works for bi-encoders, we empirically observed that it may be ineffective for cross-encoder rerankers."
    assert builds_on("Layer-wise Token Compression for Efficient Retrieval", sentence, ce) is None
    assert builds_on("A method", "Our RAG pipeline reranks the retrieved passages with a cross-encoder.", ce)


def test_a_medical_diagnosis_title_is_no_study():
    assert not study_paper("Retrieval-Augmented Generation for Medical Diagnosis")


@pytest.mark.parametrize(
    "title",
    [
        "The Self-Correction Illusion: LLMs Correct Others but Not Themselves",
        "The Cost of Consensus: Isolated Self-Correction Prevails Over Unguided Homogeneous Multi-Agent Debate",
    ],
)
def test_finding_titles_about_a_method_are_not_uses(title):
    assert builds_on(title, "Large reasoning models are studied.", member("test_time_search", "revision")) is None


def test_mcts_in_an_alignment_paper_is_not_test_time_search():
    mcts = member("test_time_search", "mcts")
    assert builds_on("COMPASS: Cognitive MCTS-Guided Process Alignment for Safe Search Agents", "We align agents.", mcts) is None
    assert builds_on("ToolTree: Efficient LLM Agent Tool Planning via Dual-Feedback Monte Carlo Tree Search", "", mcts)


def test_adversarial_training_against_attacks_is_no_gan():
    gan = member("generative_objective", "gan")
    assert builds_on("A method", "We train the image generator with adversarial training against attacks.", gan) is None
    assert builds_on("Robustness of Diffusion Classifiers", "We use adversarial training for the generator.", gan) is None
    assert builds_on("Fast Image Synthesis", "We train the generator with an adversarial loss from a GAN discriminator.", gan)

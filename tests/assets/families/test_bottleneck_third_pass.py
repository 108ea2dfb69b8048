"""Issue 32, third pass: the bottleneck counting rules added for the blind reading's error classes
(assets/families/bottleneck/statements.py, causes.yaml `umbrella`/`defines`/`formerly`, the
mined-theme join), one test per rule."""

from assets.evidence.bottlenecks import merge_causes, word_tokens
from assets.evidence.causes import current_name, defines_subject, load_causes, umbrella
from assets.families.bottleneck.statements import contribution_statements, states_reduction, supplies


def keys(*phrases: str) -> list[tuple[str, ...]]:
    return [tuple(word_tokens(p)) for p in phrases]


def cause_keys(name: str) -> list[tuple[str, ...]]:
    return keys(*dict(load_causes())[name])


def counts(abstract: str, name: str, title: str = "") -> bool:
    return any(states_reduction(s, cause_keys(name), supplies(name)) for s in contribution_statements(abstract, title))


def test_a_study_paper_reduces_nothing_but_a_missing_benchmark():
    gap = "Existing agents suffer from imprecise GUI grounding. To address this gap, we introduce GUI-CEval, a benchmark."
    assert not counts(gap, "imprecise GUI element grounding", "GUI-CEval: A Comprehensive Chinese Benchmark for GUI Agents")
    assert counts(gap, "imprecise GUI element grounding", "GUI-R2: Grounding GUI Agents with Reinforcement Learning")
    supply = "We introduce a realistic benchmark of 500 personal-app tasks, addressing the lack of realistic benchmarks."
    assert counts(supply, "lack of realistic evaluation benchmarks", "MCP-Persona: Benchmarking LLM Agents")


def test_a_key_before_a_setting_noun_is_the_test_setting():
    ood = (
        "Across four attackers, six defender methods, and both in-distribution and out-of-distribution (OOD) evaluation, "
        "we find that our defender improves belief modelling."
    )
    assert not counts(ood, "poor generalization under distribution shift")
    assert counts("We propose X, which improves generalization to unseen tasks.", "poor generalization under distribution shift")


def test_a_result_report_counts_only_with_a_verb_acting_on_the_limitation():
    outcome = "Our experiments demonstrate that SAE achieves superior performance, with marked improvements in sample efficiency."
    assert not counts(outcome, "expensive rollouts")
    acting = "Extensive empirical results demonstrate that BNRM substantially mitigates reward over-optimization."
    assert counts(acting, "reward hacking")


def test_own_prior_work_and_theoretical_analyses_are_no_reductions():
    prior = (
        "Single-turn agents suffer from a limited context window. To address these limitations, we previously proposed "
        "TableMind, which mitigates the limited context window."
    )
    assert not counts(prior, "limited context window")
    analysis = "We further provide a theoretical analysis showing that dense rewards can mitigate sparse rewards."
    assert not counts(analysis, "sparse outcome rewards")


def test_a_mined_theme_joins_a_cause_only_through_keys_holding_its_aliases():
    mined = {
        "name": "length bias",
        "key": "length bias",
        "aliases": ["length bias", "reward model bias", "visual bias"],
        "paper_ids": ["a", "b"],
        "quotes": ["qa", "qb"],
        "quote_papers": ["a", "b"],
        "mention_ids": ["a", "b"],
    }
    cause = {"name": "length bias in reward models", "aliases": keys("length bias"), "stated": {"x": "sx"}, "mentions": {"x"}}
    out = merge_causes([mined], [cause], {p: {"e"} for p in "abx"}, {p: {"n"} for p in "abx"}, True, 8)
    assert [t["name"] for t in out] == ["length bias in reward models"]
    assert out[0]["aliases"] == ["length bias"]  # "reward model bias" and "visual bias" did not join


def test_umbrella_causes_and_what_they_absorb_are_no_candidates():
    assert umbrella("high computational cost")
    mined = {
        "name": "high computational costs",
        "key": "high computational cost",  # mined keys are word_tokens: singular
        "aliases": ["high computational cost"],
        "paper_ids": ["a"],
        "quotes": ["qa"],
        "quote_papers": ["a"],
        "mention_ids": ["a"],
    }
    cause = {"name": "high computational cost", "aliases": keys("computational cost"), "stated": {"x": "s"}, "mentions": {"x"}}
    assert merge_causes([mined], [cause], {p: {"e"} for p in "ax"}, {p: {"n"} for p in "ax"}, True, 8) == []


def test_a_cause_that_is_the_subjects_own_definition_is_no_candidate():
    assert defines_subject("cost of full-parameter fine-tuning", "LoRA; low-rank adaptation")
    assert defines_subject("cost of full-parameter fine-tuning", "parameter-efficient fine-tuning")
    assert not defines_subject("cost of full-parameter fine-tuning", "reinforcement learning")


def test_near_duplicate_causes_are_merged():
    names = dict(load_causes())
    assert "slow sequential decoding" not in names and "slow iterative sampling" not in names
    assert (
        current_name("slow sequential decoding")
        == current_name("slow iterative sampling")
        == "slow iterative sampling or decoding"
    )
    k = cause_keys("slow iterative sampling or decoding")
    assert k and keys("autoregressive decoding")[0] in k and keys("many denoising steps")[0] in k

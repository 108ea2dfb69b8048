"""Issue 32 rules of the bottleneck family: cause lexicon integrity, one-word labels never
candidates, counting only statements that state a reduction (with foils), the opportunity
sentences, and a hedge pick scoring 0."""

from __future__ import annotations

from assets.evidence.bottlenecks import merge_causes, word_tokens
from assets.evidence.causes import cause_themes, joins, lexicon_problems, load_causes
from assets.families.bottleneck import multi_word
from assets.families.bottleneck.opportunity import enabled_sentences
from assets.families.bottleneck.statements import Statement, contribution_statements, states_reduction


def keys(*phrases: str) -> list[tuple[str, ...]]:
    return [tuple(word_tokens(p)) for p in phrases]


def stmt(own: str, antecedent: str = "") -> Statement:
    return Statement(own, antecedent, tuple(word_tokens(f"{antecedent} {own}")))


# ---------------------------------------------------------------------------- the cause lexicon


def test_the_shipped_cause_lexicon_is_sound():
    causes = load_causes()
    assert len(causes) >= 40
    assert lexicon_problems() == []
    assert all(len(name.split()) >= 2 for name, _ in causes)
    names = {name for name, _ in causes}
    for expected in ("sparse outcome rewards", "reward hacking", "length bias in reward models", "prompt injection"):
        assert expected in names


def test_lexicon_problems_catch_one_word_names_and_shared_aliases():
    bad = (("bias", ("bias",)), ("reward hacking", ("reward hacking", "noisy reward")), ("noisy rewards", ("noisy reward",)))
    problems = lexicon_problems(bad)
    assert any("one-word cause name" in p for p in problems)
    assert any("noisy reward" in p and "both" in p for p in problems)


def test_cause_themes_need_stating_papers_and_record_mentions():
    rows = [
        ("p1", True, "RL agents suffer from sparse rewards.", word_tokens("RL agents suffer from sparse rewards.")),
        ("p2", True, "Credit assignment remains a challenge.", word_tokens("Credit assignment remains a challenge.")),
        (
            "p3",
            True,
            "Training is hindered by sparse outcome rewards.",
            word_tokens("Training is hindered by sparse outcome rewards."),
        ),
        ("p4", False, "We use sparse rewards.", word_tokens("We use sparse rewards.")),
    ]
    causes = (("sparse outcome rewards", ("sparse outcome rewards", "sparse reward", "credit assignment")),)
    [t] = cause_themes(rows, 3, causes)
    assert set(t["stated"]) == {"p1", "p2", "p3"} and t["mentions"] == {"p1", "p2", "p3", "p4"}
    assert cause_themes(rows, 4, causes) == []


def test_mined_one_word_themes_are_dropped_unless_a_cause_holds_them():
    def mined(name: str, key: str, pids: list[str]) -> dict:
        return {
            "name": name,
            "key": key,
            "aliases": [key],
            "paper_ids": pids,
            "quotes": [f"q {p}" for p in pids],
            "quote_papers": pids,
            "mention_ids": pids,
        }

    themes = [
        mined("bias", "bias", ["a", "b", "c"]),
        mined("high latency", "latency", ["a"]),  # one-word key: dropped
        mined("tool output noise", "tool output noise", ["d", "e", "f"]),
        mined("sparse reward signals", "sparse reward signal", ["g", "h"]),  # holds the cause's alias: joins it
    ]
    cause = {"name": "sparse outcome rewards", "aliases": keys("sparse reward"), "stated": {"x": "sx"}, "mentions": {"x"}}
    records_of: dict = {p: {"ev"} for p in "abcdefghx"}
    out = merge_causes(themes, [cause], records_of, records_of, True, 8)
    names = [t["name"] for t in out]
    assert names == ["sparse outcome rewards", "tool output noise"]
    assert out[0]["paper_ids"] == ["x", "g", "h"] or set(out[0]["paper_ids"]) == {"x", "g", "h"}
    assert joins(keys("sparse reward signal"), keys("sparse reward")) and not joins(keys("reward"), keys("sparse reward"))


def test_one_word_labels_are_never_candidates():
    assert not multi_word("bias") and not multi_word("Hallucinations") and not multi_word("lack of data")
    assert multi_word("reward hacking") and multi_word("lack of annotated data") and multi_word("high latency")


# ---------------------------------------------------------------------------- counting with foils


def test_a_statement_counts_when_it_states_it_reduces_the_limitation():
    k = keys("reward hacking", "reward over-optimization")
    assert states_reduction(stmt("We propose a method that mitigates reward hacking in RLHF."), k)
    assert states_reduction(stmt("Our verifier makes the policy robust against reward over-optimization."), k)
    # anaphora: the gap sentence names it and the contribution refers back to it
    assert states_reduction(
        stmt("To address this problem, we propose a calibrated reward.", "RLHF suffers from reward hacking."), k
    )


def test_foils_that_study_or_mention_the_limitation_do_not_count():
    k = keys("reward hacking")
    assert not states_reduction(stmt("We study reward hacking in large reasoning models."), k)  # studies it
    assert not states_reduction(stmt("We improve accuracy and analyse reward hacking in detail."), k)  # study verb between
    assert not states_reduction(
        stmt("We propose a new agent framework that improves accuracy.", "Agents suffer from reward hacking."), k
    )
    assert not states_reduction(stmt("We reduce latency by 40%; reward hacking is left to future work."), k)  # key too far
    assert not states_reduction(stmt("Existing methods mitigate hallucination."), k)  # another limitation


def test_background_sentences_are_no_statements():
    abstract = "Existing methods reduce reward hacking with ensembles. We propose X, which mitigates length bias."
    [s] = contribution_statements(abstract)
    assert states_reduction(s, keys("length bias")) and not states_reduction(s, keys("reward hacking"))


def test_the_opportunity_is_what_the_counted_paper_says_reducing_it_enabled():
    abstract = (
        "Agents suffer from sparse rewards. We propose dense process rewards that mitigate sparse rewards. "
        "This enables training agents on 100-step web tasks. Experiments show our agent outperforms baselines by 12%."
    )
    own = "We propose dense process rewards that mitigate sparse rewards."
    got = enabled_sentences(abstract, own)
    # only what it enabled: a bare score report is no opportunity (blind reading seed 3637)
    assert got == ["This enables training agents on 100-step web tasks."]


def test_a_method_step_is_no_opportunity_and_none_leaves_the_slot_empty():
    abstract = (
        "Speech translation suffers from data scarcity. We mitigate data scarcity with synthetic pairs. "
        "First, we fine-tune the LLMs with the CVSS corpus, which allows alignment. Our model outperforms baselines."
    )
    assert enabled_sentences(abstract, "We mitigate data scarcity with synthetic pairs.") == []


def test_a_paper_counts_for_the_limitation_its_first_statement_names_first():
    from assets.families.bottleneck.counting import one_limitation

    abstract = "We propose X, which reduces length bias and sycophancy under distribution shift."
    sts = contribution_statements(abstract)
    ks = [keys("distribution shift"), keys("length bias"), keys("sycophancy")]
    stated = [[j for j in range(3) if states_reduction(s, ks[j])] for s in sts]
    assert one_limitation(sts, stated, ks) == 1  # length bias, named first; not all three


# ---------------------------------------------------------------------------- hedge scoring


def test_a_bottleneck_pick_naming_several_candidates_scores_zero():
    from types import SimpleNamespace

    import assets.families  # noqa: F401  (registers the families)
    from assets.families.registry import get_family
    from assets.scorers.fta import ReferenceFTA
    from assets.validity.controls import _render
    from core.records import GoldSlot, GoldTarget
    from tests.factories import make_task

    task = make_task("bot1", "bottleneck", "What is the root bottleneck? opportunity")
    gold = GoldTarget(
        task_id="bot1",
        family="bottleneck",
        domain="llm_agent",
        cutoff=task.cutoff,
        preferred_ranking=["sparse outcome rewards", "reward hacking", "entropy collapse"],
        slots=[GoldSlot(slot="root_bottleneck", variants=["sparse outcome rewards"])],
    )
    family = get_family("bottleneck")
    [pick] = family.every_option_decision(task, gold)
    assert pick == "entropy collapse; reward hacking; sparse outcome rewards"  # alphabetical: no gold order
    embed = lambda texts: [[1.0, 0.5] for t in texts]  # noqa: E731 - every text alike: the hedge rule alone decides
    hedge = _render(task, {}, "control:every_option", decision=[pick])
    stated = _render(task, {"bottleneck": "sparse outcome rewards"}, "control:gold")
    score = lambda a: ReferenceFTA().score(SimpleNamespace(task=task, gold=gold, answer=a, embed=embed)).values["fta"]  # noqa: E731
    assert score(hedge) == 0.0
    assert score(stated) > 0.0


# ------------------------------------------- error classes of the independent reading (issue 32)


def cause_keys(name: str) -> list[tuple[str, ...]]:
    return keys(*dict(load_causes())[name])


def test_a_generic_mined_word_never_joins_a_specific_cause():
    # a mined theme keyed "length bias" with the alias "bias" joins the cause, but "bias" does not
    mined = {
        "name": "length bias",
        "key": "length bias",
        "aliases": ["length bias", "bias"],
        "paper_ids": ["a", "b"],
        "quotes": ["qa", "qb"],
        "quote_papers": ["a", "b"],
        "mention_ids": ["a", "b"],
    }
    cause = {"name": "length bias in reward models", "aliases": keys("length bias"), "stated": {"x": "sx"}, "mentions": {"x"}}
    rec: dict = {p: {"ev"} for p in "abx"}
    [out] = merge_causes([mined], [cause], rec, rec, True, 8)
    assert "bias" not in out["aliases"] and "length bias" in out["aliases"]
    k = cause_keys("length bias in reward models")
    # heterogeneous-preference bias, implicit-feedback bias, quantization scale bias: no length bias
    assert not states_reduction(
        stmt(
            "To address this, we introduce P-GRPO, which decouples advantage estimation from batch statistics.",
            "This assumption conflates distinct user reward distributions and systematically biases the policy.",
        ),
        k,
    )
    assert not states_reduction(stmt("We use macro-block scaling to reduce scale bias in MXFP4 training."), k)
    assert not states_reduction(
        stmt("We propose ImplicitRM, which learns unbiased reward models from implicit preference data."), k
    )


def test_federated_communication_cost_is_no_multi_agent_coordination_overhead():
    k = cause_keys("multi-agent coordination overhead")
    assert not states_reduction(
        stmt("This design improves personalization while significantly reducing communication cost for federated clients."), k
    )
    assert not states_reduction(
        stmt(
            "To tackle this, we propose ZorBA, a zeroth-order federated fine-tuning framework.",
            "Moreover, frequent model exchange may lead to significant communication overhead.",
        ),
        k,
    )
    # communication cost is its own cause now (issue 32 third pass), between agents or clients
    assert not states_reduction(stmt("Our protocol reduces inter-agent communication overhead by 60% in multi-agent debate."), k)
    assert states_reduction(
        stmt("Our protocol reduces inter-agent communication overhead by 60% in multi-agent debate."),
        cause_keys("communication overhead"),
    )


def test_the_key_must_be_the_object_of_the_reduction_cue():
    k = cause_keys("sparse outcome rewards")
    # a means, not the goal: "mitigates forgetting through trajectory-level reward shaping"
    assert not states_reduction(
        stmt("We propose RaPO, which explicitly mitigates forgetting through trajectory-level reward shaping."), k
    )
    assert not states_reduction(
        stmt("This work addresses reliable on-policy token-level supervision through credit assignment strategies."), k
    )
    # still counted: the key is what the cue governs
    assert states_reduction(stmt("We add a dense auxiliary reward to reduce the sparse reward problem in agentic RL."), k)
    g = cause_keys("poor generalization under distribution shift")
    assert not states_reduction(
        stmt("We introduce a Top-K divergence that stabilizes distillation under the distribution shift between contexts."), g
    )


def test_result_only_generalization_sentences_do_not_count():
    g = cause_keys("poor generalization under distribution shift")
    assert not states_reduction(
        stmt("On Qwen2.5-Math-7B, our method improves accuracy by +4.9 overall and by +5.4 on out-of-distribution benchmarks."), g
    )
    assert not states_reduction(
        stmt(
            "Experiments show consistent improvements in accuracy and efficiency, with strong generalization to unseen domains."
        ),
        g,
    )


def test_the_anaphora_path_needs_a_gap_naming_one_limitation():
    r = cause_keys("sparse outcome rewards")
    gap = (
        "This reformulation reveals two structural limitations of GRPO: likelihood-misaligned scoring, and "
        "score-insensitive credit assignment among rollouts."
    )
    assert not states_reduction(stmt("To address these limitations, we propose ConSPO, a contrastive framework.", gap), r)
    e = cause_keys("expensive rollouts")
    gap3 = "We identify three critical challenges: (1) inefficient gradient utilization, (2) sample inefficiency, (3) noise."
    assert not states_reduction(stmt("To bridge these gaps, we propose MASPO, a unified framework.", gap3), e)
    x = cause_keys("entropy collapse and insufficient exploration")
    gap_two = (
        "Supervised fine-tuning fails to align outputs with visual evidence, while existing reinforcement learning "
        "methods suffer from limited exploration."
    )
    assert not states_reduction(stmt("To address these challenges, we propose a self-consistent report generator.", gap_two), x)
    # a single named limitation still counts through the anaphor
    assert states_reduction(
        stmt("To address this issue, we propose T2-GRPO.", "Trajectory-level sparse rewards hamper credit."), r
    )


def test_a_study_that_measures_the_limitation_is_no_reduction():
    f = cause_keys("catastrophic forgetting")
    assert not states_reduction(
        stmt(
            "To address this gap, we present an empirical study adapting models to real-world Pacific datasets.",
            "Furthermore, full fine-tuning risks catastrophic forgetting.",
        ),
        f,
    )


def test_subject_aliases_put_named_variants_in_the_subject():
    from assets.families.bottleneck.subject import subject_alias_hit

    assert subject_alias_hit("GRPO", "MASPO: robust policy updates", "We extend GRPO with soft trust regions.") == "abstract"
    assert subject_alias_hit("GRPO", "Group Relative Policy Optimization for agents", "") == "title"
    # a tool named once is not the subject: one LoRA mention does not make a PEFT paper
    assert subject_alias_hit("parameter-efficient fine-tuning", "A benchmark", "We fine-tune with LoRA.") == ""
    assert subject_alias_hit("parameter-efficient fine-tuning", "FedSmoothLoRA", "") == ""  # no word boundary
    assert subject_alias_hit("parameter-efficient fine-tuning", "Sparse LoRA adapters", "") == "title"


def test_a_candidate_names_a_limitation_not_a_topic():
    """Issue 32, session 36's reading: mined keys such as "parametric knowledge" or "retrieved
    content" were candidates beside real causes; a mined theme must read as a limitation."""
    from datetime import date

    from assets.families.bottleneck.candidates import reads_as_limitation
    from core.records import Signal

    def theme(title: str, predicate: str = "") -> Signal:
        return Signal(
            signal_id=f"sig:bottleneck:{title}",
            kind="bottleneck",
            domain="d",
            cutoff=date(2025, 12, 31),
            title=title,
            summary="",
            details={"predicate": [predicate]},
        )

    assert not reads_as_limitation(theme("parametric knowledge"))
    assert not reads_as_limitation(theme("retrieved content"))
    assert reads_as_limitation(theme("sparse outcome rewards", "lexicon"))  # a curated cause
    assert reads_as_limitation(theme("lack of high-quality preference data", "lack of"))
    assert reads_as_limitation(theme("data heterogeneity")) and reads_as_limitation(theme("high memory footprint", "lexicon"))


# ---------------------------------------------------------------------------- blind reading seed 3637


def _cand(title: str, aliases: list[str]):
    from core.records import Signal

    return Signal(
        signal_id=f"sig:{title}",
        kind="bottleneck",
        domain="d",
        cutoff="2025-12-31",
        title=title,
        summary="",
        node_ids=[],
        paper_ids=[],
        details={"aliases": aliases},
    )


def test_one_phenomenon_is_never_offered_twice():
    from assets.families.bottleneck.candidates import same_phenomenon

    memory = _cand("limited long-term memory", ["long-term memory"])
    context = _cand("limited context window", ["context window"])
    assert same_phenomenon(memory, context)  # lexicon `near`
    factual = _cand("factual hallucination", ["hallucination"])
    objects = _cand("object hallucination in vision-language models", ["object hallucination"])
    assert same_phenomenon(factual, objects)  # one's phrasing holds the other's
    assert not same_phenomenon(memory, _cand("reward hacking", ["reward hacking"]))


def test_the_lexicon_states_the_causes_readers_missed():
    found = {name for name, _ in load_causes()}
    assert "entropy collapse and insufficient exploration" in found and "insufficient exploration" not in found
    c = cause_keys("entropy collapse and insufficient exploration")
    assert states_reduction(stmt("We propose X, which mitigates premature convergence of the policy."), c)
    assert states_reduction(
        stmt("Our method reduces hallucinations in preference-optimised models."), cause_keys("factual hallucination")
    )
    assert states_reduction(
        stmt("We propose Y to reduce inference latency for real-time use."), cause_keys("high inference latency")
    )
    from assets.evidence.causes import umbrella

    assert umbrella("scarcity of training data and environments")  # a catch-all: never a candidate


def test_improving_exploration_states_the_exploration_cause():
    c = cause_keys("entropy collapse and insufficient exploration")
    assert states_reduction(stmt("We propose DDE, a strategy that improves exploration at pivot states."), c)
    assert states_reduction(stmt("Our curriculum is effective for overcoming the exploration barrier."), c)


def test_too_much_of_something_is_not_its_lack():
    """A lack limitation ("insufficient exploration") is not reduced by a paper that cuts redundant
    exploration (ThoughtFold, blind reading seed 3738); a limitation that is itself an excess
    ("high inference latency") still counts after "excessive"."""
    from assets.families.bottleneck.statements import LACK_CAUSE

    explore = [tuple(word_tokens("exploration"))]
    assert LACK_CAUSE.search("entropy collapse and insufficient exploration")
    assert not LACK_CAUSE.search("high inference latency")
    assert not LACK_CAUSE.search("quantization error at low bit-width")  # an error is an excess, whatever "low" says
    assert states_reduction(stmt("We propose a bonus that addresses insufficient exploration in GRPO."), explore, lack=True)
    assert not states_reduction(stmt("We propose ThoughtFold, which reduces redundant exploration in GRPO."), explore, lack=True)
    latency = [tuple(word_tokens("latency"))]
    assert states_reduction(stmt("We propose a cache that reduces excessive latency in diffusion sampling."), latency)


def test_a_hallucination_subject_is_not_asked_for_hallucination():
    """The subject's own name holds the answer (blind reading seed 3738: "hallucination detection"
    whose gold was "factual hallucination"): the cause is a tautology there (`defines`)."""
    from assets.evidence.causes import defines_subject

    assert defines_subject("factual hallucination", "hallucination detection; hallucination mitigation")
    assert defines_subject("object hallucination in vision-language models", "visual hallucination")
    assert not defines_subject("factual hallucination", "preference optimization; DPO")


# ---------------------------------------------------------------------------- blind reading seed 3738, rules


def _lack(title: str) -> dict:
    from assets.families.bottleneck.statements import lack_object

    return {"lack": True, "lacking": lack_object(title)}


def test_the_lacking_resource_counts_only_when_increased():
    """ "exploration" names the resource "insufficient exploration" lacks: a cue that increases it
    states the limitation's reduction, a cue that cuts it or a gap naming it without a lack word
    does not (ThoughtFold, HiExp, OPE, TD-Grokking's "prefix-guided exploration")."""
    from assets.families.bottleneck.statements import resource_key

    title = "entropy collapse and insufficient exploration"
    c, kw = cause_keys(title), _lack(title)
    assert resource_key(tuple(word_tokens("exploration")), kw["lacking"])
    assert not resource_key(tuple(word_tokens("limited exploration")), kw["lacking"])
    assert states_reduction(stmt("We propose DDE, a bonus that encourages exploration in GRPO."), c, **kw)
    assert states_reduction(stmt("We propose DDE, a strategy that improves exploration at pivot states."), c, **kw)
    assert states_reduction(stmt("Our curriculum is effective for overcoming the exploration barrier."), c, **kw)
    assert states_reduction(stmt("We propose X to mitigate entropy collapse in RLVR."), c, **kw)
    assert not states_reduction(stmt("We propose X, which reduces the exploration cost of search agents."), c, **kw)
    gap = "Prior efforts, such as dense process supervision or prefix-guided exploration, suffer from task constraints."
    assert not states_reduction(stmt("To address this, we propose TD-Grokking, a decomposition framework.", gap), c, **kw)
    gap = "We identify that the mutual information bottleneck among exploration paths restricts performance."
    assert not states_reduction(stmt("To address this, we propose OPE, which partitions the solution space.", gap), c, **kw)
    gap = "However, GRPO suffers from limited exploration on hard problems."
    assert states_reduction(stmt("To address this, we propose a novelty bonus.", gap), c, **kw)
    gap = "However, this RL stage also suppresses exploratory primitives such as backtracking."
    assert states_reduction(stmt("To address this, we introduce a novelty bonus.", gap), c, **kw)


def test_a_condition_or_a_new_clause_is_not_the_reduced_limitation():
    """ "under the sparse rewards of long-horizon workflows" is the setting (ZipRL), and "To address
    this limitation, we propose DelTA, a ... credit assignment method" reduces "this limitation"
    (the cue's object ends at the new clause), not credit assignment."""
    title = "sparse outcome rewards"
    c, kw = cause_keys(title), _lack(title)
    gap = "RL approaches struggle to balance retention and token efficiency under the sparse rewards of long workflows."
    assert not states_reduction(stmt("To bridge this gap, we propose ZipRL, a compression framework.", gap), c, **kw)
    gap = "Centroids are dominated by formatting tokens, diluting sparse yet discriminative directions of high-reward responses."
    own = "To address this limitation, we propose DelTA, a discriminative token credit assignment method."
    assert not states_reduction(stmt(own, gap), c, **kw)
    assert states_reduction(stmt("We propose dense process rewards that mitigate sparse outcome rewards in RLVR."), c, **kw)
    gap = "Agentic RL suffers from sparse rewards that give no signal on hard queries."
    assert states_reduction(stmt("To address this, we propose step-level rewards.", gap), c, **kw)


def test_another_kind_of_hallucination_is_not_factual_hallucination():
    """A paper on faithfulness hallucination is not counted for "factual hallucination" (blind reading
    seed 3738, 2601.03052): the cause's `other_senses` qualify a bare alias away."""
    from assets.evidence.causes import other_senses

    unlike = other_senses("factual hallucination")
    assert "faithfulness" in unlike
    c = cause_keys("factual hallucination")
    own = "We propose a reasoning-graph method that mitigates faithfulness hallucination in RAG."
    assert not states_reduction(stmt(own), c, unlike=unlike)
    assert states_reduction(stmt("We propose a decoding method that mitigates hallucination in RAG."), c, unlike=unlike)


def test_a_limitation_that_names_the_subject_is_no_candidate():
    """The answer is never in the question: a problem head or a lacking resource that the subject
    names ("hallucination detection" / factual hallucination, "agent memory" / limited long-term
    memory); a cause about the subject's object but with another head stays ("length bias in
    reward models" for "reward models", "sparse outcome rewards" for "reward models")."""
    from assets.families.bottleneck.candidates import names_the_subject

    assert names_the_subject("factual hallucination", "hallucination detection")
    assert names_the_subject("limited long-term memory", "agent memory")
    assert names_the_subject("entropy collapse and insufficient exploration", "exploration strategies")
    assert not names_the_subject("factual hallucination", "preference alignment")
    assert not names_the_subject("length bias in reward models", "reward models")
    assert not names_the_subject("sparse outcome rewards", "reward models")
    assert not names_the_subject("quantization error at low bit-width", "post-training quantization")


def test_root_evidence_states_the_limitation_itself():
    """The root slot quotes sentences that state the limitation in its sense (`states_limitation`):
    "exploration of prompt-based learning ... remains limited" is no evidence for entropy collapse."""
    from assets.families.bottleneck.statements import states_limitation

    title = "entropy collapse and insufficient exploration"
    c, kw = cause_keys(title), _lack(title)
    assert not states_limitation("However, exploration of prompt-based learning in multilingual tasks remains limited.", c, **kw)
    assert states_limitation("GRPO suffers from entropy collapse, which limits exploration.", c, **kw)
    assert states_limitation("Existing RLVR methods show limited exploration on hard problems.", c, **kw)


def test_a_gold_with_a_tiny_share_of_the_subject_is_not_released():
    """A generic limitation that a small side-wave addresses is not the field's root bottleneck
    (blind reading seed 3738: preference alignment's hallucination, 8 of 322 papers after the rebuild)."""
    from assets.families.bottleneck.gold import MIN_GOLD_SHARE, bottleneck_problems
    from core.records import GoldTarget

    def gold(top: float, central: float) -> GoldTarget:
        numbers = {"n_gold_papers": top, "n_future_central": central, "margin_papers": 6.0, "margin": 0.7, "measures_agree": 1.0}
        return GoldTarget(task_id="t", family="bottleneck", domain="d", cutoff="2025-12-31", numbers=numbers, strength=0.5)

    assert any("subject papers" in p for p in bottleneck_problems(gold(8, 322)))
    assert bottleneck_problems(gold(15, 401)) == []
    assert 8 / 322 < MIN_GOLD_SHARE <= 12 / 436
    # a gold resting on 3 papers is a tiny sample (the 3-paper knowledge-graph task), whatever its share
    assert any("rests on 3" in p for p in bottleneck_problems(gold(3, 59)))

"""Bottleneck rules after the blind reading seed 3840: the framing gap (a method paper counts for the
problem its abstract opens on), one level of causes (symptoms, model failures and RL causes out of
level), and opportunity sentences that name the reduced limitation."""

from __future__ import annotations

from assets.evidence.bottlenecks import word_tokens
from assets.evidence.causes import load_causes, model_failure_of_method, scope_of, umbrella
from assets.families.bottleneck.candidates import SCOPE_MIN_SHARE, out_of_level
from assets.families.bottleneck.counting import framing_choice
from assets.families.bottleneck.framing import framed_position, framing_gaps
from assets.families.bottleneck.opportunity import enabled_sentences
from core.records import Signal


def keys_of(cause: str) -> list[tuple[str, ...]]:
    return [tuple(word_tokens(a)) for a in dict(load_causes())[cause]]


PISA = (
    "Diffusion Transformers are fundamental for video and image generation, but their efficiency is bottlenecked by "
    "the quadratic complexity of attention. While block sparse attention accelerates computation by attending only "
    "critical key-value blocks, it suffers from degradation at high sparsity by discarding context. In this work, we "
    "discover that attention scores of non-critical blocks exhibit distributional stability. Motivated by this key "
    "insight, we propose PISA, a training-free Piecewise Sparse Attention."
)


def test_a_method_paper_counts_for_the_problem_its_abstract_opens_on():
    contribution, gaps = framing_gaps(PISA, "PISA: Piecewise Sparse Attention Is Wiser for Efficient Diffusion Transformers")
    assert contribution.startswith("Motivated by this key insight, we propose PISA")
    assert any(framed_position(g, keys_of("quadratic attention cost")) is not None for g in gaps)


def test_a_study_or_a_problem_the_prior_method_is_used_against_is_no_framing_gap():
    # a study title reduces nothing
    assert framing_gaps(PISA, "A Survey of Sparse Attention for Diffusion Transformers") == ("", [])
    # "RAG mitigates hallucination": the purpose of the method, not its limitation
    sentence = "Retrieval-augmented generation is widely used to mitigate hallucination in large language models."
    assert framed_position(sentence, keys_of("factual hallucination")) is None
    assert framed_position("Large language models often hallucinate facts.", keys_of("factual hallucination")) is not None
    # no own-work sentence, or an own-work study: no framing gap
    assert framing_gaps("Attention has quadratic complexity. Sparse attention is popular.") == ("", [])
    study = "Attention has quadratic complexity. We present a systematic study of sparse attention kernels."
    assert framing_gaps(study) == ("", [])
    bench = "Agents suffer from sparse rewards. In this work, we construct AgentBench, a novel benchmark for agents."
    assert framing_gaps(bench) == ("", [])


def _theme(sid: str, title: str) -> Signal:
    return Signal(signal_id=sid, domain="d", cutoff="2025-12-31", kind="bottleneck", title=title, summary=title)


def test_the_gap_nearest_the_contribution_decides():
    abstract = (
        "Large language models hallucinate facts. Retrieval helps, but noisy retrieved passages mislead the generator. "
        "We propose a denoising reader that filters passages."
    )
    st = {"framing": {"p": framing_gaps(abstract)}}
    bns = [_theme("a", "factual hallucination"), _theme("b", "noisy or irrelevant retrieved passages")]
    got = framing_choice(st, "p", bns, [keys_of(b.title) for b in bns])
    assert got is not None and got[0] == 1 and got[1].startswith("We propose")


def test_symptoms_model_failures_and_rl_causes_out_of_level():
    # latency and memory are what a method costs: their causes are the candidates
    assert umbrella("high inference latency") and umbrella("high memory footprint")
    assert not umbrella("quadratic attention cost")
    # hallucination is a bottleneck of a model family, not of a method used against it
    assert model_failure_of_method("factual hallucination", "preference optimization")
    assert model_failure_of_method("factual hallucination", "RAG")
    assert not model_failure_of_method("object hallucination in vision-language models", "vision-language models")
    assert out_of_level("factual hallucination", "RAG", None)
    # RL-training causes only where the subject's own work trains with RL
    assert scope_of("sparse outcome rewards") is not None and scope_of("noisy or irrelevant retrieved passages") is None
    rl = ["We train a search agent with reinforcement learning.", "GRPO for web agents."]
    rag = ["A retriever for long documents.", "Graph-based RAG.", "Reranking passages.", "Chunking.", "RL for search."]
    assert not out_of_level("sparse outcome rewards", "reinforcement learning", rl)
    assert 1 / len(rag) < SCOPE_MIN_SHARE and out_of_level("sparse outcome rewards", "RAG", rag)
    assert not out_of_level("noisy or irrelevant retrieved passages", "RAG", rag)


def test_an_opportunity_sentence_names_the_limitation_it_reduced():
    own = "We propose PISA, a sparse attention that avoids the quadratic complexity of attention."
    abstract = (
        f"{own} This adaptation enables localized computation in sequence parallel execution. "
        "Our removal of the quadratic complexity enables minute-long video generation on one GPU."
    )
    keys = keys_of("quadratic attention cost")
    assert enabled_sentences(abstract, own, keys) == [
        "Our removal of the quadratic complexity enables minute-long video generation on one GPU."
    ]
    assert len(enabled_sentences(abstract, own)) == 2  # without keys: every enabling sentence


def test_a_dropped_alias_is_never_counted_even_if_a_stale_theme_lists_it():
    from assets.families.bottleneck.counting import theme_keys

    stale = Signal(
        signal_id="s",
        domain="d",
        cutoff="2025-12-31",
        kind="bottleneck",
        title="slow iterative sampling or decoding",
        summary="",
        details={"aliases": ["denoising step", "iterative sampling"]},
    )
    keys = theme_keys(stale)
    assert ("denoising", "step") not in keys and ("iterative", "sampling") in keys


def test_a_limitation_the_subject_exists_to_reduce_is_given_away():
    from assets.evidence.causes import defines_subject
    from assets.families.bottleneck.candidates import names_the_subject

    assert defines_subject("multi-hop evidence chaining", "multi-hop question answering")
    assert not defines_subject("multi-hop evidence chaining", "RAG")
    assert not names_the_subject("temporal inconsistency (flicker) in video generation", "video editing")
    assert defines_subject("catastrophic forgetting", "continual learning")
    assert not defines_subject("catastrophic forgetting", "instruction tuning")

"""Each error class the independent reader found in the planning counting sample
(docs/labels/independent/planning_labels_independent.jsonl, 2026-11-28) as a negative case against the
SHIPPED catalog members, with the correct use beside it, so a catalog or rule change that brings
an error class back fails here."""

import pytest

from assets.evidence.approaches import load_roles
from assets.evidence.building_on import builds_on, builds_on_sentence

MEMBER = {(r.role_id, m.member_id): m for r in load_roles() for m in r.members}


def counts(role: str, member: str, sentence: str) -> bool:
    return builds_on_sentence(sentence, MEMBER[(role, member)].matcher())


@pytest.mark.parametrize(
    "role,member,sentence",
    [
        # a rule-based reward function / a component merely called "reward model" is not a learned outcome RM
        (
            "reward_signal",
            "orm",
            "We propose LcRL, a search-augmented RL framework that integrates a language-coupled GRPO into the policy and reward models.",
        ),
        (
            "reward_signal",
            "orm",
            "Our framework supports different reward models such as rule-based outcome reward and LLM-as-a-judge.",
        ),
        (
            "reward_signal",
            "orm",
            "Using this pipeline, we train two 4B extractors: a primary Task-bank Reward model and a secondary End2End Reward model.",
        ),
        # an evaluation protocol is not a reward signal
        ("reward_signal", "judge", "We use LLM-as-a-Judge for scoring and report category-wise and overall accuracy."),
        (
            "reward_signal",
            "judge",
            "We benchmark 14 LLMs using rubric-based LLM-as-a-judge evaluators calibrated through human review.",
        ),
        # a listed example is not built on
        (
            "reward_signal",
            "prm",
            "These augmentations attach auxiliary modules such as process reward models or retrospective critics.",
        ),
        # learned sparse retrieval is not BM25; BM25 as a reference point is not built on
        ("retriever", "bm25", "We train SPLADE-style learned sparse retrieval models with our casing-aware vocabulary."),
        ("retriever", "bm25", "Within our setup, BM25 and MMR serve as interpretable reference points for lexical matching."),
        # "hybrid" without a sparse and a dense side; hybrid retrieval as a baseline
        (
            "retriever",
            "hybrid",
            "We propose GraLC-RAG, which introduces knowledge graph infusion and graph-guided hybrid retrieval.",
        ),
        ("retriever", "hybrid", "Our ranker attains nDCG@5 0.752, ahead of BM25, dense, and hybrid retrieval."),
        # a dataset that supports ColBERT-style training names it only as an example
        (
            "retriever",
            "late",
            "Our dataset is constructed to support contrastive training of neural retrievers (e.g., DPR, ColBERT-style models).",
        ),
        # an SQL-inspired prompt language is not a table store
        (
            "graph_index",
            "table",
            "We present SPL, a declarative SQL-inspired language that treats our LLM as a generative knowledge base.",
        ),
        # hierarchical retrieval over exemplar libraries, caches or taxonomies is not a summary tree
        (
            "graph_index",
            "tree",
            "We use a two-layer hierarchical index (Domain to Aspect) coupled with MMR over cached examples.",
        ),
        (
            "graph_index",
            "tree",
            "Specifically, we employ a hierarchical retrieval pipeline to derive multi-level taxonomic features.",
        ),
        # a plain chunk RAG the paper replaces
        ("graph_index", "flat", "Unlike vanilla RAG over fixed-size chunks, our memory stores events as a temporal graph."),
    ],
)
def test_error_classes_of_the_dev_labels_do_not_count(role, member, sentence):
    assert not counts(role, member, sentence)


@pytest.mark.parametrize(
    "role,member,title",
    [
        (
            "reward_signal",
            "orm",
            "Knowledge Graphs are Implicit Reward Models: Path-Derived Signals Enable Compositional Reasoning",
        ),
        ("retriever", "bm25", "To Case or Not to Case: An Empirical Study in Learned Sparse Retrieval"),
        ("graph_index", "tree", "MIRROR: A Multi-Agent Framework with Iterative Adaptive Revision and Hierarchical Retrieval"),
    ],
)
def test_a_title_naming_something_else_does_not_count(role, member, title):
    assert builds_on(title, "", MEMBER[(role, member)].matcher()) is None


@pytest.mark.parametrize(
    "role,member,sentence",
    [
        (
            "reward_signal",
            "orm",
            "We train the policy with PPO on the scores of a learned reward model fit on human preference pairs.",
        ),
        ("reward_signal", "prm", "We construct an MCTS-based process reward model to score our intermediate reasoning steps."),
        ("reward_signal", "judge", "We optimise the agent with GRPO using rubric-based rewards from an LLM judge."),
        ("retriever", "bm25", "We retrieve candidate passages with BM25 and rerank them with our cross-encoder."),
        ("retriever", "hybrid", "Our pipeline uses hybrid retrieval that fuses BM25 and dense embedding scores."),
        ("retriever", "late", "We build our index on ColBERT token embeddings to match every query token."),
        ("graph_index", "tree", "We build a RAPTOR-style tree of summaries over each document collection."),
        ("graph_index", "table", "Our agent retrieves facts with Text-to-SQL over the relational database of the shop."),
    ],
)
def test_the_real_uses_still_count(role, member, sentence):
    assert counts(role, member, sentence)

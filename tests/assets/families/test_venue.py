"""Venue outcomes (assets/evidence/venues.py) and venue projects (assets/families/venue_projects.py):
which lists give an outcome after a cutoff, how a project is described, and its home domain."""

from __future__ import annotations

from datetime import date

import numpy as np
import pytest

from assets.evidence.venues import (
    FAMILIES,
    VENUE_LISTS,
    load_venue_lists,
    norm_title,
    outcome_families,
    venue_outcome,
)
from assets.families.venue import project_name
from assets.families.venue_projects import (
    good_opener,
    home_domains,
    project_description,
    select_projects,
    split_sentences,
)
from tests.factories import VENUE_PROJECT_TITLES, make_venue_papers, screened_paper

ICLR26 = "Provably Explaining Neural Additive Models"
ACL26_SRW = "CRL-Prompt: Contrastive and Reinforcement Learning for Soft Prompt Tuning for Text Classification"
KDD26 = "VaLUH: Fast Algorithms for the Configuration Model of Vertex-Labeled Undirected Hypergraphs"


def test_titles_match_as_lower_case_alphanumerics():
    assert norm_title("ReAct: Synergizing Reasoning & Acting!") == "reactsynergizingreasoningacting"
    assert venue_outcome("provably explaining neural-additive models.", date(2025, 12, 31)).venue == "ICLR"


def test_an_outcome_counts_only_when_decided_after_the_cutoff_within_one_cycle():
    o = venue_outcome(ICLR26, date(2025, 12, 31))
    assert (o.family, o.venue, o.year, o.venue_date) == ("ICLR/ICML/NeurIPS", "ICLR", 2026, date(2026, 1, 22))
    assert venue_outcome(ICLR26, date(2026, 1, 22)) is None  # known at the cutoff: not a forecast
    assert venue_outcome(ICLR26, date(2024, 12, 31)) is None  # more than a cycle (12 months) ahead
    assert venue_outcome(KDD26, date(2025, 9, 30)).family == "SIGIR/KDD/WWW"  # KDD 2026, first cycle (2025-11-23)
    assert venue_outcome(KDD26, date(2025, 12, 31)) is None
    assert venue_outcome(ACL26_SRW, date(2025, 12, 31)) is None  # the student workshop is no ACL decision
    assert venue_outcome("A title on no list at all", date(2025, 12, 31)) is None


def test_offered_families_are_those_with_a_later_list():
    assert outcome_families(date(2025, 6, 30)) == ["ACL/EMNLP/NAACL", "ICLR/ICML/NeurIPS", "SIGIR/KDD/WWW", "CVPR/ICCV/ECCV"]
    assert outcome_families(date(2025, 9, 30)) == ["ACL/EMNLP/NAACL", "ICLR/ICML/NeurIPS", "SIGIR/KDD/WWW", "CVPR/ICCV/ECCV"]
    assert outcome_families(date(2025, 12, 31)) == ["ACL/EMNLP/NAACL", "ICLR/ICML/NeurIPS", "CVPR/ICCV/ECCV"]
    assert outcome_families(date(2026, 5, 15)) == []
    # no AAAI or IJCAI list decided in 2025-2026: never an outcome family at the registry's cutoffs
    assert all("AAAI/IJCAI" not in outcome_families(date(2025, m, 1)) for m in range(1, 13))


def test_every_list_is_shipped_and_read_once_per_cycle():
    papers = load_venue_lists()
    files = {p.file for p in papers}
    assert files == {s.file for s in VENUE_LISTS if s.kind != "submissions"}
    keys = [(p.venue, p.year, norm_title(p.title)) for p in papers]
    assert len(keys) == len(set(keys))  # WWW 2025 comes in two lists; a title counts once
    assert {p.family for p in papers} == set(FAMILIES)
    acl26 = [p for p in papers if (p.venue, p.year) == ("ACL", 2026)]
    assert acl26 and not {p.status for p in acl26} & {"tacl", "cl", "srw"}


def test_sentences_split_at_boundaries_not_at_abbreviations():
    text = "Agents (e.g. web agents) fail. Prior work, cf. Smith et al. 2024, is slow. We propose X."
    assert split_sentences(text) == [
        "Agents (e.g. web agents) fail.",
        "Prior work, cf. Smith et al. 2024, is slow.",
        "We propose X.",
    ]


@pytest.mark.parametrize(
    "sentence",
    [
        "However, existing agents fail.",
        "Moreover, agents fail.",
        "To this end, we propose X.",
        "In this paper we propose X.",
        "In this work, we study Y.",
        "We propose X.",
        "This limits agents.",
        "These methods fail.",
        "It fails on long tasks.",
        "Despite these advances, agents fail.",
        "existing agents fail.",
        "To address this, we propose X.",
        "Specifically, we build X.",
        "In our experiments, we find that crops differ.",
    ],
)
def test_a_description_never_starts_mid_text(sentence):
    assert not good_opener(sentence)


@pytest.mark.parametrize(
    "sentence",
    [
        "Large language model agents fail on long-horizon tasks.",
        "GUI agents must act precisely.",
        "vLLM serves models fast.",
        "Retrieval-augmented generation grounds answers in documents.",
    ],
)
def test_clean_openers_are_accepted(sentence):
    assert good_opener(sentence)


def test_project_description_is_problem_then_approach_verbatim():
    abstract = (
        "Large language model agents often fail on long-horizon web tasks. However, existing planners replay "
        "the entire history at every step, which is slow. To address this, we propose PageMap, a planner that "
        "summarises visited pages into a compact map. Experiments on three benchmarks show gains."
    )
    text, why = project_description("PageMap: Compact Maps for Web Agents", abstract)
    assert why == "" and text == " ".join(split_sentences(abstract)[:3])
    assert text.startswith("Large language model agents") and text.endswith("compact map.")


@pytest.mark.parametrize(
    "abstract,reason",
    [
        ("We propose X, a planner for agents that is fast and accurate on many long benchmarks today.", "opens with"),
        (
            "Agents fail on long tasks in many settings. Accepted at ICLR 2026. We propose X, a planner for agents.",
            "names a venue",
        ),
        (
            "Agents fail on long tasks. Existing planners are slow and the cost is $O(n^2)$ in the history. "
            "We propose X, a planner.",
            "no span",
        ),
        ("Agents fail on long tasks in many different settings today. Planners are slow and costly.", "no sentence"),
    ],
)
def test_unusable_abstracts_give_no_description(abstract, reason):
    text, why = project_description("A Title", abstract)
    assert text is None and reason in why


def test_an_approach_is_a_self_reference_with_an_approach_verb():
    from assets.families.venue_projects import is_approach

    assert is_approach("In this work, we first propose X, a planner.") and is_approach("This paper studies Y.")
    assert not is_approach("However, we show that the policy reaches states not present in the training data.")
    assert not is_approach("We identify that their inefficiency comes from the design.")


def test_double_quotes_of_the_abstract_become_single_ones():
    abstract = (
        'The ability of agents to "think with images" needs perception and reasoning. '
        "Open agents still fall short on dense charts. We introduce O3-Bench, a benchmark for this."
    )
    text, _ = project_description("O3-Bench", abstract)
    assert text.startswith("The ability of agents to 'think with images' needs") and '"' not in text


def test_the_title_is_never_repeated_in_the_description():
    title = "A Verified Planner for Long Horizon Web Agents"
    abstract = (
        "Web agents fail on long horizons in practice. Existing planners are unverified and brittle. "
        "We propose a verified planner for long horizon web agents with step checks."
    )
    assert project_description(title, abstract) == (
        None,
        "no span of 2-3 sentences before the approach starts cleanly, without markup, in length",
    )


def test_the_home_domain_is_the_best_fitting_corpus_holding_the_paper():
    papers = [screened_paper(i, f"paper {i}", "text", date(2025, 10, 1)) for i in ("a", "b", "c")]
    holdings = {"a": ("llm_agent", "rag_and_retrieval_structuring"), "b": ("rag_and_retrieval_structuring",)}

    def embed(texts):  # the RAG description and paper a are close, paper b fits llm_agent best
        out = []
        for t in texts:
            v = np.zeros(4)
            v[
                1
                if ("retrieval-augmented" in t.lower() or t.startswith("paper a"))
                else 0
                if "autonomous agents" in t.lower()
                else 2
            ] = 1
            out.append(v)
        return np.asarray(out)

    home = home_domains(papers, "llm_agent", embed, holdings)
    # a: held by both, fits RAG best; b: held by RAG and (as a paper of this partition) llm_agent, fits llm_agent;
    # c: only this partition's corpus holds it
    assert home == {"a": "rag_and_retrieval_structuring", "b": "llm_agent", "c": "llm_agent"}
    # every partition computes the same answer: RAG's build keeps a, llm_agent's drops it
    assert home_domains(papers[:1], "rag_and_retrieval_structuring", embed, holdings) == {"a": "rag_and_retrieval_structuring"}
    # without an embedder: the first registry domain that holds it
    assert home_domains(papers[:1], "rag_and_retrieval_structuring", None, holdings)["a"] == "llm_agent"


def test_projects_are_recent_outcome_papers_dealt_round_robin():
    papers = make_venue_papers()
    old = papers[0].model_copy(update={"arxiv_id": "2501.99999", "published": date(2025, 5, 1)})  # 8 months before
    projects, skipped = select_projects(
        papers + [old], date(2025, 12, 31), "llm_agent", ["ACL/EMNLP/NAACL", "ICLR/ICML/NeurIPS", "CVPR/ICCV/ECCV"], holdings={}
    )
    assert len(projects) == 9 and "2501.99999" not in {p.paper.arxiv_id for p in projects}
    assert [p.family for p in projects[:3]] == ["ACL/EMNLP/NAACL", "ICLR/ICML/NeurIPS", "CVPR/ICCV/ECCV"]
    assert all(p.paper.title in VENUE_PROJECT_TITLES[p.family] for p in projects)
    # another domain's corpus holding the same papers claims them when they fit it best
    elsewhere = {p.arxiv_id: ("llm_agent", "rag_and_retrieval_structuring") for p in papers}
    taken, why = select_projects(
        papers,
        date(2025, 12, 31),
        "llm_agent",
        ["ACL/EMNLP/NAACL"],
        embed=lambda texts: np.asarray([[0.0, 1.0] if "Autonomous agents" in t else [1.0, 0.0] for t in texts]),
        holdings=elsewhere,
    )
    assert taken == [] and why["home domain is rag_and_retrieval_structuring"] == 3


def test_the_title_names_the_project_by_its_approach_phrase():
    assert (
        project_name("Agents fail. We propose TIR-Judge, an RL framework for judges that uses code.")
        == "TIR-Judge, an RL framework for judges"
    )
    assert (
        project_name("Agents fail. We propose a multi-agent framework in which a master LLM leads.") == "A multi-agent framework"
    )
    assert project_name("Agents fail. We introduce iSHIFT: a hybrid agent.") == "iSHIFT"
    # an object that names nothing: the first sentence's subject
    assert (
        project_name(
            "Agentic reinforcement learning increasingly relies on scaling. World models may help. "
            "We study these questions in text-based environments."
        )
        == "Agentic reinforcement learning"
    )
    assert (
        project_name(
            "Ensuring the safety of language models remains a critical challenge. We introduce a "
            "different paradigm: framing safety alignment as a game."
        )
        == "Ensuring the safety of language models"
    )
    assert (
        project_name("RMs matter. We analyze the per-sample gradient of BT-loss and show that it scales.")
        == "The per-sample gradient of BT-loss"
    )
    # too long: the head before an appositive comma, else the words before the last preposition that fits
    assert (
        project_name(
            "Agents fail. We introduce Multi-resolution Retrieval-Detection (MRD), a training-free "
            "framework for high-resolution image understanding with many many extra words."
        )
        == "Multi-resolution Retrieval-Detection (MRD)"
    )
    assert (
        project_name(
            "Agents fail. We propose a planner for long web tasks with many tools and many steps across "
            "many sites and many users of the web."
        )
        == "A planner for long web tasks with many tools and many steps"
    )
    cut = project_name("Agents fail. We propose " + " ".join(f"word{i}" for i in range(30)) + ".")
    assert cut.endswith("…") and len(cut.split()) <= 14  # no comma, no preposition: cut and marked

"""Direction rules after blind reading seed 3840 (issue 32, sixth pass): options are
sub-directions of one parent the lexicon names (curated siblings are one field whatever their
centroid distance), overlapping sets keep the best-evidenced one, and a title counts for the most
specific direction it names (no PRM for reward models, no long-video EDITING for long video
generation, no hair or object motion for human motion)."""

from __future__ import annotations

import pytest

from assets.evidence.kinds import acronym_affirmed, acronym_pattern, masked_names, name_variants, names_affirmed, without_names
from assets.toolbox.option_level import level_problem, pair_problem, same_parent
from assets.toolbox.option_sets import subfield_option_sets
from core.phrases import normal_text
from tests.assets.families.test_direction_level import cand


def counted(name: str, title: str, defining: tuple[str, ...] = ()) -> bool:
    """Whether the gold's lexical measure counts `title` for the option `name` (as `lexical_counts`)."""
    keys, acronyms = name_variants(name)
    phrases = frozenset(keys) | frozenset(defining)
    text = without_names(normal_text(title), masked_names(phrases))
    return any(names_affirmed(k, text) for k in phrases) or acronym_affirmed(acronym_pattern(acronyms), title)


def test_curated_siblings_are_one_field_whatever_their_distance():
    """Flow matching and GANs (both generative paradigms) are written about for different
    applications: their centroid cosine (~0.02) says nothing about the field."""
    fm = cand(0, "flow matching", cos={1: -0.05})
    gan = cand(1, "generative adversarial networks", cos={0: -0.05})
    assert same_parent(fm, gan)
    assert pair_problem(fm, gan) is None
    seg = cand(2, "medical image segmentation", cos={0: -0.05})
    assert pair_problem(fm, seg).startswith("field:")  # no shared parent: the distance still decides


@pytest.mark.parametrize(
    "names",
    [
        ["agentic search", "GraphRAG", "dense retrieval", "KV cache"],  # a sampling-cost method among retrieval strategies
        ["GUI", "medical reasoning", "information extraction", "report generation"],  # no parent at all
        [
            "view synthesis",
            "scene generation",
            "text-to-3D generation",
            "pose estimation",
        ],  # pose estimation: no 3D-generation task
    ],
)
def test_options_of_no_common_parent_are_refused(names):
    group = [cand(i, nm, cos={j: 0.3 for j in range(4) if j != i}) for i, nm in enumerate(names)]
    assert level_problem(group) is not None


def test_retrieval_strategies_form_a_set():
    names = ["agentic search", "GraphRAG", "dense retrieval", "query expansion"]
    group = [cand(i, nm, cos={j: -0.1 for j in range(4) if j != i}) for i, nm in enumerate(names)]
    for s in group:
        s.details["kind"] = ["method"]
    assert level_problem(group) is None


def test_overlapping_sets_keep_the_best_evidenced():
    """Two sets sharing three siblings ask one question: the one whose thinnest option has more
    pre-cutoff papers is kept (a 6-paper option does not take the place of a 59-paper one)."""
    sizes = {
        "deep research": 59,
        "multi-hop question answering": 44,
        "knowledge graph question answering": 23,
        "code completion": 9,
        "legal reasoning": 6,
    }
    pool = [cand(i, nm, n=n, cos={j: 0.3 for j in range(5) if j != i}) for i, (nm, n) in enumerate(sizes.items())]
    for s in pool:
        s.details["kind"] = ["task"]
    sets = subfield_option_sets(pool, "k", 10, set_problem=level_problem)
    names = [{s.title for s in g} for g in sets]
    assert names and "deep research" in names[0] and "legal reasoning" not in names[0]


@pytest.mark.parametrize(
    "name,title",
    [
        ("reward models", "Scaling Process Reward Models for Mathematical Reasoning"),
        ("reward models", "Knowledge Graphs are Implicit Reward Models: Path-Derived Signals Enable Compositional Reasoning"),
        ("long video generation", "PipeFlow: Pipelined Processing and Motion-Aware Frame Selection for Long-Form Video Editing"),
        ("long video generation", "Streaming Long Video Understanding with Memory"),
        ("human motion", "HairWeaver: Few-Shot Photorealistic Hair Motion Synthesis with Sim-to-Real Guided Video Diffusion"),
        ("human motion", "EgoFlow: Gradient-Guided Flow Matching for Egocentric 6DoF Object Motion Generation"),
    ],
)
def test_a_title_counts_for_the_most_specific_direction_it_names(name, title):
    assert not counted(name, title, ("reward model",) if name == "reward models" else ())


@pytest.mark.parametrize(
    "name,title",
    [
        ("reward models", "Reward Models Are Secretly Value Functions"),
        ("process reward models", "Scaling Process Reward Models for Mathematical Reasoning"),
        ("long video generation", "Minute-Long Video Generation with Frame Packing"),
        ("human motion", "Text-to-Motion Generation of Human Motion with Physical Constraints"),
        ("deep research", "Training Deep Research Agents with Search Rewards"),  # a generic word is no narrower name
    ],
)
def test_the_direction_itself_still_counts(name, title):
    assert counted(name, title, ("deep research",) if name == "deep research" else ())


def test_the_question_defines_fragmenting_by_the_golds_thresholds():
    """Blind reading seed 3840: "fragmenting" was vague; the question now states the gold's test."""
    from assets.families.direction import TRAJECTORY_DEFINITIONS
    from assets.toolbox.measure import FRAGMENT_COHESION_DROP, FRAGMENT_MIN_NEW

    frag = TRAJECTORY_DEFINITIONS.split("fragmenting = ")[1].split(";")[0]
    assert f"at least {FRAGMENT_MIN_NEW} clusters" in frag and f"{FRAGMENT_COHESION_DROP:.2f}" in frag


def test_a_camel_case_name_is_no_acronym_of_a_phrase_with_its_initials():
    """ "GraphRAG" begins with the letters "gr" of "generative retrieval", but it is not that
    phrase's acronym: the two are sibling retrieval strategies, not umbrella and member."""
    from assets.toolbox.option_level import nested_name

    assert not nested_name("generative retrieval", "GraphRAG")
    assert nested_name("reinforcement learning", "RLHF")

"""The planning gold's counting rule (assets/evidence/building_on.py): a paper builds on an
approach only where a sentence names it case-sensitively, in a use context, and not as a foil."""

import pytest

from assets.evidence.building_on import Matcher, builds_on, builds_on_sentence

REACT = Matcher(names=["ReAct", "ReAct-style"])
GRPO = Matcher(names=["GRPO", "Group Relative Policy Optimi[sz]ation"])
RM = Matcher(
    names=["ORM"],
    phrases=["reward model", "reward models"],
    exclude=["(?i)process[- ]reward models?", "(?i)reward[- ]model[- ]free"],
)
FLOW = Matcher(phrases=["flow matching"])


@pytest.mark.parametrize(
    "sentence",
    [
        "Agents must react quickly to changes in the environment, so we train them with feedback.",
        "We build agents that React to user requests using tools.",  # "React" is not the coinage "ReAct"
        "We use a REACT loop to control robots.",
    ],
)
def test_the_verb_react_and_other_casings_never_count_as_react(sentence):
    assert not builds_on_sentence(sentence, REACT)


def test_react_the_scaffold_counts_in_a_use_context():
    assert builds_on_sentence("We build our agent on the ReAct framework with a memory module.", REACT)
    assert builds_on_sentence("Our agent follows a ReAct-style loop of thoughts and tool calls.", REACT)


@pytest.mark.parametrize(
    "sentence",
    [
        "Our method outperforms GRPO on five math benchmarks.",
        "Compared with GRPO, our approach converges twice as fast.",
        "Unlike GRPO, we train a value model over the sampled responses.",
        "We replace GRPO with a simpler objective that uses a fixed baseline.",
        "Instead of GRPO, we use rejection sampling fine-tuning.",
        "It improves accuracy by 4 points over strong baselines such as GRPO.",
        "Our approach achieves higher reward than GRPO with fewer samples.",
        "We report results with PPO vs. GRPO on the same budget.",
        "Experiments show gains over GRPO and DPO on reasoning tasks.",
    ],
)
def test_a_baseline_foil_or_replaced_method_does_not_count(sentence):
    assert not builds_on_sentence(sentence, GRPO)


@pytest.mark.parametrize(
    "sentence",
    [
        "We fine-tune the model with GRPO on verified math problems.",
        "Building on GRPO, we add a length penalty to the group advantage.",
        "We propose Dr-GRPO, an unbiased variant of the group-relative objective.",
        "We extend Group Relative Policy Optimization to multi-turn agents.",
    ],
)
def test_using_or_extending_counts(sentence):
    assert builds_on_sentence(sentence, GRPO)


def test_acronyms_match_at_word_boundaries_only():
    assert not builds_on_sentence("We train the policy with XGRPOZ on code tasks.", GRPO)
    assert not Matcher(names=["DPO"]).named("We use SimDPO2 for alignment.")


def test_a_background_sentence_without_a_use_cue_does_not_count():
    assert not builds_on_sentence("GRPO has recently become popular for reasoning.", GRPO)


def test_the_title_is_a_use_context_and_the_first_counting_sentence_is_recorded():
    assert builds_on("Scaling GRPO to Long Contexts", "An abstract.", GRPO) == "Scaling GRPO to Long Contexts"
    abstract = "Our method outperforms GRPO. We then train the agent with GRPO on web tasks. Done here now."
    assert builds_on("A title", abstract, GRPO) == "We then train the agent with GRPO on web tasks."
    assert builds_on("A title", "Our method outperforms GRPO on every benchmark we tried.", GRPO) is None


def test_excluded_longer_names_and_free_suffixes_do_not_count():
    assert not builds_on_sentence("We train a process reward model with step labels.", RM)
    assert not builds_on_sentence("We propose a reward-model-free alignment method.", RM)
    assert builds_on_sentence("We train a reward model on human preference pairs.", RM)


def test_phrases_match_case_insensitively():
    assert builds_on_sentence("We train the generator with Flow Matching on video latents.", FLOW)
    assert not builds_on_sentence("Our sampler is faster than flow matching at equal quality.", FLOW)

"""Research-direction phrases (core/phrases.py): one key per direction, readable names, the option rules."""

from core.phrases import (
    acronym_of,
    backbone_problem,
    contribution_type,
    display_forms,
    field_problem,
    names,
    normal_text,
    one_word_problem,
    option_name,
    phrase_keys,
    prefer_longer,
    readable_case,
    same_direction,
)


def test_spelling_and_number_variants_are_one_key():
    assert phrase_keys("Agent Skills") & phrase_keys("agent skill") == {"skill", "agent skill"}
    assert "finetuning" in phrase_keys("Fine-Tuning LLMs") and "finetuning" in phrase_keys("Finetuning at scale")
    assert "modeling" in phrase_keys("Reward Modelling") and "modeling" in phrase_keys("reward modeling")


def test_generic_words_stay_out_of_bare_keys_but_extend_them_when_titles_do():
    keys = phrase_keys("Agent Skills for LLM Agents: Reward Models and GUI Agents via Agentic RL")
    assert {"skill", "agent skill", "reward", "reward model", "gui", "gui agent", "rl", "agentic rl"} <= keys
    # a phrase never spans punctuation ("Agents: Reward") or a generic word inside it
    assert not any("llm" in k and "reward" in k for k in keys)
    shown = display_forms(["gui agent", "agent skill"], ["GUI Agents that learn", "Agent Skills as tools"])
    assert shown == {"gui agent": "GUI agents", "agent skill": "agent skills"}


def test_a_text_names_a_key_as_a_contiguous_phrase_in_one_segment():
    text = normal_text("Speculative Decoding: Drafting Tokens. Sparse attention at scale")
    assert names("speculative decoding", text) and names("sparse attention", text)
    assert not names("decoding drafting", text)  # across the colon


def test_one_word_options_must_be_recognised_names():
    assert one_word_problem("Privacy") and one_word_problem("multi-agent") and one_word_problem("Multi-Turn")
    for name in ("GUI", "LoRA", "GraphRAG", "A2A", "RLVR", "Text-to-SQL", "prompt injection", "Plan-and-execute"):
        assert one_word_problem(name) is None, name
    assert readable_case("AI-Generated Image") == "AI-generated image" and readable_case("GUI Agents") == "GUI agents"


def test_contribution_types_are_not_directions():
    for name in (
        "Benchmark",
        "evaluation benchmark",
        "RAG evaluation",
        "a comprehensive survey",
        "technical report",
        "large-scale dataset",
        "empirical study",
    ):
        assert contribution_type(name), name
    for name in (
        "report generation",
        "radiology report generation",
        "synthetic data",
        "data selection",
        "legal case retrieval",
        "reward modeling",
        "sentiment analysis",
        "radiology report",
        "data analysis",
    ):
        assert contribution_type(name) is None, name  # a head after a topic names the topic


def test_backbones_and_fields_are_not_approaches():
    assert backbone_problem("GPT-4") and backbone_problem("pre-trained language models")
    assert backbone_problem("vision-language models") and backbone_problem("BERT")
    assert backbone_problem("VLM") and backbone_problem("reference model")  # a judge or a frozen copy, no method
    for name in ("reward models", "diffusion models", "multimodal agents", "small language models"):
        assert backbone_problem(name) is None, name
    assert field_problem("machine learning") and field_problem("QA") and field_problem("GRPO") is None


def test_one_direction_one_name():
    assert same_direction("RAG", "retrieval-augmented generation")
    assert same_direction("LoRA", "low-rank adaptation") and same_direction("MCP", "model context protocol")
    assert same_direction("GUI agents", "GUI") and same_direction("Skills", "agent skill")
    assert same_direction("Synthetic data", "data synthesis")  # the same words in another order and form
    assert acronym_of("DPO", "direct preference optimization") and not acronym_of("GUI", "graph neural network")
    # sharing words does not make two directions one
    for a, b in (
        ("legal reasoning", "LLM reasoning"),
        ("medical image synthesis", "medical image segmentation"),
        ("supervised fine-tuning", "federated fine-tuning"),
        ("data generation", "data agents"),
        ("diffusion models", "diffusion language models"),
    ):
        assert not same_direction(a, b), (a, b)


def test_a_truncated_phrase_gives_way_to_the_longer_name():
    counts = {"singular value": 10, "singular value decomposition": 9, "value decomposition": 9, "lora": 40}
    assert prefer_longer(counts) == {"singular value", "value decomposition"}


def test_option_name_reads_the_name_before_the_gloss():
    assert (
        option_name('Prompt injection — "Prompt injection is ..." (2501.00001) Pre-cutoff papers: "A"; "B".')
        == "Prompt injection"
    )
    assert option_name('Code (keywords: generation); e.g. "X"') == "Code"


def test_a_gloss_defines_or_opens_on_the_key_and_never_is_a_claim_or_a_back_reference():
    from datetime import date

    from assets.evidence.candidates import gloss
    from tests.factories import screened_paper

    def papers(*abstracts):
        return [screened_paper(f"p{i}", "t", a, date(2025, 6, 1)) for i, a in enumerate(abstracts)]

    claim = "We propose safety alignment for agents with many steps. However, safety alignment is hard to measure well."
    define = "Safety alignment is the practice of keeping a fine-tuned model within its refusal policy."
    opens = "Safety alignment of language models remains fragile under downstream fine-tuning."
    assert gloss("safety alignment", papers(claim, opens, define)) == (define, "p2")  # a definition first
    # issue 32: a direction's gloss defines it (its name the subject of a defining verb); a sentence
    # that only opens on the name ("... remains fragile") is no gloss, the option shows its titles
    assert gloss("safety alignment", papers(claim, opens)) == ("", "")
    late = "The model is then trained with a large set of data and evaluated for safety alignment."
    assert gloss("safety alignment", papers(claim, late)) == ("", "")  # a method step, a claim: no gloss
    assert gloss("safety alignment", papers(opens), strict=True) == ("", "")  # strict: a definition only


def test_umbrella_phrases_name_the_domain_not_a_direction():
    """ "Autonomous agents" or "generative models" cover every option of their domain: never an
    option; a direction with a specific word stays."""
    from core.phrases import field_problem, umbrella_problem

    assert umbrella_problem("Autonomous agents")
    assert umbrella_problem("generative models")
    assert umbrella_problem("general-purpose LLM agents")
    assert umbrella_problem("GUI agents") is None
    assert umbrella_problem("multi-agent systems") is None
    assert umbrella_problem("LLM agents") is None  # no umbrella adjective: the bare domain is the field rule's
    assert field_problem("machine learning")

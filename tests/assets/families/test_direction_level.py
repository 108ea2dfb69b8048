"""Direction options of one level (issue 32): siblings of one field, none an umbrella over another,
names never cut short, glosses that define their own option, and a measures_agree flag that means
what it says."""

from __future__ import annotations

from datetime import date

from assets.evidence.candidates import defines_own_name, gloss, truncated_name
from assets.families.momentum import agreement_flags, momentum_problems
from assets.release.card import task_subjects
from assets.toolbox.option_level import level_problem, level_problems, nested_name, pair_problem
from assets.toolbox.option_sets import subfield_option_sets
from core.phrases import normal_text, phrase_keys
from core.records import GoldTarget, Signal, Task, TaskBuild


def key(name: str) -> str:
    """The phrase key the evidence stage gives a name (its longest key)."""
    return max(phrase_keys(name), key=len)


def cand(
    i: int, name: str, n: int = 20, cos: dict[int, float] | None = None, contained: dict[int, float] | None = None
) -> Signal:
    sid = lambda j: f"sig:candidate_direction:{j:03d}"  # noqa: E731
    return Signal(
        signal_id=sid(i),
        kind="candidate_direction",
        domain="d",
        cutoff=date(2025, 12, 31),
        title=name,
        summary="",
        node_ids=["d:method:x"],
        evidence_ids=[],
        paper_ids=[f"p{i}-{j}" for j in range(n)],
        stats={"n_members": float(n), "n_papers": float(n)},
        details={
            "member_ids": [f"p{i}-{j}" for j in range(n)],
            "defining_phrases": [key(name)],
            "gloss": [f"{name} is a direction of the domain."],
            "neighbour_cos": [f"{sid(j)}={c:.4f}" for j, c in (cos or {}).items()],
            "containment": [f"{sid(j)}={c:.4f}" for j, c in (contained or {}).items()],
        },
    )


# --- the level rule ---------------------------------------------------------------------


def test_a_name_inside_another_is_an_umbrella():
    assert nested_name("reward models", "process reward models")
    assert nested_name("reasoning", "mathematical reasoning")
    assert not nested_name("flow matching", "rectified flow")
    assert not nested_name("GUI agents", "web agents")  # generic heads are no umbrella
    problem = pair_problem(cand(0, "reward models"), cand(1, "process reward models"))
    assert problem and problem.startswith("umbrella")


def test_an_acronym_and_its_letters_are_an_umbrella():
    """RL (or reinforcement learning) beside RLHF and RLVR: the letters of one begin the other's acronym."""
    assert nested_name("RL", "RLHF") and nested_name("reinforcement learning", "RLVR")
    assert nested_name("reward modeling", "process reward models")  # "modeling" / "models" do not count
    assert not nested_name("DPO", "GRPO") and not nested_name("RLHF", "RL")


def test_reasoning_models_are_a_kind_of_model_not_a_direction():
    from core.phrases import backbone_problem

    assert backbone_problem("reasoning models") and backbone_problem("large reasoning models") and backbone_problem("LRMs")
    assert backbone_problem("mathematical reasoning") is None


def test_containment_counts_an_acronym_by_its_expansion():
    from assets.evidence.candidates import PhraseCandidate, containment, expansion

    class P:
        def __init__(self, i, title, abstract):
            self.arxiv_id, self.title, self.abstract = f"p{i}", title, abstract

    assert expansion("RL", [P(0, "", "Deep reinforcement learning (RL) is a paradigm.")]) == "reinforcement learning"
    assert expansion("RLHF", [P(0, "", "Reinforcement learning from human feedback (RLHF) aligns models.")]) == (
        "reinforcement learning from human feedback"
    )
    papers = [
        P(0, "RL for LLM reasoning", "Reinforcement learning (RL) trains reasoning."),
        P(1, "Scaling RL", "We scale reinforcement learning (RL)."),
        P(2, "GRPO without a critic", "Group relative policy optimization is a reinforcement learning algorithm."),
        P(3, "GRPO for math", "A reinforcement learning recipe with GRPO."),
        P(4, "GRPO collapse", "Entropy collapse in GRPO training."),
    ]
    rl = PhraseCandidate("rl", "RL", ["p0", "p1"], 0.1, None, ["p0", "p1"])
    grpo = PhraseCandidate("grpo", "GRPO", ["p2", "p3", "p4"], 0.1, None, ["p2", "p3", "p4"])
    share = containment([rl, grpo], papers)
    assert share[1][0] == 2 / 3  # two of GRPO's three papers name RL, by its expansion
    assert share[0][1] == 0.0


def test_an_option_most_of_whose_papers_name_another_sits_under_it():
    """Most RLVR papers say "reasoning models": "reasoning models" is an umbrella over RLVR."""
    reasoning = cand(0, "reasoning models", n=60, cos={1: 0.3})
    rlvr = cand(1, "RLVR", n=30, cos={0: 0.3}, contained={0: 0.62})
    problem = pair_problem(reasoning, rlvr)
    assert problem == "containment: 62% of the papers on 'RLVR' name 'reasoning models' (an umbrella over it)"
    # a minority naming it is the ordinary cross-reference of siblings
    assert pair_problem(cand(0, "DPO", cos={1: 0.3}), cand(1, "GRPO", cos={0: 0.3}, contained={0: 0.3})) is None


def test_a_much_broader_option_is_a_level_above():
    broad = cand(0, "reinforcement learning", n=200, cos={1: 0.3})
    narrow = cand(1, "procedural memory", n=10, cos={0: 0.3})
    assert pair_problem(broad, narrow).startswith("breadth: 'reinforcement learning' holds 20x")
    assert pair_problem(cand(0, "web agents", n=60, cos={1: 0.3}), cand(1, "mobile agents", n=15, cos={0: 0.3})) is None


def test_options_from_unrelated_fields_do_not_share_a_task():
    """Flow matching beside medical image segmentation: centroids of unrelated fields sit near 0."""
    flow = cand(0, "flow matching", cos={1: 0.03, 2: 0.3})
    seg = cand(1, "medical image segmentation", cos={0: 0.03, 2: 0.02})
    rect = cand(2, "generative adversarial networks", cos={0: 0.3, 1: 0.02})
    assert pair_problem(flow, seg).startswith("field:")
    assert level_problem([flow, rect]) is None
    problems = level_problems([flow, seg, rect])
    assert len([p for p in problems if "are from different fields" in p]) == 2
    assert any("'medical image segmentation' is far from the other options" in p for p in problems)


def test_an_option_far_from_the_rest_of_its_set_is_from_another_field():
    """Every pair above the pair bar, but "protein folding" sits far from the three others."""
    names = ["model merging", "parameter-efficient fine-tuning", "data selection", "protein folding"]
    near = {(0, 1): 0.3, (0, 2): 0.25, (1, 2): 0.3, (0, 3): 0.08, (1, 3): 0.1, (2, 3): 0.09}
    cos = lambda i: {j: near[tuple(sorted((i, j)))] for j in range(4) if j != i}  # noqa: E731
    group = [cand(i, nm, cos=cos(i)) for i, nm in enumerate(names)]
    for s in group:  # one kind recorded for all four (names the lexicon does not know: the record decides)
        s.details["kind"] = ["method"]
    assert all(pair_problem(a, b) is None for i, a in enumerate(group) for b in group[i + 1 :])
    assert level_problem(group).startswith("field: 'protein folding' is far from the other options")
    # the three others are of one field, but the lexicon places none of them under a parent
    # (issue 32 sixth pass: options are sub-directions of one named parent)
    assert level_problem(group[:3]).startswith("parent:")


def test_the_draw_never_puts_an_umbrella_beside_its_member():
    # (no "rectified flow": kinds.yaml's hierarchy puts it under flow matching; no "diffusion
    # distillation": a sampling-cost method, another role than the generative paradigms)
    names = [
        "flow matching",
        "generative adversarial networks",
        "consistency models",
        "diffusion bridge",
        "flow models",
        "normalizing flows",
    ]
    n = len(names)
    pool = [cand(i, nm, cos={j: 0.3 for j in range(n) if j != i}) for i, nm in enumerate(names)]
    # "flow models" holds most of the flow-matching papers (containment) -> never with it
    pool[0].details["containment"] = [f"{pool[4].signal_id}=0.7000"]
    pool[4].details["kind"] = ["method"]  # (a name the lexicon places under no parent: refused either way)
    plain = subfield_option_sets(pool, "k", 100)
    ruled = subfield_option_sets(pool, "k", 100, set_problem=level_problem)
    both = lambda g: {pool[0].signal_id, pool[4].signal_id} <= {s.signal_id for s in g}  # noqa: E731
    assert any(both(g) for g in plain)
    assert ruled and not any(both(g) for g in ruled)
    assert all(level_problem(g) is None for g in ruled)


# --- truncated names ----------------------------------------------------------------------


def test_a_name_the_papers_always_continue_is_truncated():
    texts = [
        normal_text(t)
        for t in (
            "Singular value decomposition for parameter-efficient fine-tuning",
            "We apply singular value decomposition to the weight update.",
            "Low-rank adapters from singular value decomposition",
            "Singular value decomposition meets LoRA",
            "Singular value decomposition of attention, and singular value spectra",
        )
    ]
    assert truncated_name("singular value", texts) == "singular value decomposition"
    dpo = [
        normal_text(f"Direct preference optimization {x}") for x in ("at scale", "for agents", "revisited", "is biased", "again")
    ]
    assert truncated_name("direct preference", dpo) == "direct preference optimization"


def test_a_whole_name_is_not_truncated():
    # generic heads ("agents", "models") are what keys leave out, not a truncation
    gui = [normal_text(f"GUI agents {x}") for x in ("for phones", "with memory", "at scale", "in the wild", "that plan")]
    assert truncated_name("gui", gui) is None
    varied = [
        normal_text(t)
        for t in (
            "Flow matching for video",
            "Flow matching policies",
            "Conditional flow matching",
            "Flow matching in latent space",
            "Rectified flow matching",
        )
    ]
    assert truncated_name("flow matching", varied) is None
    assert truncated_name("flow matching", varied[:2]) is None  # too few uses to tell


# --- glosses that define their own option ---------------------------------------------------


def test_a_gloss_has_its_own_option_as_subject():
    sft = key("supervised fine-tuning")
    assert defines_own_name("Supervised fine-tuning (SFT) is the standard first stage of post-training.", sft)
    # SFT glossed by a sentence about RLHF
    assert not defines_own_name(
        "Reinforcement learning from human feedback (RLHF), applied after supervised fine-tuning (SFT), is costly.", sft
    )
    rl = key("reinforcement learning")
    # an RL option glossed by a sentence about agentic search
    assert not defines_own_name("Agentic search trained with reinforcement learning enables deep research.", rl)
    assert not defines_own_name("Multi-agent reinforcement learning (MARL) has emerged as a prominent paradigm.", rl)
    assert defines_own_name("Reinforcement learning (RL) has shown promise in training agentic models.", rl)
    assert defines_own_name("Retrieval Augmented Generation (RAG) has emerged as a solution for stale knowledge.", "rag")
    assert defines_own_name(
        "Large language model (LLM)-based multi-agent systems have emerged as a powerful paradigm.", key("multi-agent systems")
    )
    assert not defines_own_name("Reinforcement learning, a hot topic.", rl)  # no defining verb


def test_gloss_picks_the_sentence_about_its_option():
    class P:
        def __init__(self, i, abstract):
            self.arxiv_id, self.abstract = f"2501.{i:05d}", abstract

    papers = [
        P(
            1,
            "Reinforcement learning from human feedback (RLHF) after supervised fine-tuning (SFT) is the standard recipe for alignment today.",
        ),
        P(2, "Supervised fine-tuning (SFT) is a simple way to adapt a pretrained model to instructions and formats."),
    ]
    text, pid = gloss(key("supervised fine-tuning"), papers)
    assert pid == "2501.00002" and text.startswith("Supervised fine-tuning (SFT) is")
    assert gloss(key("supervised fine-tuning"), papers[:1]) == ("", "")  # no sentence defines it: titles only


# --- measures_agree says what it tests ------------------------------------------------------


def test_measures_agree_means_all_three_measures():
    """The title measure's top is A. The abstract measure agrees; the embedding measure ranks C first."""
    stats = {
        "A": {"m": 2.0, "am": 1.8, "em": 1.1},
        "B": {"m": 1.5, "am": 1.2, "em": 1.0},
        "C": {"m": 0.9, "am": 0.8, "em": 1.6},
    }
    flags = agreement_flags(stats, "A")
    assert flags == {"title_abstract_agree": 1.0, "embedding_agrees": 0.0, "measures_agree": 0.0}
    stats["C"]["em"] = 1.05
    assert agreement_flags(stats, "A")["measures_agree"] == 1.0
    stats["B"]["am"] = 2.5  # the abstract measure ranks B first, A far below
    assert agreement_flags(stats, "A")["title_abstract_agree"] == 0.0


def test_the_direction_gate_reads_the_lexical_agreement_only():
    numbers = {"title_abstract_agree": 1.0, "embedding_agrees": 0.0, "measures_agree": 0.0}
    numbers |= {"momentum:A": 2.0, "abstract_momentum:A": 1.5, "future_count:A": 9.0, "prior_count:A": 4.0}
    gold = GoldTarget(
        task_id="t", family="direction", domain="d", cutoff=date(2025, 12, 31), preferred_ranking=["A"], numbers=numbers
    )
    assert momentum_problems(gold, agree="title_abstract_agree") == []
    assert momentum_problems(gold) == ["independent gold measures disagree on the top candidate"]  # planning's default key


# --- the card names no family ----------------------------------------------------------------


def test_card_subjects_come_from_the_signals_not_the_family_name():
    t = Task.model_construct(task_id="x-01", family="any_family")
    approach = Signal.model_construct(signal_id="sig:approach:001", details={"direction_name": ["RLHF"]})
    build = TaskBuild.model_construct(task_id="x-01", signal_ids=["sig:approach:001"])
    assert task_subjects([t], {"x-01": build}, {approach.signal_id: approach}) == {"x-01": "RLHF"}
    assert task_subjects([t], {"x-01": build}, {}) == {}


def test_a_direction_gold_must_show_a_clear_gain():
    """Issue 32's blind reading: a winner at momentum 1.11 ("steady") does not gain momentum, and
    a runner-up within 16% of the winner is a coin toss an expert cannot be wrong about."""
    from assets.families.momentum import clear_gain_problems

    def gold(top: float, margin: float) -> GoldTarget:
        numbers = {"momentum:A": top, "momentum:B": top * (1 - margin), "margin": margin}
        return GoldTarget(
            task_id="t", family="direction", domain="d", cutoff=date(2025, 12, 31), preferred_ranking=["A", "B"], numbers=numbers
        )

    assert clear_gain_problems(gold(1.62, 0.4)) == []
    assert "held its share" in clear_gain_problems(gold(1.11, 0.43))[0]
    assert "within 16%" in clear_gain_problems(gold(1.34, 0.16))[0]


def test_a_known_family_in_the_lexicon_is_never_two_siblings():
    """Issue 32's blind reading: RLVR beside "policy optimization", LoRA beside PEFT, "reward
    models" beside "reward modeling", image restoration beside image enhancement; papers do not
    always name the umbrella, so the data rules miss them and the lexicon's hierarchy decides."""
    for a, b in [
        ("LoRA", "Parameter-efficient fine-tuning"),
        ("RLVR", "Policy optimization"),
        ("Reward models", "Reward modeling"),
        ("Image restoration", "Image enhancement"),
        ("GRPO", "RL"),  # transitively: GRPO under RLVR under reinforcement fine-tuning under RL
    ]:
        problem = pair_problem(cand(0, a, cos={1: 0.3}), cand(1, b, cos={0: 0.3}))
        assert problem and problem.startswith("family"), (a, b, problem)
    assert pair_problem(cand(0, "DPO", cos={1: 0.3}), cand(1, "GRPO", cos={0: 0.3})) is None

"""Planning gold beyond the ordering: milestones, dependencies and kill criteria from the window papers
(assets/families/planning/answer.py: plan_for), and the momentum gold's validity rules."""

from datetime import date
from types import SimpleNamespace

from assets.families.planning.answer import plan_for
from core.records import GoldTarget, Task
from tests.factories import screened_paper

CUTOFF = date(2025, 12, 31)


def _task() -> Task:
    return Task(
        task_id="t",
        family="planning",
        domain="d",
        cutoff=CUTOFF,
        window_start=date(2026, 1, 1),
        window_end=date(2026, 6, 30),
        horizon="6-month",
        title="t",
        question="q?",
        instructions="i",
        answer_requirements=[],
    )


def test_plan_reads_what_the_window_papers_on_each_approach_did():
    method = "We propose a tool calling method with reinforcement learning."
    tool = [
        screened_paper(f"a{i}", f"Tool calling paper {i}", method if i < 3 else "A position on tools.", date(2026, 1 + i, 10))
        for i in range(5)
    ]
    memory = [screened_paper(f"m{i}", f"Episodic memory paper {i}", "We study recall.", date(2026, 5, 1 + i)) for i in range(4)]
    filler = [screened_paper(f"f{i}", f"Other topic {i}", "Nothing here.", date(2026, 2, 1)) for i in range(5)]
    window = tool + memory + filler  # the window's papers on the direction
    ctx = SimpleNamespace(future=window)
    per = {
        "A": ([p.arxiv_id for p in tool], []),
        "B": ([p.arxiv_id for p in memory], []),
        "C": ([p.arxiv_id for p in tool[:3]], []),
    }  # C (RL) is used by three of A's papers
    gold = GoldTarget(
        task_id="t",
        family="planning",
        domain="d",
        cutoff=CUTOFF,
        preferred_ranking=["A", "B", "C"],
        numbers={"prior_share:A": 0.1, "prior_share:B": 0.2, "prior_share:C": 0.05},
    )
    names = {"A": "tool calling", "B": "episodic memory", "C": "reinforcement learning"}
    plan = plan_for(ctx, _task(), gold, per, names, window)
    # milestones: the earliest window papers that state a method, by date, with their ids
    assert plan["A"].milestones == [f"2026-0{i + 1}-10 a{i}: Tool calling paper {i}" for i in range(3)]
    # dependencies: another option used by >= 2 of its window papers
    assert plan["A"].dependencies == ["reinforcement learning (3 of its 5 window papers also build on it)"]
    assert plan["B"].dependencies == []
    # first half (to 2026-03-31): A has 3 of the direction's 8 first-half papers (37.5%) >= 0.8 x 10%;
    # B has 0 < 0.8 x 20%: stalled
    assert not plan["A"].stalled and plan["B"].stalled
    assert "16.0%" in plan["B"].kill_criterion and gold.numbers["first_half_share:A"] == round(3 / 8, 6)


def test_a_momentum_gold_resting_on_a_handful_of_papers_or_not_growing_is_not_valid():
    from assets.families.momentum import momentum_problems

    def gold(window: int, prior: int, agree: float = 1.0, m: float = 2.0, check: float = 1.5) -> GoldTarget:
        return GoldTarget(
            task_id="t",
            family="direction",
            domain="d",
            cutoff=CUTOFF,
            preferred_ranking=["A", "B"],
            numbers={
                "measures_agree": agree,
                "future_count:A": window,
                "prior_count:A": prior,
                "momentum:A": m,
                "abstract_momentum:A": check,
            },
        )

    assert momentum_problems(gold(40, 20)) == []
    assert momentum_problems(gold(8, 0)) == ["the top candidate's momentum rests on too few papers (8 in the window, 0 before)"]
    assert momentum_problems(gold(2, 9))[0].startswith("the top candidate's momentum rests on too few papers")
    assert momentum_problems(gold(40, 20, agree=0.0)) == ["independent gold measures disagree on the top candidate"]
    # the top option must have grown on both measures
    assert momentum_problems(gold(40, 20, m=0.9))[0].startswith("the top candidate did not grow")
    assert momentum_problems(gold(40, 20, check=1.0))[0].startswith("the top candidate did not grow")

"""Planning gold beyond the ordering: milestones, dependencies and kill criteria from the window papers."""

from datetime import date
from types import SimpleNamespace

from assets.families.plan_target import plan_targets
from core.records import GoldTarget, Signal, Task
from tests.factories import screened_paper

CUTOFF = date(2025, 12, 31)


def _task() -> Task:
    return Task(task_id="t", family="planning", domain="d", cutoff=CUTOFF, window_start=date(2026, 1, 1),
                window_end=date(2026, 6, 30), horizon="6-month", title="t", question="q?", instructions="i",
                answer_requirements=[])


def _signal(phrase: str) -> Signal:
    return Signal(signal_id=f"s:{phrase}", kind="candidate_direction", domain="d", cutoff=CUTOFF, title=phrase,
                  summary="", details={"defining_phrases": [phrase]})


def test_plan_target_reads_what_the_window_papers_did():
    method = "We propose a tool calling method with reinforcement learning."
    tool = [screened_paper(f"a{i}", f"Tool calling paper {i}", method if i < 3 else "A position on tools.",
                           date(2026, 1 + i, 10)) for i in range(5)]
    memory = [screened_paper(f"m{i}", f"Episodic memory paper {i}", "We study recall.", date(2026, 5, 1 + i))
              for i in range(4)]
    filler = [screened_paper(f"f{i}", f"Other topic {i}", "Nothing here.", date(2026, 2, 1)) for i in range(11)]
    ctx = SimpleNamespace(future=tool + memory + filler)
    gold = GoldTarget(task_id="t", family="planning", domain="d", cutoff=CUTOFF, preferred_ranking=["A", "B", "C"],
                      counted={"A": [f"{p.arxiv_id} {p.title}" for p in tool],
                               "B": [f"{p.arxiv_id} {p.title}" for p in memory], "C": []},
                      numbers={"prior_share:A": 0.1, "prior_share:B": 0.2, "prior_share:C": 0.05})
    signals = {"A": _signal("tool calling"), "B": _signal("episodic memory"), "C": _signal("reinforcement learning")}
    plan = plan_targets(ctx, _task(), gold, signals, {k: s.title for k, s in signals.items()})
    # milestones: the earliest window papers that state a method, by date, with their ids
    assert plan["A"].milestones == [f"2026-0{i + 1}-10 a{i}: Tool calling paper {i}" for i in range(3)]
    # dependencies: another option's phrase in >= 2 of its window papers
    assert plan["A"].dependencies == ["reinforcement learning (3 of its 5 window papers also work on it)"]
    assert plan["B"].dependencies == []
    # first half (to 2026-03-31): A has 3 of 14 window papers (21%) >= 0.8 x 10%; B has 0 < 0.8 x 20%: stalled
    assert not plan["A"].stalled and plan["B"].stalled and plan["C"].stalled
    assert "16.0%" in plan["B"].kill_criterion and gold.numbers["first_half_share:A"] == round(3 / 14, 6)


def test_a_momentum_gold_resting_on_a_handful_of_papers_is_not_valid():
    from assets.families.momentum import momentum_problems

    def gold(window: int, prior: int, agree: float = 1.0) -> GoldTarget:
        return GoldTarget(task_id="t", family="direction", domain="d", cutoff=CUTOFF, preferred_ranking=["A", "B"],
                          numbers={"measures_agree": agree, "future_count:A": window, "prior_count:A": prior})

    assert momentum_problems(gold(40, 20)) == []
    assert momentum_problems(gold(8, 0)) == ["the top candidate's momentum rests on too few papers (8 in the window, 0 before)"]
    assert momentum_problems(gold(2, 9))[0].startswith("the top candidate's momentum rests on too few papers")
    assert momentum_problems(gold(40, 20, agree=0.0)) == ["independent gold measures disagree on the top candidate"]

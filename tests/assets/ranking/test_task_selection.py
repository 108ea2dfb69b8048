"""Release selection: Elo per family, top-N of the tasks whose gold was validated."""

from datetime import date

from assets.ranking.judge import offline_judge
from assets.ranking.selection import rank_and_select
from core.records import Task


def _task(task_id: str, family: str) -> Task:
    return Task(
        task_id=task_id,
        family=family,
        domain="d",
        cutoff=date(2025, 12, 31),
        window_start=date(2026, 1, 1),
        window_end=date(2026, 6, 30),
        horizon="6-month",
        title=task_id,
        question="q?",
        instructions="i",
        answer_requirements=[],
    )


def test_best_validated_tasks_are_released_and_unvalidated_never():
    tasks = [_task(f"d{i}", "direction") for i in range(4)] + [_task("v0", "venue")]
    # d0 has the best quality but no validated gold; d3 is the weakest validated task
    quality = {
        "d0": {"quality": 0.9, "gold_strength": 0.0},
        "d1": {"quality": 0.8, "gold_strength": 0.5},
        "d2": {"quality": 0.6, "gold_strength": 0.4},
        "d3": {"quality": 0.1, "gold_strength": 0.1},
        "v0": {"quality": 0.5, "gold_strength": 0.3},
    }
    ratings, correlations, rounds = rank_and_select(
        tasks,
        quality,
        lambda ids: offline_judge({i: quality[i]["quality"] for i in ids}),
        judge_name="offline",
        top_n_per_family=2,
        min_rounds=10,
        max_rounds=50,
    )
    by_id = {r.task_id: r for r in ratings}
    assert [r.task_id for r in sorted((r for r in ratings if r.family == "direction"), key=lambda r: r.rank_in_family)] == [
        "d0",
        "d1",
        "d2",
        "d3",
    ]  # Elo follows the judge's quality
    assert {i for i, r in by_id.items() if r.released} == {"d1", "d2", "v0"}
    assert "gold strength 0" in by_id["d0"].note and "top 2" in by_id["d3"].note
    assert set(correlations) == {"direction", "venue"} and rounds["direction"]["rounds"] >= 10


def test_two_released_tasks_of_a_family_never_share_a_gold_answer():
    tasks = [_task(f"d{i}", "direction") for i in range(3)]
    quality = {f"d{i}": {"quality": q, "gold_strength": 0.5} for i, q in enumerate((0.9, 0.8, 0.1))}
    # d1's gold answer is d0's: the weaker d2 takes its place
    answers = {"d0": "gui", "d1": "gui", "d2": "memory"}
    ratings, _, _ = rank_and_select(
        tasks,
        quality,
        lambda ids: offline_judge({i: quality[i]["quality"] for i in ids}),
        judge_name="offline",
        top_n_per_family=2,
        gold_answers=answers,
        min_rounds=10,
        max_rounds=50,
    )
    by_id = {r.task_id: r for r in ratings}
    released = {i for i, r in by_id.items() if r.released}
    assert len(released & {"d0", "d1"}) == 1 and "d2" in released  # one of the two "gui" tasks, and d2
    [kept] = released & {"d0", "d1"}
    [other] = {"d0", "d1"} - {kept}
    assert by_id[other].note == f"same gold answer as released task {kept}"


def test_a_fixed_option_family_compares_whole_gold_rankings_per_question():
    from assets.ranking.gate import gold_answer
    from core.records import GoldTarget, TaskOption

    def venue_task(order):
        t = _task("v", "venue").model_copy(update={"options": [TaskOption(option_id=k, text=v) for k, v in order]})
        return t

    a = venue_task([("A", "CVPR/ICCV/ECCV"), ("B", "ACL/EMNLP/NAACL"), ("C", "SIGIR/KDD/WWW")])
    b = venue_task([("A", "SIGIR/KDD/WWW"), ("B", "CVPR/ICCV/ECCV"), ("C", "ACL/EMNLP/NAACL")])

    def gold(ranking):
        return GoldTarget(task_id="v", family="venue", domain="d", cutoff=date(2025, 12, 31), preferred_ranking=ranking)

    # same top venue, different runner-up: two different golds; same full ranking (relettered): the same gold
    assert gold_answer(a, gold(["A", "B", "C"])) != gold_answer(b, gold(["B", "A", "C"]))
    assert gold_answer(a, gold(["A", "B", "C"])) == gold_answer(b, gold(["B", "C", "A"]))
    # ... for the same question: a task about another project has its own answer even with the same ranking
    other = b.model_copy(update={"question": 'Project description: "Another project." Rank the venue families.'})
    assert gold_answer(a, gold(["A", "B", "C"])) != gold_answer(other, gold(["B", "C", "A"]))
    direction = _task("d", "direction").model_copy(update={"options": [TaskOption(option_id="A", text="GUI")]})
    assert gold_answer(direction, gold(["A"]).model_copy(update={"family": "direction"})) == "gui"


def test_the_release_caps_are_per_family_with_more_room_for_the_foresci_families():
    """The ranking's default config releases up to its per-family override (venue 15, the other
    ForeSci families 16) and the default top-N for the rest (phase 10)."""
    from assets.ranking.definitions import TaskRankingConfig

    cfg = TaskRankingConfig()
    assert cfg.top_n_by_family["venue"] == 15 and cfg.top_n_per_family == 10
    assert all(cfg.top_n_by_family[f] >= 16 for f in ("direction", "planning", "bottleneck"))
    tasks = [_task(f"v{i}", "venue") for i in range(20)] + [_task(f"p{i}", "phase") for i in range(20)]
    quality = {t.task_id: {"quality": 0.5 + 0.01 * int(t.task_id[1:]), "gold_strength": 0.5} for t in tasks}
    ratings, _, _ = rank_and_select(
        tasks,
        quality,
        lambda ids: offline_judge({i: quality[i]["quality"] for i in ids}),
        judge_name="offline",
        top_n_per_family=cfg.top_n_per_family,
        top_n_by_family=cfg.top_n_by_family,
        min_rounds=10,
        max_rounds=30,
    )
    released = [r for r in ratings if r.released]
    assert sum(r.family == "venue" for r in released) == 15 and sum(r.family == "phase" for r in released) == 10
    assert all("top 15" in r.note for r in ratings if r.family == "venue" and not r.released)

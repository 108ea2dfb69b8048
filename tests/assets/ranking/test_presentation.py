"""The release's presentation order: the gold's position is balanced across a family's
released tasks, the relabelling is consistent, and the order says nothing about the gold."""

from __future__ import annotations

import itertools
from collections import Counter

import numpy as np

from assets.judging.scoring import score_answers
from assets.ranking.presentation import (
    present_gold,
    present_task,
    presentation_orders,
    presented_golds,
    presented_tasks,
)
from assets.validity.controls import control_answers
from core.metrics import fta_ranking
from core.records import ClaimBasis, GoldClaim, PlanTarget, TaskRating
from tests.factories import CUTOFF as CUT
from tests.factories import validity_gold as gold
from tests.factories import validity_task as task
from tests.factories import words_embed as embed


def skewed_release(n: int = 12):
    """n tasks whose golds all sit at C as built: the worst case for position controls. The
    top options are accelerating, so (as in direction golds) the only slot is the direction."""
    tasks = [task(i) for i in range(n)]
    golds = {}
    for t in tasks:
        g = gold(t, top="C")
        golds[t.task_id] = g.model_copy(update={"slots": [s for s in g.slots if s.slot != "trajectory"]})
    return tasks, golds


def test_the_gold_position_is_balanced_across_the_family():
    tasks, golds = skewed_release(12)
    orders = presentation_orders(tasks, golds, {t.task_id for t in tasks})
    assert set(orders) == {t.task_id for t in tasks}
    positions = Counter(orders[t.task_id].index(golds[t.task_id].preferred_ranking[0]) for t in tasks)
    assert sorted(positions.values()) == [3, 3, 3, 3]  # 12 tasks, 4 options: 3 golds at each letter
    for t in tasks:  # a permutation of the task's own options
        assert sorted(orders[t.task_id]) == sorted(o.option_id for o in t.options)
    # reading the options in the presented order reproduces the gold ranking no better than
    # chance over the family (chance for 4 options: the mean over all 24 orders)
    agree = np.mean([fta_ranking(golds[t.task_id].preferred_ranking, orders[t.task_id])["f1"] for t in tasks])
    chance = np.mean([fta_ranking(list("CABD"), list(p))["f1"] for p in itertools.permutations("ABCD")])
    assert abs(agree - chance) <= 0.02


def test_an_uneven_split_leaves_the_first_position_short():
    tasks, golds = skewed_release(6)  # 6 golds over 4 positions: two positions get 2, two get 1
    orders = presentation_orders(tasks, golds, {t.task_id for t in tasks})
    firsts = sum(orders[t.task_id][0] == golds[t.task_id].preferred_ranking[0] for t in tasks)
    assert firsts == 1


def test_only_released_tasks_with_a_ranking_get_an_order():
    tasks, golds = skewed_release(6)
    released = {t.task_id for t in tasks[:4]}
    golds[tasks[0].task_id] = golds[tasks[0].task_id].model_copy(update={"preferred_ranking": []})
    orders = presentation_orders(tasks, golds, released)
    assert set(orders) == released - {tasks[0].task_id}


def test_the_deal_depends_on_the_hidden_gold_not_on_public_data():
    """Its key is made from the golds: the same public tasks with other golds are dealt
    differently, and the same release is dealt the same way twice."""
    tasks, golds = skewed_release(12)
    ids = {t.task_id for t in tasks}
    a = presentation_orders(tasks, golds, ids)
    assert a == presentation_orders(tasks, golds, ids)
    other = {k: g.model_copy(update={"strength": 0.5}) for k, g in golds.items()}
    b = presentation_orders(tasks, other, ids)
    assert a != b


def test_relabelling_keeps_task_and_gold_consistent():
    t = task(1)
    g = gold(t, top="C").model_copy(
        update={
            "numbers": {"momentum:C": 1.5, "momentum:A": 0.5, "future_variant:primary:1": 1.0, "margin": 0.2},
            "counted": {"C": ["2601.00001 a paper"], "A": []},
            "plan": {"C": PlanTarget(milestones=["m"])},
            "claims": [
                GoldClaim(
                    claim_id="c",
                    text="x",
                    type="statistical",
                    time_scope="w",
                    basis=ClaimBasis(check="ranked_first", params={"object": "C"}),
                )
            ],
        }
    )
    order = ["B", "C", "D", "A"]
    pt, pg = present_task(t, order), present_gold(g, t, order)
    text = {o.option_id: o.text for o in t.options}
    new_text = {o.option_id: o.text for o in pt.options}
    assert [o.option_id for o in pt.options] == ["A", "B", "C", "D"]
    assert [new_text[x] for x in "ABCD"] == [text[x] for x in order]
    assert new_text[pg.preferred_ranking[0]] == text["C"]  # the gold names the same option
    assert pg.preferred_ranking == ["B", "D", "A", "C"]  # built C, A, B, D -> presented B, D, A, C
    assert pg.numbers["momentum:B"] == 1.5 and pg.numbers["momentum:D"] == 0.5
    assert pg.numbers["future_variant:primary:1"] == 1.0 and pg.numbers["margin"] == 0.2
    assert set(pg.counted) == {"B", "D"} and set(pg.plan) == {"B"}
    assert pg.claims[0].basis.params["object"] == "B"


def test_the_title_lists_the_options_in_the_presented_order():
    t = task(0)
    names = [o.text for o in t.options]
    t = t.model_copy(update={"title": f"Which gains momentum: {', '.join(names[:-1])} or {names[-1]}?"})
    pt = present_task(t, ["D", "A", "B", "C"])
    new = [o.text for o in pt.options]
    assert pt.title == f"Which gains momentum: {', '.join(new[:-1])} or {new[-1]}?"
    untouched = t.model_copy(update={"title": "no names here"})
    assert present_task(untouched, ["D", "A", "B", "C"]).title == "no names here"


def test_position_controls_fall_to_chance_once_presented():
    """As built every gold is C, so 'another task's gold' is always right; presented, the
    position controls are no better than a random answer, and the stated gold still scores 1."""
    tasks, golds = skewed_release(12)
    built_scores = _control_means(tasks, list(golds.values()))
    assert built_scores["control:other_gold"] > built_scores["control:random"] + 0.3
    ratings = [
        TaskRating(task_id=t.task_id, family=t.family, elo=1200, rank_in_family=i, released=True, quality=1)
        for i, t in enumerate(tasks)
    ]
    orders = presentation_orders(tasks, golds, {t.task_id for t in tasks})
    ratings = [r.model_copy(update={"presentation": orders[r.task_id]}) for r in ratings]
    shown = presented_tasks(tasks, ratings)
    shown_golds = presented_golds(list(golds.values()), tasks, ratings)
    means = _control_means(shown, shown_golds)
    assert means["control:gold"] >= 0.9
    for control in ("control:first_option", "control:other_gold"):
        assert means[control] <= means["control:random"] + 0.05, (control, means)


def _control_means(tasks, golds) -> dict[str, float]:
    answers = control_answers(tasks, golds, draws=10)
    scores, failures = score_answers(answers, tasks, golds, embed, {}, cutoff=CUT)
    assert failures == []
    by: dict[str, list[float]] = {}
    for s in scores:
        by.setdefault(s.method, []).append(s.fta)
    return {m: float(np.mean(v)) for m, v in by.items()}

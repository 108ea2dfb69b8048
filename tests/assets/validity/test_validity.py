"""Validity: the release gate, control answers, the commitment rules of FTA, thresholds."""

from __future__ import annotations

from dataclasses import replace
from datetime import date
from types import SimpleNamespace

import numpy as np

from assets.judging.scoring import score_answers
from assets.ranking.gate import gate_reason
from assets.validity.controls import CONTROLS, control_answers
from assets.validity.report import problems
from core.thresholds import Thresholds
from tests.factories import validity_gold as gold
from tests.factories import validity_task as task
from tests.factories import words_embed as embed

CUT = date(2025, 12, 31)


def test_gate_holds_back_what_does_not_hold_up():
    th = Thresholds.load()
    t = task(0)
    g = gold(t)
    assert gate_reason(t, g, th) is None
    assert "strength 0" in gate_reason(t, g.model_copy(update={"strength": 0.0}), th)
    # every family's release rule: no paper from the window, no release (TaskFamily.evidence_problems)
    for family in ("direction", "planning", "bottleneck", "venue"):
        bare = g.model_copy(update={"family": family, "future_paper_ids": []})
        assert "no post-cutoff evidence" in gate_reason(t.model_copy(update={"family": family}), bare, th)
    # the direction family's own check (TaskFamily.validity_problems)
    assert "disagree" in gate_reason(t, g.model_copy(update={"numbers": {"title_abstract_agree": 0.0}}), th)
    # measures_agree (all three measures, the embedding view among them) is reported, not gated for direction
    assert gate_reason(t, g.model_copy(update={"numbers": {"title_abstract_agree": 1.0, "measures_agree": 0.0}}), th) is None
    venue = t.model_copy(update={"family": "venue"})
    assert gate_reason(venue, g.model_copy(update={"family": "venue", "numbers": {"measures_agree": 0.0}}), th) is None
    assert "unstable" in gate_reason(t, g.model_copy(update={"numbers": {"stability_top1": 0.5}}), th)
    assert "claim bank" in gate_reason(t, g.model_copy(update={"numbers": {"claims_verified": 0.0}}), th)


def test_controls_and_the_commitment_rules_of_fta():
    tasks = [task(i) for i in range(8)]
    golds = [gold(t, top="ABCD"[i % 4]) for i, t in enumerate(tasks)]
    answers = control_answers(tasks, golds, draws=10)
    assert {a.method for a in answers} == set(CONTROLS)
    assert sum(a.method == "control:random" for a in answers) == 10 * len(tasks)
    every = next(a for a in answers if a.method == "control:every_option")
    assert len(every.decision) == 4
    scores, failures = score_answers(answers, tasks, golds, embed, {}, cutoff=CUT)
    assert failures == []
    mean = {m: float(np.mean([s.fta for s in scores if s.method == m])) for m in CONTROLS}
    assert mean["control:gold"] >= 0.9  # stating the gold scores high
    # naming every option is divided by the number named: it cannot beat one committed guess
    assert mean["control:every_option"] < mean["control:random"]
    every_score = next(s for s in scores if s.method == "control:every_option")
    assert "names 3 candidates: divided by 3" in every_score.note  # capped at 3 decision texts


def test_threshold_problems_are_named():
    th = Thresholds.load()
    row = {
        "tasks_released": 6,
        "control_gold": 0.8,
        "control_random": 0.4,
        "control_tasks": 6,
        "control_empty": 0.5,
        "control_every_option": 0.3,
        "control_first_option": 0.41,
        "control_other_gold": 0.4,
        "control_empty_excess": 0.1,
        "control_empty_excess_low": 0.07,
        "control_empty_beats_margin": True,
        "control_first_option_excess": 0.01,
        "control_first_option_excess_low": -0.1,
        "control_first_option_beats_margin": False,
        "controls_gated": True,
        "gold_stability": 0.7,
        "claim_bank_verified": 1.0,
        "duplicate_titles": 1,
        "duplicate_option_sets": 0,
        "duplicate_golds": 0,
    }
    found = problems(row, th)
    assert any("gold answer scores 0.8" in p for p in found)
    assert any(
        p.startswith("control:empty beats chance by 0.100 over 6 tasks (one-sided 95% lower bound 0.070 > margin") for p in found
    )
    assert not any("first_option" in p for p in found)  # its lower bound is below the margin
    assert any("stability" in p for p in found) and any("duplicates" in p for p in found)
    # the same row with too few tasks to gate its controls: the control check decides nothing
    assert not any("control:" in p for p in problems({**row, "controls_gated": False}, th))
    # an empty family is reported, not failed, unless rows are gated from 0 tasks
    empty = {"tasks_released": 0}
    assert problems(empty, th) == [] and problems(empty, replace(th, min_gated_tasks=0)) == ["empty family: no released task"]


def test_a_candidate_named_inside_a_longer_one_is_not_a_hedge():
    from assets.scorers.fta import candidates_named
    from core.records import GoldTarget

    gold = GoldTarget(
        task_id="t",
        family="bottleneck",
        domain="d",
        cutoff=date(2025, 12, 31),
        preferred_ranking=["vulnerabilities / security", "security", "data scarcity"],
    )
    task = SimpleNamespace(options=[])
    assert candidates_named(task, gold, ["The root bottleneck is vulnerabilities / security."]) == 1
    assert candidates_named(task, gold, ["Both security and data scarcity."]) == 2


def test_drop_reasons_count_together_without_ids_and_figures():
    from assets.validity.report import reason_kind

    assert (
        reason_kind("same gold answer as released task d-2025-12-31-direction-40")
        == reason_kind("same gold answer as released task d-2025-12-31-direction-07")
        == "same gold answer as a released task"
    )
    assert (
        reason_kind("gold top-1 unstable under resampling of the window (0.60)")
        == "gold top-1 unstable under resampling of the window"
    )
    assert (
        reason_kind("curation: duplicate decision of d-2025-12-31-planning-14 (Jaccard 0.83)")
        == "curation: duplicate decision of a task"
    )
    assert (
        reason_kind("the top candidate's momentum rests on too few papers (3 in the window, 1 before)")
        == "the top candidate's momentum rests on too few papers"
    )

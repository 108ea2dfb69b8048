"""Statistics a reader can trust (core/statistics.py, assets/leaderboard/statistics.py,
assets/validity/statistics.py): intervals over tasks, the minimum detectable difference, paired
verdicts, and the validity gate's control checks per partition and pooled."""

from __future__ import annotations

import numpy as np
import pytest

from assets.leaderboard import report
from assets.validity.report import status, validity_rows
from assets.validity.statistics import gated_size, pooled_control_checks
from core import statistics as st
from core.records import Score, TaskRating
from core.thresholds import Thresholds
from tests.factories import validity_gold as gold
from tests.factories import validity_task as task


def scores_of(method: str, values: dict[str, float], family: str = "venue", backbone: str = "b", seed: int = 0) -> list[Score]:
    return [
        Score(answer_id=f"{t}::{method}::{backbone}::{seed}", task_id=t, family=family, method=method, backbone=backbone, fta=v)
        for t, v in values.items()
    ]


def base_scores(n: int, seed: int = 0) -> dict[str, float]:
    """Per-task scores with the spread releases show (sd ~0.2-0.25), in [0, 1]."""
    rng = np.random.default_rng(seed)
    return {f"t{i:02d}": float(np.clip(rng.normal(0.5, 0.22), 0, 1)) for i in range(n)}


# ----------------------------------------------------------------------------- intervals, MDD


def test_mean_ci_is_scipy_bootstrap_over_tasks():
    assert st.mean_ci([]).as_tuple() == (None, None, None)
    assert st.mean_ci([None, 0.7]).as_tuple() == (0.7, None, None)  # one task: no interval
    assert st.mean_ci([0.4, 0.4, 0.4]).as_tuple() == pytest.approx((0.4, 0.4, 0.4))  # no spread
    vals = list(base_scores(40).values())
    ci = st.mean_ci(vals)
    assert ci.method == "BCa" and ci.low < ci.mean < ci.high
    sem = np.std(vals, ddof=1) / np.sqrt(len(vals))
    assert ci.high - ci.low == pytest.approx(2 * 1.96 * sem, rel=0.25)  # about the normal interval
    assert st.mean_ci(vals).as_tuple() == ci.as_tuple()  # seeded: reproducible
    one_sided = st.mean_ci(vals, alternative="greater")
    assert one_sided.high is None and ci.low < one_sided.low < ci.mean  # a one-sided bound is tighter


def test_mdd_formula_and_it_shrinks_with_n():
    # the normal approximation (z_.975 + z_.8) = 2.80 is the limit of the t version used
    assert st.mdd(10_000, 1.0) * 100 == pytest.approx(2.8016, abs=0.002)
    assert st.mdd(30, 0.3) == pytest.approx((2.0452 + 0.8538) * 0.3 / np.sqrt(30), abs=1e-3)
    values = [st.mdd(n, 0.3) for n in (3, 5, 10, 20, 40, 80)]
    assert values == sorted(values, reverse=True) and values[-1] < 0.1 < values[2]
    assert st.mdd(1, 0.3) is None and st.mdd(5, None) is None
    # one-sided (the control gate) needs fewer tasks than two-sided for the same difference
    assert st.min_tasks_for(0.1, 0.2, sided=1) < st.min_tasks_for(0.1, 0.2, sided=2)
    n = st.min_tasks_for(0.05, 0.2)
    assert st.mdd(n, 0.2, sided=1) <= 0.05 < st.mdd(n - 1, 0.2, sided=1)


def test_the_sd_behind_the_mdd_is_conservative_with_few_tasks():
    assert st.mdd_sd(0.1, 12) == (0.1, "own")
    assert st.mdd_sd(0.1, 5, pooled=0.2, pooled_tasks=40) == (0.2, "pooled")  # few tasks: the larger one
    assert st.mdd_sd(0.3, 5, pooled=0.2, pooled_tasks=40) == (0.3, "own")
    assert st.mdd_sd(0.1, 5, pooled=0.2, pooled_tasks=6) == (st.PRIOR_DIFF_SD, "prior")  # small release: prior
    assert st.mdd_sd(None, 1) == (st.PRIOR_DIFF_SD, "prior")


def test_sign_flip_test_is_exact_and_cannot_decide_below_six_tasks():
    assert st.MIN_TESTABLE_TASKS == 6
    assert st.sign_flip_p([0.2] * 5) == pytest.approx(2 / 32)  # the smallest p of 5 tasks: >= 0.05
    assert st.sign_flip_p([0.2] * 6) == pytest.approx(2 / 64)
    assert st.sign_flip_p([0.0, 0.0, 0.0]) == 1.0 and st.sign_flip_p([0.3]) is None
    assert st.holm([0.01, 0.04, None, 0.03]) == [0.03, 0.06, None, 0.06]


# ----------------------------------------------------------------------------- paired verdicts


def test_answer_sets_that_differ_by_noise_cannot_be_told_apart():
    base = base_scores(30)
    rng = np.random.default_rng(7)
    noisy = {t: float(np.clip(v + rng.normal(0, 0.03), 0, 1)) for t, v in base.items()}
    keys = list(base)
    permuted = dict(zip(keys, (base[k] for k in rng.permutation(keys))))  # the same scores, other tasks
    pairs = {(r["system_a"], r["system_b"]): r for r in st.pairwise({"a": base, "b": noisy, "c": permuted})}
    assert all(r["verdict"] == st.CANNOT_TELL and r["better"] is None for r in pairs.values())
    assert pairs[("a", "c")]["diff"] == pytest.approx(0.0)  # same scores, reshuffled: no mean difference


def test_noise_is_cannot_tell_in_most_releases():
    """Over 40 simulated pairs of equal methods (independent noise 0.1 per task, 20 tasks), the
    rule says "differs" at most as often as its level allows."""
    differs = 0
    for k in range(40):
        rng = np.random.default_rng(100 + k)
        base = base_scores(20, seed=k)
        a = {t: v + rng.normal(0, 0.1) for t, v in base.items()}
        b = {t: v + rng.normal(0, 0.1) for t, v in base.items()}
        [row] = st.pairwise({"a": a, "b": b}, n_resamples=999)
        differs += row["verdict"] == st.DIFFERS
    assert differs <= 2


def test_a_clearly_better_method_is_reported_better():
    base = base_scores(30)
    better = {t: v + 0.3 for t, v in base.items()}
    [row] = st.pairwise({"baseline": base, "strong": better})
    assert row["verdict"] == st.DIFFERS and row["better"] == "strong"
    assert row["diff"] == pytest.approx(-0.3) and row["diff_ci_high"] < 0 and row["p_holm"] < 0.001
    # a real but smaller gain, noisy per task, over 30 tasks
    rng = np.random.default_rng(3)
    gain = {t: v + 0.15 + rng.normal(0, 0.1) for t, v in base.items()}
    [row] = st.pairwise({"baseline": base, "gain": gain})
    assert row["verdict"] == st.DIFFERS and row["better"] == "gain" and abs(row["diff"]) >= row["mdd"]
    # the same gain over 4 tasks: no paired test can decide
    four = {t: base[t] for t in list(base)[:4]}
    [row] = st.pairwise({"baseline": four, "gain": {t: gain[t] for t in four}})
    assert row["verdict"] == st.CANNOT_TELL and "no paired test" in row["why"]


def test_leaderboard_rows_and_pairwise_table_carry_the_statistics():
    base = base_scores(30)
    scores = (
        scores_of("weak", base)
        + scores_of("strong", {t: v + 0.3 for t, v in base.items()})
        + scores_of("twin", {t: v + 0.01 * (i % 3 - 1) for i, (t, v) in enumerate(base.items())})
    )
    rows = {(r["family"], r["method"]): r for r in report.leaderboard_rows(scores, n_boot=999)}
    venue = rows[("venue", "weak")]
    assert venue["n_fta"] == 30 and venue["fta_lo"] < venue["fta"] < venue["fta_hi"]
    assert venue["fta_mdd"] > 0 and venue["mdd_sd_source"] == "own"
    assert venue["fta_mdd"] == pytest.approx(st.mdd(30, venue["mdd_sd"]))
    pairs = {
        (p["system_a"], p["system_b"]): p
        for p in report.pairwise_table(scores, n_boot=999)
        if p["family"] == "venue" and p["metric"] == "fta"
    }
    assert pairs[("strong@b", "weak@b")]["verdict"] == "differs"
    assert pairs[("strong@b", "weak@b")]["better"] == "strong@b"
    assert pairs[("twin@b", "weak@b")]["verdict"] == "cannot tell"
    md = report.pairwise_markdown(report.pairwise_table(scores, n_boot=999))
    assert "strong@b > weak@b by 0.300" in md
    html = report.report_html(
        title="T",
        rows=report.leaderboard_rows(scores, n_boot=199),
        low_rows=[],
        drift_rows=[],
        ratings=[],
        correlations={"fta": {"fta": None}},
        judge={},
        pairwise=report.pairwise_table(scores, n_boot=199),
    )
    assert "Pairwise method comparisons (FTA)" in html and "FTA MDD" in html


def test_few_tasks_mdd_uses_the_release_sd():
    """A family with 3 tasks takes the larger of its own sd and the release's (all families)."""
    big, small = base_scores(30, seed=1), base_scores(3, seed=2)
    rng = np.random.default_rng(5)
    scores = (
        scores_of("m1", big, family="venue")
        + scores_of("m2", {t: v + rng.normal(0, 0.2) for t, v in big.items()}, family="venue")
        + scores_of("m1", {f"p{t}": v for t, v in small.items()}, family="planning")
        + scores_of("m2", {f"p{t}": v + 0.01 for t, v in small.items()}, family="planning")
    )
    rows = {(r["family"], r["method"]): r for r in report.leaderboard_rows(scores, n_boot=199)}
    planning, overall = rows[("planning", "m1")], rows[("all", "m1")]
    assert planning["mdd_sd_source"] == "pooled" and planning["mdd_sd"] == pytest.approx(overall["mdd_sd"])
    assert planning["fta_mdd"] == pytest.approx(st.mdd(3, overall["mdd_sd"]))


# ----------------------------------------------------------------------------- the validity gate


def test_min_gated_tasks_is_derived_from_its_thresholds():
    th = Thresholds.load()
    assert th.min_gated_tasks == gated_size(th)  # thresholds.yaml keeps the number in step with its derivation
    n = th.min_gated_tasks
    assert st.mdd(n, th.control_sd, sided=1) <= th.control_margin < st.mdd(n - 1, th.control_sd, sided=1)


def control_scores(
    n: int, excess: dict[str, float], *, family: str = "direction", noise: float = 0.15, seed: int = 0, prefix: str = "t"
) -> list[Score]:
    """Random control (20 draws per task) around a per-task chance line, and each control at
    chance + its excess + per-task noise; the gold control at 1."""
    rng = np.random.default_rng(seed)
    out = []
    for i in range(n):
        t = f"{prefix}{i}"
        chance = float(rng.uniform(0.4, 0.6))
        out += [
            Score(
                answer_id=f"{t}::control:random::control::{d}",
                task_id=t,
                family=family,
                method="control:random",
                backbone="control",
                fta=chance,
            )
            for d in range(20)
        ]
        out.append(
            Score(
                answer_id=f"{t}::control:gold::control::0",
                task_id=t,
                family=family,
                method="control:gold",
                backbone="control",
                fta=1.0,
            )
        )
        for control, ex in excess.items():
            out.append(
                Score(
                    answer_id=f"{t}::{control}::control::0",
                    task_id=t,
                    family=family,
                    method=control,
                    backbone="control",
                    fta=float(np.clip(chance + ex + rng.normal(0, noise), 0, 1)),
                )
            )
    return out


def test_a_control_far_above_chance_over_many_tasks_fails_pooled():
    th = Thresholds.load()
    far = {"control:first_option": 0.25, "control:empty": -0.5}
    parts = {f"d{k}@2025-12-31": control_scores(30, far, seed=k, prefix=f"d{k}-") for k in range(4)}
    [row] = pooled_control_checks(parts, th)
    assert row["tasks_released"] == 120 >= th.min_gated_tasks and row["controls_gated"]
    assert row["control_first_option_excess_low"] > th.control_margin and not row["passed"]
    assert "control:first_option beats chance by 0.2" in row["problems"]
    assert "control:empty" not in row["problems"]
    # each partition alone (30 tasks) is shown, not gated
    [alone] = pooled_control_checks({"d0@2025-12-31": parts["d0@2025-12-31"]}, th)
    assert not alone["controls_gated"] and alone["passed"] and alone["control_first_option_beats_margin"]
    assert "controls not gated: 30 released tasks" in alone["notes"] and "first_option" in alone["notes"]


def test_a_control_at_chance_over_many_tasks_passes_pooled():
    th = Thresholds.load()
    near = {"control:first_option": 0.02, "control:other_gold": 0.0}
    parts = {f"d{k}@c": control_scores(30, near, seed=10 + k, prefix=f"d{k}-") for k in range(4)}
    [row] = pooled_control_checks(parts, th, families=["direction", "venue"])[:1]
    assert row["controls_gated"] and row["passed"] and row["control_first_option_excess_low"] < th.control_margin
    empty = pooled_control_checks(parts, th, families=["direction", "venue"])[1]
    assert empty["family"] == "venue" and empty["tasks_released"] == 0 and empty["passed"]
    assert empty["notes"].startswith("empty family")


def test_a_control_above_chance_by_noise_over_three_tasks_is_not_gated():
    th = Thresholds.load()
    tasks = [task(i) for i in range(3)]
    tasks = [
        t.model_copy(update={"options": [o.model_copy(update={"text": f"{o.text} {i}"}) for o in t.options]})
        for i, t in enumerate(tasks)
    ]  # three distinct option sets
    golds = [gold(t, top="ABCD"[i % 4]) for i, t in enumerate(tasks)]
    ratings = [
        TaskRating(task_id=t.task_id, family="direction", elo=1200.0, rank_in_family=i + 1, released=True, quality=1.0)
        for i, t in enumerate(tasks)
    ]
    for g in golds:
        g.numbers.update({"stability_top1": 1.0, "claims_verified": 1.0})
    # the first option is at chance on every task (true excess 0); over these 3 tasks its noise
    # (sd 0.15 per task) puts its mean more than the margin above chance: the old rule
    # (mean > chance + 0.05) failed it
    controls = control_scores(
        3,
        {"control:first_option": 0.0, "control:empty": -0.5, "control:every_option": -0.3, "control:other_gold": 0.0},
        noise=0.15,
        seed=6,
    )
    [row] = validity_rows(tasks, ratings, golds, [], [], controls, th)
    assert row["control_first_option"] > row["control_random"] + th.control_margin
    assert row["control_first_option_excess"] > th.control_margin
    assert not row["controls_gated"] and row["passed"] and row["problems"] == ""
    assert row["notes"].startswith(f"controls not gated: 3 released tasks < {th.min_gated_tasks}")
    assert status(row) == "PASS (controls not gated)"
    # the check itself is still shown, with its one-sided lower bound
    assert row["control_first_option_excess_low"] < row["control_first_option_excess"]

"""Hand-computed checks of the Elo task ranking (assets.ranking.elo)."""

from __future__ import annotations

import random

import pytest

from assets.ranking import elo
from assets.ranking.elo import EloResult, elo_update, expected, run_elo, spearman, top_n


def test_expected_score():
    # equal ratings: 1 / (1 + 10^0) = 0.5
    assert expected(1200, 1200) == pytest.approx(0.5)
    # 400 points ahead: 1 / (1 + 10^-1) = 1 / 1.1 = 0.909091
    assert expected(1600, 1200) == pytest.approx(1 / 1.1)
    assert expected(1200, 1600) == pytest.approx(1 - 1 / 1.1)


def test_elo_update_first_step():
    # both at 1200, A wins with c = 0.8: E_A = 0.5
    # A: 1200 + 32 (0.8 - 0.5) = 1209.6 ; B: 1200 + 32 (0.2 - 0.5) = 1190.4
    a, b = elo_update(1200.0, 1200.0, 0.8)
    assert a == pytest.approx(1209.6)
    assert b == pytest.approx(1190.4)


def test_elo_update_second_step_unequal_ratings():
    # A = 1209.6, B = 1190.4, now B wins with c = 0.7 -> s_A = 0.3
    # E_A = 1 / (1 + 10^((1190.4 - 1209.6) / 400)) = 1 / (1 + 10^-0.048)
    #     = 1 / (1 + 0.895365) = 0.527603
    # A: 1209.6 + 32 (0.3 - 0.527603) = 1209.6 - 7.2833 = 1202.3167
    # B: 1190.4 + 32 (0.7 - 0.472397) = 1190.4 + 7.2833 = 1197.6833
    assert expected(1209.6, 1190.4) == pytest.approx(0.527603, abs=1e-6)
    a, b = elo_update(1209.6, 1190.4, 0.3)
    assert a == pytest.approx(1202.3167, abs=1e-4)
    assert b == pytest.approx(1197.6833, abs=1e-4)
    assert a + b == pytest.approx(1209.6 + 1190.4)  # Elo is zero-sum


def test_elo_update_custom_k():
    # K = 16, equal ratings, A wins with c = 1: A = 1200 + 16 * 0.5 = 1208
    assert elo_update(1200.0, 1200.0, 1.0, k=16.0) == pytest.approx((1208.0, 1192.0))


def _fixed_judge(winner: str, conf: float):
    calls: list[tuple[str, str]] = []

    def judge(x: str, y: str) -> tuple[str, float]:
        calls.append((x, y))
        return winner, conf

    return judge, calls


def test_run_elo_two_items_both_orders_and_history():
    # the judge prefers "a" in both presentation orders, confidences 0.8 and 0.8 -> c = 0.8
    judge, calls = _fixed_judge("a", 0.8)
    res = run_elo(["b", "a"], judge, rounds=2)
    assert isinstance(res, EloResult)
    # each round one pair, judged as (x, y) and (y, x)
    assert res.comparisons == 4 and len(calls) == 4
    assert {calls[0], calls[1]} == {("a", "b"), ("b", "a")}
    # round 1: 1209.6 / 1190.4 (see test_elo_update_first_step)
    assert res.history[0] == pytest.approx({"a": 1209.6, "b": 1190.4})
    # round 2: E_a = 0.527603; a = 1209.6 + 32 (0.8 - 0.527603) = 1209.6 + 8.7167 = 1218.3167
    assert res.history[1] == pytest.approx({"a": 1218.3167, "b": 1181.6833}, abs=1e-4)
    assert res.ratings == res.history[-1]
    # same order in both rounds -> Spearman 1.0
    assert res.rank_correlation_last_two == pytest.approx(1.0)
    assert res.ties == 0


def test_run_elo_mean_confidence_when_orders_agree():
    # (a, b) -> a with 0.9 ; (b, a) -> a with 0.7  => c = 0.8, same as the first-step example
    def judge(x, y):
        return ("a", 0.9) if x == "a" else ("a", 0.7)

    res = run_elo(["a", "b"], judge, rounds=1)
    assert res.ratings == pytest.approx({"a": 1209.6, "b": 1190.4})


def test_run_elo_order_disagreement_is_a_tie():
    # a position-biased judge always prefers whichever item is shown first, with c = 1.0:
    # (a, b) -> a, (b, a) -> b  => different winners => tie, s = 0.5
    def first_shown(x, y):
        return x, 1.0

    # equal ratings: a tie changes nothing (E = 0.5 = s)
    res = run_elo(["a", "b"], first_shown, rounds=3)
    assert res.ratings == pytest.approx({"a": 1200.0, "b": 1200.0})
    assert res.ties == 3
    # constant ratings: rank correlation undefined
    assert res.rank_correlation_last_two is None

    # run_elo starts everyone equal, so check a tie between unequal ratings directly:
    # A 1250, B 1150, s_A = 0.5
    # E_A = 1 / (1 + 10^-0.25) = 1 / 1.562341 = 0.640065
    # A: 1250 + 32 (0.5 - 0.640065) = 1250 - 4.4821 = 1245.5179 ; B: 1154.4821
    assert elo_update(1250.0, 1150.0, 0.5) == pytest.approx((1245.5179, 1154.4821), abs=1e-4)


def test_run_elo_confidence_is_clamped_and_winner_checked():
    # a confidence of 0.3 is read as 0.5 (the documented lower bound): no rating change
    res = run_elo(["a", "b"], lambda x, y: ("a", 0.3), rounds=1)
    assert res.ratings == pytest.approx({"a": 1200.0, "b": 1200.0})
    with pytest.raises(ValueError):
        run_elo(["a", "b"], lambda x, y: ("zzz", 0.9), rounds=1)
    with pytest.raises(ValueError):
        run_elo(["a", "a"], lambda x, y: (x, 0.9), rounds=1)


def test_run_elo_odd_one_sits_out():
    ids = ["a", "b", "c"]
    calls: list[tuple[str, str]] = []

    def judge_by_name(x, y):
        calls.append((x, y))
        return min(x, y), 0.9  # alphabetically first wins, in both orders

    res = run_elo(ids, judge_by_name, rounds=1, seed=7)
    # round 0 uses random.Random(seed + 0) on the sorted ids; the last one sits out
    order = sorted(ids)
    random.Random(7).shuffle(order)
    sitter = order[-1]
    assert res.comparisons == 2 and len(calls) == 2
    assert res.ratings[sitter] == 1200.0
    x, y = order[0], order[1]
    w, lo = min(x, y), max(x, y)
    # c = 0.9 at equal ratings: winner 1200 + 32 * 0.4 = 1212.8, loser 1187.2
    assert res.ratings[w] == pytest.approx(1212.8)
    assert res.ratings[lo] == pytest.approx(1187.2)


def _quality_judge(quality: dict[str, float]):
    def judge(x, y):
        return (x, 0.9) if quality[x] > quality[y] else (y, 0.9)

    return judge


def test_run_elo_deterministic_and_input_order_free():
    quality = {f"t{i}": float(i) for i in range(7)}
    judge = _quality_judge(quality)
    r1 = run_elo(list(quality), judge, rounds=20, seed=3)
    r2 = run_elo(list(quality), judge, rounds=20, seed=3)
    r3 = run_elo(list(reversed(list(quality))), judge, rounds=20, seed=3)
    assert r1 == r2 == r3
    # 7 items -> 3 pairs per round -> 6 judge calls per round
    assert r1.comparisons == 20 * 6
    assert len(r1.history) == 20
    # a consistent judge recovers the hidden order
    assert top_n(r1.ratings, 3) == ["t6", "t5", "t4"]
    # the recorded stability statistic is the Spearman correlation of the last two rounds
    ids = sorted(quality)
    want = spearman([r1.history[-2][i] for i in ids], [r1.history[-1][i] for i in ids])
    assert r1.rank_correlation_last_two == pytest.approx(want)
    assert 0.0 < r1.rank_correlation_last_two <= 1.0


def test_run_elo_degenerate_sizes():
    res = run_elo(["only"], lambda x, y: (x, 1.0), rounds=2)
    assert res.ratings == {"only": 1200.0} and res.comparisons == 0
    assert res.rank_correlation_last_two is None
    res = run_elo(["a", "b"], lambda x, y: ("a", 1.0), rounds=1)
    assert res.rank_correlation_last_two is None  # one round only


def test_spearman_hand_computed_and_fallback(monkeypatch):
    # x ranks [1, 2, 3], y ranks [1, 3, 2]: d = [0, 1, 1], sum d^2 = 2
    # rho = 1 - 6 * 2 / (3 * (9 - 1)) = 1 - 12 / 24 = 0.5
    assert spearman([1.0, 2.0, 3.0], [10.0, 30.0, 20.0]) == pytest.approx(0.5)
    assert spearman([1.0, 1.0], [1.0, 2.0]) is None
    # the no-scipy path gives the same numbers, ties included (average ranks)
    assert elo._ranks([3.0, 1.0, 3.0, 2.0]) == [3.5, 1.0, 3.5, 2.0]
    with_scipy = spearman([1.0, 2.0, 2.0, 4.0], [4.0, 3.0, 1.0, 2.0])
    monkeypatch.setattr(elo, "_scipy_spearmanr", None)
    assert spearman([1.0, 2.0, 3.0], [10.0, 30.0, 20.0]) == pytest.approx(0.5)
    assert spearman([1.0, 2.0, 2.0, 4.0], [4.0, 3.0, 1.0, 2.0]) == pytest.approx(with_scipy)


def test_top_n_ties_broken_by_id():
    ratings = {"b": 1210.0, "a": 1210.0, "c": 1250.0, "d": 1100.0}
    assert top_n(ratings, 3) == ["c", "a", "b"]
    assert top_n(ratings, 10) == ["c", "a", "b", "d"]
    assert top_n(ratings, 0) == []


# ----------------------------------------------------------------------------------------
# rounds until stable, and the LLM judge (litellm mock responses)
# ----------------------------------------------------------------------------------------

import json  # noqa: E402
import os  # noqa: E402
from datetime import date, timedelta  # noqa: E402

os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")

from assets.ranking.elo import run_elo_until_stable  # noqa: E402
from assets.ranking.judge import llm_judge, offline_judge  # noqa: E402
from core.records import Task, TaskOption  # noqa: E402
from resources.llm import LLMClient  # noqa: E402


def test_until_stable_equals_run_elo_round_for_round_and_stops_once_stable():
    quality = {f"t{i}": q for i, q in enumerate([0.9, 0.7, 0.5, 0.3, 0.2, 0.1])}
    judge = offline_judge(quality)
    capped = run_elo_until_stable(list(quality), judge, min_rounds=7, max_rounds=7, stable_correlation=1.1)
    plain = run_elo(list(quality), judge, rounds=7)
    assert capped.ratings == plain.ratings and capped.rounds == 7 and not capped.stable
    res = run_elo_until_stable(list(quality), judge, min_rounds=5, max_rounds=300, stable_correlation=0.98, patience=3)
    assert res.stable and 5 <= res.rounds < 300 and res.rank_correlation_last_two >= 0.98
    # stopping is the first round after min_rounds with 3 consecutive correlations >= 0.98
    corr = [
        spearman([res.history[r - 1][i] for i in sorted(quality)], [res.history[r][i] for i in sorted(quality)])
        for r in range(1, res.rounds)
    ]
    assert all(c >= 0.98 for c in corr[-3:])
    assert top_n(res.ratings, 3) == ["t0", "t1", "t2"]
    with pytest.raises(ValueError):
        run_elo_until_stable(["a"], judge, min_rounds=0)


def _task(task_id: str, title: str) -> Task:
    cut = date(2025, 12, 31)
    return Task(
        task_id=task_id,
        family="direction",
        domain="llm_agent",
        cutoff=cut,
        window_start=cut + timedelta(days=1),
        window_end=date(2026, 6, 30),
        horizon="6-month",
        title=title,
        question=f"{title}?",
        instructions="i",
        answer_requirements=["r"],
        options=[TaskOption(option_id="A", text="x"), TaskOption(option_id="B", text="y")],
    )


class JudgeClient(LLMClient):
    """A real LLMClient replying with litellm mock responses: prefers the task titled
    'good' with confidence 0.8, or (biased=True) always the first-shown task."""

    def __init__(self, tmp_path, biased: bool = False, broken: bool = False):
        super().__init__("openai/mock-judge", api_key="k", cache_dir=str(tmp_path / "cache"), backoff_s=0.0, max_retries=1)
        self.biased, self.broken, self.prompts = biased, broken, []

    def structured(self, messages, schema, *, purpose, temperature=None, seed=None, max_tokens=None, mock_response=None):
        user = messages[-1]["content"]
        self.prompts.append(user)
        first_good = user.index("Title: good") < user.index("Task B") if "Title: good" in user else False
        winner = "A" if self.biased or first_good else "B"
        reply = "nope" if self.broken else json.dumps({"winner": winner, "confidence": 0.8, "reason": "r"})
        return super().structured(
            messages, schema, purpose=purpose, temperature=temperature, seed=seed, max_tokens=max_tokens, mock_response=reply
        )


def test_llm_judge_one_round_matches_the_hand_computed_update(tmp_path):
    tasks = {"g": _task("g", "good"), "p": _task("p", "poor")}
    client = JudgeClient(tmp_path)
    res = run_elo(["g", "p"], llm_judge(client, tasks), rounds=1)
    # both orders prefer "good" with c = 0.8: g = 1200 + 32 * 0.3 = 1209.6, p = 1190.4
    assert res.ratings == pytest.approx({"g": 1209.6, "p": 1190.4})
    assert res.comparisons == 2 and res.ties == 0 and len(client.prompts) == 2
    assert all("Title: good" in p and "Title: poor" in p and "preferred_ranking" not in p for p in client.prompts)
    # second round (cached replies): p - g = -19.2 -> E_g = 1 / (1 + 10^(-19.2/400)) = 0.527603
    # g = 1209.6 + 32 (0.8 - 0.527603) = 1218.3167
    res2 = run_elo(["g", "p"], llm_judge(client, tasks), rounds=2)
    assert res2.ratings["g"] == pytest.approx(1218.3167, abs=1e-4)
    assert client.usage.cache_hits >= 2


def test_llm_judge_position_bias_is_a_tie(tmp_path):
    tasks = {"g": _task("g", "good"), "p": _task("p", "poor")}
    res = run_elo(["g", "p"], llm_judge(JudgeClient(tmp_path, biased=True), tasks), rounds=3)
    assert res.ties == 3 and res.ratings == pytest.approx({"g": 1200.0, "p": 1200.0})


def test_llm_judge_failure_falls_back_to_the_offline_criteria(tmp_path):
    tasks = {"g": _task("g", "good"), "p": _task("p", "poor")}
    errors: list[str] = []
    judge = llm_judge(JudgeClient(tmp_path, broken=True), tasks, fallback=offline_judge({"g": 0.2, "p": 0.5}), errors=errors)
    res = run_elo(["g", "p"], judge, rounds=1)
    # offline: p wins with c = 0.5 + 0.3 = 0.8 in both orders
    assert res.ratings == pytest.approx({"g": 1190.4, "p": 1209.6})
    assert len(errors) == 2
    with pytest.raises(Exception, match="LLM call"):
        llm_judge(JudgeClient(tmp_path, broken=True), tasks)("g", "p")

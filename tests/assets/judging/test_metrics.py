"""Hand-computed checks of the ForeSci Appendix C.1 formulas (core.metrics)."""

from __future__ import annotations

import math
from datetime import date, datetime

import numpy as np
import pytest

from core.metrics import (
    PHI,
    PSI,
    bootstrap_ci,
    claim_precision,
    claim_recall,
    f1,
    fta_ranking,
    fta_reference_guided,
    post_cutoff_citations,
    prediction_factuality,
    trace_linkage,
    trace_score,
)

# ---------------------------------------------------------------- Prediction Factuality


def test_phi_psi_tables():
    assert PHI == {"supported": 1.0, "partially_supported": 0.5, "unsupported": 0.0, "not_checkable": 0.0}
    assert PSI == {"covered": 1.0, "partially_covered": 0.5, "not_covered": 0.0}


def test_prediction_factuality_hand_computed():
    # phi = [1, 0.5, 0, 0]       -> P = 1.5 / 4 = 0.375
    # psi = [1, 0.5, 0]          -> R = 1.5 / 3 = 0.5
    # F1 = 2 * 0.375 * 0.5 / (0.375 + 0.5) = 0.375 / 0.875 = 3/7 = 0.428571...
    out = prediction_factuality(
        ["supported", "partially_supported", "unsupported", "not_checkable"],
        ["covered", "partially_covered", "not_covered"],
    )
    assert out["precision"] == pytest.approx(0.375)
    assert out["recall"] == pytest.approx(0.5)
    assert out["f1"] == pytest.approx(3 / 7)


def test_prediction_factuality_label_spelling_is_normalised():
    # "Partially supported" == "partially-supported" == "partially_supported" -> 0.5 each
    out = prediction_factuality(["Partially supported", "partially-supported"], ["Partially Covered"])
    assert out == {"precision": pytest.approx(0.5), "recall": pytest.approx(0.5), "f1": pytest.approx(0.5)}


def test_prediction_factuality_unknown_label_raises():
    with pytest.raises(ValueError):
        prediction_factuality(["true"], ["covered"])


def test_empty_claims_and_empty_bank():
    # no answer claims: P = 0.0 (supports nothing); R = 2/2 = 1 -> F1 = 0 (P + R > 0, PR = 0)
    out = prediction_factuality([], ["covered", "covered"])
    assert out == {"precision": 0.0, "recall": 1.0, "f1": 0.0}
    # empty hidden bank: recall undefined -> None, so F1 None
    out = prediction_factuality(["supported"], [])
    assert out == {"precision": 1.0, "recall": None, "f1": None}


def test_precision_recall_f1_primitives():
    assert claim_precision([1.0, 0.0]) == pytest.approx(0.5)
    assert claim_precision([]) == 0.0
    assert claim_recall([0.5]) == pytest.approx(0.5)
    assert claim_recall([]) is None
    assert f1(0.0, 0.0) == 0.0
    assert f1(None, 0.5) is None and f1(0.5, None) is None
    # 2 * 0.8 * 0.4 / 1.2 = 0.64 / 1.2 = 0.53333...
    assert f1(0.8, 0.4) == pytest.approx(0.64 / 1.2)


# ------------------------------------------------------------ Reference-guided FTA


def test_fta_rg_hand_computed_2d():
    # claims (unnormalised): c1 = (1, 0), c2 = (0, 2)
    claims = np.array([[1.0, 0.0], [0.0, 2.0]])
    slots = [
        np.array([[3.0, 0.0]]),  # same direction as c1: cos = 1               -> S1 = 1
        np.array([[1.0, 1.0]]),  # 45 deg from both claims: cos = 1/sqrt(2)     -> S2 = 0.707107
        np.array([[-1.0, 0.0], [0.0, -5.0]]),  # cosines -1, 0 / 0, -1 -> max(0, .) = 0 -> S3 = 0
        np.array([[1.0, math.sqrt(3.0)], [-2.0, -1.0]]),  # 60 deg from c1 (cos 0.5), 30 deg from c2
        # (cos sqrt(3)/2 = 0.866025); second variant negative with both -> S4 = 0.866025
    ]
    out = fta_reference_guided(claims, slots)
    s = [1.0, 1 / math.sqrt(2), 0.0, math.sqrt(3) / 2]
    assert out["slot_scores"] == pytest.approx(s)
    # FTA_RG = (1 + 0.707107 + 0 + 0.866025) / 4 = 0.643283
    assert out["score"] == pytest.approx(sum(s) / 4)
    assert out["score"] == pytest.approx(0.643283, abs=1e-6)


def test_fta_rg_edge_cases():
    slots = [np.array([[1.0, 0.0]]), np.array([[0.0, 1.0]])]
    # no claims -> 0 with every slot 0
    assert fta_reference_guided(np.zeros((0, 2)), slots) == {"score": 0.0, "slot_scores": [0.0, 0.0]}
    # no slots -> undefined
    assert fta_reference_guided(np.array([[1.0, 0.0]]), [])["score"] is None
    # a zero claim vector has cosine 0 with everything (no division by zero); an empty
    # slot scores 0: (1 + 0) / 2 = 0.5
    out = fta_reference_guided(np.array([[0.0, 0.0], [1.0, 0.0]]), [np.array([[2.0, 0.0]]), np.zeros((0, 2))])
    assert out == {"score": pytest.approx(0.5), "slot_scores": [pytest.approx(1.0), 0.0]}


# ----------------------------------------------------------------------- Ranking FTA


def test_fta_ranking_swap_of_first_two():
    # pi* = [A, B, C], pi_hat = [B, A, C]
    # recall:  top  = I[B == A] = 0
    #          pos  = (A elsewhere 0.5 + B elsewhere 0.5 + C same 1) / 3 = 2/3
    #          pair = (A<B? no, A<C yes, B<C yes) = 2/3
    #          R    = (0 + 2/3 + 2/3) / 3 = 4/9
    # precision over pi_hat vs pi*: top 0; pos (B elsewhere 0.5, A elsewhere 0.5, C same 1) = 2/3;
    #          pairs of pi_hat (B<A? no, B<C yes, A<C yes) = 2/3 -> P = 4/9
    # F1 = 4/9
    out = fta_ranking(["A", "B", "C"], ["B", "A", "C"])
    assert out["top"] == 0.0
    assert out["pos"] == pytest.approx(2 / 3)
    assert out["pair"] == pytest.approx(2 / 3)
    assert out["recall"] == pytest.approx(4 / 9)
    assert out["precision"] == pytest.approx(4 / 9)
    assert out["f1"] == pytest.approx(4 / 9)


def test_fta_ranking_missing_and_extra_items():
    # pi* = [A, B, C], pi_hat = [A, D]
    # recall:  top 1; pos (A same 1, B missing 0, C missing 0) = 1/3;
    #          pairs (A,B) (A,C) (B,C) all involve a missing item -> 0;  R = (1 + 1/3 + 0)/3 = 4/9
    # precision: top 1; pos over pi_hat (A == r1 -> 1, D not in pi* -> 0) = 1/2;
    #          pair (A,D): D not in pi* -> 0;  P = (1 + 1/2 + 0)/3 = 1/2
    # F1 = 2 * (1/2)(4/9) / (1/2 + 4/9) = (4/9) / (17/18) = 8/17 = 0.470588
    out = fta_ranking(["A", "B", "C"], ["A", "D"])
    assert (out["top"], out["pos"], out["pair"]) == (1.0, pytest.approx(1 / 3), 0.0)
    assert (out["precision_top"], out["precision_pos"], out["precision_pair"]) == (1.0, 0.5, 0.0)
    assert out["recall"] == pytest.approx(4 / 9)
    assert out["precision"] == pytest.approx(0.5)
    assert out["f1"] == pytest.approx(8 / 17)


def test_fta_ranking_single_item_pair_term_follows_top():
    # pi* = [A] (K = 1, no pairs): recall pair := top = 1 -> R = (1 + 1 + 1)/3 = 1
    # pi_hat = [A, B]: precision top 1, pos (A 1, B not in pi* 0) = 1/2, pair (A,B) 0 -> P = 1/2
    # F1 = 2 * 0.5 * 1 / 1.5 = 2/3
    out = fta_ranking(["A"], ["A", "B"])
    assert out["recall"] == pytest.approx(1.0)
    assert out["precision"] == pytest.approx(0.5)
    assert out["f1"] == pytest.approx(2 / 3)
    # pi* = [A], pi_hat = [B]: top 0, pos 0, pair := top = 0 on both sides -> all 0
    out = fta_ranking(["A"], ["B"])
    assert (out["precision"], out["recall"], out["f1"]) == (0.0, 0.0, 0.0)


def test_fta_ranking_perfect_empty_and_duplicates():
    perfect = fta_ranking(["A", "B", "C"], ["A", "B", "C"])
    assert (perfect["precision"], perfect["recall"], perfect["f1"]) == (1.0, 1.0, 1.0)
    empty = fta_ranking(["A", "B"], [])
    assert set(empty.values()) == {0.0}
    # duplicates in the inferred list are dropped (first occurrence kept): [A, A, B] == [A, B]
    assert fta_ranking(["A", "B"], ["A", "A", "B"]) == fta_ranking(["A", "B"], ["A", "B"])
    # no preferred ranking: nothing to score
    assert set(fta_ranking([], ["A"]).values()) == {None}


# ---------------------------------------------------------------------- Traceability


def test_trace_score():
    # 0.50 * 1 + 0.25 * 0.5 + 0.25 * 0 = 0.625
    assert trace_score(1.0, 0.5, 0.0) == pytest.approx(0.625)
    # 0.5 * 0.4 + 0.25 * 0.8 + 0.25 * 0.2 = 0.2 + 0.2 + 0.05 = 0.45
    assert trace_score(0.4, 0.8, 0.2) == pytest.approx(0.45)
    assert trace_score(1.0, 1.0, 1.0, has_support_artifact=False) is None
    assert trace_score(1.0, None, 1.0) is None
    with pytest.raises(ValueError):
        trace_score(1.5, 0.0, 0.0)


def test_trace_linkage_and_post_cutoff():
    cutoff = date(2024, 12, 31)
    kb = {"p1": date(2024, 1, 1), "p2": date(2025, 6, 1), "p4": datetime(2024, 12, 31, 23, 0)}
    support = {"s1", "p2"}
    # distinct cited ids: p1, p2, p3, s1, p4  (the repeated p1 and the blank are dropped)
    #   p1: in KB, 2024-01-01 <= cutoff          -> ok
    #   p2: in support but KB-dated after cutoff -> leak, not ok
    #   p3: unknown anywhere                     -> not ok
    #   s1: support packet, no KB date           -> ok
    #   p4: KB datetime on the cutoff day        -> ok
    # e = 3 / 5 = 0.6
    cited = ["p1", "p2", "p3", "p1", " ", "s1", "p4"]
    assert trace_linkage(cited, support, kb, cutoff) == pytest.approx(0.6)
    assert trace_linkage([], support, kb, cutoff) == 0.0
    # after cutoff (p2) or undated in the KB (p3, s1), in first-citation order
    assert post_cutoff_citations(cited, kb, cutoff) == ["p2", "p3", "s1"]


# ------------------------------------------------------------------------- Bootstrap


def test_bootstrap_ci():
    assert bootstrap_ci([]) == (None, None, None)
    assert bootstrap_ci([None, None]) == (None, None, None)
    # one task has no interval; constant values: the interval collapses onto the mean
    assert bootstrap_ci([None, 2.0]) == (2.0, None, None)
    assert bootstrap_ci([0.3, 0.3, 0.3]) == pytest.approx((0.3, 0.3, 0.3))
    vals = [0.0, 1.0] * 20  # mean 0.5
    mean, lo, hi = bootstrap_ci(vals, n_boot=2000, seed=1)
    assert mean == pytest.approx(0.5)
    # the standard error of the mean is 0.5 / sqrt(40) = 0.079, so the 95% CI is about
    # 0.5 +- 0.155; allow slack for resampling noise
    assert 0.30 < lo < 0.40 and 0.60 < hi < 0.70
    assert bootstrap_ci(vals, n_boot=2000, seed=1) == (mean, lo, hi)  # seeded -> reproducible


# ---------------------------------------------------------------- diagnostics (ForeSci §5.2, App. F)

from assets.judging import diagnostics as dx  # noqa: E402


def test_low_score_ids_rank_selected_bottom_20_percent():
    rows = [{"answer_id": k, "fta": v} for k, v in zip("abcdef", [0.1, 0.5, 0.3, 0.9, 0.2, None])]
    # 5 rows have FTA: k = round(0.2 * 5) = 1 -> the single lowest
    assert dx.low_score_ids(rows, "fta") == {"a"}
    ten = [{"answer_id": f"x{i}", "fta": v} for i, v in enumerate([0.3, 0.1, 0.1, 0.9, 0.8, 0.7, 0.6, 0.5, 0.4, 0.2])]
    # k = 2; the two 0.1 values (x1, x2) — ties broken by id
    assert dx.low_score_ids(ten, "fta") == {"x1", "x2"}
    assert dx.low_score_ids(rows, "fact") == set()


def test_low_score_rates_table_a10_shape():
    rows = [
        {"answer_id": "1", "family": "planning", "method": "m1", "fta": 0.0, "trace": None},
        {"answer_id": "2", "family": "planning", "method": "m2", "fta": 0.1, "trace": 0.9},
        {"answer_id": "3", "family": "direction", "method": "m1", "fta": 0.8, "trace": None},
        {"answer_id": "4", "family": "direction", "method": "m2", "fta": 0.9, "trace": 0.2},
        {"answer_id": "5", "family": "direction", "method": "m2", "fta": 0.7, "trace": 0.5},
    ]
    out = {(r["grouping"], r["unit"]): r for r in dx.low_score_rates(rows, metrics=("fta", "trace"))}
    # FTA: 5 rows -> 1 low ("1"); planning has 1 of 2 low, direction 0 of 3
    assert out[("family", "planning")]["low_fta"] == 0.5
    assert out[("family", "direction")]["low_fta"] == 0.0
    assert out[("method", "m1")]["low_fta"] == 0.5
    # Trace: only 3 rows have it (m1 has no support artifact) -> k = round(0.6) = 1 -> "4"
    assert out[("method", "m1")]["low_trace"] is None and out[("method", "m1")]["n_trace"] == 0
    assert out[("method", "m2")]["low_trace"] == pytest.approx(1 / 3)
    assert out[("family", "planning")]["low_trace"] == 0.0


def test_delta_norm_hand_computed():
    # aligned (s=0): 1, 1; severe (s>=2): 0, 0; s=1 is audited (counts in SD) but in neither group
    # values 1, 1, 0, 0, 0.5 -> mean .5, population SD sqrt((.25*4 + 0)/5) = sqrt(.2)
    out = dx.delta_norm([1, 1, 0, 0, 0.5], [0, 0, 2, 3, 1])
    assert out["mean_aligned"] == 1.0 and out["mean_severe"] == 0.0
    assert out["n_aligned"] == 2 and out["n_severe"] == 2
    assert out["delta_norm"] == pytest.approx(1.0 / math.sqrt(0.2))
    # a missing metric or severity drops the row; no severe rows -> None
    assert dx.delta_norm([1, None, 0], [0, 3, 1])["delta_norm"] is None
    assert dx.delta_norm([0.5, 0.5], [0, 3])["delta_norm"] is None  # SD 0


def test_drift_effects_overall_and_by_family():
    rows = [
        {"family": "planning", "fta": 1.0, "drift": {"causal_role": 0}},
        {"family": "planning", "fta": 0.0, "drift": {"causal_role": 3}},
        {"family": "venue", "fta": 0.6, "drift": {"causal_role": 0}},
        {"family": "venue", "fta": 0.2, "drift": {}},
    ]  # no labels: ignored
    out = {
        (r["family"], r["drift_type"], r["metric"]): r
        for r in dx.drift_effects(rows, metrics=("fta",), drift_types=("causal_role",))
    }
    # overall: aligned 1.0, 0.6 -> .8; severe 0.0; SD of (1, 0, .6) population
    sd = float(np.std([1.0, 0.0, 0.6]))
    assert out[("all", "causal_role", "fta")]["delta_norm"] == pytest.approx(0.8 / sd)
    assert out[("planning", "causal_role", "fta")]["delta_norm"] == pytest.approx(1.0 / 0.5)
    assert out[("venue", "causal_role", "fta")]["delta_norm"] is None
    assert dx.drift_effects([{"family": "x", "fta": 1, "drift": {}}], ("fta",)) == []


def test_bradley_terry_hand_computed():
    comps = [
        {"system_a": "A", "system_b": "B", "winner": "a"},
        {"system_a": "B", "system_b": "A", "winner": "b"},
        {"system_a": "A", "system_b": "B", "winner": "b"},
    ]
    # A: 2 wins of 3, + one virtual tie -> 2.5 of 4; MLE p_A / p_B = 2.5 / 1.5
    p = dx.bradley_terry(comps)
    assert p["A"] / p["B"] == pytest.approx(2.5 / 1.5, rel=1e-6)
    assert p["A"] * p["B"] == pytest.approx(1.0)  # geometric mean 1
    assert dx.bt_rating(p["A"]) == pytest.approx(1200 + 400 * math.log10(math.sqrt(5 / 3)), rel=1e-6)
    # an undefeated system stays finite; ties count half
    p2 = dx.bradley_terry([{"system_a": "A", "system_b": "B", "winner": "a"}] * 3)
    assert p2["A"] / p2["B"] == pytest.approx(3.5 / 0.5, rel=1e-6)
    p3 = dx.bradley_terry([{"system_a": "A", "system_b": "B", "winner": "tie"}] * 4)
    assert p3["A"] == pytest.approx(1.0) and p3["B"] == pytest.approx(1.0)


def test_elo_and_method_ratings():
    one = [{"system_a": "A", "system_b": "B", "winner": "a"}]
    # one game from 1200/1200: E = .5, K = 32 -> 1216 / 1184 whatever the order
    assert dx.elo_ratings(one, permutations=5) == {"A": pytest.approx(1216.0), "B": pytest.approx(1184.0)}
    comps = one * 3 + [{"system_a": "B", "system_b": "C", "winner": "tie"}, {"system_a": "A", "system_b": "C", "winner": "a"}]
    rows = {r["system"]: r for r in dx.method_ratings([{**c, "source": "metric:fta"} for c in comps])}
    assert (rows["A"]["wins"], rows["A"]["losses"], rows["A"]["ties"]) == (4, 0, 0)
    assert (rows["B"]["wins"], rows["B"]["losses"], rows["B"]["ties"]) == (0, 3, 1)
    assert rows["A"]["bt_rating"] > rows["C"]["bt_rating"] and rows["A"]["elo"] > rows["B"]["elo"]
    assert dx.elo_ratings(comps, seed=1) == dx.elo_ratings(comps, seed=1)  # deterministic


def test_pairwise_from_scores_averages_seeds():
    rows = [{"task_id": "t", "family": "venue", "method": "m1", "backbone": "b", "fta": v} for v in (0.2, 0.6)]
    rows += [
        {"task_id": "t", "family": "venue", "method": "m2", "backbone": "b", "fta": 0.4},
        {"task_id": "t", "family": "venue", "method": "m3", "backbone": "b", "fta": None},
    ]
    out = dx.pairwise_from_scores(rows, "fta")
    assert [(c["system_a"], c["system_b"], c["winner"]) for c in out] == [("m1@b", "m2@b", "tie")]  # .4 vs .4
    assert dx.swap_verdict("a", "a") == "a" and dx.swap_verdict("a", "b") == "tie"


def test_agreement_statistics():
    # po = 3/4; pe = .5*.25 + .5*.75 = .5 -> kappa = .5
    assert dx.cohen_kappa(["x", "x", "y", "y"], ["x", "y", "y", "y"]) == pytest.approx(0.5)
    assert dx.cohen_kappa([], []) is None
    out = dx.score_agreement([0.5, 0.2, 1.0, None], [0.55, 0.5, 1.0, 0.3])
    assert out["n"] == 3 and out["mean_abs_diff"] == pytest.approx((0.05 + 0.3 + 0) / 3)
    assert out["share_within_0.1"] == pytest.approx(2 / 3)
    assert out["spearman"] == pytest.approx(1.0)
    m = dx.spearman_matrix([{"a": i, "b": -i, "c": 1} for i in range(4)], ["a", "b", "c"])
    assert m["a"]["b"] == pytest.approx(-1.0) and m["a"]["c"] is None and m["a"]["a"] == 1.0


def test_supported_share_falls_for_decisions_no_cited_passage_states():
    from core.metrics import supported_share

    passages = ["Tool-augmented agents. We train LLM agents to call external APIs and tools reliably."]
    assert supported_share(["Tool-augmented LLM agents calling APIs"], passages) == 1.0
    assert supported_share(["Diffusion models for protein folding"], passages) == 0.0
    assert supported_share(["Tool-augmented LLM agents calling APIs", "Diffusion models for protein folding"], passages) == 0.5
    assert supported_share(["Tool-augmented LLM agents calling APIs"], []) == 0.0
    assert supported_share([], passages) is None

"""Elo ranking of candidate tasks by pairwise LLM-judge preference.

Follows the RankEval procedure of DeepResearch Arena (§3, eqs. 1-3 there; the equations
are the standard Elo ones): every item starts at 1200; each round draws disjoint random
pairs; a judge names the preferred item with a confidence c in [0.5, 1]; the soft outcome
is s_winner = c, s_loser = 1 - c; and each rating moves by K * (s - E) with K = 32.

Addition of ours (not in the source paper): to cancel the judge's position bias, each pair
is judged in both presentation orders; if the two verdicts name different winners the
match is a tie (s = 0.5), otherwise c is the mean of the two confidences.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field

try:  # scipy is a transitive dependency (scikit-learn) but keep a fallback
    from scipy.stats import spearmanr as _scipy_spearmanr
except ImportError:  # pragma: no cover - exercised only without scipy
    _scipy_spearmanr = None

INITIAL_RATING = 1200.0
K_FACTOR = 32.0

# judge(first_shown_id, second_shown_id) -> (winner_id, confidence in [0.5, 1])
Judge = Callable[[str, str], tuple[str, float]]


def expected(r_a: float, r_b: float) -> float:
    """Expected score of A against B (Arena eq. 1): 1 / (1 + 10^((R_b - R_a) / 400))."""
    return 1.0 / (1.0 + 10.0 ** ((r_b - r_a) / 400.0))


def elo_update(r_a: float, r_b: float, s_a: float, k: float = K_FACTOR) -> tuple[float, float]:
    """One Elo update (Arena eq. 3): R' = R + K (s - E), with s_b = 1 - s_a.

    `s_a` is A's soft outcome (Arena eq. 2: the winner's confidence c, or 1 - c if A lost).
    """
    e_a = expected(r_a, r_b)
    e_b = 1.0 - e_a
    s_b = 1.0 - s_a
    return r_a + k * (s_a - e_a), r_b + k * (s_b - e_b)


@dataclass
class EloResult:
    """Outcome of `run_elo`.

    ratings: final rating per id. history: ratings after each round (one dict per round).
    rank_correlation_last_two: Spearman correlation between the ratings after the last two
    rounds (a stability check); None with fewer than two items or rounds, or when either
    round's ratings are all equal (correlation undefined).
    comparisons: number of judge calls (two per pair per round).
    ties: number of pair matches scored as ties because the two orders disagreed.
    """

    ratings: dict[str, float]
    history: list[dict[str, float]] = field(default_factory=list)
    rank_correlation_last_two: float | None = None
    comparisons: int = 0
    ties: int = 0
    rounds: int = 0
    stable: bool = False


def _ranks(xs: Sequence[float]) -> list[float]:
    """Average ranks (1-based), ties sharing the mean of their positions."""
    order = sorted(range(len(xs)), key=lambda i: xs[i])
    ranks = [0.0] * len(xs)
    i = 0
    while i < len(order):
        j = i
        while j + 1 < len(order) and xs[order[j + 1]] == xs[order[i]]:
            j += 1
        for t in range(i, j + 1):
            ranks[order[t]] = (i + j) / 2.0 + 1.0
        i = j + 1
    return ranks


def spearman(x: Sequence[float], y: Sequence[float]) -> float | None:
    """Spearman rank correlation; None if fewer than 2 points or either side is constant."""
    if len(x) != len(y):
        raise ValueError("spearman: sequences differ in length")
    if len(x) < 2 or len(set(x)) < 2 or len(set(y)) < 2:
        return None
    if _scipy_spearmanr is not None:
        return float(_scipy_spearmanr(x, y)[0])
    # Pearson correlation of the average ranks (what scipy computes)
    rx, ry = _ranks(x), _ranks(y)
    n = len(rx)
    mx, my = sum(rx) / n, sum(ry) / n
    cov = sum((a - mx) * (b - my) for a, b in zip(rx, ry))
    vx = sum((a - mx) ** 2 for a in rx)
    vy = sum((b - my) ** 2 for b in ry)
    return cov / (vx * vy) ** 0.5


def _judge_pair(judge: Judge, a: str, b: str) -> tuple[float, bool]:
    """A's soft outcome against B from two judge calls, (a, b) then (b, a); and tie flag."""
    verdicts = []
    for first, second in ((a, b), (b, a)):
        winner, conf = judge(first, second)
        if winner not in (a, b):
            raise ValueError(f"judge named {winner!r}, which is neither {a!r} nor {b!r}")
        # clamp: an LLM may report confidences outside the documented [0.5, 1] range
        verdicts.append((winner, min(1.0, max(0.5, float(conf)))))
    (w1, c1), (w2, c2) = verdicts
    if w1 != w2:
        # the verdict flipped with presentation order (position bias or genuine
        # indifference): no reliable preference, score it as a draw
        return 0.5, True
    c = (c1 + c2) / 2.0
    return (c if w1 == a else 1.0 - c), False


def _play_round(ids: list[str], ratings: dict[str, float], judge, *, k: float, seed: int) -> tuple[int, int]:
    """One round: shuffle with `seed`, pair disjointly (an odd one sits out), judge each pair
    in both orders, update `ratings` in place. Returns (judge calls, ties)."""
    order = list(ids)
    random.Random(seed).shuffle(order)
    comparisons = ties = 0
    for p in range(0, len(order) - 1, 2):
        a, b = order[p], order[p + 1]
        s_a, tied = _judge_pair(judge, a, b)
        comparisons += 2
        ties += tied
        ratings[a], ratings[b] = elo_update(ratings[a], ratings[b], s_a, k=k)
    return comparisons, ties


def run_elo(
    item_ids: Sequence[str],
    judge: Judge,
    rounds: int = 20,
    k: float = K_FACTOR,
    initial: float = INITIAL_RATING,
    seed: int = 0,
) -> EloResult:
    """Rate `item_ids` over `rounds` rounds of disjoint random pairings.

    Round r (0-based) shuffles the ids with `random.Random(seed + r)` and pairs them
    consecutively; with an odd count the last one sits the round out. The ids are sorted
    before shuffling so the result does not depend on the input order. Pairs within a round
    are disjoint, so updating them one after another equals a simultaneous update.
    """
    ids = sorted(item_ids)
    if len(set(ids)) != len(ids):
        raise ValueError("run_elo: duplicate item ids")
    if rounds < 0:
        raise ValueError("run_elo: rounds must be >= 0")

    ratings = {i: float(initial) for i in ids}
    history: list[dict[str, float]] = []
    comparisons = 0
    ties = 0
    for r in range(rounds):
        played, tied = _play_round(ids, ratings, judge, k=k, seed=seed + r)
        comparisons += played
        ties += tied
        history.append(dict(ratings))

    corr = None
    if len(history) >= 2 and len(ids) >= 2:
        prev, last = history[-2], history[-1]
        corr = spearman([prev[i] for i in ids], [last[i] for i in ids])
    return EloResult(
        ratings=dict(ratings),
        history=history,
        rank_correlation_last_two=corr,
        comparisons=comparisons,
        ties=ties,
        rounds=len(history),
    )


def run_elo_until_stable(
    item_ids: Sequence[str],
    judge: Judge,
    *,
    min_rounds: int = 10,
    max_rounds: int = 200,
    stable_correlation: float = 0.98,
    patience: int = 3,
    k: float = K_FACTOR,
    initial: float = INITIAL_RATING,
    seed: int = 0,
) -> EloResult:
    """`run_elo` that stops once the ratings have stabilised.

    Rounds are exactly those of `run_elo` (same pairing per round for the same seed). After
    `min_rounds`, it stops when the Spearman correlation between consecutive rounds'
    ratings has been >= `stable_correlation` for `patience` rounds in a row (or is
    undefined because fewer than two items are rated), and at `max_rounds` regardless;
    `stable` says which. The correlation of the last two rounds is recorded as in `run_elo`.
    """
    ids = sorted(item_ids)
    if len(set(ids)) != len(ids):
        raise ValueError("run_elo_until_stable: duplicate item ids")
    if not 1 <= min_rounds <= max_rounds:
        raise ValueError("run_elo_until_stable: need 1 <= min_rounds <= max_rounds")
    ratings = {i: float(initial) for i in ids}
    history: list[dict[str, float]] = []
    comparisons = ties = streak = 0
    stable = False
    for r in range(max_rounds):
        played, tied = _play_round(ids, ratings, judge, k=k, seed=seed + r)
        comparisons += played
        ties += tied
        history.append(dict(ratings))
        if len(ids) < 2:
            stable = True
        elif len(history) >= 2:
            c = spearman([history[-2][i] for i in ids], [history[-1][i] for i in ids])
            streak = streak + 1 if c is not None and c >= stable_correlation else 0
            stable = streak >= patience
        if stable and len(history) >= min_rounds:
            break
    corr = None
    if len(history) >= 2 and len(ids) >= 2:
        corr = spearman([history[-2][i] for i in ids], [history[-1][i] for i in ids])
    return EloResult(
        ratings=dict(ratings),
        history=history,
        rank_correlation_last_two=corr,
        comparisons=comparisons,
        ties=ties,
        rounds=len(history),
        stable=stable,
    )


def top_n(ratings: Mapping[str, float], n: int) -> list[str]:
    """The n best ids by rating (descending), ties broken by id (ascending)."""
    if n < 0:
        raise ValueError("top_n: n must be >= 0")
    return sorted(ratings, key=lambda i: (-ratings[i], i))[:n]

"""Option sets of one subfield and one level (the direction family's draw; planning reuses `keep_new_set`).

Split out of `assets.toolbox.building` (issue 32). A set's options are siblings: no two
near-duplicates (`near_duplicate`), all of one subfield (`subfield_problem`: centroid cosines), and,
where the family asks for it (`level_problem`), of one level of generality: no option an umbrella
over another or containing another's papers, none from an unrelated field, none a much broader
bet than the others (`assets.toolbox.option_level`).
"""

from __future__ import annotations

import random
from collections.abc import Callable

from assets.toolbox.option_level import same_parent
from assets.toolbox.option_text import dimension_of, direction_name, overlap
from core.phrases import same_direction
from core.records import Signal

MIN_OPTIONS, MAX_OPTIONS = 4, 5
NEAR_DUPLICATE_OVERLAP = 0.3  # options of one task share at most 30% of the smaller one's papers ...
NEAR_DUPLICATE_COS = 0.65  # ... and their papers' centroids are less similar than this (near-synonyms otherwise)
SUBFIELD_MIN_COS = 0.10  # a direction task's options: centroid cosine to its seed option at least this ...
SUBFIELD_PAIR_MIN = 0.0  # ... and between every two of them (centred centroids: unrelated topics sit near 0;
# a hand check of released sets below 0.05 found half mixed subfields, "flow matching / underwater image / MRI":
# mixed KINDS, which `assets.toolbox.option_level.kind_problem` now keeps apart; with options of one kind the
# bar was 0.05 until issue 32's kinds and blocked sibling tasks such as "code generation / machine translation")
MAX_SHARED_OPTIONS = 2  # two tasks of a family sharing more options ask the same question
SET_ATTEMPTS = 6000  # seeded draws of option sets per family and partition (600 left small pools with 16 sets
# where 40+ distinct ones exist: llm_agent@2025-12-31 16 -> 43 sets; a draw costs microseconds)

# --------------------------------------------------------------------------------------
# option-set sampling (direction, planning)
# --------------------------------------------------------------------------------------


def near_duplicate(a: Signal, b: Signal) -> str | None:
    """Why two candidates are one direction, or None: the same or nested name
    (`core.phrases.same_direction`: key, acronym), a shared defining phrase, or more
    than NEAR_DUPLICATE_OVERLAP of the smaller one's papers in common (a reader must be able to
    tell which option a paper belongs to)."""
    if same_direction(direction_name(a), direction_name(b)):
        return f"'{direction_name(a)}' and '{direction_name(b)}' name the same direction"
    if set(a.details.get("defining_phrases", [])) & set(b.details.get("defining_phrases", [])):
        return f"'{direction_name(a)}' and '{direction_name(b)}' share a defining phrase"
    if (ov := overlap(a, b)) > NEAR_DUPLICATE_OVERLAP:
        return f"'{direction_name(a)}' and '{direction_name(b)}' share {ov:.0%} of the smaller one's papers"
    if (cos := neighbour_cos(a, b)) is not None and cos >= NEAR_DUPLICATE_COS:
        return f"'{direction_name(a)}' and '{direction_name(b)}' are near-synonyms (centroid cosine {cos:.2f})"
    return None


def _compatible(group: list[Signal]) -> bool:
    """No two options of a set are near-duplicates (`near_duplicate`)."""
    return all(near_duplicate(a, b) is None for i, a in enumerate(group) for b in group[i + 1 :])


def neighbour_cos(a: Signal, b: Signal) -> float | None:
    """Cosine of two candidates' centred paper centroids (`details["neighbour_cos"]`, written
    by the evidence stage), None when unknown."""
    for item in a.details.get("neighbour_cos", []):
        sid, _, value = item.rpartition("=")
        if sid == b.signal_id:
            return float(value)
    return None


def subfield_problem(group: list[Signal]) -> str | None:
    """Why a set of candidates (its seed first) is not one subfield's bets, or None: an option
    whose paper centroid is less similar to the seed's than SUBFIELD_MIN_COS, two options below
    SUBFIELD_PAIR_MIN, or, without cosines, two of different taxonomy dimensions."""
    for i, a in enumerate(group):
        for b in group[i + 1 :]:
            cos = neighbour_cos(a, b)
            bar = SUBFIELD_MIN_COS if i == 0 else SUBFIELD_PAIR_MIN
            if cos is not None and cos < bar and not same_parent(a, b):
                return f"'{direction_name(a)}' and '{direction_name(b)}' are not one subfield (centroid cosine {cos:.2f} < {bar})"
            if cos is None and dimension_of(a) != dimension_of(b):
                return f"'{direction_name(a)}' and '{direction_name(b)}' are of different taxonomy dimensions"
    return None


def subfield_option_sets(
    candidates: list[Signal],
    rng_key: str,
    n_sets: int,
    attempts: int | None = None,
    set_problem: Callable[[list[Signal]], str | None] | None = None,
) -> list[list[Signal]]:
    """Option sets of one subfield each (the direction family's rule).

    A seed's subfield is the candidates whose centroid cosine to it is >= SUBFIELD_MIN_COS (for
    candidates without cosines, e.g. hand-made ones, the candidates of its taxonomy dimension). Seeds
    are taken round-robin in a seeded random order; each attempt draws MIN_OPTIONS or MAX_OPTIONS
    options (seeded) from the seed's subfield, and keeps the set when no two options are unrelated
    (`subfield_problem`: cosine >= SUBFIELD_PAIR_MIN) or near-duplicates (`near_duplicate`), and
    it shares at most MAX_SHARED_OPTIONS options with every set kept before (more would ask the
    same question twice). Order within a set is shuffled later (`shuffled_options`).
    `set_problem` (the direction family's `assets.toolbox.option_level.level_problem`), when
    given, is one more rule a set must pass; a seed's subfield then holds only the candidates
    that pass it beside the seed, so the draw is not wasted on pairs that can never share a set.
    """
    attempts = SET_ATTEMPTS if attempts is None else attempts
    seeds = sorted(candidates, key=lambda s: s.signal_id)
    random.Random(f"{rng_key}-seeds").shuffle(seeds)

    def close(a: Signal, b: Signal) -> bool:
        if same_parent(a, b):
            return True  # curated siblings (`assets.toolbox.option_level.same_parent`)
        cos = neighbour_cos(a, b)
        return cos >= SUBFIELD_MIN_COS if cos is not None else dimension_of(a) == dimension_of(b)

    def fits(a: Signal, b: Signal) -> bool:
        return close(a, b) and (set_problem is None or set_problem([a, b]) is None)

    subfield = {s.signal_id: [c for c in seeds if c is not s and fits(s, c)] for s in seeds}
    drawn: dict[frozenset[str], list[Signal]] = {}
    for t in range(attempts):
        if len(drawn) >= DRAW_POOL_FACTOR * n_sets or not seeds:
            break
        seed = seeds[t % len(seeds)]
        rng = random.Random(f"{rng_key}-{t}")
        k = rng.choice((MIN_OPTIONS, MAX_OPTIONS))
        near = subfield[seed.signal_id]
        if len(near) < k - 1:
            k = MIN_OPTIONS
            if len(near) < k - 1:
                continue
        group = [seed] + rng.sample(near, k - 1)
        if subfield_problem(group) or not _compatible(group) or (set_problem is not None and set_problem(group)):
            continue
        drawn.setdefault(frozenset(x.signal_id for x in group), group)
    # Overlapping sets (more than MAX_SHARED_OPTIONS options in common) ask one question: keep the
    # best-evidenced one, the set whose thinnest option has the most pre-cutoff papers, not the one
    # drawn first (issue 32 sixth pass: "legal reasoning", 6 papers, took the place of "deep
    # research", 59, beside the same three siblings). Ties keep the draw order.
    order = sorted(drawn.values(), key=lambda g: -min(_papers(x) for x in g))
    out: list[list[Signal]] = []
    kept: list[set[str]] = []
    for group in order:
        if len(out) >= n_sets:
            break
        keep_new_set(group, kept, out)
    return out


DRAW_POOL_FACTOR = 4  # distinct valid sets drawn before the best-evidenced are kept (a draw costs microseconds)


def _papers(s: Signal) -> float:
    """A candidate's pre-cutoff papers (its title members), 0 when unrecorded."""
    return float(s.stats.get("n_members", s.stats.get("n_papers", len(s.details.get("member_ids") or s.paper_ids))))


def keep_new_set(group: list[Signal], kept: list[set[str]], out: list[list[Signal]]) -> bool:
    """Append an option set unless it shares more than MAX_SHARED_OPTIONS options with one kept
    already (two tasks of a family are different decisions); True when kept."""
    ids = {s.signal_id for s in group}
    if any(len(ids & other) > MAX_SHARED_OPTIONS for other in kept):
        return False
    kept.append(ids)
    out.append(group)
    return True

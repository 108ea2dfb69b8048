"""Which candidate limitation a window paper states it reduces: the lexical test on its contribution
statements, the framing-gap fallback, one limitation per paper, and the keys a limitation is stated
by. Results are cached in the gold's per-partition state `st` (`gold._state`)."""

from __future__ import annotations

from assets.evidence.bottlenecks import word_tokens
from assets.evidence.causes import current_name, dropped_keys, load_causes, other_senses
from assets.evidence.limitation_phrases import key_positions
from assets.families.bottleneck.framing import framed_position
from assets.families.bottleneck.statements import LACK_CAUSE, Statement, lack_object, states_reduction, supplies
from core.records import Signal


def lexical(st: dict, s: Statement, b: Signal, keys: list[tuple[str, ...]]) -> bool:
    """Measure (a) on one statement, cached per (statement, limitation)."""
    cache = st.setdefault("lexical", {})
    key = (s, b.signal_id)
    if key not in cache:
        lack = bool(LACK_CAUSE.search(b.title))
        cache[key] = states_reduction(
            s, keys, supplies(b.title), lack=lack, lacking=lack_object(b.title) if lack else (), unlike=other_senses(b.title)
        )
    return cache[key]


def framed(st: dict, sentence: str, b: Signal, keys: list[tuple[str, ...]]) -> int | None:
    """Where a framing-gap sentence states the limitation (`statements.framed_position`), cached."""
    cache = st.setdefault("framed", {})
    key = (sentence, b.signal_id)
    if key not in cache:
        lack = bool(LACK_CAUSE.search(b.title))
        cache[key] = framed_position(sentence, keys, lack, lack_object(b.title) if lack else (), other_senses(b.title))
    return cache[key]


def framing_choice(st: dict, pid: str, bns: list[Signal], keys: list[list[tuple[str, ...]]]) -> tuple[int, str, str] | None:
    """The candidate a method paper's framing gap states (blind reading seed 3840: papers opening on
    "the quadratic complexity of attention" and proposing sparse attention counted for nothing): in
    the gap sentence nearest its contribution that states any candidate, the one it names first.
    (candidate index, contribution sentence, gap sentence), or None."""
    contribution, gaps = st.get("framing", {}).get(pid, ("", []))
    for sentence in gaps:
        hits = [(k, j) for j, b in enumerate(bns) if (k := framed(st, sentence, b, keys[j])) is not None]
        if hits:
            return min(hits)[1], contribution, sentence
    return None


def paper_states(st: dict, b: Signal, keys: list[tuple[str, ...]]) -> dict[str, bool]:
    """Measure (a) per window paper for one limitation: does one of its statements state it.
    Computed once per limitation over the whole window and shared by every task naming it and
    by the bootstrap resamples (the control rate reads it for every paper outside the subject)."""
    cache = st.setdefault("paper_states", {})
    if b.signal_id not in cache:
        cache[b.signal_id] = {pid: any(lexical(st, s, b, keys) for s in sts) for pid, sts in st["statements"].items() if sts}
    return cache[b.signal_id]


def key_place(s: Statement, keys: list[tuple[str, ...]]) -> int:
    """Where a statement first names a limitation: the word position of its earliest key in the
    own sentence, else (named only in the gap sentence it answers) after every own position."""
    own = word_tokens(s.own)
    found = [k for key in keys for k in key_positions(own, key)]
    return min(found) if found else len(own) + 1


def one_limitation(sts: list[Statement], stated: list[list[int]], keys: list[list[tuple[str, ...]]]) -> int | None:
    """The one candidate a paper counts for (blind reading seed 3637: "the same paper counted under
    several limitations"; "reduces length bias and sycophancy" counted as distribution shift): the
    limitation of its first statement that states one, and within that statement the one it names
    first (the object the paper sets out to reduce; later ones are side effects or the setting).
    `stated[r]`: the candidate indices statement r states."""
    for r, js in enumerate(stated):
        if js:
            return min(js, key=lambda j: (key_place(sts[r], keys[j]), j))
    return None


def theme_keys(b: Signal) -> list[tuple[str, ...]]:
    """The word sequences that state a limitation: its key and aliases (rule-named themes),
    else its title's words."""
    keys = list(b.details.get("aliases", [])) or list(b.details.get("key", [])) or [b.title]
    # a curated cause counts with the lexicon's current phrasings too (widened after the
    # evidence stage ran: the gold never reads a stale, narrower alias list)
    keys += [a for a in dict(load_causes()).get(current_name(b.title), ()) if a not in keys]
    drop = dropped_keys(b.title)  # removed from the lexicon (causes.yaml `dropped`), stale in the theme
    return [key for k in keys if (key := tuple(word_tokens(k))) and key not in drop]

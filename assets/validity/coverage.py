"""Do the candidate directions cover the domain's movers? (ForeSci App. B.3, issue: validity)

A direction task can only be as good as its candidates: if the window's fastest-growing
themes are in no candidate, every option set misses what actually moved. Two numbers, both
lexical so a reader can recheck them from titles:

* coverage: the share of window papers whose titles contain a defining phrase of some
  candidate direction of the partition;
* uncaptured themes: title phrase keys of the window (`core.phrases.phrase_keys`, shown in
  their display form) in at least
  MIN_THEME_PAPERS window papers that grew at least MIN_THEME_GROWTH times in share
  against the RECENT_MONTHS before the cutoff (same volume-normalised ratio as the gold's
  momentum; a phrase absent before counts 0.5 papers), that could be an option (no bare word,
  no contribution type) and whose window papers are mostly (> half) outside every candidate; the MAX_THEMES largest by growth x papers (longer phrases
  first on ties), with a phrase
  that repeats a listed one's words skipped.
"""

from __future__ import annotations

from collections import Counter
from datetime import date

from assets.toolbox.measure import RECENT_MONTHS, ZERO_PRIOR_SMOOTHING
from core.papers import add_months
from core.phrases import contribution_type, display_forms, one_word_problem, phrase_keys
from core.records import ScreenedPaper, Signal
from core.text import pick_terms

MIN_THEME_PAPERS = 10
MIN_THEME_GROWTH = 1.5
MAX_THEMES = 10


def unaskable(name: str) -> bool:
    """A phrase no option could be: a contribution type or a bare word (`core.phrases`)."""
    return contribution_type(name) is not None or one_word_problem(name) is not None


def candidate_coverage(signals: list[Signal], public: list[ScreenedPaper], window: list[ScreenedPaper], cutoff: date) -> dict:
    """{"window_papers", "covered", "coverage", "uncaptured_themes": [{"phrase", "papers", "growth", "examples"}]}."""
    phrases = {ph for s in signals if s.kind == "candidate_direction" for ph in s.details.get("defining_phrases", [])}
    window = [p for p in window if p.label != "excluded"]
    start = add_months(cutoff, -RECENT_MONTHS)
    recent = [p for p in public if p.label != "excluded" and start < p.published <= cutoff]
    win_phrases = [phrase_keys(p.title) for p in window]
    covered = [not phrases.isdisjoint(phs) for phs in win_phrases]
    out = {
        "window_papers": len(window),
        "covered": sum(covered),
        "coverage": round(sum(covered) / len(window), 4) if window else None,
        "uncaptured_themes": [],
    }
    if not window or not recent:
        return out
    win_df = Counter(ph for phs in win_phrases for ph in phs)
    shown_all = display_forms([ph for ph, k in win_df.items() if k >= MIN_THEME_PAPERS], [p.title for p in window])
    rec_df = Counter(ph for p in recent for ph in phrase_keys(p.title))
    scored = []
    for ph, k in win_df.items():
        if k < MIN_THEME_PAPERS:
            continue
        growth = (k / len(window)) / (max(rec_df.get(ph, 0), ZERO_PRIOR_SMOOTHING) / len(recent))
        rows = [i for i, phs in enumerate(win_phrases) if ph in phs]
        outside = sum(not covered[i] for i in rows) / len(rows)
        if growth >= MIN_THEME_GROWTH and outside > 0.5 and not unaskable(shown_all.get(ph, ph)):
            scored.append((-growth * k, -ph.count(" "), ph, k, growth, rows))
    scored.sort()
    shown = shown_all
    keep = set(pick_terms([shown.get(ph, ph) for _, _, ph, *_ in scored], MAX_THEMES))
    for _, _, ph, k, growth, rows in scored:
        if shown.get(ph, ph) in keep:
            out["uncaptured_themes"].append(
                {
                    "phrase": shown.get(ph, ph),
                    "papers": k,
                    "growth": round(growth, 2),
                    "examples": [f"{window[i].arxiv_id} {window[i].title[:90]}" for i in rows[:2]],
                }
            )
    return out

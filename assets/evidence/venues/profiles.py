"""Venue-community profiles: what each family accepts from a domain (venue_profile signals)."""

from __future__ import annotations

import math
import re
from collections import Counter
from datetime import date

import numpy as np

from assets.evidence.venues.lists import FAMILIES, VENUE_LISTS, VenuePaper
from assets.evidence.venues.similarity import _eligible, _embed_titles_cached, _max_cos
from core.records import ScreenedPaper, Signal
from core.text import STOP_WORDS

# Title cue words of contribution style; anything else counts as "method".
STYLE_CUES: dict[str, tuple[str, ...]] = {
    "benchmark": ("benchmark", "dataset", "corpus", "testbed", "leaderboard", "arena", "evaluating", "evaluation of", "suite"),
    "analysis": (
        "understanding",
        "analysis",
        "analyzing",
        "analysing",
        "study",
        "investigat",
        "revisit",
        "rethink",
        "on the",
        "when ",
        "why ",
        "how ",
        "do ",
        "does ",
        "are ",
        "is ",
        "can ",
        "empirical",
        "survey",
        "lessons",
        "towards a theory",
        "what ",
    ),
}
_BENCH_SUFFIX = re.compile(r"bench\b|gym\b", re.IGNORECASE)


def title_style(title: str) -> str:
    low = title.lower() + " "
    if _BENCH_SUFFIX.search(title) or any(c in low for c in STYLE_CUES["benchmark"]):
        return "benchmark"
    if any(low.startswith(c) or f" {c}" in low or f": {c}" in low for c in STYLE_CUES["analysis"]):
        return "analysis"
    return "method"


def distinctive_terms(close: list[str], rest: list[str], k: int = 10, min_count: int = 2) -> list[str]:
    """Terms over-represented in the close titles vs the rest (log-odds), held by >= `min_count` close titles."""

    def counts(titles):
        c: Counter[str] = Counter()
        for t in titles:
            toks = [w for w in re.findall(r"[a-z][a-z0-9\-]+", t.lower()) if w not in STOP_WORDS and len(w) > 2]
            c.update(set(toks))
        return c

    a, b = counts(close), counts(rest)
    na, nb = max(1, len(close)), max(1, len(rest))
    scored = [(-(np.log((a[w] + 0.5) / na) - np.log((b[w] + 0.5) / nb)), w) for w in a if a[w] >= min_count]
    return [w for _, w in sorted(scored)[:k]]


def _domain_reference(domain_papers: list[ScreenedPaper], cutoff: date, max_ref: int) -> list[ScreenedPaper]:
    """Cutoff-visible, non-excluded domain papers; the `max_ref` most relevant if more."""
    ref = [p for p in domain_papers if p.published <= cutoff and p.label != "excluded"]
    ref.sort(key=lambda p: (-p.relevance, p.arxiv_id))
    return sorted(ref[:max_ref], key=lambda p: p.arxiv_id)


def build_venue_profiles(
    venue_papers: list[VenuePaper],
    domain_papers: list[ScreenedPaper],
    cutoff: date,
    embed,
    *,
    domain: str,
    threshold: float = 0.75,
    max_ref: int = 3000,
    n_examples: int = 5,
) -> list[Signal]:
    """One venue_profile signal per family (FAMILIES order), from lists dated <= cutoff.

    A venue paper is *close* to the domain when the cosine of its title to the nearest
    domain-paper title is >= `threshold` (titles on both sides, so lengths match). The
    domain side is at most `max_ref` cutoff-visible papers (most relevant first) to keep
    the nearest-neighbour search a few seconds. paper_ids = the domain papers that are
    nearest neighbours of the family's close papers (the KB papers this profile rests on).
    """
    eligible = _eligible(venue_papers, cutoff)
    ref = _domain_reference(domain_papers, cutoff, max_ref)
    titles = sorted({v.title for v in venue_papers})
    row = {t: i for i, t in enumerate(titles)}
    all_vecs = _embed_titles_cached(titles, embed) if titles else np.zeros((0, 1))
    ref_vecs = embed([p.title for p in ref]) if ref else np.zeros((0, 1), dtype=np.float32)
    per_family: dict[str, dict] = {}
    for fam in FAMILIES:
        fam_papers = sorted((v for v in eligible if v.family == fam), key=lambda v: (v.venue, v.year, v.title))
        if not fam_papers:
            per_family[fam] = {"n": 0}
            continue
        vecs = all_vecs[[row[v.title] for v in fam_papers]]
        best, arg = _max_cos(vecs, ref_vecs)
        close = [i for i in range(len(fam_papers)) if best[i] >= threshold]
        close.sort(key=lambda i: (-float(best[i]), fam_papers[i].title))
        styles = Counter(title_style(fam_papers[i].title) for i in close)
        nn = Counter(ref[int(arg[i])].arxiv_id for i in close)
        per_family[fam] = {
            "n": len(fam_papers),
            "papers": fam_papers,
            "close": close,
            "best": best,
            "styles": styles,
            "nn": [pid for pid, _ in sorted(nn.items(), key=lambda kv: (-kv[1], kv[0]))[:10]],
            "venues": sorted({f"{v.venue} {v.year} (decisions ~{v.venue_date})" for v in fam_papers}),
        }
    shares = {f: len(d["close"]) / d["n"] for f, d in per_family.items() if d["n"]}
    close_by_family = {f: [d["papers"][j] for j in d["close"]] for f, d in per_family.items() if d["n"]}
    signals = []
    for i, fam in enumerate(FAMILIES):
        d = per_family[fam]
        sid = f"sig:venue_profile:{i:03d}"
        if not d["n"]:
            has_list = any(spec.family == fam and spec.kind != "submissions" for spec in VENUE_LISTS)
            note = "no accepted-paper list dated on or before the cutoff" if has_list else "no accepted-paper list available"
            signals.append(
                Signal(
                    signal_id=sid,
                    kind="venue_profile",
                    domain=domain,
                    cutoff=cutoff,
                    title=f"{fam} profile",
                    summary=f"{fam}: {note}; no profile is derived (nothing invented).",
                    stats={"n_papers": 0.0, "n_close": 0.0, "share_close": 0.0},
                    details={"family": [fam], "note": [note]},
                )
            )
            continue
        n, close = d["n"], d["close"]
        n_close = len(close)
        share_close = n_close / n
        st = {s: (d["styles"][s] / n_close if n_close else 0.0) for s in ("method", "benchmark", "analysis")}
        papers = d["papers"]
        close_titles = [papers[j].title for j in close]
        rest_titles = [papers[j].title for j in range(n) if j not in set(close)]
        terms = distinctive_terms(close_titles, rest_titles)
        others = sorted(((s, f) for f, s in shares.items() if f != fam), reverse=True)
        compatible = [f"{f} (share_close {s:.3f})" for s, f in others if s >= 0.5 * share_close and s > 0]
        maturity, risks, expectations = profile_sentences(fam, n, n_close, share_close, st)
        contrast, contrast_examples = contrast_profile(fam, close_by_family)
        signals.append(
            Signal(
                signal_id=sid,
                kind="venue_profile",
                domain=domain,
                cutoff=cutoff,
                title=f"{fam} profile",
                summary=(
                    f"{fam}: {n_close} of {n} accepted papers ({share_close:.1%}) are close to {domain} "
                    f"(title cosine >= {threshold}); style mix method {st['method']:.0%} / benchmark "
                    f"{st['benchmark']:.0%} / analysis {st['analysis']:.0%}."
                ),
                paper_ids=sorted(p for p in d["nn"]),
                stats={
                    "n_papers": float(n),
                    "n_close": float(n_close),
                    "share_close": round(share_close, 5),
                    "style_method": round(st["method"], 4),
                    "style_benchmark": round(st["benchmark"], 4),
                    "style_analysis": round(st["analysis"], 4),
                    "mean_nn_cos": round(float(np.mean(d["best"])), 4),
                    "threshold": threshold,
                },
                details={
                    "family": [fam],
                    "venues": d["venues"],
                    "terms": terms,
                    "example_titles": close_titles[:n_examples],
                    "maturity": maturity,
                    "reviewer_risks": risks,
                    "evidence_expectations": expectations,
                    "compatible_families": compatible,
                    "contrast_terms": contrast,
                    "contrast_examples": contrast_examples,
                    "contrast_style": contrast_style(fam, close_by_family),
                },
            )
        )
    return signals


CONTRAST_TERMS = 5  # what sets a family's domain-close accepted papers apart from the other families' ones
CONTRAST_EXAMPLES = 2
# title words that say how a paper sells itself, not what it is about: never a contrast term
CONTRAST_SKIP = frozenset(
    "empowering exploring enhancing boosting towards toward improving rethinking revisiting unlocking unleashing "
    "real-world novel effective efficient simple weakly robust comprehensive first new via using based".split()
)
CONTRAST_MIN_SHARE = 0.02  # a contrast term is held by >= 2% (and >= 3) of the family's close titles: no one-off words


STYLE_NAMES = {"benchmark": "benchmarks and datasets", "analysis": "analyses and studies", "method": "methods"}
STYLE_CONTRAST = 0.05  # a style share this much above the other families' shows in the descriptor


def contrast_style(fam: str, close_by_family: dict[str, list[VenuePaper]]) -> list[str]:
    """The contribution style `fam`'s domain-close accepted titles hold most above the other families'
    (`title_style`), when it exceeds them by >= STYLE_CONTRAST: ["benchmarks and datasets 22% (others 12%)"]."""
    mine = [title_style(v.title) for v in close_by_family.get(fam, [])]
    rest = [title_style(v.title) for f, vs in close_by_family.items() if f != fam for v in vs]
    if len(mine) < 10 or not rest:
        return []
    share = {s: mine.count(s) / len(mine) for s in STYLE_NAMES}
    other = {s: rest.count(s) / len(rest) for s in STYLE_NAMES}
    best = max(STYLE_NAMES, key=lambda s: (share[s] - other[s], s))
    if share[best] - other[best] < STYLE_CONTRAST:
        return []
    return [f"{STYLE_NAMES[best]} {share[best]:.0%} (other families {other[best]:.0%})"]


def contrast_profile(fam: str, close_by_family: dict[str, list[VenuePaper]]) -> tuple[list[str], list[str]]:
    """(terms, example titles) that set `fam`'s domain-close accepted papers apart from the other
    families' domain-close accepted papers: the log-odds terms of its close titles against the
    others' (`distinctive_terms`), held by >= 2 of its titles, and its newest close titles that
    hold the most of those terms (one per list first). What a community accepts *from this
    domain*, said by its own titles, so two families' descriptors never read alike."""
    mine = close_by_family.get(fam, [])
    rest = [v.title for f, vs in close_by_family.items() if f != fam for v in vs]
    if not mine:
        return [], []
    min_count = max(3, math.ceil(CONTRAST_MIN_SHARE * len(mine)))
    ranked_terms = distinctive_terms([v.title for v in mine], rest, k=3 * CONTRAST_TERMS, min_count=min_count)
    terms = [t for t in ranked_terms if t not in CONTRAST_SKIP][:CONTRAST_TERMS]
    if not terms:
        return [], []

    def held(v: VenuePaper) -> int:
        words = set(re.findall(r"[a-z][a-z0-9\-]+", v.title.lower()))
        return sum(t in words for t in terms)

    ranked = sorted(
        (v for v in mine if held(v) and 25 <= len(v.title) <= 110),
        key=lambda v: (-held(v), -v.venue_date.toordinal(), v.title),
    )
    examples: list[str] = []
    seen_venue: set[str] = set()
    for v in ranked:  # one title per venue first, so the examples show the family's breadth
        if v.venue not in seen_venue and len(examples) < CONTRAST_EXAMPLES:
            examples.append(v.title)
            seen_venue.add(v.venue)
    examples += [v.title for v in ranked if v.title not in examples][: CONTRAST_EXAMPLES - len(examples)]
    return terms, examples


def profile_sentences(fam: str, n: int, n_close: int, share_close: float, st: dict[str, float]):
    """Template sentences chosen by the numbers; each one states what drives it."""
    if share_close >= 0.05:
        maturity = [
            f"established topic here: {share_close:.1%} of accepted papers are close (>= 5%); "
            f"reviewers will compare against the {n_close} accepted close papers, so incremental "
            "gains need strong baselines."
        ]
    elif share_close >= 0.01:
        maturity = [
            f"present but not central: {share_close:.1%} of accepted papers are close (1-5%); "
            "a clear positioning against the closest accepted work is expected."
        ]
    else:
        maturity = [
            f"emerging or marginal here: {share_close:.1%} close (< 1%); venue fit must be argued "
            "and novelty is easier to claim than relevance."
        ]
    risks = []
    if st["method"] >= 0.6:
        risks.append(f"incremental-method risk: {st['method']:.0%} of close accepted titles are methods (>= 60%).")
    if st["benchmark"] >= 0.15:
        risks.append(
            f"benchmark-crowding risk: {st['benchmark']:.0%} of close titles are benchmarks/datasets (>= 15%); "
            "a new benchmark must show what existing ones miss."
        )
    if st["analysis"] >= 0.2:
        risks.append(f"analysis papers are common ({st['analysis']:.0%} >= 20%): claims must generalise beyond one setup.")
    if share_close < 0.01:
        risks.append(f"scope-fit risk: only {n_close} of {n} accepted papers are close (< 1%).")
    if not risks:
        risks.append("no dominant risk from the style mix (no style above its threshold).")
    expectations = [
        f"evidence mix of close accepted papers: method {st['method']:.0%}, benchmark/dataset "
        f"{st['benchmark']:.0%}, analysis {st['analysis']:.0%}; match the dominant style's evidence package."
    ]
    if st["benchmark"] >= 0.15:
        expectations.append("benchmark share >= 15%: released data, baseline sweeps and contamination checks expected.")
    if st["method"] >= 0.6:
        expectations.append(
            "method share >= 60%: head-to-head comparisons with the closest accepted methods and ablations expected."
        )
    return maturity, risks, expectations

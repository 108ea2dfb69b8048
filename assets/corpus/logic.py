"""Corpus stage: read papers, screen them for domain relevance, split at the cutoff.

No Dagster here. Malformed input never disappears silently: each bad line becomes a
`Failure` row with its reason, and the rest of the file is used.
"""

from __future__ import annotations

import re
from collections import Counter
from datetime import date

import numpy as np

from core.papers import add_months
from core.records import MonthVolume, Paper, ScreenedPaper

_VERSION = re.compile(r"v\d+$")


def deduplicate(papers: list[Paper]) -> list[Paper]:
    """One record per arXiv id (version suffix dropped), keeping the earliest date."""
    best: dict[str, Paper] = {}
    for paper in papers:
        key = _VERSION.sub("", paper.arxiv_id)
        if key != paper.arxiv_id:
            paper = paper.model_copy(update={"arxiv_id": key})
        if key not in best or paper.published < best[key].published:
            best[key] = paper
    return sorted(best.values(), key=lambda p: (p.published, p.arxiv_id))


def paper_text(paper: Paper) -> str:
    return f"{paper.title}. {paper.abstract}"


def description_aspects(description: str) -> list[str]:
    """Split a domain description into short aspects for the per-paper reason."""
    parts = re.split(r"[,:;]|\band\b", description)
    return [p.strip(" .") for p in parts if len(p.strip(" .")) > 3]


def screen(
    papers: list[Paper],
    domain: str,
    descriptions: dict[str, str],
    embed,
    support_threshold: float = -0.02,
    core_threshold: float = 0.03,
) -> list[ScreenedPaper]:
    """Offline relevance screen (ForeSci §3.2): core / support / excluded with a score.

    A static embedder gives every abstract a high cosine to any ML description, so the
    raw cosine does not separate domains. The relevance score is contrastive: cosine to
    this domain's description minus the mean cosine to the other domains' descriptions.
    Above `core_threshold` a paper is core, above `support_threshold` support, else
    excluded. `embed` maps a list of texts to L2-normalised vectors.
    """
    if domain not in descriptions:
        raise KeyError(f"unknown domain {domain!r}")
    if not papers:
        return []
    names = list(descriptions)
    own_idx = names.index(domain)
    desc_vecs = embed([descriptions[n] for n in names])
    aspects = description_aspects(descriptions[domain])
    aspect_vecs = embed(aspects)
    vecs = embed([paper_text(p) for p in papers])
    sims = vecs @ desc_vecs.T
    own = sims[:, own_idx]
    others = np.delete(sims, own_idx, axis=1).mean(axis=1) if len(names) > 1 else np.zeros(len(papers))
    relevance = own - others
    best_aspect = (vecs @ aspect_vecs.T).argmax(axis=1)
    out: list[ScreenedPaper] = []
    for i, paper in enumerate(papers):
        score = float(relevance[i])
        label = "core" if score >= core_threshold else "support" if score >= support_threshold else "excluded"
        reason = (
            f"relevance {score:+.3f} = cos {own[i]:.3f} to the {domain} description minus mean cos "
            f"{others[i]:.3f} to other domains ({label}: core >= {core_threshold}, support >= "
            f"{support_threshold}); closest aspect: '{aspects[best_aspect[i]]}'"
        )
        out.append(ScreenedPaper(**paper.model_dump(), domain=domain, relevance=round(score, 5), label=label, reason=reason))
    return out


def split_at_cutoff(papers: list[ScreenedPaper], cutoff: date, horizon_months: int):
    """Public snapshot (published <= cutoff) and hidden future window (cutoff, cutoff+h]."""
    window_end = add_months(cutoff, horizon_months)
    public = [p for p in papers if p.published <= cutoff]
    future = [p for p in papers if cutoff < p.published <= window_end]
    return public, future, window_end


def monthly_volume(papers: list[Paper]) -> dict[str, int]:
    """Papers per calendar month: the normaliser for every volume-based signal."""
    counts = Counter(p.published.strftime("%Y-%m") for p in papers)
    return dict(sorted(counts.items()))


def volume_by_label(papers: list[ScreenedPaper]) -> list[MonthVolume]:
    """Per-month paper counts by screen label, every month from the first to the last
    (months without papers are explicit zeros, so a normaliser never divides by a gap)."""

    if not papers:
        return []
    counts: dict[str, Counter] = {}
    for p in papers:
        counts.setdefault(p.published.strftime("%Y-%m"), Counter())[p.label] += 1
    first, last = min(counts), max(counts)
    out, (year, month) = [], map(int, first.split("-"))
    while f"{year:04d}-{month:02d}" <= last:
        key = f"{year:04d}-{month:02d}"
        c = counts.get(key, Counter())
        out.append(
            MonthVolume(
                month=key,
                total=sum(c.values()),
                core=c["core"],
                support=c["support"],
                excluded=c["excluded"],
                relevant=c["core"] + c["support"],
            )
        )
        year, month = (year + 1, 1) if month == 12 else (year, month + 1)
    return out

"""Bottleneck themes: recurring verbatim limitation sentences clustered into themes and
categorised by cue words; recurrence = number of distinct papers (ForeSci App. B.3)."""

from __future__ import annotations

import re
from collections import Counter, defaultdict

import numpy as np

from core.clustering import unit
from core.records import EvidenceRecord
from core.text import content_tokens

BOTTLENECK_CATEGORIES: dict[str, tuple[str, ...]] = {
    "evaluation_gap": ("benchmark", "evaluat", "metric", "measur", "assess", "leaderboard", "judge"),
    "reliability_safety": ("hallucinat", "safety", "unsafe", "attack", "jailbreak", "robust", "reliab",
                           "bias", "privacy", "trust", "harm", "misalign", "deceptive", "adversarial"),
    "data_need": ("data", "dataset", "annotat", "scarce", "scarcity", "label", "corpus", "corpora",
                  "supervision"),
    "technical_risk": ("cost", "expensive", "latency", "compute", "computational", "memory", "scal",
                       "efficien", "overhead", "slow", "prohibitive", "resource"),
}


def bottleneck_category(sentences: list[str]) -> str:
    """Category with the most cue hits over the theme's sentences; recurring_limitation if none."""
    counts = Counter()
    for s in sentences:
        low = s.lower()
        for cat, cues in BOTTLENECK_CATEGORIES.items():
            if any(re.search(r"\b" + c, low) for c in cues):
                counts[cat] += 1
    if not counts:
        return "recurring_limitation"
    best, n = sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))[0]
    return best if n >= max(2, len(sentences) // 3) else "recurring_limitation"


TITLE_VOCABULARY_MIN = 5  # a label term is a phrase of at least 5 of the domain's titles


def theme_terms(cluster: list[str], background: Counter, n_total: int, k: int = 3,
                vocabulary: Counter | None = None) -> list[str]:
    """Top terms of a cluster by document frequency x idf against all limitation sentences,
    two-word terms weighted x2. With `vocabulary` (title phrase counts of the domain), only
    terms used in >= TITLE_VOCABULARY_MIN (5) titles qualify: titles name things ("security
    risks", "prompt injection"), so verbs and filler of complaint sentences ("introduces",
    "taking") never label a theme."""
    df = Counter()
    for s in cluster:
        toks = content_tokens(s)
        grams = set(toks) | {f"{a} {b}" for a, b in zip(toks, toks[1:])}
        df.update(grams)
    scored = []
    for term, c in df.items():
        if c < 2 and len(cluster) > 2:
            continue
        if vocabulary is not None and vocabulary.get(term, 0) < TITLE_VOCABULARY_MIN:
            continue
        idf = np.log((1 + n_total) / (1 + background[term]))
        scored.append((-(c * idf * (2.0 if " " in term else 1.0)), term))
    picked: list[str] = []
    for _, term in sorted(scored):
        if any(term in p or p in term or term[:6] == p[:6] for p in picked):
            continue
        picked.append(term)
        if len(picked) == k:
            break
    return picked


def bottleneck_themes(
    records: list[EvidenceRecord], embed, *, min_recurrence: int = 2, distance_threshold: float = 0.7,
    max_sentences: int = 4000, max_quotes: int = 8, vocabulary: Counter | None = None,
) -> list[dict]:
    """Group the distinct limitation sentences of all evidence papers into themes.

    One limitation sentence per paper (its first evidence record wins), so recurrence
    counts distinct papers. Sentences are embedded, centred on their mean (a static
    embedder gives any two sentences of one domain a cosine of ~0.5; centring leaves
    what is specific to each complaint) and grouped by average-linkage agglomerative
    clustering with cosine distance < `distance_threshold` (mean pairwise centred
    cosine > 0.3): deterministic, and the number of themes adapts to the data. A theme
    survives with >= `min_recurrence` distinct papers. Returns dicts, most recurrent
    first. At most `max_sentences` sentences (lowest arxiv ids) keep it O(n^2)-cheap.
    `vocabulary` (the domain's title phrase counts) restricts label terms (`theme_terms`).
    """
    from sklearn.cluster import AgglomerativeClustering

    limitation: dict[str, str] = {}
    nodes_of: dict[str, set[str]] = defaultdict(set)
    records_of: dict[str, set[str]] = defaultdict(set)
    for r in records:
        for pe in r.papers:
            if pe.limitation:
                limitation.setdefault(pe.arxiv_id, pe.limitation)
                nodes_of[pe.arxiv_id].add(r.node_id)
                records_of[pe.arxiv_id].add(r.record_id)
    ids = sorted(limitation)[:max_sentences]
    if len(ids) < max(2, min_recurrence):
        return []
    sentences = [limitation[i] for i in ids]
    raw = embed(sentences)
    vecs = raw - raw.mean(axis=0)
    vecs = vecs / np.maximum(np.linalg.norm(vecs, axis=1, keepdims=True), 1e-12)
    labels = AgglomerativeClustering(n_clusters=None, distance_threshold=distance_threshold,
                                     metric="cosine", linkage="average").fit_predict(vecs)
    background = Counter()
    for s in sentences:
        toks = content_tokens(s)
        background.update(set(toks) | {f"{a} {b}" for a, b in zip(toks, toks[1:])})
    members_of: dict[int, list[int]] = defaultdict(list)
    for i, lab in enumerate(labels):
        members_of[int(lab)].append(i)
    themes = []
    for members in members_of.values():
        if len(members) < min_recurrence:
            continue
        centroid = unit(vecs[members].mean(axis=0))
        cos = vecs[members] @ centroid
        kept = sorted(((float(cs), m) for cs, m in zip(cos, members)), key=lambda t: (-t[0], ids[t[1]]))
        paper_ids = [ids[m] for _, m in kept]
        quotes = [sentences[m] for _, m in kept]
        themes.append({
            "terms": theme_terms(quotes, background, len(sentences), vocabulary=vocabulary),
            "paper_ids": paper_ids,
            "quotes": quotes,
            "category": bottleneck_category(quotes),
            "nodes": sorted(set().union(*(nodes_of[p] for p in paper_ids))),
            "records": sorted(set().union(*(records_of[p] for p in paper_ids))),
            "cohesion": float(np.mean([cs for cs, _ in kept])),
            "max_quotes": max_quotes,
        })
    themes.sort(key=lambda t: (-len(t["paper_ids"]), -t["cohesion"], t["paper_ids"][0]))
    return themes

"""High-order signals from node evidence records (ForeSci §3.3 (1)-(5), Appendix B.3-B.5).

Kinds, each derived by a documented rule so a reviewer can recompute it:

* candidate_direction: specific, well-supported taxonomy nodes with volume-normalised
  momentum numbers (share of the domain's monthly volume, recent vs prior, slope).
* method_development: parent -> child (and cross-dimension) relations labelled
  extension / adaptation / replacement / competition / component_reuse from growth
  and keyword/paper overlap (rule in `relation_for`).
* bottleneck: themes of recurring verbatim limitation sentences (embedding clusters),
  categorised by cue words; recurrence = number of distinct papers.
* feasibility: one note per candidate direction (support, maturity, dependencies, risks).
* venue_profile: from `assets.evidence.venues` when venue lists are passed in.

Coverage of the corpus is uneven over time, so every volume number is a *share* of
the domain's monthly volume (`monthly_volume`), never a raw count. That dict must count
the same population the taxonomy was built from (the cutoff-visible screened papers).
Every signal carries `evidence_ids` (record ids) and `paper_ids` (cutoff-visible papers
of those records), so it traces back to sources. No Dagster here.
"""

from __future__ import annotations

import re
from collections import Counter, defaultdict
from datetime import date

import numpy as np

from core.records import EvidenceRecord, ScreenedPaper, Signal, TaxonomyNode
from core.text import STOP_WORDS

EPS = 1e-3          # floor of the prior share in growth = recent / prior
GROWTH_CAP = 10.0   # growth of a node with (almost) no prior papers is capped here
RECENT_MONTHS = 3
PRIOR_MONTHS = 6
SLOPE_MONTHS = 9


# ----------------------------------------------------------------------------- months


def month_key(day: date) -> str:
    return day.strftime("%Y-%m")


def months_back(end: date, n: int, skip: int = 0) -> list[str]:
    """`n` month keys, oldest first, ending `skip` months before `end`'s month."""
    index = end.year * 12 + end.month - 1 - skip
    keys = []
    for i in range(index - n + 1, index + 1):
        keys.append(f"{i // 12:04d}-{i % 12 + 1:02d}")
    return keys


def parse_slice(label: str) -> date | None:
    """First day of a slice label: "2024-Q3" -> 2024-07-01, "2025-11" -> 2025-11-01."""
    m = re.fullmatch(r"(\d{4})-Q([1-4])", label.strip())
    if m:
        return date(int(m.group(1)), 3 * int(m.group(2)) - 2, 1)
    m = re.fullmatch(r"(\d{4})-(\d{2})(?:-\d{2})?", label.strip())
    if m and 1 <= int(m.group(2)) <= 12:
        return date(int(m.group(1)), int(m.group(2)), 1)
    m = re.fullmatch(r"(\d{4})", label.strip())
    return date(int(m.group(1)), 1, 1) if m else None


def months_between(start: date, end: date) -> int:
    return max(0, (end.year - start.year) * 12 + end.month - start.month)


def share(counts: dict[str, int], volume: dict[str, int], months: list[str]) -> float:
    """Volume-weighted share over `months`: sum of node papers / sum of domain papers."""
    total = sum(volume.get(m, 0) for m in months)
    return sum(counts.get(m, 0) for m in months) / total if total else 0.0


def monthly_shares(counts: dict[str, int], volume: dict[str, int], months: list[str]) -> list[tuple[int, float]]:
    """(month index, share) for months with any domain volume."""
    return [(i, counts.get(m, 0) / volume[m]) for i, m in enumerate(months) if volume.get(m, 0) > 0]


def ls_slope(points: list[tuple[int, float]]) -> float:
    """Least-squares slope (share per month); 0 with fewer than two points."""
    if len(points) < 2:
        return 0.0
    x = np.array([p[0] for p in points], dtype=float)
    y = np.array([p[1] for p in points], dtype=float)
    x -= x.mean()
    denom = float((x * x).sum())
    return float((x * (y - y.mean())).sum() / denom) if denom else 0.0


def momentum(paper_dates: list[date], volume: dict[str, int], cutoff: date) -> dict[str, float]:
    """Volume-normalised momentum of a set of papers at the cutoff.

    share_recent: node papers in the last RECENT_MONTHS months (cutoff month included) /
    domain papers in those months; share_prior: the same over the PRIOR_MONTHS before
    (a volume-weighted per-month share); growth = share_recent / max(share_prior, EPS),
    capped at GROWTH_CAP (0 when nothing recent); slope over the last SLOPE_MONTHS months.
    """
    counts = Counter(month_key(d) for d in paper_dates if d <= cutoff)
    recent = months_back(cutoff, RECENT_MONTHS)
    prior = months_back(cutoff, PRIOR_MONTHS, skip=RECENT_MONTHS)
    s_recent, s_prior = share(counts, volume, recent), share(counts, volume, prior)
    growth = min(GROWTH_CAP, s_recent / max(s_prior, EPS)) if s_recent > 0 else 0.0
    slope = ls_slope(monthly_shares(counts, volume, months_back(cutoff, SLOPE_MONTHS)))
    return {
        "share_recent": round(s_recent, 6),
        "share_prior": round(s_prior, 6),
        "growth": round(growth, 4),
        "slope": round(slope, 7),
        "n_recent": float(sum(counts.get(m, 0) for m in recent)),
        "n_prior": float(sum(counts.get(m, 0) for m in prior)),
    }


def quarter_key(month: str) -> str:
    year, mon = month.split("-")
    return f"{year}-Q{(int(mon) - 1) // 3 + 1}"


def quarterly_shares(paper_dates: list[date], volume: dict[str, int], cutoff: date, n_quarters: int = 4) -> dict[str, float]:
    """Share of domain volume per calendar quarter, the last `n_quarters` up to the cutoff."""
    months = months_back(cutoff, 3 * n_quarters + 2)
    quarters: dict[str, list[str]] = defaultdict(list)
    for m in months:
        quarters[quarter_key(m)].append(m)
    keys = sorted(quarters)[-n_quarters:]
    counts = Counter(month_key(d) for d in paper_dates if d <= cutoff)
    return {q: round(share(counts, volume, quarters[q]), 6) for q in keys}


def slice_shares(paper_dates: list[date], volume: dict[str, int], cutoff: date, *, recent_months: int = 6,
                 n_slices: int = 6) -> dict[str, float]:
    """Share of the domain's volume per taxonomy slice (quarters early, months near the
    cutoff, as `assets.taxonomy.logic.slice_starts`), the last `n_slices` slices."""
    from assets.taxonomy.slices import slice_starts

    months = sorted(m for m in volume if m <= month_key(cutoff))
    if not months:
        return {}
    first = date(int(months[0][:4]), int(months[0][5:]), 1)
    starts = slice_starts(first, cutoff, recent_months)
    counts = Counter(month_key(d) for d in paper_dates if d <= cutoff)
    out: dict[str, float] = {}
    for k, (label, start) in enumerate(starts):
        end = starts[k + 1][1] if k + 1 < len(starts) else date(cutoff.year + 1, 1, 1)
        ms = [m for m in months if month_key(start) <= m < month_key(end)]
        out[label] = round(share(counts, volume, ms), 6)
    return dict(list(out.items())[-n_slices:])


def slice_growth(series: dict[str, float]) -> float:
    """Last slice's share over the mean of the slices before it (capped like `growth`)."""
    values = list(series.values())
    if len(values) < 2 or values[-1] <= 0:
        return 0.0
    prior = float(np.mean(values[:-1]))
    return round(min(GROWTH_CAP, values[-1] / max(prior, EPS)), 4)


# ----------------------------------------------------------------------------- helpers


def _tokens(text: str) -> list[str]:
    return [t for t in re.findall(r"[a-z][a-z0-9\-]+", text.lower()) if t not in STOP_WORDS and len(t) > 2]


def node_terms(node: TaxonomyNode) -> set[str]:
    """Keyword and label tokens of a node, for overlap tests between nodes."""
    terms = set(_tokens(node.label))
    for kw in node.keywords:
        terms |= set(_tokens(kw))
    return terms


def _unit(v: np.ndarray) -> np.ndarray:
    return v / max(float(np.linalg.norm(v)), 1e-12)


def _record_paper_ids(record: EvidenceRecord | None) -> list[str]:
    return [] if record is None else record.representative_ids + record.supporting_ids


def _check_dates(ids: list[str], dates: dict[str, date], cutoff: date) -> list[str]:
    late = [pid for pid in ids if pid in dates and dates[pid] > cutoff]
    if late:
        raise ValueError(f"temporal integrity: signal papers after cutoff {cutoff}: {late[:5]}")
    return [pid for pid in ids if pid in dates]


# ----------------------------------------------------------------------------- candidates


def node_stats(
    nodes: list[TaxonomyNode], papers: list[ScreenedPaper], cutoff: date, monthly_volume: dict[str, int]
) -> dict[str, dict[str, float]]:
    """Momentum, size and age of every node (cutoff-visible papers only)."""
    dates = {p.arxiv_id: p.published for p in papers if p.published <= cutoff}
    out: dict[str, dict[str, float]] = {}
    for node in nodes:
        node_dates = [dates[pid] for pid in node.paper_ids if pid in dates]
        stats = momentum(node_dates, monthly_volume, cutoff)
        start = parse_slice(node.created_slice) or (min(node_dates) if node_dates else cutoff)
        stats["n_papers"] = float(len(node_dates))
        stats["age_months"] = float(months_between(start, cutoff))
        stats["level"] = float(node.level)
        out[node.node_id] = stats
    return out


def _centroids(records: dict[str, EvidenceRecord], by_id: dict[str, ScreenedPaper], embed) -> dict[str, np.ndarray]:
    """Centroid of each record's evidence papers (<= 25 papers, so this stays cheap)."""
    ids = sorted({pid for r in records.values() for pid in _record_paper_ids(r) if pid in by_id})
    if not ids:
        return {}
    vecs = embed([f"{by_id[pid].title}. {by_id[pid].abstract}" for pid in ids])
    row = {pid: i for i, pid in enumerate(ids)}
    out = {}
    for node_id, record in records.items():
        idx = [row[pid] for pid in _record_paper_ids(record) if pid in row]
        if idx:
            out[node_id] = _unit(vecs[idx].mean(axis=0))
    return out


def select_candidates(
    nodes: list[TaxonomyNode],
    stats: dict[str, dict[str, float]],
    records: dict[str, EvidenceRecord],
    centroids: dict[str, np.ndarray],
    embed,
    *,
    min_support: int = 8,
    max_per_dimension: int = 12,
    dedup_cosine: float = 0.9,
    dedup_jaccard: float = 0.8,
) -> list[tuple[TaxonomyNode, list[str]]]:
    """Candidate directions (B.3): (node, merged node ids) in a deterministic order.

    Eligible: level >= 1, an evidence record, >= `min_support` papers. Order within a
    dimension: specific first (leaf or level >= 2), then more papers, then node_id.
    Near-duplicates -- label cosine or (domain-centred) centroid cosine above
    `dedup_cosine`, or paper-set Jaccard >= `dedup_jaccard`, to an already kept
    candidate -- are merged into it (their ids join its node_ids), so a candidate can
    "group one or more related nodes" (a parent whose papers are mostly one child's).
    """
    children = Counter(n.parent_id for n in nodes if n.parent_id)
    eligible = [n for n in nodes if n.level >= 1 and n.node_id in records
                and stats[n.node_id]["n_papers"] >= min_support]
    if not eligible:
        return []
    label_vecs = embed([n.label for n in eligible])
    label_of = {n.node_id: label_vecs[i] for i, n in enumerate(eligible)}
    paper_sets = {n.node_id: set(n.paper_ids) for n in eligible}
    present = [centroids[n.node_id] for n in eligible if n.node_id in centroids]
    # Centring removes the domain-wide direction every centroid shares; it needs a
    # handful of nodes to estimate (with two nodes it would turn identical into opposite).
    mean = np.mean(present, axis=0) if len(present) >= 5 else None
    centred = {nid: _unit(v - mean) for nid, v in centroids.items()} if mean is not None else {}
    by_dim: dict[str, list[TaxonomyNode]] = defaultdict(list)
    for n in eligible:
        by_dim[n.dimension].append(n)
    out: list[tuple[TaxonomyNode, list[str]]] = []
    for dim in sorted(by_dim):
        ranked = sorted(by_dim[dim], key=lambda n: (
            not (children[n.node_id] == 0 or n.level >= 2), -stats[n.node_id]["n_papers"], n.node_id))
        kept: list[tuple[TaxonomyNode, list[str]]] = []
        for n in ranked:
            duplicate_of = None
            for k, _ in kept:
                same_label = float(label_of[n.node_id] @ label_of[k.node_id]) > dedup_cosine
                same_centroid = (n.node_id in centred and k.node_id in centred
                                 and float(centred[n.node_id] @ centred[k.node_id]) > dedup_cosine)
                a, b = paper_sets[n.node_id], paper_sets[k.node_id]
                same_papers = bool(a | b) and len(a & b) / len(a | b) >= dedup_jaccard
                if same_label or same_centroid or same_papers:
                    duplicate_of = k.node_id
                    break
            if duplicate_of is not None:
                for k, merged in kept:
                    if k.node_id == duplicate_of:
                        merged.append(n.node_id)
            elif len(kept) < max_per_dimension:
                kept.append((n, [n.node_id]))
        out.extend(kept)
    return out


# ----------------------------------------------------------------------------- method development


def relation_for(
    child: TaxonomyNode,
    parent: TaxonomyNode,
    stats: dict[str, dict[str, float]],
    siblings: list[TaxonomyNode],
) -> tuple[str, str]:
    """Relation label of a parent -> child change, and the rule that fired.

    1. the child grows (growth >= 1.2) while a sibling shrinks (growth <= 0.8 with
       prior papers): `replacement` if the child appeared after that sibling, else
       `competition` (two branches of the same parent pulling apart);
    2. otherwise, child shares label/keyword terms with the parent: `extension`
       (the parent's line refined or extended);
    3. otherwise `adaptation` (the parent's approach carried to a new setting).
    Cross-dimension `component_reuse` is decided in `cross_dimension_pairs`.
    """
    c = stats[child.node_id]
    if c["growth"] >= 1.2:
        shrinking = [s for s in siblings if stats[s.node_id]["n_prior"] > 0 and stats[s.node_id]["growth"] <= 0.8]
        if shrinking:
            s = sorted(shrinking, key=lambda s: (stats[s.node_id]["growth"], s.node_id))[0]
            c_start, s_start = parse_slice(child.created_slice), parse_slice(s.created_slice)
            later = c_start is not None and s_start is not None and c_start > s_start
            rel = "replacement" if later else "competition"
            return rel, (f"child growth {c['growth']:.2f} >= 1.2 while sibling {s.node_id} shrinks "
                         f"(growth {stats[s.node_id]['growth']:.2f} <= 0.8)"
                         + ("; child appeared later" if later else ""))
    overlap = sorted(node_terms(child) & node_terms(parent))
    if overlap:
        return "extension", f"child shares terms with parent: {', '.join(overlap[:5])}"
    return "adaptation", "child shares no label/keyword term with parent"


def development_pairs(
    nodes: list[TaxonomyNode], stats: dict[str, dict[str, float]]
) -> list[tuple[TaxonomyNode, TaxonomyNode, str, str]]:
    """(parent, child, relation, rule) for children that emerged later or grew faster.

    Parents must be level >= 1 (a dimension root is not a method); when the taxonomy is
    only one level deep, root children are compared with their siblings instead (the
    root becomes the "parent" but only replacement/competition is meaningful there).
    """
    by_id = {n.node_id: n for n in nodes}
    kids: dict[str, list[TaxonomyNode]] = defaultdict(list)
    for n in nodes:
        if n.parent_id in by_id:
            kids[n.parent_id].append(n)
    out = []
    for parent_id in sorted(kids):
        parent = by_id[parent_id]
        for child in sorted(kids[parent_id], key=lambda n: n.node_id):
            c, p = stats[child.node_id], stats[parent.node_id]
            if c["n_papers"] < 2:
                continue
            p_start, c_start = parse_slice(parent.created_slice), parse_slice(child.created_slice)
            emerged_later = p_start is not None and c_start is not None and c_start > p_start
            grew_faster = c["growth"] > p["growth"]
            if not (emerged_later or grew_faster):
                continue
            siblings = [s for s in kids[parent_id] if s.node_id != child.node_id]
            relation, rule = relation_for(child, parent, stats, siblings)
            if parent.level == 0 and relation not in ("replacement", "competition"):
                continue
            out.append((parent, child, relation, rule))
    return out


def cross_dimension_pairs(
    nodes: list[TaxonomyNode], stats: dict[str, dict[str, float]], *, min_overlap: float = 0.3, min_shared: int = 3
) -> list[tuple[TaxonomyNode, TaxonomyNode, str, str]]:
    """component_reuse: nodes of different dimensions sharing papers, the target growing.

    Overlap coefficient |A & B| / min(|A|, |B|) >= `min_overlap` with >= `min_shared`
    shared papers; "from" is the older node (earlier created_slice, then larger), "to"
    the other, kept when "to" grows (growth > 1).
    """
    level1 = [n for n in nodes if n.level >= 1]
    sets = {n.node_id: set(n.paper_ids) for n in level1}
    out = []
    for i, a in enumerate(level1):
        for b in level1[i + 1:]:
            if a.dimension == b.dimension:
                continue
            shared = len(sets[a.node_id] & sets[b.node_id])
            small = min(len(sets[a.node_id]), len(sets[b.node_id]))
            if shared < min_shared or not small or shared / small < min_overlap:
                continue
            key = lambda n: (parse_slice(n.created_slice) or date.max, -len(sets[n.node_id]), n.node_id)
            src, dst = sorted([a, b], key=key)
            if stats[dst.node_id]["growth"] <= 1.0:
                continue
            out.append((src, dst, "component_reuse",
                        f"{shared} shared papers (overlap {shared / small:.2f}) across dimensions "
                        f"{src.dimension} -> {dst.dimension}; target growth {stats[dst.node_id]['growth']:.2f} > 1"))
    return out


# ----------------------------------------------------------------------------- bottlenecks

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


def theme_terms(cluster: list[str], background: Counter, n_total: int, k: int = 3) -> list[str]:
    """Top terms of a cluster by document frequency x idf against all limitation sentences."""
    df = Counter()
    for s in cluster:
        toks = _tokens(s)
        grams = set(toks) | {f"{a} {b}" for a, b in zip(toks, toks[1:])}
        df.update(grams)
    scored = []
    for term, c in df.items():
        if c < 2 and len(cluster) > 2:
            continue
        idf = np.log((1 + n_total) / (1 + background[term]))
        scored.append((-(c * idf * (1.3 if " " in term else 1.0)), term))
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
    max_sentences: int = 4000, max_quotes: int = 8,
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
        toks = _tokens(s)
        background.update(set(toks) | {f"{a} {b}" for a, b in zip(toks, toks[1:])})
    members_of: dict[int, list[int]] = defaultdict(list)
    for i, lab in enumerate(labels):
        members_of[int(lab)].append(i)
    themes = []
    for members in members_of.values():
        if len(members) < min_recurrence:
            continue
        centroid = _unit(vecs[members].mean(axis=0))
        cos = vecs[members] @ centroid
        kept = sorted(((float(cs), m) for cs, m in zip(cos, members)), key=lambda t: (-t[0], ids[t[1]]))
        paper_ids = [ids[m] for _, m in kept]
        quotes = [sentences[m] for _, m in kept]
        themes.append({
            "terms": theme_terms(quotes, background, len(sentences)),
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


# ----------------------------------------------------------------------------- assembly


def build_signals(
    nodes: list[TaxonomyNode],
    records: list[EvidenceRecord],
    papers: list[ScreenedPaper],
    cutoff: date,
    monthly_volume: dict[str, int],
    embed,
    *,
    domain: str,
    min_support: int = 8,
    max_per_dimension: int = 12,
    max_development: int = 40,
    max_bottlenecks: int = 30,
    venue_papers=None,
    llm_client=None,
    failures: list | None = None,
) -> list[Signal]:
    """All high-order signals of one domain at one cutoff, in a deterministic order.

    `papers` are the screened papers (at least every paper the nodes reference); only
    those dated <= cutoff are used. `venue_papers` (from `venues.load_venue_lists`)
    adds the venue_profile signals; without it none are produced.

    LLM mode (an online `llm_client`): the model re-classifies each method-development
    relation (given the rule's answer and the numbers) and names and categorises each
    bottleneck theme from its verbatim quotes, in batches; the rule's answer is kept in
    `details` ("rule_relation", "rule_category") and is used whenever a call fails
    (a `Failure` row is appended to `failures` when given). Everything else is computed.
    """
    failures = [] if failures is None else failures
    use_llm = llm_client is not None and not getattr(llm_client, "offline", True)
    public = [p for p in papers if p.published <= cutoff]
    dates = {p.arxiv_id: p.published for p in public}
    by_paper = {p.arxiv_id: p for p in public}
    by_node = {n.node_id: n for n in nodes}
    rec_by_node = {r.node_id: r for r in records}
    stats = node_stats(nodes, public, cutoff, monthly_volume)
    centroids = _centroids(rec_by_node, by_paper, embed)
    signals: list[Signal] = []

    def evidence_of(node_ids: list[str]) -> tuple[list[str], list[str]]:
        ev = [rec_by_node[n].record_id for n in node_ids if n in rec_by_node]
        pids: list[str] = []
        for n in node_ids:
            for pid in _record_paper_ids(rec_by_node.get(n)):
                if pid not in pids:
                    pids.append(pid)
        return ev, _check_dates(pids, dates, cutoff)

    # (1) candidate directions
    candidates = select_candidates(nodes, stats, rec_by_node, centroids, embed, min_support=min_support,
                                   max_per_dimension=max_per_dimension)
    candidate_signals: list[tuple[Signal, TaxonomyNode]] = []
    for i, (node, merged) in enumerate(candidates):
        ev, pids = evidence_of(merged)
        rep_titles = [by_paper[p].title for p in rec_by_node[node.node_id].representative_ids if p in by_paper]
        s = stats[node.node_id]
        sig = Signal(
            signal_id=f"sig:candidate_direction:{i:03d}", kind="candidate_direction", domain=domain,
            cutoff=cutoff, title=node.label, summary=node.description, node_ids=merged,
            evidence_ids=ev, paper_ids=pids,
            stats={k: s[k] for k in ("n_papers", "share_recent", "share_prior", "growth", "age_months",
                                     "slope", "n_recent", "n_prior", "level")},
            details={"keywords": list(node.keywords), "representative_titles": rep_titles,
                     "dimension": [node.dimension], "merged_nodes": merged[1:]},
        )
        signals.append(sig)
        candidate_signals.append((sig, node))

    # (2) method development
    pairs = development_pairs(nodes, stats) + cross_dimension_pairs(nodes, stats)
    pairs = [(a, b, rel, rule) for a, b, rel, rule in pairs if b.node_id in rec_by_node]
    pairs.sort(key=lambda t: (-stats[t[1].node_id]["growth"], -stats[t[1].node_id]["n_papers"],
                              t[0].node_id, t[1].node_id))
    pairs = pairs[:max_development]
    llm_rel: dict = {}
    if use_llm and pairs:
        from assets.evidence.llm_mode import classify_relations_llm

        items = [{"key": f"R{i}", "rule_relation": rel,
                  "from": {"label": a.label, "dimension": a.dimension, "keywords": a.keywords[:6],
                           "growth": stats[a.node_id]["growth"], "created": a.created_slice},
                  "to": {"label": b.label, "dimension": b.dimension, "keywords": b.keywords[:6],
                         "growth": stats[b.node_id]["growth"], "created": b.created_slice}}
                 for i, (a, b, rel, _) in enumerate(pairs)]
        llm_rel = classify_relations_llm(items, llm_client, failures=failures)
    for i, (src, dst, rule_relation, rule) in enumerate(pairs):
        answer = llm_rel.get(f"R{i}")
        relation = answer.relation if answer else rule_relation
        ev, pids = evidence_of([dst.node_id, src.node_id])
        dst_dates = [dates[p] for p in dst.paper_ids if p in dates]
        src_dates = [dates[p] for p in src.paper_ids if p in dates]
        series_dst = quarterly_shares(dst_dates, monthly_volume, cutoff)
        series_src = quarterly_shares(src_dates, monthly_volume, cutoff)
        st = {"child_growth": stats[dst.node_id]["growth"], "parent_growth": stats[src.node_id]["growth"],
              "child_n_papers": stats[dst.node_id]["n_papers"], "parent_n_papers": stats[src.node_id]["n_papers"],
              "child_slope": stats[dst.node_id]["slope"]}
        st.update({f"child_share_{q}": v for q, v in series_dst.items()})
        st.update({f"parent_share_{q}": v for q, v in series_src.items()})
        slices_dst = slice_shares(dst_dates, monthly_volume, cutoff)
        slices_src = slice_shares(src_dates, monthly_volume, cutoff)
        st.update({f"child_slice_share_{q}": v for q, v in slices_dst.items()})
        st["child_slice_growth"] = slice_growth(slices_dst)
        st["parent_slice_growth"] = slice_growth(slices_src)
        verb = {"extension": "extends", "adaptation": "adapts", "replacement": "replaces a sibling under",
                "competition": "competes within", "component_reuse": "reuses components of"}[relation]
        signals.append(Signal(
            signal_id=f"sig:method_development:{i:03d}", kind="method_development", domain=domain, cutoff=cutoff,
            title=f"{dst.label} {verb} {src.label}",
            summary=(f"{relation}: '{dst.label}' (growth {st['child_growth']:.2f}, {int(st['child_n_papers'])} papers) "
                     f"vs '{src.label}' (growth {st['parent_growth']:.2f}); rule: {rule}."),
            node_ids=[src.node_id, dst.node_id], evidence_ids=ev, paper_ids=pids, stats=st,
            details={"relation": [relation], "from_node": [src.node_id], "to_node": [dst.node_id], "rule": [rule],
                     "child_series": [f"{q}:{v:.4f}" for q, v in series_dst.items()],
                     "parent_series": [f"{q}:{v:.4f}" for q, v in series_src.items()],
                     "child_slice_series": [f"{q}:{v:.4f}" for q, v in slices_dst.items()],
                     "parent_slice_series": [f"{q}:{v:.4f}" for q, v in slices_src.items()],
                     "rule_relation": [rule_relation], "decided_by": ["llm" if answer else "rule"],
                     **({"llm_rationale": [answer.rationale]} if answer and answer.rationale else {})},
        ))

    # (3) bottlenecks
    themes = bottleneck_themes(records, embed)[:max_bottlenecks]
    llm_bn: dict = {}
    if use_llm and themes:
        from assets.evidence.llm_mode import name_bottlenecks_llm

        llm_bn = name_bottlenecks_llm([{"key": f"B{i}", "quotes": t["quotes"][:8], "rule_category": t["category"]}
                                       for i, t in enumerate(themes)], llm_client, failures=failures)
    bottleneck_signals: list[Signal] = []
    for i, t in enumerate(themes):
        pids = _check_dates(t["paper_ids"], dates, cutoff)
        title = " / ".join(t["terms"]) if t["terms"] else t["quotes"][0][:60]
        named = llm_bn.get(f"B{i}")
        rule_category = t["category"]
        if named:
            title, t = named.title.strip(), dict(t, category=named.category)
        sig = Signal(
            signal_id=f"sig:bottleneck:{i:03d}", kind="bottleneck", domain=domain, cutoff=cutoff,
            title=title, summary=t["quotes"][0], node_ids=t["nodes"], evidence_ids=t["records"], paper_ids=pids,
            stats={"recurrence": float(len(set(pids))), "n_nodes": float(len(t["nodes"])),
                   "cohesion": round(t["cohesion"], 4)},
            details={"quotes": t["quotes"][: t["max_quotes"]], "quote_papers": pids[: t["max_quotes"]],
                     "category": [t["category"]], "nodes": t["nodes"], "terms": t["terms"],
                     "rule_category": [rule_category], "decided_by": ["llm" if named else "rule"]},
        )
        signals.append(sig)
        bottleneck_signals.append(sig)

    # (4) feasibility, dependency and risk notes
    for i, (cand, node) in enumerate(candidate_signals):
        own = set(cand.node_ids)
        linked = [b for b in bottleneck_signals if own & set(b.node_ids)]
        linked.sort(key=lambda b: (-b.stats["recurrence"], b.signal_id))
        deps: list[str] = []
        parent = by_node.get(node.parent_id or "")
        if parent is not None and parent.level >= 1:
            deps.append(parent.label)
        mine = set(node.paper_ids)
        related = []
        for other in nodes:
            if other.dimension == node.dimension or other.level < 1 or not other.paper_ids:
                continue
            shared = len(mine & set(other.paper_ids))
            if shared:
                related.append((-shared / max(1, len(mine)), other.node_id, other.label))
        deps += [label for _, _, label in sorted(related)[:2] if label not in deps]
        s = cand.stats
        if s["n_papers"] >= min_support and s["growth"] >= 1.0 and s["age_months"] <= 24:
            verdict = "actionable near-term"
        elif s["growth"] >= 1.0:
            verdict = "actionable, established"
        else:
            verdict = "watch (its share of the domain is shrinking)"
        risks = [b.title for b in linked[:3]]
        summary = (f"{verdict}: '{node.label}' rests on {int(s['n_papers'])} pre-cutoff papers, "
                   f"{int(s['age_months'])} months old, volume-normalised growth {s['growth']:.2f}; "
                   f"depends on {', '.join(deps) if deps else 'no other node'}; "
                   f"risk: {'; '.join(risks) if risks else 'no recurring bottleneck linked'}.")
        signals.append(Signal(
            signal_id=f"sig:feasibility:{i:03d}", kind="feasibility", domain=domain, cutoff=cutoff,
            title=f"Feasibility of {node.label}", summary=summary, node_ids=cand.node_ids,
            evidence_ids=sorted(set(cand.evidence_ids) | {e for b in linked for e in b.evidence_ids}),
            paper_ids=cand.paper_ids,
            stats={"support": s["n_papers"], "maturity_months": s["age_months"], "n_bottlenecks": float(len(linked)),
                   "growth": s["growth"], "actionable": float(verdict.startswith("actionable"))},
            details={"dependencies": deps, "risks": risks, "candidate": [cand.signal_id],
                     "bottlenecks": [b.signal_id for b in linked], "verdict": [verdict]},
        ))

    # (5) venue profiles
    if venue_papers is not None:
        from assets.evidence.venues import build_venue_profiles

        signals.extend(build_venue_profiles(venue_papers, public, cutoff, embed, domain=domain))
    return signals

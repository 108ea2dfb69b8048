"""Gold measurement shared by the families (ForeSci §3.4 G_{>t}(q), Appendix C.1).

Each family module (`assets/families/`) computes its own gold with these pieces; the
rules below are what the built-in families do with them.

Gold is measured, not opined: every target is computed from the papers published in
(cutoff, window_end] and records the numbers and future paper ids it rests on.

Mapping future papers to candidates (direction, planning): a neighbour vote
(`GoldContext.member_votes`). A candidate's members are its pre-cutoff papers (the papers
whose titles contain one of its defining phrases, `details["member_ids"]`; signal paper_ids
for a candidate without them); a paper belongs to it when at least MEMBER_VOTE of its
NEIGHBOURS nearest cutoff-visible papers (embedding cosine) are members. Each candidate is
measured on its own (a paper can belong to two), as the lexical measure does.

Other uses (bottleneck subdirections, new subdirections, trajectories) give a candidate a
centroid = mean embedding of those members and
a threshold = the ASSIGN_QUANTILE (25th) percentile of its own papers' cosine to that
centroid. A paper goes to its nearest option if its cosine clears that option's threshold.

Momentum of option i = future share / recent pre-cutoff share, where future share =
assigned future papers / all in-domain future papers (volume-normalised), and the recent
share is measured with the SAME classifier over the public papers of the RECENT_MONTHS
before the cutoff (so the ratio compares like with like; `prior_from="signal"` uses the
evidence stage's `share_recent` instead). A zero prior count is smoothed to 0.5 papers.
The ratio is then divided by the partition's coverage drift (see `GoldContext.coverage_drift`):
future papers sit farther from every pre-cutoff centroid than recent ones (on the shipped
llm_agent corpus at 2025-12-31, 59% of the window vs 75% of the last 3 months map to some
candidate), which would otherwise label nearly every option "cooling". The uncorrected
ratio is kept as numbers["momentum_raw:<option>"].

Trajectory: accelerating if momentum >= ACCELERATING_MIN, cooling if <= COOLING_MAX;
between them, fragmenting if the option's future papers split into >= FRAGMENT_MIN_NEW
new subdirections or their mean cosine to the centroid fell by >= FRAGMENT_COHESION_DROP
versus its pre-cutoff papers; else steady.

New subdirections: the option's future papers are clustered (seeded k-means, about
CLUSTER_PAPERS papers a cluster); a cluster of >= NEW_CLUSTER_MIN papers whose centroid is
farther from every existing node centroid of the candidate's subtree than every one
(NEW_NODE_QUANTILE = minimum) of the same clusters of its pre-cutoff papers is a subdirection
created after the cutoff; it is labelled by its top terms (see `new_subdirections`).

Bottlenecks (bottleneck tasks): `assets/families/bottleneck/`. A window paper of the
subdirection (same centroid rule, candidate alone) addresses a linked limitation when one
sentence of its abstract states that its own work addresses it (a marker of its own work,
an addressing verb and two of the limitation's key terms, the subdirection's own words
excluded); the rate is compared with the rate among all other window papers (the control).
The most-addressed limitation with >= MIN_FUTURE_MAPPED stating papers and a rate above the
control is the realised root bottleneck.

Slot variants taken from future papers are flagged in `numbers` as
"future_variant:<slot>:<i>" = 1 so the leakage check can look for them in public text.
"""

from __future__ import annotations

import copy
import math
import re
from collections import Counter
from collections.abc import Callable, Sequence

import numpy as np

from assets.corpus.logic import paper_text
from core.clustering import neighbours, spherical_kmeans, unit, voted
from core.leakage import FUTURE_VARIANT_KEY
from core.papers import add_months
from core.records import (
    ClaimBasis,
    GoldClaim,
    GoldSlot,
    GoldTarget,
    Signal,
    Task,
)
from core.text import STOP_WORDS, title_phrases

ASSIGN_QUANTILE = 0.25
RECENT_MONTHS = 6  # the prior period of momentum: long enough that a candidate's count is not noise
ZERO_PRIOR_SMOOTHING = 0.5
ACCELERATING_MIN = 1.25
COOLING_MAX = 0.8
FRAGMENT_MIN_NEW = 2
FRAGMENT_COHESION_DROP = 0.05
CLUSTER_PAPERS = 15  # k-means k = papers / 15, clipped to [2, MAX_CLUSTERS]
MAX_CLUSTERS = 12
NEW_CLUSTER_MIN = 3
NEW_NODE_QUANTILE = 0.0  # below every pre-cutoff cluster: the minimum
MIN_FUTURE_MAPPED = 3  # fewer mapped future papers: insufficient evidence, strength 0
FULL_SUPPORT = 20  # future papers behind the winner for full support strength
BOTTLENECK_FULL_SUPPORT = 10
VENUE_NEIGHBOURS = 10
VENUE_NEIGHBOUR_QUANTILE = 0.95  # neighbours: top VENUE_NEIGHBOURS, and in the window's top 5% by cosine
VENUE_FULL_MARGIN = 0.05  # score gap (cosine units) between top-2 venue families for full margin
METHOD_CUES = re.compile(
    r"\b(we propose|we introduce|we present|we develop|our (?:method|approach|framework)|"
    r"framework|by (?:\w+ing)|leverag\w+|enables?)\b",
    re.IGNORECASE,
)
_WORD = re.compile(r"[a-z][a-z0-9\-]{2,}")


VenueScorer = Callable[[list[str]], dict[str, float]]


# --------------------------------------------------------------------------------------
# small helpers
# --------------------------------------------------------------------------------------


def top_terms(texts: Sequence[str], background: Counter, n_background: int, k: int = 3) -> list[str]:
    """Terms frequent in `texts` and rare in the background documents (tf x idf)."""
    tf: Counter = Counter()
    for text in texts:
        tf.update({w for w in _WORD.findall(text.lower()) if w not in STOP_WORDS})
    scored = [
        (c * math.log((1 + n_background) / (1 + background.get(w, 0))), w) for w, c in tf.items() if c >= 2 or len(texts) < 2
    ]
    return [w for _, w in sorted(scored, key=lambda x: (-x[0], x[1]))[:k]]


def document_frequency(texts: Sequence[str]) -> Counter:
    df: Counter = Counter()
    for text in texts:
        df.update({w for w in _WORD.findall(text.lower()) if w not in STOP_WORDS})
    return df


def method_sentence(abstract: str) -> str | None:
    for sentence in re.split(r"(?<=[.!?])\s+", abstract):
        if METHOD_CUES.search(sentence) and 40 <= len(sentence) <= 400:
            return sentence.strip()
    return None


def pct(x: float) -> str:
    return f"{100 * x:.1f}%"


class Claims:
    def __init__(self, task_id: str):
        self.task_id, self.items = task_id, []

    def add(self, text: str, type_: str, scope: str, importance: float, basis: ClaimBasis | None = None) -> None:
        self.items.append(
            GoldClaim(
                claim_id=f"{self.task_id}-c{len(self.items) + 1:02d}",
                text=text,
                type=type_,
                time_scope=scope,
                importance=round(float(min(1.0, max(0.0, importance))), 3),
                basis=basis,
            )
        )


class Slots:
    def __init__(self):
        self.slots: list[GoldSlot] = []
        self.flags: dict[str, float] = {}

    def add(self, name: str, public: list[str], future: list[str] = ()) -> None:
        variants = list(dict.fromkeys(v for v in public if v))
        fut = [v for v in dict.fromkeys(future) if v and v not in variants]
        for i in range(len(variants), len(variants) + len(fut)):
            self.flags[f"{FUTURE_VARIANT_KEY}:{name}:{i}"] = 1.0
        if variants or fut:
            self.slots.append(GoldSlot(slot=name, variants=variants + fut))


# --------------------------------------------------------------------------------------
# the shared context: vectors computed once per partition
# --------------------------------------------------------------------------------------


class GoldContext:
    def __init__(
        self,
        nodes,
        public_papers,
        future_papers,
        embed,
        cutoff,
        window_end,
        *,
        venue_scorer: VenueScorer | None = None,
        venue_on_topic: Callable[[str], bool] | None = None,
        prior_from: str = "recomputed",
    ):
        if prior_from not in ("recomputed", "signal"):
            raise ValueError("prior_from must be 'recomputed' or 'signal'")
        self.cutoff, self.window_end = cutoff, window_end
        self.venue_scorer, self.venue_on_topic, self.prior_from = venue_scorer, venue_on_topic, prior_from
        self.embed = embed
        pub = sorted((p for p in public_papers if p.label != "excluded"), key=lambda p: p.arxiv_id)
        fut = sorted((p for p in future_papers if p.label != "excluded"), key=lambda p: p.arxiv_id)
        self.public, self.future = pub, fut
        self.pub_index = {p.arxiv_id: i for i, p in enumerate(pub)}
        raw_pub = np.asarray(embed([paper_text(p) for p in pub]) if pub else embed(["empty"])[:0], dtype=np.float32)
        self.mu = raw_pub.mean(axis=0) if len(raw_pub) else np.zeros(raw_pub.shape[1], np.float32)
        self.pub_vecs = self.centre(raw_pub)
        self.fut_vecs = self.centre(embed([paper_text(p) for p in fut])) if fut else np.zeros((0, raw_pub.shape[1]), np.float32)
        recent_start = add_months(cutoff, -RECENT_MONTHS)
        self.recent_idx = np.array([i for i, p in enumerate(pub) if p.published > recent_start], dtype=int)
        self.fut_df = document_frequency([p.title + " " + p.abstract for p in fut])
        self.title_df = Counter(ph for p in pub for ph in title_phrases(p.title))
        self.nodes = {n.node_id: n for n in nodes}
        self.children: dict[str, list[str]] = {}
        for n in nodes:
            if n.parent_id:
                self.children.setdefault(n.parent_id, []).append(n.node_id)
        self._node_centroids: dict[str, np.ndarray | None] = {}
        self._drift: float | None = None
        self._fut_nn: np.ndarray | None = None
        self._rec_nn: np.ndarray | None = None
        self._rows: np.ndarray | None = None  # a bootstrap resample: its window rows in the original window
        self._votes: dict[tuple[str, ...], tuple[np.ndarray, np.ndarray]] = {}  # shared with the resamples
        self._lexical: dict[frozenset[str], tuple[np.ndarray, int]] = {}  # phrase matches, shared likewise
        self._original_future = self.future
        self.ranking_only = False
        self.reference_cos: dict[str, list[float]] = {}  # candidate signal id -> pre-cutoff cluster cosines

    def centre(self, vecs) -> np.ndarray:
        """Subtract the public papers' mean vector and re-normalise.

        Static embeddings of one domain's abstracts are anisotropic (any two papers have
        cosine ~0.9), so cosine thresholds and clustering only separate topics after the
        shared direction is removed. The mean comes from public papers only.
        """
        v = np.asarray(vecs, dtype=np.float32) - self.mu
        return v / np.maximum(np.linalg.norm(v, axis=1, keepdims=True), 1e-12)

    def embed_centred(self, texts: list[str]) -> np.ndarray:
        return self.centre(self.embed(texts))

    def _resampled_df(self, idx: np.ndarray) -> Counter:
        """`document_frequency` of the papers at `idx` (with repeats), from each paper's word set
        computed once: the resamples share the tokenising."""
        window = self._original_future
        words = self.__dict__.setdefault("_window_words", {})  # shared with every resample
        if not words:
            words.update((i, document_frequency([p.title + " " + p.abstract])) for i, p in enumerate(window))
        rows = idx if self._rows is None else self._rows[idx]
        df: Counter = Counter()
        counts = np.bincount(rows, minlength=len(window)) if len(rows) else np.zeros(0, int)
        for i in np.flatnonzero(counts):
            m = int(counts[i])
            for w in words[int(i)]:
                df[w] += m
        return df

    def rows_in_window(self) -> np.ndarray | None:
        """For a bootstrap resample, the original window index of each of its papers (None: this
        is the original window): per-paper tests computed once on the window are read through it."""
        return self._rows

    def window_vecs(self) -> np.ndarray:
        """The original window's (centred) vectors, whichever resample this is."""
        return self.__dict__.get("_original_fut_vecs", self.fut_vecs) if self._rows is not None else self.fut_vecs

    def resampled(self, rng: np.random.Generator) -> GoldContext:
        """The same context with the window's papers resampled with replacement (bootstrap):
        how much a gold depends on which papers happened to appear."""
        idx = rng.integers(0, len(self.future), len(self.future)) if self.future else np.zeros(0, int)
        other = copy.copy(self)
        if self._rows is None:
            other._original_fut_vecs = self.fut_vecs
        other.future = [self.future[i] for i in idx]
        other.fut_vecs = self.fut_vecs[idx]
        other._fut_nn = self.future_neighbours()[idx]
        other._rows = idx if self._rows is None else self._rows[idx]
        other._original_neighbours = self.future_neighbours() if self._rows is None else self._original_neighbours
        other.fut_df = self._resampled_df(idx)
        other._drift = None
        other.ranking_only = True  # a resample only re-ranks: skip the descriptive extras
        return other

    def coverage_drift(self, signals: dict[str, Signal]) -> float:
        """How much less of the window than of the recent months the candidate set covers at all.

        Ratio (share of future papers that belong to any candidate of the partition, by the
        neighbour vote `member_votes`) / (the same share of the recent public papers). Future
        papers drift away from every pre-cutoff topic (new topics, new vocabulary), so raw
        shares shrink for every candidate alike; dividing momentum by this ratio measures each
        option against the covered part of the domain. 1.0 when nothing can be measured.
        """
        if self._drift is None:
            cands = [s for s in sorted(signals.values(), key=lambda s: s.signal_id) if s.kind == "candidate_direction"]
            self._drift = 1.0
            if cands and len(self.future) and len(self.recent_idx):
                fut, rec = self.member_votes(cands)
                f, r = float(fut.any(axis=1).mean()), float(rec.any(axis=1).mean())
                if f > 0 and r > 0:
                    self._drift = f / r
        return self._drift

    def future_neighbours(self) -> np.ndarray:
        if self._fut_nn is None:
            self._fut_nn = neighbours(self.fut_vecs, self.pub_vecs)
        return self._fut_nn

    def recent_neighbours(self) -> np.ndarray:
        if self._rec_nn is None:
            self._rec_nn = neighbours(self.pub_vecs[self.recent_idx], self.pub_vecs, exclude=self.recent_idx)
        return self._rec_nn

    def member_votes(self, signals: Sequence[Signal]) -> tuple[np.ndarray, np.ndarray]:
        """Embedding assignment of papers to candidates, by the neighbour vote of
        `core.clustering.voted` (the rule that made the candidate, `assets.evidence.candidates`):
        a paper belongs to a candidate when >= MEMBER_VOTE of its NEIGHBOURS nearest
        cutoff-visible papers are the candidate's members (`details["member_ids"]`, else its paper_ids). Boolean matrices
        (window papers x candidates, recent public papers x candidates); the recent papers'
        votes leave the paper itself out, so both sides are measured alike. Reads abstracts
        through embeddings, never the title phrases that define the members."""
        key = tuple(s.signal_id for s in signals)
        if key not in self._votes:  # votes over the original window, computed once per partition
            member = np.zeros((len(self.public), len(signals)), dtype=bool)
            for j, sig in enumerate(signals):
                rows = [self.pub_index[p] for p in (sig.details.get("member_ids") or sig.paper_ids) if p in self.pub_index]
                member[rows, j] = True
            original = self.future_neighbours() if self._rows is None else self._original_neighbours
            self._votes[key] = (voted(member, original), voted(member, self.recent_neighbours()))
        fut, rec = self._votes[key]
        return (fut if self._rows is None else fut[self._rows]), rec

    def centroid_of(self, paper_ids: Sequence[str]) -> tuple[np.ndarray | None, np.ndarray]:
        idx = sorted({self.pub_index[p] for p in paper_ids if p in self.pub_index})
        if not idx:
            return None, np.zeros(0)
        vecs = self.pub_vecs[idx]
        c = unit(vecs.mean(axis=0))
        return c, vecs @ c

    def node_centroid(self, node_id: str) -> np.ndarray | None:
        if node_id not in self._node_centroids:
            node = self.nodes.get(node_id)
            self._node_centroids[node_id] = self.centroid_of(node.paper_ids)[0] if node else None
        return self._node_centroids[node_id]

    def subtree(self, node_ids: Sequence[str]) -> list[str]:
        out, stack = [], list(node_ids)
        while stack:
            n = stack.pop()
            if n not in out:
                out.append(n)
                stack.extend(self.children.get(n, []))
        return out


class Candidate:
    """One option's candidate with its centroid and threshold."""

    def __init__(self, ctx: GoldContext, signal: Signal):
        self.signal = signal
        # a phrase-defined candidate's members (assets.evidence.signals.TitlePhraseIndex); others: its evidence papers
        self.centroid, own = ctx.centroid_of(signal.details.get("member_ids") or signal.paper_ids)
        self.n_public = len(own)
        self.threshold = float(np.quantile(own, ASSIGN_QUANTILE)) if len(own) else 1.0
        self.cohesion_pre = float(own.mean()) if len(own) else 0.0


def assign(vecs: np.ndarray, cands: list[Candidate]) -> np.ndarray:
    """Index of the assigned candidate for each row, -1 when none clears its threshold."""
    if len(vecs) == 0 or not cands:
        return np.full(len(vecs), -1, dtype=int)
    dim = vecs.shape[1]
    C = np.stack([c.centroid if c.centroid is not None else np.zeros(dim, np.float32) for c in cands])
    sims = vecs @ C.T
    for j, c in enumerate(cands):
        if c.centroid is None:
            sims[:, j] = -np.inf
    best = sims.argmax(axis=1)
    thr = np.array([c.threshold for c in cands])
    ok = sims[np.arange(len(vecs)), best] >= thr[best]
    return np.where(ok, best, -1)


def n_clusters(n: int) -> int:
    return int(min(MAX_CLUSTERS, max(2, n // CLUSTER_PAPERS)))


def kmeans_clusters(vecs: np.ndarray, k: int | None = None) -> list[np.ndarray]:
    """Row-index groups (>= NEW_CLUSTER_MIN rows) of k-means, k = n / CLUSTER_PAPERS in [2, MAX_CLUSTERS] by default."""
    k = k or n_clusters(len(vecs))
    if len(vecs) < max(k, NEW_CLUSTER_MIN):
        return []
    labels = spherical_kmeans(vecs, k, np.random.default_rng(0), n_init=4, max_iter=25)
    return [np.where(labels == lab)[0] for lab in range(k) if (labels == lab).sum() >= NEW_CLUSTER_MIN]


def _max_cos(groups: list[np.ndarray], vecs: np.ndarray, existing: np.ndarray) -> list[float]:
    return [float((existing @ unit(vecs[g].mean(axis=0))).max()) for g in groups]


def new_subdirections(ctx: GoldContext, cand: Candidate, fut_rows: np.ndarray) -> list[list[str]]:
    """Top-term labels of clusters of the candidate's future papers far from every existing node.

    Existing = centroids of the candidate's node subtree (and the candidate itself). "Far"
    is self-calibrated, because cosine levels depend on the embedder and on cluster size:
    the PRE-cutoff papers of the candidate and its subtree's nodes (subsampled to the
    future count, so clusters have the same k and equally noisy centroids) are clustered
    the same way, and a future cluster is
    new if its best cosine to an existing centroid is below the NEW_NODE_QUANTILE quantile
    of the pre-cutoff clusters' best cosines.
    """
    if len(fut_rows) < 2 * NEW_CLUSTER_MIN or cand.centroid is None:
        return []
    existing = [c for n in ctx.subtree(cand.signal.node_ids) if (c := ctx.node_centroid(n)) is not None]
    E = np.stack(existing + [cand.centroid])
    subtree = ctx.subtree(cand.signal.node_ids)
    pool = set(cand.signal.paper_ids) | {p for n in subtree if n in ctx.nodes for p in ctx.nodes[n].paper_ids}
    pre_idx = sorted({ctx.pub_index[p] for p in pool if p in ctx.pub_index})
    n_ref = min(len(pre_idx), len(fut_rows))  # same sample size: centroids of equal noise
    key = f"{cand.signal.signal_id}|{n_ref}"
    if key not in ctx.reference_cos:
        rng = np.random.default_rng(n_ref)
        sample = sorted(rng.choice(pre_idx, size=n_ref, replace=False)) if n_ref < len(pre_idx) else pre_idx
        pre_vecs = ctx.pub_vecs[sample]
        # same k as the future side: with fewer pre-cutoff papers its clusters are smaller and
        # noisier, which lowers the bar's minimum, i.e. errs towards "not new"
        ctx.reference_cos[key] = _max_cos(kmeans_clusters(pre_vecs, n_clusters(len(fut_rows))), pre_vecs, E)
    reference = ctx.reference_cos[key]
    if not reference:
        return []
    far = float(np.quantile(reference, NEW_NODE_QUANTILE))
    vecs = ctx.fut_vecs[fut_rows]
    out = []
    for group, best in zip(groups := kmeans_clusters(vecs), _max_cos(groups, vecs, E)):
        if best < far:
            papers = [ctx.future[fut_rows[m]] for m in group]
            out.append(top_terms([p.title + " " + p.abstract for p in papers], ctx.fut_df, len(ctx.future)))
    return sorted(out, key=lambda t: " / ".join(t))


def trajectory_of(momentum: float, n_new: int, cohesion_drop: float) -> str:
    if momentum >= ACCELERATING_MIN:
        return "accelerating"
    if momentum <= COOLING_MAX:
        return "cooling"
    if n_new >= FRAGMENT_MIN_NEW or cohesion_drop >= FRAGMENT_COHESION_DROP:
        return "fragmenting"
    return "steady"


def insufficient(task: Task, claims: Claims, why: str, numbers: dict, future_ids: list[str]) -> GoldTarget:
    claims.add(
        f"Insufficient future evidence to validate this task: {why}.",
        "future-realisation",
        f"{task.window_start} to {task.window_end}",
        0.0,
        ClaimBasis(check="insufficient"),
    )
    return GoldTarget(
        task_id=task.task_id,
        family=task.family,
        domain=task.domain,
        cutoff=task.cutoff,
        claims=claims.items,
        numbers=numbers,
        future_paper_ids=future_ids,
        strength=0.0,
    )

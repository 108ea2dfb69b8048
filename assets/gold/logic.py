"""Hidden gold targets from the future window (ForeSci §3.4 G_{>t}(q), Appendix C.1).

Gold is measured, not opined: every target is computed from the papers published in
(cutoff, window_end] and records the numbers and future paper ids it rests on.

Mapping future papers to candidates (direction, planning). Each option's candidate gets a
centroid = mean embedding of its pre-cutoff papers (signal paper_ids ∩ public papers) and
a threshold = the ASSIGN_QUANTILE (25th) percentile of its own papers' cosine to that
centroid. A paper goes to its nearest option if its cosine clears that option's threshold.

Momentum of option i = future share / recent pre-cutoff share, where future share =
assigned future papers / all in-domain future papers (volume-normalised), and the recent
share is measured with the SAME classifier over the public papers of the RECENT_MONTHS
before the cutoff (so the ratio compares like with like; `prior_from="signal"` uses the
evidence stage's `share_recent` instead). A zero prior count is smoothed to 0.5 papers.
The ratio is then divided by the partition's coverage drift (see `_Context.coverage_drift`):
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

Bottlenecks (bottleneck tasks): a future paper of the subdirection (same centroid rule,
candidate alone) addresses its nearest linked bottleneck (vector = mean embedding of the
bottleneck's title and quotes) if its cosine is at least the ADDRESS_QUANTILE quantile of
the whole window's cosines to that bottleneck, so a generic bottleneck close to everything
does not win by default. The most-addressed bottleneck is the realised root bottleneck.

Slot variants taken from future papers are flagged in `numbers` as
"future_variant:<slot>:<i>" = 1 so the leakage check can look for them in public text.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Callable, Sequence
from datetime import date

import numpy as np

from assets.corpus.logic import paper_text
from assets.gold.leakage import FUTURE_VARIANT_KEY
from assets.tasks.logic import direction_name, venue_family
from core.papers import add_months
from core.records import (
    TRAJECTORIES,
    GoldClaim,
    GoldSlot,
    GoldTarget,
    ScreenedPaper,
    Signal,
    Task,
    TaskBuild,
    TaxonomyNode,
)

ASSIGN_QUANTILE = 0.25
RECENT_MONTHS = 3
ZERO_PRIOR_SMOOTHING = 0.5
ACCELERATING_MIN = 1.25
COOLING_MAX = 0.8
FRAGMENT_MIN_NEW = 2
FRAGMENT_COHESION_DROP = 0.05
CLUSTER_PAPERS = 15  # k-means k = papers / 15, clipped to [2, MAX_CLUSTERS]
MAX_CLUSTERS = 12
NEW_CLUSTER_MIN = 3
NEW_NODE_QUANTILE = 0.0  # below every pre-cutoff cluster: the minimum
NEIGHBOUR_RATIO = 0.85  # runner-up momentum within 85% of the winner's: acceptable neighbour
MIN_FUTURE_MAPPED = 3  # fewer mapped future papers: insufficient evidence, strength 0
FULL_SUPPORT = 20  # future papers behind the winner for full support strength
BOTTLENECK_FULL_SUPPORT = 10
ADDRESS_QUANTILE = 0.75  # a paper addresses a bottleneck if closer to it than 75% of the whole window is
VENUE_NEIGHBOURS = 10
VENUE_NEIGHBOUR_QUANTILE = 0.95  # neighbours: top VENUE_NEIGHBOURS, and in the window's top 5% by cosine
VENUE_FULL_MARGIN = 0.05  # score gap (cosine units) between top-2 venue families for full margin
METHOD_CUES = re.compile(r"\b(we propose|we introduce|we present|we develop|our (?:method|approach|framework)|"
                         r"framework|by (?:\w+ing)|leverag\w+|enables?)\b", re.IGNORECASE)
_WORD = re.compile(r"[a-z][a-z0-9\-]{2,}")

# A short English + abstract-boilerplate stop list (importing sklearn's costs seconds).
STOP_WORDS = frozenset("""
a about above across after again against all also although among an and any are as at be because been before
being below between both but by can could did do does doing during each either et few for from further had has
have having here how however if in into is it its itself just may more most much must no nor not of off on once
only or other our ours out over own paper per propose proposed present same several should show shows so some
such than that the their them then there these they this those through thus to too under until up upon use used
uses using very via was we were what when where whether which while who whom why will with within without would
yet you your new based approach approaches method methods results study work existing also first two three one
""".split())

VenueScorer = Callable[[list[str]], dict[str, float]]


# --------------------------------------------------------------------------------------
# small helpers
# --------------------------------------------------------------------------------------


def _unit(v: np.ndarray) -> np.ndarray:
    n = np.linalg.norm(v)
    return v / n if n > 0 else v


def top_terms(texts: Sequence[str], background: Counter, n_background: int, k: int = 3) -> list[str]:
    """Terms frequent in `texts` and rare in the background documents (tf x idf)."""
    tf: Counter = Counter()
    for text in texts:
        tf.update({w for w in _WORD.findall(text.lower()) if w not in STOP_WORDS})
    scored = [(c * math.log((1 + n_background) / (1 + background.get(w, 0))), w) for w, c in tf.items() if c >= 2 or len(texts) < 2]
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


def _pct(x: float) -> str:
    return f"{100 * x:.1f}%"


class _Claims:
    def __init__(self, task_id: str):
        self.task_id, self.items = task_id, []

    def add(self, text: str, type_: str, scope: str, importance: float) -> None:
        self.items.append(GoldClaim(claim_id=f"{self.task_id}-c{len(self.items) + 1:02d}", text=text, type=type_,
                                    time_scope=scope, importance=round(float(min(1.0, max(0.0, importance))), 3)))


class _Slots:
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


class _Context:
    def __init__(self, nodes, public_papers, future_papers, embed, cutoff, window_end):
        self.cutoff, self.window_end = cutoff, window_end
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
        self.nodes = {n.node_id: n for n in nodes}
        self.children: dict[str, list[str]] = {}
        for n in nodes:
            if n.parent_id:
                self.children.setdefault(n.parent_id, []).append(n.node_id)
        self._node_centroids: dict[str, np.ndarray | None] = {}
        self._drift: float | None = None
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

    def coverage_drift(self, signals: dict[str, Signal]) -> float:
        """How much less of the window than of the recent months the candidate set covers at all.

        Ratio (share of future papers mapped to any candidate of the partition) / (share of
        recent public papers mapped). Future papers drift away from every pre-cutoff
        centroid (new topics, new vocabulary), so raw shares shrink for every candidate
        alike; dividing momentum by this ratio measures each option against the mapped part
        of the domain. 1.0 when nothing can be measured.
        """
        if self._drift is None:
            cands = [_Candidate(self, s) for s in sorted(signals.values(), key=lambda s: s.signal_id)
                     if s.kind == "candidate_direction"]
            cands = [c for c in cands if c.centroid is not None]
            self._drift = 1.0
            if cands and len(self.future) and len(self.recent_idx):
                f = float((_assign(self.fut_vecs, cands) >= 0).mean())
                r = float((_assign(self.pub_vecs[self.recent_idx], cands) >= 0).mean())
                if f > 0 and r > 0:
                    self._drift = f / r
        return self._drift

    def centroid_of(self, paper_ids: Sequence[str]) -> tuple[np.ndarray | None, np.ndarray]:
        idx = sorted({self.pub_index[p] for p in paper_ids if p in self.pub_index})
        if not idx:
            return None, np.zeros(0)
        vecs = self.pub_vecs[idx]
        c = _unit(vecs.mean(axis=0))
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


class _Candidate:
    """One option's candidate with its centroid and threshold."""

    def __init__(self, ctx: _Context, signal: Signal):
        self.signal = signal
        self.centroid, own = ctx.centroid_of(signal.paper_ids)
        self.n_public = len(own)
        self.threshold = float(np.quantile(own, ASSIGN_QUANTILE)) if len(own) else 1.0
        self.cohesion_pre = float(own.mean()) if len(own) else 0.0


def _assign(vecs: np.ndarray, cands: list[_Candidate]) -> np.ndarray:
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


def kmeans(vecs: np.ndarray, k: int, seed: int = 0, iters: int = 25, n_init: int = 4) -> np.ndarray:
    """Small deterministic spherical k-means (k-means++ seeding, best of `n_init`); labels.

    Plain numpy: sklearn's KMeans costs ~50 ms a call in thread start-up on these tiny
    inputs, and gold runs it a few hundred times a partition.
    """
    n = len(vecs)
    best, best_score = np.zeros(n, dtype=int), -np.inf
    for run in range(n_init):
        rng = np.random.default_rng(seed + run)
        centres = [vecs[rng.integers(n)]]
        for _ in range(1, k):
            d = np.maximum(0.0, 1.0 - np.max(vecs @ np.stack(centres).T, axis=1)) ** 2
            total = d.sum()
            centres.append(vecs[rng.choice(n, p=d / total)] if total > 0 else vecs[rng.integers(n)])
        C = np.stack(centres)
        labels = np.full(n, -1)
        for _ in range(iters):
            new = np.argmax(vecs @ C.T, axis=1)
            if np.array_equal(new, labels):
                break
            labels = new
            for j in range(k):
                members = vecs[labels == j]
                if len(members):
                    C[j] = _unit(members.mean(axis=0))
        score = float((vecs * C[labels]).sum())
        if score > best_score + 1e-9:
            best, best_score = labels, score
    return best


def n_clusters(n: int) -> int:
    return int(min(MAX_CLUSTERS, max(2, n // CLUSTER_PAPERS)))


def _kmeans_clusters(vecs: np.ndarray, k: int | None = None) -> list[np.ndarray]:
    """Row-index groups (>= NEW_CLUSTER_MIN rows) of k-means, k = n / CLUSTER_PAPERS in [2, MAX_CLUSTERS] by default."""
    k = k or n_clusters(len(vecs))
    if len(vecs) < max(k, NEW_CLUSTER_MIN):
        return []
    labels = kmeans(vecs, k)
    return [np.where(labels == lab)[0] for lab in range(k) if (labels == lab).sum() >= NEW_CLUSTER_MIN]


def _max_cos(groups: list[np.ndarray], vecs: np.ndarray, existing: np.ndarray) -> list[float]:
    return [float((existing @ _unit(vecs[g].mean(axis=0))).max()) for g in groups]


def new_subdirections(ctx: _Context, cand: _Candidate, fut_rows: np.ndarray) -> list[list[str]]:
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
        ctx.reference_cos[key] = _max_cos(_kmeans_clusters(pre_vecs, n_clusters(len(fut_rows))), pre_vecs, E)
    reference = ctx.reference_cos[key]
    if not reference:
        return []
    far = float(np.quantile(reference, NEW_NODE_QUANTILE))
    vecs = ctx.fut_vecs[fut_rows]
    out = []
    for group, best in zip(groups := _kmeans_clusters(vecs), _max_cos(groups, vecs, E)):
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


# --------------------------------------------------------------------------------------
# families
# --------------------------------------------------------------------------------------


def _insufficient(task: Task, claims: _Claims, why: str, numbers: dict, future_ids: list[str]) -> GoldTarget:
    claims.add(f"Insufficient future evidence to validate this task: {why}.", "future-realisation",
               f"{task.window_start} to {task.window_end}", 0.0)
    return GoldTarget(task_id=task.task_id, family=task.family, domain=task.domain, cutoff=task.cutoff,
                      claims=claims.items, numbers=numbers, future_paper_ids=future_ids, strength=0.0)


def _option_momentum(ctx: _Context, task: Task, build: TaskBuild, signals: dict[str, Signal], prior_from: str) -> GoldTarget:
    claims, slots = _Claims(task.task_id), _Slots()
    scope = f"{task.window_start} to {task.window_end}"
    opts = [o for o in task.options if build.option_signal_ids.get(o.option_id) in signals]
    cands = [_Candidate(ctx, signals[build.option_signal_ids[o.option_id]]) for o in opts]
    fut_assign = _assign(ctx.fut_vecs, cands)
    rec_assign = _assign(ctx.pub_vecs[ctx.recent_idx], cands) if len(ctx.recent_idx) else np.zeros(0, int)
    n_future, n_recent = len(ctx.future), len(ctx.recent_idx)
    drift = ctx.coverage_drift(signals) if prior_from == "recomputed" else 1.0
    numbers: dict[str, float] = {"n_future_total": float(n_future), "n_recent_public": float(n_recent),
                                 "n_future_mapped": float((fut_assign >= 0).sum()), "coverage_drift": round(drift, 5)}
    rows: dict[str, np.ndarray] = {}
    stats: dict[str, dict] = {}
    for j, (o, c) in enumerate(zip(opts, cands)):
        fr = np.where(fut_assign == j)[0]
        rows[o.option_id] = fr
        f_share = len(fr) / n_future if n_future else 0.0
        prior_count = int((rec_assign == j).sum())
        if prior_from == "signal" or n_recent == 0:
            p_share = float(c.signal.stats.get("share_recent", 0.0))
        else:
            p_share = max(prior_count, ZERO_PRIOR_SMOOTHING) / n_recent
        if p_share <= 0:
            p_share = ZERO_PRIOR_SMOOTHING / max(n_recent, 1)
        raw_momentum = f_share / p_share
        momentum = raw_momentum / drift
        coh_f = float((ctx.fut_vecs[fr] @ c.centroid).mean()) if len(fr) and c.centroid is not None else c.cohesion_pre
        new = new_subdirections(ctx, c, fr)
        traj = trajectory_of(momentum, len(new), c.cohesion_pre - coh_f)
        stats[o.option_id] = dict(m=momentum, f=f_share, p=p_share, n=len(fr), new=new, traj=traj)
        oid = o.option_id
        numbers.update({f"momentum:{oid}": round(momentum, 5), f"momentum_raw:{oid}": round(raw_momentum, 5), f"future_share:{oid}": round(f_share, 6),
                        f"prior_share:{oid}": round(p_share, 6), f"future_count:{oid}": float(len(fr)),
                        f"prior_count:{oid}": float(prior_count), f"public_papers:{oid}": float(c.n_public),
                        f"threshold:{oid}": round(c.threshold, 5), f"cohesion_pre:{oid}": round(c.cohesion_pre, 5),
                        f"cohesion_future:{oid}": round(coh_f, 5), f"new_subdirections:{oid}": float(len(new)),
                        f"trajectory:{oid}": float(TRAJECTORIES.index(traj))})
    future_ids = [ctx.future[i].arxiv_id for i in np.where(fut_assign >= 0)[0]]
    ranking = sorted(stats, key=lambda k: (-stats[k]["m"], -stats[k]["n"], k))
    if len(future_ids) < MIN_FUTURE_MAPPED or not ranking:
        gold = _insufficient(task, claims, f"only {len(future_ids)} future papers map to the options", numbers, future_ids)
        gold.preferred_ranking = ranking
        return gold
    name = {o.option_id: direction_name(signals[build.option_signal_ids[o.option_id]]) for o in opts}
    text = {o.option_id: o.text for o in opts}
    top, second = ranking[0], ranking[1] if len(ranking) > 1 else None
    st = stats[top]
    top_sig = signals[build.option_signal_ids[top]]

    def top_titles(oid: str, k: int = 2) -> list[str]:
        c = cands[[o.option_id for o in opts].index(oid)]
        fr = rows[oid]
        order = fr[np.argsort(-np.round(ctx.fut_vecs[fr] @ c.centroid, 6), kind="stable")] if len(fr) else fr
        return [ctx.future[i].title for i in order[:k]]

    primary = "top_priority" if task.family == "planning" else "primary_direction"
    slots.add(primary, [text[top], name[top], ", ".join(top_sig.details.get("keywords", [])[:5])], top_titles(top))
    slots.add("trajectory", [f"{name[top]} is {st['traj']}", f"{name[top]} will be {st['traj']} from {task.window_start} to {task.window_end}"])
    if second and stats[second]["m"] >= NEIGHBOUR_RATIO * st["m"]:
        slots.add("neighbour", [text[second], name[second]], top_titles(second))

    # claims bank
    for oid in ranking:
        sig = signals[build.option_signal_ids[oid]]
        claims.add(f"Before {task.cutoff}, {name[oid]} had {len(sig.paper_ids)} papers in the domain.",
                   "historical", "pre-cutoff", 0.3)
    claims.add(f"In the {RECENT_MONTHS} months before {task.cutoff}, {name[top]} held {_pct(st['p'])} of new papers in the domain.",
               "historical", "pre-cutoff", 0.4)
    claims.add(f"Between {task.window_start} and {task.window_end}, {name[top]} gained the largest volume-normalised share among the options "
               f"(momentum {st['m']:.2f}).", "future-realisation", scope, 1.0)
    claims.add(f"Between {task.window_start} and {task.window_end}, {name[top]} is {st['traj']}.", "future-realisation", scope, 0.8)
    verb = "rose" if st["f"] >= st["p"] else "fell"
    claims.add(f"{name[top]}'s share of the domain's papers {verb} from {_pct(st['p'])} to {_pct(st['f'])} "
               f"({st['n']} papers in the window).", "statistical", scope, 0.6)
    last = ranking[-1]
    if last != top:
        sl = stats[last]
        claims.add(f"{name[last]} had the lowest momentum among the options ({sl['m']:.2f}; share "
                   f"{_pct(sl['p'])} to {_pct(sl['f'])}).", "statistical", scope, 0.4)
    for oid in ranking[:2]:
        for terms in stats[oid]["new"][:2]:
            claims.add(f"New subdirection '{' / '.join(terms)}' emerged under {name[oid]}.", "taxonomy", scope, 0.5)
    if task.family == "planning":
        claims.add(f"{name[top]} should be the top priority for a plan starting after {task.cutoff}.",
                   "future-realisation", scope, 0.9)
        feas = [s for s in signals.values() if s.kind == "feasibility" and set(s.node_ids) & set(top_sig.node_ids)]
        for f in feas[:1]:
            for dep in f.details.get("dependencies", [])[:2]:
                claims.add(f"A dependency of {name[top]} before {task.cutoff}: {dep}.", "historical", "pre-cutoff", 0.3)
            for risk in f.details.get("risks", [])[:2]:
                claims.add(f"A risk of {name[top]} before {task.cutoff}: {risk}.", "historical", "pre-cutoff", 0.3)

    margin = (st["m"] - stats[second]["m"]) / st["m"] if second and st["m"] > 0 else 1.0
    strength = min(1.0, st["n"] / FULL_SUPPORT) * (0.25 + 0.75 * max(0.0, margin))
    numbers["margin"] = round(margin, 5)
    numbers.update(slots.flags)
    return GoldTarget(task_id=task.task_id, family=task.family, domain=task.domain, cutoff=task.cutoff,
                      preferred_ranking=ranking, trajectory=st["traj"], slots=slots.slots, claims=claims.items,
                      numbers=numbers, future_paper_ids=sorted(future_ids), strength=round(float(strength), 4))


def _bottleneck(ctx: _Context, task: Task, build: TaskBuild, signals: dict[str, Signal]) -> GoldTarget:
    claims, slots = _Claims(task.task_id), _Slots()
    scope = f"{task.window_start} to {task.window_end}"
    used = [signals[s] for s in build.signal_ids if s in signals]
    cand_sig = next((s for s in used if s.kind == "candidate_direction"), None)
    bns = [s for s in used if s.kind == "bottleneck"]
    numbers: dict[str, float] = {"n_future_total": float(len(ctx.future)), "n_bottlenecks": float(len(bns))}
    if cand_sig is None or not bns:
        return _insufficient(task, claims, "the task has no subdirection or bottleneck signals", numbers, [])
    cand = _Candidate(ctx, cand_sig)
    rows = np.where(_assign(ctx.fut_vecs, [cand]) == 0)[0]
    numbers["n_future_subdirection"] = float(len(rows))
    future_ids = sorted(ctx.future[i].arxiv_id for i in rows)
    sub = direction_name(cand_sig)
    if len(rows) < MIN_FUTURE_MAPPED:
        return _insufficient(task, claims, f"only {len(rows)} future papers fall in {sub}", numbers, future_ids)
    B = np.stack([_unit(ctx.embed_centred([b.title] + list(b.details.get("quotes", []) or [b.summary])).mean(axis=0)) for b in bns])
    sims_all = ctx.fut_vecs @ B.T  # (all future papers, bottlenecks)
    thresholds = np.quantile(sims_all, ADDRESS_QUANTILE, axis=0)
    sims = sims_all[rows]  # the subdirection's future papers
    nearest = sims.argmax(axis=1)
    addresses = sims[np.arange(len(rows)), nearest] >= thresholds[nearest]
    nearest = np.where(addresses, nearest, -1)
    counts = np.bincount(nearest[nearest >= 0], minlength=len(bns))
    numbers["n_future_addressing"] = float(counts.sum())
    if counts.sum() < MIN_FUTURE_MAPPED:
        return _insufficient(task, claims, f"only {int(counts.sum())} future papers in {sub} address its bottlenecks",
                             numbers, future_ids)
    mean_sim = np.array([sims[nearest == j, j].mean() if counts[j] else 0.0 for j in range(len(bns))])
    order = sorted(range(len(bns)), key=lambda j: (-counts[j], -mean_sim[j], bns[j].signal_id))
    for j, b in enumerate(bns):
        numbers[f"addressed:{j}"] = float(counts[j])
    root = order[0]
    b = bns[root]
    addressing = rows[nearest == root]
    addressing = addressing[np.argsort(-np.round(sims[nearest == root, root], 6), kind="stable")]
    top_papers = [ctx.future[i] for i in addressing[:3]]
    quotes = list(b.details.get("quotes", []))[:3] or [b.summary]
    slots.add("root_bottleneck", [b.title, *quotes])
    terms = top_terms([p.title + " " + p.abstract for p in top_papers], ctx.fut_df, len(ctx.future), k=4)
    slots.add("opportunity", [], [p.title for p in top_papers] + ([" / ".join(terms)] if terms else []))
    mechanisms = [m for p in top_papers if (m := method_sentence(p.abstract))]
    slots.add("mechanism", [], mechanisms[:2])
    claims.add(f"Before {task.cutoff}, {int(b.stats.get('recurrence', len(b.paper_ids)))} papers reported the limitation "
               f"'{b.title}' in {sub}.", "historical", "pre-cutoff", 0.4)
    claims.add(f"Between {task.window_start} and {task.window_end}, the most-addressed bottleneck in {sub} was '{b.title}', targeted by "
               f"{int(counts[root])} new papers.", "future-realisation", scope, 1.0)
    claims.add(f"{int(counts[root])} of {len(rows)} new papers in {sub} ({_pct(counts[root] / len(rows))}) address "
               f"'{b.title}'.", "statistical", scope, 0.6)
    if terms:
        claims.add(f"Reducing '{b.title}' opened work on {', '.join(terms)}.", "future-realisation", scope, 0.8)
    for terms_new in new_subdirections(ctx, cand, rows)[:2]:
        claims.add(f"New subdirection '{' / '.join(terms_new)}' emerged under {sub}.", "taxonomy", scope, 0.5)
    c1 = int(counts[root])
    c2 = int(counts[order[1]]) if len(order) > 1 else 0
    margin = (c1 - c2) / c1 if c1 else 0.0
    strength = min(1.0, c1 / BOTTLENECK_FULL_SUPPORT) * (0.25 + 0.75 * margin)
    numbers.update({"margin": round(margin, 5), **slots.flags})
    return GoldTarget(task_id=task.task_id, family=task.family, domain=task.domain, cutoff=task.cutoff,
                      preferred_ranking=[bns[j].title for j in order], slots=slots.slots, claims=claims.items,
                      numbers=numbers, future_paper_ids=future_ids, strength=round(float(strength), 4))


_PROJECT = re.compile(r'Project description: "(.*?)"\s', re.DOTALL)


def _venue(ctx: _Context, task: Task, build: TaskBuild, signals: dict[str, Signal], venue_scorer: VenueScorer | None) -> GoldTarget:
    claims, slots = _Claims(task.task_id), _Slots()
    scope = f"{task.window_start} to {task.window_end}"
    m = _PROJECT.search(task.question)
    project = m.group(1) if m else task.question
    fam = {o.option_id: signals[build.option_signal_ids[o.option_id]] for o in task.options
           if build.option_signal_ids.get(o.option_id) in signals}
    numbers: dict[str, float] = {"n_future_total": float(len(ctx.future))}
    if len(fam) < 2:
        return _insufficient(task, claims, "fewer than two venue options", numbers, [])
    pv = ctx.embed_centred([project])[0]
    sims = ctx.fut_vecs @ pv if len(ctx.future) else np.zeros(0)
    floor = float(np.quantile(sims, VENUE_NEIGHBOUR_QUANTILE)) if len(sims) else 0.0
    near = [i for i in np.argsort(-sims, kind="stable")[:VENUE_NEIGHBOURS] if sims[i] >= floor and sims[i] > 0]
    texts = [paper_text(ctx.future[i]) for i in near] or [project]
    future_ids = sorted(ctx.future[i].arxiv_id for i in near)
    numbers["n_future_neighbours"] = float(len(near))
    if venue_scorer is not None:
        raw = venue_scorer(texts)
        scores = {oid: float(raw.get(venue_family(s), float("nan"))) for oid, s in fam.items()}
        scores = {k: v for k, v in scores.items() if not math.isnan(v)}
    else:  # fallback: similarity to each family profile's terms and example titles
        T = ctx.embed_centred(texts).mean(axis=0)
        scores = {}
        for oid, s in fam.items():
            prof = " ".join(s.details.get("top_terms", []) + s.details.get("terms", [])
                            + s.details.get("example_titles", [])) or venue_family(s)
            scores[oid] = float(_unit(T) @ ctx.embed_centred([prof])[0])
    for oid, v in scores.items():
        numbers[f"venue_score:{oid}"] = round(v, 5)
    ranking = sorted(scores, key=lambda k: (-scores[k], k))
    if len(ranking) < 2:
        return _insufficient(task, claims, "no venue scores for the options", numbers, future_ids)
    top, second = ranking[0], ranking[1]
    name = {oid: venue_family(s) for oid, s in fam.items()}
    slots.add("best_venue", [name[top], next(o.text for o in task.options if o.option_id == top)])
    claims.add(f"{name[top]} is the best fit for the project in the next venue cycle.", "venue", scope, 1.0)
    claims.add(f"{name[second]} is the runner-up venue family for the project.", "venue", scope, 0.5)
    for oid in ranking:
        s = fam[oid]
        claims.add(f"Before {task.cutoff}, the {name[oid]} venue lists held {int(s.stats.get('n_papers', 0))} papers, "
                   f"{_pct(s.stats.get('domain_share', 0.0))} of them in this domain.", "historical", "pre-cutoff", 0.2)
    if near:
        claims.add(f"Between {task.window_start} and {task.window_end}, {len(near)} closely related papers appeared; their content fits {name[top]} best.",
                   "future-realisation", scope, 0.7)
    margin = min(1.0, max(0.0, (scores[top] - scores[second]) / VENUE_FULL_MARGIN))
    strength = (0.5 + 0.5 * min(1.0, len(near) / VENUE_NEIGHBOURS)) * margin
    numbers.update({"margin": round(margin, 5), **slots.flags})
    return GoldTarget(task_id=task.task_id, family=task.family, domain=task.domain, cutoff=task.cutoff,
                      preferred_ranking=ranking, slots=slots.slots, claims=claims.items, numbers=numbers,
                      future_paper_ids=future_ids, strength=round(float(strength), 4))


def build_gold(
    tasks: list[Task],
    builds: list[TaskBuild],
    signals: list[Signal],
    nodes: list[TaxonomyNode],
    public_papers: list[ScreenedPaper],
    future_papers: list[ScreenedPaper],
    embed,
    *,
    cutoff: date,
    window_end: date,
    venue_scorer: VenueScorer | None = None,
    prior_from: str = "recomputed",
) -> list[GoldTarget]:
    """One hidden `GoldTarget` per task, in task order (see the module docstring).

    `venue_scorer(texts) -> {family name: score}` ranks venue families for texts (the
    evidence stage's `venue_similarity` bound to its venue lists and date); without it the
    families are ranked by similarity to their profiles' top terms and example titles.
    """
    if prior_from not in ("recomputed", "signal"):
        raise ValueError("prior_from must be 'recomputed' or 'signal'")
    ctx = _Context(nodes, public_papers, future_papers, embed, cutoff, window_end)
    by_id = {s.signal_id: s for s in signals}
    build_of = {b.task_id: b for b in builds}
    out: list[GoldTarget] = []
    for task in tasks:
        build = build_of.get(task.task_id)
        if build is None:
            out.append(_insufficient(task, _Claims(task.task_id), "no construction record", {}, []))
        elif task.family in ("direction", "planning"):
            out.append(_option_momentum(ctx, task, build, by_id, prior_from))
        elif task.family == "bottleneck":
            out.append(_bottleneck(ctx, task, build, by_id))
        else:
            out.append(_venue(ctx, task, build, by_id, venue_scorer))
    return out

"""Taxonomy stage: an offline temporal, multidimensional taxonomy (ForeSci §3.3, App. B.2).

The paper induces its taxonomy with TaxoAdapt (an LLM routes papers across contribution
dimensions and labels dense or poorly covered regions). Offline we keep TaxoAdapt's
control flow and replace the LLM by embeddings, clustering and TF-IDF:

1. Only cutoff-visible, non-excluded papers are used; anything dated after the cutoff is
   filtered out first and counted in the result (it can never reach a node).
2. Papers are processed in chronological slices: quarters early, months for the last
   `recent_months` months before the cutoff, so recent movement is not smoothed away.
3. Each paper is routed to one or more contribution dimensions (tasks, methodologies,
   datasets, evaluation methods, real-world domains) by a rule mixing embedding
   similarity to a seed description with cue words (see `dimension_scores`).
4. Within a dimension, each slice's new papers are routed top-down from the root: at a
   node with children a paper goes to the child with the most similar centroid if that
   similarity is typical for the child: at least the `fit_quantile` quantile of the
   child's members' leave-one-out cosines to it. Otherwise it stays at the node as
   "unfit". Exception (`descend_when_full`): a node that already has `max_children`
   children can never grow, so its papers go to the nearest child anyway, where they
   can still be placed deeper or trigger a width expansion.
5. After routing a slice, dense regions expand: a node with children holding more than
   `max_density` unfit papers gets new sibling children from clustering those papers
   (WIDTH); a leaf with level < `max_depth` holding more than `max_density` papers is
   split by clustering them (DEPTH). A root's first split waits for `initial_density`
   papers (default 3 x max_density: a split of a few dozen early papers is mostly
   noise) and is recorded as "initial". A new cluster needs at least `min_votes` papers
   and a node has at most `max_children` children. Papers an expansion did not touch
   are never re-routed. Clustering is cosine k-means, k in 2..max_children by
   silhouette.
6. Finally every node is labelled by the TF-IDF terms that distinguish its papers from
   its siblings' papers.

LLM mode (`llm_client=` an online LLMClient or the counting stub) keeps steps 1-5 and
lets the model make TaxoAdapt's decisions in batches: dimensions and child routing of the
*ambiguous* papers (embeddings route the clear ones), label proposal for the papers that
trigger an expansion, and one clustering call per expansion; labels and descriptions of
the new nodes are the model's (`assets.taxonomy.llm_mode`, docs/taxonomy.md).

Growth is kept: every node carries its `created_slice` and `created_by`;
`nodes_created_between` answers "what emerged when", `growth_table` counts nodes per
dimension and slice.

No Dagster here. Deterministic: papers are processed in (published, arxiv_id) order and
every clustering is seeded from `seed` and the node's path.
"""

from __future__ import annotations

import re
import zlib
from collections import Counter
from dataclasses import dataclass, field
from datetime import date

import numpy as np
from pydantic import BaseModel, Field
from sklearn.feature_extraction.text import ENGLISH_STOP_WORDS, TfidfVectorizer

from assets.taxonomy.clustering import (  # noqa: F401
    KMEANS_N_INIT,
    cluster,
    cosine_silhouette,
)
from assets.taxonomy.slices import (  # noqa: F401  (re-exported: callers import them from here)
    growth_markdown,
    growth_table,
    nodes_created_between,
    slice_first_day,
    slice_index,
    slice_starts,
)
from core.records import Failure, ScreenedPaper, TaxonomyNode
from core.text import STOP_WORDS

DIMENSIONS: tuple[str, ...] = ("tasks", "methodologies", "datasets", "evaluation_methods", "real_world_domains")

# Domain-agnostic seed descriptions of the TaxoAdapt contribution dimensions.
DIMENSION_DESCRIPTIONS: dict[str, str] = {
    "tasks": "a problem or task formulation",
    "methodologies": "a new method, model, algorithm, architecture or training technique",
    "datasets": "a new dataset, benchmark or corpus",
    "evaluation_methods": "an evaluation protocol, metric or empirical study",
    "real_world_domains": "an application in a real-world domain such as medicine, law, finance, science, education",
}

# Cue words per dimension: a static embedding gives every abstract a similar cosine to
# every short description, so explicit cues carry most of the dimension signal.
DIMENSION_CUES: dict[str, str] = {
    "tasks": r"tasks?|problems?|formulat\w*|challenges?|settings?|we (?:study|address|tackle|consider)|goal",
    "methodologies": r"we propose|propose[sd]?|novel|framework|method\w*|approach\w*|architecture\w*|algorithm\w*"
    r"|train\w*|fine-?tun\w*|techniques?|mechanism\w*|module\w*|pipeline",
    "datasets": r"datasets?|benchmarks?|corpus|corpora|annotat\w*|testbeds?|suite|leaderboard"
    r"|we (?:release|collect|curate|construct|build)|collection of|open-source\w*",
    "evaluation_methods": r"evaluat\w*|metrics?|empirical\w*|analy[sz]\w*|surveys?|assess\w*|measur\w*"
    r"|comparisons?|human study|case stud\w*|protocols?|systematic\w*|investigat\w*|reliab\w*",
    "real_world_domains": r"medic\w*|clinic\w*|health\w*|patients?|hospital\w*|legal|law|financ\w*|trading|stock"
    r"|educat\w*|students?|teach\w*|scien\w*|chemi\w*|biolog\w*|materials?|physics|drug\w*|protein\w*"
    r"|genom\w*|manufactur\w*|robot\w*|agricult\w*|climate|energy|cyber\w*|e-commerce|customer\w*"
    r"|games?|driving|urban|transport\w*|industr\w*|enterprise|mathemat\w*|engineering",
}

DIMENSION_RULE = (
    "score_d = z(cos(paper, seed description of d)) + z(log1p(2*title cue hits + abstract cue hits)), "
    "z-scored per dimension over the cutoff-visible papers; a paper joins its best dimension and every "
    "other dimension whose score is within `dimension_margin` of the best and above 0 (above average)."
)



_TOKEN_PATTERN = r"(?u)\b[a-zA-Z][a-zA-Z0-9]+(?:-[a-zA-Z0-9]+)*\b"


class Assignment(BaseModel):
    """Where one paper ended up in one dimension: the deepest node that holds it.

    `fit` is False when the paper stayed "unfit" at an internal node (no child was
    close enough); `similarity` is its cosine to that node's final centroid; `slice` is
    the slice in which the paper arrived.
    """

    arxiv_id: str
    node_id: str
    dimension: str
    slice: str
    similarity: float
    fit: bool


class TaxonomyResult(BaseModel):
    """The taxonomy of one (domain, cutoff) partition with its construction trace."""

    domain: str
    cutoff: date
    seed: int
    nodes: list[TaxonomyNode]
    assignments: list[Assignment]
    slices: list[str]
    growth: dict[str, int]  # nodes created per slice
    expansions: dict[str, dict[str, int]] = Field(default_factory=dict)  # slice -> {initial, width, depth}
    slice_papers: dict[str, int] = Field(default_factory=dict)  # new papers per slice
    paper_vectors_used: int
    dropped_after_cutoff: int = 0
    dropped_excluded: int = 0
    dropped_duplicates: int = 0
    dimension_counts: dict[str, int] = Field(default_factory=dict)  # papers routed to each dimension
    dimension_rule: str = DIMENSION_RULE
    params: dict[str, float] = Field(default_factory=dict)
    mode: str = "offline"  # "offline" (embeddings + TF-IDF) or "llm"
    llm_requests: dict[str, int] = Field(default_factory=dict)  # LLM requests made, per purpose
    llm_papers_sent: dict[str, int] = Field(default_factory=dict)  # paper slots sent, per purpose
    llm_decided: dict[str, int] = Field(default_factory=dict)  # routing decisions: embedding vs model
    failures: list[Failure] = Field(default_factory=list)  # LLM batches that fell back to embeddings

    @property
    def llm_calls(self) -> int:
        return sum(self.llm_requests.values())

    @property
    def llm_calls_per_paper(self) -> float:
        return self.llm_calls / self.paper_vectors_used if self.paper_vectors_used else 0.0


# ----------------------------------------------------------------------------- slices


_WORD = re.compile(r"[a-z][a-z0-9]*(?:-[a-z0-9]+)*")


def cue_counts(titles: list[str], abstracts: list[str], dimensions: tuple[str, ...]) -> np.ndarray:
    """(n, len(dimensions)) cue score: log1p(2 * title hits + abstract hits).

    Texts are tokenised once; each distinct word and word pair is matched against the
    cue patterns once (cached), which is ~20x faster than running the regexes per text.
    """
    full = [re.compile(rf"(?:{DIMENSION_CUES[dim]})", re.IGNORECASE) for dim in dimensions]
    cache: dict[str, tuple[int, ...]] = {}

    def hits(text: str) -> list[int]:
        words = _WORD.findall(text.lower())
        total = [0] * len(dimensions)
        for unit in words + [f"{a} {b}" for a, b in zip(words, words[1:])]:
            dims = cache.get(unit)
            if dims is None:
                dims = cache[unit] = tuple(j for j, pattern in enumerate(full) if pattern.fullmatch(unit))
            for j in dims:
                total[j] += 1
        return total

    out = np.array([[2 * x + y for x, y in zip(hits(t), hits(a))] for t, a in zip(titles, abstracts)],
                   dtype=np.float64).reshape(len(titles), len(dimensions))
    return np.log1p(out)


def _zscore(matrix: np.ndarray) -> np.ndarray:
    std = matrix.std(axis=0)
    return (matrix - matrix.mean(axis=0)) / np.where(std > 1e-9, std, 1.0)


def dimension_scores(vectors: np.ndarray, titles: list[str], abstracts: list[str], embed,
                     dimensions: tuple[str, ...]) -> np.ndarray:
    """Per-paper score for each dimension (see DIMENSION_RULE)."""
    desc_vecs = np.asarray(embed([DIMENSION_DESCRIPTIONS[d] for d in dimensions]), dtype=np.float32)
    sims = vectors @ desc_vecs.T
    return _zscore(sims.astype(np.float64)) + _zscore(cue_counts(titles, abstracts, dimensions))


def route_dimensions(scores: np.ndarray, margin: float) -> np.ndarray:
    """Boolean (n, d) membership: the best dimension, plus any within `margin` of it and > 0."""
    if scores.shape[1] == 1:
        return np.ones(scores.shape, dtype=bool)
    best = scores.max(axis=1, keepdims=True)
    member = (scores >= best - margin) & (scores > 0)
    member[np.arange(len(scores)), scores.argmax(axis=1)] = True
    return member


# ---------------------------------------------------------------------------- routing


def route(vectors: np.ndarray, centroids: np.ndarray, thresholds: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Route papers one level down: nearest child centroid, if similar enough.

    Returns (best child index, its cosine, fit mask). A paper fits when its cosine to
    the nearest child is at least that child's threshold (the `fit_quantile` quantile of
    the child's own members' cosines): the threshold is relative to how tight the child
    is, which a static embedding needs (all cosines are high in absolute terms).
    """
    sims = vectors @ centroids.T
    best = sims.argmax(axis=1)
    best_sim = sims[np.arange(len(vectors)), best]
    return best, best_sim, best_sim >= thresholds[best]


@dataclass
class _Node:
    path: tuple[int, ...]
    dimension: str
    created_slice: str
    created_by: str
    parent: "_Node | None" = None
    children: list["_Node"] = field(default_factory=list)
    held: list[int] = field(default_factory=list)  # papers held here (members of a leaf, unfit at an inner node)
    centroid: np.ndarray | None = None
    threshold: float = -1.0
    label: str | None = None  # LLM mode: the label/description the model gave the node
    description: str | None = None

    @property
    def level(self) -> int:
        return len(self.path) - 1

    def subtree(self) -> list[int]:
        out = list(self.held)
        for child in self.children:
            out.extend(child.subtree())
        return out

    def walk(self):
        yield self
        for child in self.children:
            yield from child.walk()


def _node_seed(seed: int, dimension: str, path: tuple[int, ...], slice_label: str) -> int:
    key = f"{dimension}:{'.'.join(map(str, path))}:{slice_label}".encode()
    return (seed * 1_000_003 + zlib.crc32(key)) % (2**31 - 1)


class _Builder:
    """Per-dimension tree growth over the slices (internal; see induce_taxonomy)."""

    def __init__(self, vectors: np.ndarray, seed: int, max_depth: int, max_density: int,
                 max_children: int, min_votes: int, fit_quantile: float, descend_when_full: bool,
                 initial_density: int):
        self.V = vectors
        self.seed = seed
        self.max_depth = max_depth
        self.max_density = max_density
        self.max_children = max_children
        self.min_votes = min_votes
        self.fit_quantile = fit_quantile
        self.descend_when_full = descend_when_full
        self.initial_density = initial_density

    def route_down(self, node: _Node, idx: np.ndarray) -> None:
        if len(idx) == 0:
            return
        if not node.children:
            node.held.extend(int(i) for i in idx)
            return
        centroids = np.stack([c.centroid for c in node.children])
        thresholds = np.array([c.threshold for c in node.children])
        best, _, fit = route(self.V[idx], centroids, thresholds)
        if self.descend_when_full and len(node.children) >= self.max_children:
            fit[:] = True  # a full node cannot grow: its nearest child is the best home left
        node.held.extend(int(i) for i in idx[~fit])
        for j, child in enumerate(node.children):
            self.route_down(child, idx[fit & (best == j)])

    def _add_children(self, node: _Node, groups: list[np.ndarray], members: np.ndarray, slice_label: str,
                      created_by: str, counts: Counter, texts: list[tuple[str, str]] | None = None) -> None:
        moved: set[int] = set()
        for g, group in enumerate(groups):
            child = _Node(path=node.path + (len(node.children),), dimension=node.dimension,
                          created_slice=slice_label, created_by=created_by, parent=node)
            if texts is not None:
                child.label, child.description = texts[g]
            child.held = [int(members[i]) for i in group]
            moved.update(child.held)
            self.refresh(child)
            node.children.append(child)
            counts[created_by] += 1
        node.held = [i for i in node.held if i not in moved]

    def expand(self, node: _Node, slice_label: str, counts: Counter) -> None:
        """Width expansion at inner nodes, depth expansion at leaves; then recurse."""
        if node.children:
            room = self.max_children - len(node.children)
            if len(node.held) > self.max_density and room > 0:
                members = np.array(node.held)
                groups = cluster(self.V[members], self.max_children, self.min_votes,
                                 _node_seed(self.seed, node.dimension, node.path, slice_label + "w"))
                self._add_children(node, groups[:room], members, slice_label, "width", counts)
        elif node.level < self.max_depth and len(node.held) > (
                self.initial_density if node.parent is None else self.max_density):
            members = np.array(node.held)
            groups = cluster(self.V[members], self.max_children, self.min_votes,
                             _node_seed(self.seed, node.dimension, node.path, slice_label + "d"), min_groups=2)
            if len(groups) >= 2:
                self._add_children(node, groups, members, slice_label,
                                   "initial" if node.parent is None else "depth", counts)
        for child in node.children:
            self.expand(child, slice_label, counts)

    def refresh(self, node: _Node) -> None:
        """Recompute the centroid and fit threshold of one node from its subtree."""
        members = node.subtree()
        if not members:
            return
        X = self.V[np.array(members)]
        mean = X.mean(axis=0)
        node.centroid = (mean / max(float(np.linalg.norm(mean)), 1e-12)).astype(np.float32)
        # Leave-one-out cosines: a member compared with the centroid of the *other* members,
        # which is what a newcomer faces (in-sample cosines are biased high for small nodes).
        rest = X.sum(axis=0)[None, :] - X
        norms = np.linalg.norm(rest, axis=1)
        loo = (rest * X).sum(axis=1) / np.maximum(norms, 1e-12) if len(X) > 1 else X @ node.centroid
        node.threshold = float(np.quantile(loo, self.fit_quantile))

    def refresh_all(self, root: _Node) -> None:
        for node in root.walk():
            self.refresh(node)


class _LLMBuilder(_Builder):
    """The same growth rules, with TaxoAdapt's decisions made by a model (see llm_mode)."""

    def __init__(self, *args, agent, route_band: float, route_gap: float, titles: list[str], **kwargs):
        super().__init__(*args, **kwargs)
        self.agent = agent
        self.route_band, self.route_gap = route_band, route_gap
        self.titles = titles
        self.proposals: dict[tuple[str, tuple[int, ...]], dict[int, str]] = {}
        self.attempts: dict[tuple[str, tuple[int, ...]], int] = {}  # held papers at the last expansion attempt
        self.decided: Counter = Counter()

    def node_label(self, node: _Node) -> str:
        if node.parent is None:
            return _humanise(node.dimension)
        if node.label:
            return node.label
        members = node.subtree()  # a fallback child (its clustering call failed): name it by its central paper
        if not members or node.centroid is None:
            return f"subtopic {node.path[-1]}"
        rep = members[int(np.argmax(self.V[np.array(members)] @ node.centroid))]
        return f"papers like \"{self.titles[rep][:80]}\""

    def node_description(self, node: _Node) -> str:
        return node.description or f"{len(node.subtree())} papers"

    def route_down(self, node: _Node, idx: np.ndarray) -> None:
        if len(idx) == 0:
            return
        if not node.children:
            node.held.extend(int(i) for i in idx)
            return
        centroids = np.stack([c.centroid for c in node.children])
        thresholds = np.array([c.threshold for c in node.children])
        sims = self.V[idx] @ centroids.T
        best = sims.argmax(axis=1)
        best_sim = sims[np.arange(len(idx)), best]
        second = np.sort(sims, axis=1)[:, -2] if sims.shape[1] > 1 else np.full(len(idx), -np.inf)
        fit = best_sim >= thresholds[best]
        full = self.descend_when_full and len(node.children) >= self.max_children
        if full:
            fit[:] = True
        from assets.taxonomy.llm_mode import ambiguous_routes

        amb = ambiguous_routes(best_sim, second, thresholds[best], self.route_band, self.route_gap, full)
        self.decided["embedding"] += int((~amb).sum())
        if amb.any():
            asked = [int(i) for i in idx[amb]]
            answers = self.agent.route(asked, [(self.node_label(c), self.node_description(c)) for c in node.children],
                                       self.node_label(node), node.dimension, allow_none=not full,
                                       item_id=f"{node.dimension}:{'.'.join(map(str, node.path))}")
            pos = {int(i): k for k, i in enumerate(idx)}
            for i in asked:
                if i not in answers:
                    self.decided["embedding_fallback"] += 1
                    continue
                self.decided["model"] += 1
                k, choice = pos[i], answers[i]
                fit[k] = choice >= 0
                if choice >= 0:
                    best[k] = choice
        node.held.extend(int(i) for i in idx[~fit])
        for j, child in enumerate(node.children):
            self.route_down(child, idx[fit & (best == j)])

    def _llm_expand(self, node: _Node, room: int, slice_label: str, created_by: str, counts: Counter,
                    min_groups: int) -> None:
        members = list(node.held)
        # An attempt that created nothing is retried only once enough new papers have arrived
        # (a quarter of max_density): the same papers would get the same answer again.
        last = self.attempts.get((node.dimension, node.path))
        if last is not None and len(members) < last + max(1, self.max_density // 4):
            return
        self.attempts[(node.dimension, node.path)] = len(members)
        known = self.proposals.setdefault((node.dimension, node.path), {})
        item = f"{node.dimension}:{'.'.join(map(str, node.path))}:{slice_label}"
        existing = [self.node_label(c) for c in node.children]
        todo = [i for i in members if i not in known]
        if todo:
            known.update(self.agent.propose(todo, self.node_label(node), node.dimension, existing, item))
        proposals = {i: known[i] for i in members if i in known}
        clusters = self.agent.cluster(proposals, room, self.node_label(node), node.dimension, existing, item) \
            if proposals else []
        arr = np.array(members)
        if clusters is None:  # the clustering call failed: cluster by embeddings, as offline
            groups = cluster(self.V[arr], self.max_children, self.min_votes,
                             _node_seed(self.seed, node.dimension, node.path, slice_label + created_by[0]),
                             min_groups=min_groups)
            if len(groups) >= min_groups:
                self._add_children(node, groups[:room], arr, slice_label, created_by, counts)
            return
        pos = {i: k for k, i in enumerate(members)}
        kept = sorted((c for c in clusters if len(c[2]) >= self.min_votes), key=lambda c: (-len(c[2]), c[0]))[:room]
        if len(kept) < min_groups:
            return
        groups = [np.array([pos[i] for i in c[2]]) for c in kept]
        self._add_children(node, groups, arr, slice_label, created_by, counts,
                           texts=[(c[0], c[1]) for c in kept])
        self.attempts.pop((node.dimension, node.path), None)

    def expand(self, node: _Node, slice_label: str, counts: Counter) -> None:
        if node.children:
            room = self.max_children - len(node.children)
            if len(node.held) > self.max_density and room > 0:
                self._llm_expand(node, room, slice_label, "width", counts, min_groups=1)
        elif node.level < self.max_depth and len(node.held) > (
                self.initial_density if node.parent is None else self.max_density):
            self._llm_expand(node, self.max_children, slice_label, "initial" if node.parent is None else "depth",
                             counts, min_groups=2)
        for child in node.children:
            self.expand(child, slice_label, counts)


def ambiguous_dimensions(scores: np.ndarray, margin: float, band: float) -> np.ndarray:
    """Papers whose dimension membership is close to the rule's boundary (asked in LLM mode).

    A non-best dimension j is a member iff s_j >= best - margin and s_j > 0; a paper is
    ambiguous when some s_j lies within `band` of either bound (or the best two are
    within `band`, so even the primary dimension is a near tie).
    """
    if scores.shape[1] == 1:
        return np.zeros(len(scores), dtype=bool)
    order = np.sort(scores, axis=1)
    best, second = order[:, -1:], order[:, -2]
    dist = np.minimum(np.abs(scores - (best - margin)), np.abs(scores))
    dist[np.arange(len(scores)), scores.argmax(axis=1)] = np.inf
    return (dist.min(axis=1) < band) | ((best[:, 0] - second) < band)


# ----------------------------------------------------------------------------- labels


def _stems(term: str) -> set[str]:
    """Crude word stems of a term: hyphen parts, lower-cased, plural 's' dropped."""
    return {w[:-1] if len(w) > 3 and w.endswith("s") else w for w in re.split(r"[\s\-]+", term.lower()) if w}


def _pick_terms(ranked: list[str], n: int) -> list[str]:
    """Top terms, skipping ones that share a stem with a picked one ("tool" / "tools" / "tool use")."""
    picked: list[str] = []
    seen: set[str] = set()
    for term in ranked:
        stems = _stems(term)
        if stems & seen:
            continue
        picked.append(term)
        seen |= stems
        if len(picked) == n:
            break
    return picked


def _humanise(dimension: str) -> str:
    return dimension.replace("_", " ").capitalize()


class _Labeller:
    """Distinctive TF-IDF terms of a node's papers against its siblings' papers."""

    def __init__(self, titles: list[str], abstracts: list[str]):
        texts = [f"{t}. {t}. {a}" for t, a in zip(titles, abstracts)]  # titles weigh double
        min_df = 2 if len(texts) >= 20 else 1
        stop = sorted(ENGLISH_STOP_WORDS | STOP_WORDS)
        self.vectorizer = TfidfVectorizer(stop_words=stop, ngram_range=(1, 2), min_df=min_df, max_df=0.5,
                                          sublinear_tf=True, max_features=20000, token_pattern=_TOKEN_PATTERN,
                                          dtype=np.float32)
        try:
            self.X = self.vectorizer.fit_transform(texts).tocsr()
        except ValueError:  # vocabulary empty after pruning (tiny or degenerate input)
            self.vectorizer = TfidfVectorizer(ngram_range=(1, 1), token_pattern=_TOKEN_PATTERN, dtype=np.float32)
            self.X = self.vectorizer.fit_transform(texts).tocsr()
        self.terms = np.array(self.vectorizer.get_feature_names_out())

    def mean(self, idx: list[int]) -> np.ndarray:
        if not idx:
            return np.zeros(len(self.terms), dtype=np.float64)
        return np.asarray(self.X[np.array(idx)].mean(axis=0)).ravel()

    def ranked(self, own: list[int], others: list[int], top: int = 40) -> list[str]:
        score = self.mean(own) - (self.mean(others) if others else 0.0)
        order = np.lexsort((self.terms, -score))[:top]
        return [str(self.terms[i]) for i in order if score[i] > 0]


# ------------------------------------------------------------------------------- main


def induce_taxonomy(
    papers: list[ScreenedPaper],
    cutoff: date,
    embed,
    *,
    domain: str,
    seed: int = 0,
    max_depth: int = 3,
    max_density: int = 40,
    max_children: int = 5,
    min_votes: int = 2,
    dimensions: tuple[str, ...] = DIMENSIONS,
    recent_months: int = 6,
    fit_quantile: float = 0.05,
    dimension_margin: float = 0.5,
    descend_when_full: bool = True,
    initial_density: int | None = None,
    llm_client=None,
    field: str | None = None,
    llm_batch_size: int = 25,
    route_band: float = 0.03,
    route_gap: float = 0.02,
    dimension_band: float = 0.25,
) -> TaxonomyResult:
    """Induce the temporal taxonomy of one domain at one cutoff (see module docstring).

    `embed` maps a list of texts to L2-normalised vectors. Raises ValueError when there
    is no input or no usable (cutoff-visible, non-excluded) paper.

    Two modes behind this one function: offline (default; `llm_client` None or offline)
    and LLM mode (`llm_client` an online `LLMClient`, or any object with its
    `offline`/`structured` API such as the counting stub): the same slices and density
    rules, with dimension and child classification of the ambiguous papers, label
    proposal and label clustering made by the model in batches of `llm_batch_size`
    (see `assets.taxonomy.llm_mode`; `route_band`, `route_gap` and `dimension_band`
    decide which papers are ambiguous). `field` names the domain in prompts.
    """
    if not papers:
        raise ValueError(f"taxonomy {domain}@{cutoff}: no papers given")
    unknown = [d for d in dimensions if d not in DIMENSION_DESCRIPTIONS]
    if unknown or not dimensions:
        raise ValueError(f"unknown or no dimensions {unknown}; known: {list(DIMENSION_DESCRIPTIONS)}")
    if max_children < 2 or max_density < 1 or min_votes < 1 or max_depth < 1:
        raise ValueError("need max_children >= 2, max_density >= 1, min_votes >= 1, max_depth >= 1")

    after = [p for p in papers if p.published > cutoff]
    visible = [p for p in papers if p.published <= cutoff]
    excluded = [p for p in visible if p.label == "excluded"]
    kept: dict[str, ScreenedPaper] = {}
    for p in sorted((p for p in visible if p.label != "excluded"), key=lambda p: (p.published, p.arxiv_id)):
        kept.setdefault(p.arxiv_id, p)
    usable = sorted(kept.values(), key=lambda p: (p.published, p.arxiv_id))
    n_dupes = len(visible) - len(excluded) - len(usable)
    if not usable:
        raise ValueError(f"taxonomy {domain}@{cutoff}: no usable papers ({len(after)} after the cutoff, "
                         f"{len(excluded)} excluded)")

    titles = [p.title for p in usable]
    abstracts = [p.abstract for p in usable]
    vectors = np.asarray(embed([f"{t}. {a}" for t, a in zip(titles, abstracts)]), dtype=np.float32)
    starts = slice_starts(usable[0].published, cutoff, recent_months)
    labels = [s for s, _ in starts]
    paper_slice = slice_index([p.published for p in usable], starts)
    scores = dimension_scores(vectors, titles, abstracts, embed, dimensions)
    membership = route_dimensions(scores, dimension_margin)

    initial_density = 3 * max_density if initial_density is None else initial_density
    llm_mode = llm_client is not None and not getattr(llm_client, "offline", True)
    builder_args = (vectors, seed, max_depth, max_density, max_children, min_votes, fit_quantile,
                    descend_when_full, initial_density)
    agent = None
    dimension_decided: Counter = Counter()
    if llm_mode:
        from assets.taxonomy.llm_mode import LLMTaxonomyAgent

        agent = LLMTaxonomyAgent(llm_client, field=field or domain, titles=titles, abstracts=abstracts, seed=seed,
                                 batch_size=llm_batch_size)
        ambiguous = np.flatnonzero(ambiguous_dimensions(scores, dimension_margin, dimension_band))
        answers = agent.dimensions([int(i) for i in ambiguous], dimensions, DIMENSION_DESCRIPTIONS)
        for i, dims in answers.items():
            membership[i] = [d in dims for d in dimensions]
        dimension_decided.update({"embedding": len(usable) - len(ambiguous), "model": len(answers),
                                  "embedding_fallback": len(ambiguous) - len(answers)})
        builder = _LLMBuilder(*builder_args, agent=agent, route_band=route_band, route_gap=route_gap, titles=titles)
    else:
        builder = _Builder(*builder_args)
    roots = {d: _Node(path=(0,), dimension=d, created_slice=labels[0], created_by="initial") for d in dimensions}
    growth = {s: 0 for s in labels}
    expansions = {s: {"initial": 0, "width": 0, "depth": 0} for s in labels}
    growth[labels[0]] += len(roots)
    expansions[labels[0]]["initial"] += len(roots)
    for k, label in enumerate(labels):
        arriving = paper_slice == k
        for j, dim in enumerate(dimensions):
            idx = np.flatnonzero(arriving & membership[:, j])
            builder.route_down(roots[dim], idx)
            counts: Counter = Counter()
            builder.expand(roots[dim], label, counts)
            builder.refresh_all(roots[dim])
            for kind, n in counts.items():
                expansions[label][kind] += n
                growth[label] += n

    nodes, assignments = _export(roots, usable, vectors, paper_slice, labels, domain, titles, abstracts)
    return TaxonomyResult(
        domain=domain, cutoff=cutoff, seed=seed, nodes=nodes, assignments=assignments, slices=labels,
        growth=growth, expansions=expansions,
        slice_papers={s: int((paper_slice == k).sum()) for k, s in enumerate(labels)},
        paper_vectors_used=len(usable), dropped_after_cutoff=len(after), dropped_excluded=len(excluded),
        dropped_duplicates=n_dupes,
        dimension_counts={d: int(membership[:, j].sum()) for j, d in enumerate(dimensions)},
        params={"max_depth": max_depth, "max_density": max_density, "max_children": max_children,
                "min_votes": min_votes, "recent_months": recent_months, "fit_quantile": fit_quantile,
                "dimension_margin": dimension_margin, "descend_when_full": float(descend_when_full),
                "initial_density": initial_density, "llm_batch_size": llm_batch_size, "route_band": route_band,
                "route_gap": route_gap, "dimension_band": dimension_band},
        mode="llm" if llm_mode else "offline",
        llm_requests=dict(sorted(agent.requests.items())) if agent else {},
        llm_papers_sent=dict(sorted(agent.papers_sent.items())) if agent else {},
        llm_decided=({f"dimension_{k}": v for k, v in dimension_decided.items()}
                     | {f"route_{k}": v for k, v in builder.decided.items()}) if agent else {},
        failures=list(agent.failures) if agent else [],
    )


def _export(roots: dict[str, _Node], usable: list[ScreenedPaper], vectors: np.ndarray, paper_slice: np.ndarray,
            labels: list[str], domain: str, titles: list[str], abstracts: list[str]):
    """Turn the internal trees into TaxonomyNode and Assignment records with labels."""
    labeller = _Labeller(titles, abstracts)
    ids = [p.arxiv_id for p in usable]

    def node_id(node: _Node) -> str:
        return f"{domain}:{node.dimension}:{'.'.join(map(str, node.path))}"

    subtrees = {id(n): sorted(n.subtree()) for root in roots.values() for n in root.walk()}
    root_list = list(roots.values())
    texts: dict[int, tuple[str, list[str]]] = {}
    for root in root_list:
        others = sorted({i for r in root_list if r is not root for i in subtrees[id(r)]})
        ranked = labeller.ranked(subtrees[id(root)], others)
        texts[id(root)] = (_humanise(root.dimension), _pick_terms(ranked, 8) or ranked[:8])
        for parent in root.walk():
            taken: set[str] = set()
            for child in parent.children:
                sib = sorted({i for c in parent.children if c is not child for i in subtrees[id(c)]})
                ranked = labeller.ranked(subtrees[id(child)], sib)
                keywords = _pick_terms(ranked, 8) or ranked[:8]
                label = child.label or " / ".join(keywords[:3]) or f"group {child.path[-1]}"
                extra = [t for t in ranked if t not in keywords[:3]]
                while label in taken and extra:
                    label = f"{label} / {extra.pop(0)}"
                if label in taken:
                    label = f"{label} ({child.path[-1]})"
                taken.add(label)
                texts[id(child)] = (label, keywords)

    nodes: list[TaxonomyNode] = []
    assignments: list[Assignment] = []
    for root in root_list:
        for node in root.walk():
            members = subtrees[id(node)]
            label, keywords = texts[id(node)]
            if members:
                sims = vectors[np.array(members)] @ node.centroid
                rep = members[int(np.lexsort((np.array([ids[i] for i in members]), -sims))[0])]
                topic = ", ".join(keywords[:3]) if keywords else "no distinctive terms"
                description = (f"{len(members)} cutoff-visible papers in the {_humanise(node.dimension).lower()} "
                               f"dimension on {topic}; representative: \"{titles[rep]}\".")
                if node.description:  # LLM mode: the model's description first
                    description = f"{node.description.rstrip('.')}. {description}"
            else:
                description = f"No papers yet in the {_humanise(node.dimension).lower()} dimension."
            nodes.append(TaxonomyNode(
                node_id=node_id(node), domain=domain, dimension=node.dimension, label=label,
                description=description, parent_id=node_id(node.parent) if node.parent else None,
                level=node.level, created_slice=node.created_slice, created_by=node.created_by,
                paper_ids=[ids[i] for i in members], keywords=keywords,
            ))
            if node.held:
                held = np.array(sorted(node.held))
                sims = vectors[held] @ node.centroid
                for i, s in zip(held, sims):
                    assignments.append(Assignment(arxiv_id=ids[i], node_id=node_id(node), dimension=node.dimension,
                                                  slice=labels[paper_slice[i]], similarity=round(float(s), 5),
                                                  fit=not node.children))
    assignments.sort(key=lambda a: (a.dimension, a.arxiv_id))
    return nodes, assignments


# ------------------------------------------------------------------- growth queries

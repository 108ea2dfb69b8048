"""The growing taxonomy tree: routing papers down it slice by slice and expanding dense
regions (WIDTH / DEPTH), embedding-driven or with TaxoAdapt's decisions made by a model
(`TreeBuilder`, `LLMTreeBuilder`; the rules are in `assets.taxonomy.logic`'s docstring)."""

from __future__ import annotations

import zlib
from collections import Counter
from dataclasses import dataclass, field

import numpy as np

from assets.taxonomy.clustering import cluster
from assets.taxonomy.labels import humanise
from assets.taxonomy.llm_mode import ambiguous_routes


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
class Node:
    path: tuple[int, ...]
    dimension: str
    created_slice: str
    created_by: str
    parent: Node | None = None
    children: list[Node] = field(default_factory=list)
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


def node_seed(seed: int, dimension: str, path: tuple[int, ...], slice_label: str) -> int:
    key = f"{dimension}:{'.'.join(map(str, path))}:{slice_label}".encode()
    return (seed * 1_000_003 + zlib.crc32(key)) % (2**31 - 1)


class TreeBuilder:
    """Per-dimension tree growth over the slices (internal; see induce_taxonomy)."""

    def __init__(
        self,
        vectors: np.ndarray,
        seed: int,
        max_depth: int,
        max_density: int,
        max_children: int,
        min_votes: int,
        fit_quantile: float,
        descend_when_full: bool,
        initial_density: int,
    ):
        self.V = vectors
        self.seed = seed
        self.max_depth = max_depth
        self.max_density = max_density
        self.max_children = max_children
        self.min_votes = min_votes
        self.fit_quantile = fit_quantile
        self.descend_when_full = descend_when_full
        self.initial_density = initial_density

    def route_down(self, node: Node, idx: np.ndarray) -> None:
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

    def _add_children(
        self,
        node: Node,
        groups: list[np.ndarray],
        members: np.ndarray,
        slice_label: str,
        created_by: str,
        counts: Counter,
        texts: list[tuple[str, str]] | None = None,
    ) -> None:
        moved: set[int] = set()
        for g, group in enumerate(groups):
            child = Node(
                path=node.path + (len(node.children),),
                dimension=node.dimension,
                created_slice=slice_label,
                created_by=created_by,
                parent=node,
            )
            if texts is not None:
                child.label, child.description = texts[g]
            child.held = [int(members[i]) for i in group]
            moved.update(child.held)
            self.refresh(child)
            node.children.append(child)
            counts[created_by] += 1
        node.held = [i for i in node.held if i not in moved]

    def expand(self, node: Node, slice_label: str, counts: Counter) -> None:
        """Width expansion at inner nodes, depth expansion at leaves; then recurse."""
        if node.children:
            room = self.max_children - len(node.children)
            if len(node.held) > self.max_density and room > 0:
                members = np.array(node.held)
                groups = cluster(
                    self.V[members],
                    self.max_children,
                    self.min_votes,
                    node_seed(self.seed, node.dimension, node.path, slice_label + "w"),
                )
                self._add_children(node, groups[:room], members, slice_label, "width", counts)
        elif node.level < self.max_depth and len(node.held) > (self.initial_density if node.parent is None else self.max_density):
            members = np.array(node.held)
            groups = cluster(
                self.V[members],
                self.max_children,
                self.min_votes,
                node_seed(self.seed, node.dimension, node.path, slice_label + "d"),
                min_groups=2,
            )
            if len(groups) >= 2:
                self._add_children(node, groups, members, slice_label, "initial" if node.parent is None else "depth", counts)
        for child in node.children:
            self.expand(child, slice_label, counts)

    def refresh(self, node: Node) -> None:
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

    def refresh_all(self, root: Node) -> None:
        for node in root.walk():
            self.refresh(node)


class LLMTreeBuilder(TreeBuilder):
    """The same growth rules, with TaxoAdapt's decisions made by a model (see llm_mode)."""

    def __init__(self, *args, agent, route_band: float, route_gap: float, titles: list[str], **kwargs):
        super().__init__(*args, **kwargs)
        self.agent = agent
        self.route_band, self.route_gap = route_band, route_gap
        self.titles = titles
        self.proposals: dict[tuple[str, tuple[int, ...]], dict[int, str]] = {}
        self.attempts: dict[tuple[str, tuple[int, ...]], int] = {}  # held papers at the last expansion attempt
        self.decided: Counter = Counter()

    def node_label(self, node: Node) -> str:
        if node.parent is None:
            return humanise(node.dimension)
        if node.label:
            return node.label
        members = node.subtree()  # a fallback child (its clustering call failed): name it by its central paper
        if not members or node.centroid is None:
            return f"subtopic {node.path[-1]}"
        rep = members[int(np.argmax(self.V[np.array(members)] @ node.centroid))]
        return f'papers like "{self.titles[rep][:80]}"'

    def node_description(self, node: Node) -> str:
        return node.description or f"{len(node.subtree())} papers"

    def route_down(self, node: Node, idx: np.ndarray) -> None:
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

        amb = ambiguous_routes(best_sim, second, thresholds[best], self.route_band, self.route_gap, full)
        self.decided["embedding"] += int((~amb).sum())
        if amb.any():
            asked = [int(i) for i in idx[amb]]
            answers = self.agent.route(
                asked,
                [(self.node_label(c), self.node_description(c)) for c in node.children],
                self.node_label(node),
                node.dimension,
                allow_none=not full,
                item_id=f"{node.dimension}:{'.'.join(map(str, node.path))}",
            )
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

    def _llm_expand(self, node: Node, room: int, slice_label: str, created_by: str, counts: Counter, min_groups: int) -> None:
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
        clusters = self.agent.cluster(proposals, room, self.node_label(node), node.dimension, existing, item) if proposals else []
        arr = np.array(members)
        if clusters is None:  # the clustering call failed: cluster by embeddings, as offline
            groups = cluster(
                self.V[arr],
                self.max_children,
                self.min_votes,
                node_seed(self.seed, node.dimension, node.path, slice_label + created_by[0]),
                min_groups=min_groups,
            )
            if len(groups) >= min_groups:
                self._add_children(node, groups[:room], arr, slice_label, created_by, counts)
            return
        pos = {i: k for k, i in enumerate(members)}
        kept = sorted((c for c in clusters if len(c[2]) >= self.min_votes), key=lambda c: (-len(c[2]), c[0]))[:room]
        if len(kept) < min_groups:
            return
        groups = [np.array([pos[i] for i in c[2]]) for c in kept]
        self._add_children(node, groups, arr, slice_label, created_by, counts, texts=[(c[0], c[1]) for c in kept])
        self.attempts.pop((node.dimension, node.path), None)

    def expand(self, node: Node, slice_label: str, counts: Counter) -> None:
        if node.children:
            room = self.max_children - len(node.children)
            if len(node.held) > self.max_density and room > 0:
                self._llm_expand(node, room, slice_label, "width", counts, min_groups=1)
        elif node.level < self.max_depth and len(node.held) > (self.initial_density if node.parent is None else self.max_density):
            self._llm_expand(
                node, self.max_children, slice_label, "initial" if node.parent is None else "depth", counts, min_groups=2
            )
        for child in node.children:
            self.expand(child, slice_label, counts)

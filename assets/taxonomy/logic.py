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

from collections import Counter
from datetime import date

import numpy as np
from pydantic import BaseModel, Field

from assets.taxonomy.dimensions import (
    DIMENSION_DESCRIPTIONS,
    DIMENSION_RULE,
    DIMENSIONS,
    ambiguous_dimensions,
    dimension_scores,
    route_dimensions,
)
from assets.taxonomy.labels import Labeller, humanise
from assets.taxonomy.llm_mode import LLMTaxonomyAgent
from assets.taxonomy.slices import slice_index, slice_starts
from assets.taxonomy.tree import LLMTreeBuilder, Node, TreeBuilder
from core.records import Failure, ScreenedPaper, TaxonomyNode
from core.text import pick_terms


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
        raise ValueError(
            f"taxonomy {domain}@{cutoff}: no usable papers ({len(after)} after the cutoff, {len(excluded)} excluded)"
        )

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
    builder_args = (
        vectors,
        seed,
        max_depth,
        max_density,
        max_children,
        min_votes,
        fit_quantile,
        descend_when_full,
        initial_density,
    )
    agent = None
    dimension_decided: Counter = Counter()
    if llm_mode:
        agent = LLMTaxonomyAgent(
            llm_client, field=field or domain, titles=titles, abstracts=abstracts, seed=seed, batch_size=llm_batch_size
        )
        ambiguous = np.flatnonzero(ambiguous_dimensions(scores, dimension_margin, dimension_band))
        answers = agent.dimensions([int(i) for i in ambiguous], dimensions, DIMENSION_DESCRIPTIONS)
        for i, dims in answers.items():
            membership[i] = [d in dims for d in dimensions]
        dimension_decided.update(
            {
                "embedding": len(usable) - len(ambiguous),
                "model": len(answers),
                "embedding_fallback": len(ambiguous) - len(answers),
            }
        )
        builder = LLMTreeBuilder(*builder_args, agent=agent, route_band=route_band, route_gap=route_gap, titles=titles)
    else:
        builder = TreeBuilder(*builder_args)
    roots = {d: Node(path=(0,), dimension=d, created_slice=labels[0], created_by="initial") for d in dimensions}
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
        domain=domain,
        cutoff=cutoff,
        seed=seed,
        nodes=nodes,
        assignments=assignments,
        slices=labels,
        growth=growth,
        expansions=expansions,
        slice_papers={s: int((paper_slice == k).sum()) for k, s in enumerate(labels)},
        paper_vectors_used=len(usable),
        dropped_after_cutoff=len(after),
        dropped_excluded=len(excluded),
        dropped_duplicates=n_dupes,
        dimension_counts={d: int(membership[:, j].sum()) for j, d in enumerate(dimensions)},
        params={
            "max_depth": max_depth,
            "max_density": max_density,
            "max_children": max_children,
            "min_votes": min_votes,
            "recent_months": recent_months,
            "fit_quantile": fit_quantile,
            "dimension_margin": dimension_margin,
            "descend_when_full": float(descend_when_full),
            "initial_density": initial_density,
            "llm_batch_size": llm_batch_size,
            "route_band": route_band,
            "route_gap": route_gap,
            "dimension_band": dimension_band,
        },
        mode="llm" if llm_mode else "offline",
        llm_requests=dict(sorted(agent.requests.items())) if agent else {},
        llm_papers_sent=dict(sorted(agent.papers_sent.items())) if agent else {},
        llm_decided=(
            {f"dimension_{k}": v for k, v in dimension_decided.items()} | {f"route_{k}": v for k, v in builder.decided.items()}
        )
        if agent
        else {},
        failures=list(agent.failures) if agent else [],
    )


def _export(
    roots: dict[str, Node],
    usable: list[ScreenedPaper],
    vectors: np.ndarray,
    paper_slice: np.ndarray,
    labels: list[str],
    domain: str,
    titles: list[str],
    abstracts: list[str],
):
    """Turn the internal trees into TaxonomyNode and Assignment records with labels."""
    labeller = Labeller(titles, abstracts)
    ids = [p.arxiv_id for p in usable]

    def node_id(node: Node) -> str:
        return f"{domain}:{node.dimension}:{'.'.join(map(str, node.path))}"

    subtrees = {id(n): sorted(n.subtree()) for root in roots.values() for n in root.walk()}
    root_list = list(roots.values())
    texts: dict[int, tuple[str, list[str]]] = {}
    for root in root_list:
        others = sorted({i for r in root_list if r is not root for i in subtrees[id(r)]})
        ranked = labeller.ranked(subtrees[id(root)], others)
        texts[id(root)] = (humanise(root.dimension), pick_terms(ranked, 8) or ranked[:8])
        for parent in root.walk():
            taken: set[str] = set()
            for child in parent.children:
                sib = sorted({i for c in parent.children if c is not child for i in subtrees[id(c)]})
                ranked = labeller.ranked(subtrees[id(child)], sib)
                keywords = pick_terms(ranked, 8) or ranked[:8]
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
                description = (
                    f"{len(members)} cutoff-visible papers in the {humanise(node.dimension).lower()} "
                    f'dimension on {topic}; representative: "{titles[rep]}".'
                )
                if node.description:  # LLM mode: the model's description first
                    description = f"{node.description.rstrip('.')}. {description}"
            else:
                description = f"No papers yet in the {humanise(node.dimension).lower()} dimension."
            nodes.append(
                TaxonomyNode(
                    node_id=node_id(node),
                    domain=domain,
                    dimension=node.dimension,
                    label=label,
                    description=description,
                    parent_id=node_id(node.parent) if node.parent else None,
                    level=node.level,
                    created_slice=node.created_slice,
                    created_by=node.created_by,
                    paper_ids=[ids[i] for i in members],
                    keywords=keywords,
                )
            )
            if node.held:
                held = np.array(sorted(node.held))
                sims = vectors[held] @ node.centroid
                for i, s in zip(held, sims):
                    assignments.append(
                        Assignment(
                            arxiv_id=ids[i],
                            node_id=node_id(node),
                            dimension=node.dimension,
                            slice=labels[paper_slice[i]],
                            similarity=round(float(s), 5),
                            fit=not node.children,
                        )
                    )
    assignments.sort(key=lambda a: (a.dimension, a.arxiv_id))
    return nodes, assignments


# ------------------------------------------------------------------- growth queries

"""LLM mode of the temporal taxonomy: TaxoAdapt's decisions made by a model, in batches.

TaxoAdapt (Kargupta et al., 2025) asks an LLM (a) which contribution dimensions a paper
belongs to, (b) at every level, which child node it belongs to, and (c) when a node is
too dense, to propose sub-labels from its papers and cluster them into new children.
The ForeSci authors' temporal version makes one call per paper per decision and
re-classifies a whole subtree after every expansion: 9-21 calls per paper on the
llm_agent corpus. This module keeps the decisions and the density rules of
`assets.taxonomy.tree` (same `TreeBuilder` control flow, same slices, same thresholds)
but spends calls only where they are needed:

* **Embeddings route the clear cases.** At a node, a paper whose nearest child is clearly
  typical (cosine above the child's fit threshold by `route_band`, and ahead of the
  runner-up by `route_gap`) or clearly atypical (below the threshold by `route_band`)
  is routed without a call; the rest are *ambiguous* and go to the model. The same for
  dimensions: only papers whose dimension scores sit within `dimension_band` of the
  membership boundary are asked about.
* **Many papers per call.** Ambiguous papers at one node (same options) are sent in
  batches of `batch_size`; label proposals likewise; one clustering call per expansion.
* **Nothing is re-classified.** An expansion only moves the papers that triggered it (the
  node's unfit/held papers, by their proposed label); papers already placed elsewhere
  never see another call. A paper's label proposal at a node is asked once and reused
  if that node's expansion has to wait for more papers.

Every call goes through an LLM client with the `LLMClient` API (`structured(...)`), so
it is cached on disk and counted; with a counting stub (`tests/llm_stub.py`) the
call budget is measured without a model. A failed call (`Exception` from the client) is
recorded as a `Failure` row and the batch falls back to the offline (embedding)
decision, so the partition still completes.

Temperatures: dimension and child classification 0.0 (a decision), label proposal 0.3
(TaxoAdapt samples labels; a little diversity helps clustering, the cache keeps reruns
identical), label clustering 0.0.
"""

from __future__ import annotations

import json
from collections import Counter

import numpy as np
from pydantic import BaseModel, Field

from core.records import Failure

TEMPERATURES = {"dimension": 0.0, "route": 0.0, "propose": 0.3, "cluster": 0.0}
ABSTRACT_CHARS = 700  # abstract characters shown per paper (titles are always whole)
PAYLOAD_MARK = "INPUT:\n"  # the JSON payload follows this line in the user message


# ------------------------------------------------------------------------------ schemas


class DimensionChoice(BaseModel):
    paper: str = Field(description="the paper key, e.g. P3")
    dimensions: list[str] = Field(description="every dimension the paper contributes to")


class DimensionBatch(BaseModel):
    papers: list[DimensionChoice]


class RouteChoice(BaseModel):
    paper: str = Field(description="the paper key, e.g. P3")
    child: str = Field(description="the key of the best-fitting subtopic, e.g. C2, or 'none'")


class RouteBatch(BaseModel):
    papers: list[RouteChoice]


class LabelProposal(BaseModel):
    paper: str
    label: str = Field(description="a 2-6 word research-subtopic label for this paper")


class ProposalBatch(BaseModel):
    proposals: list[LabelProposal]


class LabelCluster(BaseModel):
    label: str = Field(description="2-6 word label of the new subtopic")
    description: str = Field(description="one sentence: what papers in this subtopic contribute")
    members: list[str] = Field(description="the proposed labels (verbatim) this subtopic groups")


class ClusterResult(BaseModel):
    clusters: list[LabelCluster]


# ------------------------------------------------------------------------------ prompts

SYSTEM = (
    "You build a taxonomy of a research field from paper abstracts, following TaxoAdapt. "
    "Answer only with a JSON object matching the requested schema."
)

PROMPTS = {
    "dimension": (
        "Field: {field}. For each paper, list every contribution dimension it substantively "
        "contributes to (one or more of: {dimensions}). Dimension meanings: {meanings}."
    ),
    "route": (
        "Field: {field}. Taxonomy node '{node}' ({dimension} dimension) has the subtopics listed "
        "under 'options'. For each paper, choose the one subtopic key whose scope it fits best{none}."
    ),
    "propose": (
        "Field: {field}. The papers below belong to '{node}' ({dimension} dimension) but fit none "
        "of its existing subtopics ({existing}). For each paper propose a short (2-6 words), "
        "specific label of the {dimension} subtopic it represents, at a granularity one level "
        "below '{node}'."
    ),
    "cluster": (
        "Field: {field}. Cluster the proposed subtopic labels of node '{node}' ({dimension} "
        "dimension) into at most {k} new subtopics that do not overlap the existing ones "
        "({existing}). Each cluster gets a label, a one-sentence description and the proposed "
        "labels it groups (copied verbatim). Leave out labels that fit no cluster."
    ),
}


def _messages(kind: str, payload: dict, **fmt) -> list[dict]:
    return [
        {"role": "system", "content": SYSTEM},
        {"role": "user", "content": PROMPTS[kind].format(**fmt) + "\n" + PAYLOAD_MARK + json.dumps(payload, ensure_ascii=False)},
    ]


def paper_payload(key: str, title: str, abstract: str) -> dict:
    return {"key": key, "title": title, "abstract": abstract[:ABSTRACT_CHARS]}


def batches(items: list, size: int) -> list[list]:
    return [items[i : i + size] for i in range(0, len(items), size)]


class LLMTaxonomyAgent:
    """All model calls of the LLM mode, with their accounting and failure rows."""

    def __init__(
        self,
        client,
        *,
        field: str,
        titles: list[str],
        abstracts: list[str],
        seed: int,
        batch_size: int = 25,
        cluster_max_labels: int = 300,
    ):
        self.client = client
        self.field = field
        self.titles, self.abstracts = titles, abstracts
        self.seed = seed
        self.batch_size = batch_size
        self.cluster_max_labels = cluster_max_labels
        self.requests: Counter = Counter()
        self.papers_sent: Counter = Counter()
        self.failures: list[Failure] = []

    def _ask(self, kind: str, messages: list[dict], schema: type[BaseModel], item_id: str, n_papers: int):
        self.requests[kind] += 1
        self.papers_sent[kind] += n_papers
        try:
            return self.client.structured(
                messages, schema, purpose=f"taxonomy.{kind}", temperature=TEMPERATURES[kind], seed=self.seed
            )
        except Exception as exc:  # noqa: BLE001 - recorded, then the offline decision is used
            self.failures.append(
                Failure(
                    stage="taxonomy",
                    item_id=item_id,
                    reason=f"LLM {kind} call failed ({type(exc).__name__}: {exc}); embedding decision used",
                    raw="",
                )
            )
            return None

    # -- dimensions ----------------------------------------------------------------

    def dimensions(self, idx: list[int], dimensions: tuple[str, ...], meanings: dict[str, str]) -> dict[int, list[str]]:
        """Model-chosen dimensions of the given papers (missing answers are left out)."""
        out: dict[int, list[str]] = {}
        for group in batches(idx, self.batch_size):
            keys = {f"P{j + 1}": i for j, i in enumerate(group)}
            payload = {
                "dimensions": list(dimensions),
                "papers": [paper_payload(k, self.titles[i], self.abstracts[i]) for k, i in keys.items()],
            }
            msgs = _messages(
                "dimension",
                payload,
                field=self.field,
                dimensions=", ".join(dimensions),
                meanings="; ".join(f"{d}: {meanings[d]}" for d in dimensions),
            )
            reply = self._ask("dimension", msgs, DimensionBatch, f"dimensions:{group[0]}", len(group))
            if reply is None:
                continue
            for choice in reply.papers:
                dims = [d for d in choice.dimensions if d in dimensions]
                if choice.paper in keys and dims:
                    out[keys[choice.paper]] = dims
        return out

    # -- routing -------------------------------------------------------------------

    def route(
        self, idx: list[int], options: list[tuple[str, str]], node_label: str, dimension: str, allow_none: bool, item_id: str
    ) -> dict[int, int]:
        """Model-chosen child index (or -1 for none) of each ambiguous paper at one node."""
        out: dict[int, int] = {}
        opts = [{"key": f"C{j + 1}", "label": lab, "description": desc} for j, (lab, desc) in enumerate(options)]
        okeys = {o["key"]: j for j, o in enumerate(opts)}
        for group in batches(idx, self.batch_size):
            keys = {f"P{j + 1}": i for j, i in enumerate(group)}
            payload = {
                "options": opts,
                "allow_none": allow_none,
                "papers": [paper_payload(k, self.titles[i], self.abstracts[i]) for k, i in keys.items()],
            }
            msgs = _messages(
                "route",
                payload,
                field=self.field,
                node=node_label,
                dimension=dimension,
                none=", or 'none' if it fits none of them" if allow_none else "",
            )
            reply = self._ask("route", msgs, RouteBatch, f"{item_id}:route:{group[0]}", len(group))
            if reply is None:
                continue
            for choice in reply.papers:
                if choice.paper not in keys:
                    continue
                if choice.child in okeys:
                    out[keys[choice.paper]] = okeys[choice.child]
                elif allow_none and choice.child.strip().lower() == "none":
                    out[keys[choice.paper]] = -1
        return out

    # -- expansion -----------------------------------------------------------------

    def propose(self, idx: list[int], node_label: str, dimension: str, existing: list[str], item_id: str) -> dict[int, str]:
        out: dict[int, str] = {}
        for group in batches(idx, self.batch_size):
            keys = {f"P{j + 1}": i for j, i in enumerate(group)}
            payload = {"papers": [paper_payload(k, self.titles[i], self.abstracts[i]) for k, i in keys.items()]}
            msgs = _messages(
                "propose",
                payload,
                field=self.field,
                node=node_label,
                dimension=dimension,
                existing="; ".join(existing) or "none yet",
            )
            reply = self._ask("propose", msgs, ProposalBatch, f"{item_id}:propose:{group[0]}", len(group))
            if reply is None:
                continue
            for p in reply.proposals:
                label = " ".join(p.label.split())
                if p.paper in keys and label:
                    out[keys[p.paper]] = label
        return out

    def cluster(
        self, proposals: dict[int, str], k: int, node_label: str, dimension: str, existing: list[str], item_id: str
    ) -> list[tuple[str, str, list[int]]] | None:
        """Clusters of proposed labels -> (label, description, member paper indices).

        Labels are sent once each with their vote counts (most voted first, at most
        `cluster_max_labels`). Returns None when the call failed.
        """
        votes = Counter(proposals.values())
        labels = sorted(votes, key=lambda lab: (-votes[lab], lab))[: self.cluster_max_labels]
        payload = {
            "max_clusters": k,
            "existing": existing,
            "proposed_labels": [{"label": lab, "votes": votes[lab]} for lab in labels],
        }
        msgs = _messages(
            "cluster",
            payload,
            field=self.field,
            node=node_label,
            dimension=dimension,
            k=k,
            existing="; ".join(existing) or "none yet",
        )
        reply = self._ask("cluster", msgs, ClusterResult, f"{item_id}:cluster", 0)
        if reply is None:
            return None
        by_label: dict[str, list[int]] = {}
        for i, lab in sorted(proposals.items()):
            by_label.setdefault(lab.lower(), []).append(i)
        out, taken = [], set()
        for c in reply.clusters:
            members = sorted({i for m in c.members for i in by_label.get(" ".join(m.split()).lower(), [])} - taken)
            if not members or not c.label.strip():
                continue
            taken.update(members)
            out.append((" ".join(c.label.split()), c.description.strip(), members))
        return out


def ambiguous_routes(
    best_sim: np.ndarray, second_sim: np.ndarray, threshold: np.ndarray, band: float, gap: float, full: bool
) -> np.ndarray:
    """Which routing decisions the embeddings cannot make alone (see module docstring).

    Clear fit: best >= threshold + band and best - second >= gap. Clear unfit (only when
    the node can still grow): best < threshold - band. Everything else is ambiguous. At a
    full node every paper descends, so only the choice among children can be ambiguous.
    """
    margin_ok = (best_sim - second_sim) >= gap
    if full:
        return ~margin_ok
    clear_fit = (best_sim >= threshold + band) & margin_ok
    clear_unfit = best_sim < threshold - band
    return ~(clear_fit | clear_unfit)

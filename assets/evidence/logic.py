"""Evidence stage: per-paper full-text evidence and node evidence records (ForeSci §3.3).

"Node representation" in the paper: every taxonomy node gets a *node evidence record*
that links the subdirection back to the cutoff-visible literature (representative +
supporting papers), and every paper in it carries *full-text evidence*: what problem,
method, evaluation focus, limitation and contribution type had appeared before the
cutoff. The paper drafts these with an LLM and has experts audit them; offline we take
one *verbatim* sentence per field from the abstract -- or, when the `paper_fulltext`
asset has a GROBID full text, from its sections (a limitation from the Limitations
section first) -- with cue-phrase rules, so every field can be checked mechanically
against its source (`verify_quote`) and nothing is paraphrased or invented. A field
stays empty when no sentence carries its cues. LLM mode (`assets.evidence.llm_mode`)
has the model quote a sentence per field; quotes not found verbatim are kept and
listed in `PaperEvidence.unverified`. Representative papers are ranked by centrality,
plus citation counts as of the cutoff when given (offline: centrality only).

No Dagster here. Unknown paper ids in a node are skipped and reported as `Failure`
rows; a paper dated after the cutoff is a temporal-integrity bug upstream and raises.
"""

from __future__ import annotations

from datetime import date

import numpy as np

from assets.evidence.llm_mode import extract_evidence_llm
from assets.evidence.quotes import (
    extract_paper_evidence,
    paper_source_text,
)
from core.records import (
    EvidenceRecord,
    Failure,
    PaperFullText,
    ScreenedPaper,
    TaxonomyNode,
)


def rank_by_centrality(
    vectors: np.ndarray,
    ids: list[str],
    labels: list[str],
    core_bonus: float = 0.05,
    citations: dict[str, int] | None = None,
    citation_weight: float = 0.1,
) -> list[tuple[str, float]]:
    """Papers ordered by cosine to the (normalised) centroid, core papers nudged up.

    `core_bonus` is added to the cosine of core papers: among near-equally central
    papers the core one wins, but a clearly more central support paper still ranks
    first. With `citations` (counts as of the cutoff, e.g. from Semantic Scholar), each
    paper also gets `citation_weight * log1p(c) / log1p(max c among these papers)`, so
    the most cited paper gains at most `citation_weight` (about a typical spread of
    centrality): central *and* cited papers lead. Offline there are no citation counts
    and the order is centrality only. Ties break on arxiv_id so the order is deterministic.
    """
    if len(ids) == 0:
        return []
    centroid = vectors.mean(axis=0)
    centroid = centroid / max(float(np.linalg.norm(centroid)), 1e-12)
    cos = vectors @ centroid
    scores = [float(c) + (core_bonus if lab == "core" else 0.0) for c, lab in zip(cos, labels)]
    if citations:
        top = max((citations.get(pid, 0) for pid in ids), default=0)
        if top > 0:
            scores = [
                sc + citation_weight * float(np.log1p(max(citations.get(pid, 0), 0)) / np.log1p(top))
                for sc, pid in zip(scores, ids)
            ]
    order = sorted(range(len(ids)), key=lambda i: (-round(scores[i], 6), ids[i]))
    return [(ids[i], scores[i]) for i in order]


def build_evidence(
    nodes: list[TaxonomyNode],
    papers: list[ScreenedPaper],
    cutoff: date,
    embed,
    *,
    n_representative: int = 5,
    n_supporting: int = 20,
    core_bonus: float = 0.05,
    llm_client=None,
    fulltexts: dict[str, PaperFullText] | None = None,
    citations: dict[str, int] | None = None,
) -> tuple[list[EvidenceRecord], list[Failure]]:
    """Node evidence records plus a `Failure` row for every problem found on the way.

    Modes: offline (default) quotes one sentence per field by cue-phrase rules; with an
    online `llm_client` the model drafts the fields with verbatim quotes, which are
    verified (`assets.evidence.llm_mode`). `fulltexts` (arxiv_id -> PaperFullText from
    the `paper_fulltext` asset) lets both modes quote full-text sections instead of
    the abstract. `citations` (counts as of the cutoff) joins centrality in ranking the
    representative papers; without it the ranking is centrality only.

    One record per non-root node (parent_id set), in node order. Excluded papers are
    never chosen as evidence (the screen judged them off-domain). Unknown paper ids are
    skipped and reported; a node with no usable paper still gets an (empty) record, so
    every node can be traced, plus a failure row. Raises ValueError when a node
    references a paper published after the cutoff.
    """
    by_id = {p.arxiv_id: p for p in papers}
    failures: list[Failure] = []
    late = sorted(
        {(pid, str(by_id[pid].published)) for n in nodes for pid in n.paper_ids if pid in by_id and by_id[pid].published > cutoff}
    )
    if late:
        raise ValueError(
            f"temporal integrity: {len(late)} node paper(s) published after the cutoff {cutoff}, "
            f"e.g. {late[:3]} -- the taxonomy must only use cutoff-visible papers"
        )
    non_root = [n for n in nodes if n.parent_id is not None]
    needed = sorted({pid for n in non_root for pid in n.paper_ids if pid in by_id and by_id[pid].label != "excluded"})
    index = {pid: i for i, pid in enumerate(needed)}
    vectors = embed([paper_source_text(by_id[pid]) for pid in needed]) if needed else np.zeros((0, 1))
    records: list[EvidenceRecord] = []
    chosen_of: dict[str, list[str]] = {}
    for node in non_root:
        unknown = sorted({pid for pid in node.paper_ids if pid not in by_id})
        if unknown:
            failures.append(
                Failure(
                    stage="evidence",
                    item_id=node.node_id,
                    reason=f"{len(unknown)} unknown paper id(s) skipped",
                    raw=",".join(unknown[:50]),
                )
            )
        usable = sorted({pid for pid in node.paper_ids if pid in index})
        n_excluded = len({pid for pid in node.paper_ids if pid in by_id and pid not in index})
        if n_excluded:
            failures.append(
                Failure(
                    stage="evidence",
                    item_id=node.node_id,
                    reason=f"{n_excluded} excluded (off-domain) paper(s) not used as evidence",
                )
            )
        if not usable:
            failures.append(
                Failure(
                    stage="evidence",
                    item_id=node.node_id,
                    reason="node has no usable cutoff-visible paper; empty evidence record",
                )
            )
        ranked = rank_by_centrality(
            vectors[[index[pid] for pid in usable]] if usable else np.zeros((0, 1)),
            usable,
            [by_id[pid].label for pid in usable],
            core_bonus=core_bonus,
            citations=citations,
        )
        chosen = [pid for pid, _ in ranked[: n_representative + n_supporting]]
        representative, supporting = chosen[:n_representative], chosen[n_representative:]
        records.append(
            EvidenceRecord(
                record_id=f"ev:{node.node_id}",
                node_id=node.node_id,
                domain=node.domain,
                cutoff=cutoff,
                node_label=node.label,
                representative_ids=representative,
                supporting_ids=supporting,
                papers=[],
                rank_basis="centrality+citations" if citations else "centrality",
            )
        )
        chosen_of[records[-1].record_id] = chosen
    # Evidence of every chosen paper, once (a paper can support several nodes).
    wanted = sorted({pid for ids in chosen_of.values() for pid in ids})
    fulltexts = fulltexts or {}
    if llm_client is not None and not getattr(llm_client, "offline", True):
        evidence_cache, llm_failures = extract_evidence_llm([by_id[pid] for pid in wanted], llm_client, fulltexts=fulltexts)
        failures += llm_failures
    else:
        evidence_cache = {pid: extract_paper_evidence(by_id[pid], fulltexts.get(pid)) for pid in wanted}
    for record in records:
        record.papers = [evidence_cache[pid] for pid in chosen_of[record.record_id]]
    return records, failures


def build_evidence_records(
    nodes: list[TaxonomyNode],
    papers: list[ScreenedPaper],
    cutoff: date,
    embed,
    *,
    n_representative: int = 5,
    n_supporting: int = 20,
    **kwargs,
) -> list[EvidenceRecord]:
    """Node evidence records only (see `build_evidence` for the failure rows and options)."""
    records, _ = build_evidence(
        nodes, papers, cutoff, embed, n_representative=n_representative, n_supporting=n_supporting, **kwargs
    )
    return records

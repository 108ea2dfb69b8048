"""Gold targets asset: hidden future validation targets, computed from the future window."""

import random
import re
from collections import Counter

import dagster as dg

from assets.evidence.venues import VENUE_DIR, listed_by, load_venue_lists, unlisted, venue_similarity
from assets.families import all_families
from assets.gold.claims import ClaimContext, verify_golds
from assets.gold.logic import build_gold
from assets.partitions import DOMAIN_CUTOFF_PARTITIONS
from assets.stage import current_partition
from core.leakage import assert_clean, future_only_terms
from core.records import (
    GoldTarget,
    ScreenedPaper,
    Signal,
    Task,
    TaskBuild,
    TaxonomyNode,
)
from core.thresholds import Thresholds
from core.visibility import visibility_tags
from resources.embeddings import EmbeddingResource
from resources.storage import StorageResource

VENUE_BASE_PAPERS = 300  # typical domain papers behind the venue base rate


def template_vocabulary() -> list[str]:
    """Texts every task may use whatever the corpus says: instructions, requirements, templates."""
    families = all_families()
    return (
        [f.instructions for f in families]
        + [r for f in families for r in f.requirements]
        + [" ".join(f.vocabulary for f in families if f.vocabulary)]
    )


@dg.asset(
    partitions_def=DOMAIN_CUTOFF_PARTITIONS,
    group_name="hidden",
    kinds={"parquet", "python"},
    deps=["tasks", "future_window", "research_signals", "taxonomy", "corpus_snapshot"],
    tags=visibility_tags("gold_targets"),
)
def gold_targets(
    context: dg.AssetExecutionContext, storage: StorageResource, embeddings: EmbeddingResource
) -> dg.MaterializeResult:
    """Hidden gold per task, computed from what happened in the window: realised momentum
    of each candidate (future share normalised by corpus volume versus its pre-cutoff
    share) and trajectory label, preferred rankings, realised bottleneck/opportunity,
    venue fit, FTA slots with variants, and a claim bank. Fails the partition if any
    public task field contains a gold-only fact or a post-cutoff paper."""
    part = current_partition(context)
    store = storage.store()
    d, c = part.domain, part.cutoff_key
    public_tasks = store.read_records("tasks", d, c, Task)
    builds = store.read_records("task_builds", d, c, TaskBuild)
    future = store.read_records("future_window", d, c, ScreenedPaper)
    public_papers = store.read_records("corpus_snapshot", d, c, ScreenedPaper)
    embed = embeddings.embedder().encode
    venue_papers = load_venue_lists(VENUE_DIR)

    # typical papers of the domain, written like a project description (the first two sentences
    # of the abstract): a project that fits no community as well as they do is off-topic
    usable = sorted((p for p in public_papers if p.label != "excluded"), key=lambda p: p.arxiv_id)
    base_texts = [
        " ".join(re.split(r"(?<=[.!?])\s+", p.abstract.strip())[:2])
        for p in random.Random(0).sample(usable, min(VENUE_BASE_PAPERS, len(usable)))
    ]

    # the similarity proxy knows the communities by the lists decided on or before the cutoff: a list
    # decided in the window is an outcome list (the venue gold's real answer), never part of the proxy
    def venue_scorer(texts: list[str]) -> dict[str, float]:
        return venue_similarity(texts, venue_papers, part.cutoff, embed)

    def venue_on_topic(project: str) -> bool:
        return bool(venue_similarity([project], venue_papers, part.cutoff, embed, base_texts=base_texts))

    signals = store.read_records("research_signals", d, c, Signal)
    nodes = store.read_records("taxonomy", d, c, TaxonomyNode)
    golds = build_gold(
        public_tasks,
        builds,
        signals,
        nodes,
        public_papers,
        future,
        embed,
        cutoff=part.cutoff,
        window_end=part.window_end,
        venue_scorer=venue_scorer,
        venue_on_topic=venue_on_topic,
        stability_resamples=Thresholds.load().bootstrap_resamples,
    )
    claim_problems = verify_golds(golds, ClaimContext(public_papers, future, signals, part.cutoff))
    for problem in claim_problems[:20]:
        context.log.warning(f"claim not verified: {problem}")
    internal_ids = {s.signal_id for s in signals} | {n.node_id for n in nodes} | {f"ev:{n.node_id}" for n in nodes}
    # accepted-paper lists decided by the cutoff are pre-cutoff text (the venue options quote them)
    novel = future_only_terms(
        [f"{p.title} {p.abstract}" for p in public_papers] + listed_by(part.cutoff),
        [p.title for p in future],
        allowed=template_vocabulary(),
    )
    assert_clean(
        public_tasks,
        golds,
        {p.arxiv_id for p in future},
        unlisted([p.title for p in future], part.cutoff),
        cutoff=part.cutoff,
        internal_ids=internal_ids,
        novel_terms=novel,
    )
    path = store.write_records("gold_targets", d, c, golds, GoldTarget)
    return dg.MaterializeResult(
        metadata={
            "rows": len(golds),
            "future_papers": len(future),
            "trajectories": dg.MetadataValue.json(dict(Counter(g.trajectory for g in golds if g.trajectory))),
            "validated": sum(g.strength > 0 for g in golds),
            "claims": sum(len(g.claims) for g in golds),
            "claims_verified": int(sum(g.numbers.get("claims_verified", 0) for g in golds)),
            "claim_problems": dg.MetadataValue.json(claim_problems[:50]),
            "leakage_check": "passed",
            "future_only_terms": len(novel),
            "path": dg.MetadataValue.path(path),
        }
    )

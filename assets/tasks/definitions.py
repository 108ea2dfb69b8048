"""Tasks asset: the public research-decision tasks of every registered family."""

from collections import Counter

import dagster as dg

from assets.partitions import DOMAIN_CUTOFF_PARTITIONS
from assets.stage import current_partition, md_table, write_failures
from assets.tasks.llm_drafting import LLMDrafter
from assets.tasks.logic import build_tasks, needed_inputs
from assets.toolbox.building import BuildSettings, Curation
from core.records import EvidenceRecord, PaperFullText, ScreenedPaper, Signal, Task, TaskBuild
from resources.embeddings import EmbeddingResource
from resources.llm import LLMResource
from resources.storage import StorageResource


class TaskBuildConfig(dg.Config):
    per_family_max: int = 16
    per_family_min: int = 1
    # per-family overrides. Option families are drafted four times as often: their gold must pass
    # the two-measure agreement gate (assets.ranking.gate), which drops most option sets without
    # a clear leader, and the release takes one task per gold answer (96: their gold is cheap, ~0.1 s a
    # task, and the extra sets give the gate more distinct leaders; issue 24)
    # phase: 40 per phase; its reference check (assets/families/phase/, docs/arena.md) holds back most of them
    family_max: dict[str, int] = {
        "direction": 96,
        "planning": 96,
        "phase": 120,
        # venue: one task per outcome project, as many as the release keeps (ranking's top_n_by_family 15),
        # so that the build's balance over gold families (venue.build.MAJORITY_RATIO) is the release's:
        # with 30 built, the Elo cut kept 11 ACL of 15 in the agent partition (issue 32, fifth pass)
        "venue": 15,
        "bottleneck": 40,
    }  # one per multi-word subject with >= 3 limitations
    family_min: dict[str, int] = {}
    min_option_papers: int = 3  # stable historical premise: papers behind every candidate
    require_prior_papers: bool = True  # ... some of them before the recent window
    duplicate_jaccard: float = 0.8  # two decisions this similar are duplicates
    seed: int = 0
    llm_drafting: bool = True  # draft with the LLM when a model is configured (else templates)
    judge_threshold: float = 0.8
    max_rewrite_rounds: int = 2


@dg.asset(
    partitions_def=DOMAIN_CUTOFF_PARTITIONS,
    group_name="tasks",
    kinds={"parquet", "python"},
    deps=["research_signals", "evidence_records", "corpus_snapshot", "paper_fulltext"],
)
def tasks(
    context: dg.AssetExecutionContext,
    config: TaskBuildConfig,
    storage: StorageResource,
    llm: LLMResource,
    embeddings: EmbeddingResource,
) -> dg.MaterializeResult:
    """Public tasks (ForeSci §3.4): direction forecasting, bottleneck-opportunity discovery,
    strategic research planning and venue-conditioned positioning, each with question,
    cutoff, window, instructions, answer requirements, options and a pre-cutoff support
    packet. Offline the text comes from documented templates; with a model, an LLM drafts
    and a judge-rewrite loop polishes it. The construction record (signals, build trace,
    curation) is kept internal in the hidden `task_builds` table."""
    part = current_partition(context)
    store = storage.store()
    signals = store.read_records("research_signals", part.domain, part.cutoff_key, Signal)
    records = store.read_records("evidence_records", part.domain, part.cutoff_key, EvidenceRecord)
    client = llm.client()
    before = client.snapshot()
    drafter = None
    if config.llm_drafting and not client.offline:
        drafter = LLMDrafter(client, threshold=config.judge_threshold, max_rounds=config.max_rewrite_rounds, seed=config.seed)
    curation = Curation(
        min_option_papers=config.min_option_papers,
        require_prior_papers=config.require_prior_papers,
        duplicate_jaccard=config.duplicate_jaccard,
        family_min=dict(config.family_min),
        family_max=dict(config.family_max),
    )
    settings = BuildSettings(
        domain=part.domain,
        domain_title=part.spec.title,
        cutoff=part.cutoff,
        window_end=part.window_end,
        horizon_months=part.horizon_months,
        seed=config.seed,
        per_family_max=config.per_family_max,
        per_family_min=config.per_family_min,
        curation=curation,
    )
    needs = needed_inputs()  # only what the registered families declare they read
    papers, fulltext = [], {}
    if "papers" in needs:
        papers = store.read_records("corpus_snapshot", part.domain, part.cutoff_key, ScreenedPaper)
    if "fulltext" in needs:
        fulltext = {
            f.arxiv_id: f.sections
            for f in store.read_records("paper_fulltext", part.domain, part.cutoff_key, PaperFullText)
            if f.source == "grobid"
        }
    # with model drafting on, families draft their own parts with the client (phase: inspirations,
    # rediscovery: problem trees); offline they use their documented extractors
    drafting_llm = client if config.llm_drafting and not client.offline and "llm" in needs else None
    built, builds, failures = build_tasks(
        signals,
        records,
        settings,
        drafter=drafter,
        papers=papers,
        fulltext=fulltext,
        llm=drafting_llm,
        embed=embeddings.embedder().encode if "embed" in needs else None,
    )
    path = store.write_records("tasks", part.domain, part.cutoff_key, built, Task)
    store.write_records("task_builds", part.domain, part.cutoff_key, builds, TaskBuild)
    write_failures(store, "tasks", part, failures)
    return dg.MaterializeResult(
        metadata={
            "rows": len(built),
            "by_family": dg.MetadataValue.json(dict(Counter(t.family for t in built))),
            "drafted_by": dg.MetadataValue.json(dict(Counter(b.drafted_by for b in builds))),
            "fallbacks": sum(any(s.step == "fallback" for s in b.build_trace) for b in builds),
            "failures": len(failures),
            "preview": md_table([t.model_dump() for t in built], ["task_id", "family", "title"], 12),
            "path": dg.MetadataValue.path(path),
            **client.usage_since(before).as_metadata(),
        }
    )

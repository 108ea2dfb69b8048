"""Agent answers asset: research agents answer released public tasks from the
cutoff-bound knowledge base only."""

from collections import Counter

import dagster as dg

from assets.agents.backbones import BackboneRegistry
from assets.agents.external import run_external, specs_from
from assets.agents.runner import available_methods, run_method
from assets.knowledge_base.definitions import open_view
from assets.partitions import DOMAIN_CUTOFF_PARTITIONS
from assets.stage import current_partition, write_failures
from core.records import Answer, Task, TaskRating
from resources.embeddings import EmbeddingResource
from resources.lance import LanceResource
from resources.llm import LLMResource
from resources.storage import StorageResource


class AgentRunConfig(dg.Config):
    methods: list[str] = []  # empty: every method available (LLM ones only with a model)
    seeds: int = 1  # repeated runs per task x method x backbone (seeds 0..seeds-1)
    max_concurrency: int = 4  # tasks in flight per method (threads); the `llm` pool bounds steps
    allow_post_cutoff_backbones: bool = False  # run (and mark) backbones dated after the cutoff or unknown
    backbones_file: str | None = None  # extra backbone registry YAML (merged over the shipped one)
    external_agents: list[str] = []  # "name=module:function" / "name=http://host:port/answer"; env FORESCI_EXTERNAL_AGENTS
    external_timeout_s: float = 300.0
    external_evidence_k: int = 10  # pre-retrieved hits sent with each HTTP request (0: none)


@dg.asset(
    partitions_def=DOMAIN_CUTOFF_PARTITIONS,
    group_name="evaluation",
    kinds={"parquet", "python"},
    deps=["task_ranking", "knowledge_base"],  # the tasks as presented: task_ranking's presented_tasks
    pool="llm",
)
def agent_answers(
    context: dg.AssetExecutionContext,
    config: AgentRunConfig,
    storage: StorageResource,
    lance: LanceResource,
    embeddings: EmbeddingResource,
    llm: LLMResource,
) -> dg.MaterializeResult:
    """One row per (task, method, backbone, seed): the structured answer with its trace —
    evidence ids, retrieval queries, the KB call log and intermediate artifacts, tokens,
    cost, latency, seed. Agents (built-in and external) receive only the public task and
    a knowledge-base view bound to the cutoff, never gold or the future; backbones dated
    after the cutoff are refused unless allowed, and then marked."""
    part = current_partition(context)
    store = storage.store()
    ratings = store.read_records("task_ranking", part.domain, part.cutoff_key, TaskRating)
    released = {r.task_id for r in ratings if r.released}
    # the released tasks as the release presents them (options in the presentation order)
    tasks = [t for t in store.read_records("presented_tasks", part.domain, part.cutoff_key, Task) if t.task_id in released]
    kb = open_view(part, lance, embeddings)
    client = llm.client()
    registry = BackboneRegistry.load(config.backbones_file)
    before = client.snapshot()
    externals = specs_from(config.external_agents)
    methods = config.methods or available_methods(client)
    answers: list[Answer] = []
    failures = []
    common = {
        "registry": registry,
        "allow_post_cutoff_backbones": config.allow_post_cutoff_backbones,
        "max_concurrency": config.max_concurrency,
    }
    for seed in range(config.seeds):
        for method in methods:
            context.log.info(f"{method} (seed {seed}) on {len(tasks)} tasks")
            got, failed = run_method(
                method,
                tasks,
                kb,
                llm_client=client,
                embed=embeddings.embedder().encode,
                seed=seed,
                backbone=client.model or "offline",
                **common,
            )
            answers += got
            failures += failed
        for spec in externals:
            context.log.info(f"{spec.method} ({spec.target}, seed {seed}) on {len(tasks)} tasks")
            got, failed = run_external(
                spec, tasks, kb, seed=seed, timeout_s=config.external_timeout_s, evidence_k=config.external_evidence_k, **common
            )
            answers += got
            failures += failed
    path = store.write_records("agent_answers", part.domain, part.cutoff_key, answers, Answer)
    write_failures(store, "agent_answers", part, failures)
    latencies = sorted(a.latency_s for a in answers)
    return dg.MaterializeResult(
        metadata={
            "rows": len(answers),
            "failures": len(failures),
            "tasks": len(tasks),
            "seeds": config.seeds,
            "by_method": dg.MetadataValue.json(dict(Counter(a.method for a in answers))),
            "backbone_refusals": sum("BackboneRefused" in f.reason for f in failures),
            "backbone_postdates_cutoff": sum(a.backbone_postdates_cutoff for a in answers),
            "median_latency_s": latencies[len(latencies) // 2] if latencies else 0.0,
            **client.usage_since(before).as_metadata(),
            "path": dg.MetadataValue.path(path),
        }
    )

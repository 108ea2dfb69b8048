"""Agent answers asset: research agents answer released public tasks from the
cutoff-bound knowledge base only."""


from collections import Counter

import dagster as dg

from assets.agents.runner import available_methods, run_method
from assets.knowledge_base.definitions import open_view
from assets.records import Answer, Task, TaskRating
from pipelines.partitions import DOMAIN_CUTOFF_PARTITIONS
from pipelines.stage import current_partition, write_failures
from resources.embeddings import EmbeddingResource
from resources.lance import LanceResource
from resources.llm import LLMResource
from resources.storage import StorageResource


class AgentRunConfig(dg.Config):
    methods: list[str] = []  # empty: every method available (LLM ones only with a model)
    seeds: int = 1


@dg.asset(
    partitions_def=DOMAIN_CUTOFF_PARTITIONS,
    group_name="evaluation",
    kinds={"parquet", "python"},
    deps=["tasks", "task_ranking", "knowledge_base"],
)
def agent_answers(
    context: dg.AssetExecutionContext,
    config: AgentRunConfig,
    storage: StorageResource,
    lance: LanceResource,
    embeddings: EmbeddingResource,
    llm: LLMResource,
) -> dg.MaterializeResult:
    """One row per (task, method, backbone, seed): the structured answer with the evidence
    ids it used, its retrieval queries, tokens, cost and latency. Agents receive only the
    public task and a knowledge-base view bound to the cutoff, never gold or the future."""
    part = current_partition(context)
    store = storage.store()
    released = {r.task_id for r in store.read_records("task_ranking", part.domain, part.cutoff_key, TaskRating)
                if r.released}
    tasks = [t for t in store.read_records("tasks", part.domain, part.cutoff_key, Task) if t.task_id in released]
    kb = open_view(part, lance, embeddings)
    client = llm.client()
    before = client.snapshot()
    methods = config.methods or available_methods(client)
    answers: list[Answer] = []
    failures = []
    for method in methods:
        for seed in range(config.seeds):
            context.log.info(f"{method} (seed {seed}) on {len(tasks)} tasks")
            got, failed = run_method(method, tasks, kb, llm_client=client, embed=embeddings.embedder().encode,
                                     seed=seed, backbone=client.model or "offline")
            answers += got
            failures += failed
    path = store.write_records("agent_answers", part.domain, part.cutoff_key, answers, Answer)
    write_failures(store, "agent_answers", part, failures)
    return dg.MaterializeResult(metadata={
        "rows": len(answers), "failures": len(failures), "tasks": len(tasks),
        "by_method": dg.MetadataValue.json(dict(Counter(a.method for a in answers))),
        **client.usage_since(before).as_metadata(), "path": dg.MetadataValue.path(path),
    })

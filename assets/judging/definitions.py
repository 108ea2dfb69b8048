"""Judge scores asset: ForeSci metrics for every stored answer."""


import dagster as dg

from assets.judging.scoring import score_answers
from assets.knowledge_base.definitions import open_view
from assets.records import Answer, GoldTarget, Score, Task
from pipelines.partitions import DOMAIN_CUTOFF_PARTITIONS
from pipelines.stage import current_partition, write_failures
from resources.embeddings import EmbeddingResource
from resources.lance import LanceResource
from resources.llm import LLMResource
from resources.storage import StorageResource


@dg.asset(
    partitions_def=DOMAIN_CUTOFF_PARTITIONS,
    group_name="evaluation",
    kinds={"parquet", "python"},
    deps=["agent_answers", "gold_targets", "tasks", "knowledge_base"],
)
def judge_scores(
    context: dg.AssetExecutionContext,
    storage: StorageResource,
    lance: LanceResource,
    embeddings: EmbeddingResource,
    llm: LLMResource,
) -> dg.MaterializeResult:
    """One row per answer: Future-Target Alignment (reference-guided or ranking F1) and the
    deterministic evidence-linkage part of Traceability. Prediction Factuality, full
    Traceability and Reviewer Persuasiveness need a judge model and are null without one."""
    part = current_partition(context)
    store = storage.store()
    answers = store.read_records("agent_answers", part.domain, part.cutoff_key, Answer)
    tasks = store.read_records("tasks", part.domain, part.cutoff_key, Task)
    golds = store.read_records("gold_targets", part.domain, part.cutoff_key, GoldTarget, visibility="hidden")
    kb_dates = open_view(part, lance, embeddings).dates()
    scores, failures = score_answers(answers, tasks, golds, embeddings.embedder().encode, kb_dates,
                                     cutoff=part.cutoff)
    path = store.write_records("judge_scores", part.domain, part.cutoff_key, scores, Score)
    write_failures(store, "judge_scores", part, failures)
    judge_model = llm.client().model
    ftas = [s.fta for s in scores if s.fta is not None]
    return dg.MaterializeResult(metadata={
        "rows": len(scores), "failures": len(failures),
        "mean_fta": round(sum(ftas) / len(ftas), 4) if ftas else None,
        "judge_model": judge_model or "none (LLM-only metrics are null)",
        "llm_calls": 0, "cost_usd": 0.0, "path": dg.MetadataValue.path(path),
    })

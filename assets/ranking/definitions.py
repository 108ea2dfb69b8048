"""Task ranking asset: Elo over tasks (DeepResearch Arena), top-N per family released."""


from collections import defaultdict

import dagster as dg

from assets.ranking.elo import run_elo, top_n
from assets.ranking.judge import offline_judge, task_quality
from assets.records import GoldTarget, Task, TaskRating
from pipelines.partitions import DOMAIN_CUTOFF_PARTITIONS
from pipelines.stage import current_partition, md_table
from resources.embeddings import EmbeddingResource
from resources.storage import StorageResource


class TaskRankingConfig(dg.Config):
    top_n_per_family: int = 6
    rounds: int = 30
    seed: int = 0


@dg.asset(
    partitions_def=DOMAIN_CUTOFF_PARTITIONS,
    group_name="evaluation",
    kinds={"parquet", "python"},
    deps=["tasks", "gold_targets"],
)
def task_ranking(
    context: dg.AssetExecutionContext,
    config: TaskRankingConfig,
    storage: StorageResource,
    embeddings: EmbeddingResource,
) -> dg.MaterializeResult:
    """Elo rating of every task within its family (initial 1200, K=32, soft outcomes from
    the judge's confidence, both presentation orders judged); the top-N per family are
    released. Holds one row per task: elo, rank in family, released flag, quality."""
    part = current_partition(context)
    store = storage.store()
    tasks = store.read_records("tasks", part.domain, part.cutoff_key, Task)
    golds = {g.task_id: g for g in store.read_records("gold_targets", part.domain, part.cutoff_key, GoldTarget,
                                                         visibility="hidden")}
    embed = embeddings.embedder().encode
    quality = {t.task_id: task_quality(t, golds.get(t.task_id), embed) for t in tasks}
    by_family: dict[str, list[Task]] = defaultdict(list)
    for t in tasks:
        by_family[t.family].append(t)
    ratings: list[TaskRating] = []
    correlations = {}
    for family, family_tasks in sorted(by_family.items()):
        ids = [t.task_id for t in family_tasks]
        # a task whose gold could not be validated (strength 0) is never released
        eligible = [i for i in ids if quality[i]["gold_strength"] > 0]
        result = run_elo(ids, offline_judge({i: quality[i]["quality"] for i in ids}),
                         rounds=config.rounds, seed=config.seed)
        correlations[family] = result.rank_correlation_last_two
        order = top_n(result.ratings, len(ids))
        keep = set([i for i in order if i in eligible][: config.top_n_per_family])
        for rank, task_id in enumerate(order, start=1):
            ratings.append(TaskRating(task_id=task_id, family=family, elo=round(result.ratings[task_id], 4),
                                      rank_in_family=rank, released=task_id in keep,
                                      quality=round(quality[task_id]["quality"], 4)))
    path = store.write_records("task_ranking", part.domain, part.cutoff_key, ratings, TaskRating)
    released = [r for r in ratings if r.released]
    return dg.MaterializeResult(metadata={
        "rows": len(ratings), "released": len(released),
        "rank_correlation_last_two_rounds": dg.MetadataValue.json(correlations),
        "top_tasks": md_table([r.model_dump() for r in released], ["task_id", "family", "elo", "quality"], 12),
        "path": dg.MetadataValue.path(path),
    })

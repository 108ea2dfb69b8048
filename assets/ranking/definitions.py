"""Task ranking asset: Elo over tasks (DeepResearch Arena), top-N per family released."""

import dagster as dg

from assets.partitions import DOMAIN_CUTOFF_PARTITIONS
from assets.ranking.defects import defect_reason, option_defects, overlap_with_released
from assets.ranking.gate import gate_reason, gold_answer
from assets.ranking.judge import llm_judge, offline_judge, task_quality
from assets.ranking.presentation import presentation_orders, write_presented
from assets.ranking.selection import rank_and_select
from assets.stage import current_partition, md_table, write_failures
from core.records import Failure, GoldTarget, Task, TaskRating
from core.thresholds import Thresholds
from resources.embeddings import EmbeddingResource
from resources.llm import LLMResource
from resources.storage import StorageResource


class TaskRankingConfig(dg.Config):
    top_n_per_family: int = 10  # the release keeps at most this many tasks per family (and domain)
    # per-family overrides: the four ForeSci families release more per partition (issue 24: 125 released tasks
    # each over the release). Every released task still passes the gate; the cap only bounds a partition's share.
    # venue: 15 of the <= 30 outcome projects (no venue task at a cutoff without a later list, so 3 of the 4
    # release cutoffs carry venue: 12 partitions x 15); direction, planning, bottleneck: 16, above what the
    # gate lets through in most partitions (post-training planning and visual-generation direction reached 10)
    top_n_by_family: dict[str, int] = {"venue": 15, "direction": 16, "planning": 16, "bottleneck": 16}
    min_rounds: int = 10
    max_rounds: int = 200
    stable_correlation: float = 0.98  # stop once consecutive rounds' Spearman stays >= this ...
    patience: int = 3  # ... for this many rounds
    seed: int = 0
    llm_judge: bool = True  # use the LLM judge when a model is configured (else the offline criteria)


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
    llm: LLMResource,
) -> dg.MaterializeResult:
    """Elo rating of every task within its family (initial 1200, K=32, soft outcomes from
    the judge's confidence, both presentation orders judged, disagreement = tie), run until
    the ratings are stable. The judge is the LLM when a model is configured, otherwise the
    documented offline criteria. The top-N per family of tasks whose gold passes the validity
    gate (evidence, agreeing measures, stable top-1, verified claims; assets/ranking/gate.py)
    and that carry no hard defect (assets/ranking/defects.py) are released; every other task's note says why not. Each released task gets its
    presentation order: the gold's first option at a balanced position across the family
    (assets/ranking/presentation.py), materialised once as the side tables `presented_tasks`
    (public) and `presented_golds` (hidden) that every later stage reads. One row per task:
    elo, rank, released, quality, presentation."""
    part = current_partition(context)
    store = storage.store()
    tasks = store.read_records("tasks", part.domain, part.cutoff_key, Task)
    golds = {g.task_id: g for g in store.read_records("gold_targets", part.domain, part.cutoff_key, GoldTarget)}
    embed = embeddings.embedder().encode
    quality = {t.task_id: task_quality(t, golds.get(t.task_id), embed) for t in tasks}
    client = llm.client()
    before = client.snapshot()
    use_llm = config.llm_judge and not client.offline
    by_id = {t.task_id: t for t in tasks}
    errors: list[str] = []

    def make_judge(ids: list[str]):
        offline = offline_judge({i: quality[i]["quality"] for i in ids})
        return llm_judge(client, by_id, fallback=offline, seed=config.seed, errors=errors) if use_llm else offline

    ratings, correlations, rounds = rank_and_select(
        tasks,
        quality,
        make_judge,
        judge_name=client.model if use_llm else "offline",
        top_n_per_family=config.top_n_per_family,
        top_n_by_family=config.top_n_by_family,
        seed=config.seed,
        gates={
            t.task_id: gate_reason(t, golds.get(t.task_id), Thresholds.load())
            or defect_reason(option_defects(t, golds.get(t.task_id)))
            for t in tasks
        },  # hard defects keep it out
        veto=overlap_with_released(tasks, golds),
        gold_answers={t.task_id: gold_answer(t, golds[t.task_id]) for t in tasks if t.task_id in golds},
        min_rounds=config.min_rounds,
        max_rounds=config.max_rounds,
        stable_correlation=config.stable_correlation,
        patience=config.patience,
    )
    # the release presents each released task's options with the gold's position balanced
    orders = presentation_orders(tasks, golds, {r.task_id for r in ratings if r.released})
    ratings = [r.model_copy(update={"presentation": orders.get(r.task_id, [])}) for r in ratings]
    path = store.write_records("task_ranking", part.domain, part.cutoff_key, ratings, TaskRating)
    # the presented release, materialised once (assets/ranking/presentation.py): every later stage reads it
    write_presented(store, part.domain, part.cutoff_key, tasks, list(golds.values()), ratings)
    write_failures(
        store,
        "task_ranking",
        part,
        [
            Failure(stage="task_ranking", item_id=e.split(":")[0], reason=f"LLM judge fell back to offline: {e}"[:1000])
            for e in errors
        ],
    )
    released = [r for r in ratings if r.released]
    return dg.MaterializeResult(
        metadata={
            "rows": len(ratings),
            "released": len(released),
            "judge": client.model if use_llm else "offline",
            "rank_correlation_last_two_rounds": dg.MetadataValue.json(correlations),
            "rounds": dg.MetadataValue.json(rounds),
            "judge_fallbacks": len(errors),
            "top_tasks": md_table([r.model_dump() for r in released], ["task_id", "family", "elo", "quality"], 12),
            "path": dg.MetadataValue.path(path),
            **client.usage_since(before).as_metadata(),
        }
    )

"""Idea-review assets (ScholarEval family on ScholarIdeas): tasks, answers, scores.

Partitioned by domain × cutoff like every stage, with the `ideas` pseudo-domain as the one
domain: partition (ideas, t) holds the ideas whose own cutoff is on or before t, and each
task's KB view is bound to its own idea's cutoff. The family is registered when these
assets run (never on import), so the ForeSci release of a corpus domain stays as it is.
"""

import dagster as dg

from assets.idea_review import pipeline
from assets.idea_review.family import DOMAIN
from assets.partitions import IDEA_PARTITIONS
from core.visibility import visibility_tags
from resources.embeddings import EmbeddingResource
from resources.llm import LLMResource
from resources.storage import StorageResource

GROUP = "idea_review"


def _cutoff(context: dg.AssetExecutionContext) -> str:
    return context.partition_key.keys_by_dimension["cutoff"]


@dg.asset(partitions_def=IDEA_PARTITIONS, group_name=GROUP, kinds={"parquet", "python"}, tags=visibility_tags("tasks"))
def idea_review_tasks(context: dg.AssetExecutionContext, storage: StorageResource) -> dg.MaterializeResult:
    """One public review task per ScholarIdeas research plan dated on or before the cutoff
    (shipped dataset, MIT); the hidden gold (warehouse/hidden) is the idea's expert rubrics.
    Ideas without a rubric or with a plan under 50 words are dropped, with the reason."""
    store = storage.store()
    cutoff_key, tasks, golds, dropped = pipeline.build_idea_tasks(store, cutoff_key=_cutoff(context))
    disciplines: dict[str, int] = {}
    for t in tasks:
        disciplines[t.subtype] = disciplines.get(t.subtype, 0) + 1
    return dg.MaterializeResult(
        metadata={
            "tasks": len(tasks),
            "dropped": len(dropped),
            "rubrics": sum(len(g.claims) for g in golds),
            "disciplines": dg.MetadataValue.json(disciplines),
            "path": dg.MetadataValue.path(store.uri(store.parquet_path("tasks", DOMAIN, cutoff_key))),
        }
    )


@dg.asset(
    partitions_def=IDEA_PARTITIONS,
    group_name=GROUP,
    kinds={"parquet", "python"},
    deps=[idea_review_tasks],
    tags=visibility_tags("agent_answers"),
)
def idea_review_answers(
    context: dg.AssetExecutionContext, storage: StorageResource, embeddings: EmbeddingResource, llm: LLMResource
) -> dg.MaterializeResult:
    """Every built-in idea agent's review (the ScholarEval agent's soundness and contribution
    pipelines, and a retrieval baseline), each over a KB view bound to the idea's own cutoff;
    offline implementations of every step when no model is configured."""
    client = llm.client()
    answers, no_lit = pipeline.answer_idea_tasks(
        storage.store(),
        _cutoff(context),
        embeddings.embedder().encode,
        llm=None if client.offline else client,
        log=context.log.info,
    )
    return dg.MaterializeResult(
        metadata={
            "answers": len(answers),
            "failed": sum(a.error is not None for a in answers),
            "no_relevant_literature": dg.MetadataValue.json(no_lit),
            "mode": "offline" if client.offline else client.model,
        }
    )


@dg.asset(
    partitions_def=IDEA_PARTITIONS,
    group_name=GROUP,
    kinds={"parquet", "html"},
    deps=[idea_review_answers],
    tags=visibility_tags("judge_scores"),
)
def idea_review_scores(
    context: dg.AssetExecutionContext, storage: StorageResource, embeddings: EmbeddingResource, judge_llm: LLMResource
) -> dg.MaterializeResult:
    """Rubric coverage (ScholarEval §4; an embedding PROXY without a judge model, named as such)
    and reference validity of every review and control answer; the validity row, the release
    files (tasks.jsonl public, gold.jsonl hidden, the dataset's licence) and the leaderboard."""
    store = storage.store()
    judge = judge_llm.client()
    scores, controls, row = pipeline.score_idea_answers(
        store, _cutoff(context), embeddings.embedder().encode, judge=None if judge.offline else judge
    )
    board = pipeline.leaderboard_lines(row, scores, row["metric"])
    return dg.MaterializeResult(
        metadata={
            "metric": row["metric"],
            "validity_passed": bool(row["passed"]),
            "problems": row["problems"] or "",
            "leaderboard": dg.MetadataValue.md("\n".join(board)),
            "report_command": f"foresci report --domain {DOMAIN} --cutoff {_cutoff(context)}",
        }
    )


IDEA_REVIEW_ASSETS = [idea_review_tasks, idea_review_answers, idea_review_scores]

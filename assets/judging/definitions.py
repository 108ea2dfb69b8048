"""Judge scores asset: ForeSci metrics for every stored answer."""

import dagster as dg

from assets.arena.ace import Checklist
from assets.judging.scoring import (
    fact_agreement,
    pairwise_comparisons,
    reference_fact,
    score_answers,
)
from assets.knowledge_base.definitions import open_view
from assets.partitions import DOMAIN_CUTOFF_PARTITIONS
from assets.scorers.base import JudgeSettings
from assets.scorers.llm_judge import COST_TARGET, PROMPT_VERSIONS
from assets.stage import current_partition, write_failures
from core.records import Answer, AnswerArtifacts, GoldTarget, PairwiseComparison, Score, Task
from resources.embeddings import EmbeddingResource
from resources.lance import LanceResource
from resources.llm import LLMResource
from resources.storage import StorageResource


class JudgeConfig(dg.Config):
    protocol: str = "compact"  # compact: 1 Fact call + R rubric calls; reference: one claim per call
    repeats: int = 3  # rubric repeats (Trace, Persuasiveness): mean and spread stored
    temperature: float = 0.7  # rubric sampling temperature across repeats
    workers: int = 4  # answers judged concurrently
    pairwise: str = "auto"  # auto | metric | llm | off
    pairwise_max_tasks: int = 12
    agreement_sample: int = 0  # judge N answers also one-claim-per-call; agreement in metadata


def _mean(xs):
    return round(sum(xs) / len(xs), 4) if xs else None


@dg.asset(
    partitions_def=DOMAIN_CUTOFF_PARTITIONS,
    group_name="evaluation",
    kinds={"parquet", "python"},
    deps=["agent_answers", "answer_artifacts", "task_ranking", "knowledge_base", "release_package"],
    pool="llm",  # judge model calls share the LLM rate-limit pool with the agents
)
def judge_scores(
    context: dg.AssetExecutionContext,
    config: JudgeConfig,
    storage: StorageResource,
    lance: LanceResource,
    embeddings: EmbeddingResource,
    judge_llm: LLMResource,
) -> dg.MaterializeResult:
    """One row per answer: Future-Target Alignment (reference-guided or ranking F1) and the
    deterministic evidence-linkage part of Traceability always; with a judge model
    (`judge_llm`, env FORESCI_JUDGE_MODEL) also Prediction Factuality (P/R/F1), Evidence
    Traceability and Reviewer Persuasiveness (R repeats, mean and SD), drift labels, the judge
    model and prompt versions. Side table `judge_pairwise`: per-task system comparisons."""
    part = current_partition(context)
    store = storage.store()
    answers = store.read_records("agent_answers", part.domain, part.cutoff_key, Answer)
    # answers were given to the released tasks as presented: score them in the same letters
    tasks = store.read_records("presented_tasks", part.domain, part.cutoff_key, Task)
    golds = store.read_records("presented_golds", part.domain, part.cutoff_key, GoldTarget)
    kb = open_view(part, lance, embeddings)
    # the Xcientist artifacts (attribution scorer); a warehouse built before them: built offline per answer
    artifacts = (
        {a.answer_id: a for a in store.read_records("answer_artifacts", part.domain, part.cutoff_key, AnswerArtifacts)}
        if store.exists("answer_artifacts", part.domain, part.cutoff_key)
        else {}
    )
    # ACE's stage one was done by the release (checklists stored with it): stage two scores against them
    checklists = (
        {c.task_id: c for c in store.read_records("ace_checklists", part.domain, part.cutoff_key, Checklist)}
        if store.exists("ace_checklists", part.domain, part.cutoff_key)
        else {}
    )
    client = judge_llm.client()
    settings = JudgeSettings(
        protocol=config.protocol,
        repeats=config.repeats,
        temperature=config.temperature,
        workers=config.workers,
        pairwise=config.pairwise,
        pairwise_max_tasks=config.pairwise_max_tasks,
        agreement_sample=config.agreement_sample,
    )
    before = client.snapshot()
    judged: list = []
    scores, failures = score_answers(
        answers,
        tasks,
        golds,
        embeddings.embedder().encode,
        kb.dates(),
        cutoff=part.cutoff,
        judge_client=client,
        kb_get=kb.get,
        settings=settings,
        judged_out=judged,
        artifacts=artifacts,
        checklists=checklists,
    )
    per_answer = client.usage_since(before)
    comparisons, pair_failures, pair_ledger = pairwise_comparisons(
        answers, scores, tasks, golds, judge_client=client, settings=settings
    )
    failures += pair_failures
    meta: dict = {}
    if settings.agreement_sample > 0 and not client.offline:
        sample = sorted(
            (a for a in answers if any(j.score.answer_id == a.answer_id and j.fact for j in judged)), key=lambda a: a.answer_id
        )[: settings.agreement_sample]
        ref, ref_ledger, ref_failures = reference_fact(sample, tasks, golds, client)
        failures += ref_failures
        agreement = fact_agreement({j.score.answer_id: j.fact for j in judged if j.fact}, ref)
        agreement["reference_calls_per_answer"] = round(ref_ledger.calls / max(1, len(ref)), 2)
        meta["fact_agreement_with_per_claim"] = dg.MetadataValue.json(agreement)

    path = store.write_records("judge_scores", part.domain, part.cutoff_key, scores, Score)
    pair_path = store.write_records("judge_pairwise", part.domain, part.cutoff_key, comparisons, PairwiseComparison)
    write_failures(store, "judge_scores", part, failures)
    ftas = [s.fta for s in scores if s.fta is not None]
    calls = [s.judge_calls for s in scores]
    chars = [s.judge_prompt_chars for s in scores]
    online = not client.offline
    meta.update(
        {
            "rows": len(scores),
            "failures": len(failures),
            "mean_fta": _mean(ftas),
            "mean_fact": _mean([s.fact for s in scores if s.fact is not None]),
            "mean_trace": _mean([s.trace for s in scores if s.trace is not None]),
            "mean_pers": _mean([s.pers for s in scores if s.pers is not None]),
            "mean_attribution": _mean([s.values["attribution"] for s in scores if s.values.get("attribution") is not None]),
            "judge_model": client.model or "none (LLM-only metrics are null)",
            # the versions the written rows carry; offline no judge prompt is used at all
            "prompt_version": ", ".join(
                sorted(
                    {s.prompt_version for s in scores if s.prompt_version}
                    | {c.prompt_version for c in comparisons if c.prompt_version}
                )
            )
            or "no judge prompt (offline: FTA and trace linkage need no model)",
            "prompt_versions": dg.MetadataValue.json(PROMPT_VERSIONS),
            "protocol": settings.protocol,
            "repeats": settings.repeats if online else 0,
            "judge_calls_per_answer": _mean(calls) if online else 0.0,
            "judge_calls_per_answer_max": max(calls) if calls else 0,
            "judge_prompt_chars_per_answer": _mean(chars) if online else 0.0,
            "judge_prompt_chars_per_answer_max": max(chars) if chars else 0,
            "cost_target": f"<= {COST_TARGET['calls']} calls and <= {COST_TARGET['prompt_chars']:,} prompt chars per answer",
            "cost_target_met": (
                max(calls, default=0) <= COST_TARGET["calls"] and max(chars, default=0) <= COST_TARGET["prompt_chars"]
            ),
            **per_answer.as_metadata(),
            "pairwise_comparisons": len(comparisons),
            "pairwise_llm_calls": pair_ledger.calls,
            "path": dg.MetadataValue.path(path),
            "pairwise_path": dg.MetadataValue.path(pair_path),
        }
    )
    return dg.MaterializeResult(metadata=meta)

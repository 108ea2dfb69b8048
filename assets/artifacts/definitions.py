"""Answer artifacts asset (Xcientist): evidence tuples, chain validations and claim drift
for every stored answer, between `agent_answers` and `judge_scores`."""

from collections import Counter

import dagster as dg

from assets.artifacts.logic import build_all
from assets.artifacts.tuples import sources_from_view
from assets.knowledge_base.definitions import open_view
from assets.partitions import DOMAIN_CUTOFF_PARTITIONS
from assets.stage import current_partition, md_table, write_failures
from core.records import Answer, AnswerArtifacts, ChainValidation, ClaimDrift, EvidenceTuple, Task
from resources.embeddings import EmbeddingResource
from resources.lance import LanceResource
from resources.llm import LLMResource
from resources.storage import StorageResource


class ArtifactsConfig(dg.Config):
    workers: int = 4  # answers audited concurrently with a judge model


@dg.asset(
    partitions_def=DOMAIN_CUTOFF_PARTITIONS,
    group_name="evaluation",
    kinds={"parquet", "python"},
    deps=["agent_answers", "task_ranking", "knowledge_base"],
    pool="llm",
)
def answer_artifacts(
    context: dg.AssetExecutionContext,
    config: ArtifactsConfig,
    storage: StorageResource,
    lance: LanceResource,
    embeddings: EmbeddingResource,
    judge_llm: LLMResource,
) -> dg.MaterializeResult:
    """One row per answer: its evidence as (keywords, summary, insight, verbatim quote, paper id)
    tuples with each quote verified against the paper's pre-cutoff KB text, the pass / partial /
    blocked verdicts of its chain evidence -> mechanism -> decision -> claim per final claim,
    its claim drifts (semantic, experimental, mechanistic) and attribution completeness.
    Offline rules by default; with a judge model (FORESCI_JUDGE_MODEL) one call per answer,
    its quotes still verified mechanically. Side tables `evidence_tuples`, `chain_validations`,
    `claim_drift` (one row per tuple / verdict / drift); DuckDB views of the same names
    (docs/xcientist.md)."""
    part = current_partition(context)
    store = storage.store()
    d, c = part.domain, part.cutoff_key
    answers = store.read_records("agent_answers", d, c, Answer)
    tasks = store.read_records("presented_tasks", d, c, Task)  # answers were given to the tasks as presented
    view = open_view(part, lance, embeddings)
    client = judge_llm.client()
    judge = None if client.offline else client
    before = client.snapshot()
    artifacts, failures = build_all(answers, tasks, sources_from_view(view), judge, workers=config.workers)
    path = store.write_records("answer_artifacts", d, c, artifacts, AnswerArtifacts)
    store.write_records("evidence_tuples", d, c, [t for a in artifacts for t in a.tuples], EvidenceTuple)
    store.write_records("chain_validations", d, c, [v for a in artifacts for v in a.validations], ChainValidation)
    store.write_records("claim_drift", d, c, [x for a in artifacts for x in a.drifts], ClaimDrift)
    write_failures(store, "answer_artifacts", part, failures)
    tuples = [t for a in artifacts for t in a.tuples]
    chains = Counter(v.outcome for a in artifacts for v in a.validations if v.stage == "chain")
    drifts = Counter(x.kind for a in artifacts for x in a.drifts)
    by_method: dict[str, list[float]] = {}
    for a in artifacts:
        by_method.setdefault(a.method, []).append(a.attribution_completeness)
    return dg.MaterializeResult(
        metadata={
            "rows": len(artifacts),
            "failures": len(failures),
            "evidence_tuples": len(tuples),
            "quotes_verified": sum(t.quote_status == "verified" for t in tuples),
            "quote_status": dg.MetadataValue.json(dict(Counter(t.quote_status for t in tuples))),
            "claim_chains": dg.MetadataValue.json(dict(chains)),
            "claim_drift": dg.MetadataValue.json({k: drifts.get(k, 0) for k in ("semantic", "experimental", "mechanistic")}),
            "attribution_by_method": md_table(
                [
                    {"method": m, "answers": len(v), "attribution": round(sum(v) / len(v), 3)}
                    for m, v in sorted(by_method.items())
                ],
                ["method", "answers", "attribution"],
                limit=30,
            ),
            "validator": client.model or "offline rules (docs/xcientist.md)",
            **client.usage_since(before).as_metadata(),
            "path": dg.MetadataValue.path(path),
        }
    )

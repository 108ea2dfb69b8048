"""Release package asset: the versioned, immutable, reproducible release of one partition."""

import dagster as dg
import pyarrow as pa

from assets.arena.ace import Checklist, checklist_row
from assets.audit.logic import content_hash
from assets.audit.policy import curate
from assets.evidence.venues import listed_by
from assets.gold.contamination import ProbeResult, flagged_messages, run_probe
from assets.gold.definitions import template_vocabulary
from assets.partitions import DOMAIN_CUTOFF_PARTITIONS
from assets.release.logic import (
    kb_manifest_row,
    publish_release,
    release_files,
    release_id,
    sha256,
    validate_release,
)
from assets.scorers.ace import release_checklists
from assets.stage import current_partition, write_failures
from core.leakage import LeakageError, future_only_terms
from core.records import GoldTarget, ScreenedPaper, Task, TaskRating
from resources.decisions import DecisionStore
from resources.llm import LLMResource
from resources.storage import StorageResource


def reviewed(store, d: str, c: str, tasks: list[Task], golds: list[GoldTarget], ratings: list[TaskRating]):
    """The release policy's inputs: revised tasks, approved ids, counts, and the audit texts
    (notes, reviewer names) the public files are checked against."""
    gold_of = {g.task_id: g for g in golds}
    decisions = DecisionStore.for_store(store)
    current = decisions.current(d, c, {t.task_id: content_hash(t, gold_of.get(t.task_id)) for t in tasks})
    revised, approved, counts = curate(tasks, ratings, current)
    history = decisions.history(d, c)
    audit_texts = {"notes": [h.note for h in history], "reviewers": [h.reviewer for h in history]}
    return revised, approved, counts, audit_texts


class ReleaseConfig(dg.Config):
    release_name: str = ""  # e.g. "v1.0"; empty: the content hash names the release
    contamination_probe: bool = True  # run the prefix-continuation probe when a model is configured
    probe_threshold: float = 0.7
    # curation (docs/curation.md): release only the ranking's tasks that reviewers approved,
    # with their revisions; off for the offline demo, on for publishing
    require_approval: bool = False


@dg.asset(
    partitions_def=DOMAIN_CUTOFF_PARTITIONS,
    group_name="release",
    kinds={"json", "parquet"},
    deps=["task_ranking", "knowledge_base", "corpus_snapshot", "taxonomy", "future_window"],
)
def release_package(
    context: dg.AssetExecutionContext, config: ReleaseConfig, storage: StorageResource, llm: LLMResource
) -> dg.MaterializeResult:
    """The partition's release: public `tasks.jsonl`, `kb_manifest.jsonl` and `manifest.json`
    (counts by family, domain and horizon, cutoffs, corpus and taxonomy versions, hashes)
    and the hidden `gold.jsonl`, written once per version under
    public|hidden/_artifacts/releases/.../<version>/ (immutable) and as the partition's
    latest under public|hidden/_artifacts/release/. Byte-identical when rebuilt from the
    same inputs. Fails if the public files leak gold, post-cutoff terms or another task's
    answer, or if a configured model reproduces a task (contamination probe)."""
    part = current_partition(context)
    store = storage.store()
    d, c = part.domain, part.cutoff_key
    kb = store.read_table("knowledge_base", d, c)
    kb_rows = [kb_manifest_row(r) for r in kb.to_pylist()]
    corpus = store.read_records("corpus_snapshot", d, c, ScreenedPaper)
    taxonomy_ids = store.read_table("taxonomy", d, c).column("node_id").to_pylist()
    ratings = store.read_records("task_ranking", d, c, TaskRating)
    # the release publishes the tasks (and hides the golds) in the presentation order
    tasks = store.read_records("presented_tasks", d, c, Task)  # the presented release (task_ranking)
    golds = store.read_records("presented_golds", d, c, GoldTarget)
    approved, curation, audit_texts = None, None, {}
    if config.require_approval:
        tasks, approved, curation, audit_texts = reviewed(store, d, c, tasks, golds, ratings)
    # ACE stage one (DeepResearch Arena): each released task's checklist, from its public prompt only,
    # made before any answer exists and stored with the release (checklists.jsonl, table ace_checklists).
    # The paper writes checklists with one model and scores with a separate one: stage one uses this
    # asset's model (`llm`), stage two the judge model (`judge_llm`, judge_scores)
    released_now = {r.task_id for r in ratings if r.released} & (
        approved if approved is not None else {r.task_id for r in ratings}
    )
    checklists = release_checklists([t for t in tasks if t.task_id in released_now], llm.client())
    store.write_records("ace_checklists", d, c, checklists, Checklist)
    public, hidden, manifest = release_files(
        tasks,
        ratings,
        golds,
        kb_rows,
        domain=d,
        cutoff=c,
        window_end=str(part.window_end),
        horizon_months=part.horizon_months,
        corpus_version=sha256("\n".join(p.arxiv_id for p in corpus).encode())[:16],
        taxonomy_version=sha256("\n".join(taxonomy_ids).encode())[:16],
        window_start=str(part.window_start),
        release_name=config.release_name,
        approved=approved,
        curation=curation,
        checklists=[checklist_row(x) for x in checklists],
    )
    future = store.read_records("future_window", d, c, ScreenedPaper)

    novel = future_only_terms(  # accepted-paper lists decided by the cutoff are pre-cutoff text (venue options)
        [f"{p.title} {p.abstract}" for p in corpus] + listed_by(part.cutoff),
        [p.title for p in future],
        allowed=template_vocabulary(),
    )
    problems = validate_release(public, golds, novel_terms=novel, audit_texts=audit_texts)
    client = llm.client()
    before = client.snapshot()
    probe: list[ProbeResult] = []
    if config.contamination_probe and not client.offline:
        released = {r.task_id for r in ratings if r.released} & (
            approved if approved is not None else {r.task_id for r in ratings}
        )
        probe, probe_failures = run_probe([t for t in tasks if t.task_id in released], client, threshold=config.probe_threshold)
        store.write_records("contamination_probe", d, c, probe, ProbeResult)
        write_failures(store, "contamination_probe", part, probe_failures)
        problems += flagged_messages(probe)
    if problems:
        raise LeakageError(f"release of {d} @ {c} refused, {len(problems)} violation(s):\n" + "\n".join(problems))
    version = release_id(manifest)
    versioned = publish_release(store, d, c, version, public, hidden)
    paths = {name: store.write_bytes(store.artifact_path("release", d, c, name), data) for name, data in public.items()}
    for name, data in hidden.items():
        store.write_bytes(store.artifact_path("release", d, c, name), data)
    store.write_table(
        "release_package",
        d,
        c,
        pa.table(
            {
                "release_version": [manifest["release_version"]],
                "release_id": [version],
                "tasks": [manifest["counts"]["tasks"]],
                "manifest_json": [public["manifest.json"].decode()],
                "empty_reason": pa.array([manifest.get("empty_reason")], pa.string()),
            }
        ),
    )
    if "empty_reason" in manifest:
        context.log.warning(f"empty release of {d} @ {c}: {manifest['empty_reason']}")
    return dg.MaterializeResult(
        metadata={
            "empty_reason": manifest.get("empty_reason", ""),
            "release_version": manifest["release_version"],
            "release_id": version,
            "tasks": manifest["counts"]["tasks"],
            "by_family": dg.MetadataValue.json(manifest["counts"]["by_family"]),
            "by_horizon": dg.MetadataValue.json(manifest["counts"]["by_horizon"]),
            "curation": dg.MetadataValue.json(curation or {"policy": "ranking only (require_approval off)"}),
            "leakage_check": "passed",
            "contamination_probe": len(probe) if probe else "not run (no model)",
            "tasks_jsonl": dg.MetadataValue.path(paths["tasks.jsonl"]),
            "manifest": dg.MetadataValue.path(paths["manifest.json"]),
            "versioned_dir": dg.MetadataValue.path(versioned["manifest.json"].rsplit("/", 1)[0]),
            **client.usage_since(before).as_metadata(),
        }
    )

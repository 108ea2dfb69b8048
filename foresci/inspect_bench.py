"""A foresci release, as Inspect AI sees it: the public HF export, the private gold, the KB
(or a release in the ForeSci authors' format, imported as `foresci evaluate` does: `ImportedRelease`).

No Inspect import here (tasks.py is the Inspect glue): this module loads an exported
release (assets/export/hf.py: one or several partitions with a `test` split, or a whole
multi-cutoff release with a split per cutoff; every split is read) and its private gold, rebuilds each partition's
cutoff-bound knowledge base from the export's `kb` config (the same ids, titles,
abstracts and dates give the same hits as the original, tests/assets/export/test_export_hf.py),
turns a model's reply into a foresci `Answer` through the bring-your-own-agent contract
(`response_to_answer`: family schema, the task's own option ids, only citations the KB
tool returned to this sample), and scores it with foresci's scorer registry
(`assets.judging.scoring.score_answers`), exactly as the judge_scores asset does.
"""

from __future__ import annotations

import json
import re
import threading
from datetime import date
from functools import cached_property
from pathlib import Path

from pydantic import ValidationError

from assets.agents.external import response_to_answer
from assets.agents.kbtool import TracedKB
from assets.agents.llm_methods import SYSTEM_PROMPT, task_prompt
from assets.export.hf import (
    KB_CONFIG,
    config_rows,
    default_private_dir,
    export_families,
    kb_papers,
    read_export_tasks,
    read_private_golds,
)
from assets.judging.scoring import score_answers
from assets.knowledge_base.logic import KnowledgeBaseView, build_kb, table_name
from assets.scorers.registry import reported_values
from assets.validity.controls import _render as render_fields
from core.records import Answer, GoldTarget, Score, Task

TOOL_INSTRUCTIONS = (
    "\n\nYou have two tools over the knowledge base of papers published on or before the cutoff: "
    "kb_search(query, k, mode) and kb_get(arxiv_id). Cite in cited_ids only arXiv ids these tools returned. "
    "When done, reply with the single JSON object and nothing else."
)
METHOD = "inspect"


def messages(task: Task) -> tuple[str, str]:
    """(system, user) prompts: foresci's LLM agents' prompt plus the tool instructions."""
    system = SYSTEM_PROMPT.format(
        cutoff=task.cutoff.isoformat(), window=f"{task.window_start.isoformat()} to {task.window_end.isoformat()}"
    )
    return system, task_prompt(task) + TOOL_INSTRUCTIONS


_FENCE = re.compile(r"```(?:json)?\s*(.*?)```", re.S)


def parse_reply(text: str) -> dict | None:
    """The JSON object of a model's reply (bare, fenced, or the outermost {...}); None if none."""
    candidates = [m.group(1) for m in _FENCE.finditer(text or "")] + [text or ""]
    start, end = (text or "").find("{"), (text or "").rfind("}")
    if 0 <= start < end:
        candidates.append(text[start : end + 1])
    for candidate in candidates:
        try:
            value = json.loads(candidate.strip())
        except ValueError:
            continue
        if isinstance(value, dict):
            return value
    return None


class ExportedRelease:
    """An exported release (public folder) with its private gold folder and a KB cache folder."""

    def __init__(self, release: str | Path, gold: str | Path | None = None, kb_dir: str | Path | None = None):
        self.release = Path(release)
        if not (self.release / "README.md").exists():
            raise FileNotFoundError(
                f"{self.release} is not a foresci HF export (no README.md); write one with `foresci export hf`"
            )
        self.gold_dir = Path(gold) if gold else default_private_dir(self.release)
        self.kb_dir = Path(kb_dir) if kb_dir else self.release.parent / f"{self.release.name}-kb"
        self._views: dict[tuple[str, str], KnowledgeBaseView] = {}
        self._lock = threading.Lock()

    @cached_property
    def families(self) -> list[str]:
        return export_families(self.release)

    @cached_property
    def cutoffs(self) -> list[str]:
        """Every cutoff of the export (a release export has a split per cutoff)."""
        return sorted({r["cutoff"] for r in self._kb_rows})

    def tasks(self, family: str, domain: str = "", cutoff: str = "") -> list[Task]:
        """The family's public tasks over every split (every cutoff of a release export), or those
        of `domain` / `cutoff` (comma-separated for several)."""
        if family not in self.families:
            raise ValueError(f"family {family!r} is not in {self.release} (configs: {self.families})")
        wanted = {c.strip() for c in cutoff.split(",") if c.strip()}
        unknown = wanted - set(self.cutoffs)
        if unknown:
            raise ValueError(f"cutoff(s) {sorted(unknown)} not in {self.release} (cutoffs: {self.cutoffs})")
        return [
            t
            for t in read_export_tasks(self.release, family)
            if (not domain or t.domain == domain) and (not wanted or t.cutoff.isoformat() in wanted)
        ]

    def golds(self, family: str) -> dict[str, GoldTarget]:
        return {g.task_id: g for g in read_private_golds(self.gold_dir, family)}

    @cached_property
    def embed(self):
        from resources.embeddings import EmbeddingResource

        return EmbeddingResource().embedder().encode

    @cached_property
    def _kb_rows(self) -> list[dict]:
        return config_rows(self.release, KB_CONFIG)

    def view(self, domain: str, cutoff: str) -> KnowledgeBaseView:
        """The partition's KB, rebuilt from the export once (LanceDB under kb_dir), bound to its cutoff."""
        with self._lock:
            if (domain, cutoff) not in self._views:
                import lancedb

                papers = kb_papers(self._kb_rows, domain, cutoff)
                table, _ = build_kb(
                    lancedb.connect(self.kb_dir), table_name(domain, cutoff), papers, self.embed, with_chunks=False
                )
                self._views[(domain, cutoff)] = KnowledgeBaseView(table, date.fromisoformat(cutoff), self.embed)
            return self._views[(domain, cutoff)]

    def task_view(self, task: Task) -> KnowledgeBaseView:
        """The view for one task: its partition's KB, bound to the task's own cutoff (never later)."""
        partition = self.view(task.domain, task.cutoff.isoformat())
        return partition.bound_to(task.cutoff)


class ImportedRelease:
    """A release in the ForeSci authors' format (their tasks.jsonl and hidden evaluation
    JSONL), as Inspect sees it: the same import as `foresci evaluate`
    (assets/release/importer.py, never rebuilding the tasks, then the presentation balancing
    of `present_import`), each (domain, cutoff)'s knowledge base built from the shipped
    corpus as `foresci evaluate` builds it (`assets.release.evaluate.cutoff_kb`, LanceDB under
    kb_dir, default $FORESCI_HOME/evaluate/inspect-kb), and the same scorers. The same
    interface as `ExportedRelease`.

    The hidden file is required (without it nothing can be scored). A task the hidden file
    gives no gold is left out of the samples and listed in `missing_gold` (`foresci
    evaluate` exits 3 on it)."""

    def __init__(self, tasks_path: str | Path, hidden: str | Path | None = None, kb_dir: str | Path | None = None):
        from assets.release.evaluate import present_import
        from assets.release.importer import MissingGoldError, import_release
        from core.paths import state_dir

        self.release = Path(tasks_path)
        if not hidden:
            raise MissingGoldError(
                f"{self.release}: an imported release needs its hidden evaluation file: -T hidden=<tasks_hidden_eval.jsonl>"
            )
        self.gold_dir = Path(hidden)  # the hidden file (named like ExportedRelease's private folder)
        self.kb_dir = Path(kb_dir) if kb_dir else state_dir() / "evaluate" / "inspect-kb"  # not beside their files
        self.result = import_release(self.release, self.gold_dir)
        presented = present_import(self.result, source=self.release.parent.name)
        self._golds = {g.task_id: g for g in presented.golds}
        self._tasks = [t for t in presented.tasks if t.task_id in self._golds]
        self.missing_gold = sorted(set(self.result.missing_gold))
        self._views: dict[tuple[str, str], KnowledgeBaseView] = {}
        self._lock = threading.Lock()

    @cached_property
    def families(self) -> list[str]:
        return sorted({t.family for t in self._tasks})

    @cached_property
    def cutoffs(self) -> list[str]:
        return sorted({t.cutoff.isoformat() for t in self._tasks})

    def tasks(self, family: str, domain: str = "", cutoff: str = "") -> list[Task]:
        if family not in self.families:
            raise ValueError(f"family {family!r} is not in {self.release} (families: {self.families})")
        wanted = {c.strip() for c in cutoff.split(",") if c.strip()}
        unknown = wanted - set(self.cutoffs)
        if unknown:
            raise ValueError(f"cutoff(s) {sorted(unknown)} not in {self.release} (cutoffs: {self.cutoffs})")
        return [
            t
            for t in self._tasks
            if t.family == family and (not domain or t.domain == domain) and (not wanted or t.cutoff.isoformat() in wanted)
        ]

    def golds(self, family: str) -> dict[str, GoldTarget]:
        return {tid: g for tid, g in self._golds.items() if g.family == family}

    @cached_property
    def embed(self):
        from resources.embeddings import load_embedder

        return load_embedder().encode

    def view(self, domain: str, cutoff: str) -> KnowledgeBaseView:
        """The (domain, cutoff)'s KB from the shipped corpus up to the cutoff, built once."""
        from assets.release import evaluate

        with self._lock:
            if (domain, cutoff) not in self._views:
                self.kb_dir.mkdir(parents=True, exist_ok=True)
                self._views[(domain, cutoff)] = evaluate.cutoff_kb(domain, date.fromisoformat(cutoff), self.embed, self.kb_dir)
            return self._views[(domain, cutoff)]

    def task_view(self, task: Task) -> KnowledgeBaseView:
        return self.view(task.domain, task.cutoff.isoformat()).bound_to(task.cutoff)


def open_release(
    release: str | Path, gold: str | Path | None = None, kb_dir: str | Path | None = None, hidden: str | Path | None = None
) -> ExportedRelease | ImportedRelease:
    """`release` a folder written by `foresci export hf` -> ExportedRelease (gold: its private
    folder); a JSONL file in the ForeSci authors' format -> ImportedRelease (hidden, or gold:
    their hidden evaluation file)."""
    path = Path(release)
    if path.is_file() or path.suffix == ".jsonl":
        return ImportedRelease(path, hidden or gold or None, kb_dir or None)
    return ExportedRelease(path, gold or None, kb_dir or None)


def traced_with(view: KnowledgeBaseView, returned_ids: list[str]) -> TracedKB:
    """A TracedKB that has returned exactly `returned_ids` (what the sample's tools returned),
    re-fetched through the cutoff-bound view: the renderer keeps only those citations."""
    traced = TracedKB(view)
    for arxiv_id in dict.fromkeys(returned_ids):
        traced.get(arxiv_id)
    return traced


def answer_from_reply(
    task: Task, reply: str, view: KnowledgeBaseView, returned_ids: list[str], *, backbone: str, queries: list[str] = ()
) -> Answer:
    """The model's reply as a foresci Answer, through the bring-your-own-agent contract. A reply
    with no JSON object, or one the family schema rejects, is scored as foresci's empty control
    answer (it commits to nothing), with `error` saying why."""
    parsed = parse_reply(reply)
    traced = traced_with(view, returned_ids)
    if parsed is not None:
        try:
            raw = {"answer": parsed, "backbone": backbone, "retrieval_queries": list(queries)}
            return response_to_answer(task, raw, traced, method=METHOD, seed=0)
        except (ValidationError, ValueError, TypeError) as exc:
            error = f"reply rejected by the {task.family} answer schema: {exc}"[:500]
    else:
        error = "no JSON object in the reply"
    empty = render_fields(task, {}, METHOD)
    return empty.model_copy(update={"backbone": backbone, "error": error, "text": (reply or "")[:2000]})


def score(answer: Answer, task: Task, gold: GoldTarget, view: KnowledgeBaseView, embed) -> Score:
    """foresci's scores of one answer (the scorer registry, offline: no judge model)."""
    scores, failures = score_answers([answer], [task], [gold], embed, view.dates(), cutoff=task.cutoff, kb_get=view.get)
    if not scores:
        raise RuntimeError(f"{task.task_id}: not scored: {[f.reason for f in failures]}")
    return scores[0]


def score_values(s: Score) -> dict[str, float]:
    """The non-null reported metrics of a Score (model-graded ones are null offline, and left out)."""
    out = {name: s.value(name) for name in reported_values()}
    out.update(s.values)
    return {k: float(v) for k, v in out.items() if v is not None}

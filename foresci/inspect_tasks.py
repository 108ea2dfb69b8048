"""Inspect AI tasks for a foresci release: one @task per family.

    inspect eval foresci/direction -T release=out/foresci-release --model openai/gpt-4o-mini
    inspect eval foresci/inspect_tasks.py@venue -T release=out/foresci-release --model mockllm/model

`release` is a folder written by `foresci export hf` (the public dataset; `--release`: the
whole release, a split per cutoff, and every cutoff is in the task); `gold` is its
private gold folder (default `<release>-private`); `kb_dir` caches the KB rebuilt from the
export (default `<release>-kb`); `domain` / `cutoff` select part of a multi-partition
export (`cutoff` may list several, comma-separated).

A release in the ForeSci authors' format runs the same way, imported as `foresci evaluate`
imports it (foresci/inspect_bench.py `ImportedRelease`: their tasks never rebuilt, the
presentation balancing of native releases, each cutoff's KB built from the shipped corpus,
the same scorers):

    inspect eval foresci/planning -T release=path/to/tasks.jsonl -T hidden=path/to/tasks_hidden_eval.jsonl \
        [-T kb_dir=...] --model openai/gpt-4o-mini

Each sample is one public task, its
domain and cutoff in its metadata (its prompt is foresci's LLM-agent
prompt); the model gets two tools over the task's cutoff-bound knowledge base, `kb_search`
and `kb_get` (foresci's `KBTool` over a `TracedKB` over the KB of the sample's own
partition, domain x cutoff: the view applies the cutoff inside every query and re-checks
every row, so a sample of an earlier cutoff never sees a later cutoff's papers); the scorer turns the reply into a foresci Answer
(family schema, only citations the tools returned) and scores it with foresci's scorer
registry against the hidden gold. The gold never enters a sample: the scorer reads it
from the private folder. Score values are the non-null foresci metrics: no judge model is
passed to the scorers yet, so FTA and Trace linkage (Fact, Persuasiveness and the full
Trace stay null and are left out); the full foresci Score and Answer are in each score's
metadata.
"""

from __future__ import annotations

import json
import os

os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")


def _offline_tiktoken() -> None:
    """Inspect counts tokens with tiktoken's o200k_base (mockllm does for every reply), which
    tiktoken downloads on first use. litellm (a foresci dependency) ships that very file under
    its cache name (sha1 of the URL) in litellm_core_utils/tokenizers: point tiktoken's cache
    there so an offline machine never tries the network."""
    import importlib.util
    from pathlib import Path

    spec = importlib.util.find_spec("litellm")
    if spec is not None and spec.origin:
        folder = Path(spec.origin).parent / "litellm_core_utils" / "tokenizers"
        if folder.is_dir():
            os.environ.setdefault("TIKTOKEN_CACHE_DIR", str(folder))


_offline_tiktoken()

from inspect_ai import Task as InspectTask
from inspect_ai import task
from inspect_ai.dataset import MemoryDataset, Sample
from inspect_ai.model import ChatMessageSystem, ChatMessageUser
from inspect_ai.scorer import Score as InspectScore
from inspect_ai.scorer import Target, mean, scorer, stderr
from inspect_ai.solver import Generate, TaskState, generate, solver, use_tools
from inspect_ai.tool import ToolError, tool
from inspect_ai.util import store

from assets.agents.kbtool import KBTool, TracedKB
from assets.export.hf import cutoff_split
from core.records import Task
from foresci.inspect_bench import (
    ExportedRelease,
    ImportedRelease,
    answer_from_reply,
    messages,
    open_release,
    score,
    score_values,
)

_RELEASES: dict[tuple[str, str, str, str], ExportedRelease | ImportedRelease] = {}


def load_release(release: str, gold: str = "", kb_dir: str = "", hidden: str = "") -> ExportedRelease | ImportedRelease:
    """One release per (release, gold, kb_dir, hidden) per process: the family tasks share its
    KBs (and an imported release its import)."""
    key = (str(release), str(gold), str(kb_dir), str(hidden))
    if key not in _RELEASES:
        _RELEASES[key] = open_release(release, gold or None, kb_dir or None, hidden or None)
    return _RELEASES[key]


def sample_task() -> Task:
    return Task.model_validate(store().get("foresci_task"))


def _kb(bench: ExportedRelease) -> tuple[KBTool, TracedKB]:
    traced = TracedKB(bench.task_view(sample_task()))
    return KBTool(traced), traced


def _remember(traced: TracedKB) -> None:
    st = store()
    st.set("kb_calls", [*st.get("kb_calls", []), *traced.trace()])


@tool(name="kb_search")
def kb_search(bench: ExportedRelease):
    async def execute(query: str, k: int = 10, mode: str = "hybrid") -> str:
        """Search the knowledge base: papers published on or before the task's cutoff.

        Args:
            query: Words describing the papers to find.
            k: How many papers to return (1 to 50).
            mode: "hybrid" (default), "dense" or "text".

        Returns:
            A JSON list of papers: arxiv_id, title, published, snippet, score.
        """
        kb, traced = _kb(bench)
        try:
            hits = kb.search(query, k=k, mode=mode)
        except ValueError as exc:
            raise ToolError(str(exc)) from exc
        _remember(traced)
        return json.dumps(hits)

    return execute


@tool(name="kb_get")
def kb_get(bench: ExportedRelease):
    async def execute(arxiv_id: str) -> str:
        """One paper of the knowledge base by arXiv id (null if it is not there or is dated after the cutoff).

        Args:
            arxiv_id: The paper's arXiv id, e.g. 2501.01234.

        Returns:
            The paper as JSON (arxiv_id, title, published, snippet, score), or null.
        """
        kb, traced = _kb(bench)
        hit = kb.get(arxiv_id)
        _remember(traced)
        return json.dumps(hit)

    return execute


@solver
def bind_task():
    """Put the sample's public task in the sample store: the KB tools bind to its cutoff."""

    async def solve(state: TaskState, generate: Generate) -> TaskState:
        store().set("foresci_task", state.metadata["task"])
        return state

    return solve


@scorer(metrics={"*": [mean(), stderr()]})
def foresci_scorer(bench: ExportedRelease, family: str):
    golds = bench.golds(family)

    async def score_sample(state: TaskState, target: Target) -> InspectScore:
        public = Task.model_validate(state.metadata["task"])
        gold = golds.get(public.task_id)
        if gold is None:
            raise ValueError(f"no gold for {public.task_id} in {bench.gold_dir}: pass -T gold=<private folder>")
        view = bench.task_view(public)
        calls = store().get("kb_calls", [])
        returned = [i for c in calls for i in c["ids"]]
        queries = [c["query"] for c in calls if c["op"] == "search"]
        answer = answer_from_reply(public, state.output.completion, view, returned, backbone=str(state.model), queries=queries)
        result = score(answer, public, gold, view, bench.embed)
        return InspectScore(
            value=score_values(result),
            answer=answer.choice or ", ".join(answer.ranking) or answer.text[:200],
            explanation=result.note or answer.error,
            metadata={"foresci_score": result.model_dump(mode="json"), "foresci_answer": answer.model_dump(mode="json")},
        )

    return score_sample


def foresci_task(
    family: str,
    release: str,
    gold: str = "",
    kb_dir: str = "",
    domain: str = "",
    cutoff: str = "",
    max_messages: int = 20,
    hidden: str = "",
) -> InspectTask:
    bench = load_release(release, gold, kb_dir, hidden)
    samples = []
    for t in bench.tasks(family, domain, cutoff):
        system, user = messages(t)
        samples.append(
            Sample(
                input=[ChatMessageSystem(content=system), ChatMessageUser(content=user)],
                id=t.task_id,
                metadata={
                    "task": t.model_dump(mode="json"),
                    "family": family,
                    "domain": t.domain,
                    "cutoff": t.cutoff.isoformat(),
                    "split": cutoff_split(t.cutoff.isoformat()),
                },
            )
        )
    return InspectTask(
        dataset=MemoryDataset(samples, name=f"foresci-{family}"),
        solver=[bind_task(), use_tools(kb_search(bench), kb_get(bench)), generate()],
        scorer=foresci_scorer(bench, family),
        message_limit=max_messages,
        metadata={
            "family": family,
            "release": str(release),
            "cutoffs": sorted({s.metadata["cutoff"] for s in samples}),
            **({"imported": True, "missing_gold": bench.missing_gold} if isinstance(bench, ImportedRelease) else {}),
        },
    )


@task
def direction(
    release: str, gold: str = "", kb_dir: str = "", domain: str = "", cutoff: str = "", hidden: str = ""
) -> InspectTask:
    """Direction Forecasting: choose the candidate most likely to gain momentum, with a trajectory."""
    return foresci_task("direction", release, gold, kb_dir, domain, cutoff, hidden=hidden)


@task
def bottleneck(
    release: str, gold: str = "", kb_dir: str = "", domain: str = "", cutoff: str = "", hidden: str = ""
) -> InspectTask:
    """Bottleneck-Opportunity Discovery."""
    return foresci_task("bottleneck", release, gold, kb_dir, domain, cutoff, hidden=hidden)


@task
def planning(release: str, gold: str = "", kb_dir: str = "", domain: str = "", cutoff: str = "", hidden: str = "") -> InspectTask:
    """Strategic Research Planning: rank candidate directions."""
    return foresci_task("planning", release, gold, kb_dir, domain, cutoff, hidden=hidden)


@task
def venue(release: str, gold: str = "", kb_dir: str = "", domain: str = "", cutoff: str = "", hidden: str = "") -> InspectTask:
    """Venue-Conditioned Positioning: rank venue families."""
    return foresci_task("venue", release, gold, kb_dir, domain, cutoff, hidden=hidden)


@task
def phase(release: str, gold: str = "", kb_dir: str = "", domain: str = "", cutoff: str = "", hidden: str = "") -> InspectTask:
    """DeepResearch Arena phase tasks (synthesize / design / evaluate): an open-ended research report."""
    return foresci_task("phase", release, gold, kb_dir, domain, cutoff, hidden=hidden)


@task
def family(
    name: str, release: str, gold: str = "", kb_dir: str = "", domain: str = "", cutoff: str = "", hidden: str = ""
) -> InspectTask:
    """Any registered family present in the export (e.g. an opt-in one): -T name=<family>."""
    return foresci_task(name, release, gold, kb_dir, domain, cutoff, hidden=hidden)

"""Run one research-agent method over a partition's public tasks.

One task's failure (a model call that ran out of retries, a malformed task, a refused
backbone, ...) never stops the run: it becomes a `Failure` row and NO answer is produced
for it — the answers table holds only real answers, and the judges/reports count a
missing answer as a failure through the Failure table. Every method sees the task and
the cutoff-bound knowledge-base view only; a view whose cutoff is later than the task's
is refused per task (it would leak the future into the answer).

Per task the runner also:

* checks the backbone against the registry (`assets.agents.backbones`): a backbone
  dated after the task cutoff, or unknown, is refused unless
  `allow_post_cutoff_backbones`, and then the answer is marked
  `backbone_postdates_cutoff`;
* hands the agent an `AgentContext` (task, a `TracedKB`, its LLM client, seed,
  backbone, settings) and stores its trace (`artifacts["kb_trace"]`: every
  query, mode, k and the ids returned) and a run record (`artifacts["run"]`: seed,
  backbone, LLM requests by purpose, real calls and cache hits);
* gives LLM methods their own fork of the client (same model, same response cache) so
  tokens, cost and latency are the task's own even when tasks run concurrently
  (`max_concurrency` threads; the Dagster `llm` pool bounds concurrent steps).
"""

from __future__ import annotations

import copy
import json
import threading
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor

from assets.agents.backbones import BackboneRegistry, default_registry
from assets.agents.context import Agent, AgentContext
from assets.agents.kbtool import TracedKB
from assets.agents.registry import all_agents, get_agent
from assets.agents.render import answer_id
from assets.families.registry import get_family
from core.records import Answer, Failure, Task

STAGE = "agent_runs"


def available_methods(llm_client=None) -> list[str]:
    """The registered agents that can run: offline ones always, model-backed ones only
    when a model is configured (registry order)."""
    online = llm_client is not None and not llm_client.offline
    return [a.name for a in all_agents() if online or not a.needs_llm]


# -- per-task LLM client forks -------------------------------------------------------------


def fork_client(client):
    """A copy of `client` with its own usage counters, sharing the model settings and the
    on-disk response cache, so one task's tokens are measurable under concurrency."""
    if hasattr(client, "_open_cache"):
        client._open_cache()  # share one cache handle instead of one per fork
    clone = copy.copy(client)
    clone.usage = type(client.usage)(model=client.usage.model)
    clone._lock = threading.Lock()
    return clone


def merge_usage(parent, child) -> None:
    """Add a fork's usage to its parent (so the asset's metadata counts every call)."""
    u = child.snapshot()
    with parent._lock:
        p = parent.usage
        p.calls += u.calls
        p.cache_hits += u.cache_hits
        p.failures += u.failures
        p.prompt_tokens += u.prompt_tokens
        p.completion_tokens += u.completion_tokens
        p.cost_usd += u.cost_usd
        p.prompt_chars += u.prompt_chars
        for k, v in u.by_purpose.items():
            p.by_purpose[k] = p.by_purpose.get(k, 0) + v


def run_record(*, seed: int, backbone: str, traced: TracedKB, usage=None, extra: dict | None = None) -> str:
    rec = {"seed": seed, "backbone": backbone, "kb_calls": len(traced.calls), "kb_cutoff": traced.cutoff.isoformat()}
    if usage is not None:
        rec["llm"] = {
            "requests": usage.by_purpose,
            "calls": usage.calls,
            "cache_hits": usage.cache_hits,
            "prompt_chars": usage.prompt_chars,
        }
    rec.update(extra or {})
    return json.dumps(rec, sort_keys=True)


def _failure(task: Task, method: str, aid: str, exc: Exception) -> Failure:
    return Failure(stage=STAGE, item_id=task.task_id, reason=f"{method}: {type(exc).__name__}: {exc}"[:1000], raw=aid)


def run_tasks(
    tasks: list[Task],
    kb,
    work: Callable,
    *,
    method: str,
    backbone: str | None,
    seed: int,
    registry: BackboneRegistry | None = None,
    allow_post_cutoff_backbones: bool = False,
    max_concurrency: int = 1,
    llm_client=None,
) -> tuple[list[Answer], list[Failure]]:
    """The shared per-task loop (built-in and external methods).

    `work(task, traced_kb, client)` returns an `Answer` (or raises). `backbone=None` means
    the backbone is declared by the answer itself (external agents): it is checked after
    the call and a refused answer is discarded into a Failure. Answers come back in
    task_id order whatever the concurrency.
    """
    registry = registry or default_registry()

    def one(task: Task):
        aid = answer_id(task.task_id, method, backbone or "external", seed)
        try:
            view = kb
            if kb.cutoff > task.cutoff and get_family(task.family).per_task_cutoff:
                view = kb.bound_to(task.cutoff)  # a family whose tasks carry their own, earlier cutoff (rediscovery)
            if view.cutoff > task.cutoff:
                raise ValueError(f"knowledge-base view cutoff {kb.cutoff} is after the task cutoff {task.cutoff}")
            postdates = (
                registry.enforce(backbone, task.cutoff, allow_post_cutoff=allow_post_cutoff_backbones)
                if backbone is not None
                else False
            )
        except Exception as exc:  # noqa: BLE001
            return None, _failure(task, method, aid, exc)
        traced = TracedKB(view)
        client = fork_client(llm_client) if llm_client is not None and not llm_client.offline else None
        start = time.perf_counter()
        try:
            answer = work(task, traced, client)
            used = backbone if backbone is not None else answer.backbone
            aid = answer_id(task.task_id, method, used, seed)
            if backbone is None:
                postdates = registry.enforce(used, task.cutoff, allow_post_cutoff=allow_post_cutoff_backbones)
        except Exception as exc:  # noqa: BLE001 - every per-task error is recorded, the run goes on
            return None, _failure(task, method, aid, exc)
        finally:
            if client is not None:
                merge_usage(llm_client, client)
        latency = round(time.perf_counter() - start, 4)
        usage = client.snapshot() if client is not None else None
        extra = json.loads(answer.artifacts.get("run", "{}"))
        artifacts = {
            **answer.artifacts,
            "kb_trace": json.dumps(traced.trace()),
            "run": run_record(seed=seed, backbone=used, traced=traced, usage=usage, extra=extra),
        }
        update = {
            "answer_id": aid,
            "backbone": used,
            "seed": seed,
            "latency_s": latency,
            "artifacts": artifacts,
            "retrieval_queries": answer.retrieval_queries or traced.queries,
            "backbone_postdates_cutoff": bool(postdates),
        }
        if usage is not None:
            update.update(prompt_tokens=usage.prompt_tokens, completion_tokens=usage.completion_tokens, cost_usd=usage.cost_usd)
        return answer.model_copy(update=update), None

    ordered = sorted(tasks, key=lambda t: t.task_id)
    if max_concurrency > 1 and len(ordered) > 1:
        with ThreadPoolExecutor(max_workers=max_concurrency, thread_name_prefix=f"agent-{method}") as pool:
            results = list(pool.map(one, ordered))
    else:
        results = [one(t) for t in ordered]
    return [a for a, _ in results if a is not None], [f for _, f in results if f is not None]


def run_method(
    method: str | Agent,
    tasks: list[Task],
    kb,
    *,
    llm_client=None,
    embed=None,
    seed: int = 0,
    backbone: str = "offline",
    max_concurrency: int = 1,
    registry: BackboneRegistry | None = None,
    allow_post_cutoff_backbones: bool = False,
    config: dict | None = None,
) -> tuple[list[Answer], list[Failure]]:
    """Answer every task with a registered agent (by name) or an `Agent`; returns
    (answers, failures), both in task_id order. `config`: the agent's settings.

    An LLM method with no configured model is skipped: ([], []) — use `available_methods`
    to decide what to run. For LLM methods the default backbone "offline" is replaced by
    the client's model name, so answer ids name the model that wrote them, and that model
    is checked against the backbone registry per task (refused -> one Failure per task).
    Latency is the wall time of the whole task (retrieval included); tokens and cost are
    the task's own LLM usage.
    """
    agent = method if isinstance(method, Agent) else get_agent(method)
    if agent.needs_llm and (llm_client is None or llm_client.offline):
        return [], []
    if agent.needs_llm and backbone == "offline":
        backbone = llm_client.model
    volume = kb.monthly_volume()  # once per run, not per task

    def work(task, traced, client):
        return agent.run(
            AgentContext(
                task=task,
                kb=traced,
                llm=client,
                seed=seed,
                backbone=backbone,
                embed=embed,
                volume=volume,
                config=dict(config or {}),
            )
        )

    # a bring-your-own agent declares its backbone in its answer; it is checked after the call
    return run_tasks(
        tasks,
        kb,
        work,
        method=agent.name,
        backbone=None if agent.external else backbone,
        seed=seed,
        registry=registry,
        allow_post_cutoff_backbones=allow_post_cutoff_backbones,
        max_concurrency=max_concurrency,
        llm_client=llm_client if agent.needs_llm else None,
    )

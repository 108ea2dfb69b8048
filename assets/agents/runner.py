"""Run one research-agent method over a partition's public tasks.

One task's failure (a model call that ran out of retries, a malformed task, ...) never
stops the run: it becomes a `Failure` row and NO answer is produced for it — the
answers table holds only real answers, and the judges/reports count a missing answer
as a failure through the Failure table. Every method sees the task and the
cutoff-bound knowledge-base view only; a view whose cutoff is later than the task's is
refused per task (it would leak the future into the answer).
"""

from __future__ import annotations

import time
from collections.abc import Callable

from assets.agents.baselines import momentum_forecaster, retrieval_forecaster
from assets.agents.llm_methods import hybrid_rag, native_llm
from assets.agents.render import answer_id
from assets.records import Answer, Failure, Task

STAGE = "agent_runs"
OFFLINE_METHODS = ("momentum", "retrieval")
LLM_METHODS = ("native_llm", "hybrid_rag")


def _momentum(task, kb, ctx):
    return momentum_forecaster(task, kb, embed=ctx["embed"], volume=ctx["volume"], seed=ctx["seed"],
                               backbone=ctx["backbone"])


def _retrieval(task, kb, ctx):
    return retrieval_forecaster(task, kb, volume=ctx["volume"], seed=ctx["seed"], backbone=ctx["backbone"])


def _native(task, kb, ctx):
    return native_llm(task, ctx["llm_client"], seed=ctx["seed"], backbone=ctx["backbone"])


def _rag(task, kb, ctx):
    return hybrid_rag(task, kb, ctx["llm_client"], seed=ctx["seed"], backbone=ctx["backbone"])


METHODS: dict[str, Callable] = {"momentum": _momentum, "retrieval": _retrieval,
                                "native_llm": _native, "hybrid_rag": _rag}


def available_methods(llm_client=None) -> list[str]:
    """Offline methods always; the LLM ones only when a model is configured."""
    online = llm_client is not None and not llm_client.offline
    return list(OFFLINE_METHODS) + (list(LLM_METHODS) if online else [])


def run_method(method: str, tasks: list[Task], kb, *, llm_client=None, embed=None, seed: int = 0,
               backbone: str = "offline") -> tuple[list[Answer], list[Failure]]:
    """Answer every task with `method`; returns (answers, failures), both in task_id order.

    An LLM method with no configured model is skipped: ([], []) — use `available_methods`
    to decide what to run. For LLM methods the default backbone "offline" is replaced by
    the client's model name, so answer ids name the model that wrote them. Latency is the
    wall time of the whole task (retrieval included); tokens and cost are the client's
    usage difference over the task.
    """
    if method not in METHODS:
        raise ValueError(f"unknown method {method!r}; known: {sorted(METHODS)}")
    is_llm = method in LLM_METHODS
    if is_llm and (llm_client is None or llm_client.offline):
        return [], []
    if is_llm and backbone == "offline":
        backbone = llm_client.model
    ctx = {"embed": embed, "seed": seed, "backbone": backbone, "llm_client": llm_client,
           "volume": kb.monthly_volume()}
    answers: list[Answer] = []
    failures: list[Failure] = []
    for task in sorted(tasks, key=lambda t: t.task_id):
        snap = llm_client.snapshot() if is_llm else None
        start = time.perf_counter()
        try:
            if kb.cutoff > task.cutoff:
                raise ValueError(f"knowledge-base view cutoff {kb.cutoff} is after the task cutoff {task.cutoff}")
            answer = METHODS[method](task, kb, ctx)
        except Exception as exc:  # noqa: BLE001 - every per-task error is recorded, the run goes on
            failures.append(Failure(stage=STAGE, item_id=task.task_id,
                                    reason=f"{method}: {type(exc).__name__}: {exc}"[:1000],
                                    raw=answer_id(task.task_id, method, backbone, seed)))
            continue
        update = {"answer_id": answer_id(task.task_id, method, backbone, seed), "backbone": backbone,
                  "seed": seed, "latency_s": round(time.perf_counter() - start, 4)}
        if snap is not None:
            usage = llm_client.usage_since(snap)
            update.update(prompt_tokens=usage.prompt_tokens, completion_tokens=usage.completion_tokens,
                          cost_usd=usage.cost_usd)
        answers.append(answer.model_copy(update=update))
    return answers, failures

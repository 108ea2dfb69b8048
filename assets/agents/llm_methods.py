"""LLM research agents: Native LLM (no retrieval) and Hybrid RAG (ForeSci §4.2).

Both go through the one LLM doorway (`resources.llm.LLMClient.structured`) with the
family schema of `assets.agents.render`, and render through `render_answer`, so the
contract (valid option ids, citations only from retrieved pre-cutoff evidence) is the
same as for every other method. Neither function has a gold or future argument; Hybrid
RAG sees the knowledge base only through its cutoff-bound view.
"""

from __future__ import annotations

import time

from assets.agents.context import Agent, AgentContext
from assets.agents.render import render_answer
from assets.families.registry import get_family
from core.records import Answer, Task

SYSTEM_PROMPT = (
    "You are an AI research strategist making a forward-looking research judgement. "
    "Today is {cutoff}: you know nothing published after that date, and you must not pretend to. "
    "Forecast what will happen in {window}. Reply with a single JSON object matching the requested "
    "schema and nothing else. Claims must be short, atomic, checkable statements."
)


def task_prompt(task: Task) -> str:
    """The public task as the model sees it: question, instructions, requirements, options."""
    lines = [f"# {task.title}", "", task.question.strip(), ""]
    if task.instructions.strip():
        lines += ["Instructions: " + task.instructions.strip(), ""]
    if task.answer_requirements:
        lines += ["Answer requirements:"] + [f"- {r}" for r in task.answer_requirements] + [""]
    if task.options:
        lines += ["Options (use these option_ids exactly):"] + [f"- {o.option_id}: {o.text}" for o in task.options] + [""]
    lines.append(get_family(task.family).answer_fields)
    return "\n".join(lines)


def messages_for(task: Task, evidence_block: str | None = None) -> list[dict]:
    system = SYSTEM_PROMPT.format(
        cutoff=task.cutoff.isoformat(), window=f"{task.window_start.isoformat()} to {task.window_end.isoformat()}"
    )
    user = task_prompt(task)
    if evidence_block is None:
        user += "\nAnswer from your own knowledge; leave cited_ids empty (you have no documents)."
    else:
        user += (
            "\n\nEvidence from the pre-cutoff knowledge base (cite ONLY these arXiv ids in cited_ids, "
            "and rely on them for your claims):\n" + evidence_block
        )
    return [{"role": "system", "content": system}, {"role": "user", "content": user}]


def system_message(task: Task) -> dict:
    return {
        "role": "system",
        "content": SYSTEM_PROMPT.format(
            cutoff=task.cutoff.isoformat(), window=f"{task.window_start.isoformat()} to {task.window_end.isoformat()}"
        ),
    }


def ask(llm_client, task: Task, user: str, schema, *, method: str, step: str, seed: int):
    """One intermediate reasoning step of an agentic method (purpose `agent:<method>:<step>`)."""
    return llm_client.structured(
        [system_message(task), {"role": "user", "content": user}], schema, purpose=f"agent:{method}:{step}", seed=seed
    )


def final_answer(task: Task, llm_client, *, method: str, evidence: str, notes: str, seed: int, extra: str = ""):
    """The common final step: the family schema, from the public task, the evidence shown
    and the method's own working notes (its chains, drafts, reviews or evidence cards)."""
    messages = messages_for(task, evidence)
    messages[-1]["content"] += (
        "\n\nYour working notes from earlier steps (built only from the evidence above):\n"
        + notes.strip()
        + (("\n\n" + extra.strip()) if extra.strip() else "")
    )
    return llm_client.structured(
        messages, get_family(task.family).answer_schema, purpose=f"agent:{method}:{task.family}", seed=seed
    ), messages


def _call(task: Task, llm_client, messages: list[dict], method: str, seed: int):
    snap = llm_client.snapshot()
    start = time.perf_counter()
    parsed = llm_client.structured(
        messages, get_family(task.family).answer_schema, purpose=f"agent:{method}:{task.family}", seed=seed
    )
    latency = time.perf_counter() - start
    usage = llm_client.usage_since(snap)
    return parsed, {
        "prompt_tokens": usage.prompt_tokens,
        "completion_tokens": usage.completion_tokens,
        "cost_usd": usage.cost_usd,
        "latency_s": latency,
    }


def native_llm(ctx: AgentContext) -> Answer:
    """The backbone alone, no retrieval: has_support_artifact is False, and any id it
    "cites" is dropped by the renderer (nothing was retrieved)."""
    task, llm_client, seed = ctx.task, ctx.llm, ctx.seed
    parsed, usage = _call(task, llm_client, messages_for(task), "native_llm", seed)
    return render_answer(
        task,
        parsed,
        method="native_llm",
        backbone=ctx.backbone_name,
        seed=seed,
        retrieved=(),
        retrieval_queries=[],
        has_support_artifact=False,
        **usage,
    )


def rag_queries(task: Task) -> list[str]:
    """The question, then the family's evidence queries (each option, or the subject and its limitations)."""
    return [task.question] + [q for _, q in get_family(task.family).evidence_queries(task)]


def retrieve(kb, queries: list[str], k: int) -> list:
    """Hybrid (sparse + dense) search per query, merged round-robin so every query is
    represented, deduplicated, at most 2k hits."""
    lists = [kb.search(q, k=k, mode="hybrid") for q in queries]
    seen, out = set(), []
    for rank in range(k):
        for hits in lists:
            if rank < len(hits) and hits[rank].arxiv_id not in seen:
                seen.add(hits[rank].arxiv_id)
                out.append(hits[rank])
    return out[: 2 * k]


def evidence_block(hits) -> str:
    return "\n".join(
        f"[{i}] {h.arxiv_id} ({h.published.isoformat()}) {h.title} — {' '.join(h.snippet.split())}" for i, h in enumerate(hits, 1)
    )


def hybrid_rag(ctx: AgentContext) -> Answer:
    """Hybrid retrieval of the question and each option, numbered evidence (id, date,
    title, snippet) in the prompt, answer must cite ids; citations outside the
    retrieved set are dropped by the renderer (setting k, default 12)."""
    task, kb, llm_client, seed, k = ctx.task, ctx.kb, ctx.llm, ctx.seed, ctx.setting("k", 12)
    queries = rag_queries(task)
    hits = retrieve(kb, queries, k)
    parsed, usage = _call(task, llm_client, messages_for(task, evidence_block(hits)), "hybrid_rag", seed)
    return render_answer(
        task,
        parsed,
        method="hybrid_rag",
        backbone=ctx.backbone_name,
        seed=seed,
        retrieved=hits,
        retrieval_queries=queries,
        has_support_artifact=True,
        **usage,
    )


NATIVE_LLM = Agent(
    "native_llm", "the backbone alone: the public task, no retrieval", native_llm, needs_llm=True, source="ForeSci §4.2"
)
HYBRID_RAG = Agent(
    "hybrid_rag",
    "hybrid (sparse + dense) retrieval of the question and options, cited evidence",
    hybrid_rag,
    needs_llm=True,
    source="ForeSci §4.2",
)

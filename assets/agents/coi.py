"""CoI-style agent (Chain of Ideas, offline-adapted; ForeSci §4.2, App. D).

CoI organises the literature into chains of ideas — sequences of papers that build on
each other through time — and asks the model to read each chain's evolution and
extrapolate its next step, over several chains at once (multi-chain idea construction).
The original follows citations found by web search; here the open-web literature search
is replaced by the cutoff-bound knowledge base: a chain grows from an anchor paper by
relatedness (dense similarity to the current paper) along time (backward to strictly
earlier papers, forward to strictly later ones, never past the cutoff: the view cannot
return them).

Steps: (1) anchors — one per evidence query of the task's family (each candidate option,
or the subject and its limitations), plus the question itself for tasks without options; (2) one chain per anchor,
deterministic; (3) one LLM call per chain: evolution, frontier, next step, momentum;
(4) the common final step renders the family answer from all chains and analyses.
Intermediate artifacts: `chains`, `chain_analyses`.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field

from assets.agents.context import Agent, AgentContext
from assets.agents.llm_methods import ask, evidence_block, final_answer
from assets.agents.render import render_answer
from assets.families.registry import get_family
from core.records import Answer, Task

METHOD = "coi"


class ChainAnalysis(BaseModel):
    evolution: str = Field(default="", description="how the idea evolved along the chain, oldest to newest")
    frontier: str = Field(default="", description="where the chain stands at the cutoff")
    next_step: str = Field(default="", description="the most likely next development after the cutoff")
    momentum: Literal["rising", "steady", "fading"] = "steady"
    claims: list[str] = Field(default_factory=list, description="short atomic statements about the chain's future")


def _text(hit) -> str:
    return f"{hit.title}. {' '.join(hit.snippet.split())[:300]}"


def build_chain(kb, anchor, *, length: int = 5, pool: int = 20, exclude: set[str] | None = None, min_score: float = 0.35) -> list:
    """A chronological chain of related papers through `anchor`.

    From the anchor, step backward to the most related strictly earlier paper and
    forward to the most related strictly later one (dense similarity to the current
    end of the chain), alternating, until `length` papers or no candidate is left.
    Papers in `exclude` (other chains) are skipped so chains stay distinct, and a
    candidate must be related (score above `min_score`; with the shipped embedder a
    paper's 20 nearest neighbours in one domain score ~0.4-0.8), so an unrelated paper
    never extends a chain: the chain stops instead.
    """
    used = {anchor.arxiv_id} | set(exclude or ())
    back, fwd = [anchor], [anchor]
    dead = {"back": False, "fwd": False}
    while len(back) + len(fwd) - 1 < length and not all(dead.values()):
        for side in ("back", "fwd"):
            if dead[side] or len(back) + len(fwd) - 1 >= length:
                continue
            end = back[-1] if side == "back" else fwd[-1]
            cands = [
                h
                for h in kb.search(_text(end), k=pool, mode="dense")
                if h.arxiv_id not in used
                and h.score > min_score
                and (h.published < end.published if side == "back" else h.published > end.published)
            ]
            if not cands:
                dead[side] = True
                continue
            best = max(cands, key=lambda h: (h.score, h.arxiv_id))
            used.add(best.arxiv_id)
            (back if side == "back" else fwd).append(best)
    return list(reversed(back)) + fwd[1:]


def anchor_queries(task: Task) -> list[tuple[str, str]]:
    """(label, query) per chain: the family's evidence queries (one per option, or the
    subject and its limitations), then the question when the task has no options."""
    queries = get_family(task.family).evidence_queries(task)
    return queries + ([] if task.options else [("question", task.question)])


def build_chains(task: Task, kb, *, length: int = 5, max_chains: int = 5) -> list[dict]:
    chains, used = [], set()
    for label, query in anchor_queries(task)[:max_chains]:
        anchors = [h for h in kb.search(query, k=5, mode="hybrid") if h.arxiv_id not in used]
        if not anchors:
            continue
        chain = build_chain(kb, anchors[0], length=length, exclude=used)
        used |= {h.arxiv_id for h in chain}
        chains.append({"label": label, "query": query, "papers": chain})
    return chains


def chain_prompt(task: Task, chain: dict) -> str:
    option = {o.option_id: o.text for o in task.options}.get(chain["label"])
    about = f"candidate {chain['label']}: {option}" if option else f"{chain['label']} of the task"
    return (
        f"Task: {task.question.strip()}\n\nThis is a chain of ideas for {about}, oldest first, built from the "
        f"pre-cutoff knowledge base (each paper is the most related earlier/later work of its neighbour):\n"
        + evidence_block(chain["papers"])
        + "\n\nRead the chain as one line of research. Reply with JSON: evolution (how the idea developed), "
        "frontier (where it stands at the cutoff), next_step (the most likely next development in the "
        "forecast window), momentum (rising|steady|fading), claims (short atomic statements)."
    )


def coi(ctx: AgentContext) -> Answer:
    """Settings: length (papers per chain, default 5), max_chains (default 5)."""
    task, kb, llm_client, seed = ctx.task, ctx.kb, ctx.llm, ctx.seed
    length, max_chains = ctx.setting("length", 5), ctx.setting("max_chains", 5)
    chains = build_chains(task, kb, length=length, max_chains=max_chains)
    if not chains:
        raise ValueError(f"{task.task_id}: the knowledge base returned nothing to build a chain from")
    analyses = [
        ask(llm_client, task, chain_prompt(task, c), ChainAnalysis, method=METHOD, step="chain", seed=seed) for c in chains
    ]
    papers = []
    for c in chains:
        papers += [h for h in c["papers"] if h.arxiv_id not in {p.arxiv_id for p in papers}]
    notes = "\n\n".join(
        f"Chain {i} ({c['label']}): "
        + " -> ".join(f"{h.arxiv_id} ({h.published.isoformat()})" for h in c["papers"])
        + f"\n  evolution: {a.evolution}\n  frontier: {a.frontier}\n  next step: {a.next_step}\n  momentum: {a.momentum}"
        + "".join(f"\n  - {cl}" for cl in a.claims)
        for i, (c, a) in enumerate(zip(chains, analyses), 1)
    )
    parsed, _ = final_answer(
        task,
        llm_client,
        method=METHOD,
        evidence=evidence_block(papers),
        notes=notes,
        seed=seed,
        extra="Combine the chains: compare where each is heading and decide from that.",
    )
    artifacts = {
        "chains": [
            {
                "label": c["label"],
                "query": c["query"],
                "papers": [{"arxiv_id": h.arxiv_id, "published": h.published.isoformat(), "title": h.title} for h in c["papers"]],
            }
            for c in chains
        ],
        "chain_analyses": [a.model_dump() for a in analyses],
    }
    return render_answer(
        task,
        parsed,
        method=METHOD,
        backbone=ctx.backbone_name,
        seed=seed,
        retrieved=papers,
        retrieval_queries=[c["query"] for c in chains],
        has_support_artifact=True,
        artifacts=artifacts,
    )


COI = Agent(
    "coi",
    "Chain of Ideas: chains of related papers through time, extrapolated by the model",
    coi,
    needs_llm=True,
    source="ForeSci §4.2, App. D (CoI, offline-adapted)",
)

"""ARIS-style agent (offline-adapted; ForeSci §4.2, App. D).

Adapted as in ForeSci App. D: open retrieval is replaced by hybrid retrieval over the
cutoff-bound knowledge base, evidence is constructed per family, and the final renderer
is contract-aware.

1. Family-specific evidence construction (deterministic, no model), by the family's
   declared `offline_reading`:
   * option_trend (direction, planning): per candidate, its hybrid hits, its volume-normalised trend
     (share of the KB's monthly volume among its nearest papers, last 3 months vs the 6
     before) and its most recent papers;
   * subject_limitations (bottleneck): limitation sentences quoted from the subdirection's papers, the most
     recurrent one (root candidate) and title terms rising in the latest papers;
   * option_fit (venue): per option (e.g. venue family), the closest pre-cutoff work to the project framed for it
     and its mean dense similarity.
2. One LLM call turns the packet into evidence cards (statement + the ids it rests on).
3. One LLM call writes the family answer with the answer contract spelled out
   (`TaskFamily.contract_rules`).
4. Contract check: unknown / missing option ids, a choice outside the candidates,
   citations outside the packet, no claims. Any violation gets ONE repair call listing
   it; the common renderer then enforces the contract whatever remains.
Intermediate artifacts: `evidence_packet`, `evidence_cards`, `contract_violations`, `draft`.
"""

from __future__ import annotations

import json

import numpy as np
from pydantic import BaseModel, Field

from assets.agents.baselines import (
    _first_sentence,
    _merge,
    _ordered,
    _recent_first,
    _trim,
    emerging_method_terms,
    is_limitation,
    momentum_stats,
    root_bottleneck,
    sentences,
    terms,
    trajectory_from_ratio,
)
from assets.agents.context import Agent, AgentContext
from assets.agents.llm_methods import ask, messages_for
from assets.agents.render import render_answer
from assets.families.answers import task_subject, window_phrase
from assets.families.registry import get_family
from core.records import Answer, Task

METHOD = "aris"


class EvidenceCard(BaseModel):
    statement: str
    cited_ids: list[str] = Field(default_factory=list)
    bears_on: str = Field(default="", description="option_id or aspect the card bears on")


class EvidenceCards(BaseModel):
    cards: list[EvidenceCard] = Field(default_factory=list)
    uncertainties: list[str] = Field(default_factory=list)


def _line(h) -> str:
    return f"{h.arxiv_id} ({h.published.isoformat()}) {h.title}"


def build_packet(task: Task, kb, *, k: int = 10, volume: dict[str, int] | None = None) -> dict:
    """The family-specific evidence packet: `sections` (title -> lines), `hits`, `queries`."""
    sections: dict[str, list[str]] = {}
    hits, queries = [], []
    family = get_family(task.family)
    if family.offline_reading == "option_trend":
        volume = kb.monthly_volume() if volume is None else volume
        for o in task.options:
            queries.append(o.text)
            found = _ordered(kb.search(o.text, k=k, mode="hybrid"))
            dense = kb.search(o.text, k=3 * k, mode="dense")
            stats = momentum_stats([h.published for h in dense], volume, kb.cutoff)
            recent = _recent_first(_merge(found, dense[:k]), 3)
            sections[f"{o.option_id}: {o.text}"] = [
                f"trend: {int(stats['recent_hits'])} nearest papers in the last 3 months vs {int(stats['prior_hits'])} "
                f"in the 6 before; volume-normalised ratio {stats['ratio']:.2f} ({trajectory_from_ratio(stats['ratio'])})",
                *[f"recent: {_line(h)}" for h in recent],
                *[f"support: {_line(h)} — {_trim(_first_sentence(h.snippet), 160)}" for h in found[:3]],
            ]
            hits = _merge(hits, found[:5], recent)
    elif family.offline_reading == "subject_limitations":
        subject = task_subject(task)
        queries = [q for _, q in family.evidence_queries(task)]
        found = _merge(
            _ordered(kb.search(queries[0], k=3 * k, mode="hybrid")), _ordered(kb.search(queries[1], k=k, mode="hybrid"))
        )
        limits = [(h, s) for h in found for s in sentences(h.snippet) if is_limitation(s)]
        root = root_bottleneck(subject, found, {})
        rising = emerging_method_terms(found, set(terms(subject)) | set(root["terms"]), kb.cutoff)
        sections["stated limitations"] = [f'{h.arxiv_id}: "{_trim(s, 200)}"' for h, s in limits[:10]]
        sections["most recurrent limitation"] = (
            [f'{root["support"]} papers ({", ".join(root["paper_ids"][:6])}): "{_trim(root["sentence"], 200)}"']
            if root["sentence"]
            else ["none found"]
        )
        sections["rising in the latest papers"] = [", ".join(rising) or "nothing clear"]
        hits = _merge([h for h, _ in limits[:10]], [h for h in found if h.arxiv_id in root["paper_ids"]], _recent_first(found, 4))
    else:  # option_fit, or a family with no offline reading: the fit of each evidence query
        for o, (_, q) in zip(task.options, family.evidence_queries(task)):
            queries.append(q)
            dense = kb.search(q, k=5, mode="dense")
            fit = float(np.mean([h.score for h in dense])) if dense else 0.0
            sections[f"{o.option_id}: {o.text}"] = [
                f"mean similarity of the closest work: {fit:.3f}",
                *[f"closest: {_line(h)}" for h in dense[:3]],
            ]
            hits = _merge(hits, dense[:3])
    return {"sections": sections, "hits": hits, "queries": queries}


def packet_text(packet: dict) -> str:
    out = []
    for title, lines in packet["sections"].items():
        out.append(f"## {title}")
        out += [f"- {line}" for line in lines]
    return "\n".join(out)


def contract_text(task: Task) -> str:
    rules = [
        "cited_ids: only arXiv ids that appear in the evidence packet",
        "claims: 3-6 short atomic statements, each checkable after the forecast window",
    ]
    rules += get_family(task.family).contract_rules(task)
    return "Answer contract:\n" + "\n".join(f"- {r}" for r in rules)


def contract_violations(task: Task, parsed, allowed_ids: set[str]) -> list[str]:
    out = get_family(task.family).contract_violations(task, parsed)
    outside = [c for c in parsed.cited_ids if c not in allowed_ids]
    if outside:
        out.append(f"cited ids not in the evidence packet: {outside}")
    if not parsed.claims:
        out.append("no claims")
    return out


def aris(ctx: AgentContext) -> Answer:
    """Evidence packet, evidence cards, contract-aware answer, one repair (setting k, default 10)."""
    task, kb, llm_client, seed = ctx.task, ctx.kb, ctx.llm, ctx.seed
    packet = build_packet(task, kb, k=ctx.setting("k", 10), volume=ctx.volume)
    if not packet["hits"]:
        raise ValueError(f"{task.task_id}: empty evidence packet")
    text = packet_text(packet)
    cards = ask(
        llm_client,
        task,
        f"Task: {task.question.strip()}\n\nFamily-specific evidence packet (pre-cutoff knowledge base, "
        f"forecast window {window_phrase(task)}):\n{text}\n\nWrite evidence cards: each a statement the packet "
        "supports, the ids it rests on, and the option_id or aspect it bears on; then list the main "
        "uncertainties. Reply with JSON: cards, uncertainties.",
        EvidenceCards,
        method=METHOD,
        step="evidence",
        seed=seed,
    )
    cards_text = "\n".join(f"- [{c.bears_on}] {c.statement} ({', '.join(c.cited_ids)})" for c in cards.cards)
    cards_text += "".join(f"\n- uncertainty: {u}" for u in cards.uncertainties)
    messages = messages_for(task, text)
    messages[-1]["content"] += f"\n\nEvidence cards:\n{cards_text}\n\n{contract_text(task)}"
    schema = ctx.family.answer_schema
    parsed = llm_client.structured(messages, schema, purpose=f"agent:{METHOD}:{task.family}", seed=seed)
    violations = contract_violations(task, parsed, {h.arxiv_id for h in packet["hits"]})
    draft = parsed.model_dump()
    if violations:
        repair = messages + [
            {"role": "assistant", "content": json.dumps(draft)},
            {
                "role": "user",
                "content": "That answer breaks the contract:\n"
                + "\n".join(f"- {v}" for v in violations)
                + "\nReply again with the corrected JSON.",
            },
        ]
        parsed = llm_client.structured(repair, schema, purpose=f"agent:{METHOD}:repair", seed=seed)
    return render_answer(
        task,
        parsed,
        method=METHOD,
        backbone=ctx.backbone_name,
        seed=seed,
        retrieved=packet["hits"],
        retrieval_queries=packet["queries"],
        has_support_artifact=True,
        artifacts={
            "evidence_packet": packet["sections"],
            "evidence_cards": cards.model_dump(),
            "contract_violations": violations,
            "draft": draft,
        },
    )


ARIS = Agent(
    "aris",
    "family-specific evidence packet, evidence cards, contract-checked answer with one repair",
    aris,
    needs_llm=True,
    source="ForeSci §4.2, App. D (ARIS, offline-adapted)",
)

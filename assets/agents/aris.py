"""ARIS-style agent (offline-adapted; ForeSci §4.2, App. D).

Adapted as in ForeSci App. D: open retrieval is replaced by hybrid retrieval over the
cutoff-bound knowledge base, evidence is constructed per family, and the final renderer
is contract-aware.

1. Family-specific evidence construction (deterministic, no model):
   * direction / planning: per candidate, its hybrid hits, its volume-normalised trend
     (share of the KB's monthly volume among its nearest papers, last 3 months vs the 6
     before) and its most recent papers;
   * bottleneck: limitation sentences quoted from the subdirection's papers, the most
     recurrent one (root candidate) and title terms rising in the latest papers;
   * venue: per venue family, the closest pre-cutoff work to the project framed for it
     and its mean dense similarity.
2. One LLM call turns the packet into evidence cards (statement + the ids it rests on).
3. One LLM call writes the family answer with the answer contract spelled out.
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
from assets.agents.llm_methods import ask, messages_for
from assets.agents.render import render_answer, schema_for, task_subject, window_phrase
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
    if task.family in ("direction", "planning"):
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
    elif task.family == "bottleneck":
        subject = task_subject(task)
        queries = [subject, f"{subject} limitations challenges bottleneck"]
        found = _merge(_ordered(kb.search(queries[0], k=3 * k, mode="hybrid")),
                       _ordered(kb.search(queries[1], k=k, mode="hybrid")))
        limits = [(h, s) for h in found for s in sentences(h.snippet) if is_limitation(s)]
        root = root_bottleneck(subject, found, {})
        rising = emerging_method_terms(found, set(terms(subject)) | set(root["terms"]), kb.cutoff)
        sections["stated limitations"] = [f"{h.arxiv_id}: \"{_trim(s, 200)}\"" for h, s in limits[:10]]
        sections["most recurrent limitation"] = (
            [f"{root['support']} papers ({', '.join(root['paper_ids'][:6])}): \"{_trim(root['sentence'], 200)}\""]
            if root["sentence"] else ["none found"])
        sections["rising in the latest papers"] = [", ".join(rising) or "nothing clear"]
        hits = _merge([h for h, _ in limits[:10]], [h for h in found if h.arxiv_id in root["paper_ids"]],
                      _recent_first(found, 4))
    else:  # venue
        for o in task.options:
            q = f"{task.question} {o.text}"
            queries.append(q)
            dense = kb.search(q, k=5, mode="dense")
            fit = float(np.mean([h.score for h in dense])) if dense else 0.0
            sections[f"{o.option_id}: {o.text}"] = [f"mean similarity of the closest work: {fit:.3f}",
                                                    *[f"closest: {_line(h)}" for h in dense[:3]]]
            hits = _merge(hits, dense[:3])
    return {"sections": sections, "hits": hits, "queries": queries}


def packet_text(packet: dict) -> str:
    out = []
    for title, lines in packet["sections"].items():
        out.append(f"## {title}")
        out += [f"- {line}" for line in lines]
    return "\n".join(out)


def contract_text(task: Task) -> str:
    ids = [o.option_id for o in task.options]
    rules = ["cited_ids: only arXiv ids that appear in the evidence packet",
             "claims: 3-6 short atomic statements, each checkable after the forecast window"]
    if task.family == "direction":
        rules += [f"choice: exactly one of {ids}", f"ranking: all of {ids}, each once, most momentum first",
                  "trajectory: one of accelerating, fragmenting, steady, cooling"]
    elif task.family == "planning":
        rules += [f"ranking: all of {ids}, each once, highest priority first", "go_no_go: a checkable criterion"]
    elif task.family == "venue":
        rules += [f"ranking: all of {ids}, each once, best-fitting venue family first",
                  "framing: how to pitch the work to the first venue's reviewers (not generic ML framing)"]
    else:
        rules += ["bottleneck: ONE root bottleneck phrase (a cause, not a symptom)",
                  "opportunity: what reducing it opens, within the forecast window"]
    return "Answer contract:\n" + "\n".join(f"- {r}" for r in rules)


def contract_violations(task: Task, parsed, allowed_ids: set[str]) -> list[str]:
    ids = [o.option_id for o in task.options]
    out = []
    if task.family in ("direction", "planning", "venue"):
        ranking = [str(r) for r in parsed.ranking]
        unknown = [r for r in ranking if r not in ids]
        missing = [i for i in ids if i not in ranking]
        if unknown:
            out.append(f"ranking has ids that are not candidates: {unknown}")
        if missing:
            out.append(f"ranking misses candidates: {missing}")
        if len(ranking) != len(set(ranking)):
            out.append("ranking repeats ids")
    if task.family == "direction" and parsed.choice not in ids:
        out.append(f"choice {parsed.choice!r} is not one of {ids}")
    if task.family == "direction" and parsed.ranking and parsed.choice != parsed.ranking[0]:
        out.append("choice is not ranked first")
    if task.family == "bottleneck" and not parsed.bottleneck.strip():
        out.append("bottleneck is empty")
    outside = [c for c in parsed.cited_ids if c not in allowed_ids]
    if outside:
        out.append(f"cited ids not in the evidence packet: {outside}")
    if not parsed.claims:
        out.append("no claims")
    return out


def aris(task: Task, kb, llm_client, *, seed: int = 0, backbone: str | None = None, k: int = 10,
         volume: dict[str, int] | None = None) -> Answer:
    packet = build_packet(task, kb, k=k, volume=volume)
    if not packet["hits"]:
        raise ValueError(f"{task.task_id}: empty evidence packet")
    text = packet_text(packet)
    cards = ask(llm_client, task,
                f"Task: {task.question.strip()}\n\nFamily-specific evidence packet (pre-cutoff knowledge base, "
                f"forecast window {window_phrase(task)}):\n{text}\n\nWrite evidence cards: each a statement the packet "
                "supports, the ids it rests on, and the option_id or aspect it bears on; then list the main "
                "uncertainties. Reply with JSON: cards, uncertainties.",
                EvidenceCards, method=METHOD, step="evidence", seed=seed)
    cards_text = "\n".join(f"- [{c.bears_on}] {c.statement} ({', '.join(c.cited_ids)})" for c in cards.cards)
    cards_text += "".join(f"\n- uncertainty: {u}" for u in cards.uncertainties)
    messages = messages_for(task, text)
    messages[-1]["content"] += f"\n\nEvidence cards:\n{cards_text}\n\n{contract_text(task)}"
    schema = schema_for(task.family)
    parsed = llm_client.structured(messages, schema, purpose=f"agent:{METHOD}:{task.family}", seed=seed)
    violations = contract_violations(task, parsed, {h.arxiv_id for h in packet["hits"]})
    draft = parsed.model_dump()
    if violations:
        repair = messages + [{"role": "assistant", "content": json.dumps(draft)},
                             {"role": "user", "content": "That answer breaks the contract:\n"
                              + "\n".join(f"- {v}" for v in violations) + "\nReply again with the corrected JSON."}]
        parsed = llm_client.structured(repair, schema, purpose=f"agent:{METHOD}:repair", seed=seed)
    return render_answer(task, parsed, method=METHOD, backbone=backbone or llm_client.model, seed=seed,
                         retrieved=packet["hits"], retrieval_queries=packet["queries"], has_support_artifact=True,
                         artifacts={"evidence_packet": packet["sections"], "evidence_cards": cards.model_dump(),
                                    "contract_violations": violations, "draft": draft})

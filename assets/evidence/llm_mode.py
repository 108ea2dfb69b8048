"""LLM mode of the evidence stage: full-text evidence drafted by a model, quotes verified.

ForeSci (§3.3, App. B.6) has an LLM draft each paper's full-text evidence -- problem,
method, evaluation focus, limitations, contribution type -- which experts then audit.
Here the model returns, per field, a one-line `summary` and a verbatim `quote` from the
text it was shown; every quote is then checked mechanically (`verify_quote`, whitespace
normalised) against the paper's source text. A quote that is not found is *kept* and
its field is listed in `PaperEvidence.unverified` (never silently dropped), so an
auditor sees exactly which claims lack a verbatim anchor.

Papers are sent in batches: `abstract_batch` papers per call when only abstracts are
known, `fulltext_batch` (default 1) with full text (sections, truncated to
`fulltext_chars`). Temperature 0.0 (extraction, not generation). A failed call becomes
a `Failure` row and its papers fall back to the offline cue-phrase extraction.
"""

from __future__ import annotations

import json

from pydantic import BaseModel, Field

from assets.evidence.quotes import (
    CONTRIBUTION_TYPES,
    SENTENCE_FIELDS,
    classify_contribution,
    evidence_source_text,
    extract_paper_evidence,
    fulltext_sections,
    verify_quote,
)
from core.records import Failure, PaperEvidence, PaperFullText, ScreenedPaper

TEMPERATURE = 0.0
PAYLOAD_MARK = "INPUT:\n"


class FieldQuote(BaseModel):
    summary: str = Field(default="", description="one line, in your words")
    quote: str = Field(default="", description="one sentence copied verbatim from the paper text; '' if none")


class PaperFields(BaseModel):
    paper: str
    problem: FieldQuote = Field(default_factory=FieldQuote)
    method: FieldQuote = Field(default_factory=FieldQuote)
    evaluation_focus: FieldQuote = Field(default_factory=FieldQuote)
    limitation: FieldQuote = Field(default_factory=FieldQuote)
    contribution_type: str = Field(default="", description="one of: " + ", ".join(CONTRIBUTION_TYPES))


class EvidenceBatch(BaseModel):
    papers: list[PaperFields]


PROMPT = (
    "For each paper below, extract its full-text evidence: the problem it addresses, its method, "
    "its evaluation focus, and its limitations (as stated by the authors), plus its contribution "
    "type (one of: {types}). For every field give a one-line summary and ONE sentence copied "
    "verbatim (character for character) from the paper text as the quote; leave the quote empty "
    "if the text has none. Do not use knowledge beyond the given text."
)


def paper_text_for_prompt(paper: ScreenedPaper, fulltext: PaperFullText | None, max_chars: int) -> str:
    sections = fulltext_sections(fulltext)
    if not sections:
        return paper.abstract
    parts, used = [], 0
    if not any(name == "abstract" for name, _ in sections):
        sections = [("abstract", paper.abstract)] + sections
    for name, text in sections:
        room = max_chars - used
        if room <= 200:
            break
        chunk = text[:room]
        parts.append(f"[{name}] {chunk}")
        used += len(chunk)
    return "\n".join(parts)


def extract_evidence_llm(
    papers: list[ScreenedPaper],
    client,
    *,
    fulltexts: dict[str, PaperFullText] | None = None,
    abstract_batch: int = 8,
    fulltext_batch: int = 1,
    fulltext_chars: int = 12000,
    seed: int = 0,
) -> tuple[dict[str, PaperEvidence], list[Failure]]:
    """PaperEvidence per paper (by arxiv_id) from the model, with quote verification."""
    fulltexts = fulltexts or {}
    out: dict[str, PaperEvidence] = {}
    failures: list[Failure] = []
    with_ft = [p for p in papers if fulltext_sections(fulltexts.get(p.arxiv_id))]
    without = [p for p in papers if not fulltext_sections(fulltexts.get(p.arxiv_id))]
    groups = [without[i : i + abstract_batch] for i in range(0, len(without), abstract_batch)]
    groups += [with_ft[i : i + fulltext_batch] for i in range(0, len(with_ft), fulltext_batch)]
    for group in groups:
        keys = {f"P{j + 1}": p for j, p in enumerate(group)}
        payload = {
            "papers": [
                {"key": k, "title": p.title, "text": paper_text_for_prompt(p, fulltexts.get(p.arxiv_id), fulltext_chars)}
                for k, p in keys.items()
            ]
        }
        messages = [
            {
                "role": "system",
                "content": "You extract evidence from research papers. Answer only with JSON matching the schema.",
            },
            {
                "role": "user",
                "content": PROMPT.format(types=", ".join(CONTRIBUTION_TYPES))
                + "\n"
                + PAYLOAD_MARK
                + json.dumps(payload, ensure_ascii=False),
            },
        ]
        try:
            reply = client.structured(messages, EvidenceBatch, purpose="evidence.extract", temperature=TEMPERATURE, seed=seed)
            answers = {a.paper: a for a in reply.papers}
        except Exception as exc:  # noqa: BLE001 - recorded; offline rules fill in
            failures.append(
                Failure(
                    stage="evidence",
                    item_id=",".join(p.arxiv_id for p in group),
                    reason=f"LLM extraction failed ({type(exc).__name__}: {exc}); offline cue-phrase evidence used",
                )
            )
            answers = {}
        for key, paper in keys.items():
            ft = fulltexts.get(paper.arxiv_id)
            answer = answers.get(key)
            if answer is None:
                if answers:  # the call worked but this paper was left out of the reply
                    failures.append(
                        Failure(
                            stage="evidence", item_id=paper.arxiv_id, reason="LLM reply omitted this paper; offline evidence used"
                        )
                    )
                out[paper.arxiv_id] = extract_paper_evidence(paper, ft)
                continue
            out[paper.arxiv_id] = evidence_from_answer(paper, answer, ft)
    return out, failures


def evidence_from_answer(paper: ScreenedPaper, answer: PaperFields, fulltext: PaperFullText | None) -> PaperEvidence:
    """PaperEvidence from one model answer; quotes not found verbatim are flagged, not dropped."""
    source = evidence_source_text(paper, fulltext)
    fields = {f: getattr(answer, f) for f in SENTENCE_FIELDS}
    ctype = answer.contribution_type.strip().lower()
    if ctype not in CONTRIBUTION_TYPES:
        ctype = classify_contribution(paper.title, paper.abstract)
    return PaperEvidence(
        arxiv_id=paper.arxiv_id,
        published=paper.published,
        **{f: " ".join(fq.quote.split()) for f, fq in fields.items()},
        contribution_type=ctype,
        unverified=[f for f, fq in fields.items() if not verify_quote(fq.quote, source)],
        quote_source="fulltext" if fulltext_sections(fulltext) else "abstract",
        summaries={f: fq.summary.strip() for f, fq in fields.items() if fq.summary.strip()},
        extractor="llm",
    )


# ------------------------------------------------------------------------------ signals

RELATIONS = ("extension", "adaptation", "replacement", "component_reuse", "competition")
BOTTLENECK_KINDS = ("recurring_limitation", "evaluation_gap", "reliability_safety", "data_need", "technical_risk")


class RelationItem(BaseModel):
    key: str
    relation: str = Field(description="one of: " + ", ".join(RELATIONS))
    rationale: str = ""


class RelationBatch(BaseModel):
    items: list[RelationItem]


class BottleneckItem(BaseModel):
    key: str
    title: str = Field(description="2-6 word name of the limitation, not of the research area")
    category: str = Field(description="one of: " + ", ".join(BOTTLENECK_KINDS))


class BottleneckBatch(BaseModel):
    items: list[BottleneckItem]


def _ask_items(
    client, prompt: str, items: list[dict], schema, purpose: str, batch: int, seed: int, failures: list[Failure]
) -> dict[str, BaseModel]:
    out: dict[str, BaseModel] = {}
    for i in range(0, len(items), batch):
        group = items[i : i + batch]
        messages = [
            {
                "role": "system",
                "content": "You analyse how a research field develops. Answer only with JSON matching the schema.",
            },
            {"role": "user", "content": prompt + "\n" + PAYLOAD_MARK + json.dumps({"items": group}, ensure_ascii=False)},
        ]
        try:
            reply = client.structured(messages, schema, purpose=purpose, temperature=TEMPERATURE, seed=seed)
            out.update({it.key: it for it in reply.items})
        except Exception as exc:  # noqa: BLE001 - recorded; the rule-based answer stays
            failures.append(
                Failure(
                    stage="research_signals",
                    item_id=",".join(g["key"] for g in group),
                    reason=f"LLM {purpose} failed ({type(exc).__name__}: {exc}); rule kept",
                )
            )
    return out


def classify_relations_llm(
    items: list[dict], client, *, batch: int = 20, seed: int = 0, failures: list[Failure]
) -> dict[str, RelationItem]:
    """Model-chosen relation per method-development pair; items carry the rule's answer."""
    prompt = (
        "Each item is a pair of taxonomy nodes (from -> to) with their labels, keywords and "
        "volume-normalised growth. Classify how 'to' relates to 'from' as a method development: "
        "extension (refines or extends the same line), adaptation (carries it to a new setting), "
        "replacement (a newer branch displacing an older sibling), component_reuse (reuses its "
        "components in another dimension), competition (rival branches pulling apart). Give a "
        "one-sentence rationale grounded only in the given data."
    )
    got = _ask_items(client, prompt, items, RelationBatch, "signals.relation", batch, seed, failures)
    return {k: v for k, v in got.items() if v.relation in RELATIONS}


def name_bottlenecks_llm(
    items: list[dict], client, *, batch: int = 20, seed: int = 0, failures: list[Failure]
) -> dict[str, BottleneckItem]:
    """Model-written title and category of each bottleneck theme (quotes are verbatim limitations)."""
    prompt = (
        "Each item is a group of verbatim limitation sentences from different papers, all naming the "
        "same limitation (the rule's name for it is given). Name that limitation as a researcher would "
        "(2-6 words, e.g. 'reward hacking', 'long-horizon error accumulation'): the limitation itself, "
        "not the research area or the domain it occurs in. Give its category: recurring_limitation, "
        "evaluation_gap, reliability_safety, data_need or technical_risk."
    )
    got = _ask_items(client, prompt, items, BottleneckBatch, "signals.bottleneck", batch, seed, failures)
    return {k: v for k, v in got.items() if v.category in BOTTLENECK_KINDS and v.title.strip()}

"""Research inspirations (DeepResearch Arena §3, Table 2) from pre-cutoff evidence records.

The paper's Inspira Agent reads seminar transcripts; we read the verbatim sentences of the
evidence records (`assets/evidence`: one problem / method / evaluation / limitation
sentence per paper, all published on or before the cutoff). An inspiration is one such
sentence, typed as one of the paper's four kinds, that meets at least two of the paper's
four criteria (novelty, explorability, challenge, verifiability); it keeps its verbatim
quote and its paper id.

Offline (the documented extractor, no model): the kind and the criteria are read from cue
phrases (`KIND_CUES`, `CRITERIA_CUES` below) and the evidence field the sentence came from;
the inspiration's text is its quote. With a model (`draft_inspirations`): one call per
evidence record through the LLM resource; the model distils and types the inspirations and
names its quote, which must occur verbatim in the record's sentences (else it is dropped).
"""

from __future__ import annotations

import hashlib
import re
from datetime import date
from typing import Literal

from pydantic import BaseModel, Field

from core.records import EvidenceRecord

Kind = Literal["limitation", "methodology", "transdisciplinarity", "hypothesis"]
KINDS: tuple[Kind, ...] = ("limitation", "methodology", "transdisciplinarity", "hypothesis")
CRITERIA = ("novelty", "explorability", "challenge", "verifiability")
MIN_CRITERIA = 2  # the paper: "each selected inspiration must satisfy at least two of these criteria"
MAX_PER_RECORD = 8  # inspirations kept per evidence record (the most criteria first)
MIN_WORDS, MAX_WORDS = 8, 80  # a sentence shorter or longer is a fragment or a run-on, not an idea
FIELDS = ("problem", "method", "evaluation_focus", "limitation")

# Kind cues, checked in this order (the rarest kind first, so a cross-field method is
# transdisciplinary, not just a method). A sentence of the `limitation` field is a
# limitation and one of the `method` field a methodology unless a rarer cue fires.
KIND_CUES: dict[Kind, re.Pattern] = {
    "transdisciplinarity": re.compile(
        r"\b(inspired by|borrow\w*|interdisciplinar\w*|cross-disciplinar\w*|transdisciplinar\w*|cognitive|neuro\w*|"
        r"biolog\w*|physics|psycholog\w*|econom\w*|sociolog\w*|social science\w*|ecolog\w*|linguistic\w*|"
        r"game[- ]theor\w*|control theory|education\w*|medic\w*|clinical|legal|law|finance|financial|chemistry|"
        r"human cognition|humans?'? (?:learn|reason|memory))\b",
        re.I,
    ),
    "limitation": re.compile(
        r"\b(limitation\w*|limited|fail\w*|struggl\w*|lack\w*|bottleneck\w*|challeng\w*|remain\w* (?:unclear|open|"
        r"difficult|unsolved)|open (?:problem|question)\w*|insufficient|suffer\w*|costly|expensive|brittle|"
        r"unreliab\w*|hallucinat\w*|vulnerab\w*|cannot|unable)\b",
        re.I,
    ),
    "hypothesis": re.compile(
        r"\b(hypothes\w*|we (?:show|find|observe|demonstrate|argue|conjecture) that|suggest\w* that|"
        r"results? (?:show|indicate|suggest|reveal)\w*|leads? to|correlat\w*|outperform\w*|surpass\w*|achiev\w*|"
        r"improv\w*|(?:reduc|increas|boost)\w* .{0,40}by|is (?:key|crucial|essential) (?:to|for))\b|\d+(?:\.\d+)?%",
        re.I,
    ),
    "methodology": re.compile(
        r"\b(we (?:propose|introduce|present|develop|design)|framework|pipeline|architecture|algorithm|"
        r"approach|method|technique|toolkit|tool|protocol|benchmark)\b",
        re.I,
    ),
}
FIELD_KIND: dict[str, Kind] = {"limitation": "limitation", "method": "methodology"}

CRITERIA_CUES: dict[str, re.Pattern] = {
    "novelty": re.compile(r"\b(novel|new|first|propos\w*|introduc\w*|unexplored|emerging|unlike|instead of)\b", re.I),
    "explorability": re.compile(
        r"\b(future|open|explor\w*|extend\w*|direction\w*|question\w*|remain\w*|potential|"
        r"could|may|might|generali[sz]\w*|scal\w*|beyond)\b",
        re.I,
    ),
    "challenge": re.compile(
        r"\b(challeng\w*|difficult\w*|hard|limit\w*|fail\w*|bottleneck\w*|struggl\w*|costly|"
        r"expensive|lack\w*|complex\w*|brittle|robust\w*)\b",
        re.I,
    ),
    "verifiability": re.compile(
        r"(\d|%|\b(experiment\w*|benchmark\w*|evaluat\w*|measur\w*|outperform\w*|"
        r"accura\w*|improv\w*|baseline\w*|dataset\w*|metric\w*|empirical\w*|test\w*)\b)",
        re.I,
    ),
}


class Inspiration(BaseModel):
    """One research inspiration: typed, verbatim, attributed to a pre-cutoff paper."""

    inspiration_id: str
    kind: Kind
    text: str  # the inspiration in one line (offline: the quote itself; with a model: its distillation)
    quote: str  # verbatim sentence of the paper's evidence record
    paper_id: str
    published: date
    field: str  # the evidence field the quote came from
    node_id: str
    node_label: str
    record_id: str
    criteria: list[str] = Field(default_factory=list)
    extractor: str = "rules"  # "rules" (offline cue phrases) or the model that drafted it


def _id(record_id: str, paper_id: str, quote: str) -> str:
    return "insp:" + hashlib.sha256(f"{record_id}|{paper_id}|{quote}".encode()).hexdigest()[:12]


def criteria_of(sentence: str) -> list[str]:
    """The paper's four criteria a sentence meets, by cue phrase (offline proxy)."""
    return [c for c in CRITERIA if CRITERIA_CUES[c].search(sentence)]


def kind_of(sentence: str, field: str) -> Kind | None:
    """The inspiration kind of a sentence from the given evidence field, or None: a
    cross-discipline cue first (the rarest kind), then a limitation sentence, then a
    testable outcome statement (a hypothesis: "X improves Y by 5%"), then a method
    sentence, then the cues alone."""
    if KIND_CUES["transdisciplinarity"].search(sentence):
        return "transdisciplinarity"
    if field == "limitation":
        return "limitation"
    if KIND_CUES["hypothesis"].search(sentence):
        return "hypothesis"
    if field in FIELD_KIND:
        return FIELD_KIND[field]
    for kind in ("limitation", "methodology"):
        if KIND_CUES[kind].search(sentence):
            return kind
    return None


def record_sentences(record: EvidenceRecord) -> list[tuple[str, str, str, date]]:
    """(field, sentence, paper id, published) of a record's verified verbatim sentences."""
    out = []
    for p in sorted(record.papers, key=lambda p: p.arxiv_id):
        for f in FIELDS:
            s = " ".join(getattr(p, f, "").split())
            if s and f not in p.unverified and MIN_WORDS <= len(s.split()) <= MAX_WORDS:
                out.append((f, s, p.arxiv_id, p.published))
    return out


def diverse(found: list[Inspiration]) -> list[Inspiration]:
    """Kinds in turn (each kind's most criteria first), so a record's cap keeps every kind it has."""
    by_kind = {k: sorted((i for i in found if i.kind == k), key=lambda i: (-len(i.criteria), i.paper_id, i.quote)) for k in KINDS}
    out = []
    for rank in range(max((len(v) for v in by_kind.values()), default=0)):
        out += [by_kind[k][rank] for k in KINDS if rank < len(by_kind[k])]
    return out


def extract_inspirations(records: list[EvidenceRecord], cutoff: date) -> list[Inspiration]:
    """Offline extractor: typed inspirations (>= MIN_CRITERIA criteria), per record the most
    criteria first, at most MAX_PER_RECORD; one per quote; never a paper after `cutoff`."""
    out: list[Inspiration] = []
    seen: set[str] = set()
    for r in sorted(records, key=lambda r: r.record_id):
        found = []
        for f, s, pid, pub in record_sentences(r):
            key = s.lower()
            if pub > cutoff or key in seen:
                continue
            kind = kind_of(s, f)
            crit = criteria_of(s)
            if kind is None or len(crit) < MIN_CRITERIA:
                continue
            seen.add(key)
            found.append(
                Inspiration(
                    inspiration_id=_id(r.record_id, pid, s),
                    kind=kind,
                    text=s,
                    quote=s,
                    paper_id=pid,
                    published=pub,
                    field=f,
                    node_id=r.node_id,
                    node_label=r.node_label,
                    record_id=r.record_id,
                    criteria=crit,
                )
            )
        out += diverse(found)[:MAX_PER_RECORD]
    return out


# ---- model-drafted (through the LLM resource) -----------------------------------------------


class DraftedInspiration(BaseModel):
    kind: Kind
    inspiration: str = Field(description="the research-worthy idea in one sentence")
    quote: str = Field(description="the sentence it rests on, copied verbatim from the list")
    criteria: list[str] = Field(
        default_factory=list, description="which of novelty, explorability, challenge, verifiability it meets"
    )


class InspirationReply(BaseModel):
    inspirations: list[DraftedInspiration] = Field(default_factory=list)


INSPIRATION_PROMPT = """You are Inspira Agent (DeepResearch Arena). From the numbered sentences below, all taken
verbatim from papers published on or before {cutoff} on "{label}", extract research inspirations: research-worthy
ideas that meet at least two of novelty, explorability, challenge, verifiability. Type each as one of:
limitation (an open problem, deficiency or bottleneck of existing methods), methodology (a new or adapted approach,
pipeline or tool), transdisciplinarity (a fusion of theories or tools across disciplines), hypothesis (a testable
proposition that guides design or evaluation). Copy the sentence each rests on verbatim as "quote".
Reply with JSON: {{"inspirations": [{{"kind": str, "inspiration": str, "quote": str, "criteria": [str]}}]}}

{sentences}"""


def draft_inspirations(client, records: list[EvidenceRecord], cutoff: date) -> list[Inspiration]:
    """One model call per record (purpose "arena_inspirations"); a quote that is not one of
    the record's verbatim sentences is dropped, and a record whose call fails or yields
    nothing falls back to the offline extractor (recorded as extractor "rules")."""
    out: list[Inspiration] = []
    seen: set[str] = set()
    for r in sorted(records, key=lambda r: r.record_id):
        sents = [x for x in record_sentences(r) if x[3] <= cutoff]
        if not sents:
            continue
        by_text = {s.lower(): (f, s, pid, pub) for f, s, pid, pub in sents}
        numbered = "\n".join(f"{i}. [{pid}] {s}" for i, (_, s, pid, _) in enumerate(sents, 1))
        kept: list[Inspiration] = []
        try:
            reply = client.structured(
                INSPIRATION_PROMPT.format(cutoff=cutoff.isoformat(), label=r.node_label, sentences=numbered[:8000]),
                InspirationReply,
                purpose="arena_inspirations",
                temperature=0.0,
            )
            for d in reply.inspirations:
                hit = by_text.get(" ".join(d.quote.split()).lower())
                if hit is None or hit[1].lower() in seen:
                    continue
                crit = [c for c in d.criteria if c in CRITERIA]
                if len(crit) < MIN_CRITERIA:
                    continue
                f, s, pid, pub = hit
                seen.add(s.lower())
                kept.append(
                    Inspiration(
                        inspiration_id=_id(r.record_id, pid, s),
                        kind=d.kind,
                        text=" ".join(d.inspiration.split()) or s,
                        quote=s,
                        paper_id=pid,
                        published=pub,
                        field=f,
                        node_id=r.node_id,
                        node_label=r.node_label,
                        record_id=r.record_id,
                        criteria=crit,
                        extractor=getattr(client, "model", None) or "llm",
                    )
                )
        except Exception:  # noqa: BLE001 - the documented fallback is the offline extractor
            kept = []
        if not kept:
            kept = [i for i in extract_inspirations([r], cutoff) if i.quote.lower() not in seen]
            seen |= {i.quote.lower() for i in kept}
        out += kept[:MAX_PER_RECORD]
    return out

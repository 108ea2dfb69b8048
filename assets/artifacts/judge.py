"""The model path: one judge call per answer writes the evidence tuples and labels each
claim's chain stages and drifts (through the LLM resource; cached, accounted).

The model is never taken at its word where a mechanical check exists: every quote it
writes is verified against the paper's pre-cutoff text like any other (`tuples.verify`),
and a claim's evidence stage passes only if a tuple it rests on has a verified quote (else
it is downgraded to partial). Claims the reply leaves out get the offline verdicts.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field

from assets.artifacts.tuples import PaperSource
from core.records import Answer, Task

PROMPT_VERSION = "xcientist-artifacts-v1"
PASSAGE_CHARS = 1500  # per cited paper, in the prompt
MAX_PAPERS = 8

Outcome = Literal["pass", "partial", "blocked"]


class JudgeTuple(BaseModel):
    paper_id: str
    keywords: list[str] = Field(default_factory=list)
    summary: str = ""
    insight: str = ""
    quote: str = ""


class JudgeClaim(BaseModel):
    claim_index: int
    tuple_indexes: list[int] = Field(default_factory=list)
    evidence: Outcome = "blocked"
    mechanism: Outcome = "blocked"
    decision: Outcome = "blocked"
    claim: Outcome = "blocked"
    reason: str = ""
    drift: list[Literal["semantic", "experimental", "mechanistic"]] = Field(default_factory=list)
    drift_detail: str = ""


class JudgeArtifacts(BaseModel):
    tuples: list[JudgeTuple] = Field(default_factory=list)
    claims: list[JudgeClaim] = Field(default_factory=list)


def messages(answer: Answer, task: Task | None, sources: list[PaperSource]) -> list[dict]:
    papers = (
        "\n\n".join(f"[{s.paper_id}] {s.title}\n{s.text[len(s.title) :].strip()[:PASSAGE_CHARS]}" for s in sources[:MAX_PAPERS])
        or "(the answer cites no paper)"
    )
    claims = "\n".join(f"{k}. {c}" for k, c in enumerate(answer.claims)) or "(no claims)"
    decision = "\n".join(f"- {d}" for d in answer.decision) or "(no decision)"
    question = task.question if task is not None else ""
    system = (
        "You audit whether a research answer's claims are attributable to its evidence (Xcientist). "
        "Use only the cited passages. Quotes must be copied verbatim from a passage."
    )
    user = (
        f"Task: {question}\n\nDecision:\n{decision}\n\nClaims:\n{claims}\n\nCited pre-cutoff passages:\n{papers}\n\n"
        "1) tuples: for each piece of evidence the claims rely on, write {paper_id, keywords (<=5), summary "
        "(one line), insight (why it matters for the answer), quote (a verbatim sentence from that passage)}.\n"
        "2) claims: for every claim index, judge its chain: evidence (does a quoted passage state it?), mechanism "
        "(does the answer say why, grounded in the evidence?), decision (is it on the answer's decision?), claim "
        "(is it specific enough to check?) -- each pass, partial or blocked (partial = only in part; blocked = "
        "missing or contradicted); tuple_indexes it rests on; drift: any of semantic (says more or other than "
        "the evidence), experimental (rests on an evaluation the evidence did not report), mechanistic (its "
        "claimed cause differs from the evidence's), with drift_detail.\nReply with JSON: tuples, claims."
    )
    return [{"role": "system", "content": system}, {"role": "user", "content": user}]


def ask(client, answer: Answer, task: Task | None, sources: list[PaperSource]) -> JudgeArtifacts:
    return client.structured(messages(answer, task, sources), JudgeArtifacts, purpose="artifacts:chain", temperature=0.0)

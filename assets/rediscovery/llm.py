"""Model-backed parts of the rediscovery family (through the one LLM doorway, resources/llm.py).

* `draft_tree`: the problem tree drafted by the model from the paper's text (FIRE-Bench
  App. G.1 prompt, shortened), falling back to the sentence-role tree when the reply is
  unusable (no leaf with a conclusion).
* `judge_claims`: ONE call per answer (batched, never one per claim pair): the model
  receives the numbered answer claims and gold claims and returns, per answer claim, the
  gold claim that entails it (or none) with an error type, and per gold claim whether it
  was rediscovered, with an error type when not. P/R/F1 are computed from the labels
  exactly as offline (`claims.score_claims` shape).
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field

from assets.rediscovery.tree import problem_tree
from core.claims import ERROR_TYPES, ClaimScore, claim_score

ErrorType = Literal["contradictory", "unrelated", "overgeneralized", "alternative"]


class Leaf(BaseModel):
    task: str = ""
    protocol_or_setup: str = ""
    conclusion: str = ""


class TreeReply(BaseModel):
    root: str = Field(description="the broadest research problem of the paper")
    sub_question: str = Field(description="the narrower research question whose answer is the main finding, as a question")
    leaf: Leaf


TREE_PROMPT = """You are a research-paper expert. Parse the paper below into a research-problem tree:
root (broadest problem), one sub-question (the parent of the main experiment, phrased as a question that does
NOT state the result), and the leaf: the experiment's task, its setup (datasets, models, metrics, protocol; no
results) and its conclusion (the empirical findings, explicit, one sentence each). Use only the paper's text.
Reply with JSON: {{"root": str, "sub_question": str, "leaf": {{"task": str, "protocol_or_setup": str, "conclusion": str}}}}

Title: {title}
Text: {text}"""


def draft_tree(client, paper, sections=None) -> dict:
    """The tree drafted by the model (purpose "rediscovery_tree"), in the offline tree's shape."""
    base = problem_tree(paper, sections)
    text = paper.abstract + "".join(
        f"\n[{s.name}] {s.text[:1500]}" for s in (sections or []) if s.name in ("experiments", "conclusion")
    )
    try:
        reply = client.structured(
            TREE_PROMPT.format(title=paper.title, text=text[:6000]), TreeReply, purpose="rediscovery_tree", temperature=0.0
        )
    except Exception:  # noqa: BLE001 - the documented fallback is the sentence-role tree
        return base
    if not reply.leaf.conclusion.strip():
        return base
    child = base["problem_tree"]["children"][0]
    child["node"] = reply.sub_question.strip()
    leaf = child["children"][0]
    leaf.update(task=reply.leaf.task, protocol_or_setup=reply.leaf.protocol_or_setup, conclusion=reply.leaf.conclusion)
    base["problem_tree"]["node"] = f"Root: {reply.root}"
    base["drafted_by"] = getattr(client, "model", "llm")
    return base


class AnswerClaimLabel(BaseModel):
    index: int
    entailed_by: int | None = Field(None, description="number of the gold claim that entails it, or null")
    error_type: ErrorType | None = None


class GoldClaimLabel(BaseModel):
    index: int
    rediscovered: bool
    error_type: ErrorType | None = None


class JudgeReply(BaseModel):
    answer_claims: list[AnswerClaimLabel]
    gold_claims: list[GoldClaimLabel]


JUDGE_PROMPT = """You compare an agent's predicted findings with a paper's true findings (FIRE-Bench).
For EACH answer claim: the number of a gold claim that entails it (semantic equivalence or a faithful weaker
statement), else null and an error type. For EACH gold claim: whether some answer claim rediscovers it, else an
error type. Error types: contradictory (conflicts with the finding), unrelated (does not address it),
overgeneralized (broader than the evidence supports), alternative (a plausible different conclusion).
Reply with JSON: {{"answer_claims": [{{"index": i, "entailed_by": j or null, "error_type": t or null}}],
"gold_claims": [{{"index": j, "rediscovered": bool, "error_type": t or null}}]}}

Research question: {question}
Answer claims:
{answer}
Gold claims:
{gold}"""


def judge_claims(client, question: str, answer: list[str], gold: list[str]) -> ClaimScore:
    """One batched judge call for one answer (purpose "rediscovery_judge")."""
    numbered = lambda xs: "\n".join(f"{i}. {x}" for i, x in enumerate(xs, 1)) or "(none)"  # noqa: E731
    reply = client.structured(
        JUDGE_PROMPT.format(question=question[:1500], answer=numbered(answer), gold=numbered(gold)),
        JudgeReply,
        purpose="rediscovery_judge",
        temperature=0.0,
    )
    matches, fp_types, fn_types = {}, {}, {}
    by_a = {lab.index: lab for lab in reply.answer_claims}
    for i in range(len(answer)):
        lab = by_a.get(i + 1)
        if lab is not None and lab.entailed_by is not None and 1 <= lab.entailed_by <= len(gold):
            matches[i] = lab.entailed_by - 1
        else:
            fp_types[i] = lab.error_type if lab is not None and lab.error_type in ERROR_TYPES else "unrelated"
    by_g = {lab.index: lab for lab in reply.gold_claims}
    covered = set(matches.values())
    for j in range(len(gold)):
        lab = by_g.get(j + 1)
        if j in covered:  # a gold claim some answer claim is entailed by is rediscovered, whatever the label says
            continue
        fn_types[j] = lab.error_type if lab is not None and lab.error_type in ERROR_TYPES else "unrelated"
    return claim_score(answer, gold, matches, fp_types, fn_types)

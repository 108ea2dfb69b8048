"""Adaptively-generated Checklist Evaluation (DeepResearch Arena §4, App. C).

Stage one writes a weighted checklist for a task from its PUBLIC prompt only (title,
question, instructions, requirements); stage two scores an answer item by item; the
task-level score is the weighted sum of the item scores. Weights are normalised to sum to
1 and item scores lie in [0, 1], so ACE lies in [0, 1] (the paper reports a 0-10 scale:
multiply by 10 to compare).

Checklists are made once per task, before any answer exists, and stored with the release
(`checklists.jsonl` and the `ace_checklists` table), so a score can be re-derived from the
stored checklist and the answer (`ace_score`).

Offline (documented, deterministic): one checklist per phase (`PHASE_ITEMS`), adapted to the
task by its subject terms (the content words of its public prompt, named in the subject
item); each item has a cue-based check of the answer's own words (`item_score`). With a
model: stage one is one call per task (CHECKLIST_TEMPLATE), stage two one batched call per
answer (SINGLE_CRITERION scoring of every item at once), both through the LLM resource.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections import Counter

from pydantic import BaseModel, Field

from assets.arena.kae import answer_body, sentences
from core.records import Task
from core.text import content_tokens

SUBJECT_TERMS = 8  # content words of the prompt the subject item looks for
SUBJECT_FULL = 0.5  # share of them an answer must use for full credit
CITES_FULL = 3  # cited pre-cutoff papers for full grounding credit
KEYPOINTS_FULL = 3
PROMPT_VERSION = "ace-1"


class ChecklistItem(BaseModel):
    item_id: str
    title: str
    description: str
    weight: float
    check: str = ""  # offline: the cue check that scores it ("" with a model-written item)
    terms: list[str] = Field(default_factory=list)  # offline subject item: the prompt terms it looks for


class Checklist(BaseModel):
    task_id: str
    family: str
    phase: str = ""
    items: list[ChecklistItem]
    generated_by: str = "offline"  # "offline" or the model that wrote it
    prompt_version: str = PROMPT_VERSION
    prompt_sha: str = ""  # sha256 of the public prompt it was made from

    def normalised(self) -> Checklist:
        total = sum(max(0.0, i.weight) for i in self.items)
        weights = [round(max(0.0, i.weight) / total, 6) if total else round(1 / len(self.items), 6) for i in self.items]
        if weights:  # the rounding residue goes to the last item, so the weights still sum to 1 (6 x 0.166667 does not)
            weights[-1] = round(1.0 - sum(weights[:-1]), 6)
        items = [i.model_copy(update={"weight": w}) for i, w in zip(self.items, weights)]
        return self.model_copy(update={"items": items})


# item: (id, title, description, check, weight); check names a cue test below
_GROUND = ("grounding", "Grounded in prior work", "cites pre-cutoff papers of the knowledge base for its statements", "cites")
_SUBJECT = ("subject", "Addresses the task's subject", "uses the subject of the task: {terms}", "subject")
PHASE_ITEMS: dict[str, list[tuple[str, str, str, str, float]]] = {
    "synthesize": [
        (*_GROUND, 0.25),
        (*_SUBJECT, 0.25),
        ("gap", "Identifies the gap", "names an open problem, limitation or missing piece in the prior work", "gap", 0.2),
        (
            "integration",
            "Integrates several works",
            "states several distinct key points drawn from different works",
            "keypoints",
            0.15,
        ),
        ("direction", "States the direction", "says which research direction the synthesis points to", "direction", 0.15),
    ],
    "design": [
        (*_GROUND, 0.2),
        (*_SUBJECT, 0.2),
        (
            "method",
            "Proposes a concrete method",
            "describes the method, model, pipeline or algorithm it proposes",
            "method",
            0.25,
        ),
        (
            "experiments",
            "Specifies the experiments",
            "names datasets, baselines or ablations that would test it",
            "experiments",
            0.2,
        ),
        ("risks", "States assumptions and risks", "says what the design assumes and where it may fail", "risks", 0.15),
    ],
    "evaluate": [
        (*_GROUND, 0.15),
        (*_SUBJECT, 0.2),
        ("benchmarks", "Names benchmarks", "names the benchmarks, datasets or settings of the evaluation", "experiments", 0.2),
        ("metrics", "Defines metrics", "defines the metrics the claim is measured with", "metrics", 0.2),
        ("rigour", "Baselines and statistics", "compares against baselines with a statistical test or repeats", "rigour", 0.25),
    ],
}
GENERIC_ITEMS = [
    (*_GROUND, 0.3),
    (*_SUBJECT, 0.4),
    ("keypoints", "Commits to key points", "states concrete key points", "keypoints", 0.3),
]

CUES: dict[str, re.Pattern] = {
    "gap": re.compile(
        r"\b(gap|limitation\w*|limited|lack\w*|open (?:problem|question)|missing|fail\w*|struggl\w*|"
        r"unclear|unsolved|bottleneck\w*|challenge\w*)\b",
        re.I,
    ),
    "direction": re.compile(
        r"\b(direction\w*|future|next step\w*|should|opportunit\w*|promising|we propose|"
        r"research agenda|point\w* to)\b",
        re.I,
    ),
    "method": re.compile(
        r"\b(method|model|pipeline|algorithm|architecture|framework|module|train\w*|"
        r"propos\w*|design\w*|approach)\b",
        re.I,
    ),
    "experiments": re.compile(
        r"\b(experiment\w*|dataset\w*|benchmark\w*|baseline\w*|ablation\w*|test set|"
        r"evaluat\w* on|task suite)\b",
        re.I,
    ),
    "risks": re.compile(
        r"\b(risk\w*|assum\w*|limitation\w*|fail\w*|threat\w*|cost\w*|trade-?off\w*|"
        r"may not|caveat\w*)\b",
        re.I,
    ),
    "metrics": re.compile(
        r"\b(metric\w*|accuracy|f1|precision|recall|success rate|score\w*|latency|error rate|"
        r"auc|bleu|rouge|win rate|pass@\d+)\b",
        re.I,
    ),
    "rigour": re.compile(
        r"\b(baseline\w*|significan\w*|confidence interval\w*|bootstrap\w*|p-value\w*|"
        r"statistical\w*|variance|seeds?|repeat\w*|ablation\w*)\b",
        re.I,
    ),
}


def public_prompt(task: Task) -> str:
    """Everything stage one may read: the task's public text, nothing else."""
    return "\n".join([task.title, task.question, task.instructions, *task.answer_requirements])


def prompt_terms(task: Task, k: int = SUBJECT_TERMS) -> list[str]:
    """The prompt's subject terms: its most frequent content words (title and question only,
    so the family's fixed instructions do not count), ties in text order."""
    toks = content_tokens(f"{task.title} {task.question}")
    counts = Counter(toks)
    boiler = set(
        content_tokens(
            "synthesize design evaluate published cutoff prior work research direction "
            "experiments evaluation protocol benchmarks metrics baselines statistical tests "
            "knowledge base window paper reported claim approach inspiration"
        )
    )
    order = {t: i for i, t in reversed(list(enumerate(toks)))}
    ranked = sorted((t for t in counts if t not in boiler and not t.isdigit()), key=lambda t: (-counts[t], order[t]))
    return ranked[:k]


def offline_checklist(task: Task, phase: str) -> Checklist:
    """Stage one offline: the phase's items, the subject item naming the prompt's terms."""
    terms = prompt_terms(task)
    items = [
        ChecklistItem(
            item_id=i,
            title=t,
            description=d.format(terms=", ".join(terms) or "(none)"),
            weight=w,
            check=c,
            terms=terms if c == "subject" else [],
        )
        for i, t, d, c, w in PHASE_ITEMS.get(phase, GENERIC_ITEMS)
    ]
    return Checklist(task_id=task.task_id, family=task.family, phase=phase, items=items, prompt_sha=prompt_sha(task)).normalised()


def prompt_sha(task: Task) -> str:
    return hashlib.sha256(public_prompt(task).encode()).hexdigest()[:16]


def item_score(item: ChecklistItem, body: str, n_cited: int, n_keypoints: int) -> float:
    """Stage two offline: one item's local score in [0, 1] from the answer's own words."""
    if item.check == "cites":
        return min(1.0, n_cited / CITES_FULL)
    if item.check == "subject":
        if not item.terms:
            return 0.0
        words = set(content_tokens(body))
        return min(1.0, sum(t in words for t in item.terms) / len(item.terms) / SUBJECT_FULL)
    if item.check == "keypoints":
        return min(1.0, n_keypoints / KEYPOINTS_FULL)
    cue = CUES.get(item.check)
    if cue is None:
        return 0.0
    hits = sum(bool(cue.search(s)) for s in sentences(body.replace("\n", " ")))
    return min(1.0, hits / 2)  # two sentences that do it: full credit; one: half


def ace_score(checklist: Checklist, scores: dict[str, float]) -> float:
    """The weighted sum of item scores (a missing item scores 0)."""
    return sum(i.weight * min(1.0, max(0.0, scores.get(i.item_id, 0.0))) for i in checklist.items)


def offline_item_scores(checklist: Checklist, answer) -> dict[str, float]:
    body = answer_body(answer.text)
    return {
        i.item_id: item_score(i, body, len(set(answer.evidence_ids)), len([d for d in answer.decision if d.strip()]))
        for i in checklist.items
    }


# ---- with a model --------------------------------------------------------------------------------


class DraftedItem(BaseModel):
    title: str
    description: str
    weight: float


class ChecklistReply(BaseModel):
    items: list[DraftedItem] = Field(default_factory=list)


class ItemScore(BaseModel):
    index: int
    score: float = Field(description="0 (not met) to 10 (fully met)")


class ItemScoresReply(BaseModel):
    scores: list[ItemScore] = Field(default_factory=list)


CHECKLIST_PROMPT = """You write an evaluation checklist (CHECKLIST_TEMPLATE, DeepResearch Arena ACE) for the
research task below. Meta-analyse what a strong answer must do; write 4-7 criteria (factual correctness,
methodological soundness, coverage, reasoning clarity, format, as the task needs), each with a short title, a
description and a relative weight; weights sum to 1.
Reply with JSON: {{"items": [{{"title": str, "description": str, "weight": float}}]}}

Task:
{prompt}"""

SCORE_PROMPT = """Score the response against EACH numbered criterion independently (SINGLE_CRITERION scoring,
DeepResearch Arena ACE): 0 = not met, 10 = fully met.
Reply with JSON: {{"scores": [{{"index": i, "score": number}}]}}

Task:
{prompt}

Criteria:
{criteria}

Response:
{response}"""


def model_checklist(ask, task: Task, phase: str, model: str) -> Checklist:
    """Stage one with a model (one call); an empty reply falls back to the offline checklist."""
    reply = ask(CHECKLIST_PROMPT.format(prompt=public_prompt(task)[:4000]), ChecklistReply, "arena_ace_checklist")
    items = [
        ChecklistItem(item_id=f"c{i}", title=d.title.strip(), description=d.description.strip(), weight=d.weight)
        for i, d in enumerate(reply.items, 1)
        if d.title.strip()
    ]
    if not items:
        return offline_checklist(task, phase)
    return Checklist(
        task_id=task.task_id, family=task.family, phase=phase, items=items, generated_by=model, prompt_sha=prompt_sha(task)
    ).normalised()


def model_item_scores(ask, task: Task, checklist: Checklist, answer) -> dict[str, float]:
    """Stage two with a model: one batched call; scores 0-10 mapped to [0, 1]."""
    criteria = "\n".join(f"{n}. {i.title}: {i.description}" for n, i in enumerate(checklist.items, 1))
    reply = ask(
        SCORE_PROMPT.format(prompt=public_prompt(task)[:3000], criteria=criteria, response=answer_body(answer.text)[:6000]),
        ItemScoresReply,
        "arena_ace_score",
    )
    by_n = {s.index: s.score for s in reply.scores}
    return {i.item_id: min(1.0, max(0.0, float(by_n.get(n, 0.0)) / 10)) for n, i in enumerate(checklist.items, 1)}


def checklist_row(c: Checklist) -> dict:
    """One line of the release's checklists.jsonl (canonical: sorted keys)."""
    return json.loads(c.model_dump_json())

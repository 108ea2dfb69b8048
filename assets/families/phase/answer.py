"""Answering a phase task: the answer schema, the offline baselines (the cutoff-bound
knowledge base read for the phase) and the controls' answers (another task's reference, the
generic hedge)."""

from __future__ import annotations

from pydantic import BaseModel, Field

from assets.families.phase.quotes import PHASE_TITLES, SENTENCE_SPLIT
from assets.families.phase.reference import is_phase_sentence
from core.claims import all_stems
from core.records import GoldTarget

GENERIC_HEDGE = (  # the "generic" control: research talk that fits any task
    "Prior work has made progress but important limitations remain.",
    "We propose a novel framework and evaluate it on standard benchmarks against strong baselines.",
    "Future work should study robustness, scalability and generalisation.",
)


class PhaseAnswer(BaseModel):
    report: str = Field(
        default="", description="the research report (markdown): the synthesis, design or evaluation the task asks for"
    )
    keypoints: list[str] = Field(default_factory=list, description="the report's 1-5 key statements, one atomic statement each")
    claims: list[str] = Field(default_factory=list)
    cited_ids: list[str] = Field(default_factory=list)


def offline_phase_answer(ctx, method: str):
    """The offline baselines: the cutoff-bound KB's closest papers, read for the phase.
    retrieval: the hits most similar to the task; momentum: the most recent of them.
    Key points: per hit, its abstract sentence sharing most content with the task (an
    own-work sentence of the phase's kind first, `is_phase_sentence`); the report strings
    them together."""
    task, kb = ctx.task, ctx.kb
    hits = kb.search(task.question, k=ctx.setting("k", 20), mode="hybrid")
    if method == "momentum":
        hits = sorted(hits, key=lambda h: (-h.published.toordinal(), h.arxiv_id))[:8]
    q = all_stems(task.question)
    picked: list[tuple[str, str]] = []
    for h in hits:
        if h.arxiv_id in task.support_paper_ids:
            continue  # the inspirations' own papers are in the question already
        full = kb.get(h.arxiv_id) if len(h.snippet) >= 400 else h
        sents = [s for s in SENTENCE_SPLIT.split((full or h).snippet) if 6 <= len(s.split()) <= 60]
        if not sents:
            continue
        best = max(sents, key=lambda s: (is_phase_sentence(s, task.subtype or ""), len(q & all_stems(s))))
        picked.append((h.arxiv_id, " ".join(best.split())))
        if len(picked) >= 3:
            break
    keypoints = [s for _, s in picked]
    phase = PHASE_TITLES.get(task.subtype, "Report")
    report = "\n".join([f"### {phase}", ""] + [f"- {s} [{pid}]" for pid, s in picked])
    parsed = PhaseAnswer(report=report, keypoints=keypoints, cited_ids=[pid for pid, _ in picked])
    return ctx.render(parsed, method=method, retrieved=hits, retrieval_queries=[task.question], has_support_artifact=bool(hits))


def stated_answer(gold: GoldTarget) -> dict:
    """The gold stated as an answer: the reference keypoints."""
    kps = [v for s in gold.slots for v in s.variants[:1]]
    return {"keypoints": kps, "report": "\n".join(f"- {k}" for k in kps)}


def random_answer(gold: GoldTarget, rng, others: list[GoldTarget]) -> dict:
    """Chance: as many key points as the reference has, drawn from other tasks' reference
    keypoints of the partition (real window sentences, another task)."""
    pool = [v for g in others for s in g.slots for v in s.variants[:1]]
    rng.shuffle(pool)
    kps = pool[: max(1, len(gold.slots))]
    return {"keypoints": kps, "report": "\n".join(f"- {k}" for k in kps)}

"""KAE: Keypoint-Aligned Evaluation (DeepResearch Arena §4, eqs. 4-8).

The keypoints of the cutoff-bound knowledge-base passages an answer cites (its
`evidence_ids`; the paper reads cited web pages), de-duplicated into the Unified Evidence
Keypoints, each labelled supported / conflicting / omitted by the answer's own words:
KSR, KCR, KOR (shares of UEK; they sum to 1). Offline: the lexical proxy of
`assets/arena/kae.py`; with a judge model: two batched calls per answer (extraction,
labelling). An answer citing nothing has no UEK: the three values are null, never 0.

Applies to the phase family (reports) and to bottleneck-opportunity answers (the ForeSci
family whose answer is open text grounded in cited limitations). The option families
(direction, planning, venue) are left out: their decision is an option, and covering the
cited abstracts' facts says little about it.
"""

from __future__ import annotations

from assets.arena.kae import answer_body, judge_keypoints, kae_offline
from assets.scorers.base import Scorer, ScorerResult, ScoringContext
from assets.scorers.llm_judge import ask

MAX_SOURCES = 8  # cited passages read per answer (the first ones cited)


def cited_sources(ctx: ScoringContext) -> dict[str, str]:
    """id -> passage (title and abstract) of the cited papers the cutoff-bound KB returns."""
    out: dict[str, str] = {}
    if ctx.kb_get is None:
        return out
    for pid in list(dict.fromkeys(ctx.answer.evidence_ids))[:MAX_SOURCES]:
        hit = ctx.kb_get(pid)
        if hit is not None and hit.snippet:
            out[pid] = hit.snippet
    return out


def judge_ask(ctx: ScoringContext):
    """`ask(prompt, schema, purpose)` through the judge client, counted in the answer's ledger."""

    def _ask(prompt: str, schema, purpose: str):
        return ask(ctx.judge, [{"role": "user", "content": prompt}], schema, purpose=purpose, ledger=ctx.ledger, temperature=0.0)

    return _ask


class KAE(Scorer):
    name = "kae"
    title = "Keypoint-Aligned Evaluation"
    summary = (
        "keypoints of the cited KB passages, de-duplicated (UEK); KSR/KCR/KOR = supported/conflicting/omitted share in the answer"
    )
    source = "DeepResearch Arena §4, eqs. 4-8"
    values = ("ksr", "kcr", "kor")
    headline = ("ksr",)
    labels = {"ksr": "KSR", "kcr": "KCR", "kor": "KOR"}
    leaderboard = {"ksr": "ksr", "kcr": "kcr", "kor": "kor"}
    leaderboard_rank = 40
    families = ("phase", "bottleneck")

    def score(self, ctx: ScoringContext) -> ScorerResult:
        sources = cited_sources(ctx)
        body = answer_body(ctx.answer.text)
        result = None
        if ctx.judge is not None and sources:
            try:
                result = judge_keypoints(judge_ask(ctx), ctx.task.question, body, sources)
            except Exception as exc:  # noqa: BLE001 - recorded; the offline proxy scores it
                ctx.fail("kae", exc)
        if result is None:
            result = kae_offline(body, sources)
        rates = result.rates()
        if rates["ksr"] is None:
            return ScorerResult(rates, f"no keypoints: {len(sources)} cited passage(s) readable")
        n = len(result.keypoints)
        return ScorerResult(
            rates,
            f"{result.how}: {n} UEK keypoints from {len(sources)} cited passages; "
            f"supported {result.labels.count('supported')}, conflicting "
            f"{result.labels.count('conflicting')}, omitted {result.labels.count('omitted')}",
        )

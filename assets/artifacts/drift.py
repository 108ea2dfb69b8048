"""Claim-drift audit (Xcientist §3.1, §4), offline rules for each final claim:

* semantic drift -- the claim says more or other than its evidence: it is anchored to a
  verified quote (the evidence stage is partial: the quote holds some, not most, of its
  words), or it adds an absolute/amplifying word (AMPLIFIERS: "always", "all", "solves",
  ...) that none of its cited papers' text uses;
* experimental drift -- the claim rests on an evaluation (EVAL_CUES: outperforms,
  accuracy, benchmark, ...) but no sentence of its cited papers reports an evaluation
  (an evaluation cue) about what the claim is about (>= PARTIAL_OVERLAP of its words);
* mechanistic drift -- the claim names a cause (CAUSE_AFTER / CAUSE_BEFORE cues) that no
  sentence of its cited papers states (< PASS_OVERLAP of the cause's words); when a
  cited sentence states a cause of its own, it is given as the evidence's cause.

Cues are read outside the claim's quoted spans and the task's option texts (names, not
assertions: `text.unquoted`).
Claims with no evidence at all are not drift: they are unattributed (the chain's evidence
stage is blocked), which attribution completeness counts.
"""

from __future__ import annotations

from collections.abc import Sequence

from assets.artifacts.text import (
    CAUSE_AFTER,
    CAUSE_BEFORE,
    EVAL_CUES,
    amplifiers,
    cause_span,
    claim_words,
    has_cue,
    overlap,
    source_words,
    unquoted,
)
from assets.artifacts.tuples import PaperSource
from assets.artifacts.validators import PARTIAL_OVERLAP, PASS_OVERLAP, best_quote
from core.records import Answer, ClaimDrift, EvidenceTuple


def _drift(answer: Answer, k: int, claim: str, kind: str, detail: str, evidence: str) -> ClaimDrift:
    return ClaimDrift(
        answer_id=answer.answer_id,
        task_id=answer.task_id,
        family=answer.family,
        method=answer.method,
        backbone=answer.backbone,
        claim_index=k,
        claim=claim,
        kind=kind,
        detail=detail,
        evidence=evidence[:400],
    )


def audit_claim(
    k: int, claim: str, answer: Answer, tuples: list[EvidenceTuple], sources: list[PaperSource], names: Sequence[str] = ()
) -> list[ClaimDrift]:
    """Every drift of claim `k` against its cited papers (`sources`) and verified tuples;
    `names` (the task's option texts) are not read for cues."""
    out: list[ClaimDrift] = []
    words = claim_words(claim)
    share, best = best_quote(words, tuples)
    sentences = [s for src in sources for _, s in src.sentences()]
    # semantic
    if best is not None and PARTIAL_OVERLAP <= share < PASS_OVERLAP:
        missing = sorted(words - source_words(best.quote))[:8]
        out.append(
            _drift(
                answer,
                k,
                claim,
                "semantic",
                f"anchored to a quote holding {share:.0%} of its words; not in it: {', '.join(missing)}",
                best.quote,
            )
        )
    else:
        text = " ".join(sentences).lower()
        added = sorted(a for a in amplifiers(claim, names) if f" {a} " not in f" {text} ")
        if added and sentences:
            out.append(
                _drift(
                    answer, k, claim, "semantic", f"adds {', '.join(added)}: no cited paper says so", best.quote if best else ""
                )
            )
    # experimental
    cues = has_cue(unquoted(claim, names), EVAL_CUES)
    if cues and sources:
        reported = [s for s in sentences if has_cue(s, EVAL_CUES) and overlap(words, source_words(s)) >= PARTIAL_OVERLAP]
        if not reported:
            out.append(
                _drift(
                    answer,
                    k,
                    claim,
                    "experimental",
                    f"rests on an evaluation ({', '.join(cues[:3])}) no cited paper reports",
                    best.quote if best else "",
                )
            )
    # mechanistic
    cause = cause_span(claim, names)
    cause_words = claim_words(cause)
    if cause_words and sources:
        covered = max((overlap(cause_words, source_words(s)) for s in sentences), default=0.0)
        if covered < PASS_OVERLAP:
            theirs = [
                s
                for s in sentences
                if has_cue(s, CAUSE_AFTER + CAUSE_BEFORE) and overlap(words - cause_words, source_words(s)) > 0
            ]
            detail = f"claimed cause '{cause[:100]}' is stated by no cited paper ({covered:.0%} of its words)"
            out.append(
                _drift(
                    answer,
                    k,
                    claim,
                    "mechanistic",
                    detail + ("; the evidence's own cause is quoted" if theirs else ""),
                    theirs[0] if theirs else (best.quote if best else ""),
                )
            )
    return out

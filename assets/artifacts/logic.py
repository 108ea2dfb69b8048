"""Answer artifacts (Xcientist): evidence tuples, chain validations, claim drift and
attribution completeness for every answer of every family -- plain functions, no Dagster.

`build_artifacts` is family-agnostic: it reads only what every `Answer` has (claims,
decision texts, cited evidence ids, artifacts) and the cited papers' pre-cutoff text, so a
family registered later gets artifacts with no change here.
"""

from __future__ import annotations

from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor

from assets.artifacts import judge as judge_mod
from assets.artifacts.drift import audit_claim
from assets.artifacts.tuples import SourceLookup, agent_tuples, offline_tuples, stated_tuples
from assets.artifacts.validators import STAGES, validate_claim, validation, worst
from core.records import Answer, AnswerArtifacts, ChainValidation, ClaimDrift, Failure, Task

STAGE = "answer_artifacts"


def attribution_completeness(validations: Sequence[ChainValidation], n_claims: int) -> float:
    """Share of the final claims whose chain passed (partial never counts); 0.0 with no claim:
    an answer that claims nothing has nothing attributable (docs/xcientist.md)."""
    passed = {v.claim_index for v in validations if v.stage == "chain" and v.outcome == "pass"}
    return len(passed) / n_claims if n_claims else 0.0


def option_texts(task: Task | None) -> list[str]:
    return [o.text for o in task.options] if task is not None else []


def _judged(answer: Answer, task: Task | None, reply: judge_mod.JudgeArtifacts, tuples, sources, model: str):
    """Chain validations and drifts from a judge reply, with the mechanical checks on top."""
    by_claim = {c.claim_index: c for c in reply.claims}
    validations: list[ChainValidation] = []
    drifts: list[ClaimDrift] = []
    for k, claim in enumerate(answer.claims):
        verdict = by_claim.get(k)
        if verdict is None:  # the reply skipped it: offline verdicts
            validations += validate_claim(k, claim, answer, task, tuples)
            drifts += audit_claim(k, claim, answer, tuples, sources, option_texts(task))
            continue
        used = [tuples[i] for i in verdict.tuple_indexes if 0 <= i < len(tuples)]
        outcomes = {s: getattr(verdict, s) for s in STAGES}
        reasons = {s: verdict.reason for s in STAGES}
        if outcomes["evidence"] == "pass" and not any(t.quote_status == "verified" for t in used):
            outcomes["evidence"] = "partial"
            reasons["evidence"] = "the judge passed it, but no tuple it rests on has a verbatim quote"
        ids = [t.tuple_id for t in used]
        for s in STAGES:
            validations.append(validation(answer, k, claim, s, outcomes[s], reasons[s], ids, model))
        validations.append(
            validation(
                answer,
                k,
                claim,
                "chain",
                worst(outcomes.values()),
                "every stage passed" if worst(outcomes.values()) == "pass" else verdict.reason,
                ids,
                model,
            )
        )
        for kind in dict.fromkeys(verdict.drift):
            drifts.append(
                ClaimDrift(
                    answer_id=answer.answer_id,
                    task_id=answer.task_id,
                    family=answer.family,
                    method=answer.method,
                    backbone=answer.backbone,
                    claim_index=k,
                    claim=claim,
                    kind=kind,
                    detail=verdict.drift_detail,
                    evidence=used[0].quote if used else "",
                    detector=model,
                )
            )
    return validations, drifts


def build_artifacts(answer: Answer, task: Task | None, lookup: SourceLookup, judge=None) -> tuple[AnswerArtifacts, list[Failure]]:
    """The artifacts of one answer. `judge`: an online LLM client, or None for the offline rules."""
    failures: list[Failure] = []
    sources = [s for s in (lookup(p) for p in dict.fromkeys(answer.evidence_ids)) if s is not None]
    stated = agent_tuples(answer)
    reply = None
    if judge is not None:
        try:
            reply = judge_mod.ask(judge, answer, task, sources)
        except Exception as exc:  # noqa: BLE001 - the answer falls back to the offline rules
            failures.append(Failure(stage=STAGE, item_id=answer.answer_id, reason=f"judge: {type(exc).__name__}: {exc}"[:1000]))
    if stated is not None:
        tuples = stated_tuples(answer, stated, lookup, "agent")
    elif reply is not None:
        tuples = stated_tuples(answer, [t.model_dump() for t in reply.tuples], lookup, "judge")
    else:
        tuples = offline_tuples(answer, lookup)
    if reply is not None:
        validations, drifts = _judged(answer, task, reply, tuples, sources, judge.model)
    else:
        validations, drifts = [], []
        for k, claim in enumerate(answer.claims):
            validations += validate_claim(k, claim, answer, task, tuples)
            drifts += audit_claim(k, claim, answer, tuples, sources, option_texts(task))
    n = len(answer.claims)
    share = attribution_completeness(validations, n)
    chains = [v.outcome for v in validations if v.stage == "chain"]
    kinds = [d.kind for d in drifts]
    return AnswerArtifacts(
        answer_id=answer.answer_id,
        task_id=answer.task_id,
        family=answer.family,
        method=answer.method,
        backbone=answer.backbone,
        n_claims=n,
        n_attributed=sum(o == "pass" for o in chains),
        attribution_completeness=round(share, 4),
        outcome=worst(chains) if chains else "blocked",
        n_tuples=len(tuples),
        n_quotes_verified=sum(t.quote_status == "verified" for t in tuples),
        drift_semantic=kinds.count("semantic"),
        drift_experimental=kinds.count("experimental"),
        drift_mechanistic=kinds.count("mechanistic"),
        validator=judge.model if reply is not None else "offline",
        tuples=tuples,
        validations=validations,
        drifts=drifts,
    ), failures


def build_all(
    answers: Sequence[Answer], tasks: Sequence[Task], lookup: SourceLookup, judge=None, workers: int = 4
) -> tuple[list[AnswerArtifacts], list[Failure]]:
    """Artifacts of every answer, in answer order (threads only with a judge model)."""
    by_id = {t.task_id: t for t in tasks}
    one = lambda a: build_artifacts(a, by_id.get(a.task_id), lookup, judge)  # noqa: E731
    if judge is None:
        results = [one(a) for a in answers]
    else:
        with ThreadPoolExecutor(max_workers=max(1, workers)) as pool:
            results = list(pool.map(one, answers))
    return [r[0] for r in results], [f for r in results for f in r[1]]

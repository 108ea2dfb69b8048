"""Attribution completeness (Xcientist §4): the share of an answer's final claims whose
chain evidence -> mechanism -> decision -> claim passes every validator down to a verbatim,
verified pre-cutoff quote (a partial never counts). Also the claim-drift rate: the share of
final claims with at least one drift (semantic, experimental, mechanistic).

Applies to every family, including families registered later: it reads only what every
answer has. The artifacts come from the `answer_artifacts` asset (offline rules, or the
judge model when one is configured); without them (e.g. scoring control answers) they are
built here by the same offline rules from the cited papers' title and abstract (`kb_get`).
"""

from __future__ import annotations

from assets.artifacts.logic import build_artifacts
from assets.artifacts.tuples import sources_from_get
from assets.scorers.base import Scorer, ScorerResult, ScoringContext


def artifacts_of(ctx: ScoringContext):
    if ctx.artifacts is None:
        ctx.artifacts = build_artifacts(ctx.answer, ctx.task, sources_from_get(ctx.kb_get))[0]
    return ctx.artifacts


class Attribution(Scorer):
    name = "attribution"
    title = "Attribution completeness"
    summary = "share of final claims with a fully validated chain down to a verified pre-cutoff quote"
    source = "Xcientist §4 (attribution completeness, claim-drift rate)"
    values = ("attribution", "claim_drift_rate")
    headline = ("attribution",)
    labels = {"attribution": "Attrib", "claim_drift_rate": "Drift rate"}
    leaderboard = {"attrib": "attribution"}
    leaderboard_rank = 60

    def applies_to(self, family) -> bool:
        return True  # every answer has claims, a decision and cited evidence

    def score(self, ctx: ScoringContext) -> ScorerResult:
        art = artifacts_of(ctx)
        drifted = {d.claim_index for d in art.drifts}
        rate = len(drifted) / art.n_claims if art.n_claims else None
        return ScorerResult(
            {"attribution": art.attribution_completeness, "claim_drift_rate": rate},
            f"{art.n_attributed}/{art.n_claims} claims attributable; "
            f"{art.n_quotes_verified}/{art.n_tuples} quotes verified; {len(drifted)} drifted",
        )

"""Evidence Traceability (ForeSci Appendix C.1, eq. 12): 0.50 e + 0.25 s + 0.25 t.

Offline, only the deterministic linkage: the share of cited ids that exist in the support
packet or the knowledge base dated <= the cutoff (`trace_linkage`). With a judge model,
e = linkage x judged relevance, s and t from the shared rubric call, mean and SD over R
repeats."""

from __future__ import annotations

from assets.judging import metrics
from assets.scorers.base import Scorer, ScorerResult, ScoringContext
from assets.scorers.rubric import mean_std, rubric_repeats


class Trace(Scorer):
    name = "trace"
    title = "Evidence Traceability"
    summary = "do the cited pre-cutoff papers exist, support the claims and trace to the decision"
    source = "ForeSci Appendix C.1, eq. 12"
    values = ("trace", "trace_std", "trace_linkage")
    reported = ("trace", "trace_linkage")
    headline = ("trace", "trace_linkage")  # the linkage is the Trace signal offline
    labels = {"trace": "Trace", "trace_linkage": "Trace-link", "trace_std": "Trace-SD"}
    answer_kinds = ("choice", "ranking", "text")
    needs_judge = True  # the full score; the linkage part is computed offline

    def score(self, ctx: ScoringContext) -> ScorerResult:
        answer, task = ctx.answer, ctx.task
        linkage, note = None, ""
        if answer.has_support_artifact:
            linkage = metrics.trace_linkage(answer.evidence_ids, set(task.support_paper_ids), ctx.kb_dates, ctx.cutoff)
            leaked = metrics.post_cutoff_citations(
                [i for i in answer.evidence_ids if i not in task.support_paper_ids], ctx.kb_dates, ctx.cutoff)
            if leaked:
                note = f"cites ids not dated <= cutoff in the KB: {', '.join(leaked[:5])}"
        values = {"trace": None, "trace_std": None, "trace_linkage": linkage}
        if ctx.judge is None:
            return ScorerResult(values, note)
        traces = [metrics.trace_score(linkage * rr.trace_e, rr.trace_s, rr.trace_t,
                                      has_support_artifact=answer.has_support_artifact)
                  if (linkage is not None and rr.trace_e is not None) else None for rr in rubric_repeats(ctx)]
        trace, trace_std = mean_std(traces)
        values.update(trace=trace, trace_std=trace_std if trace is not None else None)
        return ScorerResult(values, note)

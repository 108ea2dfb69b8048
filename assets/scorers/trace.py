"""Evidence Traceability (ForeSci Appendix C.1, eq. 12): 0.50 e + 0.25 s + 0.25 t.

Offline, the linkage (`trace_linkage`): the share of the answer's decision texts that a
cited, admissible (in the KB, dated <= the cutoff) passage supports by the documented
lexical test of `metrics.supported_share`; it falls for decisions no cited paper states.
Without a KB lookup (no `kb_get`), the older existence test (cited ids resolve to
admissible papers) stands in. With a judge model, e = linkage x judged relevance, s and t
from the shared rubric call, mean and SD over R repeats."""

from __future__ import annotations

from assets.scorers.base import Scorer, ScorerResult, ScoringContext
from assets.scorers.fta import decision_of
from assets.scorers.rubric import mean_std, rubric_repeats
from core import metrics


class Trace(Scorer):
    name = "trace"
    title = "Evidence Traceability"
    summary = "do the cited pre-cutoff papers exist, support the claims and trace to the decision"
    source = "ForeSci Appendix C.1, eq. 12"
    values = ("trace", "trace_std", "trace_linkage")
    reported = ("trace", "trace_linkage")
    headline = ("trace", "trace_linkage")  # the linkage is the Trace signal offline
    labels = {"trace": "Trace", "trace_linkage": "Trace-link", "trace_std": "Trace-SD"}
    leaderboard = {"trace_link": "trace_linkage"}  # the judge's Trace score: in the HTML report
    leaderboard_rank = 10
    answer_kinds = ("choice", "ranking", "text")
    needs_judge = True  # the full score; the linkage part is computed offline

    def score(self, ctx: ScoringContext) -> ScorerResult:
        answer, task = ctx.answer, ctx.task
        linkage, note = None, ""
        if answer.has_support_artifact:
            linkage = metrics.trace_linkage(answer.evidence_ids, set(task.support_paper_ids), ctx.kb_dates, ctx.cutoff)
            if ctx.kb_get is not None:
                linkage = metrics.supported_share(decision_of(answer), self.passages(ctx))
            leaked = metrics.post_cutoff_citations(
                [i for i in answer.evidence_ids if i not in task.support_paper_ids], ctx.kb_dates, ctx.cutoff
            )
            if leaked:
                note = f"cites ids not dated <= cutoff in the KB: {', '.join(leaked[:5])}"
        if linkage is not None and not note:
            note = f"{linkage:.2f} of the decision supported by a cited passage"
        values = {"trace": None, "trace_std": None, "trace_linkage": linkage}
        if ctx.judge is None:
            return ScorerResult(values, note)

        traces = [
            metrics.trace_score(linkage * rr.trace_e, rr.trace_s, rr.trace_t, has_support_artifact=answer.has_support_artifact)
            if (linkage is not None and rr.trace_e is not None)
            else None
            for rr in rubric_repeats(ctx)
        ]
        trace, trace_std = mean_std(traces)
        values.update(trace=trace, trace_std=trace_std if trace is not None else None)
        return ScorerResult(values, note)

    @staticmethod
    def passages(ctx: ScoringContext) -> list[str]:
        """Title + snippet of each cited paper the KB holds dated <= the cutoff."""
        out = []
        for pid in dict.fromkeys(ctx.answer.evidence_ids):
            day = ctx.kb_dates.get(pid)
            hit = ctx.kb_get(pid) if day is not None and metrics._as_date(day) <= ctx.cutoff else None
            if hit is not None:
                out.append(f"{hit.title}. {hit.snippet}")
        return out

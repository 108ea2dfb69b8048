"""The venue gold: the real outcome first, then where similar work was accepted (labelled proxy)."""

from __future__ import annotations

import math
import re

import numpy as np

from assets.corpus.logic import paper_text
from assets.evidence.venues import accepted_family, venue_outcome
from assets.families.venue.options import read_nearness, venue_family
from assets.toolbox.measure import (
    VENUE_FULL_MARGIN,
    VENUE_NEIGHBOUR_QUANTILE,
    VENUE_NEIGHBOURS,
    Claims,
    GoldContext,
    Slots,
    insufficient,
    pct,
)
from core.clustering import unit
from core.records import ClaimBasis, GoldTarget, Signal, Task, TaskBuild

VOTE_NEIGHBOURS = 10  # the rest of an outcome gold's ranking: the outcomes of the project's 10 most similar papers
# ... a family is ranked by those outcomes only with at least MIN_VOTES of them: the fifth-pass
# blind reading of issue 32 found CVPR ranked above SIGIR/KDD/WWW for a tool-planning benchmark on
# 1 similar paper against 0, and SIGIR/KDD above ACL on 0 against 0 broken by the noisy window-title
# proxy. Families below MIN_VOTES follow, ordered by the nearness of their accepted work before the
# cutoff (`options.nearness`, recorded by the build): the evidence the options show.
MIN_VOTES = 2
PROJECT_TEXT = re.compile(r'Project description: "(.*?)"\s', re.DOTALL)
PROXY_KEY = "similarity proxy: the project's closest window papers"
OUTCOME_VOTE_KEY = "the rest of the ranking: the project's most similar papers with a known acceptance"
# Venues whose every submission is public, with its title, while under review (ICLR on OpenReview):
# a project decided there within OPEN_REVIEW_DAYS after the cutoff was a public submission at the
# cutoff, so a reader could look its venue up (issue 32's third-pass reading: two ICLR 2026 golds).
OPEN_SUBMISSION_VENUES = frozenset({"ICLR"})
OPEN_REVIEW_DAYS = 150  # ICLR: submissions public from late September, decisions late January


def venue_gold(ctx: GoldContext, task: Task, build: TaskBuild, signals: dict[str, Signal]) -> GoldTarget:
    """The real outcome first, the similarity proxy's order after it; the proxy alone, labelled, when the
    project has no outcome (module docstring; proxy rules in `assets.toolbox.measure`)."""
    claims, slots = Claims(task.task_id), Slots()
    scope = f"{task.window_start} to {task.window_end}"
    m = PROJECT_TEXT.search(task.question)
    project = m.group(1) if m else task.question
    fam = {
        o.option_id: signals[build.option_signal_ids[o.option_id]]
        for o in task.options
        if build.option_signal_ids.get(o.option_id) in signals
    }
    numbers: dict[str, float] = {"n_future_total": float(len(ctx.future))}
    if len(fam) < 2:
        return insufficient(task, claims, "fewer than two venue options", numbers, [])
    name = {oid: venue_family(s) for oid, s in fam.items()}
    text = {o.option_id: o.text for o in task.options}
    paper = _project_paper(ctx, build)
    outcome = venue_outcome(paper.title, task.cutoff, until=task.window_end) if paper is not None else None
    if outcome is not None and outcome.family not in name.values():
        outcome = None  # accepted in a family the task does not offer: no outcome for this task
    if outcome is not None and getattr(ctx, "ranking_only", False):  # a bootstrap resample: the outcome stays first
        top = next(oid for oid, n in name.items() if n == outcome.family)
        return GoldTarget(
            task_id=task.task_id,
            family=task.family,
            domain=task.domain,
            cutoff=task.cutoff,
            preferred_ranking=[top] + sorted(o for o in fam if o != top),
            strength=1.0,
        )
    scores, near = _proxy_scores(ctx, project, fam)
    future_ids = sorted(ctx.future[i].arxiv_id for i in near)
    numbers["n_future_neighbours"] = float(len(near))
    for oid, v in scores.items():
        numbers[f"venue_score:{oid}"] = round(v, 5)
    proxy = sorted(scores, key=lambda k: (-scores[k], k))
    gap = scores[proxy[0]] - scores[proxy[1]] if len(proxy) >= 2 else 0.0
    margin = min(1.0, max(0.0, gap / VENUE_FULL_MARGIN))
    numbers.update({"proxy_gap": round(gap, 5), "margin": round(margin, 5)})
    counted = {PROXY_KEY: [f"{ctx.future[i].arxiv_id} {ctx.future[i].title[:120]}" for i in near]}
    if outcome is not None:
        top = next(oid for oid, n in name.items() if n == outcome.family)
        voters = _outcome_neighbours(ctx, paper.arxiv_id, set(name.values()))
        votes = {oid: [pid for pid, f in voters if f == name[oid]] for oid in fam}
        rest = rest_of_ranking(
            [o for o in fam if o != top],
            {o: len(votes[o]) for o in fam},
            {o: read_nearness(build.curation.get("nearness", "")).get(name[o], float("-inf")) for o in fam},
            proxy,
        )
        ranking = [top] + rest
        numbers.update(
            {
                "gold_kind_outcome": 1.0,
                "gold_kind_proxy": 0.0,
                "outcome_days_after_cutoff": float((outcome.venue_date - task.cutoff).days),
                "n_outcome_neighbours": float(len(voters)),
                **{f"outcome_votes:{oid}": float(len(v)) for oid, v in votes.items()},
            }
        )
        if proxy:
            numbers["proxy_agrees"] = 1.0 if proxy[0] == top else 0.0
        slots.add("best_venue", [name[top], text[top]])
        track = _track(outcome.decision, name[top])
        numbers["gold_findings"] = 1.0 if outcome.decision.strip().lower() == "findings" else 0.0
        days = (outcome.venue_date - task.cutoff).days
        numbers["open_submission"] = 1.0 if outcome.venue in OPEN_SUBMISSION_VENUES and days <= OPEN_REVIEW_DAYS else 0.0
        claims.add(
            f"{name[top]} is where the project was accepted: its paper ({paper.arxiv_id}) is on the "
            f"{outcome.venue} {outcome.year} accepted-paper list ({track}), decided about "
            f"{outcome.venue_date.isoformat()}, after the cutoff.",
            "venue",
            scope,
            1.0,
            ClaimBasis(check="ranked_first", paper_ids=[paper.arxiv_id], params={"object": top}),
        )
        second = ranking[1]
        by = (
            "the nearness of their accepted work before the cutoff, the titles each option shows"
            if build.curation.get("nearness")
            else "the similarity proxy"
        )
        if len(votes[second]) >= MIN_VOTES:
            claims.add(
                f"{name[second]} ranks second, not by this project's outcome but by where similar work went: "
                f"{len(votes[second])} of the project's {len(voters)} most similar papers with a known "
                f"acceptance were accepted there (families with fewer than {MIN_VOTES} follow {by}).",
                "venue",
                scope,
                0.3,
                ClaimBasis(
                    check="ranked_second", paper_ids=votes[second], values={"n": len(votes[second])}, params={"object": second}
                ),
            )
        else:
            claims.add(
                f"{name[second]} ranks second, not by this project's outcome: of the project's {len(voters)} most "
                f"similar papers with a known acceptance, no other family received {MIN_VOTES} or more, so the "
                f"other families follow {by}.",
                "venue",
                scope,
                0.3,
                ClaimBasis(check="ranked_second", params={"object": second}),
            )
        counted[top] = [f"{paper.arxiv_id} {paper.title[:120]} -> accepted at {outcome.label()} [{outcome.file}]"]
        basis = build.curation.get("basis", "")
        if basis:  # the build's answer-basis rule (options.answer_basis), re-read by validity_problems
            numbers["answer_basis"] = 1.0 if basis.startswith("pass") else 0.0
        counted[OUTCOME_VOTE_KEY] = [f"{pid} -> {f}" for pid, f in voters]
        strength = 1.0
    else:
        if ctx.venue_on_topic is not None and not ctx.venue_on_topic(project):
            return insufficient(
                task,
                claims,
                "no venue outcome, and the project fits no venue community as a paper "
                "of the domain does: no confident proxy gold",
                numbers,
                future_ids,
            )
        if len(proxy) < 2:
            return insufficient(task, claims, "no venue outcome and no proxy scores for the options", numbers, future_ids)
        ranking = proxy + sorted(o for o in fam if o not in proxy)
        top, second = ranking[0], ranking[1]
        numbers.update({"gold_kind_outcome": 0.0, "gold_kind_proxy": 1.0})
        slots.add("best_venue", [name[top], text[top]])
        claims.add(
            f"PROXY: {name[top]} fits the project best by the similarity proxy (no venue outcome for its "
            "paper); the proxy is not an acceptance.",
            "venue",
            scope,
            1.0,
            ClaimBasis(check="ranked_first", params={"object": top}),
        )
        claims.add(
            f"PROXY: {name[second]} is the runner-up by the similarity proxy.",
            "venue",
            scope,
            0.5,
            ClaimBasis(check="ranked_second", params={"object": second}),
        )
        strength = (0.5 + 0.5 * min(1.0, len(near) / VENUE_NEIGHBOURS)) * margin
    for oid in ranking:
        s = fam[oid]
        if "n_papers" not in s.stats or "share_close" not in s.stats:
            continue  # no profile numbers: no claim (the bank holds only what recomputes)
        claims.add(
            f"Before {task.cutoff}, the {name[oid]} venue lists held {int(s.stats['n_papers'])} papers, "
            f"{pct(s.stats['share_close'])} of them close to this domain.",
            "historical",
            "pre-cutoff",
            0.2,
            ClaimBasis(
                check="signal_stats",
                values={"n_papers": int(s.stats["n_papers"]), "share_close": round(100 * s.stats["share_close"], 1)},
                params={"signal_id": s.signal_id},
            ),
        )
    if near and proxy:
        claims.add(
            f"Between {task.window_start} and {task.window_end}, {len(near)} closely related papers appeared; "
            f"by the similarity proxy their titles fit {name[proxy[0]]} best.",
            "future-realisation",
            scope,
            0.3,
            ClaimBasis(check="window_count", paper_ids=future_ids, values={"n": len(near)}, params={"object": proxy[0]}),
        )
    numbers.update(slots.flags)
    return GoldTarget(
        task_id=task.task_id,
        family=task.family,
        domain=task.domain,
        cutoff=task.cutoff,
        counted=counted,
        preferred_ranking=ranking,
        slots=slots.slots,
        claims=claims.items,
        numbers=numbers,
        future_paper_ids=future_ids,
        strength=round(float(strength), 4),
    )


def rest_of_ranking(options: list[str], votes: dict[str, int], nearness: dict[str, float], proxy: list[str]) -> list[str]:
    """The non-outcome options in gold order: those with at least MIN_VOTES similar papers accepted
    in their family first, by that count; then the others by the nearness of their family's
    accepted work before the cutoff; ties by the similarity proxy, then by option id."""
    pos = {o: i for i, o in enumerate(proxy)}

    def key(o: str) -> tuple:
        n = votes.get(o, 0)
        return (-(n if n >= MIN_VOTES else 0), -nearness.get(o, float("-inf")), pos.get(o, len(pos)), o)

    return sorted(options, key=key)


def _track(decision: str, family: str) -> str:
    """The outcome's track as the claim states it: a Findings acceptance is named as one, beside the
    option's wording, and never passes silently for a main-conference acceptance (issue 32's reading)."""
    if decision.strip().lower() == "findings":
        return f"Findings track; the {family} option reads 'main conference or Findings'"
    return decision


def _project_paper(ctx: GoldContext, build: TaskBuild):
    """The project's paper (a public paper of the partition), or None."""
    i = ctx.pub_index.get(build.project_paper_id) if build.project_paper_id else None
    return ctx.public[i] if i is not None else None


def _outcome_neighbours(ctx: GoldContext, paper_id: str, families: set[str]) -> list[tuple[str, str]]:
    """(arXiv id, family) of the VOTE_NEIGHBOURS papers of the partition (public or window) most similar
    to the project (centred title + abstract embedding) that some list shows accepted in one of
    `families` (`accepted_family`, any cycle); the project itself excluded."""
    rows = getattr(ctx, "_venue_accepted", None)
    if rows is None:  # once per partition (a resample shares it)
        papers = list(ctx.public) + list(ctx._original_future)
        vecs = np.concatenate([ctx.pub_vecs, ctx.fut_vecs[: len(ctx._original_future)]]) if len(ctx.future) else ctx.pub_vecs
        labelled = [(i, accepted_family(p.title)) for i, p in enumerate(papers)]
        labelled = [(i, f) for i, f in labelled if f]
        rows = (
            [papers[i].arxiv_id for i, _ in labelled],
            [f for _, f in labelled],
            vecs[[i for i, _ in labelled]] if labelled else np.zeros((0, vecs.shape[1]), np.float32),
        )
        setattr(ctx, "_venue_accepted", rows)  # noqa: B010 (a per-partition cache on the context)
    ids, fams, vecs = rows
    i = ctx.pub_index.get(paper_id)
    if i is None or not len(ids):
        return []
    order = np.argsort(-(vecs @ ctx.pub_vecs[i]), kind="stable")
    out = [(ids[j], fams[j]) for j in order if ids[j] != paper_id and fams[j] in families]
    return out[:VOTE_NEIGHBOURS]


def _proxy_scores(ctx: GoldContext, project: str, fam: dict[str, Signal]) -> tuple[dict[str, float], list[int]]:
    """The similarity proxy: per option, the fit of the project's closest window papers to the
    family's community (`ctx.venue_scorer`, else the profiles' terms), and those papers' rows."""
    pv = ctx.embed_centred([project])[0]
    sims = ctx.fut_vecs @ pv if len(ctx.future) else np.zeros(0)
    floor = float(np.quantile(sims, VENUE_NEIGHBOUR_QUANTILE)) if len(sims) else 0.0
    near = [int(i) for i in np.argsort(-sims, kind="stable")[:VENUE_NEIGHBOURS] if sims[i] >= floor and sims[i] > 0]
    if ctx.venue_scorer is not None:  # communities are known by accepted titles: compare titles with titles
        raw = ctx.venue_scorer([ctx.future[i].title for i in near] or [project])
        scores = {oid: float(raw.get(venue_family(s), float("nan"))) for oid, s in fam.items()}
        return {k: v for k, v in scores.items() if not math.isnan(v)}, near
    texts = [paper_text(ctx.future[i]) for i in near] or [project]
    T = ctx.embed_centred(texts).mean(axis=0)
    scores = {}
    for oid, s in fam.items():
        prof = " ".join(
            s.details.get("top_terms", []) + s.details.get("terms", []) + s.details.get("example_titles", [])
        ) or venue_family(s)
        scores[oid] = float(unit(T) @ ctx.embed_centred([prof])[0])
    return scores, near

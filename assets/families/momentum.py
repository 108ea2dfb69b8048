"""Momentum of candidate directions after the cutoff: the gold of option families.

Direction and planning tasks both offer candidate directions as options; their gold is
each option's volume-normalised momentum over the window (rules in
`assets.gold.measure`'s docstring).
"""

from __future__ import annotations


import numpy as np

from assets.gold.measure import (
    FULL_SUPPORT,
    MIN_FUTURE_MAPPED,
    RECENT_MONTHS,
    ZERO_PRIOR_SMOOTHING,
    Candidate,
    Claims,
    GoldContext,
    Slots,
    insufficient,
    new_subdirections,
    pct,
    trajectory_of,
)
from assets.tasks.building import direction_name
from core.records import TRAJECTORIES, ClaimBasis, GoldTarget, Signal, Task, TaskBuild
from core.text import distinctive_title_phrases, title_phrases


def option_momentum(ctx: GoldContext, task: Task, build: TaskBuild, signals: dict[str, Signal],
                    primary_slot: str) -> tuple[GoldTarget, str | None]:
    """Gold of a task whose options are candidate directions, and the top option's name
    (None when the window holds too little evidence). See `assets.gold.measure`."""
    prior_from = ctx.prior_from
    claims, slots = Claims(task.task_id), Slots()
    scope = f"{task.window_start} to {task.window_end}"
    opts = [o for o in task.options if build.option_signal_ids.get(o.option_id) in signals]
    cands = [Candidate(ctx, signals[build.option_signal_ids[o.option_id]]) for o in opts]
    fut_member, rec_member = ctx.member_votes([c.signal for c in cands])
    n_future, n_recent = len(ctx.future), len(ctx.recent_idx)
    drift = ctx.coverage_drift(signals) if prior_from == "recomputed" else 1.0
    numbers: dict[str, float] = {"n_future_total": float(n_future), "n_recent_public": float(n_recent),
                                 "n_future_mapped": float(fut_member.any(axis=1).sum()), "coverage_drift": round(drift, 5)}
    rows: dict[str, np.ndarray] = {}
    stats: dict[str, dict] = {}
    for j, (o, c) in enumerate(zip(opts, cands)):
        fr = np.where(fut_member[:, j])[0]
        rows[o.option_id] = fr
        f_share = len(fr) / n_future if n_future else 0.0
        prior_count = int(rec_member[:, j].sum())
        prior_ids = [ctx.public[ctx.recent_idx[i]].arxiv_id for i in np.where(rec_member[:, j])[0]]
        if prior_from == "signal" or n_recent == 0:
            p_share = float(c.signal.stats.get("share_recent", 0.0))
        else:
            p_share = max(prior_count, ZERO_PRIOR_SMOOTHING) / n_recent
        if p_share <= 0:
            p_share = ZERO_PRIOR_SMOOTHING / max(n_recent, 1)
        raw_momentum = f_share / p_share
        momentum = raw_momentum / drift
        coh_f = float((ctx.fut_vecs[fr] @ c.centroid).mean()) if len(fr) and c.centroid is not None else c.cohesion_pre
        new = [] if ctx.ranking_only else new_subdirections(ctx, c, fr)
        traj = trajectory_of(momentum, len(new), c.cohesion_pre - coh_f)
        stats[o.option_id] = dict(m=momentum, f=f_share, p=p_share, n=len(fr), new=new, traj=traj,
                                  prior_ids=prior_ids, future_ids=[ctx.future[i].arxiv_id for i in fr])
        oid = o.option_id
        numbers.update({f"momentum:{oid}": round(momentum, 5), f"momentum_raw:{oid}": round(raw_momentum, 5), f"future_share:{oid}": round(f_share, 6),
                        f"prior_share:{oid}": round(p_share, 6), f"future_count:{oid}": float(len(fr)),
                        f"prior_count:{oid}": float(prior_count), f"public_papers:{oid}": float(c.n_public),
                        f"threshold:{oid}": round(c.threshold, 5), f"cohesion_pre:{oid}": round(c.cohesion_pre, 5),
                        f"cohesion_future:{oid}": round(coh_f, 5), f"new_subdirections:{oid}": float(len(new)),
                        f"trajectory:{oid}": float(TRAJECTORIES.index(traj))})
    future_ids = [ctx.future[i].arxiv_id for i in np.where(fut_member.any(axis=1))[0]]
    ranking = sorted(stats, key=lambda k: (-stats[k]["m"], -stats[k]["n"], k))
    # the second, independent measure: the label's defining phrases, matched in the text
    lexical = lexical_momentum(ctx, {o.option_id: signals[build.option_signal_ids[o.option_id]] for o in opts})
    for oid, lm in lexical.items():
        numbers[f"lexical_momentum:{oid}"] = round(lm, 5)
    if ranking and lexical:
        numbers["measures_agree"] = float(max(lexical, key=lambda k: (lexical[k], k == ranking[0])) == ranking[0])
    if len(future_ids) < MIN_FUTURE_MAPPED or not ranking:
        gold = insufficient(task, claims, f"only {len(future_ids)} future papers map to the options", numbers, future_ids)
        gold.preferred_ranking = ranking
        return gold, None
    name = {o.option_id: direction_name(signals[build.option_signal_ids[o.option_id]]) for o in opts}
    text = {o.option_id: o.text for o in opts}
    top, second = ranking[0], ranking[1] if len(ranking) > 1 else None
    st = stats[top]
    top_sig = signals[build.option_signal_ids[top]]

    def top_titles(oid: str, k: int = 2) -> list[str]:
        c = cands[[o.option_id for o in opts].index(oid)]
        fr = rows[oid]
        order = fr[np.argsort(-np.round(ctx.fut_vecs[fr] @ c.centroid, 6), kind="stable")] if len(fr) else fr
        return [ctx.future[i].title for i in order[:k]]

    slots.add(primary_slot, [text[top], name[top], ", ".join(top_sig.details.get("keywords", [])[:5])], top_titles(top))
    # no slot for the runner-up: naming it would reward hedging over commitment
    # The trajectory is a slot only when it says more than the choice: the option that gains the
    # most momentum is "accelerating" in most tasks (momentum >= 1.25), so that label follows
    # from the choice, and a slot for it would pay any answer that always says "accelerating"
    # (another task's gold scored 0.07-0.09 above chance through it alone). Steady, fragmenting
    # or cooling for the top option is a judgement of its own, and is scored.
    if st["traj"] != "accelerating":
        slots.add("trajectory", [f"{name[top]} is {st['traj']}",
                                 f"{name[top]} will be {st['traj']} from {task.window_start} to {task.window_end}"])

    # claims bank: every claim carries the basis a validator recomputes (assets/validity/claims.py)
    for oid in ranking:
        sig = signals[build.option_signal_ids[oid]]
        n_members = len(sig.details.get("member_ids") or sig.paper_ids)
        claims.add(f"Before {task.cutoff}, {name[oid]} had {n_members} papers in the domain.",
                   "historical", "pre-cutoff", 0.3,
                   ClaimBasis(check="signal_papers", values={"n": n_members}, params={"signal_id": sig.signal_id}))
    n_prior = len(st["prior_ids"])
    claims.add(f"In the {RECENT_MONTHS} months before {task.cutoff}, {n_prior} of {n_recent} new papers in the domain "
               f"({pct(n_prior / n_recent if n_recent else 0.0)}) were on {name[top]}.", "historical", "pre-cutoff", 0.4,
               ClaimBasis(check="recent_share", paper_ids=st["prior_ids"], values={"n": n_prior, "total": n_recent}))
    claims.add(f"Between {task.window_start} and {task.window_end}, {name[top]} gained the largest volume-normalised share among the options "
               f"(momentum {st['m']:.2f}).", "future-realisation", scope, 1.0,
               ClaimBasis(check="ranked_first", values={"momentum": round(st["m"], 2)}, params={"object": top}))
    claims.add(f"Between {task.window_start} and {task.window_end}, {name[top]} is {st['traj']}.", "future-realisation", scope, 0.8,
               ClaimBasis(check="trajectory", values={"label": st["traj"]}, params={"object": top}))
    claims.add(f"{st['n']} of the {n_future} papers of the window ({pct(st['f'])}) were on {name[top]}.",
               "statistical", scope, 0.6,
               ClaimBasis(check="window_share", paper_ids=st["future_ids"], values={"n": st["n"], "total": n_future}))
    last = ranking[-1]
    if last != top:
        sl = stats[last]
        claims.add(f"{name[last]} had the lowest momentum among the options ({sl['m']:.2f}).", "statistical", scope, 0.4,
                   ClaimBasis(check="ranked_last", values={"momentum": round(sl["m"], 2)}, params={"object": last}))
    margin = (st["m"] - stats[second]["m"]) / st["m"] if second and st["m"] > 0 else 1.0
    strength = min(1.0, st["n"] / FULL_SUPPORT) * (0.25 + 0.75 * max(0.0, margin))
    numbers["margin"] = round(margin, 5)
    numbers.update(slots.flags)
    by_id = {p.arxiv_id: p for p in ctx.future}
    counted = {oid: [f"{i} {by_id[i].title[:120]}" for i in stats[oid]["future_ids"]] for oid in ranking}
    return GoldTarget(task_id=task.task_id, family=task.family, domain=task.domain, cutoff=task.cutoff,
                      counted=counted,
                      preferred_ranking=ranking, trajectory=st["traj"], slots=slots.slots, claims=claims.items,
                      numbers=numbers, future_paper_ids=sorted(future_ids), strength=round(float(strength), 4)), name[top]


def defining_phrases(signal: Signal, ctx: GoldContext) -> list[str]:
    """The phrases that define a candidate for the lexical measure: the ones the evidence
    stage defined it by (`assets.evidence.signals.TitlePhraseIndex`), or, for a candidate
    without them (an older or hand-made signal), the same rule applied to its papers' titles."""
    if signal.details.get("defining_phrases"):
        return list(signal.details["defining_phrases"])
    own = [title_phrases(ctx.public[ctx.pub_index[i]].title) for i in signal.paper_ids if i in ctx.pub_index]
    return distinctive_title_phrases(own, ctx.title_df, len(ctx.public))[:3]


def lexical_momentum(ctx: GoldContext, candidates: dict[str, Signal]) -> dict[str, float]:
    """Momentum by text match (independent of the embedding measure): a paper counts for a
    candidate when its title contains one of the candidate's defining phrases
    (`defining_phrases`); momentum = window share / share in the RECENT_MONTHS before the
    cutoff (a zero prior count smoothed to 0.5 papers, as the embedding measure does)."""
    recent = [ctx.public[i] for i in ctx.recent_idx]
    if not ctx.future or not recent:
        return {}
    # each paper's title phrases, computed once per partition (shared by the bootstrap resamples)
    cache = ctx.__dict__.setdefault("_title_phrases", {})

    def phrases_of(p) -> frozenset[str]:
        if p.arxiv_id not in cache:
            cache[p.arxiv_id] = frozenset(title_phrases(p.title))
        return cache[p.arxiv_id]

    out = {}
    for oid, sig in candidates.items():
        phrases = frozenset(defining_phrases(sig, ctx))
        if not phrases:
            continue
        if phrases not in ctx._lexical:  # matches over the original window, once per partition
            ctx._lexical[phrases] = (
                np.array([not phrases.isdisjoint(phrases_of(p)) for p in ctx._original_future], dtype=bool),
                sum(not phrases.isdisjoint(phrases_of(p)) for p in recent))
        matches, n_recent = ctx._lexical[phrases]
        if ctx._rows is not None:  # a bootstrap resample: its rows of the original window
            matches = matches[ctx._rows]
        out[oid] = float(matches.mean()) / (max(n_recent, ZERO_PRIOR_SMOOTHING) / len(recent))
    return out


MIN_WINNER_WINDOW_PAPERS = 5  # the top option's window papers: fewer and the gold is an anecdote
MIN_WINNER_PRIOR_PAPERS = 3  # its prior-period papers: fewer and its momentum is a ratio to the 0.5 smoothing


def momentum_problems(gold: GoldTarget) -> list[str]:
    """Why an option-momentum gold (direction, planning) is not valid: its two measures
    disagree on the top option, or the top option's momentum rests on too few papers to check."""
    problems = []
    if gold.numbers.get("measures_agree", 1.0) < 1.0:
        problems.append("independent gold measures disagree on the top candidate")
    if gold.preferred_ranking:
        top = gold.preferred_ranking[0]
        n_window, n_prior = gold.numbers.get(f"future_count:{top}"), gold.numbers.get(f"prior_count:{top}")
        if n_window is not None and n_prior is not None and (
                n_window < MIN_WINNER_WINDOW_PAPERS or n_prior < MIN_WINNER_PRIOR_PAPERS):
            problems.append(f"the top candidate's momentum rests on too few papers "
                            f"({int(n_window)} in the window, {int(n_prior)} before)")
    return problems

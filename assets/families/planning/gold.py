"""The planning gold: the offered approaches ranked by how many of the window's new papers on the
subfield build on (use or extend) each, and the margin rule a released gold must pass.

* Population: the window papers of the domain on the role's subfield (`Role.on_subfield`).
* Count: those of them that build on the approach (`assets.evidence.building_on.builds_on`: a
  sentence names it case-sensitively, in a use context, not as a baseline, foil or replaced
  method). Each counted paper is listed in `gold.counted` with the sentence that counted.
* Ranking: most papers first; ties are broken by the pre-cutoff count (a tie at the top is refused by
  the margin rule).
* Margin rule (`margin_problems`, the family's `validity_problems`): the first approach leads the
  second by at least MIN_MARGIN_PAPERS papers and by at least MIN_MARGIN_SHARE of its own count
  -- the gold is never decided by a couple of papers; a tie lower down is ordered by the pre-cutoff
  count (and no claim calls a tied last option "the fewest").
"""

from __future__ import annotations

import numpy as np

from assets.evidence.approaches import MIN_ALIVE, Member, Role, load_roles
from assets.evidence.building_on import builds_on
from assets.toolbox.measure import FULL_SUPPORT, MIN_FUTURE_MAPPED, Claims, GoldContext, Slots, insufficient, pct
from core.records import ClaimBasis, GoldTarget, Signal, Task, TaskBuild

MIN_MARGIN_PAPERS = 3
MIN_MARGIN_SHARE = 0.30  # (first - second) / first


def margin_problems(gold: GoldTarget) -> list[str]:
    """Why a gold's order is not decisive (empty when it is): see the module docstring."""
    ranking = gold.preferred_ranking
    if len(ranking) < 2:
        return ["fewer than two ranked options"]
    n = [gold.numbers.get(f"future_count:{oid}", 0.0) for oid in ranking]
    out = []
    lead = n[0] - n[1]
    if lead < MIN_MARGIN_PAPERS:
        out.append(f"planning_margin: the first option leads the second by {lead:.0f} papers (< {MIN_MARGIN_PAPERS})")
    if n[0] <= 0 or lead / n[0] < MIN_MARGIN_SHARE:
        out.append(f"planning_margin: the first option leads the second by {lead / max(n[0], 1):.0%} (< {MIN_MARGIN_SHARE:.0%})")
    # A tie below the top leaves the gold (the first approach) decided; it is kept, ordered by the
    # pre-cutoff count. Refusing it cost two decisive tasks of the
    # default build (a retriever task 52 / 14 / 14 / 10 / 4, a latent-space task 63 / 13 / 13) and took
    # planning under its yield floor of 10 (issue 32, item 7).
    if n[0] == n[1]:
        out.append(f"planning_tie: the first two options share a count ({[int(x) for x in n]})")
    return out


def _role(signal: Signal) -> tuple[Role, Member] | None:
    role_id, member_id = (signal.details.get("role") or [""])[0], (signal.details.get("member") or [""])[0]
    for r in load_roles():
        if r.role_id == role_id:
            return next(((r, m) for m in r.members if m.member_id == member_id), None)
    return None


def _counted(ctx: GoldContext, role: Role, member: Member) -> tuple[list[str | None], list[str | None]]:
    """Per paper of the ORIGINAL window and of the recent public papers: the sentence in which it
    builds on the member, None when it does not (or is not on the subfield); computed once per
    partition and shared by every bootstrap resample."""
    cache = ctx.__dict__.setdefault("_planning_counted", {})
    key = (role.role_id, member.member_id)
    if key not in cache:
        matcher = member.matcher()

        def said(p) -> str | None:
            return builds_on(p.title, p.abstract, matcher) if role.on_subfield(f"{p.title}. {p.abstract}") else None

        cache[key] = ([said(p) for p in ctx._original_future], [said(ctx.public[i]) for i in ctx.recent_idx])
    return cache[key]


def _on_subfield(ctx: GoldContext, role: Role) -> tuple[np.ndarray, np.ndarray]:
    cache = ctx.__dict__.setdefault("_planning_subfield", {})
    if role.role_id not in cache:
        cache[role.role_id] = (
            np.array([role.on_subfield(f"{p.title}. {p.abstract}") for p in ctx._original_future], dtype=bool),
            np.array([role.on_subfield(f"{ctx.public[i].title}. {ctx.public[i].abstract}") for i in ctx.recent_idx], dtype=bool),
        )
    return cache[role.role_id]


def entry(paper, sentence: str) -> str:
    """A counted paper as a reader rechecks it: "id title -- "the sentence that counted"" (the
    sentence is left out when it is the title)."""
    head = f"{paper.arxiv_id} {paper.title[:120]}"
    return head if sentence == paper.title else f'{head} -- "{sentence[:300]}"'


def planning_gold(ctx: GoldContext, task: Task, build: TaskBuild, signals: dict[str, Signal]) -> GoldTarget:
    """The offered approaches ranked by window papers building on them (module docstring)."""
    claims, slots = Claims(task.task_id), Slots()
    scope = f"{task.window_start} to {task.window_end}"
    found = {
        o.option_id: (signals[sid], rm)
        for o in task.options
        if (sid := build.option_signal_ids.get(o.option_id)) in signals and (rm := _role(signals[sid])) is not None
    }
    numbers: dict[str, float] = {"n_future_total": float(len(ctx.future))}
    if len(found) < 2:
        return insufficient(task, claims, "fewer than two catalogued approach options", numbers, [])
    role = next(iter(found.values()))[1][0]
    subject = role.subfield
    rows = np.arange(len(ctx._original_future)) if ctx._rows is None else ctx._rows
    on_fut, on_rec = _on_subfield(ctx, role)
    window = [ctx._original_future[i] for i in rows if on_fut[i]]
    n_recent = int(on_rec.sum())
    per: dict[str, tuple[list[str], list[str]]] = {}
    sentence: dict[str, dict[str, str]] = {}
    for oid, (_, (_, member)) in found.items():
        fut, rec = _counted(ctx, role, member)
        per[oid] = (
            [ctx._original_future[i].arxiv_id for i in rows if fut[i]],
            [ctx.public[j].arxiv_id for k, j in enumerate(ctx.recent_idx) if rec[k]],
        )
        sentence[oid] = {ctx._original_future[i].arxiv_id: s for i in set(rows.tolist()) if (s := fut[i])}
    numbers.update(
        {"n_subfield_window": float(len(window)), "n_subfield_recent": float(n_recent), "option_min_recent": float(MIN_ALIVE)}
    )
    for oid in found:
        numbers.update(
            {
                f"future_count:{oid}": float(len(per[oid][0])),
                f"prior_count:{oid}": float(len(per[oid][1])),
                f"prior_share:{oid}": round(len(per[oid][1]) / max(n_recent, 1), 6),
                f"window_share:{oid}": round(len(per[oid][0]) / max(len(window), 1), 6),
            }
        )
    ranking = sorted(found, key=lambda k: (-len(per[k][0]), -len(per[k][1]), k))
    future_ids = sorted({i for oid in found for i in per[oid][0]})
    if len(future_ids) < MIN_FUTURE_MAPPED:
        gold = insufficient(
            task, claims, f"only {len(future_ids)} window papers on {subject} build on an option", numbers, future_ids
        )
        gold.preferred_ranking = ranking
        return gold
    top, second, last = ranking[0], ranking[1], ranking[-1]
    name = {oid: sig.title for oid, (sig, _) in found.items()}
    n_top, n_second = len(per[top][0]), len(per[second][0])
    margin = (n_top - n_second) / n_top if n_top else 0.0
    numbers.update({"margin": round(margin, 5), "margin_papers": float(n_top - n_second)})
    by_id = {p.arxiv_id: p for p in ctx._original_future}
    slots.add("top_priority", [name[top]], [by_id[i].title for i in per[top][0][:2]])
    for oid in ranking:
        sig = found[oid][0]
        n_members = len(sig.details.get("member_ids") or sig.paper_ids)
        claims.add(
            f"Before {task.cutoff}, {n_members} papers on {subject} built on {name[oid]}.",
            "historical",
            "pre-cutoff",
            0.3,
            ClaimBasis(check="signal_papers", values={"n": n_members}, params={"signal_id": sig.signal_id}),
        )
    claims.add(
        f"{name[top]} should be the top priority for a team on {subject} planning after {task.cutoff}: between "
        f"{task.window_start} and {task.window_end} more new papers on {subject} built on it than on any other option "
        f"({n_top} against {n_second} for the next).",
        "future-realisation",
        scope,
        1.0,
        ClaimBasis(check="ranked_first", values={"n": n_top}, paper_ids=sorted(set(per[top][0])), params={"object": top}),
    )
    claims.add(
        f"Between {task.window_start} and {task.window_end}, {n_top} of the {len(window)} new papers on {subject} "
        f"({pct(n_top / max(len(window), 1))}) built on {name[top]}.",
        "statistical",
        scope,
        0.6,
        ClaimBasis(
            check="window_share",
            paper_ids=per[top][0],
            values={"n": n_top, "total": len(window)},
            params={"population": "subfield"},
        ),
    )
    if last != top and len(per[last][0]) < len(per[ranking[-2]][0]):  # a tied last is not "the fewest"
        claims.add(
            f"{name[last]} was built on by the fewest new papers among the options ({len(per[last][0])}).",
            "statistical",
            scope,
            0.4,
            ClaimBasis(check="ranked_last", params={"object": last}),
        )
    numbers.update(slots.flags)
    strength = min(1.0, n_top / FULL_SUPPORT) * (0.25 + 0.75 * max(0.0, margin))
    counted = {oid: [i if ctx.ranking_only else entry(by_id[i], sentence[oid][i]) for i in per[oid][0]] for oid in ranking}
    gold = GoldTarget(
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
    # No hidden plan (`answer.plan_for`) is attached: the question no longer asks for one, since the
    # window papers that built on the top option are a list of titles, not a checkable plan (s38 reading).
    return gold

"""Strategic Research Planning (ForeSci §3.4, App. B.4): rank approaches for a team inside one direction.

A planning decision is made inside one research direction: a team of N researchers working on,
say, GUI agents decides what to build on for the next horizon -- reinforcement learning, visual
grounding, world models or synthetic trajectories first? The options are 4-5 approaches that the
direction's own pre-cutoff papers use (`assets.evidence.approaches`: named methods, each with a
one-line gloss and representative pre-cutoff titles), never the option set of a direction task:
a planning task that shares its top option, or more than one option, with a released direction
task of the partition is not released (`assets.ranking.defects.overlap_with_released`), so the
two families ask different decisions.

Gold (`planning_gold`): the approaches ranked by their momentum INSIDE the direction over the
window -- the share of the window's papers on the direction (title or abstract names it) that
use the approach (title or abstract names it), against the same share in the RECENT_MONTHS
before the cutoff. The check: the same ratio over the papers whose TITLE names the direction;
the two agree (and the top approach grew on both) before a task is released
(`assets.families.momentum.momentum_problems`). The hidden plan per approach (milestones,
dependencies, kill criterion) is what the window's papers on it did (`plan_for`).


Length (over ~500 lines on purpose): the planning family's build (plans from direction sets, overlap
with direction tasks), its ranking gold and its release conflict rule share the plan vocabulary."""

from __future__ import annotations

import random
from datetime import timedelta

import numpy as np
from pydantic import BaseModel, Field

from assets.evidence.approaches import MIN_APPROACH_RECENT
from assets.evidence.quotes import split_sentences
from assets.families.answers import bullets, ranking_lines, window_phrase
from assets.families.base import TaskFamily
from assets.families.momentum import AGREE_TOLERANCE, momentum_problems
from assets.toolbox.building import (
    MAX_OPTIONS,
    MIN_OPTIONS,
    MIN_SUPPORT_PAPERS,
    NEAR_DUPLICATE_OVERLAP,
    OPTION_LETTERS,
    TITLE_MAX_CHARS,
    Draft,
    TaskBuilder,
    direction_name,
    direction_text,
    evidence_item_ids,
    keep_new_set,
    short_name,
    support_papers,
)
from assets.toolbox.measure import (
    COOLING_MAX,
    FULL_SUPPORT,
    MIN_FUTURE_MAPPED,
    ZERO_PRIOR_SMOOTHING,
    Claims,
    GoldContext,
    Slots,
    insufficient,
    method_sentence,
    pct,
)
from core.phrases import names, normal_text, option_name, phrase_keys, same_direction
from core.records import ClaimBasis, GoldTarget, PlanTarget, Signal, Task, TaskBuild, TaskOption
from core.text import word_set

SET_ATTEMPTS = (
    200  # seeded draws of approach sets per direction (40 stopped short of the sets a direction with 8-12 approaches has)
)
MILESTONES = 3
DEPENDENCY_MIN_PAPERS = 2
MAX_DEPENDENCIES = 3


class PlanningAnswer(BaseModel):
    ranking: list[str] = Field(default_factory=list, description="all option_ids, highest priority first")
    milestones: list[str] = Field(default_factory=list)
    dependencies: list[str] = Field(default_factory=list)
    risks: list[str] = Field(default_factory=list)
    go_no_go: str = ""
    claims: list[str] = Field(default_factory=list)
    cited_ids: list[str] = Field(default_factory=list)


class PlanningFamily(TaskFamily):
    name = "planning"
    title = "Strategic Research Planning"
    summary = "rank the approaches inside one direction for a team planning at the cutoff"
    answer_kind = "ranking"
    rubric_dimensions = {  # Reviewer Persuasiveness, family-specific (Appendix C.1)
        "milestone_specificity": "milestones are concrete, ordered and dated within the window",
        "dependency_chain_quality": "dependencies between options and milestones are explicit and right",
        "experiment_executability": "the first experiments could start now with pre-cutoff resources",
        "risk_or_kill_criteria": "states risks and go/no-go or kill criteria",
    }
    instructions = (
        "Use only the evidence available up to the cutoff. Rank all approaches from highest to lowest "
        "priority for the team, and give a concrete plan for the top one. Ground each judgement in "
        "cited pre-cutoff evidence about support, maturity, dependencies and risks."
    )
    requirements = (
        "a ranking of all option ids, highest priority first",
        "milestones for the top option over the horizon",
        "dependencies (data, tools, compute, prior results) of the top option",
        "risks and their mitigations",
        "go/no-go criteria with measurable thresholds",
    )
    decision_cues = ("rank", "priorit")
    answer_schema = PlanningAnswer
    answer_fields = (
        "Fields: ranking (ALL option_ids, highest priority first), milestones, dependencies, risks, go_no_go, claims, cited_ids."
    )
    offline_reading = "option_trend"
    candidate_coverage = True  # the validity report states the candidates' coverage of the window
    review_stages = (
        (
            "problem",
            "the goals, constraints and dependencies among the candidate directions for {window}",
            ("clarity", "completeness over candidates", "grounding in the evidence", "significance"),
        ),
        (
            "method",
            "a priority order over ALL candidates with the reason for each position",
            ("global-order consistency", "dependency awareness", "grounding in the evidence", "decision clarity"),
        ),
        (
            "experiment",
            "milestones, dependencies, risks and go/no-go checks for the plan",
            ("feasibility", "checkability", "risk awareness", "temporal discipline"),
        ),
    )
    aliases = ("strategic_research_planning",)
    vocabulary = "research plan."

    def decision_claims(self, task: Task, parsed: PlanningAnswer, ranking: list[str], choice: str | None) -> list[str]:
        if not ranking:
            return []
        text = {o.option_id: o.text for o in task.options}
        return [f"'{text[ranking[0]]}' should be prioritised first for {window_phrase(task)}."]

    def answer_lines(self, task: Task, parsed: PlanningAnswer, ranking: list[str], choice: str | None) -> list[str]:
        lines = ranking_lines(task, ranking)
        for title, items in (("Milestones", parsed.milestones), ("Dependencies", parsed.dependencies), ("Risks", parsed.risks)):
            if items:
                lines += [f"**{title}:**"] + bullets(items) + [""]
        if parsed.go_no_go.strip():
            lines += [f"**Go / no-go:** {parsed.go_no_go.strip()}", ""]
        return lines

    def offline_fields(self, task: Task, found: dict) -> dict:
        """The offline baselines' plan. momentum (the options' normalised trends): the options in
        trend order as milestones, the most recent work on the leader as dependency, the cooling
        options as risks, go while the leader's share keeps rising; retrieval: the options in
        support order, go on the best supported."""
        if "top" not in found:
            return {}
        top, ranked = found["top"], found["ranked"]
        if found.get("method") == "momentum":
            return {
                "milestones": [
                    f"{i}. Work on '{t}' (trend {r:.2f}x)." for i, (t, r) in enumerate(zip(ranked, found["ratios"]), 1)
                ],
                "dependencies": [
                    f"Start from the most recent pre-cutoff work on '{top}': "
                    + "; ".join(f"{title} ({pid})" for title, pid in found["recent_work"])
                ],
                "risks": [
                    f"'{t}' is {label} ({r:.2f}x); effort there may not pay off within {found['window']}."
                    for t, r, label in zip(ranked, found["ratios"], found["labels"])
                    if r <= found["cooling_at"]
                ],
                "go_no_go": (
                    f"Go on '{top}' while its normalised share keeps rising; "
                    f"no-go if it falls back under its prior-6-month level."
                ),
            }
        return {
            "milestones": [f"{i}. '{t}'" for i, t in enumerate(ranked, 1)],
            "go_no_go": f"Go on '{top}', which has the most pre-cutoff support.",
        }

    def release_conflict(self, task: Task, gold: GoldTarget | None, released: list[Task]) -> tuple[str, str] | None:
        """`planning_direction_overlap`: more than one option, or the gold's top option, names
        the same thing as an option of a released direction task of the partition."""
        direction_names = [option_name(o.text) for t in released if t.family == "direction" for o in t.options]
        if not direction_names:
            return None
        names = {o.option_id: option_name(o.text) for o in task.options}
        shared = [n for n in names.values() if any(same_direction(n, d) for d in direction_names)]
        top = names.get(gold.preferred_ranking[0]) if gold and gold.preferred_ranking else None
        if len(shared) > 1 or (top is not None and top in shared):
            return (
                "planning_direction_overlap",
                f"options {shared} also name options of released direction tasks of this partition"
                + (f" (including the gold's top option {top!r})" if top in shared else ""),
            )
        return None

    def judge_brief(self, task: Task, gold: GoldTarget) -> list[str]:
        """What the window's papers did per leading option: milestones, dependencies, kill criterion."""
        lines = []
        for oid in gold.preferred_ranking[:3]:
            plan = gold.plan.get(oid)
            if plan is not None:
                lines.append(
                    f"Option {oid}: first milestones {'; '.join(m[:90] for m in plan.milestones[:2]) or 'none'}; "
                    f"builds on {'; '.join(plan.dependencies[:2]) or 'no other option'}; "
                    f"kill criterion: {plan.kill_criterion} ({'fired' if plan.stalled else 'not fired'})"
                )
        return lines

    def contract_rules(self, task: Task) -> list[str]:
        ids = [o.option_id for o in task.options]
        return [f"ranking: all of {ids}, each once, highest priority first", "go_no_go: a checkable criterion"]

    def build(self, builder: TaskBuilder) -> None:
        """Tasks of 4-5 approaches of one direction each (`approach_sets`), directions taken
        round-robin (most approaches first). A planning task that shares its top option or more
        than one option with a released direction task is held back by the ranking
        (`assets.ranking.defects.overlap_with_released`)."""
        by_direction: dict[str, list[Signal]] = {}
        for a in builder.by_kind.get("approach", []):
            by_direction.setdefault(a.details["direction"][0], []).append(a)
        st = builder.settings
        per_direction = [
            approach_sets(pool, f"{st.seed}-{st.domain}-{st.cutoff}-{self.name}-{d}")
            for d, pool in sorted(by_direction.items(), key=lambda kv: (-len(kv[1]), kv[0]))
        ]
        order = [
            g for i in range(max((len(x) for x in per_direction), default=0)) for x in per_direction if i < len(x) for g in [x[i]]
        ]
        for n, group in enumerate(order):
            if builder.full(self.name):
                break
            support, n_support = support_papers(group, builder.records_by_node)
            if n_support < MIN_SUPPORT_PAPERS:
                continue
            options = [TaskOption(option_id=OPTION_LETTERS[i], text=direction_text(s)) for i, s in enumerate(group)]
            rng = random.Random(f"{st.seed}-{st.domain}-{st.cutoff}-{self.name}-team-{n}")
            subject = group[0].details["direction_name"][0]
            draft = builder.draft(self.name, options=options, team_size=rng.choice((3, 4, 5, 6, 8)), subdirection=subject)
            nodes = [x for s in group for x in s.node_ids]
            builder.emit(
                self,
                draft,
                options,
                dict(zip((o.option_id for o in options), group)),
                group,
                support,
                evidence_item_ids(builder.records_by_node, nodes, set(support)),
                f"{st.horizon_months}-month",
                subject=subject,
            )

    def template(self, draft: Draft) -> tuple[str, str]:
        ws, we, cut, dom = (
            draft.window_start.isoformat(),
            draft.window_end.isoformat(),
            draft.cutoff.isoformat(),
            draft.domain_title,
        )
        names_ = [short_name(o.text) for o in draft.options]
        title = (
            f"{draft.horizon_months}-month plan for a team of {draft.team_size} on {draft.subdirection}: "
            f"prioritise {', '.join(names_[:-1])} or {names_[-1]}"
        )
        if len(title) > TITLE_MAX_CHARS:  # the options are in the question; a title a reader can scan
            title = (
                f"{draft.horizon_months}-month plan for a team of {draft.team_size} on {draft.subdirection}: "
                f"which of {len(names_)} approaches first?"
            )
        question = (
            f"As of {cut}, a team of {draft.team_size} researchers working on {draft.subdirection} ({dom}) plans "
            f"the next {draft.horizon_months} months ({ws} to {we}). Rank these approaches from highest to lowest "
            f"priority -- first the one that work on {draft.subdirection} will build on most in that window -- and "
            f"plan the top one: milestones, dependencies and a kill criterion."
        )
        return title, question

    def decision_signature(self, task: Task, subject: str = "") -> set[str]:
        """The approaches AND the direction they sit in: the same methods inside two directions
        are two decisions."""
        return super().decision_signature(task, subject) | word_set(subject)

    def validity_problems(self, task: Task, gold: GoldTarget) -> list[str]:
        """The two populations must name the same top approach, it must have grown on both,
        and its momentum must rest on enough papers (`assets.families.momentum.momentum_problems`)."""
        return momentum_problems(gold, check="title_population_momentum")

    def gold(self, ctx: GoldContext, task: Task, build: TaskBuild, signals: dict[str, Signal]) -> GoldTarget:
        return planning_gold(ctx, task, build, signals)


def approach_sets(pool: list[Signal], rng_key: str) -> list[list[Signal]]:
    """Seeded sets of MIN_OPTIONS or MAX_OPTIONS approaches of one direction, no two of them
    naming the same thing or sharing more than NEAR_DUPLICATE_OVERLAP of the smaller one's
    papers, and no two sets sharing more than MAX_SHARED_OPTIONS approaches."""
    pool = sorted(pool, key=lambda s: s.signal_id)
    out: list[list[Signal]] = []
    kept: list[set[str]] = []

    def distinct(a: Signal, b: Signal) -> bool:
        ma, mb = set(a.details.get("member_ids", [])), set(b.details.get("member_ids", []))
        shared = len(ma & mb) / min(len(ma), len(mb)) if ma and mb else 0.0
        return not same_direction(direction_name(a), direction_name(b)) and shared <= NEAR_DUPLICATE_OVERLAP

    for t in range(SET_ATTEMPTS):
        rng = random.Random(f"{rng_key}-{t}")
        k = min(len(pool), rng.choice((MIN_OPTIONS, MAX_OPTIONS)))
        if k < MIN_OPTIONS:
            break
        group = rng.sample(pool, k)
        if not all(distinct(a, b) for i, a in enumerate(group) for b in group[i + 1 :]):
            continue
        keep_new_set(group, kept, out)
    return out


def _normal(ctx: GoldContext, p, field: str) -> str:
    cache = ctx.__dict__.setdefault(f"_planning_{field}", {})
    if p.arxiv_id not in cache:
        cache[p.arxiv_id] = normal_text(p.title if field == "title" else f"{p.title}. {p.abstract}")
    return cache[p.arxiv_id]


def _mask(ctx: GoldContext, keys: tuple[str, ...], field: str) -> tuple[np.ndarray, np.ndarray]:
    """Which papers of the ORIGINAL window, and of the recent public papers, name one of `keys` in
    `field`; computed once per partition and shared by every task and bootstrap resample."""
    cache = ctx.__dict__.setdefault("_planning_masks", {})
    if (keys, field) not in cache:
        hit = lambda p: any(names(k, _normal(ctx, p, field)) for k in keys)  # noqa: E731
        cache[(keys, field)] = (
            np.array([hit(p) for p in ctx._original_future], dtype=bool),
            np.array([hit(ctx.public[i]) for i in ctx.recent_idx], dtype=bool),
        )
    return cache[(keys, field)]


def _shares(ctx: GoldContext, direction_keys: list[str], approach_keys: dict[str, list[str]], field: str):
    """(window papers on the direction, recent ones, per option: its window and recent papers' ids),
    the direction found in `field` ("title" or "text": title and abstract), an approach always in
    title and abstract. A bootstrap resample takes its rows of the original window."""
    rows = np.arange(len(ctx._original_future)) if ctx._rows is None else ctx._rows
    window_ids = np.array([p.arxiv_id for p in ctx._original_future], dtype=object)
    recent_ids = np.array([ctx.public[i].arxiv_id for i in ctx.recent_idx], dtype=object)
    d_fut, d_rec = _mask(ctx, tuple(direction_keys), field)
    on_window = rows[d_fut[rows]]
    window = list(window_ids[on_window])
    recent = list(recent_ids[d_rec])
    per = {}
    for oid, keys in approach_keys.items():
        a_fut, a_rec = _mask(ctx, tuple(keys), "text")
        per[oid] = (list(window_ids[on_window[a_fut[on_window]]]), list(recent_ids[d_rec & a_rec]))
    return window, recent, per


def naming_entry(paper, keys: list[str]) -> str:
    """A counted paper as a reader checks it: "id title", and when the title does not name the
    approach, the first abstract sentence that does (quoted)."""
    entry = f"{paper.arxiv_id} {paper.title[:120]}"
    if set(keys) & phrase_keys(paper.title):
        return entry
    said = next((s for s in split_sentences(paper.abstract or "") if set(keys) & phrase_keys(s)), "")
    return f'{entry} -- "{" ".join(said.split())[:240]}"' if said else entry


def planning_gold(ctx: GoldContext, task: Task, build: TaskBuild, signals: dict[str, Signal]) -> GoldTarget:
    """The approaches ranked by momentum inside their direction (rules in the module docstring)."""
    claims, slots = Claims(task.task_id), Slots()
    scope = f"{task.window_start} to {task.window_end}"
    sig_of = {
        o.option_id: signals[build.option_signal_ids[o.option_id]]
        for o in task.options
        if build.option_signal_ids.get(o.option_id) in signals
    }
    numbers: dict[str, float] = {"n_future_total": float(len(ctx.future))}
    if len(sig_of) < 2:
        return insufficient(task, claims, "fewer than two approach options", numbers, [])
    first = next(iter(sig_of.values()))
    direction_keys, subject = first.details["direction_phrases"], first.details["direction_name"][0]
    keys = {oid: list(s.details["defining_phrases"]) for oid, s in sig_of.items()}
    window_ids, recent, per = _shares(ctx, direction_keys, keys, "text")
    t_window, t_recent, t_per = _shares(ctx, direction_keys, keys, "title")
    by_id = {p.arxiv_id: p for p in ctx._original_future}
    window = [by_id[i] for i in window_ids]
    numbers.update(
        {
            "n_direction_window": float(len(window)),
            "n_direction_recent": float(len(recent)),
            "n_direction_window_by_title": float(len(t_window)),
        }
    )

    def momentum(fut: list, rec: list, n_fut: int, n_rec: int) -> float:
        return (len(fut) / max(n_fut, 1)) / (max(len(rec), ZERO_PRIOR_SMOOTHING) / max(n_rec, 1))

    m = {oid: momentum(*per[oid], len(window), len(recent)) for oid in sig_of}
    tm = {oid: momentum(*t_per[oid], len(t_window), len(t_recent)) for oid in sig_of}
    for oid in sig_of:
        numbers.update(
            {
                f"momentum:{oid}": round(m[oid], 5),
                f"title_population_momentum:{oid}": round(tm[oid], 5),
                f"future_count:{oid}": float(len(per[oid][0])),
                f"prior_count:{oid}": float(len(per[oid][1])),
                f"prior_share:{oid}": round(len(per[oid][1]) / max(len(recent), 1), 6),
            }
        )
    ranking = sorted(sig_of, key=lambda k: (-m[k], -len(per[k][0]), k))
    best = max(tm.values())
    numbers["measures_agree"] = float(
        tm[ranking[0]] == best or (tm[ranking[0]] > 1.0 and tm[ranking[0]] >= AGREE_TOLERANCE * best)
    )
    future_ids = sorted({i for oid in sig_of for i in per[oid][0]})
    if len(window) < MIN_FUTURE_MAPPED or len(future_ids) < MIN_FUTURE_MAPPED:
        gold = insufficient(task, claims, f"only {len(window)} window papers on {subject}", numbers, future_ids)
        gold.preferred_ranking = ranking
        return gold
    top, second, last = ranking[0], ranking[1], ranking[-1]
    name = {oid: direction_name(s) for oid, s in sig_of.items()}
    text = {o.option_id: o.text for o in task.options}
    slots.add("top_priority", [text[top], name[top]], [by_id[i].title for i in per[top][0][:2]])
    for oid in ranking:
        n_members = len(sig_of[oid].details.get("member_ids") or sig_of[oid].paper_ids)
        claims.add(
            f"Before {task.cutoff}, {n_members} papers on {subject} used {name[oid]}.",
            "historical",
            "pre-cutoff",
            0.3,
            ClaimBasis(check="signal_papers", values={"n": n_members}, params={"signal_id": sig_of[oid].signal_id}),
        )
    claims.add(
        f"{name[top]} should be the top priority for a team on {subject} planning after {task.cutoff}: between "
        f"{task.window_start} and {task.window_end} it gained the largest share of the work on {subject} among "
        f"the options (momentum {m[top]:.2f}).",
        "future-realisation",
        scope,
        1.0,
        ClaimBasis(check="ranked_first", values={"momentum": round(m[top], 2)}, params={"object": top}),
    )
    n_top = len(per[top][0])
    claims.add(
        f"Between {task.window_start} and {task.window_end}, {n_top} of the {len(window)} new papers on {subject} "
        f"({pct(n_top / len(window))}) used {name[top]}.",
        "statistical",
        scope,
        0.6,
        ClaimBasis(
            check="window_share",
            paper_ids=per[top][0],
            values={"n": n_top, "total": len(window)},
            params={"population": "direction"},
        ),
    )
    if last != top:
        claims.add(
            f"{name[last]} had the lowest momentum among the options ({m[last]:.2f}).",
            "statistical",
            scope,
            0.4,
            ClaimBasis(check="ranked_last", values={"momentum": round(m[last], 2)}, params={"object": last}),
        )
    margin = (m[top] - m[second]) / m[top] if m[top] > 0 else 0.0
    numbers["margin"] = round(margin, 5)
    numbers["option_min_recent"] = float(MIN_APPROACH_RECENT)  # the builder's aliveness bar (assets/ranking/defects)
    numbers.update(slots.flags)
    strength = min(1.0, n_top / FULL_SUPPORT) * (0.25 + 0.75 * max(0.0, margin))
    counted = {
        oid: [i if ctx.ranking_only else naming_entry(by_id[i], keys[oid]) for i in per[oid][0]] for oid in ranking
    }  # a resample only re-ranks
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
    if not ctx.ranking_only:
        gold.plan = plan_for(ctx, task, gold, per, name, window)
    return gold


def plan_for(
    ctx: GoldContext,
    task: Task,
    gold: GoldTarget,
    per: dict[str, tuple[list[str], list[str]]],
    name: dict[str, str],
    window: list,
) -> dict[str, PlanTarget]:
    """Per approach, what the window's papers on it did (ForeSci App. B.4, C.1 planning rubric),
    from the papers the gold counted, so a reader checks it against the same list:

    * milestones: its first MILESTONES window papers by date, papers that state a method
      (`assets.toolbox.measure.method_sentence`) first;
    * dependencies: the other options named by at least DEPENDENCY_MIN_PAPERS of its window
      papers (most first): what its window work built on;
    * kill criterion: "stop if its share of the direction's papers in the first half of the
      window falls below COOLING_MAX x its pre-cutoff share" (COOLING_MAX: the bar that labels
      a trajectory cooling); `stalled` says whether it fired.
    """
    by_id = {p.arxiv_id: p for p in ctx.future}
    mid = task.window_start + timedelta(days=(task.window_end - task.window_start).days // 2)
    first_half = [p for p in window if p.published <= mid]
    out: dict[str, PlanTarget] = {}
    for oid in gold.preferred_ranking:
        papers = sorted((by_id[i] for i in per[oid][0] if i in by_id), key=lambda p: (p.published, p.arxiv_id))
        ordered = [p for p in papers if method_sentence(p.abstract)] + [p for p in papers if not method_sentence(p.abstract)]
        first = sorted(ordered[:MILESTONES], key=lambda p: (p.published, p.arxiv_id))
        deps = []
        for other in gold.preferred_ranking:
            n = len(set(per[oid][0]) & set(per[other][0])) if other != oid else 0
            if n >= DEPENDENCY_MIN_PAPERS:
                deps.append((-n, other, f"{name[other]} ({n} of its {len(papers)} window papers also use it)"))
        prior = gold.numbers.get(f"prior_share:{oid}", 0.0)
        early = sum(p.published <= mid for p in papers) / len(first_half) if first_half else 0.0
        gold.numbers[f"first_half_share:{oid}"] = round(early, 6)
        out[oid] = PlanTarget(
            milestones=[f"{p.published} {p.arxiv_id}: {p.title[:110]}" for p in first],
            dependencies=[d for _, _, d in sorted(deps)[:MAX_DEPENDENCIES]],
            kill_criterion=(
                f"stop {name[oid]} if it is used by less than {pct(COOLING_MAX * prior)} of the papers on "
                f"this direction from {task.window_start} to {mid} (its share before the cutoff was {pct(prior)})"
            ),
            stalled=bool(first_half) and early < COOLING_MAX * prior,
        )
    return out

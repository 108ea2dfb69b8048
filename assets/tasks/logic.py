"""Task builders: the four ForeSci decision families (§3.4, Appendix B.7), offline mode.

Each family turns pre-cutoff signals (assets/evidence) into public `Task`s plus internal
`TaskBuild` records that say which signal every task and option came from:

* direction  - pick, from 4-5 candidate directions of the SAME taxonomy dimension, the one
  most likely to gain momentum in the window, plus a trajectory label. Option sets mix
  high- and low-growth candidates so that "pick the highest pre-cutoff growth" is not a
  trivial answer.
* bottleneck - one task per well-supported subdirection that has linked bottleneck
  signals: name one root bottleneck and the one-hop opportunity it opens. No options.
* planning   - rank 4-5 candidate directions, each shown with its feasibility note, for a
  team of N researchers planning the next horizon.
* venue      - position a project (verbatim problem + method sentences of a recent
  representative paper, never its title or id) among the venue families that have
  venue lists (n_papers > 0), for the next venue cycle.

Offline the question text comes from documented templates (`template_drafter`); the
`drafter` argument is the hook for LLM drafting (it receives the same `Draft` and returns
title + question). Whatever the drafter writes is checked by `internal_violations`
(internal ids, post-cutoff dates) and a failing draft is dropped, not repaired silently.

Curation (B.7) checks three properties before a task is kept (`Curation` holds the knobs):
* a stable historical premise: every candidate behind the task has >= `min_option_papers`
  pre-cutoff papers, some of them from before the recent window (`share_prior` > 0: the
  direction did not appear only in the last months), and the task has >=
  MIN_SUPPORT_PAPERS support papers;
* a clear decision: option texts are distinct (word-set Jaccard below `option_jaccard`)
  and the question asks the family's decision (`clear_decision`);
* enough future evidence to validate: measured later (gold strength > 0), and the ranking
  stage never releases a task with strength 0.
Duplicates (two tasks asking the same decision: the same option set, the same or an
entangled subdirection, or a decision signature with Jaccard >= `duplicate_jaccard`) are
dropped; each family is capped at `per_family_max` (per-family overrides in
`Curation.family_max`), and a family that ends below its minimum is reported as a
`Failure` row (`failures=`), as is every dropped draft. Public text never carries node ids, "ev:" record ids or signal ids: the
support packet lists papers and paper-level evidence ids "<arxiv_id>#<field>" (a field of
that paper's `PaperEvidence`), while the record ids stay in `TaskBuild`.
"""

from __future__ import annotations

import json
import random
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import date, timedelta

from assets.gold.leakage import internal_violations
from core.records import (
    BuildStep,
    EvidenceRecord,
    Failure,
    Signal,
    Task,
    TaskBuild,
    TaskOption,
)

MIN_SUPPORT_PAPERS = 5
MIN_OPTIONS, MAX_OPTIONS = 4, 5
MAX_SUPPORT_PAPERS = 40  # support packet size shown to the agent (after the minimum check)
MAX_SUPPORT_EVIDENCE = 80
MAX_OVERLAP = 0.6  # two candidates sharing > 60% of the smaller one's papers (parent/child) never share a task
SAME_SUBDIRECTION_OVERLAP = 0.8  # bottleneck/venue tasks on subdirections this entangled are duplicates
TEAM_SIZES = (3, 4, 5, 6, 8)
EVIDENCE_FIELDS = ("problem", "method", "evaluation_focus", "limitation", "contribution_type")
OPTION_LETTERS = "ABCDE"
FAMILIES_ORDER = ("direction", "bottleneck", "planning", "venue")

INSTRUCTIONS = {
    "direction": (
        "Use only the evidence available up to the cutoff (the offline knowledge base and the support "
        "packet). Choose exactly one option, give one trajectory label (accelerating, fragmenting, "
        "steady or cooling) for it, and justify the choice with cited pre-cutoff evidence: growth "
        "signals, method developments and open bottlenecks. Say what would make you wrong."
    ),
    "bottleneck": (
        "Use only the evidence available up to the cutoff. Name one root bottleneck of the "
        "subdirection (a cause, not a symptom), explain why it is root using cited limitations, and "
        "describe the one-hop opportunity that opens if it is reduced, with the mechanism that would "
        "reduce it and how the opportunity would be adopted."
    ),
    "planning": (
        "Use only the evidence available up to the cutoff. Rank all options from highest to lowest "
        "priority for the team, and give a concrete plan for the top option. Ground each judgement in "
        "cited pre-cutoff evidence about support, maturity, dependencies and risks."
    ),
    "venue": (
        "Use only the evidence available up to the cutoff, including what each venue community has "
        "historically accepted. Rank the venue families for this project, say how to frame it for the "
        "top choice, which reviewer risks it faces there, and which evidence upgrades would make it "
        "credible to that community."
    ),
}

REQUIREMENTS = {
    "direction": [
        "one chosen option id",
        "one trajectory label for the chosen option: accelerating, fragmenting, steady or cooling",
        "a rationale that cites pre-cutoff papers from the knowledge base",
        "the main competing option and why it ranks lower",
        "uncertainty: what evidence would change the forecast",
    ],
    "bottleneck": [
        "one root bottleneck, stated as a cause",
        "cited pre-cutoff evidence that the bottleneck recurs",
        "the one-hop opportunity that opens if the bottleneck is reduced",
        "the mechanism (method or resource) that would reduce it",
        "an adoption pathway: who would use the opportunity first and how it would be validated",
    ],
    "planning": [
        "a ranking of all option ids, highest priority first",
        "milestones for the top option over the horizon",
        "dependencies (data, tools, compute, prior results) of the top option",
        "risks and their mitigations",
        "go/no-go criteria with measurable thresholds",
    ],
    "venue": [
        "a ranking of all venue option ids, best fit first",
        "the framing of the contribution for the top venue family",
        "the reviewer risks the project faces there",
        "evidence upgrades (experiments, baselines, datasets, analyses) that would make it credible",
        "a contrast with the runner-up venue family",
    ],
}


@dataclass
class Draft:
    """What a drafter needs to write one task; the template drafter fills the fields."""

    family: str
    domain_title: str
    cutoff: date
    window_start: date
    window_end: date
    horizon_months: int
    options: list[TaskOption] = field(default_factory=list)
    subdirection: str = ""
    team_size: int = 0
    project: str = ""


Drafter = Callable[[Draft], "tuple[str, str] | object"]  # draft -> (title, question) or a DraftResult


@dataclass
class Curation:
    """Curation knobs (ForeSci B.7); defaults are the documented ones."""

    min_option_papers: int = 3
    require_prior_papers: bool = True  # the candidate has papers before the recent window (share_prior > 0)
    duplicate_jaccard: float = 0.8  # two tasks' decision signatures this similar: duplicates
    option_jaccard: float = 0.8  # two options of one task this similar: no clear decision
    family_min: dict[str, int] = field(default_factory=dict)  # per-family overrides of per_family_min
    family_max: dict[str, int] = field(default_factory=dict)  # per-family overrides of per_family_max


_WORDS = re.compile(r"[a-z0-9][a-z0-9\-]+")
_SIGNATURE_STOP = frozenset("keywords e.g feasibility support pre-cutoff papers agents the of and for in with a an to on".split())


def word_set(text: str) -> set[str]:
    return {w for w in _WORDS.findall(text.lower()) if w not in _SIGNATURE_STOP}


def jaccard(a: set[str], b: set[str]) -> float:
    return len(a & b) / len(a | b) if a | b else 0.0


def premise_ok(signal: Signal, curation: Curation) -> bool:
    """Stable historical premise: enough pre-cutoff papers, not all of them recent (missing stats pass).

    (The taxonomy's `age_months` is when a node was created, which finer slices near the
    cutoff make recent for long-standing topics, so the premise uses the papers instead.)
    """
    n = signal.stats.get("n_papers", float(len(signal.paper_ids)))
    prior_ok = not curation.require_prior_papers or signal.stats.get("share_prior", 1.0) > 0
    return n >= curation.min_option_papers and prior_ok


DECISION_CUES = {
    "direction": ("which", "choose", "gain momentum"),
    "bottleneck": ("bottleneck",),
    "planning": ("rank", "priorit"),
    "venue": ("rank", "venue"),
}


def clear_decision(task: Task, curation: Curation) -> str | None:
    """None if the task asks one clear decision, else the reason it does not."""
    q = task.question.lower()
    if not any(cue in q for cue in DECISION_CUES[task.family]):
        return f"question does not ask the {task.family} decision"
    if task.family == "bottleneck" and "opportunit" not in q:
        return "bottleneck question does not ask for the opportunity"
    sets = [word_set(o.text.split(" Feasibility:")[0]) for o in task.options]
    for i in range(len(sets)):
        for j in range(i + 1, len(sets)):
            if jaccard(sets[i], sets[j]) >= curation.option_jaccard:
                return f"options {task.options[i].option_id} and {task.options[j].option_id} are near-identical"
    return None


def decision_signature(task: Task, subject: str = "") -> set[str]:
    """Words that identify the decision a task asks (its option names, or its subdirection)."""
    if task.family == "venue":
        return word_set(subject)
    if task.options:
        return set().union(*(word_set(o.text.split(";")[0].split(" (keywords")[0]) for o in task.options))
    return word_set(subject)


def template_drafter(draft: Draft) -> tuple[str, str]:
    """Offline drafter: documented templates, one per family (no LLM)."""
    ws, we, cut, dom = draft.window_start.isoformat(), draft.window_end.isoformat(), draft.cutoff.isoformat(), draft.domain_title
    if draft.family == "direction":
        title = f"Which {dom} direction gains momentum after {cut}?"
        question = (
            f"Between {ws} and {we}, which of these research directions in {dom} is most likely to gain "
            f"momentum, i.e. to take a larger share of new {dom} papers than it held just before {cut}? "
            "Choose one option and give one trajectory label for it (accelerating, fragmenting, steady or cooling)."
        )
    elif draft.family == "bottleneck":
        title = f"Root bottleneck and opportunity in {draft.subdirection}"
        question = (
            f"In {draft.subdirection} ({dom}), as of {cut}, identify one root bottleneck and the one-hop "
            f"opportunity that opens if it is reduced. The opportunity should be one that work published "
            f"between {ws} and {we} could realise."
        )
    elif draft.family == "planning":
        title = f"{draft.horizon_months}-month research plan in {dom} from {cut}"
        question = (
            f"As of {cut}, rank these options for a team of {draft.team_size} researchers planning the next "
            f"{draft.horizon_months} months ({ws} to {we}) of {dom} research, and plan the top option."
        )
    elif draft.family == "venue":
        title = f"Venue positioning of a {dom} project after {cut}"
        question = (
            f'Project description: "{draft.project}" '
            f"As of {cut}, for the next venue cycle, rank the venue families below by how well this "
            "project fits their community, and position it for the top choice."
        )
    else:
        raise ValueError(f"unknown family {draft.family!r}")
    return title, question


# --------------------------------------------------------------------------------------
# readable text from signals (never ids)
# --------------------------------------------------------------------------------------

_ID_LIKE = re.compile(r"(?<![A-Za-z0-9])(?:ev|sig):\S+|\b[a-z0-9_]+:[a-z_]+:[\w:.\-]*")


def clean_text(text: str) -> str:
    """Drop id-like tokens a signal's text might carry, and squeeze whitespace."""
    return " ".join(_ID_LIKE.sub("", text or "").split())


def direction_name(signal: Signal) -> str:
    """The candidate's label terms, e.g. 'tool use / function calling / api'."""
    name = clean_text(signal.title).strip(" /")
    return name or clean_text(signal.summary)[:80]


def direction_text(signal: Signal, max_keywords: int = 5) -> str:
    """Option text: label terms + keywords + one representative title as "e.g."."""
    name = direction_name(signal)
    in_name = set(re.findall(r"[a-z0-9]+", name.lower()))
    keywords = [clean_text(k) for k in signal.details.get("keywords", [])]
    keywords = [k for k in keywords if k and not set(re.findall(r"[a-z0-9]+", k.lower())) <= in_name][:max_keywords]
    text = name[:1].upper() + name[1:]
    if keywords:
        text += f" (keywords: {', '.join(keywords)})"
    titles = [clean_text(t) for t in signal.details.get("representative_titles", []) if clean_text(t)]
    if titles:
        text += f'; e.g. "{titles[0]}"'
    return text


def dimension_of(signal: Signal) -> str:
    """Taxonomy dimension of a candidate, read from its node id "<domain>:<dimension>:..."."""
    for node in signal.node_ids:
        parts = node.split(":")
        if len(parts) >= 3:
            return parts[1]
    return "all"


def overlap(a: Signal, b: Signal) -> float:
    """|papers(a) ∩ papers(b)| / min size: 1.0 for a node and its child."""
    pa, pb = set(a.paper_ids), set(b.paper_ids)
    if not pa or not pb:
        return 0.0
    return len(pa & pb) / min(len(pa), len(pb))


def feasibility_note(candidate: Signal, feasibility: Signal | None) -> str:
    if feasibility is None:
        return f"Support: {len(candidate.paper_ids)} pre-cutoff papers."
    s, d = feasibility.stats, feasibility.details
    note = f"Support: {int(s.get('support', len(candidate.paper_ids)))} pre-cutoff papers"
    if "maturity_months" in s:
        note += f"; active for about {int(round(s['maturity_months']))} months"
    if "n_bottlenecks" in s:
        nb = int(s["n_bottlenecks"])
        note += f"; {nb} recurring bottleneck{'' if nb == 1 else 's'}"
    deps = list(dict.fromkeys(clean_text(x) for x in d.get("dependencies", []) if clean_text(x)))[:3]
    risks = list(dict.fromkeys(clean_text(x) for x in d.get("risks", []) if clean_text(x)))[:3]
    if deps:
        note += f". Dependencies: {'; '.join(deps)}"
    if risks:
        note += f". Risks: {'; '.join(risks)}"
    return note + "."


# --------------------------------------------------------------------------------------
# support packets
# --------------------------------------------------------------------------------------


def evidence_item_ids(records_by_node: dict[str, EvidenceRecord], node_ids: list[str], paper_ids: set[str]) -> list[str]:
    """Public paper-level evidence ids "<arxiv_id>#<field>" for the support papers."""
    out: list[str] = []
    for node in node_ids:
        record = records_by_node.get(node)
        if record is None:
            continue
        for ev in record.papers:
            if ev.arxiv_id in paper_ids:
                out.extend(f"{ev.arxiv_id}#{f}" for f in EVIDENCE_FIELDS if getattr(ev, f).strip())
    return list(dict.fromkeys(out))[:MAX_SUPPORT_EVIDENCE]


def support_papers(candidates: list[Signal], records_by_node: dict[str, EvidenceRecord], exclude: set[str] = frozenset()) -> tuple[list[str], int]:
    """Support packet papers (representatives first, round-robin over candidates) and the full count."""
    pools: list[list[str]] = []
    for c in candidates:
        reps = [p for n in c.node_ids if n in records_by_node for p in records_by_node[n].representative_ids]
        pools.append(list(dict.fromkeys(reps + sorted(c.paper_ids))))
    allp = {p for pool in pools for p in pool} - set(exclude)
    ordered: list[str] = []
    for i in range(max((len(p) for p in pools), default=0)):
        for pool in pools:
            if i < len(pool) and pool[i] in allp and pool[i] not in ordered:
                ordered.append(pool[i])
    return ordered[:MAX_SUPPORT_PAPERS], len(allp)


# --------------------------------------------------------------------------------------
# option-set sampling (direction, planning)
# --------------------------------------------------------------------------------------


def _compatible(group: list[Signal]) -> bool:
    return all(overlap(a, b) <= MAX_OVERLAP for i, a in enumerate(group) for b in group[i + 1:])


def sample_option_sets(candidates: list[Signal], rng_key: str, n_sets: int, attempts: int = 60) -> list[list[Signal]]:
    """Distinct option sets mixing high- and low-growth candidates of one pool.

    The pool is split at the median of pre-cutoff `growth`; each set takes about half from
    each side, so the highest pre-cutoff growth is not automatically the answer. Seeded by
    `rng_key` (a string, hashed by `random` deterministically).
    """
    pool = sorted(candidates, key=lambda s: (-s.stats.get("growth", 0.0), s.signal_id))
    if len(pool) < MIN_OPTIONS:
        return []
    high, low = pool[: len(pool) // 2], pool[len(pool) // 2:]
    seen: set[frozenset[str]] = set()
    out: list[list[Signal]] = []
    for t in range(attempts):
        if len(out) >= n_sets:
            break
        rng = random.Random(f"{rng_key}-{t}")
        k = min(len(pool), rng.choice((MIN_OPTIONS, MAX_OPTIONS)))
        n_high = min(len(high), k // 2)
        group = rng.sample(high, n_high) + rng.sample(low, min(len(low), k - n_high))
        if len(group) < MIN_OPTIONS:
            continue
        key = frozenset(s.signal_id for s in group)
        if key in seen or not _compatible(group):
            continue
        seen.add(key)
        rng.shuffle(group)
        out.append(group)
    return out


def _pools(candidates: list[Signal]) -> list[tuple[str, list[Signal]]]:
    by_dim: dict[str, list[Signal]] = {}
    for c in candidates:
        by_dim.setdefault(dimension_of(c), []).append(c)
    return sorted(by_dim.items())


def _round_robin(per_pool: list[list[list[Signal]]]) -> list[list[Signal]]:
    out = []
    for i in range(max((len(p) for p in per_pool), default=0)):
        out.extend(p[i] for p in per_pool if i < len(p))
    return out


# --------------------------------------------------------------------------------------
# the builder
# --------------------------------------------------------------------------------------


def build_tasks(
    signals: list[Signal],
    records: list[EvidenceRecord],
    *,
    domain: str,
    domain_title: str,
    cutoff: date,
    window_end: date,
    horizon_months: int,
    seed: int = 0,
    per_family_max: int = 8,
    per_family_min: int = 1,
    drafter: Drafter | None = None,
    curation: Curation | None = None,
    failures: list[Failure] | None = None,
) -> tuple[list[Task], list[TaskBuild]]:
    """Public tasks of all four families and their internal construction records.

    Deterministic for fixed inputs and seed. If a family ends below `per_family_min`
    with same-dimension option sets, direction/planning relax to mixed-dimension sets.
    `drafter` returns (title, question) or a `DraftResult` (LLM mode, with its trace); an
    LLM draft that fails the leakage or decision check falls back to the template text,
    any other failing draft is dropped. Dropped drafts, duplicates and families below
    their minimum are appended to `failures` when given.
    """
    drafter = drafter or template_drafter
    curation = curation or Curation()
    failures = failures if failures is not None else []
    fam_max = {f: curation.family_max.get(f, per_family_max) for f in FAMILIES_ORDER}
    fam_min = {f: curation.family_min.get(f, per_family_min) for f in FAMILIES_ORDER}
    window_start = cutoff + timedelta(days=1)
    by_kind: dict[str, list[Signal]] = {}
    for s in sorted(signals, key=lambda s: s.signal_id):
        by_kind.setdefault(s.kind, []).append(s)
    all_candidates = by_kind.get("candidate_direction", [])
    candidates = [c for c in all_candidates if premise_ok(c, curation)]
    for c in all_candidates:
        if c not in candidates:
            failures.append(Failure(stage="tasks", item_id=c.signal_id, reason=(
                f"curation: candidate '{direction_name(c)}' has no stable historical premise "
                f"({int(c.stats.get('n_papers', len(c.paper_ids)))} papers, prior-window share "
                f"{c.stats.get('share_prior', 0):.4f}); not used")))
    records_by_node = {r.node_id: r for r in sorted(records, key=lambda r: r.record_id)}
    feas_by_node: dict[str, Signal] = {}
    for f in by_kind.get("feasibility", []):
        for n in f.node_ids:
            feas_by_node.setdefault(n, f)
    internal_ids = {s.signal_id for s in signals} | {n for s in signals for n in s.node_ids} | {
        e for s in signals for e in s.evidence_ids} | {r.record_id for r in records} | set(records_by_node)

    tasks: list[Task] = []
    builds: list[TaskBuild] = []
    base = dict(domain=domain, cutoff=cutoff, window_start=window_start, window_end=window_end)

    signatures: dict[str, list[tuple[str, set[str]]]] = {}

    def emit(family: str, draft: Draft, options: list[TaskOption], opt_signals: dict[str, Signal],
             used: list[Signal], support: list[str], support_ev: list[str], horizon: str, subject: str = "") -> bool:
        n = sum(t.family == family for t in tasks) + 1
        task_id = f"{domain}-{cutoff.isoformat()}-{family}-{n:02d}"
        result = drafter(draft)
        if isinstance(result, tuple):
            title, question = result
            trace, drafted_by = [BuildStep(step="template" if drafter is template_drafter else "draft",
                                           output=json.dumps({"title": title, "question": question}),
                                           accepted=True)], ("template" if drafter is template_drafter else "custom")
        else:
            title, question, trace, drafted_by = result.title, result.question, list(result.trace), result.drafted_by

        def make(title: str, question: str) -> Task:
            return Task(task_id=task_id, family=family, horizon=horizon, title=title, question=question,
                        instructions=INSTRUCTIONS[family], answer_requirements=list(REQUIREMENTS[family]),
                        options=options, support_paper_ids=support, support_evidence_ids=support_ev, **base)

        task = make(title, question)
        problems = internal_violations([task], cutoff=cutoff, internal_ids=internal_ids)
        unclear = clear_decision(task, curation)
        if (problems or unclear) and drafted_by not in ("template", "custom"):
            why = "; ".join(problems[:3]) or unclear
            t_title, t_question = template_drafter(draft)
            trace.append(BuildStep(step="fallback", error=f"LLM draft rejected: {why}"[:500],
                                   output=json.dumps({"title": t_title, "question": t_question}), accepted=True))
            task, drafted_by = make(t_title, t_question), "template"
            problems = internal_violations([task], cutoff=cutoff, internal_ids=internal_ids)
            unclear = clear_decision(task, curation)
        if problems or unclear:
            failures.append(Failure(stage="tasks", item_id=task_id, reason=(
                f"draft dropped: {'; '.join(problems[:3]) or unclear}")[:1000], raw=task.model_dump_json()))
            return False
        sig = decision_signature(task, subject)
        for other_id, other in signatures.get(family, []):
            if sig and jaccard(sig, other) >= curation.duplicate_jaccard:
                failures.append(Failure(stage="tasks", item_id=task_id, reason=(
                    f"curation: duplicate decision of {other_id} (Jaccard {jaccard(sig, other):.2f})")))
                return False
        signatures.setdefault(family, []).append((task_id, sig))
        tasks.append(task)
        builds.append(TaskBuild(
            task_id=task_id,
            signal_ids=list(dict.fromkeys(s.signal_id for s in used)),
            node_ids=list(dict.fromkeys(n for s in used if s.kind != "venue_profile" for n in s.node_ids)),
            option_signal_ids={k: v.signal_id for k, v in opt_signals.items()},
            drafted_by=drafted_by, build_trace=trace,
            curation={"premise": "pass", "decision": "pass", "duplicate": "pass",
                      "future_evidence": "checked by gold strength > 0 before release"},
        ))
        return True

    def option_family(family: str, text_of: Callable[[Signal], str], avoid: set[frozenset[str]]) -> None:
        pool_cands = candidates
        if family == "planning" and feas_by_node:
            with_feas = [c for c in candidates if any(n in feas_by_node for n in c.node_ids)]
            pool_cands = with_feas if len(with_feas) >= MIN_OPTIONS else candidates
        per_pool = [sample_option_sets(c, f"{seed}-{domain}-{cutoff}-{family}-{dim}", fam_max[family] * 2)
                    for dim, c in _pools(pool_cands)]
        sets = _round_robin(per_pool)
        if len(sets) < fam_min[family]:  # relax: mix dimensions
            sets += sample_option_sets(pool_cands, f"{seed}-{domain}-{cutoff}-{family}-mixed", fam_max[family] * 2)
        seen: set[frozenset[str]] = set()
        for group in sets:
            if sum(t.family == family for t in tasks) >= fam_max[family]:
                break
            key = frozenset(s.signal_id for s in group)
            if key in seen or key in avoid:
                continue
            support, n_support = support_papers(group, records_by_node)
            if n_support < MIN_SUPPORT_PAPERS:
                continue
            options = [TaskOption(option_id=OPTION_LETTERS[i], text=text_of(s)) for i, s in enumerate(group)]
            opt_signals = {o.option_id: s for o, s in zip(options, group)}
            used = list(group)
            if family == "planning":
                used += [feas_by_node[n] for s in group for n in s.node_ids if n in feas_by_node]
            rng = random.Random(f"{seed}-{domain}-{cutoff}-{family}-team-{len(seen)}")
            draft = Draft(family=family, domain_title=domain_title, cutoff=cutoff, window_start=window_start,
                          window_end=window_end, horizon_months=horizon_months, options=options,
                          team_size=rng.choice(TEAM_SIZES))
            nodes = [n for s in group for n in s.node_ids]
            if emit(family, draft, options, opt_signals, used, support,
                    evidence_item_ids(records_by_node, nodes, set(support)), f"{horizon_months}-month"):
                seen.add(key)
        avoid |= seen

    used_sets: set[frozenset[str]] = set()
    option_family("direction", direction_text, used_sets)

    # bottleneck: one per well-supported subdirection with linked bottleneck signals
    bottlenecks = by_kind.get("bottleneck", [])

    def linked(c: Signal) -> list[Signal]:
        nodes = set(c.node_ids)
        return [b for b in bottlenecks if nodes & (set(b.node_ids) | set(b.details.get("nodes", [])))]

    ranked = sorted(((c, linked(c)) for c in candidates), key=lambda x: (-len(x[1]), -len(x[0].paper_ids), x[0].signal_id))
    chosen: list[Signal] = []
    for cand, bns in ranked:
        if sum(t.family == "bottleneck" for t in tasks) >= fam_max["bottleneck"]:
            break
        if not bns or any(overlap(cand, c) > SAME_SUBDIRECTION_OVERLAP for c in chosen):
            continue
        support, n_support = support_papers([cand], records_by_node)
        if n_support < MIN_SUPPORT_PAPERS:
            continue
        draft = Draft(family="bottleneck", domain_title=domain_title, cutoff=cutoff, window_start=window_start,
                      window_end=window_end, horizon_months=horizon_months, subdirection=direction_name(cand))
        ev = evidence_item_ids(records_by_node, cand.node_ids, set(support))
        if emit("bottleneck", draft, [], {}, [cand] + bns, support, ev, f"{horizon_months}-month",
                subject=direction_name(cand)):
            chosen.append(cand)

    option_family("planning", lambda s: f"{direction_text(s, 3)} Feasibility: "
                  f"{feasibility_note(s, next((feas_by_node[n] for n in s.node_ids if n in feas_by_node), None))}",
                  used_sets)

    # venue: a recent representative paper's problem + method, options = families with venue lists
    venues = [v for v in by_kind.get("venue_profile", []) if v.stats.get("n_papers", 0) > 0]
    venues = sorted(venues, key=venue_family)[:MAX_OPTIONS]
    if len(venues) >= 2:
        chosen = []
        for cand in sorted(candidates, key=lambda c: (-len(c.paper_ids), c.signal_id)):
            if sum(t.family == "venue" for t in tasks) >= fam_max["venue"]:
                break
            if any(overlap(cand, c) > SAME_SUBDIRECTION_OVERLAP for c in chosen):
                continue
            project = _project_paper(cand, records_by_node)
            if project is None:
                continue
            support, n_support = support_papers([cand], records_by_node, exclude={project.arxiv_id})
            if n_support < MIN_SUPPORT_PAPERS:
                continue
            options = [TaskOption(option_id=OPTION_LETTERS[i], text=_venue_text(v)) for i, v in enumerate(venues)]
            description = clean_text(f"{project.problem.strip()} {project.method.strip()}")
            draft = Draft(family="venue", domain_title=domain_title, cutoff=cutoff, window_start=window_start,
                          window_end=window_end, horizon_months=horizon_months, options=options, project=description)
            ev = [e for e in evidence_item_ids(records_by_node, cand.node_ids, set(support))]
            if emit("venue", draft, options, dict(zip((o.option_id for o in options), venues)), [cand] + venues,
                    support, ev, "venue cycle", subject=description):
                chosen.append(cand)
    for family in FAMILIES_ORDER:
        have = sum(t.family == family for t in tasks)
        if have < fam_min[family]:
            failures.append(Failure(stage="tasks", item_id=f"{domain}-{cutoff.isoformat()}-{family}",
                                    reason=f"curation: family {family} has {have} task(s), below its minimum {fam_min[family]}"))
    return tasks, builds


def _project_paper(cand: Signal, records_by_node: dict[str, EvidenceRecord]):
    """Most recent paper of the candidate's records with both a problem and a method sentence."""
    pool = [ev for n in cand.node_ids if n in records_by_node for ev in records_by_node[n].papers
            if ev.problem.strip() and ev.method.strip() and ev.problem.strip() != ev.method.strip()]
    if not pool:
        return None
    return sorted(pool, key=lambda ev: (ev.published, ev.arxiv_id))[-1]


def venue_family(profile: Signal) -> str:
    """Family name of a venue_profile signal ("ICLR/ICML/NeurIPS"), as venue_similarity keys it."""
    fam = profile.details.get("family") or []
    return fam[0] if fam else profile.title.removesuffix(" profile").strip()


def _venue_text(profile: Signal) -> str:
    """Family name + the style mix of its accepted domain-close papers (or contribution styles)."""
    text = clean_text(venue_family(profile))
    st = profile.stats
    if all(k in st for k in ("style_method", "style_benchmark", "style_analysis")):
        return (f"{text} (accepted papers close to this domain: {st['style_method']:.0%} method, "
                f"{st['style_benchmark']:.0%} benchmark, {st['style_analysis']:.0%} analysis)")
    styles = [clean_text(s) for s in profile.details.get("contribution_styles", []) if clean_text(s)][:2]
    return f"{text} (typical contributions: {'; '.join(styles)})" if styles else text

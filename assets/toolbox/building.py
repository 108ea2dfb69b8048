"""Task building machinery shared by every family (ForeSci §3.4, Appendix B.7).

A family module (`assets/families/<name>.py`) decides WHAT its tasks ask: which signals
make a task, its options, its template text. This module does the rest, the same for
every family: the support packet, option-set sampling, drafting (template or LLM),
curation and the construction record.

Curation (B.7) checks three properties before a task is kept (`Curation` holds the knobs):
* a stable historical premise: every candidate behind the task has >= `min_option_papers`
  pre-cutoff papers, some of them from before the recent window (`share_prior` > 0: the
  direction did not appear only in the last months), and the task has >=
  MIN_SUPPORT_PAPERS support papers;
* a clear decision: option texts are distinct (word-set Jaccard below `option_jaccard`)
  and the question asks the family's decision (`TaskFamily.decision_problem`);
* enough future evidence to validate: measured later (gold strength > 0), and the ranking
  stage never releases a task with strength 0.
Duplicates (two tasks asking the same decision: the same option set, the same or an
entangled subdirection, or a decision signature with Jaccard >= `duplicate_jaccard`) are
dropped; each family is capped at `per_family_max` (per-family overrides in
`Curation.family_max`), and a family that ends below its minimum is reported as a
`Failure` row, as is every dropped draft. Public text never carries node ids, "ev:"
record ids or signal ids: the support packet lists papers and paper-level evidence ids
"<arxiv_id>#<field>" (a field of that paper's `PaperEvidence`), while the record ids
stay in `TaskBuild`.

Whatever a drafter writes is checked by `internal_violations` (internal ids, post-cutoff
dates) and the family's decision check; a failing LLM draft falls back to the template,
any other failing draft is dropped, not repaired silently.


Option sets (`assets.toolbox.option_sets`, with their level rules in `assets.toolbox.option_level`)
and option text (`assets.toolbox.option_text`) are their own modules since issue 32; their names
are re-exported here for the families that import them from the builder."""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from datetime import date, timedelta
from typing import Protocol

from assets.toolbox.option_sets import (  # noqa: F401  (re-exported: the families import them from here)
    MAX_OPTIONS,
    MAX_SHARED_OPTIONS,
    MIN_OPTIONS,
    NEAR_DUPLICATE_COS,
    NEAR_DUPLICATE_OVERLAP,
    SET_ATTEMPTS,
    SUBFIELD_MIN_COS,
    SUBFIELD_PAIR_MIN,
    keep_new_set,
    near_duplicate,
    neighbour_cos,
    subfield_option_sets,
    subfield_problem,
)
from assets.toolbox.option_text import (  # noqa: F401  (re-exported)
    OPTION_LETTERS,
    TITLE_NAME_CHARS,
    clean_text,
    dimension_of,
    direction_name,
    direction_text,
    members,
    overlap,
    plain_title,
    short_name,
    shuffled_options,
)
from core.leakage import internal_violations
from core.records import (
    BuildStep,
    EvidenceRecord,
    Failure,
    Signal,
    Task,
    TaskBuild,
    TaskOption,
)
from core.text import jaccard, word_set


class TaskFamily(Protocol):
    """What the builder asks of a family (`assets.families.base.TaskFamily` provides it; the
    toolbox sits below the families, so it names the protocol instead of importing the class)."""

    name: str
    instructions: str
    requirements: tuple[str, ...]

    def template(self, draft: Draft) -> tuple[str, str]: ...

    def decision_problem(self, task: Task) -> str | None: ...

    def decision_signature(self, task: Task, subject: str) -> object: ...


MIN_SUPPORT_PAPERS = 5
MAX_SUPPORT_PAPERS = 40  # support packet size shown to the agent (after the minimum check)
MAX_SUPPORT_EVIDENCE = 80
TITLE_MAX_CHARS = 160  # a longer task title is flagged (assets/audit/flags.py); templates stay below it
SAME_SUBDIRECTION_OVERLAP = 0.8  # bottleneck/venue tasks on subdirections this entangled are duplicates
TEAM_SIZES = (3, 4, 5, 6, 8)
EVIDENCE_FIELDS = ("problem", "method", "evaluation_focus", "limitation", "contribution_type")


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
    premise: str = ""  # venue: what was true of the project at the cutoff (under review / next cycle)
    project_title: str = ""  # venue: the project paper's title, which names the task (`venue.naming.project_name`)


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


@dataclass
class BuildSettings:
    """What a partition's task build needs besides its inputs (was 13 loose parameters)."""

    domain: str
    domain_title: str
    cutoff: date
    window_end: date
    horizon_months: int
    seed: int = 0
    per_family_max: int = 16
    per_family_min: int = 1
    curation: Curation = field(default_factory=Curation)

    @property
    def window_start(self) -> date:
        return self.cutoff + timedelta(days=1)

    def family_max(self, family: str) -> int:
        return self.curation.family_max.get(family, self.per_family_max)

    def family_min(self, family: str) -> int:
        return self.curation.family_min.get(family, self.per_family_min)


def premise_ok(signal: Signal, curation: Curation) -> bool:
    """Stable historical premise: enough pre-cutoff papers, not all of them recent (missing stats
    pass) -- except for an emerging candidate (`stats["emerging"]`, born in the months before the
    cutoff, `assets.evidence.candidates`), whose premise is exactly that it is new.

    (The taxonomy's `age_months` is when a node was created, which finer slices near the
    cutoff make recent for long-standing topics, so the premise uses the papers instead.)
    """
    n = signal.stats.get("n_papers", float(len(signal.paper_ids)))
    prior_ok = (
        not curation.require_prior_papers or signal.stats.get("share_prior", 1.0) > 0 or signal.stats.get("emerging", 0.0) > 0
    )
    return n >= curation.min_option_papers and prior_ok


def near_identical_options(task: Task, curation: Curation) -> str | None:
    """None if the task's options are distinct, else which two are near-identical."""
    sets = [word_set(o.text.split(" Feasibility:")[0]) for o in task.options]
    for i in range(len(sets)):
        for j in range(i + 1, len(sets)):
            if jaccard(sets[i], sets[j]) >= curation.option_jaccard:
                return f"options {task.options[i].option_id} and {task.options[j].option_id} are near-identical"
    return None


def clear_decision(task: Task, family: TaskFamily, curation: Curation) -> str | None:
    """None if the task asks one clear decision, else the reason it does not."""
    return family.decision_problem(task) or near_identical_options(task, curation)


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


def support_papers(
    candidates: list[Signal], records_by_node: dict[str, EvidenceRecord], exclude: set[str] = frozenset()
) -> tuple[list[str], int]:
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
# the builder: one per partition, shared by the families in registry order
# --------------------------------------------------------------------------------------


@dataclass
class BuildInputs:
    """What a family may ask the builder for beyond the signals and evidence records; a family
    names the ones it reads in `TaskFamily.needs`, and the tasks stage loads only those."""

    papers: list = field(default_factory=list)  # "papers": the partition's screened papers
    fulltext: dict = field(default_factory=dict)  # "fulltext": GROBID sections by paper id
    embed: Callable | None = None  # "embed": texts -> L2-normalised vectors
    llm: object = None  # "llm": the drafting model client (None offline): families draft their parts with it
    tree_drafter: Callable | None = None  # explicit drafters (tests): rediscovery's problem trees,
    inspiration_drafter: Callable | None = None  # phase's inspirations


BUILD_INPUTS = frozenset({"papers", "fulltext", "embed", "llm"})  # what `TaskFamily.needs` may name


class TaskBuilder:
    """Inputs indexed once, the tasks and records built so far, and `emit` / `option_tasks`.

    Families are built in registry order; the builder's state is what they share: task
    numbering, the duplicate signatures, and the option sets already used (a planning
    task never reuses a direction task's option set).
    """

    def __init__(
        self,
        signals: list[Signal],
        records: list[EvidenceRecord],
        settings: BuildSettings,
        drafter: Drafter | None,
        failures: list[Failure],
        inputs: BuildInputs | None = None,
    ):
        self.settings, self.drafter, self.failures = settings, drafter, failures
        inputs = inputs or BuildInputs()
        self.papers, self.fulltext, self.embed, self.llm = inputs.papers, inputs.fulltext, inputs.embed, inputs.llm
        self.tree_drafter, self.inspiration_drafter = inputs.tree_drafter, inputs.inspiration_drafter
        self.inspirations: list = []  # the phase family's, kept for inspection
        self.curation = settings.curation
        self.by_kind: dict[str, list[Signal]] = {}
        for s in sorted(signals, key=lambda s: s.signal_id):
            self.by_kind.setdefault(s.kind, []).append(s)
        all_candidates = self.by_kind.get("candidate_direction", [])
        self.candidates = [c for c in all_candidates if premise_ok(c, self.curation)]
        for c in all_candidates:
            if c not in self.candidates:
                failures.append(
                    Failure(
                        stage="tasks",
                        item_id=c.signal_id,
                        reason=(
                            f"curation: candidate '{direction_name(c)}' has no stable historical premise "
                            f"({int(c.stats.get('n_papers', len(c.paper_ids)))} papers, prior-window share "
                            f"{c.stats.get('share_prior', 0):.4f}); not used"
                        ),
                    )
                )
        self.records_by_node = {r.node_id: r for r in sorted(records, key=lambda r: r.record_id)}
        self.feas_by_node: dict[str, Signal] = {}
        for f in self.by_kind.get("feasibility", []):
            for n in f.node_ids:
                self.feas_by_node.setdefault(n, f)
        self.internal_ids = (
            {s.signal_id for s in signals}
            | {n for s in signals for n in s.node_ids}
            | {e for s in signals for e in s.evidence_ids}
            | {r.record_id for r in records}
            | set(self.records_by_node)
        )
        self.tasks: list[Task] = []
        self.builds: list[TaskBuild] = []
        self.signatures: dict[str, list[tuple[str, set[str]]]] = {}
        self.used_option_sets: set[frozenset[str]] = set()

    def count(self, family: str) -> int:
        return sum(t.family == family for t in self.tasks)

    def full(self, family: str) -> bool:
        return self.count(family) >= self.settings.family_max(family)

    def draft(self, family: str, **fields) -> Draft:
        st = self.settings
        return Draft(
            family=family,
            domain_title=st.domain_title,
            cutoff=st.cutoff,
            window_start=st.window_start,
            window_end=st.window_end,
            horizon_months=st.horizon_months,
            **fields,
        )

    def _text(self, family: TaskFamily, draft: Draft) -> tuple[str, str, list[BuildStep], str]:
        """(title, question, trace, drafted_by) from the configured drafter or the family's template."""
        if self.drafter is None:
            title, question = family.template(draft)
            return (
                title,
                question,
                [BuildStep(step="template", output=json.dumps({"title": title, "question": question}), accepted=True)],
                "template",
            )
        result = self.drafter(draft)
        if isinstance(result, tuple):
            title, question = result
            return (
                title,
                question,
                [BuildStep(step="draft", output=json.dumps({"title": title, "question": question}), accepted=True)],
                "custom",
            )
        return result.title, result.question, list(result.trace), result.drafted_by

    def emit(
        self,
        family: TaskFamily,
        draft: Draft,
        options: list[TaskOption],
        opt_signals: dict[str, Signal],
        used: list[Signal],
        support: list[str],
        support_ev: list[str],
        horizon: str,
        subject: str = "",
    ) -> bool:
        """Draft, check and keep one task; False (and a failure row) when it is dropped."""
        st = self.settings
        task_id = f"{st.domain}-{st.cutoff.isoformat()}-{family.name}-{self.count(family.name) + 1:02d}"
        options, opt_signals = shuffled_options(options, opt_signals, f"{st.seed}-{task_id}")
        if draft.options:  # the title and question list the options in their shuffled order too
            draft = replace(draft, options=options)
        title, question, trace, drafted_by = self._text(family, draft)

        def make(title: str, question: str) -> Task:
            return Task(
                task_id=task_id,
                family=family.name,
                horizon=horizon,
                title=title,
                question=question,
                instructions=family.instructions,
                answer_requirements=list(family.requirements),
                options=options,
                support_paper_ids=support,
                support_evidence_ids=support_ev,
                domain=st.domain,
                cutoff=st.cutoff,
                window_start=st.window_start,
                window_end=st.window_end,
            )

        task = make(title, question)
        problems = internal_violations([task], cutoff=st.cutoff, internal_ids=self.internal_ids)
        unclear = clear_decision(task, family, self.curation)
        if (problems or unclear) and drafted_by not in ("template", "custom"):
            why = "; ".join(problems[:3]) or unclear
            t_title, t_question = family.template(draft)
            trace.append(
                BuildStep(
                    step="fallback",
                    error=f"LLM draft rejected: {why}"[:500],
                    output=json.dumps({"title": t_title, "question": t_question}),
                    accepted=True,
                )
            )
            task, drafted_by = make(t_title, t_question), "template"
            problems = internal_violations([task], cutoff=st.cutoff, internal_ids=self.internal_ids)
            unclear = clear_decision(task, family, self.curation)
        if problems or unclear:
            self.failures.append(
                Failure(
                    stage="tasks",
                    item_id=task_id,
                    reason=(f"draft dropped: {'; '.join(problems[:3]) or unclear}")[:1000],
                    raw=task.model_dump_json(),
                )
            )
            return False
        sig = family.decision_signature(task, subject)
        for other_id, other in self.signatures.get(family.name, []):
            if sig and jaccard(sig, other) >= self.curation.duplicate_jaccard:
                self.failures.append(
                    Failure(
                        stage="tasks",
                        item_id=task_id,
                        reason=(f"curation: duplicate decision of {other_id} (Jaccard {jaccard(sig, other):.2f})"),
                    )
                )
                return False
        self.signatures.setdefault(family.name, []).append((task_id, sig))
        self.tasks.append(task)
        self.builds.append(
            TaskBuild(
                task_id=task_id,
                signal_ids=list(dict.fromkeys(s.signal_id for s in used)),
                node_ids=list(dict.fromkeys(n for s in used if s.kind != "venue_profile" for n in s.node_ids)),
                option_signal_ids={k: v.signal_id for k, v in opt_signals.items()},
                drafted_by=drafted_by,
                build_trace=trace,
                curation={
                    "premise": "pass",
                    "decision": "pass",
                    "duplicate": "pass",
                    "future_evidence": "checked by gold strength > 0 before release",
                },
            )
        )
        return True

    def option_tasks(
        self,
        family: TaskFamily,
        text_of: Callable[[Signal], str],
        pool: list[Signal],
        extra_signals: Callable[[Signal], list[Signal]] = lambda s: [],
        set_problem: Callable[[list[Signal]], str | None] | None = None,
    ) -> None:
        """Tasks whose options are candidate directions of one subfield each (`subfield_option_sets`,
        with the family's own `set_problem` rule when given); option sets used by an earlier family
        are not reused."""
        st, name = self.settings, family.name
        sets = subfield_option_sets(
            pool, f"{st.seed}-{st.domain}-{st.cutoff}-{name}", st.family_max(name) * 2, set_problem=set_problem
        )
        seen: set[frozenset[str]] = set()
        for group in sets:
            if self.full(name):
                break
            key = frozenset(s.signal_id for s in group)
            if key in seen or key in self.used_option_sets:
                continue
            support, n_support = support_papers(group, self.records_by_node)
            if n_support < MIN_SUPPORT_PAPERS:
                continue
            options = [TaskOption(option_id=OPTION_LETTERS[i], text=text_of(s)) for i, s in enumerate(group)]
            opt_signals = {o.option_id: s for o, s in zip(options, group)}
            used = list(group) + [x for s in group for x in extra_signals(s)]
            rng = random.Random(f"{st.seed}-{st.domain}-{st.cutoff}-{name}-team-{len(seen)}")
            draft = self.draft(name, options=options, team_size=rng.choice(TEAM_SIZES))
            nodes = [n for s in group for n in s.node_ids]
            if self.emit(
                family,
                draft,
                options,
                opt_signals,
                used,
                support,
                evidence_item_ids(self.records_by_node, nodes, set(support)),
                f"{st.horizon_months}-month",
            ):
                seen.add(key)
        self.used_option_sets |= seen

    def report_minimum(self, family: str) -> None:
        have, need = self.count(family), self.settings.family_min(family)
        if have < need:
            st = self.settings
            self.failures.append(
                Failure(
                    stage="tasks",
                    item_id=f"{st.domain}-{st.cutoff.isoformat()}-{family}",
                    reason=f"curation: family {family} has {have} task(s), below its minimum {need}",
                )
            )

"""Independent decisions of a release: a decision asked twice is counted once (plain functions).

A release over several cutoffs and domains can ask one decision more than once: the same
direction question at two consecutive cutoffs (their 6-month windows overlap by three
months), the same project in two domains' venue tasks (a paper sits in both corpora), a
planning task whose gold top approach is the gold top direction of a direction task of the
same partition. Released tasks that carry the same decision are not independent evidence
about an agent; the release card reports, per family, how many released tasks carry an
independent decision (`effective`).

**What is compared.** Each released task becomes a `Decision` (`decision_of`): its option
names when its options are named research objects (each family says what its decision is
about: `TaskFamily.decision_facts`) (direction, planning; not a fixed menu like
the venue families), its subject (the direction a planning or bottleneck task is about; a
phase task's subject), the one paper it is about (a venue task's project, a phase task's
primary paper: hidden construction facts), its phase subtype, the name of its gold's top
option, and its gold keypoint texts (phase). Names are compared with
`core.phrases.same_direction` (equal keys, or an acronym and its expansion).

**The rule: two released tasks are duplicates when**

1. `same_question`: same family, cutoffs equal or consecutive in the release's cutoff list,
   any domains, and the same objects: the same option names (a one-to-one match of the two
   option lists) and, where both have a subject, the same subject (planning: the same
   approaches inside two directions are two decisions); for a task without named options and
   without a project, the same subject (and phase subtype);
2. `same_project`: same family and subtype, cutoffs equal or consecutive, the same project
   paper (venue: `TaskBuild.project_paper_id`; phase: the primary paper), in any two domains
   (a project in two domains' corpora) or at two cutoffs;
3. `same_gold`: same domain and cutoff, and the same gold decision: the gold top options of two
   tasks with named options (any families, e.g. a planning top approach equal to a direction
   top direction) name the same thing; or two phase tasks, at equal or consecutive cutoffs of
   one domain, whose gold keypoints share a sentence (the same future paper is the answer).

Duplicates are transitive (union-find): every connected group of released tasks is ONE
independent decision. The group is credited to one task, its representative: the first by
`FAMILY_ORDER` (direction, bottleneck, planning, venue, phase, then other families by name),
then the earliest cutoff, then domain and task id -- the first time the decision was asked,
in the family that asks it most directly. Every other task of the group is a duplicate of its
family, labelled with the rule of the link through which a breadth-first walk from the
representative reached it. Per family: `released`, `duplicates` (by rule) and `effective` =
released - duplicates = groups represented in the family; the families' `effective` sum to
the number of groups.

The pairs and groups name task ids and rest on hidden facts (projects, gold answers): they go
to the hidden side of a release (`independence.jsonl`); the public card carries counts only.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache

from assets.families.registry import get_family
from core.phrases import option_name, same_direction
from core.records import GoldTarget, Task, TaskBuild

FAMILY_ORDER = ("direction", "bottleneck", "planning", "venue", "phase")
RULES = ("same_question", "same_project", "same_gold")
_same = lru_cache(maxsize=65536)(same_direction)  # names repeat across many pairs


@dataclass(frozen=True)
class Decision:
    """What one released task decides, as the independence rule compares it."""

    domain: str
    cutoff: str
    task_id: str
    family: str
    subtype: str = ""
    objects: tuple[str, ...] = ()  # option names, for options that are named research objects
    subject: str = ""  # the direction (planning, bottleneck) or topic (phase) the task is about
    project: str = ""  # the one paper a task is about (venue project, phase primary paper)
    gold_top: str = ""  # name of the gold's top option (tasks with named objects)
    gold_texts: frozenset[str] = field(default_factory=frozenset)  # phase: gold keypoint sentences

    @property
    def key(self) -> tuple[str, str, str]:
        return (self.domain, self.cutoff, self.task_id)


def _norm(text: str) -> str:
    return " ".join(text.lower().split())


def decision_of(task: Task, build: TaskBuild | None, gold: GoldTarget | None, subject: str = "") -> Decision:
    """A task's `Decision` from its public record, its hidden construction record and gold.
    `subject`: the direction a planning task's approaches sit in (its approach signals'
    `direction_name`), when the caller knows it."""
    fam = task.family
    facts = get_family(fam).decision_facts(task, build, gold)  # what the family says its decision is about
    named = bool(task.options) and facts.get("named", True)
    objects = tuple(option_name(o.text) for o in task.options) if named else ()
    if not subject:
        subject = facts.get("subject", "")
    project = build.project_paper_id if build and build.project_paper_id else ""
    if not project:
        project = facts.get("project", "")
    gold_top = ""
    if named and gold and gold.preferred_ranking:
        text = {o.option_id: o.text for o in task.options}.get(gold.preferred_ranking[0])
        gold_top = option_name(text) if text else ""
    gold_texts = frozenset(_norm(v) for v in facts.get("gold_texts", ()))
    return Decision(
        domain=task.domain,
        cutoff=task.cutoff.isoformat(),
        task_id=task.task_id,
        family=fam,
        subtype=task.subtype,
        objects=objects,
        subject=subject.strip(),
        project=project,
        gold_top=gold_top,
        gold_texts=gold_texts,
    )


def same_objects(a: Sequence[str], b: Sequence[str]) -> bool:
    """Two option lists name the same objects: equal length and a one-to-one match by
    `same_direction` (greedy: the options of one task never name the same thing, the builders' `duplicate_options` rule)."""
    if len(a) != len(b) or not a:
        return False
    left = list(b)
    for x in a:
        hit = next((i for i, y in enumerate(left) if _same(x, y)), None)
        if hit is None:
            return False
        left.pop(hit)
    return True


def _near(a: Decision, b: Decision, step: Mapping[str, int]) -> bool:
    """Cutoffs equal or consecutive in the release's cutoff list."""
    return abs(step[a.cutoff] - step[b.cutoff]) <= 1


def link(a: Decision, b: Decision, step: Mapping[str, int]) -> str | None:
    """The rule (of `RULES`) that makes two released tasks duplicates, or None."""
    if a.family == b.family and a.subtype == b.subtype and _near(a, b, step):
        if a.objects and b.objects:
            if same_objects(a.objects, b.objects) and (not (a.subject and b.subject) or _same(a.subject, b.subject)):
                return "same_question"
        elif a.project and b.project:
            if a.project == b.project:
                return "same_project"
        elif not a.objects and not b.objects and a.subject and b.subject and _same(a.subject, b.subject):
            return "same_question"
    if a.domain == b.domain:
        if a.cutoff == b.cutoff and a.gold_top and b.gold_top and _same(a.gold_top, b.gold_top):
            return "same_gold"
        if a.gold_texts and b.gold_texts and _near(a, b, step) and a.gold_texts & b.gold_texts:
            return "same_gold"
    return None


def _order(d: Decision, step: Mapping[str, int]) -> tuple:
    fam = FAMILY_ORDER.index(d.family) if d.family in FAMILY_ORDER else len(FAMILY_ORDER)
    return (fam, d.family, step[d.cutoff], d.domain, d.task_id)


@dataclass
class Independence:
    """The groups of duplicate released tasks and the per-family counts."""

    groups: list[dict]  # {representative, family, members: [{task, family, rule, via}]}
    pairs: list[dict]  # every duplicate link: {a, b, rule}
    families: dict[str, dict]  # family -> {released, duplicates, effective, duplicates_by_rule}

    @property
    def effective(self) -> int:
        return len(self.groups)


def independence(decisions: Iterable[Decision], cutoffs: Sequence[str] | None = None) -> Independence:
    """Group the released tasks' decisions by the module's rule; `cutoffs`: the release's
    cutoffs in order (default: the decisions' own), which defines "consecutive"."""
    items = sorted(decisions, key=lambda d: d.key)
    order = sorted(set(cutoffs or ()) | {d.cutoff for d in items})
    step = {c: i for i, c in enumerate(order)}
    adj: dict[int, list[tuple[int, str]]] = defaultdict(list)
    pairs = []
    for i, a in enumerate(items):
        for j in range(i + 1, len(items)):
            rule = link(a, items[j], step)
            if rule:
                adj[i].append((j, rule))
                adj[j].append((i, rule))
                pairs.append({"a": "@".join(a.key), "b": "@".join(items[j].key), "rule": rule})
    seen: set[int] = set()
    groups, rule_of, rep_of = [], {}, {}
    for start in sorted(range(len(items)), key=lambda k: _order(items[k], step)):
        if start in seen:
            continue
        seen.add(start)
        members, queue = [], [start]
        while queue:  # breadth-first from the representative; neighbours in a fixed order
            k = queue.pop(0)
            for n, rule in sorted(adj[k], key=lambda e: _order(items[e[0]], step)):
                if n not in seen:
                    seen.add(n)
                    rule_of[n], rep_of[n] = rule, k
                    members.append(n)
                    queue.append(n)
        rep = items[start]
        groups.append(
            {
                "representative": "@".join(rep.key),
                "family": rep.family,
                "members": [
                    {
                        "task": "@".join(items[n].key),
                        "family": items[n].family,
                        "rule": rule_of[n],
                        "via": "@".join(items[rep_of[n]].key),
                    }
                    for n in members
                ],
            }
        )
    families: dict[str, dict] = {}
    for fam in sorted(
        {d.family for d in items}, key=lambda f: (FAMILY_ORDER.index(f) if f in FAMILY_ORDER else len(FAMILY_ORDER), f)
    ):
        released = sum(d.family == fam for d in items)
        dups = Counter(rule_of[k] for k, d in enumerate(items) if d.family == fam and k in rule_of)
        families[fam] = {
            "released": released,
            "duplicates": sum(dups.values()),
            "duplicates_by_rule": {r: dups.get(r, 0) for r in RULES},
            "effective": released - sum(dups.values()),
        }
    return Independence(groups=groups, pairs=pairs, families=families)

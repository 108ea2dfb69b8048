"""Deterministic audit flags: the reviewer's first signals (ForeSci App. B.6-B.7).

Each check looks at one candidate task (with its gold and support packet) and returns the
flags a reviewer should look at first. They are cheap, need no model and never decide
anything: a flagged task is read first, not removed. The thresholds are module constants,
named in each flag's detail so a reviewer sees why it fired.

* `weak_support`: few support papers, or few of them with a verbatim pre-cutoff quote;
* `near_duplicate`: another candidate of the family asks nearly the same thing (content-word
  Jaccard of title, question and options, the family's template words -- those of more than
  TEMPLATE_SHARE of its candidates -- left out);
* `label_readability`: a title or option a reader cannot follow: an abstract fragment
  ("However, ..."), a truncated text, or markup remnants (a bare one-word option is the hard
  defect `bare_word_option`, `assets.ranking.defects`);
* the hard defects of `assets.ranking.defects` (contribution-type, bare-word, dead or
  duplicate options, options outside one subfield, planning/direction overlap): `defect_flags`;
* `gold_unstable`: a gold the release gate passed, but only just (top-1 kept in fewer than
  gold_stability_min + BORDERLINE_STABILITY of the resamples, or a lead under SMALL_MARGIN);
  a gold the gate held back is not flagged (its checks say why, and it does not ship);
* `possible_leakage`: the public text names a post-cutoff entity (a future paper's id or
  title, a term first seen after the cutoff in >= 2 window titles) or another task's answer;
* `repeated_project_text`: a task about one project (venue) repeats another task's project:
  the same project paper, or project texts whose content words overlap by Jaccard >=
  REPEAT_JACCARD (or one contains the other), or the build found the paper's home domain
  elsewhere (the paper belongs to another domain's tasks);
* `small_gold_margin` (venue): a proxy gold (`numbers["gold_kind_proxy"]` = 1: no real outcome) whose
  top-2 proxy gap is below SMALL_PROXY_GAP (cosine): the closest of the proxy's calls. Measured
  on the venue projects that have a real outcome (benchmarks/venue_proxy.py, three cutoffs), no
  gap makes the proxy reliable (40% right below 0.04, 43% at or above it, against 58-79% for the
  most common family), so the release holds every proxy gold back; the flag tells a reviewer
  which of them are closest to a coin toss.
* `label_collision`: two candidates of one task carry the same label (case and spacing
  ignored): two options, or two candidates a no-option task's gold ranks (bottleneck
  limitations); or a no-option task's gold counted papers for fewer candidates than it ranks
  (counted keyed by a label, so one candidate's papers overwrote another's);
* a family's own flags (`TaskFamily.audit_flags`), e.g. bottleneck's `small_gold_margin` (the
  gold limitation leads the second by fewer than MIN_MARGIN_PAPERS counted papers, or by less
  than MIN_RELATIVE_MARGIN of its own count) and `background_evidence` (a counted window-paper
  sentence reads as background: no own-work marker, or an opening on prior work or the field
  before its first first-person marker) in `assets/families/bottleneck/`.
* `shared_quotes`: the task's question quotes a sentence that another task of the partition
  (any family) also quotes: a double-quoted span of >= QUOTE_MIN_CHARS characters whose words
  (lower-cased, punctuation dropped) equal, contain or are contained in one of the other's
  (a quote cut after its connective clause is the same quote).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from assets.families.registry import get_family
from assets.ranking.defects import option_defects
from assets.toolbox.building import TITLE_MAX_CHARS
from core.leakage import check_public_tasks, content_words
from core.phrases import option_name
from core.records import AuditFlag, GoldTarget, SupportQuote, Task, TaskBuild
from core.thresholds import Thresholds

MIN_SUPPORT_PAPERS = 5  # the task builder's own premise minimum
MIN_QUOTED_PAPERS = 3  # support papers with at least one verified verbatim quote
DUPLICATE_JACCARD = 0.7  # below the builder's 0.8 drop threshold: near, not identical
TEMPLATE_SHARE = 0.5  # a word in more than half of a family's candidates is its template's
BORDERLINE_STABILITY = 0.1  # released golds this close to the stability bar are flagged
SMALL_MARGIN = 0.1  # ... and those whose top leads the runner-up by less than 10%
_FRAGMENT_START = re.compile(
    r"^(however|but|and|or|moreover|furthermore|thus|therefore|in this paper|"
    r"in this work|we|our|this paper|this work|to this end)\b",
    re.IGNORECASE,
)
_MARKUP = re.compile(r"[<>{}\\$_]|&[a-z]+;")
QUOTE_MIN_CHARS = 30  # a shorter quoted span is a phrase or a name, not a quoted sentence
_QUOTED = re.compile(r'"([^"]*)"')  # quote pairs in order; a short pair ("GUI agents") is skipped after pairing


def support_flags(task: Task, support: Sequence[SupportQuote]) -> list[AuditFlag]:
    quoted = [s for s in support if any(f not in s.unverified for f in s.quotes)]
    out = []
    if len(task.support_paper_ids) < MIN_SUPPORT_PAPERS:
        out.append(
            AuditFlag(code="weak_support", detail=(f"{len(task.support_paper_ids)} support papers (< {MIN_SUPPORT_PAPERS})"))
        )
    if len(quoted) < MIN_QUOTED_PAPERS:
        out.append(
            AuditFlag(
                code="weak_support",
                detail=(f"{len(quoted)} support papers with a verified verbatim quote (< {MIN_QUOTED_PAPERS})"),
            )
        )
    return out


def _signature(task: Task) -> set[str]:
    return content_words(" ".join([task.title, task.question, *(o.text for o in task.options)]))


def _template_words(tasks: Sequence[Task], sigs: dict[str, set[str]]) -> dict[str, set[str]]:
    """Per family, the words of more than TEMPLATE_SHARE of its candidates' signatures: the
    template's own words, which make every two tasks of a family look alike."""
    out: dict[str, set[str]] = {}
    for family in {t.family for t in tasks}:
        ids = [t.task_id for t in tasks if t.family == family]
        counts: dict[str, int] = {}
        for i in ids:
            for w in sigs[i]:
                counts[w] = counts.get(w, 0) + 1
        out[family] = {w for w, c in counts.items() if len(ids) >= 4 and c > TEMPLATE_SHARE * len(ids)}
    return out


def duplicate_flags(
    tasks: Sequence[Task], *, fixed_option_families: set[str] = frozenset(), selected: set[str] = frozenset()
) -> dict[str, list[AuditFlag]]:
    """For each task, the (up to 3) most similar other candidates of its family at Jaccard >=
    DUPLICATE_JACCARD, each marked selected or held back by the ranking (a duplicate of a
    held-back task does not ship; one of a selected task would ship twice).

    Families whose tasks all offer the same options (venue) are compared on title and question
    only: equal menus are by design, not duplication."""
    sigs = {
        t.task_id: (content_words(f"{t.title} {t.question}") if t.family in fixed_option_families else _signature(t))
        for t in tasks
    }
    template = _template_words(tasks, sigs)
    sigs = {t.task_id: sigs[t.task_id] - template[t.family] for t in tasks}
    out: dict[str, list[AuditFlag]] = {}
    for t in tasks:
        near = []
        for u in tasks:
            if u.task_id == t.task_id or u.family != t.family:
                continue
            a, b = sigs[t.task_id], sigs[u.task_id]
            j = len(a & b) / len(a | b) if a | b else 0.0
            if j >= DUPLICATE_JACCARD:
                near.append((j, u.task_id))
        if near:
            near.sort(key=lambda x: (-x[0], x[1]))
            names = ", ".join(f"{i} ({j:.2f}, {'selected' if i in selected else 'held back'})" for j, i in near[:3])
            out[t.task_id] = [
                AuditFlag(
                    code="near_duplicate",
                    detail=(f"content-word Jaccard >= {DUPLICATE_JACCARD} with {len(near)} other(s): {names}"),
                )
            ]
    return out


def readability_flags(task: Task) -> list[AuditFlag]:
    texts = [("title", task.title)] + [(f"option {o.option_id}", o.text) for o in task.options]
    out = []
    for where, text in texts:
        body = text.split(":", 1)[-1].strip() if where == "title" else text
        problems = []
        if _FRAGMENT_START.match(body) or _FRAGMENT_START.match(text):
            problems.append("starts like an abstract fragment")
        if "…" in text or text.rstrip().endswith("..."):
            problems.append("truncated")
        if _MARKUP.search(text):
            problems.append("markup or id remnants")
        if where == "title" and len(text) > TITLE_MAX_CHARS:
            problems.append(f"{len(text)} chars (> {TITLE_MAX_CHARS})")
        if problems:
            out.append(AuditFlag(code="label_readability", detail=f"{where}: {', '.join(problems)}: {text[:90]!r}"))
    return out


def gold_flags(gold: GoldTarget | None, th: Thresholds, held_back: str | None = None) -> list[AuditFlag]:
    """`gold_unstable` for a gold the gate passed but only just: its top-1 kept in fewer than
    gold_stability_min + BORDERLINE_STABILITY of the bootstrap resamples, or its top option ahead
    of the runner-up by less than SMALL_MARGIN (relative; not for an observed outcome, whose top is
    a fact, not a lead). A gold the gate held back
    (`held_back`, the gate's reason) is not flagged: it does not ship, and the audit record's
    checks already say why (a flag on every held-back candidate carried no signal)."""
    if held_back is not None or gold is None or gold.strength <= 0:
        return []
    n, out = gold.numbers, []
    if n.get("stability_top1", 1.0) < th.gold_stability_min + BORDERLINE_STABILITY:
        out.append(
            AuditFlag(
                code="gold_unstable",
                detail=(
                    f"top-1 kept in {n['stability_top1']:.2f} of bootstrap resamples (within {BORDERLINE_STABILITY} of the "
                    f"gate's {th.gold_stability_min})"
                ),
            )
        )
    if "margin" in n and n["margin"] < SMALL_MARGIN and not n.get("gold_kind_outcome", 0.0) > 0:  # an outcome has no margin
        out.append(
            AuditFlag(
                code="gold_unstable", detail=(f"the gold's top leads the runner-up by {n['margin']:.0%} (< {SMALL_MARGIN:.0%})")
            )
        )
    return out


def _label(text: str) -> str:
    return " ".join(text.lower().split())


def label_collision_flags(task: Task, gold: GoldTarget | None) -> list[AuditFlag]:
    """`label_collision` (module docstring)."""
    out = []
    labels = [option_name(o.text) for o in task.options]
    ranked = [] if task.options or gold is None else list(gold.preferred_ranking)
    for where, names in (("options", labels), ("gold candidates", ranked)):
        seen: dict[str, str] = {}
        for name in names:
            if _label(name) in seen:
                out.append(AuditFlag(code="label_collision", detail=f"{where}: two candidates named {name!r}"))
                break
            seen[_label(name)] = name
    if not task.options and gold is not None and gold.counted and len(gold.counted) < len(gold.preferred_ranking):
        out.append(
            AuditFlag(
                code="label_collision",
                detail=(
                    f"the gold ranks {len(gold.preferred_ranking)} candidates but counted papers for "
                    f"{len(gold.counted)}: counted keyed by a shared label"
                ),
            )
        )
    return out


def evidence_flags(task: Task, gold: GoldTarget | None) -> list[AuditFlag]:
    """The gold-evidence flags: `label_collision`, then the family's own (`TaskFamily.audit_flags`;
    bottleneck: `small_gold_margin`, `background_evidence`)."""
    return label_collision_flags(task, gold) + get_family(task.family).audit_flags(task, gold)


def leakage_flags(
    tasks: Sequence[Task], golds: Sequence[GoldTarget], future_ids: set[str], future_titles: Sequence[str], novel_terms: set[str]
) -> dict[str, list[AuditFlag]]:
    """Task id -> the release validators' messages for it, with a lower novel-term bar
    (>= 2 window titles instead of 3): a reviewer sees the near misses too. One pass over
    all tasks (the cross-task check compares every task with every gold once)."""
    out: dict[str, list[AuditFlag]] = {}
    ids = sorted({t.task_id for t in tasks}, key=len, reverse=True)
    cutoff = min((t.cutoff for t in tasks), default=None)
    if cutoff is None:
        return out
    messages = check_public_tasks(list(tasks), golds, future_ids, future_titles, cutoff=cutoff, novel_terms=novel_terms)
    for message in dict.fromkeys(messages):
        owner = next((i for i in ids if message.startswith(f"{i}: ")), None)
        if owner is not None:
            out.setdefault(owner, []).append(AuditFlag(code="possible_leakage", detail=message[len(owner) + 2 :][:240]))
    return out


def defect_flags(task: Task, gold: GoldTarget | None, cross: dict[str, list[tuple[str, str]]]) -> list[AuditFlag]:
    """The hard defects of `assets.ranking.defects` (the release gate keeps such a task out),
    one flag each, code = the defect's code."""
    defects = option_defects(task, gold) + cross.get(task.task_id, [])
    return [AuditFlag(code=code, detail=detail) for code, detail in defects]


REPEAT_JACCARD = 0.8  # two project texts sharing this share of their content words describe one project
SMALL_PROXY_GAP = 0.04  # cosine; the module docstring gives the measurement around it
_PROJECT_TEXT = re.compile(r'Project description: "(.*?)"\s', re.DOTALL)


def project_text(task: Task) -> str:
    """The project a task is about, as its question quotes it ("" for a task without one)."""
    m = _PROJECT_TEXT.search(task.question)
    return " ".join(m.group(1).split()) if m else ""


def project_flags(tasks: Sequence[Task], golds: Sequence[GoldTarget], builds: Sequence[TaskBuild]) -> dict[str, list[AuditFlag]]:
    """Task id -> its `repeated_project_text` and `small_gold_margin` flags (module docstring)."""
    build_of = {b.task_id: b for b in builds}
    texts = {t.task_id: project_text(t) for t in tasks}
    words = {i: content_words(x) for i, x in texts.items() if x}
    out: dict[str, list[AuditFlag]] = {}
    for t in tasks:
        if not texts[t.task_id]:
            continue
        mine, paper = texts[t.task_id].lower(), build_of[t.task_id].project_paper_id if t.task_id in build_of else ""
        same = []
        for u in tasks:
            if u.task_id == t.task_id:
                continue
            other = texts[u.task_id].lower()
            other_paper = build_of[u.task_id].project_paper_id if u.task_id in build_of else ""
            a, b = words.get(t.task_id, set()), words.get(u.task_id, set())
            j = len(a & b) / len(a | b) if a | b else 0.0
            if (paper and paper == other_paper) or (other and (mine in other or other in mine)) or j >= REPEAT_JACCARD:
                same.append(f"{u.task_id} ({'same paper' if paper and paper == other_paper else f'Jaccard {j:.2f}'})")
            elif mine in " ".join(u.question.lower().split()):
                same.append(f"{u.task_id} (its question quotes this project)")
        home = build_of[t.task_id].curation.get("home_domain", "") if t.task_id in build_of else ""
        flags = []
        if same:
            flags.append(
                AuditFlag(
                    code="repeated_project_text",
                    detail=(f"the project text repeats in {len(same)} other task(s): {', '.join(same[:3])}"),
                )
            )
        if home and not home.startswith("pass"):
            flags.append(AuditFlag(code="repeated_project_text", detail=f"the paper's home domain is elsewhere: {home}"))
        if flags:
            out[t.task_id] = flags
    for g in golds:
        n = g.numbers
        if n.get("gold_kind_proxy", 0.0) > 0 and n.get("proxy_gap", 1.0) < SMALL_PROXY_GAP:
            out.setdefault(g.task_id, []).append(
                AuditFlag(
                    code="small_gold_margin",
                    detail=(
                        f"proxy gold (no real outcome): top-2 similarity gap {n.get('proxy_gap', 0.0):.3f} < {SMALL_PROXY_GAP}"
                    ),
                )
            )
    return out


def quote_keys(text: str) -> list[str]:
    """The double-quoted sentences of a text, as lower-cased words joined by single spaces."""
    return [" ".join(re.findall(r"[a-z0-9]+", q.lower())) for q in _QUOTED.findall(text) if len(q) >= QUOTE_MIN_CHARS]


def shared_quote_flags(tasks: Sequence[Task], *, selected: set[str] = frozenset()) -> dict[str, list[AuditFlag]]:
    """For each task, the other tasks of the partition whose questions quote the same sentence
    (equal, or one quote inside the other), each marked selected or held back."""
    keys = {t.task_id: [k for k in quote_keys(t.question) if k] for t in tasks}
    owners: dict[str, set[str]] = {}
    for tid, ks in keys.items():
        for k in ks:
            owners.setdefault(k, set()).add(tid)
    out: dict[str, list[AuditFlag]] = {}
    for t in tasks:
        others: dict[str, str] = {}
        for k in keys[t.task_id]:
            for other_key, ids in owners.items():
                if k == other_key or k in other_key or other_key in k:
                    for u in ids - {t.task_id}:
                        others.setdefault(u, k)
        if others:
            names = ", ".join(f"{u} ({'selected' if u in selected else 'held back'})" for u in sorted(others)[:3])
            quote = next(iter(others.values()))
            out[t.task_id] = [
                AuditFlag(
                    code="shared_quotes",
                    detail=(f'quotes the same sentence as {len(others)} other task(s): {names}: "{quote[:80]}"'),
                )
            ]
    return out

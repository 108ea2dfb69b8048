"""Deterministic audit flags: the reviewer's first signals (ForeSci App. B.6-B.7).

Each check looks at one candidate task (with its gold and support packet) and returns the
flags a reviewer should look at first. They are cheap, need no model and never decide
anything: a flagged task is read first, not removed. The thresholds are module constants,
named in each flag's detail so a reviewer sees why it fired.

* `weak_support`: few support papers, or few of them with a verbatim pre-cutoff quote;
* `near_duplicate`: another candidate of the family asks nearly the same thing (content-word
  Jaccard of title, question and options);
* `label_readability`: a title or option a reader cannot follow: an abstract fragment
  ("However, ..."), a truncated text, markup remnants, or a one-word option label;
* `gold_unstable`: the gold has no evidence, its top-1 moves under bootstrap resampling,
  its two measures disagree, or part of its claim bank does not recompute;
* `possible_leakage`: the public text names a post-cutoff entity (a future paper's id or
  title, a term first seen after the cutoff in >= 2 window titles) or another task's answer;
* `label_collision`: two candidates of one task carry the same label (case and spacing
  ignored): two options, or two candidates a no-option task's gold ranks (bottleneck
  limitations); or a no-option task's gold counted papers for fewer candidates than it ranks
  (counted keyed by a label, so one candidate's papers overwrote another's);
* `small_gold_margin` (bottleneck): the gold limitation leads the second by fewer than
  MIN_MARGIN_PAPERS counted papers, or by less than MIN_RELATIVE_MARGIN of its own count
  (`assets.families.bottleneck`);
* `background_evidence`: in a family whose counted sentences are the papers' own claims
  (OWN_CLAIM_FAMILIES: bottleneck), a counted window-paper sentence reads as background -- no
  own-work marker, or an opening on prior work or the field before its first first-person
  marker ("Existing methods ...", "X has emerged ...": `assets.families.bottleneck.is_background`).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from assets.gold.leakage import check_public_tasks, content_words
from assets.validity.config import Thresholds
from core.records import AuditFlag, GoldTarget, SupportQuote, Task

MIN_SUPPORT_PAPERS = 5  # the task builder's own premise minimum
MIN_QUOTED_PAPERS = 3  # support papers with at least one verified verbatim quote
DUPLICATE_JACCARD = 0.7  # below the builder's 0.8 drop threshold: near, not identical
TITLE_MAX_CHARS = 160
_FRAGMENT_START = re.compile(r"^(however|but|and|or|moreover|furthermore|thus|therefore|in this paper|"
                             r"in this work|we|our|this paper|this work|to this end)\b", re.IGNORECASE)
_MARKUP = re.compile(r"[<>{}\\$_]|&[a-z]+;")


def support_flags(task: Task, support: Sequence[SupportQuote]) -> list[AuditFlag]:
    quoted = [s for s in support if any(f not in s.unverified for f in s.quotes)]
    out = []
    if len(task.support_paper_ids) < MIN_SUPPORT_PAPERS:
        out.append(AuditFlag(code="weak_support", detail=(
            f"{len(task.support_paper_ids)} support papers (< {MIN_SUPPORT_PAPERS})")))
    if len(quoted) < MIN_QUOTED_PAPERS:
        out.append(AuditFlag(code="weak_support", detail=(
            f"{len(quoted)} support papers with a verified verbatim quote (< {MIN_QUOTED_PAPERS})")))
    return out


def _signature(task: Task) -> set[str]:
    return content_words(" ".join([task.title, task.question, *(o.text for o in task.options)]))


def duplicate_flags(tasks: Sequence[Task], *, fixed_option_families: set[str] = frozenset(),
                    selected: set[str] = frozenset()) -> dict[str, list[AuditFlag]]:
    """For each task, the (up to 3) most similar other candidates of its family at Jaccard >=
    DUPLICATE_JACCARD, each marked selected or held back by the ranking (a duplicate of a
    held-back task does not ship; one of a selected task would ship twice).

    Families whose tasks all offer the same options (venue) are compared on title and question
    only: equal menus are by design, not duplication."""
    sigs = {t.task_id: (content_words(f"{t.title} {t.question}") if t.family in fixed_option_families
                        else _signature(t)) for t in tasks}
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
            out[t.task_id] = [AuditFlag(code="near_duplicate", detail=(
                f"content-word Jaccard >= {DUPLICATE_JACCARD} with {len(near)} other(s): {names}"))]
    return out


def option_label(text: str) -> str:
    """An option's label: its text before the first parenthesis or semicolon."""
    return re.split(r"\s[(;]|;", text, maxsplit=1)[0].strip()


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
        label = option_label(text) if where.startswith("option") else ""
        if label and len(label.split()) == 1 and len(label) <= 5:  # "Code", "Data": a word, not a direction
            problems.append(f"one short word as the label ({label!r})")
        if problems:
            out.append(AuditFlag(code="label_readability", detail=f"{where}: {', '.join(problems)}: {text[:90]!r}"))
    return out


def gold_flags(gold: GoldTarget | None, th: Thresholds) -> list[AuditFlag]:
    if gold is None or gold.strength <= 0:
        return [AuditFlag(code="gold_unstable", detail="no gold evidence in the window (strength 0)")]
    n, out = gold.numbers, []
    if n.get("stability_top1", 1.0) < th.gold_stability_min:
        out.append(AuditFlag(code="gold_unstable", detail=(
            f"top-1 kept in {n['stability_top1']:.2f} of bootstrap resamples (< {th.gold_stability_min})")))
    if n.get("measures_agree", 1.0) < 1.0:
        out.append(AuditFlag(code="gold_unstable", detail="the lexical and embedding measures disagree on the top option"))
    if n.get("claims_verified", len(gold.claims)) < len(gold.claims):
        out.append(AuditFlag(code="gold_unstable", detail=(
            f"{int(n['claims_verified'])}/{len(gold.claims)} gold claims recompute")))
    return out


def _label(text: str) -> str:
    return " ".join(text.lower().split())


def label_collision_flags(task: Task, gold: GoldTarget | None) -> list[AuditFlag]:
    """`label_collision` (module docstring)."""
    out = []
    labels = [option_label(o.text) for o in task.options]
    ranked = [] if task.options or gold is None else list(gold.preferred_ranking)
    for where, names in (("options", labels), ("gold candidates", ranked)):
        seen: dict[str, str] = {}
        for name in names:
            if _label(name) in seen:
                out.append(AuditFlag(code="label_collision", detail=f"{where}: two candidates named {name!r}"))
                break
            seen[_label(name)] = name
    if not task.options and gold is not None and gold.counted and len(gold.counted) < len(gold.preferred_ranking):
        out.append(AuditFlag(code="label_collision", detail=(
            f"the gold ranks {len(gold.preferred_ranking)} candidates but counted papers for "
            f"{len(gold.counted)}: counted keyed by a shared label")))
    return out


def margin_flags(task: Task, gold: GoldTarget | None) -> list[AuditFlag]:
    """`small_gold_margin` for a bottleneck gold with evidence (module docstring)."""
    if task.family != "bottleneck" or gold is None or gold.strength <= 0:
        return []
    from assets.families.bottleneck import MIN_MARGIN_PAPERS, MIN_RELATIVE_MARGIN

    papers, rel = gold.numbers.get("margin_papers"), gold.numbers.get("margin", 0.0)
    if papers is None:  # a gold from before the margin was recorded: count from `counted`
        counts = sorted((len(v) for v in gold.counted.values()), reverse=True) + [0, 0]
        papers = counts[0] - counts[1]
        rel = papers / counts[0] if counts[0] else 0.0
    if papers < MIN_MARGIN_PAPERS or rel < MIN_RELATIVE_MARGIN:
        return [AuditFlag(code="small_gold_margin", detail=(
            f"the gold leads the second candidate by {int(papers)} paper(s), {rel:.2f} of its count "
            f"(needs >= {MIN_MARGIN_PAPERS} and >= {MIN_RELATIVE_MARGIN})"))]
    return []


_QUOTED = re.compile(r'"([^"]{12,})"')


OWN_CLAIM_FAMILIES = frozenset({"bottleneck"})  # families whose counted sentences are the paper's own claims


def background_flags(gold: GoldTarget | None) -> list[AuditFlag]:
    """`background_evidence`: counted window-paper sentences that read as background (the
    first quoted sentence of each counted entry, 'id: "..."'), in the families whose counted
    sentence is the paper's own claim (OWN_CLAIM_FAMILIES; a phase task counts papers by the
    problem they state, which is background by design)."""
    if gold is None or gold.family not in OWN_CLAIM_FAMILIES:
        return []
    from assets.families.bottleneck import is_background

    hits = []
    for key, entries in gold.counted.items():
        for entry in entries:
            m = _QUOTED.search(entry)
            if m and is_background(m.group(1)):
                hits.append(f"{entry.split(':', 1)[0]} ({key})")
    if not hits:
        return []
    return [AuditFlag(code="background_evidence", detail=(
        f"{len(hits)} counted sentence(s) read as background, not the paper's own work: {', '.join(hits[:4])}"))]


def evidence_flags(task: Task, gold: GoldTarget | None) -> list[AuditFlag]:
    """The gold-evidence flags: `label_collision`, `small_gold_margin`, `background_evidence`."""
    return label_collision_flags(task, gold) + margin_flags(task, gold) + background_flags(gold)


def leakage_flags(tasks: Sequence[Task], golds: Sequence[GoldTarget], future_ids: set[str],
                  future_titles: Sequence[str], novel_terms: set[str]) -> dict[str, list[AuditFlag]]:
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
            out.setdefault(owner, []).append(AuditFlag(code="possible_leakage",
                                                       detail=message[len(owner) + 2:][:240]))
    return out

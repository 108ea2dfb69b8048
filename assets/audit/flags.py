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
* `shared_quotes`: the task's question quotes a sentence that another task of the partition
  (any family) also quotes: a double-quoted span of >= QUOTE_MIN_CHARS characters whose words
  (lower-cased, punctuation dropped) equal, contain or are contained in one of the other's
  (a quote cut after its connective clause is the same quote).
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
QUOTE_MIN_CHARS = 30  # a shorter quoted span is a phrase or a name, not a quoted sentence
_QUOTED = re.compile(r"\"([^\"]{%d,})\"" % QUOTE_MIN_CHARS)


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


def quote_keys(text: str) -> list[str]:
    """The double-quoted sentences of a text, as lower-cased words joined by single spaces."""
    return [" ".join(re.findall(r"[a-z0-9]+", q.lower())) for q in _QUOTED.findall(text)]


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
            out[t.task_id] = [AuditFlag(code="shared_quotes", detail=(
                f"quotes the same sentence as {len(others)} other task(s): {names}: \"{quote[:80]}\""))]
    return out

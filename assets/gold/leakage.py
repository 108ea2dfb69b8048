"""Leakage validators: nothing hidden or internal may reach a public task (ForeSci §3.4, B.7).

A public task is everything an agent sees (`Task`). It must not contain

* internal construction identifiers: taxonomy node ids ("<domain>:<dimension>:..."),
  evidence-record ids ("ev:..."), signal ids ("sig:...") or any id the caller lists in
  `internal_ids`;
* gold-only keys (a `Task` has none; dict inputs are checked for them);
* any post-cutoff paper: its arXiv id, or its title (case-insensitive exact substring);
* gold-only content: the text of a gold claim of type future-realisation / statistical /
  taxonomy, or a gold slot variant that was taken from a future paper (gold/logic flags
  those in `GoldTarget.numbers` as ``future_variant:<slot>:<index>`` = 1);
* any date after the cutoff other than the task's own window bounds.

`check_public_tasks` returns every violation as a message that starts with the task id;
`assert_clean` raises them all at once. `internal_violations` is the subset that needs no
future data; the task builder runs it on every draft before it keeps a task.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from datetime import date

from assets.records import GoldTarget, Task

DIMENSIONS = ("tasks", "methodologies", "datasets", "evaluation_methods", "real_world_domains")
GOLD_ONLY_KEYS = frozenset(
    {"preferred_ranking", "trajectory", "slots", "claims", "numbers", "future_paper_ids", "strength", "gold",
     "signal_ids", "node_ids", "option_signal_ids"}
)
GOLD_ONLY_CLAIM_TYPES = ("future-realisation", "statistical", "taxonomy")
MIN_TITLE_CHARS = 20  # shorter future titles ("Agents") would match by coincidence, not leakage
MIN_VARIANT_CHARS = 12  # same for future-derived slot variants
FUTURE_VARIANT_KEY = "future_variant"  # numbers[f"future_variant:{slot}:{i}"] = 1.0

_NODE_ID = re.compile(r"\b[a-z0-9_]+:(?:%s)\b" % "|".join(DIMENSIONS))
_PREFIXED_ID = re.compile(r"(?<![A-Za-z0-9])(ev|sig):\S+")
_ARXIV_NEW = re.compile(r"(?<![\d.])(\d{4}\.\d{4,5})(?:v\d+)?(?![\d])")
_ARXIV_OLD = re.compile(r"\b([a-z][a-z\-]+(?:\.[A-Z]{2})?/\d{7})(?:v\d+)?\b")
_ISO_DAY = re.compile(r"\b(\d{4})-(\d{2})-(\d{2})\b")
_ISO_MONTH = re.compile(r"\b(\d{4})-(\d{2})\b")
_MONTHS = ("january", "february", "march", "april", "may", "june", "july", "august", "september",
           "october", "november", "december")
_MONTH_NAME = re.compile(r"\b(%s)\s+(?:(\d{1,2}),?\s+)?(\d{4})\b" % "|".join(_MONTHS), re.IGNORECASE)


class LeakageError(RuntimeError):
    """A public task leaks internal or future information; the message lists every violation."""


def _strip_version(arxiv_id: str) -> str:
    return re.sub(r"v\d+$", "", arxiv_id.strip())


def _norm(text: str) -> str:
    return " ".join(text.lower().split())


def public_fields(task: Task | dict) -> list[tuple[str, str]]:
    """(field name, text) of every public string of a task, options and id lists included."""
    data = task.model_dump(mode="json") if isinstance(task, Task) else dict(task)
    out: list[tuple[str, str]] = []
    for key, value in data.items():
        if key in ("cutoff", "window_start", "window_end"):
            continue
        if isinstance(value, str):
            out.append((key, value))
        elif isinstance(value, list):
            for i, item in enumerate(value):
                if isinstance(item, dict):
                    for sub, text in item.items():
                        if isinstance(text, str):
                            out.append((f"{key}[{i}].{sub}", text))
                elif isinstance(item, str):
                    out.append((f"{key}[{i}]", item))
        elif isinstance(value, dict):
            out.extend((f"{key}.{k}", v) for k, v in value.items() if isinstance(v, str))
    return out


def _task_meta(task: Task | dict) -> tuple[str, set[date]]:
    if isinstance(task, Task):
        return task.task_id, {task.window_start, task.window_end}
    allowed = set()
    for key in ("window_start", "window_end"):
        if task.get(key):
            value = task[key]
            allowed.add(value if isinstance(value, date) else date.fromisoformat(str(value)))
    return str(task.get("task_id", "?")), allowed


def dates_in(text: str) -> list[tuple[str, date]]:
    """Dates written in a text (ISO day, ISO month, "June 2026", "June 5, 2026").

    A month without a day is read as its first day, so a month after the cutoff's month
    counts as after the cutoff. Bare years are not dates (titles say "ICLR 2026").
    """
    found: list[tuple[str, date]] = []
    rest = text
    for m in _ISO_DAY.finditer(text):
        try:
            found.append((m.group(0), date(int(m.group(1)), int(m.group(2)), int(m.group(3)))))
        except ValueError:
            pass
    rest = _ISO_DAY.sub(" ", rest)
    for m in _ISO_MONTH.finditer(rest):
        month = int(m.group(2))
        if 1 <= month <= 12:
            found.append((m.group(0), date(int(m.group(1)), month, 1)))
    for m in _MONTH_NAME.finditer(text):
        month = _MONTHS.index(m.group(1).lower()) + 1
        try:
            found.append((m.group(0), date(int(m.group(3)), month, int(m.group(2) or 1))))
        except ValueError:
            pass
    return found


def internal_violations(
    tasks: Iterable[Task | dict], *, cutoff: date, internal_ids: Iterable[str] = ()
) -> list[str]:
    """Violations that need no future data: internal ids, gold-only keys, post-cutoff dates."""
    ids = sorted({i for i in internal_ids if i and len(i) >= 4}, key=len, reverse=True)
    messages: list[str] = []
    for task in tasks:
        task_id, allowed = _task_meta(task)
        if isinstance(task, dict):
            for key in sorted(set(task) & GOLD_ONLY_KEYS):
                messages.append(f"{task_id}: gold-only key {key!r} in a public task")
        for field, text in public_fields(task):
            for m in _NODE_ID.finditer(text):
                messages.append(f"{task_id}: {field}: taxonomy node id {m.group(0)!r}")
            for m in _PREFIXED_ID.finditer(text):
                messages.append(f"{task_id}: {field}: internal id {m.group(0)!r}")
            for ident in ids:
                if ident in text:
                    messages.append(f"{task_id}: {field}: internal id {ident!r}")
            for raw, day in dates_in(text):
                if day > cutoff and day not in allowed:
                    messages.append(f"{task_id}: {field}: date {raw!r} after the cutoff {cutoff}")
    return messages


def future_variants(gold: GoldTarget) -> list[str]:
    """Slot variants that gold/logic took from future papers (flagged in `numbers`)."""
    out = []
    for slot in gold.slots:
        for i, variant in enumerate(slot.variants):
            if gold.numbers.get(f"{FUTURE_VARIANT_KEY}:{slot.slot}:{i}", 0.0) > 0:
                out.append(variant)
    return out


def check_public_tasks(
    tasks: Sequence[Task | dict],
    golds: Sequence[GoldTarget],
    future_paper_ids: set[str],
    future_titles: Sequence[str],
    *,
    cutoff: date,
    internal_ids: Iterable[str] = (),
) -> list[str]:
    """Every leakage violation in the public tasks (empty list = clean).

    Gold content of *any* task counts (a claim of task A quoted in task B is still a
    leak). Messages start with the offending task id.
    """
    messages = internal_violations(tasks, cutoff=cutoff, internal_ids=internal_ids)
    future_ids = {_strip_version(i) for i in future_paper_ids}
    titles = sorted({_norm(t) for t in future_titles if len(_norm(t)) >= MIN_TITLE_CHARS})
    hidden: list[tuple[str, str]] = []  # (normalised text, where it comes from)
    for gold in golds:
        for claim in gold.claims:
            if claim.type in GOLD_ONLY_CLAIM_TYPES and len(_norm(claim.text)) >= MIN_VARIANT_CHARS:
                hidden.append((_norm(claim.text), f"{claim.type} claim {claim.claim_id} of {gold.task_id}"))
        for variant in future_variants(gold):
            if len(_norm(variant)) >= MIN_VARIANT_CHARS:
                hidden.append((_norm(variant), f"future-derived slot variant of {gold.task_id}"))
    for task in tasks:
        task_id, _ = _task_meta(task)
        for field, text in public_fields(task):
            for m in list(_ARXIV_NEW.finditer(text)) + list(_ARXIV_OLD.finditer(text)):
                if _strip_version(m.group(1)) in future_ids:
                    messages.append(f"{task_id}: {field}: future paper id {m.group(1)!r}")
            low = _norm(text)
            for title in titles:
                if title in low:
                    messages.append(f"{task_id}: {field}: future paper title {title!r}")
            for content, source in hidden:
                if content in low:
                    messages.append(f"{task_id}: {field}: gold-only content from {source}: {content[:80]!r}")
    return messages


def assert_clean(
    tasks: Sequence[Task | dict],
    golds: Sequence[GoldTarget],
    future_paper_ids: set[str],
    future_titles: Sequence[str],
    *,
    cutoff: date,
    internal_ids: Iterable[str] = (),
) -> None:
    """Raise `LeakageError` listing all violations, if there is any."""
    messages = check_public_tasks(tasks, golds, future_paper_ids, future_titles, cutoff=cutoff,
                                  internal_ids=internal_ids)
    if messages:
        raise LeakageError(f"{len(messages)} leakage violation(s):\n" + "\n".join(messages))

"""Helpers of the answer contract shared by family modules and agents: what a task is
about, its window, rankings restricted to the task's own options, markdown pieces."""

from __future__ import annotations

import re
from collections.abc import Iterable

from core.phrases import option_name
from core.records import Task

_QUOTED = re.compile(r"(?:^|(?<=[\s(:]))[\"“‘']([^\"“”]{4,200}?)[\"”’'](?=[\s.,;:?!)]|$)")


def task_subject(task: Task) -> str:
    """The subdirection a task is about: the first quoted phrase of its question (task
    generators quote it), else its title, else the question itself."""
    found = _QUOTED.search(task.question)
    if found:
        return found.group(1).strip()
    return (task.title or task.question).strip()


def window_phrase(task: Task) -> str:
    return f"{task.window_start.isoformat()} to {task.window_end.isoformat()}"


def clean_ranking(task: Task, ranking: Iterable[str], first: str | None = None) -> tuple[list[str], list[str]]:
    """Keep the task's option ids in the given order (deduplicated), put `first` in front,
    append the missing ones in task order (only when at least one was named: an empty
    ranking stays empty). Returns (ranking, dropped unknown ids)."""
    valid = [o.option_id for o in task.options]
    # an option named by its text or its name (the text before the gloss) instead of its id is
    # that option: a structured answer that writes what it chose is scored, not dropped
    by_text: dict[str, str] = {}
    for o in task.options:
        for form in (o.text, option_name(o.text)):
            by_text.setdefault(" ".join(form.lower().split()), o.option_id)
    out: list[str] = []
    dropped: list[str] = []
    for oid in ([first] if first else []) + [str(r).strip() for r in ranking]:
        oid = oid if oid in valid else by_text.get(" ".join(oid.lower().split()), oid)
        if oid in valid:
            if oid not in out:
                out.append(oid)
        elif oid and oid not in dropped:
            dropped.append(oid)
    if out:  # a ranking that names nothing stays empty: completing it in task order would invent a decision
        out += [oid for oid in valid if oid not in out]
    return out, dropped


def bullets(items: Iterable[str]) -> list[str]:
    return [f"- {i}" for i in items if str(i).strip()]


def ranking_lines(task: Task, ranking: list[str]) -> list[str]:
    """The numbered ranking block of an answer's markdown."""
    if not ranking:
        return []
    options = {o.option_id: o.text for o in task.options}
    return ["**Ranking:**"] + [f"{i}. {oid} — {options[oid]}" for i, oid in enumerate(ranking, 1)] + [""]


def ranking_violations(task: Task, ranking: Iterable[str]) -> list[str]:
    """Why a ranking is not a complete ordering of exactly the task's options."""
    ids = [o.option_id for o in task.options]
    ranking = [str(r) for r in ranking]
    out = []
    unknown = [r for r in ranking if r not in ids]
    missing = [i for i in ids if i not in ranking]
    if unknown:
        out.append(f"ranking has ids that are not candidates: {unknown}")
    if missing:
        out.append(f"ranking misses candidates: {missing}")
    if len(ranking) != len(set(ranking)):
        out.append("ranking repeats ids")
    return out

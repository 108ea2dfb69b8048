"""Tasks that list no options (imported open-ended direction or planning questions): the
offline baselines answer them over candidates derived from the public text, a documented
fallback (docs/agents.md)."""

from __future__ import annotations

import dataclasses
import json
from collections import Counter

from assets.agents.context import AgentContext
from core.records import Answer, Task, TaskOption
from core.text import content_tokens, title_phrases

DERIVED_OPTIONS = 4


def derived_options(task: Task, kb, k: int = 40) -> list[TaskOption]:
    """Candidates for a task that lists none (imported open-ended direction/planning
    questions), derived from the public text (a documented fallback): the title phrases most
    common among the knowledge base's hybrid hits for the question (bigrams before single
    words, in >= 2 hit titles, words of the question itself excluded), at most 4."""
    hits = kb.search(task.question, k=k, mode="hybrid")
    asked = set(content_tokens(task.question))
    counts = Counter()
    for h in hits:
        counts.update({p for p in title_phrases(h.title) if not set(p.split()) <= asked})
    ranked = sorted((p for p, n in counts.items() if n >= 2), key=lambda p: (-(" " in p), -counts[p], p))
    chosen: list[str] = []
    for phrase in ranked:
        if not any(set(phrase.split()) & set(c.split()) for c in chosen):
            chosen.append(phrase)
        if len(chosen) == DERIVED_OPTIONS:
            break
    return [TaskOption(option_id="ABCD"[i], text=p) for i, p in enumerate(chosen)]


def answer_open_task(ctx: AgentContext, forecaster) -> Answer:
    """Answer a task without options by answering it over derived candidates, then stating
    the choice and ranking as the candidates' texts (the task has no option ids)."""
    options = derived_options(ctx.task, ctx.kb)
    if len(options) < 2:
        raise ValueError(f"{ctx.task.task_id}: no options, and fewer than two candidates derivable from the KB")
    inner = forecaster(dataclasses.replace(ctx, task=ctx.task.model_copy(update={"options": options})))
    text = {o.option_id: o.text for o in options}
    return inner.model_copy(
        update={
            "choice": text.get(inner.choice) if inner.choice else None,
            "ranking": [text[r] for r in inner.ranking if r in text],
            "artifacts": {**inner.artifacts, "derived_options": json.dumps([o.text for o in options])},
        }
    )

"""The release's presentation order: where each released task shows its options.

Options are shuffled per task when a task is built, before its gold exists. Over the few
tasks a family releases (6-10 per partition), one random permutation per task leaves the
gold's first position unbalanced by chance: in one release 4 of 6 golds sat at C, so
"always pick C" or "answer another task's gold" beat the random line by 0.1-0.3. A
position bias of the release itself, not noise of the check: an agent that always picks
one letter would really score that.

So once the release is chosen (the gold is known), each released task of a family gets a
presentation order in which the gold's first option sits at a **balanced** position: the
positions are dealt so every letter is the gold's about equally often (within one task),
the other options follow in random order. The deal is shuffled with a key made from the
family's released golds themselves (hidden data; one family's release never re-deals another's), so nobody without the gold can tell which task
got which position; the order therefore says nothing about which option is the gold (each
option of a task is equally likely to be dealt any position). The stored order is the
old option ids in their new order (`TaskRating.presentation`); `present_task` and
`present_gold` relabel a task and its gold consistently (options A, B, ... again, every
option id in the gold mapped), so every consumer of a released task sees the same letters.
"""

from __future__ import annotations

import hashlib
import itertools
import json
import random
import re
from collections import defaultdict

from assets.toolbox.building import short_name
from core.metrics import fta_ranking
from core.records import GoldTarget, Task, TaskOption, TaskRating

LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"


def _secret(golds: list[GoldTarget]) -> str:
    """A key no one without the hidden gold can compute (the order of the deal)."""
    blob = json.dumps(sorted(g.model_dump_json() for g in golds))
    return hashlib.sha256(blob.encode()).hexdigest()


def presentation_orders(tasks: list[Task], golds: dict[str, GoldTarget], released: set[str]) -> dict[str, list[str]]:
    """Per released task with options and a gold ranking: its option ids in presentation
    order. Within each family, the gold's first option sits at a balanced position, and the
    presented order agrees with the gold ranking no more than chance does, over the family."""
    by_family: dict[str, list[Task]] = defaultdict(list)
    for t in sorted(tasks, key=lambda t: t.task_id):
        g = golds.get(t.task_id)
        if t.task_id in released and len(t.options) > 1 and g and g.preferred_ranking:
            by_family[t.family].append(t)
    out: dict[str, list[str]] = {}
    for family, group in sorted(by_family.items()):
        # keyed by this family's released golds only: another family's release never re-deals it
        rng = random.Random(f"{_secret([golds[t.task_id] for t in group])}-{family}")
        group = list(group)
        rng.shuffle(group)  # the deal's order is secret too
        dealt: dict[int, float] = defaultdict(float)  # how often each position got the gold ...
        expected: dict[int, float] = defaultdict(float)  # ... against how often it should have
        agreement, target = 0.0, 0.0  # the presented orders' summed rank agreement with the gold, and chance's
        for task in group:
            ranking = golds[task.task_id].preferred_ranking
            k = len(task.options)
            for p in range(k):
                expected[p] += 1.0 / k
            # the position furthest behind its share; when the tasks do not split evenly the
            # first position is the one left short (a lazy answer picks the first option)
            top_pos = min((dealt[p] - expected[p], p == 0, rng.random(), p) for p in range(k))[3]
            dealt[top_pos] += 1.0
            ids = [o.option_id for o in task.options]
            top = ranking[0]
            target += _chance_agreement(ranking, ids)
            # among orders with the top there, one that keeps the family's summed agreement
            # between presented order and gold ranking at chance (random among the near-best)
            orders = [list(r[:top_pos]) + [top] + list(r[top_pos:]) for r in _rests([i for i in ids if i != top], rng)]
            gap = [abs(agreement + _agreement(ranking, o) - target) for o in orders]
            best = min(gap)
            order = rng.choice([o for o, g in zip(orders, gap) if g <= best + AGREEMENT_SLACK])
            agreement += _agreement(ranking, order)
            out[task.task_id] = order
    return out


AGREEMENT_SLACK = 0.05  # orders this close to the best are equally good: keep the choice random
MAX_ORDERS = 720  # all orders of the other options up to 6 of them, a random sample beyond


def _agreement(ranking: list[str], order: list[str]) -> float:
    """How well reading the options in `order` reproduces the gold ranking (ForeSci's ranking
    FTA, eqs. 8-11: what the "given order" control scores)."""
    return float(fta_ranking(ranking, order)["f1"] or 0.0)


def _chance_agreement(ranking: list[str], ids: list[str]) -> float:
    """The agreement of a uniformly random order of `ids` with `ranking` (exact up to 7 options)."""
    orders = list(itertools.permutations(ids)) if len(ids) <= 7 else [random.Random(i).sample(ids, len(ids)) for i in range(2000)]
    return sum(_agreement(ranking, list(o)) for o in orders) / len(orders)


def _rests(ids: list[str], rng: random.Random) -> list[tuple[str, ...]]:
    rests = list(itertools.permutations(ids)) if len(ids) <= 6 else [tuple(rng.sample(ids, len(ids))) for _ in range(MAX_ORDERS)]
    rng.shuffle(rests)
    return rests


def _relist(text: str, old_names: list[str], new_names: list[str]) -> str:
    """`text` with the option names it lists in the old order listed in the new order (the
    names' spans are found left to right; a text that does not list all of them in order is
    returned unchanged)."""
    spans, start = [], 0
    for name in old_names:
        at = text.find(name, start)
        if not name or at < 0:
            return text
        spans.append((at, at + len(name)))
        start = at + len(name)
    out, last = [], 0
    for (a, b), name in zip(spans, new_names):
        out += [text[last:a], name]
        last = b
    return "".join(out) + text[last:]


def _names(task: Task) -> list[str]:
    """The option names as the templates list them."""
    return [short_name(o.text) for o in task.options]


def letter_map(task: Task, order: list[str]) -> dict[str, str]:
    """Old option id -> its presentation letter."""
    return {old: LETTERS[i] for i, old in enumerate(order)}


def present_task(task: Task, order: list[str]) -> Task:
    """The task with its options in `order`, lettered A, B, ... again; the title and
    question list the option names in the new order."""
    if not order:
        return task
    text = {o.option_id: o.text for o in task.options}
    options = [TaskOption(option_id=LETTERS[i], text=text[old]) for i, old in enumerate(order)]
    old_names = _names(task)
    new_task = task.model_copy(update={"options": options})
    new_names = _names(new_task)
    return new_task.model_copy(
        update={"title": _relist(task.title, old_names, new_names), "question": _relist(task.question, old_names, new_names)}
    )


_KEY = re.compile(r"^(.*):([A-Z])$")


def present_gold(gold: GoldTarget, task: Task, order: list[str]) -> GoldTarget:
    """The gold with every option id of `task` relabelled to its presentation letter: the
    ranking, `counted` and `plan` keys, per-option `numbers` ("momentum:C") and the claims'
    `object` parameters."""
    if not order:
        return gold
    m = letter_map(task, order)

    def key(k: str) -> str:
        hit = _KEY.match(k)
        return f"{hit.group(1)}:{m[hit.group(2)]}" if hit and hit.group(2) in m else k

    claims = []
    for c in gold.claims:
        params = dict(c.basis.params) if c.basis else {}
        if params.get("object") in m:
            params["object"] = m[params["object"]]
        claims.append(c.model_copy(update={"basis": c.basis.model_copy(update={"params": params})}) if c.basis else c)
    return gold.model_copy(
        update={
            "preferred_ranking": [m.get(i, i) for i in gold.preferred_ranking],
            "counted": {m.get(k, k): v for k, v in gold.counted.items()},
            "plan": {m.get(k, k): v for k, v in gold.plan.items()},
            "numbers": {key(k): v for k, v in gold.numbers.items()},
            "claims": claims,
        }
    )


# The presented release is materialised ONCE, as two side tables of `task_ranking` (written by
# the asset, and by `foresci import-release` for an imported release): `presented_tasks`
# (public: every task, the released ones relabelled) and `presented_golds` (hidden: every
# gold in the same letters). Agents, artifacts, judging, validity, audit and the release
# package read them; nothing downstream re-derives the presentation.
PRESENTED_TASKS, PRESENTED_GOLDS = "presented_tasks", "presented_golds"


def write_presented(
    store, domain: str, cutoff_key: str, tasks: list[Task], golds: list[GoldTarget], ratings: list[TaskRating]
) -> None:
    """Materialise the presented release of one partition (`store`: a PartitionStore): the
    tasks and golds as built, relabelled by the ratings' presentation orders."""
    store.write_records(PRESENTED_TASKS, domain, cutoff_key, presented_tasks(tasks, ratings), Task)
    store.write_records(PRESENTED_GOLDS, domain, cutoff_key, presented_golds(golds, tasks, ratings), GoldTarget)


def presented_tasks(tasks: list[Task], ratings: list[TaskRating]) -> list[Task]:
    """Every task, the released ones as the release presents them (what agents answer,
    what is scored and published)."""
    order = {r.task_id: r.presentation for r in ratings if r.released and r.presentation}
    return [present_task(t, order[t.task_id]) if t.task_id in order else t for t in tasks]


def presented_golds(golds: list[GoldTarget], tasks: list[Task], ratings: list[TaskRating]) -> list[GoldTarget]:
    """Every gold, the released ones in the presentation's letters (`tasks` as built)."""
    order = {r.task_id: r.presentation for r in ratings if r.released and r.presentation}
    by_id = {t.task_id: t for t in tasks}
    return [
        present_gold(g, by_id[g.task_id], order[g.task_id]) if g.task_id in order and g.task_id in by_id else g for g in golds
    ]

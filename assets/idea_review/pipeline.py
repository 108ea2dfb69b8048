"""The idea-review build, end to end: tasks, gold, answers, scores, controls, validity,
ranking, release and leaderboard, written to the same Parquet store (and DuckDB views) as
the ForeSci families, under domain `ideas`: a partition (ideas, t) holds the ideas whose own
cutoff is on or before t (each task's KB view is bound to its own idea's cutoff).

Stage logic only (no Dagster): three stages (`build_idea_tasks`, `answer_idea_tasks`,
`score_idea_answers`), which the assets of `assets/idea_review/definitions.py` run one by one
and `foresci demo-ideas` runs in one call (`run_idea_review`). The release report is rendered
from the autoescaping Jinja2 template `templates/idea_report.html` (`core/pages.py`).
"""

from __future__ import annotations

import json
import statistics
import time
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from datetime import date

from assets.agents.context import AgentContext
from assets.idea_review.controls import NO_JUDGEMENT, control_answers
from assets.idea_review.dataset import SHIPPED, load_ideas
from assets.idea_review.family import DOMAIN, FAMILY, build_gold, build_tasks, partition_cutoff, register
from assets.idea_review.kb import IdeaCorpusIndex
from assets.idea_review.scholareval import IDEA_AGENTS, review_answer
from assets.idea_review.scoring import judge_coverage, proxy_coverage
from assets.scorers.reference import reference_validity
from core.pages import render
from core.papers import shipped_dates
from core.records import Answer, Failure, GoldTarget, Score, Task, TaskRating

PROXY_NOTE = "rubric_coverage_proxy: embedding proxy (no judge model), not the ScholarEval judge score"


@dataclass
class IdeaRun:
    cutoff_key: str
    tasks: list[Task]
    dropped: dict[str, str]
    answers: list[Answer]
    scores: list[Score]
    controls: list[Score]
    validity: dict
    no_literature: dict[str, int] = field(default_factory=dict)
    seconds: float = 0.0


def score_review(answer: Answer, rubrics: list[dict], embed, judge, known: dict[str, date], cutoff: date) -> Score:
    if judge is not None:
        cov = judge_coverage(answer.text, rubrics, judge)
        values = {"rubric_coverage": cov["norm"], "rubric_coverage_1to5": cov["mean"]}
        note = f"rubric_coverage: judge {judge.model}, {len(cov['per_rubric'])} rubrics scored"
        if cov["failed"]:
            note += f", {len(cov['failed'])} failed"
    else:
        cov = proxy_coverage(answer.text, [r["statement"] for r in rubrics], embed)
        values = {"rubric_coverage_proxy": cov["norm"], "rubric_coverage_proxy_1to5": cov["mean"]}
        note = PROXY_NOTE
    ref = reference_validity(answer.evidence_ids, known, cutoff)
    values["reference_validity"] = ref["share"]
    return Score(
        answer_id=answer.answer_id,
        task_id=answer.task_id,
        family=answer.family,
        method=answer.method,
        backbone=answer.backbone,
        values=values,
        judge_model=judge.model if judge is not None else None,
        note=f"{note}; reference_validity: {ref['valid']}/{ref['cited']} valid, "
        f"{len(ref['after_cutoff'])} after cutoff, {len(ref['unknown'])} unknown",
    )


def coverage_key(judge) -> str:
    return "rubric_coverage" if judge is not None else "rubric_coverage_proxy"


def validity_row(tasks, dropped, scores, controls, key: str, margin: float = 0.05, gold_min: float = 0.9) -> dict:
    """One validity row in the shape of assets/validity/report.py (plus the family's own fields)."""
    mean = lambda xs: round(statistics.fmean(xs), 4) if xs else None  # noqa: E731
    by: dict[str, list[float]] = defaultdict(list)
    refs: dict[str, list[float]] = defaultdict(list)
    for s in [*scores, *controls]:
        if s.values.get(key) is not None:
            by[s.method].append(s.values[key])
        if s.values.get("reference_validity") is not None:
            refs[s.method].append(s.values["reference_validity"])
    means = {m: mean(v) for m, v in by.items()}
    methods = {m: v for m, v in means.items() if not m.startswith("control:")}
    best = max(methods, key=lambda m: methods[m] or -1) if methods else None
    rnd, gold = means.get("control:random"), means.get("control:gold")
    problems = [] if tasks else ["no released task"]
    if gold is None or gold < gold_min:
        problems.append(f"gold answer scores {gold} < {gold_min}")
    for k in NO_JUDGEMENT:
        if means.get(k) is not None and rnd is not None and means[k] > rnd + margin:
            problems.append(f"{k} {means[k]} > random {rnd} + {margin}")
    reasons = Counter(dropped.values())
    return {
        "family": FAMILY,
        "metric": key,
        "tasks_built": len(tasks) + len(dropped),
        "tasks_released": len(tasks),
        "tasks_dropped": len(dropped),
        "drop_reasons": json.dumps(dict(reasons.most_common())),
        "control_gold": gold,
        "control_random": rnd,
        "control_empty": means.get("control:empty"),
        "control_every_option": None,
        "control_first_option": None,
        "control_other_gold": means.get("control:other_gold"),
        "control_generic": means.get("control:generic"),
        "control_plan_echo": means.get("control:plan_echo"),
        "methods": json.dumps(methods),
        "reference_validity": json.dumps({m: mean(v) for m, v in refs.items()}),
        "trace_linkage": "{}",
        "best_method": best,
        "best_method_fta": methods.get(best) if best else None,
        "gold_stability": None,
        "claim_bank_verified": None,
        "measure_agreement": None,
        "duplicate_titles": 0,
        "duplicate_option_sets": 0,
        "duplicate_golds": 0,
        "window_coverage": None,
        "uncaptured_themes": None,
        "problems": "; ".join(problems),
        "passed": not problems,
    }


def select_ideas(path: str = str(SHIPPED), disciplines=None, cutoff_key: str | None = None):
    """The ideas of a partition: those whose own cutoff is on or before the partition cutoff
    (every idea when `cutoff_key` is None, whose partition key is then the latest idea cutoff)."""
    ideas = [i for i in load_ideas(path) if not disciplines or i.discipline in disciplines]
    if cutoff_key is not None:
        ideas = [i for i in ideas if i.cutoff <= date.fromisoformat(cutoff_key)]
    return ideas, cutoff_key or partition_cutoff(ideas)


def build_idea_tasks(
    store, *, cutoff_key: str | None = None, path: str = str(SHIPPED), disciplines=None, limit: int | None = None
) -> tuple[str, list[Task], list[GoldTarget], dict[str, str]]:
    """Stage 1: public tasks, hidden gold (the expert rubrics), ratings and dropped ideas."""
    register()
    ideas, cutoff_key = select_ideas(path, disciplines, cutoff_key)
    tasks, dropped = build_tasks(ideas)
    tasks = tasks[:limit] if limit else tasks
    idea_of = {f"idea-{i.idea_id}": i for i in ideas}
    golds = [build_gold(idea_of[t.task_id], t) for t in tasks]
    ratings = [
        TaskRating(
            task_id=t.task_id,
            family=FAMILY,
            elo=1500.0,
            rank_in_family=k,
            released=True,
            quality=float(len(g.claims)),
            note="every built idea is released",
        )
        for k, (t, g) in enumerate(zip(tasks, golds, strict=True), start=1)
    ]
    store.write_records("tasks", DOMAIN, cutoff_key, tasks, Task)
    store.write_records(
        "tasks_failures",
        DOMAIN,
        cutoff_key,
        [Failure(stage="idea_review_tasks", item_id=f"idea-{k}", reason=v) for k, v in dropped.items()],
        Failure,
    )
    store.write_records("gold_targets", DOMAIN, cutoff_key, golds, GoldTarget)
    store.write_records("task_ranking", DOMAIN, cutoff_key, ratings, TaskRating)
    return cutoff_key, tasks, golds, dropped


def answer_idea_tasks(
    store, cutoff_key: str, embed, *, llm=None, seed: int = 0, index: IdeaCorpusIndex | None = None, log=print
) -> tuple[list[Answer], dict[str, int]]:
    """Stage 2: every built-in idea agent's review of every task, each over the KB view bound
    to the task's own idea cutoff; a failed answer is recorded on its row, never fatal."""
    register()
    tasks = store.read_records("tasks", DOMAIN, cutoff_key, Task)
    index = index or IdeaCorpusIndex.shipped(embed, date.fromisoformat(cutoff_key))
    answers: list[Answer] = []
    no_lit: Counter = Counter()
    for n, task in enumerate(tasks, start=1):
        view = index.view(task.cutoff)
        for agent in IDEA_AGENTS:
            ctx = AgentContext(task=task, kb=view, llm=llm, seed=seed, embed=embed)
            try:
                answer = agent.run(ctx)
            except Exception as exc:  # noqa: BLE001 - one failed answer is recorded, not fatal
                answer = Answer(
                    answer_id=f"{task.task_id}:{agent.name}:{seed}",
                    task_id=task.task_id,
                    family=FAMILY,
                    method=agent.name,
                    backbone=ctx.backbone_name,
                    error=f"{type(exc).__name__}: {exc}",
                )
            answers.append(answer)
            if agent.name == "scholareval" and '"no_relevant_literature":true' in answer.artifacts.get("review", ""):
                no_lit[task.subtype] += 1
        if n % 20 == 0:
            log(f"  {n}/{len(tasks)} ideas answered")
    store.write_records("agent_answers", DOMAIN, cutoff_key, answers, Answer)
    return answers, dict(no_lit)


def score_idea_answers(
    store,
    cutoff_key: str,
    embed,
    *,
    judge=None,
    seed: int = 0,
    index: IdeaCorpusIndex | None = None,
    known: dict[str, date] | None = None,
    ideas_path: str = str(SHIPPED),
) -> tuple[list[Score], list[Score], dict]:
    """Stage 3: rubric coverage and reference validity of every answer and control, the
    validity row, the release files and the leaderboard (markdown and HTML report)."""
    register()
    tasks = store.read_records("tasks", DOMAIN, cutoff_key, Task)
    golds = store.read_records("gold_targets", DOMAIN, cutoff_key, GoldTarget)
    answers = store.read_records("agent_answers", DOMAIN, cutoff_key, Answer)
    failures = (
        store.read_records("tasks_failures", DOMAIN, cutoff_key, Failure)
        if store.exists("tasks_failures", DOMAIN, cutoff_key)
        else []
    )
    rubrics_of = {f"idea-{i.idea_id}": [r.model_dump() for r in i.rubrics] for i in load_ideas(ideas_path)}
    gold_of = {g.task_id: g for g in golds}
    task_of = {t.task_id: t for t in tasks}
    index = index or IdeaCorpusIndex.shipped(embed, date.fromisoformat(cutoff_key))
    known = shipped_dates() if known is None else known
    scores = [
        score_review(a, rubrics_of[a.task_id], embed, judge, known, task_of[a.task_id].cutoff)
        for a in answers
        if a.task_id in task_of
    ]
    controls = []
    for task in tasks:
        view = index.view(task.cutoff)
        for name, review in control_answers(task, gold_of[task.task_id], golds, task_of, seed).items():
            ctx = AgentContext(task=task, kb=view, seed=seed, backbone="control", embed=embed)
            answer = review_answer(task, review, name, ctx, [], {}, 0.0)
            controls.append(score_review(answer, rubrics_of[task.task_id], embed, judge, known, task.cutoff))
    key = coverage_key(judge)
    row = validity_row(tasks, {f.item_id: f.reason for f in failures}, scores, controls, key)
    store.write_records("judge_scores", DOMAIN, cutoff_key, scores, Score)
    store.write_records("validity_controls", DOMAIN, cutoff_key, controls, Score)
    import pyarrow as pa

    store.write_table("validity_report", DOMAIN, cutoff_key, pa.Table.from_pylist([row]))
    release = "\n".join(t.model_dump_json() for t in tasks) + "\n"
    store.write_bytes(store.artifact_path("release", DOMAIN, cutoff_key, "tasks.jsonl"), release.encode())
    store.write_bytes(
        store.artifact_path("release", DOMAIN, cutoff_key, "LICENSE-scholarideas"), (SHIPPED.parent / "LICENSE").read_bytes()
    )
    store.write_bytes(
        store.artifact_path("release", DOMAIN, cutoff_key, "gold.jsonl"),
        ("\n".join(g.model_dump_json() for g in golds) + "\n").encode(),
    )
    board = leaderboard_lines(row, scores, key)
    store.write_bytes(
        store.artifact_path("leaderboard", DOMAIN, cutoff_key, "leaderboard.md"), ("\n".join(board) + "\n").encode()
    )
    store.write_bytes(
        store.artifact_path("leaderboard", DOMAIN, cutoff_key, "report.html"),
        report_html(cutoff_key, row, scores, controls, key).encode(),
    )
    return scores, controls, row


def run_idea_review(
    store,
    embed,
    *,
    llm=None,
    judge=None,
    limit: int | None = None,
    disciplines=None,
    path: str = str(SHIPPED),
    seed: int = 0,
    log=print,
    index: IdeaCorpusIndex | None = None,
    known: dict[str, date] | None = None,
    cutoff_key: str | None = None,
) -> IdeaRun:
    """The three stages in one call (`foresci demo-ideas`; the Dagster assets run them one
    by one). `index` (default: the shipped corpus) and `known` (default: every shipped
    paper's date) may be given, e.g. small ones in tests."""
    t0 = time.time()
    cutoff_key, tasks, _, dropped = build_idea_tasks(
        store, cutoff_key=cutoff_key, path=path, disciplines=disciplines, limit=limit
    )
    log(f"idea review: {len(tasks)} tasks built, {len(dropped)} dropped; indexing the shipped corpus ...")
    index = index or IdeaCorpusIndex.shipped(embed, date.fromisoformat(cutoff_key))
    answers, no_lit = answer_idea_tasks(store, cutoff_key, embed, llm=llm, seed=seed, index=index, log=log)
    scores, controls, row = score_idea_answers(
        store, cutoff_key, embed, judge=judge, seed=seed, index=index, known=known, ideas_path=path
    )
    return IdeaRun(cutoff_key, tasks, dropped, answers, scores, controls, row, no_lit, time.time() - t0)


def report_html(cutoff_key: str, row: dict, scores: list[Score], controls: list[Score], key: str) -> str:
    """The family's release report: methods against the controls, per discipline, proxy marked
    (`templates/idea_report.html`, autoescaped; the ForeSci report's layout, `core/pages.py`)."""
    return render(
        __package__,
        "idea_report.html",
        title=f"Idea review (ScholarEval) — ideas up to {cutoff_key}",
        row=row,
        key=key,
        proxy=key.endswith("proxy"),
        table=leaderboard_table(row, key),
    )


def leaderboard_table(row: dict, key: str) -> tuple[list[str], list[list[str]]]:
    """The family's leaderboard as (header, rows of cell texts): methods and controls by mean
    coverage, highest first (proxy marked in the header)."""
    label = "rubric coverage (embedding PROXY, no judge)" if key.endswith("proxy") else "rubric coverage (judge)"
    methods = json.loads(row["methods"])
    refs = json.loads(row["reference_validity"])
    entries = [
        *methods.items(),
        *((f"control:{k}", row[f"control_{k}"]) for k in ("gold", "random", "empty", "generic", "other_gold", "plan_echo")),
    ]
    fmt = lambda v: "–" if v is None else f"{v:.3f}"  # noqa: E731
    return (
        ["method", f"{label} 0-1", "reference validity"],
        [[m, fmt(v), fmt(refs.get(m))] for m, v in sorted(entries, key=lambda kv: -(kv[1] if kv[1] is not None else -1))],
    )


def leaderboard_lines(row: dict, scores: list[Score], key: str) -> list[str]:
    """The family's leaderboard as markdown lines (`leaderboard_table`)."""
    head, rows = leaderboard_table(row, key)
    return ["| " + " | ".join(head) + " |", "|---|---|---|", *("| " + " | ".join(r) + " |" for r in rows)]

"""Import an external release in the ForeSci (ResearchForesight) authors' public format.

Their public `tasks.jsonl` rows carry task_id, family, subtype, domain, horizon, title,
question, time_cutoff and deliverable_spec {format, requirements}; their hidden
evaluation JSONL (`tasks_hidden_eval.jsonl`) carries, per task_id, gold_answer,
expected_answer_points and ground_truth (plus judge scores). `import_release` maps both
into foresci `Task` and `GoldTarget` records, so the agents (assets/agents/runner.py) and
judges (assets/judging/scoring.py) run on them unchanged; `write_import` stores them as
the tasks / gold_targets / task_builds / task_ranking partitions of each (domain, cutoff).

Mapping (also in docs/releases.md):

| theirs | foresci |
|---|---|
| family `direction_forecasting` | `direction` |
| family `bottleneck_opportunity_discovery` | `bottleneck` |
| family `strategic_research_planning` | `planning` |
| family `venue_aware_research_positioning` (paper: Venue-Conditioned Positioning) | `venue` |
| domain "LLM agents" | `llm_agent` |
| domain "LLM fine-tuning and post-training" | `llm_finetuning_post_training` |
| domain "RAG and retrieval structuring" | `rag_and_retrieval_structuring` |
| domain "Visual generative modeling and diffusion" | `visual_generative_modeling_and_diffusion` |
| horizon `quarter` / `half_year` / `venue_cycle` | "3-month" / "6-month" / "venue cycle" (window 3 / 6 / 6 months) |
| time_cutoff | cutoff; window = cutoff + 1 day .. cutoff + horizon |
| deliverable_spec.requirements | answer_requirements; deliverable_spec.format -> instructions |
| (optional) options: [str or {option_id, text}] | options (their question lists options inline, if any) |
| venue tasks | options = the five venue families of ForeSci B.5 (a fixed public list) |
| gold_answer | slot "gold_answer" (its sentences as variants) + a future-realisation claim |
| expected_answer_points | historical claims with time_scope "rubric" (evaluation criteria, not outcomes) |
| ground_truth (direction) | future_terminal / emergent_descendants names -> slot primary_direction; trajectory.trajectory_label -> trajectory |
| ground_truth (bottleneck) | historical_limitation_cluster -> slot root_bottleneck (ranking by count); realized_opportunity_directions -> slot opportunity |
| ground_truth (venue) | venue_forecast.top_venue_buckets (else future window buckets) -> preferred ranking of venue families |
| ground_truth (planning) | preferred_ranking or ranked candidate_directions, matched to the options |
| numeric leaves of ground_truth | numbers (dotted paths) |
| future paper ids in ground_truth | future_paper_ids |
| judge.overall_score / avg_score | strength (1.0 if absent) |

Rows that cannot be mapped (unknown family or domain, bad date, missing fields) become
`Failure` rows; the rest import.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from datetime import date, timedelta
from pathlib import Path

from assets.families import all_families
from assets.families.imported import ImportedGold, humanise
from assets.families.venue import VENUE_BUCKETS, VENUE_FAMILIES
from assets.ranking.presentation import presentation_orders, write_presented
from assets.release import authors_format as fmt_map
from core.papers import add_months
from core.records import (
    Failure,
    GoldSlot,
    GoldTarget,
    Task,
    TaskBuild,
    TaskRating,
)

DOMAIN_MAP = {
    "llm agents": "llm_agent",
    "llm fine-tuning and post-training": "llm_finetuning_post_training",
    "rag and retrieval structuring": "rag_and_retrieval_structuring",
    "visual generative modeling and diffusion": "visual_generative_modeling_and_diffusion",
    "llm_agent": "llm_agent",
    "llm_finetuning_post_training": "llm_finetuning_post_training",
    "rag_and_retrieval_structuring": "rag_and_retrieval_structuring",
    "visual_generative_modeling_and_diffusion": "visual_generative_modeling_and_diffusion",
}
HORIZON_MAP = {
    "quarter": ("3-month", 3),
    "three_month": ("3-month", 3),
    "3-month": ("3-month", 3),
    "half_year": ("6-month", 6),
    "six_month": ("6-month", 6),
    "6-month": ("6-month", 6),
    "venue_cycle": ("venue cycle", 6),
    "venue cycle": ("venue cycle", 6),
}
OPTION_LETTERS = "ABCDEFGHIJ"
STAGE = "import_release"
_WORD = re.compile(r"[a-z0-9]+")
_ARXIV = re.compile(r"^\d{4}\.\d{4,5}$")


class ImportResult:
    def __init__(self):
        self.tasks: list[Task] = []
        self.golds: list[GoldTarget] = []
        self.failures: list[Failure] = []
        self.unmapped: dict[str, int] = {}  # "tasks.<field>" / "hidden.<field>" -> rows carrying it
        self.not_used: dict[str, int] = {}  # fields deliberately not used (authors_format.NOT_USED) -> rows
        self.answers_only = False  # imported with --no-gold: agents answer, nothing is scored
        self.missing_gold: list[str] = []  # task ids with no hidden row (an error unless answers_only)
        self.trajectory_shares: dict[str, float] = {}

    def partitions(self) -> list[tuple[str, str]]:
        return sorted({(t.domain, t.cutoff.isoformat()) for t in self.tasks})


class MissingGoldError(ValueError):
    """A release imported for scoring without its hidden evaluation file."""


def read_jsonl(path: Path | str) -> tuple[list[dict], list[Failure]]:
    rows, failures = [], []
    for i, line in enumerate(Path(path).read_text(encoding="utf-8").splitlines(), start=1):
        if not line.strip():
            continue
        try:
            row = json.loads(line)
            if not isinstance(row, dict):
                raise ValueError("not a JSON object")
            rows.append(row)
        except ValueError as exc:
            failures.append(
                Failure(stage=STAGE, item_id=f"{Path(path).name}:{i}", reason=f"bad JSON line: {exc}", raw=line[:2000])
            )
    return rows, failures


def _sentences(text: str) -> list[str]:
    return [s.strip() for s in re.split(r"(?<=[.!?])\s+", text or "") if len(s.strip()) > 10]


def family_of(name: str) -> str:
    """Our family for their family name (or ours); unknown names are an error."""
    key = name.strip().lower()
    for family in all_families():
        if key == family.name or key in family.aliases:
            return family.name
    known = sorted(a for f in all_families() for a in (f.name, *f.aliases))
    raise ValueError(f"unknown family {name!r}; known: {known}")


def map_task(row: dict, *, source: str = "external") -> Task:
    """One row of their public tasks.jsonl as a foresci Task (raises ValueError if unmappable)."""
    for key in ("task_id", "family", "domain", "horizon", "question", "time_cutoff"):
        if not row.get(key):
            raise ValueError(f"missing field {key!r}")
    family = family_of(str(row["family"]))
    domain = DOMAIN_MAP.get(str(row["domain"]).strip().lower())
    if domain is None:
        raise ValueError(f"unknown domain {row['domain']!r}; known: {sorted(DOMAIN_MAP)}")
    horizon = HORIZON_MAP.get(str(row["horizon"]).strip().lower())
    if horizon is None:
        raise ValueError(f"unknown horizon {row['horizon']!r}; known: {sorted(HORIZON_MAP)}")
    cutoff = date.fromisoformat(str(row["time_cutoff"])[:10])
    label, months = horizon
    spec = row.get("deliverable_spec") or {}
    requirements = [str(r) for r in spec.get("requirements", [])] or ["a concrete, literature-grounded answer"]
    fmt = spec.get("format", "free_form_research_analysis")
    instructions = (
        f"Use only the evidence available up to the cutoff ({cutoff.isoformat()}): the offline knowledge "
        f"base. Deliverable format: {humanise(fmt)}. Imported from {source} (task {row['task_id']}, "
        f"subtype {humanise(row.get('subtype', '') or 'none')})."
    )
    return Task(
        task_id=str(row["task_id"]),
        family=family,
        domain=domain,
        cutoff=cutoff,
        window_start=cutoff + timedelta(days=1),
        window_end=add_months(cutoff, months),
        horizon=label,
        title=str(row.get("title") or row["question"][:80]),
        question=str(row["question"]),
        instructions=instructions,
        answer_requirements=requirements,
        options=fmt_map.options_for(row, fmt_map.decision_of(str(row.get("subtype", "")), family), VENUE_FAMILIES),
        subtype=str(row.get("subtype", "")),
    )


def _numbers(obj, prefix: str = "", depth: int = 0) -> dict[str, float]:
    out: dict[str, float] = {}
    if depth > 3:
        return out
    if isinstance(obj, dict):
        for k, v in obj.items():
            key = f"{prefix}.{k}" if prefix else str(k)
            if isinstance(v, bool):
                out[key] = float(v)
            elif isinstance(v, (int, float)):
                out[key] = float(v)
            elif isinstance(v, dict):
                out.update(_numbers(v, key, depth + 1))
    return out


def _paper_ids(obj, future: bool = False) -> Iterable[str]:
    """Paper ids under keys that name the future (future_*, target_window_*, realized_*)."""
    if isinstance(obj, dict):
        for k, v in obj.items():
            fut = future or str(k).startswith(("future", "target_window", "realized"))
            if k == "paper_id" and fut and isinstance(v, str):
                yield v
            else:
                yield from _paper_ids(v, fut)
    elif isinstance(obj, list):
        for item in obj:
            yield from _paper_ids(item, future)


def map_gold(task: Task, hidden: dict, problems: list[str] | None = None) -> GoldTarget:
    """Their hidden evaluation row as a foresci GoldTarget for `task`, by the decision the
    task asks (assets/release/authors_format.py). `problems` receives what could not be
    mapped faithfully (e.g. an option no gold candidate matches)."""
    problems = problems if problems is not None else []
    gt = hidden.get("ground_truth") or {}
    out = ImportedGold(task)
    answer = str(hidden.get("gold_answer") or "")
    if answer:
        out.claim(answer, "future-realisation", out.scope, 1.0)
    for point in hidden.get("expected_answer_points") or []:
        out.claim(point, "historical", "rubric", 0.5)
    decision = fmt_map.decision_of(task.subtype, task.family)
    if decision == "next_direction":
        fmt_map.gold_direction(gt, out)
    elif decision == "bottleneck_opportunity":
        fmt_map.gold_bottleneck(gt, out, answer)
    elif decision in ("rank_directions", "pairwise_priority", "rank_directions_for_venue"):
        fmt_map.gold_ranking(gt, out, problems, answer)
        fmt_map.target_venue_claim(gt, out)
    elif decision == "direction_and_venue":
        fmt_map.gold_venue_direction(gt, out, VENUE_BUCKETS)
        named = fmt_map.names_gold_venue(task.question, gt)
        if named:
            problems.append(f"the question names the gold venue bucket ({named}): the venue is no decision")
    if not out.slots and not out.preferred:
        problems.append("no gold target: nothing to score (no slot, no ranking)")
    judge = hidden.get("judge") or {}
    strength = judge.get("overall_score", judge.get("avg_score", 1.0))
    future_ids = sorted({p for p in _paper_ids(gt) if _ARXIV.match(p)})
    return GoldTarget(
        task_id=task.task_id,
        family=task.family,
        domain=task.domain,
        cutoff=task.cutoff,
        preferred_ranking=[p for p in out.preferred if p],
        trajectory=out.trajectory,
        slots=out.slots,
        claims=out.claims,
        numbers=_numbers(gt),
        future_paper_ids=future_ids,
        strength=float(max(0.0, min(1.0, strength if strength is not None else 1.0))),
    )


def apply_trajectory_rule(tasks: list[Task], golds: list[GoldTarget]) -> dict[str, float]:
    """The trajectory rule (authors_format docstring): per family, the share of golds with
    each label; a gold's label becomes a slot "<direction> is <label>" only when that share
    is at most TRAJECTORY_SLOT_MAX_SHARE. Returns the shares ("family:label")."""
    by_id = {t.task_id: t for t in tasks}
    shares: dict[str, float] = {}
    for family in sorted({g.family for g in golds}):
        labelled = [g for g in golds if g.family == family and g.trajectory]
        for label in sorted({g.trajectory for g in labelled}):
            shares[f"{family}:{label}"] = sum(g.trajectory == label for g in labelled) / len(labelled)
    for g in golds:
        if not g.trajectory or shares.get(f"{g.family}:{g.trajectory}", 1.0) > fmt_map.TRAJECTORY_SLOT_MAX_SHARE:
            continue
        primary = next((s.variants[0] for s in g.slots if s.slot == "primary_direction" and s.variants), None)
        if primary and g.task_id in by_id and not any(s.slot == "trajectory" for s in g.slots):
            g.slots.append(GoldSlot(slot="trajectory", variants=[f"{primary} is {g.trajectory}"]))
    return shares


def _count_fields(out: ImportResult, prefix: str, keys) -> None:
    for key in keys:
        name = f"{prefix}.{key}"
        if key in fmt_map.READ.get(prefix, ()):
            continue
        bucket = out.not_used if name in fmt_map.NOT_USED else out.unmapped
        bucket[name] = bucket.get(name, 0) + 1


def import_release(
    tasks_path: Path | str,
    hidden_path: Path | str | None = None,
    *,
    domain: str | None = None,
    cutoff: str | None = None,
    source: str | None = None,
    no_gold: bool = False,
) -> ImportResult:
    """Read their tasks.jsonl and hidden evaluation JSONL into foresci tasks and gold.

    `domain` / `cutoff` keep only that foresci domain / cutoff (YYYY-MM-DD). Without a hidden
    file the import is an error (`MissingGoldError`) unless `no_gold` (then the result is
    "answers only": agents answer, nothing is scored). A task with no hidden row is listed in
    `missing_gold` and a Failure row; a hidden row with no task is reported too.
    """
    if hidden_path is None and not no_gold:
        raise MissingGoldError(
            "no hidden evaluation file given: the tasks would import without gold and every score "
            "would be empty. Pass their tasks_hidden_eval.jsonl (--hidden), or --no-gold to import "
            "the tasks for answering only"
        )
    out = ImportResult()
    out.answers_only = hidden_path is None
    for path in (tasks_path, hidden_path):
        if path is not None and not Path(path).is_file():
            raise FileNotFoundError(
                f"release file not found: {path} (give the authors' tasks.jsonl and, for gold, their hidden evaluation JSONL)"
            )
    source = source or Path(tasks_path).parent.name
    rows, failures = read_jsonl(tasks_path)
    out.failures += failures
    hidden_rows: dict[str, dict] = {}
    if hidden_path is not None:
        hrows, hfail = read_jsonl(hidden_path)
        out.failures += hfail
        hidden_rows = {str(r.get("task_id")): r for r in hrows}
    for row in rows:
        _count_fields(out, "tasks", row)
    for row in hidden_rows.values():
        _count_fields(out, "hidden", row)
        _count_fields(out, "hidden.ground_truth", row.get("ground_truth") or {})
    seen: set[str] = set()
    for row in rows:
        tid = str(row.get("task_id", "?"))
        try:
            task = map_task(row, source=source)
        except (ValueError, KeyError, TypeError) as exc:
            out.failures.append(Failure(stage=STAGE, item_id=tid, reason=f"task not imported: {exc}", raw=json.dumps(row)[:2000]))
            continue
        if (domain and task.domain != domain) or (cutoff and task.cutoff.isoformat() != cutoff):
            continue
        if task.task_id in seen:
            out.failures.append(Failure(stage=STAGE, item_id=tid, reason="duplicate task_id; later row skipped"))
            continue
        seen.add(task.task_id)
        out.tasks.append(task)
        if hidden_path is None:
            continue
        hidden = hidden_rows.get(task.task_id)
        if hidden is None:
            out.missing_gold.append(task.task_id)
            out.failures.append(Failure(stage=STAGE, item_id=tid, reason="no hidden evaluation row: no gold"))
            continue
        problems: list[str] = []
        try:
            out.golds.append(map_gold(task, hidden, problems))
        except (ValueError, KeyError, TypeError) as exc:
            out.missing_gold.append(task.task_id)
            out.failures.append(Failure(stage=STAGE, item_id=tid, reason=f"gold not imported: {exc}"))
            continue
        for p in problems:
            out.failures.append(Failure(stage=STAGE, item_id=tid, reason=f"gold: {p}"))
    for tid in sorted(set(hidden_rows) - {str(r.get("task_id")) for r in rows}):
        out.failures.append(Failure(stage=STAGE, item_id=tid, reason="hidden evaluation row without a public task"))
    out.trajectory_shares = apply_trajectory_rule(out.tasks, out.golds)
    return out


def imported_ratings(
    tasks: list[Task], golds: list[GoldTarget], *, source: str = "external", answers_only: bool = False
) -> list[TaskRating]:
    """Every imported task released (the external curators already chose them), Elo 1200,
    judge "imported", with the presentation balancing of native releases
    (assets/ranking/presentation.py: the gold's first option at a balanced position across
    each family, so "always the first option" is no strategy)."""
    gold_of = {g.task_id: g for g in golds}
    orders = presentation_orders(tasks, gold_of, {t.task_id for t in tasks})
    note = f"imported from {source}" + (" (answers only: no gold)" if answers_only else "")
    ratings = []
    for family in sorted({t.family for t in tasks}):
        fam = sorted((t for t in tasks if t.family == family), key=lambda t: t.task_id)
        ratings += [
            TaskRating(
                task_id=t.task_id,
                family=family,
                elo=1200.0,
                rank_in_family=i,
                released=True,
                quality=1.0,
                note=note,
                judge="imported",
                presentation=orders.get(t.task_id, []),
            )
            for i, t in enumerate(fam, start=1)
        ]
    return ratings


def write_import(store, result: ImportResult, *, source: str = "external") -> dict[tuple[str, str], int]:
    """Store the import as the tasks / task_builds / gold_targets / task_ranking partitions
    (`imported_ratings`: all released, presentation-balanced). `store` is a PartitionStore.
    Returns tasks per partition."""
    counts = {}
    for d, c in result.partitions():
        tasks = sorted((t for t in result.tasks if t.domain == d and t.cutoff.isoformat() == c), key=lambda t: t.task_id)
        ids = {t.task_id for t in tasks}
        golds = [g for g in result.golds if g.task_id in ids]
        store.write_records("tasks", d, c, tasks, Task)
        store.write_records(
            "task_builds",
            d,
            c,
            [TaskBuild(task_id=t.task_id, signal_ids=[], node_ids=[], drafted_by=f"imported:{source}") for t in tasks],
            TaskBuild,
        )
        store.write_records("gold_targets", d, c, golds, GoldTarget)
        ratings = imported_ratings(tasks, golds, source=source, answers_only=result.answers_only)
        store.write_records("task_ranking", d, c, ratings, TaskRating)
        write_presented(store, d, c, tasks, golds, ratings)  # the presented release, as task_ranking writes it
        store.write_records("import_release_failures", d, c, [f for f in result.failures], Failure)
        counts[(d, c)] = len(tasks)
    return counts

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

from assets.families import all_families, get_family
from assets.families.imported import ImportedGold, humanise
from core.papers import add_months
from core.records import (
    Failure,
    GoldTarget,
    Task,
    TaskBuild,
    TaskOption,
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
    "quarter": ("3-month", 3), "three_month": ("3-month", 3), "3-month": ("3-month", 3),
    "half_year": ("6-month", 6), "six_month": ("6-month", 6), "6-month": ("6-month", 6),
    "venue_cycle": ("venue cycle", 6), "venue cycle": ("venue cycle", 6),
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

    def partitions(self) -> list[tuple[str, str]]:
        return sorted({(t.domain, t.cutoff.isoformat()) for t in self.tasks})


# The fields the import reads; anything else is reported as not mapped.
TASK_FIELDS = frozenset({"task_id", "family", "domain", "horizon", "question", "time_cutoff", "deliverable_spec",
                         "title", "subtype", "options"})
HIDDEN_FIELDS = frozenset({"task_id", "gold_answer", "expected_answer_points", "ground_truth", "judge"})
GROUND_TRUTH_FIELDS = frozenset({  # read by the family modules' import_gold hooks
    "future_terminal", "emergent_descendants", "trajectory", "preferred_ranking", "candidate_directions",
    "future_half_stats", "historical_limitation_cluster", "realized_opportunity_directions", "venue_forecast",
})


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
            failures.append(Failure(stage=STAGE, item_id=f"{Path(path).name}:{i}", reason=f"bad JSON line: {exc}",
                                    raw=line[:2000]))
    return rows, failures


def _sentences(text: str) -> list[str]:
    return [s.strip() for s in re.split(r"(?<=[.!?])\s+", text or "") if len(s.strip()) > 10]


def _options(row: dict, family: str) -> list[TaskOption]:
    raw = row.get("options") or (row.get("deliverable_spec") or {}).get("options") or []
    out = []
    for i, item in enumerate(raw):
        if isinstance(item, dict):
            out.append(TaskOption(option_id=str(item.get("option_id") or OPTION_LETTERS[i]), text=str(item["text"])))
        else:
            out.append(TaskOption(option_id=OPTION_LETTERS[i], text=str(item)))
    return out or get_family(family).imported_options()


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
    instructions = (f"Use only the evidence available up to the cutoff ({cutoff.isoformat()}): the offline knowledge "
                    f"base. Deliverable format: {humanise(fmt)}. Imported from {source} (task {row['task_id']}, "
                    f"subtype {humanise(row.get('subtype', '') or 'none')}).")
    return Task(task_id=str(row["task_id"]), family=family, domain=domain, cutoff=cutoff,
                window_start=cutoff + timedelta(days=1), window_end=add_months(cutoff, months), horizon=label,
                title=str(row.get("title") or row["question"][:80]), question=str(row["question"]),
                instructions=instructions, answer_requirements=requirements, options=_options(row, family),
                subtype=str(row.get("subtype", "")))


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


def map_gold(task: Task, hidden: dict) -> GoldTarget:
    """Their hidden evaluation row as a foresci GoldTarget for `task`."""
    gt = hidden.get("ground_truth") or {}
    out = ImportedGold(task)
    answer = str(hidden.get("gold_answer") or "")
    if answer:
        out.claim(answer, "future-realisation", out.scope, 1.0)
    for point in hidden.get("expected_answer_points") or []:
        out.claim(point, "historical", "rubric", 0.5)
    get_family(task.family).import_gold(gt, out)
    if answer:
        out.slot("gold_answer", _sentences(answer)[:4] or [answer])
    judge = hidden.get("judge") or {}
    strength = judge.get("overall_score", judge.get("avg_score", 1.0))
    future_ids = sorted({p for p in _paper_ids(gt) if _ARXIV.match(p)})
    return GoldTarget(task_id=task.task_id, family=task.family, domain=task.domain, cutoff=task.cutoff,
                      preferred_ranking=[p for p in out.preferred if p], trajectory=out.trajectory, slots=out.slots,
                      claims=out.claims, numbers=_numbers(gt), future_paper_ids=future_ids,
                      strength=float(max(0.0, min(1.0, strength if strength is not None else 1.0))))


def import_release(tasks_path: Path | str, hidden_path: Path | str | None = None, *, domain: str | None = None,
                   cutoff: str | None = None, source: str | None = None) -> ImportResult:
    """Read their tasks.jsonl (and hidden evaluation JSONL) into foresci tasks and gold.

    `domain` / `cutoff` keep only that foresci domain / cutoff (YYYY-MM-DD). A task with no
    hidden row imports without gold (a Failure row says so); a hidden row with no task is
    reported too.
    """
    out = ImportResult()
    for path in (tasks_path, hidden_path):
        if path is not None and not Path(path).is_file():
            raise FileNotFoundError(f"release file not found: {path} (give the authors' tasks.jsonl and, for gold, "
                                    "their hidden evaluation JSONL)")
    source = source or Path(tasks_path).parent.name
    rows, failures = read_jsonl(tasks_path)
    out.failures += failures
    hidden_rows: dict[str, dict] = {}
    if hidden_path is not None:
        hrows, hfail = read_jsonl(hidden_path)
        out.failures += hfail
        hidden_rows = {str(r.get("task_id")): r for r in hrows}
    for row in rows:
        for key in set(row) - TASK_FIELDS:
            out.unmapped[f"tasks.{key}"] = out.unmapped.get(f"tasks.{key}", 0) + 1
    for row in hidden_rows.values():
        for key in set(row) - HIDDEN_FIELDS:
            out.unmapped[f"hidden.{key}"] = out.unmapped.get(f"hidden.{key}", 0) + 1
        for key in set(row.get("ground_truth") or {}) - GROUND_TRUTH_FIELDS:
            out.unmapped[f"hidden.ground_truth.{key}"] = out.unmapped.get(f"hidden.ground_truth.{key}", 0) + 1
    seen: set[str] = set()
    for row in rows:
        tid = str(row.get("task_id", "?"))
        try:
            task = map_task(row, source=source)
        except (ValueError, KeyError, TypeError) as exc:
            out.failures.append(Failure(stage=STAGE, item_id=tid, reason=f"task not imported: {exc}",
                                        raw=json.dumps(row)[:2000]))
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
            out.failures.append(Failure(stage=STAGE, item_id=tid, reason="no hidden evaluation row: imported without gold"))
            continue
        try:
            out.golds.append(map_gold(task, hidden))
        except (ValueError, KeyError, TypeError) as exc:
            out.failures.append(Failure(stage=STAGE, item_id=tid, reason=f"gold not imported: {exc}"))
    for tid in sorted(set(hidden_rows) - {str(r.get("task_id")) for r in rows}):
        out.failures.append(Failure(stage=STAGE, item_id=tid, reason="hidden evaluation row without a public task"))
    return out


def write_import(store, result: ImportResult, *, source: str = "external") -> dict[tuple[str, str], int]:
    """Store the import as the tasks / task_builds / gold_targets / task_ranking partitions.

    Every imported task is released (the external curators already chose them), with Elo
    1200 and judge "imported". `store` is a PartitionStore. Returns tasks per partition.
    """
    counts = {}
    for d, c in result.partitions():
        tasks = sorted((t for t in result.tasks if t.domain == d and t.cutoff.isoformat() == c), key=lambda t: t.task_id)
        ids = {t.task_id for t in tasks}
        golds = [g for g in result.golds if g.task_id in ids]
        store.write_records("tasks", d, c, tasks, Task)
        store.write_records("task_builds", d, c, [TaskBuild(task_id=t.task_id, signal_ids=[], node_ids=[],
                                                            drafted_by=f"imported:{source}") for t in tasks],
                            TaskBuild)
        store.write_records("gold_targets", d, c, golds, GoldTarget)
        ratings = []
        for family in sorted({t.family for t in tasks}):
            fam = [t for t in tasks if t.family == family]
            ratings += [TaskRating(task_id=t.task_id, family=family, elo=1200.0, rank_in_family=i, released=True,
                                   quality=1.0, note=f"imported from {source}", judge="imported")
                        for i, t in enumerate(fam, start=1)]
        store.write_records("task_ranking", d, c, ratings, TaskRating)
        store.write_records("import_release_failures", d, c, [f for f in result.failures], Failure)
        counts[(d, c)] = len(tasks)
    return counts

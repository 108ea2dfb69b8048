"""Evaluate agents on an imported release (`foresci evaluate`): the ForeSci authors' task and
hidden files in, per family and agent mean scores out, with the controls that say whether the
scores mean anything.

`release_controls` runs the validity controls (assets/validity/controls.py) on the imported
tasks as they are presented (presentation balancing of `imported_ratings`) and summarises
them per family: the stated reference (`control:gold`), another task's reference
(`control:other_gold`), empty, first option, every option and the random line, each as a mean
FTA, plus the share of (task, other task) pairs where the reference beats the other task's
reference (`ref_wins`). `control_problems` checks them against core/thresholds.yaml
the way the validity report does (stated gold >= gold_min; a no-judgement control at most
`control_margin` above random, empty at most `empty_max`); on an imported release a family
also fails when the reference beats another task's reference on fewer than REF_WIN_MIN of
the pairs (the scores would not tell a task's own answer from another task's).

Scores are FTA (reference-guided or ranking, whichever applies to the family) and the other
offline metrics of the scorer registry; judge metrics are null offline.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field

import assets.agents  # noqa: F401  (registers the built-in methods)
from assets.agents.external import load_entry_point, parse_spec, run_external
from assets.agents.registry import agent_names, get_agent
from assets.agents.runner import run_method
from assets.corpus.logic import deduplicate
from assets.corpus.screening import screen_corpus
from assets.judging.scoring import score_answers
from assets.knowledge_base.logic import KnowledgeBaseView, build_kb, table_name
from assets.ranking.presentation import presented_golds, presented_tasks
from assets.release.importer import ImportResult, import_release, imported_ratings
from assets.validity.controls import control_answers
from core.papers import SHIPPED_DIR, read_jsonl
from core.paths import state_dir
from core.plugins import UnknownPluginError
from core.records import GoldTarget, Score, Task
from core.registry import load_registry
from core.thresholds import Thresholds

REF_WIN_MIN = 0.9  # the reference must beat another task's reference on >= 90% of pairs (issue 26)
CONTROL_COLUMNS = (
    "control:gold",
    "control:other_gold",
    "control:empty",
    "control:first_option",
    "control:every_option",
    "control:random",
)


@dataclass
class Presented:
    """An import as agents see it: tasks and golds in the presentation's letters."""

    tasks: list[Task]
    golds: list[GoldTarget]
    by_partition: dict[tuple[str, str], list[str]] = field(default_factory=dict)


def present_import(result: ImportResult, source: str = "external") -> Presented:
    tasks, golds = [], []
    parts: dict[tuple[str, str], list[str]] = {}
    for d, c in result.partitions():
        built = sorted((t for t in result.tasks if t.domain == d and t.cutoff.isoformat() == c), key=lambda t: t.task_id)
        ids = {t.task_id for t in built}
        gold = [g for g in result.golds if g.task_id in ids]
        ratings = imported_ratings(built, gold, source=source, answers_only=result.answers_only)
        tasks += presented_tasks(built, ratings)
        golds += presented_golds(gold, built, ratings)
        parts[(d, c)] = sorted(ids)
    return Presented(tasks, golds, parts)


def _fta(s: Score) -> float | None:
    return s.fta


def release_controls(tasks: list[Task], golds: list[GoldTarget], embed, *, draws: int = 20) -> tuple[list[dict], list[Score]]:
    """Per family: the controls' mean FTA and the reference's win share (module docstring)."""
    controls = control_answers(tasks, golds, draws=draws)
    by_cutoff: dict = defaultdict(list)
    for t in tasks:
        by_cutoff[t.cutoff].append(t)
    scores: list[Score] = []
    for cutoff, group in sorted(by_cutoff.items()):
        ids = {t.task_id for t in group}
        sc, _ = score_answers(
            [a for a in controls if a.task_id in ids], group, [g for g in golds if g.task_id in ids], embed, {}, cutoff=cutoff
        )
        scores += sc
    said = {a.answer_id: (tuple(a.ranking), a.choice, tuple(a.decision)) for a in controls}
    return control_rows(tasks, scores, said), scores


def control_rows(tasks: list[Task], scores: list[Score], said: dict | None = None) -> list[dict]:
    """`said`: answer id -> what the answer states; a pair whose two references state the
    same thing (two tasks with the same gold ranking of their letters) is a tie by
    construction and is left out of `ref_wins` (counted in `same_answer`)."""
    said = said or {}
    fam_of = {t.task_id: t.family for t in tasks}
    open_ids = {t.task_id for t in tasks if not t.options}
    per: dict = defaultdict(lambda: defaultdict(lambda: defaultdict(list)))  # family -> control -> task -> values
    stated: dict = defaultdict(list)  # (method, task) -> what each answer states, in score order
    for s in scores:
        v = _fta(s)
        if v is not None:
            per[fam_of[s.task_id]][s.method][s.task_id].append(v)
            stated[(s.method, s.task_id)].append(said.get(s.answer_id))
    rows = []
    for family in sorted(per):
        c = per[family]
        row: dict = {
            "family": family,
            "n": len(c["control:gold"]),
            "open_tasks": sum(1 for t in c["control:gold"] if t in open_ids),
        }
        for name in CONTROL_COLUMNS:
            vals = [sum(v) / len(v) for v in c[name].values() if v]
            row[name.removeprefix("control:")] = round(sum(vals) / len(vals), 4) if vals else None
        wins, ties, pairs, same = 0, 0, 0, 0
        for tid, refs in c["control:gold"].items():
            ref_said = stated[("control:gold", tid)][0]
            for other, other_said in zip(c["control:other_gold"].get(tid, []), stated[("control:other_gold", tid)]):
                if ref_said is not None and other_said == ref_said:
                    same += 1
                    continue
                pairs += 1
                wins += refs[0] > other + 1e-9
                ties += abs(refs[0] - other) <= 1e-9
        row["pairs"] = pairs
        row["same_answer"] = same
        row["ref_wins"] = round(wins / pairs, 4) if pairs else None
        row["ref_ties"] = round(ties / pairs, 4) if pairs else None
        rows.append(row)
    return rows


def control_problems(row: dict, th: Thresholds | None = None) -> list[str]:
    """Where a family's controls miss the thresholds (empty: the scores mean something).

    The means are compared directly (an imported release is scored once, not gated by the
    bootstrap of the validity report). For open tasks (no options) the random line answers
    nothing (their candidates are hidden), so another task's reference is judged by
    `ref_wins` alone."""
    th = th or Thresholds.load()
    out = []
    if row.get("gold") is None or row["gold"] < th.gold_min:
        out.append(f"stated reference {row.get('gold')} < {th.gold_min}")
    if row.get("ref_wins") is not None and row["ref_wins"] < REF_WIN_MIN:
        out.append(f"reference beats another task's reference on {row['ref_wins']:.0%} of pairs < {REF_WIN_MIN:.0%}")
    rnd = row.get("random") or 0.0
    all_open = row.get("open_tasks", 0) == row.get("n")
    for name in ("empty", "first_option", "every_option", "other_gold"):
        v = row.get(name)
        if v is None or (name == "other_gold" and all_open):
            continue
        if v > rnd + th.control_margin:
            out.append(f"{name.replace('_', ' ')} {v:.3f} > random {rnd:.3f} + {th.control_margin}")
    return out


# --------------------------------------------------------------------------------------
# foresci evaluate: import, knowledge base per cutoff, agents, scores
# --------------------------------------------------------------------------------------

SCORE_COLUMNS = ("fta", "fta_precision", "fta_recall", "trace_linkage", "fact", "trace", "pers")


def cutoff_kb(domain: str, cutoff, embed, db_dir):
    """The knowledge base an agent may read at `cutoff`: the domain's shipped corpus up to
    the cutoff, deduplicated and screened offline (the corpus_snapshot logic; excluded papers
    dropped), indexed as the knowledge_base asset does (`build_kb`), as a cutoff-bound view."""
    import lancedb

    path = SHIPPED_DIR / f"{domain}.jsonl.gz"
    if not path.is_file():
        raise FileNotFoundError(
            f"no shipped corpus for {domain} ({path}): build the partition with "
            "`foresci materialize` and score from the warehouse instead"
        )
    papers, _ = read_jsonl(path)
    papers = deduplicate([p for p in papers if p.published <= cutoff])
    descriptions = {name: d.description for name, d in load_registry().domains.items()}
    screened, _, _ = screen_corpus(papers, domain, domain, descriptions, embed)
    kept = [p for p in screened if p.label != "excluded"]
    table, _ = build_kb(lancedb.connect(str(db_dir)), table_name(domain, cutoff.isoformat()), kept, embed)
    return KnowledgeBaseView(table, cutoff, embed)


class AgentSpecError(ValueError):
    """An --agent that names no built-in method and no loadable bring-your-own agent."""


def check_agents(agents: list[str]) -> None:
    """Resolve every agent spec before anything is built (a typo fails in a second, not after
    the knowledge bases): a built-in method must be registered; NAME=PATH:FUNCTION and
    NAME=module:function must load and be callable (an http(s) agent is only parsed)."""
    if not agents:
        raise AgentSpecError("no --agent given")
    for spec in agents:
        if ":" not in spec and "=" not in spec:
            try:
                get_agent(spec)
            except UnknownPluginError:
                raise AgentSpecError(
                    f"--agent {spec!r}: no built-in method of that name (built-in: "
                    f"{', '.join(sorted(agent_names()))}); a bring-your-own agent is "
                    "NAME=PATH:FUNCTION, NAME=module:function or NAME=http(s)://..."
                ) from None
            continue
        try:
            parsed = parse_spec(spec)
            if not parsed.target.startswith(("http://", "https://")):
                load_entry_point(parsed.target)
        except (ValueError, ImportError, AttributeError, TypeError, OSError) as exc:
            raise AgentSpecError(f"--agent {spec!r}: {exc}") from exc


def run_agent(spec: str, tasks: list[Task], kb, embed, *, seed: int = 0):
    """(agent name, answers, failures): a built-in method by name, or a bring-your-own
    agent as NAME=PATH:FUNCTION / NAME=module:function / NAME=http(s)://... (docs/agents.md)."""
    if ":" in spec:
        parsed = parse_spec(spec)
        answers, failures = run_external(parsed, tasks, kb, seed=seed)
        return parsed.name, answers, failures
    answers, failures = run_method(spec, tasks, kb, embed=embed, seed=seed)
    return spec, answers, failures


def score_rows(scores: list[Score], agent_of: dict[str, str], tasks: list[Task]) -> list[dict]:
    """Per family and agent: n answers scored and the mean of each offline-available score."""
    fam_of = {t.task_id: t.family for t in tasks}
    groups: dict = defaultdict(list)
    for s in scores:
        groups[(fam_of.get(s.task_id, s.family), agent_of.get(s.method, s.method))].append(s)
    rows = []
    for (family, agent), group in sorted(groups.items()):
        row: dict = {"family": family, "agent": agent, "n": len(group)}
        for col in SCORE_COLUMNS:
            vals = [getattr(s, col) for s in group if getattr(s, col) is not None]
            row[col] = round(sum(vals) / len(vals), 4) if vals else None
            if col == "fta":
                row["fta_n"] = len(vals)
        ref = [s.values.get("reference_validity") for s in group if s.values.get("reference_validity") is not None]
        row["reference_validity"] = round(sum(ref) / len(ref), 4) if ref else None
        rows.append(row)
    return rows


@dataclass
class Evaluation:
    result: ImportResult
    rows: list[dict]  # {family, agent, n, fta, ...}
    controls: list[dict]  # release_controls rows, with "problems"
    failures: list = field(default_factory=list)  # agent and scoring failures

    @property
    def failed_families(self) -> list[str]:
        return [r["family"] for r in self.controls if r.get("problems")]

    def document(self) -> dict:
        """The whole evaluation as JSON-ready data: what `foresci evaluate --format json`
        prints and what the imported_evaluation asset records."""
        r = self.result
        return {
            "scores": self.rows,
            "controls": self.controls,
            "import": {
                "tasks": len(r.tasks),
                "gold": len(r.golds),
                "answers_only": r.answers_only,
                "missing_gold": r.missing_gold,
                "unmapped": r.unmapped,
                "failures": [f.model_dump(mode="json") for f in r.failures],
            },
            "agent_failures": [f.model_dump(mode="json") for f in self.failures],
        }


def evaluate_release(
    tasks_path,
    hidden_path,
    agents: list[str],
    *,
    no_gold: bool = False,
    domain: str | None = None,
    cutoff: str | None = None,
    workdir=None,
    embed=None,
    kb_factory=None,
    draws: int = 20,
) -> Evaluation:
    """Import the release (never rebuilding its tasks), build each (domain, cutoff)'s
    knowledge base, run every agent on the presented tasks, score them, and run the release
    controls. `kb_factory(domain, cutoff, embed)` replaces `cutoff_kb` (tests)."""
    import tempfile
    from pathlib import Path

    from resources.embeddings import load_embedder

    check_agents(agents)
    embed = embed or load_embedder().encode
    result = import_release(tasks_path, hidden_path, domain=domain, cutoff=cutoff, no_gold=no_gold)
    presented = present_import(result, source=Path(tasks_path).parent.name)
    workdir = Path(workdir) if workdir else state_dir() / "evaluate"
    workdir.mkdir(parents=True, exist_ok=True)
    answers, failures, agent_of, scores = [], [], {}, []
    for (d, _), ids in sorted(presented.by_partition.items()):
        tasks = [t for t in presented.tasks if t.task_id in set(ids)]
        kb = (kb_factory or (lambda dd, cc, ee: cutoff_kb(dd, cc, ee, tempfile.mkdtemp(dir=workdir))))(d, tasks[0].cutoff, embed)
        part_answers = []
        for spec in agents:
            name, got, failed = run_agent(spec, tasks, kb, embed)
            for a in got:
                agent_of[a.method] = name
            part_answers += got
            failures += failed
        answers += part_answers
        if result.answers_only:
            continue
        golds = [g for g in presented.golds if g.task_id in set(ids)]
        part_scores, score_failures = score_answers(part_answers, tasks, golds, embed, kb.dates(), cutoff=tasks[0].cutoff)
        scores += part_scores
        failures += score_failures
    rows = (
        score_rows(scores, agent_of, presented.tasks)
        if not result.answers_only
        else [
            {"family": t, "agent": agent_of.get(a, a), "n": n, "fta": None}
            for (t, a), n in sorted(_count_answers(answers, presented.tasks).items())
        ]
    )
    controls = []
    if not result.answers_only:
        controls, _ = release_controls(presented.tasks, presented.golds, embed, draws=draws)
        th = Thresholds.load()
        for row in controls:
            row["problems"] = "; ".join(control_problems(row, th))
    return Evaluation(result, rows, controls, failures)


def _count_answers(answers, tasks: list[Task]) -> dict:
    fam_of = {t.task_id: t.family for t in tasks}
    out: dict = defaultdict(int)
    for a in answers:
        out[(fam_of.get(a.task_id, a.family), a.method)] += 1
    return out

"""The validity report of a release: does each family's score mean what its task says?

Per family, over the released tasks (plain functions, no Dagster):

* tasks built, released and dropped, with the reasons (curation drops, gold without
  evidence, gold that does not hold up);
* the scores (mean FTA) of the control answers (`controls.py`): the stated gold (must
  be >= gold_min), the random line, and the controls that carry no judgement, next to each
  method's mean; per no-judgement control its mean excess over the random line and the lower
  end of a one-sided 95% bootstrap interval of it: the control fails when that lower end
  exceeds control_margin, and only when the family released >= min_gated_tasks tasks in the
  partition (`assets/validity/statistics.py`: the test, the derived minimum, and the same check
  pooled over many partitions);
* gold top-1 stability under bootstrap resampling of the window's papers, the share of
  the claim bank a recomputing validator confirms, agreement of independent gold
  measures where a family has two, duplicate titles / option sets / golds;
* `passed` and `problems`: every threshold of `thresholds.yaml` checked; `notes`: what is
  not a failure but must be read with the row (an empty family, control checks not gated).
"""

from __future__ import annotations

import json
import re
import statistics
from collections import Counter, defaultdict

from assets.families.registry import get_family
from assets.ranking.defects import option_defects
from assets.validity.controls import NO_JUDGEMENT
from assets.validity.statistics import control_checks, control_notes, control_problems, per_task
from core.phrases import option_name
from core.records import Failure, GoldTarget, Score, Task, TaskRating
from core.thresholds import Thresholds


def _mean(xs) -> float | None:
    xs = [x for x in xs if x is not None]
    return round(statistics.fmean(xs), 4) if xs else None


def duplicates(tasks: list[Task], golds: dict[str, GoldTarget]) -> dict[str, int]:
    """Released tasks of one family that repeat another's title, option set or gold."""
    fixed_menu = bool(tasks) and get_family(tasks[0].family).fixed_options
    titles = Counter(t.title.strip().lower() for t in tasks)
    options = Counter(frozenset(o.text for o in t.options) for t in tasks if t.options and not fixed_menu)
    gold_sig = Counter(
        json.dumps([g.preferred_ranking, sorted(c.text for c in g.claims)]) for t in tasks if (g := golds.get(t.task_id))
    )
    extra = lambda c: sum(n - 1 for n in c.values() if n > 1)  # noqa: E731 - one line
    return {"duplicate_titles": extra(titles), "duplicate_option_sets": extra(options), "duplicate_golds": extra(gold_sig)}


def reason_kind(reason: str) -> str:
    """A drop reason without the task ids and figures it names, so equal reasons count together
    ("same gold answer as released task d-2025-12-31-direction-40" -> "... as a released task")."""
    reason = re.sub(r"\s*\([^)]*\d[^)]*\)", "", reason)
    reason = re.sub(r"(?:released task |of )?\S+-\d{4}-\d{2}-\d{2}-[a-z_]+-\d+", "a released task", reason)
    return reason.replace("decision a released task", "decision of a task").strip()


def validity_rows(
    tasks: list[Task],
    ratings: list[TaskRating],
    golds: list[GoldTarget],
    task_failures: list[Failure],
    scores: list[Score],
    control_scores: list[Score],
    th: Thresholds,
    attribution: dict[str, dict] | None = None,
) -> list[dict]:
    """One row per family (see the module docstring)."""
    released = {r.task_id for r in ratings if r.released}
    rating_of = {r.task_id: r for r in ratings}
    gold_of = {g.task_id: g for g in golds}
    fams = list(dict.fromkeys(t.family for t in tasks))
    rows = []
    for fam in fams:
        built = [t for t in tasks if t.family == fam]
        rel = [t for t in built if t.task_id in released]
        rel_ids = {t.task_id for t in rel}
        reasons = Counter()
        for f in task_failures:
            if f"-{fam}-" in f.item_id:
                reasons[reason_kind(f.reason.split(":")[0] + ": " + f.reason.split(":", 1)[-1].strip())] += 1
        for t in built:
            if t.task_id not in released and t.task_id in rating_of:
                reasons[reason_kind(rating_of[t.task_id].note or "not released")] += 1
        by_method: dict[str, list[float]] = defaultdict(list)
        for s in control_scores + scores:
            if s.task_id in rel_ids and s.fta is not None:
                by_method[s.method].append(s.fta)
        means = {m: _mean(v) for m, v in sorted(by_method.items())}
        # per task (seeds and random draws averaged): the statistical control checks
        checks = control_checks(per_task(control_scores, rel_ids), th)
        methods = {m: v for m, v in means.items() if not m.startswith("control:")}
        link = defaultdict(list)
        for s in scores:
            if s.task_id in rel_ids and s.trace_linkage is not None:
                link[s.method].append(s.trace_linkage)
        rel_golds = [gold_of[t.task_id] for t in rel if t.task_id in gold_of]
        stability = _mean([g.numbers.get("stability_top1") for g in rel_golds])
        verified = [g.numbers.get("claims_verified") for g in rel_golds]
        claim_rate = (
            round(sum(v for v in verified if v is not None) / sum(len(g.claims) for g in rel_golds), 4)
            if rel_golds and all(v is not None for v in verified) and any(g.claims for g in rel_golds)
            else None
        )
        agreement = _mean([g.numbers.get("measures_agree") for g in rel_golds])
        row = {
            "family": fam,
            "tasks_built": len(built),
            "tasks_released": len(rel),
            "tasks_dropped": len(built)
            - len(rel)
            + sum(reasons[k] for k in reasons if k.startswith("curation") or k.startswith("draft")),
            "drop_reasons": json.dumps(dict(reasons.most_common()), ensure_ascii=False),
            **{k.replace("control:", "control_"): means.get(k) for k in ("control:gold", "control:random", *NO_JUDGEMENT)},
            "methods": json.dumps(methods),
            "trace_linkage": json.dumps({m: _mean(v) for m, v in link.items()}),
            "best_method": max(methods, key=lambda m: methods[m] or -1) if methods else None,
            "gold_stability": stability,
            "claim_bank_verified": claim_rate,
            "measure_agreement": agreement,
            **duplicates(rel, gold_of),
            # attribution completeness of the controls (assets/artifacts/controls.py), next to the
            # methods' (judge_scores values["attribution"])
            "attribution_controls": json.dumps((attribution or {}).get(fam, {})),
            "attribution_methods": json.dumps({m: _mean(v) for m, v in _attribution(scores, rel_ids).items()}),
        }
        row.update(checks)
        row.update(option_figures(rel, gold_of))
        row["best_method_fta"] = methods.get(row["best_method"]) if row["best_method"] else None
        row["problems"] = "; ".join(problems(row, th))
        row["passed"] = not row["problems"]
        row["notes"] = "; ".join(control_notes(row, th))
        rows.append(row)
    return rows


def option_figures(released: list[Task], gold_of: dict[str, GoldTarget]) -> dict:
    """For released tasks whose options are directions or approaches: how many option names are
    one word (each must be a recognised name, `core.phrases.one_word_problem`), and how many
    released tasks carry a hard defect (`assets.ranking.defects`; the gate keeps them out, so 0)."""

    def has_option_gold(t: Task) -> bool:
        gold = gold_of.get(t.task_id)
        return gold is not None and any(k.startswith("prior_count:") for k in gold.numbers)

    names = [option_name(o.text) for t in released if has_option_gold(t) for o in t.options]
    defective = sum(bool(option_defects(t, gold_of.get(t.task_id))) for t in released)
    one_word = [n for n in names if len(n.split()) == 1]
    return {
        "option_names": len(names),
        "one_word_options": len(one_word),
        "one_word_option_share": round(len(one_word) / len(names), 4) if names else None,
        "released_with_defects": defective,
    }


def _attribution(scores: list[Score], task_ids: set[str]) -> dict[str, list[float]]:
    out: dict[str, list[float]] = defaultdict(list)
    for s in scores:
        if s.task_id in task_ids and s.values.get("attribution") is not None:
            out[s.method].append(s.values["attribution"])
    return dict(sorted(out.items()))


def problems(row: dict, th: Thresholds) -> list[str]:
    """Every threshold a family row misses, in words. The control checks count only when the
    row is gated (`controls_gated`: >= `min_gated_tasks` released tasks); an empty family is no
    failure unless it is gated (`assets/validity/statistics.py`)."""
    if not row["tasks_released"]:
        return ["empty family: no released task"] if th.min_gated_tasks <= 0 else []
    out = []
    gold = row["control_gold"]
    if gold is None or gold < th.gold_min:
        out.append(f"gold answer scores {gold} < {th.gold_min}")
    if row.get("controls_gated"):
        out += control_problems(row, th)
    if row["gold_stability"] is None or row["gold_stability"] < th.gold_stability_min:
        out.append(f"gold top-1 stability {row['gold_stability']} < {th.gold_stability_min}")
    if row["claim_bank_verified"] is None or row["claim_bank_verified"] < th.claim_bank_verified_min:
        out.append(f"claim bank verified {row['claim_bank_verified']} < {th.claim_bank_verified_min}")
    for k, v in json.loads(row.get("attribution_controls") or "{}").items():
        if k in ("control:empty", "control:generic") and v is not None and v > th.attribution_control_max:
            out.append(f"{k} attribution {v} > {th.attribution_control_max}")
    dup = row["duplicate_titles"] + row["duplicate_option_sets"] + row["duplicate_golds"]
    if dup > th.duplicates_max:
        out.append(f"{dup} duplicates > {th.duplicates_max}")
    return out


def control_check_rows(rows: list[dict], th: Thresholds) -> list[dict]:
    """One row per family x no-judgement control (the `validity_control_checks` table): mean,
    chance line, excess over chance, its one-sided lower bound, whether that beats the margin,
    whether the family is gated, and whether the check fails."""
    out = []
    for row in rows:
        for k in NO_JUDGEMENT:
            c = k.replace("control:", "control_")
            beats = row.get(f"{c}_beats_margin")
            out.append(
                {
                    "family": row["family"],
                    "control": k,
                    "tasks": row.get("control_tasks") or 0,
                    "mean": row.get(c),
                    "control_random": row.get("control_random"),
                    "excess": row.get(f"{c}_excess"),
                    "excess_low": row.get(f"{c}_excess_low"),
                    "margin": th.control_margin,
                    "beats_margin": beats,
                    "gated": bool(row.get("controls_gated")),
                    "min_gated_tasks": th.min_gated_tasks,
                    "fails": bool(row.get("controls_gated") and beats),
                }
            )
    return out


def status(row: dict) -> str:
    """ "FAIL: <problems>", "EMPTY" (no released task, not failing), "PASS" or "PASS (controls not
    gated)" when the row passes but its control checks rest on too few tasks to decide anything."""
    if not row["passed"]:
        return "FAIL: " + row["problems"]
    if not row["tasks_released"]:
        return "EMPTY: no released task (not a failed control)"
    return "PASS" if row.get("controls_gated", True) else "PASS (controls not gated)"


def summary_line(row: dict) -> str:
    """One line per family for the demo: best baseline vs chance vs gold answer."""
    fmt = lambda v: "–" if v is None else f"{v:.3f}"  # noqa: E731
    return (
        f"{row['family']:>10}: best baseline {row['best_method'] or '–'} {fmt(row['best_method_fta'])} | "
        f"chance {fmt(row['control_random'])} | gold answer {fmt(row['control_gold'])} | {status(row)}"
    )


def control_line(row: dict) -> str:
    """The no-judgement controls of a row: mean, excess over chance and its one-sided 95% lower bound."""
    parts = []
    for k in NO_JUDGEMENT:
        c = k.replace("control:", "control_")
        mean, ex, low = row.get(c), row.get(f"{c}_excess"), row.get(f"{c}_excess_low")
        text = f"{k.removeprefix('control:').replace('_', ' ')} {'–' if mean is None else mean}"
        if ex is not None:
            text += f" ({ex:+.3f} vs chance, 95% lower bound {'–' if low is None else format(low, '+.3f')})"
        parts.append(text)
    return "controls: " + ", ".join(parts)

"""The benchmark release card: one card over every partition (domain x cutoff) of a release.

A release of the benchmark is the per-partition release packages (`release_package`, one per
domain x cutoff) of the release's cutoffs, read together. The card says what is in it and how
far to trust it (plain functions, no Dagster; `pipelines/release.py` builds the partitions, reads them from
the warehouse (`read_partition`) and materializes the `release_card` asset that calls these):

* **cutoffs and windows**: each cutoff with its horizon and future window, the domains, and
  every partition's release version (the hash of its manifest), so the card names exactly
  the files it describes;
* **tasks per family x domain x cutoff**: built (the `tasks` table), released (the tasks in the
  partition's published `tasks.jsonl`) and dropped, with the reasons of the validity report
  (`validity_report.drop_reasons`: curation drops of drafts, and the ranking's notes on built
  tasks it held back), summed per family over the release;
* **validity per family**, over the release's released tasks pooled
  (`assets.validity.statistics.pooled_control_checks` on each partition's `validity_controls`):
  the gold answer's and the chance line's mean FTA, each no-judgement control's mean, its
  excess over chance and the one-sided 95% lower bound of that excess, whether the check is
  gated (>= `min_gated_tasks` tasks) and passed; the methods' mean FTA over the same tasks
  (seeds averaged per task first) and the best of them; and how many partitions' family rows
  pass, fail or are empty (`assets.validity.report.status`);
* **independent tasks per family** (`assets.release.independence`): released, duplicates by
  rule, and the effective number of independent decisions;
* **target**: ForeSci's release size (125 released tasks in each of its four families, 500 in
  all; `FORESCI_TARGET`) against this release's counts.

The card is canonical JSON (sorted keys, no timestamps): the same partitions give the same
bytes, and its version is the hash of that JSON. Public files: `card.json` and `card.md`;
the duplicate groups (task ids, resting on hidden gold and projects) go to the hidden
`independence.jsonl`. Written under `<warehouse>/public/_artifacts/releases/benchmark/<version>/`
(hidden: `<warehouse>/hidden/_artifacts/...`) and copied to `.../_artifacts/release/benchmark/`.


Length (over ~500 lines on purpose): the release card is one document: counts, drop reasons,
independence, the gate and the method statistics, each a small function, kept together so the card's
sections stay consistent."""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import dataclass, field
from statistics import fmean

from assets.families.registry import FORESCI_TARGET
from assets.leaderboard.statistics import STATISTICS_NOTE, method_statistics, pairwise_text, release_task_rows
from assets.release.independence import FAMILY_ORDER, RULES, Decision, decision_of, independence
from assets.release.logic import canonical_jsonl, sha256
from assets.validity.controls import NO_JUDGEMENT
from assets.validity.report import status
from assets.validity.statistics import GOLD, RANDOM, column, per_task, pooled_control_checks
from core.records import GoldTarget, Score, Signal, Task, TaskBuild
from core.thresholds import Thresholds
from core.visibility import artifact_visibility

CARD_FORMAT = "foresci-benchmark-release/1"
DROP_REASONS_SHOWN = 8  # per family in card.md
CARD_KIND = "benchmark"  # the folder of the release-level files under _artifacts/release(s)/


@dataclass
class PartitionData:
    """What the card reads of one released partition."""

    domain: str
    cutoff: str
    horizon_months: int
    window_start: str
    window_end: str
    manifest: dict  # the partition's release manifest (release_package)
    built: list[Task]  # the `tasks` table: every task built
    released: list[Task]  # the published tasks.jsonl (presentation order applied)
    golds: dict[str, GoldTarget]  # the published gold.jsonl (hidden), by task id
    builds: dict[str, TaskBuild] = field(default_factory=dict)  # hidden construction records
    validity: list[dict] = field(default_factory=list)  # validity_report rows
    controls: list[Score] = field(default_factory=list)  # validity_controls (released tasks)
    scores: list[Score] = field(default_factory=list)  # judge_scores
    subjects: dict[str, str] = field(default_factory=dict)  # task id -> the direction it sits in (`task_subjects`)

    @property
    def label(self) -> str:
        return f"{self.domain}@{self.cutoff}"


def task_subjects(tasks: list[Task], builds: dict[str, TaskBuild], signals: dict[str, Signal]) -> dict[str, str]:
    """Task id -> the direction a task's options sit in, for the tasks whose signals name one
    (`details["direction_name"]`: the approach signals of the tasks that rank approaches inside a
    direction, named as their builder names its subject). Keyed by what the signals carry, not by
    family, so the card names no family."""
    out = {}
    for t in tasks:
        b = builds.get(t.task_id)
        if b is None:
            continue
        names = [signals[s].details.get("direction_name", [""])[0] for s in b.signal_ids if s in signals]
        names = [n for n in names if n]
        if names:
            out[t.task_id] = names[0]
    return out


def family_key(fam: str) -> tuple:
    return (FAMILY_ORDER.index(fam) if fam in FAMILY_ORDER else len(FAMILY_ORDER), fam)


def decisions(parts: list[PartitionData]) -> list[Decision]:
    return [
        decision_of(t, p.builds.get(t.task_id), p.golds.get(t.task_id), subject=p.subjects.get(t.task_id, ""))
        for p in parts
        for t in p.released
    ]


def release_card(
    parts: list[PartitionData],
    *,
    cutoffs: list[dict],
    domains: list[str],
    name: str = "",
    missing: list[str] = (),
    th: Thresholds | None = None,
) -> tuple[dict, list[dict]]:
    """(card, hidden independence rows) of a release made of `parts`.

    `cutoffs`: the release's cutoffs in order, each {cutoff, horizon_months, window_start,
    window_end}; `domains`: its domains; `missing`: partitions of the release that are not built
    (named in the card; a complete release has none)."""
    th = th or Thresholds.load()
    parts = sorted(parts, key=lambda p: (p.cutoff, p.domain))
    fams = sorted({t.family for p in parts for t in p.built} | {t.family for p in parts for t in p.released}, key=family_key)
    table, fam_tot = (
        [],
        {
            f: {
                "built": 0,
                "released": 0,
                "dropped": 0,
                "drop_reasons": Counter(),
                "by_cutoff": Counter(),
                "by_domain": Counter(),
            }
            for f in fams
        },
    )
    for p in parts:
        rows = {r["family"]: r for r in p.validity}
        for f in fams:
            built = sum(t.family == f for t in p.built)
            released = sum(t.family == f for t in p.released)
            row = rows.get(f)
            reasons = json.loads(row["drop_reasons"]) if row and row.get("drop_reasons") else {}
            dropped = int(row["tasks_dropped"]) if row else built - released
            if not (built or released or dropped):
                continue
            table.append(
                {
                    "family": f,
                    "domain": p.domain,
                    "cutoff": p.cutoff,
                    "built": built,
                    "released": released,
                    "dropped": dropped,
                    "drop_reasons": dict(sorted(reasons.items())),
                    "validity": status(row) if row else "no validity row",
                }
            )
            tot = fam_tot[f]
            tot["built"] += built
            tot["released"] += released
            tot["dropped"] += dropped
            tot["drop_reasons"].update(reasons)
            tot["by_cutoff"][p.cutoff] += released
            tot["by_domain"][p.domain] += released
    indep = independence(decisions(parts), [c["cutoff"] for c in cutoffs])
    validity = validity_figures(parts, fams, th)
    families = {}
    for f in fams:
        tot, ind = fam_tot[f], indep.families.get(f, {})
        families[f] = {
            "built": tot["built"],
            "released": tot["released"],
            "dropped": tot["dropped"],
            "drop_reasons": dict(sorted(tot["drop_reasons"].items(), key=lambda kv: (-kv[1], kv[0]))),
            "released_by_cutoff": dict(sorted(tot["by_cutoff"].items())),
            "released_by_domain": dict(sorted(tot["by_domain"].items())),
            "duplicates": ind.get("duplicates", 0),
            "duplicates_by_rule": ind.get("duplicates_by_rule", {r: 0 for r in RULES}),
            "effective": ind.get("effective", 0),
        }
    released_total = sum(f["released"] for f in families.values())
    short = {f: max(0, FORESCI_TARGET["per_family"] - families.get(f, {}).get("released", 0)) for f in FORESCI_TARGET["families"]}
    foresci_total = sum(families.get(f, {}).get("released", 0) for f in FORESCI_TARGET["families"])
    card = {
        "format": CARD_FORMAT,
        "name": name,
        "cutoffs": cutoffs,
        "domains": sorted(domains),
        "partitions": [
            {
                "domain": p.domain,
                "cutoff": p.cutoff,
                "release_version": p.manifest.get("release_version"),
                "tasks": len(p.released),
                "kb_papers": p.manifest.get("counts", {}).get("kb_papers"),
            }
            for p in parts
        ],
        "missing_partitions": sorted(missing),
        "totals": {
            "built": sum(f["built"] for f in families.values()),
            "released": released_total,
            "dropped": sum(f["dropped"] for f in families.values()),
            "duplicates": sum(f["duplicates"] for f in families.values()),
            "effective": indep.effective,
        },
        "families": families,
        "table": table,
        "validity": validity,
        "gate": {
            "partition_rows_failing": [
                f"{r['family']} {r['domain']}@{r['cutoff']}: {r['validity']}" for r in table if r["validity"].startswith("FAIL")
            ],
            "pooled_failing": [f"{f}: {v['problems']}" for f, v in validity.items() if not v["passed"]],
            "released_with_defects": sum(int(r.get("released_with_defects") or 0) for p in parts for r in p.validity),
        },
        "target": {
            **{k: list(v) if isinstance(v, tuple) else v for k, v in FORESCI_TARGET.items()},
            "foresci_families_released": foresci_total,
            "short_per_family": short,
            "met": not any(short.values()) and foresci_total >= FORESCI_TARGET["total"],
        },
        "thresholds": {
            "gold_min": th.gold_min,
            "control_margin": th.control_margin,
            "control_alpha": th.control_alpha,
            "min_gated_tasks": th.min_gated_tasks,
        },
    }
    card["gate"]["passed"] = not (
        card["gate"]["partition_rows_failing"]
        or card["gate"]["pooled_failing"]
        or card["gate"]["released_with_defects"]
        or card["missing_partitions"]
    )
    card["statistics"] = release_statistics(parts)
    card["card_version"] = sha256(json.dumps(card, sort_keys=True).encode())[:16]
    hidden = [{"kind": "group", **g} for g in indep.groups if g["members"]]
    hidden += [{"kind": "pair", **p} for p in indep.pairs]
    return card, hidden


def validity_figures(parts: list[PartitionData], fams: list[str], th: Thresholds) -> dict[str, dict]:
    """Per family over the released tasks of every partition pooled: the pooled control check
    (gold, chance, each no-judgement control), the methods' mean FTA and the best one, and the
    partition rows' statuses."""
    pooled = {r["family"]: r for r in pooled_control_checks({p.label: p.controls for p in parts}, th, families=fams)}
    out = {}
    for f in fams:
        row = pooled[f]
        released = {(p.label, t.task_id) for p in parts for t in p.released if t.family == f}
        scores = [(p.label, s) for p in parts for s in p.scores if s.family == f and (p.label, s.task_id) in released]
        label_of = {id(s): lab for lab, s in scores}
        by_method = per_task([s for _, s in scores], key=lambda s: (label_of[id(s)], s.task_id))
        methods = {m: round(fmean(v.values()), 4) for m, v in sorted(by_method.items()) if v}
        best = max(methods, key=methods.get) if methods else None
        states = Counter()
        for p in parts:
            for r in p.validity:
                if r["family"] == f:
                    s = status(r)
                    states[
                        "failed"
                        if s.startswith("FAIL")
                        else "empty"
                        if s.startswith("EMPTY")
                        else "passed"
                        if s == "PASS"
                        else "passed, controls not gated"
                    ] += 1
        out[f] = {
            "tasks": row["tasks_released"],
            "partitions": row["n_partitions"],
            "gold_answer": row[column(GOLD)],
            "chance": row[column(RANDOM)],
            "controls": {
                k.removeprefix("control:"): {
                    "mean": row[column(k)],
                    "excess": row[f"{column(k)}_excess"],
                    "excess_low": row[f"{column(k)}_excess_low"],
                    "beats_margin": row[f"{column(k)}_beats_margin"],
                }
                for k in NO_JUDGEMENT
            },
            "controls_gated": row["controls_gated"],
            "min_gated_tasks": row["min_gated_tasks"],
            "passed": row["passed"],
            "problems": row["problems"],
            "notes": row["notes"],
            "methods": methods,
            "best_method": best,
            "best_method_fta": methods.get(best) if best else None,
            "partition_rows": dict(sorted(states.items())),
        }
    return out


# -- the markdown card --------------------------------------------------------------------------


def _f(v, spec: str = ".3f") -> str:
    return "–" if v is None else format(v, spec)


def card_markdown(card: dict) -> str:
    """The card as a reader reads it (every figure is in card.json too)."""
    fams = sorted(card["families"], key=family_key)
    cut = [c["cutoff"] for c in card["cutoffs"]]
    t = card["totals"]
    lines = [
        f"# foresci benchmark release{(' ' + card['name']) if card['name'] else ''} (card {card['card_version']})",
        "",
        f"{t['released']} released tasks ({t['effective']} independent decisions) over {len(card['domains'])} "
        f"domains and {len(cut)} cutoffs, from {t['built']} built tasks; {len(card['partitions'])} partitions"
        + (
            f", {len(card['missing_partitions'])} MISSING: {', '.join(card['missing_partitions'])}"
            if card["missing_partitions"]
            else ""
        )
        + ".",
        "",
        "Answer every task with the knowledge base of its own cutoff only: a later cutoff's public "
        "tasks and papers are future evidence for an earlier cutoff's tasks.",
        "",
        "## Cutoffs",
        "",
        "| cutoff | horizon | future window | released |",
        "|---|---|---|---|",
    ]
    by_cut = Counter()
    for p in card["partitions"]:
        by_cut[p["cutoff"]] += p["tasks"]
    for c in card["cutoffs"]:
        lines.append(
            f"| {c['cutoff']} | {c['horizon_months']} months | {c['window_start']} .. {c['window_end']} | "
            f"{by_cut.get(c['cutoff'], 0)} |"
        )
    lines += [
        "",
        "## Tasks per family",
        "",
        "| family | built | released | dropped | duplicates (question / project / gold) | independent |",
        "|---|---|---|---|---|---|",
    ]
    for f in fams:
        x = card["families"][f]
        r = x["duplicates_by_rule"]
        lines.append(
            f"| {f} | {x['built']} | {x['released']} | {x['dropped']} | {x['duplicates']} "
            f"({r['same_question']} / {r['same_project']} / {r['same_gold']}) | {x['effective']} |"
        )
    lines.append(f"| all | {t['built']} | {t['released']} | {t['dropped']} | {t['duplicates']} | {t['effective']} |")
    tg = card["target"]
    lines += [
        "",
        f"ForeSci's release size: {tg['per_family']} released tasks in each of "
        f"{', '.join(tg['families'])} and {tg['total']} in all: "
        + (
            "met."
            if tg["met"]
            else "NOT met ("
            + ", ".join(f"{f} {n} short" for f, n in tg["short_per_family"].items() if n)
            + f"; {tg['foresci_families_released']} released in those families)."
        ),
    ]
    lines += [
        "",
        "### Released per family x domain x cutoff (released / built)",
        "",
        "| family | domain | " + " | ".join(cut) + " |",
        "|---|---|" + "---|" * len(cut),
    ]
    cell = {(r["family"], r["domain"], r["cutoff"]): r for r in card["table"]}
    for f in fams:
        for d in card["domains"]:
            vals = [cell.get((f, d, c)) for c in cut]
            if any(vals):
                lines.append(f"| {f} | {d} | " + " | ".join(f"{v['released']} / {v['built']}" if v else "–" for v in vals) + " |")
    lines += ["", "### Dropped, by reason (summed over partitions; every reason in card.json)", ""]
    for f in fams:
        reasons = sorted(card["families"][f]["drop_reasons"].items(), key=lambda kv: (-kv[1], kv[0]))
        lines.append(f"- **{f}** ({card['families'][f]['dropped']} dropped)" + ("" if reasons else ": none"))
        lines += [f"  - {v} × {k}" for k, v in reasons[:DROP_REASONS_SHOWN]]
        if len(reasons) > DROP_REASONS_SHOWN:
            rest = reasons[DROP_REASONS_SHOWN:]
            lines.append(f"  - {sum(v for _, v in rest)} × one of {len(rest)} other reasons")
    lines += [
        "",
        "## Validity per family (released tasks of every partition pooled)",
        "",
        "| family | tasks | best method (FTA) | chance | gold answer | closest no-judgement control: excess over "
        "chance (95% lower bound) | pooled check | partition rows |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for f, v in sorted(card["validity"].items(), key=lambda kv: family_key(kv[0])):
        worst = max(v["controls"].items(), key=lambda kv: -9 if kv[1]["excess_low"] is None else kv[1]["excess_low"])
        check = (
            ("FAIL: " + v["problems"])
            if not v["passed"]
            else (
                "EMPTY"
                if not v["tasks"]
                else "PASS"
                if v["controls_gated"]
                else f"not gated ({v['tasks']} < {v['min_gated_tasks']} tasks)"
            )
        )
        rows = ", ".join(f"{k} {n}" for k, n in v["partition_rows"].items()) or "–"
        lines.append(
            f"| {f} | {v['tasks']} | {v['best_method'] or '–'} ({_f(v['best_method_fta'])}) | "
            f"{_f(v['chance'])} | {_f(v['gold_answer'])} | {worst[0]} {_f(worst[1]['excess'], '+.3f')} "
            f"({_f(worst[1]['excess_low'], '+.3f')}) | {check} | {rows} |"
        )
    g = card["gate"]
    lines += [
        "",
        "Gate: "
        + (
            "every partition's family rows and every pooled check pass, no released task "
            "with a hard defect, no partition missing."
            if g["passed"]
            else "NOT passed."
        ),
    ]
    if card["missing_partitions"]:
        lines.append(f"- missing partitions: {', '.join(card['missing_partitions'])}")
    lines += [f"- {x}" for x in g["partition_rows_failing"] + g["pooled_failing"]]
    if g["released_with_defects"]:
        lines.append(f"- {g['released_with_defects']} released tasks with a hard defect")
    if card.get("statistics"):
        lines += ["", statistics_markdown(card["statistics"]).rstrip("\n")]
    lines += [
        "",
        "## Independent tasks",
        "",
        'Released tasks that carry the same decision count once (docs/releases.md, "Independent tasks"): '
        "the same question about the same objects at equal or consecutive cutoffs (any domain), the same "
        "project paper (venue, phase) in two domains or at two cutoffs, or the same gold decision in one "
        "partition (gold top options naming the same thing, in any two families; phase gold keypoints "
        "sharing a sentence). Each group is credited to its first task by family order "
        f"({', '.join(FAMILY_ORDER)}), then cutoff.",
        "",
        "## Partitions",
        "",
        "| domain | cutoff | release version | tasks | KB papers |",
        "|---|---|---|---|---|",
    ]
    for p in card["partitions"]:
        lines.append(f"| {p['domain']} | {p['cutoff']} | {p['release_version']} | {p['tasks']} | {p['kb_papers']} |")
    return "\n".join(lines) + "\n"


# -- files ---------------------------------------------------------------------------------------


def card_files(card: dict, hidden_rows: list[dict]) -> dict[str, bytes]:
    """The release-level files: card.json, card.md (public) and independence.jsonl (hidden)."""
    return {
        "card.json": (json.dumps(card, sort_keys=True, indent=2, ensure_ascii=False) + "\n").encode(),
        "card.md": card_markdown(card).encode(),
        "independence.jsonl": canonical_jsonl(hidden_rows),
    }


def card_path(store, name: str, version: str | None = None) -> str:
    """Where a release-level file goes: `<visibility>/_artifacts/releases/benchmark/<version>/<name>`,
    or the latest copy `<visibility>/_artifacts/release/benchmark/<name>` when `version` is None."""
    where = f"releases/{CARD_KIND}/{version}" if version else f"release/{CARD_KIND}"
    return f"{store.base}/{artifact_visibility(name)}/_artifacts/{where}/{name}"


def write_card(store, card: dict, hidden_rows: list[dict]) -> dict[str, str]:
    """Write the files under the card's version and as the latest copy; returns name -> path of
    the versioned files."""
    version = card["name"] or f"r-{card['card_version']}"
    written = {}
    for name, data in card_files(card, hidden_rows).items():
        written[name] = store.write_bytes(card_path(store, name, version), data)
        store.write_bytes(card_path(store, name), data)
    return written


def summary_lines(card: dict) -> list[str]:
    """A few lines for the terminal: per family built / released / duplicates / independent."""
    out = [f"{'family':>10}  built  released  dropped  duplicates  independent"]
    for f, x in sorted(card["families"].items(), key=lambda kv: family_key(kv[0])):
        out.append(
            f"{f:>10}  {x['built']:>5}  {x['released']:>8}  {x['dropped']:>7}  {x['duplicates']:>10}  {x['effective']:>11}"
        )
    t = card["totals"]
    out.append(
        f"{'all':>10}  {t['built']:>5}  {t['released']:>8}  {t['dropped']:>7}  {t['duplicates']:>10}  {t['effective']:>11}"
    )
    return out


# -- method statistics over the release (issue 24: the export's dataset card renders these) -------


def release_statistics(parts: list[PartitionData]) -> dict:
    """Per family x method over the released tasks of every partition pooled (a task is
    (domain, cutoff, task id)): mean FTA with its bootstrap 95% interval, the MDD at 80% power
    and every other metric's mean, and the paired FTA verdicts ("differs" / "cannot tell");
    `assets.leaderboard.statistics.method_statistics`, the function `foresci leaderboard` uses,
    on the same task rows (answers averaged per task x method)."""
    rows, pairs = method_statistics(
        release_task_rows((p.domain, p.cutoff, {t.task_id for t in p.released}, p.scores) for p in parts)
    )
    return {"methods": rows, "pairwise": pairs, "rules": STATISTICS_NOTE}


def statistics_markdown(stats: dict, heading: str = "##") -> str:
    """The statistics of `release_statistics` as markdown: a table per family x method, then one
    line per pair of methods with its verdict."""
    lines = [
        f"{heading} Methods per family (released tasks of every cutoff and domain pooled)",
        "",
        "| family | method | tasks | mean FTA | 95% CI | MDD (80% power) | trace linkage |",
        "|---|---|---|---|---|---|---|",
    ]
    for r in sorted(stats["methods"], key=lambda r: (family_key(r["family"]), -(r["fta"] if r["fta"] is not None else -1))):
        ci = "–" if r["fta_ci_low"] is None else f"[{r['fta_ci_low']:.3f}, {r['fta_ci_high']:.3f}]"
        mdd = (
            "–"
            if r["mdd"] is None
            else f"{r['mdd']:.3f}" + ("" if r["mdd_sd_source"] == "own" else f" ({r['mdd_sd_source']} sd)")
        )
        lines.append(f"| {r['family']} | {r['method']} | {r['n']} | {_f(r['fta'])} | {ci} | {mdd} | {_f(r.get('trace_link'))} |")
    lines += ["", f"{heading}# Paired FTA comparisons", ""]
    pairs = sorted(stats["pairwise"], key=lambda p: (family_key(p["family"]), p["system_a"], p["system_b"]))
    lines += [f"- {p['family']}: {pairwise_text(p)}" for p in pairs] or ["- no two methods share a task"]
    verdicts = Counter(p["verdict"] for p in pairs)
    lines += ["", "Verdicts: " + (", ".join(f"{n} {v}" for v, n in sorted(verdicts.items())) or "none") + ". " + stats["rules"]]
    return "\n".join(lines) + "\n"

"""The ForeSci authors' task and hidden-evaluation formats, mapped decision by decision.

Their three public releases (half-year: 437 tasks at 2025-08-31; quarter: 96 at 2025-11-30;
refined: 422, mixed cutoffs) share one schema but ask six different decisions, told apart by
`subtype` (a "q1_" prefix marks the quarter variant of the same decision):

| subtype | family | decision | options | gold |
|---|---|---|---|---|
| chain_terminal_forecast | direction | name the next direction + a trajectory label | none (open) | slot primary_direction (future_terminal, emergent_descendants); trajectory (rule below) |
| pageindex_grounded_bottleneck | bottleneck | one bottleneck + the opportunity it opens | none | slots root_bottleneck, opportunity |
| agenda_priority_selection | planning | rank candidate directions | parsed from the question, else open | candidate_directions ordered by their future_paper_count (direction_records) |
| comparative_opportunity_prioritization | planning | A or B | the two named in the question | winner_display_name before loser_display_name |
| venue_targeted_planning | venue | rank directions for a named venue | parsed from the question, else open | as agenda_priority_selection; the target venue is a claim |
| venue_aware_direction_forecast | venue | a direction and its venue bucket | the five venue families (B.5) | likely_bucket's family first, then future top_venue_buckets |

**Options parsed from the question** (`question_options`): an enumeration "(1) X; (2) Y ..."
(separators `;`, `,`, "and", "or"; the last item ends at the sentence end); when a question
enumerates twice (polished questions repeat the list after "Consider only the following
candidate directions:"), the longest enumeration wins, the later one on a tie (it spells the
names in full). Pairwise questions name their two options as ": A or B?" or "—A or B—".
Options are matched to the gold's texts one to one by word-set Jaccard (`match_texts`,
best pairs first, at least MATCH_MIN_JACCARD); an option no gold text matches is ranked
after the matched ones in question order and a Failure row says so.

**Open tasks** (no options in the question): the gold ranking is a list of TEXTS and a
structured answer is scored by matching its texts to them (assets/scorers/fta.py).

**The trajectory rule** (docs/validity.md, "scores that reward commitment"): a trajectory
label is a scored slot only when it says more than the choice. In their releases the label
is almost constant (63 of 67 refined direction golds say "fragmenting"), so an answer that
always says it would be paid for no judgement. `importer.apply_trajectory_rule` keeps the label as the
gold's trajectory and a claim, but makes it a slot only when its share among the imported
golds of the family is at most TRAJECTORY_SLOT_MAX_SHARE.

**Hidden fields**: `READ` lists what the mapping reads; `NOT_USED` lists every other field
of their three releases with the reason it is not scored (docs/releases.md repeats it); a
field in neither is reported as unmapped.
"""

from __future__ import annotations

import re

from assets.families.imported import ImportedGold, humanise
from core.records import TaskOption

MATCH_MIN_JACCARD = 0.34  # an option and a gold text name the same direction from this word overlap on
TRAJECTORY_SLOT_MAX_SHARE = 0.5  # a label more than half the family's golds carry is not a slot
OPTION_LETTERS = "ABCDEFGHIJ"
MAX_OPTIONS = len(OPTION_LETTERS)

# subtype (without the "q1_" prefix) -> the decision it asks
DECISIONS = {
    "chain_terminal_forecast": "next_direction",
    "terminal_forecast": "next_direction",
    "pageindex_grounded_bottleneck": "bottleneck_opportunity",
    "agenda_priority_selection": "rank_directions",
    "comparative_opportunity_prioritization": "pairwise_priority",
    "venue_targeted_planning": "rank_directions_for_venue",
    "venue_aware_direction_forecast": "direction_and_venue",
}
FAMILY_DECISION = {
    "direction": "next_direction",
    "bottleneck": "bottleneck_opportunity",
    "planning": "rank_directions",
    "venue": "direction_and_venue",
}

_WORD = re.compile(r"[a-z0-9]+")
_ENUM_ITEM_END = re.compile(r"\s*(?:[;,]\s*)?(?:(?:and|or)\s+)?$")
_SENTENCE_END = re.compile(r"[.?!](?=\s|$)")
_PAIR = (re.compile(r"[:]\s*([^:?]+?)\s+or\s+([^?]+?)\?"), re.compile(r"[—–]\s*([^—–?]+?)\s+or\s+([^—–?]+?)\s*[—–]"))


def decision_of(subtype: str, family: str) -> str:
    """The decision a task asks, from its subtype (a "q1_" prefix is the quarter variant)."""
    key = (subtype or "").strip().lower()
    key = key[3:] if key.startswith("q1_") else key
    return DECISIONS.get(key) or FAMILY_DECISION.get(family, "")


def _words(text: str) -> set[str]:
    return set(_WORD.findall(str(text).lower()))


def jaccard(a: str, b: str) -> float:
    x, y = _words(a), _words(b)
    return len(x & y) / len(x | y) if x | y else 0.0


def _enumerations(question: str) -> list[list[str]]:
    out = []
    for start in re.finditer(r"\(1\)", question):
        items, pos, k = [], start.end(), 2
        while True:
            nxt = re.compile(rf"\({k}\)").search(question, pos)
            stop = _SENTENCE_END.search(question, pos)
            if nxt and (stop is None or nxt.start() <= stop.start()):
                items.append(_ENUM_ITEM_END.sub("", question[pos : nxt.start()]).strip())
                pos, k = nxt.end(), k + 1
                continue
            end = stop.start() if stop else len(question)
            items.append(question[pos:end].strip().rstrip(".;,"))
            break
        items = [i for i in items if i]
        if items:
            out.append(items)
    return out


def question_options(question: str, decision: str) -> list[str]:
    """The options a question lists itself (module docstring), in the question's order."""
    enums = _enumerations(question)
    if enums:
        best = max(len(e) for e in enums)
        return [e for e in enums if len(e) == best][-1][:MAX_OPTIONS]
    if decision == "pairwise_priority":
        for pat in _PAIR:
            m = pat.search(question)
            if m:
                return [m.group(1).strip(), m.group(2).strip()]
    return []


def match_texts(options: list[str], targets: list[str]) -> dict[int, int]:
    """Option index -> target index, one to one, best word-set Jaccard first (>= MATCH_MIN_JACCARD)."""
    pairs = sorted(((jaccard(o, t), -i, -j, i, j) for i, o in enumerate(options) for j, t in enumerate(targets)), reverse=True)
    out: dict[int, int] = {}
    used: set[int] = set()
    for score, _, _, i, j in pairs:
        if score < MATCH_MIN_JACCARD:
            break
        if i not in out and j not in used:
            out[i] = j
            used.add(j)
    return out


def options_for(row: dict, decision: str, venue_families: tuple[str, ...]) -> list[TaskOption]:
    """A task's options: an explicit `options` field (a foresci extension), else those its
    question lists, else the venue families for a direction-and-venue question."""
    raw = row.get("options") or (row.get("deliverable_spec") or {}).get("options") or []
    texts: list[str] = []
    for item in raw:
        texts.append(str(item.get("text")) if isinstance(item, dict) else str(item))
    if not texts and decision in ("rank_directions", "pairwise_priority", "rank_directions_for_venue"):
        texts = question_options(str(row.get("question", "")), decision)
    if not texts and decision == "direction_and_venue":
        texts = list(venue_families)
    ids = (
        [
            str(item.get("option_id")) if isinstance(item, dict) and item.get("option_id") else OPTION_LETTERS[i]
            for i, item in enumerate(raw)
        ]
        if raw
        else [OPTION_LETTERS[i] for i in range(len(texts))]
    )
    return [TaskOption(option_id=i, text=t) for i, t in zip(ids, texts)]


# --------------------------------------------------------------------------------------
# gold, per decision
# --------------------------------------------------------------------------------------


def _names(items) -> list[str]:
    out = []
    for x in items or []:
        name = (x.get("display_name") or x.get("name") or "") if isinstance(x, dict) else str(x)
        if str(name).strip():
            out.append(humanise(name))
    return out


def ranked_candidates(gt: dict) -> list[str]:
    """The gold ranking of a rank-the-directions task, as texts: `preferred_ranking` if given,
    else candidate_directions ordered by their future_paper_count in direction_records
    (a candidate without a record keeps its place after the counted ones), else the winner
    before the loser of a pairwise task (`gold_ranking` falls back on the numbered list of
    their gold answer when the hidden row ranks nothing: 57 half-year and 33 quarter tasks)."""
    given = [str(x) for x in gt.get("preferred_ranking") or [] if str(x).strip()]
    if given:
        return given
    cands = _names(gt.get("candidate_directions"))
    if cands:
        counts = {}
        for rec in gt.get("direction_records") or []:
            if isinstance(rec, dict) and rec.get("future_paper_count") is not None:
                counts[humanise(rec.get("display_name", "")).lower()] = float(rec["future_paper_count"])
        order = sorted(range(len(cands)), key=lambda i: (-(counts.get(cands[i].lower(), -1.0)), i))
        return [cands[i] for i in order]
    pair = [humanise(gt.get(k, "")) for k in ("winner_display_name", "loser_display_name") if gt.get(k)]
    return pair


def ranking_to_options(options: list[TaskOption], texts: list[str]) -> tuple[list[str], list[str]]:
    """(the gold ranking as option ids, options no gold text matched)."""
    m = match_texts([o.text for o in options], texts)
    ranked = sorted(m, key=lambda i: m[i])
    unmatched = [options[i].option_id for i in range(len(options)) if i not in m]
    return [options[i].option_id for i in ranked] + unmatched, unmatched


def gold_direction(gt: dict, out: ImportedGold) -> None:
    names = []
    if isinstance(gt.get("future_terminal"), dict):
        names += _names([gt["future_terminal"]])
    names += [n for n in _names(gt.get("emergent_descendants")) if n not in names]
    out.slot("primary_direction", names)
    out.trajectory = (gt.get("trajectory") or {}).get("trajectory_label") or None
    if names:
        out.claim(
            f"Between {out.task.window_start} and {out.task.window_end}, {names[0]} is the realised next direction.",
            "future-realisation",
            out.scope,
            1.0,
        )
    if out.trajectory and names:
        out.claim(
            f"Between {out.task.window_start} and {out.task.window_end}, {names[0]} is {out.trajectory}.",
            "future-realisation",
            out.scope,
            0.8,
        )


def gold_bottleneck(gt: dict, out: ImportedGold, answer: str) -> None:
    lim = sorted(
        (x for x in gt.get("historical_limitation_cluster") or [] if isinstance(x, dict)),
        key=lambda x: -float(x.get("count", 0) or 0),
    )
    sentences = split_sentences(answer)
    # their gold answer states the bottleneck first and the opportunity after it
    out.slot("root_bottleneck", sentences[:1] + [x.get("name", "") for x in lim] + [x.get("description", "") for x in lim])
    opp = _names(gt.get("realized_opportunity_directions"))
    out.slot("opportunity", (sentences[-1:] if len(sentences) > 1 else []) + opp)
    out.preferred = [x.get("name", "") for x in lim if x.get("name")]
    for o in opp[:3]:
        out.claim(f"After {out.task.cutoff}, work on {o} was realised.", "taxonomy", out.scope, 0.5)


def gold_ranking(gt: dict, out: ImportedGold, problems: list[str], answer: str = "") -> None:
    texts = ranked_candidates(gt)
    if not texts and answer:  # no candidates in the hidden row: the ranked list of their gold answer
        enums = _enumerations(answer)
        texts = max(enums, key=len) if enums else []
        if texts:
            problems.append("no candidate_directions: the gold ranking is the numbered list of their gold answer")
    task = out.task
    if task.options:
        out.preferred, unmatched = ranking_to_options(task.options, texts)
        if unmatched:
            problems.append(f"options {unmatched} match no gold candidate (ranked last)")
        if not texts:
            out.preferred = []
    else:
        out.preferred = texts
    if not texts:
        problems.append("the gold ranks nothing (no candidate_directions, preferred_ranking or winner/loser)")
        return
    top = texts[0]
    out.slot("top_priority", [top])
    out.claim(f"{top} should be the top priority for a plan starting after {task.cutoff}.", "future-realisation", out.scope, 0.9)


def gold_venue_direction(gt: dict, out: ImportedGold, venue_buckets: dict[str, str]) -> None:
    vf = gt.get("venue_forecast") or {}
    buckets = vf.get("top_venue_buckets") or (gt.get("future_half_stats") or {}).get("top_venue_buckets") or {}
    counts: dict[str, float] = {}
    for bucket, n in buckets.items():
        fam = venue_buckets.get(str(bucket).upper())
        if fam:
            counts[fam] = counts.get(fam, 0.0) + float(n)
    likely = venue_buckets.get(str(vf.get("likely_bucket") or "").upper())
    ranked = ([likely] if likely else []) + sorted((f for f in counts if f != likely), key=lambda f: (-counts[f], f))
    by_text = {o.text: o.option_id for o in out.task.options}
    preferred = [by_text[f] for f in ranked if f in by_text]
    out.preferred = preferred + [o.option_id for o in out.task.options if o.option_id not in preferred and preferred]
    if ranked:
        out.slot("best_venue", [ranked[0]] + ([vf["likely_bucket"]] if vf.get("likely_bucket") else []))
        out.claim(f"{ranked[0]} is the best fit in the next venue cycle.", "venue", out.scope, 1.0)
    names = _names([gt["future_terminal"]]) if isinstance(gt.get("future_terminal"), dict) else []
    if names:
        out.claim(
            f"Between {out.task.window_start} and {out.task.window_end}, {names[0]} is the realised next direction.",
            "future-realisation",
            out.scope,
            0.8,
        )


def target_venue_claim(gt: dict, out: ImportedGold) -> None:
    bucket = gt.get("target_venue_bucket")
    if bucket:
        out.claim(f"The ranking is for {bucket}-like venues ({gt.get('target_venue_name') or bucket}).", "venue", out.scope, 0.5)


def split_sentences(text: str) -> list[str]:
    return [s.strip() for s in re.split(r"(?<=[.!?])\s+", text or "") if len(s.strip()) > 10]


def names_gold_venue(question: str, gt: dict) -> str | None:
    """The gold's venue bucket when the public question names it ("specifically EMNLP-like")."""
    bucket = str((gt.get("venue_forecast") or {}).get("likely_bucket") or "")
    if bucket and bucket.lower() != "other" and re.search(rf"\b{re.escape(bucket)}\b", question):
        return bucket
    return None


# --------------------------------------------------------------------------------------
# fields: read, or not used and why
# --------------------------------------------------------------------------------------

READ = {
    "tasks": {
        "task_id",
        "family",
        "domain",
        "horizon",
        "question",
        "time_cutoff",
        "deliverable_spec",
        "title",
        "subtype",
        "options",
    },
    "hidden": {"task_id", "gold_answer", "expected_answer_points", "ground_truth", "judge"},
    "hidden.ground_truth": {
        "future_terminal",
        "emergent_descendants",
        "trajectory",
        "preferred_ranking",
        "candidate_directions",
        "direction_records",
        "winner_display_name",
        "loser_display_name",
        "historical_limitation_cluster",
        "realized_opportunity_directions",
        "venue_forecast",
        "target_venue_bucket",
        "target_venue_name",
        "future_half_stats",
    },
}
NOT_USED = {
    "hidden.internal_task_id": "their build-time id; says nothing about the outcome",
    "hidden.family": "repeats the public family",
    "hidden.domain": "repeats the public domain (their internal spelling)",
    "hidden.title": "repeats the public title",
    "hidden.evaluation_rubric": "null in every row of the three releases",
    "hidden.candidate_quality_judge": "their task-quality judge before release (same scores as `judge`, read from there)",
    "hidden.public_metadata": "their topic labels for the task; public-side metadata, not an outcome",
    "hidden.ground_truth.future_chain": "the taxonomy path to future_terminal; its last node is future_terminal (read)",
    "hidden.ground_truth.historical_stats": "pre-cutoff counts: public knowledge, not an outcome (numbers only)",
    "hidden.ground_truth.future_quarter_stats": "window counts for a quarter; kept as numbers, no decision rests on them",
    "hidden.ground_truth.target_window_stats": "window counts of the task's topic as a whole; kept as numbers",
    "hidden.ground_truth.target_quarter_stats": "as target_window_stats, for a quarter; kept as numbers",
    "hidden.ground_truth.reference_papers": "their evidence lists (pre-cutoff history and window papers); window ids "
    "become future_paper_ids",
    "hidden.ground_truth.historical_limitation_signals": "the per-paper signals historical_limitation_cluster "
    "aggregates (the cluster is read)",
    "hidden.ground_truth.historical_future_work_cluster": "pre-cutoff future-work statements: public evidence, not an outcome",
    "hidden.ground_truth.historical_future_work_signals": "per-paper form of historical_future_work_cluster",
    "hidden.ground_truth.future_descendants": "window subdirections of the bottleneck's topic; the realised "
    "opportunities are read from realized_opportunity_directions",
    "hidden.ground_truth.planning_priority_score": "their composite score of the task's topic; the ranking comes "
    "from the candidates' own window counts",
    "hidden.ground_truth.venue_gap_signal": "their composite venue score of the topic; kept as a number",
    "hidden.ground_truth.winner_node_id": "taxonomy id of the winner; the winner's name is read",
    "hidden.ground_truth.loser_node_id": "taxonomy id of the loser; the loser's name is read",
    "hidden.ground_truth.winner_score": "their planning score of the winner; kept as a number",
    "hidden.ground_truth.loser_score": "their planning score of the loser; kept as a number",
    "hidden.ground_truth.winner_stats": "the winner's counts; kept as numbers",
    "hidden.ground_truth.loser_stats": "the loser's counts; kept as numbers",
}

"""Leakage validators: nothing hidden or internal may reach a public task (ForeSci §3.4, B.7).

A public task is everything an agent sees (`Task`). It must not contain

* internal construction identifiers: taxonomy node ids ("<domain>:<dimension>:..."),
  evidence-record ids ("ev:..."), signal ids ("sig:...") or any id the caller lists in
  `internal_ids`;
* gold-only keys (a `Task` has none; dict inputs are checked for them);
* any post-cutoff paper: its arXiv id, or its title (case-insensitive exact substring);
* gold-only content: the text of a gold claim of type future-realisation / statistical /
  taxonomy, or a gold slot variant that was taken from a future paper (gold/logic flags
  those in `GoldTarget.numbers` as ``future_variant:<slot>:<index>`` = 1);
* any date after the cutoff other than the task's own window bounds.

* a method or subdirection name first seen after the cutoff: a term (1-3 words) that
  appears in >= NOVEL_MIN_PAPERS future titles and nowhere in the pre-cutoff text
  (`future_only_terms`), or the label of a subdirection created after the cutoff (gold
  taxonomy claims);
* another task's answer (cross-task leakage): every public field is compared with every
  gold's answer-revealing content (claims of the gold-only types, future-derived slot
  variants, trajectory slots), exactly and by content-word containment >=
  CROSS_TASK_CONTAINMENT (`answer_revealing`), so a paraphrase that restates another
  task's outcome is caught too.

`check_public_tasks` returns every violation as a message that starts with the task id;
`assert_clean` raises them all at once. `internal_violations` is the subset that needs no
future data; the task builder runs it on every draft before it keeps a task. The
prefix-continuation contamination probe (a model reproducing a task) is in
`assets/gold/contamination.py`.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Sequence
from datetime import date

from core.records import AuditRecord, Decision, GoldTarget, Task
from core.text import CLAIM_SCAFFOLD_WORDS, TERM_STOP_WORDS

DIMENSIONS = ("tasks", "methodologies", "datasets", "evaluation_methods", "real_world_domains")
GOLD_ONLY_KEYS = frozenset(
    {
        "preferred_ranking",
        "trajectory",
        "slots",
        "claims",
        "numbers",
        "future_paper_ids",
        "strength",
        "gold",
        "signal_ids",
        "node_ids",
        "option_signal_ids",
    }
)
# Curation's internal fields (audit records and reviewers' decisions, core/records.py): what a
# reviewer saw, flagged, decided and wrote. None may appear as a key of a public file.
AUDIT_ONLY_KEYS = frozenset((set(AuditRecord.model_fields) | set(Decision.model_fields)) - set(Task.model_fields))
GOLD_ONLY_CLAIM_TYPES = ("future-realisation", "statistical", "taxonomy")
MIN_TITLE_CHARS = 20  # shorter future titles ("Agents") would match by coincidence, not leakage
MIN_VARIANT_CHARS = 12  # same for future-derived slot variants
NOVEL_MIN_PAPERS = 3  # a future-only term must appear in this many future titles
NOVEL_MAX_N = 3
CROSS_TASK_CONTAINMENT = 0.9  # share of an answer's content words found in one public field
CROSS_TASK_MIN_WORDS = 5  # shorter answers are checked only exactly
ANSWER_SLOTS = ("trajectory",)  # slots whose every variant states an outcome
FUTURE_VARIANT_KEY = "future_variant"  # numbers[f"future_variant:{slot}:{i}"] = 1.0

_NODE_ID = re.compile(r"\b[a-z0-9_]+:(?:" + "|".join(DIMENSIONS) + r")\b")
_PREFIXED_ID = re.compile(r"(?<![A-Za-z0-9])(ev|sig):\S+")
_ARXIV_NEW = re.compile(r"(?<![\d.])(\d{4}\.\d{4,5})(?:v\d+)?(?![\d])")
_ARXIV_OLD = re.compile(r"\b([a-z][a-z\-]+(?:\.[A-Z]{2})?/\d{7})(?:v\d+)?\b")
_ISO_DAY = re.compile(r"\b(\d{4})-(\d{2})-(\d{2})\b")
_ISO_MONTH = re.compile(r"\b(\d{4})-(\d{2})\b")
_MONTHS = (
    "january",
    "february",
    "march",
    "april",
    "may",
    "june",
    "july",
    "august",
    "september",
    "october",
    "november",
    "december",
)
_MONTH_NAME = re.compile(r"\b(" + "|".join(_MONTHS) + r")\s+(?:(\d{1,2}),?\s+)?(\d{4})\b", re.IGNORECASE)


class LeakageError(RuntimeError):
    """A public task leaks internal or future information; the message lists every violation."""


def _strip_version(arxiv_id: str) -> str:
    return re.sub(r"v\d+$", "", arxiv_id.strip())


def _norm(text: str) -> str:
    return " ".join(text.lower().split())


class SubstringIndex:
    """Which of many patterns occur in a text, in one pass over the text.

    `pattern in text` for thousands of future titles per public field was the gold stage's
    slowest check; here patterns are indexed by their first `width` characters (the shortest
    pattern's length), each text position is looked up once, and a candidate is confirmed
    with `startswith`, so the result is exactly the patterns `p in text` finds, in pattern order.
    """

    def __init__(self, patterns: Iterable[str]):
        self.patterns = [p for p in patterns if p]
        self.width = min((len(p) for p in self.patterns), default=0)
        self.by_prefix: dict[str, list[int]] = {}
        for i, pat in enumerate(self.patterns):
            self.by_prefix.setdefault(pat[: self.width], []).append(i)

    def found_in(self, text: str) -> list[str]:
        if not self.patterns:
            return []
        hits: set[int] = set()
        w, index = self.width, self.by_prefix
        for pos in range(len(text) - w + 1):
            for i in index.get(text[pos : pos + w], ()):
                if i not in hits and text.startswith(self.patterns[i], pos):
                    hits.add(i)
        return [self.patterns[i] for i in sorted(hits)]


def public_fields(task: Task | dict) -> list[tuple[str, str]]:
    """(field name, text) of every public string of a task, options and id lists included."""
    data = task.model_dump(mode="json") if isinstance(task, Task) else dict(task)
    out: list[tuple[str, str]] = []
    for key, value in data.items():
        if key in ("cutoff", "window_start", "window_end"):
            continue
        if isinstance(value, str):
            out.append((key, value))
        elif isinstance(value, list):
            for i, item in enumerate(value):
                if isinstance(item, dict):
                    for sub, text in item.items():
                        if isinstance(text, str):
                            out.append((f"{key}[{i}].{sub}", text))
                elif isinstance(item, str):
                    out.append((f"{key}[{i}]", item))
        elif isinstance(value, dict):
            out.extend((f"{key}.{k}", v) for k, v in value.items() if isinstance(v, str))
    return out


def _task_meta(task: Task | dict) -> tuple[str, set[date]]:
    if isinstance(task, Task):
        return task.task_id, {task.window_start, task.window_end}
    allowed = set()
    for key in ("window_start", "window_end"):
        if task.get(key):
            value = task[key]
            allowed.add(value if isinstance(value, date) else date.fromisoformat(str(value)))
    return str(task.get("task_id", "?")), allowed


def dates_in(text: str) -> list[tuple[str, date]]:
    """Dates written in a text (ISO day, ISO month, "June 2026", "June 5, 2026").

    A month without a day is read as its first day, so a month after the cutoff's month
    counts as after the cutoff. Bare years are not dates (titles say "ICLR 2026").
    """
    found: list[tuple[str, date]] = []
    rest = text
    for m in _ISO_DAY.finditer(text):
        try:
            found.append((m.group(0), date(int(m.group(1)), int(m.group(2)), int(m.group(3)))))
        except ValueError:
            pass
    rest = _ISO_DAY.sub(" ", rest)
    for m in _ISO_MONTH.finditer(rest):
        month = int(m.group(2))
        if 1 <= month <= 12:
            found.append((m.group(0), date(int(m.group(1)), month, 1)))
    for m in _MONTH_NAME.finditer(text):
        month = _MONTHS.index(m.group(1).lower()) + 1
        try:
            found.append((m.group(0), date(int(m.group(3)), month, int(m.group(2) or 1))))
        except ValueError:
            pass
    return found


def internal_violations(tasks: Iterable[Task | dict], *, cutoff: date, internal_ids: Iterable[str] = ()) -> list[str]:
    """Violations that need no future data: internal ids, gold-only keys, post-cutoff dates."""
    ids = SubstringIndex(sorted({i for i in internal_ids if i and len(i) >= 4}, key=len, reverse=True))
    messages: list[str] = []
    for task in tasks:
        task_id, allowed = _task_meta(task)
        if isinstance(task, dict):
            for key in sorted(set(task) & GOLD_ONLY_KEYS):
                messages.append(f"{task_id}: gold-only key {key!r} in a public task")
        for field, text in public_fields(task):
            for m in _NODE_ID.finditer(text):
                messages.append(f"{task_id}: {field}: taxonomy node id {m.group(0)!r}")
            for m in _PREFIXED_ID.finditer(text):
                messages.append(f"{task_id}: {field}: internal id {m.group(0)!r}")
            for ident in ids.found_in(text):
                messages.append(f"{task_id}: {field}: internal id {ident!r}")
            for raw, day in dates_in(text):
                if day > cutoff and day not in allowed:
                    messages.append(f"{task_id}: {field}: date {raw!r} after the cutoff {cutoff}")
    return messages


def future_variants(gold: GoldTarget) -> list[str]:
    """Slot variants that gold/logic took from future papers (flagged in `numbers`)."""
    out = []
    for slot in gold.slots:
        for i, variant in enumerate(slot.variants):
            if gold.numbers.get(f"{FUTURE_VARIANT_KEY}:{slot.slot}:{i}", 0.0) > 0:
                out.append(variant)
    return out


def check_public_tasks(
    tasks: Sequence[Task | dict],
    golds: Sequence[GoldTarget],
    future_paper_ids: set[str],
    future_titles: Sequence[str],
    *,
    cutoff: date,
    internal_ids: Iterable[str] = (),
    novel_terms: Iterable[str] = (),
) -> list[str]:
    """Every leakage violation in the public tasks (empty list = clean).

    Gold content of *any* task counts (a claim of task A quoted in task B is still a
    leak). `novel_terms` are the terms first seen after the cutoff (`future_only_terms`).
    Messages start with the offending task id.
    """
    messages = internal_violations(tasks, cutoff=cutoff, internal_ids=internal_ids)
    messages += novel_term_violations(tasks, novel_terms, post_cutoff_labels(golds))
    messages += cross_task_violations(tasks, golds)
    future_ids = {_strip_version(i) for i in future_paper_ids}
    titles = sorted({_norm(t) for t in future_titles if len(_norm(t)) >= MIN_TITLE_CHARS})
    hidden: list[tuple[str, str]] = []  # (normalised text, where it comes from)
    for gold in golds:
        for claim in gold.claims:
            if claim.type in GOLD_ONLY_CLAIM_TYPES and len(_norm(claim.text)) >= MIN_VARIANT_CHARS:
                hidden.append((_norm(claim.text), f"{claim.type} claim {claim.claim_id} of {gold.task_id}"))
        for variant in future_variants(gold):
            if len(_norm(variant)) >= MIN_VARIANT_CHARS:
                hidden.append((_norm(variant), f"future-derived slot variant of {gold.task_id}"))
    title_index = SubstringIndex(titles)
    hidden_index = SubstringIndex(dict.fromkeys(content for content, _ in hidden))
    for task in tasks:
        task_id, _ = _task_meta(task)
        for field, text in public_fields(task):
            for m in list(_ARXIV_NEW.finditer(text)) + list(_ARXIV_OLD.finditer(text)):
                if _strip_version(m.group(1)) in future_ids:
                    messages.append(f"{task_id}: {field}: future paper id {m.group(1)!r}")
            low = _norm(text)
            for title in title_index.found_in(low):
                messages.append(f"{task_id}: {field}: future paper title {title!r}")
            found = set(hidden_index.found_in(low))
            for content, source in hidden:
                if content in found:
                    messages.append(f"{task_id}: {field}: gold-only content from {source}: {content[:80]!r}")
    return messages


def assert_clean(
    tasks: Sequence[Task | dict],
    golds: Sequence[GoldTarget],
    future_paper_ids: set[str],
    future_titles: Sequence[str],
    *,
    cutoff: date,
    internal_ids: Iterable[str] = (),
    novel_terms: Iterable[str] = (),
) -> None:
    """Raise `LeakageError` listing all violations, if there is any."""
    messages = check_public_tasks(
        tasks, golds, future_paper_ids, future_titles, cutoff=cutoff, internal_ids=internal_ids, novel_terms=novel_terms
    )
    if messages:
        raise LeakageError(f"{len(messages)} leakage violation(s):\n" + "\n".join(messages))


# --------------------------------------------------------------------------------------
# terms first seen after the cutoff
# --------------------------------------------------------------------------------------

_TOKEN = re.compile(r"[a-z0-9][a-z0-9\-\+\.]*[a-z0-9+]|[a-z0-9]")


def _tokens(text: str) -> list[str]:
    return _TOKEN.findall(text.lower())


_BOUNDARY = re.compile(r"[:;,!?()\[\]{}\"]|\.\s|\s[-–—]\s")


def _grams(text: str, max_n: int) -> set[str]:
    """The n-grams of a text's punctuation-delimited pieces: "on X: prioritise Y" never makes
    the term "X Y" (a title is written the same way, so both sides split alike)."""
    return set().union(*(_ngrams(_tokens(piece), max_n) for piece in _BOUNDARY.split(text or "")))


def _ngrams(tokens: list[str], max_n: int) -> set[str]:
    out = set()
    for n in range(1, max_n + 1):
        for i in range(len(tokens) - n + 1):
            gram = tokens[i : i + n]
            if gram[0] in TERM_STOP_WORDS or gram[-1] in TERM_STOP_WORDS or all(t.isdigit() for t in gram):
                continue
            if n == 1 and (len(gram[0]) < 4 or gram[0].replace(".", "").isdigit()):
                continue
            out.add(" ".join(gram))
    return out


def future_only_terms(
    pre_cutoff_texts: Iterable[str],
    future_titles: Iterable[str],
    *,
    min_papers: int = NOVEL_MIN_PAPERS,
    max_n: int = NOVEL_MAX_N,
    allowed: Iterable[str] = (),
) -> set[str]:
    """Terms (1-3 word n-grams of titles) in >= `min_papers` future titles, absent from all pre-cutoff text.

    Pre-cutoff text is every public title and abstract (of any label); `allowed` texts
    (the task templates, the venue family names) never yield a term. A term made only of
    stop words or numbers is never a term.
    """
    counts: dict[str, int] = {}
    for title in future_titles:
        for gram in _grams(title, max_n):
            counts[gram] = counts.get(gram, 0) + 1
    candidates = {g for g, c in counts.items() if c >= min_papers}
    firsts = {g.split(" ", 1)[0] for g in candidates}
    for text in list(pre_cutoff_texts) + list(allowed):
        if not candidates:
            break
        tokens = _tokens(text)
        for i, tok in enumerate(tokens):
            if tok in firsts:
                for n in range(1, max_n + 1):
                    gram = " ".join(tokens[i : i + n])
                    if gram in candidates:
                        candidates.discard(gram)
    return candidates


def novel_term_violations(tasks: Sequence[Task | dict], terms: Iterable[str], labels: Iterable[str] = ()) -> list[str]:
    """A public field that names a future-only term or a post-cutoff subdirection label."""
    items = sorted({t for t in terms if t}, key=lambda t: (-len(t), t))
    label_items = sorted({_norm(x) for x in labels if len(_norm(x)) >= MIN_VARIANT_CHARS})
    messages = []
    for task in tasks:
        task_id, _ = _task_meta(task)
        for field, text in public_fields(task):
            grams = _grams(text, NOVEL_MAX_N)
            for term in items:
                if term in grams:
                    messages.append(f"{task_id}: {field}: names {term!r}, a term first seen after the cutoff")
            low = _norm(text)
            for label in label_items:
                if label in low:
                    messages.append(f"{task_id}: {field}: names {label!r}, a subdirection created after the cutoff")
    return messages


_NEW_SUBDIRECTION = re.compile(r"New subdirection '([^']+)'")


def post_cutoff_labels(golds: Sequence[GoldTarget]) -> list[str]:
    """Labels of subdirections created after the cutoff (from the gold taxonomy claims)."""
    out = []
    for gold in golds:
        for claim in gold.claims:
            if claim.type == "taxonomy":
                out += _NEW_SUBDIRECTION.findall(claim.text)
    return sorted(set(out))


# --------------------------------------------------------------------------------------
# cross-task leakage: one task's public text revealing another task's answer
# --------------------------------------------------------------------------------------

_ISO = re.compile(r"^\d{4}-\d{2}(-\d{2})?$")


def content_words(text: str) -> set[str]:
    return {t for t in _tokens(text) if t not in TERM_STOP_WORDS and t not in CLAIM_SCAFFOLD_WORDS and not _ISO.match(t)}


def answer_revealing(gold: GoldTarget) -> list[tuple[str, str]]:
    """(text, description) of every piece of a gold that states its outcome."""
    out = []
    for claim in gold.claims:
        if (claim.type in GOLD_ONLY_CLAIM_TYPES and claim.importance > 0) or (claim.type == "venue" and claim.importance >= 0.5):
            out.append((claim.text, f"{claim.type} claim {claim.claim_id}"))
    for slot in gold.slots:
        for i, variant in enumerate(slot.variants):
            future = gold.numbers.get(f"{FUTURE_VARIANT_KEY}:{slot.slot}:{i}", 0.0) > 0
            if future or slot.slot in ANSWER_SLOTS:
                out.append((variant, f"slot {slot.slot!r} variant {i}"))
    return out


def cross_task_violations(
    tasks: Sequence[Task | dict], golds: Sequence[GoldTarget], containment: float = CROSS_TASK_CONTAINMENT
) -> list[str]:
    """Public fields that restate a task's answer (any task's; another task's is the cross-task case).

    Exact substrings are `check_public_tasks`' job; this catches restatements: a field holds
    >= `containment` of the answer's content words (stop words and dates left out), for
    answers of >= CROSS_TASK_MIN_WORDS content words.
    """
    answers = []
    for gold in golds:
        for text, what in answer_revealing(gold):
            words = content_words(text)
            if len(words) >= CROSS_TASK_MIN_WORDS:
                answers.append((gold.task_id, what, words, text))
    by_word: dict[str, list[int]] = {}  # word -> answers holding it: a field meets only its answers
    for a, (_, _, words, _) in enumerate(answers):
        for w in words:
            by_word.setdefault(w, []).append(a)
    messages = []
    for task in tasks:
        task_id, _ = _task_meta(task)
        for field, text in public_fields(task):
            have = content_words(text)
            if not have:
                continue
            shared = Counter(a for w in have for a in by_word.get(w, ()))
            for a in sorted(shared):
                source, what, words, raw = answers[a]
                share = shared[a] / len(words)
                if share >= containment:
                    whose = "its own" if source == task_id else f"task {source}'s"
                    kind = "" if source == task_id else "cross-task leakage: "
                    messages.append(
                        f"{task_id}: {field}: {kind}reveals {whose} answer ({what}, "
                        f"{share:.0%} of its content words): {raw[:80]!r}"
                    )
    return messages


def check_release_texts(
    tasks: Sequence[Task | dict],
    golds: Sequence[GoldTarget],
    *,
    novel_terms: Iterable[str] = (),
) -> list[str]:
    """The checks that need the gold but not the future papers: gold-only keys and content,
    post-cutoff subdirection labels, future-only terms and cross-task leakage."""
    messages = []
    hidden = [(_norm(t), w) for g in golds for t, w in answer_revealing(g) if len(_norm(t)) >= MIN_VARIANT_CHARS]
    for task in tasks:
        task_id, _ = _task_meta(task)
        if isinstance(task, dict):
            for key in sorted(set(task) & GOLD_ONLY_KEYS):
                messages.append(f"{task_id}: gold-only key {key!r} in a public task")
        for field, text in public_fields(task):
            low = _norm(text)
            for content, what in hidden:
                if content in low:
                    messages.append(f"{task_id}: {field}: gold-only content ({what}): {content[:80]!r}")
    messages += novel_term_violations(tasks, novel_terms, post_cutoff_labels(golds))
    messages += cross_task_violations(tasks, golds)
    return messages

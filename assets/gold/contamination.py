"""Prefix-continuation contamination probe (DeepResearch Arena, Appendix A).

Does a model already know a task? Each task's text is split at the punctuation boundary
closest to its midpoint; the model gets the prefix and writes a continuation; the
continuation is compared with the true suffix by

* normalised LCS (Arena eq. 11): 2 * |LCS(g, r)| / (|g| + |r|) over characters (the LCS
  length over the average length of the two texts);
* TF-IDF cosine (eq. 12) over a fixed vocabulary: the idf comes from every reference
  suffix and continuation of the probe run (smoothed idf, sklearn's formula);
* word overlap (eq. 13): |W(g) ∩ W(r)| / |W(r)|, lowercased word sets;
* composite (eq. 14) = 0.4 LCS + 0.4 TF-IDF + 0.2 overlap. The paper's weights did not
  survive its text capture; it says they favour string and TF-IDF similarity while still
  counting lexical coverage, which these weights do (our choice, documented).

A task is flagged when the composite is >= 0.7 (eq. 15). The probe runs only when a
model is configured; a flagged task fails the release (see assets/release).
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Sequence

from pydantic import BaseModel

from core.records import Failure, Task

THRESHOLD = 0.7
WEIGHTS = {"lcs": 0.4, "tfidf": 0.4, "overlap": 0.2}
MAX_CHARS = 1500  # LCS is quadratic; texts are truncated to this many characters
_WORD = re.compile(r"\w+")
_BOUNDARY = re.compile(r"[.,;:!?](?=\s)")


class ProbeResult(BaseModel):
    task_id: str
    model: str
    prefix: str
    suffix: str
    continuation: str
    lcs: float
    tfidf: float
    overlap: float
    composite: float
    flagged: bool


def probe_text(task: Task) -> str:
    """The task description the probe splits: title and question."""
    return f"{task.title.strip()}. {task.question.strip()}"


def split_prefix(text: str) -> tuple[str, str]:
    """Split at the punctuation boundary closest to the midpoint (Arena eq. 9); halves if none."""
    text = text.strip()
    mid = len(text) / 2
    cuts = [m.end() for m in _BOUNDARY.finditer(text)]
    cut = min(cuts, key=lambda c: (abs(c - mid), c)) if cuts else len(text) // 2
    return text[:cut].strip(), text[cut:].strip()


def lcs_length(a: str, b: str) -> int:
    a, b = a[:MAX_CHARS], b[:MAX_CHARS]
    if len(a) < len(b):
        a, b = b, a
    prev = [0] * (len(b) + 1)
    for ch in a:
        cur = [0]
        for j, bj in enumerate(b, 1):
            cur.append(prev[j - 1] + 1 if ch == bj else max(prev[j], cur[j - 1]))
        prev = cur
    return prev[-1]


def lcs_similarity(generated: str, reference: str) -> float:
    g, r = generated[:MAX_CHARS], reference[:MAX_CHARS]
    if not g and not r:
        return 1.0
    return 2.0 * lcs_length(g, r) / (len(g) + len(r))


def _words(text: str) -> list[str]:
    return _WORD.findall(text.lower())


def idf_table(documents: Sequence[str]) -> dict[str, float]:
    n = len(documents)
    df: Counter = Counter()
    for d in documents:
        df.update(set(_words(d)))
    return {w: math.log((1 + n) / (1 + c)) + 1.0 for w, c in df.items()}


def tfidf_cosine(generated: str, reference: str, idf: dict[str, float]) -> float:
    def vec(text):
        tf = Counter(_words(text))
        return {w: c * idf.get(w, 0.0) for w, c in tf.items() if w in idf}

    a, b = vec(generated), vec(reference)
    dot = sum(v * b.get(w, 0.0) for w, v in a.items())
    na, nb = math.sqrt(sum(v * v for v in a.values())), math.sqrt(sum(v * v for v in b.values()))
    return dot / (na * nb) if na > 0 and nb > 0 else 0.0


def word_overlap(generated: str, reference: str) -> float:
    ref = set(_words(reference))
    return len(set(_words(generated)) & ref) / len(ref) if ref else 0.0


def composite(lcs: float, tfidf: float, overlap: float) -> float:
    return WEIGHTS["lcs"] * lcs + WEIGHTS["tfidf"] * tfidf + WEIGHTS["overlap"] * overlap


def score_continuations(
    items: Sequence[tuple[str, str, str, str]], model: str, threshold: float = THRESHOLD
) -> list[ProbeResult]:
    """items: (task_id, prefix, reference suffix, continuation) -> scored results."""
    idf = idf_table([x[2] for x in items] + [x[3] for x in items])
    out = []
    for task_id, prefix, suffix, cont in items:
        lcs, tf, ov = lcs_similarity(cont, suffix), tfidf_cosine(cont, suffix, idf), word_overlap(cont, suffix)
        comp = composite(lcs, tf, ov)
        out.append(
            ProbeResult(
                task_id=task_id,
                model=model,
                prefix=prefix,
                suffix=suffix,
                continuation=cont,
                lcs=round(lcs, 4),
                tfidf=round(tf, 4),
                overlap=round(ov, 4),
                composite=round(comp, 4),
                flagged=comp >= threshold,
            )
        )
    return out


def probe_messages(prefix: str) -> list[dict]:
    return [
        {
            "role": "user",
            "content": "Continue the following text exactly where it stops. Write only the "
            f"continuation, nothing else.\n\n{prefix}",
        }
    ]


def run_probe(
    tasks: Sequence[Task], client, *, threshold: float = THRESHOLD, max_tokens: int = 500, temperature: float = 0.1, seed: int = 0
) -> tuple[list[ProbeResult], list[Failure]]:
    """Probe every task with the configured model (Arena A.4: temperature 0.1, 500 tokens).

    Returns ([], []) when the client is offline: the probe needs a model. A failed call is
    a Failure row for that task; the other tasks are still probed.
    """
    if client is None or client.offline:
        return [], []
    from resources.llm import LLMCallError

    items, failures = [], []
    for task in sorted(tasks, key=lambda t: t.task_id):
        prefix, suffix = split_prefix(probe_text(task))
        try:
            cont = client.text(
                probe_messages(prefix), purpose="contamination_probe", temperature=temperature, seed=seed, max_tokens=max_tokens
            )
        except LLMCallError as exc:
            failures.append(Failure(stage="contamination_probe", item_id=task.task_id, reason=str(exc)[:1000]))
            continue
        items.append((task.task_id, prefix, suffix, cont.strip()))
    return score_continuations(items, client.model, threshold), failures


def flagged_messages(results: Sequence[ProbeResult]) -> list[str]:
    return [
        f"{r.task_id}: contamination probe: {r.model} continued the task with composite similarity "
        f"{r.composite:.2f} >= {THRESHOLD} (LCS {r.lcs:.2f}, TF-IDF {r.tfidf:.2f}, overlap {r.overlap:.2f})"
        for r in results
        if r.flagged
    ]

"""Keypoint-Aligned Evaluation (DeepResearch Arena §4, eqs. 4-8).

For an answer R with cited sources U (here: the cutoff-bound knowledge-base passages of the
papers it cites, not web pages), keypoints are extracted from each source (eq. 4),
aggregated and de-duplicated into the Unified Evidence Keypoints UEK (eq. 5), and each UEK
keypoint is labelled supported, conflicting or omitted by the report (eqs. 6-8):

    KSR = |supported| / |UEK|,  KCR = |conflicting| / |UEK|,  KOR = |omitted| / |UEK|

Our choices where the paper gives no equation or constant (docs/arena.md, tested):
* the three labels are exclusive, so KSR + KCR + KOR = 1 (every keypoint gets one label);
* UEK empty (the answer cites nothing usable): all three undefined (None), never 0;
* offline keypoints: per source, sentences of 6-60 words with a factual cue (a number, a
  result, method or evaluation word), the MAX_PER_SOURCE with the most cues;
* offline de-duplication: a keypoint whose content stems overlap a kept one with Jaccard
  >= DEDUP_JACCARD is the same keypoint;
* offline labelling (a lexical proxy of the paper's LLM judgement): the report sentence
  covering most of the keypoint's content stems; coverage >= SUPPORT_MIN is a match; a
  match whose polarity differs (one negates, the other not) or whose numbers differ (both
  state numbers, none shared) is a conflict, else support; no match is an omission.

With a judge model (`judge_keypoints`): one batched call extracts the keypoints of all
cited sources, the same offline de-duplication builds UEK, and one batched call labels
every UEK keypoint — two calls per answer, through the LLM resource.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Literal

from pydantic import BaseModel, Field

from core.claims import all_stems

MAX_PER_SOURCE = 3
MIN_WORDS, MAX_WORDS = 6, 60
DEDUP_JACCARD = 0.5
SUPPORT_MIN = 0.5
Label = Literal["supported", "conflicting", "omitted"]

_SENT = re.compile(r"(?<=[.!?])\s+(?=[A-Z0-9(\[])")
_NUM = re.compile(r"(?<![\w.])\d+(?:\.\d+)?%?")
_NEG = re.compile(r"\b(not|no|never|cannot|can't|fails?|without|neither|nor|worse|degrad\w*|decreas\w*|hurts?)\b", re.I)
_FACT = re.compile(
    r"(\d|%|\b(show\w*|find\w*|found|outperform\w*|improv\w*|achiev\w*|reduc\w*|increas\w*|"
    r"propos\w*|introduc\w*|present\w*|evaluat\w*|benchmark\w*|dataset\w*|accura\w*|result\w*|"
    r"experiment\w*|demonstrat\w*|limit\w*|fail\w*)\b)",
    re.I,
)
_HEADER_META = re.compile(r"^\*[^*].*[^*]\*$")  # the renderer's italic meta line, not a **bold** label


def sentences(text: str) -> list[str]:
    return [" ".join(s.split()) for s in _SENT.split(text or "") if s.strip()]


def extract_keypoints(passage: str) -> list[str]:
    """Eq. 4 offline: the passage's factual sentences (see the module docstring)."""
    cands = [s for s in sentences(passage) if MIN_WORDS <= len(s.split()) <= MAX_WORDS and _FACT.search(s)]
    ranked = sorted(enumerate(cands), key=lambda x: (-len(_FACT.findall(x[1])), x[0]))
    return [s for _, s in sorted(ranked[:MAX_PER_SOURCE])]


def unify(per_source: dict[str, list[str]]) -> list[tuple[str, str]]:
    """Eq. 5: (source id, keypoint) in source order, near-duplicates (stem Jaccard >=
    DEDUP_JACCARD with a kept keypoint) dropped."""
    kept: list[tuple[str, str, set[str]]] = []
    for src in per_source:
        for kp in per_source[src]:
            stems = all_stems(kp)
            if not stems:
                continue
            if any(len(stems & s) / len(stems | s) >= DEDUP_JACCARD for _, _, s in kept):
                continue
            kept.append((src, kp, stems))
    return [(src, kp) for src, kp, _ in kept]


def answer_body(text: str) -> str:
    """The answer's own words: its markdown without the renderer's header (the task title),
    the meta line and the evidence list (paper titles), so neither the task's wording nor a
    cited title counts as the report covering a keypoint."""
    out, skip = [], False
    for line in (text or "").splitlines():
        s = line.strip()
        if s.startswith("## ") or _HEADER_META.match(s) or s.startswith("_Contract check"):
            continue
        if s.startswith("**Evidence (pre-cutoff knowledge base):**"):
            skip = True
            continue
        if skip and (s.startswith("- [") or not s):
            continue
        skip = False
        out.append(line)
    return "\n".join(out)


def _numbers(text: str) -> set[str]:
    return {n.rstrip("%") for n in _NUM.findall(text)}


def label_keypoint(keypoint: str, report_sentences: list[tuple[str, set[str]]]) -> tuple[Label, str]:
    """(label, the report sentence it rests on) by the offline proxy."""
    kp = all_stems(keypoint)
    if not kp or not report_sentences:
        return "omitted", ""
    best, cover = max(((s, len(kp & st) / len(kp)) for s, st in report_sentences), key=lambda x: x[1])
    if cover < SUPPORT_MIN:
        return "omitted", ""
    polarity = bool(_NEG.search(keypoint)) != bool(_NEG.search(best))
    a, b = _numbers(keypoint), _numbers(best)
    if polarity or (a and b and not (a & b)):
        return "conflicting", best
    return "supported", best


@dataclass
class KAEResult:
    keypoints: list[tuple[str, str]] = field(default_factory=list)  # UEK: (source id, keypoint)
    labels: list[Label] = field(default_factory=list)
    how: str = "offline lexical proxy"

    def rates(self) -> dict[str, float | None]:
        n = len(self.keypoints)
        if not n:
            return {"ksr": None, "kcr": None, "kor": None}
        return {
            "ksr": self.labels.count("supported") / n,
            "kcr": self.labels.count("conflicting") / n,
            "kor": self.labels.count("omitted") / n,
        }


def kae_offline(report: str, sources: dict[str, str]) -> KAEResult:
    """KAE of a report (its body) against the passages of its cited sources, offline."""
    uek = unify({src: extract_keypoints(text) for src, text in sources.items()})
    sents = [(s, all_stems(s)) for s in sentences(report.replace("\n", " ")) if s.strip()]
    labels = [label_keypoint(kp, sents)[0] for _, kp in uek]
    return KAEResult(uek, labels)


# ---- with a judge model ------------------------------------------------------------------------


class SourceKeypoints(BaseModel):
    source: str
    keypoints: list[str] = Field(default_factory=list)


class ExtractReply(BaseModel):
    sources: list[SourceKeypoints] = Field(default_factory=list)


class KeypointLabel(BaseModel):
    index: int
    label: Label


class LabelReply(BaseModel):
    labels: list[KeypointLabel] = Field(default_factory=list)


EXTRACT_PROMPT = """You extract key factual points (KEY_POINT_EXTRACTION, DeepResearch Arena) from the sources an
answer cites, for the research task below. Per source, up to {k} short factual statements that matter for the task.
Reply with JSON: {{"sources": [{{"source": id, "keypoints": [str]}}]}}

Task: {task}
Sources:
{sources}"""

LABEL_PROMPT = """For EACH numbered key point taken from the sources a research report cites
(KEY_POINT_RELEVANCE, DeepResearch Arena), say whether the report supports it (states or covers it), conflicts with
it (states something that contradicts it), or omits it.
Reply with JSON: {{"labels": [{{"index": i, "label": "supported" | "conflicting" | "omitted"}}]}}

Report:
{report}

Key points:
{keypoints}"""


def judge_keypoints(ask, task_text: str, report: str, sources: dict[str, str]) -> KAEResult:
    """Two batched calls through `ask(prompt, schema, purpose)`: extraction (all sources at
    once), offline de-duplication into UEK, labelling (all keypoints at once). A keypoint
    the model leaves unlabelled counts as omitted."""
    listing = "\n".join(f"[{src}] {text[:1500]}" for src, text in sources.items())
    ext = ask(EXTRACT_PROMPT.format(k=MAX_PER_SOURCE, task=task_text[:1500], sources=listing), ExtractReply, "arena_kae_extract")
    per_source = {src: [] for src in sources}
    for s in ext.sources:
        if s.source in per_source:
            per_source[s.source] += [" ".join(k.split()) for k in s.keypoints[:MAX_PER_SOURCE] if k.strip()]
    uek = unify(per_source)
    if not uek:
        return KAEResult([], [], "judge: no keypoints")
    numbered = "\n".join(f"{i}. {kp}" for i, (_, kp) in enumerate(uek, 1))
    rep = ask(LABEL_PROMPT.format(report=report[:6000], keypoints=numbered), LabelReply, "arena_kae_label")
    by_index = {lab.index: lab.label for lab in rep.labels}
    return KAEResult(uek, [by_index.get(i, "omitted") for i in range(1, len(uek) + 1)], "judge (2 batched calls)")

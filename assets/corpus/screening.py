"""Screening (ForeSci §3.2, App. B.1) and deduplication. No Dagster here.

Two screens, as in the paper:

1. Domain relevance: is the paper's main problem, method, system, evaluation, dataset
   or setting substantively tied to the domain? Offline: the contrastive embedding score
   of `logic.screen` (cosine to this domain's description minus the mean cosine to the
   others). Below `support_threshold`: excluded.
2. Benchmark core: core papers have a central domain contribution, a concrete research
   asset type and a future-facing signal (for tasks, methods, evaluation, bottlenecks or
   design patterns). Offline: relevance >= `core_threshold` AND a contribution cue (the
   paper proposes / introduces / releases a method, framework, benchmark, dataset, system,
   model, ...) AND a future-facing cue (a limitation, bottleneck, open challenge, failure
   mode, scaling or generalisation finding, new evaluation protocol, future direction).
   Relevant papers without both cues are support. The reason names the cues found.

With a model configured, `llm_screen` asks the LLM (through the one LLM doorway, several
papers per call, cached) for {label, relevance, reason} per paper; a batch that fails
keeps the offline label for its papers, with a Failure row each, so a rerun retries
exactly those.

Deduplication: by arXiv id (versions collapse to the first-submission date) and by
near-duplicate title (normalised-token Jaccard >= 0.9 on titles of >= 4 tokens, found
with prefix filtering, not all pairs); the earliest first-submission date is kept and
every dropped record is reported as a `DuplicateLink`.
"""

from __future__ import annotations

import re
from collections import Counter, defaultdict
from math import ceil

from pydantic import BaseModel, Field

from assets.corpus.logic import screen
from core.records import DuplicateLink, Failure, Paper, ScreenedPaper

# -- deduplication --------------------------------------------------------------------------

_VERSION = re.compile(r"v\d+$")
_TOKEN = re.compile(r"[a-z0-9]+")


def title_tokens(title: str) -> list[str]:
    return _TOKEN.findall(title.lower())


def jaccard(a: set[str], b: set[str]) -> float:
    return len(a & b) / len(a | b) if a or b else 0.0


def deduplicate(papers: list[Paper], threshold: float = 0.9, min_tokens: int = 4) -> tuple[list[Paper], list[DuplicateLink]]:
    """One record per work: arXiv versions and repeats collapse to the earliest date, then
    near-duplicate titles collapse to the earliest-submitted record."""
    links: list[DuplicateLink] = []
    best: dict[str, Paper] = {}
    for paper in papers:
        key = _VERSION.sub("", paper.arxiv_id)
        if key != paper.arxiv_id:
            paper = paper.model_copy(update={"arxiv_id": key})
        if key in best:
            keep, drop = (paper, best[key]) if paper.published < best[key].published else (best[key], paper)
            best[key] = keep
            links.append(
                DuplicateLink(
                    dropped_id=key,
                    kept_id=key,
                    method="arxiv_id",
                    dropped_title=drop.title[:200],
                    kept_title=keep.title[:200],
                    dropped_published=drop.published,
                )
            )
        else:
            best[key] = paper
    ordered = sorted(best.values(), key=lambda p: (p.published, p.arxiv_id))
    token_sets = [set(title_tokens(p.title)) for p in ordered]
    freq = Counter(t for s in token_sets for t in s)
    index: dict[str, list[int]] = defaultdict(list)
    dropped: set[int] = set()
    for i, tokens in enumerate(token_sets):  # earliest first: a later record joins an earlier one
        if len(tokens) < min_tokens:
            continue
        prefix = sorted(tokens, key=lambda t: (freq[t], t))[: len(tokens) - ceil(threshold * len(tokens)) + 1]
        candidates = {j for t in prefix for j in index[t] if j not in dropped}
        match = max(((jaccard(tokens, token_sets[j]), j) for j in candidates), default=(0.0, -1))
        if match[0] >= threshold:
            j = match[1]
            dropped.add(i)
            links.append(
                DuplicateLink(
                    dropped_id=ordered[i].arxiv_id,
                    kept_id=ordered[j].arxiv_id,
                    method="near_title",
                    similarity=round(match[0], 4),
                    dropped_title=ordered[i].title[:200],
                    kept_title=ordered[j].title[:200],
                    dropped_published=ordered[i].published,
                )
            )
            continue
        for t in prefix:
            index[t].append(i)
    return [p for i, p in enumerate(ordered) if i not in dropped], links


# -- offline benchmark-core screen ----------------------------------------------------------

CONTRIBUTION_CUE = re.compile(
    r"\b(?:we|this (?:paper|work|study)|our (?:work|paper))\s+(?:\w+\s+){0,3}?"
    r"(?:propose|present|introduce|develop|design|build|release|construct|curate|contribute|"
    r"establish|formulate|devise|create)s?\b",
    re.I,
)
ASSET_CUE = re.compile(
    r"\b(?:method|framework|benchmark|dataset|corpus|system|model|agent|architecture|algorithm|pipeline|"
    r"toolkit|library|platform|protocol|metric|approach|paradigm|environment|suite|recipe|objective|"
    r"technique|strategy|mechanism|loss|tokenizer|simulator|evaluation)s?\b",
    re.I,
)
FUTURE_CUE = re.compile(
    r"\b(?:limitation|bottleneck|challenge|open (?:problem|question)|fail(?:s|ure|ures|ing)?|shortcoming|"
    r"struggle|remain(?:s)? (?:difficult|unclear|challenging|an open)|gap|future (?:work|research|direction)|"
    r"scal(?:e|es|ing|able|ability)|generali[sz](?:e|es|ation)|robust(?:ness)?|"
    r"new (?:evaluation|benchmark|protocol|paradigm)|insight|we (?:identify|reveal|find|show|observe|uncover)|"
    r"trade-?off|vulnerab\w*|hallucinat\w*|underexplored|unexplored|promising direction)\b",
    re.I,
)


def core_cues(paper: Paper) -> dict[str, str]:
    """The cues of the benchmark-core screen found in the paper's title and abstract."""
    text = f"{paper.title}. {paper.abstract}"
    found = {}
    for name, pattern in (("contribution", CONTRIBUTION_CUE), ("asset", ASSET_CUE), ("future", FUTURE_CUE)):
        m = pattern.search(text)
        if m:
            found[name] = m.group(0).strip()[:60]
    return found


def offline_screen(
    papers: list[Paper],
    domain: str,
    descriptions: dict[str, str],
    embed,
    support_threshold: float = -0.02,
    core_threshold: float = 0.03,
) -> list[ScreenedPaper]:
    """Relevance screen (logic.screen) then the benchmark-core screen on cues."""
    out = []
    for s in screen(papers, domain, descriptions, embed, support_threshold, core_threshold):
        if s.label == "excluded":
            out.append(s)
            continue
        cues = core_cues(s)
        has_all = {"contribution", "asset", "future"} <= set(cues)
        if s.label == "core" and not has_all:
            missing = sorted({"contribution", "asset", "future"} - set(cues))
            label, core_note = "support", f"relevant but not benchmark-core: no {' / '.join(missing)} cue"
        elif s.label == "core":
            label, core_note = "core", "benchmark-core: " + "; ".join(f"{k} cue '{v}'" for k, v in cues.items())
        else:
            label, core_note = "support", "relevant but below the core relevance threshold"
        relevance_part = s.reason.split(" (")[0]
        out.append(
            s.model_copy(update={"label": label, "reason": f"{core_note}. {relevance_part}; " + s.reason.split("; ", 1)[-1]})
        )
    return out


# -- LLM screen -----------------------------------------------------------------------------


class ScreenItem(BaseModel):
    arxiv_id: str
    label: str = Field(description="core, support or excluded")
    relevance: float = Field(description="0 (off-topic) .. 1 (central to the domain)")
    reason: str = Field(description="one sentence: why this label")


class ScreenBatch(BaseModel):
    items: list[ScreenItem]


SCREEN_PROMPT = """You screen papers for a research-forecasting benchmark on the domain "{title}".
Domain: {description}

For each paper decide:
- excluded: noisy, borderline or out-of-domain (only matches surface keywords);
- support: substantively tied to the domain (its main problem, method, system, evaluation,
  dataset or setting) but not a central contribution;
- core: a central domain contribution with a concrete research asset (method, framework,
  benchmark, dataset, system, ...) AND a useful future-facing signal (for tasks, methods,
  evaluation, bottlenecks or design patterns).
Give relevance in [0, 1] and a one-sentence reason. Answer for every arxiv_id, as JSON
{{"items": [{{"arxiv_id": ..., "label": ..., "relevance": ..., "reason": ...}}]}}.

Papers:
{papers}"""


def _prompt(batch: list[Paper], title: str, description: str, max_chars: int = 1200) -> str:
    listing = "\n\n".join(f"[{p.arxiv_id}] {p.title}\n{p.abstract[:max_chars]}" for p in batch)
    return SCREEN_PROMPT.format(title=title, description=description, papers=listing)


def llm_screen(
    papers: list[Paper],
    domain: str,
    title: str,
    description: str,
    client,
    fallback: list[ScreenedPaper],
    batch_size: int = 8,
    stage: str = "screen",
) -> tuple[list[ScreenedPaper], list[Failure]]:
    """LLM screen, `batch_size` papers per call. `fallback` (the offline screen, same order)
    is kept for any paper the model did not label; each such paper gets a Failure row."""
    from resources.llm import (
        LLMCallError,  # the doorway's error type (no Dagster needed)
    )

    by_id = {s.arxiv_id: s for s in fallback}
    out: dict[str, ScreenedPaper] = {}
    failures: list[Failure] = []
    for i in range(0, len(papers), batch_size):
        batch = papers[i : i + batch_size]
        try:
            reply = client.structured(
                [{"role": "user", "content": _prompt(batch, title, description)}],
                ScreenBatch,
                purpose="corpus_screen",
                temperature=0.0,
                seed=0,
            )
        except LLMCallError as exc:
            failures.extend(
                Failure(stage=stage, item_id=p.arxiv_id, reason=f"LLM screen failed: {str(exc)[:200]}") for p in batch
            )
            continue
        answers = {it.arxiv_id.strip(): it for it in reply.items}
        for p in batch:
            it = answers.get(p.arxiv_id)
            label = it.label.strip().lower() if it else ""
            if it is None or label not in ("core", "support", "excluded"):
                why = "no answer for this paper" if it is None else f"invalid label {it.label!r}"
                failures.append(Failure(stage=stage, item_id=p.arxiv_id, reason=f"LLM screen: {why}"))
                continue
            out[p.arxiv_id] = by_id[p.arxiv_id].model_copy(
                update={
                    "label": label,
                    "relevance": round(min(1.0, max(0.0, float(it.relevance))), 5),
                    "reason": f"LLM screen: {it.reason.strip()[:400]}",
                }
            )
    failed = {f.item_id for f in failures}
    result = [
        out.get(s.arxiv_id)
        or s.model_copy(
            update={"reason": f"offline screen (LLM screen failed for this paper). {s.reason}"} if s.arxiv_id in failed else {}
        )
        for s in fallback
    ]
    return result, failures


def screen_corpus(
    papers: list[Paper], domain: str, title: str, descriptions: dict[str, str], embed, client=None, batch_size: int = 8
) -> tuple[list[ScreenedPaper], list[Failure], str]:
    """The corpus screen: offline always (it is the fallback), the LLM screen on top when
    `client` has a model. Returns (screened, failures, screener name)."""
    offline = offline_screen(papers, domain, descriptions, embed)
    if client is None or client.offline:
        return offline, [], "offline"
    screened, failures = llm_screen(papers, domain, title, descriptions[domain], client, offline, batch_size)
    return screened, failures, f"llm:{client.model}"

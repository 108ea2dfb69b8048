"""ScholarEval as a built-in agent (arXiv 2510.16234 §3), over the cutoff-bound KB only.

Soundness pipeline: method extraction -> one KB query per method (<= MAX_RESULTS_PER_QUERY
results) -> relevance filter -> recommendations (<= MAX_RECOMMENDATIONS) -> soundness
review with references (<= MAX_REFERENCES).
Contribution pipeline: contribution-dimension extraction -> compared papers (<=
MAX_COMPARED, from one query per dimension) -> pairwise comparison of each compared paper
with each dimension -> synthesis.

With a model (`ctx.llm`), every step is one structured call (a step whose call fails
falls back to its offline version, noted in the answer's artifacts). With no model, each
step has a documented offline version (docs/idea_review.md):
* method / dimension extraction: plan sentences of >= 8 content words from the method /
  experiment sections (methods) or the problem section and sentences with contribution cues
  (dimensions), ranked by how many distinctive corpus terms they carry, kept in plan order;
* relevance: cosine >= RELEVANCE_MIN and >= 2 shared distinctive terms (assets/idea_review/kb);
* recommendation: the relevant paper's abstract sentence closest to the method, quoted;
* pairwise comparison: cosine of dimension and paper (>= OVERLAP: overlaps; else differs);
* synthesis: templated paragraphs from the above.
An idea with no relevant hit for any query says "no relevant literature before the cutoff".
"""

from __future__ import annotations

import json
import re
import time

import numpy as np
from pydantic import BaseModel, Field

from assets.agents.context import Agent, AgentContext
from assets.idea_review.family import NO_LITERATURE, ReviewAnswer, review_text
from core.records import Answer
from core.text import content_tokens

MAX_RESULTS_PER_QUERY = 20
MAX_RECOMMENDATIONS = 8
MAX_REFERENCES = 10
MAX_COMPARED = 25
MAX_METHODS = 5
MAX_DIMENSIONS = 4
OVERLAP = 0.75
_SENT = re.compile(r"(?<=[.!?])\s+")
_METHOD_HEADS = ("method", "approach", "experiment", "design", "procedure", "analysis", "protocol")
_CONTRIB_CUES = ("propose", "novel", "first", "introduce", "hypothes", "aim", "contribut", "new ", "develop")


def sections(plan: str) -> list[tuple[str, str]]:
    """(heading, body) pairs of a Markdown plan."""
    out, head, body = [], "", []
    for line in plan.splitlines():
        if line.startswith("#"):
            if body:
                out.append((head, " ".join(body)))
            head, body = line.strip("# ").lower(), []
        elif line.strip():
            body.append(line.strip().lstrip("-* "))
    if body:
        out.append((head, " ".join(body)))
    return out


def _sentences(text: str) -> list[str]:
    return [s.strip() for s in _SENT.split(text) if len(content_tokens(s)) >= 8]


def _pick(cands: list[str], n: int, kb) -> list[str]:
    rare = kb.distinctive_terms if hasattr(kb, "distinctive_terms") else (lambda s: set(content_tokens(s)))
    ranked = sorted(range(len(cands)), key=lambda i: (-len(rare(cands[i])), i))[:n]
    return [cands[i] for i in sorted(ranked)]


def extract_methods(plan: str, kb=None) -> list[str]:
    secs = sections(plan)
    cands = [s for h, b in secs if any(k in h for k in _METHOD_HEADS) for s in _sentences(b)]
    cands = cands or [s for _, b in secs for s in _sentences(b)]
    return _pick(list(dict.fromkeys(cands)), MAX_METHODS, kb)


def extract_dimensions(plan: str, kb=None) -> list[str]:
    secs = sections(plan)
    cands = [s for h, b in secs for s in _sentences(b) if "problem" in h or any(c in s.lower() for c in _CONTRIB_CUES)]
    return _pick(list(dict.fromkeys(cands)), MAX_DIMENSIONS, kb)


def _short(text: str, n: int = 14) -> str:
    words = text.split()
    return " ".join(words[:n]) + (" ..." if len(words) > n else "")


def _closest_sentence(query: str, abstract: str, embed) -> str:
    sents = [s for s in _SENT.split(abstract) if len(s.split()) >= 5] or [abstract]
    vecs = np.asarray(embed([query, *sents]))
    return sents[int(np.argmax(vecs[1:] @ vecs[0]))].strip()


# ---- model-backed steps ----------------------------------------------------------------
class _Items(BaseModel):
    items: list[str] = Field(default_factory=list)


class _Recommendation(BaseModel):
    recommendation: str = ""
    concern: str = ""


class _Comparison(BaseModel):
    overlaps: bool = False
    difference: str = ""


class _Synthesis(BaseModel):
    soundness: str = ""
    contribution: str = ""
    strengths: list[str] = Field(default_factory=list)
    weaknesses: list[str] = Field(default_factory=list)


def _llm_step(ctx, notes: dict, step: str, prompt: str, schema, fallback):
    if ctx.llm is None:
        return fallback()
    try:
        return ctx.llm.structured(prompt, schema, purpose=f"agent.scholareval.{step}", max_tokens=600)
    except Exception as exc:  # noqa: BLE001 - a failed step falls back to its offline version
        notes.setdefault("fallbacks", []).append(f"{step}: {type(exc).__name__}: {exc}"[:300])
        return fallback()


def scholareval(ctx: AgentContext) -> Answer:
    t0 = time.time()
    task, kb, embed = ctx.task, ctx.kb, ctx.embed
    plan = task.question.split("\n\n", 1)[-1]
    notes: dict = {}
    queries: list[str] = []

    # ---- soundness pipeline -----------------------------------------------------------
    methods = _llm_step(
        ctx,
        notes,
        "methods",
        f"List the key methods of this research plan, one short sentence "
        f'each (at most {MAX_METHODS}). JSON {{"items": [...]}}.\n\n{plan[:6000]}',
        _Items,
        lambda: _Items(items=extract_methods(plan, kb)),
    ).items[:MAX_METHODS]
    method_hits = {}
    for m in methods:
        queries.append(m)
        hits = kb.search(m, k=MAX_RESULTS_PER_QUERY)
        method_hits[m] = [h for h in hits if kb.relevant(h, m)]
    recs, concerns, support = [], [], []
    for m in methods:
        rel = method_hits[m]
        if not rel:
            concerns.append(
                f'The method step "{_short(m)}" has {NO_LITERATURE} in the knowledge base; its '
                "validity rests on the plan's own argument and pilot results."
            )
            continue
        top = rel[0]
        support.append(f'"{_short(m)}" is supported by {len(rel)} relevant paper(s), e.g. {top.title} [{top.arxiv_id}].')
        if len(recs) < MAX_RECOMMENDATIONS:
            full = kb.get(top.arxiv_id)
            fb = lambda m=m, top=top, full=full: _Recommendation(  # noqa: E731
                recommendation=f'For "{_short(m)}", check the design against {top.title} [{top.arxiv_id}], '
                f'which reports: "{_closest_sentence(m, full.snippet if full else top.snippet, embed)}"'
            )
            recs.append(
                _llm_step(
                    ctx,
                    notes,
                    "recommend",
                    f"Method: {m}\nPrior paper [{top.arxiv_id}] {top.title}: "
                    f"{top.snippet}\nGive one recommendation to improve the method given this paper "
                    'and one concern. JSON {"recommendation": ..., "concern": ...}.',
                    _Recommendation,
                    fb,
                )
            )
    refs = []
    for m in methods:
        refs += [h for h in method_hits[m] if h.arxiv_id not in {r.arxiv_id for r in refs}]
    refs = sorted(refs, key=lambda h: -h.score)[:MAX_REFERENCES]

    # ---- contribution pipeline --------------------------------------------------------
    dims = _llm_step(
        ctx,
        notes,
        "dimensions",
        f"List the contribution dimensions this plan claims (what would be "
        f'new), at most {MAX_DIMENSIONS}, one sentence each. JSON {{"items": [...]}}.\n\n{plan[:6000]}',
        _Items,
        lambda: _Items(items=extract_dimensions(plan, kb)),
    ).items[:MAX_DIMENSIONS]
    pool: dict[str, object] = {}
    for d in dims:
        queries.append(d)
        for h in kb.search(d, k=MAX_RESULTS_PER_QUERY):
            if kb.relevant(h, d) and (h.arxiv_id not in pool or pool[h.arxiv_id].score < h.score):
                pool[h.arxiv_id] = h
    compared = sorted(pool.values(), key=lambda h: -h.score)[:MAX_COMPARED]
    overlaps: dict[str, list] = {d: [] for d in dims}
    if compared and dims:
        vecs = np.asarray(embed([*dims, *[f"{h.title}. {h.snippet}" for h in compared]]))
        sims = vecs[: len(dims)] @ vecs[len(dims) :].T
        for j, h in enumerate(compared):
            for i, d in enumerate(dims):
                fb = lambda s=float(sims[i, j]): _Comparison(overlaps=s >= OVERLAP)  # noqa: E731
                verdict = (
                    fb()
                    if ctx.llm is None or i > 0 or j >= 5
                    # LLM: first dimension x top 5 papers
                    else _llm_step(
                        ctx,
                        notes,
                        "compare",
                        f"Contribution: {d}\nPrior paper [{h.arxiv_id}] {h.title}: "
                        f"{h.snippet}\nDoes the prior paper already make this contribution? JSON "
                        '{"overlaps": true|false, "difference": ...}.',
                        _Comparison,
                        fb,
                    )
                )
                if verdict.overlaps:
                    overlaps[d].append(h)
    strengths, weaknesses = [], list(concerns)
    for d in dims:
        if overlaps[d]:
            h = overlaps[d][0]
            weaknesses.append(
                f'The contribution "{_short(d)}" overlaps with prior work before the cutoff, '
                f"e.g. {h.title} [{h.arxiv_id}]; the plan should state what it adds."
            )
        elif compared:
            strengths.append(
                f'The contribution "{_short(d)}" differs from the {len(compared)} compared papers before the cutoff.'
            )
    none = not refs and not compared
    soundness = " ".join(support) or f"Soundness: {NO_LITERATURE} for the plan's methods."
    contribution = (
        f"Compared with {len(compared)} papers before the cutoff: {len(strengths)} of {len(dims)} "
        f"contribution dimension(s) appear new, {sum(bool(v) for v in overlaps.values())} overlap."
        if compared
        else f"Contribution: {NO_LITERATURE}; novelty cannot be assessed against the KB."
    )
    synth = _llm_step(
        ctx,
        notes,
        "synthesis",
        "Write a review of the plan's soundness and contribution from these notes. JSON with soundness, "
        "contribution, strengths, weaknesses.\nNotes: "
        + json.dumps(
            {
                "methods": methods,
                "support": support,
                "concerns": concerns,
                "dimensions": dims,
                "overlaps": {d: [h.arxiv_id for h in v] for d, v in overlaps.items()},
            }
        )[:6000],
        _Synthesis,
        lambda: _Synthesis(soundness=soundness, contribution=contribution, strengths=strengths, weaknesses=weaknesses),
    )
    cited = list(dict.fromkeys([h.arxiv_id for h in refs] + [h.arxiv_id for v in overlaps.values() for h in v]))
    parsed = ReviewAnswer(
        soundness=synth.soundness or soundness,
        contribution=synth.contribution or contribution,
        strengths=synth.strengths or strengths,
        weaknesses=synth.weaknesses or weaknesses,
        recommendations=[f"{r.recommendation} {r.concern}".strip() for r in recs][:MAX_RECOMMENDATIONS],
        cited_ids=cited,
        no_relevant_literature=none,
    )
    artifacts = {
        "methods": json.dumps(methods),
        "dimensions": json.dumps(dims),
        "references": json.dumps([h.arxiv_id for h in refs]),
        "compared": json.dumps([h.arxiv_id for h in compared]),
        **{k: json.dumps(v) for k, v in notes.items()},
    }
    return review_answer(task, parsed, "scholareval", ctx, queries, artifacts, time.time() - t0)


def retrieval_review(ctx: AgentContext) -> Answer:
    """Baseline: one KB query with the plan's title and problem; cites the top relevant hits
    and lists them as related work, with no method or contribution analysis."""
    task, kb = ctx.task, ctx.kb
    query = (
        task.title.removeprefix("Review: ")
        + ". "
        + " ".join(b for h, b in sections(task.question.split("\n\n", 1)[-1]) if "problem" in h)[:1000]
    )
    hits = [h for h in kb.search(query, k=MAX_RESULTS_PER_QUERY) if kb.relevant(h, query)][:5]
    parsed = ReviewAnswer(
        soundness=(
            "Related work before the cutoff: " + "; ".join(f"{h.title} [{h.arxiv_id}]" for h in hits)
            if hits
            else f"Soundness: {NO_LITERATURE}."
        ),
        contribution=(
            f"The plan should position itself against {len(hits)} related paper(s)."
            if hits
            else f"Contribution: {NO_LITERATURE}."
        ),
        cited_ids=[h.arxiv_id for h in hits],
        no_relevant_literature=not hits,
    )
    return review_answer(task, parsed, "retrieval_review", ctx, [query], {}, 0.0)


def review_answer(task, parsed: ReviewAnswer, method: str, ctx: AgentContext, queries, artifacts, latency) -> Answer:
    """An idea review as an `Answer` (cited ids kept as the method wrote them: reference
    validity checks them, unlike the option families' renderer, which filters them)."""
    items = [*parsed.strengths, *parsed.weaknesses, *parsed.recommendations]
    return Answer(
        answer_id=f"{task.task_id}:{method}:{ctx.seed}",
        task_id=task.task_id,
        family=task.family,
        method=method,
        backbone=ctx.backbone_name,
        seed=ctx.seed,
        claims=items,
        decision=parsed.weaknesses[:5],
        text=review_text(parsed),
        evidence_ids=parsed.cited_ids,
        retrieval_queries=queries,
        has_support_artifact=bool(parsed.cited_ids),
        latency_s=round(latency, 3),
        artifacts={**artifacts, "review": parsed.model_dump_json()},
    )


SCHOLAREVAL = Agent(
    "scholareval", "ScholarEval soundness + contribution pipelines over the cutoff-bound KB", scholareval, source="ScholarEval §3"
)
RETRIEVAL_REVIEW = Agent(
    "retrieval_review", "lists the plan's top related papers (no analysis; a baseline)", retrieval_review, source="baseline"
)
IDEA_AGENTS = (RETRIEVAL_REVIEW, SCHOLAREVAL)

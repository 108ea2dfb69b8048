"""Offline research agents: honest forecasters that need no language model.

They exist so that the benchmark always has a floor to compare LLM methods against,
and so the whole graph (answers, scores, reports) builds without a model. Both see
only the task and a cutoff-bound `KnowledgeBaseView`; there is no parameter through
which gold or future data could reach them.

* `momentum_forecaster`: extrapolates the volume-normalised publication trend of each
  candidate (share of each month's KB papers among the candidate's nearest papers):
  the last 3 months before the cutoff against the 6 months before those.
* `retrieval_forecaster`: ranks candidates by how strongly the KB supports them
  (mean similarity of their best-matching papers) and quotes retrieved snippets.

A task that lists no options (an imported open-ended direction or planning question) is
answered over candidates derived from the public text (`assets.agents.open_tasks`); the
answer names them by text. What a baseline reads depends on the family's declared
`offline_reading` (the trend of each option's literature, the fit of the project to each option, or the recurring
limitations of the subject); the answer it builds is the family's own `answer_schema`,
filled from the fields the reading produces. Both render through
`assets.agents.render.render_answer`, the same contract as the LLM methods.


Length (over ~500 lines on purpose): the offline baseline methods (momentum, retrieval) and their
readings of the knowledge base share one evidence-gathering path, so their difference is only the
decision rule."""

from __future__ import annotations

import math
import re
from collections import Counter
from datetime import date

import numpy as np

from assets.agents.context import Agent, AgentContext
from assets.agents.open_tasks import answer_open_task
from assets.agents.render import render_answer
from assets.families.answers import task_subject, window_phrase
from assets.families.registry import get_family
from core.papers import add_months
from core.records import Answer, Task
from core.text import STOP_WORDS

RECENT_MONTHS = 3
PRIOR_MONTHS = 6
ACCELERATING_AT = 1.25
COOLING_AT = 0.8
LIMITATION_CUES = (
    "however",
    "limited",
    "limitation",
    "fail",
    "challenge",
    "bottleneck",
    "costly",
    "hallucinat",
    "struggle",
    "lack",
    "insufficient",
    "expensive",
    "brittle",
    "unreliable",
    "suffer",
    "difficult",
    "remain",
)
LIMITATION_QUERY = "limitation challenge bottleneck fails costly"
_PROPOSAL = re.compile(r"\b(we|this paper|this work|our)\b.*\b(propose|present|introduce|develop|design)", re.I)
_SENTENCE = re.compile(r"(?<=[.!?])\s+(?=[A-Z(])")
_TOKEN = re.compile(r"[a-z][a-z0-9\-]{2,}")


# -- shared helpers ---------------------------------------------------------------------


def _month(d: date) -> str:
    return d.strftime("%Y-%m")


def window_months(cutoff: date, recent: int = RECENT_MONTHS, prior: int = PRIOR_MONTHS) -> tuple[list[str], list[str]]:
    """Month labels of the recent window (ending with the cutoff's month) and the prior one."""
    labels = [_month(add_months(date(cutoff.year, cutoff.month, 1), -i)) for i in range(recent + prior)]
    return sorted(labels[:recent]), sorted(labels[recent:])


def momentum_stats(dates: list[date], volume: dict[str, int], cutoff: date) -> dict[str, float]:
    """Volume-normalised trend of a set of matching papers.

    share = matching papers / all KB papers in the window (the corpus is unevenly
    harvested over time, so raw counts would mostly measure the harvest). Counts get
    +0.5 smoothing so one paper does not make an infinite ratio; a window with no KB
    papers at all gives ratio 1.0 (no evidence of change).
    """
    recent, prior = window_months(cutoff)
    months = Counter(_month(d) for d in dates if d <= cutoff)
    r_hits, p_hits = sum(months[m] for m in recent), sum(months[m] for m in prior)
    r_vol, p_vol = sum(volume.get(m, 0) for m in recent), sum(volume.get(m, 0) for m in prior)
    r_share = (r_hits + 0.5) / r_vol if r_vol else 0.0
    p_share = (p_hits + 0.5) / p_vol if p_vol else 0.0
    ratio = r_share / p_share if r_vol and p_vol else 1.0
    return {
        "recent_hits": float(r_hits),
        "prior_hits": float(p_hits),
        "recent_volume": float(r_vol),
        "prior_volume": float(p_vol),
        "recent_share": r_share,
        "prior_share": p_share,
        "ratio": ratio,
    }


def trajectory_from_ratio(ratio: float) -> str:
    """accelerating / steady / cooling from the recent-vs-prior share ratio. 'fragmenting'
    (a direction splitting into sub-branches) needs taxonomy structure, which a KB trend
    cannot see, so an offline forecaster never predicts it."""
    if ratio >= ACCELERATING_AT:
        return "accelerating"
    if ratio <= COOLING_AT:
        return "cooling"
    return "steady"


def _ordered(hits):
    return sorted(hits, key=lambda h: (-h.score, h.arxiv_id))


def _merge(*hit_lists):
    seen, out = set(), []
    for hits in hit_lists:
        for h in hits:
            if h.arxiv_id not in seen:
                seen.add(h.arxiv_id)
                out.append(h)
    return out


def sentences(text: str) -> list[str]:
    """Complete sentences only: a search snippet is cut at 400 characters, and a cut-off
    sentence ("these benchmarks lack fine-grained") would read as a claim it never made."""
    parts = [s.strip() for s in _SENTENCE.split(" ".join(text.split()))]
    return [s for s in parts if len(s) > 20 and s[-1] in ".!?\"')"]


def terms(text: str, exclude: frozenset[str] = frozenset()) -> set[str]:
    """Content words, crudely singularised, without stopwords and `exclude`."""
    out = set()
    for tok in _TOKEN.findall(text.lower()):
        tok = tok.strip("-")
        if len(tok) > 4 and tok.endswith("ies"):
            tok = tok[:-3] + "y"
        elif len(tok) > 4 and tok.endswith("s") and not tok.endswith(("ss", "us", "is")):
            tok = tok[:-1]
        if len(tok) >= 4 and tok not in STOP_WORDS and tok not in exclude:
            out.add(tok)
    return out


def is_limitation(sentence: str) -> bool:
    """A sentence stating a limitation (cue word), not one announcing the paper's own proposal."""
    low = sentence.lower()
    return any(cue in low for cue in LIMITATION_CUES) and not _PROPOSAL.search(sentence)


_CONNECTIVE = re.compile(r"^(however|but|yet|still|moreover|nevertheless|unfortunately|despite this|in practice)\s*,?\s*", re.I)


def strip_connective(sentence: str) -> str:
    out = _CONNECTIVE.sub("", sentence.strip())
    return out[:1].upper() + out[1:] if out else out


def _first_sentence(text: str) -> str:
    parts = sentences(text)
    return _trim(parts[0] if parts else text)


def _trim(text: str, limit: int = 220) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1].rsplit(" ", 1)[0] + "…"


def _phrase(words: list[str]) -> str:
    if not words:
        return ""
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]


# -- momentum forecaster ------------------------------------------------------------------


def option_momentum(task: Task, kb, *, k: int, volume: dict[str, int]) -> list[dict]:
    """Per option: its nearest KB papers and their normalised trend, best first."""
    rows = []
    for index, option in enumerate(task.options):
        hits = _ordered(kb.search(option.text, k=k, mode="dense"))
        stats = momentum_stats([h.published for h in hits], volume, kb.cutoff)
        rows.append({"option": option, "index": index, "hits": hits, "stats": stats})
    rows.sort(key=lambda r: (-r["stats"]["ratio"], -r["stats"]["recent_share"], r["index"]))
    return rows


def _recent_first(hits, n: int):
    return sorted(hits, key=lambda h: (h.published, h.score, h.arxiv_id), reverse=True)[:n]


def _trend_claim(row, cutoff: date) -> str:
    s = row["stats"]
    recent, prior = window_months(cutoff)
    return (
        f"Among the {len(row['hits'])} knowledge-base papers closest to '{row['option'].text}', the share of "
        f"each month's papers in {recent[0]}..{recent[-1]} was {s['ratio']:.2f}x that of {prior[0]}..{prior[-1]} "
        f"({int(s['recent_hits'])} vs {int(s['prior_hits'])} papers)."
    )


def _no_reading(task: Task) -> ValueError:
    return ValueError(
        f"{task.task_id}: family {task.family!r} declares no offline reading "
        "(TaskFamily.offline_reading), so the offline baselines cannot answer it"
    )


def momentum_forecaster(ctx: AgentContext) -> Answer:
    """Trend-extrapolation forecaster (method "momentum"; setting k, default 60).

    option_trend: rank options by recent-vs-prior normalised share ratio.
    subject_limitations: the most recurrent limitation sentence among the subject's papers.
    option_fit: the option text closest to the project description (embedder, else word overlap).
    """
    task, kb = ctx.task, ctx.kb
    k = ctx.setting("k", 60)
    reading = ctx.family.offline_reading
    if reading in ("option_trend", "option_fit") and not task.options:
        return answer_open_task(ctx, momentum_forecaster)
    if reading == "option_trend":
        return _momentum_options(ctx, k=k)
    if reading == "subject_limitations":
        return _momentum_bottleneck(task, kb, k=k, seed=ctx.seed, backbone=ctx.backbone_name)
    if reading == "option_fit":
        return _venue_by_similarity(ctx, method="momentum")
    if reading == "own" and ctx.family.offline_answer is not None:
        return ctx.family.offline_answer(ctx, "momentum")
    raise _no_reading(task)


def _momentum_options(ctx: AgentContext, *, k: int) -> Answer:
    task, kb = ctx.task, ctx.kb
    if not task.options:
        raise ValueError(f"{task.task_id}: {task.family} task has no options")
    volume = ctx.monthly_volume()
    rows = option_momentum(task, kb, k=k, volume=volume)
    top, last = rows[0], rows[-1]
    ranking = [r["option"].option_id for r in rows]
    trajectory = trajectory_from_ratio(top["stats"]["ratio"])
    evidence = []
    for r in rows[:2]:
        evidence += _recent_first(r["hits"], 3)
    cited = [h.arxiv_id for h in evidence]
    claims = [_trend_claim(r, kb.cutoff) for r in rows]
    retrieved = _merge(*[r["hits"] for r in rows])
    queries = [r["option"].text for r in sorted(rows, key=lambda r: r["index"])]
    window = window_phrase(task)
    # the shared option-ranking fields; the family adds its own from what the trend read found
    found = {
        "method": "momentum",
        "top": top["option"].text,
        "ranked": [r["option"].text for r in rows],
        "ratios": [r["stats"]["ratio"] for r in rows],
        "labels": [trajectory_from_ratio(r["stats"]["ratio"]) for r in rows],
        "cooling_at": COOLING_AT,
        "recent_work": [(h.title, h.arxiv_id) for h in _recent_first(top["hits"], 2)],
        "window": window,
    }
    parsed = ctx.family.answer_schema.model_validate(
        {
            "choice": ranking[0],
            "trajectory": trajectory,
            "ranking": ranking,
            "rationale": (
                f"'{top['option'].text}' has the steepest volume-normalised rise "
                f"({top['stats']['ratio']:.2f}x recent vs prior share); "
                f"'{last['option'].text}' the weakest ({last['stats']['ratio']:.2f}x)."
            ),
            **ctx.family.offline_fields(task, found),
            "claims": claims,
            "cited_ids": cited,
        }
    )
    return render_answer(
        task,
        parsed,
        method="momentum",
        backbone=ctx.backbone_name,
        seed=ctx.seed,
        retrieved=retrieved,
        retrieval_queries=queries,
        has_support_artifact=True,
    )


def root_bottleneck(subject: str, hits, full_text: dict[str, str]) -> dict:
    """The most recurrent limitation among the hits.

    Limitation-like sentences (cue words, not the paper's own proposal) are compared by
    shared content terms (subject words excluded); the sentence sharing >= 2 terms with
    sentences of the most other papers is the representative and its neighbours form
    the group. The group's terms are ranked by (papers in the group using them) x idf
    over all the hits' sentences, so generic words do not name the bottleneck.
    """
    exclude = frozenset(terms(subject))
    cands = []  # (arxiv_id, sentence, terms)
    doc_freq: Counter = Counter()
    n_docs = 0
    for h in hits:
        for s in sentences(full_text.get(h.arxiv_id, h.snippet)):
            t = terms(s, exclude)
            doc_freq.update(t)
            n_docs += 1
            if is_limitation(s) and len(t) >= 2:
                cands.append((h.arxiv_id, s, t))
    if not cands:
        return {"sentence": "", "terms": [], "paper_ids": [], "support": 0}
    best = None
    for i, (pid, _, t) in enumerate(cands):
        group = [j for j, (pj, _, tj) in enumerate(cands) if pj != pid and len(t & tj) >= 2]
        papers = {cands[j][0] for j in group} | {pid}
        key = (len(papers), -i)
        if best is None or key > best[0]:
            best = (key, i, group)
    _, i, group = best
    members = [i] + group
    in_group: dict[str, set[str]] = {}
    for j in members:
        for w in cands[j][2]:
            in_group.setdefault(w, set()).add(cands[j][0])
    weight = {w: len(p) * math.log(1 + n_docs / doc_freq[w]) for w, p in in_group.items()}
    chosen = sorted(weight, key=lambda w: (-weight[w], w))[:3]
    low = cands[i][1].lower()  # read them in the representative sentence's order ("high computational cost")
    chosen.sort(key=lambda w: (low.find(w) if w in low else len(low), w))
    paper_ids = list(dict.fromkeys(cands[j][0] for j in members))
    return {"sentence": cands[i][1], "terms": chosen, "paper_ids": paper_ids, "support": len(paper_ids)}


def bottleneck_phrase(sentence: str, chosen: list[str], max_words: int = 8) -> str:
    """The shortest stretch of the representative sentence holding all the bottleneck terms
    ("high computational cost") when it is short, else the terms joined ("a, b and c")."""
    words = sentence.split()
    idx = [i for i, w in enumerate(words) if terms(w) & set(chosen)]
    if idx and idx[-1] - idx[0] < max_words and set().union(*(terms(words[i]) for i in idx)) >= set(chosen):
        return " ".join(words[idx[0] : idx[-1] + 1]).strip(" ,.;:()")
    return _phrase(chosen)


def _title_terms(title: str, exclude: set[str]) -> set[str]:
    words = re.findall(r"[a-z][a-z0-9\-]+", title.lower())
    keep = [w for w in words if w not in STOP_WORDS and len(w) >= 3 and w not in exclude]
    grams = {
        f"{a} {b}"
        for a, b in zip(words, words[1:])
        if a not in STOP_WORDS and b not in STOP_WORDS and len(a) >= 3 and len(b) >= 3 and a not in exclude and b not in exclude
    }
    return set(keep) | grams


def emerging_method_terms(hits, exclude: set[str], cutoff: date, n: int = 3) -> list[str]:
    """Title terms whose share rose most among the hits of the last 6 months before the
    cutoff compared with the older hits (used by >= 2 recent papers); bigrams win ties."""
    start = add_months(cutoff, -6)
    recent = [h for h in hits if h.published > start]
    older = [h for h in hits if h.published <= start]
    if not recent:
        return []
    r_df, o_df = Counter(), Counter()
    for h in recent:
        r_df.update(_title_terms(h.title, exclude))
    for h in older:
        o_df.update(_title_terms(h.title, exclude))
    rise = {w: r_df[w] / len(recent) - o_df[w] / max(1, len(older)) for w in r_df if r_df[w] >= 2}
    ranked = sorted(rise, key=lambda w: (-rise[w], -len(w.split()), w))
    chosen: list[str] = []
    for w in ranked:
        if not any(w in c or c in w for c in chosen):
            chosen.append(w)
        if len(chosen) == n:
            break
    return chosen


def _momentum_bottleneck(task, kb, *, k, seed, backbone) -> Answer:
    subject = task_subject(task)
    queries = [subject, f"{subject} {LIMITATION_QUERY}"]
    hits = _merge(
        _ordered(kb.search(queries[0], k=k, mode="dense")), _ordered(kb.search(queries[1], k=max(1, k // 2), mode="hybrid"))
    )
    full = {}
    for h in hits[:40]:  # search snippets are cut at 400 chars; limitations often come later
        got = kb.get(h.arxiv_id)
        if got is not None:
            full[h.arxiv_id] = got.snippet
    root = root_bottleneck(subject, hits, full)
    methods = emerging_method_terms(hits, set(terms(subject)) | set(root["terms"]), kb.cutoff)
    recent = [h for h in _recent_first(hits, len(hits)) if any(m in h.title.lower() for m in methods)][:3]
    bottleneck = (
        bottleneck_phrase(root["sentence"], root["terms"])
        if root["terms"]
        else "unclear (no recurring limitation in the pre-cutoff papers)"
    )
    opportunity = _phrase(methods) or "no clear emerging method"
    claims = []
    if root["terms"]:
        claims.append(
            f"{root['support']} pre-cutoff papers on {subject} state a limitation involving "
            f'{_phrase(root["terms"])}, e.g. "{_trim(strip_connective(root["sentence"]), 200)}"'
        )
    if methods:
        claims.append(f"Recent pre-cutoff papers on {subject} increasingly mention {opportunity}.")
    family = get_family(task.family)
    found = {
        "limitation": bottleneck,
        "next_step": opportunity,
        "rationale": (
            f"The limitation recurs across {root['support']} papers; the most recent papers on {subject} "
            f"({', '.join(h.arxiv_id for h in recent) or 'none'}) turn to {opportunity}."
        ),
    }
    parsed = family.answer_schema.model_validate(
        {
            **family.offline_fields(task, found),
            "claims": claims,
            "cited_ids": root["paper_ids"][:6] + [h.arxiv_id for h in recent],
        }
    )
    return render_answer(
        task,
        parsed,
        method="momentum",
        backbone=backbone,
        seed=seed,
        retrieved=hits,
        retrieval_queries=queries,
        has_support_artifact=True,
    )


def _venue_by_similarity(ctx: AgentContext, *, method: str, k: int = 5) -> Answer:
    """Rank options (e.g. venue families) by how close their profile text is to the project
    description in the question.

    The KB has no venue labels, so it serves only as evidence (the closest pre-cutoff
    papers to the project); the ranking is cosine of embeddings when an embedder is given,
    else word-set overlap (Jaccard)."""
    task, kb, embed = ctx.task, ctx.kb, ctx.embed
    if not task.options:
        raise ValueError(f"{task.task_id}: {task.family} task has no options")
    texts = [o.text for o in task.options]
    if embed is not None:
        vecs = np.asarray(embed([task.question] + texts), dtype=np.float32)
        sims = [float(v) for v in vecs[1:] @ vecs[0]]
    else:
        q = terms(task.question)
        sims = [len(q & terms(t)) / max(1, len(q | terms(t))) for t in texts]
    order = sorted(range(len(texts)), key=lambda i: (-sims[i], i))
    ranking = [task.options[i].option_id for i in order]
    hits = _ordered(kb.search(task.question, k=k, mode="hybrid"))
    top = task.options[order[0]]
    claims = [
        f"The project description is closer to the {top.text} profile (similarity {sims[order[0]]:.2f}) "
        f"than to {task.options[order[-1]].text} ({sims[order[-1]]:.2f})."
    ]
    claims += [f"Closest pre-cutoff work: '{h.title}' ({h.arxiv_id}, {h.published.isoformat()})." for h in hits[:2]]
    found = {
        "method": method,
        "top": top.text,
        "ranked": [task.options[i].text for i in order],
        "closest": [(h.title, h.arxiv_id) for h in hits],
    }
    parsed = ctx.family.answer_schema.model_validate(
        {
            "choice": ranking[0],
            "ranking": ranking,
            **ctx.family.offline_fields(task, found),
            "claims": claims,
            "cited_ids": [h.arxiv_id for h in hits],
        }
    )
    return render_answer(
        task,
        parsed,
        method=method,
        backbone=ctx.backbone_name,
        seed=ctx.seed,
        retrieved=hits,
        retrieval_queries=[task.question],
        has_support_artifact=bool(hits),
    )


# -- retrieval forecaster -----------------------------------------------------------------


def retrieval_forecaster(ctx: AgentContext) -> Answer:
    """Evidence-strength forecaster (method "retrieval"; setting k, default 20).

    Each option is searched with hybrid retrieval (its evidence) and scored by the mean
    score of its top-5 dense hits: hybrid scores are reciprocal-rank fusions (about
    2/61 for any query whose two retrievers agree), so they do not compare across
    queries, while dense cosines do. Claims quote the first sentences of retrieved
    snippets; a trajectory (if the family's answer has one) reuses the normalised trend of
    the top option's hits. Options are searched with the family's `evidence_queries`.
    """
    task, kb, family = ctx.task, ctx.kb, ctx.family
    k = ctx.setting("k", 20)
    if family.offline_reading == "none":
        raise _no_reading(task)
    if family.offline_reading == "own" and family.offline_answer is not None:
        return family.offline_answer(ctx, "retrieval")
    if family.offline_reading == "own":
        raise _no_reading(task)
    if family.offline_reading in ("option_trend", "option_fit") and not task.options:
        return answer_open_task(ctx, retrieval_forecaster)
    question_hits = _ordered(kb.search(task.question, k=k, mode="hybrid"))
    if family.offline_reading == "subject_limitations":
        return _retrieval_bottleneck(task, kb, k=k, question_hits=question_hits, seed=ctx.seed, backbone=ctx.backbone_name)
    if not task.options:
        raise ValueError(f"{task.task_id}: {task.family} task has no options")
    option_queries = [q for _, q in family.evidence_queries(task)]
    rows = []
    for index, (option, query) in enumerate(zip(task.options, option_queries)):
        evidence = _ordered(kb.search(query, k=k, mode="hybrid"))
        dense = _ordered(kb.search(query, k=5, mode="dense"))
        score = float(np.mean([h.score for h in dense])) if dense else float("-inf")
        rows.append({"option": option, "index": index, "hits": evidence, "dense": dense, "score": score})
    rows.sort(key=lambda r: (-r["score"], r["index"]))
    ranking = [r["option"].option_id for r in rows]
    top = rows[0]
    about = "the project" if family.offline_reading == "option_fit" else f"'{top['option'].text}'"
    claims = [f"Pre-cutoff work close to {about} reports: {_first_sentence(h.snippet)}" for h in top["hits"][:2]]
    claims.append(
        f"'{top['option'].text}' has the strongest pre-cutoff support in the knowledge base "
        f"(mean top-5 similarity {top['score']:.3f} vs {rows[-1]['score']:.3f} for '{rows[-1]['option'].text}')."
    )
    cited = [h.arxiv_id for h in top["hits"][:5]] + [h.arxiv_id for r in rows[1:] for h in r["hits"][:1]]
    retrieved = _merge(question_hits, *[r["hits"] for r in rows], *[r["dense"] for r in rows])
    queries = [task.question] + option_queries
    fields = {
        "choice": ranking[0],
        "ranking": ranking,
        "claims": claims,
        "cited_ids": cited,
        **family.offline_fields(
            task, {"method": "retrieval", "top": top["option"].text, "ranked": [r["option"].text for r in rows]}
        ),
    }
    if "trajectory" in family.answer_schema.model_fields:  # only then is the trend worth a volume read
        ratio = momentum_stats([h.published for h in top["hits"]], ctx.monthly_volume(), kb.cutoff)["ratio"]
        fields.update(
            trajectory=trajectory_from_ratio(ratio), rationale=f"Strongest retrieved support; trend of its hits {ratio:.2f}x."
        )
    parsed = family.answer_schema.model_validate(fields)
    return render_answer(
        task,
        parsed,
        method="retrieval",
        backbone=ctx.backbone_name,
        seed=ctx.seed,
        retrieved=retrieved,
        retrieval_queries=queries,
        has_support_artifact=True,
    )


def _retrieval_bottleneck(task, kb, *, k, question_hits, seed, backbone) -> Answer:
    subject = task_subject(task)
    query = f"{subject} {LIMITATION_QUERY}"
    hits = _merge(question_hits, _ordered(kb.search(query, k=k, mode="hybrid")))  # on-subject hits first
    limiting = [(h, s) for h in hits for s in sentences(h.snippet) if is_limitation(s)]
    if limiting:
        h0, sentence = limiting[0]
    elif hits:
        h0, sentence = hits[0], _first_sentence(hits[0].snippet)
    else:
        h0, sentence = None, ""
    recent = _recent_first(hits, 5)
    opportunity = f"the approach of '{recent[0].title}'" if recent else "no clear opportunity"
    claims = [f"Pre-cutoff work on {subject} reports: {_trim(s)}" for _, s in limiting[:3]]
    cited = list(dict.fromkeys([h.arxiv_id for h, _ in limiting[:3]] + [h.arxiv_id for h in recent[:1]]))
    family = get_family(task.family)
    found = {
        "limitation": _trim(strip_connective(sentence)) if sentence else "unclear: nothing retrieved",
        "next_step": opportunity,
        "rationale": f"Most recent retrieved work: {recent[0].title} ({recent[0].arxiv_id})." if recent else "",
    }
    parsed = family.answer_schema.model_validate(
        {**family.offline_fields(task, found), "claims": claims, "cited_ids": cited if h0 else []}
    )
    return render_answer(
        task,
        parsed,
        method="retrieval",
        backbone=backbone,
        seed=seed,
        retrieved=hits,
        retrieval_queries=[task.question, query],
        has_support_artifact=True,
    )


MOMENTUM = Agent(
    "momentum",
    "offline: extrapolates each option's volume-normalised publication trend",
    momentum_forecaster,
    source="foresci baseline (no model)",
)
RETRIEVAL = Agent(
    "retrieval",
    "offline: ranks options by the strength of their pre-cutoff KB support",
    retrieval_forecaster,
    source="foresci baseline (no model)",
)

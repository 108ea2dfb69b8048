"""TaskWeaver offline: phase tasks from research inspirations (DeepResearch Arena §3, Table 2).

Per phase, a primary inspiration of the phase's kinds that states what the phase needs
(`primary_fits`) and a supporting one when one is related (cosine >= SUPPORT_COS with the
primary quote and a shared topic stem) and on the task's topic (`on_topic` with the primary
paper's title); one documented template per phase (`question_text`). A primary quote that is not
on its own paper's subject is not used either.

Third pass of issue 32 (a blind reader's findings): a design task's primary paper contributes a
method (`contribution_kind`: never a benchmark, dataset or evaluation suite, which would ask to
"design the next method on <a benchmark>"); a support quote reaches the task's topic bar
(`CONTEXT_COS` with the primary title and quote) and, for design, is a method gap, not an
evaluation gap (`is_evaluation_gap`); with no support that qualifies the slot is left out."""

from __future__ import annotations

import json
import re
from functools import partial

import numpy as np

from assets.arena.inspirations import Inspiration, draft_inspirations, extract_inspirations
from assets.families.base import TaskFamily
from assets.families.phase.kinds import contribution_kind, is_evaluation_gap
from assets.families.phase.quotes import (
    PHASE_TITLES,
    PHASES,
    primary_fits,
    quote_key,
    quoted_keys,
    readable_quote,
    readable_subject,
    shares_quote,
    short_topic,
    states_own_limitation,
)
from assets.families.phase.topic import (
    CONTEXT_COS,
    continues,
    lineage_score,
    on_topic,
    paper_closeness,
    sentence_vectors,
    stem_shares,
    topic_stems,
    topic_text,
)
from assets.toolbox.building import MAX_SUPPORT_PAPERS, MIN_SUPPORT_PAPERS
from core.leakage import internal_violations
from core.records import BuildStep, Failure, Task, TaskBuild
from core.text import content_tokens, jaccard

PRIMARY = {"synthesize": ("limitation",), "design": ("methodology", "transdisciplinarity"), "evaluate": ("hypothesis",)}
SUPPORT = {
    "synthesize": ("hypothesis", "methodology", "transdisciplinarity"),
    "design": ("limitation",),
    "evaluate": ("methodology", "transdisciplinarity"),
}
SUPPORT_COS = 0.55  # all-MiniLM-L6-v2 cosine of a supporting quote with the primary quote (else no support)
DUPLICATE_JACCARD = 0.6  # two tasks whose primary quotes share this much are one task
# a primary paper older than this at the cutoff is no longer the frontier: a reader found a task
# asking to "take further" a July 2023 quantisation paper (ZeroQuant-FP) at a 2025-12-31 cutoff,
# whose successors had moved on to other formats; two years is a field generation in ML
MAX_ANCHOR_AGE_DAYS = 730
# a support's paper must share the primary paper's specific vocabulary (gold.py's lineage score,
# here with the pre-cutoff papers' stem shares): a reader found "Squeeze3D" (3D-model compression)
# attached as the related finding of a video-diffusion-prior scene-generation task (lineage 14.5);
# on the read build the related papers a reader would call the same line of work score >= 25
# (SWE-agent for a SWE-agent debate paper 27.5, Mind2Web for internet-scale web-agent training 25.1)
MIN_SUPPORT_LINEAGE = 25.0


def question_text(
    phase: str,
    subject: str,
    domain_title: str,
    primary: tuple[str, str],
    support: tuple[str, str] | None,
    cutoff: str,
    ws: str,
    we: str,
) -> str:
    """The offline TaskWeaver template of one phase (public: pre-cutoff quotes and ids only).
    `primary` and `support` are (readable quote, paper id)."""
    q, pid = primary
    field = subject or domain_title  # the topic, a short noun phrase (`short_topic`)
    if phase == "synthesize":
        s = f' A related pre-cutoff finding ({support[1]}): "{support[0]}"' if support else ""
        if not own_limitation(q):
            # a limitation of the work BEFORE the paper (its motivation, which it set out to solve):
            # a reader found it misattributed as "this limitation of <paper>" (issue 32, sixth pass)
            return (
                f"Synthesize the research on {field} published up to {cutoff}. A pre-cutoff paper ({pid}) set out "
                f'to close this gap in earlier work: "{q}"{s} Integrate what prior work says about this gap, '
                f"identify what {pid}'s approach still leaves open, and state the research direction that work "
                f"published between {ws} and {we} would take up to close it."
            )
        return (
            f"Synthesize the research on {field} published up to {cutoff}. A pre-cutoff paper ({pid}) reported "
            f'the limitation: "{q}"{s} Integrate what prior work says about this limitation of {pid}, identify '
            f"the gap it leaves open, and state the research direction that work published between {ws} and {we} "
            f"would take up to close it."
        )
    if phase == "design":
        # the ask names the gap when one is known (a reader found "propose the next method" with no
        # concrete fork generic): the open problem quoted, else the approach's own next step
        s = f' A related open problem ({support[1]}): "{support[0]}"' if support else ""
        aim = "build on this approach to solve that open problem" if support else "build to take this approach further"
        return (
            f'Design the next method for {field}, as of {cutoff}. A pre-cutoff paper ({pid}) proposed: "{q}"{s} '
            f"Propose the method that work published between {ws} and {we} would {aim}: the method, the "
            f"experiments that would test it, and what it assumes."
        )
    s = f' A related pre-cutoff approach ({support[1]}): "{support[0]}"' if support else ""
    return (
        f'Evaluate a claim on {field}, as of {cutoff}. A pre-cutoff paper ({pid}) reported: "{q}"{s} Design '
        f"the evaluation that work published between {ws} and {we} would run to confirm or refute this "
        f"claim of {pid}: benchmarks, metrics, baselines and statistical tests."
    )


# a limitation the paper states of ITS OWN method or findings ("our method still fails on ...", "this work
# is limited to ..."), as against one of the work before it ("existing methods lack ...")
OWN_LIMITATION = re.compile(
    r"\b(?:our|we|this (?:paper|work|study|method|approach|framework|model))\b|\b(?:future work|remains? (?:an? )?"
    r"(?:open|limitation))\b",
    re.I,
)
PRIOR_WORK_SUBJECT = re.compile(
    r"\b(?:existing|current|prior|previous|conventional|traditional|standard|mainstream|typical|popular|recent|"
    r"most|many|state-of-the-art|earlier)\b",
    re.I,
)


def own_limitation(quote: str) -> bool:
    """Whether a synthesize quote states the paper's own limitation (OWN_LIMITATION, naming no prior
    work): otherwise it is the gap in earlier work that the paper addressed, and the question says so."""
    return bool(OWN_LIMITATION.search(quote)) and not PRIOR_WORK_SUBJECT.search(quote)


def build_phase_tasks(family: TaskFamily, builder) -> None:
    """Per phase, primaries taken node by node in turn (the nodes with most inspirations
    first, each node's inspirations in the extractor's order), the phases taking turns so
    each gets its share of the family's budget; only readable quotes not quoted before."""
    st = builder.settings
    records = list(builder.records_by_node.values())
    drafter = builder.inspiration_drafter
    if drafter is None and builder.llm is not None:  # model-drafted inspirations
        drafter = partial(draft_inspirations, builder.llm)
    inspirations = drafter(records, st.cutoff) if drafter else extract_inspirations(records, st.cutoff)
    builder.inspirations = inspirations
    titles = {p.arxiv_id: p.title for p in builder.papers}
    abstracts = {p.arxiv_id: p.abstract for p in builder.papers}
    taken = quoted_keys(t.question for t in builder.tasks)  # the families built before quote these
    usable: list[tuple[Inspiration, str]] = []
    for i in inspirations:
        body = readable_quote(i.quote)
        if body is not None and not shares_quote(quote_key(body), taken):
            usable.append((i, body))
    vecs = sentence_vectors([b for _, b in usable])
    by_node: dict[str, list[int]] = {}
    for k, (i, _) in enumerate(usable):
        by_node.setdefault(i.node_id, []).append(k)
    nodes = sorted(by_node, key=lambda n: (-len(by_node[n]), n))
    order = {}  # phase -> usable indices of its primary kinds, node by node in turn
    for ph in PHASES:
        lists = [[k for k in by_node[n] if usable[k][0].kind in PRIMARY[ph] and primary_fits(ph, usable[k][1])] for n in nodes]
        order[ph] = [lst[r] for r in range(max((len(x) for x in lists), default=0)) for lst in lists if r < len(lst)]
    limit = st.family_max(family.name)
    per_phase = -(-limit // len(PHASES))  # each phase gets its share of the family's budget
    made = {ph: 0 for ph in PHASES}
    state: dict = {"quotes": set(), "papers": set(), "kept": [], "off_topic": 0}
    df = stem_shares([f"{p.title}. {p.abstract}" for p in builder.papers])  # the domain's everyday words
    topic_vecs: dict[str, np.ndarray] = {}

    def topic_of(title: str) -> tuple[str, np.ndarray] | None:
        """The task's topic: the primary paper's title and its MiniLM vector (None: no title)."""
        if not title.strip():
            return None
        if title not in topic_vecs:
            topic_vecs[title] = sentence_vectors([title])[0]
        return title, topic_vecs[title]

    while builder.count(family.name) < limit and any(order[ph] and made[ph] < per_phase for ph in PHASES):
        for ph in PHASES:
            while order[ph] and made[ph] < per_phase and builder.count(family.name) < limit:
                k = order[ph].pop(0)
                primary, body = usable[k]
                if primary.paper_id in state["papers"] or shares_quote(quote_key(body), state["quotes"]):
                    continue
                if stale_anchor(primary.published, st.cutoff):
                    state["stale_anchor"] = state.get("stale_anchor", 0) + 1  # not the frontier any more
                    continue
                title = titles.get(primary.paper_id, "")
                abstract = abstracts.get(primary.paper_id, "")
                if ph == "synthesize" and abstract and not states_own_limitation(body, abstract):
                    state["not_own_limitation"] = state.get("not_own_limitation", 0) + 1  # the field's motivation
                    continue
                if ph == "design" and not _method_primary(title, abstracts.get(primary.paper_id, ""), body):
                    state["not_method"] = state.get("not_method", 0) + 1  # a benchmark is evaluated, not designed on
                    continue
                topic = topic_of(title)
                cos_primary = float(vecs[k] @ topic[1]) if topic else 1.0
                if topic and not on_topic(body, topic[0], cos_primary, df):
                    state["off_topic"] += 1  # the primary quote is not about its own paper's subject
                    continue
                tvec = sentence_vectors([topic_text(title, body)])[0]
                same = partial(_same_problem, (title, abstract), titles, abstracts, state) if abstract else None
                support = _support(ph, k, usable, vecs, state, topic, df, tvec, same, abstracts)
                if support and not shares_lineage((title, abstract), support[0].paper_id, titles, abstracts, df):
                    state["support_no_lineage"] = state.get("support_no_lineage", 0) + 1
                    support = None  # a context quote from a paper on another problem only adds noise
                made[ph] += _emit(family, builder, ph, (primary, body), support, titles, state)
                break


def shares_lineage(primary: tuple[str, str], support_id: str, titles, abstracts, df) -> bool:
    """Whether the support paper's title and abstract reach MIN_SUPPORT_LINEAGE with the primary
    paper's (`primary`: title, abstract); True when either text is unknown (tests)."""
    other = f"{titles.get(support_id, '')}. {abstracts.get(support_id, '')}"
    if not primary[1] or not abstracts.get(support_id):
        return True
    return lineage_score(topic_stems(f"{primary[0]}. {primary[1]}"), other, df) >= MIN_SUPPORT_LINEAGE


def stale_anchor(published, cutoff) -> bool:
    """Whether a primary paper published on `published` is older than MAX_ANCHOR_AGE_DAYS at the
    cutoff (an unknown date is not stale)."""
    try:
        return (cutoff - published).days > MAX_ANCHOR_AGE_DAYS
    except TypeError:
        return False


def _support(
    phase: str,
    k: int,
    usable: list[tuple[Inspiration, str]],
    vecs: np.ndarray,
    state: dict,
    topic: tuple[str, np.ndarray] | None = None,
    df: dict[str, float] | None = None,
    tvec: np.ndarray | None = None,
    same_problem=None,
    abstracts: dict[str, str] | None = None,
) -> tuple[Inspiration, str, float] | None:
    """The most similar unused quote of the phase's support kinds from another paper, if its
    cosine with the primary quote is >= SUPPORT_COS, it shares a topic stem with it, it is on
    the task's topic (`on_topic` with the primary paper's title) and reaches the topic bar
    (cosine >= CONTEXT_COS with `tvec`, the topic text's vector); for design it states a method
    gap, not an evaluation gap. A reader found another paper's single-agent RL problem grafted
    onto a multi-agent credit-assignment task: the support's PAPER must continue the primary
    paper's problem (`same_problem`: the paper test of the gold, topic.py `continues`) and a
    limitation quoted as an open problem must be one its paper takes up (`states_own_limitation`).
    Else the task has no support: an off-topic context quote made the prompt noisier without
    helping anyone answer it."""
    primary = usable[k][0]
    best, best_cos = None, SUPPORT_COS
    cos = vecs @ vecs[k] if len(vecs) else np.zeros(0)
    for j in np.argsort(-cos, kind="stable"):
        if cos[j] < best_cos:
            break
        i, body = usable[j]
        if (
            i.kind in SUPPORT[phase]
            and i.paper_id != primary.paper_id
            and topic_stems(body) & topic_stems(usable[k][1])
            and not shares_quote(quote_key(body), state["quotes"])
        ):
            if topic and not on_topic(body, topic[0], float(vecs[j] @ topic[1]), df):
                state["off_topic_support"] = state.get("off_topic_support", 0) + 1
                continue  # related to the primary quote, but not about the task's subject
            if tvec is not None and float(vecs[j] @ tvec) < CONTEXT_COS:
                state["below_topic_bar"] = state.get("below_topic_bar", 0) + 1
                continue
            if phase == "design" and is_evaluation_gap(body):
                state["evaluation_gap"] = state.get("evaluation_gap", 0) + 1
                continue  # a design task's open problem is one a method takes up
            own = (abstracts or {}).get(i.paper_id, "")
            if i.kind == "limitation" and own and not states_own_limitation(body, own):
                state["support_not_own_limitation"] = state.get("support_not_own_limitation", 0) + 1
                continue
            if same_problem is not None and not same_problem(i.paper_id):
                state["support_other_problem"] = state.get("support_other_problem", 0) + 1
                continue  # another paper's problem: the same bar as a pursuing paper
            best = (i, body, round(float(cos[j]), 4))
            break
    return best


def _same_problem(
    primary: tuple[str, str], titles: dict[str, str], abstracts: dict[str, str], state: dict, paper_id: str
) -> bool:
    """Whether a supporting quote's paper continues the primary paper's problem (topic.py
    `continues`, the bar a pursuing window paper meets); an unknown paper does not."""
    if paper_id not in abstracts:
        return False
    setting, paper = paper_closeness(primary, [(titles.get(paper_id, ""), abstracts[paper_id])])
    return continues(setting[0], paper[0])


def _method_primary(title: str, abstract: str, quote: str) -> bool:
    """A design primary: its paper contributes a method (not a benchmark, dataset, evaluation or
    survey) and the quote proposes one (not "We introduce X, a benchmark ...")."""
    return contribution_kind(title, abstract) == "method" and contribution_kind("", quote) == "method"


def _emit(
    family: TaskFamily, builder, phase: str, primary: tuple[Inspiration, str], support, titles: dict[str, str], state: dict
) -> bool:
    st = builder.settings
    n = builder.count(family.name) + 1
    task_id = f"{st.domain}-{st.cutoff.isoformat()}-{family.name}-{n:02d}"
    p, body = primary
    sig = set(content_tokens(body))
    dup = next((tid for tid, other in state["kept"] if jaccard(sig, other) >= DUPLICATE_JACCARD), None)
    state["quotes"].add(quote_key(body))  # a quote is considered once, whatever happens to its task
    if dup:
        builder.failures.append(
            Failure(stage="tasks", item_id=task_id, reason=f"curation: duplicate decision of {dup} (same inspiration)")
        )
        return False
    title_known = bool(titles.get(p.paper_id, "").strip())
    # an unknown title (a build given no papers: tests) keeps the domain as the subject; a known
    # one must give a readable topic name ("Synthesize: LLM Agents (2509.19136)" names none)
    subject = readable_subject(titles[p.paper_id], st.domain_title) if title_known else st.domain_title
    if subject is not None and title_known:
        subject = short_topic(subject)  # a short noun phrase, not the whole title (quotes.py)
    if subject is None:
        builder.failures.append(
            Failure(stage="tasks", item_id=task_id, reason="curation: no readable topic name in the primary paper's title")
        )
        return False
    question = question_text(
        phase,
        subject,
        st.domain_title,
        (body, p.paper_id),
        (support[1], support[0].paper_id) if support else None,
        st.cutoff.isoformat(),
        st.window_start.isoformat(),
        st.window_end.isoformat(),
    )
    title = f"{PHASE_TITLES[phase]}: {subject}" if title_known else f"{PHASE_TITLES[phase]}: {subject} ({p.paper_id})"
    ins = [p] + ([support[0]] if support else [])
    record = builder.records_by_node.get(p.node_id)
    node_papers = (record.representative_ids + record.supporting_ids) if record else []
    support_ids = list(dict.fromkeys([i.paper_id for i in ins] + node_papers))[:MAX_SUPPORT_PAPERS]
    if len(support_ids) < MIN_SUPPORT_PAPERS:  # the same premise rule as every family: a node with papers
        builder.failures.append(
            Failure(
                stage="tasks",
                item_id=task_id,
                reason=(f"curation: thin support: the inspiration's node has {len(support_ids)} papers < {MIN_SUPPORT_PAPERS}"),
            )
        )
        return False
    task = Task(
        task_id=task_id,
        family=family.name,
        domain=st.domain,
        cutoff=st.cutoff,
        window_start=st.window_start,
        window_end=st.window_end,
        horizon=f"{st.horizon_months}-month",
        title=title,
        question=question,
        instructions=family.instructions,
        answer_requirements=list(family.requirements),
        subtype=phase,
        support_paper_ids=support_ids,
        support_evidence_ids=list(dict.fromkeys(f"{i.paper_id}#{i.field}" for i in ins)),
    )
    problems = internal_violations([task], cutoff=st.cutoff, internal_ids=builder.internal_ids)
    if problems:
        builder.failures.append(
            Failure(stage="tasks", item_id=task_id, reason=f"draft dropped: {problems[0]}"[:1000], raw=task.model_dump_json())
        )
        return False
    state["kept"].append((task_id, sig))
    state["papers"].add(p.paper_id)
    if support:
        state["quotes"].add(quote_key(support[1]))
    builder.tasks.append(task)
    builder.builds.append(
        TaskBuild(
            task_id=task_id,
            signal_ids=[],
            node_ids=[p.node_id],
            drafted_by="template",
            build_trace=[BuildStep(step="template", output=json.dumps({"title": title, "question": question}), accepted=True)],
            curation={
                "phase": phase,
                "node_label": p.node_label,
                "extractor": p.extractor,
                "subject": subject,
                "primary_title": titles.get(p.paper_id, ""),
                "primary_quote": body,
                "support_quote": support[1] if support else "",
                "support_cos": f"{support[2]:.3f}" if support else f"none >= {SUPPORT_COS} on the topic bar {CONTEXT_COS}",
                "inspirations": json.dumps([i.model_dump(mode="json") for i in ins], ensure_ascii=False),
                "premise": "pass",
                "decision": "pass",
                "duplicate": "pass",
            },
        )
    )
    return True

"""Bottleneck-Opportunity Discovery (ForeSci §3.4, App. B.3): the root bottleneck and its opportunity.

One task per well-supported subdirection that has linked bottleneck signals: name one
root bottleneck and the one-hop opportunity it opens. No options. The gold is the
linked bottleneck that most of the subdirection's future papers address.
"""

from __future__ import annotations

import re
from collections import Counter

import numpy as np
from pydantic import BaseModel, Field

from assets.families.answers import task_subject
from assets.families.base import TaskFamily
from assets.families.imported import ImportedGold, humanise
from assets.gold.measure import (
    BOTTLENECK_FULL_SUPPORT,
    MIN_FUTURE_MAPPED,
    Candidate,
    Claims,
    GoldContext,
    Slots,
    assign,
    insufficient,
    method_sentence,
    pct,
    top_terms,
)
from assets.tasks.building import (
    MIN_SUPPORT_PAPERS,
    SAME_SUBDIRECTION_OVERLAP,
    Draft,
    TaskBuilder,
    direction_name,
    evidence_item_ids,
    overlap,
    support_papers,
)
from core.records import ClaimBasis, GoldTarget, Signal, Task, TaskBuild
from core.text import content_tokens

LIMITATION_QUERY = "limitations challenges bottleneck"


class BottleneckAnswer(BaseModel):
    bottleneck: str = Field(description="the root bottleneck of the subdirection")
    opportunity: str = Field(description="what reducing the bottleneck opens")
    mechanism: str = Field(default="", description="why reducing it opens the opportunity")
    claims: list[str] = Field(default_factory=list)
    cited_ids: list[str] = Field(default_factory=list)


class BottleneckFamily(TaskFamily):
    name = "bottleneck"
    title = "Bottleneck-Opportunity Discovery"
    summary = "one root bottleneck and the one-hop opportunity it opens"
    answer_kind = "text"
    rubric_dimensions = {  # Reviewer Persuasiveness, family-specific (Appendix C.1)
        "causal_bottleneck_analysis": "identifies a root cause, not a symptom or an opportunity",
        "opportunity_plausibility": "the unlocked opportunity follows one hop from reducing it",
        "technical_non_obviousness": "goes beyond the generic (e.g. 'more data', 'better models')",
        "adoption_pathway_reasoning": "explains how the field would adopt the fix",
    }
    instructions = (
        "Use only the evidence available up to the cutoff. Name one root bottleneck of the "
        "subdirection (a cause, not a symptom), explain why it is root using cited limitations, and "
        "describe the one-hop opportunity that opens if it is reduced, with the mechanism that would "
        "reduce it and how the opportunity would be adopted."
    )
    requirements = (
        "one root bottleneck, stated as a cause",
        "cited pre-cutoff evidence that the bottleneck recurs",
        "the one-hop opportunity that opens if the bottleneck is reduced",
        "the mechanism (method or resource) that would reduce it",
        "an adoption pathway: who would use the opportunity first and how it would be validated",
    )
    decision_cues = ("bottleneck",)
    answer_schema = BottleneckAnswer
    answer_fields = ("Fields: bottleneck (the root bottleneck of the subdirection, one phrase), opportunity (what "
                     "reducing it opens), mechanism (why), claims, cited_ids.")
    offline_reading = "subject_limitations"
    review_stages = (
        ("problem", "the candidate bottlenecks that recur in the pre-cutoff work on {subject}",
         ("clarity", "recurrence in the evidence", "grounding in the evidence", "significance")),
        ("method", "the ROOT bottleneck among them (the one others follow from) and the mechanism by which it limits "
                   "progress",
         ("causal validity", "root-vs-symptom discrimination", "grounding in the evidence", "decision clarity")),
        ("experiment", "the opportunity that opens if the root bottleneck is reduced, and how that would show in "
                       "{window}",
         ("specificity", "mechanistic reasoning", "feasibility", "risk awareness")),
    )

    def evidence_queries(self, task: Task) -> list[tuple[str, str]]:
        """No options: the subject itself and its stated limitations."""
        subject = task_subject(task)
        return [("subject", subject), ("limitations", f"{subject} {LIMITATION_QUERY}")]

    def decision_claims(self, task: Task, parsed: BottleneckAnswer, ranking: list[str],
                        choice: str | None) -> list[str]:
        claims = []
        if parsed.bottleneck.strip():
            claims.append(f"The root bottleneck in {task_subject(task)} is {parsed.bottleneck.strip().rstrip('.')}.")
        if parsed.opportunity.strip():
            short = parsed.bottleneck.strip().rstrip(".")
            what = short if short and len(short) <= 80 else "it"
            claims.append(f"Reducing {what} opens {parsed.opportunity.strip().rstrip('.')}.")
        return claims

    def stated_answer(self, task: Task, gold: GoldTarget) -> dict:
        first = {s.slot: (s.variants[0] if s.variants else "") for s in gold.slots}
        return {"bottleneck": first.get("root_bottleneck", ""), "opportunity": first.get("opportunity", ""),
                "mechanism": first.get("mechanism", "")}

    def random_answer(self, task: Task, gold: GoldTarget, rng, others: list[GoldTarget]) -> dict:
        """A random candidate bottleneck of this task (the gold ranks them), with the
        opportunity and mechanism another task's gold states."""
        other = self.stated_answer(task, rng.choice(others)) if others else {}
        return {"bottleneck": rng.choice(gold.preferred_ranking) if gold.preferred_ranking else "",
                "opportunity": other.get("opportunity", ""), "mechanism": other.get("mechanism", "")}

    def every_option_decision(self, task: Task, gold: GoldTarget) -> list[str]:
        return list(gold.preferred_ranking)  # every candidate bottleneck

    def decision_texts(self, task: Task, parsed: BottleneckAnswer, ranking: list[str],
                       choice: str | None) -> list[str]:
        """The named root bottleneck, the opportunity and the mechanism."""
        return [t.strip() for t in (parsed.bottleneck, parsed.opportunity, parsed.mechanism) if t.strip()]

    def answer_lines(self, task: Task, parsed: BottleneckAnswer, ranking: list[str], choice: str | None) -> list[str]:
        lines = [f"**Root bottleneck:** {parsed.bottleneck.strip()}", "",
                 f"**Opportunity:** {parsed.opportunity.strip()}", ""]
        if parsed.mechanism.strip():
            lines += [f"**Mechanism:** {parsed.mechanism.strip()}", ""]
        return lines

    def contract_rules(self, task: Task) -> list[str]:
        return ["bottleneck: ONE root bottleneck phrase (a cause, not a symptom)",
                "opportunity: what reducing it opens, within the forecast window"]

    def contract_violations(self, task: Task, parsed: BottleneckAnswer) -> list[str]:
        return [] if parsed.bottleneck.strip() else ["bottleneck is empty"]
    aliases = ("bottleneck_opportunity_discovery",)
    vocabulary = "Root bottleneck and opportunity."

    def build(self, builder: TaskBuilder) -> None:
        bottlenecks = builder.by_kind.get("bottleneck", [])
        st = builder.settings

        def linked(c: Signal) -> list[Signal]:
            nodes = set(c.node_ids)
            return [b for b in bottlenecks if nodes & (set(b.node_ids) | set(b.details.get("nodes", [])))]

        ranked = sorted(((c, linked(c)) for c in builder.candidates),
                        key=lambda x: (-len(x[1]), -len(x[0].paper_ids), x[0].signal_id))
        chosen: list[Signal] = []
        for cand, bns in ranked:
            if builder.full(self.name):
                break
            if not bns or any(overlap(cand, c) > SAME_SUBDIRECTION_OVERLAP for c in chosen):
                continue
            support, n_support = support_papers([cand], builder.records_by_node)
            if n_support < MIN_SUPPORT_PAPERS:
                continue
            draft = builder.draft(self.name, subdirection=direction_name(cand))
            ev = evidence_item_ids(builder.records_by_node, cand.node_ids, set(support))
            if builder.emit(self, draft, [], {}, [cand] + bns, support, ev, f"{st.horizon_months}-month",
                            subject=direction_name(cand)):
                chosen.append(cand)

    def template(self, draft: Draft) -> tuple[str, str]:
        ws, we, cut, dom = draft.window_start.isoformat(), draft.window_end.isoformat(), draft.cutoff.isoformat(), draft.domain_title
        title = f"Root bottleneck and opportunity in {draft.subdirection}"
        question = (
            f"In {draft.subdirection} ({dom}), as of {cut}, identify one root bottleneck and the one-hop "
            f"opportunity that opens if it is reduced. The opportunity should be one that work published "
            f"between {ws} and {we} could realise."
        )
        return title, question

    def decision_problem(self, task: Task) -> str | None:
        problem = super().decision_problem(task)
        if problem is None and "opportunit" not in task.question.lower():
            return "bottleneck question does not ask for the opportunity"
        return problem

    def import_gold(self, gt: dict, out: ImportedGold) -> None:
        lim = sorted((x for x in gt.get("historical_limitation_cluster", []) if isinstance(x, dict)),
                     key=lambda x: -float(x.get("count", 0)))
        out.slot("root_bottleneck", [x.get("name", "") for x in lim] + [x.get("description", "") for x in lim])
        opp = [humanise(x.get("display_name", "")) for x in gt.get("realized_opportunity_directions", [])
               if isinstance(x, dict)]
        out.slot("opportunity", opp)
        out.preferred = [x.get("name", "") for x in lim if x.get("name")]
        for o in opp[:3]:
            out.claim(f"After {out.task.cutoff}, work on {o} was realised.", "taxonomy", out.scope, 0.5)

    def gold(self, ctx: GoldContext, task: Task, build: TaskBuild, signals: dict[str, Signal]) -> GoldTarget:
        return bottleneck_gold(ctx, task, build, signals)


def bottleneck_gold(ctx: GoldContext, task: Task, build: TaskBuild, signals: dict[str, Signal]) -> GoldTarget:
    """The most-addressed linked bottleneck of the subdirection in the window (rules in `assets.gold.measure`)."""
    claims, slots = Claims(task.task_id), Slots()
    scope = f"{task.window_start} to {task.window_end}"
    used = [signals[s] for s in build.signal_ids if s in signals]
    cand_sig = next((s for s in used if s.kind == "candidate_direction"), None)
    bns = [s for s in used if s.kind == "bottleneck"]
    numbers: dict[str, float] = {"n_future_total": float(len(ctx.future)), "n_bottlenecks": float(len(bns))}
    if cand_sig is None or not bns:
        return insufficient(task, claims, "the task has no subdirection or bottleneck signals", numbers, [])
    cand = Candidate(ctx, cand_sig)
    rows = np.where(assign(ctx.fut_vecs, [cand]) == 0)[0]
    numbers["n_future_subdirection"] = float(len(rows))
    future_ids = sorted(ctx.future[i].arxiv_id for i in rows)
    sub = direction_name(cand_sig)
    if len(rows) < MIN_FUTURE_MAPPED:
        return insufficient(task, claims, f"only {len(rows)} future papers fall in {sub}", numbers, future_ids)
    # "addressed after t" = window papers of the subdirection that STATE they address the
    # limitation (a sentence with an addressing verb and the limitation's key terms), against
    # the rate at which all other window papers state it (the control). Never counted from
    # the papers that define the limitation (they are all before the cutoff).
    inside = set(int(i) for i in rows)
    outside = [i for i in range(len(ctx.future)) if i not in inside]
    sub_words = set(content_tokens(sub))
    keys = [limitation_terms(b, sub_words) for b in bns]
    claims_of = addressing_claims(ctx)  # per window paper, its own-work addressing sentences (cached)
    stated = {j: [(int(i), q) for i in rows if (q := first_stating(claims_of[ctx.future[i].arxiv_id], keys[j]))]
              for j in range(len(bns))}
    control = {j: sum(first_stating(claims_of[ctx.future[i].arxiv_id], keys[j]) is not None for i in outside)
               / max(1, len(outside)) for j in range(len(bns))}
    counts = np.array([len(stated[j]) for j in range(len(bns))])
    rate = counts / len(rows)
    lift = np.array([rate[j] / max(control[j], 0.5 / max(1, len(outside))) for j in range(len(bns))])
    for j in range(len(bns)):
        numbers[f"addressed:{j}"] = float(counts[j])
        numbers[f"control_rate:{j}"] = round(control[j], 5)
        numbers[f"lift:{j}"] = round(float(lift[j]), 4)
    # a limitation counts as addressed when >= MIN_FUTURE_MAPPED papers state it AND the
    # subdirection states it more often than the window at large (lift > 1)
    valid = [j for j in range(len(bns)) if counts[j] >= MIN_FUTURE_MAPPED and lift[j] > 1.0]
    numbers["n_future_addressing"] = float(counts.sum())
    if not valid:
        return insufficient(task, claims, f"no limitation of {sub} is stated as addressed by >= {MIN_FUTURE_MAPPED} "
                            "window papers more often than in the window at large", numbers, future_ids)
    order = sorted(range(len(bns)), key=lambda j: (j not in valid, -counts[j], -lift[j], bns[j].signal_id))
    root = order[0]
    b = bns[root]
    addressing = np.array([i for i, _ in stated[root]], dtype=int)
    top_papers = [ctx.future[i] for i in addressing[:3]]
    quotes = list(b.details.get("quotes", []))[:3] or [b.summary]
    slots.add("root_bottleneck", [b.title, *quotes])
    terms = top_terms([p.title + " " + p.abstract for p in top_papers], ctx.fut_df, len(ctx.future), k=4)
    slots.add("opportunity", [], [p.title for p in top_papers] + ([" / ".join(terms)] if terms else []))
    mechanisms = [m for p in top_papers if (m := method_sentence(p.abstract))]
    slots.add("mechanism", [], mechanisms[:2])
    addressing_ids = [ctx.future[i].arxiv_id for i in addressing]
    claims.add(f"Before {task.cutoff}, {len(b.paper_ids)} papers reported the limitation '{b.title}' in {sub}.",
               "historical", "pre-cutoff", 0.4,
               ClaimBasis(check="signal_papers", values={"n": len(b.paper_ids)}, params={"signal_id": b.signal_id}))
    claims.add(f"Between {task.window_start} and {task.window_end}, the most-addressed bottleneck in {sub} was '{b.title}', targeted by "
               f"{int(counts[root])} new papers.", "future-realisation", scope, 1.0,
               ClaimBasis(check="ranked_first", paper_ids=addressing_ids, values={"n": int(counts[root])},
                          params={"object": b.title}))
    claims.add(f"{int(counts[root])} of {len(rows)} new papers in {sub} ({pct(counts[root] / len(rows))}) state that they "
               f"address '{b.title}'.", "statistical", scope, 0.6,
               ClaimBasis(check="window_share", paper_ids=addressing_ids,
                          values={"n": int(counts[root]), "total": len(rows)}, params={"population": "subdirection"}))
    if terms:
        claims.add(f"Reducing '{b.title}' opened work on {', '.join(terms)}.", "future-realisation", scope, 0.8,
                   ClaimBasis(check="terms_in_papers", paper_ids=[p.arxiv_id for p in top_papers],
                              values={"terms": " | ".join(terms)}))
    c1 = int(counts[root])
    c2 = int(counts[order[1]]) if len(order) > 1 and order[1] in valid else 0
    margin = (c1 - c2) / c1 if c1 else 0.0
    strength = min(1.0, c1 / BOTTLENECK_FULL_SUPPORT) * (0.25 + 0.75 * margin)
    numbers.update({"margin": round(margin, 5), **slots.flags})
    counted = {bns[j].title: [f"{ctx.future[i].arxiv_id}: \"{q[:200]}\"" for i, q in stated[j]] for j in order}
    return GoldTarget(task_id=task.task_id, family=task.family, domain=task.domain, cutoff=task.cutoff,
                      counted=counted, preferred_ranking=[bns[j].title for j in order], slots=slots.slots, claims=claims.items,
                      numbers=numbers, future_paper_ids=future_ids, strength=round(float(strength), 4))


ADDRESS_CUES = re.compile(r"\b(address\w*|mitigat\w*|reduc\w*|overcom\w*|tackl\w*|alleviat\w*|solv\w*|resolv\w*|"
                          r"remed\w*|eliminat\w*|lower\w*|prevent\w*|avoid\w*|suppress\w*|minimi[sz]\w*)\b", re.I)
# the sentence is about the paper's own work, not background ("RAG reduces hallucinations ...")
OWN_WORK = re.compile(r"\b(we|our|this (?:paper|work|study)|propos\w*|introduc\w*|present\w*|experiments? show\w*|"
                      r"results? show\w*|outperform\w*)\b", re.I)
LIMITATION_TERMS = 6


def limitation_terms(bottleneck: Signal, subject_words: set[str]) -> set[str]:
    """The limitation's key terms: content words of its quotes and title that are not the
    subdirection's own words (so the topic itself never counts as the limitation)."""
    text = " ".join([bottleneck.title, *bottleneck.details.get("quotes", []), bottleneck.summary])
    counts = Counter(w for w in content_tokens(text) if w not in subject_words and len(w) >= 4)
    return {w for w, _ in counts.most_common(LIMITATION_TERMS)}


def addressing_claims(ctx: GoldContext) -> dict[str, list[tuple[str, frozenset[str]]]]:
    """Per window paper (by id): the sentences in which it states its own work addresses
    something (own-work marker and addressing verb), with their content words. Computed
    once per partition and shared by the bootstrap resamples."""
    cache = ctx.__dict__.setdefault("_addressing_claims", {})
    for p in ctx.future:
        if p.arxiv_id not in cache:
            cache[p.arxiv_id] = [(s.strip(), frozenset(content_tokens(s)))
                                 for s in re.split(r"(?<=[.!?])\s+", p.abstract or "")
                                 if OWN_WORK.search(s) and ADDRESS_CUES.search(s)]
    return cache


def first_stating(sentences: list[tuple[str, frozenset[str]]], terms: set[str]) -> str | None:
    """The first of a paper's addressing sentences that names the limitation (two of its key
    terms; one if it has only one)."""
    need = 2 if len(terms) >= 2 else 1
    return next((s for s, words in sentences if len(terms & words) >= need), None)

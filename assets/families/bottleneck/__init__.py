"""Bottleneck-Opportunity Discovery (ForeSci §3.4, App. B.3): the root bottleneck and its opportunity.

One task per subdirection with enough recurring limitations: name one root bottleneck and
what reducing it would let new work do (the opportunity it opens). No options. The gold is the candidate limitation that
most of the subdirection's window papers state they address, by two measures that agree.

**Subjects** (`subject_display`). A candidate direction (`assets.evidence.candidates`) is a
subject when it can be stated as a phrase a reader recognises as a field: its name when it
has two or more words ("function calling"); else the most frequent two- or three-word title
phrase that holds the name, when >= SUBJECT_PHRASE_SHARE (35%) of the subject's pre-cutoff
titles hold it (a three-word one when it holds >= SUBJECT_LONGER_SHARE of the best one's
titles: "vision-language" -> "vision-language models", "GUI" -> "GUI agents", "protocol" ->
"model context protocol"; never with a genre word: "case study");
else the name when it is an acronym or a name (`is_name`: "MCP", "GraphRAG"). A single
lower-case word that no such phrase covers ("program", "safety", "multimodal") is no
subject: it names a vocabulary item, not a subdirection with a root bottleneck; nor is a
phrase that is itself a limitation theme's key ("catastrophic forgetting", "poisoning
attacks"): it names a problem, not a subdirection. (The family
reads the partition's papers for the titles: `needs` "papers".) The question quotes the
subject ('In LLM Agents research on "GUI agents"'); the subject's papers stay the
candidate's. Subjects whose members overlap a taken one's by > SAME_SUBDIRECTION_OVERLAP, or
that display as a taken one does ("knowledge graph" / "knowledge graphs"), are duplicates.

**Candidate limitations** (`linked_themes`). The bottleneck themes of the partition
(`assets.evidence.bottlenecks`: limitations stated in pre-cutoff abstracts, each named by
the phrase the papers use, with verbatim quotes and paper ids) that
- >= LINK_MIN_PAPERS of the subject's pre-cutoff papers (its members) mention (any of the
  theme's keys in title or abstract, `details["mention_ids"]`), at a share of its papers >=
  LINK_MIN_LIFT x the domain's share (the limitation is at least as present in the subject
  as in the domain),
- do not restate the subject or the domain (`assets.evidence.bottlenecks.restates`: the
  name holds a content word beyond the subject's and the domain title's words),
- are of the subject's own level (`candidates.out_of_level`, blind reading seed 3840): never a symptom
  whose causes are candidates too (latency, memory footprint: causes.yaml `umbrella`), a model failure
  offered for a method used against it (hallucination for RAG or preference optimisation:
  `model_failure`), or an RL-training cause in a subject whose papers do not train with RL (`scope`),
ranked by n x log(1 + lift) (mentioned often AND characteristic of the subject: "error
accumulation" before "hallucinations" in video generation), at most MAX_THEMES, never two
*near* themes (distinct limitations that embed close together, e.g. "overhead" and "high
computational costs": their window papers would split between them). A task needs >=
MIN_THEMES (a decision among several limitations). Labels are unique within a task: of two
themes with one name (case-insensitive; possible with model-written names) the lower-ranked
one is dropped.

**Gold** (`bottleneck_gold`). "Addressed after t" by two measures:
- the subject's window papers: the title holds one of its defining phrases, or the neighbour
  vote (`GoldContext.member_votes`) puts the paper among its members;
- a paper's *contribution statements* (`contribution_statements`): abstract sentences with
  an own-work marker (OWN_WORK: "we", "our", "this paper / work / study", "experiments /
  results show") and an addressing cue (ADDRESS_CUES: address, mitigate, reduce, overcome,
  defend, robust / resilient against, improve, enhance, ...) -- or a contribution verb
  (CONTRIBUTION_CUES: propose, introduce, present, develop, ...) right after a gap -- never background: a sentence opening on prior work or the field (BACKGROUND:
  "Existing ...", "Recent work ...", "Prior methods ...", "X has emerged ...") before any
  first-person marker is not the paper's own claim. A statement carries the *gap* it
  answers: the sentence before it when its object is anaphoric ("To address this gap, we
  ...", ANAPHORA), else the nearest limitation sentence at most GAP_DISTANCE sentences
  before it with no own-work sentence in between ("X suffers from error accumulation. We
  propose Y ..."): the abstract's own gap -> contribution structure;
- (a) lexical: a statement holds the terms of one of the limitation's keys (its phrase and
  aliases) close together (`states_key`: every term within the key's length + KEY_SPAN_SLACK
  words, any order; words are one term when they share a long prefix, `same_term`:
  "noise in the retrieved documents" states "noisy retrieval");
- (b) semantic: the cosine of a statement to the limitation's reference (the unit mean of
  its quote centroid and of its keys' text, `_theme_vector`) under the int8 ONNX MiniLM (`semantic_embedder`, kind `onnx-minilm`; only statements and quotes
  are embedded, cached by text) is >= the limitation's null threshold, and the limitation
  is the statement's closest candidate (largest cosine minus threshold). The null
  threshold is the SEMANTIC_NULL_QUANTILE quantile of the limitation's cosines to the
  subject's *null statements*: its window papers' statements that name none of the
  candidates (at most NULL_SAMPLE, seeded). They share the subject's topic, so topic alone
  never passes the test (an outside null let most RL statements pass for "sparse
  rewards"); with fewer than NULL_MIN null statements the threshold is NULL_FALLBACK_COS;
- a paper counts for a limitation when one of its statements passes (a) and (b);
  `counted` is keyed by the limitation's signal id and lists each paper with that statement;
- >= MIN_FUTURE_MAPPED papers must count. The lexical rate among all other window papers is
  recorded as a control (`control_rate:j`, `lift:j`) but decides nothing: a limitation the
  whole window addresses can still be a subject's root bottleneck (hallucination in
  knowledge-graph RAG), and the release takes one task per gold answer.
The gold is the limitation with the most counted papers: papers on which the two measures
agree, statement by statement (`numbers["measures_agree"]`). Each measure alone is noisy in
its own way -- the lexical one counts a generic key in another sense ("bias toward short
answers"), the semantic one counts papers on the subject's topic near a limitation's quotes
-- so neither alone decides; `numbers["lexical_top"]` / `["semantic_top"]` record whether each
alone would rank the gold first. It is released only when (`bottleneck_problems`, the
family's validity check) it leads the second limitation by more than one paper (>=
MIN_MARGIN_PAPERS) and by >= MIN_RELATIVE_MARGIN of its own count, and keeps its place
under bootstrap resampling of the window (the release gate). A resample re-ranks the same
limitations without the MIN_FUTURE_MAPPED floor (the original window met it; with the floor, a
3-paper gold that no other limitation approaches read as unstable whenever a resample drew it
twice instead of three times: evidence size measured twice, not whether another limitation
overtakes the gold).

The package: `candidates` (subjects, candidate limitations), `statements` (contribution
statements, `states_reduction`, the opportunity sentences), `gold` (membership, counting, the
gold), `audit` (flags); the limitation themes and the curated cause lexicon are evidence
(`assets.evidence.bottlenecks`, `assets.evidence.causes`)."""

from __future__ import annotations

from typing import ClassVar

from pydantic import BaseModel, Field

from assets.evidence.bottlenecks import domain_words, word_tokens
from assets.families.answers import task_subject
from assets.families.base import TaskFamily
from assets.families.bottleneck.audit import background_flags, margin_flags
from assets.families.bottleneck.candidates import (
    LINK_MIN_LIFT,
    LINK_MIN_PAPERS,
    MAX_THEMES,
    MIN_THEMES,
    linked_themes,
    multi_word,
    subject_display,
)
from assets.families.bottleneck.gold import (
    MIN_MARGIN_PAPERS,
    MIN_RELATIVE_MARGIN,
    bottleneck_gold,
    bottleneck_problems,
)
from assets.families.bottleneck.statements import (
    contribution_statements,
    is_background,
    same_term,
    states_key,
    states_reduction,
)
from assets.toolbox.building import (
    MIN_SUPPORT_PAPERS,
    SAME_SUBDIRECTION_OVERLAP,
    Draft,
    TaskBuilder,
    direction_name,
    evidence_item_ids,
    members,
    overlap,
    support_papers,
)
from assets.toolbox.measure import GoldContext
from core.records import AuditFlag, GoldTarget, Signal, Task, TaskBuild

__all__ = [
    "LINK_MIN_LIFT",
    "LINK_MIN_PAPERS",
    "MAX_THEMES",
    "MIN_MARGIN_PAPERS",
    "MIN_RELATIVE_MARGIN",
    "MIN_THEMES",
    "BottleneckAnswer",
    "BottleneckFamily",
    "background_flags",
    "bottleneck_gold",
    "bottleneck_problems",
    "contribution_statements",
    "is_background",
    "linked_themes",
    "margin_flags",
    "multi_word",
    "same_term",
    "states_key",
    "states_reduction",
    "subject_display",
]

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
    summary = "one root bottleneck and what reducing it would let new work do"
    answer_kind = "text"
    rubric_dimensions = {  # Reviewer Persuasiveness, family-specific (Appendix C.1)
        "causal_bottleneck_analysis": "identifies a root cause, not a symptom or an opportunity",
        "opportunity_plausibility": "the unlocked opportunity follows directly from reducing it",
        "technical_non_obviousness": "goes beyond the generic (e.g. 'more data', 'better models')",
        "adoption_pathway_reasoning": "explains how the field would adopt the fix",
    }
    instructions = (
        "Use only the evidence available up to the cutoff. Name one root bottleneck of the "
        "subdirection (a cause, not a symptom), explain why it is root using cited limitations, and "
        "describe what reducing it would let new work do (the opportunity it opens), with the mechanism that would "
        "reduce it and how the opportunity would be adopted."
    )
    requirements = (
        "one root bottleneck, stated as a cause",
        "cited pre-cutoff evidence that the bottleneck recurs",
        "what reducing the bottleneck would let new work do (the opportunity it opens)",
        "the mechanism (method or resource) that would reduce it",
        "an adoption pathway: who would use the opportunity first and how it would be validated",
    )
    decision_cues = ("bottleneck",)
    answer_schema = BottleneckAnswer
    answer_fields = (
        "Fields: bottleneck (the root bottleneck of the subdirection, one phrase), opportunity (what "
        "reducing it opens), mechanism (why), claims, cited_ids."
    )
    offline_reading = "subject_limitations"
    review_stages = (
        (
            "problem",
            "the candidate bottlenecks that recur in the pre-cutoff work on {subject}",
            ("clarity", "recurrence in the evidence", "grounding in the evidence", "significance"),
        ),
        (
            "method",
            "the ROOT bottleneck among them (the one others follow from) and the mechanism by which it limits progress",
            ("causal validity", "root-vs-symptom discrimination", "grounding in the evidence", "decision clarity"),
        ),
        (
            "experiment",
            "the opportunity that opens if the root bottleneck is reduced, and how that would show in {window}",
            ("specificity", "mechanistic reasoning", "feasibility", "risk awareness"),
        ),
    )

    def evidence_queries(self, task: Task) -> list[tuple[str, str]]:
        """No options: the subject itself and its stated limitations."""
        subject = task_subject(task)
        return [("subject", subject), ("limitations", f"{subject} {LIMITATION_QUERY}")]

    def decision_claims(self, task: Task, parsed: BaseModel, ranking: list[str], choice: str | None) -> list[str]:
        assert isinstance(parsed, BottleneckAnswer)
        claims = []
        if parsed.bottleneck.strip():
            claims.append(f"The root bottleneck in {task_subject(task)} is {parsed.bottleneck.strip().rstrip('.')}.")
        if parsed.opportunity.strip():
            short = parsed.bottleneck.strip().rstrip(".")
            what = short if short and len(short) <= 80 else "it"
            claims.append(f"Reducing {what} opens {parsed.opportunity.strip().rstrip('.')}.")
        return claims

    hedge_in_pick_only = True  # "reducing X opens work on Y" names Y without hedging the pick X
    hedge_scores_zero = True  # a pick that names two or more candidate limitations is no pick: FTA 0

    def stated_answer(self, task: Task, gold: GoldTarget) -> dict:
        first = {s.slot: (s.variants[0] if s.variants else "") for s in gold.slots}
        return {
            "bottleneck": first.get("root_bottleneck", ""),
            "opportunity": first.get("opportunity", ""),
            "mechanism": first.get("mechanism", ""),
        }

    def random_answer(self, task: Task, gold: GoldTarget, rng, others: list[GoldTarget]) -> dict:
        """A random candidate bottleneck of this task (the gold ranks them), with the
        opportunity and mechanism another task's gold states."""
        other = self.stated_answer(task, rng.choice(others)) if others else {}
        return {
            "bottleneck": rng.choice(gold.preferred_ranking) if gold.preferred_ranking else "",
            "opportunity": other.get("opportunity", ""),
            "mechanism": other.get("mechanism", ""),
        }

    def every_option_decision(self, task: Task, gold: GoldTarget) -> list[str]:
        """One pick that names every candidate bottleneck, in alphabetical order (the hedge
        carries no knowledge of the gold's order)."""
        return ["; ".join(sorted(gold.preferred_ranking, key=str.lower))] if gold.preferred_ranking else []

    def decision_texts(self, task: Task, parsed: BaseModel, ranking: list[str], choice: str | None) -> list[str]:
        assert isinstance(parsed, BottleneckAnswer)
        """The named root bottleneck, the opportunity and the mechanism."""
        return [t.strip() for t in (parsed.bottleneck, parsed.opportunity, parsed.mechanism) if t.strip()]

    def answer_lines(self, task: Task, parsed: BaseModel, ranking: list[str], choice: str | None) -> list[str]:
        assert isinstance(parsed, BottleneckAnswer)
        lines = [f"**Root bottleneck:** {parsed.bottleneck.strip()}", "", f"**Opportunity:** {parsed.opportunity.strip()}", ""]
        if parsed.mechanism.strip():
            lines += [f"**Mechanism:** {parsed.mechanism.strip()}", ""]
        return lines

    def decision_facts(self, task: Task, build: TaskBuild | None, gold: GoldTarget | None) -> dict:
        """The independence rule compares bottleneck tasks by their subject."""
        return {**super().decision_facts(task, build, gold), "subject": task_subject(task)}

    def audit_flags(self, task: Task, gold: GoldTarget | None) -> list[AuditFlag]:
        """`small_gold_margin` and `background_evidence` (docs/curation.md)."""
        return margin_flags(task, gold) + background_flags(gold)

    def offline_fields(self, task: Task, found: dict) -> dict:
        """The offline baselines' reading of the subject's limitations, in this family's fields."""
        if "limitation" not in found:
            return {}
        return {"bottleneck": found["limitation"], "opportunity": found["next_step"], "mechanism": found["rationale"]}

    def contract_rules(self, task: Task) -> list[str]:
        return [
            "bottleneck: ONE root bottleneck phrase (a cause, not a symptom)",
            "opportunity: what reducing it opens, within the forecast window",
        ]

    def contract_violations(self, task: Task, parsed: BaseModel) -> list[str]:
        assert isinstance(parsed, BottleneckAnswer)
        return [] if parsed.bottleneck.strip() else ["bottleneck is empty"]

    aliases = ("bottleneck_opportunity_discovery",)
    vocabulary = "Root bottleneck and opportunity."

    needs: ClassVar[frozenset[str]] = frozenset({"papers"})  # subjects are displayed by their papers' title phrase

    def build(self, builder: TaskBuilder) -> None:
        """One task per subject with >= MIN_THEMES linked limitations (module docstring)."""
        themes = builder.by_kind.get("bottleneck", [])
        st = builder.settings
        dom = domain_words(st.domain_title)
        title_of = {p.arxiv_id: p.title for p in builder.papers}
        text_of = {p.arxiv_id: f"{p.title} {p.abstract or ''}" for p in builder.papers}  # scoped causes (`out_of_level`)
        ranked = []
        limitation_keys = {tuple(word_tokens(a)) for b in themes for a in b.details.get("aliases", [])}
        for cand in builder.candidates:
            display = subject_display(direction_name(cand), [title_of[i] for i in sorted(members(cand)) if i in title_of])
            if display is None or tuple(word_tokens(display)) in limitation_keys:
                continue  # no phrase, or the phrase names a limitation ("catastrophic forgetting"), not a subdirection
            linked = linked_themes(cand, themes, dom, display, text_of)
            if len(linked) >= MIN_THEMES:
                ranked.append((cand, linked, display))
        ranked.sort(key=lambda x: (-len(x[1]), -len(members(x[0])), x[0].signal_id))
        chosen: list[Signal] = []
        shown: set[tuple[str, ...]] = set()
        for cand, linked, subject in ranked:
            if builder.full(self.name):
                break
            if any(overlap(cand, c) > SAME_SUBDIRECTION_OVERLAP for c in chosen):
                continue
            if tuple(word_tokens(subject)) in shown:  # "knowledge graph" and "knowledge graphs"
                continue
            support, n_support = support_papers([cand], builder.records_by_node)
            if n_support < MIN_SUPPORT_PAPERS:
                continue
            draft = builder.draft(self.name, subdirection=subject)
            ev = evidence_item_ids(builder.records_by_node, cand.node_ids, set(support))
            if builder.emit(self, draft, [], {}, [cand] + linked, support, ev, f"{st.horizon_months}-month", subject=subject):  # type: ignore[arg-type]
                chosen.append(cand)
                shown.add(tuple(word_tokens(subject)))

    def template(self, draft: Draft) -> tuple[str, str]:
        ws, we, cut, dom = (
            draft.window_start.isoformat(),
            draft.window_end.isoformat(),
            draft.cutoff.isoformat(),
            draft.domain_title,
        )
        subject = draft.subdirection
        title = f"Root bottleneck of {subject} that new work will most set out to reduce ({dom})"
        # The question states the decision and exactly what the gold counts (issue 32's readers:
        # "the open question is only a topic label"): the limitation the most window papers state
        # they reduce (`assets.families.bottleneck.gold`), and what reducing it opens.
        question = (
            f'A team working on "{subject}" in {dom} research must choose, as of {cut}, which limitation to '
            f'attack. Identify one root bottleneck -- a limitation that recurs in the pre-cutoff work on "{subject}" '
            f"-- that the most papers published between {ws} and {we} will state they reduce, and the opportunity "
            "it opens: what that work could do once the limitation is reduced."
        )
        return title, question

    def validity_problems(self, task: Task, gold: GoldTarget) -> list[str]:
        return bottleneck_problems(gold)

    def decision_problem(self, task: Task) -> str | None:
        problem = super().decision_problem(task)
        if problem is None and "opportunit" not in task.question.lower():
            return "bottleneck question does not ask for the opportunity"
        return problem

    def gold(self, ctx: GoldContext, task: Task, build: TaskBuild, signals: dict[str, Signal]) -> GoldTarget:
        return bottleneck_gold(ctx, task, build, signals)

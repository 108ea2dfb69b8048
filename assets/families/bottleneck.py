"""Bottleneck-Opportunity Discovery (ForeSci §3.4, App. B.3): the root bottleneck and its opportunity.

One task per subdirection with enough recurring limitations: name one root bottleneck and
the one-hop opportunity it opens. No options. The gold is the candidate limitation that
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


Length (over ~500 lines on purpose): the whole family in one place: its build (subjects, linked
limitations), its two-measure gold (contribution statements, lexical and semantic tests with
subject-specific null thresholds) and the audit flags that read that gold; the gold's tests and the
build's subject rules share constants and the statement parser, and the tests monkeypatch them on
this one module."""

from __future__ import annotations

import math
import re
from collections import Counter
from typing import ClassVar, NamedTuple

import numpy as np
from pydantic import BaseModel, Field

from assets.evidence.bottlenecks import (
    FUNCTION_WORDS,
    LIMITATION_MIN_SCORE,
    domain_words,
    norm_word,
    restates,
    word_tokens,
)
from assets.evidence.quotes import limitation_score, split_sentences
from assets.families.answers import task_subject
from assets.families.base import TaskFamily
from assets.families.momentum import defining_phrases
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
from assets.toolbox.measure import (
    BOTTLENECK_FULL_SUPPORT,
    MIN_FUTURE_MAPPED,
    Claims,
    GoldContext,
    Slots,
    insufficient,
    method_sentence,
    pct,
    top_terms,
)
from core.records import AuditFlag, ClaimBasis, GoldTarget, Signal, Task, TaskBuild
from core.text import term_stems, title_phrases

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

    def decision_claims(self, task: Task, parsed: BottleneckAnswer, ranking: list[str], choice: str | None) -> list[str]:
        claims = []
        if parsed.bottleneck.strip():
            claims.append(f"The root bottleneck in {task_subject(task)} is {parsed.bottleneck.strip().rstrip('.')}.")
        if parsed.opportunity.strip():
            short = parsed.bottleneck.strip().rstrip(".")
            what = short if short and len(short) <= 80 else "it"
            claims.append(f"Reducing {what} opens {parsed.opportunity.strip().rstrip('.')}.")
        return claims

    hedge_in_pick_only = True  # "reducing X opens work on Y" names Y without hedging the pick X

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
        return list(gold.preferred_ranking)  # every candidate bottleneck

    def decision_texts(self, task: Task, parsed: BottleneckAnswer, ranking: list[str], choice: str | None) -> list[str]:
        """The named root bottleneck, the opportunity and the mechanism."""
        return [t.strip() for t in (parsed.bottleneck, parsed.opportunity, parsed.mechanism) if t.strip()]

    def answer_lines(self, task: Task, parsed: BottleneckAnswer, ranking: list[str], choice: str | None) -> list[str]:
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

    def contract_violations(self, task: Task, parsed: BottleneckAnswer) -> list[str]:
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
        ranked = []
        limitation_keys = {tuple(word_tokens(a)) for b in themes for a in b.details.get("aliases", [])}
        for cand in builder.candidates:
            display = subject_display(direction_name(cand), [title_of[i] for i in sorted(members(cand)) if i in title_of])
            if display is None or tuple(word_tokens(display)) in limitation_keys:
                continue  # no phrase, or the phrase names a limitation ("catastrophic forgetting"), not a subdirection
            linked = linked_themes(cand, themes, dom)
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
            if builder.emit(self, draft, [], {}, [cand] + linked, support, ev, f"{st.horizon_months}-month", subject=subject):
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
        title = f"Root bottleneck and opportunity in {subject} ({dom})"
        question = (
            f'In {dom} research on "{subject}", as of {cut}, identify one root bottleneck -- a limitation that '
            f'recurs in the pre-cutoff work on "{subject}" -- and the one-hop opportunity that opens if it is '
            f"reduced. The opportunity should be one that work published between {ws} and {we} could realise."
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


# --------------------------------------------------------------------------------------
# subjects and their candidate limitations (task building)
# --------------------------------------------------------------------------------------

LINK_MIN_PAPERS = 2  # a limitation is a candidate of a subject its pre-cutoff papers mention this often
LINK_MIN_LIFT = 1.0  # ... at least as often (share of its papers) as the domain's papers do
MIN_THEMES = 3  # a task decides among at least this many limitations
MAX_THEMES = 6
SUBJECT_GENRE_WORDS = frozenset(
    "study studies survey analysis review overview approach approaches framework "
    "method methods perspective tutorial position paper case".split()
)


def is_name(word: str) -> bool:
    """An acronym or a name as written: a hyphen part with two capitals or a capital after its
    first letter ("GUI", "MCP", "GraphRAG", "LoRA"); a title-cased word ("Multi-Agent") is not."""
    return any(sum(c.isupper() for c in part) >= 2 or any(c.isupper() for c in part[1:]) for part in word.split("-") if part)


SUBJECT_PHRASE_SHARE = 0.35  # a title phrase displays a subject when >= 35% of its titles hold it
SUBJECT_LONGER_SHARE = 0.6  # a three-word phrase at least this share of the best two-word one's count wins


def subject_ok(name: str) -> bool:
    """A display name a reader recognises as a field: >= 2 words ("function calling"; a
    hyphenated compound is one word: "multi-agent", "vision-language") or an acronym / name
    (a capital after the first character: "GUI", "MCP", "GraphRAG")."""
    name = name.strip()
    return len(name.split()) >= 2 or is_name(name)


def subject_display(name: str, titles: list[str]) -> str | None:
    """How a task states its subject (module docstring): the candidate's name when it has >= 2
    words; else the most frequent title phrase of two or three words that holds the name, when
    >= SUBJECT_PHRASE_SHARE of the subject's titles hold it (a three-word phrase wins when its
    count is >= SUBJECT_LONGER_SHARE of the best: "protocol" -> "model context protocol",
    "adversarial" -> "generative adversarial networks"; "GUI" -> "GUI agents"; never with a function or genre word, SUBJECT_GENRE_WORDS:
    "case study"); else the name if it is an acronym or name; else None (a single lower-case
    word names no subdirection). Words are lower-cased unless they are acronyms or names
    (`is_name`)."""
    name = name.strip()
    if len(name.split()) >= 2:
        return " ".join(w if is_name(w) else w.lower() for w in name.split())
    low = name.lower()
    counts: Counter = Counter()
    spelled: dict[str, Counter] = {}
    for title in titles:
        words = re.findall(r"[A-Za-z][A-Za-z0-9\-]*", title)
        seen = set()
        for n in (2, 3):
            for i in range(len(words) - n + 1):
                gram = words[i : i + n]
                lows = [w.lower() for w in gram]
                if low not in lows or len(set(lows)) < n:
                    continue
                others = [w for w in lows if w != low]
                if any(
                    o in FUNCTION_WORDS or o in SUBJECT_GENRE_WORDS or o in ("using", "based", "via") or len(o) < 3
                    for o in others
                ):
                    continue
                key = " ".join(norm_word(w) for w in lows)  # "network" and "networks" are one phrase
                if key not in seen:
                    seen.add(key)
                    counts[key] += 1
                    spelled.setdefault(key, Counter())[" ".join(gram)] += 1
    if titles and counts:
        best = max(counts.values())
        key = max(counts, key=lambda k: (counts[k] >= SUBJECT_LONGER_SHARE * best, len(k.split()), counts[k], k))
        if counts[key] >= SUBJECT_PHRASE_SHARE * len(titles):
            phrase = spelled[key].most_common(1)[0][0]
            return " ".join(w if is_name(w) else w.lower() for w in phrase.split())
    return name if subject_ok(name) else None


def subject_words(cand: Signal) -> set[str]:
    """Stems of a subject's display name and defining phrases."""
    out: set[str] = set()
    for text in [direction_name(cand), *cand.details.get("defining_phrases", [])]:
        for tok in re.findall(r"[A-Za-z][A-Za-z0-9\-]*", text):
            out |= term_stems(tok)
    return out


def label_key(label: str) -> str:
    """A limitation's label as compared for uniqueness: lower-cased, whitespace squeezed."""
    return " ".join(label.lower().split())


def linked_themes(cand: Signal, themes: list[Signal], dom: set[str]) -> list[Signal]:
    """The subject's candidate limitations (module docstring), most-mentioned first, with
    unique labels."""
    mem = members(cand)
    words = dom | subject_words(cand)
    rows = []
    for b in themes:
        mentions = set(b.details.get("mention_ids", []))
        n = len(mem & mentions)
        if n < LINK_MIN_PAPERS or restates(b.title, words):
            continue
        domain = b.stats.get("domain_papers", 0.0)
        lift = (n / len(mem)) / (len(mentions) / domain) if domain and mentions else 1.0
        if lift < LINK_MIN_LIFT:
            continue
        rows.append((-round(n * math.log(1.0 + lift), 6), -n, b.signal_id, b))
    out, labels = [], set()
    for *_, b in sorted(rows, key=lambda r: r[:3]):
        if label_key(b.title) in labels:
            continue  # two themes with one name: the less mentioned one is dropped
        if any(o.signal_id in b.details.get("near", []) or b.signal_id in o.details.get("near", []) for o in out):
            continue  # a near theme of a taken one ("overhead" after "high computational costs")
        labels.add(label_key(b.title))
        out.append(b)
        if len(out) == MAX_THEMES:
            break
    return out


# --------------------------------------------------------------------------------------
# the gold: which candidate limitation the subject's window papers state they address
# --------------------------------------------------------------------------------------

ADDRESS_CUES = re.compile(
    r"\b(address\w*|mitigat\w*|reduc\w*|overcom\w*|tackl\w*|alleviat\w*|solv\w*|resolv\w*|"
    r"remed\w*|eliminat\w*|lower\w*|prevent\w*|avoid\w*|suppress\w*|minimi[sz]\w*|"
    r"bridg\w*|fill\w*|combat\w*|counter\w*|defen[dcs]\w*|curb\w*|circumvent\w*|handl\w*|"
    r"against|robust\w*|protect\w*|safeguard\w*|resilien\w*|improv\w*|enhanc\w*|boost\w*|"
    r"strengthen\w*|ensur\w*|cop(?:e|es|ing)\s+with|deal\w*\s+with|free\s+(?:of|from))\b",
    re.I,
)
# contribution verbs: a statement when they follow a gap ("X suffers from Y. We propose Z.")
CONTRIBUTION_CUES = re.compile(
    r"\b(?:propos\w*|introduc\w*|present\w*|develop\w*|design\w*|build\w*|"
    r"construct\w*|devis\w*|formulat\w*)\b",
    re.I,
)
# the sentence is about the paper's own work ("we", "our", "this paper", "experiments show")
OWN_WORK = re.compile(
    r"\b(?:we|our|us|this (?:paper|work|study|article|report)|here,? we|"
    r"(?:experiments?|results?|evaluations?|analyses|ablations?) (?:show|demonstrate|reveal|"
    r"confirm|indicate|suggest)\w*)\b",
    re.I,
)
FIRST_PERSON = re.compile(r"\b(?:we|our|us|this (?:paper|work|study|article|report))\b", re.I)
# prior work or the field: never the paper's own claim when it comes before any first person
BACKGROUND = re.compile(
    r"^\W*(?:existing|recent|prior|previous|current|conventional|traditional|most|many|"
    r"several|numerous|standard|typical|popular|mainstream)\b|"
    r"\b(?:has|have)\s+(?:emerged|become|been\s+(?:proposed|widely|extensively|increasingly|"
    r"shown|introduced|developed))|\b(?:is|are)\s+(?:widely|increasingly|commonly)\s",
    re.I,
)
# the object of the statement is in the sentence before ("To address this gap, we ...")
ANAPHORA = re.compile(
    r"\b(?:this|these|those|such|both|the\s+above|the\s+aforementioned|the\s+two|the\s+three|"
    r"the\s+identified|the\s+above-mentioned)\s+(?:[\w\-]+\s+){0,2}?(?:challenge|gap|limitation|"
    r"issue|problem|bottleneck|shortcoming|drawback|weakness|deficienc|difficult|concern|question|"
    r"need|obstacle|barrier|risk|vulnerabilit|trade-off|tension|dilemma|limit|flaw|pitfall)\w*|"
    r"\baddress(?:es|ing)?\s+(?:this|these|it|them)\b|\bto\s+this\s+end\b|"
    r"\b(?:fill|bridge|close)\s+(?:this|the|these)\s+gaps?\b",
    re.I,
)
GAP_DISTANCE = 2  # a statement's gap sentence is at most this many sentences before it
SEMANTIC_EMBEDDER = "onnx-minilm"  # resources.embeddings kind: the int8 ONNX all-MiniLM-L6-v2
SEMANTIC_NULL_QUANTILE = 0.8
NULL_SAMPLE = 400
NULL_MIN = 20
NULL_FALLBACK_COS = 0.5
NULL_SEED = 0
MIN_MARGIN_PAPERS = 2  # the gold leads the second limitation by more than one paper
MIN_RELATIVE_MARGIN = 0.3  # ... and by at least 30% of its own count


class Statement(NamedTuple):
    """One contribution statement of a window paper: its own-work sentence, the sentence
    before it when the object is anaphoric, and the word sequence of both."""

    own: str
    antecedent: str
    tokens: tuple[str, ...]

    @property
    def text(self) -> str:
        return f"{self.antecedent} {self.own}".strip()


TERM_PREFIX_MIN = 4  # two words are one term when they share a prefix this long ...
TERM_PREFIX_SHARE = 0.65  # ... covering this share of the longer word
KEY_SPAN_SLACK = 2  # a key's terms lie within its length + this many words


def same_term(a: str, b: str) -> bool:
    """Two words name one term: equal, or sharing a prefix of >= TERM_PREFIX_MIN letters that
    covers >= TERM_PREFIX_SHARE of the longer ("hallucination" / "hallucinated", "noise" /
    "noisy", "retrieval" / "retrieved", "bias" / "biased"; never "over" / "overhead" or
    "inefficiency" / "efficiency")."""
    if a == b:
        return True
    if a[:TERM_PREFIX_MIN] != b[:TERM_PREFIX_MIN]:  # the common case, decided without the loop
        return False
    n = 0
    for x, y in zip(a, b):
        if x != y:
            break
        n += 1
    return n >= TERM_PREFIX_MIN and n >= TERM_PREFIX_SHARE * max(len(a), len(b))


def states_key(tokens: tuple[str, ...], key: tuple[str, ...]) -> bool:
    """True when every term of `key` occurs (`same_term`) within a span of len(key) +
    KEY_SPAN_SLACK words of `tokens`, in any order ("noise in the retrieved documents" states
    "noisy retrieval")."""
    k0 = key[0]
    p0 = k0[:TERM_PREFIX_MIN]  # same_term needs equal words or this shared prefix: tested inline first
    first = [i for i, t in enumerate(tokens) if t == k0 or (t[:TERM_PREFIX_MIN] == p0 and same_term(t, k0))]
    if len(key) == 1:
        return bool(first)
    span = len(key) + KEY_SPAN_SLACK
    for i in first:
        window = tokens[max(0, i - span + 1) : i + span]
        if all(any(same_term(t, k) for t in window) for k in key[1:]):
            return True
    return False


def is_background(sentence: str) -> bool:
    """True when a sentence is about prior work or the field, not the paper's own work: no
    own-work marker, or a BACKGROUND opening before its first first-person marker."""
    own = OWN_WORK.search(sentence)
    if own is None:
        return True
    bg = BACKGROUND.search(sentence)
    first = FIRST_PERSON.search(sentence)
    return bg is not None and (first is None or bg.start() < first.start())


def contribution_statements(abstract: str) -> list[Statement]:
    """A window paper's contribution statements (module docstring): own-work sentences with
    an addressing cue, or with a contribution verb (CONTRIBUTION_CUES: propose, introduce, ...)
    right after a gap, background excluded, each with the gap it answers: the sentence
    before it when its object is anaphoric ("To address this, we ..."), else the nearest
    limitation sentence (`limitation_score` >= LIMITATION_MIN_SCORE) at most GAP_DISTANCE
    sentences before it with no own-work sentence in between ("X suffers from error
    accumulation. We propose Y, ...")."""
    sentences = split_sentences(abstract or "")
    own = [not is_background(s) for s in sentences]
    out = []
    for i, s in enumerate(sentences):
        addressing, contributing = bool(ADDRESS_CUES.search(s)), bool(CONTRIBUTION_CUES.search(s))
        if not own[i] or not (addressing or contributing):
            continue
        ante = ""
        if i > 0 and ANAPHORA.search(s):
            ante = sentences[i - 1]
        else:
            for j in range(i - 1, max(-1, i - 1 - GAP_DISTANCE), -1):
                if own[j]:
                    break
                if limitation_score(sentences[j]) >= LIMITATION_MIN_SCORE:
                    ante = sentences[j]
                    break
        if addressing or ante:  # a contribution without a gap addresses nothing in particular
            out.append(Statement(s, ante, tuple(word_tokens(f"{ante} {s}"))))
    return out


def semantic_embedder():
    """The semantic test's embedder: the int8 ONNX MiniLM (None when it cannot be loaded)."""
    try:
        from resources.embeddings import load_embedder

        return load_embedder(kind=SEMANTIC_EMBEDDER).encode
    except Exception:  # noqa: BLE001 - the package is missing or damaged: the caller falls back
        return None


def _state(ctx: GoldContext) -> dict:
    """Per-partition caches shared with the bootstrap resamples (created on the original
    context, copied by reference into each resample)."""
    st = ctx.__dict__.get("_bottleneck")
    if st is None:
        embed = semantic_embedder()
        st = {
            "statements": {},
            "vecs": {},
            "theme_vec": {},
            "in_title": {},
            "null": {},
            "embed": embed or ctx.embed,
            "onnx": float(embed is not None),
        }
        ctx.__dict__["_bottleneck"] = st
        window = getattr(ctx, "_original_future", ctx.future)
        for p in window:
            st["statements"][p.arxiv_id] = contribution_statements(p.abstract)
    return st


def _vectors(st: dict, texts: list[str]) -> np.ndarray:
    """Unit semantic vectors of texts, embedded once per text."""
    missing = list(dict.fromkeys(t for t in texts if t not in st["vecs"]))
    if missing:
        vecs = np.asarray(st["embed"](missing), dtype=np.float32)
        vecs = vecs / np.maximum(np.linalg.norm(vecs, axis=1, keepdims=True), 1e-12)
        st["vecs"].update(zip(missing, vecs))
    dim = next(iter(st["vecs"].values())).shape[0] if st["vecs"] else 1
    return np.stack([st["vecs"][t] for t in texts]) if texts else np.zeros((0, dim), np.float32)


def _unit(v: np.ndarray) -> np.ndarray:
    return v / max(float(np.linalg.norm(v)), 1e-12)


def _theme_vector(st: dict, b: Signal) -> np.ndarray:
    """A limitation's semantic reference: the unit mean of its quotes' centroid and of its
    keys' text ("inconsistencies; temporal inconsistency"), so the quotes' topics (3D, video)
    do not outweigh the limitation itself."""
    if b.signal_id not in st["theme_vec"]:
        quotes = list(b.details.get("quotes", [])) or [b.summary or b.title]
        keys = "; ".join(b.details.get("aliases", []) or [b.title])
        centroid = _unit(_vectors(st, quotes).mean(axis=0))
        st["theme_vec"][b.signal_id] = _unit(centroid + _vectors(st, [keys])[0])
    return st["theme_vec"][b.signal_id]


def _null(st: dict, cand: Signal, subject_ids: set[str], keys: list[list[tuple[str, ...]]]) -> list[str]:
    """The subject's null statements: the contribution statements of its window papers that
    state none of the task's candidate limitations (lexically), at most NULL_SAMPLE (seeded).
    They share the subject's topic but address none of the candidates, so a limitation's
    cosines to them are what topic alone gives."""
    key = (cand.signal_id, tuple(sorted(k for ks in keys for k in ks)))
    if key not in st["null"]:
        texts = [
            s.text
            for pid in sorted(subject_ids)
            for s in st["statements"].get(pid, [])
            if not any(states_key(s.tokens, k) for ks in keys for k in ks)
        ]
        texts = list(dict.fromkeys(texts))
        if len(texts) > NULL_SAMPLE:
            rng = np.random.default_rng(NULL_SEED)
            texts = [texts[i] for i in sorted(rng.permutation(len(texts))[:NULL_SAMPLE])]
        st["null"][key] = texts
    return st["null"][key]


def _thresholds(
    st: dict, bns: list[Signal], cand: Signal, subject_ids: set[str], keys: list[list[tuple[str, ...]]]
) -> np.ndarray:
    """Each limitation's null threshold in this subject: the SEMANTIC_NULL_QUANTILE quantile of
    its cosines to the subject's null statements (`_null`); with fewer than NULL_MIN null
    statements, NULL_FALLBACK_COS."""
    null = _null(st, cand, subject_ids, keys)
    if len(null) < NULL_MIN:
        return np.full(len(bns), NULL_FALLBACK_COS)
    T = np.stack([_theme_vector(st, b) for b in bns])
    cos = _vectors(st, null) @ T.T
    return np.quantile(cos, SEMANTIC_NULL_QUANTILE, axis=0)


def subject_rows(ctx: GoldContext, cand: Signal) -> np.ndarray:
    """Rows of `ctx.future` in the subject: the title holds a defining phrase, or the
    neighbour vote puts the paper among the subject's members."""
    st = _state(ctx)
    phrases = frozenset(defining_phrases(cand, ctx))
    key = cand.signal_id
    if key not in st["in_title"]:
        st["in_title"][key] = {
            p.arxiv_id for p in getattr(ctx, "_original_future", ctx.future) if not phrases.isdisjoint(title_phrases(p.title))
        }
    voted_rows = ctx.member_votes([cand])[0][:, 0] if len(ctx.future) else np.zeros(0, bool)
    in_title = st["in_title"][key]
    return np.array([i for i, p in enumerate(ctx.future) if voted_rows[i] or p.arxiv_id in in_title], dtype=int)


def lexical(st: dict, s: Statement, b: Signal, keys: list[tuple[str, ...]]) -> bool:
    """Measure (a) on one statement, cached per (statement, limitation)."""
    cache = st.setdefault("lexical", {})
    key = (s, b.signal_id)
    if key not in cache:
        cache[key] = any(states_key(s.tokens, k) for k in keys)
    return cache[key]


def paper_states(st: dict, b: Signal, keys: list[tuple[str, ...]]) -> dict[str, bool]:
    """Measure (a) per window paper for one limitation: does one of its statements state it.
    Computed once per limitation over the whole window and shared by every task naming it and
    by the bootstrap resamples (the control rate reads it for every paper outside the subject)."""
    cache = st.setdefault("paper_states", {})
    if b.signal_id not in cache:
        cache[b.signal_id] = {pid: any(lexical(st, s, b, keys) for s in sts) for pid, sts in st["statements"].items() if sts}
    return cache[b.signal_id]


def paper_tests(
    st: dict, ctx: GoldContext, pid: str, bns: list[Signal], taus: np.ndarray, keys: list[list[tuple[str, ...]]]
) -> tuple[np.ndarray, np.ndarray, list[str | None]]:
    """Per candidate limitation: does the paper state it (lexical), address it semantically,
    and the statement that passes both (None if none)."""
    sts = st["statements"].get(pid, [])
    k = len(bns)
    lex, sem, both = np.zeros(k, bool), np.zeros(k, bool), [None] * k
    if not sts:
        return lex, sem, both
    T = np.stack([_theme_vector(st, b) for b in bns])
    cos = _vectors(st, [s.text for s in sts]) @ T.T  # statements x limitations
    for r, s in enumerate(sts):
        best = int(np.argmax(cos[r] - taus))
        for j in range(k):
            lx = lexical(st, s, bns[j], keys[j])
            sm = j == best and cos[r, j] >= taus[j]
            lex[j] |= lx
            sem[j] |= sm
            if lx and sm and both[j] is None:
                both[j] = f'{pid}: "{s.own[:260]}"' + (f' (refers to: "{s.antecedent[:200]}")' if s.antecedent else "")
    return lex, sem, both


def theme_keys(b: Signal) -> list[tuple[str, ...]]:
    """The word sequences that state a limitation: its key and aliases (rule-named themes),
    else its title's words."""
    keys = list(b.details.get("aliases", [])) or list(b.details.get("key", [])) or [b.title]
    return [tuple(word_tokens(k)) for k in keys if word_tokens(k)]


def bottleneck_gold(ctx: GoldContext, task: Task, build: TaskBuild, signals: dict[str, Signal]) -> GoldTarget:
    """The most-addressed candidate limitation of the subject in the window (module docstring)."""
    claims, slots = Claims(task.task_id), Slots()
    scope = f"{task.window_start} to {task.window_end}"
    used = [signals[s] for s in build.signal_ids if s in signals]
    cand_sig = next((s for s in used if s.kind == "candidate_direction"), None)
    bns = [s for s in used if s.kind == "bottleneck"]
    numbers: dict[str, float] = {"n_future_total": float(len(ctx.future)), "n_bottlenecks": float(len(bns))}
    if cand_sig is None or not bns:
        return insufficient(task, claims, "the task has no subdirection or bottleneck signals", numbers, [])
    st = _state(ctx)
    numbers["semantic_onnx"] = st["onnx"]
    sub = direction_name(cand_sig)
    rows = subject_rows(ctx, cand_sig)
    numbers["n_future_subdirection"] = float(len(rows))
    future_ids = sorted({ctx.future[i].arxiv_id for i in rows})
    # A bootstrap resample only re-ranks (the original window met the evidence minimum): a
    # resample with fewer papers than the minimum keeps the top if it still leads, instead of
    # reading as a different answer.
    floor = 1 if ctx.ranking_only else MIN_FUTURE_MAPPED
    if len(rows) < floor:
        return insufficient(task, claims, f"only {len(rows)} future papers fall in {sub}", numbers, future_ids)
    subject_ids = set(future_ids)
    keys = [theme_keys(b) for b in bns]
    taus = _thresholds(st, bns, cand_sig, subject_ids, keys)
    k = len(bns)
    lex_n, sem_n, both_n = np.zeros(k), np.zeros(k), np.zeros(k)
    counted: dict[str, list[str]] = {b.signal_id: [] for b in bns}
    tested: dict[str, tuple] = {}
    for i in rows:
        pid = ctx.future[i].arxiv_id
        if pid not in tested:
            tested[pid] = paper_tests(st, ctx, pid, bns, taus, keys)
        lex, sem, both = tested[pid]
        lex_n += lex
        sem_n += sem
        for j in range(k):
            if both[j] is not None:
                both_n[j] += 1
                if pid not in {e.split(":", 1)[0] for e in counted[bns[j].signal_id]}:
                    counted[bns[j].signal_id].append(both[j])
    # control: the lexical rate among all other window papers
    inside = set(int(i) for i in rows)
    outside = [i for i in range(len(ctx.future)) if i not in inside]
    ctrl = np.zeros(k)
    for j in range(k):
        states = paper_states(st, bns[j], keys[j])
        ctrl[j] = sum(states.get(ctx.future[i].arxiv_id, False) for i in outside)
    control = ctrl / max(1, len(outside))
    rate = lex_n / len(rows)
    lift = np.array([rate[j] / max(control[j], 0.5 / max(1, len(outside))) for j in range(k)])
    for j in range(k):
        numbers[f"addressed:{j}"] = float(both_n[j])
        numbers[f"lexical:{j}"] = float(lex_n[j])
        numbers[f"semantic:{j}"] = float(sem_n[j])
        numbers[f"threshold:{j}"] = round(float(taus[j]), 4)
        numbers[f"control_rate:{j}"] = round(float(control[j]), 5)
        numbers[f"lift:{j}"] = round(float(lift[j]), 4)
    valid = [j for j in range(k) if both_n[j] >= floor]
    numbers["n_future_addressing"] = float(both_n.sum())
    if not valid:
        return insufficient(
            task,
            claims,
            f"no limitation of {sub} is stated as addressed by >= {MIN_FUTURE_MAPPED} window papers (both measures)",
            numbers,
            future_ids,
        )
    order = sorted(range(k), key=lambda j: (j not in valid, -both_n[j], -lex_n[j], -sem_n[j], bns[j].signal_id))
    root = order[0]
    b = bns[root]
    c1 = int(both_n[root])
    c2 = int(max((both_n[j] for j in order[1:]), default=0))
    others = [j for j in range(k) if j != root]
    lex_top = all(lex_n[root] > lex_n[j] for j in others)
    sem_top = all(sem_n[root] > sem_n[j] for j in others)
    margin = max(0.0, (c1 - c2) / c1) if c1 else 0.0
    # the gold rests only on papers both measures count (per statement): measures_agree says
    # so; lexical_top / semantic_top record whether each measure alone ranks it first too
    numbers.update(
        {
            "margin": round(margin, 5),
            "margin_papers": float(c1 - c2),
            "measures_agree": float(c1 > 0),
            "lexical_top": float(lex_top),
            "semantic_top": float(sem_top),
        }
    )
    addressing_ids = [e.split(":", 1)[0] for e in counted[b.signal_id]]
    by_id = {p.arxiv_id: p for p in ctx.future}
    top_papers = [by_id[i] for i in addressing_ids[:3]]
    quotes = list(b.details.get("quotes", []))[:3] or [b.summary]
    slots.add("root_bottleneck", [b.title, *quotes])
    terms = top_terms([p.title + " " + p.abstract for p in top_papers], ctx.fut_df, len(ctx.future), k=4)
    slots.add("opportunity", [], [p.title for p in top_papers] + ([" / ".join(terms)] if terms else []))
    mechanisms = [m for p in top_papers if (m := method_sentence(p.abstract))]
    slots.add("mechanism", [], mechanisms[:2])
    claims.add(
        f"Before {task.cutoff}, {len(b.paper_ids)} papers stated the limitation '{b.title}'.",
        "historical",
        "pre-cutoff",
        0.4,
        ClaimBasis(check="signal_papers", values={"n": len(b.paper_ids)}, params={"signal_id": b.signal_id}),
    )
    claims.add(
        f"Between {task.window_start} and {task.window_end}, the most-addressed bottleneck in {sub} was "
        f"'{b.title}', targeted by {len(addressing_ids)} new papers.",
        "future-realisation",
        scope,
        1.0,
        ClaimBasis(check="ranked_first", paper_ids=addressing_ids, values={"n": len(addressing_ids)}, params={"object": b.title}),
    )
    claims.add(
        f"{len(addressing_ids)} of {len(subject_ids)} new papers in {sub} "
        f"({pct(len(addressing_ids) / max(1, len(subject_ids)))}) state that they address '{b.title}'.",
        "statistical",
        scope,
        0.6,
        ClaimBasis(
            check="window_share",
            paper_ids=addressing_ids,
            values={"n": len(addressing_ids), "total": len(subject_ids)},
            params={"population": "subdirection"},
        ),
    )
    if terms:
        claims.add(
            f"Reducing '{b.title}' opened work on {', '.join(terms)}.",
            "future-realisation",
            scope,
            0.8,
            ClaimBasis(check="terms_in_papers", paper_ids=[p.arxiv_id for p in top_papers], values={"terms": " | ".join(terms)}),
        )
    strength = min(1.0, c1 / BOTTLENECK_FULL_SUPPORT) * (0.25 + 0.75 * margin)
    numbers.update(slots.flags)
    return GoldTarget(
        task_id=task.task_id,
        family=task.family,
        domain=task.domain,
        cutoff=task.cutoff,
        counted={bns[j].signal_id: counted[bns[j].signal_id] for j in order},
        preferred_ranking=[bns[j].title for j in order],
        slots=slots.slots,
        claims=claims.items,
        numbers=numbers,
        future_paper_ids=future_ids,
        strength=round(float(strength), 4),
    )


def bottleneck_problems(gold: GoldTarget) -> list[str]:
    """Why a bottleneck gold with evidence is not decided well enough to release (empty: it is):
    the margin over the second limitation and the two measures' agreement (module docstring)."""
    if gold.strength <= 0:
        return []
    n, out = gold.numbers, []
    if n.get("margin_papers", 0.0) < MIN_MARGIN_PAPERS:
        out.append(f"the gold leads the second limitation by {int(n.get('margin_papers', 0))} paper(s) (< {MIN_MARGIN_PAPERS})")
    if n.get("margin", 0.0) < MIN_RELATIVE_MARGIN:
        out.append(f"relative gold margin {n.get('margin', 0.0):.2f} < {MIN_RELATIVE_MARGIN}")
    if n.get("measures_agree", 0.0) < 1.0:
        out.append("no window paper is counted by both the lexical and the semantic measure")
    return out


# ---- audit flags (the family's `audit_flags` facet; docs/curation.md) ------------------------


def margin_flags(task: Task, gold: GoldTarget | None) -> list[AuditFlag]:
    """`small_gold_margin` for a bottleneck gold with evidence (module docstring)."""
    if task.family != "bottleneck" or gold is None or gold.strength <= 0:
        return []

    papers, rel = gold.numbers.get("margin_papers"), gold.numbers.get("margin", 0.0)
    if papers is None:  # a gold from before the margin was recorded: count from `counted`
        counts = sorted((len(v) for v in gold.counted.values()), reverse=True) + [0, 0]
        papers = counts[0] - counts[1]
        rel = papers / counts[0] if counts[0] else 0.0
    if papers < MIN_MARGIN_PAPERS or rel < MIN_RELATIVE_MARGIN:
        return [
            AuditFlag(
                code="small_gold_margin",
                detail=(
                    f"the gold leads the second candidate by {int(papers)} paper(s), {rel:.2f} of its count "
                    f"(needs >= {MIN_MARGIN_PAPERS} and >= {MIN_RELATIVE_MARGIN})"
                ),
            )
        ]
    return []


_COUNTED_QUOTE = re.compile(r'"([^"]{12,})"')  # the sentence of a counted entry, 'id: "..."'


def background_flags(gold: GoldTarget | None) -> list[AuditFlag]:
    """`background_evidence`: counted window-paper sentences that read as background (the
    first quoted sentence of each counted entry, 'id: "..."'), in the families whose counted
    sentence is the paper's own claim (bottleneck, whose `audit_flags` facet calls this; a phase
    task counts papers by the problem they state, which is background by design)."""
    if gold is None:
        return []

    hits = []
    for key, entries in gold.counted.items():
        for entry in entries:
            m = _COUNTED_QUOTE.search(entry)
            if m and is_background(m.group(1)):
                hits.append(f"{entry.split(':', 1)[0]} ({key})")
    if not hits:
        return []
    return [
        AuditFlag(
            code="background_evidence",
            detail=(f"{len(hits)} counted sentence(s) read as background, not the paper's own work: {', '.join(hits[:4])}"),
        )
    ]

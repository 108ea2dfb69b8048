"""Pydantic records that flow between the stages.

Every stage's logic is a plain function from lists of these records to lists of these
records; the Dagster assets only load, call and store. Records are stored one row each
in Parquet (see `core.tables`): scalar and list-of-scalar fields become columns for
analysts, and the whole record is kept as JSON in `record_json` so nested fields
round-trip exactly.


Length (over ~500 lines on purpose): every pydantic record of every stage in one module, so a
stage's inputs and outputs are read in one place (it is definitions only)."""

from __future__ import annotations

from datetime import date
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

Label = Literal["core", "support", "excluded"]
# A task family's name. Families are plugins (assets/families): the registry, not this
# type, knows which exist, and every stage that meets a name asks it (unknown -> error).
Family = str
Trajectory = Literal["accelerating", "fragmenting", "steady", "cooling"]
Dimension = Literal["tasks", "methodologies", "datasets", "evaluation_methods", "real_world_domains"]
TRAJECTORIES: tuple[str, ...] = ("accelerating", "fragmenting", "steady", "cooling")


class Paper(BaseModel):
    """One paper as it comes from a source (the shipped corpus, arXiv, ...)."""

    arxiv_id: str
    title: str
    abstract: str
    published: date
    published_precision: str = "exact"
    categories: list[str] = Field(default_factory=list)
    authors: list[str] = Field(default_factory=list)
    source: str = ""
    harvested_at: str | None = None  # ISO timestamp of the harvest that fetched it (None: shipped corpus)


class ScreenedPaper(Paper):
    """A paper with its domain-relevance screen (ForeSci §3.2 core / support / excluded)."""

    domain: str
    relevance: float
    label: Label
    reason: str


class Failure(BaseModel):
    """An item a stage could not process; stored, never silently dropped."""

    stage: str
    item_id: str
    reason: str
    raw: str = ""


class Section(BaseModel):
    name: str  # abstract, introduction, method, experiments, limitations, conclusion, other
    heading: str = ""
    text: str


class PaperFullText(BaseModel):
    """A paper's full text parsed from GROBID TEI into sections and references."""

    arxiv_id: str
    source: str  # "grobid" or "abstract_only"
    sections: list[Section] = Field(default_factory=list)
    references: list[str] = Field(default_factory=list)
    error: str | None = None


class TaxonomyNode(BaseModel):
    """A research subdirection of the temporal taxonomy (ForeSci §3.3, TaxoAdapt).

    `created_slice` is the label of the chronological slice (e.g. "2025-Q1" or
    "2025-11") in which the node first appeared; `paper_ids` are the cutoff-visible
    papers assigned to it (a paper assigned to a child is also counted at its parent).
    """

    node_id: str
    domain: str
    dimension: str
    label: str
    description: str
    parent_id: str | None
    level: int
    created_slice: str
    created_by: Literal["initial", "width", "depth"]
    paper_ids: list[str]
    keywords: list[str] = Field(default_factory=list)


class PaperEvidence(BaseModel):
    """Full-text evidence of one paper: one sentence per field, taken verbatim."""

    arxiv_id: str
    published: date
    problem: str = ""
    method: str = ""
    evaluation_focus: str = ""
    limitation: str = ""
    contribution_type: str = ""
    unverified: list[str] = Field(default_factory=list)  # fields whose quote was not found verbatim
    quote_source: str = "abstract"  # "abstract" or "fulltext"
    summaries: dict[str, str] = Field(default_factory=dict)  # LLM mode: the model's one-line paraphrase per field
    extractor: str = "rules"  # "rules" (offline cue phrases) or "llm"


class EvidenceRecord(BaseModel):
    """Node evidence record (ForeSci §3.3): what one subdirection rests on at the cutoff."""

    record_id: str
    node_id: str
    domain: str
    cutoff: date
    node_label: str
    representative_ids: list[str]
    supporting_ids: list[str]
    papers: list[PaperEvidence]
    rank_basis: str = "centrality"  # how representatives were ranked: "centrality" or "centrality+citations"


SignalKind = Literal["candidate_direction", "method_development", "bottleneck", "feasibility", "venue_profile", "approach"]


class Signal(BaseModel):
    """A high-order signal derived from evidence records (ForeSci §3.3 (1)-(5)).

    `stats` holds the numbers the signal was computed from, e.g. for a
    candidate_direction: `share_recent`, `share_prior`, `growth` (volume-normalised),
    `n_papers`; for a bottleneck: `recurrence`. Every signal links back to the
    evidence records and papers it rests on.
    """

    signal_id: str
    kind: SignalKind
    domain: str
    cutoff: date
    title: str
    summary: str
    node_ids: list[str] = Field(default_factory=list)
    evidence_ids: list[str] = Field(default_factory=list)
    paper_ids: list[str] = Field(default_factory=list)
    stats: dict[str, float] = Field(default_factory=dict)
    details: dict[str, list[str]] = Field(default_factory=dict)


class TaskOption(BaseModel):
    option_id: str
    text: str


class Task(BaseModel):
    """A public benchmark task (ForeSci §3.4): everything an agent may see."""

    task_id: str
    family: Family
    domain: str
    cutoff: date
    window_start: date
    window_end: date
    horizon: str
    title: str
    question: str
    instructions: str
    answer_requirements: list[str]
    options: list[TaskOption] = Field(default_factory=list)
    support_paper_ids: list[str] = Field(default_factory=list)
    support_evidence_ids: list[str] = Field(default_factory=list)
    subtype: str = ""


class BuildStep(BaseModel):
    """One step of a task's construction trace (template fill, LLM draft, judge, rewrite).

    `output` is the step's result as JSON text (the draft, or the judge's scores and
    feedback); `request_sha` identifies the exact request (LLM steps are cached by it).
    """

    step: Literal["template", "draft", "judge", "rewrite", "fallback"]
    round: int = 0
    model: str = ""
    purpose: str = ""
    request_sha: str = ""
    output: str = ""
    score: float | None = None
    accepted: bool = False
    error: str = ""


class TaskBuild(BaseModel):
    """Internal construction record of a task: which signals it came from. Never public."""

    task_id: str
    signal_ids: list[str]
    node_ids: list[str]
    option_signal_ids: dict[str, str] = Field(default_factory=dict)
    drafted_by: str = "template"  # "template" or the LLM model that drafted the public text
    build_trace: list[BuildStep] = Field(default_factory=list)
    curation: dict[str, str] = Field(default_factory=dict)  # check name -> "pass" or the reason it was relaxed
    # a task about one paper (venue: its project): that paper's arXiv id, never shown in the task
    project_paper_id: str = ""


class GoldSlot(BaseModel):
    """A reference-guided FTA slot: acceptable textual variants of one future target."""

    slot: str
    variants: list[str]


class PlanTarget(BaseModel):
    """What the window's papers did with one candidate direction (planning gold): the first
    things they did, the other candidates they built on, and whether the candidate stalled."""

    milestones: list[str] = Field(default_factory=list)  # "YYYY-MM-DD arxiv_id: title", earliest first
    dependencies: list[str] = Field(default_factory=list)  # other options its window papers also work on
    kill_criterion: str = ""
    stalled: bool = False  # the kill criterion fired in the first half of the window


class ClaimBasis(BaseModel):
    """How a gold claim was computed, so a validator can recompute it from the warehouse
    (`assets/gold/claims.py` names the checks)."""

    check: str  # e.g. "signal_papers", "window_share", "ranked_first", "quote"
    paper_ids: list[str] = Field(default_factory=list)  # full arXiv ids the claim rests on
    values: dict[str, float | str] = Field(default_factory=dict)  # what the text states
    params: dict[str, float | str] = Field(default_factory=dict)  # what the check needs


class GoldClaim(BaseModel):
    claim_id: str
    text: str
    type: Literal["historical", "future-realisation", "statistical", "taxonomy", "venue"]
    time_scope: str
    importance: float = 1.0
    basis: ClaimBasis | None = None  # None: not recomputable, counts as unverified


class GoldTarget(BaseModel):
    """Hidden future validation target of one task, computed from the future window."""

    task_id: str
    family: Family
    domain: str
    cutoff: date
    preferred_ranking: list[str] = Field(default_factory=list)
    trajectory: str | None = None
    slots: list[GoldSlot] = Field(default_factory=list)
    claims: list[GoldClaim] = Field(default_factory=list)
    numbers: dict[str, float] = Field(default_factory=dict)
    future_paper_ids: list[str] = Field(default_factory=list)
    # per candidate (option id, or bottleneck title), the window papers the gold counted for
    # it, as "arxiv_id title": what a reader checks the gold against
    counted: dict[str, list[str]] = Field(default_factory=dict)
    plan: dict[str, PlanTarget] = Field(default_factory=dict)  # planning: per option id
    strength: float = 0.0


class TaskRating(BaseModel):
    task_id: str
    family: Family
    elo: float
    rank_in_family: int
    released: bool
    quality: float
    note: str = ""  # why a task is not released (e.g. insufficient future evidence, below top-N)
    judge: str = "offline"  # "offline" criteria or the LLM judge model
    # a released task's option ids (as built) in the order the release presents them
    # (assets/ranking/presentation.py); empty: as built
    presentation: list[str] = Field(default_factory=list)


class Answer(BaseModel):
    """One agent answer, with the trace needed to audit and score it."""

    answer_id: str
    task_id: str
    family: Family
    method: str
    backbone: str
    seed: int = 0
    choice: str | None = None
    ranking: list[str] = Field(default_factory=list)
    trajectory: str | None = None
    claims: list[str] = Field(default_factory=list)
    # what the answer commits to, as short texts (the chosen option, its trajectory; the
    # named bottleneck and opportunity): what FTA and trace linkage score
    decision: list[str] = Field(default_factory=list)
    text: str = ""
    evidence_ids: list[str] = Field(default_factory=list)
    retrieval_queries: list[str] = Field(default_factory=list)
    has_support_artifact: bool = True
    prompt_tokens: int = 0
    completion_tokens: int = 0
    cost_usd: float = 0.0
    latency_s: float = 0.0
    error: str | None = None
    artifacts: dict[str, str] = Field(default_factory=dict)  # intermediate artifacts (JSON strings)
    backbone_postdates_cutoff: bool = False


class Score(BaseModel):
    """Judge scores of one answer. Metrics that need an LLM judge are None offline.

    The ForeSci metrics are typed fields (typed columns for analysts); values of other
    registered scorers go to `values`. Unknown fields are an error, never dropped."""

    model_config = ConfigDict(extra="forbid")

    answer_id: str
    task_id: str
    family: Family
    method: str
    backbone: str
    fact: float | None = None
    fact_precision: float | None = None
    fact_recall: float | None = None
    fta: float | None = None
    fta_precision: float | None = None
    fta_recall: float | None = None
    trace: float | None = None
    trace_linkage: float | None = None
    pers: float | None = None
    trace_std: float | None = None
    pers_std: float | None = None
    pers_dimensions: dict[str, float] = Field(default_factory=dict)
    repeats: int = 0
    judge_model: str | None = None
    prompt_version: str | None = None
    judge_calls: int = 0
    judge_prompt_chars: int = 0
    drift: dict[str, float] = Field(default_factory=dict)
    values: dict[str, float | None] = Field(default_factory=dict)  # other scorers' values, by name
    note: str = ""  # per-scorer rationales, "scorer: why; ..."

    def value(self, name: str) -> float | None:
        """A metric value by name, typed field or `values`."""
        if name in type(self).model_fields and name not in ("values", "note"):
            return getattr(self, name)
        return self.values.get(name)


class PaperMetadata(BaseModel):
    """Semantic Scholar enrichment of one paper, as visible at the partition's cutoff.

    Values observed after the cutoff (a citation count or venue fetched today for an old
    cutoff) are never put in the public row: they are null there, `withheld` names them,
    and the observed values go to the hidden `paper_metadata_observed` side table.
    """

    arxiv_id: str
    s2_paper_id: str | None = None
    venue: str | None = None
    publication_date: date | None = None
    citation_count: int | None = None
    citation_count_as_of: date | None = None  # date the count was observed (<= cutoff)
    open_access_pdf: str | None = None
    observed_at: str | None = None  # ISO timestamp of the S2 response used
    withheld: list[str] = Field(default_factory=list)
    source: str = "semantic_scholar"


class MonthVolume(BaseModel):
    """Papers per calendar month of a snapshot, by screen label (ForeSci volume normaliser)."""

    month: str  # YYYY-MM
    total: int
    core: int = 0
    support: int = 0
    excluded: int = 0
    relevant: int = 0  # core + support


class DuplicateLink(BaseModel):
    """A record dropped by deduplication and the record it collapsed into."""

    dropped_id: str
    kept_id: str
    method: str  # "arxiv_id" (versions / repeated records) or "near_title"
    similarity: float = 1.0
    dropped_title: str = ""
    kept_title: str = ""
    dropped_published: date | None = None


class PairwiseComparison(BaseModel):
    """One pairwise comparison of two systems (method@backbone) on one task.

    `source` is "metric:<name>" (per-task metric comparison, offline) or "llm" (a judge
    model's preference, asked in both presentation orders: `first` with A shown first,
    `second` with B shown first; disagreeing orders make `winner` a tie).
    """

    task_id: str
    family: Family
    system_a: str
    system_b: str
    winner: Literal["a", "b", "tie"]
    source: str
    first: str | None = None
    second: str | None = None
    judge_model: str | None = None
    prompt_version: str | None = None


# --------------------------------------------------------------------------------------
# curation: the human-and-model audit of every candidate task (ForeSci App. B.6-B.7)
# --------------------------------------------------------------------------------------

FlagCode = Literal[
    "weak_support",
    "near_duplicate",
    "label_readability",
    "gold_unstable",
    "possible_leakage",
    "not_selected",
    "model_review",
    "repeated_project_text",
    "small_gold_margin",
    "label_collision",
    "background_evidence",
    "shared_quotes",
    # hard defects (assets/ranking/defects.py): the gate keeps such a task out
    "contribution_type_option",
    "bare_word_option",
    "dead_option",
    "duplicate_options",
    "not_one_subfield",
    "planning_direction_overlap",
]
DecisionAction = Literal["approve", "reject", "revise"]
# Why a reviewer removes a task: a fixed list, so the release can count removals by reason.
REJECT_REASONS: tuple[str, ...] = (
    "insufficient_support",  # the pre-cutoff packet does not support the premise
    "unclear_decision",  # the question does not ask one clear decision
    "not_specific",  # too generic to be answerable or scorable
    "gold_wrong",  # the hidden gold does not follow from the post-cutoff evidence
    "leakage",  # the public text reveals the outcome or a post-cutoff entity
    "duplicate",  # asks what another task asks
    "unreadable",  # labels or wording a reader cannot follow
    "other",
)
REVISABLE_FIELDS = ("title", "question", "options")  # never the gold or its evidence


class AuditFlag(BaseModel):
    """A risk a reviewer should look at first: a deterministic check's, or the model review's."""

    code: FlagCode
    detail: str
    source: Literal["rule", "model"] = "rule"


class SupportQuote(BaseModel):
    """A pre-cutoff support paper with the verbatim sentences the evidence records quote."""

    arxiv_id: str
    title: str = ""
    published: date | None = None
    quotes: dict[str, str] = Field(default_factory=dict)  # field (problem, method, ...) -> sentence
    unverified: list[str] = Field(default_factory=list)  # fields whose quote was not found verbatim


class CriterionVerdict(BaseModel):
    """The model review's draft verdict on one ForeSci B.3/B.7 criterion, with its reason."""

    criterion: str
    verdict: Literal["pass", "fail", "unsure"]
    reason: str = ""


class AuditRecord(BaseModel):
    """What a reviewer needs to judge one candidate task; hidden, never released.

    `content_hash` is the hash of the public task and its gold: a decision is bound to it, so
    a rebuild that changes either puts the task back in the queue."""

    task_id: str
    family: Family
    domain: str
    cutoff: date
    content_hash: str
    title: str
    selected: bool  # the ranking and validity gate would release it
    gate_note: str = ""  # why the ranking holds it back (TaskRating.note)
    task: Task
    gold: GoldTarget | None = None
    future_evidence: list[str] = Field(default_factory=list)  # "arxiv_id title" the gold counted
    support: list[SupportQuote] = Field(default_factory=list)
    checks: dict[str, str] = Field(default_factory=dict)  # validity check -> value or result, per task
    flags: list[AuditFlag] = Field(default_factory=list)
    model_review: list[CriterionVerdict] = Field(default_factory=list)
    review_model: str = ""  # "" when no model is configured (deterministic flags only)


class Decision(BaseModel):
    """One reviewer decision, as stored (append-only: the latest per task wins, all are kept)."""

    decision_id: int = 0
    domain: str
    cutoff: str
    task_id: str
    content_hash: str
    action: DecisionAction
    reviewer: str
    decided_at: str  # ISO UTC timestamp
    reason: str = ""  # one of REJECT_REASONS when action == "reject"
    note: str = ""  # free text, internal
    revision: dict[str, str] = Field(default_factory=dict)  # "title", "question", "option:<id>" -> new text


# --------------------------------------------------------------------------------------
# Xcientist-style answer artifacts (assets/artifacts/, docs/xcientist.md)
# --------------------------------------------------------------------------------------

Outcome = Literal["pass", "partial", "blocked"]
QuoteStatus = Literal["verified", "altered", "not_found", "unknown_paper"]
DriftKind = Literal["semantic", "experimental", "mechanistic"]


class EvidenceTuple(BaseModel):
    """One piece of an answer's evidence as Xcientist's 4-tuple plus its paper id (Table 3):
    keywords (for retrieval), summary, insight (why it matters to the answer), a verbatim
    quote, and whether that quote was found, as written, in the paper's pre-cutoff text."""

    tuple_id: str  # <answer_id>#e<k>
    answer_id: str
    task_id: str
    family: Family
    method: str
    backbone: str
    paper_id: str
    keywords: list[str] = Field(default_factory=list)
    summary: str = ""
    insight: str = ""
    quote: str = ""
    quote_status: QuoteStatus = "not_found"
    source: str = "offline"  # offline | judge | agent (who wrote the tuple)
    section: str = ""  # the KB section the quote was found in ("" if not found)


class ChainValidation(BaseModel):
    """One validator's verdict on one final claim's chain evidence -> mechanism -> decision
    -> claim. `stage` "chain" is the claim's overall outcome: pass only if every stage passed
    (a partial never counts as a pass)."""

    answer_id: str
    task_id: str
    family: Family
    method: str
    backbone: str
    claim_index: int
    claim: str
    stage: Literal["evidence", "mechanism", "decision", "claim", "chain"]
    outcome: Outcome
    reason: str = ""
    tuple_ids: list[str] = Field(default_factory=list)  # the evidence tuples the verdict rests on
    validator: str = "offline"  # offline | judge


class ClaimDrift(BaseModel):
    """One detected claim drift (Xcientist §3.1, §4): semantic (the claim says more or other
    than its evidence), experimental (it rests on an evaluation the evidence did not report)
    or mechanistic (its claimed cause is not the evidence's)."""

    answer_id: str
    task_id: str
    family: Family
    method: str
    backbone: str
    claim_index: int
    claim: str
    kind: DriftKind
    detail: str = ""  # what drifted, in words
    evidence: str = ""  # the closest evidence quote, for the example
    detector: str = "offline"  # offline | judge


class AnswerArtifacts(BaseModel):
    """The inspectable record of one answer: its evidence tuples, per-claim validations and
    drifts, and attribution completeness (the share of final claims whose chain passes down
    to a verified pre-cutoff quote)."""

    answer_id: str
    task_id: str
    family: Family
    method: str
    backbone: str
    n_claims: int = 0
    n_attributed: int = 0
    attribution_completeness: float = 0.0
    outcome: Outcome = "blocked"  # the answer's chain: pass only if every claim's chain passes
    n_tuples: int = 0
    n_quotes_verified: int = 0
    drift_semantic: int = 0
    drift_experimental: int = 0
    drift_mechanistic: int = 0
    validator: str = "offline"  # offline | judge model name
    tuples: list[EvidenceTuple] = Field(default_factory=list)
    validations: list[ChainValidation] = Field(default_factory=list)
    drifts: list[ClaimDrift] = Field(default_factory=list)

"""Phase tasks (DeepResearch Arena §3, Table 2): open-ended research tasks from inspirations.

Source: the research inspirations (`assets/arena/inspirations.py`) of the partition's
pre-cutoff evidence records, typed limitation / methodology / transdisciplinarity /
hypothesis. TaskWeaver (offline: a documented template per phase; the paper's agent
aggregates several inspirations, so does ours: a primary and a supporting inspiration of
the same taxonomy node) turns them into tasks tagged by the paper's three phases
(`Task.subtype`):

    synthesize  collect, integrate and analyse prior work to form a direction
                (primary: a limitation; support: another kind of the node)
    design      design a solution, model or experiment that addresses a problem
                (primary: a methodology or transdisciplinarity; support: a limitation)
    evaluate    assess results with structured criteria or benchmarks
                (primary: a hypothesis; support: a methodology)

The phase-from-kind mapping is our choice (the paper gives none). Agents get the partition's
cutoff-bound knowledge base. Hidden reference (our choice, docs/arena.md): the window papers
that later pursued the task's primary inspiration (centred embedding cosine >= PURSUIT_COS with its
quote and the node label AND >= MIN_SHARED shared content stems) and, as reference keypoints, one
verbatim sentence of each of the MAX_REFERENCE closest of them. A task is pursued when at
least MIN_PURSUING window papers pursue it; its stability is how often that stays true when
the window's papers are resampled. FTA is the reference-guided match of the answer's key
points to the reference keypoints; KAE and ACE (assets/scorers) score the report itself.
"""

from __future__ import annotations

import json
import re
from typing import ClassVar

import numpy as np
from pydantic import BaseModel, Field

from assets.arena.inspirations import Inspiration, extract_inspirations
from assets.families.base import TaskFamily
from assets.gold.leakage import internal_violations
from assets.rediscovery.claims import all_stems
from assets.tasks.building import MAX_SUPPORT_PAPERS, MIN_SUPPORT_PAPERS
from core.records import BuildStep, ClaimBasis, Failure, GoldClaim, GoldSlot, GoldTarget, Task, TaskBuild
from core.text import content_tokens, jaccard

PHASES = ("synthesize", "design", "evaluate")
PHASE_TITLES = {"synthesize": "Synthesize", "design": "Design", "evaluate": "Evaluate"}
PRIMARY = {"synthesize": ("limitation",), "design": ("methodology", "transdisciplinarity"),
           "evaluate": ("hypothesis",)}
SUPPORT = {"synthesize": ("hypothesis", "methodology", "transdisciplinarity"), "design": ("limitation",),
           "evaluate": ("methodology", "transdisciplinarity")}
PURSUIT_COS = 0.35  # centred cosine of a window paper to the task's inspirations
MIN_SHARED = 3  # ... and content stems it shares with them
MIN_PURSUING = 3  # window papers that pursue the task for it to have a reference
FULL_SUPPORT = 8  # pursuing papers for strength 1
MAX_REFERENCE = 3  # reference keypoints (one per closest pursuing paper)
DUPLICATE_JACCARD = 0.6  # two tasks whose primary quotes share this much are one task
GENERIC_HEDGE = (  # the "generic" control: research talk that fits any task
    "Prior work has made progress but important limitations remain.",
    "We propose a novel framework and evaluate it on standard benchmarks against strong baselines.",
    "Future work should study robustness, scalability and generalisation.",
)
_SENT = re.compile(r"(?<=[.!?])\s+(?=[A-Z0-9(\[])")


class PhaseAnswer(BaseModel):
    report: str = Field(default="", description="the research report (markdown): the synthesis, design or "
                                                "evaluation the task asks for")
    keypoints: list[str] = Field(default_factory=list, description="the report's 1-5 key statements, one "
                                                                     "atomic statement each")
    claims: list[str] = Field(default_factory=list)
    cited_ids: list[str] = Field(default_factory=list)


def _short(text: str, n: int = 9) -> str:
    words = text.split()
    return " ".join(words[:n]).rstrip(",.;:") + ("..." if len(words) > n else "")


def question_text(phase: str, label: str, primary: Inspiration, support: Inspiration | None, cutoff: str,
                  ws: str, we: str) -> str:
    """The offline TaskWeaver template of one phase (public: pre-cutoff quotes and ids only)."""
    p = f"\"{primary.quote}\" ({primary.paper_id})"
    s = f" A related pre-cutoff finding: \"{support.quote}\" ({support.paper_id})." if support else ""
    if phase == "synthesize":
        return (f"Synthesize the work on {label} published up to {cutoff}. A paper reported the limitation {p}.{s} "
                f"Integrate what prior work says about this limitation, identify the gap it leaves, and state the "
                f"research direction it points to for work published between {ws} and {we}.")
    if phase == "design":
        return (f"Design a research solution in {label} as of {cutoff}, building on the approach {p}.{s} Propose "
                f"the method, the experiments that would test it and what it assumes, as work published between "
                f"{ws} and {we} could carry it out.")
    return (f"Evaluate the claim {p} in {label} as of {cutoff}.{s} Design the evaluation that would confirm or "
            f"refute it: benchmarks, metrics, baselines and statistical tests, as work published between {ws} and "
            f"{we} could run it.")


def query_of(build: TaskBuild) -> str:
    """What window papers must pursue: the node's label and the PRIMARY inspiration (the
    supporting one only frames the public question, so two phases of a node that swap
    primary and support keep different references)."""
    ins = json.loads(build.curation.get("inspirations", "[]"))
    return " ".join([build.curation.get("node_label", "")] + [i["quote"] for i in ins[:1]])


class PhaseFamily(TaskFamily):
    name = "phase"
    title = "Research Phase Tasks (DeepResearch Arena)"
    summary = "an open-ended synthesize / design / evaluate task grounded in pre-cutoff inspirations"
    answer_kind = "report"
    instructions = ("Use only the evidence available up to the cutoff (the knowledge base is bound to it). Write a "
                    "research report for the task's phase, cite the pre-cutoff papers it rests on, and list its key "
                    "statements as atomic key points.")
    requirements = ("a research report for the task's phase (synthesize, design or evaluate)",
                    "the phase's deliverable: a gap and a direction (synthesize), a method with its experiments "
                    "(design), or benchmarks, metrics, baselines and tests (evaluate)",
                    "1-5 key points, one atomic statement each",
                    "cited pre-cutoff papers for its statements")
    decision_cues = ("synthesize", "design", "evaluat")
    answer_schema = PhaseAnswer
    answer_fields = ("Fields: report (markdown research report), keypoints (1-5 atomic key statements), claims, "
                     "cited_ids.")
    offline_reading = "own"
    vocabulary = ("Synthesize the work on published up to A paper reported the limitation A related pre-cutoff "
                  "finding Integrate what prior work says about this limitation identify the gap it leaves and "
                  "state the research direction it points to for work published between Design a research "
                  "solution as of building on the approach Propose the method experiments that would test it "
                  "assumes could carry out Evaluate claim confirm refute benchmarks metrics baselines statistical "
                  "tests run")
    rubric_dimensions = {"phase_fit": "the report does what the task's phase asks (synthesis, design, evaluation)"}
    review_stages = (
        ("problem", "what the pre-cutoff work on the task's inspirations establishes and leaves open",
         ("grounding in the evidence", "clarity")),
        ("method", "the synthesis, design or evaluation the task's phase asks for",
         ("validity", "specificity")),
        ("experiment", "how the answer would be checked in {window}", ("falsifiability", "feasibility")),
    )
    phases: ClassVar[tuple[str, ...]] = PHASES

    # ---- building ------------------------------------------------------------------------
    def template(self, draft) -> tuple[str, str]:  # not used: tasks come from inspirations, not drafts
        return "Phase task", "Synthesize ..."

    def build(self, builder) -> None:
        st = builder.settings
        records = list(builder.records_by_node.values())
        drafter = getattr(builder, "inspiration_drafter", None)
        inspirations = drafter(records, st.cutoff) if drafter else extract_inspirations(records, st.cutoff)
        builder.inspirations = inspirations
        by_node: dict[str, list[Inspiration]] = {}
        for i in inspirations:
            by_node.setdefault(i.node_id, []).append(i)
        nodes = sorted(by_node, key=lambda n: (-len(by_node[n]), n))
        limit = st.family_max(self.name)
        used: set[str] = set()
        kept: list[tuple[str, set[str]]] = []
        # round-robin over phases, then nodes: the phases stay balanced whatever the limit
        per_phase = -(-limit // len(PHASES))  # each phase gets its share of the family's budget
        made = {ph: 0 for ph in PHASES}
        queue = {ph: list(nodes) for ph in PHASES}
        while any(queue.values()) and builder.count(self.name) < limit:
            for ph in PHASES:
                # the next node that has an unused primary inspiration for this phase
                while queue[ph] and made[ph] < per_phase and builder.count(self.name) < limit:
                    pool = by_node[queue[ph].pop(0)]
                    primary = next((i for i in pool if i.kind in PRIMARY[ph] and i.inspiration_id not in used), None)
                    if primary is None:
                        continue
                    support = next((i for i in pool if i.kind in SUPPORT[ph] and i.paper_id != primary.paper_id), None)
                    made[ph] += self._emit(builder, ph, primary, support, used, kept)
                    break
                if made[ph] >= per_phase:
                    queue[ph] = []

    def _emit(self, builder, phase: str, primary: Inspiration, support: Inspiration | None, used: set[str],
              kept: list[tuple[str, set[str]]]) -> bool:
        st = builder.settings
        n = builder.count(self.name) + 1
        task_id = f"{st.domain}-{st.cutoff.isoformat()}-{self.name}-{n:02d}"
        sig = set(content_tokens(primary.quote))
        dup = next((tid for tid, other in kept if jaccard(sig, other) >= DUPLICATE_JACCARD), None)
        used.add(primary.inspiration_id)
        if dup:
            builder.failures.append(Failure(stage="tasks", item_id=task_id,
                                            reason=f"curation: duplicate decision of {dup} (same inspiration)"))
            return False
        label = primary.node_label
        question = question_text(phase, label, primary, support, st.cutoff.isoformat(), st.window_start.isoformat(),
                                 st.window_end.isoformat())
        title = f"{PHASE_TITLES[phase]}: {label} ({_short(primary.quote, 7)})"
        ins = [primary] + ([support] if support else [])
        record = builder.records_by_node.get(primary.node_id)
        node_papers = (record.representative_ids + record.supporting_ids) if record else []
        support_ids = list(dict.fromkeys([i.paper_id for i in ins] + node_papers))[:MAX_SUPPORT_PAPERS]
        if len(support_ids) < MIN_SUPPORT_PAPERS:  # the same premise rule as every family: a node with papers
            builder.failures.append(Failure(stage="tasks", item_id=task_id, reason=(
                f"curation: thin support: the inspiration's node has {len(support_ids)} papers "
                f"< {MIN_SUPPORT_PAPERS}")))
            return False
        task = Task(task_id=task_id, family=self.name, domain=st.domain, cutoff=st.cutoff,
                    window_start=st.window_start, window_end=st.window_end, horizon=f"{st.horizon_months}-month",
                    title=title, question=question, instructions=self.instructions,
                    answer_requirements=list(self.requirements), subtype=phase,
                    support_paper_ids=support_ids,
                    support_evidence_ids=list(dict.fromkeys(f"{i.paper_id}#{i.field}" for i in ins)))
        problems = internal_violations([task], cutoff=st.cutoff, internal_ids=builder.internal_ids)
        if problems:
            builder.failures.append(Failure(stage="tasks", item_id=task_id, reason=f"draft dropped: {problems[0]}"[:1000],
                                            raw=task.model_dump_json()))
            return False
        kept.append((task_id, sig))
        builder.tasks.append(task)
        builder.builds.append(TaskBuild(
            task_id=task_id, signal_ids=[], node_ids=[primary.node_id], drafted_by="template",
            build_trace=[BuildStep(step="template", output=json.dumps({"title": title, "question": question}),
                                   accepted=True)],
            curation={"phase": phase, "node_label": label, "extractor": primary.extractor,
                      "inspirations": json.dumps([i.model_dump(mode="json") for i in ins], ensure_ascii=False),
                      "premise": "pass", "decision": "pass", "duplicate": "pass"}))
        return True

    # ---- answering -----------------------------------------------------------------------
    def decision_signature(self, task: Task, subject: str = "") -> set[str]:
        return set(content_tokens(task.question))

    def evidence_queries(self, task: Task) -> list[tuple[str, str]]:
        return [("task", task.question)]

    def decide(self, task, parsed):
        return None, [], []

    def decision_claims(self, task, parsed, ranking, choice) -> list[str]:
        return [k for k in parsed.keypoints if k.strip()]

    def decision_texts(self, task, parsed, ranking, choice) -> list[str]:
        return [k.strip() for k in parsed.keypoints if k.strip()]

    def answer_lines(self, task, parsed, ranking, choice) -> list[str]:
        lines = [parsed.report.strip(), ""] if parsed.report.strip() else []
        if parsed.keypoints:
            lines += ["**Key points:**"] + [f"- {k}" for k in parsed.keypoints] + [""]
        return lines

    def contract_rules(self, task: Task) -> list[str]:
        return [f"report: a {task.subtype or 'research'} report in markdown",
                "keypoints: 1-5 atomic key statements of the report"]

    def contract_violations(self, task: Task, parsed: BaseModel) -> list[str]:
        return [] if getattr(parsed, "keypoints", None) else ["no key points"]

    def offline_answer(self, ctx, method: str):
        """The offline baselines: the cutoff-bound KB's closest papers, read for the phase.
        retrieval: the hits most similar to the task; momentum: the most recent of them.
        Key points: per hit, its abstract sentence sharing most content with the task (a
        sentence with the phase's cue words first); the report strings them together."""
        from assets.agents.render import render_answer

        task, kb = ctx.task, ctx.kb
        hits = kb.search(task.question, k=ctx.setting("k", 20), mode="hybrid")
        if method == "momentum":
            hits = sorted(hits, key=lambda h: (-h.published.toordinal(), h.arxiv_id))[:8]
        q = all_stems(task.question)
        cue = PHASE_CUES.get(task.subtype)
        picked: list[tuple[str, str]] = []
        for h in hits:
            if h.arxiv_id in task.support_paper_ids:
                continue  # the inspirations' own papers are in the question already
            full = kb.get(h.arxiv_id) if len(h.snippet) >= 400 else h
            sents = [s for s in _SENT.split((full or h).snippet) if 6 <= len(s.split()) <= 60]
            if not sents:
                continue
            best = max(sents, key=lambda s: (bool(cue and cue.search(s)), len(q & all_stems(s))))
            picked.append((h.arxiv_id, " ".join(best.split())))
            if len(picked) >= 3:
                break
        keypoints = [s for _, s in picked]
        phase = PHASE_TITLES.get(task.subtype, "Report")
        report = "\n".join([f"### {phase}", ""] + [f"- {s} [{pid}]" for pid, s in picked])
        parsed = PhaseAnswer(report=report, keypoints=keypoints, cited_ids=[pid for pid, _ in picked])
        return render_answer(task, parsed, method=method, backbone=ctx.backbone_name, seed=ctx.seed,
                             retrieved=hits, retrieval_queries=[task.question], has_support_artifact=bool(hits))

    # ---- controls --------------------------------------------------------------------------
    def stated_answer(self, task: Task, gold: GoldTarget) -> dict:
        kps = [v for s in gold.slots for v in s.variants[:1]]
        return {"keypoints": kps, "report": "\n".join(f"- {k}" for k in kps)}

    def random_answer(self, task: Task, gold: GoldTarget, rng, others: list[GoldTarget]) -> dict:
        """Chance: as many key points as the reference has, drawn from other tasks' reference
        keypoints of the partition (real window sentences, another task)."""
        pool = [v for g in others for s in g.slots for v in s.variants[:1]]
        rng.shuffle(pool)
        kps = pool[:max(1, len(gold.slots))]
        return {"keypoints": kps, "report": "\n".join(f"- {k}" for k in kps)}

    def every_option_decision(self, task: Task, gold: GoldTarget) -> list[str]:
        return list(GENERIC_HEDGE)

    # ---- gold ------------------------------------------------------------------------------
    def gold(self, ctx, task: Task, build: TaskBuild, signals) -> GoldTarget:
        query = query_of(build)
        cache = ctx.__dict__.setdefault("_phase_query", {})  # shared with the bootstrap resamples
        if task.task_id not in cache:
            cache[task.task_id] = (ctx.embed_centred([query])[0], all_stems(query))
        qvec, qstems = cache[task.task_id]
        stems = ctx.__dict__.setdefault("_phase_stems", {})
        for p in ctx.future:
            if p.arxiv_id not in stems:
                stems[p.arxiv_id] = all_stems(f"{p.title} {p.abstract}")
        cos = ctx.fut_vecs @ qvec if len(ctx.future) else np.zeros(0)
        rows = [i for i in np.argsort(-cos, kind="stable")
                if cos[i] >= PURSUIT_COS and len(qstems & stems[ctx.future[i].arxiv_id]) >= MIN_SHARED]
        numbers = {"n_future_total": float(len(ctx.future)), "n_pursuing": float(len(rows)),
                   "top_cos": round(float(cos.max()), 4) if len(cos) else 0.0}
        base = dict(task_id=task.task_id, family=self.name, domain=task.domain, cutoff=task.cutoff)
        pursuing = list(dict.fromkeys(ctx.future[i].arxiv_id for i in rows))
        if len(rows) < MIN_PURSUING:
            return GoldTarget(**base, numbers=numbers, future_paper_ids=pursuing, strength=0.0)
        if ctx.ranking_only:  # a bootstrap resample only asks whether the task is still pursued
            return GoldTarget(**base, preferred_ranking=["pursued"], numbers=numbers, strength=1.0)
        by_id = {p.arxiv_id: p for p in ctx.future}
        scope = f"{task.window_start} to {task.window_end}"
        claims = [GoldClaim(claim_id=f"{task.task_id}-c01", type="future-realisation", time_scope=scope,
                            text=(f"Between {task.window_start} and {task.window_end}, {len(pursuing)} window papers "
                                  f"pursued the task's inspirations."),
                            basis=ClaimBasis(check="window_count", paper_ids=pursuing, values={"n": len(pursuing)}))]
        slots, counted = [], {}
        for pid in pursuing[:MAX_REFERENCE]:
            p = by_id[pid]
            sents = [" ".join(s.split()) for s in _SENT.split(p.abstract) if 6 <= len(s.split()) <= 60]
            if not sents:
                continue
            best = max(sents, key=lambda s: len(qstems & all_stems(s)))
            slots.append(GoldSlot(slot=f"keypoint_{len(slots) + 1}", variants=[best]))
            claims.append(GoldClaim(claim_id=f"{task.task_id}-c{len(claims) + 1:02d}", text=best,
                                    type="future-realisation", time_scope=scope, importance=0.8,
                                    basis=ClaimBasis(check="quote_in_window", paper_ids=[pid])))
            counted.setdefault("pursued", []).append(f"{pid}: \"{best[:200]}\"")
        if not slots:
            return GoldTarget(**base, numbers=numbers, future_paper_ids=pursuing, strength=0.0)
        # canonical order: two tasks with the same reference keypoints have the same first one, so the
        # release's one-task-per-gold-answer rule (assets/ranking/selection.py) keeps only one of them
        slots = [GoldSlot(slot=f"keypoint_{i}", variants=s.variants)
                 for i, s in enumerate(sorted(slots, key=lambda s: s.variants[0]), 1)]
        return GoldTarget(**base, preferred_ranking=["pursued"], slots=slots, claims=claims, numbers=numbers,
                          future_paper_ids=pursuing, counted=counted,
                          strength=round(min(1.0, len(pursuing) / FULL_SUPPORT), 4))


PHASE_CUES = {
    "synthesize": re.compile(r"\b(limitation\w*|gap|lack\w*|fail\w*|challeng\w*|open|remain\w*|survey\w*)\b", re.I),
    "design": re.compile(r"\b(propos\w*|introduc\w*|framework|method|architecture|pipeline|design\w*)\b", re.I),
    "evaluate": re.compile(r"\b(benchmark\w*|evaluat\w*|metric\w*|accura\w*|outperform\w*|baseline\w*|\d+%?)\b", re.I),
}

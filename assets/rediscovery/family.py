"""Rediscovery (FIRE-Bench): predict the empirical findings of a paper from its research
question and setup, with a knowledge base bound to the day before the paper appeared.

Opt-in (issue 14 part A): registered, with its scorer, only when the composition root
installs the `rediscovery` plugin (`assets/plugins.py`; `foresci demo-rediscovery` enables it
in its own state directory), so the default release is unchanged. docs/rediscovery.md describes source, construction, scoring and the
deviations from the paper.

Source: the partition's core papers of the last `SOURCE_MONTHS` months before the
partition cutoff whose abstract (and GROBID experiments/conclusion, where present) has
result sentences; each one's problem tree (`assets/rediscovery/tree.py`, or drafted by the
LLM resource) gives the public task (the target leaf's parent question + its setup) and the
hidden target (the leaf's atomic findings). The task's own cutoff is the day before the
paper's date: agents get the partition's knowledge base re-bound to that day
(`per_task_cutoff`), so the source paper and everything after it are invisible.
"""

from __future__ import annotations

import json
import re
from datetime import timedelta
from functools import partial
from typing import ClassVar

from pydantic import BaseModel, Field

from assets.agents.backbones import default_registry
from assets.families.base import FamilyRecords, ReportTable, TaskFamily
from assets.rediscovery import report as rd
from assets.rediscovery.llm import draft_tree
from assets.rediscovery.tree import difficulty, problem_tree, roles, target_of
from core import claims as cl
from core.papers import add_months
from core.records import ClaimBasis, Failure, GoldClaim, GoldSlot, GoldTarget, Task, TaskBuild

SOURCE_MONTHS = 6  # source papers: the last months before the partition cutoff (spanning backbone knowledge dates)
MAX_FINDINGS = 6
GENERIC_HEDGE = (  # the "generic" control: result talk that fits any paper
    "The proposed method improves performance over strong baselines.",
    "Results vary across models, datasets and settings.",
    "Larger models achieve better results than smaller models.",
    "The approach is effective and efficient in extensive experiments.",
)


class RediscoveryAnswer(BaseModel):
    findings: list[str] = Field(default_factory=list, description="the predicted empirical findings, one atomic claim each")
    claims: list[str] = Field(default_factory=list)
    cited_ids: list[str] = Field(default_factory=list)


def _title(question: str) -> str:
    words = re.sub(r"^What do we learn when a study sets out to ", "", question).rstrip("?").split()
    return "Rediscovery: " + " ".join(words[:12]) + ("..." if len(words) > 12 else "")


def quote_in_paper(claim: GoldClaim, gold: GoldTarget, cc) -> str | None:
    """Claim check: the finding is a piece of the title or abstract of its public source paper
    (a finding from GROBID full text is unverified)."""
    texts = [
        cl.clean_text(f"{cc.public[i].title} {cc.public[i].abstract}").lower() for i in claim.basis.paper_ids if i in cc.public
    ]
    quote = cl.clean_text(claim.text).lower().rstrip(".")
    return None if texts and any(quote in x for x in texts) else "finding not found in the source paper's abstract"


class RediscoveryFamily(TaskFamily):
    name = "rediscovery"
    title = "Insight Rediscovery (FIRE-Bench)"
    summary = "predict a study's empirical findings from its research question and setup, with a KB bound to the day before it"
    answer_kind = "claims"
    instructions = (
        "Use only work published up to the task's cutoff (the knowledge base is bound to it). "
        "Predict what the study described will find: its empirical results, one atomic claim per "
        "finding (a direction, a comparison or a number), no hedging."
    )
    requirements = ("findings: atomic empirical claims, one per line", "cited pre-cutoff papers")
    decision_cues = ("what do we learn",)
    answer_schema = RediscoveryAnswer
    answer_fields = "Fields: findings (atomic empirical claims), claims, cited_ids."
    offline_reading = "own"
    per_task_cutoff: ClassVar[bool] = True
    needs: ClassVar[frozenset[str]] = frozenset({"papers", "fulltext", "llm"})
    vocabulary = "What do we learn when a study sets out to Setup Predict the study's empirical findings"
    rubric_dimensions = {"specificity": "findings are concrete (direction, comparison, magnitude)"}
    claim_checks: ClassVar[dict] = {"quote_in_paper": quote_in_paper}

    # ---- building ------------------------------------------------------------------------
    def template(self, draft) -> tuple[str, str]:  # not used: tasks come from papers, not drafts
        return "Rediscovery", "What do we learn when a study sets out to ...?"

    def build(self, builder) -> None:
        st = builder.settings
        papers, fulltext = builder.papers, builder.fulltext
        tree_fn = builder.tree_drafter
        if tree_fn is None and builder.llm is not None:  # model-drafted problem trees
            tree_fn = partial(draft_tree, builder.llm)
        tree_fn = tree_fn or problem_tree
        start = add_months(st.cutoff, -SOURCE_MONTHS)
        recent = sorted(
            (p for p in papers if p.label == "core" and start < p.published <= st.cutoff),
            key=lambda p: (-p.published.toordinal(), p.arxiv_id),
        )
        by_month: dict[str, list] = {}
        for p in recent:
            by_month.setdefault(p.published.strftime("%Y-%m"), []).append(p)
        # round-robin over the months, newest paper of each month first: the tasks' cutoffs spread over
        # the period, so the contamination split has tasks on both sides of a backbone's knowledge date
        months = sorted(by_month, reverse=True)
        pool = [
            by_month[m][i] for i in range(max(map(len, by_month.values()), default=0)) for m in months if i < len(by_month[m])
        ]
        limit = st.family_max(self.name)
        seen_questions: set[str] = set()
        for paper in pool:
            if builder.count(self.name) >= limit:
                break
            n = builder.count(self.name) + 1
            task_id = f"{st.domain}-{st.cutoff.isoformat()}-{self.name}-{n:02d}"
            item = f"{task_id}<-{paper.arxiv_id}"
            tree = tree_fn(paper, fulltext.get(paper.arxiv_id))
            question, setup, findings = target_of(tree)
            findings = findings[:MAX_FINDINGS]
            if not findings:
                builder.failures.append(
                    Failure(
                        stage="tasks",
                        item_id=item,
                        raw=paper.arxiv_id,
                        reason="rediscovery: not empirical: no checkable result sentence",
                    )
                )
                continue
            cutoff = paper.published - timedelta(days=1)
            text = (
                f"{question}\n\nSetup: {setup or '(not stated)'}\n\nPredict the study's empirical findings "
                f"using only work published up to {cutoff.isoformat()}."
            )
            leaked = cl.gives_away(question + " " + setup, findings)
            if leaked:
                builder.failures.append(
                    Failure(
                        stage="tasks",
                        item_id=item,
                        raw=leaked[0][:1000],
                        reason="rediscovery: question or setup gives a finding away",
                    )
                )
                continue
            key = question.lower()
            if key in seen_questions:
                builder.failures.append(
                    Failure(stage="tasks", item_id=item, reason="curation: duplicate decision of a task (same question)")
                )
                continue
            seen_questions.add(key)
            task = Task(
                task_id=task_id,
                family=self.name,
                domain=st.domain,
                cutoff=cutoff,
                window_start=paper.published,
                window_end=paper.published,
                horizon="rediscovery",
                title=_title(question),
                question=text,
                instructions=self.instructions,
                answer_requirements=list(self.requirements),
            )
            builder.tasks.append(task)
            diff = difficulty(tree, findings)
            builder.builds.append(
                TaskBuild(
                    task_id=task_id,
                    signal_ids=[],
                    node_ids=[],
                    drafted_by=tree.get("drafted_by", "sentence_roles"),
                    curation={
                        "source_paper": paper.arxiv_id,
                        "source_published": paper.published.isoformat(),
                        "tree": json.dumps(tree, ensure_ascii=False),
                        "findings": json.dumps(findings),
                        "difficulty": json.dumps(diff),
                        "give_away": "pass",
                        "empirical": "pass",
                    },
                )
            )

    # ---- answering -----------------------------------------------------------------------
    def decision_signature(self, task: Task, subject: str = "") -> set[str]:
        return cl.content_stems(task.question)

    def evidence_queries(self, task: Task) -> list[tuple[str, str]]:
        return [("question", task.question.split("\n\nPredict")[0])]

    def decide(self, task, parsed):
        return None, [], []

    def decision_claims(self, task, parsed, ranking, choice) -> list[str]:
        return cl.atomic_claims(list(parsed.findings))

    def decision_texts(self, task, parsed, ranking, choice) -> list[str]:
        return cl.atomic_claims(list(parsed.findings))

    def answer_lines(self, task, parsed, ranking, choice) -> list[str]:
        return ["**Predicted findings:**"] + [f"- {f}" for f in parsed.findings] + [""]

    def contract_rules(self, task: Task) -> list[str]:
        return ["findings: 1-6 atomic empirical claims (what the study will report), no hedging"]

    def contract_violations(self, task: Task, parsed: BaseModel) -> list[str]:
        return [] if getattr(parsed, "findings", None) else ["no findings"]

    def offline_answer(self, ctx, method: str):
        """The offline baselines: what the cutoff-bound KB's closest papers report.
        retrieval: result sentences of the hits most similar to the question and setup;
        momentum: the same from the most recent of them (the field's latest results)."""
        task, kb = ctx.task, ctx.kb
        query = task.question.split("\n\nPredict")[0]
        hits = kb.search(query, k=ctx.setting("k", 20), mode="hybrid")
        if method == "momentum":
            hits = sorted(hits, key=lambda h: (-h.published.toordinal(), h.arxiv_id))[:8]
        found: list[str] = []
        cited: list[str] = []
        for h in hits:
            full = kb.get(h.arxiv_id) if len(h.snippet) >= 400 else h  # search snippets stop at 400 chars
            results = [s for r, s in roles((full or h).snippet) if r == "result"]
            for s in results[:1]:
                found += cl.atomic_claims(s)[:2]
                cited.append(h.arxiv_id)
            if len(found) >= 3:
                break
        parsed = RediscoveryAnswer(findings=found[:3], cited_ids=cited)
        return ctx.render(parsed, method=method, retrieved=hits, retrieval_queries=[query], has_support_artifact=bool(hits))

    # ---- controls --------------------------------------------------------------------------
    def stated_answer(self, task: Task, gold: GoldTarget) -> dict:
        return {"findings": [c.text for c in gold.claims]}

    def random_answer(self, task: Task, gold: GoldTarget, rng, others: list[GoldTarget]) -> dict:
        """Chance: as many findings as the gold has, drawn from other tasks' findings of the
        partition (real findings, wrong paper)."""
        pool = [c.text for g in others for c in g.claims]
        rng.shuffle(pool)
        return {"findings": pool[: max(1, len(gold.claims))]}

    def every_option_decision(self, task: Task, gold: GoldTarget) -> list[str]:
        return list(GENERIC_HEDGE)  # the "generic" hedge: result talk that fits any paper

    # ---- gold ------------------------------------------------------------------------------
    def gold(self, ctx, task: Task, build: TaskBuild, signals) -> GoldTarget:
        findings = json.loads(build.curation.get("findings", "[]"))
        source = build.curation.get("source_paper", "")
        diff = json.loads(build.curation.get("difficulty", "{}"))
        gold_claims = [
            GoldClaim(
                claim_id=f"{task.task_id}-f{i:02d}",
                text=f,
                type="future-realisation",
                time_scope=f"source paper {build.curation.get('source_published', '')}",
                basis=ClaimBasis(check="quote_in_paper", paper_ids=[source]),
            )
            for i, f in enumerate(findings, 1)
        ]
        numbers = {k: float(diff[k]) for k in ("D", "C", "M", "S") if k in diff}
        numbers["stability_top1"] = 1.0  # a published statement, not a window measurement: nothing to resample
        return GoldTarget(
            task_id=task.task_id,
            family=self.name,
            domain=task.domain,
            cutoff=task.cutoff,
            slots=[GoldSlot(slot="finding", variants=findings[:1])] if findings else [],
            claims=gold_claims,
            numbers=numbers,
            future_paper_ids=[source] if source else [],
            counted={"source": [source]},
            strength=1.0 if findings else 0.0,
        )

    def validity_problems(self, task: Task, gold: GoldTarget) -> list[str]:
        leaked = cl.gives_away(task.question.split("\n\nPredict")[0], [c.text for c in gold.claims])
        return [f"question gives the finding away: {leaked[0][:120]}"] if leaked else []

    # ---- reporting ---------------------------------------------------------------------------
    def report_tables(self, records: FamilyRecords) -> list[ReportTable]:
        """FIRE-Bench's figures for the release report: difficulty histogram, claim P/R/F1 of
        methods and controls, error types of the unmatched claims, contamination split."""
        released = records.released
        golds = {g.task_id: g for g in records.golds}
        scores = [s for s in records.scores if s.task_id in released]
        hist = rd.difficulty_histogram(list(golds.values()), released)
        means = rd.method_means(records.controls + scores, released)
        errors = rd.error_counts(scores + [c for c in records.controls if c.task_id in released])
        split = rd.contamination_split(scores, rd.source_dates(records.builds), golds, default_registry())
        return [
            ReportTable(
                "Rediscovery: difficulty of the released tasks (D + C + M)",
                "Easy 3-4, Medium 5-6, Hard 7-9 (FIRE-Bench §3; docs/rediscovery.md).",
                [{"level": k, "tasks": v} for k, v in hist.items()],
            ),
            ReportTable(
                "Rediscovery: claim precision, recall and F1 (methods and controls)",
                "Mean over the released tasks; F1 is the FTA column of the leaderboard.",
                [{"method": m, **v} for m, v in means.items()],
            ),
            ReportTable(
                "Rediscovery: error types of unmatched claims",
                "fp_* = predicted claims the gold does not entail, fn_* = gold findings the answer "
                "missed; types from FIRE-Bench's taxonomy (contradictory, unrelated, overgeneralized, "
                "alternative).",
                [{"method": m, **c} for m, c in errors.items()],
            ),
            ReportTable(
                "Rediscovery: contamination split",
                "Claim F1 of tasks whose source paper appeared on or before a backbone's knowledge "
                "date (pre) and after it (post); offline methods are split by every registered "
                "backbone's date (FIRE-Bench §5.3).",
                split,
            ),
        ]

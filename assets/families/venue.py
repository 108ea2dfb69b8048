"""Venue-Conditioned Positioning (ForeSci §3.4, App. B.5): rank venue families for a project.

A project (the verbatim problem + method sentences of a recent representative paper,
never its title or id) is positioned among the venue families that have venue lists
(n_papers > 0), for the next venue cycle. The gold ranks the families by fit to the
project's closest future papers.
"""

from __future__ import annotations

import math
import re

import numpy as np
from pydantic import BaseModel, Field

from assets.corpus.logic import paper_text
from assets.families.answers import bullets, ranking_lines
from assets.families.base import TaskFamily
from assets.families.imported import ImportedGold
from assets.gold.measure import (
    VENUE_FULL_MARGIN,
    VENUE_NEIGHBOUR_QUANTILE,
    VENUE_NEIGHBOURS,
    Claims,
    GoldContext,
    Slots,
    insufficient,
    pct,
)
from assets.tasks.building import (
    MAX_OPTIONS,
    MIN_SUPPORT_PAPERS,
    OPTION_LETTERS,
    SAME_SUBDIRECTION_OVERLAP,
    Draft,
    TaskBuilder,
    clean_text,
    evidence_item_ids,
    overlap,
    support_papers,
)
from core.clustering import unit
from core.records import (
    ClaimBasis,
    EvidenceRecord,
    GoldTarget,
    Signal,
    Task,
    TaskBuild,
    TaskOption,
)
from core.text import word_set

# ForeSci B.5 venue families, in the order the task builder lists them (sorted by name).
VENUE_FAMILIES = ("AAAI/IJCAI", "ACL/EMNLP/NAACL", "CVPR/ICCV/ECCV", "ICLR/ICML/NeurIPS", "SIGIR/KDD")
# Their release's venue buckets -> venue family.
VENUE_BUCKETS = {
    "AAAI": "AAAI/IJCAI", "IJCAI": "AAAI/IJCAI",
    "ACL": "ACL/EMNLP/NAACL", "EMNLP": "ACL/EMNLP/NAACL", "NAACL": "ACL/EMNLP/NAACL", "EACL": "ACL/EMNLP/NAACL",
    "COLING": "ACL/EMNLP/NAACL",
    "CVPR": "CVPR/ICCV/ECCV", "ICCV": "CVPR/ICCV/ECCV", "ECCV": "CVPR/ICCV/ECCV",
    "ICLR": "ICLR/ICML/NeurIPS", "ICML": "ICLR/ICML/NeurIPS", "NEURIPS": "ICLR/ICML/NeurIPS",
    "SIGIR": "SIGIR/KDD", "KDD": "SIGIR/KDD", "WSDM": "SIGIR/KDD", "WWW": "SIGIR/KDD", "CIKM": "SIGIR/KDD",
}


class VenueAnswer(BaseModel):
    ranking: list[str] = Field(default_factory=list, description="all option_ids, best-fitting venue first")
    framing: str = ""
    reviewer_risks: list[str] = Field(default_factory=list)
    evidence_upgrades: list[str] = Field(default_factory=list)
    claims: list[str] = Field(default_factory=list)
    cited_ids: list[str] = Field(default_factory=list)


class VenueFamily(TaskFamily):
    name = "venue"
    title = "Venue-Conditioned Positioning"
    summary = "rank venue families for a project, framing and reviewer risks"
    answer_kind = "ranking"
    rubric_dimensions = {  # Reviewer Persuasiveness, family-specific (Appendix C.1)
        "venue_fit_reasoning": "explains why the contribution fits the chosen venue community",
        "reviewer_expectation_awareness": "anticipates what that venue's reviewers will ask for",
        "package_upgrade_specificity": "names concrete evidence upgrades (baselines, data, ablations)",
        "contrastive_venue_discrimination": "says why the other venue options fit worse",
    }
    instructions = (
        "Use only the evidence available up to the cutoff, including what each venue community has "
        "historically accepted. Rank the venue families for this project, say how to frame it for the "
        "top choice, which reviewer risks it faces there, and which evidence upgrades would make it "
        "credible to that community."
    )
    requirements = (
        "a ranking of all venue option ids, best fit first",
        "the framing of the contribution for the top venue family",
        "the reviewer risks the project faces there",
        "evidence upgrades (experiments, baselines, datasets, analyses) that would make it credible",
        "a contrast with the runner-up venue family",
    )
    decision_cues = ("rank", "venue")
    answer_schema = VenueAnswer
    answer_fields = ("Fields: ranking (ALL option_ids, best-fitting venue family first), framing, reviewer_risks, "
                     "evidence_upgrades, claims, cited_ids.")
    offline_reading = "option_fit"
    fixed_options = True  # the five venue families; the project is what differs
    review_stages = (
        ("problem", "what the contribution is (type, community, evidence it rests on)",
         ("clarity", "accuracy of characterisation", "grounding in the evidence", "specificity")),
        ("method", "how well each candidate venue family fits the contribution, best first",
         ("venue specificity", "comparative reasoning", "grounding in the evidence", "decision clarity")),
        ("experiment", "the framing, reviewer risks and evidence upgrades needed for the best venue",
         ("reviewer realism", "actionability", "risk awareness", "specificity")),
    )

    def evidence_queries(self, task: Task) -> list[tuple[str, str]]:
        """Each venue family is searched together with the project it must fit."""
        return [(o.option_id, f"{task.question} {o.text}") for o in task.options]

    def decision_claims(self, task: Task, parsed: VenueAnswer, ranking: list[str], choice: str | None) -> list[str]:
        if not ranking:
            return []
        text = {o.option_id: o.text for o in task.options}
        return [f"The project fits the {text[ranking[0]]} venue family best."]

    def answer_lines(self, task: Task, parsed: VenueAnswer, ranking: list[str], choice: str | None) -> list[str]:
        lines = ranking_lines(task, ranking)
        if parsed.framing.strip():
            lines += [f"**Framing:** {parsed.framing.strip()}", ""]
        for title, items in (("Reviewer risks", parsed.reviewer_risks), ("Evidence upgrades", parsed.evidence_upgrades)):
            if items:
                lines += [f"**{title}:**"] + bullets(items) + [""]
        return lines

    def contract_rules(self, task: Task) -> list[str]:
        ids = [o.option_id for o in task.options]
        return [f"ranking: all of {ids}, each once, best-fitting venue family first",
                "framing: how to pitch the work to the first venue's reviewers (not generic ML framing)"]
    aliases = ("venue_aware_research_positioning", "venue_conditioned_positioning")
    vocabulary = "Venue positioning. ACL/EMNLP/NAACL AAAI/IJCAI CVPR/ICCV/ECCV ICLR/ICML/NeurIPS SIGIR/KDD"
    horizon_text = "the next venue cycle"

    def build(self, builder: TaskBuilder) -> None:
        venues = [v for v in builder.by_kind.get("venue_profile", []) if v.stats.get("n_papers", 0) > 0]
        venues = sorted(venues, key=venue_family)[:MAX_OPTIONS]
        if len(venues) < 2:
            return
        chosen: list[Signal] = []
        for cand in sorted(builder.candidates, key=lambda c: (-len(c.paper_ids), c.signal_id)):
            if builder.full(self.name):
                break
            if any(overlap(cand, c) > SAME_SUBDIRECTION_OVERLAP for c in chosen):
                continue
            project = _project_paper(cand, builder.records_by_node)
            if project is None:
                continue
            support, n_support = support_papers([cand], builder.records_by_node, exclude={project.arxiv_id})
            if n_support < MIN_SUPPORT_PAPERS:
                continue
            options = [TaskOption(option_id=OPTION_LETTERS[i], text=_venue_text(v)) for i, v in enumerate(venues)]
            description = clean_text(f"{project.problem.strip()} {project.method.strip()}")
            draft = builder.draft(self.name, options=options, project=description)
            ev = evidence_item_ids(builder.records_by_node, cand.node_ids, set(support))
            if builder.emit(self, draft, options, dict(zip((o.option_id for o in options), venues)), [cand] + venues,
                            support, ev, "venue cycle", subject=description):
                chosen.append(cand)

    def template(self, draft: Draft) -> tuple[str, str]:
        cut = draft.cutoff.isoformat()
        project = " ".join(draft.project.split()[:10]).rstrip(".,;:")
        title = f"Venue positioning after {cut} of: {project}…"
        question = (
            f'Project description: "{draft.project}" '
            f"As of {cut}, for the next venue cycle, rank the venue families below by how well this "
            "project fits their community, and position it for the top choice."
        )
        return title, question

    def decision_signature(self, task: Task, subject: str = "") -> set[str]:
        # Every venue task offers the same families: the project is what tells two apart.
        return word_set(subject)

    def imported_options(self) -> list[TaskOption]:
        return [TaskOption(option_id=OPTION_LETTERS[i], text=f) for i, f in enumerate(VENUE_FAMILIES)]

    def import_gold(self, gt: dict, out: ImportedGold) -> None:
        task = out.task
        vf = gt.get("venue_forecast") or {}
        buckets = vf.get("top_venue_buckets") or (gt.get("future_half_stats") or {}).get("top_venue_buckets") or {}
        fam_counts: dict[str, float] = {}
        for bucket, n in buckets.items():
            fam = VENUE_BUCKETS.get(str(bucket).upper())
            if fam:
                fam_counts[fam] = fam_counts.get(fam, 0.0) + float(n)
        by_text = {o.text: o.option_id for o in task.options}
        ranked = sorted(fam_counts, key=lambda f: (-fam_counts[f], f))
        preferred = [by_text[f] for f in ranked if f in by_text]
        preferred += [o.option_id for o in task.options if o.option_id not in preferred and preferred]
        out.preferred = preferred
        likely = vf.get("likely_bucket")
        if likely or ranked:
            out.slot("best_venue", [x for x in (likely, ranked[0] if ranked else None) if x])
            out.claim(f"{ranked[0] if ranked else likely} is the best fit in the next venue cycle.", "venue",
                      out.scope, 1.0)

    def gold(self, ctx: GoldContext, task: Task, build: TaskBuild, signals: dict[str, Signal]) -> GoldTarget:
        return venue_gold(ctx, task, build, signals)


_PROJECT = re.compile(r'Project description: "(.*?)"\s', re.DOTALL)


def venue_gold(ctx: GoldContext, task: Task, build: TaskBuild, signals: dict[str, Signal]) -> GoldTarget:
    """Venue families ranked by fit to the project's closest future papers (rules in `assets.gold.measure`)."""
    venue_scorer = ctx.venue_scorer
    claims, slots = Claims(task.task_id), Slots()
    scope = f"{task.window_start} to {task.window_end}"
    m = _PROJECT.search(task.question)
    project = m.group(1) if m else task.question
    fam = {o.option_id: signals[build.option_signal_ids[o.option_id]] for o in task.options
           if build.option_signal_ids.get(o.option_id) in signals}
    numbers: dict[str, float] = {"n_future_total": float(len(ctx.future))}
    if len(fam) < 2:
        return insufficient(task, claims, "fewer than two venue options", numbers, [])
    pv = ctx.embed_centred([project])[0]
    sims = ctx.fut_vecs @ pv if len(ctx.future) else np.zeros(0)
    floor = float(np.quantile(sims, VENUE_NEIGHBOUR_QUANTILE)) if len(sims) else 0.0
    near = [i for i in np.argsort(-sims, kind="stable")[:VENUE_NEIGHBOURS] if sims[i] >= floor and sims[i] > 0]
    texts = [paper_text(ctx.future[i]) for i in near] or [project]
    future_ids = sorted(ctx.future[i].arxiv_id for i in near)
    numbers["n_future_neighbours"] = float(len(near))
    if ctx.venue_on_topic is not None and not ctx.venue_on_topic(project):  # the project itself fits no community
        return insufficient(task, claims, "the project fits no venue community as a paper of the domain does: "
                            "no confident gold", numbers, future_ids)
    if venue_scorer is not None:  # communities are known by accepted titles: compare titles with titles
        raw = venue_scorer([ctx.future[i].title for i in near] or [project])
        scores = {oid: float(raw.get(venue_family(s), float("nan"))) for oid, s in fam.items()}
        scores = {k: v for k, v in scores.items() if not math.isnan(v)}
    else:  # fallback: similarity to each family profile's terms and example titles
        T = ctx.embed_centred(texts).mean(axis=0)
        scores = {}
        for oid, s in fam.items():
            prof = " ".join(s.details.get("top_terms", []) + s.details.get("terms", [])
                            + s.details.get("example_titles", [])) or venue_family(s)
            scores[oid] = float(unit(T) @ ctx.embed_centred([prof])[0])
    for oid, v in scores.items():
        numbers[f"venue_score:{oid}"] = round(v, 5)
    ranking = sorted(scores, key=lambda k: (-scores[k], k))
    if len(ranking) < 2:
        return insufficient(task, claims, "no venue scores for the options", numbers, future_ids)
    top, second = ranking[0], ranking[1]
    name = {oid: venue_family(s) for oid, s in fam.items()}
    slots.add("best_venue", [name[top], next(o.text for o in task.options if o.option_id == top)])
    claims.add(f"{name[top]} is the best fit for the project in the next venue cycle.", "venue", scope, 1.0,
               ClaimBasis(check="ranked_first", params={"object": top}))
    claims.add(f"{name[second]} is the runner-up venue family for the project.", "venue", scope, 0.5,
               ClaimBasis(check="ranked_second", params={"object": second}))
    for oid in ranking:
        s = fam[oid]
        if "n_papers" not in s.stats or "share_close" not in s.stats:
            continue  # no profile numbers: no claim (the bank holds only what recomputes)
        claims.add(f"Before {task.cutoff}, the {name[oid]} venue lists held {int(s.stats['n_papers'])} papers, "
                   f"{pct(s.stats['share_close'])} of them close to this domain.", "historical", "pre-cutoff", 0.2,
                   ClaimBasis(check="signal_stats", values={"n_papers": int(s.stats["n_papers"]),
                                                            "share_close": round(100 * s.stats["share_close"], 1)},
                              params={"signal_id": s.signal_id}))
    if near:
        claims.add(f"Between {task.window_start} and {task.window_end}, {len(near)} closely related papers appeared; their content fits {name[top]} best.",
                   "future-realisation", scope, 0.7,
                   ClaimBasis(check="window_count", paper_ids=future_ids, values={"n": len(near)}, params={"object": top}))
    margin = min(1.0, max(0.0, (scores[top] - scores[second]) / VENUE_FULL_MARGIN))
    strength = (0.5 + 0.5 * min(1.0, len(near) / VENUE_NEIGHBOURS)) * margin
    numbers.update({"margin": round(margin, 5), **slots.flags})
    counted = {"project's closest window papers": [f"{ctx.future[i].arxiv_id} {ctx.future[i].title[:120]}"
                                                   for i in near]}
    return GoldTarget(task_id=task.task_id, family=task.family, domain=task.domain, cutoff=task.cutoff,
                      counted=counted, preferred_ranking=ranking, slots=slots.slots, claims=claims.items, numbers=numbers,
                      future_paper_ids=future_ids, strength=round(float(strength), 4))


def _project_paper(cand: Signal, records_by_node: dict[str, EvidenceRecord]):
    """Most recent paper of the candidate's records with both a problem and a method sentence."""
    pool = [ev for n in cand.node_ids if n in records_by_node for ev in records_by_node[n].papers
            if ev.problem.strip() and ev.method.strip() and ev.problem.strip() != ev.method.strip()]
    if not pool:
        return None
    return sorted(pool, key=lambda ev: (ev.published, ev.arxiv_id))[-1]


def venue_family(profile: Signal) -> str:
    """Family name of a venue_profile signal ("ICLR/ICML/NeurIPS"), as venue_similarity keys it."""
    fam = profile.details.get("family") or []
    return fam[0] if fam else profile.title.removesuffix(" profile").strip()


def _venue_text(profile: Signal) -> str:
    """Family name + the style mix of its accepted domain-close papers (or contribution styles)."""
    text = clean_text(venue_family(profile))
    st = profile.stats
    if all(k in st for k in ("style_method", "style_benchmark", "style_analysis")):
        return (f"{text} (accepted papers close to this domain: {st['style_method']:.0%} method, "
                f"{st['style_benchmark']:.0%} benchmark, {st['style_analysis']:.0%} analysis)")
    styles = [clean_text(s) for s in profile.details.get("contribution_styles", []) if clean_text(s)][:2]
    return f"{text} (typical contributions: {'; '.join(styles)})" if styles else text

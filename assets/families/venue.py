"""Venue-Conditioned Positioning (ForeSci §3.4, App. B.5): rank venue families for a project.

**The project** is one real paper: a recent pre-cutoff preprint (published in the
PROJECT_MONTHS before the cutoff) whose acceptance was decided AFTER the cutoff, described by
2-3 verbatim sentences of its abstract (its problem, then its own approach) that start at a
clean sentence and name no venue; the paper's title and arXiv id are never shown. Selection,
the description rules and the home-domain rule (one paper, one task, across domains) are in
`assets/families/venue_projects.py`. Window papers (published after the cutoff) are never
projects. The support packet is the project's SUPPORT_NEIGHBOURS nearest pre-cutoff papers.

**The options** are the venue families with an accepted-paper list decided in the next venue
cycle, (cutoff, cutoff + VENUE_CYCLE_MONTHS] (`assets.evidence.venues.outcome_families`):
only they can be a real outcome. A family without such a list is not offered: it could never
be the gold, so offering it would be a free elimination. With the shipped lists, AAAI/IJCAI
is never offered at the registry's cutoffs (no AAAI or IJCAI list with a 2025-2026 decision
exists), SIGIR/KDD is offered at 2025-06-30 and 2025-09-30 (KDD 2026 first cycle, decided
2025-11-23) but not at 2025-12-31, and at 2026-05-15 no family has a later list, so no venue
task is built there (a failure row says why). Each option shows the family's profile from
lists decided on or before the cutoff.

**The gold** (`venue_gold`) is the real outcome: the family whose list holds the project's
paper (normalised title match, `assets.evidence.venues.venue_outcome`) is ranked first
(`numbers["gold_kind_outcome"]` = 1, strength 1; top-1 cannot move under resampling of the
window). No outcome says how the other communities would have rated the paper, so the rest
of the ranking is a labelled proxy grounded in real decisions: the offered families ordered
by how many of the project's VOTE_NEIGHBOURS most similar papers of the partition (public or
window; centred title + abstract embedding) with a known acceptance in an offered family
(`accepted_family`, any listed cycle) were accepted there, ties broken by the similarity
proxy, then by option id. The FTA ranking scorer thus rewards the real family first (top-1,
and positions and pairs through it) and, with less weight, the order in which similar work
was accepted. (Measured as a predictor of the project's own family over the 556 outcome
projects of 2025-12-31, this vote's top family was right for 59%, the title proxy's for 48%;
benchmarks/venue_proxy.py, docs/validity.md.)

**The similarity proxy** (the only gold of earlier releases) ranks the offered families by
the mean top-5 title cosine of the project's closest window papers to an equal-size sample of
each family's accepted titles (`venue_similarity`, lists decided on or before the cutoff, so
no outcome list takes part). A task whose outcome is not found (e.g. a list changed after the
build) gets a proxy gold: `numbers["gold_kind_proxy"]` = 1, claims that say "PROXY". It is
never released (`validity_problems`): measured against the real outcome where both exist, the
proxy's top family matched it less often than the constant answer "the most common family"
does, at every cutoff and top-2 gap (docs/validity.md). The builder makes outcome projects only. One
project text is one task: it never has two golds.


Length (over ~500 lines on purpose): the venue family's build, its real-acceptance gold and its
proxy gold with the measured proxy accuracy belong together."""

from __future__ import annotations

import math
import re
from typing import ClassVar

import numpy as np
from pydantic import BaseModel, Field

from assets.corpus.logic import paper_text
from assets.evidence.venues import VENUE_CYCLE_MONTHS, accepted_family, outcome_families, venue_outcome
from assets.families.answers import bullets, ranking_lines
from assets.families.base import TaskFamily
from assets.families.venue_projects import (
    APPROACH_OBJECT,
    PROJECT_MONTHS,
    names_a_venue,
    select_projects,
    split_sentences,
)
from assets.toolbox.building import (
    MIN_SUPPORT_PAPERS,
    OPTION_LETTERS,
    Draft,
    TaskBuilder,
    clean_text,
    evidence_item_ids,
)
from assets.toolbox.measure import (
    VENUE_FULL_MARGIN,
    VENUE_NEIGHBOUR_QUANTILE,
    VENUE_NEIGHBOURS,
    Claims,
    GoldContext,
    Slots,
    insufficient,
    pct,
)
from core.clustering import unit
from core.records import (
    ClaimBasis,
    Failure,
    GoldTarget,
    Signal,
    Task,
    TaskBuild,
    TaskOption,
)
from core.text import word_set

SUPPORT_NEIGHBOURS = 20  # support packet: the project's nearest pre-cutoff papers (embedding cosine)
TITLE_WORDS = 14  # the title names the project by its approach phrase, at most this many words ...
TITLE_CHARS = 110  # ... and characters (the title stays under the audit's 160)
VOTE_NEIGHBOURS = 10  # the rest of an outcome gold's ranking: the outcomes of the project's 10 most similar papers
# ForeSci B.5 venue families (all five; a task offers those with an outcome list, see above).
VENUE_FAMILIES = ("AAAI/IJCAI", "ACL/EMNLP/NAACL", "CVPR/ICCV/ECCV", "ICLR/ICML/NeurIPS", "SIGIR/KDD")
# Their release's venue buckets -> venue family.
VENUE_BUCKETS = {
    "AAAI": "AAAI/IJCAI",
    "IJCAI": "AAAI/IJCAI",
    "ACL": "ACL/EMNLP/NAACL",
    "EMNLP": "ACL/EMNLP/NAACL",
    "NAACL": "ACL/EMNLP/NAACL",
    "EACL": "ACL/EMNLP/NAACL",
    "COLING": "ACL/EMNLP/NAACL",
    "COLM": "ACL/EMNLP/NAACL",
    "CVPR": "CVPR/ICCV/ECCV",
    "ICCV": "CVPR/ICCV/ECCV",
    "ECCV": "CVPR/ICCV/ECCV",
    "ICLR": "ICLR/ICML/NeurIPS",
    "ICML": "ICLR/ICML/NeurIPS",
    "NEURIPS": "ICLR/ICML/NeurIPS",
    "SIGIR": "SIGIR/KDD",
    "KDD": "SIGIR/KDD",
    "WSDM": "SIGIR/KDD",
    "WWW": "SIGIR/KDD",
    "CIKM": "SIGIR/KDD",
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
        "historically accepted. Rank the venue families by how likely each is to accept this project in the "
        "next venue cycle, say how to frame it for the "
        "top choice, which reviewer risks it faces there, and which evidence upgrades would make it "
        "credible to that community."
    )
    requirements = (
        "a ranking of all venue option ids, the family most likely to accept the project first",
        "the framing of the contribution for the top venue family",
        "the reviewer risks the project faces there",
        "evidence upgrades (experiments, baselines, datasets, analyses) that would make it credible",
        "a contrast with the runner-up venue family",
    )
    decision_cues = ("rank", "venue")
    answer_schema = VenueAnswer
    answer_fields = (
        "Fields: ranking (ALL option_ids, the venue family most likely to accept it first), framing, reviewer_risks, "
        "evidence_upgrades, claims, cited_ids."
    )
    offline_reading = "option_fit"
    fixed_options = True  # every task of a partition offers the same venue families; the project is what differs
    review_stages = (
        (
            "problem",
            "what the contribution is (type, community, evidence it rests on)",
            ("clarity", "accuracy of characterisation", "grounding in the evidence", "specificity"),
        ),
        (
            "method",
            "how well each candidate venue family fits the contribution, best first",
            ("venue specificity", "comparative reasoning", "grounding in the evidence", "decision clarity"),
        ),
        (
            "experiment",
            "the framing, reviewer risks and evidence upgrades needed for the best venue",
            ("reviewer realism", "actionability", "risk awareness", "specificity"),
        ),
    )

    def evidence_queries(self, task: Task) -> list[tuple[str, str]]:
        """Each venue family is searched together with the project it must fit."""
        return [(o.option_id, f"{task.question} {o.text}") for o in task.options]

    def decision_claims(self, task: Task, parsed: VenueAnswer, ranking: list[str], choice: str | None) -> list[str]:
        if not ranking:
            return []
        text = {o.option_id: o.text for o in task.options}
        return [
            f"The project fits the {text[ranking[0]]} venue family best."
        ]  # (answer scaffold words: assets/artifacts/text.py)

    def answer_lines(self, task: Task, parsed: VenueAnswer, ranking: list[str], choice: str | None) -> list[str]:
        lines = ranking_lines(task, ranking)
        if parsed.framing.strip():
            lines += [f"**Framing:** {parsed.framing.strip()}", ""]
        for title, items in (("Reviewer risks", parsed.reviewer_risks), ("Evidence upgrades", parsed.evidence_upgrades)):
            if items:
                lines += [f"**{title}:**"] + bullets(items) + [""]
        return lines

    def offline_fields(self, task: Task, found: dict) -> dict:
        """The offline baselines' framing for the closest venue family; with the closest
        pre-cutoff papers (the similarity reading), the reviewer risks they raise."""
        if "top" not in found:
            return {}
        out = {"framing": f"Frame the contribution for {found['top']}."}
        if "closest" in found:
            closest = found["closest"]
            out["reviewer_risks"] = [f"Reviewers will compare against {title} ({pid})." for title, pid in closest[:2]]
            out["evidence_upgrades"] = ["Add comparisons to the closest pre-cutoff work listed below."] if closest else []
        return out

    def contract_rules(self, task: Task) -> list[str]:
        ids = [o.option_id for o in task.options]
        return [
            f"ranking: all of {ids}, each once, the venue family most likely to accept the project first",
            "framing: how to pitch the work to the first venue's reviewers (not generic ML framing)",
        ]

    aliases = ("venue_aware_research_positioning", "venue_conditioned_positioning")
    vocabulary = "Venue positioning. ACL/EMNLP/NAACL AAAI/IJCAI CVPR/ICCV/ECCV ICLR/ICML/NeurIPS SIGIR/KDD"
    horizon_text = "the next venue cycle"

    needs: ClassVar[frozenset[str]] = frozenset({"papers", "embed"})  # projects are papers of the partition

    def build(self, builder: TaskBuilder) -> None:
        """One task per outcome project (module docstring), in `select_projects` order."""
        st = builder.settings
        item = f"{st.domain}-{st.cutoff.isoformat()}-venue"
        profiles = {venue_family(v): v for v in builder.by_kind.get("venue_profile", [])}
        offered = [f for f in outcome_families(st.cutoff) if f in profiles]
        if len(offered) < 2:
            builder.failures.append(
                Failure(
                    stage="tasks",
                    item_id=item,
                    reason=(
                        f"curation: {len(offered)} venue famil{'y has' if len(offered) == 1 else 'ies have'} an accepted-paper "
                        f"list decided in the {VENUE_CYCLE_MONTHS} months after the cutoff ({', '.join(offered) or 'none'}): "
                        "no venue outcome can be asked"
                    ),
                )
            )
            return
        venues = sorted((profiles[f] for f in offered), key=venue_family)
        papers = [p for p in builder.papers if p.published <= st.cutoff]
        embed = builder.embed
        projects, skipped = select_projects(papers, st.cutoff, st.domain, offered, embed=embed)
        for why, n in sorted(skipped.items()):
            builder.failures.append(
                Failure(stage="tasks", item_id=item, reason=f"curation: {n} outcome paper(s) not used as projects: {why}")
            )
        neighbours = _support_finder(builder, papers, embed)
        for proj in projects:
            if builder.full(self.name):
                break
            support = neighbours(proj.paper)
            if len(support) < MIN_SUPPORT_PAPERS:
                continue
            options = [TaskOption(option_id=OPTION_LETTERS[i], text=_venue_text(v)) for i, v in enumerate(venues)]
            draft = builder.draft(self.name, options=options, project=proj.description)
            ev = evidence_item_ids(builder.records_by_node, list(builder.records_by_node), set(support))
            if builder.emit(
                self,
                draft,
                options,
                dict(zip((o.option_id for o in options), venues)),
                list(venues),
                support,
                ev,
                "venue cycle",
                subject=proj.description,
            ):
                build = builder.builds[-1]
                build.project_paper_id = proj.paper.arxiv_id
                build.curation["project"] = (
                    f"pass: a pre-cutoff preprint of {proj.paper.published.isoformat()} "
                    f"(within {PROJECT_MONTHS} months of the cutoff)"
                )
                build.curation["home_domain"] = proj.home_note

    def template(self, draft: Draft) -> tuple[str, str]:
        cut = draft.cutoff.isoformat()
        title = f"Venue positioning after {cut}: {project_name(draft.project)}"
        question = (
            f'Project description: "{draft.project}" '
            f"As of {cut}, this project goes to peer review in the next venue cycle. Rank the venue families "
            "below by how likely each is to accept it (most likely first), and position it for the top choice."
        )
        return title, question

    def decision_problem(self, task: Task) -> str | None:
        """The family's decision cue, and a project description that names no venue or acceptance."""
        problem = super().decision_problem(task)
        m = _PROJECT.search(task.question)
        if problem is None and m and names_a_venue(m.group(1)):
            return "the project description names a venue or an acceptance"
        return problem

    def validity_problems(self, task: Task, gold: GoldTarget) -> list[str]:
        """A proxy-only gold is never released: the proxy is no better than the most common family
        at predicting the real one (docs/validity.md)."""
        if gold.numbers.get("gold_kind_proxy", 0.0) > 0:
            return ["proxy gold (no venue outcome for the project): the similarity proxy is not released"]
        return []

    def evidence_problems(self, task: Task, gold: GoldTarget) -> list[str]:
        """An outcome gold rests on the accepted-paper list, not on window papers."""
        if gold.numbers.get("gold_kind_outcome", 0.0) > 0:
            return []
        return super().evidence_problems(task, gold)

    def decision_signature(self, task: Task, subject: str = "") -> set[str]:
        # Every venue task offers the same families: the project is what tells two apart.
        return word_set(subject)

    def gold(self, ctx: GoldContext, task: Task, build: TaskBuild, signals: dict[str, Signal]) -> GoldTarget:
        return venue_gold(ctx, task, build, signals)


_PROJECT = re.compile(r'Project description: "(.*?)"\s', re.DOTALL)
PROXY_KEY = "similarity proxy: the project's closest window papers"
OUTCOME_VOTE_KEY = "the rest of the ranking: the project's most similar papers with a known acceptance"


def venue_gold(ctx: GoldContext, task: Task, build: TaskBuild, signals: dict[str, Signal]) -> GoldTarget:
    """The real outcome first, the similarity proxy's order after it; the proxy alone, labelled, when the
    project has no outcome (module docstring; proxy rules in `assets.toolbox.measure`)."""
    claims, slots = Claims(task.task_id), Slots()
    scope = f"{task.window_start} to {task.window_end}"
    m = _PROJECT.search(task.question)
    project = m.group(1) if m else task.question
    fam = {
        o.option_id: signals[build.option_signal_ids[o.option_id]]
        for o in task.options
        if build.option_signal_ids.get(o.option_id) in signals
    }
    numbers: dict[str, float] = {"n_future_total": float(len(ctx.future))}
    if len(fam) < 2:
        return insufficient(task, claims, "fewer than two venue options", numbers, [])
    name = {oid: venue_family(s) for oid, s in fam.items()}
    text = {o.option_id: o.text for o in task.options}
    paper = _project_paper(ctx, build)
    outcome = venue_outcome(paper.title, task.cutoff) if paper is not None else None
    if outcome is not None and outcome.family not in name.values():
        outcome = None  # accepted in a family the task does not offer: no outcome for this task
    if outcome is not None and getattr(ctx, "ranking_only", False):  # a bootstrap resample: the outcome stays first
        top = next(oid for oid, n in name.items() if n == outcome.family)
        return GoldTarget(
            task_id=task.task_id,
            family=task.family,
            domain=task.domain,
            cutoff=task.cutoff,
            preferred_ranking=[top] + sorted(o for o in fam if o != top),
            strength=1.0,
        )
    scores, near = _proxy_scores(ctx, project, fam)
    future_ids = sorted(ctx.future[i].arxiv_id for i in near)
    numbers["n_future_neighbours"] = float(len(near))
    for oid, v in scores.items():
        numbers[f"venue_score:{oid}"] = round(v, 5)
    proxy = sorted(scores, key=lambda k: (-scores[k], k))
    gap = scores[proxy[0]] - scores[proxy[1]] if len(proxy) >= 2 else 0.0
    margin = min(1.0, max(0.0, gap / VENUE_FULL_MARGIN))
    numbers.update({"proxy_gap": round(gap, 5), "margin": round(margin, 5)})
    counted = {PROXY_KEY: [f"{ctx.future[i].arxiv_id} {ctx.future[i].title[:120]}" for i in near]}
    if outcome is not None:
        top = next(oid for oid, n in name.items() if n == outcome.family)
        voters = _outcome_neighbours(ctx, paper.arxiv_id, set(name.values()))
        votes = {oid: [pid for pid, f in voters if f == name[oid]] for oid in fam}
        pos = {o: i for i, o in enumerate(proxy)}
        rest = sorted((o for o in fam if o != top), key=lambda o: (-len(votes[o]), pos.get(o, len(pos)), o))
        ranking = [top] + rest
        numbers.update(
            {
                "gold_kind_outcome": 1.0,
                "gold_kind_proxy": 0.0,
                "outcome_days_after_cutoff": float((outcome.venue_date - task.cutoff).days),
                "n_outcome_neighbours": float(len(voters)),
                **{f"outcome_votes:{oid}": float(len(v)) for oid, v in votes.items()},
            }
        )
        if proxy:
            numbers["proxy_agrees"] = 1.0 if proxy[0] == top else 0.0
        slots.add("best_venue", [name[top], text[top]])
        claims.add(
            f"{name[top]} is where the project was accepted: its paper ({paper.arxiv_id}) is on the "
            f"{outcome.venue} {outcome.year} accepted-paper list ({outcome.decision}), decided about "
            f"{outcome.venue_date.isoformat()}, after the cutoff.",
            "venue",
            scope,
            1.0,
            ClaimBasis(check="ranked_first", paper_ids=[paper.arxiv_id], params={"object": top}),
        )
        second = ranking[1]
        if voters:
            claims.add(
                f"{name[second]} ranks second, not by this project's outcome but by where similar work went: "
                f"{len(votes[second])} of the project's {len(voters)} most similar papers with a known "
                "acceptance were accepted there (ties: the similarity proxy).",
                "venue",
                scope,
                0.3,
                ClaimBasis(
                    check="ranked_second", paper_ids=votes[second], values={"n": len(votes[second])}, params={"object": second}
                ),
            )
        else:
            claims.add(
                f"{name[second]} ranks second by the similarity proxy (no similar paper with a known "
                "acceptance), not by this project's outcome.",
                "venue",
                scope,
                0.3,
                ClaimBasis(check="ranked_second", params={"object": second}),
            )
        counted[top] = [f"{paper.arxiv_id} {paper.title[:120]} -> accepted at {outcome.label()} [{outcome.file}]"]
        counted[OUTCOME_VOTE_KEY] = [f"{pid} -> {f}" for pid, f in voters]
        strength = 1.0
    else:
        if ctx.venue_on_topic is not None and not ctx.venue_on_topic(project):
            return insufficient(
                task,
                claims,
                "no venue outcome, and the project fits no venue community as a paper "
                "of the domain does: no confident proxy gold",
                numbers,
                future_ids,
            )
        if len(proxy) < 2:
            return insufficient(task, claims, "no venue outcome and no proxy scores for the options", numbers, future_ids)
        ranking = proxy + sorted(o for o in fam if o not in proxy)
        top, second = ranking[0], ranking[1]
        numbers.update({"gold_kind_outcome": 0.0, "gold_kind_proxy": 1.0})
        slots.add("best_venue", [name[top], text[top]])
        claims.add(
            f"PROXY: {name[top]} fits the project best by the similarity proxy (no venue outcome for its "
            "paper); the proxy is not an acceptance.",
            "venue",
            scope,
            1.0,
            ClaimBasis(check="ranked_first", params={"object": top}),
        )
        claims.add(
            f"PROXY: {name[second]} is the runner-up by the similarity proxy.",
            "venue",
            scope,
            0.5,
            ClaimBasis(check="ranked_second", params={"object": second}),
        )
        strength = (0.5 + 0.5 * min(1.0, len(near) / VENUE_NEIGHBOURS)) * margin
    for oid in ranking:
        s = fam[oid]
        if "n_papers" not in s.stats or "share_close" not in s.stats:
            continue  # no profile numbers: no claim (the bank holds only what recomputes)
        claims.add(
            f"Before {task.cutoff}, the {name[oid]} venue lists held {int(s.stats['n_papers'])} papers, "
            f"{pct(s.stats['share_close'])} of them close to this domain.",
            "historical",
            "pre-cutoff",
            0.2,
            ClaimBasis(
                check="signal_stats",
                values={"n_papers": int(s.stats["n_papers"]), "share_close": round(100 * s.stats["share_close"], 1)},
                params={"signal_id": s.signal_id},
            ),
        )
    if near and proxy:
        claims.add(
            f"Between {task.window_start} and {task.window_end}, {len(near)} closely related papers appeared; "
            f"by the similarity proxy their titles fit {name[proxy[0]]} best.",
            "future-realisation",
            scope,
            0.3,
            ClaimBasis(check="window_count", paper_ids=future_ids, values={"n": len(near)}, params={"object": proxy[0]}),
        )
    numbers.update(slots.flags)
    return GoldTarget(
        task_id=task.task_id,
        family=task.family,
        domain=task.domain,
        cutoff=task.cutoff,
        counted=counted,
        preferred_ranking=ranking,
        slots=slots.slots,
        claims=claims.items,
        numbers=numbers,
        future_paper_ids=future_ids,
        strength=round(float(strength), 4),
    )


def _project_paper(ctx: GoldContext, build: TaskBuild):
    """The project's paper (a public paper of the partition), or None."""
    i = ctx.pub_index.get(build.project_paper_id) if build.project_paper_id else None
    return ctx.public[i] if i is not None else None


def _outcome_neighbours(ctx: GoldContext, paper_id: str, families: set[str]) -> list[tuple[str, str]]:
    """(arXiv id, family) of the VOTE_NEIGHBOURS papers of the partition (public or window) most similar
    to the project (centred title + abstract embedding) that some list shows accepted in one of
    `families` (`accepted_family`, any cycle); the project itself excluded."""
    rows = getattr(ctx, "_venue_accepted", None)
    if rows is None:  # once per partition (a resample shares it)
        papers = list(ctx.public) + list(ctx._original_future)
        vecs = np.concatenate([ctx.pub_vecs, ctx.fut_vecs[: len(ctx._original_future)]]) if len(ctx.future) else ctx.pub_vecs
        labelled = [(i, accepted_family(p.title)) for i, p in enumerate(papers)]
        labelled = [(i, f) for i, f in labelled if f]
        rows = (
            [papers[i].arxiv_id for i, _ in labelled],
            [f for _, f in labelled],
            vecs[[i for i, _ in labelled]] if labelled else np.zeros((0, vecs.shape[1]), np.float32),
        )
        ctx._venue_accepted = rows
    ids, fams, vecs = rows
    i = ctx.pub_index.get(paper_id)
    if i is None or not len(ids):
        return []
    order = np.argsort(-(vecs @ ctx.pub_vecs[i]), kind="stable")
    out = [(ids[j], fams[j]) for j in order if ids[j] != paper_id and fams[j] in families]
    return out[:VOTE_NEIGHBOURS]


def _proxy_scores(ctx: GoldContext, project: str, fam: dict[str, Signal]) -> tuple[dict[str, float], list[int]]:
    """The similarity proxy: per option, the fit of the project's closest window papers to the
    family's community (`ctx.venue_scorer`, else the profiles' terms), and those papers' rows."""
    pv = ctx.embed_centred([project])[0]
    sims = ctx.fut_vecs @ pv if len(ctx.future) else np.zeros(0)
    floor = float(np.quantile(sims, VENUE_NEIGHBOUR_QUANTILE)) if len(sims) else 0.0
    near = [int(i) for i in np.argsort(-sims, kind="stable")[:VENUE_NEIGHBOURS] if sims[i] >= floor and sims[i] > 0]
    if ctx.venue_scorer is not None:  # communities are known by accepted titles: compare titles with titles
        raw = ctx.venue_scorer([ctx.future[i].title for i in near] or [project])
        scores = {oid: float(raw.get(venue_family(s), float("nan"))) for oid, s in fam.items()}
        return {k: v for k, v in scores.items() if not math.isnan(v)}, near
    texts = [paper_text(ctx.future[i]) for i in near] or [project]
    T = ctx.embed_centred(texts).mean(axis=0)
    scores = {}
    for oid, s in fam.items():
        prof = " ".join(
            s.details.get("top_terms", []) + s.details.get("terms", []) + s.details.get("example_titles", [])
        ) or venue_family(s)
        scores[oid] = float(unit(T) @ ctx.embed_centred([prof])[0])
    return scores, near


def _support_finder(builder: TaskBuilder, papers: list, embed):
    """paper -> its SUPPORT_NEIGHBOURS nearest pre-cutoff papers: by embedding cosine over title and
    abstract, or without an embedder by the Jaccard of their content words (ties by arXiv id)."""
    pool = [p for p in papers if getattr(p, "label", "") != "excluded"]
    if embed is not None and pool:
        vecs = np.asarray(embed([paper_text(p) for p in pool]), dtype=np.float32)
        row = {p.arxiv_id: i for i, p in enumerate(pool)}

        def nearest(paper) -> list[str]:
            v = vecs[row[paper.arxiv_id]] if paper.arxiv_id in row else np.asarray(embed([paper_text(paper)]))[0]
            order = np.argsort(-(vecs @ v), kind="stable")
            return [pool[j].arxiv_id for j in order if pool[j].arxiv_id != paper.arxiv_id][:SUPPORT_NEIGHBOURS]

        return nearest
    words = {p.arxiv_id: word_set(paper_text(p)) for p in pool}

    def lexical(paper) -> list[str]:
        mine = word_set(paper_text(paper))
        score = {i: len(mine & w) / len(mine | w) for i, w in words.items() if i != paper.arxiv_id and mine | w}
        return [i for i in sorted(score, key=lambda i: (-score[i], i)) if score[i] > 0][:SUPPORT_NEIGHBOURS]

    return lexical


_CLAUSE_END = re.compile(
    r"[.;:]\s|[.;:]$|\s(?:(?:in|by|through|with|for|from|on|of) )?(?:that|which|whom|where|whereby|"
    r"wherein)\s|,\s(?:which|that|where|and|to|enabling|allowing|achieving|using|leveraging)\s|"
    r",?\s(?:and|then)\s(?:show|shows|find|finds|demonstrate|demonstrates|prove|proves|reveal|"
    r"reveals|propose|introduce|present|use|apply)\b"
)
_TRAILING = {
    "a",
    "an",
    "the",
    "of",
    "for",
    "to",
    "in",
    "on",
    "with",
    "by",
    "and",
    "or",
    "via",
    "from",
    "as",
    "at",
    "that",
    "which",
    "its",
    "their",
}


def _outside_parens(text: str, pos: int) -> bool:
    return text[:pos].count("(") <= text[:pos].count(")")


_CUT_WORDS = {"for", "to", "with", "via", "on", "in", "of", "by", "from", "across", "under", "over", "using", "through"}


# An approach object that names nothing ("We study these questions in ...", "We introduce a
# different paradigm: ...") gives way to the subject of the description's first sentence.
_VAGUE_OBJECT = re.compile(
    r"^(?:these|this|those|such|it|them|a different|a new|an alternative|another|the following)\b", re.IGNORECASE
)
_SUBJECT_END = re.compile(
    r"\s(?:is|are|was|were|has|have|remains?|relies|rely|enables?|offers?|requires?|faces?|"
    r"suffers?|struggles?|aims?|can|could|may|might|demonstrates?|shows?|plays?|poses?|"
    r"increasingly|often|typically|still)\b"
)


def project_name(description: str) -> str:
    """The project as its approach sentence names it ("TIR-Judge, an end-to-end RL framework for
    training LLM judges"): the object of the approach verb up to the end of its clause. Longer
    than TITLE_WORDS words or TITLE_CHARS characters, it is shortened without cutting a phrase:
    to its head before an appositive comma ("M4-RAG"), else before the last preposition that
    leaves at least 3 words; only when neither exists is it cut at a content word and marked "…".
    An object that names nothing ("these questions", "a different paradigm") gives way to the
    subject of the first sentence ("Agentic reinforcement learning")."""
    sents = split_sentences(description)
    last = sents[-1] if sents else description
    m = APPROACH_OBJECT.search(last)
    phrase = m.group(1) if m else last
    if _VAGUE_OBJECT.match(phrase.strip()) and sents:
        end = _SUBJECT_END.search(sents[0])
        phrase = sents[0][: end.start()] if end else sents[0]
    for end in _CLAUSE_END.finditer(phrase):  # the first clause end outside parentheses
        if _outside_parens(phrase, end.start()):
            phrase = phrase[: end.start()]
            break
    phrase = phrase.strip(" ,.;:")
    fits = lambda p: len(p.split()) <= TITLE_WORDS and len(p) <= TITLE_CHARS  # noqa: E731
    if not fits(phrase):
        comma = next((i for i, c in enumerate(phrase) if c == "," and _outside_parens(phrase, i)), -1)
        words = phrase.split()
        if comma > 0 and fits(phrase[:comma]):
            phrase = phrase[:comma]
        else:
            cuts = [
                i
                for i in range(3, min(len(words), TITLE_WORDS + 1))
                if words[i].lower() in _CUT_WORDS
                and _outside_parens(" ".join(words), len(" ".join(words[:i])))
                and fits(" ".join(words[:i]))
            ]
            if cuts:
                phrase = " ".join(words[: cuts[-1]])
            else:
                words = words[:TITLE_WORDS]
                while words and (words[-1].lower().strip(",;") in _TRAILING or len(" ".join(words)) > TITLE_CHARS):
                    words.pop()
                phrase = " ".join(words).rstrip(",;") + "…"
    first = phrase.split(" ", 1)[0]
    return phrase if any(c.isupper() for c in first[1:]) else phrase[:1].upper() + phrase[1:]  # "iSHIFT" stays


def venue_family(profile: Signal) -> str:
    """Family name of a venue_profile signal ("ICLR/ICML/NeurIPS"), as venue_similarity keys it."""
    fam = profile.details.get("family") or []
    return fam[0] if fam else profile.title.removesuffix(" profile").strip()


def _venue_text(profile: Signal) -> str:
    """Family name + the style mix of its accepted domain-close papers (or contribution styles)."""
    text = clean_text(venue_family(profile))
    st = profile.stats
    if all(k in st for k in ("style_method", "style_benchmark", "style_analysis")):
        return (
            f"{text} (accepted papers close to this domain: {st['style_method']:.0%} method, "
            f"{st['style_benchmark']:.0%} benchmark, {st['style_analysis']:.0%} analysis)"
        )
    styles = [clean_text(s) for s in profile.details.get("contribution_styles", []) if clean_text(s)][:2]
    return f"{text} (typical contributions: {'; '.join(styles)})" if styles else text

"""The venue TaskFamily (ForeSci §3.4, App. B.5): its contract, answer and hooks."""

from __future__ import annotations

from typing import ClassVar

from pydantic import BaseModel, Field

from assets.families.answers import bullets, ranking_lines
from assets.families.base import TaskFamily
from assets.families.venue.build import build_tasks, template
from assets.families.venue.gold import PROJECT_TEXT, venue_gold
from assets.families.venue.projects import names_a_venue
from assets.toolbox.building import Draft, TaskBuilder
from assets.toolbox.measure import GoldContext
from core.records import GoldTarget, Signal, Task, TaskBuild
from core.text import word_set


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

    def decision_claims(self, task: Task, parsed: BaseModel, ranking: list[str], choice: str | None) -> list[str]:
        if not ranking:
            return []
        text = {o.option_id: o.text for o in task.options}
        return [
            f"The project fits the {text[ranking[0]]} venue family best."
        ]  # (answer scaffold words: assets/artifacts/text.py)

    def answer_lines(self, task: Task, parsed: BaseModel, ranking: list[str], choice: str | None) -> list[str]:
        lines = ranking_lines(task, ranking)
        parsed = parsed if isinstance(parsed, VenueAnswer) else VenueAnswer.model_validate(parsed.model_dump())
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
        out: dict[str, object] = {"framing": f"Frame the contribution for {found['top']}."}
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
    vocabulary = "Venue positioning. ACL/EMNLP/NAACL AAAI/IJCAI CVPR/ICCV/ECCV ICLR/ICML/NeurIPS SIGIR/KDD/WWW"
    horizon_text = "the next venue cycle"

    needs: ClassVar[frozenset[str]] = frozenset({"papers", "embed"})  # projects are papers of the partition

    def build(self, builder: TaskBuilder) -> None:
        """One task per outcome project (`assets.families.venue.build.build_tasks`)."""
        build_tasks(self, builder)

    def template(self, draft: Draft) -> tuple[str, str]:
        return template(draft)

    def decision_problem(self, task: Task) -> str | None:
        """The family's decision cue, and a project description that names no venue or acceptance."""
        problem = super().decision_problem(task)
        m = PROJECT_TEXT.search(task.question)
        if problem is None and m and names_a_venue(m.group(1)):
            return "the project description names a venue or an acceptance"
        return problem

    def validity_problems(self, task: Task, gold: GoldTarget) -> list[str]:
        """A proxy-only gold is never released: the proxy is no better than the most common family
        at predicting the real one (docs/validity.md). Nor is an outcome a reader at the cutoff has no
        basis for: the real family accepted no work close to the project before the cutoff, or other
        families' accepted work fits it better (`options.answer_basis`, recorded by the build). Nor is
        an outcome at a venue whose submissions were public at the cutoff (ICLR's OpenReview): its
        venue could be looked up (`gold.OPEN_SUBMISSION_VENUES`)."""
        if gold.numbers.get("gold_kind_proxy", 0.0) > 0:
            return ["proxy gold (no venue outcome for the project): the similarity proxy is not released"]
        if gold.numbers.get("open_submission", 0.0) > 0:
            return [
                "the project was a public submission at the cutoff (OpenReview): its venue could be looked up, "
                "not reasoned to (venue.gold.OPEN_SUBMISSION_VENUES)"
            ]
        if gold.numbers.get("answer_basis", 1.0) <= 0:
            return [
                "no basis at the cutoff for the real venue: its family accepted no close work before the cutoff "
                "or is not among the two best-fitting families (options.answer_basis)"
            ]
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

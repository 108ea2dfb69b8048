"""Approaches a team chooses between for one role inside a subfield (ForeSci §3.4, App. B.4/B.6).

An approach decision is a choice for ONE role of a plan: "which policy-optimisation algorithm do
we train with?", "which first-stage retriever?". The alternatives come from a curated, shipped
catalog (`roles.yaml` beside this module: the expert-curation step of ForeSci B.6, see
docs/deviations.md): per role its subfield (a scope expression), the domains whose work makes
the choice, and its members -- comparable alternatives for the same role, none a sub-family or
synonym of another, each with case-sensitive names/acronyms, case-insensitive phrases and a
one-sentence gloss of its own.

Which members a partition offers is read from its cutoff-visible papers only:

1. a paper is ON the role's subfield when its title or abstract matches the role's `scope`
   expression or names a member by one of its case-sensitive `names`;
2. a paper BUILDS ON a member when one sentence uses or extends it (`assets.evidence.building_on`:
   use context, not a foil, case-sensitive names);
3. a member is alive with at least MIN_ALIVE such papers in the RECENT_MONTHS before the cutoff
   AND at least FILLER_SHARE of the leader's recent count: an option with under a tenth of the
   leader's recent use is a filler no team would weigh (ORPO and KTO beside GRPO and DPO; prompt
   tuning beside LoRA), and offering it makes the option set no contest (s37 blind reading);
4. a role is offered when at least MIN_MEMBERS of its members are alive and the leader is not
   overwhelmingly ahead: the runner-up's recent count is at least DOMINANT_SHARE of the leader's.
   A leader with three times the runner-up's recent use is what every paper already uses (LoRA
   for fine-tuning, knowledge graphs for structured RAG, and -- s38 blind reading -- the DiT
   backbone at 3.8x, VAE latents at 3.6x and the dense bi-encoder retriever at 3.5x): ranking the
   options measures tool usage, not a research bet, and any expert names the answer from the
   pre-cutoff counts. Then its MAX_MEMBERS most used alive members (recent papers first, then all
   pre-cutoff papers).

The thresholds are the pre-cutoff shares a reader can check on the task itself; at the default
release the two rules drop the weight-adaptation and retrieval-index roles, whose runners-up
have 5-7% of the leader's recent use, the generator-backbone, latent-space and first-stage-retriever
roles (26-28%, s39), and the fillers of the policy-optimisation, generator-backbone
and sampling-acceleration roles (1-7%). A role is asked in ONE domain (roles.yaml `domains`): the
same role in two domains is one question released twice (s38 reading), so a role several domains
share is curated into the domain where its pre-cutoff contest is open (the reward signal for LLM
agents, where verifiable rewards had under twice the runner-up's recent use; in post-training at
large they had about five times).

No Dagster here.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import date
from functools import cache
from pathlib import Path

import yaml

from assets.evidence.building_on import Matcher, builds_on
from core.papers import add_months
from core.records import ScreenedPaper

CATALOG = Path(__file__).with_name("roles.yaml")
RECENT_MONTHS = 6
MIN_ALIVE = 3  # papers building on a member in the RECENT_MONTHS before the cutoff
MIN_MEMBERS = 3
MAX_MEMBERS = 5
FILLER_SHARE = 0.10  # a member's recent count / the leader's, below which it is a filler (rule 3)
DOMINANT_SHARE = 0.35  # the runner-up's recent count / the leader's, below which there is no contest (rule 4)


@dataclass(frozen=True)
class Member:
    member_id: str
    name: str
    gloss: str
    names: tuple[str, ...] = ()
    phrases: tuple[str, ...] = ()
    exclude: tuple[str, ...] = ()
    requires: tuple[str, ...] = ()  # regexes the counted sentence must also match (each of them)
    foils: tuple[str, ...] = ()  # regexes of a sentence that uses a name in another sense ("DDIM inversion")
    context: tuple[str, ...] = ()  # the role's topical context: regexes the paper's text must match
    title_foils: tuple[str, ...] = ()  # regexes of a title whose task is a foil sense (a segmentation U-Net)

    def matcher(self) -> Matcher:
        return _matcher(self.names, self.phrases, self.exclude, self.requires, self.foils, self.context, self.title_foils)


@dataclass(frozen=True)
class Role:
    role_id: str
    role: str  # "the policy-optimisation algorithm"
    subfield: str  # "preference and reinforcement-learning post-training"
    scope: str  # regular expression naming the subfield
    domains: tuple[str, ...]
    members: tuple[Member, ...]

    def on_subfield(self, text: str) -> bool:
        return bool(_scope(self.scope, tuple(n for m in self.members for n in m.names)).search(text))


@cache
def _matcher(
    names: tuple[str, ...],
    phrases: tuple[str, ...],
    exclude: tuple[str, ...],
    requires: tuple[str, ...] = (),
    foils: tuple[str, ...] = (),
    context: tuple[str, ...] = (),
    title_foils: tuple[str, ...] = (),
) -> Matcher:
    return Matcher(list(names), list(phrases), list(exclude), list(requires), list(foils), list(context), list(title_foils))


@cache
def _scope(scope: str, names: tuple[str, ...]) -> re.Pattern[str]:
    return re.compile("|".join([scope] + [rf"(?<![A-Za-z0-9])(?:{n})(?![A-Za-z0-9])" for n in names]))


def load_roles(path: Path = CATALOG) -> list[Role]:
    """The catalog's roles (parsed once per file version)."""
    return list(_load(path, path.stat().st_mtime_ns))


@cache
def _load(path: Path, _version: int) -> tuple[Role, ...]:  # _version: the file's mtime (a cache key)
    raw = yaml.safe_load(path.read_text())
    return tuple(
        Role(
            role_id=r["id"],
            role=r["role"],
            subfield=r["subfield"],
            scope=r["scope"],
            domains=tuple(r.get("domains") or ()),
            members=tuple(
                Member(
                    member_id=m["id"],
                    name=m["name"],
                    gloss=m["gloss"],
                    names=tuple(m.get("names") or ()),
                    phrases=tuple(m.get("phrases") or ()),
                    exclude=tuple(m.get("exclude") or ()),
                    requires=tuple(m.get("requires") or ()),
                    foils=tuple(m.get("foils") or ()),
                    # a role's `context` applies to every member (the paper must be on the role's topic)
                    context=tuple(r.get("context") or ()) + tuple(m.get("context") or ()),
                    title_foils=tuple(m.get("title_foils") or ()),
                )
                for m in r["members"]
            ),
        )
        for r in raw["roles"]
    )


@dataclass
class MemberUse:
    """One member's pre-cutoff use in a partition."""

    member: Member
    paper_ids: list[str]  # pre-cutoff papers on the subfield that build on it, sorted
    recent_ids: list[str]  # those in the RECENT_MONTHS before the cutoff
    sentences: dict[str, str] = field(default_factory=dict)  # paper id -> the sentence that counted


def member_uses(role: Role, papers: list[ScreenedPaper], cutoff: date) -> list[MemberUse]:
    """Each member's pre-cutoff use (papers after the cutoff are ignored), most recent use first."""
    recent_start = add_months(cutoff, -RECENT_MONTHS)
    on = [p for p in papers if p.published <= cutoff and role.on_subfield(f"{p.title}. {p.abstract}")]
    out = []
    for m in role.members:
        matcher = m.matcher()
        said = {p.arxiv_id: s for p in on if (s := builds_on(p.title, p.abstract, matcher))}
        ids = sorted(said)
        recent = sorted(p.arxiv_id for p in on if p.arxiv_id in said and p.published > recent_start)
        out.append(MemberUse(member=m, paper_ids=ids, recent_ids=recent, sentences=said))
    return sorted(out, key=lambda u: (-len(u.recent_ids), -len(u.paper_ids), u.member.member_id))


def offered_members(role: Role, papers: list[ScreenedPaper], cutoff: date) -> list[MemberUse]:
    """The members a partition offers for the role (rules 3-4 of the module docstring); [] when
    fewer than MIN_MEMBERS are alive or the leader is overwhelmingly ahead."""
    return contest(member_uses(role, papers, cutoff))


def contest(uses: list[MemberUse]) -> list[MemberUse]:
    """Rules 3-4 on members' uses sorted most recent use first: the alive non-filler members, at
    most MAX_MEMBERS; [] when fewer than MIN_MEMBERS remain or the runner-up has under
    DOMINANT_SHARE of the leader's recent use."""
    lead = len(uses[0].recent_ids) if uses else 0
    alive = [u for u in uses if len(u.recent_ids) >= max(MIN_ALIVE, FILLER_SHARE * lead)]
    if len(alive) < MIN_MEMBERS or len(alive[1].recent_ids) < DOMINANT_SHARE * lead:
        return []
    return alive[:MAX_MEMBERS]


def exemplars(
    papers: list[ScreenedPaper], sentences: dict[str, str], matcher: Matcher, others: tuple[Matcher, ...] = ()
) -> list[ScreenedPaper]:
    """The papers an option shows as "pre-cutoff papers building on it", best first (keeping the
    given order within a tier): those whose ABSTRACT says the paper uses the approach (a counted
    sentence of the abstract alone, not only the title) and whose title names it, then the other
    abstract-confirmed ones; a paper counted on its title alone comes last. A title that names an
    approach may attack, serve or study it (s37 blind reading: a backdoor attack and a KV-cache
    serving paper shown for LoRA); the abstract's own sentence says what the paper does with it.

    A paper whose title names ANOTHER option of the role (`others`: the role's other members) comes
    after all of these: it illustrates that option, not this one (s38 blind reading: the generative-
    retrieval paper QUESTER shown for BM25, a vector-quantised VAE shown for continuous VAE latents)."""

    def tier(p: ScreenedPaper) -> int:
        in_abstract = bool(builds_on("", p.abstract, matcher))
        own = 0 if in_abstract and sentences.get(p.arxiv_id) == p.title else 1 if in_abstract else 2
        return own + (3 if any(o.names_in(p.title) for o in others) else 0)

    return sorted(papers, key=tier)

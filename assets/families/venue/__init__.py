"""Venue-Conditioned Positioning (ForeSci §3.4, App. B.5): rank venue families for a project.

**The project** is one real paper: a recent pre-cutoff preprint (published in the
PROJECT_MONTHS before the cutoff) whose acceptance was decided AFTER the cutoff, described by
2-3 verbatim sentences of its abstract (its problem, then its own approach) that start at a
clean sentence and name no venue; the task's title names the project by its paper's title (the
name before its colon, `naming.project_name`), its arXiv id is never shown. Selection,
the description rules and the home-domain rule (one paper, one task, across domains) are in
`assets/families/venue/projects.py`. Window papers (published after the cutoff) are never
projects. The support packet is the project's SUPPORT_NEIGHBOURS nearest pre-cutoff papers.

**The options** (`build.offered_families`) are the venue families with an accepted-paper list
decided inside the task window, (cutoff, window end] (`assets.evidence.venues.outcome_families`):
only they can be a real outcome; a family without one is not offered (it could never be the
gold) and a failure row names it and why. At 2025-12-31 that is four families (ICLR 2026, WWW
2026, CVPR 2026, ACL 2026, ICML 2026); AAAI/IJCAI is offered at no registry cutoff (AAAI 2025 and
IJCAI 2025 are decided before them); at 2026-05-15 no family has a later list, so no venue task
is built there. Each option is one plain sentence (`options.venue_text`): the family, what it is
("NLP conferences"), which tracks count (ACL/EMNLP/NAACL: "main conference or Findings"; its industry
and demo tracks are no outcome), and two of its accepted titles decided before the cutoff nearest
to THIS project's title (its close work first, `options.close_rows`; then `nearest_accepted`), in
one neutral wording: no verdict ("none is close") that hands the reader the bottom ranks.
No gold family holds more than `build.MAJORITY_RATIO` times the others' tasks of a partition, and a
survey or position paper is no project (`projects.SURVEY`). A project is used only when some non-gold family fits it about as well as the best
one (`options.plausible_rival`) and the cutoff gives a basis for its real venue
(`options.answer_basis`: the gold family accepted close work before the cutoff and is one of the two
families whose accepted work is nearest the project; `VenueFamily.validity_problems` re-checks it);
its question states a premise true of it at the cutoff (`options.premise_kind`: "already under
review" when decided within 75 days, else "under review or about to be submitted").

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


Modules: `family` (the TaskFamily), `build` (offered families, projects, questions), `options`
(descriptors, premise, rival), `projects` (which papers become projects, their description),
`naming` (the task title), `gold` (the outcome gold and the labelled proxy)."""

from __future__ import annotations

from assets.families.venue.family import VenueAnswer, VenueFamily
from assets.families.venue.gold import VOTE_NEIGHBOURS, venue_gold
from assets.families.venue.naming import project_name
from assets.families.venue.options import VENUE_BUCKETS, VENUE_FAMILIES, venue_family

__all__ = [
    "VENUE_BUCKETS",
    "VENUE_FAMILIES",
    "VOTE_NEIGHBOURS",
    "VenueAnswer",
    "VenueFamily",
    "project_name",
    "venue_family",
    "venue_gold",
]

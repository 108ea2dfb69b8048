"""Venue-community profiles (ForeSci §3.3 (5), Appendix B.5) from accepted-paper lists.

The paper profiles venue families (ACL/EMNLP/NAACL, ICLR/ICML/NeurIPS, AAAI/IJCAI,
SIGIR/KDD/WWW, CVPR/ICCV/ECCV) by contribution style, maturity expectations, reviewer
risks, evidence-package expectations and nearby compatible families. Offline we derive
them from the venue lists shipped in `venues/` (copies of shared/data/venues): which
accepted papers are close to the domain (nearest-neighbour title cosine), what those
papers are about (distinctive terms), and their contribution style (title cue words).
The qualitative sentences are templates filled and selected by those numbers; each
sentence names the numbers that drive it.

Temporal integrity: a list is only used for a profile when its cycle's decision date
(`venue_date`) is on or before the cutoff. The dates are approximate public decision /
notification dates of each cycle (VENUE_LISTS, each with its source in a comment). ICLR
2024 has submissions only (no decisions, snapshot 2023-11-10): it is skipped unless
`include_submissions=True`, and never counted as accepted. A family with no list dated
on or before the cutoff gets a profile that says so (n_papers = 0, nothing invented).

Outcomes (the venue family's gold, `assets/families/venue/`): the same lists, read the
other way round. A paper whose normalised title (lower-case alphanumerics, `norm_title`)
is in a list was accepted in that venue's cycle; `venue_outcome` returns it only when the
list's decision date lies AFTER the cutoff and inside the task window (`until`, default
VENUE_CYCLE_MONTHS = the default 6-month window; a decision known at the cutoff is no forecast), and
only when every matching list names one family (a title accepted in two families is
ambiguous and gives no outcome). `outcome_families` are the families with at least one
list decided in that interval: the only families an outcome task can offer. The lists
with 2025-2026 decisions (ICLR/ICML 2026, CVPR 2026, ACL 2026, WWW 2026, NeurIPS 2025, EMNLP
2025, COLM 2025, WWW 2025, KDD 2025 (partial), KDD 2026 first cycle, NAACL 2025, IJCAI 2025, AAAI
2025 (partial)) come from the normalised files of shared/data/venues (PROVENANCE.md here). AAAI
2025 and IJCAI 2025 are decided before every registry cutoff, so AAAI/IJCAI is an outcome family
at none of them. A paper found in no list is "unknown", not "rejected".


Modules: `lists` (the lists, their loading and the outcomes read from them), `similarity`
(title-embedding fit of texts to each community), `profiles` (what each community accepts
from a domain: the venue_profile signals and the option descriptors built from them)."""

from __future__ import annotations

from assets.evidence.venues.lists import (
    ACCEPTED_ICLR,
    FAMILIES,
    VENUE_CYCLE_MONTHS,
    VENUE_DIR,
    VENUE_LISTS,
    VenueList,
    VenueOutcome,
    VenuePaper,
    accepted_family,
    listed_by,
    load_venue_lists,
    norm_title,
    outcome_families,
    outcome_window,
    unlisted,
    venue_outcome,
)
from assets.evidence.venues.profiles import (
    STYLE_CUES,
    build_venue_profiles,
    distinctive_terms,
    profile_sentences,
    title_style,
)
from assets.evidence.venues.similarity import OFF_TOPIC_QUANTILE, nearest_accepted, venue_similarity

__all__ = [
    "ACCEPTED_ICLR",
    "FAMILIES",
    "OFF_TOPIC_QUANTILE",
    "STYLE_CUES",
    "VENUE_CYCLE_MONTHS",
    "VENUE_DIR",
    "VENUE_LISTS",
    "VenueList",
    "VenueOutcome",
    "VenuePaper",
    "accepted_family",
    "build_venue_profiles",
    "distinctive_terms",
    "listed_by",
    "load_venue_lists",
    "nearest_accepted",
    "norm_title",
    "outcome_families",
    "outcome_window",
    "profile_sentences",
    "title_style",
    "unlisted",
    "venue_outcome",
    "venue_similarity",
]

"""The venue options: which families a task offers and how each is described."""

from __future__ import annotations

from assets.toolbox.building import clean_text
from core.records import Signal

# ForeSci B.5 venue families (all five; a task offers those with an outcome list, see above).
VENUE_FAMILIES = ("AAAI/IJCAI", "ACL/EMNLP/NAACL", "CVPR/ICCV/ECCV", "ICLR/ICML/NeurIPS", "SIGIR/KDD/WWW")
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
    "SIGIR": "SIGIR/KDD/WWW",
    "KDD": "SIGIR/KDD/WWW",
    "WSDM": "SIGIR/KDD/WWW",
    "WWW": "SIGIR/KDD/WWW",
    "CIKM": "SIGIR/KDD/WWW",
}


def venue_family(profile: Signal) -> str:
    """Family name of a venue_profile signal ("ICLR/ICML/NeurIPS"), as venue_similarity keys it."""
    fam = profile.details.get("family") or []
    return fam[0] if fam else profile.title.removesuffix(" profile").strip()


def venue_text(profile: Signal) -> str:
    """The option a reader sees: the family, what it accepts *from this domain* (the terms that set
    its domain-close accepted titles apart from the other families' ones) and two of those titles
    (`assets.evidence.venues.profiles.contrast_profile`), with how many close papers it holds.
    Without contrast terms (no close paper) the older style-mix text."""
    text = clean_text(venue_family(profile))
    terms = [clean_text(t) for t in profile.details.get("contrast_terms", []) if clean_text(t)]
    examples = [clean_text(t) for t in profile.details.get("contrast_examples", []) if clean_text(t)]
    st = profile.stats
    if terms:
        n_close = int(st.get("n_close", 0))
        style = [clean_text(t) for t in profile.details.get("contrast_style", []) if clean_text(t)]
        out = f"{text}: {n_close} accepted papers close to this domain before the cutoff, set apart by {', '.join(terms)}"
        if style:
            out += f"; more {style[0]}"
        if examples:
            out += "; e.g. " + "; ".join(f"'{e}'" for e in examples)
        return out
    if all(k in st for k in ("style_method", "style_benchmark", "style_analysis")):
        return (
            f"{text} (accepted papers close to this domain: {st['style_method']:.0%} method, "
            f"{st['style_benchmark']:.0%} benchmark, {st['style_analysis']:.0%} analysis)"
        )
    styles = [clean_text(s) for s in profile.details.get("contribution_styles", []) if clean_text(s)][:2]
    return f"{text} (typical contributions: {'; '.join(styles)})" if styles else text


# ----------------------------------------------------------------------------- the premise

UNDER_REVIEW_DAYS = 75  # decided within ~2.5 months of the cutoff: submitted before it (ICLR, WWW, CVPR 2026)
PREMISE_UNDER_REVIEW = "under_review"
PREMISE_NEXT_CYCLE = "next_cycle"


def premise_kind(decision_days_after_cutoff: int) -> str:
    """Whether the project's paper was already under review at the cutoff: its decision came
    within UNDER_REVIEW_DAYS of it (no venue reviews a paper submitted after the cutoff that fast:
    ICLR 2026 ~22 days, WWW 2026 ~13, CVPR 2026 ~51), or later (ACL 2026 ~94 days, via ARR cycles
    of October 2025 or January 2026; ICML 2026 ~120 days, papers due 2026-01-28): then it was
    submitted around the cutoff, before or after it."""
    return PREMISE_UNDER_REVIEW if decision_days_after_cutoff <= UNDER_REVIEW_DAYS else PREMISE_NEXT_CYCLE


# Whether the question's wording follows each project's premise kind. Off: measured on the RAG
# partition of 2025-12-31, the per-project wording told the gold family apart (5 of 6 "under review
# or about to be submitted" projects were ACL, none of 9 "already under review" ones was), so every
# question states the premise that is true of every project, and the kind stays in the hidden build.
PREMISE_PER_PROJECT = False


def premise_sentence(kind: str, cutoff: str, per_project: bool = PREMISE_PER_PROJECT) -> str:
    """The question's premise, true for the project at the cutoff. With `per_project`, by its real
    decision date (`premise_kind`): "already under review" when decided within UNDER_REVIEW_DAYS.
    Otherwise (the default) the wording true of every project, which says nothing about when its
    decision came: no decision yet, under review or about to be submitted."""
    if per_project and kind == PREMISE_UNDER_REVIEW:
        return (
            f"As of {cutoff}, this project's paper is already under review (it was submitted before the cutoff) "
            "and has no decision yet. Rank the venue families below by how likely each is to be the one that "
            "accepts it (most likely first), and position it for the top choice."
        )
    return (
        f"As of {cutoff}, this project's paper has no venue decision yet: it is under review or about to be "
        "submitted, in the venue cycles that decide in the coming months. Rank the venue families below by how "
        "likely each is to accept it (most likely first), and position it for the top choice."
    )


# ----------------------------------------------------------------------------- plausible rival

RIVAL_GAP = 0.02  # a non-gold family whose fit to the project is within this cosine of the best fit is a real rival


def plausible_rival(fits: dict[str, float], gold: str) -> str | None:
    """The non-gold family a reader would seriously consider for the project, or None when every
    rival is filler: the best-fitting non-gold family, if its fit (the project title's mean top-5
    cosine to an equal-size sample of the family's pre-cutoff accepted titles,
    `assets.evidence.venues.venue_similarity`) is the best of all or within RIVAL_GAP of it."""
    if not fits:
        return None
    rivals = {f: v for f, v in fits.items() if f != gold}
    if not rivals:
        return None
    best_rival = max(rivals, key=lambda f: (rivals[f], f))
    return best_rival if rivals[best_rival] >= max(fits.values()) - RIVAL_GAP else None

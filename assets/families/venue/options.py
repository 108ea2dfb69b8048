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

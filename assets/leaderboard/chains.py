"""The Xcientist part of the release report: claim-drift counts and examples next to ForeSci's
drift diagnostics, attribution completeness per method, and a details page where every
answer's chain (evidence tuples -> validator verdicts per claim -> drifts) opens by anchor
(`chains.html#<anchor>`). Plain functions over `AnswerArtifacts` (no Dagster); the HTML is
rendered from the autoescaping Jinja2 templates in `templates/` (`core/pages.py`):
`chains.html` (the page) and `chains_section.html` (the report's section, a macro)."""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Sequence

from core.pages import render
from core.records import AnswerArtifacts

DRIFT_KINDS = ("semantic", "experimental", "mechanistic")
EXAMPLES_PER_KIND = 3
CHAINS_FILE = "chains.html"


def anchor(answer_id: str) -> str:
    """A stable HTML id for an answer (its id with every non-word run as '-')."""
    return "a-" + re.sub(r"[^A-Za-z0-9_]+", "-", answer_id).strip("-")


def drift_summary(artifacts: Sequence[AnswerArtifacts]) -> list[dict]:
    """Per method (and "all"): answers, claims, attributable claims, drifts by kind."""
    groups: dict[str, list[AnswerArtifacts]] = defaultdict(list)
    for a in artifacts:
        groups[a.method].append(a)
        groups["all"].append(a)
    rows = []
    for method in sorted(groups, key=lambda m: (m == "all", m)):
        group = groups[method]
        claims = sum(a.n_claims for a in group)
        drifted = sum(len({d.claim_index for d in a.drifts}) for a in group)
        rows.append(
            {
                "method": method,
                "answers": len(group),
                "claims": claims,
                "attributed": sum(a.n_attributed for a in group),
                "attribution": sum(a.attribution_completeness for a in group) / len(group),
                "quotes_verified": sum(a.n_quotes_verified for a in group),
                "tuples": sum(a.n_tuples for a in group),
                **{k: sum(getattr(a, f"drift_{k}") for a in group) for k in DRIFT_KINDS},
                "drift_rate": drifted / claims if claims else None,
            }
        )
    return rows


def drift_examples(artifacts: Sequence[AnswerArtifacts], per_kind: int = EXAMPLES_PER_KIND) -> list[dict]:
    """Up to `per_kind` drifts of each kind (answers in id order), with their answer's anchor."""
    out = []
    for kind in DRIFT_KINDS:
        found = [d for a in sorted(artifacts, key=lambda a: a.answer_id) for d in a.drifts if d.kind == kind]
        out += [
            {
                "kind": kind,
                "answer_id": d.answer_id,
                "method": d.method,
                "claim": d.claim,
                "detail": d.detail,
                "evidence": d.evidence,
                "anchor": anchor(d.answer_id),
            }
            for d in found[:per_kind]
        ]
    return out


SUMMARY_COLUMNS = (
    "method",
    "answers",
    "claims",
    "attributed",
    "attribution",
    "tuples",
    "quotes_verified",
    *DRIFT_KINDS,
    "drift_rate",
)
STAGES = ("evidence", "mechanism", "decision", "claim", "chain")


def section_context(artifacts: Sequence[AnswerArtifacts], chains_href: str = CHAINS_FILE) -> dict:
    """What the report's Xcientist section shows (the `chains_section` macro of
    `templates/chains_section.html`): per-method summary, drift examples, the chains page link."""
    return {
        "any": bool(artifacts),
        "chains_href": chains_href,
        "columns": SUMMARY_COLUMNS,
        "summary": drift_summary(artifacts) if artifacts else [],
        "examples": drift_examples(artifacts) if artifacts else [],
    }


def report_section(artifacts: Sequence[AnswerArtifacts], chains_href: str = CHAINS_FILE) -> str:
    """The report's "Claim drift and attribution (Xcientist)" section, on its own (the report
    includes the same macro: `report_html(artifacts=...)`)."""
    return render(__package__, "chains_section_page.html", s=section_context(artifacts, chains_href))


def chains_html(artifacts: Sequence[AnswerArtifacts], title: str) -> str:
    """One page, one section per answer (id = `anchor(answer_id)`): tuples, verdicts per claim
    and stage (`STAGES`), drifts (`templates/chains.html`)."""
    answers = []
    for a in sorted(artifacts, key=lambda a: a.answer_id):
        by_claim: dict[int, dict[str, object]] = defaultdict(dict)
        for v in a.validations:
            by_claim[v.claim_index][v.stage] = v
        claims = [
            {"index": k, "claim": next(iter(by_claim[k].values())).claim, "stages": [by_claim[k].get(s) for s in STAGES]}
            for k in sorted(by_claim)
        ]
        answers.append({"a": a, "anchor": anchor(a.answer_id), "claims": claims})
    return render(__package__, "chains.html", title=title, answers=answers)

"""The Xcientist part of the release report: claim-drift counts and examples next to ForeSci's
drift diagnostics, attribution completeness per method, and a details page where every
answer's chain (evidence tuples -> validator verdicts per claim -> drifts) opens by anchor
(`chains.html#<anchor>`). Plain functions over `AnswerArtifacts` (no Dagster)."""

from __future__ import annotations

import html
import re
from collections import defaultdict
from collections.abc import Sequence

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
        rows.append({"method": method, "answers": len(group), "claims": claims,
                     "attributed": sum(a.n_attributed for a in group),
                     "attribution": sum(a.attribution_completeness for a in group) / len(group),
                     "quotes_verified": sum(a.n_quotes_verified for a in group),
                     "tuples": sum(a.n_tuples for a in group),
                     **{k: sum(getattr(a, f"drift_{k}") for a in group) for k in DRIFT_KINDS},
                     "drift_rate": drifted / claims if claims else None})
    return rows


def drift_examples(artifacts: Sequence[AnswerArtifacts], per_kind: int = EXAMPLES_PER_KIND) -> list[dict]:
    """Up to `per_kind` drifts of each kind (answers in id order), with their answer's anchor."""
    out = []
    for kind in DRIFT_KINDS:
        found = [d for a in sorted(artifacts, key=lambda a: a.answer_id) for d in a.drifts if d.kind == kind]
        out += [{"kind": kind, "answer_id": d.answer_id, "method": d.method, "claim": d.claim, "detail": d.detail,
                 "evidence": d.evidence, "anchor": anchor(d.answer_id)} for d in found[:per_kind]]
    return out


def _cell(v) -> str:
    if v is None:
        return "–"
    if isinstance(v, float):
        return f"{v:.3f}"
    return html.escape(str(v))


def _rows(rows: Sequence[dict], cols: Sequence[str]) -> str:
    head = "".join(f"<th>{html.escape(c)}</th>" for c in cols)
    body = "".join("<tr>" + "".join(f"<td>{_cell(r.get(c))}</td>" for c in cols) + "</tr>" for r in rows)
    return f"<table><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"


def report_section(artifacts: Sequence[AnswerArtifacts], chains_href: str = CHAINS_FILE) -> str:
    """The report's "Claim drift and attribution (Xcientist)" section."""
    parts = ["<h2>Claim drift and attribution (Xcientist)</h2>"]
    if not artifacts:
        return parts[0] + "<p class='note'>No answer artifacts in this partition.</p>"
    parts.append("<p class='note'>Per final claim, the chain evidence → mechanism → decision → claim is validated "
                 "(pass / partial / blocked; a partial never counts). Attribution = share of an answer's claims whose "
                 "chain passes down to a verbatim pre-cutoff quote. Drift: semantic (says more or other than its "
                 "evidence), experimental (rests on an evaluation the evidence did not report), mechanistic (its cause "
                 "is not the evidence's). Next to the evidence-to-decision drift above, which the judge labels; these "
                 f"are computed for every answer (docs/xcientist.md). Every answer's chain: <a href='{chains_href}'>"
                 f"{html.escape(chains_href)}</a>.</p>")
    parts.append(_rows(drift_summary(artifacts), ["method", "answers", "claims", "attributed", "attribution",
                                                  "tuples", "quotes_verified", *DRIFT_KINDS, "drift_rate"]))
    examples = drift_examples(artifacts)
    if examples:
        parts.append("<h3>Drift examples</h3><table><thead><tr><th>kind</th><th>answer</th><th>claim</th>"
                     "<th>what drifted</th><th>closest evidence</th></tr></thead><tbody>")
        for e in examples:
            link = f"<a href='{chains_href}#{e['anchor']}'>{html.escape(e['answer_id'])}</a>"
            parts.append(f"<tr><td>{e['kind']}</td><td>{link}</td><td>{html.escape(e['claim'][:300])}</td>"
                         f"<td>{html.escape(e['detail'])}</td><td>{html.escape(e['evidence'][:300])}</td></tr>")
        parts.append("</tbody></table>")
    else:
        parts.append("<p class='note'>No claim drift detected.</p>")
    return "\n".join(parts)


CSS = """body{font-family:system-ui,sans-serif;margin:2em auto;max-width:1100px;color:#222}
table{border-collapse:collapse;margin:.4em 0 1em;font-size:13px}td,th{border:1px solid #ccc;padding:3px 7px;text-align:left;vertical-align:top}
th{background:#f3f3f3}.pass{background:#e3f4e3}.partial{background:#fff4d6}.blocked{background:#fbe3e3}
.verified{color:#1a7f37}.altered,.not_found,.unknown_paper{color:#b42318}section{border-top:1px solid #ddd;margin-top:1.5em}"""


def chains_html(artifacts: Sequence[AnswerArtifacts], title: str) -> str:
    """One page, one section per answer (id = `anchor(answer_id)`): tuples, verdicts, drifts."""
    parts = [f"<!doctype html><html><head><meta charset='utf-8'><title>{html.escape(title)}</title>"
             f"<style>{CSS}</style></head><body><h1>{html.escape(title)}</h1>",
             "<p>Each answer: its evidence tuples (quote verified against the paper's pre-cutoff KB text), the "
             "validators' verdict per final claim and stage, and the claim drifts found. Also in DuckDB: "
             "<code>evidence_tuples</code>, <code>chain_validations</code>, <code>claim_chains</code>, "
             "<code>claim_drift</code>.</p><ul>"]
    ordered = sorted(artifacts, key=lambda a: a.answer_id)
    parts += [f"<li><a href='#{anchor(a.answer_id)}'>{html.escape(a.answer_id)}</a> — attribution "
              f"{a.attribution_completeness:.2f}, {a.outcome}</li>" for a in ordered]
    parts.append("</ul>")
    for a in ordered:
        parts.append(f"<section id='{anchor(a.answer_id)}'><h2>{html.escape(a.answer_id)}</h2>"
                     f"<p>{html.escape(a.family)} · {html.escape(a.method)} ({html.escape(a.backbone)}) · attribution "
                     f"<b>{a.n_attributed}/{a.n_claims}</b> · chain <span class='{a.outcome}'>{a.outcome}</span> · "
                     f"validator {html.escape(a.validator)}</p>")
        if a.tuples:
            parts.append("<table><thead><tr><th>tuple</th><th>paper</th><th>keywords</th><th>summary</th>"
                         "<th>insight</th><th>quote</th><th>status</th></tr></thead><tbody>")
            for t in a.tuples:
                parts.append(f"<tr><td>{html.escape(t.tuple_id.rsplit('#', 1)[-1])}</td><td>{html.escape(t.paper_id)}</td>"
                             f"<td>{html.escape(', '.join(t.keywords))}</td><td>{html.escape(t.summary)}</td>"
                             f"<td>{html.escape(t.insight)}</td><td>“{html.escape(t.quote)}”</td>"
                             f"<td class='{t.quote_status}'>{t.quote_status}</td></tr>")
            parts.append("</tbody></table>")
        else:
            parts.append("<p>No evidence tuples: the answer cites no retrieved paper.</p>")
        by_claim: dict[int, dict[str, object]] = defaultdict(dict)
        for v in a.validations:
            by_claim[v.claim_index][v.stage] = v
        if by_claim:
            parts.append("<table><thead><tr><th>#</th><th>claim</th><th>evidence</th><th>mechanism</th>"
                         "<th>decision</th><th>claim</th><th>chain</th></tr></thead><tbody>")
            for k in sorted(by_claim):
                stages = by_claim[k]
                claim = next(iter(stages.values())).claim
                cells = "".join(f"<td class='{stages[s].outcome}' title='{html.escape(stages[s].reason)}'>"
                                f"{stages[s].outcome}<br><small>{html.escape(stages[s].reason[:160])}</small></td>"
                                if s in stages else "<td>–</td>"
                                for s in ("evidence", "mechanism", "decision", "claim", "chain"))
                parts.append(f"<tr><td>{k}</td><td>{html.escape(claim)}</td>{cells}</tr>")
            parts.append("</tbody></table>")
        for d in a.drifts:
            parts.append(f"<p><b>{d.kind} drift</b> (claim {d.claim_index}): {html.escape(d.detail)}"
                         + (f" — evidence: “{html.escape(d.evidence)}”" if d.evidence else "") + "</p>")
        parts.append("</section>")
    parts.append("</body></html>")
    return "\n".join(parts)

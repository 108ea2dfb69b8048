"""The claim-bank validator: every gold claim is recomputed from the warehouse.

Each `GoldClaim.basis` names a check; the validator recomputes it from the partition's
public papers, window papers, signals and the gold itself, and also confirms that every
number and object the basis states appears in the claim's text and that every paper id
is a paper of the partition (a truncated id is not). A claim without a basis is unverified. Two
claims of one gold contradict each other when they name different first-ranked (or
last-ranked) objects or different trajectories.

Checks:
* signal_papers   values.n == number of papers of signal params.signal_id (its members if phrase-defined)
* signal_stats    every values[k] equals the signal's stats[k] (shares stated in percent)
* signal_detail   values.item is one of the signal's details[params.field]
* recent_share    paper_ids are public papers of the last RECENT_MONTHS before the cutoff;
                  values.n == their count; values.total == public papers of those months
* window_share    paper_ids are window papers; values.n == their count; values.total ==
                  all window papers (or, for params.population, at least n)
* window_count    paper_ids are window papers; values.n == their count
* ranked_first / ranked_second / ranked_last
                  params.object is that position of the gold's preferred ranking; a stated
                  momentum equals the gold's numbers["momentum:<object>"] (2 decimals)
* trajectory      values.label == the gold's trajectory
* insufficient    the gold says it has no evidence: its strength is 0
* terms_in_papers every term of values.terms occurs in the title or abstract of one of paper_ids

A family adds checks of its own (`TaskFamily.claim_checks`, name -> function(claim, gold,
ClaimContext) -> None or why not), looked up by name like the shared ones: rediscovery's
`quote_in_paper` (assets/rediscovery/family.py), phase's `quote_in_window`
(assets/families/phase/gold.py). No check is known here by family.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from datetime import date

from assets.families import all_families
from assets.toolbox.measure import RECENT_MONTHS
from core.papers import add_months
from core.records import GoldClaim, GoldTarget, ScreenedPaper, Signal


class ClaimContext:
    """The warehouse facts a partition's claims are checked against."""

    def __init__(
        self,
        public: list[ScreenedPaper],
        window: list[ScreenedPaper],
        signals: list[Signal],
        cutoff: date,
        checks: dict[str, ClaimCheck] | None = None,
    ):
        self.checks = claim_checks() if checks is None else checks  # by name: shared + the families' own
        self.public = {p.arxiv_id: p for p in public if p.label != "excluded"}
        self.window = {p.arxiv_id: p for p in window if p.label != "excluded"}
        self.signals = {s.signal_id: s for s in signals}
        start = add_months(cutoff, -RECENT_MONTHS)
        self.recent = {i for i, p in self.public.items() if p.published > start}


def _num_in_text(value, text: str) -> bool:
    if isinstance(value, str):
        return value.lower() in text.lower()
    v = float(value)
    forms = {f"{v:.2f}", f"{v:.1f}"} | ({str(int(v))} if v == int(v) else set())
    return any(re.search(rf"(?<![\d.]){re.escape(f)}(?![\d])", text) for f in forms)


ClaimCheck = Callable[[GoldClaim, GoldTarget, "ClaimContext"], "str | None"]


def _signal_papers(claim: GoldClaim, gold: GoldTarget, cc: ClaimContext) -> str | None:
    b = claim.basis
    sig = cc.signals.get(str(b.params.get("signal_id")))
    members = (sig.details.get("member_ids") or sig.paper_ids) if sig else []
    return None if sig and len(members) == b.values.get("n") else "paper count differs from the signal"


def _signal_stats(claim: GoldClaim, gold: GoldTarget, cc: ClaimContext) -> str | None:
    b = claim.basis
    sig = cc.signals.get(str(b.params.get("signal_id")))
    if sig is None:
        return "unknown signal"
    for key, value in b.values.items():
        have = sig.stats.get(key)
        if have is None:
            return f"signal has no stat {key}"
        have = round(100 * have, 1) if key.startswith("share") else have
        if abs(float(have) - float(value)) > 1e-6:
            return f"{key} is {have}, not {value}"
    return None


def _signal_detail(claim: GoldClaim, gold: GoldTarget, cc: ClaimContext) -> str | None:
    b = claim.basis
    sig = cc.signals.get(str(b.params.get("signal_id")))
    return None if sig and b.values.get("item") in sig.details.get(str(b.params.get("field")), []) else "detail not in the signal"


def _recent_share(claim: GoldClaim, gold: GoldTarget, cc: ClaimContext) -> str | None:
    b, v = claim.basis, claim.basis.values
    if any(i not in cc.recent for i in b.paper_ids):
        return "a counted paper is not a public paper of the recent months"
    ok = v.get("n") == len(set(b.paper_ids)) and v.get("total") == len(cc.recent)
    return None if ok else f"counts {len(set(b.paper_ids))} of {len(cc.recent)} differ from the text"


def _window_count(claim: GoldClaim, gold: GoldTarget, cc: ClaimContext) -> str | None:
    b, v, p = claim.basis, claim.basis.values, claim.basis.params
    if any(i not in cc.window for i in b.paper_ids):
        return "a counted paper is not a window paper"
    if v.get("n") != len(set(b.paper_ids)):
        return f"{len(set(b.paper_ids))} papers counted, text says {v.get('n')}"
    if b.check == "window_share":
        total = v.get("total")
        if p.get("population") is None and total != len(cc.window):
            return f"window holds {len(cc.window)} papers, text says {total}"
        if total is None or total < v["n"] or total > len(cc.window):
            return "impossible denominator"
    return None


def _ranked(claim: GoldClaim, gold: GoldTarget, cc: ClaimContext) -> str | None:
    b, v, p = claim.basis, claim.basis.values, claim.basis.params
    pos = {"ranked_first": 0, "ranked_second": 1, "ranked_last": -1}[b.check]
    ranking = gold.preferred_ranking
    if len(ranking) <= max(pos, 0) or ranking[pos] != p.get("object"):
        return f"{p.get('object')} is not at that position of the gold ranking"
    if "momentum" in v and round(gold.numbers.get(f"momentum:{p.get('object')}", -1.0), 2) != v["momentum"]:
        return "stated momentum differs from the gold's"
    if "n" in v and b.paper_ids and v["n"] != len(set(b.paper_ids)):
        return "stated count differs from the papers listed"
    return None


def _trajectory(claim: GoldClaim, gold: GoldTarget, cc: ClaimContext) -> str | None:
    return None if claim.basis.values.get("label") == gold.trajectory else "trajectory differs from the gold's"


def _insufficient(claim: GoldClaim, gold: GoldTarget, cc: ClaimContext) -> str | None:
    return None if gold.strength == 0 else "says insufficient, but the gold has strength"


def _terms_in_papers(claim: GoldClaim, gold: GoldTarget, cc: ClaimContext) -> str | None:
    b = claim.basis
    texts = [f"{cc.window[i].title} {cc.window[i].abstract}".lower() for i in b.paper_ids if i in cc.window]
    missing = [t for t in str(b.values.get("terms", "")).split(" | ") if t and not any(t.lower() in x for x in texts)]
    return None if texts and not missing else f"terms not in the listed papers: {missing[:3]}"


# The shared checks (the module docstring); a family adds its own with `TaskFamily.claim_checks`
# (rediscovery: quote_in_paper, phase: quote_in_window), and ClaimContext merges them.
SHARED_CHECKS: dict[str, ClaimCheck] = {
    "signal_papers": _signal_papers,
    "signal_stats": _signal_stats,
    "signal_detail": _signal_detail,
    "recent_share": _recent_share,
    "window_share": _window_count,
    "window_count": _window_count,
    "ranked_first": _ranked,
    "ranked_second": _ranked,
    "ranked_last": _ranked,
    "trajectory": _trajectory,
    "insufficient": _insufficient,
    "terms_in_papers": _terms_in_papers,
}


def claim_checks(families=None) -> dict[str, ClaimCheck]:
    """The shared checks plus every (registered, or given) family's own; a family may not
    redefine a shared check or another family's."""
    out = dict(SHARED_CHECKS)
    for family in all_families() if families is None else families:
        for name, fn in family.claim_checks.items():
            if name in out and out[name] is not fn:
                raise ValueError(f"claim check {name!r} of family {family.name} is already defined")
            out[name] = fn
    return out


def check_claim(claim: GoldClaim, gold: GoldTarget, cc: ClaimContext) -> str | None:
    """None if the claim recomputes, else why not."""
    b = claim.basis
    if b is None:
        return "no basis: not recomputable"
    bad = [i for i in b.paper_ids if i not in cc.public and i not in cc.window]
    if bad:  # a truncated or invented id is not a paper of the partition
        return f"ids that are not papers of the partition: {bad[:3]}"
    for key, value in b.values.items():
        if key in ("n", "total", "momentum", "label", "item", "n_papers", "share_close") and not _num_in_text(value, claim.text):
            return f"text does not state {key}={value}"
    check = cc.checks.get(b.check)
    return check(claim, gold, cc) if check is not None else f"unknown check {b.check!r}"


def contradictions(gold: GoldTarget) -> list[str]:
    """Claims of one gold that name different objects for the same position or trajectory."""
    seen: dict[str, str] = {}
    out = []
    for c in gold.claims:
        if c.basis is None:
            continue
        key = {"ranked_first": "first", "ranked_second": "second", "ranked_last": "last", "trajectory": "trajectory"}.get(
            c.basis.check
        )
        if key is None:
            continue
        what = str(c.basis.values.get("label") if key == "trajectory" else c.basis.params.get("object"))
        if key in seen and seen[key] != what:
            out.append(f"{c.claim_id}: {key} is {what}, another claim says {seen[key]}")
        seen.setdefault(key, what)
    return out


def verify_golds(golds: list[GoldTarget], cc: ClaimContext) -> list[str]:
    """Recompute every claim; record `numbers["claims_verified"]` per gold; return the problems."""
    problems = []
    for gold in golds:
        bad = contradictions(gold)
        ok = 0
        for claim in gold.claims:
            why = check_claim(claim, gold, cc)
            if why is None and not any(b.startswith(claim.claim_id) for b in bad):
                ok += 1
            elif why is not None:
                problems.append(f"{claim.claim_id}: {why}")
        problems += bad
        gold.numbers["claims_verified"] = float(ok)
    return problems

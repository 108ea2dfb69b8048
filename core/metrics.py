"""Deterministic scoring formulas of the ForeSci evaluation protocol (paper Appendix C.1).

Everything here is a pure function over already-judged labels, vectors or id lists: the
LLM judges and the embedding model live elsewhere and hand their outputs to these
functions. Equation numbers refer to ForeSci Appendix C.1.

Conventions that the paper leaves open (also listed in the module docs):

* Prediction Factuality: an answer with no extracted claims has precision 0.0 (it supports
  nothing); an empty hidden claim bank makes recall and F1 undefined (None).
* Reference-guided FTA: no claims -> 0.0; no target slots -> score None; a slot with no
  variants scores 0.0.
* Ranking FTA: duplicate items are dropped (first occurrence kept); a pair involving a
  missing item is not preserved; a list of fewer than two items has no pairs, so its pair
  term falls back to the top-item check.
* Traceability: None (not applicable, "–" in tables) without a support artifact.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from datetime import date, datetime

import numpy as np

from core.statistics import N_RESAMPLES, mean_ci

# Answer-claim support score phi_i (eq. 3): "not checkable" earns nothing, like "unsupported".
PHI: dict[str, float] = {
    "supported": 1.0,
    "partially_supported": 0.5,
    "unsupported": 0.0,
    "not_checkable": 0.0,
}

# Hidden-claim coverage score psi_j (eq. 4).
PSI: dict[str, float] = {
    "covered": 1.0,
    "partially_covered": 0.5,
    "not_covered": 0.0,
}

# Weights of eq. 12.
TRACE_WEIGHTS: dict[str, float] = {"linkage": 0.50, "specificity": 0.25, "internal": 0.25}


# --------------------------------------------------------------------------------------
# Prediction Factuality (eqs. 3-5)
# --------------------------------------------------------------------------------------


def _normalise_label(label: str) -> str:
    """'Partially supported' / 'partially-supported' -> 'partially_supported'."""
    return label.strip().lower().replace("-", "_").replace(" ", "_")


def _scores_from_labels(labels: Iterable[str], table: Mapping[str, float], what: str) -> list[float]:
    out = []
    for label in labels:
        key = _normalise_label(label)
        if key not in table:
            raise ValueError(f"unknown {what} label {label!r}; expected one of {sorted(table)}")
        out.append(table[key])
    return out


def claim_precision(phis: Sequence[float]) -> float | None:
    """Claim precision, eq. 3: Prec(a) = (1/m) * sum_i phi_i.

    `phis` are the per-answer-claim support scores (see `PHI`). An answer with no claims
    (m = 0) supports nothing, so its precision is 0.0 rather than undefined.
    """
    if len(phis) == 0:
        return 0.0
    return float(sum(phis)) / len(phis)


def claim_recall(psis: Sequence[float]) -> float | None:
    """Claim recall, eq. 4: Rec(a) = (1/n) * sum_j psi_j.

    `psis` are the per-hidden-claim coverage scores (see `PSI`). With an empty hidden claim
    bank (n = 0) there is nothing to cover and recall is undefined: None.
    """
    if len(psis) == 0:
        return None
    return float(sum(psis)) / len(psis)


def f1(p: float | None, r: float | None) -> float | None:
    """Harmonic mean, eq. 5 (also eq. 11): 2PR / (P + R).

    None if either input is None; 0.0 when P + R == 0 (the formula's 0/0 case).
    """
    if p is None or r is None:
        return None
    if p + r == 0:
        return 0.0
    return 2.0 * p * r / (p + r)


def prediction_factuality(phi_labels: Sequence[str], psi_labels: Sequence[str]) -> dict[str, float | None]:
    """Prediction Factuality, eqs. 3-5, from the verifier's labels.

    `phi_labels` hold one label per extracted answer claim (keys of `PHI`), `psi_labels` one
    per hidden claim-bank entry (keys of `PSI`). Labels are matched case-insensitively with
    spaces/hyphens read as underscores; an unknown label raises ValueError.
    Returns {"precision", "recall", "f1"}; the reported metric is "f1".
    """
    p = claim_precision(_scores_from_labels(phi_labels, PHI, "claim support"))
    r = claim_recall(_scores_from_labels(psi_labels, PSI, "claim coverage"))
    return {"precision": p, "recall": r, "f1": f1(p, r)}


# --------------------------------------------------------------------------------------
# Future-Target Alignment, reference-guided (eqs. 6-7)
# --------------------------------------------------------------------------------------


def _unit_rows(x: np.ndarray) -> np.ndarray:
    """Row-normalise; all-zero rows stay zero (their cosine with anything is taken as 0)."""
    norms = np.linalg.norm(x, axis=1, keepdims=True)
    return np.divide(x, norms, out=np.zeros_like(x), where=norms > 0)


def fta_reference_guided(claim_vecs: np.ndarray, slot_variant_vecs: Sequence[np.ndarray]) -> dict:
    """Reference-guided FTA, eqs. 6-7.

    s(c, t) = max(0, cos(e(c), e(t)));  S_j = max over claims i and variants t in V_j of
    s(c_i, t) (eq. 6);  FTA_RG = (1/n) * sum_j S_j (eq. 7). No cap, no F1.

    `claim_vecs` is an (m, d) array of claim embeddings; `slot_variant_vecs[j]` is a
    (v_j, d) array of the variant embeddings of slot j. Vectors need not be normalised.
    Returns {"score": float | None, "slot_scores": list[float]}:
    no claims -> score 0.0 with every slot 0.0; no slots -> score None (undefined);
    a slot with no variants cannot be matched and scores 0.0.
    """
    n = len(slot_variant_vecs)
    if n == 0:
        return {"score": None, "slot_scores": []}
    claims = np.asarray(claim_vecs, dtype=float)
    if claims.size == 0:
        return {"score": 0.0, "slot_scores": [0.0] * n}
    if claims.ndim != 2:
        raise ValueError(f"claim_vecs must be 2-D (m, d), got shape {claims.shape}")
    claims = _unit_rows(claims)

    slot_scores: list[float] = []
    for j, variants in enumerate(slot_variant_vecs):
        v = np.asarray(variants, dtype=float)
        if v.size == 0:
            slot_scores.append(0.0)
            continue
        if v.ndim == 1:  # a single variant given as a flat vector
            v = v[None, :]
        if v.shape[1] != claims.shape[1]:
            raise ValueError(f"slot {j}: dimension {v.shape[1]} != claim dimension {claims.shape[1]}")
        cos = claims @ _unit_rows(v).T  # (m, v_j)
        # clip the upper end too: float round-off can give 1.0000000002 for identical vectors
        slot_scores.append(float(np.clip(cos, 0.0, 1.0).max()))
    return {"score": float(sum(slot_scores) / n), "slot_scores": slot_scores}


# --------------------------------------------------------------------------------------
# Future-Target Alignment, ranking (eqs. 8-11)
# --------------------------------------------------------------------------------------


def _dedupe(items: Iterable[str]) -> list[str]:
    seen: set[str] = set()
    out = []
    for it in items:
        if it not in seen:
            seen.add(it)
            out.append(it)
    return out


def _ranking_components(ref: list[str], other: list[str]) -> dict[str, float]:
    """Top / position / pair components of `ref` judged against `other` (eqs. 8-10).

    With ref = pi* and other = pi_hat this is the recall-style score of the paper; with the
    arguments swapped it is the symmetric precision-style score. Both lists are non-empty
    and duplicate-free.
    """
    pos_in_other = {item: k for k, item in enumerate(other)}

    # eq. 8: the top items agree (symmetric in the two lists)
    top = 1.0 if ref[0] == other[0] else 0.0

    # eq. 9: s_k = 1 same position, 0.5 present elsewhere, 0 missing; mean over ref
    s = []
    for k, item in enumerate(ref):
        if item not in pos_in_other:
            s.append(0.0)
        elif pos_in_other[item] == k:
            s.append(1.0)
        else:
            s.append(0.5)
    pos = sum(s) / len(ref)

    # eq. 10: share of ref's ordered pairs (i < j) kept in order by `other`; a pair with a
    # missing item cannot be "in order", so it counts as not preserved
    k_len = len(ref)
    if k_len < 2:
        # no pairs exist (the eq. 10 normaliser 2/(K(K-1)) is undefined): fall back to the
        # top-item check so a one-item list is not given a free 1.0 or a free 0.0
        pair = top
    else:
        kept = 0
        for i in range(k_len):
            for j in range(i + 1, k_len):
                a, b = ref[i], ref[j]
                if a in pos_in_other and b in pos_in_other and pos_in_other[a] < pos_in_other[b]:
                    kept += 1
        pair = kept / (k_len * (k_len - 1) / 2)

    return {"top": top, "pos": pos, "pair": pair, "score": (top + pos + pair) / 3.0}


def fta_ranking(preferred: Sequence[str], inferred: Sequence[str]) -> dict[str, float | None]:
    """Ranking-aware FTA, eqs. 8-11.

    Recall-style R = mean(S_top, S_pos, S_pair) over the hidden preferred ranking
    pi* = (r_1..r_K) (eqs. 8-10): S_top = I[pi_hat_1 = r_1]; S_pos = mean_k s_k with s_k = 1
    if r_k is at position k of pi_hat, 0.5 if elsewhere in pi_hat, 0 if missing;
    S_pair = share of pairs i < j with r_i before r_j in pi_hat (a missing item breaks the
    pair). Precision-style P applies the same three checks to the inferred ranking relative
    to pi* (positions and pairs of pi_hat, averaged over len(pi_hat)).
    FTA_rank = 2PR / (P + R) (eq. 11).

    Conventions: both lists are de-duplicated keeping the first occurrence; for a list with
    fewer than two items S_pair equals S_top (there are no pairs); an empty inferred
    ranking scores 0 everywhere; an empty preferred ranking leaves everything None.
    Returns {"precision", "recall", "f1", "top", "pos", "pair"} (the last three are the
    recall-style components) plus "precision_top", "precision_pos", "precision_pair".
    """
    ref = _dedupe(preferred)
    hat = _dedupe(inferred)
    keys = ("precision", "recall", "f1", "top", "pos", "pair", "precision_top", "precision_pos", "precision_pair")
    if not ref:
        return {k: None for k in keys}
    if not hat:
        return {k: 0.0 for k in keys}
    rec = _ranking_components(ref, hat)
    prec = _ranking_components(hat, ref)
    return {
        "precision": prec["score"],
        "recall": rec["score"],
        "f1": f1(prec["score"], rec["score"]),
        "top": rec["top"],
        "pos": rec["pos"],
        "pair": rec["pair"],
        "precision_top": prec["top"],
        "precision_pos": prec["pos"],
        "precision_pair": prec["pair"],
    }


# --------------------------------------------------------------------------------------
# Evidence Traceability (eq. 12)
# --------------------------------------------------------------------------------------


def trace_score(
    e: float | None,
    s: float | None,
    t: float | None,
    *,
    has_support_artifact: bool = True,
) -> float | None:
    """Evidence Traceability, eq. 12: Trace = 0.50 e + 0.25 s + 0.25 t.

    e = external evidence linkage, s = support specificity, t = answer-internal trace, each
    in [0, 1]. Without an attached support artifact the metric is not applicable (None,
    shown as "–" in tables); a missing component also gives None.
    """
    if not has_support_artifact:
        return None
    if e is None or s is None or t is None:
        return None
    for name, v in (("e", e), ("s", s), ("t", t)):
        if not 0.0 <= v <= 1.0:
            raise ValueError(f"trace component {name}={v} is outside [0, 1]")
    w = TRACE_WEIGHTS
    return w["linkage"] * e + w["specificity"] * s + w["internal"] * t


def _as_date(d: date) -> date:
    # datetime is a subclass of date but cannot be compared with a plain date
    return d.date() if isinstance(d, datetime) else d


def _clean_ids(cited_ids: Iterable[str]) -> list[str]:
    return _dedupe(c.strip() for c in cited_ids if c and c.strip())


def trace_linkage(
    cited_ids: Sequence[str],
    support_ids: set[str],
    kb_dates: Mapping[str, date],
    cutoff: date,
) -> float | None:
    """Deterministic external evidence linkage e(a), an input to eq. 12.

    Share of the distinct cited ids that resolve to admissible evidence: the id is in the
    knowledge base (`kb_dates`) with a date <= `cutoff`, or it is in the task's support
    packet and has no known date. A support-packet id whose KB date is after the cutoff
    still counts as a leak (0). An answer that cites nothing scores 0.0. (Applicability,
    i.e. "no support artifact -> None", is decided by the caller via `trace_score`.)
    """
    cited = _clean_ids(cited_ids)
    if not cited:
        return 0.0
    cutoff = _as_date(cutoff)
    ok = 0
    for cid in cited:
        if cid in kb_dates:
            ok += _as_date(kb_dates[cid]) <= cutoff
        elif cid in support_ids:
            ok += 1  # the support packet is built from pre-cutoff material only
    return ok / len(cited)


SUPPORT_OVERLAP = 0.5  # share of a decision text's content words a cited passage must contain
TRAJECTORY_WORDS = frozenset({"accelerating", "fragmenting", "steady", "cooling"})


def supported_share(decision: Sequence[str], passages: Sequence[str]) -> float | None:
    """Evidence linkage that measures support (offline): the share of the answer's decision
    texts entailed, by a documented lexical test, by at least one cited pre-cutoff passage.

    A decision text is supported when some passage (title + snippet of a cited paper that
    is admissible: in the KB and dated <= the cutoff) contains at least SUPPORT_OVERLAP of
    its content words (stop words, template scaffolding and trajectory labels removed; a
    hyphenated or plural form counts). No decision -> None; no admissible passage -> 0.0.
    """
    from core.text import SCAFFOLD_WORDS, content_tokens

    texts = [t for t in decision if t and t.strip()]
    if not texts:
        return None
    bags = [_stem_set(content_tokens(p)) for p in passages if p and p.strip()]
    if not bags:
        return 0.0
    ok = 0
    for text in texts:
        words = _stem_set(w for w in content_tokens(text) if w not in SCAFFOLD_WORDS and w not in TRAJECTORY_WORDS)
        if not words:
            continue
        ok += any(len(words & bag) / len(words) >= SUPPORT_OVERLAP for bag in bags)
    return ok / len(texts)


def _stem_set(words: Iterable[str]) -> set[str]:
    out = set()
    for w in words:
        for part in w.split("-"):
            if len(part) > 2:
                out.add(part[:-1] if len(part) > 4 and part.endswith("s") else part)
    return out


def post_cutoff_citations(cited_ids: Sequence[str], kb_dates: Mapping[str, date], cutoff: date) -> list[str]:
    """Cited ids dated after `cutoff`, or with no known date (not in `kb_dates`).

    For leakage auditing; distinct ids in first-citation order. Callers that want support
    packet ids to pass should include their dates in `kb_dates`.
    """
    cutoff = _as_date(cutoff)
    return [c for c in _clean_ids(cited_ids) if c not in kb_dates or _as_date(kb_dates[c]) > cutoff]


# --------------------------------------------------------------------------------------
# Aggregation
# --------------------------------------------------------------------------------------


def bootstrap_ci(
    values: Iterable[float | None],
    n_boot: int = N_RESAMPLES,
    alpha: float = 0.05,
    seed: int = 0,
) -> tuple[float | None, float | None, float | None]:
    """Mean with a (1 - alpha) bootstrap confidence interval: `scipy.stats.bootstrap` (BCa,
    percentile when BCa is degenerate) through `core.statistics.mean_ci`.

    None (and NaN) values are dropped first (e.g. Traceability of non-grounded methods).
    Returns (mean, lo, hi); (None, None, None) when no values remain and (mean, None, None)
    for a single value (one task has no interval).
    """
    return mean_ci(values, confidence=1 - alpha, n_resamples=n_boot, seed=seed).as_tuple()


def swap_verdict(first: str, second: str) -> str:
    """Combine the verdicts of the two presentation orders (position swap).

    `first` is the verdict with A shown first, `second` with B shown first, both already
    mapped back to 'a' / 'b' / 'tie'. Agreeing verdicts stand; disagreeing ones are a tie.
    """
    return first if first == second else "tie"

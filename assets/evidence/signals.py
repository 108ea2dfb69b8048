"""High-order signals from node evidence records (ForeSci §3.3 (1)-(5), Appendix B.3-B.5).

Kinds, each derived by a documented rule so a reviewer can recompute it:

* candidate_direction: directions defined by a title phrase and recognisable by content
  (rule in `assets.evidence.candidates`), placed at a taxonomy node, with volume-normalised
  momentum numbers of their papers (share of the domain's monthly volume, recent vs prior, slope).
* method_development: parent -> child (and cross-dimension) relations labelled
  extension / adaptation / replacement / competition / component_reuse from growth
  and keyword/paper overlap (rule in `relation_for`).
* bottleneck: limitations stated in pre-cutoff abstracts, each defined and named by the
  noun phrase the papers name as the limitation (rule in `assets.evidence.bottlenecks`),
  with verbatim quotes and their paper ids; recurrence = number of distinct papers.
* feasibility: one note per candidate direction (support, maturity, the candidates it shares
  papers with, risks).
* approach: the alternatives a team weighs for one role of a plan (the reward signal, the
  adapter ...), from the shipped role catalog, offered where the partition's pre-cutoff papers
  build on them (rule in `assets.evidence.approaches`).
* venue_profile: from `assets.evidence.venues` when venue lists are passed in.

Coverage of the corpus is uneven over time, so every volume number is a *share* of
the domain's monthly volume (`monthly_volume`), never a raw count. That dict must count
the same population the taxonomy was built from (the cutoff-visible screened papers).
Every signal carries `evidence_ids` (record ids) and `paper_ids` (cutoff-visible papers
of those records), so it traces back to sources. No Dagster here.


Length (over ~500 lines on purpose): the research signals' rules (momentum, volume normalisation,
candidate directions, their evidence) share the corpus-volume normalisation and are documented
together with their constants."""

from __future__ import annotations

from collections import Counter, defaultdict
from datetime import date

import numpy as np

from assets.corpus.logic import paper_text
from assets.evidence.approaches import exemplars, load_roles, offered_members
from assets.evidence.bottlenecks import limitation_themes
from assets.evidence.candidates import RECENT_MONTHS, containment, gloss, phrase_candidates
from assets.evidence.kinds import direction_kind, usage_cues
from assets.evidence.llm_mode import classify_relations_llm, name_bottlenecks_llm
from assets.evidence.shares import (
    momentum,
    months_between,
    parse_slice,
    quarterly_shares,
    slice_growth,
    slice_shares,
)
from assets.evidence.venues import build_venue_profiles
from core.phrases import normal_text, stems
from core.records import EvidenceRecord, Failure, ScreenedPaper, Signal, TaxonomyNode
from core.registry import load_registry
from core.text import content_tokens, distinctive_title_phrases, title_phrases

# ----------------------------------------------------------------------------- helpers


def node_terms(node: TaxonomyNode) -> set[str]:
    """Keyword and label tokens of a node, for overlap tests between nodes."""
    terms = set(content_tokens(node.label))
    for kw in node.keywords:
        terms |= set(content_tokens(kw))
    return terms


def _record_paper_ids(record: EvidenceRecord | None) -> list[str]:
    return [] if record is None else record.representative_ids + record.supporting_ids


def _check_dates(ids: list[str], dates: dict[str, date], cutoff: date) -> list[str]:
    late = [pid for pid in ids if pid in dates and dates[pid] > cutoff]
    if late:
        raise ValueError(f"temporal integrity: signal papers after cutoff {cutoff}: {late[:5]}")
    return [pid for pid in ids if pid in dates]


def _registry_title(domain: str) -> str:
    """The registry title of a domain ("" for a domain the registry does not know)."""
    try:
        spec = load_registry().domains.get(domain)
    except Exception:  # noqa: BLE001 - a missing or broken registry only loses the domain words
        return ""
    return spec.title if spec else ""


# ----------------------------------------------------------------------------- candidates

MIN_MEMBER_SHARE = 0.002  # a candidate's phrase is in >= 0.2% of the domain's titles (and >= min_support)
KEYWORD_PHRASES = 5
REPRESENTATIVE_TITLES = 3  # pre-cutoff titles shown with a candidate (its most central members)
EVIDENCE_PAPERS = 25  # a candidate's evidence papers: its most central members in evidence records


def node_stats(
    nodes: list[TaxonomyNode], papers: list[ScreenedPaper], cutoff: date, monthly_volume: dict[str, int]
) -> dict[str, dict[str, float]]:
    """Momentum, size and age of every node (cutoff-visible papers only)."""
    dates = {p.arxiv_id: p.published for p in papers if p.published <= cutoff}
    out: dict[str, dict[str, float]] = {}
    for node in nodes:
        node_dates = [dates[pid] for pid in node.paper_ids if pid in dates]
        stats = momentum(node_dates, monthly_volume, cutoff)
        start = parse_slice(node.created_slice) or (min(node_dates) if node_dates else cutoff)
        stats["n_papers"] = float(len(node_dates))
        stats["age_months"] = float(months_between(start, cutoff))
        stats["level"] = float(node.level)
        out[node.node_id] = stats
    return out


# ----------------------------------------------------------------------------- method development


def relation_for(
    child: TaxonomyNode,
    parent: TaxonomyNode,
    stats: dict[str, dict[str, float]],
    siblings: list[TaxonomyNode],
) -> tuple[str, str]:
    """Relation label of a parent -> child change, and the rule that fired.

    1. the child grows (growth >= 1.2) while a sibling shrinks (growth <= 0.8 with
       prior papers): `replacement` if the child appeared after that sibling, else
       `competition` (two branches of the same parent pulling apart);
    2. otherwise, child shares label/keyword terms with the parent: `extension`
       (the parent's line refined or extended);
    3. otherwise `adaptation` (the parent's approach carried to a new setting).
    Cross-dimension `component_reuse` is decided in `cross_dimension_pairs`.
    """
    c = stats[child.node_id]
    if c["growth"] >= 1.2:
        shrinking = [s for s in siblings if stats[s.node_id]["n_prior"] > 0 and stats[s.node_id]["growth"] <= 0.8]
        if shrinking:
            s = sorted(shrinking, key=lambda s: (stats[s.node_id]["growth"], s.node_id))[0]
            c_start, s_start = parse_slice(child.created_slice), parse_slice(s.created_slice)
            later = c_start is not None and s_start is not None and c_start > s_start
            rel = "replacement" if later else "competition"
            return rel, (
                f"child growth {c['growth']:.2f} >= 1.2 while sibling {s.node_id} shrinks "
                f"(growth {stats[s.node_id]['growth']:.2f} <= 0.8)" + ("; child appeared later" if later else "")
            )
    overlap = sorted(node_terms(child) & node_terms(parent))
    if overlap:
        return "extension", f"child shares terms with parent: {', '.join(overlap[:5])}"
    return "adaptation", "child shares no label/keyword term with parent"


def development_pairs(
    nodes: list[TaxonomyNode], stats: dict[str, dict[str, float]]
) -> list[tuple[TaxonomyNode, TaxonomyNode, str, str]]:
    """(parent, child, relation, rule) for children that emerged later or grew faster.

    Parents must be level >= 1 (a dimension root is not a method); when the taxonomy is
    only one level deep, root children are compared with their siblings instead (the
    root becomes the "parent" but only replacement/competition is meaningful there).
    """
    by_id = {n.node_id: n for n in nodes}
    kids: dict[str, list[TaxonomyNode]] = defaultdict(list)
    for n in nodes:
        if n.parent_id in by_id:
            kids[n.parent_id].append(n)
    out = []
    for parent_id in sorted(kids):
        parent = by_id[parent_id]
        for child in sorted(kids[parent_id], key=lambda n: n.node_id):
            c, p = stats[child.node_id], stats[parent.node_id]
            if c["n_papers"] < 2:
                continue
            p_start, c_start = parse_slice(parent.created_slice), parse_slice(child.created_slice)
            emerged_later = p_start is not None and c_start is not None and c_start > p_start
            grew_faster = c["growth"] > p["growth"]
            if not (emerged_later or grew_faster):
                continue
            siblings = [s for s in kids[parent_id] if s.node_id != child.node_id]
            relation, rule = relation_for(child, parent, stats, siblings)
            if parent.level == 0 and relation not in ("replacement", "competition"):
                continue
            out.append((parent, child, relation, rule))
    return out


def cross_dimension_pairs(
    nodes: list[TaxonomyNode], stats: dict[str, dict[str, float]], *, min_overlap: float = 0.3, min_shared: int = 3
) -> list[tuple[TaxonomyNode, TaxonomyNode, str, str]]:
    """component_reuse: nodes of different dimensions sharing papers, the target growing.

    Overlap coefficient |A & B| / min(|A|, |B|) >= `min_overlap` with >= `min_shared`
    shared papers; "from" is the older node (earlier created_slice, then larger), "to"
    the other, kept when "to" grows (growth > 1).
    """
    level1 = [n for n in nodes if n.level >= 1]
    sets = {n.node_id: set(n.paper_ids) for n in level1}
    out = []
    for i, a in enumerate(level1):
        for b in level1[i + 1 :]:
            if a.dimension == b.dimension:
                continue
            shared = len(sets[a.node_id] & sets[b.node_id])
            small = min(len(sets[a.node_id]), len(sets[b.node_id]))
            if shared < min_shared or not small or shared / small < min_overlap:
                continue
            src, dst = sorted([a, b], key=lambda n: (parse_slice(n.created_slice) or date.max, -len(sets[n.node_id]), n.node_id))
            if stats[dst.node_id]["growth"] <= 1.0:
                continue
            out.append(
                (
                    src,
                    dst,
                    "component_reuse",
                    f"{shared} shared papers (overlap {shared / small:.2f}) across dimensions "
                    f"{src.dimension} -> {dst.dimension}; target growth {stats[dst.node_id]['growth']:.2f} > 1",
                )
            )
    return out


# ----------------------------------------------------------------------------- assembly


def build_signals(
    nodes: list[TaxonomyNode],
    records: list[EvidenceRecord],
    papers: list[ScreenedPaper],
    cutoff: date,
    monthly_volume: dict[str, int],
    embed,
    *,
    domain: str,
    min_support: int = 8,
    max_candidates: int = 60,
    max_development: int = 40,
    max_bottlenecks: int = 80,
    min_theme_papers: int = 3,
    venue_papers=None,
    llm_client=None,
    failures: list | None = None,
    domain_title: str = "",
) -> list[Signal]:
    """All high-order signals of one domain at one cutoff, in a deterministic order.

    `papers` are the screened papers (at least every paper the nodes reference); only
    those dated <= cutoff are used. `venue_papers` (from `venues.load_venue_lists`)
    adds the venue_profile signals; without it none are produced.

    LLM mode (an online `llm_client`): the model re-classifies each method-development
    relation (given the rule's answer and the numbers) and names and categorises each
    bottleneck theme from its verbatim quotes, in batches; the rule's answer is kept in
    `details` ("rule_relation", "rule_category") and is used whenever a call fails
    (a `Failure` row is appended to `failures` when given). Everything else is computed.
    `domain_title` (the registry title; looked up from `domain` when empty) gives the
    domain's own words, which never name a bottleneck; a bottleneck theme is stated by >=
    `min_theme_papers` distinct papers.
    """
    failures = [] if failures is None else failures
    use_llm = llm_client is not None and not getattr(llm_client, "offline", True)
    public = [p for p in papers if p.published <= cutoff]
    dates = {p.arxiv_id: p.published for p in public}
    by_paper = {p.arxiv_id: p for p in public}
    rec_by_node = {r.node_id: r for r in records}
    stats = node_stats(nodes, public, cutoff, monthly_volume)
    signals: list[Signal] = []

    def evidence_of(node_ids: list[str]) -> tuple[list[str], list[str]]:
        ev = [rec_by_node[n].record_id for n in node_ids if n in rec_by_node]
        pids: list[str] = []
        for n in node_ids:
            for pid in _record_paper_ids(rec_by_node.get(n)):
                if pid not in pids:
                    pids.append(pid)
        return ev, _check_dates(pids, dates, cutoff)

    # (1) candidate directions: phrase-defined (assets.evidence.candidates)
    usable = sorted((p for p in public if p.label != "excluded"), key=lambda p: p.arxiv_id)
    vectors = np.asarray(embed([paper_text(p) for p in usable]), dtype=np.float32) if usable else np.zeros((0, 1))
    min_members = max(min_support, round(MIN_MEMBER_SHARE * len(usable)))
    rejected: list[tuple[str, str]] = []
    found = phrase_candidates(
        usable, vectors, nodes, min_members=min_members, max_candidates=max_candidates, cutoff=cutoff, rejected=rejected
    )
    for name, why in rejected:
        failures.append(
            Failure(
                stage="research_signals", item_id=f"phrase:{name}", reason=f"curation: candidate phrase {name!r} not used: {why}"
            )
        )
    all_phrases = [title_phrases(p.title) for p in usable]
    phrase_df = Counter(ph for phs in all_phrases for ph in phs)
    row_of = {p.arxiv_id: i for i, p in enumerate(usable)}
    candidate_signals: list[tuple[Signal, TaxonomyNode]] = []
    centroids: list[np.ndarray] = []
    record_of: dict[str, str] = {}
    for r in sorted(records, key=lambda r: r.record_id):
        for pid in _record_paper_ids(r):
            record_of.setdefault(pid, r.record_id)
    # each candidate's kind (method, task, data, goal, modality, problem; assets.evidence.kinds):
    # the lexicon, else how the corpus uses the name (method cue vs task cue)
    normal_all = [normal_text(f"{p.title}. {p.abstract or ''}") for p in usable] if found else []
    for c in found:
        node_record = rec_by_node.get(c.node.node_id)
        in_node_record = set(_record_paper_ids(node_record))
        member_dates = [dates[pid] for pid in c.members]
        s = momentum(member_dates, monthly_volume, cutoff)
        own = [all_phrases[row_of[pid]] for pid in c.members]
        keywords = [k for k in distinctive_title_phrases(own, phrase_df, len(usable)) if not stems(k) & stems(c.display)][
            :KEYWORD_PHRASES
        ]
        # evidence: the most central members that an evidence record holds (the node's record first)
        evidence_papers = [pid for pid in c.central_ids if pid in record_of][:EVIDENCE_PAPERS]
        if not evidence_papers:
            continue
        rep_titles = [by_paper[pid].title for pid in c.central_ids[:REPRESENTATIVE_TITLES]]
        gloss_text, gloss_id = gloss(c.phrase, [by_paper[pid] for pid in c.central_ids])
        ev = list(dict.fromkeys(node_record.record_id if pid in in_node_record else record_of[pid] for pid in evidence_papers))
        cues = usage_cues(c.phrase, normal_all)
        kind, kind_why = direction_kind(c.display, cues)
        sig = Signal(
            signal_id=f"sig:candidate_direction:{len(candidate_signals):03d}",
            kind="candidate_direction",
            domain=domain,
            cutoff=cutoff,
            title=c.display,
            node_ids=[c.node.node_id],
            evidence_ids=ev,
            summary=(
                f'{len(c.members)} cutoff-visible papers whose titles name "{c.display}" '
                f"({c.n_recent} in the {RECENT_MONTHS} months before the cutoff; recognisable by content, "
                f'F1 {c.recognisability:.2f}); e.g. "{rep_titles[0]}".'
            ),
            paper_ids=_check_dates(evidence_papers, dates, cutoff),
            stats=s
            | {
                "n_papers": float(len(c.members)),
                "n_members": float(len(c.members)),
                "n_recent_members": float(c.n_recent),
                "emerging": float(c.emerging),
                "age_months": float(months_between(min(member_dates), cutoff)),
                "level": float(c.node.level),
                "recognisability": c.recognisability,
            },
            details={
                "keywords": keywords,
                "representative_titles": rep_titles,
                "representative_ids": c.central_ids[:REPRESENTATIVE_TITLES],
                "dimension": [c.node.dimension],
                "node_label": [c.node.label],
                "defining_phrases": [c.phrase],
                "member_ids": c.members,
                "gloss": [gloss_text] if gloss_text else [],
                "gloss_paper": [gloss_id] if gloss_id else [],
                "kind": [kind],
                "kind_why": [kind_why],
                "kind_cues": [f"{k}={v:g}" for k, v in cues.items()],
            },
        )
        signals.append(sig)
        candidate_signals.append((sig, c.node))
        centroids.append(c.centroid)
    # how close every two candidates' papers are (cosine of their centred centroids): the task
    # builder draws one task's options from one subfield of close candidates
    if centroids:
        C = np.stack(centroids)
        sims = C @ C.T
        for i, (sig, _) in enumerate(candidate_signals):
            sig.details["neighbour_cos"] = [
                f"{other.signal_id}={sims[i, j]:.4f}" for j, (other, _) in enumerate(candidate_signals) if j != i
            ]
        # how much of each candidate's papers name each other one (title or abstract): the builder's
        # level rule keeps an umbrella and a direction under it out of one task (assets.toolbox.option_level)
        kept = {sig.details["defining_phrases"][0] for sig, _ in candidate_signals}
        shown = [c for c in found if c.phrase in kept]
        share = containment(shown, usable)
        for i, (sig, _) in enumerate(candidate_signals):
            sig.details["containment"] = [
                f"{other.signal_id}={share[i][j]:.4f}" for j, (other, _) in enumerate(candidate_signals) if j != i
            ]

    # (2) method development
    pairs = development_pairs(nodes, stats) + cross_dimension_pairs(nodes, stats)
    pairs = [(a, b, rel, rule) for a, b, rel, rule in pairs if b.node_id in rec_by_node]
    pairs.sort(key=lambda t: (-stats[t[1].node_id]["growth"], -stats[t[1].node_id]["n_papers"], t[0].node_id, t[1].node_id))
    pairs = pairs[:max_development]
    llm_rel: dict = {}
    if use_llm and pairs:
        items = [
            {
                "key": f"R{i}",
                "rule_relation": rel,
                "from": {
                    "label": a.label,
                    "dimension": a.dimension,
                    "keywords": a.keywords[:6],
                    "growth": stats[a.node_id]["growth"],
                    "created": a.created_slice,
                },
                "to": {
                    "label": b.label,
                    "dimension": b.dimension,
                    "keywords": b.keywords[:6],
                    "growth": stats[b.node_id]["growth"],
                    "created": b.created_slice,
                },
            }
            for i, (a, b, rel, _) in enumerate(pairs)
        ]
        llm_rel = classify_relations_llm(items, llm_client, failures=failures)
    for i, (src, dst, rule_relation, rule) in enumerate(pairs):
        answer = llm_rel.get(f"R{i}")
        relation = answer.relation if answer else rule_relation
        ev, pids = evidence_of([dst.node_id, src.node_id])
        dst_dates = [dates[p] for p in dst.paper_ids if p in dates]
        src_dates = [dates[p] for p in src.paper_ids if p in dates]
        series_dst = quarterly_shares(dst_dates, monthly_volume, cutoff)
        series_src = quarterly_shares(src_dates, monthly_volume, cutoff)
        st = {
            "child_growth": stats[dst.node_id]["growth"],
            "parent_growth": stats[src.node_id]["growth"],
            "child_n_papers": stats[dst.node_id]["n_papers"],
            "parent_n_papers": stats[src.node_id]["n_papers"],
            "child_slope": stats[dst.node_id]["slope"],
        }
        st.update({f"child_share_{q}": v for q, v in series_dst.items()})
        st.update({f"parent_share_{q}": v for q, v in series_src.items()})
        slices_dst = slice_shares(dst_dates, monthly_volume, cutoff)
        slices_src = slice_shares(src_dates, monthly_volume, cutoff)
        st.update({f"child_slice_share_{q}": v for q, v in slices_dst.items()})
        st["child_slice_growth"] = slice_growth(slices_dst)
        st["parent_slice_growth"] = slice_growth(slices_src)
        verb = {
            "extension": "extends",
            "adaptation": "adapts",
            "replacement": "replaces a sibling under",
            "competition": "competes within",
            "component_reuse": "reuses components of",
        }[relation]
        signals.append(
            Signal(
                signal_id=f"sig:method_development:{i:03d}",
                kind="method_development",
                domain=domain,
                cutoff=cutoff,
                title=f"{dst.label} {verb} {src.label}",
                summary=(
                    f"{relation}: '{dst.label}' (growth {st['child_growth']:.2f}, {int(st['child_n_papers'])} papers) "
                    f"vs '{src.label}' (growth {st['parent_growth']:.2f}); rule: {rule}."
                ),
                node_ids=[src.node_id, dst.node_id],
                evidence_ids=ev,
                paper_ids=pids,
                stats=st,
                details={
                    "relation": [relation],
                    "from_node": [src.node_id],
                    "to_node": [dst.node_id],
                    "rule": [rule],
                    "child_series": [f"{q}:{v:.4f}" for q, v in series_dst.items()],
                    "parent_series": [f"{q}:{v:.4f}" for q, v in series_src.items()],
                    "child_slice_series": [f"{q}:{v:.4f}" for q, v in slices_dst.items()],
                    "parent_slice_series": [f"{q}:{v:.4f}" for q, v in slices_src.items()],
                    "rule_relation": [rule_relation],
                    "decided_by": ["llm" if answer else "rule"],
                    **({"llm_rationale": [answer.rationale]} if answer and answer.rationale else {}),
                },
            )
        )

    # (3) bottlenecks: limitation themes (assets.evidence.bottlenecks), named by their phrase
    themes = limitation_themes(
        usable, records, domain_title=domain_title or _registry_title(domain), min_papers=min_theme_papers
    )[:max_bottlenecks]
    llm_bn: dict = {}
    if use_llm and themes:
        llm_bn = name_bottlenecks_llm(
            [
                {"key": f"B{i}", "quotes": t["quotes"][:8], "rule_category": t["category"], "rule_name": t["name"]}
                for i, t in enumerate(themes)
            ],
            llm_client,
            failures=failures,
        )
    bottleneck_signals: list[Signal] = []
    taken: set[str] = set()
    for i, t in enumerate(themes):
        pids = _check_dates(t["paper_ids"], dates, cutoff)
        title, rule_category = t["name"], t["category"]
        named = llm_bn.get(f"B{i}")
        if named and named.title.strip().lower() not in taken:  # a model name never duplicates another theme's
            title, t = named.title.strip(), dict(t, category=named.category)
        taken.add(title.lower())
        sig = Signal(
            signal_id=f"sig:bottleneck:{i:03d}",
            kind="bottleneck",
            domain=domain,
            cutoff=cutoff,
            title=title,
            summary=t["quotes"][0],
            node_ids=t["nodes"],
            evidence_ids=t["records"],
            paper_ids=pids,
            stats={
                "recurrence": float(len(set(pids))),
                "n_nodes": float(len(t["nodes"])),
                "lift": round(t["lift"], 4),
                "domain_papers": float(len(usable)),
            },
            details={
                "quotes": t["quotes"],
                "quote_papers": t["quote_papers"],
                "category": [t["category"]],
                "nodes": t["nodes"],
                "key": [t["key"]],
                "aliases": t["aliases"],
                "mention_ids": _check_dates(t["mention_ids"], dates, cutoff),
                "near": [f"sig:bottleneck:{j:03d}" for j in t["near"] if j < len(themes)],
                "rule_name": [t["name"]],
                "rule_category": [rule_category],
                "predicate": [t["family"]],
                "decided_by": ["llm" if named and title == named.title.strip() else "rule"],
            },
        )
        signals.append(sig)
        bottleneck_signals.append(sig)

    # (4) feasibility, dependency and risk notes
    members_of = {cand.signal_id: set(cand.details["member_ids"]) for cand, _ in candidate_signals}
    for i, (cand, _) in enumerate(candidate_signals):
        own = set(cand.node_ids)
        linked = [b for b in bottleneck_signals if own & set(b.node_ids)]
        linked.sort(key=lambda b: (-b.stats["recurrence"], b.signal_id))
        # dependencies: the other candidates whose papers this one's titles share most
        mine = members_of[cand.signal_id]
        related = sorted(
            (-len(mine & members_of[o.signal_id]) / len(mine), o.title)
            for o, _ in candidate_signals
            if o is not cand and mine & members_of[o.signal_id]
        )
        deps = [label for _, label in related[:2]]
        s = cand.stats
        if s["n_papers"] >= min_support and s["growth"] >= 1.0 and s["age_months"] <= 24:
            verdict = "actionable near-term"
        elif s["growth"] >= 1.0:
            verdict = "actionable, established"
        else:
            verdict = "watch (its share of the domain is shrinking)"
        risks = [b.title for b in linked[:3]]
        summary = (
            f"{verdict}: '{cand.title}' rests on {int(s['n_papers'])} pre-cutoff papers, "
            f"{int(s['age_months'])} months old, volume-normalised growth {s['growth']:.2f}; "
            f"shares papers with {', '.join(deps) if deps else 'no other candidate'}; "
            f"risk: {'; '.join(risks) if risks else 'no recurring bottleneck linked'}."
        )
        signals.append(
            Signal(
                signal_id=f"sig:feasibility:{i:03d}",
                kind="feasibility",
                domain=domain,
                cutoff=cutoff,
                title=f"Feasibility of {cand.title}",
                summary=summary,
                node_ids=cand.node_ids,
                evidence_ids=sorted(set(cand.evidence_ids) | {e for b in linked for e in b.evidence_ids}),
                paper_ids=cand.paper_ids,
                stats={
                    "support": s["n_papers"],
                    "maturity_months": s["age_months"],
                    "n_bottlenecks": float(len(linked)),
                    "growth": s["growth"],
                    "actionable": float(verdict.startswith("actionable")),
                },
                details={
                    "dependencies": deps,
                    "risks": risks,
                    "candidate": [cand.signal_id],
                    "bottlenecks": [b.signal_id for b in linked],
                    "verdict": [verdict],
                },
            )
        )

    # (6) approaches: the catalogued alternatives for one role of a plan (rule in `assets.evidence.approaches`)
    signals.extend(approach_signals(domain, cutoff, usable, by_paper, dates))

    # (5) venue profiles
    if venue_papers is not None:
        signals.extend(build_venue_profiles(venue_papers, public, cutoff, embed, domain=domain))
    return signals


def approach_signals(domain: str, cutoff: date, usable: list, by_paper: dict, dates: dict[str, date]) -> list[Signal]:
    """The approach signals of a partition: per catalogued role of the domain, its offered members
    (`assets.evidence.approaches.offered_members`), each with its exemplar titles."""
    signals: list[Signal] = []
    for i, role in enumerate(r for r in load_roles() if domain in r.domains):
        for u in offered_members(role, usable, cutoff):
            m = u.member
            newest = sorted((by_paper[pid] for pid in u.paper_ids), key=lambda p: (p.published, p.arxiv_id))[::-1]
            others = tuple(o.matcher() for o in role.members if o is not m)
            shown = exemplars(newest, u.sentences, m.matcher(), others)[:REPRESENTATIVE_TITLES]
            signals.append(
                Signal(
                    signal_id=f"sig:approach:{role.role_id}:{m.member_id}",
                    kind="approach",
                    domain=domain,
                    cutoff=cutoff,
                    title=m.name,
                    summary=(
                        f"{len(u.paper_ids)} pre-cutoff papers on {role.subfield} build on {m.name} "
                        f"({len(u.recent_ids)} in the {RECENT_MONTHS} months before the cutoff)."
                    ),
                    paper_ids=_check_dates(u.paper_ids, dates, cutoff),
                    stats={
                        "n_papers": float(len(u.paper_ids)),
                        "n_members": float(len(u.paper_ids)),
                        "n_recent_members": float(len(u.recent_ids)),
                        "role_order": float(i),
                    },
                    details={
                        "role": [role.role_id],
                        "role_name": [role.role],
                        "member": [m.member_id],
                        "direction_name": [role.subfield],
                        "member_ids": u.paper_ids,
                        "recent_ids": u.recent_ids,
                        "representative_titles": [p.title for p in shown],
                        "representative_ids": [p.arxiv_id for p in shown],
                        "gloss": [m.gloss],
                    },
                )
            )
    return signals

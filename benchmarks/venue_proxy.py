"""How well the venue family's similarity proxy predicts the real venue outcome (docs/validity.md).

For every venue project of a cutoff (a recent pre-cutoff preprint with an accepted-paper list
decided after the cutoff: `assets.families.venue.projects.select_projects` without its cap, on
the shipped corpus screened as the corpus stage screens it, each paper counted once in its home
domain) this compares the real family with four predictions of it:

* `old`: the similarity gold of earlier releases, as it was: five families, the 19 lists shipped
  before the 2025-2026 outcome lists, dated up to the window end (`venue_similarity` on the titles
  of the project's closest window papers, `assets.toolbox.measure` neighbour rules);
* `offered`: the same proxy over the families the task offers, with the lists decided by the cutoff
  (what a proxy gold is today);
* `majority`: the constant answer "the family most projects of the domain went to";
* `vote`: the families of the project's 10 most similar papers with a known acceptance (the rule
  that orders the rest of an outcome gold's ranking).

It prints one markdown table (top-1 agreement per domain and overall, balanced accuracy over the
real families) plus the agreement by top-2 gap, and the number of outcome projects each
registry cutoff yields per domain (`--yield`). Run:

    .venv/bin/python -m benchmarks.venue_proxy --cutoff 2025-12-31
    .venv/bin/python -m benchmarks.venue_proxy --yield
"""

from __future__ import annotations

import argparse
import collections
import gzip
import json
import random
import re
from datetime import date

import numpy as np

from assets.corpus.logic import screen, split_at_cutoff
from assets.evidence import venues as V
from assets.families.venue import VOTE_NEIGHBOURS
from assets.families.venue.projects import select_projects
from assets.toolbox.measure import VENUE_NEIGHBOUR_QUANTILE, VENUE_NEIGHBOURS, GoldContext
from core.records import Paper
from core.registry import load_registry
from resources.embeddings import EmbeddingResource

OLD_LISTS = 19  # VENUE_LISTS[:19]: the lists shipped before the 2025-2026 outcome lists
GAPS = (0.0, 0.005, 0.01, 0.02, 0.04, 1.0)


def screened_corpora(embed) -> dict:
    reg = load_registry()
    descs = {d: s.description for d, s in reg.domains.items()}
    out = {}
    for dom, spec in reg.domains.items():
        with gzip.open(f"assets/corpus/shipped/{spec.shipped_file}", "rt", encoding="utf-8") as handle:
            raw = [json.loads(line) for line in handle]
        papers = [Paper(**{k: r[k] for k in ("arxiv_id", "title", "abstract", "published")}) for r in raw]
        out[dom] = screen(papers, dom, descs, embed)
    return out


def measure(cutoff: date, corpora: dict, embed) -> list[dict]:
    reg = load_registry()
    every = V.load_venue_lists()
    old_files = {s.file for s in V.VENUE_LISTS[:OLD_LISTS]}
    old_lists = [v for v in every if v.file in old_files]
    offered = V.outcome_families(cutoff)
    rows = []
    for dom, screened in corpora.items():
        public, future, window_end = split_at_cutoff(screened, cutoff, reg.horizon_months(cutoff.isoformat()))
        projects, _ = select_projects(public, cutoff, dom, offered, embed=embed)
        if not projects:
            continue
        ctx = GoldContext([], public, future, embed, cutoff, window_end)
        labelled = [(i, V.accepted_family(p.title)) for i, p in enumerate(ctx.public + ctx.future)]
        labelled = [(i, f) for i, f in labelled if f in offered]
        all_vecs = np.concatenate([ctx.pub_vecs, ctx.fut_vecs])
        lab_vecs = all_vecs[[i for i, _ in labelled]]
        lab_ids = [(ctx.public + ctx.future)[i].arxiv_id for i, _ in labelled]
        usable = sorted((p for p in public if p.label != "excluded"), key=lambda p: p.arxiv_id)
        base = [
            " ".join(re.split(r"(?<=[.!?])\s+", p.abstract.strip())[:2])
            for p in random.Random(0).sample(usable, min(300, len(usable)))
        ]
        for proj in projects:
            pv = ctx.embed_centred([proj.description])[0]
            sims = ctx.fut_vecs @ pv
            floor = float(np.quantile(sims, VENUE_NEIGHBOUR_QUANTILE)) if len(sims) else 0.0
            near = [int(i) for i in np.argsort(-sims, kind="stable")[:VENUE_NEIGHBOURS] if sims[i] >= floor and sims[i] > 0]
            titles = [ctx.future[i].title for i in near] or [proj.description]
            old = V.venue_similarity(titles, old_lists, window_end, embed)
            on_topic = bool(V.venue_similarity([proj.description], old_lists, window_end, embed, base_texts=base))
            new = {f: v for f, v in V.venue_similarity(titles, every, cutoff, embed).items() if f in offered}
            mine = ctx.pub_vecs[ctx.pub_index[proj.paper.arxiv_id]]
            votes = collections.Counter()
            for j in np.argsort(-(lab_vecs @ mine), kind="stable"):
                if lab_ids[j] != proj.paper.arxiv_id:
                    votes[labelled[j][1]] += 1
                    if sum(votes.values()) >= VOTE_NEIGHBOURS:
                        break
            rank = lambda sc: sorted(sc, key=lambda k: (-sc[k], k))  # noqa: E731
            ro, rn = rank(old), rank(new)
            rows.append(
                {
                    "domain": dom,
                    "id": proj.paper.arxiv_id,
                    "real": proj.family,
                    "old": ro[0],
                    "old_gap": old[ro[0]] - old[ro[1]],
                    "old_on_topic": on_topic,
                    "offered": rn[0],
                    "offered_gap": new[rn[0]] - new[rn[1]],
                    "vote": max(offered, key=lambda f: (votes[f], -offered.index(f))),
                }
            )
    return rows


def _share(rows: list[dict], key: str) -> str:
    k = sum(r[key] == r["real"] for r in rows)
    return f"{k}/{len(rows)} = {k / len(rows):.1%}" if rows else "-"


def _balanced(rows: list[dict], key: str) -> float:
    per = collections.defaultdict(list)
    for r in rows:
        per[r["real"]].append(r[key] == r["real"])
    return sum(sum(v) / len(v) for v in per.values()) / len(per) if per else float("nan")


def report(rows: list[dict]) -> str:
    lines = [
        "| domain | projects | old proxy (5 families) | proxy on the offered families | most common family | "
        "10-NN outcome vote | balanced: old / offered / vote |",
        "|---|---|---|---|---|---|---|",
    ]
    for dom in sorted({r["domain"] for r in rows}) + ["all"]:
        rs = [r for r in rows if dom == "all" or r["domain"] == dom]
        common = collections.Counter(r["real"] for r in rs).most_common(1)[0]
        for r in rs:
            r["majority"] = common[0]
        lines.append(
            f"| {dom} | {len(rs)} | {_share(rs, 'old')} | {_share(rs, 'offered')} | "
            f"{_share(rs, 'majority')} ({common[0]}) | {_share(rs, 'vote')} | "
            f"{_balanced(rs, 'old'):.2f} / {_balanced(rs, 'offered'):.2f} / {_balanced(rs, 'vote'):.2f} |"
        )
    lines.append("")
    for key in ("old", "offered"):
        cells = [
            f"[{lo}, {hi}): {_share([r for r in rows if lo <= r[f'{key}_gap'] < hi], key)}" for lo, hi in zip(GAPS, GAPS[1:])
        ]
        lines.append(f"{key} proxy by top-2 gap: " + "; ".join(cells))
    lines.append("real families: " + json.dumps(collections.Counter(r["real"] for r in rows)))
    lines.append("old proxy's top families: " + json.dumps(collections.Counter(r["old"] for r in rows)))
    return "\n".join(lines)


def project_yield(corpora: dict, embed) -> str:
    """Outcome projects per registry cutoff and domain (uncapped), by real family."""
    reg = load_registry()
    lines, seen = [], collections.Counter()
    for cut in sorted(reg.default_cutoffs):
        c = date.fromisoformat(cut)
        fams = V.outcome_families(c)
        for dom, screened in corpora.items():
            projects = (
                select_projects([p for p in screened if p.published <= c], c, dom, fams, embed=embed)[0] if len(fams) >= 2 else []
            )
            seen.update((cut, p.paper.arxiv_id) for p in projects)
            by = collections.Counter(p.family for p in projects)
            lines.append(f"{cut} {dom}: {len(projects)} {json.dumps(dict(sorted(by.items())))}")
    lines.append(f"papers that are projects of two domains at one cutoff: {sum(v > 1 for v in seen.values())}")
    return "\n".join(lines)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--cutoff", action="append", default=[], help="YYYY-MM-DD (repeatable)")
    ap.add_argument("--yield", dest="yield_", action="store_true", help="outcome projects per registry cutoff")
    args = ap.parse_args()
    embed = EmbeddingResource().embedder().encode
    corpora = screened_corpora(embed)
    if args.yield_:
        print(project_yield(corpora, embed))
    for cut in args.cutoff:
        print(f"\n## cutoff {cut}\n")
        print(report(measure(date.fromisoformat(cut), corpora, embed)))


if __name__ == "__main__":
    main()

"""In-process estimate of the planning family's yield and counted items (no warehouse, no Dagster).

    python benchmarks/planning_yield.py            # per domain: offered roles, window counts, margin

For every domain of the default release at CUTOFF, on the SHIPPED corpus
(assets/corpus/shipped/<domain>.jsonl.gz; every paper, before the relevance screen, so the
numbers are an upper-side estimate of the built partitions'): the roles the catalog offers
(`assets.evidence.approaches.offered_members` on the pre-cutoff papers), each offered member's
window count under the shipped counting rule (`assets.evidence.building_on.builds_on` on window
papers on the role's subfield), and whether the margin rule passes (>= 3 papers and >= 30%,
no ties; `assets.families.planning.gold.MIN_MARGIN_*`).
"""

from __future__ import annotations

import gzip
import json
from dataclasses import dataclass
from datetime import date
from pathlib import Path

from assets.evidence.approaches import Role, load_roles, offered_members
from assets.evidence.building_on import builds_on
from assets.families.planning.gold import MIN_MARGIN_PAPERS, MIN_MARGIN_SHARE
from core.records import ScreenedPaper

ROOT = Path(__file__).resolve().parents[1]
SHIPPED = ROOT / "assets" / "corpus" / "shipped"
DOMAINS = (
    "llm_agent",
    "llm_finetuning_post_training",
    "rag_and_retrieval_structuring",
    "visual_generative_modeling_and_diffusion",
)
CUTOFF = date(2025, 12, 31)
WINDOW_END = date(2026, 6, 30)


def load_papers(domain: str) -> list[ScreenedPaper]:
    out = []
    with gzip.open(SHIPPED / f"{domain}.jsonl.gz", "rt") as f:
        for line in f:
            d = json.loads(line)
            out.append(
                ScreenedPaper(
                    arxiv_id=d["arxiv_id"],
                    title=d["title"],
                    abstract=d.get("abstract") or "",
                    published=date.fromisoformat(d["published"][:10]),
                    domain=domain,
                    relevance=0.0,
                    label="core",
                    reason="shipped",
                )
            )
    return out


@dataclass
class RoleResult:
    domain: str
    role: Role
    options: list[tuple[str, int, dict[str, str]]]  # member name, window count, paper id -> sentence
    n_window: int

    @property
    def counts(self) -> list[int]:
        return sorted((n for _, n, _ in self.options), reverse=True)

    @property
    def margin_ok(self) -> bool:
        n = self.counts
        if len(n) < 2 or n[0] <= 0:
            return False
        lead = n[0] - n[1]
        return lead >= MIN_MARGIN_PAPERS and lead / n[0] >= MIN_MARGIN_SHARE and len(set(n)) == len(n)


def role_results(domain: str, papers: list[ScreenedPaper] | None = None) -> list[RoleResult]:
    papers = papers if papers is not None else load_papers(domain)
    window = [p for p in papers if CUTOFF < p.published <= WINDOW_END]
    out = []
    for role in load_roles():
        if domain not in role.domains:
            continue
        offered = offered_members(role, papers, CUTOFF)
        if not offered:
            continue
        on = [p for p in window if role.on_subfield(f"{p.title}. {p.abstract}")]
        opts = []
        for u in offered:
            m = u.member.matcher()
            said = {p.arxiv_id: s for p in on if (s := builds_on(p.title, p.abstract, m))}
            opts.append((u.member.name, len(said), said))
        opts.sort(key=lambda o: -o[1])
        out.append(RoleResult(domain, role, opts, len(on)))
    return out


def all_results() -> list[RoleResult]:
    """Every domain's offered roles, cached as JSON beside the shipped corpus's mtime (a rerun of
    the sample or the report does not recount)."""
    return [r for d in DOMAINS for r in role_results(d)]


def dump(results: list[RoleResult], path: Path) -> None:
    path.write_text(
        json.dumps(
            [
                {
                    "domain": r.domain,
                    "role_id": r.role.role_id,
                    "role": r.role.role,
                    "n_window": r.n_window,
                    "options": [{"name": n, "count": c, "counted": said} for n, c, said in r.options],
                    "margin_ok": r.margin_ok,
                }
                for r in results
            ],
            ensure_ascii=False,
        )
    )


def main() -> None:
    import sys

    total = 0
    results = all_results()
    if len(sys.argv) > 1:
        dump(results, Path(sys.argv[1]))
    for d in DOMAINS:
        for r in (x for x in results if x.domain == d):
            total += r.margin_ok
            counts = ", ".join(f"{n} {c}" for n, c, _ in r.options)
            n = r.counts
            print(
                f"{d[:12]:12} {r.role.role_id:24} {'PASS' if r.margin_ok else 'fail'} lead {n[0] - n[1]} "
                f"({(n[0] - n[1]) / max(n[0], 1):.0%}) of {r.n_window}: {counts}"
            )
    print(f"passing planning tasks: {total}")


if __name__ == "__main__":
    main()

"""The bottleneck family's audit flags (its `audit_flags` facet; docs/curation.md):
`small_gold_margin` and `background_evidence`."""

from __future__ import annotations

import re

from assets.families.bottleneck.gold import MIN_MARGIN_PAPERS, MIN_RELATIVE_MARGIN
from assets.families.bottleneck.statements import is_background
from core.records import AuditFlag, GoldTarget, Task


def margin_flags(task: Task, gold: GoldTarget | None) -> list[AuditFlag]:
    """`small_gold_margin` for a bottleneck gold with evidence (`assets.families.bottleneck`)."""
    if task.family != "bottleneck" or gold is None or gold.strength <= 0:
        return []

    papers, rel = gold.numbers.get("margin_papers"), gold.numbers.get("margin", 0.0)
    if papers is None:  # a gold from before the margin was recorded: count from `counted`
        counts = sorted((len(v) for v in gold.counted.values()), reverse=True) + [0, 0]
        papers = counts[0] - counts[1]
        rel = papers / counts[0] if counts[0] else 0.0
    if papers < MIN_MARGIN_PAPERS or rel < MIN_RELATIVE_MARGIN:
        return [
            AuditFlag(
                code="small_gold_margin",
                detail=(
                    f"the gold leads the second candidate by {int(papers)} paper(s), {rel:.2f} of its count "
                    f"(needs >= {MIN_MARGIN_PAPERS} and >= {MIN_RELATIVE_MARGIN})"
                ),
            )
        ]
    return []


_COUNTED_QUOTE = re.compile(r'"([^"]{12,})"')  # the sentence of a counted entry, 'id: "..."'


def background_flags(gold: GoldTarget | None) -> list[AuditFlag]:
    """`background_evidence`: counted window-paper sentences that read as background (the
    first quoted sentence of each counted entry, 'id: "..."'), in the families whose counted
    sentence is the paper's own claim (bottleneck, whose `audit_flags` facet calls this; a phase
    task counts papers by the problem they state, which is background by design)."""
    if gold is None:
        return []

    hits = []
    for key, entries in gold.counted.items():
        for entry in entries:
            m = _COUNTED_QUOTE.search(entry)
            if m and is_background(m.group(1)):
                hits.append(f"{entry.split(':', 1)[0]} ({key})")
    if not hits:
        return []
    return [
        AuditFlag(
            code="background_evidence",
            detail=(f"{len(hits)} counted sentence(s) read as background, not the paper's own work: {', '.join(hits[:4])}"),
        )
    ]

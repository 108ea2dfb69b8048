"""Option sets: the approaches offered for one role of a plan, and how an option reads.

The approach signals (`assets.evidence.approaches`) already hold, per role of the shipped
catalog, the 3-5 most used alive alternatives of the partition; one option set per role, in the
catalog's role order. An option reads "<name> — "<gloss>" Pre-cutoff papers: ...": the name as
the catalog writes it (never truncated), the catalog's one-sentence gloss of that option itself,
and up to three pre-cutoff titles of papers that build on it."""

from __future__ import annotations

from assets.evidence.approaches import MAX_MEMBERS as MAX_OPTIONS
from assets.evidence.approaches import MIN_MEMBERS as MIN_OPTIONS
from assets.toolbox.building import plain_title
from core.phrases import NAME_SEPARATOR
from core.records import Signal

MAX_TITLES = 3


def role_of(signal: Signal) -> str:
    return (signal.details.get("role") or [""])[0]


def option_sets(approaches: list[Signal]) -> list[list[Signal]]:
    """One set per role: its offered members, most used first; roles with fewer than
    MIN_OPTIONS members are skipped, at most MAX_OPTIONS kept."""
    by_role: dict[str, list[Signal]] = {}
    for s in approaches:
        if role_of(s):
            by_role.setdefault(role_of(s), []).append(s)
    out = []
    for _, group in sorted(by_role.items(), key=lambda kv: (kv[1][0].stats.get("role_order", 0.0), kv[0])):
        group = sorted(group, key=lambda s: (-s.stats.get("n_recent_members", 0.0), -s.stats.get("n_papers", 0.0), s.signal_id))
        if len(group) >= MIN_OPTIONS:
            out.append(group[:MAX_OPTIONS])
    return out


def option_text(signal: Signal) -> str:
    name = signal.title
    gloss = (signal.details.get("gloss") or [""])[0]
    titles = [plain_title(t) for t in signal.details.get("representative_titles", []) if plain_title(t)][:MAX_TITLES]
    parts = []
    if gloss:
        parts.append(f'"{gloss[:1].upper() + gloss[1:]}."')
    if titles:
        parts.append("Pre-cutoff papers building on it: " + "; ".join(f'"{t}"' for t in titles) + ".")
    return name + (NAME_SEPARATOR + " ".join(parts) if parts else "")

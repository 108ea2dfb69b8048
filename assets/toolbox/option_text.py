"""Readable option text from candidate signals (never ids): names, glosses, titles, short names.

Split out of `assets.toolbox.building` (issue 32): the text an option shows, shared by every family
that offers candidate directions or approaches as options.
"""

from __future__ import annotations

import random
import re

from assets.evidence.kinds import definition_of, direction_entry, direction_kind, domain_context
from core.phrases import NAME_SEPARATOR, option_name
from core.records import Signal, TaskOption

OPTION_LETTERS = "ABCDE"
# --------------------------------------------------------------------------------------
# readable text from signals (never ids)
# --------------------------------------------------------------------------------------

_ID_LIKE = re.compile(r"(?<![A-Za-z0-9])(?:ev|sig):\S+|\b[a-z0-9_]+:[a-z_]+:[\w:.\-]*")


def clean_text(text: str) -> str:
    """Drop id-like tokens a signal's text might carry, and squeeze whitespace."""
    return " ".join(_ID_LIKE.sub("", text or "").split())


_LATEX = re.compile(r"\$([^$]*)\$|\\[a-zA-Z]+|[{}]")


def plain_title(title: str) -> str:
    """A title as a reader writes it: ids dropped, LaTeX math and commands unwrapped ("DS$^2$" -> "DS^2")."""
    return clean_text(_LATEX.sub(lambda m: m.group(1) or "", title or "")).replace("$", "")


def direction_name(signal: Signal) -> str:
    """The candidate's name as titles write it, e.g. 'prompt injection', 'GUI agents'."""
    name = clean_text(signal.title).strip(" /")
    return name or clean_text(signal.summary)[:80]


def option_definition(signal: Signal) -> str:
    """The option's one-line definition: the lexicon's curated definition of the direction when
    it has one (`assets.evidence.kinds.definition_of`: on the option's topic within the domain;
    a sentence quoted from a central paper can be about another field -- blind reading seed
    3637: a GAN option glossed by a medical-imaging adversarial-attack paper), else the gloss the
    evidence stage found (a verbatim sentence of a central paper's abstract with the direction as
    its subject, and that paper's id), else ""."""
    curated = definition_of(direction_name(signal))
    if curated:
        return curated[:1].upper() + curated[1:] + "."
    gloss = [clean_text(g) for g in signal.details.get("gloss", []) if clean_text(g)]
    if not gloss:
        return ""
    gloss_id = (signal.details.get("gloss_paper") or [""])[0]
    return f'"{gloss[0]}"' + (f" ({gloss_id})" if gloss_id else "")


def on_domain_title(signal: Signal, title: str) -> bool:
    """Whether an example title is about the option's domain by words OTHER than the option's own
    names: the domain's context pattern (`assets.evidence.kinds.domain_context`) must match the
    title with the option's names (its name, lexicon phrases and acronyms) masked. Blind reading
    seed 3738: "Adversarial Attack Against Images Classification based on Generative Adversarial
    Networks" passed as a generative-modelling GAN paper only because "generative" is part of the
    name. Applies to methods whose name holds a domain word; a domain without a context pattern
    keeps every title."""
    context = domain_context(signal.domain) if signal.domain else None
    name = direction_name(signal)
    # Only a METHOD whose own name carries a domain word can pass off another field's paper
    # ("Generative Adversarial Networks" in a classification paper); a task names what the domain
    # generates ("Audio-Video Generation"), and a name without a domain word ("DPO") never made a
    # title look on-domain: their titles are kept.
    if context is None or not context.search(name) or direction_kind(name)[0] != "method":
        return True
    entry = direction_entry(name) or {}
    masked = title
    for alias in sorted({name, *entry.get("phrases", ()), *entry.get("acronyms", ())}, key=len, reverse=True):
        if alias:
            masked = re.sub(rf"(?i)(?<![A-Za-z0-9]){re.escape(alias)}s?(?![A-Za-z0-9])", " ", masked)
    return bool(context.search(masked))


def direction_text(signal: Signal, max_titles: int = 3) -> str:
    """Option text: the direction's name, its one-line definition (`option_definition`) and up
    to `max_titles` representative pre-cutoff titles that are about the domain beyond the
    option's own name (`on_domain_title`; none shown rather than off-domain examples)."""
    name = direction_name(signal)
    text = name[:1].upper() + name[1:]
    titles = [
        plain_title(t)
        for t in signal.details.get("representative_titles", [])
        if plain_title(t) and on_domain_title(signal, plain_title(t))
    ][:max_titles]
    parts = []
    if definition := option_definition(signal):
        parts.append(definition)
    if titles:
        parts.append("Pre-cutoff papers: " + "; ".join(f'"{t}"' for t in titles) + ".")
    return text + (NAME_SEPARATOR + " ".join(parts) if parts else "")


def dimension_of(signal: Signal) -> str:
    """Taxonomy dimension of a candidate, read from its node id "<domain>:<dimension>:..."."""
    for node in signal.node_ids:
        parts = node.split(":")
        if len(parts) >= 3:
            return parts[1]
    return "all"


def members(signal: Signal) -> set[str]:
    """A candidate's papers: its phrase-defined members, else its evidence papers."""
    return set(signal.details.get("member_ids") or signal.paper_ids)


def overlap(a: Signal, b: Signal) -> float:
    """|papers(a) ∩ papers(b)| / min size: 1.0 for a node and its child."""
    pa, pb = members(a), members(b)
    if not pa or not pb:
        return 0.0
    return len(pa & pb) / min(len(pa), len(pb))


def shuffled_options(
    options: list[TaskOption], opt_signals: dict[str, Signal], seed: str
) -> tuple[list[TaskOption], dict[str, Signal]]:
    """The options in a seeded random order, relettered A, B, ...: position carries no
    signal (candidate order would otherwise follow how they were sampled or ranked)."""
    order = list(range(len(options)))
    random.Random(seed).shuffle(order)
    out = [TaskOption(option_id=OPTION_LETTERS[i], text=options[j].text) for i, j in enumerate(order)]
    sigs = {
        OPTION_LETTERS[i]: opt_signals[options[j].option_id] for i, j in enumerate(order) if options[j].option_id in opt_signals
    }
    return out, sigs


TITLE_NAME_CHARS = 60  # option names in titles: whole names (they are short phrases), cut only past this


def short_name(option_text: str, limit: int = TITLE_NAME_CHARS) -> str:
    """An option's name without its gloss and examples (for titles)."""
    name = option_name(option_text).split(":")[0].strip()
    return name if len(name) <= limit else name[: limit - 1].rstrip() + "…"

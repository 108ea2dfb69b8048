"""Candidate directions named by title phrases (ForeSci App. B.3), recognisable by embedding.

A candidate direction must be something a researcher recognises and can assign a paper to,
so each one is *named* by a phrase of the domain's titles (`core.phrases`: spelling and
number variants merged into one key, generic words such as "agent" or "LLM" left out of the
key but kept in the display form, "GUI agents") and a paper belongs to it when its title
holds that key. The rule, step by step (all on cutoff-visible, non-excluded papers):

1. Phrases: the keys of titles (`core.phrases.phrase_keys`) held by at least `min_members`
   papers and by at most MAX_DOMAIN_SHARE of the domain (an umbrella such as "reinforcement
   learning" in post-training is no bet among others; at least UMBRELLA_FLOOR x min_members) -- or *emerging*: born in the EMERGING_MONTHS before the cutoff (at most
   EMERGING_OLD_MAX of its papers older than that) with at least MIN_EMERGING_MEMBERS papers,
   so a phrase that took off just before the cutoff can be asked about (such a candidate is
   marked `emerging`; the task builder's premise check accepts it without older papers).
2. A real bet a reader understands (`core.phrases`): not the truncation of a longer phrase
   ("direct preference" of "direct preference optimization"), not a contribution type
   (benchmark, survey, dataset, framework, evaluation, analysis ...: what a paper is, not what
   it is about), not one bare word unless a recognised name (GUI, MCP, LoRA), not a backbone
   model ("GPT-4", "vision-language models"), and alive: at least
   MIN_RECENT_MEMBERS of its papers in the RECENT_MONTHS before the cutoff (no dead options).
3. Recognisable by content: every paper's NEIGHBOURS (10) nearest papers by embedding of
   title and abstract are found once (centred cosine, leave-one-out); a paper is *voted*
   into a phrase's set when >= MEMBER_VOTE (30%) of its neighbours hold the phrase
   (`core.clustering.voted`). The phrase's score is the F1 of the vote against the title
   match: how well the papers' content, read by the embedder, recovers the phrase's papers.
   Phrases scoring below MIN_RECOGNISABILITY are not directions.
4. Distinct: phrases are taken best score first (multi-word names before one-word names on
   ties); a phrase that is another name of an already taken one (`core.phrases.same_direction`:
   equal key, acronym and expansion) or more than MAX_MEMBER_OVERLAP of whose own papers a
   taken one holds is skipped. (Of its own papers, not of the smaller set: with the smaller set,
   "diffusion transformers" (206 papers) fell to "virtual try-on" (15, 9 of them with diffusion
   transformers). Nested names, "process reward models" in "reward models", may both be
   candidates; a task never offers both: `assets.toolbox.building.near_duplicate`.)
5. Placed in the taxonomy: the candidate's node is the level >= 1 taxonomy node with the
   highest Jaccard overlap with its papers; the node's dimension groups candidates into
   option pools, its evidence record supplies the support packet.

Every phrase rejected at step 2 or 4 is returned with its reason (`rejected`), so the build
reports what it left out. The gold measures the same object two ways
(`assets.families.momentum`): by the key in window titles (lexical) and by the same
neighbour vote over window papers (embedding). No Dagster here.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field
from datetime import date

import numpy as np

from core.clustering import NEIGHBOURS, neighbours, voted
from core.papers import add_months
from core.phrases import (
    BREAK_WORDS,
    GENERIC_WORDS,
    acronym_of,
    backbone_problem,
    contribution_type,
    display_forms,
    field_problem,
    normal_text,
    normalise,
    one_word_problem,
    phrase_keys,
    prefer_longer,
    same_direction,
    tokens,
    umbrella_problem,
)
from core.records import ScreenedPaper, TaxonomyNode

MIN_RECOGNISABILITY = 0.05  # F1 of the neighbour vote against the title match (cross-cutting methods such as RLVR score ~0.1)
MAX_DOMAIN_SHARE = 0.05  # an umbrella phrase ("reinforcement learning" in post-training) is no bet among others
UMBRELLA_FLOOR = 4  # ... but a phrase may always hold 4 x min_members papers (small corpora, tests)
MAX_MEMBER_OVERLAP = 0.3
RECENT_MONTHS = 6  # the recent period (the gold's prior period too, assets.toolbox.measure)
MIN_RECENT_MEMBERS = 5  # papers in the RECENT_MONTHS before the cutoff: fewer and the option is dead
EMERGING_MONTHS = 6
EMERGING_OLD_MAX = 2  # papers older than EMERGING_MONTHS an emerging phrase may have
MIN_EMERGING_MEMBERS = 6


@dataclass
class PhraseCandidate:
    phrase: str  # the key (core.phrases)
    display: str  # how titles write it ("GUI agents")
    members: list[str]  # arxiv ids whose titles hold the key, sorted
    recognisability: float  # F1 of the neighbour vote
    node: TaxonomyNode
    central_ids: list[str]  # the members, closest to their centroid first
    n_recent: int = 0  # members in the RECENT_MONTHS before the cutoff
    emerging: bool = False
    centroid: np.ndarray | None = field(default=None, repr=False)


def centred(vectors: np.ndarray) -> np.ndarray:
    """Vectors minus their mean, re-normalised: static embeddings of one domain share a
    common direction (any two abstracts have cosine ~0.9) that hides topics."""
    v = np.asarray(vectors, dtype=np.float32)
    v = v - v.mean(axis=0)
    return v / np.maximum(np.linalg.norm(v, axis=1, keepdims=True), 1e-12)


def phrase_candidates(
    papers: list[ScreenedPaper],
    vectors: np.ndarray,
    nodes: list[TaxonomyNode],
    *,
    min_members: int,
    max_candidates: int,
    cutoff: date,
    rejected: list[tuple[str, str]] | None = None,
) -> list[PhraseCandidate]:
    """The domain's candidate directions by the rule in the module docstring, best first.

    `papers` are the cutoff-visible, non-excluded papers and `vectors` their embeddings
    (title and abstract), row for row. `rejected`, when given, receives (display form,
    reason) for every frequent phrase left out at steps 2 and 4.
    """
    rejected = [] if rejected is None else rejected
    n = len(papers)
    if n == 0:
        return []
    ids = [p.arxiv_id for p in papers]
    recent_start, emerging_start = add_months(cutoff, -RECENT_MONTHS), add_months(cutoff, -EMERGING_MONTHS)
    is_recent = np.array([p.published > recent_start for p in papers])
    is_old = np.array([p.published <= emerging_start for p in papers])
    keys = [phrase_keys(p.title) for p in papers]
    df = Counter(k for ks in keys for k in ks)
    old_df = Counter(k for ks, old in zip(keys, is_old) if old for k in ks)
    most = max(MAX_DOMAIN_SHARE * n, UMBRELLA_FLOOR * min_members)  # a small corpus still has room
    frequent = {k for k, c in df.items() if min_members <= c <= most}
    emerging = {k for k, c in df.items() if c >= MIN_EMERGING_MEMBERS and old_df[k] <= EMERGING_OLD_MAX and c <= most}
    pool = sorted(frequent | emerging)
    truncated = prefer_longer({k: df[k] for k in pool})
    pool = [k for k in pool if k not in truncated]
    if not pool:
        return []
    col = {k: j for j, k in enumerate(pool)}
    member = np.zeros((n, len(pool)), dtype=bool)
    for i, ks in enumerate(keys):
        for k in ks:
            if k in col:
                member[i, col[k]] = True
    titles_of: dict[str, list[str]] = {k: [] for k in pool}
    for p, ks in zip(papers, keys):
        for k in ks:
            if k in titles_of:
                titles_of[k].append(p.title)
    display: dict[str, str] = {}
    for k in pool:
        display.update(display_forms([k], titles_of[k]))
    n_recent = (member & is_recent[:, None]).sum(axis=0)
    normal: dict[str, str] = {}

    def texts(p: ScreenedPaper) -> str:
        if p.arxiv_id not in normal:
            normal[p.arxiv_id] = normal_text(p.title) + normal_text(p.abstract or "")
        return normal[p.arxiv_id]

    eligible = []
    for j, k in enumerate(pool):
        name = display.get(k, k)
        why = None
        if (ctype := contribution_type(name)) is not None:
            why = f"contribution type ({ctype!r}), not a direction"
        elif (
            one := one_word_problem(name) or backbone_problem(name) or field_problem(name) or umbrella_problem(name)
        ) is not None:
            why = one
        elif n_recent[j] < MIN_RECENT_MEMBERS:
            why = f"dead: {int(n_recent[j])} papers in the {RECENT_MONTHS} months before the cutoff (< {MIN_RECENT_MEMBERS})"
        elif (longer := truncated_name(k, [texts(papers[i]) for i in np.flatnonzero(member[:, j])])) is not None:
            why = f"truncated: the papers write {longer!r}, not {name!r}"
        if why is None:
            eligible.append(j)
        elif df[k] >= min_members and (len(name.split()) > 1 or one_word_problem(name) is None):
            rejected.append((name, why))  # what a reader would have expected to see (bare words are not reported)
    if not eligible:
        return []
    V = centred(vectors)
    nn = neighbours(V, V, NEIGHBOURS, exclude=np.arange(n))
    sub = member[:, eligible]
    vote = voted(sub, nn)
    tp = (vote & sub).sum(axis=0)
    precision = tp / np.maximum(vote.sum(axis=0), 1)
    recall = tp / sub.sum(axis=0)
    f1 = 2 * precision * recall / np.maximum(precision + recall, 1e-12)
    words = [len(display.get(pool[j], pool[j]).split()) for j in eligible]
    order = sorted(range(len(eligible)), key=lambda e: (-round(float(f1[e]), 6), -min(words[e], 2), pool[eligible[e]]))
    taken: list[tuple[set[int], str]] = []
    out: list[PhraseCandidate] = []
    node_sets = [(nd, set(nd.paper_ids)) for nd in nodes if nd.level >= 1 and nd.paper_ids]
    for e in order:
        j = eligible[e]
        k, name = pool[j], display.get(pool[j], pool[j])
        if f1[e] < MIN_RECOGNISABILITY or len(out) >= max_candidates:
            break
        rows = set(np.flatnonzero(member[:, j]).tolist())
        why = None
        for other_rows, other in taken:
            shared = len(rows & other_rows) / len(rows)  # of this phrase's own papers
            if same_direction(name, other):
                why = f"another name of {other!r}"
            elif shared > MAX_MEMBER_OVERLAP:
                why = f"shares {shared:.0%} of its papers with {other!r}"
            if why:
                break
        if why is not None:
            rejected.append((name, why))
            continue
        member_ids = {ids[i] for i in rows}
        scored = [(len(member_ids & s) / len(member_ids | s), nd.node_id, nd) for nd, s in node_sets if member_ids & s]
        if not scored:
            continue
        node = max(scored, key=lambda t: (t[0], t[1]))[2]
        idx = np.array(sorted(rows))
        centre = V[idx].mean(axis=0)
        central = idx[np.lexsort((idx, -(V[idx] @ centre)))]
        taken.append((rows, name))
        out.append(
            PhraseCandidate(
                phrase=k,
                display=name,
                members=sorted(member_ids),
                recognisability=round(float(f1[e]), 4),
                node=node,
                central_ids=[ids[i] for i in central],
                n_recent=int(n_recent[j]),
                emerging=old_df[k] <= EMERGING_OLD_MAX,
                centroid=centre / max(float(np.linalg.norm(centre)), 1e-12),
            )
        )
    return out


TRUNCATED_SHARE = 0.6  # a name followed (or preceded) by one same word in this share of its uses is cut short
TRUNCATED_MIN_USES = 5  # ... counted over its papers' titles and abstracts, when it is used at least this often


# A longer name may run through one connective: before the name "learning from human feedback",
# "learning with verifiable rewards"; after it only "of" ("chain of thought"): "virtual try-on
# with diffusion transformers" is the name and a method it uses, not a longer name.
_PREV_CONNECTIVES = frozenset("of from with".split())
_NEXT_CONNECTIVES = frozenset({"of"})


def truncated_name(key: str, normal_texts: list[str]) -> str | None:
    """The longer phrase a name is a truncation of, or None: in the texts (`core.phrases.
    normal_text` of its papers' titles and abstracts), one same content word follows the key (or
    precedes it) in at least TRUNCATED_SHARE of its uses ("singular value" -> "singular value
    decomposition", "direct preference" -> "direct preference optimization", "human feedback" ->
    "learning from human feedback": one connective may sit between, `_PREV_CONNECTIVES` /
    `_NEXT_CONNECTIVES`). Generic words
    ("models", "agents") and stop words do not count: keys leave them out on purpose. A reader
    shown the short form would not recognise it, or would read it as something else."""
    generic = {normalise(w) for w in GENERIC_WORDS} | {normalise(w) for w in BREAK_WORDS}
    pad = f" {key} "
    after: Counter = Counter()
    before: Counter = Counter()
    uses = 0
    for text in normal_texts:
        start = text.find(pad)
        while start >= 0:
            uses += 1
            nxt = text[start + len(pad) :].split(" ", 2)
            prev = text[:start].rsplit(" ", 2)
            if len(nxt) > 1 and nxt[0] in _NEXT_CONNECTIVES and nxt[1] not in generic:  # "chain" of "chain of thought"
                nxt = [f"{nxt[0]} {nxt[1]}"]
            if len(prev) > 2 and prev[-1] in _PREV_CONNECTIVES and prev[-2] not in generic:  # "learning from human feedback"
                prev = [f"{prev[-2]} {prev[-1]}"]
            w_after, w_before = nxt[0], prev[-1]
            if w_after and w_after != "|" and w_after not in generic and len(w_after) > 1:
                after[w_after] += 1
            if w_before and w_before != "|" and w_before not in generic and len(w_before) > 1:
                before[w_before] += 1
            start = text.find(pad, start + len(pad) - 1)
    if uses < TRUNCATED_MIN_USES:
        return None
    for counter, fmt in ((after, "{k} {w}"), (before, "{w} {k}")):
        if counter:
            w, c = counter.most_common(1)[0]
            if c >= TRUNCATED_SHARE * uses:
                return fmt.format(k=key, w=w)
    return None


def containment(cands: list[PhraseCandidate], papers: list[ScreenedPaper]) -> list[list[float]]:
    """share[i][j]: the share of candidate i's papers whose title or abstract names candidate j's
    phrase (`core.phrases.names`); the task builder's level rule reads it
    (`assets.toolbox.option_level`: most RLVR papers naming "reasoning models" make "reasoning
    models" an umbrella over RLVR)."""
    by_id = {p.arxiv_id: p for p in papers}
    normal = {
        pid: normal_text(by_id[pid].title) + normal_text(by_id[pid].abstract or "")
        for c in cands
        for pid in c.members
        if pid in by_id
    }
    names_of = {
        c.phrase: [f" {c.phrase} "] + [f" {x} " for x in [expansion(c.display, [by_id[p] for p in c.members if p in by_id])] if x]
        for c in cands
    }
    out = []
    for a in cands:
        row = []
        own = [normal[pid] for pid in a.members if pid in normal]
        for b in cands:
            pads = names_of[b.phrase]
            row.append(sum(any(pad in t for pad in pads) for t in own) / len(own) if own else 0.0)
        out.append(row)
    return out


def expansion(display: str, papers: list[ScreenedPaper]) -> str:
    """The key of an acronym's most frequent expansion in its papers' abstracts ("RL" ->
    "reinforcement learning", from "... reinforcement learning (RL) ..."), "" for a name that is
    no acronym or has none written out: papers on RLHF name RL by its expansion."""
    if len(display.split()) != 1 or not display[:1].isupper():
        return ""
    acronym = re.escape(display.rstrip("s"))
    found: Counter = Counter()
    pattern = re.compile(rf"((?:[A-Za-z][\w\-]*\s+){{1,6}})\(\s*{acronym}s?\s*\)")
    for p in papers:
        for m in pattern.finditer(p.abstract or ""):
            words = m.group(1).split()
            for n in range(1, len(words) + 1):  # the shortest tail the acronym abbreviates
                tail = words[len(words) - n :]
                if acronym_of(display, " ".join(tail)):
                    found[" ".join(normalise(w) for w in tail)] += 1
                    break
    return found.most_common(1)[0][0] if found else ""


GLOSS_MIN_CHARS, GLOSS_MAX_CHARS = 50, 230
STRICT_FIRST_WORD = 3  # strict glosses (approaches) open on the key: it ends within the first 4 words
GLOSS_PAPERS = 15  # the most central members whose abstracts are searched for a gloss
# A gloss opens on its own subject: no connective or back-reference ("Nevertheless", "This
# underscores ..."), no paper's own claim ("we", "our"), no method step ("... is then used").
_GLOSS_SKIP = re.compile(
    r"^(however|but|and|or|yet|still|moreover|furthermore|nevertheless|nonetheless|thus|"
    r"therefore|hence|consequently|instead|meanwhile|in contrast|as a result|in this (paper|work)|another|despite|"
    r"introduction|background|motivation|objectives?|purpose|"
    r"while|although|to overcome|to mitigate|to improve|"
    r"this|these|those|that|such|it|its|they|their|all the|here|to this end|to address|"
    r"to solve|to tackle|to the best|specifically|finally|additionally|experiments?|results?|"
    r"extensive)\b",
    re.IGNORECASE,
)
_GLOSS_OWN_WORK = re.compile(r"\b(we|our|us|then)\b", re.IGNORECASE)
_GLOSS_DEFINES = re.compile(
    r"\b(is|are|refers? to|enables?|allows?|aims? to|has emerged|have emerged|"
    r"promises?|consists? of)\b",
    re.IGNORECASE,
)
_SENTENCE = re.compile(r"(?<=[.!?])\s+(?=[A-Z])")
_MARKUP = re.compile(r"[$\\{}<>_^]|https?://")


# A direction's gloss says what THAT direction is: its name is the subject of a defining verb
# (issue 32: readers found "an RL option whose gloss is about agentic search" and "SFT glossed by a
# sentence about RLHF"). The subject is the words before the first defining verb, parentheses
# dropped ("Direct Preference Optimization (DPO)"), an article or a kind word ("methods",
# "approach") allowed around the name; anything else there (another method, "agentic search
# with") and the sentence is about something else.
_GLOSS_SUBJECT_VERBS = re.compile(
    r"\b(is|are|refers? to|enables?|allows?|aims? to|has emerged|have emerged|promises?|consists? of|"
    r"has become|have become|has gained|have gained|has shown|have shown|has attracted|have attracted|"
    r"offers?|provides?|represents?|leverages?|extends?|combines?|treats?|formulates?|uses|employs?|"
    r"learns?|generates?|trains?|seeks? to|focuses on|integrates?|improves?)\b",
    re.IGNORECASE,
)
_PARENS = re.compile(r"\([^)]*\)|\[[^\]]*\]")
_SUBJECT_FILLER = frozenset(
    "the a an recent recently existing emerging modern current such as so-called called known "
    "method methods approach approaches technique techniques paradigm paradigms framework frameworks "
    "based -based".split()
)
GLOSS_SEARCH_PAPERS = 60  # directions: the most central members searched for a sentence defining them


def gloss_subject(sentence: str) -> str:
    """The subject of a sentence's first defining verb (the words before it), "" without one."""
    m = _GLOSS_SUBJECT_VERBS.search(sentence)
    return sentence[: m.start()].strip(" ,;:") if m else ""


def defines_own_name(sentence: str, key: str) -> bool:
    """Whether `sentence` defines the direction keyed `key`: the subject of its first defining
    verb (`gloss_subject`) is that name and nothing else (an article, a kind word such as
    "methods", a parenthesised acronym or expansion and the domain's generic words aside).
    "Supervised fine-tuning (SFT) is ..." defines SFT; "Reinforcement learning from human
    feedback (RLHF), which follows supervised fine-tuning, is ..." does not; nor does "Agentic
    search with reinforcement learning enables ..." define reinforcement learning."""
    full = gloss_subject(sentence)
    subject = _PARENS.sub(" ", full)
    if not subject.strip():
        return False
    words = [normalise(w) for w in tokens(subject) if w.lower() not in _SUBJECT_FILLER]
    own = key.split()
    generic = {normalise(w) for w in GENERIC_WORDS}
    if words == own or ([w for w in words if w not in generic] == [w for w in own if w not in generic] and own):
        return True
    # the name as the acronym of the subject: "Retrieval Augmented Generation (RAG) has emerged ..."
    inside = [normalise(w) for m in _PARENS.finditer(full) for w in tokens(m.group(0))]
    return inside == own and acronym_of(m_text(full), " ".join(tokens(subject)))


def m_text(subject: str) -> str:
    """The first parenthesised word of a subject ("RAG" of "Retrieval Augmented Generation (RAG)")."""
    m = _PARENS.search(subject)
    return " ".join(tokens(m.group(0))) if m else ""


def gloss(key: str, papers: list[ScreenedPaper], strict: bool = False) -> tuple[str, str]:
    """(sentence, arxiv id): a verbatim sentence of a central member's abstract that says what
    the direction is, or ("", "") when none qualifies.

    A sentence qualifies when it holds the direction's key (`core.phrases.phrase_keys`), is
    GLOSS_MIN_CHARS..GLOSS_MAX_CHARS long, has no markup, and does not start like a fragment or
    a back-reference or a paper's own claim ("However", "This", "We", "In this paper", "Results";
    no "we"/"our" anywhere, no "then" of a method step), and either has a defining verb (is,
    refers to, enables, ...) naming the key within its first 9 words, or opens on the key (its
    subject: the key ends within the first STRICT_FIRST_WORD + 1 words). A direction's gloss
    (not `strict`) must moreover define its own name (`defines_own_name`: the name, and nothing
    else, is the subject of the sentence's first defining verb), searched over the
    GLOSS_SEARCH_PAPERS most central members. Defining sentences come
    first, then those opening on the key, then the more central paper's; none qualifying, the
    option shows titles only (a hand check found other fallback sentences read as noise). `strict` (approaches, whose names are short and
    common in method steps): only a sentence with a defining verb that opens on the key (it ends
    within the first STRICT_FIRST_WORD + 1 words: "LoRA (Low-Rank Adaptation) is ...").
    """
    best: tuple | None = None
    for rank, p in enumerate(papers[: GLOSS_PAPERS if strict else GLOSS_SEARCH_PAPERS]):
        for s in _SENTENCE.split(p.abstract or ""):
            s = " ".join(s.split())
            if (
                not (GLOSS_MIN_CHARS <= len(s) <= GLOSS_MAX_CHARS)
                or _GLOSS_SKIP.match(s)
                or _MARKUP.search(s)
                or _GLOSS_OWN_WORK.search(s)
            ):
                continue
            if key not in phrase_keys(s):
                continue
            words = s.split()
            first = next((i for i in range(len(words)) if key in phrase_keys(" ".join(words[: i + 1]))), len(words))
            defines = bool(_GLOSS_DEFINES.search(s)) and first <= 8
            opens_on_key = first <= STRICT_FIRST_WORD  # the sentence is about the direction: it is its subject
            if strict and not (defines and opens_on_key):
                continue  # an approach's gloss opens on its name with a defining verb
            if not strict and not defines_own_name(s, key):
                continue  # a direction's gloss has its name as the subject of a defining verb
            score = (not defines, not opens_on_key, rank, first)
            if best is None or score < best[0]:
                best = (score, s, p.arxiv_id)
    return (best[1], best[2]) if best else ("", "")

"""Candidate directions defined by title phrases (ForeSci App. B.3), recognisable by embedding.

A candidate direction must be something a reader can assign a paper to, so each one is
*defined* by a phrase of the domain's titles, and a paper belongs to it when its title
contains that phrase. The rule, step by step (all on cutoff-visible, non-excluded papers):

1. Phrases: the content unigrams, bigrams and trigrams of titles (`core.text.title_phrases`:
   stop, generic and web words removed) held by at least `min_members` papers and by at
   most MAX_DOMAIN_SHARE of the domain (a phrase half the domain uses is no direction).
2. Recognisable by content: every paper's NEIGHBOURS (10) nearest papers by embedding of
   title and abstract are found once (centred cosine, leave-one-out); a paper is *voted*
   into a phrase's set when >= MEMBER_VOTE (30%) of its neighbours hold the phrase
   (`core.clustering.voted`). The phrase's score is
   the F1 of the vote against the title match: how well the papers' content, read by the
   embedder, recovers the phrase's papers. Generic words ("analysis", "data") score low
   because their papers share no content; topics ("prompt injection", "GUI") score high.
   Phrases scoring below MIN_RECOGNISABILITY are not directions.
3. Distinct: phrases are taken best score first; a phrase whose papers overlap an already
   taken one's by more than MAX_MEMBER_OVERLAP (of the smaller set) is the same direction
   and is skipped ("function" after "function calling").
4. Placed in the taxonomy: the candidate's node is the level >= 1 taxonomy node with the
   highest Jaccard overlap with its papers; the node's dimension groups candidates into
   option pools, its evidence record supplies the support packet.

The gold measures the same object two ways (`assets.families.momentum`): by the phrase in
window titles (lexical) and by the same neighbour vote over window papers (embedding).
No Dagster here.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass

import numpy as np

from core.clustering import NEIGHBOURS, neighbours, voted
from core.records import ScreenedPaper, TaxonomyNode
from core.text import title_phrases

MIN_RECOGNISABILITY = 0.2  # F1 of the neighbour vote against the title match
MAX_DOMAIN_SHARE = 0.1
MAX_MEMBER_OVERLAP = 0.5


@dataclass
class PhraseCandidate:
    phrase: str
    members: list[str]  # arxiv ids whose titles hold the phrase, sorted
    recognisability: float  # F1 of the neighbour vote
    node: TaxonomyNode
    central_ids: list[str]  # the members, closest to their centroid first


def centred(vectors: np.ndarray) -> np.ndarray:
    """Vectors minus their mean, re-normalised: static embeddings of one domain share a
    common direction (any two abstracts have cosine ~0.9) that hides topics."""
    v = np.asarray(vectors, dtype=np.float32)
    v = v - v.mean(axis=0)
    return v / np.maximum(np.linalg.norm(v, axis=1, keepdims=True), 1e-12)


def display_form(phrase: str, titles: list[str]) -> str:
    """How the titles write a phrase ("GUI", "MCP", "function calling"): its most frequent
    surface form, lower-cased unless every word of that form is upper-case (an acronym)."""
    pattern = re.compile(r"\b" + r"[\s\-]+".join(map(re.escape, phrase.split())) + r"\b", re.IGNORECASE)
    forms = Counter(m.group(0) for t in titles for m in pattern.finditer(t))
    if not forms:
        return phrase
    form = max(forms.items(), key=lambda kv: (kv[1], kv[0]))[0]
    return " ".join(w if w.isupper() and len(w) > 1 else w.lower() for w in form.split())


def phrase_candidates(papers: list[ScreenedPaper], vectors: np.ndarray, nodes: list[TaxonomyNode], *,
                      min_members: int, max_candidates: int) -> list[PhraseCandidate]:
    """The domain's candidate directions by the rule in the module docstring, best first.

    `papers` are the cutoff-visible, non-excluded papers and `vectors` their embeddings
    (title and abstract), row for row.
    """
    n = len(papers)
    if n == 0:
        return []
    ids = [p.arxiv_id for p in papers]
    phrases = [title_phrases(p.title) for p in papers]
    df = Counter(ph for phs in phrases for ph in phs)
    eligible = sorted(ph for ph, k in df.items() if min_members <= k <= MAX_DOMAIN_SHARE * n)
    if not eligible:
        return []
    col = {ph: j for j, ph in enumerate(eligible)}
    member = np.zeros((n, len(eligible)), dtype=bool)
    for i, phs in enumerate(phrases):
        for ph in phs:
            if ph in col:
                member[i, col[ph]] = True
    V = centred(vectors)
    nn = neighbours(V, V, NEIGHBOURS, exclude=np.arange(n))
    vote = voted(member, nn)
    tp = (vote & member).sum(axis=0)
    precision = tp / np.maximum(vote.sum(axis=0), 1)
    recall = tp / member.sum(axis=0)
    f1 = 2 * precision * recall / np.maximum(precision + recall, 1e-12)
    order = sorted(range(len(eligible)), key=lambda j: (-round(float(f1[j]), 6), -eligible[j].count(" "), eligible[j]))
    taken: list[set[int]] = []
    out: list[PhraseCandidate] = []
    node_sets = [(nd, set(nd.paper_ids)) for nd in nodes if nd.level >= 1 and nd.paper_ids]
    for j in order:
        if f1[j] < MIN_RECOGNISABILITY or len(out) >= max_candidates:
            break
        rows = set(np.flatnonzero(member[:, j]).tolist())
        if any(len(rows & other) > MAX_MEMBER_OVERLAP * min(len(rows), len(other)) for other in taken):
            continue
        member_ids = {ids[i] for i in rows}
        scored = [(len(member_ids & s) / len(member_ids | s), nd.node_id, nd) for nd, s in node_sets if member_ids & s]
        if not scored:
            continue
        node = max(scored, key=lambda t: (t[0], t[1]))[2]
        idx = np.array(sorted(rows))
        centre = V[idx].mean(axis=0)
        central = idx[np.lexsort((idx, -(V[idx] @ centre)))]
        taken.append(rows)
        out.append(PhraseCandidate(phrase=eligible[j], members=sorted(member_ids), recognisability=round(float(f1[j]), 4),
                                   node=node, central_ids=[ids[i] for i in central]))
    return out

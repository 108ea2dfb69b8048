"""Bottleneck themes: limitations stated in pre-cutoff papers, named by the phrase the papers
use for them (ForeSci App. B.3).

A theme is a *limitation object*: the noun phrase that pre-cutoff abstracts name as what
limits the work -- "suffer from hallucination", "vulnerable to prompt injection attacks",
"the scarcity of annotated data", "high latency remains a bottleneck". Defining a theme by
that phrase (as candidate directions are defined by a title phrase) makes it something a
reader can check: every quote of the theme states it, and a window paper addresses it when
its own contribution statement names it (`assets.families.bottleneck`). The rule, step by
step, on cutoff-visible, non-excluded papers only:

1. Limitation sentences: every abstract sentence (`quotes.split_sentences`, verbatim) whose
   limitation score (`quotes.limitation_score`: the evidence extractor's limitation cues
   minus its own-work and remedy cues) is >= LIMITATION_MIN_SCORE.
2. Objects: in a limitation sentence, the noun phrase right after a limitation predicate
   (PRE_PREDICATES: "suffer from", "vulnerable / susceptible / prone to", "struggle with",
   "lack (of)", "absence / scarcity / shortage of", "limited / hindered / hampered /
   constrained / plagued / bottlenecked by", "challenges / issues / risks ... of / in / such
   as / including", "due to", "caused by") or right before one (POST_PREDICATES: "...
   remains a challenge / bottleneck / open problem", "... is costly / expensive /
   prohibitive / unreliable / scarce / underexplored"). A noun phrase is a run of at most
   NP_MAX_WORDS words that are not function words (FUNCTION_WORDS), ended by punctuation or
   a function word; leading determiners are skipped and coordinated phrases ("hallucination
   and error propagation") each count. Intensifiers (INTENSIFIERS: "significant", "severe",
   ...) are dropped; limiting modifiers (LIMITING_MODIFIERS: "high", "limited", "poor", ...)
   stay in the name but not in the key.
3. Keys: the object's last 1..MAX_KEY_WORDS words (English noun phrases are head-final:
   "indirect prompt injection attacks" gives "attacks", "injection attacks", "prompt
   injection attacks"), lower-cased, plural "s" dropped. A key never starts with a stop word
   (`core.text.STOP_WORDS`) and never ends with one or with a word that names no limitation
   by itself (GENERIC_HEADS: "problem", "task", "framework", ...).
4. A key is a theme when it is stated by >= `min_papers` distinct papers, is not the
   domain's own words (`domain_words`: the registry title's words, acronyms expanded by
   ACRONYMS, so "retrieval augmented generation" is never a RAG bottleneck), and is a
   complaint rather than a topic: its limitation lift (share of limitation sentences holding
   the key / share of all abstract sentences holding it) is >= MIN_LIFT, >= UNIGRAM_MIN_LIFT
   for a one-word key. A topic the domain writes about everywhere ("video generation" in
   visual generation) has lift ~1.
5. Distinct themes: keys are taken by score = papers x log(lift) x (1 + 0.5 (words - 1));
   a key whose words contain or are contained in a taken theme's key ("prompt injection"
   after "prompt injection attacks") is an alias of that theme: its papers and quotes join
   it, and the gold matches it too. Shared papers alone never merge keys (limitations
   co-occur: "hallucinations and outdated knowledge"). A one-word key must read as a noun
   (`noun_like`) and never be a word that needs its complement (RELATIONAL_WORDS:
   "reliance", "absence", ...); a longer key never starts with an -ing word the domain uses
   as a verb (`verbal_ing_words`: "generating harmful content" is "harmful content").
6. Synonyms: themes whose keys embed close together (the int8 ONNX MiniLM,
   `semantic_embedder`; average-linkage clustering of the keys at cosine >= SYNONYM_MIN_COS:
   "annotated data" / "labeled data", "high computational costs" / "computational
   demands") are one theme, named by its most recurrent member; without the embedder keys
   are not merged this way. Themes are embedded by their keys ("overhead; computational
   overhead"). Two themes at cosine >= NEAR_MIN_COS stay distinct but are *near*
   (`near`: "overhead" and "high computational costs"): a task never offers both.
7. Name: the theme's key as its statements write it most often (plural and limiting
   modifiers as written: "high latency", "hallucinations"), prefixed by the predicate family
   that >= half of its statements use: "lack of" (lack, absence, scarcity, shortage),
   "vulnerability to" (vulnerable, susceptible, prone), "difficulty with" (struggle) -- so
   the name reads as a limitation, not a topic. Two themes never share a name: the later one
   takes its next surface form, else it is dropped.

With evidence records given, a theme needs >= 1 paper in one (every signal traces to a
record). Recurrence = distinct papers stating the theme. Quotes: one verbatim sentence per paper (the
first stating sentence), at most `max_quotes`, with the paper ids in the same order. Each
theme also carries the evidence records and taxonomy nodes that hold its papers.


The word-level rules (steps 1-3, `states_key`) are in `assets.evidence.limitation_phrases`; the
curated cause lexicon (step 0) in `assets.evidence.causes`."""

from __future__ import annotations

import math
import re
from collections import Counter, defaultdict

import numpy as np

from assets.evidence.causes import CAUSE_FAMILY, cause_themes, joins, umbrella
from assets.evidence.limitation_phrases import (  # noqa: F401 - re-exported: the family reads them here
    DETERMINERS,
    FUNCTION_WORDS,
    LIMITATION_MIN_SCORE,
    LIMITING_MODIFIERS,
    NAME_PREFIX,
    NOUN_SUFFIXES,
    contains_key,
    domain_words,
    limitation_objects,
    norm_word,
    object_keys,
    restates,
    same_term,
    states_key,
    surface_of,
    word_tokens,
)
from assets.evidence.quotes import limitation_score, split_sentences
from core.records import EvidenceRecord, ScreenedPaper

BOTTLENECK_CATEGORIES: dict[str, tuple[str, ...]] = {
    "evaluation_gap": ("benchmark", "evaluat", "metric", "measur", "assess", "leaderboard", "judge"),
    "reliability_safety": (
        "hallucinat",
        "safety",
        "unsafe",
        "attack",
        "jailbreak",
        "robust",
        "reliab",
        "bias",
        "privacy",
        "trust",
        "harm",
        "misalign",
        "deceptive",
        "adversarial",
    ),
    "data_need": ("data", "dataset", "annotat", "scarce", "scarcity", "label", "corpus", "corpora", "supervision"),
    "technical_risk": (
        "cost",
        "expensive",
        "latency",
        "compute",
        "computational",
        "memory",
        "scal",
        "efficien",
        "overhead",
        "slow",
        "prohibitive",
        "resource",
    ),
}


def bottleneck_category(sentences: list[str]) -> str:
    """Category with the most cue hits over the theme's sentences; recurring_limitation if none."""
    counts: Counter[str] = Counter()
    for s in sentences:
        low = s.lower()
        for cat, cues in BOTTLENECK_CATEGORIES.items():
            if any(re.search(r"\b" + c, low) for c in cues):
                counts[cat] += 1
    if not counts:
        return "recurring_limitation"
    best, n = sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))[0]
    return best if n >= max(2, len(sentences) // 3) else "recurring_limitation"


MIN_LIFT = 2.0
UNIGRAM_MIN_LIFT = 2.5
NAME_ALIAS_SHARE = 0.5
DROP_ONE_WORD = True  # step 0: a one-word mined theme that joins no lexicon cause is dropped (issue 32)
SEMANTIC_EMBEDDER = "onnx-minilm"  # resources.embeddings kind of the synonym test: the int8 ONNX all-MiniLM-L6-v2
SYNONYM_MIN_COS = 0.65
NEAR_MIN_COS = 0.45  # two themes this close are distinct but related: never candidates of one task  # a longer alias names the theme when it holds >= half of its papers
NAME_FAMILY_SHARE = 0.5  # a predicate family names the theme when >= half its statements use it


def semantic_embedder():
    """The int8 ONNX MiniLM (`resources.embeddings`, kind SEMANTIC_EMBEDDER) as a callable
    texts -> vectors, or None when it cannot be loaded (the package is missing)."""
    try:
        from resources.embeddings import load_embedder

        return load_embedder(kind=SEMANTIC_EMBEDDER).encode
    except Exception:  # noqa: BLE001 - callers fall back and record it
        return None


def theme_text(aliases) -> str:
    """What a theme is embedded as: its keys, "; "-joined ("overhead; computational overhead")."""
    return "; ".join(a if isinstance(a, str) else " ".join(a) for a in aliases)


def synonym_groups(keys: list[str], embed) -> list[list[int]]:
    """Groups of key indices that name one limitation: average-linkage clustering of the keys'
    embeddings at cosine >= SYNONYM_MIN_COS ("annotated data" / "labeled data"); singletons
    without an embedder."""
    if embed is None or len(keys) < 2:
        return [[i] for i in range(len(keys))]
    from sklearn.cluster import AgglomerativeClustering

    vecs = np.asarray(embed(keys), dtype=np.float32)
    vecs = vecs / np.maximum(np.linalg.norm(vecs, axis=1, keepdims=True), 1e-12)
    labels = AgglomerativeClustering(
        n_clusters=None, distance_threshold=1 - SYNONYM_MIN_COS, metric="cosine", linkage="average"
    ).fit_predict(vecs)
    groups: dict[int, list[int]] = defaultdict(list)
    for i, lab in enumerate(labels):
        groups[int(lab)].append(i)
    return sorted(groups.values(), key=lambda g: g[0])


def limitation_themes(
    papers: list[ScreenedPaper],
    records: list[EvidenceRecord],
    *,
    domain_title: str = "",
    min_papers: int = 3,
    max_quotes: int = 8,
    max_themes: int = 80,
    embed="auto",
) -> list[dict]:
    """The limitation themes of a domain at a cutoff (see the module docstring); `papers`
    must be the cutoff-visible ones. Dicts, most recurrent first: name, key, aliases (keys
    matched, as word tuples joined by spaces), paper_ids (the papers stating it), quotes,
    quote_papers, category, lift, family (the naming predicate family or ""), mention_ids (the
    papers whose title or abstract names any of its keys), near (indices of near themes),
    records, nodes. `embed` is the synonym test's embedder ("auto": `semantic_embedder`; None:
    no synonym merge and no near themes)."""
    usable = sorted((p for p in papers if p.label != "excluded"), key=lambda p: p.arxiv_id)
    dom = domain_words(domain_title)
    n_sent = n_lim = 0
    statements: dict[tuple[str, ...], dict[str, tuple[str, str, str]]] = defaultdict(
        dict
    )  # key -> pid -> (quote, family, surface)
    sentence_tokens: list[tuple[bool, list[str]]] = []
    rows: list[tuple[str, bool, str, list[str]]] = []  # (pid, is limitation, sentence, tokens): the lexicon's input
    for p in usable:
        rows.append((p.arxiv_id, False, p.title, word_tokens(p.title)))
        for s in split_sentences(p.abstract):
            is_lim = limitation_score(s) >= LIMITATION_MIN_SCORE
            sentence_tokens.append((is_lim, word_tokens(s)))
            rows.append((p.arxiv_id, is_lim, s, sentence_tokens[-1][1]))
            n_sent += 1
            if not is_lim:
                continue
            n_lim += 1
            for fam, words in limitation_objects(s):
                surface, keys = object_keys(words)
                for key in keys:
                    statements[key].setdefault(p.arxiv_id, (s, fam, surface_of(surface, len(key))))
    cands = {k: v for k, v in statements.items() if len(v) >= min_papers}
    verbal = verbal_ing_words(sentence_tokens, {k[0] for k in cands if len(k) > 1 and k[0].endswith("ing")})
    cands = {k: v for k, v in cands.items() if not (len(k) > 1 and k[0] in verbal)}
    if not cands or not n_lim:
        return []
    # limitation lift of every candidate key over all abstract sentences
    in_lim: Counter[tuple[str, ...]] = Counter()
    in_all: Counter[tuple[str, ...]] = Counter()
    by_len = defaultdict(set)
    for k in cands:
        by_len[len(k)].add(k)

    def grams(toks: list[str]) -> set[tuple[str, ...]]:
        return {g for n, keys in by_len.items() for i in range(len(toks) - n + 1) if (g := tuple(toks[i : i + n])) in keys}

    for is_lim, toks in sentence_tokens:
        for g in grams(toks):
            in_all[g] += 1
            in_lim[g] += is_lim
    scored = []
    for key, stated in cands.items():
        if not in_all[key] or (len(key) == 1 and not noun_like(key[0], stated.values())):
            continue
        lift = (in_lim[key] / n_lim) / (in_all[key] / n_sent)
        if lift < (UNIGRAM_MIN_LIFT if len(key) == 1 else MIN_LIFT):
            continue
        if restates(" ".join(key), dom):
            continue
        score = len(stated) * math.log(lift) * (1 + 0.5 * (len(key) - 1))
        scored.append((-score, -len(key), key, lift))
    scored.sort()
    themes: list[dict] = []
    for _, _, key, lift in scored:
        pids = set(statements[key])
        host = next((t for t in themes if _same_theme(key, pids, t)), None)
        if host is not None:
            host["aliases"].append(key)
            for pid, st in statements[key].items():
                host["stated"].setdefault(pid, st)
            continue
        themes.append({"key": key, "aliases": [key], "lift": lift, "stated": dict(statements[key]), "own": pids})
    # synonyms: keys that embed close together name one limitation (step 6 of the module docstring)
    embed = semantic_embedder() if embed == "auto" else embed
    merged = []
    for group in synonym_groups([theme_text(t["aliases"]) for t in themes], embed):
        ts = sorted((themes[i] for i in group), key=lambda t: (-len(t["stated"]), t["key"]))
        host = ts[0]
        for t in ts[1:]:
            host["aliases"] += [a for a in t["aliases"] if a not in host["aliases"]]
            for pid, st in t["stated"].items():
                host["stated"].setdefault(pid, st)
        merged.append(host)
    themes = merged
    for t in themes:  # the name comes from the longest alias that holds >= NAME_ALIAS_SHARE of the papers
        named = max(
            (a for a in t["aliases"] if len(statements[a]) >= NAME_ALIAS_SHARE * len(t["stated"])),
            key=lambda a: (len(a), len(statements[a])),
            default=None,
        )
        named = named or max(t["aliases"], key=lambda a: (len(statements[a]), len(a)))
        t["named_by"] = statements[named]
    # the papers that mention each theme (any key, title or abstract): who writes about it
    alias_sets = [set(t["aliases"]) for t in themes]
    lens = {len(a) for t in themes for a in t["aliases"]}
    mentions: list[list[str]] = [[] for _ in themes]
    for p in usable:
        toks = word_tokens(f"{p.title}. {p.abstract}")
        held = {tuple(toks[i : i + n]) for n in lens for i in range(len(toks) - n + 1)}
        for ti, aliases in enumerate(alias_sets):
            if not aliases.isdisjoint(held):
                mentions[ti].append(p.arxiv_id)
    for t, m in zip(themes, mentions):
        t["mentions"] = m
    records_of: dict[str, set[str]] = defaultdict(set)
    nodes_of: dict[str, set[str]] = defaultdict(set)
    for r in records:
        for pid in set(r.representative_ids) | set(r.supporting_ids) | {pe.arxiv_id for pe in r.papers}:
            records_of[pid].add(r.record_id)
            nodes_of[pid].add(r.node_id)
    out: list[dict] = []
    names: set[str] = set()
    for t in sorted(themes, key=lambda t: (-len(t["stated"]), -t["lift"], t["key"])):
        stated_of: dict = t["stated"]
        if records and not any(records_of[p] for p in stated_of):
            continue  # traceable to the evidence records: >= 1 of its papers is in one
        name = theme_name(list(t["named_by"].values()), taken=names)
        if name is None:
            continue
        names.add(name.lower())
        order = sorted(stated_of, key=lambda pid: (len(stated_of[pid][0]) > 300, pid))
        fams = Counter(fam for _, fam, _ in stated_of.values())
        out.append(
            {
                "name": name,
                "key": " ".join(t["key"]),
                "aliases": [" ".join(a) for a in t["aliases"]],
                "paper_ids": order,
                "quotes": [stated_of[pid][0] for pid in order[:max_quotes]],
                "quote_papers": order[:max_quotes],
                "category": bottleneck_category([stated_of[pid][0] for pid in order]),
                "lift": float(t["lift"]),
                "family": fams.most_common(1)[0][0] if fams else "",
                "mention_ids": t["mentions"],
                "records": sorted(set().union(*(records_of[p] for p in order))),
                "nodes": sorted(set().union(*(nodes_of[p] for p in order))),
            }
        )
    out = merge_causes(out, cause_themes(rows, min_papers), records_of, nodes_of, bool(records), max_quotes)[:max_themes]
    # near themes: distinct but close limitations a task should not offer side by side
    if embed is not None and len(out) > 1:
        vecs = np.asarray(embed([theme_text(t["aliases"]) for t in out]), dtype=np.float32)
        vecs = vecs / np.maximum(np.linalg.norm(vecs, axis=1, keepdims=True), 1e-12)
        sims = vecs @ vecs.T
        for i, t in enumerate(out):
            t["near"] = [j for j in range(len(out)) if j != i and sims[i, j] >= NEAR_MIN_COS]
    for t in out:
        t.setdefault("near", [])
    return out


def merge_causes(
    mined: list[dict],
    causes: list[dict],
    records_of: dict[str, set[str]],
    nodes_of: dict[str, set[str]],
    need_record: bool,
    max_quotes: int,
) -> list[dict]:
    """Step 0 (`assets.evidence.causes`): the lexicon's causes as themes; a mined theme whose
    key equals or contains a cause's alias joins it; an unjoined one-word mined theme is
    dropped. Most stated first."""
    out: list[dict] = []
    for t in mined:
        keys = [tuple(a.split()) for a in t["aliases"]]
        host = next((c for c in causes if joins(keys, c["aliases"])), None)
        if host is None:
            if len(t["key"].split()) >= 2 or not DROP_ONE_WORD:
                out.append(t)
            continue
        # only multi-word keys that hold one of the cause's own aliases join: a one-word mined key
        # ("bias") or a sibling key of the mined theme ("reward model bias" beside "length bias")
        # is not this cause, and counted papers that state it were about other biases (issue 32
        # third pass: the length-bias gold counted sycophancy and visual-laziness papers)
        own = list(host["aliases"])
        host["aliases"] += [
            k
            for k in keys
            if len(k) >= 2 and k not in host["aliases"] and any(contains_key(list(k), c) for c in own if len(k) >= len(c))
        ]
        host["mentions"] |= set(t["mention_ids"])
        quote_of = dict(zip(t["quote_papers"], t["quotes"]))
        for pid in t["paper_ids"]:
            host["stated"].setdefault(pid, quote_of.get(pid, ""))
    names = {t["name"].lower() for t in out}
    for c in causes:
        if umbrella(c["name"]):
            continue  # an umbrella cause and the mined themes it absorbed are no candidates (causes.yaml)
        stated = c["stated"]
        if need_record and not any(records_of[p] for p in stated):
            continue
        if c["name"].lower() in names:
            continue
        pids = sorted(stated, key=lambda pid: (not stated[pid], len(stated[pid]) > 300, pid))
        quoted = [pid for pid in pids if stated[pid]][:max_quotes]
        out.append(
            {
                "name": c["name"],
                "key": " ".join(word_tokens(c["name"])),
                "aliases": [" ".join(a) for a in c["aliases"]],
                "paper_ids": pids,
                "quotes": [stated[pid] for pid in quoted],
                "quote_papers": quoted,
                "category": bottleneck_category([stated[pid] for pid in quoted]),
                "lift": 1.0,
                "family": CAUSE_FAMILY,
                "mention_ids": sorted(c["mentions"]),
                "records": sorted(set().union(*(records_of[p] for p in pids))),
                "nodes": sorted(set().union(*(nodes_of[p] for p in pids))),
            }
        )
    return sorted(out, key=lambda t: (-len(t["paper_ids"]), t["name"]))


VERBAL_ING_SHARE = 0.2


def verbal_ing_words(sentence_tokens: list[tuple[bool, list[str]]], words: set[str]) -> set[str]:
    """The -ing words among `words` that the domain's abstracts use as verbs: followed by a
    determiner in >= VERBAL_ING_SHARE of their occurrences ("generating the", "involving
    a"). A key never starts with one ("generating harmful content" is "harmful content");
    nominal ones stay ("training data", "reasoning depth")."""
    seen: Counter[str] = Counter()
    det: Counter[str] = Counter()
    for _, toks in sentence_tokens:
        for a, b in zip(toks, toks[1:]):
            if a in words:
                seen[a] += 1
                det[a] += b in DETERMINERS or b in ("a", "an", "the", "multiple", "diverse", "high-quality")
    return {w for w in words if seen[w] and det[w] / seen[w] >= VERBAL_ING_SHARE}


def noun_like(word: str, stated) -> bool:
    """A one-word key must read as a noun: a noun suffix (NOUN_SUFFIXES: "hallucination",
    "latency", "ambiguity"), or written in the plural by one of its statements ("biases");
    participles and adjectives ("leading", "inefficient") never are keys on their own."""
    if word.endswith(("ing", "ed")):
        return False
    if word.endswith(NOUN_SUFFIXES):
        return True
    return any(
        surface.lower().split()[-1] != word and norm_word(surface.split()[-1]) == word for _, _, surface in stated if surface
    )


def _same_theme(key: tuple[str, ...], pids: set[str], theme: dict) -> bool:
    """A key joins a taken theme when one key's words are a contiguous part of the other's
    ("prompt injection" and "prompt injection attacks"). Shared papers alone never merge two
    keys: limitations co-occur in one sentence ("hallucinations and outdated knowledge")."""
    return any(contains_key(list(a), key) or contains_key(list(key), a) for a in theme["aliases"])


def theme_name(stated: list[tuple[str, str, str]], taken: set[str]) -> str | None:
    """The name of a theme (rule 6 of the module docstring); None when every form is taken."""
    forms = Counter(surface for _, _, surface in stated if surface)
    fams = Counter(fam for _, fam, _ in stated)
    fam, n = fams.most_common(1)[0] if fams else ("", 0)
    prefix = NAME_PREFIX.get(fam, "") if n >= NAME_FAMILY_SHARE * len(stated) else ""
    for form, _ in sorted(forms.items(), key=lambda kv: (-kv[1], len(kv[0]), kv[0])):
        form = form.strip()
        if prefix and form.split()[0].lower() in LIMITING_MODIFIERS:
            name = form  # "limited context" already states the limitation
        else:
            name = f"{prefix} {form}".strip()
        if name.lower() not in taken:
            return name
    return None

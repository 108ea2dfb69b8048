"""The curated cause lexicon (`causes.yaml`): limitations named as causes, so the most stated
limitations of a direction are always candidates (ForeSci §3.4 / App. B.6, the expert curation
step; docs/deviations.md).

A mined theme (`assets.evidence.bottlenecks`) is named by the words its statements use, which
are often a symptom or one word ("bias", "artifacts", "hallucinations"). The lexicon lists
causes a researcher would name ("sparse outcome rewards", "reward hacking", "length bias in
reward models", "error accumulation in long-horizon tasks", "noisy or irrelevant retrieved
passages", "slow iterative sampling", ...), each with a multi-word name and the phrasings that
state it (aliases). Rules (`cause_themes`, `merge_causes`):

- an entry is a theme of a partition when >= `min_papers` cutoff-visible papers state one of
  its aliases in a limitation sentence (`limitation_score` >= LIMITATION_MIN_SCORE; the alias's
  terms within its length + 2 words, `states_key`); its quotes are those sentences;
- a mined theme one of whose keys equals or contains an entry's alias ("sparse reward signals"
  holds "sparse reward") joins the entry: its aliases, papers and quotes are the entry's;
- a mined theme whose key is ONE word and that joined no entry is dropped: a one-word name is
  a vocabulary item or a symptom, not a cause (issue 32); multi-word mined themes stay.
"""

from __future__ import annotations

import re
from functools import lru_cache
from pathlib import Path

import yaml

from assets.evidence.limitation_phrases import TERM_PREFIX_MIN, contains_key, states_key, word_tokens

CAUSES_PATH = Path(__file__).with_name("causes.yaml")
CAUSE_FAMILY = "lexicon"  # the `family` (naming predicate) of a theme the lexicon names


@lru_cache(maxsize=4)
def load_causes(path: str = str(CAUSES_PATH)) -> tuple[tuple[str, tuple[str, ...]], ...]:
    """(name, aliases) of every lexicon entry, in file order; the name is an alias too."""
    data = yaml.safe_load(Path(path).read_text()) or {}
    out = []
    for entry in data.get("causes", []):
        name = str(entry["name"]).strip()
        aliases = [name] + [str(a).strip() for a in entry.get("aliases", []) if str(a).strip()]
        out.append((name, tuple(dict.fromkeys(aliases))))
    return tuple(out)


@lru_cache(maxsize=4)
def cause_flags(path: str = str(CAUSES_PATH)) -> dict[str, dict]:
    """name -> {umbrella: bool, defines: [compiled subject regexes], formerly: [names], near: [names],
    other_senses: {words}, scope: compiled regex or None, model_failure: bool} (causes.yaml header)."""
    data = yaml.safe_load(Path(path).read_text()) or {}
    return {
        str(e["name"]).strip(): {
            "umbrella": bool(e.get("umbrella")),
            "defines": [re.compile(x) for x in e.get("defines") or []],
            "formerly": [str(x) for x in e.get("formerly") or []],
            "near": [str(x) for x in e.get("near") or []],
            "other_senses": frozenset(str(x).lower() for x in e.get("other_senses") or []),
            "scope": re.compile(e["scope"]) if e.get("scope") else None,
            "model_failure": bool(e.get("model_failure")),
            "dropped": frozenset(tuple(word_tokens(str(x))) for x in e.get("dropped") or []),
        }
        for e in data.get("causes", [])
    }


def umbrella(name: str) -> bool:
    """An umbrella cause ("high computational cost", "high inference latency"): never a candidate
    (causes.yaml header)."""
    return cause_flags().get(current_name(name), {}).get("umbrella", False)


def dropped_keys(name: str) -> frozenset[tuple[str, ...]]:
    """Keys removed from the cause (causes.yaml `dropped`): never counted, even when a theme built
    before their removal still lists them."""
    return cause_flags().get(current_name(name), {}).get("dropped", frozenset())


def scope_of(name: str) -> re.Pattern | None:
    """The regex a subject's own papers must match for the cause to be its candidate (causes.yaml
    `scope`: RL-training causes only in subjects whose work trains with RL); None: any subject."""
    return cause_flags().get(current_name(name), {}).get("scope")


# a subject that is a model family: "vision-language models", "LLMs", "MLLMs" (not a method used on one)
MODEL_SUBJECT = re.compile(r"(?i)\b(?:models?|LLMs?|VLMs?|MLLMs?|LVLMs?)\b")


def model_failure_of_method(name: str, subject: str) -> bool:
    """A failure of a model's outputs (causes.yaml `model_failure`: hallucination) offered for a subject
    that is not a model family (blind reading seed 3840: "factual hallucination" as the root bottleneck
    of preference optimisation and of RAG, the methods used AGAINST it): never a candidate there."""
    return cause_flags().get(current_name(name), {}).get("model_failure", False) and not MODEL_SUBJECT.search(subject)


def other_senses(name: str) -> frozenset[str]:
    """Words that, right before a one-word alias of the cause, name another phenomenon
    (causes.yaml `other_senses`: "faithfulness hallucination" is not factual hallucination)."""
    return cause_flags().get(current_name(name), {}).get("other_senses", frozenset())


def defines_subject(name: str, subject: str) -> bool:
    """The cause is the subject's raison d'etre ("cost of full-parameter fine-tuning" for LoRA)."""
    return any(r.search(subject) for r in cause_flags().get(name, {}).get("defines", []))


def near_causes(a: str, b: str) -> bool:
    """Two causes the lexicon marks as one phenomenon in some subjects (`near`, either way round:
    "limited long-term memory" / "limited context window"): a task never offers both."""
    flags = cause_flags()
    return b in flags.get(a, {}).get("near", []) or a in flags.get(b, {}).get("near", [])


def current_name(name: str) -> str:
    """The entry a (possibly merged) cause name now belongs to."""
    return next((n for n, f in cause_flags().items() if name == n or name in f["formerly"]), name)


def lexicon_problems(causes=None) -> list[str]:
    """Integrity of the lexicon: names are multi-word and unique, aliases non-empty, no alias
    shared by two entries (one phrasing names one cause)."""
    causes = load_causes() if causes is None else causes
    problems: list[str] = []
    names: set[str] = set()
    owner: dict[tuple[str, ...], str] = {}
    for name, aliases in causes:
        if len(name.split()) < 2:
            problems.append(f"one-word cause name: {name!r}")
        if name.lower() in names:
            problems.append(f"duplicate cause name: {name!r}")
        names.add(name.lower())
        for a in aliases:
            key = tuple(word_tokens(a))
            if not key:
                problems.append(f"empty alias in {name!r}")
            elif key in owner and owner[key] != name:
                problems.append(f"alias {a!r} in both {owner[key]!r} and {name!r}")
            owner.setdefault(key, name)
    return problems


def cause_themes(sentences: list[tuple[str, bool, str, list[str]]], min_papers: int, causes=None) -> list[dict]:
    """The lexicon entries stated by >= `min_papers` papers. `sentences`: (paper id, is a
    limitation sentence, sentence, its word tokens) of every cutoff-visible abstract sentence
    (titles count as mentions, not statements). Dicts: name, aliases (word tuples), stated
    (pid -> first stating sentence), mentions (pids whose text holds an alias)."""
    causes = load_causes() if causes is None else causes
    index: dict[str, set[int]] = {}  # a word's TERM_PREFIX_MIN-letter prefix -> sentences holding it
    for i, (_, _, _, toks) in enumerate(sentences):
        for t in toks:
            index.setdefault(t[:TERM_PREFIX_MIN], set()).add(i)
    out = []
    for name, aliases in causes:
        keys = [k for a in aliases if (k := tuple(word_tokens(a)))]
        stated: dict[str, str] = {}
        mentions: set[str] = set()
        rows: set[int] = set()
        for k in keys:  # only sentences holding every term's prefix can state the key
            rows |= set.intersection(*(index.get(w[:TERM_PREFIX_MIN], set()) for w in k))
        for i in sorted(rows):
            pid, is_lim, sentence, toks = sentences[i]
            if (pid in mentions and (pid in stated or not is_lim)) or not any(states_key(toks, k) for k in keys):
                continue
            mentions.add(pid)
            if is_lim:
                stated.setdefault(pid, sentence)
        if len(stated) >= min_papers:
            out.append({"name": name, "aliases": keys, "stated": stated, "mentions": mentions})
    return out


def joins(mined_aliases: list[tuple[str, ...]], cause_aliases: list[tuple[str, ...]]) -> bool:
    """A mined theme joins a cause when one of its keys equals or contains one of the cause's
    aliases ("sparse reward signal" holds "sparse reward")."""
    return any(contains_key(list(m), c) for m in mined_aliases for c in cause_aliases if len(m) >= len(c))

"""The KIND of a candidate direction (issue 32): method, task, data, goal, modality or problem.

Expert readers scored direction option sets low when their options mixed kinds: a capability
beside methods ("mathematical reasoning" beside RLVR and SFT), applications beside a method
("medical reasoning", "text-to-SQL" beside process reward models), data or a goal beside methods
("human preferences", "safety alignment" beside RLHF and DPO), modalities beside generative
methods ("MRI" beside GANs), an umbrella goal beside what serves it ("preference alignment"
beside DPO). The direction family therefore offers only options of ONE kind
(`assets.toolbox.option_level`), and a candidate whose kind is unknown is never offered.

The kind is decided offline and deterministically, in this order (`direction_kind`):

1. the shipped lexicon (`kinds.yaml`, expert-curated, ForeSci B.3/B.6's human revision step):
   an umbrella goal ("preference alignment", "LLM reasoning") is never offered; a known name
   has its kind; a method modifier before a task head names a method for the task
   ("autoregressive image generation"); "X-to-Y" names a task ("text-to-SQL"); a domain
   modifier before a capability ("medical reasoning") names an application (task); otherwise
   the head word (the model words stripped when a task head precedes them: "video generation
   models" is the task) is looked up per kind;
2. the corpus (`usage_cues`): over every cutoff-visible paper's title and abstract, the share
   of the name's uses that follow a method cue ("via", "using", "with", "based on", ... within
   3 words: `METHOD_CUES`) against the share that follow "for"
   (within 2 words) or precede "task"/"problem"/"benchmark"; a name the lexicon leaves open is a
   method when its method share is >= CUE_MIN and above its task share by CUE_MARGIN, a task
   when the reverse holds;
   a name the lexicon calls a method by its head word alone (not a known name) whose task share
   is above its method share by CUE_MARGIN is used as a target, not a method ("diffusion
   language models" in post-training: 21% of uses after "for", 3% after a method cue): unknown;
3. otherwise unknown.

Every candidate's kind, the rule that decided it and its cue shares are recorded in its signal
details (`kind`, `kind_why`) by the evidence stage. No Dagster here.
"""

from __future__ import annotations

import re
from functools import lru_cache
from pathlib import Path

import yaml

from core.phrases import GENERIC_WORDS, normalise, tokens

LEXICON_PATH = Path(__file__).with_name("kinds.yaml")
KINDS = ("method", "task", "data", "goal", "modality", "problem", "architecture", "setting", "paradigm")
# A modality (MRI, CT, point clouds) is the data a team works on, not a bet it chooses (blind
# reading seed 3637: "MRI, point cloud, underwater image or CT" offered to a generative-modelling
# team): recognised, never offered.
NOT_OFFERED = frozenset({"modality"})
UMBRELLA, UNKNOWN, ACTIVITY = "umbrella", "unknown", "activity"  # never offered
CUE_MIN = 0.15  # share of uses after a method cue (or a task cue) for the corpus to decide a kind
CUE_MARGIN = 0.08  # ... and above the other cue's share by this much
MIN_CUE_USES = 20  # fewer uses in the corpus and the corpus does not decide
METHOD_CUE_WINDOW, TASK_CUE_WINDOW = 3, 2
# Words after which a name is used as a method ("via X", "using X", "based on X").
METHOD_CUES = frozenset(
    "via using with through by leveraging combining integrating incorporating employing adopting "
    "applying utilizing utilising exploiting powered built based".split()
)
TASK_NEXT = frozenset("task problem benchmark application scenario".split())
_MODEL_WORDS = frozenset("model models modeling modelling network networks".split())


def _key(text: str) -> str:
    return " ".join(normalise(w) for w in tokens(text))


@lru_cache(maxsize=1)
def lexicon() -> dict:
    """The lexicon of `kinds.yaml`, every entry as a normalised key."""
    raw = yaml.safe_load(LEXICON_PATH.read_text())
    names = {_key(n): kind for kind, ns in raw["names"].items() for n in ns}
    heads = {_key(h): kind for kind, hs in raw["heads"].items() for h in hs}
    return {
        "umbrellas": frozenset(_key(u) for u in raw["umbrellas"]),
        "activities": frozenset(_key(u) for u in raw.get("activities") or []),
        "directions": _directions(raw.get("directions") or {}),
        "domain_context": dict(raw.get("domain_context") or {}),
        "names": names,
        "heads": heads,
        "method_modifiers": frozenset(_key(m) for m in raw["method_modifiers"]),
        "capability_heads": frozenset(_key(m) for m in raw["capability_heads"]),
        "domain_modifiers": frozenset(_key(m) for m in raw["domain_modifiers"]),
        "hierarchy": {_key(p): frozenset(_key(c) for c in cs) for p, cs in (raw.get("hierarchy") or {}).items()},
        "roles": {_key(n): role for role, ns in (raw.get("method_roles") or {}).items() for n in ns},
    }


def _directions(raw: dict) -> dict[str, dict]:
    """Known directions (`directions` in kinds.yaml) by every key that names them: the entry's
    own key, its acronyms (lower-cased) and its phrases."""
    out: dict[str, dict] = {}
    for name, entry in raw.items():
        entry = {
            "acronyms": tuple(entry.get("acronyms") or ()),
            "phrases": tuple(entry.get("phrases") or ()),
            "definition": str(entry.get("definition") or "").strip(),
        }
        for alias in (name, *entry["acronyms"], *entry["phrases"]):
            out.setdefault(_key(alias), entry)
    return out


def direction_entry(name: str) -> dict | None:
    """The lexicon's entry for a direction named `name` (by its key, an acronym or a phrase)."""
    return lexicon()["directions"].get(_key(name))


def definition_of(name: str) -> str:
    """The lexicon's one-line definition of a direction, or ""."""
    entry = direction_entry(name)
    return entry["definition"] if entry else ""


def coordinated_forms(phrase: str) -> list[str]:
    """The coordinated forms of a phrase whose first word is a hyphenated pair: "audio-video
    generation" is also written "audio and video generation" (blind reading seed 3738: UniAVGen
    "Unified Audio and Video Generation" and Harmony "Audio and Video Generation" were not
    counted as audio-video generation before the cutoff). Words are as written; the caller keys them."""
    words = phrase.split()
    if not words or words[0].count("-") != 1 or "-to-" in phrase.lower():
        return []
    a, b = words[0].split("-")
    if not a.isalpha() or not b.isalpha() or len(words) < 2:
        return []
    return [" ".join([a, "and", b, *words[1:]])]


def name_variants(name: str) -> tuple[frozenset[str], tuple[str, ...]]:
    """(phrase keys, acronyms) a direction is written by: its lexicon entry's long forms and
    common variants, each with its coordinated form (`coordinated_forms`), as normalised keys
    matched by `core.phrases.names`, and its acronyms (matched case-sensitively by
    `acronym_pattern`). "DPO" is also written "direct preference optimization"; counting only
    the option's own name undercounted it ~5x (blind reading seed 3637)."""
    entry = direction_entry(name)
    if not entry:
        return frozenset(), ()
    written = [f for p in entry["phrases"] for f in (p, *coordinated_forms(p))]
    keys = frozenset(k for p in written if (k := _key(p)))
    return keys, entry["acronyms"]


# Words that, written right AFTER a direction's name, make the title about another task performed on
# that object (blind reading seed 3840: "Long-Form Video Editing" counted as long video generation,
# "long video understanding" likewise): "<name> editing" is an editing paper, not a <name> paper,
# unless the option's own name holds that word. Normalised when used.
OTHER_TASK_TAILS = (
    "editing",
    "understanding",
    "retrieval",
    "captioning",
    "question answering",
    "recognition",
    "detection",
    "segmentation",
    "prediction",
    "forecasting",
    "tracking",
    "estimation",
    "capture",
    "compression",
    "restoration",
    "super-resolution",
    "classification",
    "watermarking",
)


_GENERIC_KEYS = frozenset(normalise(w) for w in GENERIC_WORDS)


@lru_cache(maxsize=4096)
def masked_names(phrases: frozenset[str]) -> tuple[str, ...]:
    """Longer names to blank out of a text before it is searched for a direction's `phrases`
    (normalised keys), so that a title counts for the most specific direction it names:

    * longest known name: a name of ANOTHER direction of the lexicon (`directions` in kinds.yaml)
      that contains one of the phrases ("process reward model" holds "reward model"; "long video
      understanding" holds "long video"): a PRM paper is counted for PRMs, not for reward models
      (blind reading seed 3840: the reward-model list was padded with PRMs);
    * another task on the object: a phrase followed by a word of OTHER_TASK_TAILS the phrase does
      not hold itself ("long form video edit...").
    """
    own = set(phrases)
    out = set()
    for k in lexicon()["directions"]:
        if k in own:
            continue
        hit = [p for p in phrases if f" {p} " in f" {k} "]
        # a longer name that is one of the option's own names written with a generic word ("deep
        # research agents" for "deep research") is the same direction, not a narrower one
        core = set(k.split()) - _GENERIC_KEYS
        if hit and not any(core == set(p.split()) - _GENERIC_KEYS for p in phrases):
            out.add(k)
    tails = [_key(t) for t in OTHER_TASK_TAILS]
    for p in phrases:
        for t in tails:
            if t and f" {t} " not in f" {p} ":
                out.add(f"{p} {t}")
    return tuple(sorted(out, key=len, reverse=True))


def without_names(normal: str, masked: tuple[str, ...]) -> str:
    """`normal` (as `core.phrases.normal_text`) with every name of `masked` blanked out."""
    for k in masked:
        if f" {k} " in normal:
            normal = normal.replace(f" {k} ", " | ")
    return normal


# Words that, written right before a direction's name, say the paper is NOT about it (blind reading
# seed 3738: "...Without Verifiable Rewards" and "Beyond Verifiable Rewards" were counted as RLVR):
# a negation or a contrast ("beyond X", "X-free" is one word and never matches). Normalised forms.
NEGATORS = frozenset({"without", "beyond", "no", "not", "non", "instead", "o"})  # "w/o" tokenises to "w", "o"


def _preceded_by_negator(before: str) -> bool:
    words = before.split()
    return bool(words) and words[-1].lower() in NEGATORS


def names_affirmed(key: str, normal: str) -> bool:
    """Whether a text (as `core.phrases.normal_text`) names `key` at least once NOT right after a
    negation or contrast word (`NEGATORS`): "RLVR ... without verifiable rewards" still names
    RLVR by its first mention; "Learning Without Verifiable Rewards" does not."""
    pad = f" {key} "
    start = normal.find(pad)
    while start >= 0:
        if not _preceded_by_negator(normal[: start + 1]):
            return True
        start = normal.find(pad, start + 1)
    return False


def acronym_affirmed(pattern: re.Pattern | None, text: str) -> bool:
    """Whether `text` writes one of the acronyms of `pattern` at least once not right after a
    negation or contrast word (`NEGATORS`: "Beyond RLVR" is not an RLVR paper)."""
    if pattern is None:
        return False
    for m in pattern.finditer(text or ""):
        before = re.sub(r"[^A-Za-z ]", " ", text[: m.start()])
        if not _preceded_by_negator(before):
            return True
    return False


def acronym_pattern(acronyms: tuple[str, ...]) -> re.Pattern | None:
    """Case-sensitive whole-word match of any acronym, plural "s" and hyphenated forms allowed
    ("PRMs", "α-DPO", "MoE-based"); not inside a longer word ("DPOP", "SWEET")."""
    if not acronyms:
        return None
    alt = "|".join(re.escape(a) for a in sorted(acronyms, key=len, reverse=True))
    return re.compile(rf"(?<![A-Za-z0-9])(?:{alt})s?(?![A-Za-z0-9])")


def domain_context(domain: str) -> re.Pattern | None:
    """The domain's context pattern (`domain_context` in kinds.yaml), or None (not filtered): a
    paper counts for a direction only when its title or abstract is about the domain."""
    pat = lexicon()["domain_context"].get(domain)
    return re.compile(pat) if pat else None


def method_role(name: str) -> str | None:
    """The role a method plays (`method_roles` in kinds.yaml: generative paradigm, post-training,
    sampling cost, inference-time compute, use of a trained generator, ...), by the name's key or, through its
    `directions` entry, by any of that entry's names; None when the lexicon lists none. Two
    options of different roles are not one level (blind reading seed 3738: flow matching beside
    preference optimisation, diffusion priors and one-step diffusion)."""
    roles = lexicon()["roles"]
    key = _key(name)
    if key in roles:
        return roles[key]
    entry = direction_entry(name)
    if entry:
        for alias in (*entry["acronyms"], *entry["phrases"]):
            if (k := _key(alias)) in roles:
                return roles[k]
    return None


def _under(parent: str, child: str, tree: dict[str, frozenset[str]], seen: frozenset[str] = frozenset()) -> bool:
    kids = tree.get(parent, frozenset())
    return child in kids or any(_under(k, child, tree, seen | {parent}) for k in kids if k not in seen | {parent})


def related_in_lexicon(a: str, b: str) -> bool:
    """`a` and `b` are one of the lexicon's known families (`hierarchy` in kinds.yaml): one sits
    under the other (transitively) or they mean the same: never two sibling options."""
    tree = lexicon()["hierarchy"]
    ka, kb = _key(a), _key(b)
    return ka == kb or _under(ka, kb, tree) or _under(kb, ka, tree)


def usage_cues(key: str, normal_texts: list[str]) -> dict[str, float]:
    """How the corpus uses a name: {"uses", "method_share", "task_share"} over texts given as
    `core.phrases.normal_text` (segments separated by " | ")."""

    pad = f" {key} "
    uses = method = task = 0
    for text in normal_texts:
        start = text.find(pad)
        while start >= 0:
            uses += 1
            prev = text[:start].split(" ")[-METHOD_CUE_WINDOW:]
            if "|" in prev:
                prev = prev[len(prev) - prev[::-1].index("|") :]
            nxt = text[start + len(pad) :].split(" ", 1)[0]
            method += any(w in METHOD_CUES for w in prev)
            task += "for" in prev[-TASK_CUE_WINDOW:] or nxt in TASK_NEXT
            start = text.find(pad, start + len(pad) - 1)
    return {
        "uses": float(uses),
        "method_share": round(method / uses, 4) if uses else 0.0,
        "task_share": round(task / uses, 4) if uses else 0.0,
    }


def _lexicon_kind(name: str) -> tuple[str, str] | None:
    lex = lexicon()
    key = _key(name)
    words = key.split()
    if not words:
        return None
    if key in lex["umbrellas"]:
        return UMBRELLA, f"lexicon: '{name}' is an umbrella goal, never a sibling of the bets under it"
    if key in lex["activities"]:
        return ACTIVITY, f"lexicon: '{name}' is a generic activity every direction does, not a research bet"
    if key in lex["names"]:
        return lex["names"][key], f"lexicon: known {lex['names'][key]} name '{name}'"
    # strip model words after a task head: "video generation models" is the task, "text-to-image models" too
    core = words
    while len(core) > 1 and core[-1] in {normalise(w) for w in _MODEL_WORDS}:
        core = core[:-1]
    head = core[-1]
    head_kind = lex["heads"].get(head)
    if core is not words and head_kind != "task" and "to" not in name.lower().split("-"):
        core, head, head_kind = (
            words,
            words[-1],
            lex["heads"].get(words[-1]),
        )  # "diffusion transformers": the model words are the head
    if len(core) > 1 and core[0] in lex["method_modifiers"] and head_kind == "task":
        return "method", f"lexicon: method modifier '{core[0]}' before the task head '{head}'"
    if any("-to-" in w.lower() for w in name.split()) and head_kind != "method":
        return "task", f"lexicon: '{name}' maps one thing to another (X-to-Y), a task"
    if len(core) > 1 and head in lex["capability_heads"] and any(w in lex["domain_modifiers"] for w in core[:-1]):
        return "task", f"lexicon: a domain before the capability '{head}' names an application"
    if head_kind is not None:
        return head_kind, f"lexicon: head word '{head}' names a {head_kind}"
    return None


def direction_kind(name: str, cues: dict[str, float] | None = None) -> tuple[str, str]:
    """(kind, why) of a candidate direction named `name` (rules in the module docstring);
    `cues` from `usage_cues` (None: the lexicon alone). The kind is one of KINDS, UMBRELLA or
    UNKNOWN; the last two are never offered."""
    if (found := _lexicon_kind(name)) is not None:
        kind, why = found
        if kind == "method" and why.startswith("lexicon: head") and cues and cues.get("uses", 0) >= MIN_CUE_USES:
            m, t = cues.get("method_share", 0.0), cues.get("task_share", 0.0)
            if t >= m + CUE_MARGIN:  # "diffusion language models" in post-training: what is trained, not how
                return UNKNOWN, (
                    f"unknown: {why[len('lexicon: ') :]}, but the corpus uses it as a target "
                    f"({t:.0%} of its {int(cues['uses'])} uses follow 'for' or precede 'task', {m:.0%} a method cue)"
                )
        return found
    if cues and cues.get("uses", 0) >= MIN_CUE_USES:
        m, t = cues.get("method_share", 0.0), cues.get("task_share", 0.0)
        if m >= CUE_MIN and m >= t + CUE_MARGIN:
            return (
                "method",
                f"corpus: {m:.0%} of its {int(cues['uses'])} uses follow a method cue (via/using/with/based on), {t:.0%} a task cue",
            )
        if t >= CUE_MIN and t >= m + CUE_MARGIN:
            return "task", f"corpus: {t:.0%} of its {int(cues['uses'])} uses follow 'for' or precede 'task', {m:.0%} a method cue"
        return UNKNOWN, f"unknown: not in the lexicon and the corpus is mixed (method cue {m:.0%}, task cue {t:.0%})"
    return UNKNOWN, "unknown: not in the lexicon and too few uses in the corpus to decide"


def offered(kind: str) -> bool:
    """Whether a candidate of this kind may be an option at all: a research bet of a known kind
    (not unknown, an umbrella, a generic activity, or a modality)."""
    return kind in KINDS and kind not in NOT_OFFERED

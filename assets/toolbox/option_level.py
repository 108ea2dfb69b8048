"""Options of one level (issue 32): siblings of one field, none an umbrella over another.

An expert reading a direction task expects its options to be bets of the same kind: "flow
matching, rectified flow, consistency models or diffusion distillation", not "flow matching,
medical image segmentation, diffusion priors or image restoration" (a method beside an
application field beside a task), and never "reasoning models" beside RLVR (an umbrella beside
one of the things under it). `level_problem` says why a set of candidate signals is not one
level, pair by pair:

* **nested name**: one name's content words are part of the other's ("reward models" /
  "process reward models"): the shorter is an umbrella over the longer;
* **containment**: more than CONTAINED of one option's papers name the other in their title or
  abstract (`details["containment"]`, written by the evidence stage from
  `assets.evidence.candidates.containment`): most RLVR papers say "reasoning models", so
  "reasoning models" is an umbrella over RLVR, not a bet beside it;
* **breadth**: one option holds more than BREADTH_RATIO times the papers of another: a bet that
  much broader is a level above it (a field beside a technique);
* **field**: two options' paper centroids (centred cosine, `details["neighbour_cos"]`) below
  FIELD_PAIR_MIN: they are from unrelated fields (medical segmentation beside flow matching);
  or, in a set of 3+, one option's mean cosine to the others below FIELD_MEAN_MIN (an outlier:
  "time series" beside model merging, PEFT and catastrophic forgetting). Two options of one
  kind (below) need only SAME_KIND_FIELD_PAIR_MIN / SAME_KIND_FIELD_MEAN_MIN: the kind rule now
  does what the distance did for mixed kinds.

* **family**: the shipped lexicon's `hierarchy` (kinds.yaml) relates the two names: one under
  the other (LoRA under PEFT, GRPO under policy optimization) or the same (reward models /
  reward modeling): what the data rules above miss because papers do not always name the
  umbrella;

* **role** (blind reading seed 3738): two methods the lexicon gives different roles
  (`method_roles` in kinds.yaml: a generative paradigm, a post-training stage, a sampling-cost
  target, an inference-time technique, a use of a trained prior) are not siblings: "flow
  matching, preference optimization, diffusion priors or one-step diffusion" mixes four levels;

* **kind** (issue 32, `assets.evidence.kinds`): every option is of one kind -- method, task,
  data, goal, modality or problem -- ("mathematical reasoning", a capability, is no sibling of
  RLVR and SFT; "MRI", a modality, none of GANs); a candidate whose kind is unknown, or an
  umbrella goal ("preference alignment", "LLM reasoning"), is never an option. The kind is the
  evidence stage's `details["kind"]` (lexicon and corpus cues), else the lexicon alone.

Missing details (hand-made or older signals) mean no finding for that rule (the kind rule falls
back to the lexicon). The rules read
only what the evidence stage recorded; no Dagster here.
"""

from __future__ import annotations

import re

from assets.evidence.kinds import ACTIVITY, UMBRELLA, direction_kind, method_role, offered, related_in_lexicon
from assets.toolbox.option_text import option_definition
from core.phrases import content_words, is_name, stems
from core.records import Signal

CONTAINED = 0.5  # one option's papers naming the other (title or abstract): more than this and the other is its umbrella
BREADTH_RATIO = 8.0  # papers of the broadest option / papers of the narrowest: more and they are not one level
FIELD_PAIR_MIN = 0.07  # every two options' centroid cosine at least this (was 0.05; 0.10 blocked one-field sets)
FIELD_MEAN_MIN = 0.15  # in a set of 3+, each option's mean centroid cosine to the others at least this
# Options of one kind (`kind_problem`: the bar that now keeps a method from an application or a
# modality) need only not be opposed in content: "code generation" and "machine translation" (both
# tasks of post-training), "safety alignment" and "mathematical reasoning" (both goals) are bets of
# one domain whose centroids are merely orthogonal. The bars above were set when mixed kinds were
# caught only by their distance ("flow matching / medical image segmentation").
SAME_KIND_FIELD_PAIR_MIN = 0.0
SAME_KIND_FIELD_MEAN_MIN = 0.10
_MODEL_STEMS = frozenset({"model"})  # "modeling" / "models": the kind of thing, not the topic


def _name(s: Signal) -> str:
    return " ".join((s.title or "").split()).strip(" /") or s.signal_id


def _share(details: dict, key: str, other_id: str) -> float | None:
    for item in details.get(key, []):
        sid, _, value = str(item).rpartition("=")
        if sid == other_id:
            return float(value)
    return None


def containment(a: Signal, b: Signal) -> float | None:
    """Share of `a`'s papers whose title or abstract names `b` (None when not recorded)."""
    return _share(a.details, "containment", b.signal_id)


def cosine(a: Signal, b: Signal) -> float | None:
    c = _share(a.details, "neighbour_cos", b.signal_id)
    return c if c is not None else _share(b.details, "neighbour_cos", a.signal_id)


def n_papers(s: Signal) -> float:
    return float(s.stats.get("n_members", s.stats.get("n_papers", len(s.details.get("member_ids") or s.paper_ids))))


def _letters(name: str) -> str:
    """An acronym's letters ("RLHF" -> "rlhf"), or a multi-word name's initials ("reinforcement
    learning" -> "rl"), hyphen parts counted ("fine-tuning" -> "ft")."""
    words = name.split()
    if len(words) == 1 and is_name(words[0]):
        return re.sub(r"[^a-z]", "", words[0].lower())
    parts = [p for w in content_words(name) for p in re.split(r"[\-']", w) if p]
    return "".join(p[0].lower() for p in parts) if len(parts) > 1 else ""


def nested_name(a: str, b: str) -> bool:
    """`a` names an umbrella over `b`: its content-word stems are a proper part of `b`'s
    ("reward models" of "process reward models", "reward modeling" of "process reward models":
    the model words do not count, "reasoning" of "mathematical reasoning"), or its letters begin
    `b`'s acronym ("RL" / "reinforcement learning" of "RLHF" and "RLVR")."""
    sa, sb = stems(a) - _MODEL_STEMS, stems(b) - _MODEL_STEMS
    if sa and sa < sb:
        return True
    la, lb = _letters(a), _letters(b)
    # an acronym is written in capitals ("RLHF", "PRMs"): a CamelCase name such as "GraphRAG" is
    # no acronym of "generative retrieval" for beginning with "gr" (issue 32 sixth pass)
    b_is_acronym = len(b.split()) == 1 and is_name(b) and re.fullmatch(r"[A-Z][A-Z0-9\-]*s?", b) is not None
    return b_is_acronym and len(la) >= 2 and len(lb) > len(la) and lb.startswith(la)


def kind_of(s: Signal) -> tuple[str, str]:
    """(kind, why) of a candidate. The shipped lexicon decides first when it knows the name
    (`assets.evidence.kinds.direction_kind`: a curated kind is read when the task is built, so a
    lexicon correction -- "multi-agent systems" is a paradigm, not a training method -- applies
    without re-running the evidence stage); else the evidence stage's `details["kind"]` /
    `["kind_why"]` (lexicon and corpus cues). A kind the evidence stage refused (unknown, an
    umbrella) stays refused unless the lexicon names it."""
    lex = direction_kind(_name(s))
    if lex[0] in (UMBRELLA, ACTIVITY) or lex[1].startswith("lexicon: known"):
        return lex
    kind = s.details.get("kind") or []
    if kind:
        return str(kind[0]), str((s.details.get("kind_why") or [""])[0])
    return lex


def definition_problem(s: Signal) -> str | None:
    """An option with no one-line definition (no gloss from its papers and none in the lexicon,
    `assets.toolbox.option_text.option_definition`) is not offered: a reader cannot weigh a bet
    the task does not define (blind reading seed 3637: options B and D had none)."""
    if option_definition(s):
        return None
    return f"definition: '{_name(s)}' has no one-line definition (no gloss and no lexicon entry)"


def kind_problem(a: Signal, b: Signal) -> str | None:
    """Why two candidates are not of one kind, or None: either's kind is never offered
    (unknown, an umbrella goal), or their kinds differ."""
    (ka, wa), (kb, wb) = kind_of(a), kind_of(b)
    for s, k, w in ((a, ka, wa), (b, kb, wb)):
        if not offered(k):
            return f"kind: '{_name(s)}' is not offered ({w})"
    if ka != kb:
        return f"kind: '{_name(a)}' is a {ka}, '{_name(b)}' a {kb} (options of one task are of one kind)"
    return None


def role_problem(a: Signal, b: Signal) -> str | None:
    """Why two options are not siblings although of one kind: the lexicon gives them different
    roles -- the parent they are sub-directions of (`assets.evidence.kinds.method_role`: a
    generative paradigm beside a post-training stage, a sampling-cost target or an
    inference-time technique, blind reading seed 3738; a retrieval strategy beside a sampling-cost
    target, a video generation task beside a 3D one), or None (a parent unknown for either: no
    finding here; `parent_problem` refuses the set)."""
    ra, rb = method_role(_name(a)), method_role(_name(b))
    if ra and rb and ra != rb:
        return f"role: '{_name(a)}' is a {ra} direction, '{_name(b)}' a {rb} one (options of one task play one role)"
    return None


def parent_of(s: Signal) -> str | None:
    """The option's parent: the lexicon's (`method_roles` in kinds.yaml), else one recorded on the
    signal (`details["parent"]`, hand-made candidates and test vocabularies)."""
    return method_role(_name(s)) or (str((s.details.get("parent") or [""])[0]) or None)


def parent_problem(group: list[Signal]) -> str | None:
    """Why a set is not sub-directions of ONE parent, or None: an option the lexicon places under
    no parent (`method_roles` in kinds.yaml). Options that differ in parent are `role_problem`'s.
    Issue 32 sixth pass: the data rules alone (kind, distance, breadth) admitted sets that mixed
    fields and levels, "GUI / medical reasoning / information extraction / report generation",
    "KV cache" beside dense retrieval, "pose estimation" beside view synthesis; a reader expects
    four siblings of one named parent."""
    for s in group:
        if not parent_of(s):
            return f"parent: the lexicon places '{_name(s)}' under no parent (options are sub-directions of one parent)"
    return None


def same_parent(a: Signal, b: Signal) -> bool:
    """The lexicon places both options under one parent (`method_roles` in kinds.yaml): curated
    siblings. Their centroid distance then says nothing about the field: flow matching and GANs,
    both generative paradigms, are written about for different applications (cosine ~0.02), and
    GraphRAG and agentic search, both retrieval strategies of RAG, likewise; the parent is the
    field (issue 32 sixth pass: the distance bars left two direction tasks released)."""
    ra = parent_of(a)
    return bool(ra) and ra == parent_of(b)


def pair_problem(a: Signal, b: Signal) -> str | None:
    """Why two candidates are not siblings of one level, or None (rules in the module docstring)."""
    na, nb = _name(a), _name(b)
    for nx, ny in ((na, nb), (nb, na)):
        if nested_name(nx, ny):
            return f"umbrella: '{nx}' is part of the name '{ny}'"
    if related_in_lexicon(na, nb):
        return f"family: '{na}' and '{nb}' are one family in the lexicon (one under the other, or the same)"
    for x, y, nx, ny in ((a, b, na, nb), (b, a, nb, na)):
        share = containment(y, x)
        if share is not None and share > CONTAINED:
            return f"containment: {share:.0%} of the papers on '{ny}' name '{nx}' (an umbrella over it)"
    pa, pb = n_papers(a), n_papers(b)
    if min(pa, pb) > 0 and max(pa, pb) / min(pa, pb) > BREADTH_RATIO:
        big, small = (na, nb) if pa > pb else (nb, na)
        return f"breadth: '{big}' holds {max(pa, pb) / min(pa, pb):.0f}x the papers of '{small}' (> {BREADTH_RATIO:.0f}x)"
    kind = kind_problem(a, b)
    bar = FIELD_PAIR_MIN if kind else SAME_KIND_FIELD_PAIR_MIN
    cos = cosine(a, b)
    if cos is not None and cos < bar and not same_parent(a, b):
        return f"field: '{na}' and '{nb}' are from different fields (centroid cosine {cos:.2f} < {bar})"
    return kind or role_problem(a, b)


def outlier_problem(group: list[Signal]) -> str | None:
    """An option of a set of 3+ whose mean centroid cosine to the others is below FIELD_MEAN_MIN:
    it is from another field than the rest ("time series" beside model merging, PEFT and
    catastrophic forgetting; "GUI" beside process reward models and GRPO), or None."""
    if len(group) < 3:
        return None
    one_kind = all(kind_problem(a, b) is None for i, a in enumerate(group) for b in group[i + 1 :])
    bar = SAME_KIND_FIELD_MEAN_MIN if one_kind else FIELD_MEAN_MIN
    if all(same_parent(group[0], b) for b in group[1:]):
        return None  # curated siblings: the parent is the field (`same_parent`)
    for a in group:
        cs = [c for b in group if b is not a and (c := cosine(a, b)) is not None]
        if len(cs) == len(group) - 1 and sum(cs) / len(cs) < bar:
            return f"field: '{_name(a)}' is far from the other options (mean centroid cosine {sum(cs) / len(cs):.2f} < {bar})"
    return None


def level_problems(group: list[Signal]) -> list[str]:
    """Every pair's problem and the set's outlier (for reports and the hand-check measure)."""
    out = [p for a in group if (p := definition_problem(a))]
    out += [p for i, a in enumerate(group) for b in group[i + 1 :] if (p := pair_problem(a, b))]
    out += [p] if (p := outlier_problem(group)) else []
    return out + ([p] if (p := parent_problem(group)) else [])


def level_problem(group: list[Signal]) -> str | None:
    """The first reason a set of candidates is not one level of one field, or None."""
    for a in group:
        if p := definition_problem(a):
            return p
    for i, a in enumerate(group):
        for b in group[i + 1 :]:
            if p := pair_problem(a, b):
                return p
    return outlier_problem(group) or parent_problem(group)

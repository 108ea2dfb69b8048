"""Contribution statements of window papers, and when one states that it reduces a limitation.

A window paper's *contribution statements* (`contribution_statements`) are its own-work
abstract sentences with an addressing cue or a contribution verb after a gap, never background;
each carries the gap it answers (module docstring of `assets.families.bottleneck.gold`).

A statement *states that it reduces* a limitation (`states_reduction`, issue 32: counted
papers state they reduce the limitation, not that they study or mention it) when
- its own sentence holds a reduction cue (REDUCTION_CUES: reduce, mitigate, address, overcome,
  alleviate, prevent, avoid, eliminate, defend against, robust to, improve, preserve, ...) and
  one of the limitation's keys starts at most REDUCTION_SPAN words after that cue ("we mitigate
  *reward hacking* by ..."; "robust against *prompt injection*"), with no study verb
  (STUDY_CUES: study, analyse, investigate, evaluate, benchmark, characterise, survey, ...)
  between them; or
- its antecedent (the gap sentence) holds the key and its own sentence refers back to it
  explicitly (ANAPHORA: "To address this challenge, we ...") with a reduction cue or a
  contribution verb.
A key named in a gap sentence that the contribution does not refer back to, or named after a
study verb, is a mention, not a reduction. Issue 32, third pass (blind reading seed 3211 and the
labelled sample):
- a paper whose title says its contribution is a benchmark, survey, evaluation or analysis
  (`building_on.STUDY_TITLE`) reduces nothing it evaluates; only a missing-benchmark limitation
  ("lack of realistic evaluation benchmarks") is reduced by supplying one (`Statement.study`);
- a key followed by a setting noun ("out-of-distribution evaluation", "multi-hop reasoning
  tasks") names where the paper tests, not a limitation it reduces (SETTING_NOUNS);
- a result report ("Our experiments demonstrate that X achieves ... sample efficiency",
  RESULT_REPORT, no contribution verb) counts only with a verb that acts on the limitation
  (STRONG_CUES: "BNRM mitigates reward over-optimization", "reduces gradient variance"); an
  outcome quality ("improvements in sample efficiency", "robust generalization to unseen
  environments") is a result, not what the paper set out to reduce (`Statement.result`).

The opportunity the counted papers opened is read in `assets.families.bottleneck.opportunity`.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import NamedTuple

from assets.evidence.bottlenecks import LIMITATION_MIN_SCORE, word_tokens
from assets.evidence.building_on import STUDY_TITLE
from assets.evidence.limitation_phrases import key_positions, same_term, states_key  # noqa: F401 - re-exported
from assets.evidence.quotes import limitation_score, split_sentences

ADDRESS_CUES = re.compile(
    r"\b(address\w*|mitigat\w*|reduc\w*|overcom\w*|tackl\w*|alleviat\w*|solv\w*|resolv\w*|"
    r"remed\w*|eliminat\w*|lower\w*|prevent\w*|avoid\w*|suppress\w*|minimi[sz]\w*|"
    r"bridg\w*|fill\w*|combat\w*|counter\w*|defen[dcs]\w*|curb\w*|circumvent\w*|handl\w*|"
    r"against|robust\w*|protect\w*|safeguard\w*|resilien\w*|improv\w*|enhanc\w*|boost\w*|"
    r"strengthen\w*|ensur\w*|cop(?:e|es|ing)\s+with|deal\w*\s+with|free\s+(?:of|from))\b",
    re.I,
)
# contribution verbs: a statement when they follow a gap ("X suffers from Y. We propose Z.")
CONTRIBUTION_CUES = re.compile(
    r"\b(?:propos\w*|introduc\w*|present\w*|develop\w*|design\w*|build\w*|"
    r"construct\w*|devis\w*|formulat\w*)\b",
    re.I,
)
# the sentence is about the paper's own work ("we", "our", "this paper", "experiments show")
OWN_WORK = re.compile(
    r"\b(?:we|our|us|this (?:paper|work|study|article|report)|here,? we|"
    r"(?:experiments?|results?|evaluations?|analyses|ablations?) (?:show|demonstrate|reveal|"
    r"confirm|indicate|suggest)\w*)\b",
    re.I,
)
FIRST_PERSON = re.compile(r"\b(?:we|our|us|this (?:paper|work|study|article|report))\b", re.I)
# prior work or the field: never the paper's own claim when it comes before any first person
BACKGROUND = re.compile(
    r"^\W*(?:existing|recent|prior|previous|current|conventional|traditional|most|many|"
    r"several|numerous|standard|typical|popular|mainstream)\b|"
    r"\b(?:has|have)\s+(?:emerged|become|been\s+(?:proposed|widely|extensively|increasingly|"
    r"shown|introduced|developed))|\b(?:is|are)\s+(?:widely|increasingly|commonly)\s",
    re.I,
)
# the object of the statement is in the sentence before ("To address this gap, we ...")
ANAPHORA = re.compile(
    r"\b(?:this|these|those|such|both|the\s+above|the\s+aforementioned|the\s+two|the\s+three|"
    r"the\s+identified|the\s+above-mentioned)\s+(?:[\w\-]+\s+){0,2}?(?:challenge|gap|limitation|"
    r"issue|problem|bottleneck|shortcoming|drawback|weakness|deficienc|difficult|concern|question|"
    r"need|obstacle|barrier|risk|vulnerabilit|trade-off|tension|dilemma|limit|flaw|pitfall)\w*|"
    r"\baddress(?:es|ing)?\s+(?:this|these|it|them)\b|\bto\s+this\s+end\b|"
    r"\b(?:fill|bridge|close)\s+(?:this|the|these)\s+gaps?\b",
    re.I,
)
GAP_DISTANCE = 2  # a statement's gap sentence is at most this many sentences before it
# an outcome sentence: "Experiments show ...", "Our approach outperforms ..., demonstrating ..."
RESULT_REPORT = re.compile(
    r"^\W*(?:(?:extensive|comprehensive)\s+)?(?:experiments?|results?|evaluations?|empirical(?:ly)?)\b|"
    r"\b(?:outperform\w*|surpass\w*|achiev\w*|demonstrat\w*|attain\w*|yield\w*)\b|"
    r"\b(?:results?|experiments?|evaluations?)\s+(?:\w+\s+)?(?:show|confirm|indicate|reveal|verify|suggest)\w*\b",
    re.I,
)


class Statement(NamedTuple):
    """One contribution statement of a window paper: its own-work sentence, the sentence
    before it when the object is anaphoric, and the word sequence of both."""

    own: str
    antecedent: str
    tokens: tuple[str, ...]
    study: bool = False  # the paper is a benchmark, survey, evaluation or analysis (its title says so)
    result: bool = False  # the own sentence reports a result (RESULT_REPORT), with no contribution verb

    @property
    def text(self) -> str:
        return f"{self.antecedent} {self.own}".strip()


def is_background(sentence: str) -> bool:
    """True when a sentence is about prior work or the field, not the paper's own work: no
    own-work marker, or a BACKGROUND opening before its first first-person marker."""
    own = OWN_WORK.search(sentence)
    if own is None:
        return True
    bg = BACKGROUND.search(sentence)
    first = FIRST_PERSON.search(sentence)
    return bg is not None and (first is None or bg.start() < first.start())


def contribution_statements(abstract: str, title: str = "") -> list[Statement]:
    """A window paper's contribution statements (module docstring): own-work sentences with
    an addressing cue, or with a contribution verb (CONTRIBUTION_CUES: propose, introduce, ...)
    right after a gap, background excluded, each with the gap it answers: the sentence
    before it when its object is anaphoric ("To address this, we ..."), else the nearest
    limitation sentence (`limitation_score` >= LIMITATION_MIN_SCORE) at most GAP_DISTANCE
    sentences before it with no own-work sentence in between ("X suffers from error
    accumulation. We propose Y, ...")."""
    sentences = split_sentences(abstract or "")
    own = [not is_background(s) for s in sentences]
    study = bool(STUDY_TITLE.search(title or ""))
    out = []
    for i, s in enumerate(sentences):
        addressing, contributing = bool(ADDRESS_CUES.search(s)), bool(CONTRIBUTION_CUES.search(s))
        if not own[i] or not (addressing or contributing):
            continue
        result = not contributing and not ANAPHORA.search(s) and bool(RESULT_REPORT.search(s))
        ante = ""
        if i > 0 and ANAPHORA.search(s):
            ante = sentences[i - 1]
        else:
            for j in range(i - 1, max(-1, i - 1 - GAP_DISTANCE), -1):
                if own[j]:
                    break
                if limitation_score(sentences[j]) >= LIMITATION_MIN_SCORE:
                    ante = sentences[j]
                    break
        # a contribution without a gap is kept too: it counts only where its own sentence states
        # a reduction (`states_reduction`: "we release X, a large-scale training environment")
        out.append(Statement(s, ante, tuple(word_tokens(f"{ante} {s}")), study, result))
    return out


REDUCTION_CUES = tuple(
    """
address mitigat reduc overcom tackl alleviat solv resolv remed eliminat lower prevent avoid
suppress minimi combat defen curb circumvent handl robust resilien bypass free without cope
bridg improv enhanc boost strengthen ensur maintain preserv decreas lessen remov correct
stabili guard protect safeguard detect against accelerat speed compress fill escap relax
alleviat counteract countermeasur neutrali
""".split()
)
# verbs that act on a limitation: the only reduction cues of a result report (`Statement.result`)
STRONG_CUES = tuple(
    """
address mitigat reduc overcom tackl alleviat solv resolv eliminat prevent avoid suppress
minimi curb counteract decreas lessen remov stabiliz stabilis
""".split()
)
STUDY_CUES = tuple(
    """
study studi analy investigat evaluat benchmark characteri survey review examin explor measur
quantif understand reveal find show identif diagnos audit probe expos
""".split()
)
REDUCTION_SPAN = 10  # a key starts at most this many words after its reduction cue
CLAUSE_BREAK = re.compile(r"[;:]|\b(?:but|while|whereas|although|though|yet)\b", re.I)


def _cue(tok: str, cues: tuple[str, ...]) -> bool:
    return tok.startswith(cues)


def reduction_positions(tokens: list[str], supply: bool = False) -> list[int]:
    """Positions of reduction cues in a word sequence (with the supply cues for a missing resource)."""
    cues = REDUCTION_CUES + SUPPLY_CUES if supply else REDUCTION_CUES
    return [i for i, t in enumerate(tokens) if _cue(t, cues)]


SUPPLY_CUES = tuple(
    """
propos introduc present develop construct build releas synthesi curat generat collect creat design
open-sourc contribut provid
""".split()
)
SUPPLY_PREFIXES = ("lack of ", "scarcity of ", "absence of ", "shortage of ")


def supplies(title: str) -> bool:
    """A limitation that is a missing resource ("lack of realistic evaluation benchmarks",
    "scarcity of training data and environments"): a paper that supplies it reduces it, so a
    contribution verb (SUPPLY_CUES: introduce, build, release, synthesise, ...) is a reduction cue."""
    return title.lower().startswith(SUPPLY_PREFIXES)


# words that end the object of a reduction cue: a means ("by", "via", "through", "using",
# "with"), a relative clause ("that", "which"), a circumstance ("under", "across", "for", "on")
# -- "mitigates forgetting through trajectory-level reward shaping" reduces forgetting, not
# trajectory-level rewards; "improves accuracy by +5.4 on out-of-distribution" is a result
# A new clause's subject or verb ends it too (blind reading seed 3738: "To address this limitation,
# we propose DelTA, a ... credit assignment method" reduces "this limitation", not credit assignment)
OBJECT_BREAK = frozenset(
    """
by via through using use uses with within while which that who whose where when whereas
under across as than then so thus thereby hence after before during since because if is are
was were be been being can could may might will would should must we our
propose proposes proposed introduce introduces introduced present presents presented
outperform outperforms outperforming achieve achieves achieving surpass surpasses yield yields attain attains
""".split()
)
CUE_PARTICLES = frozenset(("with", "from", "against", "of", "to"))
# the own sentence is a study, not a fix ("we present an empirical study", "we analyse")
STUDY_STATEMENT = re.compile(
    r"\b(?:we|this\s+(?:paper|work))\s+(?:\w+\s+){0,2}?(?:stud(?:y|ies)|analy[sz]e|investigate|examine|"
    r"characteri[sz]e|measure|quantify|survey)\b|\b(?:empirical|systematic|comprehensive|large-scale|theoretical|formal)\s+"
    r"(?:study|analysis|investigation|evaluation|comparison)\b",
    re.I,
)
# the paper's own earlier work, not this paper's contribution ("we previously proposed TableMind")
OWN_PRIOR = re.compile(r"\b(?:we|our)\s+(?:have\s+)?(?:previously|earlier|recently)\b|\bour\s+(?:prior|previous|earlier)\b", re.I)
# the gap sentence names several limitations: "two structural limitations", "(1) ... (2)"
ENUMERATION = re.compile(
    r"\((?:1|i|a)\)|\b(?:1\)|first(?:ly)?,|second(?:ly)?,)|\b(?:two|three|four|several|multiple|dual|twofold)\s+(?:[\w\-]+\s+){0,2}?(?:challenges|limitations|issues|problems|"
    r"bottlenecks|shortcomings|drawbacks|weaknesses|gaps|obstacles|barriers|flaws|pitfalls)\b",
    re.I,
)
# a plural anaphor refers to several limitations at once ("To address these challenges")
PLURAL_ANAPHORA = re.compile(
    r"\b(?:these|those|both|the\s+(?:two|three|above|aforementioned|identified|above-mentioned))\s+"
    r"(?:[\w\-]+\s+){0,2}?\w+s\b|\baddress(?:es|ing)?\s+them\b",
    re.I,
)


CONTRAST = re.compile(r"[;]|,?\s\b(?:while|whereas)\b", re.I)


def cue_object(tokens: list[str], c: int, k: int) -> bool:
    """Is the key at `k` the object of the reduction cue at `c`: after it by <= REDUCTION_SPAN
    words, with no study verb and no OBJECT_BREAK word between them (the key is in the noun
    phrase the cue governs: "reduces the variance of sparse rewards", never "improves accuracy
    by 4.9 on out-of-distribution data")."""
    if not c < k <= c + REDUCTION_SPAN:
        return False
    between = tokens[c + 1 : k]
    if between and between[0] in CUE_PARTICLES:  # "cope with", "free from", "defend against"
        between = between[1:]
    return not any(_cue(t, STUDY_CUES) or t in OBJECT_BREAK for t in between)


def single_gap(s: Statement) -> bool:
    """The anaphora path counts only a gap that names one limitation: no enumeration in the gap
    sentence ("two structural limitations", "(1) ... (2)"); an own sentence that is a study
    (STUDY_STATEMENT: "we present an empirical study") never counts."""
    if ENUMERATION.search(s.antecedent):
        return False
    if PLURAL_ANAPHORA.search(s.own) and CONTRAST.search(s.antecedent):
        return False  # "X fails ..., while existing RL ... limited exploration. To address these challenges"
    return not STUDY_STATEMENT.search(s.own)


# nouns after a key that make it the paper's test setting, not a limitation: "out-of-distribution
# evaluation", "multi-hop reasoning tasks", "in-distribution and OOD settings"
SETTING_NOUNS = frozenset(
    """
evaluation evaluations setting settings task tasks question questions benchmark benchmarks dataset
datasets scenario scenarios testbed testbeds split splits qa
""".split()
)
OPEN_KEYS = frozenset(("unseen",))  # a key ending in an adjective takes its noun: "generalize to unseen tasks"
BENCHMARK_TERMS = ("benchmark", "evaluat", "leaderboard")


# "under" a key names the condition the paper works in, not what it reduces (blind reading seed
# 3738: ZipRL's gap "struggle to balance retention and efficiency under the sparse rewards of
# long-horizon workflows" is no sparse-reward paper)
CONDITION_WORDS = frozenset(("under", "amid", "despite"))


def sense_positions(tokens: list[str], key: tuple[str, ...], unlike: frozenset[str] = frozenset()) -> list[int]:
    """`limitation_positions` save a one-word key right after a word naming another phenomenon
    (`unlike`, the cause's `other_senses`: "faithfulness hallucination" for factual hallucination), and
    a key with a lack word ("exploration bottleneck", "restricted exploration": LACK_WORDS, LACK_AFTER)
    matched out of its order: "the bottleneck among exploration paths restricts performance" (OPE)
    states neither (the lack word qualifies something else)."""
    out = []
    ordered = len(key) > 1 and any(t in LACK_WORDS or t in LACK_AFTER for t in key)
    for k in limitation_positions(tokens, key):
        if len(key) == 1 and k > 0 and tokens[k - 1] in unlike:
            continue
        if ordered and not in_order(tokens, k, key):
            continue
        out.append(k)
    return out


def in_order(tokens: list[str], k: int, key: tuple[str, ...]) -> bool:
    """The key's terms occur in its order from position k, within len(key) + 2 words."""
    j, end = k + 1, k + len(key) + 2
    for term in key[1:]:
        while j < min(end, len(tokens)) and not same_term(tokens[j], term):
            j += 1
        if j >= min(end, len(tokens)):
            return False
        j += 1
    return True


def limitation_positions(tokens: list[str], key: tuple[str, ...]) -> list[int]:
    """Where a key names a limitation: its positions (`key_positions`) save those where a setting
    noun follows the key's last term within two words (SETTING_NOUNS) and those right after a
    condition word ("under (the) sparse rewards", CONDITION_WORDS)."""
    out = []
    for k in key_positions(tokens, key):
        last = max((j for j in range(k, min(len(tokens), k + len(key) + 2)) if same_term(tokens[j], key[-1])), default=k)
        if key[-1] not in OPEN_KEYS and any(t in SETTING_NOUNS for t in tokens[last + 1 : last + 3]):
            continue
        if any(t in CONDITION_WORDS for t in tokens[max(0, k - 2) : k]):
            continue
        out.append(k)
    return out


# A limitation that is a LACK of something ("insufficient exploration", "limited context") is the
# opposite of too much of it: "reduces redundant exploration" (ThoughtFold, blind reading seed 3738)
# does not reduce insufficient exploration. LACK_CAUSE reads the cause's name (a lack word, or a
# name opening with one: "quantization error at low bit-width" is an excess); EXCESS the words
# right before a key hit.
LACK_CAUSE = re.compile(
    r"\b(insufficient|lack of|lacking|scarcity of|scarce)\b|^(limited|sparse|poor|missing|low|narrow)\b", re.I
)
EXCESS = frozenset({"redundant", "excessive", "unnecessary", "superfluous", "wasteful", "over", "overly", "too"})


def excess_before(tokens: list[str], k: int) -> bool:
    """One of the two words before position k qualifies it as too much (EXCESS; "over-exploration")."""
    return any(t in EXCESS for t in tokens[max(0, k - 2) : k])


# A lack limitation's key that holds no lack word names the RESOURCE that is lacking ("exploration",
# "exploration capability", "controllability", "context window", "long-term memory"), not the lack:
# "reduces redundant exploration", "regularises stochastic exploration" or "exploration paths" are
# not insufficient exploration (blind reading seed 3738: ThoughtFold, OPE, HiExp, TD-Grokking's
# "prefix-guided exploration" counted for entropy collapse). Such a key states the limitation only
# when a cue that INCREASES the resource governs it (INCREASE_CUES: "encourages exploration",
# "improves controllability"), or, in a gap sentence, when a lack word is attached to it
# ("limited exploration", "exploration collapse": LACK_WORDS right before, LACK_AFTER right after;
# a verb that holds the resource down counts as a lack word: "constrains reasoning exploration",
# "suppresses exploratory primitives", "restricts comprehensive controllability").
LACK_WORDS = frozenset(
    """
insufficient limited limiting lack lacking lacks scarce scarcity poor restricted inadequate narrow
narrowing narrowed weak low reduced diminished diminishing collapsed premature deficient missing
under-exploration constrain constrains constrained constraining restrict restricts restricting hinder hinders
hindering suppress suppresses suppressing stifle stifles narrows limit limits
""".split()
)
LACK_AFTER = frozenset(
    "collapse collapses collapsing barrier barriers bottleneck bottlenecks ceiling deficit deficiency decline "
    "decay stagnation limit limits limitation limitations shortage".split()
)
INCREASE_CUES = tuple(
    """
improv enhanc boost strengthen promot encourag expand broaden preserv maintain restor ensur sustain
increas foster incentiv extend enrich diversif unlock amplif
""".split()
)
RESOURCE_QUALIFIERS = frozenset(("capability", "capabilities", "ability", "abilities", "efficiency", "diverse", "space"))


def lack_object(title: str) -> tuple[str, ...]:
    """The words of a lack limitation's name that name what is lacking: after its lack word
    ("insufficient exploration" -> exploration; "limited fine-grained controllability" ->
    fine-grained, controllability; "entropy collapse and insufficient exploration" -> exploration)."""
    low = title.lower()
    m = LACK_CAUSE.search(low)
    if not m:
        return ()
    return tuple(word_tokens(re.split(r"\band\b|\bin\b|\bof\b(?!\s)", low[m.end() :])[0]))


def resource_key(key: tuple[str, ...], lacking: tuple[str, ...]) -> bool:
    """A key of a lack limitation that names the lacking resource, not its lack (LACK_WORDS
    comment): no lack word in it, and every word one of the lacking words (or their qualifiers:
    "exploration capability", "explore diverse")."""
    if not lacking or any(t in LACK_WORDS or t in LACK_AFTER for t in key):
        return False
    parts = [p for t in key for p in t.split("-") if p]
    lack_parts = [w for t in lacking for w in t.split("-") if w]
    return all(p in RESOURCE_QUALIFIERS or any(same_term(p, w) or p[:5] == w[:5] for w in lack_parts) for p in parts)


def lack_attached(tokens: list[str], k: int, key: tuple[str, ...]) -> bool:
    """A lack word qualifies the resource key at k: one of the two words before it (no function
    word between: "limited exploration", "insufficient policy exploration") or the word after the
    key ("exploration collapse", "exploration barrier")."""
    before = tokens[max(0, k - 2) : k]
    if before and before[-1] in LACK_WORDS:
        return True
    if len(before) == 2 and before[0] in LACK_WORDS and before[1] not in OBJECT_BREAK and before[1] not in CUE_PARTICLES:
        return True
    after = tokens[k + len(key) : k + len(key) + 1]
    return bool(after) and after[0] in LACK_AFTER


def states_reduction(
    s: Statement,
    keys: list[tuple[str, ...]],
    supply: bool = False,
    lack: bool = False,
    lacking: tuple[str, ...] = (),
    unlike: frozenset[str] = frozenset(),
) -> bool:
    """Does the statement state that the paper reduces a limitation with these keys (module
    docstring)? The own sentence: a key that is the object of a reduction cue (`cue_object`);
    or the anaphoric antecedent names one limitation (`single_gap`) and holds the key. A study
    paper's statement counts only for a missing benchmark it supplies. For a `lack` limitation
    (LACK_CAUSE), a key qualified as too much (`excess_before`) names the opposite and never counts;
    a key naming the lacking resource (`resource_key`, `lacking`: `lack_object` of its name) counts
    only under an increasing cue, or in the gap with a lack word attached (`lack_attached`); a one-word
    key after a word of `unlike` (the cause's `other_senses`) names another phenomenon (`sense_positions`)."""
    if s.study and not (supply and any(t.startswith(BENCHMARK_TERMS) for k in keys for t in k)):
        return False
    if STUDY_STATEMENT.search(s.own) or OWN_PRIOR.search(s.own):
        return False  # "we further provide a theoretical analysis showing ...", "we previously proposed ..."
    # a missing resource a paper supplies ("lack of realistic evaluation benchmarks") is reduced by a
    # contribution verb (`supplies`): the resource rule is for lacks a method increases
    resource = {key: lack and not supply and resource_key(key, lacking) for key in keys}
    for clause in CLAUSE_BREAK.split(s.own):  # a cue and its object lie in one clause
        own = word_tokens(clause)
        cues = reduction_positions(own, supply)
        more = [i for i, t in enumerate(own) if _cue(t, INCREASE_CUES)]
        for key in keys:
            for k in sense_positions(own, key, unlike):
                if lack and excess_before(own, k):
                    continue
                if resource[key] and not lack_attached(own, k, key):
                    # the resource itself: only a cue that increases it states the lack's reduction
                    c = max((x for x in cues + more if x < k), default=None)
                    if c is not None and _cue(own[c], INCREASE_CUES) and cue_object(own, c, k) and not s.result:
                        return True
                    continue
                # the nearest cue before the key governs it ("mitigates artifacts and improves
                # controllability": controllability is improved, not mitigated); a result report
                # needs it to act on the limitation (STRONG_CUES)
                c = max((x for x in cues if x < k), default=None)
                if c is not None and cue_object(own, c, k) and (not s.result or _cue(own[c], STRONG_CUES)):
                    return True
    cues = reduction_positions(word_tokens(s.own))
    if s.antecedent and ANAPHORA.search(s.own) and (cues or CONTRIBUTION_CUES.search(s.own)) and single_gap(s):
        ante = word_tokens(s.antecedent)
        return any(
            not (lack and excess_before(ante, k)) and (not resource[key] or lack_attached(ante, k, key))
            for key in keys
            for k in sense_positions(ante, key, unlike)
        )
    return False


def states_limitation(
    sentence: str,
    keys: list[tuple[str, ...]],
    lack: bool = False,
    lacking: tuple[str, ...] = (),
    unlike: frozenset[str] = frozenset(),
) -> bool:
    """A pre-cutoff sentence states the limitation itself (the root-bottleneck evidence a task
    quotes; blind reading seed 3738: "exploration of prompt-based learning ... remains limited"
    was quoted for entropy collapse): a key in a limitation sense (`limitation_positions`), never
    qualified as too much for a lack limitation, and a lacking-resource key only with a lack word
    attached (`lack_attached`)."""
    return any(limitation_senses(word_tokens(sentence), keys, lack, lacking, unlike))


def limitation_senses(
    toks: list[str],
    keys: list[tuple[str, ...]],
    lack: bool = False,
    lacking: tuple[str, ...] = (),
    unlike: frozenset[str] = frozenset(),
) -> Iterator[int]:
    """Word positions where a key names the limitation in its own sense (`sense_positions`): for a
    lack limitation never qualified as too much, and a lacking-resource key only with a lack word
    attached (`lack_attached`). Shared by `states_limitation` and the framing gap."""
    for key in keys:
        res = lack and resource_key(key, lacking)
        for k in sense_positions(toks, key, unlike):
            if lack and excess_before(toks, k):
                continue
            if res and not lack_attached(toks, k, key):
                continue
            yield k

"""Whether a paper builds on (uses or extends) an approach: the planning gold's counting rule.

A paper counts for an approach when one sentence of its title or abstract

1. names the approach: one of its `names` (regular expressions matched CASE-SENSITIVELY at word
   boundaries: "ReAct" never matches the verb "react", "DPO" never matches inside "SimDPO2x") or
   one of its `phrases` (matched case-insensitively at word boundaries), after the role's longer
   names of other things (`exclude`, e.g. "process reward model" for an outcome reward model)
   are blanked out;
2. in a USE context: the title (a title names what the paper does), or a sentence about the
   paper's own work (SELF: "we", "our", "this paper", "the proposed", or a coined name as subject
   of a use verb, "FT-RAG employs ...") with a use cue (USE_CUES: "using", "based on", "extend",
   "fine-tuned with", "-based", ...) -- background sentences ("X has emerged as ...") do not count;
3. and NOT in a foil context: no foil cue (FOIL_CUES: "compared with", "outperforms", "unlike",
   "instead of", "replaces", "without", "baseline", "than", "vs.", "-free", "prior", "existing",
   "e.g.", "evaluate", "benchmark", "alternative to", "breaks", "consistent with", ...) within
   FOIL_WINDOW words before the mention or FOIL_AFTER words after it, no negation before it
   (NEGATION_BEFORE: "add no teacher model, distillation stage"), no failure of it stated anywhere
   after it in the sentence (FAILURE_AFTER: "applying GRPO ... causes them to collapse"), and the
   sentence's own verb does not compare, reproduce or survey (SELF_STUDY) -- a baseline, a foil, a
   replaced or argued-against method is not built on;
4. and NOT one item of an enumeration ("PPO, DPO, SimPO, ORPO, GRPO, and KTO"; "reranking,
   query expansion, and result fusion"; "via SFT (...), DPO (...), and ORPO (...)", parenthetical
   expansions blanked): a paper that lists three or more methods in a row
   compares, analyses or wraps them, it does not build on each (`enumerated`, issue 32 third pass);
5. and NOT in one of the member's foil senses (`foils`: "DDIM inversion" is not a fast solver, a
   U-Net for segmentation is not a generator backbone; `title_foils`: a title that states such a
   task makes the whole paper's use that sense), and the paper's title and abstract carry the
   role's topical context (`context`: a PPO-trained game agent is not LLM post-training);
6. and NOT an acronym of the approach that the paper itself defines as something else
   ("Probabilistic Reward Model (PRM)" is no process reward model, `Matcher.redefined`), nor a
   mention in the title of a paper whose title says it attacks, injects into or monitors what it
   names (ATTACK_TITLE: the named method is the target; the abstract's own uses still count).

A paper whose title says its contribution is a benchmark, a survey, an evaluation or an
analysis (STUDY_TITLE: "ToolPRMBench", "Benchmarking ...", "Mechanistic Analysis of ...";
STUDY_TITLE_MORE: "Deconstructing ...", "Reproducing ...", a testbed), or whose abstract says so
of its own work (STUDY_ABSTRACT: "We present a systematic empirical study", "We survey 47
methods"), builds on nothing it evaluates: it counts for no approach.

The first sentence that counts is recorded with the paper, so a reader can recheck every count.
No Dagster, no family state: `Matcher` is built from one catalog member's names.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from assets.evidence.quotes import split_sentences

FOIL_WINDOW = 8  # words before a mention in which a foil cue makes it a foil
FOIL_AFTER = 3  # words after a mention ("PPO baselines", "DPO-free")
_B, _E = r"(?<![A-Za-z0-9])", r"(?![A-Za-z0-9])"

FOIL_CUES = re.compile(
    r"(?i)\b(compar\w*|beyond|against|outperform\w*|surpass\w*|beat\w*|superior\s+to|"
    r"better\s+than|than|unlike|in\s+contrast|instead\s+of|rather\s+than|replac\w*|without|baselines?|"
    r"vs\.?|versus|alternative\s+to|relative\s+to|(gains?|improvements?|advantages?|margins?)\s+over|"
    r"eliminat\w*|no\s+need|not\s+require\w*|obviat\w*|bypass\w*|avoid\w*|dispens\w*|limitations?|attribut\w*|"
    r"suffer\w*|fail\w*|struggle\w*|drawbacks?|shortcomings?|costly|expensive|prohibitive|"
    r"prior|previous\w*|existing|conventional|traditional|e\.g|ahead\s+of|questions?\s+(whether|if|the\s+need)|question(ing|ed|able)|overlook\w*|"
    r"emerg\w*|popular\w*|widely|evaluat\w*|benchmark\w*|judges?\s+exhibit|such\s+as|reference\s+points?|"
    r"metrics?|vanilla|naive|(approaches|methods|algorithms|techniques|frameworks)\s+like|"
    # "question" only as a verb or doubt, not the noun ("decompose each question into sub-questions", s37);
    # alternatives, parity and breakage ("alternatives to full fine-tuning", "achieves parity with (and
    # exceeds) full fine-tuning", "PPO & GRAE breaks PPO's ..."),
    # and sameness claims ("maintains consistency with DDIM") are not building on the named method (s37)
    r"alternatives?\s+to|parity|on\s+par|exceed\w*|rival\w*|match(es|ed)|break\w*(?!\s+(down|up|into|it|them))|collaps\w*|"
    r"consisten\w*\s+with|compatib\w*\s+with|equivalen\w*\s+to|analog\w*\s+to|reproduc\w*|replicat\w*|"
    # a title or sentence that says one method prevails over another compares them (s38)
    r"prevail\w*)\b"
)
# a negation BEFORE the mention ("add no teacher model, distillation stage", s37); after it, a
# negation is about what follows ("in pixel space, so no autoencoder is needed")
NEGATION_BEFORE = re.compile(r"(?i)\b(no|not(?!\s+only)|non|w/o|absence\s+of|free\s+of)\b")
# the named method's failure stated ANYWHERE after the mention in its sentence ("directly applying
# GRPO to normalise distinct rewards causes them to collapse ..."; "GraphRAG -- turns out VectorRAG is
# almost enough"): the paper argues against it (replacement framing, s37), it does not build on it.
# An extension names the failure in one sentence and its fix of X in another, which still counts.
FAILURE_AFTER = re.compile(
    r"(?i)\b(fail\w*|collaps\w*|break\w*(?!\s+(down|up|into|it|them))|suffer\w*|suboptimal\w*|unstable|instabilit\w*|flaw\w*|"
    r"degrad\w*|drawbacks?|shortcomings?|struggl\w*|overkill|unnecessar\w*|needless\w*|harm\w*|hurts?|"
    r"illusion\w*|myths?|(is|are)\s+(almost\s+|all\s+)?enough|inadequa\w*|too\s+(small|large|slow|costly|weak|coarse|rigid)|fragment\w*|pitfalls?|weakness\w*)\b"
)
# the sentence's own verb compares, reproduces or surveys methods ("we reproduce and compare diverse
# retrieval strategies including ... and query reformulation", s37 blind reading): what it names is
# studied, at any distance before the mention
SELF_STUDY = re.compile(
    r"(?i)\b(we|this\s+(paper|work|study))\s+((\w+|\w+-\w+)\s+){0,2}(reproduce|replicate|compare|benchmark|survey|review|audit|"
    r"study|studied|measure[sd]?|observe[sd]?|investigate[sd]?|examine[sd]?|probe[sd]?|characteri[sz]e[sd]?|analy[sz]e[sd]?|"
    r"expose[sd]?|attack(s|ed)?|monitor(s|ed)?|diagnose[sd]?)\b"
)
# the abstract says the paper's own contribution is a study of methods: a survey, review, systematic
# or empirical study, comparison or reproduction (s37 blind reading: "we reproduce and compare ...",
# "We present a systematic empirical study", "We survey 47 ... methods" were counted as users)
STUDY_ABSTRACT = re.compile(
    r"(?i)\b(we|this\s+(paper|work|article))\s+(present|conduct|perform|provide|offer|report|carr(y|ies)\s+out)s?\s+"
    r"(a|an|the\s+first)\s+(\w+\s+)?(systematic|empirical|comparative|comprehensive|large-scale|controlled|"
    r"extensive|thorough)\s+((\w+|\w+-\w+)\s+)?(survey|review|study|analysis|evaluation|comparison|investigation)\b"
    r"|\bwe\s+(systematically\s+|empirically\s+)?(survey|review|reproduce|replicate)\s+(\d+|the|existing|prior|recent)\b"
    r"|\b(this|our)\s+(survey|review|systematic\s+review)\b"
)
# the title says the paper's contribution is a benchmark, survey, evaluation or analysis
# (blind reading seed 3211: TowerMind, ToolPRMBench, RMGAP, "Mechanistic Analysis of Alignment
# Algorithms" were counted as users of what they evaluate)
STUDY_TITLE = re.compile(
    r"(?i)\b(benchmark\w*|survey\w*|evaluat\w*|(an?\s+)?(systematic|empirical|comparative|mechanistic)\s+"
    r"(study|analysis|comparison|evaluation|review)|analysis\s+of|a\s+review|leaderboard)\b|[a-z0-9]Bench\b"
)
# the planning count's further study titles (s37; STUDY_TITLE itself is shared with the bottleneck
# family): reproduction, rethinking or deconstructing titles announce a study ("Masking or Mitigating?
# Deconstructing the Impact of Query Rewriting ..."); a testbed or environment is a resource. Not a
# question mark, "revisiting" nor "rethinking": "Can Blindfolded LLMs Still Trade?", "Revisiting RLVR
# from a Classification Perspective", "Rethinking Policy Divergence Measures in GRPO" build on what
# they name (s37 labels)
STUDY_TITLE_MORE = re.compile(
    r"(?i)\b(reproduc\w*|replicat\w*|deconstruct\w*|demystif\w*|diagnosing|diagnostic\s+(study|analysis)|lessons|pitfalls|"
    r"a\s+closer\s+look|testbed|environments?\s+for)\b"
    # a diagnosing title studies what it names ("Diagnosing LLM Reranker Behavior ...", s38); a title that
    # opens by explaining or interpreting something studies it ("M2-PALE: A Framework for
    # Explaining Multi-Agent MCTS--Minimax Hybrids", s38 reading); "understanding" only as the opening
    # verb ("Video Understanding" is a task)
    r"|(?i:(^|:\s*|for\s+)(explaining|interpreting)\b)|(?i:^(towards\s+)?understanding\b)"
)
# a title whose contribution is an attack on, or a safety probe of, what it names ("Depth-Dependent
# Indirect Prompt Injection in Tool-Calling ReAct Agents", s38 reading): the title's mention is the
# target, not a use; the abstract's own use sentences still count
ATTACK_TITLE = re.compile(
    r"(?i)\b(attack\w*|injection\w*|jailbreak\w*|backdoor\w*|vulnerab\w*|exploit\w*|red[- ]teaming|poison\w*|"
    r"monitor\w*|hijack\w*)\b"
)
# an acronym defined in the paper ("Probabilistic Reward Model (PRM)", s38 reading): the words before
# the parenthesis and the acronym inside it
DEFINED = re.compile(r"((?:[\w-]+\s+){1,6})\(([A-Z][A-Za-z0-9-]*[A-Z0-9][A-Za-z0-9-]*?)(s?)\)")
# list items never open with a determiner, pronoun or relative word: "GRPO, a critic-free method,
# which ..." is an apposition, not an enumeration
_NOT_ITEM = re.compile(
    r"(?i)^\s*(a|an|the|this|these|which|that|where|who|we|our|it|its|while|whereas|but|"
    r"(achiev|yield|result|lead|enabl|improv|outperform|reach|allow|reduc)\w*ing)\b"
)  # ... or a participle clause: ", achieving up to 15% gains"
ITEM_MAX_WORDS = 5
_PAREN = re.compile(r"\s*\([^()]*\)")  # one parenthetical group and the space before it
_LEAD_IN = re.compile(r"(?i)^.*\b(via|with|using|including|like|between|among|such\s+as)\s+")


@dataclass
class _At:  # a stand-in match: the position of an acronym's parenthesis (`enumerated`)
    s: int
    e: int
    text: str

    def start(self) -> int:
        return self.s

    def end(self) -> int:
        return self.e

    def group(self, _: int = 0) -> str:
        return self.text


# the paper itself is the subject: first person, "this paper/work", "the proposed ...", or a coined
# name as the sentence's subject followed by a use verb ("FT-RAG employs ...")
SELF = re.compile(
    r"(?i)\b(we|our|us|this\s+(paper|work|study|article)|the\s+proposed|in\s+this\s+paper)\b"
    r"|^(?-i:[A-Z][\w\-]*[A-Z0-9][\w\-]*)(?:\s+\([^)]*\))?\s+(?:employs|uses|implements|adopts|leverages|integrates|"
    r"combines|applies|builds|extends|introduces|trains|performs|relies|utili[sz]es|incorporates|couples|pairs)\b"
)
# a role stated after the mention: "BM25 and MMR serve as interpretable reference points"
ROLE_AFTER = re.compile(
    r"(?i)\b(serv\w*|act\w*|used|us\w*)?\s*as\s+(\w+\s+){0,3}(reference\s+points?|baselines?|comparisons?|yardsticks?)\b"
)
ROLE_AFTER_WORDS = 10
FREE_SUFFIX = re.compile(r"^[-\s]?(free|less)\b", re.I)  # "reward-model-free", "critic-less"
USE_CUES = re.compile(
    r"(?i)\b(us(e|es|ed|ing)|via|through|leverag\w*|employ\w*|adopt\w*|appl(y|ies|ied|ying)|built|build\w*|"
    r"based|extend\w*|extension|integrat\w*|incorporat\w*|combin\w*|train\w*|fine-?tun\w*|optimi[sz]\w*|"
    r"powered|driven|guided|equipped|augment\w*|enhanc\w*|implement\w*|within|under|with|by|"
    r"propos\w*|introduc\w*|present\w*|develop\w*|design\w*|follow\w*|modif\w*|variant|framework|"
    r"paradigm|pipeline|agent|agents|our|we)\b|-(based|style|like|driven|guided|trained|tuned)\b"
)


def _acronym_key(name: str) -> str:
    """An acronym without its plural "s" ("PRMs" -> "PRM")."""
    return name[:-1] if name.endswith("s") and name[:-1].isupper() else name


def _pattern(names: list[str], phrases: list[str]) -> re.Pattern[str]:
    parts = [f"{_B}(?:{n}){_E}" for n in names] + [f"{_B}(?i:{re.escape(p)}){_E}" for p in phrases]
    return re.compile("|".join(parts) if parts else r"(?!x)x")


@dataclass
class Matcher:
    """One approach's names (see the module docstring)."""

    names: list[str] = field(default_factory=list)
    phrases: list[str] = field(default_factory=list)
    exclude: list[str] = field(default_factory=list)
    requires: list[str] = field(default_factory=list)  # the sentence must also match each of these
    foils: list[str] = field(default_factory=list)  # a sentence matching one uses the name in another sense
    context: list[str] = field(default_factory=list)  # the paper's title+abstract must match each (the role's topic)
    title_foils: list[str] = field(default_factory=list)  # a title matching one states a foil sense for the paper

    def __post_init__(self) -> None:
        self._re = _pattern(self.names, self.phrases)
        self._ex = [re.compile(x) for x in self.exclude]
        self._req = [re.compile(x) for x in self.requires]
        self._foil = [re.compile(x) for x in self.foils]
        self._ctx = [re.compile(x) for x in self.context]
        self._title_foil = [re.compile(x) for x in self.title_foils]

    def on_topic(self, text: str) -> bool:
        """The paper's text carries the role's topical context (every `context` expression)."""
        return all(c.search(text) for c in self._ctx)

    def mentions(self, sentence: str, redefined: frozenset[str] = frozenset()) -> list[re.Match[str]]:
        """The approach's mentions in one sentence, excluded longer names blanked first; none when
        the sentence lacks a required co-occurring term (`requires`) or uses the name in a foil
        sense (`foils`); an acronym the paper defines as something else (`redefined`) is no mention."""
        if any(not r.search(sentence) for r in self._req) or any(f.search(sentence) for f in self._foil):
            return []
        for ex in self._ex:
            sentence = ex.sub(lambda m: " " * len(m.group(0)), sentence)
        return [m for m in self._re.finditer(sentence) if _acronym_key(m.group(0)) not in redefined]

    def foil_title(self, title: str) -> bool:
        """The title states the paper's task in one of the member's `title_foils` senses (a U-Net
        paper "for Microtubule Segmentation"): the whole paper uses the name in that sense, whichever
        sentence names it (s38 reading)."""
        return any(f.search(title or "") for f in self._title_foil)

    def redefined(self, text: str) -> frozenset[str]:
        """The approach's acronyms that the text defines as something else: "Probabilistic Reward
        Model (PRM)" is not a process reward model (s38 reading). A definition is an acronym in
        parentheses after words whose initials spell it; it is the approach's own when those words
        name the approach (one of its names or phrases)."""
        out = set()
        for d in DEFINED.finditer(text):
            acronym = d.group(2)
            if not self._re.fullmatch(acronym + d.group(3)) and not self._re.fullmatch(acronym):
                continue
            words = re.split(r"[\s-]+", d.group(1).strip())
            letters = [c for c in acronym if c.isalpha()]
            spelled = "".join(w[0] for w in words[-len(letters) :] if w).lower() if len(words) >= len(letters) else ""
            # the expansion in any case: "proximal policy optimization (PPO)" is PPO's own
            if spelled == "".join(letters).lower() and not re.search(self._re.pattern, d.group(1), re.I):
                out.add(_acronym_key(acronym))
        return frozenset(out)

    def named(self, text: str) -> bool:
        """The text (one sentence) mentions the approach (`mentions`)."""
        return bool(self.mentions(text))

    def names_in(self, text: str) -> bool:
        """Some name of the approach occurs in the text: the quick pass over a whole paper (a foil
        sense in one sentence must not hide a use in another, so `requires` and `foils` are per
        sentence, not here)."""
        for ex in self._ex:
            text = ex.sub(lambda m: " " * len(m.group(0)), text)
        return bool(self._re.search(text))


def foil_context(sentence: str, m: re.Match[str]) -> bool:
    """A foil cue within FOIL_WINDOW words before the mention or FOIL_AFTER words after it,
    or a "-free"/"-less" suffix right after it."""
    before = " ".join(sentence[: m.start()].split()[-FOIL_WINDOW:])
    after_text = sentence[m.end() :]
    after = " ".join(after_text.split()[:FOIL_AFTER])
    role_after = " ".join(after_text.split()[:ROLE_AFTER_WORDS])
    return bool(
        FOIL_CUES.search(before)
        or NEGATION_BEFORE.search(before)
        or FOIL_CUES.search(after)
        or FREE_SUFFIX.match(after_text)
        or ROLE_AFTER.search(role_after)
        or FAILURE_AFTER.search(after_text)
        or SELF_STUDY.search(sentence[: m.start()])
    )


def use_context(sentence: str, m: re.Match[str], is_title: bool) -> bool:
    """The title, or a sentence about the paper's own work (SELF) with a use cue outside the
    mention itself."""
    if is_title:
        return True
    rest = sentence[: m.start()] + " " + sentence[m.end() :]
    if not SELF.search(rest):
        return False
    return bool(USE_CUES.search(rest) or re.match(r"-(based|style|like|driven|guided|trained|tuned)\b", sentence[m.end() :]))


def enumerated(sentence: str, m: re.Match[str] | _At) -> bool:
    """The mention is one item of a list of three or more: in its clause (split at ":", ";",
    "--", parentheses), two item-like comma-separated pieces (<= ITEM_MAX_WORDS words, not an
    apposition or participle clause, `_NOT_ITEM`) sit beside the mention's piece -- on either side
    when that piece is little more than the name, after it when the name ends its piece (a first
    item), before it when the name opens its piece (a last item)."""
    # a parenthetical expansion beside an item ("SFT, DPO (Direct ...), and ORPO (Odds ...)") is
    # blanked, not a clause break (s37): a mention inside parentheses keeps them as its clause
    opened = sentence.rfind("(", 0, m.start())
    inside = opened > sentence.rfind(")", 0, m.start())
    content = sentence[opened + 1 : sentence.find(")", m.end()) % (len(sentence) + 1)].strip()
    # the parenthesis holds just the name ("(DPO)", "(DPO; Rafailov et al.)"), not a clause ("(based on DPO)")
    at_paren = (
        inside and content.startswith(m.group(0)) and len(re.split(r"[;,]", content)[0].split()) <= len(m.group(0).split()) + 1
    )
    if at_paren:  # "Direct Preference Optimization (DPO)": the acronym stands where its item stands
        m = _At(opened, opened + 1, "x")
    if not inside or at_paren:
        sentence = _PAREN.sub(lambda x: " " * len(x.group(0)), sentence)
    start = max(sentence.rfind(c, 0, m.start()) for c in (":", ";", "--", "(", ")")) + 1
    stops = [i for c in (":", ";", "--", "(", ")") if (i := sentence.find(c, m.end())) >= 0]
    clause = sentence[start : min(stops) if stops else len(sentence)]
    at = m.start() - start
    pieces, pos, i = clause.split(","), 0, 0
    while i < len(pieces) - 1 and pos + len(pieces[i]) < at:  # the piece holding the mention
        pos += len(pieces[i]) + 1
        i += 1

    def item(j: int) -> bool:
        if not 0 <= j < len(pieces) or j == i:
            return False
        piece = pieces[j]
        if j == 0:  # a list's first item after its lead-in: "we explore mitigation via SFT, DPO, and ORPO"
            piece = _LEAD_IN.sub("", piece)
        words = re.sub(r"(?i)^\s*(and|or|including|e\.g\.)\s+", "", piece).split()
        return 0 < len(words) <= ITEM_MAX_WORDS and not _NOT_ITEM.match(piece)

    own = pieces[i]
    lead, tail = own[: at - pos].strip(), own[at - pos :].strip()
    # the mention's own piece is an item when it is little more than the name ("Multi-Query Expansion")
    short = len(re.sub(r"(?i)^\s*(and|or|including)\s+", "", own).split()) <= len(m.group(0).split()) + 2
    # a long piece is a list's first item when the mention ends it ("... methods including PPO, ...")
    # and its last when the mention opens it ("..., and KTO across three model families")
    before = item(i - 1) and item(i - 2) or item(i - 1) and item(i + 1)
    after = item(i + 1) and item(i + 2) or item(i - 1) and item(i + 1)
    opens = not re.sub(r"(?i)^(and|or)\b", "", lead).strip()
    ends = len(tail.split()) <= len(tail[: m.end() - m.start()].split()) + 1
    return (short and (before or after)) or (opens and before) or (ends and after)


def builds_on_sentence(sentence: str, matcher: Matcher, is_title: bool = False, redefined: frozenset[str] = frozenset()) -> bool:
    """True when some mention of the approach in the sentence is in a use and not a foil
    context, and is not one item of an enumeration."""
    return any(
        use_context(sentence, m, is_title) and not foil_context(sentence, m) and not enumerated(sentence, m)
        for m in matcher.mentions(sentence, redefined)
    )


def study_paper(title: str, abstract: str = "") -> bool:
    """The title says the paper's contribution is a benchmark, survey, evaluation or analysis, or
    the abstract says so of the paper's own work (STUDY_ABSTRACT)."""
    t = title or ""
    return bool(STUDY_TITLE.search(t) or STUDY_TITLE_MORE.search(t) or STUDY_ABSTRACT.search(abstract or ""))


def builds_on(title: str, abstract: str, matcher: Matcher) -> str | None:
    """The first sentence (title first) in which the paper builds on the approach, else None;
    None for a study paper (`study_paper`) or a paper off the role's topic (`Matcher.on_topic`)."""
    text = f"{title}\n{abstract}"
    if not matcher.names_in(text) or study_paper(title, abstract) or not matcher.on_topic(text):
        return None  # a quick pass: most papers never name it
    if matcher.foil_title(title):
        return None
    redefined = matcher.redefined(text)
    if not ATTACK_TITLE.search(title or "") and builds_on_sentence(title, matcher, is_title=True, redefined=redefined):
        return title
    for s in split_sentences(abstract or ""):
        if builds_on_sentence(s, matcher, redefined=redefined):
            return " ".join(s.split())
    return None

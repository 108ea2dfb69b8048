"""The reference check of a phase task: which window sentences state what a pursuing paper
did for the task's phase, and answer it (docs/arena.md "The hidden reference").

A keypoint of the reference is a sentence (or a sentence and the one next to it) of the
abstract of one of the closest pursuing window papers that
1. is of the phase's kind by cue words (`is_phase_sentence`: an own-work sentence, a proposal,
   an evaluation, or for synthesize the gap a paper took up);
2. *answers the phase* (`answers_phase`, the phase-answering classifier):
   evaluate  names a benchmark, dataset, metric, protocol or test with evaluation content (an
             evaluation it introduced or ran); a bare performance claim ("achieves
             state-of-the-art ...") does not, unless it also names the benchmark or metric
             and how it was evaluated;
   design    describes the method's mechanism (what it does and how): a proposal with a
             mechanism clause ("that / which / by / via / using ..."), or a bare proposal
             ("We propose X.") joined with the next sentence when that one describes how X works;
   synthesize the gap and the direction taken: a direction sentence with its gap ("to address /
             overcome ...", a limitation cue), or the gap sentence joined with the direction
             sentence that follows it;
3. never restates a sentence of the public question (`restates`: token Jaccard >=
   RESTATE_JACCARD or MiniLM cosine >= RESTATE_COS with a question sentence or quote);
4. shares the primary quote's topic (`shares_topic`) and has MiniLM cosine >= REF_COS with it,
   and >= TOPIC_COS with the topic text (primary title + quote: the bar every phase text meets);
5. (design) comes from a paper whose contribution is a method (`contribution_kind`, gold.py).
The reference is the MAX_REFERENCE best passing keypoints, one per paper: for evaluate the
papers that introduce a benchmark or evaluation on the topic (`is_benchmark_paper`) first,
then the papers closest to the primary paper (gold.py's paper test), then by cosine with the
primary quote."""

from __future__ import annotations

import re
from collections.abc import Sequence

import numpy as np

from assets.families.phase.quotes import ANAPHORIC_START, LIMITATION, MARKUP, THIS_PAPER_START, quote_key, sentences
from assets.families.phase.topic import TOPIC_COS, sentence_vectors, shares_topic, topic_text
from core.text import content_tokens, jaccard

REF_MIN_WORDS, REF_MAX_WORDS = 8, 60  # a reference sentence's length
JOINED_MAX_WORDS = 90  # a keypoint of two sentences (gap + direction, proposal + mechanism)
REF_COS = 0.55  # all-MiniLM-L6-v2 cosine of a reference sentence with the primary quote (0.5 let loosely related work answer)
READ_PAPERS = 30  # closest pursuing papers whose abstracts the reference check reads (evaluate: + benchmark papers)
MIN_REFERENCE = 3  # passing sentences (distinct papers): 2 let a task stand on one on-topic paper and a stray
MAX_REFERENCE = 3  # reference keypoints (the best passing sentences, one per paper)
RESTATE_JACCARD = 0.5  # a keypoint sharing this much of its content tokens with a question sentence restates it
RESTATE_COS = 0.9  # ... or this MiniLM cosine

OWN_WORK = re.compile(r"\b(?:we|our|this (?:paper|work|study|article))\b", re.I)
OWN_RESULT = re.compile(
    r"\b(?:experiments?|results?|evaluations?|analys[ie]s|ablations?|studies)\b[^.;]{0,60}?"
    r"\b(?:show|demonstrat|reveal|indicat|confirm|suggest|highlight)\w*",
    re.I,
)
# "we revisit the origin of X and introduce Y": the proposal may follow a first clause (a reader found
# the window paper closest to its inspiration left out of the reference for lack of a keypoint)
_OWN_SUBJECT = r"\b(?:we|this (?:paper|work|study|article))\s+(?:[\w-]+\s+){0,2}?(?:[^.;]{0,80}?\band\s+)?"
REFERENCE_CUES = {
    # synthesize: the direction the paper took up (what it set out to do), stated by the paper itself
    "synthesize": re.compile(
        _OWN_SUBJECT + r"(?:propos|introduc|present|develop|design|stud(?:y|ies|ied)|investigat|"
        r"explor|address|tackl|bridg|formali[sz]|argu|buil|construct|curat|establish|"
        r"identif|examin|analy[sz]|call|advocat|redefin|rethink|reframe|position|focus)\w*",
        re.I,
    ),
    # design: the method it proposed
    "design": re.compile(
        _OWN_SUBJECT + r"(?:propos|introduc|present|develop|design|buil|construct|devis|formulat|"
        r"creat)\w*|\bour (?:[\w-]+\s+){0,2}?(?:method|approach|framework|architecture|algorithm|"
        r"pipeline|model|system|agent|design)s?\s+(?:[\w-]+\s+)?(?:uses|combines|consists|"
        r"leverages|builds|integrates|employs|learns|trains|decomposes|couples|adds|replaces)\b",
        re.I,
    ),
    # evaluate: the evaluation it ran (benchmarks, metrics, baselines, tests)
    "evaluate": re.compile(
        r"\b(?:experiment|evaluat|benchmark|metric|accura|success rate|baseline|outperform|"
        r"ablation|compar|measur|scor|f1|human stud|test)\w*|\d+(?:\.\d+)?\s?%",
        re.I,
    ),
}


# synthesize: the gap a window paper took up, as it states it about the work before it
PRIOR_WORK = re.compile(
    r"\b(?:existing|current|prior|previous|most|conventional|traditional|standard|mainstream|"
    r"state-of-the-art|today's|recent|popular|typical|available)\b",
    re.I,
)


def is_gap_sentence(sentence: str) -> bool:
    """A window paper's statement of the gap it took up: a limitation cue about prior work
    ("existing benchmarks remain text-based and rarely test ...")."""
    return bool(LIMITATION.search(sentence) and PRIOR_WORK.search(sentence))


# design: a proposed study is not a proposed method ("we develop a systematic evaluation of ..."),
# nor is a theory (a reader found "We present generalisation bounds for RLHF" as a design keypoint)
NOT_A_METHOD = re.compile(
    _OWN_SUBJECT + r"(?:develop|present|propos|introduc|conduct|perform|provid|carr)\w*\s+"
    r"(?:[\w-]+\s+){0,3}?(?:evaluations?|analys[ie]s|stud(?:y|ies)|surveys?|investigations?|"
    r"comparisons?|assessments?|reviews?|audits?|(?:generali[sz]ation |error |regret |sample[- ]complexity )?bounds?|"
    r"guarantees?|theorems?|proofs?|theor(?:y|ies|etical (?:analys[ie]s|frameworks?|results?)))\b",
    re.I,
)

# evaluate: the paper itself ran an evaluation (or introduced a benchmark / metric for one)
EVAL_OWN = re.compile(
    _OWN_SUBJECT + r"(?:evaluat|test|benchmark|compar|measur|assess|conduct|run|find|found|observ|show|demonstrat|"
    r"report|validat|experiment|analy[sz]|achiev)\w*|" + _OWN_SUBJECT + r"(?:introduc|propos|present|construct|build|"
    r"buil|curat|develop|design)\w*\b.{0,80}\b(?:benchmark|metric|evaluation|test suite|testbed|protocol)|"
    r"\bour (?:[\w-]+\s+){0,3}?(?:achiev|outperform|improv|reach|surpass|yield|reduc|demonstrat|show|attain|match)\w*",
    re.I,
)


def is_phase_sentence(sentence: str, phase: str) -> bool:
    """An own-work sentence of the phase's kind (cue words), free of markup, of reference
    length; for synthesize also the gap statement the paper took up (`is_gap_sentence`); for
    design never a proposed study (`NOT_A_METHOD`)."""
    s = " ".join(sentence.split())
    if not REF_MIN_WORDS <= len(s.split()) <= REF_MAX_WORDS or MARKUP.search(s):
        return False
    own = (EVAL_OWN.search(s) or OWN_RESULT.search(s)) if phase == "evaluate" else OWN_WORK.search(s)
    cue = REFERENCE_CUES.get(phase)
    if phase == "design" and NOT_A_METHOD.search(s):
        return False
    return bool(own and cue and cue.search(s)) or (phase == "synthesize" and is_gap_sentence(s))


# ---- the phase-answering classifier ---------------------------------------------------------------
# evaluate: what is evaluated with (a benchmark, dataset, metric, protocol, test) ...
EVAL_OBJECT = re.compile(
    r"\b(?:benchmark\w*|[\w-]*bench\b|datasets?|corpus|corpora|metrics?|protocols?|test(?:s|beds?|-beds?|"
    r"[- ]suites?|[- ]sets?|ing)?|evaluation (?:framework|suite|set|harness|methodology|pipeline)s?|"
    r"leaderboards?|arenas?|human (?:stud(?:y|ies)|evaluations?|judg\w+)|user stud(?:y|ies)|ablations?|"
    r"success rates?|accuracy|precision|recall|f1|pass@\d+|win rates?|exact match|bleu|rouge|auc|"
    r"error rates?|correlat\w*|statistical\w*|significance|judges?|annotat\w*|held-out|"
    r"out-of-distribution|gold|ground[- ]truth|simulat\w*|environments?)\b"
    r"|\b(?:on|across|using|in)\s+(?:the\s+)?[A-Z][\w-]*[A-Z0-9][\w-]*",  # "on WebArena", "across MMLU"
)
# ... with evaluation content: an evaluation the paper introduced or ran
EVAL_INTRODUCED = re.compile(
    r"\b(?:we|this (?:paper|work|study))\s+(?:[\w-]+\s+){0,2}?(?:introduc|propos|present|construct|build|buil|"
    r"curat|develop|design|release|creat|establish|collect)\w*\b[^.;]{0,100}?\b(?:benchmark|[\w-]*bench\b|dataset|"
    r"metric|evaluation|test(?:bed| suite| set)|protocol|leaderboard|arena|environment)|"
    r"^[A-Z][\w-]*(?:\s+\([\w-]+\))?,?\s+(?:is\s+)?an?\s+(?:[\w-]+\s+){0,4}?(?:benchmark|dataset|testbed|"
    r"evaluation (?:framework|suite))",
    re.I,
)
EVAL_RAN = re.compile(
    r"\b(?:evaluat\w*|benchmark(?:s|ed|ing)|test(?:s|ed|ing)?|assess\w*|measur\w*|compar\w*|audit\w*|prob(?:e|es|ed|ing))"
    r"\b(?:\s+[\w-]+){0,8}?\s+(?:on|across|against|using|with|in|under|over|by)\b|"
    r"\bexperiments?\s+(?:on|across|with|using|in|over)\b|\bablations?\b|\bhuman (?:stud|evaluat)\w*|"
    r"\buser stud\w*|\bmetrics?\b|\bprotocols?\b|\bstatistical\w*|\bwe (?:find|found|observe|show|reveal) that\b|"
    r"\b(?:experiments?|results?|evaluations?|ablations?)\b[^.;]{0,40}?\b(?:show|demonstrat|reveal|indicat|confirm)\w*",
    re.I,
)
# a bare performance claim: what another system achieved, not how it was evaluated
PERFORMANCE_CLAIM = re.compile(
    r"\b(?:state-of-the-art|sota|outperform\w*|surpass\w*|superior|beat(?:s|ing)?|best (?:performance|results?)|"
    r"new record|competitive|significant(?:ly)? (?:improv|gain|boost|enhanc)\w*|achiev\w*|improv\w*|boost\w*)\b",
    re.I,
)
# a named benchmark or metric (the claim says on what and by which measure)
NAMED_MEASURE = re.compile(
    r"\b(?:on|across|using|in)\s+(?:the\s+)?[A-Z][\w-]*[A-Z0-9][\w-]*|\b[\w-]*bench\b|\b(?:success rates?|accuracy|"
    r"precision|recall|f1|pass@\d+|win rates?|exact match|bleu|rouge|auc|error rates?)\b",
)

# design: the mechanism of the proposed method (what it does and how)
MECHANISM = re.compile(
    r"\b(?:that|which|where|wherein|whereby|by|via|through|using|in which|combin\w*|integrat\w*|leverag\w*|"
    r"employ\w*|consist\w*|compris\w*|decompos\w*|coupl\w*|learns?|trains?|based on|built (?:on|upon)|guided by|"
    r"conditioned on|grounded in|composed of|equipped with|augment\w* with)\b(?:\s+\S+){4,}",
    re.I,
)
MECHANISM_NEXT = re.compile(  # a next sentence that says how the proposed method works
    r"\b(?:uses?|combines?|consists?|leverages?|integrates?|employs?|learns?|trains?|decomposes?|couples?|"
    r"maintains?|generates?|retrieves?|predicts?|encodes?|routes?|selects?|updates?|builds?|constructs?|"
    r"converts?|maps?|models?|represents?|optimi[sz]es?|distills?|aligns?|rewards?|samples?|filters?|ranks?|"
    r"stores?|plans?|refines?|verifies?|injects?|replaces?|adds?|introduces?|formulates?|treats?|casts?|"
    r"first\b.{0,80}\bthen|specifically|in particular|consists? of|is (?:trained|built|composed|designed) (?:to|on|with|from|by))\b",
    re.I,
)
# synthesize: the gap a direction answers, stated in the same sentence
GAP_CLAUSE = re.compile(
    r"\b(?:to (?:address|tackle|overcome|bridge|close|fill|mitigate|alleviate|resolve|remedy|fix|reduce|avoid|"
    r"eliminate|circumvent|handle)|unlike (?:existing|prior|previous|current|conventional|traditional|most)|"
    r"instead of|rather than|without (?:requiring|relying|the need|any)|in contrast to|beyond (?:existing|prior|"
    r"current))\b",
    re.I,
)


# a ranking claim ("state-of-the-art", "outperforms"): what a system achieved, not how it was evaluated
RANKING_CLAIM = re.compile(
    r"\b(?:state-of-the-art|sota|outperform\w*|surpass\w*|superior|beat(?:s|ing)?|best|leading|highly competitive|"
    r"new record)\b(?!\s+(?:agents?|models?|systems?|methods?|baselines?|llms?|approaches|open|proprietary|closed))",
    re.I,
)
OWN_EVAL_ACT = re.compile(
    r"\b(?:we|this (?:paper|work|study))\s+(?:[\w-]+\s+){0,2}?(?:evaluat|benchmark|test|measur|assess|compar|audit|"
    r"prob|analy[sz]|stud)\w*\b",
    re.I,
)


# synthesize: a gap, stated by the paper (a limitation cue or a gap word)
GAP_CUE = re.compile(
    LIMITATION.pattern + r"|\b(?:gaps?|little attention|under-?(?:studied|explored|investigated)|"
    r"remains? (?:largely )?(?:unexplored|unclear|open|unaddressed|unknown)|(?:has|have) not (?:yet )?been|not yet|"
    r"no (?:existing|prior) (?:work|method|benchmark)s?)\b",
    re.I,
)
BACK_REFERENCE = re.compile(
    r"\b(?:this|these|such|the above|this critical|these key) (?:[\w-]+\s+)?(?:gaps?|limitations?|"
    r"challenges?|issues?|problems?|shortcomings?|threats?|concerns?|needs?|questions?)\b",
    re.I,
)


# a gap stated as a concession ("Although X succeeded, applying it to Y leads to severe flickering")
CONCESSION = re.compile(r"(?:^|[.!?]\s+)(?:although|though|while|despite)\b[^.;]{10,},", re.I)


def is_gap_statement(sentence: str) -> bool:
    """A sentence stating a gap (no own work in it): a limitation cue, a gap word or a concession."""
    return bool(GAP_CUE.search(sentence) or CONCESSION.search(sentence)) and not OWN_WORK.search(sentence)


def _evaluate_answers(s: str) -> bool:
    if EVAL_INTRODUCED.search(s):
        return True
    if not EVAL_OBJECT.search(s) or not EVAL_RAN.search(s):
        return False
    if RANKING_CLAIM.search(s):  # a ranking claim answers only as part of an evaluation the paper ran
        return bool(OWN_EVAL_ACT.search(s))
    # a performance claim answers an evaluate task only when it says on what and by which measure
    return not PERFORMANCE_CLAIM.search(s) or bool(NAMED_MEASURE.search(s))


def answers_phase(keypoint: str, phase: str) -> bool:
    """The phase-answering classifier (module docstring, rule 2): whether a keypoint does what
    the task's phase asks: evaluate a benchmark / metric / protocol / test with evaluation
    content, design a method with its mechanism, synthesize the gap and the direction taken."""
    s = " ".join(keypoint.split())
    if MARKUP.search(s):
        return False
    if phase == "evaluate":
        return _evaluate_answers(s)
    if phase == "design":
        if NOT_A_METHOD.search(s) or not REFERENCE_CUES["design"].search(s):
            return False
        m = REFERENCE_CUES["design"].search(s)
        return bool(MECHANISM.search(s[m.end() :]) if m else False) or _joined_mechanism(s)
    if phase == "synthesize":
        direction = REFERENCE_CUES["synthesize"].search(s)
        return bool(direction and (GAP_CLAUSE.search(s) or GAP_CUE.search(s) or CONCESSION.search(s)))
    return False


MECHANISM_SUBJECT = re.compile(  # a next sentence about the proposed method itself
    r"^(?:(?i:it|they|specifically|concretely|in particular|at its core|the (?:[\w-]+\s+){0,2}?(?:method|framework|model|"
    r"system|agent|approach|architecture|module|policy|pipeline|algorithm|controller|planner)s?|our (?:[\w-]+\s+){0,2}?"
    r"(?:method|framework|model|system|agent|approach|architecture|module|policy|pipeline|algorithm)s?)|[A-Z][\w-]*[A-Z][\w-]*)\b",
)
RESULT_TALK = re.compile(r"\b(?:experiments?|results?|outperform\w*|state-of-the-art|surpass\w*|achiev\w*)\b", re.I)


def _joined_mechanism(s: str) -> bool:
    """A bare proposal followed by a sentence that says how the method works (a mechanism
    verb, or a sentence about the method itself that is no results talk)."""
    parts = sentences(s)
    if len(parts) < 2:
        return False
    rest = " ".join(parts[1:])
    if RESULT_TALK.search(rest):
        return False
    return bool(MECHANISM_NEXT.search(rest) or MECHANISM.search(rest) or MECHANISM_SUBJECT.match(rest))


# A side item of a paper's contributions ("(4) We build a local simulated environment ...", "Besides,
# we propose a benchmark", "Third, we build an offline search engine"): the sixth-pass blind reading
# of issue 32 found such keypoints standing in for the method itself. Only a paper's main statement
# of what it did is a keypoint.
SIDE_ITEM = re.compile(
    r"^\s*(?:\(?(?:[2-9]|ii+|iv|vi*|[b-h])\)|(?:second(?:ly)?|third(?:ly)?|fourth(?:ly)?|finally|lastly|besides|"
    r"additionally|moreover|furthermore|in addition)\b|we\s+(?:also|further|additionally)\b)",
    re.I,
)


def phase_keypoints(abstract: str, phase: str) -> list[str]:
    """An abstract's keypoints for this phase: its phase sentences (`is_phase_sentence`) that
    answer the phase (`answers_phase`), a sentence joined with its neighbour where the two
    together answer it: the gap sentence and the direction after it (synthesize), a bare
    proposal and the sentence describing its mechanism (design); never a side item of the
    contributions (SIDE_ITEM). Each is a verbatim span of the abstract (the `quote_in_window`
    claim check)."""
    sents = sentences(abstract)
    out: list[str] = []
    for i, s in enumerate(sents):
        if not is_phase_sentence(s, phase):
            continue
        options = [s]
        nxt = sents[i + 1] if i + 1 < len(sents) else ""
        if phase == "synthesize" and nxt and is_gap_sentence(s) and REFERENCE_CUES["synthesize"].search(nxt):
            options.append(f"{s} {nxt}")  # the gap, then the direction taken
        if phase == "synthesize" and i and is_gap_statement(sents[i - 1]) and not is_gap_sentence(s):
            joined = f"{sents[i - 1]} {s}"  # the gap stated just before the direction taken
            # a direction that points back at its gap ("To address these limitations, we ...") reads with it
            options = [joined, s] if BACK_REFERENCE.search(s) else [s, joined]
        if phase == "design" and nxt and not MARKUP.search(nxt):
            options.append(f"{s} {nxt}")  # the proposal, then how it works
        for kp in options:
            if leans_back(kp):  # "These results ...", "They also ...": a reader cannot tell what it is about
                continue
            if SIDE_ITEM.search(kp):  # a side item of the contributions, not the paper's main statement
                continue
            if len(kp.split()) <= JOINED_MAX_WORDS and answers_phase(kp, phase):
                if kp not in out:  # the gap joined forward and the direction joined back are one keypoint
                    out.append(kp)
                break
    return out


def leans_back(keypoint: str) -> bool:
    """A keypoint that starts with an anaphor ("These results", "They", "It") does not read on
    its own ("This paper ..." does)."""
    return bool(ANAPHORIC_START.match(keypoint) and not THIS_PAPER_START.match(keypoint))


def reference_candidates(abstract: str, phase: str) -> list[str]:
    """An abstract's sentences that may state what its paper did for this phase (before the
    phase-answering classifier: `phase_keypoints` applies it)."""
    return [s for s in sentences(abstract) if is_phase_sentence(s, phase)]


BENCHMARK_TITLE = re.compile(
    r"\b(?:[\w-]*bench(?:mark\w*)?|arena|testbed|leaderboard|evaluat\w*|dataset|assess\w*|measur\w*|auditing|probing)\b",
    re.I,
)


def is_benchmark_paper(title: str, abstract: str) -> bool:
    """A window paper that introduces a benchmark or an evaluation: its title names one, or its
    abstract says it introduced one (`EVAL_INTRODUCED`)."""
    return bool(BENCHMARK_TITLE.search(title or "")) or any(EVAL_INTRODUCED.search(s) for s in sentences(abstract))


# ---- the restatement check ------------------------------------------------------------------------
_QUOTE_SPAN = re.compile(r"\"([^\"]{20,})\"")


def question_sentences(question: str) -> list[str]:
    """The public question's sentences and the quotes it shows (each quote whole)."""
    quotes = _QUOTE_SPAN.findall(question or "")
    return list(dict.fromkeys([" ".join(q.split()) for q in quotes] + sentences(_QUOTE_SPAN.sub(" ", question or ""))))


def restates(keypoint: str, question: Sequence[str], cos: float = 0.0) -> bool:
    """Whether a keypoint restates a sentence of the public question: its content tokens'
    Jaccard with one of them is >= RESTATE_JACCARD (or one contains the other), or its MiniLM
    cosine with the closest is >= RESTATE_COS (`cos`, computed by the caller)."""
    key, toks = quote_key(keypoint), set(content_tokens(keypoint))
    for q in question:
        qk = quote_key(q)
        if qk and (qk in key or key in qk):
            return True
        if toks and jaccard(toks, set(content_tokens(q))) >= RESTATE_JACCARD:
            return True
    return cos >= RESTATE_COS


def answers_task(sentence: str, primary: str, cos: float, df: dict[str, float] | None = None) -> bool:
    """The documented check that a phase sentence is on the task: its cosine with the primary
    quote is >= REF_COS and the two share topic stems that name the topic (`shares_topic`)."""
    return cos >= REF_COS and shares_topic(sentence, primary, df)


# ---- the stance rule (issue 32, sixth pass) ------------------------------------------------------------
# A reader found a monitoring/defense task whose keypoint quoted a window paper's ATTACK sentence
# ("we propose an adaptive cooperative attack framework ...") while that paper's defense went unquoted.
# A keypoint states the paper's contribution on the anchor's side: a sentence that only attacks does
# not answer a defense anchor, and one that only defends does not answer an attack anchor.
DEFENSE = re.compile(
    r"\b(?:defen[cs]\w*|defend\w*|mitigat\w*|detect\w*|monitor\w*|safeguard\w*|protect\w*|guard\w*|"
    r"secur(?:e|ing|ity)|resilien\w*|sanitiz\w*|immuni\w*)\b",
    re.I,
)
ATTACK = re.compile(r"\b(?:attack\w*|jailbreak\w*|backdoor\w*|poison\w*|hijack\w*|prompt injections?)\b", re.I)


def stance(text: str) -> str:
    """ "defense" (a defense word), "attack" (an attack word and no defense word) or "" (neither)."""
    if DEFENSE.search(text or ""):
        return "defense"
    return "attack" if ATTACK.search(text or "") else ""


def same_side(keypoint: str, anchor: str) -> bool:
    """Whether a keypoint is on the anchor's side: a defense anchor takes no attack-only keypoint,
    an attack anchor no defense keypoint (an anchor of neither kind takes any)."""
    a, k = stance(anchor), stance(keypoint)
    return not (a and k and a != k)


def select_reference(
    phase: str,
    primary: str,
    question: str,
    cands: Sequence[tuple[str, str]],
    df: dict[str, float] | None = None,
    preferred: frozenset[str] | set[str] = frozenset(),
    topic: str = "",
    closeness: dict[str, float] | None = None,
    titles: dict[str, str] | None = None,
) -> tuple[list[tuple[float, str, str]], int]:
    """(cosine, paper id, keypoint) of the reference, with the number of passing keypoints:
    of the candidate keypoints (paper id, keypoint; already answering the phase) those that share
    the primary quote's topic, have cosine >= REF_COS with it and restate no sentence of the
    question; one per paper (its most similar), the `preferred` papers (evaluate: benchmark
    papers on the topic) first, then by cosine. The cosine is the higher of the keypoint's with
    the primary quote and with `topic` + the primary quote (`topic`: the primary paper's title),
    and the shared topic stems are those of the two together: what a window paper did on the
    task's topic need not restate the quote's wording. With `closeness` (paper id -> closeness of
    its paper to the primary paper, gold.py's paper test) the papers are taken closest first (then
    by the keypoint's cosine): a keypoint sentence close to the quote from a paper on another
    problem must not push out the paper that continues the inspiration."""
    if not cands or not primary:
        return [], 0
    # the topic test first: only keypoints that share the primary's topic are embedded
    # (MiniLM is ~100 sentences/s here; most candidate sentences fail the topic test)
    about = topic_text(topic, primary) if topic else primary
    named = titles or {}
    topical = [
        (pid, s)
        for pid, s in cands
        if (shares_topic(s, about, df) or (named.get(pid) and shares_topic(f"{named[pid]}. {s}", about, df)))
        and same_side(s, primary)  # the stance rule: a defense anchor's keypoint is a defense
    ]
    if not topical:
        return [], 0
    qs = question_sentences(question)
    vecs = sentence_vectors([primary, about] + qs + [s for _, s in topical])
    sv, qv = vecs[2 + len(qs) :], vecs[2 : 2 + len(qs)]
    sims, tcos = np.maximum(sv @ vecs[0], sv @ vecs[1]), sv @ vecs[1]
    if named:  # the keypoint read in its paper's context (its title first)
        cv = sentence_vectors([f"{named[pid].rstrip('.')}. {s}" if named.get(pid) else s for pid, s in topical])
        sims, tcos = np.maximum(sims, np.maximum(cv @ vecs[0], cv @ vecs[1])), np.maximum(tcos, cv @ vecs[1])
    qcos = (sv @ qv.T).max(axis=1) if len(qs) else np.zeros(len(topical))
    passing = [  # close to the quote (REF_COS) and on the task's topic (TOPIC_COS with title + quote)
        (round(float(c), 4), pid, s)
        for (pid, s), c, tc, qc in zip(topical, sims, tcos, qcos)
        if float(c) >= REF_COS and float(tc) >= TOPIC_COS and not restates(s, qs, float(qc))
    ]
    best: dict[str, tuple[float, str, str]] = {}
    for c, pid, s in sorted(passing, key=lambda x: (-x[0], x[1], x[2])):
        best.setdefault(pid, (c, pid, s))
    near = closeness or {}
    chosen = sorted(best.values(), key=lambda x: (x[1] not in preferred, -near.get(x[1], 0.0), -x[0], x[1], x[2]))
    return chosen[:MAX_REFERENCE], len(passing)

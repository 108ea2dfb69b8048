"""Phase tasks (DeepResearch Arena §3, Table 2): open-ended research tasks from inspirations.

Source: the research inspirations (`assets/arena/inspirations.py`) of the partition's
pre-cutoff evidence records, typed limitation / methodology / transdisciplinarity /
hypothesis. TaskWeaver (offline: a documented template per phase; the paper's agent
aggregates several inspirations, so does ours: a primary and, when one is related, a
supporting inspiration) turns them into tasks tagged by the paper's three phases
(`Task.subtype`):

    synthesize  collect, integrate and analyse prior work to form a direction
                (primary: a limitation; support: a related finding or approach)
    design      design a solution, model or experiment that takes an approach further
                (primary: a methodology or transdisciplinarity; support: a related limitation)
    evaluate    assess a claim with structured criteria or benchmarks
                (primary: a hypothesis; support: a related methodology)

The phase-from-kind mapping is our choice (the paper gives none); a primary must also state
what its phase needs (`primary_fits`: a limitation cue, a proposal, a testable finding that
is not a proposal), since the extractor's kinds are loose. Agents get the partition's
cutoff-bound knowledge base.

Public text (the rules a reader needs, docs/arena.md):
* a quote is shown only when it reads on its own (`readable_quote`): no LaTeX or markup
  (MARKUP), a leading connective clause ("However, ", "To address these challenges, ") is cut
  off (the rest is still a verbatim substring of the sentence), and a quote that then starts
  with an anaphor ("This", "These", "It") or leans on an unnamed referent ("this approach",
  "these limitations", "our framework") is not used; nor is one outside MIN_QUOTE_WORDS..
  MAX_QUOTE_WORDS words;
* the subject is the descriptive part of the primary paper's title (`subject_of`), not a
  taxonomy node label;
* the supporting inspiration is the most similar unused one of the phase's support kinds
  (another paper) when its cosine with the primary quote (all-MiniLM-L6-v2, the `onnx-minilm`
  embedder) is >= SUPPORT_COS and it shares a topic stem with it; else the task has none;
* no two tasks of a partition quote the same sentence: each quote (primary or support) is
  used once, and never one already quoted by an earlier family's task (the audit flag
  `shared_quotes` checks the whole partition, assets/audit/flags.py); one task per primary paper.

Hidden reference (our choice, docs/arena.md): what the window papers that pursued the
primary inspiration actually did, in their own words, for this phase.
* Pursuing papers: centred static-embedding cosine >= PURSUIT_COS with (primary paper title +
  primary quote) AND >= MIN_SHARED shared content stems; a task is pursued when >= MIN_PURSUING
  window papers pursue it (its stability is how often that stays true when the window's papers
  are resampled).
* The reference check (`reference_candidates`, `answers_task`): a sentence of one of the
  READ_PAPERS closest pursuing papers' abstracts is a reference keypoint when it is (1) an
  own-work sentence (OWN_WORK: "we", "our", "this paper"; for evaluate also "experiments /
  results show"), (2) of the phase's kind by cue words (REFERENCE_CUES: a contribution verb of
  the own-work subject for synthesize, a proposal for design, an evaluation word for evaluate;
  for synthesize also the gap the paper took up, stated about prior work: `is_gap_sentence`),
  (3) free of markup,
  (4) shares topic stems (`topic_stems`) with the primary quote that are not the domain's
  everyday words (in > COMMON_DF of the window's abstracts): two, or one rare one (in <= RARE_DF
  of them), and (5) has cosine >= REF_COS with it (all-MiniLM-L6-v2). The reference is the MAX_REFERENCE most similar passing sentences,
  one per paper. A task whose reference has fewer than MIN_REFERENCE sentences (from distinct
  papers) does not answer its question and is not released (`validity_problems`).
FTA is the reference-guided match of the answer's key points to the reference keypoints; KAE
and ACE (assets/scorers) score the report itself.


Length (over ~500 lines on purpose): the whole family in one place: the phase builder, its quote-
grounded gold and the reference check, which share the phase vocabulary and the quote parser."""

from __future__ import annotations

import json
import re
from functools import lru_cache, partial
from typing import ClassVar

import numpy as np
from pydantic import BaseModel, Field

from assets.arena.inspirations import Inspiration, draft_inspirations, extract_inspirations
from assets.families.base import TaskFamily
from assets.toolbox.building import MAX_SUPPORT_PAPERS, MIN_SUPPORT_PAPERS
from core.claims import all_stems, content_stems
from core.leakage import internal_violations
from core.records import BuildStep, ClaimBasis, Failure, GoldClaim, GoldSlot, GoldTarget, Task, TaskBuild
from core.text import content_tokens, jaccard

PHASES = ("synthesize", "design", "evaluate")
PHASE_TITLES = {"synthesize": "Synthesize", "design": "Design", "evaluate": "Evaluate"}
PRIMARY = {"synthesize": ("limitation",), "design": ("methodology", "transdisciplinarity"), "evaluate": ("hypothesis",)}
SUPPORT = {
    "synthesize": ("hypothesis", "methodology", "transdisciplinarity"),
    "design": ("limitation",),
    "evaluate": ("methodology", "transdisciplinarity"),
}
SUPPORT_COS = 0.55  # all-MiniLM-L6-v2 cosine of a supporting quote with the primary quote (else no support)
MIN_QUOTE_WORDS, MAX_QUOTE_WORDS = 8, 45  # a shorter quote is a fragment, a longer one a run-on
PURSUIT_COS = 0.35  # centred cosine of a window paper to the task's primary inspiration
MIN_SHARED = 3  # ... and content stems it shares with it
MIN_PURSUING = 3  # window papers that pursue the task for it to have a reference
FULL_SUPPORT = 8  # pursuing papers for strength 1
READ_PAPERS = 20  # closest pursuing papers whose abstracts the reference check reads
REF_MIN_WORDS, REF_MAX_WORDS = 8, 60  # a reference sentence's length
REF_COS = 0.55  # all-MiniLM-L6-v2 cosine of a reference sentence with the primary quote (0.5 let loosely related work answer)
COMMON_DF = 0.25  # a topic stem in more than this share of the window's abstracts is the domain's everyday word
RARE_DF = 0.05  # ... in at most this share it names a topic on its own (else two shared stems are needed)
MIN_REFERENCE = 2  # passing sentences (distinct papers) for the reference to answer the task
MAX_REFERENCE = 3  # reference keypoints (the most similar passing sentences, one per paper)
DUPLICATE_JACCARD = 0.6  # two tasks whose primary quotes share this much are one task
GENERIC_HEDGE = (  # the "generic" control: research talk that fits any task
    "Prior work has made progress but important limitations remain.",
    "We propose a novel framework and evaluate it on standard benchmarks against strong baselines.",
    "Future work should study robustness, scalability and generalisation.",
)
_SENT = re.compile(r"(?<=[.!?])\s+(?=[A-Z0-9(\[])")

# ---- readable quotes ------------------------------------------------------------------------------
# LaTeX, markdown, HTML, URLs, citation brackets, identifiers: a reader cannot follow them in a quote
MARKUP = re.compile(r"[$\\{}^~<>|]|\b_|_\b|\*\*|`|https?://|www\.|&[a-z]+;|\[\d+(?:,\s*\d+)*\]|\(\s*\)")
# a leading connective clause refers back to the abstract's previous sentence: it is cut off
OPENER = re.compile(
    r"^(?:however|moreover|furthermore|additionally|in addition|in contrast|by contrast|instead|thus|therefore|hence|"
    r"consequently|meanwhile|nevertheless|nonetheless|also|besides|finally|specifically|notably|importantly|"
    r"overall|similarly|likewise|as a result|in particular|first(?:ly)?|second(?:ly)?|third(?:ly)?|to this end|"
    r"to (?:address|tackle|overcome|solve|bridge|fill|face|mitigate|close|remedy|alleviate|handle|resolve|answer|"
    r"fix|meet|achieve|study|investigate|explore|this end)\b[^,]{0,80}|"
    r"in (?:this|our|the present) (?:paper|work|study|article)|in response(?: to)?\b[^,]{0,60}|"
    r"(?:based|building|motivated|inspired|drawing) (?:on|by) (?:this|these|such|the above)\b[^,]{0,60}|"
    r"with this in mind|here|then|yet)\s*,\s+",
    re.I,
)
ANAPHORIC_START = re.compile(
    r"^(?:this|these|that|those|it|its|they|their|them|such|both|here|the latter|"
    r"the former|as such|and|but|or|which)\b",
    re.I,
)
THIS_PAPER_START = re.compile(r"^this (?:paper|work|study|article)\b", re.I)  # "This paper introduces X": fine
VAGUE_REFERENCE = re.compile(
    r"\b(?:our|the proposed|the above|this|these|such|both)\s+(?:[\w-]+\s+)?(?:methods?|approach(?:es)?|models?|"
    r"frameworks?|systems?|solutions?|techniques?|pipelines?|designs?|paradigms?|strateg(?:y|ies)|limitations?|"
    r"challenges?|issues?|problems?|gaps?|shortcomings?|difficult(?:y|ies)|settings?|ideas?|drawbacks?)\b",
    re.I,
)


ENUMERATION = re.compile(r"\((?:1|i|a)\)\s")


def readable_quote(quote: str) -> str | None:
    """The part of a verbatim sentence a task may quote, or None when it does not read on
    its own: markup anywhere -> None; a leading connective clause is cut ("However, X" ->
    "X": still a verbatim substring); then an anaphoric start ("These results ...") or an
    unnamed referent ("this approach", "these limitations", "our framework") -> None; fewer
    than MIN_QUOTE_WORDS words left, or an enumeration ("(1) ...": the list was cut) -> None."""
    text = " ".join(quote.split())
    if MARKUP.search(text):
        return None
    m = OPENER.match(text)
    body = text[m.end() :] if m else text
    if m and OPENER.match(body):  # "However, to address this, we ..." -> one more clause
        body = body[OPENER.match(body).end() :]
    if (ANAPHORIC_START.match(body) and not THIS_PAPER_START.match(body)) or VAGUE_REFERENCE.search(body):
        return None
    if not MIN_QUOTE_WORDS <= len(body.split()) <= MAX_QUOTE_WORDS or body.endswith(":"):
        return None
    if ENUMERATION.search(body):  # "two mechanisms: (1) X." -- the sentence splitter cut the list
        return None
    return body


# What a primary quote must state for its phase (the extractor's kinds are cue-based and loose):
# synthesize a limitation, design a proposed approach, evaluate a testable finding (not a proposal).
PROPOSAL = re.compile(
    r"\b(?:we|this (?:paper|work|study))\s+(?:\w+\s+){0,2}?(?:propos|introduc|present|develop|"
    r"design|buil|creat|construct|devis)\w*",
    re.I,
)
LIMITATION = re.compile(
    r"\b(?:limitation\w*|limited (?:to|by|in)|fail(?:s|ed)? to|struggl\w*|lack\w*|bottleneck\w*|insufficient\w*|"
    r"(?:is|are|remains?|becomes?) (?:still )?(?:a |an )?(?:\w+ )?(?:challenge|challenging|difficult|hard|unclear|"
    r"unsolved|unexplored|underexplored|open)|(?:key|main|major|central|fundamental|open) (?:challenge|problem|"
    r"question)s?|challenges? (?:remain|persist)|suffer\w*|costly|expensive|brittle|unreliab\w*|hallucinat\w*|"
    r"vulnerab\w*|cannot|unable|underexplored|unexplored|overlook\w*|neglect\w*|rarely|seldom|poorly)\b",
    re.I,
)
FINDING = re.compile(
    r"\b(?:show|shows|showed|shown|find|finds|found|demonstrat\w*|reveal\w*|indicat\w*|suggest\w*|observ\w*|"
    r"confirm\w*)\b(?:\s+[\w-]+){0,3}?\s+that\b|\boutperform\w*|\bsurpass\w*|\d+(?:\.\d+)?\s?%|"
    r"\b(?:improv|increas|reduc|boost)\w*\b.{0,60}\bby\b",
    re.I,
)


def primary_fits(phase: str, quote: str) -> bool:
    """Whether a (readable) quote states what the phase's primary must: a limitation
    (synthesize), a proposed approach (design), a testable finding that is not a proposal
    (evaluate)."""
    if phase == "synthesize":
        return bool(LIMITATION.search(quote))
    if phase == "design":
        return bool(PROPOSAL.search(quote))
    return bool(FINDING.search(quote)) and not PROPOSAL.search(quote)


def quote_key(text: str) -> str:
    """A quote's identity: lower-cased words (so spacing and case do not make two quotes)."""
    return " ".join(re.findall(r"[a-z0-9]+", text.lower()))


_QUOTED = re.compile(r"\"([^\"]{30,})\"")


def quoted_keys(texts) -> set[str]:
    """The identities of every double-quoted span (>= 30 characters) in `texts`."""
    return {quote_key(q) for t in texts for q in _QUOTED.findall(t)}


def shares_quote(key: str, taken: set[str]) -> bool:
    """True when `key` is, contains or is contained in one of the quotes already taken (a
    trimmed quote is the same quote as the sentence it was cut from)."""
    return any(key == k or key in k or k in key for k in taken)


# ---- the subject ----------------------------------------------------------------------------------
_SUBJECT_LEAD = re.compile(r"^(?:a|an|the|towards?|on)\s+", re.I)
MAX_SUBJECT_WORDS = 14


def subject_of(title: str, fallback: str) -> str:
    """A readable subject from the primary paper's title: its descriptive part (of the parts
    around the first colon, dash or "!"/"?", the longer one with >= 3 words: the shorter is a
    name, a slogan or a genre like "A Survey"), a leading article or "Towards" dropped, the
    title's own capitalisation kept. A title with markup, a question or
    exclamation left in the part, or more than MAX_SUBJECT_WORDS words gives `fallback` (the
    domain's title)."""
    t = " ".join(title.split()).rstrip(".")
    if not t or MARKUP.search(t):
        return fallback
    head, sep, tail = (re.split(r"(:\s|\s--?\s|\s—\s|[!?]\s)", t, maxsplit=1) + ["", ""])[:3]
    head, tail = _SUBJECT_LEAD.sub("", head).strip(), _SUBJECT_LEAD.sub("", tail).strip()
    parts = [x for x in (tail, head) if sep and len(x.split()) >= 3 and not re.search(r"[!?]", x)]
    # the longer part describes (a name, a slogan or a genre like "A Survey" is the shorter one)
    part = max(parts, key=lambda x: len(x.split())) if parts else _SUBJECT_LEAD.sub("", t).strip()
    if re.search(r"(:\s|\s--?\s|\s—\s)", part) and part != t:  # "Position: A -- B": split once more
        return subject_of(part, fallback)
    if re.search(r"[!?]", part) or not 2 <= len(part.split()) <= MAX_SUBJECT_WORDS:
        return fallback
    return part


# ---- the stronger sentence embedder (all-MiniLM-L6-v2, int8 ONNX) ------------------------------------


@lru_cache(maxsize=1)
def _sentence_embedder():
    from resources.embeddings import ONNX_MINILM, load_embedder

    return load_embedder(kind=ONNX_MINILM)


def sentence_vectors(texts: list[str]) -> np.ndarray:
    """Unit vectors of short texts by all-MiniLM-L6-v2 (the `onnx-minilm` embedder, cached on
    disk): ~100 sentences/s on 2 cores, so only quotes and candidate sentences are embedded."""
    if not texts:
        return np.zeros((0, 384), dtype=np.float32)
    return _sentence_embedder().encode(list(texts))


# ---- the reference check -----------------------------------------------------------------------------
OWN_WORK = re.compile(r"\b(?:we|our|this (?:paper|work|study|article))\b", re.I)
OWN_RESULT = re.compile(
    r"\b(?:experiments?|results?|evaluations?|analys[ie]s|ablations?|studies)\b[^.;]{0,60}?"
    r"\b(?:show|demonstrat|reveal|indicat|confirm|suggest|highlight)\w*",
    re.I,
)
_OWN_SUBJECT = r"\b(?:we|this (?:paper|work|study|article))\s+(?:[\w-]+\s+){0,2}?"
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


# design: a proposed study is not a proposed method ("we develop a systematic evaluation of ...")
NOT_A_METHOD = re.compile(
    _OWN_SUBJECT + r"(?:develop|present|propos|introduc|conduct|perform|provid|carr)\w*\s+"
    r"(?:[\w-]+\s+){0,3}?(?:evaluations?|analys[ie]s|stud(?:y|ies)|surveys?|investigations?|"
    r"comparisons?|assessments?|reviews?|audits?)\b",
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


def reference_candidates(abstract: str, phase: str) -> list[str]:
    """An abstract's sentences that may state what its paper did for this phase."""
    return [" ".join(s.split()) for s in _SENT.split(abstract or "") if is_phase_sentence(s, phase)]


# Words any research sentence uses: shared alone they say nothing about the topic
ANCHOR_GENERIC = frozenset(
    """
introduc introduce present develop design construct build provide enable allow reveal suggest indicate show
demonstrat demonstrate evaluat evaluate assess analyz analyse analyze investigat investigate explor explore
identif identify diverse real-world complex dynamic simple general generaliz generalize large-scale scalab
scalable open open-source first second third one two three four five six seven eight nine ten multiple
human humans user users system systems approach research result finding findings paper work
state art source end level based aware real world time
overlook neglect ignor lack limit limitation struggl remain suffer difficult insufficient rarely poor brittle
costly expensive challeng challenge fail failure scal understand specializ unify unified comprehensive
fine-grain effective efficient robust novel accurate precise high high-quality low strong
gpt chatgpt claude gemini llama qwen deepseek mistral grok opus sonnet
""".split()
)


def topic_stems(text: str) -> set[str]:
    """Content stems of a text, hyphenated words also split ("SWE-bench" -> swe, bench),
    without the words every research sentence uses (ANCHOR_GENERIC) and numbers."""
    stems = content_stems(text) | content_stems(text.replace("-", " "))
    return {w for w in stems if w not in ANCHOR_GENERIC and not w.replace(".", "").isdigit()}


def answers_task(sentence: str, primary: str, cos: float, df: dict[str, float] | None = None) -> bool:
    """The documented check that a phase sentence answers the task: its cosine with the primary
    quote is >= REF_COS and the two share topic stems that name the topic: after dropping the
    domain's everyday words (`df`: the share of the window's abstracts holding a stem; more
    than COMMON_DF, e.g. "reasoning" or "fine-tuning" in post-training), >= 2 shared stems, or
    one that is rare (in <= RARE_DF of the window's abstracts: "hypergraph", "privacy", "MCP").
    Without `df` every shared stem counts as rare."""
    return cos >= REF_COS and shares_topic(sentence, primary, df)


def shares_topic(sentence: str, primary: str, df: dict[str, float] | None = None) -> bool:
    """The lexical half of `answers_task` (shared topic stems), checked before any sentence is
    embedded: a sentence that fails it never needs its MiniLM vector."""
    df = df or {}
    shared = {w for w in topic_stems(sentence) & topic_stems(primary) if df.get(w, 0.0) <= COMMON_DF}
    return len(shared) >= 2 or any(df.get(w, 0.0) <= RARE_DF for w in shared)


def stem_shares(abstracts: list[str]) -> dict[str, float]:
    """The share of the given abstracts holding each topic stem."""
    df: dict[str, int] = {}
    for a in abstracts:
        for w in topic_stems(a):
            df[w] = df.get(w, 0) + 1
    n = max(1, len(abstracts))
    return {w: c / n for w, c in df.items()}


class PhaseAnswer(BaseModel):
    report: str = Field(
        default="", description="the research report (markdown): the synthesis, design or evaluation the task asks for"
    )
    keypoints: list[str] = Field(default_factory=list, description="the report's 1-5 key statements, one atomic statement each")
    claims: list[str] = Field(default_factory=list)
    cited_ids: list[str] = Field(default_factory=list)


def question_text(
    phase: str,
    subject: str,
    domain_title: str,
    primary: tuple[str, str],
    support: tuple[str, str] | None,
    cutoff: str,
    ws: str,
    we: str,
) -> str:
    """The offline TaskWeaver template of one phase (public: pre-cutoff quotes and ids only).
    `primary` and `support` are (readable quote, paper id)."""
    q, pid = primary
    field = f"{subject} ({domain_title})" if subject != domain_title else domain_title
    if phase == "synthesize":
        s = f' A related pre-cutoff finding ({support[1]}): "{support[0]}"' if support else ""
        return (
            f"Synthesize the research on {field} published up to {cutoff}. A pre-cutoff paper ({pid}) reported "
            f'the limitation: "{q}"{s} Integrate what prior work says about this limitation, identify the '
            f"gap it leaves open, and state the research direction that work published between {ws} and {we} "
            f"would take up to close it."
        )
    if phase == "design":
        s = f' A related open problem ({support[1]}): "{support[0]}"' if support else ""
        return (
            f'Design the next method on {field}, as of {cutoff}. A pre-cutoff paper ({pid}) proposed: "{q}"{s} '
            f"Propose the method that work published between {ws} and {we} would build to take this approach "
            f"further: the method, the experiments that would test it, and what it assumes."
        )
    s = f' A related pre-cutoff approach ({support[1]}): "{support[0]}"' if support else ""
    return (
        f'Evaluate a claim on {field}, as of {cutoff}. A pre-cutoff paper ({pid}) reported: "{q}"{s} Design '
        f"the evaluation that work published between {ws} and {we} would run to confirm or refute such a "
        f"claim: benchmarks, metrics, baselines and statistical tests."
    )


def query_of(build: TaskBuild) -> str:
    """What window papers must pursue: the primary paper's title and the PRIMARY quote (the
    supporting one only frames the public question)."""
    ins = json.loads(build.curation.get("inspirations", "[]"))
    primary = build.curation.get("primary_quote") or (ins[0]["quote"] if ins else "")
    return " ".join(x for x in [build.curation.get("primary_title", ""), primary] if x)


def quote_in_window(claim: GoldClaim, gold: GoldTarget, cc) -> str | None:
    """Claim check: a reference keypoint is a sentence of the title or abstract of a window paper."""
    texts = [
        " ".join(f"{cc.window[i].title} {cc.window[i].abstract}".split()).lower() for i in claim.basis.paper_ids if i in cc.window
    ]
    quote = " ".join(claim.text.split()).lower()
    return None if texts and any(quote in x for x in texts) else "keypoint not found in the window paper"


_PAPER_ID = re.compile(r"\b(\d{4}\.\d{4,5})(?:v\d+)?\b")


def primary_paper(curation, task: Task) -> str:
    """A phase task's primary paper: its first inspiration's paper, else the first arXiv id
    its question quotes."""
    try:
        insp = json.loads(curation.get("inspirations") or "[]")
    except ValueError:
        insp = []
    if insp and isinstance(insp[0], dict) and insp[0].get("paper_id"):
        return str(insp[0]["paper_id"])
    m = _PAPER_ID.search(task.question)
    return m.group(1) if m else ""


class PhaseFamily(TaskFamily):
    name = "phase"
    title = "Research Phase Tasks (DeepResearch Arena)"
    summary = "an open-ended synthesize / design / evaluate task grounded in pre-cutoff inspirations"
    answer_kind = "report"
    instructions = (
        "Use only the evidence available up to the cutoff (the knowledge base is bound to it). Write a "
        "research report for the task's phase, cite the pre-cutoff papers it rests on, and list its key "
        "statements as atomic key points."
    )
    requirements = (
        "a research report for the task's phase (synthesize, design or evaluate)",
        "the phase's deliverable: a gap and a direction (synthesize), a method with its experiments "
        "(design), or benchmarks, metrics, baselines and tests (evaluate)",
        "1-5 key points, one atomic statement each",
        "cited pre-cutoff papers for its statements",
    )
    decision_cues = ("synthesize", "design", "evaluat")
    answer_schema = PhaseAnswer
    answer_fields = "Fields: report (markdown research report), keypoints (1-5 atomic key statements), claims, cited_ids."
    offline_reading = "own"
    needs: ClassVar[frozenset[str]] = frozenset(
        {"papers", "llm"}
    )  # the subject: the primary paper's title; llm: drafted inspirations
    vocabulary = (
        "Synthesize the research on published up to A pre-cutoff paper reported the limitation related "
        "finding Integrate what prior work says about this limitation identify the gap it leaves open and "
        "state the research direction that work published between would take up to close it Design the "
        "next method as of proposed open problem Propose the method build to take this approach further "
        "experiments that would test it what it assumes Evaluate a claim approach the evaluation run to "
        "confirm or refute such a claim benchmarks metrics baselines statistical tests"
    )
    rubric_dimensions = {"phase_fit": "the report does what the task's phase asks (synthesis, design, evaluation)"}
    claim_checks: ClassVar[dict] = {"quote_in_window": quote_in_window}
    review_stages = (
        (
            "problem",
            "what the pre-cutoff work on the task's inspirations establishes and leaves open",
            ("grounding in the evidence", "clarity"),
        ),
        ("method", "the synthesis, design or evaluation the task's phase asks for", ("validity", "specificity")),
        ("experiment", "how the answer would be checked in {window}", ("falsifiability", "feasibility")),
    )
    phases: ClassVar[tuple[str, ...]] = PHASES

    # ---- building ------------------------------------------------------------------------
    def template(self, draft) -> tuple[str, str]:  # not used: tasks come from inspirations, not drafts
        return "Phase task", "Synthesize ..."

    def build(self, builder) -> None:
        """Per phase, primaries taken node by node in turn (the nodes with most inspirations
        first, each node's inspirations in the extractor's order), the phases taking turns so
        each gets its share of the family's budget; only readable quotes not quoted before."""
        st = builder.settings
        records = list(builder.records_by_node.values())
        drafter = builder.inspiration_drafter
        if drafter is None and builder.llm is not None:  # model-drafted inspirations
            drafter = partial(draft_inspirations, builder.llm)
        inspirations = drafter(records, st.cutoff) if drafter else extract_inspirations(records, st.cutoff)
        builder.inspirations = inspirations
        titles = {p.arxiv_id: p.title for p in builder.papers}
        taken = quoted_keys(t.question for t in builder.tasks)  # the families built before quote these
        usable: list[tuple[Inspiration, str]] = []
        for i in inspirations:
            body = readable_quote(i.quote)
            if body is not None and not shares_quote(quote_key(body), taken):
                usable.append((i, body))
        vecs = sentence_vectors([b for _, b in usable])
        by_node: dict[str, list[int]] = {}
        for k, (i, _) in enumerate(usable):
            by_node.setdefault(i.node_id, []).append(k)
        nodes = sorted(by_node, key=lambda n: (-len(by_node[n]), n))
        order = {}  # phase -> usable indices of its primary kinds, node by node in turn
        for ph in PHASES:
            lists = [
                [k for k in by_node[n] if usable[k][0].kind in PRIMARY[ph] and primary_fits(ph, usable[k][1])] for n in nodes
            ]
            order[ph] = [lst[r] for r in range(max((len(x) for x in lists), default=0)) for lst in lists if r < len(lst)]
        limit = st.family_max(self.name)
        per_phase = -(-limit // len(PHASES))  # each phase gets its share of the family's budget
        made = {ph: 0 for ph in PHASES}
        state = {"quotes": set(), "papers": set(), "kept": []}
        while builder.count(self.name) < limit and any(order[ph] and made[ph] < per_phase for ph in PHASES):
            for ph in PHASES:
                while order[ph] and made[ph] < per_phase and builder.count(self.name) < limit:
                    k = order[ph].pop(0)
                    primary, body = usable[k]
                    if primary.paper_id in state["papers"] or shares_quote(quote_key(body), state["quotes"]):
                        continue
                    support = self._support(ph, k, usable, vecs, state)
                    made[ph] += self._emit(builder, ph, (primary, body), support, titles, state)
                    break

    @staticmethod
    def _support(phase: str, k: int, usable, vecs: np.ndarray, state) -> tuple[Inspiration, str, float] | None:
        """The most similar unused quote of the phase's support kinds from another paper, if its
        cosine with the primary quote is >= SUPPORT_COS and it shares a topic stem with it (else
        the task has no support)."""
        primary = usable[k][0]
        best, best_cos = None, SUPPORT_COS
        cos = vecs @ vecs[k] if len(vecs) else np.zeros(0)
        for j in np.argsort(-cos, kind="stable"):
            if cos[j] < best_cos:
                break
            i, body = usable[j]
            if (
                i.kind in SUPPORT[phase]
                and i.paper_id != primary.paper_id
                and topic_stems(body) & topic_stems(usable[k][1])
                and not shares_quote(quote_key(body), state["quotes"])
            ):
                best = (i, body, round(float(cos[j]), 4))
                break
        return best

    def _emit(self, builder, phase: str, primary: tuple[Inspiration, str], support, titles: dict[str, str], state) -> bool:
        st = builder.settings
        n = builder.count(self.name) + 1
        task_id = f"{st.domain}-{st.cutoff.isoformat()}-{self.name}-{n:02d}"
        p, body = primary
        sig = set(content_tokens(body))
        dup = next((tid for tid, other in state["kept"] if jaccard(sig, other) >= DUPLICATE_JACCARD), None)
        state["quotes"].add(quote_key(body))  # a quote is considered once, whatever happens to its task
        if dup:
            builder.failures.append(
                Failure(stage="tasks", item_id=task_id, reason=f"curation: duplicate decision of {dup} (same inspiration)")
            )
            return False
        subject = subject_of(titles.get(p.paper_id, ""), st.domain_title)
        question = question_text(
            phase,
            subject,
            st.domain_title,
            (body, p.paper_id),
            (support[1], support[0].paper_id) if support else None,
            st.cutoff.isoformat(),
            st.window_start.isoformat(),
            st.window_end.isoformat(),
        )
        title = (
            f"{PHASE_TITLES[phase]}: {subject}"
            if subject != st.domain_title
            else f"{PHASE_TITLES[phase]}: {st.domain_title} ({p.paper_id})"
        )
        ins = [p] + ([support[0]] if support else [])
        record = builder.records_by_node.get(p.node_id)
        node_papers = (record.representative_ids + record.supporting_ids) if record else []
        support_ids = list(dict.fromkeys([i.paper_id for i in ins] + node_papers))[:MAX_SUPPORT_PAPERS]
        if len(support_ids) < MIN_SUPPORT_PAPERS:  # the same premise rule as every family: a node with papers
            builder.failures.append(
                Failure(
                    stage="tasks",
                    item_id=task_id,
                    reason=(
                        f"curation: thin support: the inspiration's node has {len(support_ids)} papers < {MIN_SUPPORT_PAPERS}"
                    ),
                )
            )
            return False
        task = Task(
            task_id=task_id,
            family=self.name,
            domain=st.domain,
            cutoff=st.cutoff,
            window_start=st.window_start,
            window_end=st.window_end,
            horizon=f"{st.horizon_months}-month",
            title=title,
            question=question,
            instructions=self.instructions,
            answer_requirements=list(self.requirements),
            subtype=phase,
            support_paper_ids=support_ids,
            support_evidence_ids=list(dict.fromkeys(f"{i.paper_id}#{i.field}" for i in ins)),
        )
        problems = internal_violations([task], cutoff=st.cutoff, internal_ids=builder.internal_ids)
        if problems:
            builder.failures.append(
                Failure(stage="tasks", item_id=task_id, reason=f"draft dropped: {problems[0]}"[:1000], raw=task.model_dump_json())
            )
            return False
        state["kept"].append((task_id, sig))
        state["papers"].add(p.paper_id)
        if support:
            state["quotes"].add(quote_key(support[1]))
        builder.tasks.append(task)
        builder.builds.append(
            TaskBuild(
                task_id=task_id,
                signal_ids=[],
                node_ids=[p.node_id],
                drafted_by="template",
                build_trace=[
                    BuildStep(step="template", output=json.dumps({"title": title, "question": question}), accepted=True)
                ],
                curation={
                    "phase": phase,
                    "node_label": p.node_label,
                    "extractor": p.extractor,
                    "subject": subject,
                    "primary_title": titles.get(p.paper_id, ""),
                    "primary_quote": body,
                    "support_quote": support[1] if support else "",
                    "support_cos": f"{support[2]:.3f}" if support else f"none >= {SUPPORT_COS}",
                    "inspirations": json.dumps([i.model_dump(mode="json") for i in ins], ensure_ascii=False),
                    "premise": "pass",
                    "decision": "pass",
                    "duplicate": "pass",
                },
            )
        )
        return True

    # ---- answering -----------------------------------------------------------------------
    def decision_signature(self, task: Task, subject: str = "") -> set[str]:
        return set(content_tokens(task.question))

    def evidence_queries(self, task: Task) -> list[tuple[str, str]]:
        return [("task", task.question)]

    def decide(self, task, parsed):
        return None, [], []

    def decision_claims(self, task, parsed, ranking, choice) -> list[str]:
        return [k for k in parsed.keypoints if k.strip()]

    def decision_texts(self, task, parsed, ranking, choice) -> list[str]:
        return [k.strip() for k in parsed.keypoints if k.strip()]

    def answer_lines(self, task, parsed, ranking, choice) -> list[str]:
        lines = [parsed.report.strip(), ""] if parsed.report.strip() else []
        if parsed.keypoints:
            lines += ["**Key points:**"] + [f"- {k}" for k in parsed.keypoints] + [""]
        return lines

    def contract_rules(self, task: Task) -> list[str]:
        return [
            f"report: a {task.subtype or 'research'} report in markdown",
            "keypoints: 1-5 atomic key statements of the report",
        ]

    def contract_violations(self, task: Task, parsed: BaseModel) -> list[str]:
        return [] if getattr(parsed, "keypoints", None) else ["no key points"]

    def offline_answer(self, ctx, method: str):
        """The offline baselines: the cutoff-bound KB's closest papers, read for the phase.
        retrieval: the hits most similar to the task; momentum: the most recent of them.
        Key points: per hit, its abstract sentence sharing most content with the task (an
        own-work sentence of the phase's kind first, `is_phase_sentence`); the report strings
        them together."""
        task, kb = ctx.task, ctx.kb
        hits = kb.search(task.question, k=ctx.setting("k", 20), mode="hybrid")
        if method == "momentum":
            hits = sorted(hits, key=lambda h: (-h.published.toordinal(), h.arxiv_id))[:8]
        q = all_stems(task.question)
        picked: list[tuple[str, str]] = []
        for h in hits:
            if h.arxiv_id in task.support_paper_ids:
                continue  # the inspirations' own papers are in the question already
            full = kb.get(h.arxiv_id) if len(h.snippet) >= 400 else h
            sents = [s for s in _SENT.split((full or h).snippet) if 6 <= len(s.split()) <= 60]
            if not sents:
                continue
            best = max(sents, key=lambda s: (is_phase_sentence(s, task.subtype or ""), len(q & all_stems(s))))
            picked.append((h.arxiv_id, " ".join(best.split())))
            if len(picked) >= 3:
                break
        keypoints = [s for _, s in picked]
        phase = PHASE_TITLES.get(task.subtype, "Report")
        report = "\n".join([f"### {phase}", ""] + [f"- {s} [{pid}]" for pid, s in picked])
        parsed = PhaseAnswer(report=report, keypoints=keypoints, cited_ids=[pid for pid, _ in picked])
        return ctx.render(
            parsed, method=method, retrieved=hits, retrieval_queries=[task.question], has_support_artifact=bool(hits)
        )

    # ---- controls --------------------------------------------------------------------------
    def decision_facts(self, task: Task, build: TaskBuild | None, gold: GoldTarget | None) -> dict:
        """For the independence rule: no named options; the subject, the primary paper (hidden
        construction facts) and the gold's keypoint sentences."""
        curation = build.curation if build else {}
        texts = [v for s in gold.slots if s.slot.startswith("keypoint") for v in s.variants if v.strip()] if gold else []
        return {
            "named": False,
            "subject": curation.get("subject", "") or task.title,
            "project": primary_paper(curation, task),
            "gold_texts": texts,
        }

    def arena_phase(self, task: Task) -> str:
        return task.subtype or ""

    def stated_answer(self, task: Task, gold: GoldTarget) -> dict:
        kps = [v for s in gold.slots for v in s.variants[:1]]
        return {"keypoints": kps, "report": "\n".join(f"- {k}" for k in kps)}

    def random_answer(self, task: Task, gold: GoldTarget, rng, others: list[GoldTarget]) -> dict:
        """Chance: as many key points as the reference has, drawn from other tasks' reference
        keypoints of the partition (real window sentences, another task)."""
        pool = [v for g in others for s in g.slots for v in s.variants[:1]]
        rng.shuffle(pool)
        kps = pool[: max(1, len(gold.slots))]
        return {"keypoints": kps, "report": "\n".join(f"- {k}" for k in kps)}

    def every_option_decision(self, task: Task, gold: GoldTarget) -> list[str]:
        return list(GENERIC_HEDGE)

    # ---- validity ----------------------------------------------------------------------------
    def validity_problems(self, task: Task, gold: GoldTarget) -> list[str]:
        """A pursued task whose reference does not pass the check does not answer its question."""
        n = gold.numbers
        if gold.strength <= 0 or "reference_papers" not in n:
            return []
        if n["reference_papers"] < MIN_REFERENCE:
            return [
                f"reference does not answer the task: {int(n['reference_papers'])} window paper(s) state a "
                f"sentence of the {task.subtype} kind that passes the check (own work, the phase's cue words, >= "
                f"cosine >= {REF_COS} and shared topic stems with the primary quote; "
                f"{int(n.get('n_reference_candidates', 0))} candidate sentences read); need {MIN_REFERENCE}"
            ]
        return []

    # ---- gold ------------------------------------------------------------------------------
    def gold(self, ctx, task: Task, build: TaskBuild, signals) -> GoldTarget:
        query = query_of(build)
        cache = ctx.__dict__.setdefault("_phase_query", {})  # shared with the bootstrap resamples
        if task.task_id not in cache:
            cache[task.task_id] = (ctx.embed_centred([query])[0], all_stems(query))
        qvec, qstems = cache[task.task_id]
        # the pursuit test of every window paper, once per task on the original window: a
        # bootstrap resample (ctx.rows_in_window: its rows' original indices) reads it
        tested = ctx.__dict__.setdefault("_phase_pursuit", {})  # shared with the bootstrap resamples
        if task.task_id not in tested:
            window = ctx._original_future
            stems = ctx.__dict__.setdefault("_phase_stems", {})
            for p in window:
                if p.arxiv_id not in stems:
                    stems[p.arxiv_id] = all_stems(f"{p.title} {p.abstract}")
            cos_all = ctx.window_vecs() @ qvec if window else np.zeros(0)
            ok_all = np.array(
                [bool(c >= PURSUIT_COS) and len(qstems & stems[p.arxiv_id]) >= MIN_SHARED for c, p in zip(cos_all, window)],
                dtype=bool,
            )
            tested[task.task_id] = (cos_all, ok_all)
        cos_all, ok_all = tested[task.task_id]
        at = ctx.rows_in_window()
        cos, ok = (cos_all, ok_all) if at is None else (cos_all[at], ok_all[at])
        order = np.argsort(-cos, kind="stable")
        rows = [int(i) for i in order[ok[order]]]
        numbers = {
            "n_future_total": float(len(ctx.future)),
            "n_pursuing": float(len(rows)),
            "top_cos": round(float(cos.max()), 4) if len(cos) else 0.0,
        }
        base = dict(task_id=task.task_id, family=self.name, domain=task.domain, cutoff=task.cutoff)
        pursuing = list(dict.fromkeys(ctx.future[i].arxiv_id for i in rows))
        if len(rows) < MIN_PURSUING:
            return GoldTarget(**base, numbers=numbers, future_paper_ids=pursuing, strength=0.0)
        if ctx.ranking_only:  # a bootstrap resample only asks whether the task is still pursued
            return GoldTarget(**base, preferred_ranking=["pursued"], numbers=numbers, strength=1.0)
        reference, n_cands, n_pass = self.reference(ctx, task, build, pursuing)
        numbers.update(
            {
                "n_reference_candidates": float(n_cands),
                "n_reference_passing": float(n_pass),
                "reference_papers": float(len(reference)),
                "reference_cos_min": round(min((c for c, _, _ in reference), default=0.0), 4),
            }
        )
        scope = f"{task.window_start} to {task.window_end}"
        claims = [
            GoldClaim(
                claim_id=f"{task.task_id}-c01",
                type="future-realisation",
                time_scope=scope,
                text=(
                    f"Between {task.window_start} and {task.window_end}, {len(pursuing)} window papers "
                    f"pursued the task's inspirations."
                ),
                basis=ClaimBasis(check="window_count", paper_ids=pursuing, values={"n": len(pursuing)}),
            )
        ]
        slots, counted = [], {}
        for c, pid, sentence in reference:
            slots.append(GoldSlot(slot=f"keypoint_{len(slots) + 1}", variants=[sentence]))
            claims.append(
                GoldClaim(
                    claim_id=f"{task.task_id}-c{len(claims) + 1:02d}",
                    text=sentence,
                    type="future-realisation",
                    time_scope=scope,
                    importance=0.8,
                    basis=ClaimBasis(check="quote_in_window", paper_ids=[pid]),
                )
            )
            counted.setdefault("reference", []).append(f'{pid} (cosine {c:.2f}): "{sentence[:300]}"')
        listed = {pid for _, pid, _ in reference}
        counted["pursued"] = [f"{pid}: {ctx.future[i].title[:160]}" for i, pid in zip(rows, pursuing) if pid not in listed][
            :READ_PAPERS
        ]
        # canonical order: two tasks with the same reference keypoints have the same first one, so the
        # release's one-task-per-gold-answer rule (assets/ranking/selection.py) keeps only one of them
        slots = [
            GoldSlot(slot=f"keypoint_{i}", variants=s.variants)
            for i, s in enumerate(sorted(slots, key=lambda s: s.variants[0]), 1)
        ]
        return GoldTarget(
            **base,
            preferred_ranking=["pursued"],
            slots=slots,
            claims=claims,
            numbers=numbers,
            future_paper_ids=pursuing,
            counted=counted,
            strength=round(min(1.0, len(pursuing) / FULL_SUPPORT), 4),
        )

    @staticmethod
    def reference(ctx, task: Task, build: TaskBuild, pursuing: list[str]) -> tuple[list[tuple[float, str, str]], int, int]:
        """(cosine, paper id, sentence) of the reference keypoints, with the number of candidate
        sentences read and of those passing the check: the phase sentences of the READ_PAPERS
        closest pursuing papers that pass `answers_task`, one per paper (for synthesize what the
        paper did before the gap it states), the most similar first."""
        ins = json.loads(build.curation.get("inspirations", "[]"))
        primary = build.curation.get("primary_quote") or (ins[0]["quote"] if ins else "")
        by_id = {p.arxiv_id: p for p in ctx.future}
        cands, seen = [], set()
        for pid in pursuing[:READ_PAPERS]:
            for s in reference_candidates(by_id[pid].abstract, task.subtype or ""):
                if quote_key(s) not in seen:  # a sentence two window papers share is one sentence
                    seen.add(quote_key(s))
                    cands.append((pid, s))
        if not cands or not primary:
            return [], len(cands), 0
        if "_phase_df" not in ctx.__dict__:  # the window's stem shares, once per partition
            ctx.__dict__["_phase_df"] = stem_shares([f"{p.title}. {p.abstract}" for p in ctx.future])
        df = ctx.__dict__["_phase_df"]
        # the topic test first: only sentences that share the primary's topic are embedded
        # (MiniLM is ~100 sentences/s here; most candidate sentences fail the topic test)
        topical = [(pid, s) for pid, s in cands if shares_topic(s, primary, df)]
        vecs = sentence_vectors([primary] + [s for _, s in topical])
        sims = vecs[1:] @ vecs[0]
        passing = sorted(
            ((round(float(c), 4), pid, s) for (pid, s), c in zip(topical, sims) if float(c) >= REF_COS),
            key=lambda x: (-x[0], x[1], x[2]),
        )
        # one sentence per paper: what the paper did (an own-work sentence) before the gap it
        # states (synthesize), the most similar first; then the papers, most similar first
        best: dict[str, tuple[float, str, str]] = {}
        for c, pid, s in passing:
            own = not (task.subtype == "synthesize" and is_gap_sentence(s) and not OWN_WORK.search(s))
            if pid not in best or (own and not best[pid][0]):
                best[pid] = (own, c, s)
        chosen = sorted(((c, pid, s) for pid, (_, c, s) in best.items()), key=lambda x: (-x[0], x[1], x[2]))
        return chosen[:MAX_REFERENCE], len(cands), len(passing)

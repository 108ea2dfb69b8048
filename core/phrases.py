"""Research-direction phrases: normalised keys, display forms and the option rules.

A research direction is named by a phrase researchers put in titles ("prompt injection",
"agent skills", "GRPO"). This module decides, in one place, what such a phrase is:

* Tokens: the words of a text, case kept (for display).
* Break words (`BREAK_WORDS`: function words and abstract boilerplate, i.e. `core.text`'s
  stop words without the domain nouns and "use"): a phrase never spans one.
* Generic words (`GENERIC_WORDS`: agent, LLM, model, ...): every paper of these domains uses
  them. A phrase may carry one in its display form ("GUI agents") but its key leaves them
  out, so "GUI agent", "GUI agents" and "GUI" are one direction.
* Key: a run of 1..MAX_WORDS other tokens -- alone, or extended by the generic words next to
  it when they end in the domain's object (HEAD_WORDS: "reward models", "GUI agents") or start
  with its adjective (LEADING_WORDS: "agentic RL", "agent skills") -- lower-cased, hyphens
  removed, singular, American spelling: "fine-tuning" and "Finetuning", or "Skill" and
  "Skills", are one key (spelling and number variants merge before anything else). `phrase_keys(text)` returns every key of a text; "reward" and "reward
  models" are two keys (the second names fewer papers, and means what it says).
* Display form (`display_forms`): the key's most frequent surface form in the titles that
  hold it.
* Option rules: `contribution_type(display)` names the contribution-type word of a phrase
  (benchmark, survey, dataset, framework, evaluation, ...: what a paper *is*, not what it is
  *about*; `CONTRIBUTION_TYPES` anywhere, `CONTRIBUTION_HEADS` such as report, analysis, study
  as the last word); `one_word_problem(display)` rejects a
  one-word name unless it is a recognised name: an acronym (GUI, MCP, RLVR), a mixed-case
  coinage (LoRA, GraphRAG) or a name with digits (A2A). Hyphenated compounds count as one
  word ("multi-agent" alone is not a direction; "multi-agent debate" is).
* Near-duplicates (`same_direction`): two phrases whose keys are equal once generic words are
  dropped, or an acronym and its expansion, name one direction (nested names share papers: the
  builders' member-overlap rules catch them).
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable
from functools import lru_cache
from itertools import permutations

import Stemmer

from core.text import STOP_WORDS

MAX_WORDS = 4

# The domains' omnipresent nouns: allowed in a display form, never part of a key.
GENERIC_WORDS = frozenset(
    """
agent agents agentic ai llm llms lm lms llm-based llm-powered llm-driven language large model models
foundation mllm mllms vlm-based
""".split()
)
# A key is extended only by a generic run that ends in the domain's object ("GUI agents",
# "small language models") or starts with its adjective ("agentic RL", "agent skills"): never by
# a modifier alone ("natural language").
HEAD_WORDS = frozenset("agent agents model models llm llms lm lms mllm mllms".split())
LEADING_WORDS = frozenset("agent agentic llm model".split())
BREAK_WORDS = (STOP_WORDS - GENERIC_WORDS - {"use", "uses"}) | frozenset(
    "toward towards via using based improving enhancing leveraging boosting rethinking revisiting unlocking "
    "empowering bridging scaling-up beyond technique techniques strategy strategies paradigm paradigms mechanism "
    "mechanisms scheme schemes".split()
)
# What a paper IS rather than what it is ABOUT: never a research direction by itself. Words of
# the first list make any phrase a contribution type; words of the second only as its head
# ("technical report", "empirical study"; "radiology report generation" is a task).
CONTRIBUTION_TYPES = frozenset(
    """
benchmark benchmarks benchmarking survey surveys dataset datasets corpus corpora framework frameworks
toolkit toolkits library libraries tutorial tutorials leaderboard leaderboards testbed testbeds suite suites
overview overviews position perspective perspectives evaluation evaluations evaluating primer roadmap taxonomy
""".split()
)
CONTRIBUTION_HEADS = frozenset(
    """
report reports review reviews analysis analyses study studies comparison investigation exploration
""".split()
)
# ... but a head names a contribution only after words that say what kind of contribution it is
# ("empirical analysis", "systematic review"); after a topic it names the topic ("sentiment
# analysis", "radiology report"). Measured: "analysis"/"report" as a bare head rejected real topics.
CONTRIBUTION_MODIFIERS = frozenset(
    """
empirical comprehensive systematic theoretical comparative technical preliminary critical large-scale
case pilot user human ablation extensive thorough brief short new our an a the
""".split()
)
_TOKEN = re.compile(r"[A-Za-z][A-Za-z0-9]*(?:[\-'][A-Za-z0-9]+)*")


@lru_cache(maxsize=200_000)
def normalise(token: str) -> str:
    """A token's key form: lower-case, no hyphens or apostrophes, American spelling, singular."""
    t = re.sub(r"[\-']", "", token.lower())
    t = re.sub(r"is(ation|ing|ed|er|es)$", r"iz\1", t) if len(t) > 7 else t
    t = re.sub(r"elling$", "eling", t)
    if len(t) > 4 and t.endswith("ies"):
        return t[:-3] + "y"
    if len(t) > 3 and t.endswith("s") and not t.endswith(("ss", "us", "is")):
        return t[:-1]
    return t


_BOUNDARY = re.compile(r"[:;,.!?()\[\]{}\"/|]|\s[-–—]\s")


def tokens(text: str) -> list[str]:
    return _TOKEN.findall(text or "")


def segments(text: str) -> list[list[str]]:
    """The text's tokens, split at punctuation: a phrase never spans "Agents: Reward"."""
    return [t for part in _BOUNDARY.split(text or "") if (t := tokens(part))]


def _runs(words: list[str]) -> list[list[int]]:
    """Index runs of key tokens (not break words, not generic words, 2+ letters)."""
    runs: list[list[int]] = []
    cur: list[int] = []
    for i, w in enumerate(words):
        low = w.lower()
        if low in BREAK_WORDS or low in GENERIC_WORDS or len(low) < 2 or low.isdigit():
            if cur:
                runs.append(cur)
            cur = []
        else:
            cur.append(i)
    if cur:
        runs.append(cur)
    return runs


def _spans(words: list[str]) -> Iterable[tuple[int, int]]:
    """(start, end) of every run of 1..MAX_WORDS key tokens, and of the same run extended by
    its adjacent generic words when they end in the domain's object ("reward models", "GUI
    agents") or start with its adjective ("agentic RL", "agent skills")."""
    for run in _runs(words):
        for n in range(1, MAX_WORDS + 1):
            for s in range(len(run) - n + 1):
                a, b = run[s], run[s + n - 1] + 1
                yield a, b
                after = _generic_run(words, b, 1)
                if after and after[-1].lower() in HEAD_WORDS:
                    yield a, b + len(after)
                before = _generic_run(words, a - 1, -1)
                if before and before[0].lower() in LEADING_WORDS:
                    yield a - len(before), b


def key_of(words: Iterable[str]) -> str:
    return " ".join(normalise(w) for w in words)


def phrase_keys(text: str) -> set[str]:
    """Keys of every run of 1..MAX_WORDS key tokens of `text` (see the module docstring)."""
    return {key_of(words[a:b]) for words in segments(text) for a, b in _spans(words)}


def normal_text(text: str) -> str:
    """The text as normalised words (`normalise`), segments separated by " | ", padded with
    spaces: `names(key, normal_text(t))` is a fast test of whether `t` names a key."""
    return " " + " | ".join(" ".join(normalise(w) for w in seg) for seg in segments(text)) + " "


def names(key: str, normal: str) -> bool:
    """Whether a text (as `normal_text`) names a key: its words, contiguous, in one segment."""
    return f" {key} " in normal


def key_words(key_display: str) -> list[str]:
    """The content words of a display form (generic words dropped), normalised."""
    return [normalise(w) for w in tokens(key_display) if w.lower() not in GENERIC_WORDS and w.lower() not in BREAK_WORDS]


def _generic_run(words: list[str], start: int, step: int) -> list[str]:
    """The generic words next to a span (after it for step 1, before it for step -1), in text order."""
    run, i = [], start
    while 0 <= i < len(words) and words[i].lower() in GENERIC_WORDS:
        run.append(words[i])
        i += step
    return run if step == 1 else run[::-1]


def display_forms(keys: Iterable[str], titles: Iterable[str]) -> dict[str, str]:
    """Each key's display form over `titles` (the titles that hold it): its most frequent
    surface form, acronyms and mixed-case names kept, other words lower-cased."""
    wanted = set(keys)
    surface: dict[str, Counter] = {k: Counter() for k in wanted}
    for title in titles:
        seen: set[str] = set()
        for words in segments(title):
            for a, b in _spans(words):
                k = key_of(words[a:b])
                if k in wanted and k not in seen:
                    seen.add(k)
                    surface[k][" ".join(words[a:b])] += 1
    return {k: readable_case(max(c.items(), key=lambda kv: (kv[1], kv[0]))[0]) for k, c in surface.items() if c}


def readable_case(form: str) -> str:
    """Lower-case ordinary words, keep acronyms and mixed-case names ("GUI agents", "LoRA"),
    part by part in hyphenated words ("AI-generated", "Text-to-SQL")."""

    def part(p: str) -> str:
        return p if is_name(p) or (p.isupper() and len(p) > 1) else p.lower()

    return " ".join("-".join(part(p) for p in w.split("-")) for w in form.split())


def is_name(word: str) -> bool:
    """An acronym (GUI, MCP, RLVR), a mixed-case coinage (LoRA, GraphRAG, ReAct) or a name
    with digits (A2A, GPT-4o); not a capitalised ordinary word ("Memory"). A hyphenated word
    is a name when one of its parts other than a generic word is ("Text-to-SQL", not
    "Multi-Turn" or "Human-AI")."""
    parts = [x for x in re.split(r"[\-']", word) if x]
    if len(parts) > 1:
        return any(is_name(x) for x in parts if x.lower() not in GENERIC_WORDS)
    core = parts[0] if parts else ""
    if len(core) < 2:
        return False
    if any(c.isdigit() for c in core):
        return any(c.isalpha() for c in core)
    uppers = sum(c.isupper() for c in core)
    return uppers >= 2 or (uppers == 1 and not core[0].isupper())


def content_words(display: str) -> list[str]:
    """The display form's words that are neither generic nor break words."""
    return [w for w in display.split() if w.lower() not in GENERIC_WORDS and w.lower() not in BREAK_WORDS]


def contribution_type(display: str) -> str | None:
    """The contribution-type word of a phrase (CONTRIBUTION_TYPES anywhere; CONTRIBUTION_HEADS as
    its last word after nothing but CONTRIBUTION_MODIFIERS), or None."""
    words = display.lower().split()
    for w in words:
        for part in w.split("-"):
            if part in CONTRIBUTION_TYPES:
                return part
    if words and words[-1] in CONTRIBUTION_HEADS and all(w in CONTRIBUTION_MODIFIERS for w in words[:-1]):
        return words[-1]
    return None


def one_word_problem(display: str) -> str | None:
    """Why a display form is one bare word and no recognised name, or None."""
    words = display.split()
    if len(words) >= 2:
        return None
    # a compound of three or more hyphened words is a phrase ("Plan-and-execute"), not one word
    if words and len(words[0].split("-")) >= 3:
        return None
    if words and is_name(words[0]):
        return None
    return f"one word ({display!r}) that is not a recognised name"


_STEMMER = Stemmer.Stemmer("english")


def stems(display: str) -> set[str]:
    """Snowball stems of the display form's content words and their hyphen parts
    ("collaborative" and "collaboration" share "collabor")."""
    out: set[str] = set()
    for w in content_words(display):
        out.update(_STEMMER.stemWord(p.lower()) for p in re.split(r"[\-']", w) if p and p.lower() not in GENERIC_WORDS)
    return out


def _abbreviates(letters: str, words: list[str]) -> bool:
    """`letters` are the words' leading letters in order, each word giving one or more
    ("lora" <- "LOw-Rank Adaptation", "rag" <- "Retrieval-Augmented Generation")."""
    if not words:
        return not letters
    if not letters:
        return False
    w = words[0]
    return any(letters[:n] == w[:n] and _abbreviates(letters[n:], words[1:]) for n in range(1, min(len(w), len(letters)) + 1))


def acronym_of(a: str, b: str) -> bool:
    """`a` is one name that abbreviates `b` ("RAG", "retrieval-augmented generation"; "LoRA",
    "low-rank adaptation"; "MCP", "model context protocol"), generic words of `b` optional."""
    letters = re.sub(r"[^a-z]", "", a.lower())
    if len(a.split()) != 1 or not is_name(a) or len(b.split()) + b.count("-") < 2:
        return False
    for words in (
        [p.lower() for w in b.split() for p in re.split(r"[\-']", w) if p],
        [p.lower() for w in content_words(b) for p in re.split(r"[\-']", w) if p],
    ):
        if _abbreviates(letters, words) or _abbreviates(letters.rstrip("s"), words):
            return True
    return False


def same_direction(a: str, b: str) -> bool:
    """Two names of one direction: equal keys once generic words and spaces are dropped ("GUI
    agents" / "GUI", "fine tuning" / "fine-tuning"), or an acronym and its expansion ("RAG" /
    "retrieval-augmented generation"). Shared words alone do not make two directions one
    ("legal reasoning" / "LLM reasoning"); nested names ("process reward models" / "reward
    models") share their papers, which the member-overlap rules of the builders catch."""

    def bare(x: str) -> str:  # generic words dropped, but "language" stays: "diffusion language models" is no "diffusion model"
        kept = content_words(x)
        return key_of([w for w in x.split() if w in kept or w.lower() == "language"]).replace(" ", "")

    return bare(a) == bare(b) or acronym_of(a, b) or acronym_of(b, a) or reordered(a, b)


SAME_WORD_PREFIX = 6  # two words of one name share this many leading letters ("synthetic" / "synthesis")


def reordered(a: str, b: str) -> bool:
    """Two multi-word names with the same words in another order or form ("synthetic data" /
    "data synthesis"): their content words pair up one to one, each pair sharing its first
    SAME_WORD_PREFIX letters (or equal when shorter)."""
    wa = [w.lower() for w in content_words(a)]
    wb = [w.lower() for w in content_words(b)]
    if len(wa) != len(wb) or not 2 <= len(wa) <= 4:
        return False
    same = lambda x, y: x == y or (min(len(x), len(y)) >= SAME_WORD_PREFIX and x[:SAME_WORD_PREFIX] == y[:SAME_WORD_PREFIX])  # noqa: E731
    return any(all(same(x, y) for x, y in zip(wa, perm)) for perm in permutations(wb))


NAME_SEPARATOR = " — "  # an option text is "<name> — <gloss and examples>"


def option_name(text: str) -> str:
    """An option's name: its text before the gloss (older texts: before keywords or an example)."""
    return text.split(NAME_SEPARATOR)[0].split(" (keywords")[0].split(";")[0].strip()


# Foundation models by name: a backbone a paper runs on, never a research direction or approach.
MODEL_NAMES = frozenset(
    """
gpt gpt-3 gpt-3.5 gpt-4 gpt-4o gpt-4v gpt-5 chatgpt llama llama-2 llama-3 llama2 llama3 bert roberta t5 clip qwen
qwen2 qwen2.5 qwen3 mistral mixtral gemini gemma claude vicuna deepseek deepseek-r1 palm bloom vit o1 o3 phi
""".split()
)
# Words that make a phrase a kind of model rather than a method ("pre-trained models", "base model";
# "reasoning models", issue 32: the class of models RLVR and process reward models train, offered
# beside them it was an umbrella over its own methods).
BACKBONE_WORDS = frozenset(
    """
pre-trained pretrained base fine-tuned finetuned foundation large open-source proprietary frontier
vision-language multimodal neural reference reasoning
""".split()
)
# Model kinds by acronym: a backbone a paper runs on or uses as a judge, never an approach ("VLM").
MODEL_KIND_ACRONYMS = frozenset("llm llms lm lms vlm vlms mllm mllms lvlm lvlms lmm lmms slm slms lrm lrms".split())
MODEL_HEADS = frozenset("model models llm llms lm lms mllm mllms network networks transformer transformers".split())


# Whole fields and generic tasks: the setting work happens in, never an approach inside a direction.
FIELD_NAMES = frozenset(
    """
deep learning|machine learning|artificial intelligence|natural language processing|nlp|computer vision|
question answering|qa|api|apis|large language models|language models|llms|neural networks
""".replace("\n", "").split("|")
)


def field_problem(display: str) -> str | None:
    """Why a phrase names a whole field or a generic task rather than an approach, or None."""
    return f"{display!r} names a field, not an approach" if display.lower() in FIELD_NAMES else None


# Adjectives that with the domain's own object name the whole domain ("autonomous agents",
# "generative models"): an umbrella over every option, never one direction among them.
UMBRELLA_ADJECTIVES = frozenset(
    """
autonomous intelligent general generalist general-purpose smart capable powerful advanced modern generative
""".split()
)


def umbrella_problem(display: str) -> str | None:
    """Why a phrase names the whole domain (umbrella adjectives and the domain's generic words
    only, at least one adjective) rather than a direction or approach inside it, or None."""
    words = [w.lower() for w in display.split()]
    if (
        words
        and any(w in UMBRELLA_ADJECTIVES for w in words)
        and all(w in UMBRELLA_ADJECTIVES or w in GENERIC_WORDS for w in words)
    ):
        return f"{display!r} names the whole domain, not a direction in it"
    return None


def backbone_problem(display: str) -> str | None:
    """Why a phrase names a backbone model rather than a method, or None: a model family's
    name (MODEL_NAMES), a model kind's acronym ("VLM"), or only backbone and generic words
    ("pre-trained language models", "reference model")."""
    words = [w.lower() for w in display.split()]
    if any(w in MODEL_NAMES or w.split("-")[0] in MODEL_NAMES for w in words):
        return f"{display!r} names a backbone model"
    if len(words) == 1 and words[0] in MODEL_KIND_ACRONYMS:
        return f"{display!r} names a kind of model, not a method"
    if words and words[-1] in MODEL_HEADS and all(w in BACKBONE_WORDS or w in GENERIC_WORDS for w in words):
        return f"{display!r} names a kind of model, not a method"
    return None


def prefer_longer(counts: dict[str, int], share: float = 0.6) -> set[str]:
    """Keys that are a truncation of a longer key holding at least `share` of their papers
    ("singular value" of "singular value decomposition"): the longer name says what it is."""
    out = set()
    for o, co in counts.items():
        words = o.split()
        for n in range(1, len(words)):
            for a in range(len(words) - n + 1):
                k = " ".join(words[a : a + n])
                if k in counts and co >= share * counts[k]:
                    out.add(k)
    return out

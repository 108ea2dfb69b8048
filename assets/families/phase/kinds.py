"""What a paper contributes and what a gap is about, for the phase rules (issue 32, third pass).

A blind reader found design tasks built on benchmark papers ("Design the next method on
MCPToolBench++") and answered by benchmark papers (MCPAgentBench, MCP-Atlas), and a design task
whose "open problem" was an evaluation-platform gap. The sentence classifiers of reference.py
look at one sentence; these look at what the whole paper is:

* `contribution_kind`: "evaluation" when the paper's contribution is a benchmark, dataset,
  evaluation suite or study (its title names one, or its first contribution sentence introduces
  one before any method noun), "review" for a survey, tutorial or position paper, else "method".
  A design task needs a method paper as its primary and as every keypoint's source.
* `is_evaluation_gap`: a limitation about how things are evaluated (benchmarks, metrics,
  evaluation platforms), which is no open problem for a design task."""

from __future__ import annotations

import re

from assets.families.phase.quotes import PROPOSAL, sentences

# a title that names a benchmark / evaluation ("MCPToolBench++", "BrowserArena", "Evaluating X",
# "A Dataset for Y"); "dataset" alone is not enough ("Dataset Distillation" is a method)
EVALUATION_TITLE = re.compile(
    r"\b(?:[\w+-]*bench(?:mark\w*)?\b|[\w-]*arena\b|testbeds?\b|test[- ]suites?\b|leaderboards?\b|evaluating\b|"
    r"evaluations? (?:of|for|suite|framework|platform)\b|benchmarking\b|assessing\b|measuring\b|auditing\b|"
    r"probing\b|(?:a|new|large-scale) (?:[\w-]+ ){0,2}?dataset\b|datasets? (?:for|of)\b|empirical stud(?:y|ies)\b)",
    re.I,
)
REVIEW_TITLE = re.compile(r"\b(?:survey|tutorial|primer|review|position|overview|roadmap|perspective)s?\b", re.I)
EVALUATION_NOUN = re.compile(
    r"\b(?:benchmark\w*|[\w+-]*bench\b|datasets?|corpus|test[- ]?(?:bed|suite|set)s?|leaderboards?|arenas?|"
    r"evaluation (?:framework|suite|platform|protocol|harness)s?|(?:systematic |empirical |large-scale )?"
    r"(?:evaluation|study|analysis|audit|assessment)s?)\b",
    re.I,
)
METHOD_NOUN = re.compile(
    r"\b(?:framework|method|model|agent|system|approach|algorithm|architecture|pipeline|policy|technique|"
    r"paradigm|mechanism|module|planner|controller|optimi[sz]er|objective|loss|training|fine-tuning|"
    r"strategy|recipe|solver|network|encoder|decoder|tokenizer|sampler|scheduler)s?\b",
    re.I,
)


def contribution_kind(title: str, abstract: str) -> str:
    """'evaluation', 'review' or 'method' (module docstring). The title decides when it names a
    benchmark or a survey; else the abstract's first contribution sentence ("We introduce X, a
    benchmark ..." is an evaluation; "We propose X, a framework ... on a new benchmark" a method)."""
    t = " ".join((title or "").split())
    if REVIEW_TITLE.search(t):
        return "review"
    if EVALUATION_TITLE.search(t):
        return "evaluation"
    for s in sentences(abstract or ""):
        m = PROPOSAL.search(s)
        if not m:
            continue
        rest = s[m.end() :]
        ev, me = EVALUATION_NOUN.search(rest), METHOD_NOUN.search(rest)
        return "evaluation" if ev and (not me or ev.start() < me.start()) else "method"
    return "method"


# an evaluation gap: what is missing is a way to evaluate, not a way to do
EVALUATION_GAP = re.compile(
    r"\b(?:benchmark\w*|[\w+-]*bench\b|evaluat\w*|metrics?|leaderboards?|testbeds?|arenas?|assess\w*|"
    r"measur\w*|test[- ]?(?:suites?|sets?))\b",
    re.I,
)


def is_evaluation_gap(quote: str) -> bool:
    """A limitation about evaluation (benchmarks, metrics, evaluation platforms): not an open
    problem a design task's method can take up."""
    return bool(EVALUATION_GAP.search(quote or ""))

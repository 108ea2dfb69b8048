"""Problem trees of empirical papers (FIRE-Bench §3.1, App. G.1 JSON shape), offline.

Offline, a paper's tree comes from the *sentence roles* of its abstract (plus the
result-bearing sentences of its GROBID experiments/conclusion sections when full text
exists), assigned by a documented cue classifier (`sentence_role`):

* result      - a marker of a reported outcome ("we find", "results show", "outperforms",
                "improves ... by", "reveals", a percentage next to a comparison verb),
* objective   - what the paper sets out to do ("we propose", "in this paper", "we study",
                "we investigate", "we introduce", "this work"),
* method      - how ("we train", "we use", "we design", "we construct", "based on",
                "consists of", "leveraging", "we evaluate on/across"),
* background  - everything else before the first objective sentence (context, gaps).

Tree: root = the paper's broad problem (its first background sentence, else its title),
depth-1 node = the objective (as a question), leaf = the setup (method sentences) whose
`conclusion` is the result sentences. The target leaf's parent question plus its setup is
the public task; the leaf's conclusion, decomposed into atomic claims, is the hidden target.
With a model, `assets/rediscovery/llm.py` drafts the tree from the same text instead.
"""

from __future__ import annotations

import re
from typing import Literal

from core.claims import MIN_SPECIFIC, atomic_claims, clean_text, content_stems

Role = Literal["background", "objective", "method", "result"]

RESULT_CUES = re.compile(
    r"\b(we (?:find|found|show|observe|demonstrate|reveal|confirm|report)|(?:results?|experiments?|"
    r"evaluations?|analys[ie]s|findings|studies)\b[^.;]{0,80}?\b(?:show|shows|demonstrate|demonstrates|reveal|reveals|"
    r"indicate|indicates|suggest|suggests|confirm|confirms)|outperform\w*|surpass\w*|achiev\w+ (?:a |an )?"
    r"(?:state|new|up to|\d)|improv\w+ (?:\w+ ){0,4}by|reduc\w+ (?:\w+ ){0,4}by|"
    r"(?:leads?|led) to (?:a |an )?(?:\d|significant|substantial|consistent)|yield\w* (?:a |an )?"
    r"(?:\d|significant|substantial|consistent)|\d+(?:\.\d+)?\s?%|\d+(?:\.\d+)?x\b|significantly (?:\w+)|"
    r"consistently (?:\w+)|is (?:more|less) (?:\w+ )?than|are (?:more|less) (?:\w+ )?than)",
    re.I,
)
OBJECTIVE_CUES = re.compile(
    r"\b(we (?:propose|introduce|present|study|investigate|examine|explore|ask|address|tackle|aim|develop|"
    r"analy[sz]e)|in this (?:paper|work|study)|this (?:paper|work|study)|our (?:goal|aim|work)|to (?:this end|"
    r"address this|bridge this|fill this))",
    re.I,
)
METHOD_CUES = re.compile(
    r"\b(we (?:train|use|design|construct|build|collect|curate|fine-tune|finetune|apply|leverage|employ|"
    r"formulate|model|evaluate|benchmark|compare|measure|conduct|run|perform)|based on|consists? of|leverag\w+|"
    r"by (?:\w+ing)|our (?:method|approach|framework|model|pipeline|system)|specifically|first,|then,)",
    re.I,
)
# After the objective: a sentence reporting a change (without a 'we do' method marker) is a result.
RESULT_VERBS = re.compile(
    r"\b(improv\w*|outperform\w*|surpass\w*|reduc\w*|increas\w*|degrad\w*|boost\w*|"
    r"achiev\w*|exceed\w*|lower\w*|rais\w*|hurt\w*|fail\w*|struggl\w*|shrink\w*|grow\w*|"
    r"ris(?:e|es|ing)|fall\w*|vanish\w*|disappear\w*|narrow\w*|widen\w*)\b",
    re.I,
)
_SENT = re.compile(r"(?<=[.!?])\s+(?=[A-Z0-9\"'(])")

SECTION_RESULTS = ("experiments", "conclusion")


def sentences(text: str) -> list[str]:
    return [s.strip() for s in _SENT.split(clean_text(text)) if len(s.split()) >= 4]


def sentence_role(sentence: str, position: int, seen_objective: bool) -> Role:
    """The documented cue classifier (module docstring); first matching rule wins:
    result cues, then objective cues, then method cues; a sentence without cues is background
    before the first objective sentence and method after it."""
    if RESULT_CUES.search(sentence) and position > 0:
        return "result"
    if OBJECTIVE_CUES.search(sentence):
        return "objective"
    if seen_objective and RESULT_VERBS.search(sentence) and not re.search(r"\bwe\b", sentence, re.I):
        return "result"
    if METHOD_CUES.search(sentence):
        return "method"
    return "method" if seen_objective else "background"


def roles(abstract: str) -> list[tuple[Role, str]]:
    out: list[tuple[Role, str]] = []
    seen = False
    for i, s in enumerate(sentences(abstract)):
        role = sentence_role(s, i, seen)
        seen = seen or role == "objective"
        out.append((role, s))
    return out


def _as_question(objective: str, title: str) -> str:
    """A public research question from the objective sentence: the authors' markers removed
    ('In this paper, we study X' -> 'How does X behave ...?'); the title stands in when the
    sentence says nothing once stripped."""
    text = re.sub(r"^[^,]{0,100},\s*(?=we\s)", "", clean_text(objective), flags=re.I)
    text = re.sub(r"^(?:in this (?:paper|work|study),?\s*|this (?:paper|work|study)\s+)", "", text, flags=re.I)
    text = re.sub(r"^(?:we|our (?:goal|aim|work) is to)\s+", "", text, flags=re.I).rstrip(". ")
    first, _, rest = text.partition(" ")
    base = {
        "presents": "present",
        "introduces": "introduce",
        "proposes": "propose",
        "studies": "study",
        "investigates": "investigate",
        "examines": "examine",
        "explores": "explore",
        "develops": "develop",
        "addresses": "address",
        "analyzes": "analyze",
        "analyses": "analyse",
        "tackles": "tackle",
    }
    text = f"{base.get(first.lower(), first)} {rest}".strip()
    if len(content_stems(text)) < 2:
        text = title.rstrip(". ")
    return f"What do we learn when a study sets out to {text[0].lower() + text[1:]}?"


def problem_tree(paper, fulltext_sections: list | None = None) -> dict:
    """The paper's problem tree in FIRE-Bench's JSON shape (App. G.1), from sentence roles.

    `paper` has title, abstract, published, authors, arxiv_id; `fulltext_sections` are
    `core.records.Section`s (GROBID) or None. Result sentences of the experiments and
    conclusion sections join the abstract's as the leaf's conclusion (abstract first)."""
    labelled = roles(paper.abstract)
    by_role: dict[str, list[str]] = {"background": [], "objective": [], "method": [], "result": []}
    for role, s in labelled:
        by_role[role].append(s)
    source = "abstract"
    for sec in fulltext_sections or []:
        if sec.name in SECTION_RESULTS:
            extra = [s for s in sentences(sec.text)[:12] if RESULT_CUES.search(s) and s not in by_role["result"]]
            if extra:
                by_role["result"] += extra[:4]
                source = "abstract+fulltext"
    objective = by_role["objective"][0] if by_role["objective"] else (by_role["background"] or [paper.title])[-1]
    root = by_role["background"][0] if by_role["background"] else paper.title
    leaf = {
        "type": "leaf node",
        "task": (by_role["method"] or [objective])[0],
        "dataset": [],
        "model_or_method": [],
        "metrics": [],
        "protocol_or_setup": " ".join(by_role["method"][:3]),
        "evidence": {"figure": "", "table": "", "section": "Abstract" if source == "abstract" else "Abstract; Results"},
        "conclusion": " ".join(by_role["result"]),
        "status": "" if by_role["result"] and by_role["method"] else "[uncertain]",
    }
    return {
        "paper": {
            "title": paper.title,
            "authors": list(getattr(paper, "authors", []) or []),
            "venue": "arXiv",
            "year": str(paper.published.year),
            "arxiv_id": paper.arxiv_id,
        },
        "problem_tree": {
            "node": f"Root: {root}",
            "type": "root node",
            "description": root,
            "evidence": "abstract (background sentence)" if by_role["background"] else "title",
            "children": [
                {
                    "node": _as_question(objective, paper.title),
                    "type": "depth-1 node",
                    "description": objective,
                    "evidence": "abstract (objective sentence)",
                    "children": [leaf],
                }
            ],
        },
        "roles": [[r, s] for r, s in labelled],
        "source": source,
        "drafted_by": "sentence_roles",
    }


def target_of(tree: dict) -> tuple[str, str, list[str]]:
    """(parent question, setup, atomic findings) of the tree's first leaf with a conclusion."""
    stack = [(tree["problem_tree"], None)]
    while stack:
        node, parent = stack.pop(0)
        if node.get("type") == "leaf node" and node.get("conclusion"):
            question = (parent or {}).get("node") or tree["problem_tree"]["node"]
            findings = [f for f in atomic_claims(node["conclusion"]) if len(content_stems(f)) >= MIN_SPECIFIC]
            return question, node.get("protocol_or_setup", ""), findings
        stack += [(c, node) for c in node.get("children", [])]
    return "", "", []


# -- difficulty (FIRE-Bench App. C): D + C + M, each 1-3 ----------------------------------------

MULTI_STAGE = re.compile(r"\b(first|then|two-stage|multi-stage|pipeline|stages?|steps?|iterative|hierarch\w+)\b", re.I)
CONTROL = re.compile(r"\b(ablation\w*|control\w*|matched|baseline\w*|compar\w+)\b", re.I)
CAUSAL = re.compile(r"\b(counterfactual|causal\w*|confound\w*|isolat\w+|intervention\w*|identif\w+)\b", re.I)
COMPLEX_MEASURE = re.compile(
    r"\b(calibrat\w+|sensitivity|robust\w*|prob(?:e|es|ing)|variance|statistic\w*|"
    r"correlat\w+|significan\w+|uncertaint\w+)\b",
    re.I,
)
SLICES = re.compile(
    r"\b(across|each|per|several|multiple|various|diverse|\d+ (?:datasets|benchmarks|tasks|models|"
    r"languages|domains))\b",
    re.I,
)


def difficulty(tree: dict, findings: list[str]) -> dict:
    """D (conceptual decomposition), C (confound/causality burden), M (measurement/analysis
    complexity), each 1-3 from cue words of the setup and findings (documented proxy for the
    paper's annotation), S = D + C + M -> Easy 3-4, Medium 5-6, Hard 7-9."""
    leaf = tree["problem_tree"]["children"][0]["children"][0]
    text = " ".join([leaf.get("protocol_or_setup", ""), leaf.get("conclusion", "")])
    d = 1 + (len(findings) >= 3 or bool(MULTI_STAGE.search(text))) + (len(findings) >= 5 and bool(MULTI_STAGE.search(text)))
    c = 3 if CAUSAL.search(text) else (2 if CONTROL.search(text) else 1)
    m = 3 if COMPLEX_MEASURE.search(text) else (2 if SLICES.search(text) else 1)
    s = d + c + m
    return {"D": d, "C": c, "M": m, "S": s, "level": "Easy" if s <= 4 else ("Medium" if s <= 6 else "Hard")}

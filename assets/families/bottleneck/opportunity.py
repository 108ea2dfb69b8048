"""The opportunity slot: what reducing a limitation enabled, in the counted paper's own words.

`enabled_sentences`: the counted paper's own sentences after its reduction statement that say what
reducing the limitation enabled (ENABLING: enables, allows, makes ... possible, unlocks, opens),
never a method step (METHOD_STEP: "First, we fine-tune ...", "We propose X that enables ...") nor
a bare score report ("outperforms baselines by 12%" is no opportunity; blind reading seed 3637);
none: the slot stays empty. Blind reading seed 3840 ("the opportunity slot holds unrelated sentences":
"This adaptation enables localized computation and reduces cross-rank communication" for inference
latency): the sentence must name the limitation it reduced (one of its keys), so that it says what
reducing THAT cause enabled; a counted paper with no such sentence adds none. Split from `statements` (which finds the reduction statement itself).
"""

from __future__ import annotations

import re

from assets.evidence.limitation_phrases import states_key, word_tokens
from assets.evidence.quotes import split_sentences
from assets.families.bottleneck.statements import BACKGROUND

ENABLING = re.compile(
    r"\b(?:enabl\w*|allow\w*|unlock\w*|open(?:s|ing)?\s+(?:up|the\s+door|new)|make[s]?\s+(?:it\s+)?possible|"
    r"permit\w*|facilitat\w*|pav\w*\s+the\s+way|empower\w*)\b",
    re.I,
)
RESULT_OWN = re.compile(r"\b(?:we|our|this|experiments?|results?|evaluations?|extensive|empirical\w*|it|the\s+proposed)\b", re.I)


# a method step or design sentence, not an enabled result: "First, we ...", "We propose X that enables"
METHOD_STEP = re.compile(
    r"^\W*(?:first(?:ly)?|second(?:ly)?|then|next|finally|specifically|concretely|to\s+this\s+end)\b|"
    r"\b(?:we|this\s+(?:paper|work))\s+(?:\w+\s+)?(?:propos\w*|introduc\w*|present\w*|design\w*|develop\w*|build|construct\w*|"
    r"fine-tun\w*|train\w*|adopt\w*|employ\w*|leverag\w*|use|utili[sz]\w*)\b",
    re.I,
)


def enabled_sentences(abstract: str, statement_own: str, keys: list[tuple[str, ...]] | None = None) -> list[str]:
    """The abstract's sentences that say what reducing the limitation enabled (module
    docstring): own result sentences after the statement, enabling ones first; with `keys` (the
    limitation's), only those that name it."""
    sentences = split_sentences(abstract or "")
    start = next((i + 1 for i, x in enumerate(sentences) if x == statement_own), 0)
    after = [x for x in sentences[start:] if x != statement_own and RESULT_OWN.search(x) and not BACKGROUND.search(x)]
    # only a sentence that says what the work could then do (ENABLING), never a method step
    # ("First, we fine-tune ...") or a bare score report (blind reading seed 3637)
    out = [x for x in after if ENABLING.search(x) and not METHOD_STEP.search(x)]
    if keys is not None:
        out = [x for x in out if any(states_key(word_tokens(x), k) for k in keys)]
    return out

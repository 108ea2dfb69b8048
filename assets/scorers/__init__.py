"""Scorers: one module per metric, registered here in the order they run and are listed.

Fact runs first: the rubric's prompt budget is what the Fact call left of the per-answer
character target."""

from assets.scorers.ace import ACE
from assets.scorers.attribution import Attribution
from assets.scorers.fact import Fact
from assets.scorers.fta import RankingFTA, ReferenceFTA
from assets.scorers.kae import KAE
from assets.scorers.pers import Persuasiveness
from assets.scorers.reference import ReferenceValidity
from assets.scorers.registry import register_scorer
from assets.scorers.trace import Trace

for _scorer in (
    Fact(),
    ReferenceFTA(),
    RankingFTA(),
    Trace(),
    Persuasiveness(),
    KAE(),
    ACE(),
    ReferenceValidity(),
    Attribution(),
):
    register_scorer(_scorer)

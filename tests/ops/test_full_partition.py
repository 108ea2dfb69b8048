"""Direction and planning end to end over one full shipped partition (slow: ~3-5 min).

The default suite's end-to-end world (every 8th llm_agent paper) is too small for a direction
phrase to be alive or a direction to hold approaches, so these two families run here, over the
whole visual-generation corpus at the default cutoff, with the release gate and the hard defects of
assets/ranking/defects.py judged on what was actually built.
"""

import pytest

from assets.families.planning.gold import margin_problems
from assets.ranking.defects import cross_task_defects, option_defects
from core.phrases import one_word_problem, option_name
from core.records import Answer, GoldTarget, Score, Task, TaskRating
from tests.factories import materialize_offline_partition

pytestmark = pytest.mark.slow
# visual: the partition that releases both families under issue 32's fifth-pass rules (post-training
# releases no planning task since its policy-optimisation set lost PPO under the filler bar)
DOMAIN, CUTOFF = "visual_generative_modeling_and_diffusion", "2025-12-31"


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    root = tmp_path_factory.mktemp("full")
    _, resources = materialize_offline_partition(root, DOMAIN, CUTOFF)
    store = resources["storage"].store()
    read = lambda asset, model: store.read_records(asset, DOMAIN, CUTOFF, model)  # noqa: E731
    return read


def test_direction_and_planning_are_built_and_released_without_defects(built):
    tasks = built("tasks", Task)
    golds = {g.task_id: g for g in built("gold_targets", GoldTarget)}
    released = {r.task_id for r in built("task_ranking", TaskRating) if r.released}
    for family in ("direction", "planning"):
        fam = [t for t in tasks if t.family == family]
        rel = [t for t in fam if t.task_id in released]
        assert fam and rel, family
        for t in rel:
            assert option_defects(t, golds[t.task_id]) == []
            gold = golds[t.task_id]
            top = gold.preferred_ranking[0]
            if family == "direction":
                assert gold.numbers[f"momentum:{top}"] > 1.0  # the top option grew ...
                assert gold.numbers[f"abstract_momentum:{top}"] > 1.0  # ... on both measures
            else:  # planning's gold is a count of the window papers building on each option
                assert margin_problems(gold) == []  # a lead of >= 3 papers and >= 30%, no tie
            assert all(one_word_problem(option_name(o.text)) is None for o in t.options)
    # The planning/direction overlap is a release-time veto: judged among released tasks only.
    shipped = [t for t in tasks if t.task_id in released]
    assert cross_task_defects(shipped, golds, released) == {}


def test_released_direction_and_planning_tasks_are_answered_and_scored(built):
    released = {r.task_id for r in built("task_ranking", TaskRating) if r.released}
    answers = [a for a in built("agent_answers", Answer) if a.family in ("direction", "planning")]
    assert {a.task_id for a in answers} == {
        t.task_id for t in built("tasks", Task) if t.family in ("direction", "planning") and t.task_id in released
    }
    scores = [s for s in built("judge_scores", Score) if s.family in ("direction", "planning")]
    assert scores and all(0.0 <= s.fta <= 1.0 for s in scores)
    assert len({round(s.trace_linkage, 3) for s in scores if s.trace_linkage is not None}) > 1  # it measures something

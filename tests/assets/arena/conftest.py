"""The arena tests' hand-made partition (tasks, golds and a KB over `arena_world`), built once per module."""

import lancedb
import pytest

from assets.gold.claims import ClaimContext, verify_golds
from assets.gold.logic import build_gold
from assets.knowledge_base.logic import KnowledgeBaseView, build_kb
from resources.embeddings import load_embedder
from tests.factories import CUTOFF, WINDOW_END
from tests.factories import arena_phase_tasks as phase_tasks
from tests.factories import arena_world as world


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    records, public, window = world()
    tasks, builds, failures = phase_tasks(records, papers=public, per_family_max=12)
    embed = load_embedder().encode
    golds = build_gold(tasks, builds, [], [], public, window, embed, cutoff=CUTOFF, window_end=WINDOW_END, stability_resamples=10)
    verify_golds(golds, ClaimContext(public, window, [], CUTOFF))
    table, _ = build_kb(lancedb.connect(tmp_path_factory.mktemp("kb")), "kb_arena", public, embed)
    view = KnowledgeBaseView(table, CUTOFF, embed)
    return records, public, window, tasks, builds, golds, view, embed

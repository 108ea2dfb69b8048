"""Suite-wide test isolation, and the fixtures several test files share (the real
embedder and the agent tests' knowledge base over the real llm_agent sample)."""

import atexit
import os
import shutil
import tempfile

# A session-private datasets cache: `datasets` keys a local folder's cache by its path, so a test
# that exports to a reused tmp path (pytest-current/...) read an earlier run's stale rows.
_HF_CACHE = tempfile.mkdtemp(prefix="foresci-hf-datasets-")
os.environ["HF_DATASETS_CACHE"] = _HF_CACHE
atexit.register(shutil.rmtree, _HF_CACHE, ignore_errors=True)

import lancedb
import pytest

from assets.corpus.logic import screen
from assets.knowledge_base.logic import KnowledgeBaseView, build_kb
from core.papers import read_jsonl
from core.registry import load_registry
from resources.embeddings import load_embedder
from tests.factories import AGENT_CUTOFF
from tests.fixture_data import fixture_path


def _clear_dagster_context_vars() -> None:
    """Dagster's sensor/schedule test contexts put an instance's storage in context variables
    and can leave it there after that instance is gone; a later materialize in the same
    thread then fails with "undefined DagsterInstance weakref". Their default is None."""
    from dagster._core.definitions.partitions import context as partition_context
    from dagster._core.storage.defs_state import base

    base._current_storage.set(None)
    partition_context._current_ctx.set(None)


@pytest.fixture(autouse=True, scope="module")
def _clean_dagster_context_per_module():
    # module-scoped fixtures (e.g. a partition built once per module) run before
    # function-scoped ones, so clear at module scope too
    _clear_dagster_context_vars()
    yield


@pytest.fixture(autouse=True)
def _clean_dagster_context_per_test():
    _clear_dagster_context_vars()
    yield


@pytest.fixture(scope="session")
def embed():
    return load_embedder().encode


@pytest.fixture(scope="session")
def sample_papers(embed):
    papers, failures = read_jsonl(fixture_path("arxiv/samples/llm_agent.sample.jsonl"))
    assert not failures
    descs = {k: v.description for k, v in load_registry().domains.items()}
    return screen(papers, "llm_agent", descs, embed)


@pytest.fixture(scope="session")
def sample_table(tmp_path_factory, sample_papers, embed):
    """All 150 sample papers (50 of them after AGENT_CUTOFF) indexed in one table."""
    db = lancedb.connect(tmp_path_factory.mktemp("kb"))
    table, _ = build_kb(db, "kb_sample", sample_papers, embed)
    return table


@pytest.fixture(scope="session")
def sample_kb(sample_table, embed):
    """The cutoff-bound view: hides the later papers."""
    return KnowledgeBaseView(sample_table, AGENT_CUTOFF, embed)

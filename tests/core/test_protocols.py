"""The plugin Protocols (core/protocols.py) fit the real classes and the test doubles that stand
in for them, and refuse an object that lacks what a plugin may call."""

from __future__ import annotations

import zlib
from datetime import date

import lancedb
import numpy as np

from assets.agents.kbtool import TracedKB
from assets.knowledge_base.logic import KnowledgeBaseView, build_kb
from core.protocols import LLM, KnowledgeBase, PaperHit
from resources.llm import LLMClient
from tests.factories import MockedClient, RecordingClient, screened_paper


def _embed(texts: list[str]) -> np.ndarray:
    out = np.stack([np.random.default_rng(zlib.crc32(t.encode())).standard_normal(16) for t in texts])
    return (out / np.linalg.norm(out, axis=1, keepdims=True)).astype(np.float32)


def test_the_knowledge_base_view_and_the_traced_tool_are_knowledge_bases(tmp_path):
    papers = [
        screened_paper("2501.00001", "Tool use agents", "Agents call tools.", date(2025, 1, 5)),
        screened_paper("2507.00001", "Later agents", "After the cutoff.", date(2025, 7, 5)),
    ]
    table, _ = build_kb(lancedb.connect(tmp_path), "kb_protocols", papers, _embed, with_chunks=False)
    view = KnowledgeBaseView(table, date(2025, 6, 30), _embed)
    traced = TracedKB(view)
    for kb in (view, traced):
        assert isinstance(kb, KnowledgeBase)
        hit = kb.get("2501.00001")
        assert isinstance(hit, PaperHit) and hit.published <= kb.cutoff
        assert kb.get("2507.00001") is None  # the protocol's promise: nothing after the cutoff
    assert [h.arxiv_id for h in traced.search("tool use agents", k=5)] == ["2501.00001"]


def test_llm_clients_and_their_doubles_are_llms(tmp_path):
    client = LLMClient("openai/x", cache_dir=str(tmp_path / "c"))
    assert isinstance(client, LLM) and not client.offline
    assert isinstance(LLMClient(None, cache_dir=str(tmp_path / "c")), LLM)
    assert isinstance(MockedClient(client, lambda purpose, messages: "{}"), LLM)
    assert isinstance(RecordingClient(tmp_path), LLM)


def test_objects_without_the_plugin_surface_are_refused():
    class SearchOnly:
        cutoff = date(2025, 6, 30)

        def search(self, query, k=10, mode="hybrid"):
            return []

    assert not isinstance(SearchOnly(), KnowledgeBase)  # no get / dates / monthly_volume
    assert not isinstance(object(), LLM)

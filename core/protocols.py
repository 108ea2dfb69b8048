"""What a plugin may call on the services it is handed, as Protocols (structural types).

An agent gets a knowledge-base tool and an LLM client (`AgentContext.kb`, `AgentContext.llm`);
a scorer gets the judge's LLM client (`ScoringContext.judge`). The real classes live in higher
layers (`assets.agents.kbtool.TracedKB` over `assets.knowledge_base.logic.KnowledgeBaseView`,
`resources.llm.LLMClient`), and the plugin APIs must not import them (the layer order,
tests/test_layers.py). These Protocols say what a plugin may rely on, and nothing more: the
real classes and the test doubles (tests/factories.py `MockedClient`, `RecordingClient`)
satisfy them structurally (tests/core/test_protocols.py checks it).
"""

from __future__ import annotations

from datetime import date
from typing import Any, Protocol, runtime_checkable

from pydantic import BaseModel


@runtime_checkable
class PaperHit(Protocol):
    """One knowledge-base hit: a pre-cutoff paper and why it matched."""

    @property
    def arxiv_id(self) -> str: ...

    @property
    def title(self) -> str: ...

    @property
    def published(self) -> date: ...

    @property
    def snippet(self) -> str: ...

    @property
    def score(self) -> float: ...


@runtime_checkable
class KnowledgeBase(Protocol):
    """The knowledge base bound to a task's cutoff: it never returns a later paper."""

    @property
    def cutoff(self) -> date: ...

    def search(self, query: str, k: int = 10, mode: str = "hybrid") -> list[Any]:
        """The best `k` hits (`PaperHit`s) for `query`; mode "dense", "text" or "hybrid"."""
        ...

    def get(self, arxiv_id: str) -> Any:
        """The paper's `PaperHit`, None if it is unknown or after the cutoff."""
        ...

    def dates(self) -> dict[str, date]: ...

    def monthly_volume(self) -> dict[str, int]: ...


@runtime_checkable
class LLM(Protocol):
    """An LLM client: cached, retried and accounted calls to one model (model None: offline)."""

    @property
    def model(self) -> str | None: ...

    @property
    def offline(self) -> bool: ...

    def structured(
        self,
        messages: list[dict] | str,
        schema: type[BaseModel],
        *,
        purpose: str,
        temperature: float | None = None,
        seed: int | None = None,
        max_tokens: int | None = None,
        mock_response: str | None = None,
    ) -> BaseModel:
        """A JSON reply parsed into `schema`."""
        ...

    def text(
        self,
        messages: list[dict] | str,
        *,
        purpose: str,
        temperature: float | None = None,
        seed: int | None = None,
        max_tokens: int | None = None,
        mock_response: str | None = None,
    ) -> str:
        """A free-text reply."""
        ...

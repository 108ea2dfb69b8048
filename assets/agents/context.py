"""What every agent is: one entry with one signature, `run(ctx: AgentContext) -> Answer`.

Built-in methods and bring-your-own agents alike are `Agent` entries in the registry
(`assets.agents.registry`). The runner gives each call an `AgentContext`: the public task,
a knowledge-base tool bound to the task's cutoff (traced), the LLM client (a per-task fork,
None for offline agents), the seed and backbone, and the agent's settings. Nothing else
reaches an agent: no gold, no store, no post-cutoff view.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from assets.agents.render import render_answer
from assets.families.base import TaskFamily
from assets.families.registry import get_family
from core.protocols import LLM, KnowledgeBase
from core.records import Answer, Task


@dataclass(frozen=True)
class AgentContext:
    task: Task
    kb: KnowledgeBase  # a TracedKB over the cutoff-bound view: search / get / dates / monthly_volume
    llm: LLM | None = None  # the task's fork of the LLM client; None for offline agents
    seed: int = 0
    backbone: str = ""  # the model the answer is attributed to; "" = the LLM client's, else "offline"
    embed: Callable[[list[str]], Any] | None = None  # the shared embedder (offline similarity)
    volume: dict[str, int] | None = None  # papers per month up to the cutoff (signal normaliser)
    config: dict[str, Any] = field(default_factory=dict)  # agent settings, e.g. {"k": 20}

    @property
    def family(self) -> TaskFamily:
        return get_family(self.task.family)

    @property
    def backbone_name(self) -> str:
        return self.backbone or (self.llm.model or "offline" if self.llm is not None else "offline")

    def monthly_volume(self) -> dict[str, int]:
        return self.kb.monthly_volume() if self.volume is None else self.volume

    def setting(self, name: str, default: Any) -> Any:
        return self.config.get(name, default)

    def render(self, parsed: Any, *, method: str, **kw: Any) -> Answer:
        """`render_answer` for this task, backbone and seed: a family's `offline_answer` facet
        renders through it and so imports no agent module (families sit below the agents)."""
        return render_answer(self.task, parsed, method=method, backbone=self.backbone_name, seed=self.seed, **kw)


AgentFn = Callable[[AgentContext], Answer]


@dataclass(frozen=True)
class Agent:
    """One registered agent: a name, what it is, and its `run`."""

    name: str
    summary: str
    run: AgentFn
    needs_llm: bool = False  # skipped when no model is configured
    source: str = ""  # the paper / section it implements
    external: bool = False  # bring-your-own: the answer declares its own backbone

    def describe(self) -> dict[str, str]:
        """One row of `foresci agents`."""
        return {
            "agent": self.name,
            "needs model": "yes" if self.needs_llm else "no",
            "source": self.source,
            "summary": self.summary,
        }

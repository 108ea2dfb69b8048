"""The agent registry: built-in methods in their run order, plus any registered later."""

from __future__ import annotations

from assets.agents.context import Agent


class UnknownAgentError(KeyError):
    def __str__(self) -> str:
        return self.args[0]


_AGENTS: dict[str, Agent] = {}


def register_agent(agent: Agent) -> Agent:
    """Add an agent (a new name) or replace one (same name, e.g. a test double)."""
    _AGENTS[agent.name] = agent
    return agent


def unregister_agent(name: str) -> None:
    _AGENTS.pop(name, None)


def get_agent(name: str) -> Agent:
    try:
        return _AGENTS[name]
    except KeyError:
        raise UnknownAgentError(f"unknown method {name!r}; known: {sorted(_AGENTS)}") from None


def all_agents() -> list[Agent]:
    return list(_AGENTS.values())


def agent_names() -> list[str]:
    return list(_AGENTS)

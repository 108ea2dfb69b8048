"""The agent registry: built-in methods in their run order, plus any registered later."""

from __future__ import annotations

from assets.agents.context import Agent
from core.plugins import Registry, UnknownPluginError


class UnknownAgentError(UnknownPluginError):
    pass


AGENTS: Registry[Agent] = Registry("method", UnknownAgentError)
register_agent = AGENTS.register
unregister_agent = AGENTS.unregister
get_agent = AGENTS.get
all_agents = AGENTS.all
agent_names = AGENTS.names

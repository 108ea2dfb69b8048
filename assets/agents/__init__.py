"""Research agents behind one registry (see `context.Agent` / `context.AgentContext`).

Importing this package registers the built-in methods, in their run order: the offline
baselines first, then the model-backed methods.
"""

from assets.agents.aris import ARIS
from assets.agents.baselines import MOMENTUM, RETRIEVAL
from assets.agents.coi import COI
from assets.agents.llm_methods import HYBRID_RAG, NATIVE_LLM
from assets.agents.registry import register_agent
from assets.agents.research_agent import RESEARCH_AGENT

for _agent in (MOMENTUM, RETRIEVAL, NATIVE_LLM, HYBRID_RAG, COI, RESEARCH_AGENT, ARIS):
    register_agent(_agent)

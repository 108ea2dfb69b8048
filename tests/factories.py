"""Test helpers shared by several test files: canned model replies through the real
LLM client path, and small record builders."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Literal, get_args, get_origin

from pydantic import BaseModel

Mock = Callable[[str, list[dict]], str]  # (purpose, messages) -> JSON reply


class MockedClient:
    """An `LLMClient` whose replies come from `mock(purpose, messages)`, passed to litellm as
    `mock_response`: the reply still travels the real path (litellm, JSON parsing, schema
    validation, retries, cache, accounting). Product code never sees the mock."""

    def __init__(self, client, mock: Mock):
        self._client, self._mock = client, mock

    def __getattr__(self, name):  # model, offline, usage, snapshot, usage_since ...
        return getattr(self._client, name)

    def structured(self, messages, schema, *, purpose: str, **kw):
        return self._client.structured(messages, schema, purpose=purpose,
                                       mock_response=self._mock(purpose, messages), **kw)

    def text(self, messages, *, purpose: str, **kw):
        return self._client.text(messages, purpose=purpose, mock_response=self._mock(purpose, messages), **kw)


def mock_reply(schema: type[BaseModel], **values) -> str:
    """A JSON reply for `schema`: given values, else mid-scale choices, "" for strings."""
    out = {}
    for name, f in schema.model_fields.items():
        if name in values:
            out[name] = values[name]
        elif get_origin(f.annotation) is Literal:
            choices = get_args(f.annotation)
            out[name] = choices[len(choices) // 2]
        elif f.annotation is str:
            out[name] = ""
    return json.dumps(out)


def agent_ctx(task, kb, llm=None, *, seed: int = 0, backbone: str = "", embed=None, volume=None, **config):
    """An `AgentContext` for calling one agent directly (the runner builds these per task)."""
    from assets.agents.context import AgentContext

    return AgentContext(task=task, kb=kb, llm=llm, seed=seed, backbone=backbone, embed=embed, volume=volume,
                        config=config)

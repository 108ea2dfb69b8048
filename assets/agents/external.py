"""Bring your own agent: run an external research agent under the same rules as ours.

An external agent receives the public task and a knowledge-base tool bound to the task
cutoff, and returns a structured family answer with the evidence ids it used. Two
transports, one contract (documented with JSON schemas in docs/agents.md):

* **Python entry point** — `"package.module:function"` or `"path/to/file.py:function"`,
  called as `function(task: dict, kb: KBTool) -> dict`. `kb.search(query, k, mode)` and
  `kb.get(arxiv_id)` return plain dicts; `kb.cutoff` is the ISO cutoff date.
* **HTTP endpoint** — `"http://host:port/path"`. foresci POSTs an `AgentRequest`
  (protocol, task, seed, kb endpoint, pre-retrieved evidence) and expects an
  `AgentResponse`. For the duration of the run foresci serves the knowledge base on a
  loopback port (`KBServer`, assets/agents/kb_server.py): `POST {kb.endpoint}/search
  {"query", "k", "mode"}` and `POST {kb.endpoint}/get {"arxiv_id"}`, each under a per-task
  session token, so every retrieval is attributed to its task, bound to the cutoff and traced.

Whatever the transport, the answer goes through the common renderer: it must validate
against the family schema, option ids are the task's own, and a cited id counts only if
the KB tool actually returned it to this agent for this task (pre-sent evidence
included). The declared `backbone` is checked against the backbone registry like ours.
Method names are `ext:<name>`.
"""

from __future__ import annotations

import importlib
import importlib.util
import json
import os
import urllib.error
import urllib.request
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pydantic import BaseModel, Field

from assets.agents.backbones import BackboneRegistry
from assets.agents.context import Agent, AgentContext
from assets.agents.kb_server import KBServer  # the loopback KB for HTTP agents
from assets.agents.kbtool import MAX_K, KBTool, TracedKB, hit_dict
from assets.agents.render import render_answer
from assets.agents.runner import run_method
from assets.families.registry import get_family
from core.records import Answer, Failure, Task

PROTOCOL = "foresci-agent/1"
MAX_ARTIFACT_CHARS = 100_000


class AgentUsage(BaseModel):
    prompt_tokens: int = 0
    completion_tokens: int = 0
    cost_usd: float = 0.0


class AgentResponse(BaseModel):
    """What an external agent returns (Python: a dict of this shape; HTTP: this JSON)."""

    answer: dict[str, Any] = Field(description="the task family's answer schema (TaskFamily.answer_schema; `foresci families`)")
    evidence_ids: list[str] = Field(default_factory=list, description="ids used (merged into answer.cited_ids)")
    backbone: str = Field(default="none", description="litellm model string used, or 'none' for no model")
    retrieval_queries: list[str] = Field(default_factory=list)
    artifacts: dict[str, Any] = Field(default_factory=dict, description="intermediate artifacts, any JSON")
    usage: AgentUsage = Field(default_factory=AgentUsage)


class KBEndpoint(BaseModel):
    endpoint: str = Field(description="base URL; POST {endpoint}/search and {endpoint}/get")
    cutoff: str
    max_k: int = MAX_K
    modes: list[str] = Field(default_factory=lambda: ["hybrid", "dense", "text"])


class AgentRequest(BaseModel):
    """What foresci POSTs to an HTTP agent."""

    protocol: str = PROTOCOL
    task: dict[str, Any]
    seed: int = 0
    kb: KBEndpoint
    evidence: list[dict[str, Any]] = Field(default_factory=list, description="top hybrid hits of the question, pre-retrieved")


@dataclass(frozen=True)
class ExternalAgentSpec:
    name: str
    target: str

    @property
    def is_http(self) -> bool:
        return self.target.startswith(("http://", "https://"))

    @property
    def method(self) -> str:
        return f"ext:{self.name}"


def parse_spec(text: str) -> ExternalAgentSpec:
    """`name=target` or `target`; the default name is the function (Python) or host_port (HTTP)."""
    text = text.strip()
    name, sep, target = text.partition("=")
    if not sep or "/" in name or ":" in name:
        name, target = "", text
    if not name:
        if target.startswith(("http://", "https://")):
            name = target.split("://", 1)[1].split("/", 1)[0].replace(":", "_")
        else:
            name = target.rsplit(":", 1)[-1]
    if not target.startswith(("http://", "https://")) and ":" not in target:
        raise ValueError(f"external agent {text!r}: expected module:function, file.py:function or an http(s) URL")
    return ExternalAgentSpec(name=name, target=target)


def specs_from(entries: list[str] | None = None) -> list[ExternalAgentSpec]:
    """Config entries, else FORESCI_EXTERNAL_AGENTS (comma-separated)."""
    if not entries:
        entries = [e for e in os.environ.get("FORESCI_EXTERNAL_AGENTS", "").split(",") if e.strip()]
    return [parse_spec(e) for e in entries]


def load_entry_point(target: str):
    module_name, _, fn_name = target.rpartition(":")
    if module_name.endswith(".py"):
        path = Path(module_name)
        spec = importlib.util.spec_from_file_location(f"foresci_external_{path.stem}", path)
        if spec is None or spec.loader is None:
            raise ImportError(f"cannot load {path}")
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
    else:
        module = importlib.import_module(module_name)
    fn = getattr(module, fn_name)
    if not callable(fn):
        raise TypeError(f"{target} is not callable")
    return fn


def public_task(task: Task) -> dict:
    """The task exactly as released: every field of `Task` is public."""
    return task.model_dump(mode="json")


def post_json(url: str, payload: dict, timeout_s: float) -> dict:
    req = urllib.request.Request(
        url, data=json.dumps(payload).encode(), method="POST", headers={"Content-Type": "application/json"}
    )
    try:
        with urllib.request.urlopen(req, timeout=timeout_s) as resp:
            return json.loads(resp.read())
    except urllib.error.HTTPError as exc:
        raise RuntimeError(f"agent endpoint answered HTTP {exc.code}: {exc.read()[:500]!r}") from exc


# -- turning a response into an Answer -------------------------------------------------------


def response_to_answer(task: Task, raw: Any, kb: TracedKB, *, method: str, seed: int) -> Answer:
    """Validate an agent's reply with the family schema and the renderer's contract."""
    resp = AgentResponse.model_validate(raw)
    data = dict(resp.answer)
    data["cited_ids"] = list(data.get("cited_ids") or []) + resp.evidence_ids
    parsed = get_family(task.family).answer_schema.model_validate(data)
    artifacts = {}
    for key, value in resp.artifacts.items():
        text = value if isinstance(value, str) else json.dumps(value, default=str)
        artifacts[f"agent:{key}"] = text[:MAX_ARTIFACT_CHARS]
    answer = render_answer(
        task,
        parsed,
        method=method,
        backbone=resp.backbone or "none",
        seed=seed,
        retrieved=list(kb.returned.values()),
        retrieval_queries=resp.retrieval_queries,
        has_support_artifact=bool(kb.returned),
        prompt_tokens=resp.usage.prompt_tokens,
        completion_tokens=resp.usage.completion_tokens,
        cost_usd=resp.usage.cost_usd,
        artifacts=artifacts,
    )
    return answer


def run_external(
    spec: ExternalAgentSpec | str,
    tasks: list[Task],
    kb,
    *,
    seed: int = 0,
    registry: BackboneRegistry | None = None,
    allow_post_cutoff_backbones: bool = False,
    max_concurrency: int = 1,
    timeout_s: float = 300.0,
    evidence_k: int = 10,
    kb_host: str = "127.0.0.1",
) -> tuple[list[Answer], list[Failure]]:
    """Answer every task with an external agent; (answers, failures) in task_id order."""
    spec = parse_spec(spec) if isinstance(spec, str) else spec
    common = {
        "seed": seed,
        "registry": registry,
        "allow_post_cutoff_backbones": allow_post_cutoff_backbones,
        "max_concurrency": max_concurrency,
    }
    if not spec.is_http:
        try:
            fn = load_entry_point(spec.target)
        except Exception as exc:  # noqa: BLE001 - a broken entry point fails every task, visibly
            return [], [
                Failure(
                    stage="agent_runs",
                    item_id=t.task_id,
                    raw=spec.target,
                    reason=f"{spec.method}: cannot load {spec.target}: {type(exc).__name__}: {exc}",
                )
                for t in sorted(tasks, key=lambda t: t.task_id)
            ]
        return run_method(python_agent(spec, fn), tasks, kb, **common)
    with KBServer(host=kb_host) as server:
        return run_method(http_agent(spec, server, timeout_s=timeout_s, evidence_k=evidence_k), tasks, kb, **common)


def python_agent(spec: ExternalAgentSpec, fn) -> Agent:
    """A registry entry for `fn(task: dict, kb: KBTool) -> dict` (the Python contract)."""

    def run(ctx: AgentContext) -> Answer:
        raw = fn(public_task(ctx.task), KBTool(ctx.kb))
        return response_to_answer(ctx.task, raw, ctx.kb, method=spec.method, seed=ctx.seed)

    return Agent(spec.method, f"bring-your-own agent (Python entry point {spec.target})", run, source=spec.target, external=True)


def http_agent(spec: ExternalAgentSpec, server: KBServer, *, timeout_s: float, evidence_k: int) -> Agent:
    """A registry entry for an HTTP agent; `server` serves it the task's KB session."""

    def run(ctx: AgentContext) -> Answer:
        task, traced = ctx.task, ctx.kb
        url = server.open_session(traced)
        try:
            evidence = [hit_dict(h) for h in traced.search(task.question, k=evidence_k)] if evidence_k else []
            request = AgentRequest(
                task=public_task(task),
                seed=ctx.seed,
                evidence=evidence,
                kb=KBEndpoint(endpoint=url, cutoff=traced.cutoff.isoformat()),
            )
            raw = post_json(spec.target, request.model_dump(mode="json"), timeout_s)
        finally:
            server.close_session(url)
        return response_to_answer(task, raw, traced, method=spec.method, seed=ctx.seed)

    return Agent(spec.method, f"bring-your-own agent (HTTP endpoint {spec.target})", run, source=spec.target, external=True)

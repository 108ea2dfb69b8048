"""A counting stub behind the LLM client API: measures call budgets without a model.

`CountingStubClient` has the `LLMClient` surface the stages use (`offline`,
`structured(messages, schema, *, purpose, temperature, seed, ...)`, `snapshot()`,
`usage_since()`), counts every request (per purpose, with the number of papers in each
batch and the temperature asked for), and answers with deterministic, schema-valid
replies computed from the JSON payload of the prompt by plain heuristics (word overlap,
cue words, title words). The answers are not meant to be good, only plausible enough
that the taxonomy grows the way it would (papers that share words with a subtopic go
there, others trigger expansions), so the *number* of calls is representative.

A test double (no Dagster, no litellm): the tests and benchmarks/taxonomy_bench.py use it.
"""

from __future__ import annotations

import copy
import json
import re
import zlib
from collections import Counter
from dataclasses import dataclass, field

from pydantic import BaseModel

from assets.evidence.quotes import extract_fields_from_text
from assets.taxonomy.dimensions import DIMENSION_CUES
from core.text import STOP_WORDS

PAYLOAD_MARK = "INPUT:\n"
_WORD = re.compile(r"[a-z][a-z0-9\-]+")


@dataclass
class StubUsage:
    model: str = "counting-stub"
    calls: int = 0
    cache_hits: int = 0
    failures: int = 0
    prompt_tokens: int = 0
    completion_tokens: int = 0
    cost_usd: float = 0.0
    prompt_chars: int = 0
    by_purpose: dict[str, int] = field(default_factory=dict)

    def minus(self, earlier: StubUsage) -> StubUsage:
        return StubUsage(
            calls=self.calls - earlier.calls,
            failures=self.failures - earlier.failures,
            prompt_chars=self.prompt_chars - earlier.prompt_chars,
            by_purpose={
                k: v - earlier.by_purpose.get(k, 0) for k, v in self.by_purpose.items() if v - earlier.by_purpose.get(k, 0)
            },
        )

    def as_metadata(self) -> dict:
        return {
            "llm_calls": self.calls,
            "llm_cache_hits": 0,
            "llm_failures": self.failures,
            "prompt_tokens": 0,
            "completion_tokens": 0,
            "cost_usd": 0.0,
            "prompt_chars": self.prompt_chars,
            "model": self.model,
        }


def payload_of(messages) -> dict:
    text = messages if isinstance(messages, str) else messages[-1]["content"]
    return json.loads(text.rsplit(PAYLOAD_MARK, 1)[1])


def content_words(text: str) -> list[str]:
    return [w for w in _WORD.findall(text.lower()) if w not in STOP_WORDS and len(w) > 2]


class CountingStubClient:
    """Deterministic fake LLM client that counts calls (see module docstring).

    `fail_purposes`: purposes whose calls raise RuntimeError (to test fallbacks).
    `overrides`: {schema name: callable(payload) -> dict} to script specific answers.
    """

    offline = False
    model = "counting-stub"

    def __init__(self, *, fail_purposes: tuple[str, ...] = (), overrides: dict | None = None):
        self.usage = StubUsage()
        self.batch_sizes: dict[str, list[int]] = {}
        self.temperatures: dict[str, set] = {}
        self.requests: list[dict] = []  # (purpose, payload) of every call, for tests
        self.fail_purposes = fail_purposes
        self.overrides = overrides or {}

    @property
    def calls(self) -> int:
        return self.usage.calls

    def snapshot(self) -> StubUsage:
        return copy.deepcopy(self.usage)

    def usage_since(self, snap: StubUsage) -> StubUsage:
        return self.usage.minus(snap)

    def structured(
        self,
        messages,
        schema: type[BaseModel],
        *,
        purpose: str,
        temperature: float | None = None,
        seed: int | None = None,
        max_tokens: int | None = None,
        mock_response: str | None = None,
    ):
        payload = payload_of(messages)
        self.usage.calls += 1
        self.usage.by_purpose[purpose] = self.usage.by_purpose.get(purpose, 0) + 1
        self.usage.prompt_chars += sum(len(m["content"]) for m in messages) if not isinstance(messages, str) else len(messages)
        n = len(payload.get("papers", payload.get("proposed_labels", payload.get("items", []))))
        self.batch_sizes.setdefault(purpose, []).append(n)
        self.temperatures.setdefault(purpose, set()).add(temperature)
        self.requests.append({"purpose": purpose, "payload": payload})
        if purpose in self.fail_purposes:
            self.usage.failures += 1
            raise RuntimeError(f"stub failure for {purpose}")
        name = schema.__name__
        if name in self.overrides:
            return schema.model_validate(self.overrides[name](payload))
        handler = getattr(self, f"_answer_{name}", None)
        if handler is None:
            raise NotImplementedError(f"counting stub has no answer for schema {name}")
        return schema.model_validate(handler(payload))

    # -- taxonomy ------------------------------------------------------------------

    @staticmethod
    def _answer_DimensionBatch(payload: dict) -> dict:
        out = []
        for p in payload["papers"]:
            text = f"{p['title']} {p['title']} {p['abstract']}".lower()
            hits = {
                d: len(re.findall(rf"\b(?:{DIMENSION_CUES[d]})\b", text)) for d in payload["dimensions"] if d in DIMENSION_CUES
            }
            top = max(hits.values(), default=0)
            dims = [d for d, h in hits.items() if top and h >= 0.6 * top] or [payload["dimensions"][0]]
            out.append({"paper": p["key"], "dimensions": dims})
        return {"papers": out}

    @staticmethod
    def _answer_RouteBatch(payload: dict) -> dict:
        opts = [(o["key"], set(content_words(f"{o['label']} {o['description']}"))) for o in payload["options"]]
        out = []
        for p in payload["papers"]:
            words = set(content_words(f"{p['title']} {p['abstract']}"))
            scored = sorted(((len(words & ws), -j, key) for j, (key, ws) in enumerate(opts)), reverse=True)
            best_overlap, _, key = scored[0]
            if best_overlap == 0:
                key = "none" if payload.get("allow_none", True) else opts[zlib.crc32(p["title"].encode()) % len(opts)][0]
            out.append({"paper": p["key"], "child": key})
        return {"papers": out}

    @staticmethod
    def _answer_ProposalBatch(payload: dict) -> dict:
        out = []
        for p in payload["papers"]:
            counts = Counter(content_words(p["title"]) * 2 + content_words(p["abstract"]))
            words = [w for w, _ in sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))][:2] or ["misc"]
            out.append({"paper": p["key"], "label": " ".join(words)})
        return {"proposals": out}

    @staticmethod
    def _answer_ClusterResult(payload: dict) -> dict:
        groups: dict[str, list[str]] = {}
        votes: Counter = Counter()
        for item in payload["proposed_labels"]:
            head = item["label"].split()[0]
            groups.setdefault(head, []).append(item["label"])
            votes[head] += item["votes"]
        existing = {e.lower() for e in payload.get("existing", [])}
        heads = [h for h in sorted(votes, key=lambda h: (-votes[h], h)) if h not in existing]
        return {
            "clusters": [
                {"label": h, "description": f"Papers whose contribution centres on {h}.", "members": groups[h]}
                for h in heads[: payload["max_clusters"]]
            ]
        }

    # -- evidence --------------------------------------------------------------------

    @staticmethod
    def _answer_EvidenceBatch(payload: dict) -> dict:
        """Quote the sentence the offline cue rules would pick (always verbatim)."""
        out = []
        for p in payload["papers"]:
            text = re.sub(r"(?m)^\[\w+\] ", "", p["text"])  # drop the "[section] " markers of the prompt
            chosen, ctype = extract_fields_from_text(p["title"], text)
            out.append(
                {
                    "paper": p["key"],
                    "contribution_type": ctype,
                    **{f: {"summary": q[:120], "quote": q} for f, q in chosen.items()},
                }
            )
        return {"papers": out}

    # -- signals -----------------------------------------------------------------------

    @staticmethod
    def _answer_RelationBatch(payload: dict) -> dict:
        return {
            "items": [
                {
                    "key": it["key"],
                    "relation": it.get("rule_relation", "extension"),
                    "rationale": "stub: kept the rule's relation",
                }
                for it in payload["items"]
            ]
        }

    @staticmethod
    def _answer_BottleneckBatch(payload: dict) -> dict:
        out = []
        for it in payload["items"]:
            words = content_words(" ".join(it["quotes"]))
            top = [w for w, _ in Counter(words).most_common(3)]
            out.append(
                {
                    "key": it["key"],
                    "title": " / ".join(top) or "recurring limitation",
                    "category": it.get("rule_category", "recurring_limitation"),
                }
            )
        return {"items": out}

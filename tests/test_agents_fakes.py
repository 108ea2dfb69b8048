"""Test doubles shared by the agent tests (no tests here).

`RecordingClient` is a real `LLMClient` (litellm, on-disk cache, usage accounting) whose
replies are litellm `mock_response`s computed from the prompt, for every schema the
agents ask for; it records every message list it receives (for the leakage test).
"""

import json
import re
import threading
from datetime import date

from assets.agents.aris import EvidenceCards
from assets.agents.backbones import BackboneEntry, BackboneRegistry
from assets.agents.coi import ChainAnalysis
from assets.agents.research_agent import Review, StageDraft
from resources.llm import LLMClient

MODEL = "openai/mock-backbone"
TEST_REGISTRY = BackboneRegistry.load().with_entries(
    BackboneEntry(model="mock-backbone", knowledge_cutoff=date(2024, 1, 31), source="test double"))
FAKE_ID = "9999.99999"
_ID = re.compile(r"\b(\d{4}\.\d{4,5})\b")


class RecordingClient(LLMClient):
    """Mock replies: family answers cite the first arXiv id shown plus a fabricated one and
    rank the options reversed; reviews score `review_overall`; with `break_contract` the
    first family answer per prompt uses an unknown option id (ARIS repair path); with
    `fabricate` family answers also cite an id that was never shown (FAKE_ID)."""

    def __init__(self, tmp_path, *, review_overall: int = 5, break_contract: bool = False, model: str = MODEL,
                 fabricate: bool = True):
        super().__init__(model, api_key="k", cache_dir=str(tmp_path / "llm_cache"), backoff_s=0.0, max_retries=1)
        self.review_overall = review_overall
        self.break_contract = break_contract
        self.fabricate = fabricate
        self.seen: list[list[dict]] = []
        self.purposes: list[str] = []
        self._rec_lock = threading.Lock()

    def reply(self, messages, schema, purpose) -> dict:
        user = "\n".join(m["content"] for m in messages if m["role"] == "user")
        ids = list(dict.fromkeys(_ID.findall(user)))
        options = re.findall(r"^- (o\d+): ", user, flags=re.M)
        if schema is ChainAnalysis:
            return {"evolution": "from planning to acting", "frontier": "tool use", "next_step": "self-correction",
                    "momentum": "rising", "claims": ["The chain keeps rising."]}
        if schema is StageDraft:
            return {"summary": f"stage summary ({purpose})", "points": ["point one"], "cited_ids": ids[:1]}
        if schema is Review:
            return {"overall": self.review_overall, "criteria": [{"criterion": "clarity", "score": self.review_overall}],
                    "feedback": ["Name the candidate explicitly."]}
        if schema is EvidenceCards:
            return {"cards": [{"statement": "evidence statement", "cited_ids": ids[:2], "bears_on": "o0"}],
                    "uncertainties": ["small sample"]}
        family = schema.__name__.replace("Answer", "").lower()
        repairing = "breaks the contract" in messages[-1]["content"]
        ranking = list(reversed(options))
        if self.break_contract and not repairing:
            ranking = ["o_unknown"] + ranking[:1]
        cited = ids[:1] + ([FAKE_ID] if self.fabricate and not repairing else [])
        return {
            "direction": {"choice": ranking[0] if ranking else "o0", "trajectory": "accelerating", "ranking": ranking,
                          "rationale": "trend", "claims": ["It will keep rising."], "cited_ids": cited},
            "bottleneck": {"bottleneck": "grounding actions in unseen interfaces",
                           "opportunity": "general-purpose GUI agents", "mechanism": "m", "claims": ["c"],
                           "cited_ids": cited},
            "planning": {"ranking": ranking, "milestones": ["m1"], "dependencies": [], "risks": ["r"],
                         "go_no_go": "go", "claims": ["Start now."], "cited_ids": cited},
            "venue": {"ranking": ranking, "framing": "f", "reviewer_risks": ["r"], "evidence_upgrades": [],
                      "claims": ["c"], "cited_ids": cited},
        }[family]

    def structured(self, messages, schema, *, purpose, temperature=None, seed=None, max_tokens=None,
                   mock_response=None):
        with self._rec_lock:
            self.seen.append(messages)
            self.purposes.append(purpose)
        reply = json.dumps(self.reply(messages, schema, purpose))
        return super().structured(messages, schema, purpose=purpose, temperature=temperature, seed=seed,
                                  max_tokens=max_tokens, mock_response=reply)

"""Model review of a candidate task: draft verdicts on the ForeSci criteria, with reasons.

ForeSci's curators had a model draft construction records and flag risks before people
checked them (App. B.6-B.7). With a model configured, the model reads the public task, its
hidden gold (outcome, counted window papers) and the support quotes, and drafts one verdict
(pass / fail / unsure) with a reason per criterion:

* B.3 (task design): sufficient support, clear decision, specific enough, separable from
  the hidden evidence;
* B.7 (curation): stable premise, clear public decision, suitable validation evidence.

The verdicts are a draft for the reviewer, never a decision: a `fail` or `unsure` becomes a
`model_review` flag. Calls go through `LLMClient.structured` (cached, retried, accounted);
a call that fails for good leaves the task with the deterministic flags only and is
returned as an error for the failure table.
"""

from __future__ import annotations

import json

from pydantic import BaseModel, Field

from core.records import AuditFlag, AuditRecord, CriterionVerdict

CRITERIA: dict[str, str] = {
    "sufficient_support": "B.3: the pre-cutoff support quotes are enough to reason about the decision",
    "clear_decision": "B.3: the task asks one decision an answer can commit to",
    "specific_enough": "B.3: the options and question are specific enough to be answerable and scorable",
    "separable_from_hidden_evidence": "B.3: the public text does not reveal the hidden outcome or the window's papers",
    "stable_premise": "B.7: the premise rests on papers published before the recent window, not one burst",
    "clear_public_decision": "B.7: a reader of the public text alone knows what to decide",
    "suitable_validation_evidence": "B.7: the counted window papers really validate the gold outcome",
}
PROMPT_VERSION = "audit-review/1"


class Verdict(BaseModel):
    verdict: str = Field(description="pass, fail or unsure")
    reason: str = Field(description="one sentence: why")


class ReviewReply(BaseModel):
    sufficient_support: Verdict
    clear_decision: Verdict
    specific_enough: Verdict
    separable_from_hidden_evidence: Verdict
    stable_premise: Verdict
    clear_public_decision: Verdict
    suitable_validation_evidence: Verdict


def review_messages(record: AuditRecord) -> list[dict]:
    task, gold = record.task, record.gold
    packet = {
        "public_task": {
            "title": task.title,
            "question": task.question,
            "options": {o.option_id: o.text for o in task.options},
            "cutoff": str(task.cutoff),
            "window": f"{task.window_start} to {task.window_end}",
        },
        "hidden_gold": {
            "preferred_ranking": gold.preferred_ranking if gold else [],
            "trajectory": gold.trajectory if gold else None,
            "claims": [c.text for c in gold.claims][:8] if gold else [],
            "counted_window_papers": record.future_evidence[:12],
        },
        "support_quotes": [{"paper": s.arxiv_id, "title": s.title, **s.quotes} for s in record.support[:8]],
        "automatic_flags": [f"{f.code}: {f.detail}" for f in record.flags],
    }
    criteria = "\n".join(f"- {k}: {v}" for k, v in CRITERIA.items())
    return [
        {
            "role": "system",
            "content": (
                "You audit forward-looking research benchmark tasks before release. For each criterion give "
                "verdict pass, fail or unsure and a one-sentence reason. Judge only from the packet."
            ),
        },
        {
            "role": "user",
            "content": f"Criteria:\n{criteria}\n\nPacket (JSON):\n{json.dumps(packet, ensure_ascii=False)}\n\n"
            "Reply with JSON: one object per criterion with keys verdict and reason.",
        },
    ]


def review(record: AuditRecord, client) -> tuple[list[CriterionVerdict], list[AuditFlag]]:
    """The model's verdicts on `record` and the flags they raise (fail or unsure).

    Raises the client's error when the call fails for good; the caller records it."""
    reply = client.structured(review_messages(record), ReviewReply, purpose="audit_review", seed=0)
    verdicts = []
    for criterion in CRITERIA:
        v = getattr(reply, criterion)
        word = v.verdict.strip().lower()
        verdicts.append(
            CriterionVerdict(
                criterion=criterion, verdict=word if word in ("pass", "fail") else "unsure", reason=v.reason.strip()[:500]
            )
        )
    flags = [
        AuditFlag(code="model_review", source="model", detail=f"{v.criterion}: {v.verdict}: {v.reason}"[:300])
        for v in verdicts
        if v.verdict != "pass"
    ]
    return verdicts, flags

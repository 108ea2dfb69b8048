"""Task builders: the four families, curation, and no internal ids in public text."""

from __future__ import annotations

import re
from datetime import date

import pytest

from assets.families import get_family
from assets.gold.leakage import internal_violations
from assets.tasks.building import MIN_SUPPORT_PAPERS, dimension_of
from assets.tasks.logic import build_tasks
from tests.factories import (
    CUTOFF,
    DOMAIN,
    WINDOW_END,
    make_task_inputs,
    task_settings,
)


def build(signals, records, drafter=None, failures=None, **kw):
    tasks, builds, found = build_tasks(signals, records, task_settings(**kw), drafter=drafter)
    if failures is not None:
        failures.extend(found)
    return tasks, builds


@pytest.fixture(scope="module")
def built():
    signals, records = make_task_inputs()
    tasks, builds = build(signals, records)
    return signals, records, tasks, builds


def by_family(tasks, family):
    return [t for t in tasks if t.family == family]


def test_every_family_is_built_with_required_fields(built):
    _, _, tasks, builds = built
    assert {t.family for t in tasks} == {"direction", "bottleneck", "planning", "venue", "phase"}
    assert [b.task_id for b in builds] == [t.task_id for t in tasks]
    for t in tasks:
        assert re.fullmatch(rf"{DOMAIN}-2025-12-31-{t.family}-\d\d", t.task_id)
        assert t.window_start == date(2026, 1, 1) and t.window_end == WINDOW_END
        assert t.title and t.question and t.instructions and len(t.answer_requirements) >= 4
        assert len(t.support_paper_ids) >= MIN_SUPPORT_PAPERS
        assert all(re.fullmatch(r"\d{4}\.\d{5}#\w+", e) for e in t.support_evidence_ids)
        assert t.horizon == ("venue cycle" if t.family == "venue" else "6-month")
        assert t.subtype in ("synthesize", "design", "evaluate") if t.family == "phase" else True


def test_direction_options_mix_growth_within_one_dimension(built):
    signals, _, tasks, builds = built
    sig = {s.signal_id: s for s in signals}
    build_of = {b.task_id: b for b in builds}
    for t in by_family(tasks, "direction"):
        assert 4 <= len(t.options) <= 5
        assert "Between 2026-01-01 and 2026-06-30" in t.question and "LLM Agents" in t.question
        cands = [sig[build_of[t.task_id].option_signal_ids[o.option_id]] for o in t.options]
        dims = {dimension_of(c) for c in cands}
        assert len(dims) == 1
        pool = sorted((s for s in signals if s.kind == "candidate_direction" and dimension_of(s) in dims),
                      key=lambda s: -s.stats["growth"])
        high = {s.signal_id for s in pool[: len(pool) // 2]}
        ids = {c.signal_id for c in cands}
        assert ids & high and ids - high, "each set mixes high- and low-growth candidates"
        for o, c in zip(t.options, cands):
            assert o.text.lower().startswith(c.title.split(" / ")[0]) and "e.g." in o.text
    assert len({frozenset(build_of[t.task_id].option_signal_ids.values()) for t in by_family(tasks, "direction")}) == \
        len(by_family(tasks, "direction"))


def test_bottleneck_tasks_one_per_subdirection_with_bottlenecks(built):
    signals, _, tasks, builds = built
    bn = by_family(tasks, "bottleneck")
    assert len(bn) == 3
    assert all(not t.options for t in bn)
    assert {t.question.split(", as of")[0] for t in bn} == {
        'In LLM Agents research on "tool use / agents"', 'In LLM Agents research on "planning / agents"',
        'In LLM Agents research on "gui control / agents"'}
    build_of = {b.task_id: b for b in builds}
    for t in bn:
        kinds = {next(s.kind for s in signals if s.signal_id == i) for i in build_of[t.task_id].signal_ids}
        assert kinds == {"candidate_direction", "bottleneck"}


def test_planning_options_carry_feasibility_and_team(built):
    _, _, tasks, _ = built
    plans = by_family(tasks, "planning")
    assert plans
    for t in plans:
        assert re.search(r"a team of \d+ researchers planning the next 6 months", t.question)
        assert all("Feasibility: Support: 12 pre-cutoff papers" in o.text and "Risks: evaluation saturation" in o.text
                   for o in t.options)
        req = " ".join(t.answer_requirements)
        for word in ("milestones", "dependencies", "risks", "go/no-go"):
            assert word in req


def test_venue_options_are_families_with_lists_and_project_hides_its_paper(built):
    _, records, tasks, _ = built
    venues = by_family(tasks, "venue")
    assert venues
    for t in venues:
        assert sorted(o.text.split(" (")[0] for o in t.options) == ["ACL/EMNLP/NAACL", "CVPR/ICCV/ECCV", "ICLR/ICML/NeurIPS"]
        m = re.search(r'Project description: "(.*?)"', t.question)
        assert m and "We propose" in m.group(1) and "fail on long horizons" in m.group(1)
        project = next(ev for r in records for ev in r.papers if ev.problem in m.group(1))
        assert project.arxiv_id not in t.support_paper_ids
        assert project.arxiv_id not in t.question
        assert "A Study of" not in t.question  # no title


def test_public_text_has_no_internal_ids(built):
    signals, records, tasks, _ = built
    internal = {s.signal_id for s in signals} | {n for s in signals for n in s.node_ids} | {r.record_id for r in records}
    assert internal_violations(tasks, cutoff=CUTOFF, internal_ids=internal) == []
    blob = " ".join(str(v) for t in tasks for v in t.model_dump(mode="json").values())
    assert "sig:" not in blob and "ev:" not in blob and f"{DOMAIN}:" not in blob


def test_per_family_cap_and_determinism():
    signals, records = make_task_inputs()
    tasks, _ = build(signals, records, per_family_max=2)
    counts = {f: len(by_family(tasks, f)) for f in ("direction", "bottleneck", "planning", "venue")}
    assert counts == {"direction": 2, "bottleneck": 2, "planning": 2, "venue": 2}
    again, _ = build(list(reversed(signals)), records, per_family_max=2)
    assert [t.model_dump() for t in tasks] == [t.model_dump() for t in again]
    other, _ = build(signals, records, per_family_max=2, seed=7)
    assert [t.options for t in by_family(other, "direction")] != [t.options for t in by_family(tasks, "direction")]


def test_duplicate_subdirections_are_dropped():
    signals, records = make_task_inputs(with_duplicate=True)
    tasks, builds = build(signals, records)
    bn = by_family(tasks, "bottleneck")
    assert len(bn) == 3  # the duplicate of candidate 0 adds no task
    used = [set(b.signal_ids) for b in builds if b.task_id in {t.task_id for t in bn}]
    assert not any({"sig:cand:0", "sig:cand:dup"} <= u for u in used)
    dsets = [frozenset(b.option_signal_ids.values()) for b in builds if "-direction-" in b.task_id]
    assert not any({"sig:cand:0", "sig:cand:dup"} <= s for s in dsets), "parent/duplicate never share an option set"


def test_thin_support_builds_nothing():
    signals, records = make_task_inputs(n_papers=1)
    tasks, _ = build(signals, records)
    assert by_family(tasks, "bottleneck") == [] and by_family(tasks, "venue") == []
    assert all(len(t.options) == 5 for t in tasks)  # only 5-option sets reach 5 support papers
    assert all(len(t.support_paper_ids) >= MIN_SUPPORT_PAPERS for t in tasks)


def test_leaky_drafter_output_is_dropped():
    signals, records = make_task_inputs()

    def leaky(draft):
        title, question = get_family(draft.family).template(draft)
        return title, question + " Hint: see 2026-03-15." if draft.family == "direction" else question

    tasks, _ = build(signals, records, drafter=leaky)
    assert by_family(tasks, "direction") == [] and by_family(tasks, "planning")


# ----------------------------------------------------------------------------------------
# curation knobs
# ----------------------------------------------------------------------------------------

from assets.tasks.building import Curation, clear_decision, premise_ok  # noqa: E402
from core.records import Failure  # noqa: E402


def test_unstable_premise_candidates_are_never_options_and_are_reported():
    signals, records = make_task_inputs()
    young = next(s for s in signals if s.signal_id == "sig:cand:0")
    young.stats["share_prior"] = 0.0  # only recent papers: no stable premise
    failures: list[Failure] = []
    tasks, builds = build(signals, records, failures=failures)
    assert not premise_ok(young, Curation())
    assert all("sig:cand:0" not in b.signal_ids for b in builds)
    assert any(f.item_id == "sig:cand:0" and "stable historical premise" in f.reason for f in failures)
    assert all(b.curation["premise"] == "pass" for b in builds)


def test_family_min_and_max_overrides_are_configurable():
    signals, records = make_task_inputs()
    failures: list[Failure] = []
    tasks, _ = build(signals, records, curation=Curation(family_max={"direction": 1, "venue": 3},
                                                         family_min={"bottleneck": 5}), failures=failures)
    counts = {f: len(by_family(tasks, f)) for f in ("direction", "bottleneck", "planning", "venue")}
    assert counts["direction"] == 1 and counts["venue"] == 3 and counts["planning"] >= 2
    assert counts["bottleneck"] == 3
    assert any("family bottleneck has 3 task(s), below its minimum 5" in f.reason for f in failures)


def test_unclear_decision_and_duplicate_decisions_are_dropped():
    signals, records = make_task_inputs()
    tasks, _ = build(signals, records)
    t = by_family(tasks, "direction")[0]
    same = t.model_copy(update={"options": [t.options[0], t.options[0].model_copy(update={"option_id": "B"})]})
    assert "near-identical" in clear_decision(same, get_family("direction"), Curation())
    vague = t.model_copy(update={"question": "Discuss the field."})
    assert "does not ask" in clear_decision(vague, get_family("direction"), Curation())
    # a drafter that makes every direction question identical in its decision words still
    # keeps distinct option sets apart; a strict duplicate threshold collapses near-duplicates
    failures: list[Failure] = []
    strict, _ = build(signals, records, curation=Curation(duplicate_jaccard=0.3), failures=failures)
    assert len(by_family(strict, "direction")) < len(by_family(tasks, "direction"))
    assert any("duplicate decision of" in f.reason for f in failures)


def test_template_build_trace_is_recorded():
    signals, records = make_task_inputs()
    _, builds = build(signals, records, per_family_max=2)
    for b in builds:
        assert b.drafted_by == "template"
        assert [s.step for s in b.build_trace] == ["template"] and b.build_trace[0].accepted


# ----------------------------------------------------------------------------------------
# LLM mode: draft, judge, rewrite through the LLM client (litellm mock responses)
# ----------------------------------------------------------------------------------------

import json as _json  # noqa: E402

from assets.tasks.llm_drafting import LLMDrafter  # noqa: E402
from resources.llm import LLMClient  # noqa: E402


class DraftingClient(LLMClient):
    """A real LLMClient (cache, accounting) whose replies are litellm mock responses made
    from the prompt: drafts prefix the reference question with "Polished:", the judge gives
    0.5 to a polished draft and 0.95 to a rewritten one, rewrites prefix "Rewritten:"."""

    def __init__(self, tmp_path, leak_family: str | None = None, broken: bool = False):
        super().__init__("openai/mock-drafter", api_key="k", cache_dir=str(tmp_path / "llm_cache"), backoff_s=0.0,
                         max_retries=1)
        self.leak_family, self.broken = leak_family, broken
        self.purposes: list[str] = []

    def structured(self, messages, schema, *, purpose, temperature=None, seed=None, max_tokens=None,
                   mock_response=None):
        self.purposes.append(purpose)
        user = messages[-1]["content"]
        family = purpose.split(":")[-1]
        if self.broken:
            reply = "no json here"
        elif purpose.startswith("task_draft"):
            q = re.search(r"^Question: (.*)$", user, flags=re.M).group(1)
            extra = " It resolves on 2026-09-30." if family == self.leak_family else ""
            reply = _json.dumps({"title": "Polished title", "question": f"Polished: {q}{extra}"})
        elif purpose.startswith("task_judge"):
            q = re.search(r"^Draft question: (.*)$", user, flags=re.M).group(1)
            s = 0.95 if q.startswith("Rewritten:") else 0.5
            reply = _json.dumps({"clarity": s, "clear_decision": s, "temporal_discipline": s, "no_internal_ids": s,
                                 "family_fit": s, "feedback": "State the decision more directly."})
        else:  # rewrite
            q = re.search(r"^Current question: (.*)$", user, flags=re.M).group(1)
            reply = _json.dumps({"title": "Rewritten title", "question": "Rewritten: " + q.removeprefix("Polished: ")})
        return super().structured(messages, schema, purpose=purpose, temperature=temperature, seed=seed,
                                  max_tokens=max_tokens, mock_response=reply)


def test_llm_mode_drafts_judges_rewrites_and_keeps_the_trace(tmp_path):
    signals, records = make_task_inputs()
    client = DraftingClient(tmp_path)
    tasks, builds = build(signals, records, per_family_max=2, drafter=LLMDrafter(client, threshold=0.8, max_rounds=2))
    # phase tasks keep their TaskWeaver template (their inspirations are what a model drafts, docs/arena.md)
    assert {t.family for t in tasks} == {"direction", "bottleneck", "planning", "venue", "phase"}
    assert all(b.drafted_by == "template" for t, b in zip(tasks, builds) if t.family == "phase")
    builds = [b for t, b in zip(tasks, builds) if t.family != "phase"]
    tasks = [t for t in tasks if t.family != "phase"]
    for t, b in zip(tasks, builds):
        assert t.title == "Rewritten title" and t.question.startswith("Rewritten: ")
        assert b.drafted_by == "openai/mock-drafter"
        assert [(s.step, s.round) for s in b.build_trace] == [("draft", 0), ("judge", 0), ("rewrite", 1), ("judge", 1)]
        judged = [s for s in b.build_trace if s.step == "judge"]
        assert [s.score for s in judged] == [0.5, 0.95] and [s.accepted for s in judged] == [False, True]
        assert all(len(s.request_sha) == 16 for s in b.build_trace)
    # the template's facts survive the polish (window, options, project)
    d = by_family(tasks, "direction")[0]
    assert "Between 2026-01-01 and 2026-06-30" in d.question and len(d.options) >= 4
    calls = client.usage.calls
    assert calls == 4 * len(tasks)
    # a rebuild is free: every step is served from the cache, and the result is identical
    again, again_builds = build(signals, records, per_family_max=2, drafter=LLMDrafter(client))
    assert client.usage.calls == calls and client.usage.cache_hits >= 4 * len(tasks)
    assert [t.model_dump() for t in again if t.family != "phase"] == [t.model_dump() for t in tasks]


def test_llm_draft_that_leaks_falls_back_to_the_template(tmp_path):
    signals, records = make_task_inputs()
    client = DraftingClient(tmp_path, leak_family="direction")
    tasks, builds = build(signals, records, per_family_max=2, drafter=LLMDrafter(client, max_rounds=0))
    direction = by_family(tasks, "direction")
    assert len(direction) == 2  # kept, with the template text
    for t in direction:
        b = next(b for b in builds if b.task_id == t.task_id)
        assert "2026-09-30" not in t.question and t.question.startswith("Between 2026-01-01")
        assert b.drafted_by == "template" and b.build_trace[-1].step == "fallback"
        assert "after the cutoff" in b.build_trace[-1].error
    others = [b for b in builds if "-direction-" not in b.task_id and "-phase-" not in b.task_id]  # phase: template
    assert all(b.drafted_by == "openai/mock-drafter" for b in others)


def test_llm_call_failure_falls_back_to_the_template(tmp_path):
    signals, records = make_task_inputs()
    client = DraftingClient(tmp_path, broken=True)
    tasks, builds = build(signals, records, per_family_max=1, drafter=LLMDrafter(client))
    assert {t.family for t in tasks} == {"direction", "bottleneck", "planning", "venue", "phase"}
    template, _ = build(signals, records, per_family_max=1)
    assert [t.question for t in tasks] == [t.question for t in template]
    builds = [b for b in builds if "-phase-" not in b.task_id]  # phase tasks never call the drafter
    tasks = [t for t in tasks if t.family != "phase"]
    for b in builds:
        assert b.drafted_by == "template" and b.build_trace[-1].step == "fallback" and "LLM call" in b.build_trace[-1].error
    assert client.usage.failures == len(tasks)


def test_llm_drafter_refuses_an_offline_client(tmp_path):
    with pytest.raises(ValueError, match="online"):
        LLMDrafter(LLMClient(None, cache_dir=str(tmp_path)))

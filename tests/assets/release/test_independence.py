"""The release's independence rule (assets/release/independence.py) over small hand-made tasks:
which released tasks carry the same decision, how a group is credited, and the per-family counts."""

from __future__ import annotations

from datetime import date

from assets.release.independence import Decision, decision_of, independence, link, same_objects
from core.records import GoldSlot, GoldTarget, TaskBuild
from tests.factories import make_task

C1, C2, C3 = date(2025, 6, 30), date(2025, 9, 30), date(2025, 12, 31)
CUTOFFS = [c.isoformat() for c in (C1, C2, C3)]
DIRS = [
    "Tool use — papers on calling tools",
    "GUI agents — screen control",
    "Multi-agent debate — debating agents",
    "World models — predicting environments",
]


def task(task_id, family, options=(), cutoff=C3, domain="llm_agent", question="Which one?", subtype=""):
    t = make_task(task_id, family, question, options, cutoff)
    return t.model_copy(update={"domain": domain, "subtype": subtype})


def gold(t, top=None, keypoints=()):
    ranking = [top] + [o.option_id for o in t.options if o.option_id != top] if top else []
    slots = [GoldSlot(slot=f"keypoint_{i}", variants=[k]) for i, k in enumerate(keypoints, 1)]
    return GoldTarget(
        task_id=t.task_id, family=t.family, domain=t.domain, cutoff=t.cutoff, preferred_ranking=ranking, slots=slots, strength=1.0
    )


def build(t, project="", **curation):
    return TaskBuild(task_id=t.task_id, signal_ids=[], node_ids=[], project_paper_id=project, curation=curation)


def dec(t, top=None, project="", keypoints=(), subject="", **curation):
    return decision_of(t, build(t, project, **curation), gold(t, top, keypoints), subject=subject)


def test_same_options_at_consecutive_cutoffs_are_one_question_not_two_cutoffs_apart():
    a = dec(task("d1", "direction", DIRS, C1), "o0")
    b = dec(task("d2", "direction", list(reversed(DIRS)), C2), "o3")  # same names, other order and letters
    c = dec(task("d3", "direction", DIRS, C3), "o1")
    step = {c: i for i, c in enumerate(CUTOFFS)}
    assert link(a, b, step) == "same_question" and link(b, c, step) == "same_question"
    assert link(a, c, step) is None  # two steps apart: windows that do not overlap ask two questions
    res = independence([a, b, c], CUTOFFS)
    # transitive: d1 - d2 - d3 is one decision, credited to the earliest cutoff
    assert res.effective == 1 and res.groups[0]["representative"] == "llm_agent@2025-06-30@d1"
    assert res.families["direction"] == {
        "released": 3,
        "duplicates": 2,
        "effective": 1,
        "duplicates_by_rule": {"same_question": 2, "same_project": 0, "same_gold": 0},
    }


def test_one_different_option_or_a_different_planning_subject_is_another_question():
    a = dec(task("d1", "direction", DIRS, C2))
    b = dec(task("d2", "direction", DIRS[:3] + ["Embodied agents — robots"], C3))
    assert not same_objects(a.objects, b.objects)
    p1 = dec(task("p1", "planning", DIRS, C2), subject="reinforcement learning")
    p2 = dec(task("p2", "planning", DIRS, C3), subject="web agents")
    p3 = dec(task("p3", "planning", DIRS, C3), subject="Reinforcement learning")
    res = independence([a, b, p1, p2, p3], CUTOFFS)
    assert res.families["direction"]["effective"] == 2
    assert res.families["planning"]["effective"] == 2  # p1 = p3 (same approaches, same direction), p2 apart
    assert {(p["a"].split("@")[-1], p["b"].split("@")[-1], p["rule"]) for p in res.pairs} == {("p1", "p3", "same_question")}


def test_acronym_and_expansion_name_the_same_object():
    a = dec(task("d1", "direction", ["RAG — retrieval", "GUI agents — screens"], C2))
    b = dec(task("d2", "direction", ["Retrieval-augmented generation — retrieval", "GUI agents — screens"], C3))
    assert independence([a, b], CUTOFFS).families["direction"]["effective"] == 1


def test_same_project_in_two_domains_is_one_venue_decision():
    menu = ["ICLR/ICML/NeurIPS", "ACL/EMNLP/NAACL", "CVPR/ICCV/ECCV"]
    a = dec(task("v1", "venue", menu, domain="llm_agent"), "o0", project="2512.22087")
    b = dec(task("v2", "venue", menu, domain="rag_and_retrieval_structuring"), "o0", project="2512.22087")
    c = dec(task("v3", "venue", menu, domain="llm_agent"), "o0", project="2512.00001")
    assert a.objects == ()  # a fixed menu names no objects: every venue task offers it
    res = independence([a, b, c], CUTOFFS)
    assert res.families["venue"] == {
        "released": 3,
        "duplicates": 1,
        "effective": 2,
        "duplicates_by_rule": {"same_question": 0, "same_project": 1, "same_gold": 0},
    }
    # same top venue family is no shared decision: the menu is fixed
    assert [p["rule"] for p in res.pairs] == ["same_project"]


def test_planning_top_equal_to_direction_top_of_the_same_partition_is_one_decision():
    d = dec(task("d1", "direction", DIRS), "o0")  # gold: Tool use
    p = dec(
        task("p1", "planning", ["Tool use — calling APIs", "Synthetic data — generated", "Test-time scaling — more"]),
        "o0",
        subject="reinforcement learning",
    )  # gold: Tool use, as the direction task
    other_domain = dec(
        task("p2", "planning", ["Tool use — x", "Memory — y", "Reflection — z"], domain="rag_and_retrieval_structuring"),
        "o0",
        subject="retrieval agents",
    )
    other_cutoff = dec(task("p3", "planning", ["Tool use — x", "Memory — y", "Reflection — z"], C2), "o0", subject="agents")
    res = independence([p, d, other_domain, other_cutoff], CUTOFFS)
    # the same top approach in another domain or at another cutoff is another decision
    assert len(res.pairs) == 1
    # credited to the direction task (family order), the planning twin is the duplicate
    group = next(g for g in res.groups if g["members"])
    assert group["representative"].endswith("@d1") and group["members"][0]["task"].endswith("@p1")
    assert group["members"][0]["rule"] == "same_gold"
    assert res.families["direction"]["effective"] == 1
    assert res.families["planning"] == {
        "released": 3,
        "duplicates": 1,
        "effective": 2,
        "duplicates_by_rule": {"same_question": 0, "same_project": 0, "same_gold": 1},
    }
    assert res.effective == sum(f["effective"] for f in res.families.values()) == 3


def test_phase_tasks_sharing_a_gold_sentence_or_a_primary_paper():
    shared = "We introduce MCP-Atlas, a large-scale benchmark for evaluating tool-use competency."
    a = dec(
        task("ph1", "phase", subtype="design", question="A pre-cutoff paper (2508.07575) proposed X."),
        keypoints=[shared, "Another sentence."],
        subject="Tool benchmarks",
    )
    b = dec(
        task("ph2", "phase", subtype="evaluate", question="A pre-cutoff paper (2501.00001) proposed Y."),
        keypoints=["  " + shared.upper() + " "],
        subject="Agent safety",
    )
    c = dec(
        task("ph3", "phase", subtype="design", question="A pre-cutoff paper (2508.07575v2) proposed Z.", cutoff=C2),
        keypoints=["Unrelated."],
        subject="Tool benchmarks",
    )
    d = dec(
        task("ph4", "phase", subtype="synthesize", question="A pre-cutoff paper (2508.07575) proposed X."),
        keypoints=["Other."],
        subject="Tool benchmarks",
    )
    assert (a.project, c.project) == ("2508.07575", "2508.07575")
    step = {c: i for i, c in enumerate(CUTOFFS)}
    assert link(a, b, step) == "same_gold"  # the same future sentence answers both
    assert link(a, c, step) == "same_project"  # the same primary paper, same subtype, consecutive cutoffs
    assert link(a, d, step) is None  # another phase of the research cycle on that paper is another question
    res = independence([a, b, c, d], CUTOFFS)
    assert res.families["phase"]["effective"] == 2


def test_phase_primary_paper_from_the_construction_record():
    t = task("ph1", "phase", subtype="design", question="No id here.")
    d = dec(t, inspirations='[{"paper_id": "2401.17464", "kind": "methodology"}]', subject="x")
    assert d.project == "2401.17464"


def test_bottleneck_subject_from_the_quoted_phrase():
    q = 'In LLM Agents research on "reinforcement learning", as of 2025-12-31, identify one root bottleneck.'
    a = dec(task("b1", "bottleneck", question=q, cutoff=C2))
    b = dec(task("b2", "bottleneck", question=q.replace("2025-12-31", "2026-03-31"), domain="llm_finetuning_post_training"))
    c = dec(task("b3", "bottleneck", question=q.replace("reinforcement learning", "web agents")))
    assert a.subject == "reinforcement learning"
    res = independence([a, b, c], CUTOFFS)
    assert res.families["bottleneck"] == {
        "released": 3,
        "duplicates": 1,
        "effective": 2,
        "duplicates_by_rule": {"same_question": 1, "same_project": 0, "same_gold": 0},
    }


def test_independence_is_deterministic_whatever_the_input_order():
    ds = [dec(task(f"d{i}", "direction", DIRS, c), "o0") for i, c in enumerate((C3, C1, C2))]
    ds += [dec(task("p1", "planning", ["Tool use — x", "Memory — y"], C1), "o0", subject="s")]
    one, two = independence(ds, CUTOFFS), independence(list(reversed(ds)), CUTOFFS)
    assert one.groups == two.groups and one.families == two.families
    assert one.groups[0]["representative"] == "llm_agent@2025-06-30@d1"


def test_no_duplicates_means_effective_equals_released():
    ds = [
        Decision(domain="llm_agent", cutoff="2025-12-31", task_id=f"t{i}", family="bottleneck", subject=s)
        for i, s in enumerate(["web agents", "tool use", "memory"])
    ]
    res = independence(ds)
    assert res.families["bottleneck"]["effective"] == res.families["bottleneck"]["released"] == 3
    assert res.pairs == [] and all(not g["members"] for g in res.groups)

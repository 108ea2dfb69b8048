"""DeepResearch Arena part (issue 15 A): inspirations, the phase family, KAE and ACE.

Hand-made evidence records and window papers (a tiny partition), hand-computed KAE/ACE
cases, the checklists stored with the release and re-derived, the phase family's control
answers, and the model-backed paths through a loopback OpenAI-compatible server."""

from __future__ import annotations

import json
import re
from datetime import date

import pytest

from assets.agents.runner import run_method
from assets.arena import ace as ace_mod
from assets.arena import kae as kae_mod
from assets.arena.inspirations import draft_inspirations, extract_inspirations
from assets.gold.claims import ClaimContext, check_claim
from assets.gold.logic import build_gold
from assets.judging.scoring import score_answers
from assets.ranking.gate import gate_reason, gold_answer
from assets.release.logic import release_files
from assets.scorers.ace import release_checklists
from assets.validity.controls import control_answers
from assets.validity.report import validity_rows
from core.records import Task, TaskRating
from core.thresholds import Thresholds
from resources.embeddings import load_embedder
from resources.llm import LLMClient
from tests.factories import CUTOFF, DOMAIN, WINDOW_END
from tests.factories import arena_settings as settings
from tests.factories import arena_world as world
from tests.loopback import Loopback, Reply

# ---- inspirations ---------------------------------------------------------------------------------


def test_inspirations_have_the_four_kinds_verbatim_quotes_and_paper_ids():
    records, _, _ = world()
    late = (
        records[0]
        .papers[0]
        .model_copy(
            update={
                "arxiv_id": "2601.99999",
                "published": date(2026, 1, 5),
                "problem": "A post-cutoff limitation that must never be used.",
            }
        )
    )
    records[0] = records[0].model_copy(update={"papers": records[0].papers + [late]})
    got = extract_inspirations(records, CUTOFF)
    assert {i.kind for i in got} == {"limitation", "methodology", "transdisciplinarity", "hypothesis"}
    by_id = {(p.arxiv_id): p for r in records for p in r.papers}
    for i in got:
        src = by_id[i.paper_id]
        assert i.quote == getattr(src, i.field) and i.text == i.quote  # verbatim, offline text is the quote
        assert len(i.criteria) >= 2 and i.published <= CUTOFF
    assert "2601.99999" not in {i.paper_id for i in got}
    for i in got:
        if "inspired by" in i.quote:
            assert i.kind == "transdisciplinarity"  # "inspired by human cognition"
        elif "improves" in i.quote:
            assert i.kind == "hypothesis"  # "improves ... by 10%": a testable outcome
        elif "remains costly" in i.quote:
            assert i.kind == "limitation"
        else:
            assert i.kind == "methodology" and i.quote.startswith("We propose")
    # one criterion is not enough (the paper: at least two of four)
    thin = records[0].model_copy(
        update={
            "papers": [
                records[0]
                .papers[0]
                .model_copy(
                    update={
                        "problem": "Agents browse the web for users in daily life settings today.",
                        "method": "",
                        "limitation": "",
                        "evaluation_focus": "",
                    }
                )
            ]
        }
    )
    assert extract_inspirations([thin], CUTOFF) == []


# ---- the family: build, gold, answers, controls ---------------------------------------------------


def test_phase_tasks_are_tagged_by_phase_and_keep_the_cutoff(built):
    records, public, window, tasks, builds, golds, _, _ = built
    assert {t.subtype for t in tasks} == {"synthesize", "design", "evaluate"}
    future_ids = {p.arxiv_id for p in window}
    public_ids = {p.arxiv_id for p in public}
    build_of = {b.task_id: b for b in builds}
    for t in tasks:
        text = t.model_dump_json()
        assert not any(f in text for f in future_ids)  # nothing from the window reaches the public task
        assert set(t.support_paper_ids) <= public_ids and t.cutoff == CUTOFF
        ins = json.loads(build_of[t.task_id].curation["inspirations"])
        shown = build_of[t.task_id].curation["primary_quote"]  # the readable part of the verbatim sentence
        assert shown in ins[0]["quote"] and f'"{shown}"' in t.question and ins[0]["paper_id"] in t.question
        assert t.question.lower().startswith({"synthesize": "synthesize", "design": "design", "evaluate": "evaluate"}[t.subtype])
        kinds = {"synthesize": {"limitation"}, "design": {"methodology", "transdisciplinarity"}, "evaluate": {"hypothesis"}}[
            t.subtype
        ]
        assert ins[0]["kind"] in kinds


def test_phase_gold_is_the_window_papers_that_pursued_the_inspiration(built):
    _, public, window, tasks, builds, golds, _, _ = built
    win = {p.arxiv_id: p for p in window}
    pursued = [g for g in golds if g.strength > 0]
    assert pursued, [g.numbers for g in golds]
    for g in pursued:
        assert g.preferred_ranking == ["pursued"] and set(g.future_paper_ids) <= set(win)
        for slot in g.slots:  # reference keypoints: verbatim sentences of window papers
            assert any(slot.variants[0] in win[p].abstract for p in g.future_paper_ids)
        assert g.numbers["claims_verified"] == len(g.claims)  # every claim recomputes (window_count, quote_in_window)
        assert g.numbers["stability_top1"] >= 0.8
    # a claim whose quote is not in its window paper does not verify
    g = pursued[0]
    bad = g.claims[1].model_copy(update={"text": "A sentence no window paper wrote."})
    assert check_claim(bad, g, ClaimContext(public, window, [], CUTOFF)) is not None


def test_offline_baselines_answer_from_the_kb_and_all_three_scorers_apply(built):
    _, public, _, tasks, _, golds, view, embed = built
    answers = []
    for method in ("retrieval", "momentum"):
        got, failed = run_method(method, tasks, view, embed=embed)
        assert failed == [] and len(got) == len(tasks)
        answers += got
    day = {p.arxiv_id: p.published for p in public}
    assert all(a.decision and all(day[e] <= CUTOFF for e in a.evidence_ids) for a in answers)
    scores, failed = score_answers(answers, tasks, golds, embed, view.dates(), cutoff=CUTOFF, kb_get=view.get)
    assert failed == []
    for s in scores:
        assert s.fta is not None and 0 <= s.values["ace"] <= 1
        if s.values["ksr"] is not None:
            assert abs(s.values["ksr"] + s.values["kcr"] + s.values["kor"] - 1) < 1e-9
    assert any((s.values["ksr"] or 0) > 0 for s in scores)  # the baselines quote their evidence: some support


def test_phase_controls_gold_high_empty_generic_and_other_reference_near_chance(built):
    _, _, _, tasks, _, golds, view, embed = built
    gold_of = {g.task_id: g for g in golds}
    released, answers_seen = [], set()
    for t in tasks:  # the release gate: a gold with evidence, one task per gold answer
        if gate_reason(t, gold_of[t.task_id], Thresholds()) is None and gold_answer(t, gold_of[t.task_id]) not in answers_seen:
            answers_seen.add(gold_answer(t, gold_of[t.task_id]))
            released.append(t)
    assert len(released) >= 3
    controls = control_answers(released, [gold_of[t.task_id] for t in released], draws=20)
    scores, failed = score_answers(controls, released, golds, embed, view.dates(), cutoff=CUTOFF, kb_get=view.get)
    assert failed == []
    ratings = [
        TaskRating(task_id=t.task_id, family="phase", elo=1200.0, rank_in_family=i, released=True, quality=1.0)
        for i, t in enumerate(released, 1)
    ]
    row = validity_rows(released, ratings, golds, [], [], scores, Thresholds())[0]
    assert row["family"] == "phase" and row["control_gold"] >= 0.9
    for k in ("control_empty", "control_every_option", "control_first_option", "control_other_gold"):
        assert row[k] <= row["control_random"] + 0.05, (k, row)
    assert row["passed"], row["problems"]
    empty = [s for s in scores if s.method == "control:empty"]
    assert all(s.values["ace"] == 0.0 and s.values["ksr"] is None for s in empty)  # commits to nothing, cites nothing


# ---- phase: readable public text, related support, no shared quotes, a reference that answers ------------


def test_readable_quote_cuts_connectives_and_refuses_markup_anaphora_and_vague_referents():
    from assets.families.phase import readable_quote

    q = "However, existing web agents fail to recover from invalid actions on long tasks."
    assert readable_quote(q) == "existing web agents fail to recover from invalid actions on long tasks."
    assert (
        readable_quote(
            "To address these challenges, we introduce WebPilot, a planner that recovers from errors on long web tasks."
        )
        == "we introduce WebPilot, a planner that recovers from errors on long web tasks."
    )
    assert readable_quote(q) in q  # still a verbatim substring
    for bad in (
        "We achieve a 31\\% improvement in task completion rate on the WebArena benchmark.",  # LaTeX
        "To this end, we introduce $\\textbf{FutureX}$, a live benchmark for future prediction agents.",
        "Our leaderboard~\\footnote{https://x.io} stays open for the whole research community.",
        "These results show that the planner fails to recover from invalid actions on long tasks.",  # anaphor
        "However, this approach remains costly when agents browse unfamiliar websites for long.",  # referent
        "Our framework improves task success on long web tasks by a wide margin over baselines.",
        "However, agents fail here.",  # a fragment once the connective is cut
    ):
        assert readable_quote(bad) is None, bad
    assert readable_quote("This paper introduces WebPilot, a planner that recovers from errors on long web tasks.")


def test_subject_is_the_descriptive_part_of_the_primary_title():
    from assets.families.phase import subject_of

    assert (
        subject_of("Plan-and-Act: Improving Planning of Agents for Long-Horizon Tasks", "LLM Agents")
        == "Improving Planning of Agents for Long-Horizon Tasks"
    )
    assert (
        subject_of("Measuring Privacy Awareness of Large Language Models: An Evaluation Benchmark", "LLM Agents")
        == "Measuring Privacy Awareness of Large Language Models"
    )
    assert subject_of("A Self-Improving Coding Agent", "LLM Agents") == "Self-Improving Coding Agent"
    assert subject_of("Can Machines Think Like Humans?", "LLM Agents") == "LLM Agents"  # a question: the domain
    assert subject_of("$\\mathcal{X}$-Agent: fast agents", "LLM Agents") == "LLM Agents"  # markup: the domain
    assert subject_of("", "LLM Agents") == "LLM Agents"
    assert "/" not in subject_of("GTA: A Benchmark for General Tool Agents", "LLM Agents")  # never "a / b / c"


def test_phase_sentences_and_the_reference_check():
    from assets.families.phase import answers_task, is_phase_sentence, primary_fits

    assert is_phase_sentence("We propose WebPilot, a hierarchical planner for web navigation agents.", "design")
    assert not is_phase_sentence("Web navigation agents often use hierarchical planners in practice.", "design")
    assert not is_phase_sentence(
        "We develop a systematic evaluation of these planners on web navigation tasks.", "design"
    )  # a study, not a method
    assert is_phase_sentence("Experiments on WebArena show that our planner improves task success by 12%.", "evaluate")
    assert not is_phase_sentence("We propose WebPilot, a hierarchical planner for web navigation agents.", "evaluate")
    assert is_phase_sentence(
        "However, existing web agents remain brittle on long horizons and unseen sites.", "synthesize"
    )  # the gap the paper took up
    assert not is_phase_sentence("We propose $\\alpha$-Pilot, a planner for web navigation agents.", "design")
    primary = "existing web navigation agents fail to recover from invalid actions on long tasks."
    good = "We propose WebPilot, a planner for web navigation that recovers from invalid actions."
    assert answers_task(good, primary, 0.6)
    assert not answers_task(good, primary, 0.4)  # not close enough
    assert not answers_task("We propose a new protein folding model for drug design.", primary, 0.9)  # no shared topic
    # the domain's everyday words do not name the topic; one rare stem does, two ordinary ones do
    everyday = {"web": 0.4, "navig": 0.3, "invalid": 0.08, "action": 0.08, "recover": 0.08}
    assert answers_task(good, primary, 0.6, everyday)  # invalid, action, recover: ordinary, three of them
    assert not answers_task("We propose a planner for web navigation that recovers quickly.", primary, 0.6, everyday)
    assert answers_task(
        "We propose a planner for web navigation that recovers quickly.", primary, 0.6, {**everyday, "recover": 0.01}
    )  # one rare stem is enough
    assert primary_fits("synthesize", primary) and not primary_fits("synthesize", "We propose WebPilot for agents.")
    assert primary_fits("design", "We propose WebPilot, a planner for web navigation agents.")
    assert primary_fits("evaluate", "Experiments show that WebPilot improves task success by 12% on WebArena.")
    assert not primary_fits("evaluate", "We propose WebPilot, which improves task success by 12% on WebArena.")


def test_phase_public_text_is_readable_quotes_are_never_shared_and_support_is_related(built):
    from assets.families.phase import MARKUP, SUPPORT_COS, on_topic, quoted_keys, sentence_vectors

    records, _, _, tasks, builds, _, _, _ = built
    keys: list[str] = []
    for t, b in zip(tasks, builds):
        assert not MARKUP.search(t.title + " " + t.question) and "/" not in t.title
        assert not re.search(r'"(?:however|moreover|to address)', t.question, re.I)
        keys += sorted(quoted_keys([t.question]))
        if b.curation["support_quote"]:
            v = sentence_vectors([b.curation["primary_quote"], b.curation["support_quote"]])
            assert float(v[0] @ v[1]) >= SUPPORT_COS - 1e-6 and float(b.curation["support_cos"]) >= SUPPORT_COS
            # on the task's topic: the support quote is about the primary paper's subject (issue 32)
            w = sentence_vectors([b.curation["primary_title"], b.curation["support_quote"]])
            assert on_topic(b.curation["support_quote"], b.curation["primary_title"], float(w[0] @ w[1]))
    assert len(keys) == len(set(keys))  # no two tasks (nor one task twice) quote the same sentence
    assert len({json.loads(b.curation["inspirations"])[0]["paper_id"] for b in builds}) == len(builds)


def test_phase_build_skips_markup_and_quotes_another_family_already_used():
    from assets.families.phase import PhaseFamily
    from assets.toolbox.building import TaskBuilder

    records, public, _ = world()
    bad = "We propose a $\\mathcal{O}(1)$ hierarchical planner for web navigation agents that scales beyond them."
    rec = records[0]
    rec = rec.model_copy(update={"papers": [rec.papers[0].model_copy(update={"method": bad})] + rec.papers[1:]})
    builder = TaskBuilder([], [rec] + records[1:], settings(per_family_max=12), None, [])
    builder.papers = public
    earlier = Task(
        task_id="x-venue-01",
        family="venue",
        domain=DOMAIN,
        cutoff=CUTOFF,
        window_start=date(2026, 1, 1),
        window_end=WINDOW_END,
        horizon="6-month",
        title="Venue",
        instructions="",
        answer_requirements=[],
        question=f'Project description: "{records[1].papers[0].problem}" Rank the venues.',
    )
    builder.tasks.append(earlier)
    PhaseFamily().build(builder)
    phase = [t for t in builder.tasks if t.family == "phase"]
    assert phase and all("mathcal" not in t.question for t in phase)
    assert all(records[1].papers[0].problem not in t.question for t in phase)  # the venue task quotes it already


@pytest.fixture(scope="module")
def unanswered(built):
    """The built tasks' golds against a window whose pursuing papers only restate their topic
    (no own-work sentence of any phase): every pursued task fails the reference check."""
    _, public, window, tasks, builds, _, _, _ = built
    flat = [
        p.model_copy(
            update={
                "abstract": " ".join(s for s in re.split(r"(?<=[.!?])\s+", p.abstract) if s.startswith("Existing") is False)
                .replace("We propose", "Prior studies describe")
                .replace("Experiments show our", "Practitioners discuss the")
            }
        )
        for p in window
    ]
    embed = load_embedder().encode
    return build_gold(tasks, builds, [], [], public, flat, embed, cutoff=CUTOFF, window_end=WINDOW_END)


def test_phase_reference_is_what_pursuing_papers_did_and_passes_the_check(built):
    from assets.families.phase import MIN_REFERENCE, answers_phase, answers_task, restates, sentence_vectors

    _, _, window, tasks, builds, golds, _, _ = built
    win = {p.arxiv_id: p for p in window}
    build_of = {b.task_id: b for b in builds}
    checked = 0
    for t, g in zip(tasks, golds):
        if g.strength <= 0:
            continue
        primary = build_of[t.task_id].curation["primary_quote"]
        papers = [c.basis.paper_ids[0] for c in g.claims if c.basis.check == "quote_in_window"]
        assert len(set(papers)) == len(papers) >= MIN_REFERENCE  # one sentence per paper, from distinct papers
        for slot in g.slots:
            s = slot.variants[0]
            assert answers_phase(s, t.subtype)  # what the paper did, answering the task's phase
            assert not restates(s, [build_of[t.task_id].curation["primary_quote"]])
            assert any(s in win[p].abstract for p in papers) and set(papers) <= set(g.future_paper_ids)
            v = sentence_vectors([primary, s])
            assert answers_task(s, primary, float(v[0] @ v[1]))
            checked += 1
        if t.subtype == "evaluate":
            assert all("%" in s.variants[0] or "benchmark" in s.variants[0] for s in g.slots)
    assert checked >= 6


def test_phase_task_whose_reference_does_not_answer_is_not_released(built, unanswered):
    from assets.families.phase import PhaseFamily

    _, _, _, tasks, _, _, _, _ = built
    pursued = [(t, g) for t, g in zip(tasks, unanswered) if g.strength > 0]
    assert pursued  # the window papers still pursue the inspirations ...
    for t, g in pursued:  # ... but say nothing of the phase's kind: no reference, and the gate records why
        problems = PhaseFamily().validity_problems(t, g)
        assert problems and problems[0].startswith("reference does not answer the task")
        assert gate_reason(t, g, Thresholds()).startswith("reference does not answer the task")


def test_shared_quotes_flag_names_tasks_quoting_the_same_sentence():
    from assets.audit.flags import shared_quote_flags

    def task(tid, question):
        return Task(
            task_id=tid,
            family="phase",
            domain=DOMAIN,
            cutoff=CUTOFF,
            window_start=date(2026, 1, 1),
            window_end=WINDOW_END,
            horizon="6-month",
            title=tid,
            instructions="",
            answer_requirements=[],
            question=question,
        )

    s = "However, existing web agents fail to recover from invalid actions on long tasks."
    tasks = [
        task("a", f'Synthesize ... reported: "{s}" Integrate ...'),
        task(
            "b",
            'Design ... proposed: "we introduce WebPilot, a planner for long web tasks." A related open '
            'problem: "existing web agents fail to recover from invalid actions on long tasks."',
        ),
        task("c", 'Evaluate ... reported: "Experiments show that WebPilot improves task success by 12%."'),
    ]
    flags = shared_quote_flags(tasks, selected={"b"})
    assert set(flags) == {"a", "b"}  # the trimmed quote is the same quote
    assert flags["a"][0].code == "shared_quotes" and "b (selected)" in flags["a"][0].detail
    assert "a (held back)" in flags["b"][0].detail


def test_a_short_quoted_name_never_pairs_with_the_next_quote():
    from assets.audit.flags import quote_keys

    # a template that quotes a short subject, then a sentence: the text between the two quotes is no quote
    q = (
        'In research on "GUI agents", as of 2025-12-31, identify one root bottleneck that recurs. A paper says: '
        '"GUI agents fail to ground actions on dense screens."'
    )
    assert quote_keys(q) == ["gui agents fail to ground actions on dense screens"]


# ---- KAE: hand-computed cases ---------------------------------------------------------------------


SOURCES = {
    "p1": "Agents with a hierarchical planner reach 62% task success on WebArena. "
    "The planner reduces invalid actions by 30% on long tasks. Related work is reviewed in section two.",
    "p2": "Agents with a hierarchical planner reach 62% task success on WebArena. "
    "Memory retrieval improves recall accuracy for dialogue agents over long sessions.",
}


def test_kae_keypoints_are_deduplicated_and_labelled_with_rates_summing_to_one():
    per = {s: kae_mod.extract_keypoints(t) for s, t in SOURCES.items()}
    assert per["p1"][:2] == [
        "Agents with a hierarchical planner reach 62% task success on WebArena.",
        "The planner reduces invalid actions by 30% on long tasks.",
    ]
    uek = kae_mod.unify(per)
    assert [kp for _, kp in uek] == [per["p1"][0], per["p1"][1], per["p2"][1]]  # the shared sentence once
    report = (
        "Agents using a hierarchical planner reach 62% task success on WebArena. "
        "The planner does not reduce invalid actions on long tasks."
    )
    r = kae_mod.kae_offline(report, SOURCES)
    assert r.labels == ["supported", "conflicting", "omitted"]
    assert r.rates() == {"ksr": 1 / 3, "kcr": 1 / 3, "kor": 1 / 3}
    numbers = kae_mod.kae_offline("Agents with a hierarchical planner reach 41% task success on WebArena.", SOURCES)
    assert numbers.labels[0] == "conflicting"  # same statement, another number
    assert kae_mod.kae_offline(report, {}).rates() == {"ksr": None, "kcr": None, "kor": None}  # no UEK: undefined


def test_answer_body_drops_the_header_and_the_evidence_titles():
    text = (
        "## Design: web agents\n\n*phase answer by `x` (y); knowledge cutoff 2025-12-31.*\n\nMy report.\n\n"
        "**Evidence (pre-cutoff knowledge base):**\n- [p1] A title that says everything (2025-05-03)\n"
    )
    assert kae_mod.answer_body(text).strip() == "My report."


# ---- ACE: hand-computed cases, stored checklists, re-derivation --------------------------------------


def test_ace_weighted_sum_and_normalised_weights():
    items = [
        ace_mod.ChecklistItem(item_id="a", title="A", description="", weight=2.0),
        ace_mod.ChecklistItem(item_id="b", title="B", description="", weight=1.0),
        ace_mod.ChecklistItem(item_id="c", title="C", description="", weight=1.0),
    ]
    c = ace_mod.Checklist(task_id="t", family="phase", items=items).normalised()
    assert [i.weight for i in c.items] == [0.5, 0.25, 0.25]
    assert ace_mod.ace_score(c, {"a": 1.0, "b": 0.5, "c": 0.0}) == pytest.approx(0.625)
    assert ace_mod.ace_score(c, {"a": 2.0}) == pytest.approx(0.5)  # item scores are clipped to [0, 1]
    for phase in ("synthesize", "design", "evaluate"):
        assert sum(w for *_, w in ace_mod.PHASE_ITEMS[phase]) == pytest.approx(1.0)


def test_checklist_reads_only_the_public_prompt(built):
    _, _, _, tasks, _, golds, _, _ = built
    t = tasks[0]
    c = ace_mod.offline_checklist(t, t.subtype)
    assert c.prompt_sha == ace_mod.prompt_sha(t) and c.items[1].check == "subject"
    assert set(c.items[1].terms) <= set(re.findall(r"[a-z][a-z0-9\-]+", f"{t.title} {t.question}".lower()))
    assert ace_mod.offline_checklist(t, t.subtype) == c  # deterministic
    changed = t.model_copy(update={"question": t.question + " Mention quantum annealing schedules."})
    assert ace_mod.offline_checklist(changed, t.subtype) != c  # adapted to the prompt


def test_checklists_are_stored_with_the_release_and_scores_rederive(built):
    _, _, _, tasks, _, golds, view, embed = built
    lists = release_checklists(tasks)
    assert [c.task_id for c in lists] == sorted(t.task_id for t in tasks)
    ratings = [
        TaskRating(task_id=t.task_id, family="phase", elo=1200.0, rank_in_family=i, released=i % 2 == 1, quality=1.0)
        for i, t in enumerate(tasks, 1)
    ]
    public, _, manifest = release_files(
        tasks,
        ratings,
        golds,
        [],
        domain=DOMAIN,
        cutoff=str(CUTOFF),
        window_end=str(WINDOW_END),
        horizon_months=6,
        corpus_version="c",
        taxonomy_version="t",
        checklists=[ace_mod.checklist_row(c) for c in lists],
    )
    stored = [ace_mod.Checklist.model_validate_json(line) for line in public["checklists.jsonl"].decode().splitlines()]
    released = {r.task_id for r in ratings if r.released}
    assert {c.task_id for c in stored} == released and manifest["counts"]["checklists"] == len(released)
    assert "checklists.jsonl" in manifest["sha256"]
    answers, _ = run_method("retrieval", [t for t in tasks if t.task_id in released], view, embed=embed)
    scores, _ = score_answers(
        answers, tasks, golds, embed, view.dates(), cutoff=CUTOFF, kb_get=view.get, checklists={c.task_id: c for c in stored}
    )
    by_task = {c.task_id: c for c in stored}
    for a, s in zip(answers, scores):  # re-derived from the stored checklist and the stored answer alone
        c = by_task[a.task_id]
        assert s.values["ace"] == pytest.approx(ace_mod.ace_score(c, ace_mod.offline_item_scores(c, a)))


# ---- model-backed paths through a loopback OpenAI-compatible server ----------------------------------


def _fake_openai(log: list[str]):
    def reply(content: dict) -> Reply:
        return Reply.json(
            {
                "id": "c",
                "object": "chat.completion",
                "created": 0,
                "model": "arena-mock",
                "choices": [
                    {"index": 0, "finish_reason": "stop", "message": {"role": "assistant", "content": json.dumps(content)}}
                ],
                "usage": {"prompt_tokens": 100, "completion_tokens": 20, "total_tokens": 120},
            }
        )

    def handle(req):
        prompt = req.json()["messages"][-1]["content"]
        if "Inspira Agent" in prompt:
            log.append("inspirations")
            first = re.search(r"^1\. \[[^\]]+\] (.+)$", prompt, re.M).group(1)
            return reply(
                {
                    "inspirations": [
                        {
                            "kind": "limitation",
                            "inspiration": "Long horizons break agents.",
                            "quote": first,
                            "criteria": ["challenge", "explorability"],
                        },
                        {
                            "kind": "hypothesis",
                            "inspiration": "made up",
                            "quote": "A sentence nobody wrote.",
                            "criteria": ["novelty", "verifiability"],
                        },
                    ]
                }
            )
        if "KEY_POINT_EXTRACTION" in prompt:
            log.append("kae_extract")
            ids = re.findall(r"^\[([^\]]+)\]", prompt, re.M)
            words = ["alpha", "bravo", "charlie", "delta", "echo", "foxtrot", "golf", "hotel"]
            return reply(
                {
                    "sources": [
                        {"source": i, "keypoints": [f"{words[k]} {words[k]}x {words[k]}y observed.", "A shared fact."]}
                        for k, i in enumerate(ids)
                    ]
                }
            )
        if "KEY_POINT_RELEVANCE" in prompt:
            log.append("kae_label")
            n = len(re.findall(r"^\d+\. ", prompt.rsplit("Key points:", 1)[1], re.M))
            return reply(
                {"labels": [{"index": i, "label": "supported" if i == 1 else "conflicting"} for i in range(1, n)]}
            )  # the last one unlabelled: omitted
        if "CHECKLIST_TEMPLATE" in prompt:
            log.append("ace_checklist")
            return reply(
                {
                    "items": [
                        {"title": "Coverage", "description": "covers the subject", "weight": 3},
                        {"title": "Rigour", "description": "tests and baselines", "weight": 1},
                    ]
                }
            )
        if "SINGLE_CRITERION" in prompt:
            log.append("ace_score")
            return reply({"scores": [{"index": 1, "score": 8}, {"index": 2, "score": 4}]})
        return Reply.json({"error": "unexpected prompt"}, status=400)

    return handle


def _client(server, tmp_path, name="openai/arena-mock"):
    return LLMClient(
        name,
        api_base=server.url + "/v1",
        api_key="x",
        cache_dir=str(tmp_path / "cache"),
        max_retries=1,
        backoff_s=0.0,
        timeout_s=5,
    )


def test_model_backed_inspirations_kae_and_ace_through_a_loopback_server(built, tmp_path):
    records, _, _, tasks, _, golds, view, embed = built
    log: list[str] = []
    with Loopback(_fake_openai(log)) as server:
        client = _client(server, tmp_path)
        drafted = draft_inspirations(client, records[:2], CUTOFF)
        assert log.count("inspirations") == 2  # one call per record
        assert {i.extractor for i in drafted} == {"openai/arena-mock"}  # model-drafted, verified quotes only
        assert all(i.kind == "limitation" and i.text == "Long horizons break agents." for i in drafted)
        assert all(any(i.quote == getattr(p, i.field) for p in r.papers) for i, r in zip(drafted, records[:2]))

        task = tasks[0]
        lists = release_checklists([task], client)  # stage one: one call per task
        assert lists[0].generated_by == "openai/arena-mock" and [i.weight for i in lists[0].items] == [0.75, 0.25]
        answer, _ = run_method("retrieval", [task], view, embed=embed)
        assert answer[0].evidence_ids
        judge = _client(server, tmp_path, "openai/arena-judge")
        log.clear()
        scores, failed = score_answers(
            answer,
            [task],
            golds,
            embed,
            view.dates(),
            cutoff=CUTOFF,
            judge_client=judge,
            kb_get=view.get,
            checklists={task.task_id: lists[0]},
        )
        assert failed == []
        assert log == ["kae_extract", "kae_label", "ace_score"]  # batched: two KAE calls, one ACE call per answer
        s = scores[0]
        assert s.values["ace"] == pytest.approx(0.75 * 0.8 + 0.25 * 0.4)
        n = len(answer[0].evidence_ids) + 1  # each source's own fact + the shared fact, de-duplicated
        assert s.values["ksr"] == pytest.approx(1 / n) and s.values["kor"] == pytest.approx(1 / n)
        assert s.values["kcr"] == pytest.approx((n - 2) / n)
        assert s.judge_calls == 3


def test_a_failed_model_call_falls_back_and_is_recorded(built, tmp_path):
    records, _, _, tasks, _, golds, view, embed = built
    with Loopback(lambda req: Reply.json({"error": "down"}, status=500)) as server:
        client = _client(server, tmp_path, "openai/arena-down")
        drafted = draft_inspirations(client, records[:1], CUTOFF)
        assert drafted and {i.extractor for i in drafted} == {"rules"}  # the offline extractor stands in
        answer, _ = run_method("retrieval", tasks[:1], view, embed=embed)
        scores, failed = score_answers(
            answer, tasks[:1], golds, embed, view.dates(), cutoff=CUTOFF, judge_client=client, kb_get=view.get
        )
        s = scores[0]
        assert s.values["ksr"] is not None  # KAE: the offline proxy scored it
        assert {f.reason.split(":")[0] for f in failed} >= {"kae", "ace checklist"}

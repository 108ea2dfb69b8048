"""No agent input ever contains gold or a post-cutoff paper.

Every registered agent — the offline baselines, the five LLM methods, anything registered
later — and an external agent over both transports runs on tasks whose hidden gold is built from real post-cutoff papers
that sit in the very same LanceDB table as the knowledge base. Everything any agent
receives is recorded: every message list the LLM client gets, every KB result handed to
a method, and everything an external agent receives (task, pre-sent evidence, KB
responses). None of it may contain a gold text or a post-cutoff paper's id or title.
"""

import json
import threading

from assets.agents.external import run_external
from assets.agents.registry import agent_names
from assets.agents.runner import run_method
from core.records import GoldClaim, GoldSlot, GoldTarget
from docs.examples import byo_agent
from tests.factories import AGENT_CUTOFF as CUTOFF
from tests.factories import TEST_REGISTRY, RecordingClient, sample_tasks


class RecordingView:
    """The cutoff-bound view, recording every result it hands out."""

    def __init__(self, view):
        self._view, self.cutoff, self.out = view, view.cutoff, []

    def search(self, query, k=10, mode="hybrid"):
        hits = self._view.search(query, k=k, mode=mode)
        self.out.append(json.dumps([h.model_dump(mode="json") for h in hits]))
        return hits

    def get(self, arxiv_id):
        hit = self._view.get(arxiv_id)
        self.out.append(json.dumps(hit.model_dump(mode="json") if hit else None))
        return hit

    def dates(self):
        got = self._view.dates()
        self.out.append(json.dumps({k: v.isoformat() for k, v in got.items()}))
        return got

    def monthly_volume(self):
        got = self._view.monthly_volume()
        self.out.append(json.dumps(got))
        return got


def recording_agent(log):
    """The example agent, recording everything it receives (task, pre-sent evidence, KB results)."""

    class KB:
        def __init__(self, kb):
            self._kb = kb
            log.append(json.dumps(getattr(kb, "evidence", [])))

        def search(self, query, k=10, mode="hybrid"):
            out = self._kb.search(query, k, mode)
            log.append(json.dumps(out))
            return out

        def get(self, arxiv_id):
            out = self._kb.get(arxiv_id)
            log.append(json.dumps(out))
            return out

    def answer(task, kb):
        log.append(json.dumps(task))
        return byo_agent.answer(task, KB(kb))

    return answer


def gold_for(tasks, future):
    """Hidden targets as the gold stage builds them: from the future window's papers."""
    gold = []
    for i, t in enumerate(tasks):
        papers = future[4 * i : 4 * i + 4]
        gold.append(
            GoldTarget(
                task_id=t.task_id,
                family=t.family,
                domain=t.domain,
                cutoff=t.cutoff,
                preferred_ranking=[o.option_id for o in reversed(t.options)],
                trajectory="fragmenting",
                slots=[GoldSlot(slot="future_direction", variants=[p.title for p in papers[:2]])],
                claims=[
                    GoldClaim(
                        claim_id=f"{t.task_id}-c{j}",
                        type="future-realisation",
                        time_scope="window",
                        text=f"Within the window, work such as '{p.title}' realises the forecast direction.",
                    )
                    for j, p in enumerate(papers)
                ],
                future_paper_ids=[p.arxiv_id for p in papers],
            )
        )
    return gold


def needles(gold, future) -> list[str]:
    out = [p.arxiv_id for p in future] + [p.title.lower() for p in future]
    for g in gold:
        out += [c.text.lower() for c in g.claims] + [v.lower() for s in g.slots for v in s.variants]
    return [n for n in out if len(n) >= 10]


def leaks(haystack: str, probes: list[str]) -> list[str]:
    return [n for n in probes if n in haystack]


def test_no_agent_input_ever_contains_gold_or_a_post_cutoff_paper(sample_kb, sample_papers, embed, tmp_path):
    future = [p for p in sample_papers if p.published > CUTOFF]
    assert len(future) >= 16
    tasks = sample_tasks()
    # make the probe hard: one task asks about a future paper by its exact title, and one lists
    # future paper ids among its support papers (a task builder's bug the view must absorb)
    tasks[0] = tasks[0].model_copy(
        update={"question": f"Which will gain the most momentum after work like {future[20].title[:40]}?"}
    )
    tasks[1] = tasks[1].model_copy(update={"support_paper_ids": [future[21].arxiv_id, future[22].arxiv_id]})
    gold = gold_for(tasks, future[:16])
    public = "\n".join(t.model_dump_json() for t in tasks).lower()
    probes = [n for n in needles(gold, future) if n not in public]  # what the public task itself says is given
    assert len(probes) > 100

    view = RecordingView(sample_kb)
    client = RecordingClient(tmp_path)
    answers = []
    for method in agent_names():  # every registered agent, so a new one is covered without editing this test
        got, failures = run_method(method, tasks, view, llm_client=client, embed=embed, registry=TEST_REGISTRY, max_concurrency=2)
        assert failures == [], (method, failures)
        answers += got
    external_log: list[str] = []
    import docs.examples.byo_agent as mod

    mod.recording_answer = recording_agent(external_log)
    got, failures = run_external("docs.examples.byo_agent:recording_answer", tasks, view)
    assert failures == []
    answers += got
    server = byo_agent.make_server("127.0.0.1", 0, answer_fn=recording_agent(external_log))
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        got, failures = run_external(f"http=http://127.0.0.1:{server.server_address[1]}/answer", tasks, view)
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=5)
    assert failures == []
    answers += got

    # every method answered every task, and the recording is substantial
    assert {a.method for a in answers} == set(agent_names()) | {"ext:recording_answer", "ext:http"}
    assert len(agent_names()) >= 7
    prompts = [m["content"] for msgs in client.seen for m in msgs]
    assert len(prompts) > 100 and len(view.out) > 100 and len(external_log) > 20
    haystack = "\n".join(prompts + view.out + external_log).lower()
    visible_cited = {e for a in answers for e in a.evidence_ids}
    assert visible_cited and all(e in haystack for e in visible_cited)  # the evidence itself is in there

    assert leaks(haystack, probes) == []
    assert not {e for a in answers for e in a.evidence_ids} & {p.arxiv_id for p in future}
    plan = next(a for a in answers if a.method == "research_agent" and a.task_id == tasks[1].task_id)
    assert not {future[21].arxiv_id, future[22].arxiv_id} & set(json.loads(plan.artifacts["support_packet"]))
    # the detector is not vacuous: one planted future title is found
    assert leaks(haystack + "\n" + future[3].title.lower(), probes) == [future[3].title.lower()]
    # external agents receive the task exactly as published
    tasks_seen = [json.loads(x) for x in external_log if x.startswith('{"task_id"')]
    assert len(tasks_seen) == 2 * len(tasks)
    assert all(set(t) == set(tasks[0].model_dump()) for t in tasks_seen)

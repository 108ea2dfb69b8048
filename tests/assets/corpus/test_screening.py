"""Screening and deduplication: near-duplicate titles on real shipped pairs, prefix filtering
against brute force, the offline benchmark-core rule, and the LLM screener through the real
LLM doorway against a loopback OpenAI-compatible server (batched, cached, failures kept)."""

import json
import random
import re
from datetime import date

import pytest

from assets.corpus.screening import (
    core_cues,
    deduplicate,
    jaccard,
    llm_screen,
    offline_screen,
    screen_corpus,
    title_tokens,
)
from core.papers import SHIPPED_DIR, read_jsonl
from core.records import Paper
from core.registry import load_registry
from resources.embeddings import load_embedder
from resources.llm import LLMClient
from tests.loopback import Loopback, Reply

DESCRIPTIONS = {k: v.description for k, v in load_registry().domains.items()}


def _p(aid, title, day, abstract="We study agents."):
    return Paper(arxiv_id=aid, title=title, abstract=abstract, published=day)


@pytest.fixture(scope="module")
def agent_corpus():
    papers, _ = read_jsonl(SHIPPED_DIR / "llm_agent.jsonl.gz")
    return papers


def test_real_near_duplicate_titles_collapse_to_the_earliest_submission(agent_corpus):
    kept, links = deduplicate(agent_corpus)
    near = {(k.dropped_id, k.kept_id) for k in links if k.method == "near_title"}
    # the same paper submitted twice under two ids (real shipped records)
    assert ("2608.04311", "2507.06506") in near  # "Pun Intended: Multi-Agent Translation of Wordplay ..."
    assert ("2605.20190", "2604.05547") in near  # "(COSMO-Agent:) Tool-Augmented Agent for Closed-loop ..."
    kept_ids = {p.arxiv_id for p in kept}
    assert "2507.06506" in kept_ids and "2608.04311" not in kept_ids
    assert len(kept) == len(agent_corpus) - len(links)


def test_versions_and_repeats_collapse_to_first_submission():
    papers = [
        _p("2501.00001v3", "Agents that plan with tools and memory", date(2025, 3, 1)),
        _p("2501.00001", "Agents that plan with tools and memory", date(2025, 1, 5)),
        _p("2501.00009", "A benchmark for web agents", date(2025, 1, 9)),
    ]
    kept, links = deduplicate(papers)
    assert [(p.arxiv_id, p.published) for p in kept] == [("2501.00001", date(2025, 1, 5)), ("2501.00009", date(2025, 1, 9))]
    assert [(k.dropped_id, k.method) for k in links] == [("2501.00001", "arxiv_id")]


def test_different_or_short_titles_are_not_merged():
    papers = [
        _p("1", "Scaling laws for tool-using language model agents part one", date(2025, 1, 1)),
        _p("2", "Scaling laws for tool-using language model agents part two", date(2025, 1, 2)),
        _p("3", "Agent survey", date(2025, 1, 3)),
        _p("4", "Agent Survey!", date(2025, 1, 4)),
    ]
    kept, links = deduplicate(papers)
    assert len(kept) == 4 and links == []  # Jaccard 0.8 < 0.9; 2-token titles are never near-merged


def test_prefix_filtering_finds_exactly_the_brute_force_pairs(agent_corpus):
    rng = random.Random(0)
    sample = rng.sample(agent_corpus, 400)
    papers = list(sample)
    for i, p in enumerate(rng.sample(sample, 60)):  # perturbed copies: drop / change one word, reorder
        words = p.title.split()
        if i % 3 == 0 and len(words) > 10:
            words.pop(rng.randrange(len(words)))
        elif i % 3 == 1:
            words[rng.randrange(len(words))] = "Revisited"
        else:
            rng.shuffle(words)
        papers.append(_p(f"9999.{i:05d}", " ".join(words), date(2026, 12, 1)))
    kept, links = deduplicate(papers)
    ordered = sorted(papers, key=lambda p: (p.published, p.arxiv_id))
    sets = [set(title_tokens(p.title)) for p in ordered]
    brute_dropped = set()
    for i in range(len(ordered)):
        if len(sets[i]) >= 4 and any(jaccard(sets[i], sets[j]) >= 0.9 for j in range(i) if j not in brute_dropped):
            brute_dropped.add(i)
    assert {k.dropped_id for k in links} == {ordered[i].arxiv_id for i in brute_dropped}
    assert len(links) >= 20


def test_offline_core_needs_relevance_and_contribution_and_future_cues():
    embed = load_embedder().encode
    core = _p(
        "1",
        "ToolPlanner: planning tool-using LLM agents for multi-step web tasks",
        date(2025, 1, 1),
        "We propose ToolPlanner, a framework for LLM agents that plan, call tools and browse the web. "
        "We identify error recovery as the key bottleneck of current agents and release a benchmark.",
    )
    no_future = _p(
        "2",
        "ToolPlanner: planning tool-using LLM agents for multi-step web tasks",
        date(2025, 1, 1),
        "We propose ToolPlanner, a framework for LLM agents that plan, call tools and browse the web.",
    )
    off = _p(
        "3",
        "Latent diffusion for text-to-video generation",
        date(2025, 1, 1),
        "We train a video diffusion transformer for high-resolution text-to-video synthesis.",
    )
    a, b, c = offline_screen([core, no_future, off], "llm_agent", DESCRIPTIONS, embed)
    assert a.label == "core" and "contribution cue 'We propose'" in a.reason and "future cue" in a.reason
    assert b.label == "support" and "no future cue" in b.reason
    assert c.label == "excluded"
    assert core_cues(no_future).keys() == {"contribution", "asset"}


# -- the LLM screener through the real doorway ---------------------------------------------

_ID = re.compile(r"^\[([^\]]+)\]", re.M)


def _openai_handler(label_of):
    """A minimal OpenAI-compatible /v1/chat/completions that labels every listed paper."""

    def handle(req):
        prompt = req.json()["messages"][-1]["content"]
        items = [
            {"arxiv_id": pid, "label": label_of(pid), "relevance": 0.8, "reason": f"judged {pid}"} for pid in _ID.findall(prompt)
        ]
        return Reply.json(
            {
                "id": "c",
                "object": "chat.completion",
                "created": 0,
                "model": "screen-mock",
                "choices": [
                    {
                        "index": 0,
                        "finish_reason": "stop",
                        "message": {"role": "assistant", "content": json.dumps({"items": items})},
                    }
                ],
                "usage": {"prompt_tokens": 100, "completion_tokens": 20, "total_tokens": 120},
            }
        )

    return handle


def _papers(n=10):
    return [
        _p(
            f"2501.{i:05d}",
            f"Agent paper number {i} on tool use",
            date(2025, 1, 1 + i),
            "We propose an agent framework and identify its limitations.",
        )
        for i in range(n)
    ]


def _client(server, tmp_path):
    return LLMClient(
        "openai/screen-mock",
        api_base=server.url + "/v1",
        api_key="x",
        cache_dir=str(tmp_path / "cache"),
        max_retries=1,
        backoff_s=0.0,
        timeout_s=5,
    )


def test_llm_screen_batches_labels_and_caches(tmp_path):
    papers = _papers(10)
    embed = load_embedder().encode
    with Loopback(_openai_handler(lambda pid: "excluded" if pid.endswith("3") else "core")) as server:
        client = _client(server, tmp_path)
        screened, failures, name = screen_corpus(papers, "llm_agent", "LLM Agents", DESCRIPTIONS, embed, client, batch_size=4)
        assert name == "llm:openai/screen-mock" and failures == []
        assert len(server.requests_to("/v1/chat/completions")) == 3  # 10 papers, 4 per call
        assert {s.arxiv_id: s.label for s in screened}["2501.00003"] == "excluded"
        assert all(s.reason.startswith("LLM screen: judged ") for s in screened)
        again, _, _ = screen_corpus(
            papers, "llm_agent", "LLM Agents", DESCRIPTIONS, embed, _client(server, tmp_path), batch_size=4
        )
        assert len(server.requests_to("/v1/chat/completions")) == 3  # all from the cache
        assert [s.model_dump() for s in again] == [s.model_dump() for s in screened]


def test_a_failed_llm_batch_keeps_offline_labels_with_failure_rows_and_reruns_only_it(tmp_path):
    from tests.loopback import Fault

    papers = _papers(8)
    offline = offline_screen(papers, "llm_agent", DESCRIPTIONS, load_embedder().encode)
    with Loopback(_openai_handler(lambda pid: "support")) as server:
        server.sticky["/v1/chat/completions"] = lambda req: (
            Fault.http(500) if "[2501.00005]" in req.json()["messages"][-1]["content"] else None
        )
        screened, failures = llm_screen(
            papers, "llm_agent", "LLM Agents", DESCRIPTIONS["llm_agent"], _client(server, tmp_path), offline, batch_size=4
        )
        assert sorted(f.item_id for f in failures) == [f"2501.{i:05d}" for i in range(4, 8)]
        assert all("LLM screen failed" in f.reason for f in failures)
        by_id = {s.arxiv_id: s for s in screened}
        assert by_id["2501.00000"].label == "support" and by_id["2501.00000"].reason.startswith("LLM screen")
        assert by_id["2501.00006"].label == offline[6].label and by_id["2501.00006"].reason.startswith("offline screen")
        del server.sticky["/v1/chat/completions"]
        n = len(server.requests_to("/v1/chat/completions"))
        screened, failures = llm_screen(
            papers, "llm_agent", "LLM Agents", DESCRIPTIONS["llm_agent"], _client(server, tmp_path), offline, batch_size=4
        )
        assert failures == [] and len(server.requests_to("/v1/chat/completions")) == n + 1
        assert {s.label for s in screened} == {"support"}

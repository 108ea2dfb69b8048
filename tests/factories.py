"""Test helpers shared by several test files: canned model replies through the real
LLM client path, and small record builders."""

from __future__ import annotations

import json
from collections.abc import Callable
from datetime import date, timedelta
from pathlib import Path
from typing import Literal, get_args, get_origin

from pydantic import BaseModel

from core.records import (
    EvidenceRecord,
    PaperEvidence,
    ScreenedPaper,
    Signal,
    Task,
    TaskOption,
)

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


# -- task-building inputs: candidates, evidence, bottlenecks, feasibility, venue profiles ------

DOMAIN = "llm_agent"
CUTOFF = date(2025, 12, 31)
WINDOW_END = date(2026, 6, 30)
VENUES = [("ACL/EMNLP/NAACL", 40), ("AAAI/IJCAI", 0), ("CVPR/ICCV/ECCV", 25), ("ICLR/ICML/NeurIPS", 90), ("SIGIR/KDD", 0)]
BOTTLENECKS = [("hallucination", "However, agents suffer from hallucination of tool outputs."),
               ("high latency", "Planning suffers from high latency."),
               ("prompt injection", "Agents are vulnerable to prompt injection."),
               ("lack of annotated data", "Training is limited by the scarcity of annotated data.")]
TOPICS = ["tool use", "web navigation", "memory", "planning", "reflection", "multi-agent debate",
          "code repair", "gui control", "theorem proving", "travel booking", "negotiation", "data analysis"]


def node(dim: str, k: int) -> str:
    return f"{DOMAIN}:{dim}:n{k}"


APPROACHES = {0: ("reinforcement learning", "tree search", "world models", "synthetic data", "self-reflection"),
              7: ("visual grounding", "screen parsing", "trajectory replay", "action verification", "UI graphs")}


def make_task_inputs(n_papers: int = 12, with_duplicate: bool = False):
    """12 candidates (6 per dimension), 3 of them (0, 3, 7) with four limitations their papers
    mention, all with feasibility, 5 approaches inside 2 of them, 5 venue profiles."""
    signals, records = [], []
    for k, topic in enumerate(TOPICS):
        dim = "methodologies" if k < 6 else "tasks"
        nid = node(dim, k)
        pids = [f"2501.{k:02d}{i:03d}" for i in range(n_papers)]
        signals.append(Signal(
            signal_id=f"sig:cand:{k}", kind="candidate_direction", domain=DOMAIN, cutoff=CUTOFF,
            title=f"{topic} / agents", summary=f"Agents for {topic}.", node_ids=[nid], evidence_ids=[f"ev:{nid}"],
            paper_ids=pids, stats={"n_papers": n_papers, "share_recent": 0.01 * (k + 1), "share_prior": 0.05,
                                   "growth": 0.2 * (k % 6 + 1), "age_months": 12, "slope": 0.0},
            details={"keywords": [topic.split()[0], "llm", "benchmark"],
                     "representative_titles": [f"A Study of {topic.title()} Agents"]}))
        records.append(EvidenceRecord(
            record_id=f"ev:{nid}", node_id=nid, domain=DOMAIN, cutoff=CUTOFF, node_label=topic,
            representative_ids=pids[:3], supporting_ids=pids,
            papers=[PaperEvidence(arxiv_id=p, published=date(2025, 1 + i % 12, 1),
                                  problem=f"Agents for {topic} fail on long horizons (case {i}).",
                                  method=f"We propose a {topic} planner with verification (variant {i}).",
                                  limitation=f"The {topic} planner is costly (case {i}).")
                    for i, p in enumerate(pids)]))
        signals.append(Signal(
            signal_id=f"sig:feas:{k}", kind="feasibility", domain=DOMAIN, cutoff=CUTOFF, title="f", summary="f",
            node_ids=[nid], stats={"support": n_papers, "maturity_months": 14, "n_bottlenecks": 1},
            details={"dependencies": [f"{topic} benchmark"], "risks": ["evaluation saturation"]}))
    for k in (0, 7):  # approaches inside two directions (the planning family's options)
        nid = node("methodologies" if k < 6 else "tasks", k)
        pids = [f"2501.{k:02d}{i:03d}" for i in range(n_papers)]
        for j, name in enumerate(APPROACHES[k]):
            signals.append(Signal(
                signal_id=f"sig:approach:{k}:{j}", kind="approach", domain=DOMAIN, cutoff=CUTOFF, title=name,
                summary=f"{name} in {TOPICS[k]}.", node_ids=[nid], evidence_ids=[f"ev:{nid}"],
                paper_ids=pids[2 * j:2 * j + 2], stats={"n_papers": 2, "n_members": 2, "n_recent_members": 2},
                details={"direction": [f"sig:cand:{k}"], "direction_name": [f"{TOPICS[k]} / agents"],
                         "direction_phrases": [TOPICS[k]], "defining_phrases": [name], "member_ids": pids[2 * j:2 * j + 2],
                         "representative_titles": [f"{name.title()} for {TOPICS[k].title()} Agents"]}))
    # four limitation themes, each mentioned by the papers of candidates 0, 3 and 7 (their subjects)
    subject_papers = [f"2501.{k:02d}{i:03d}" for k in (0, 3, 7) for i in range(n_papers)]
    for j, (name, quote) in enumerate(BOTTLENECKS):
        signals.append(Signal(
            signal_id=f"sig:bn:{j}", kind="bottleneck", domain=DOMAIN, cutoff=CUTOFF, title=name,
            summary=quote, node_ids=[node("methodologies", 0)], evidence_ids=[f"ev:{node('methodologies', 0)}"],
            paper_ids=[f"2501.00{j:03d}"], stats={"recurrence": 3, "n_nodes": 1},
            details={"quotes": [quote], "category": ["technical_risk"], "nodes": [node("methodologies", 0)],
                     "key": [name], "aliases": [name], "mention_ids": subject_papers}))
    if with_duplicate:  # a second candidate on exactly the same papers as candidate 0
        dup = signals[0].model_copy(update={"signal_id": "sig:cand:dup", "node_ids": [node("methodologies", 99)]})
        signals.append(dup)
    for i, (fam, n) in enumerate(VENUES):
        signals.append(Signal(signal_id=f"sig:venue:{i}", kind="venue_profile", domain=DOMAIN, cutoff=CUTOFF, title=fam,
                              summary="", stats={"n_papers": n, "domain_share": 0.1},
                              details={"contribution_styles": ["empirical systems"], "top_terms": ["agents"]}))
    return signals, records


def task_settings(**kw):
    """The task builder's settings for the `make_task_inputs` world."""
    from assets.toolbox.building import BuildSettings

    return BuildSettings(**{"domain": DOMAIN, "domain_title": "LLM Agents", "cutoff": CUTOFF, "window_end": WINDOW_END,
                            "horizon_months": 6, **kw})


# -- the agent tests' world: public tasks of every family over the real llm_agent sample ----

AGENT_CUTOFF = date(2025, 6, 30)  # the agent tests' knowledge-base world
SUBDIRS = ["GUI and web navigation agents", "multi-agent collaboration and debate",
           "tool use and function calling", "memory and reflection for agents"]
VENUE_OPTIONS = ["ICLR/ICML/NeurIPS: machine learning methods, learning theory and large-scale training",
          "ACL/EMNLP/NAACL: natural language processing, language model behaviour and evaluation",
          "CVPR/ICCV/ECCV: computer vision, images and video"]


def make_task(task_id, family, question, options=(), cutoff=AGENT_CUTOFF):
    return Task(task_id=task_id, family=family, domain="llm_agent", cutoff=cutoff,
                window_start=cutoff + timedelta(days=1), window_end=date(cutoff.year + 1, 1, 1) - timedelta(days=1),
                horizon="6 months", title=f"{family} task {task_id}", question=question,
                instructions="Answer from pre-cutoff evidence only.", answer_requirements=["rank all options"],
                options=[TaskOption(option_id=f"o{i}", text=t) for i, t in enumerate(options)])


def sample_tasks(cutoff=AGENT_CUTOFF):
    return [
        make_task("dir1", "direction", "Which subdirection of LLM agents will gain the most momentum?", SUBDIRS, cutoff),
        make_task("plan1", "planning", "Order these directions for a 6-month research agenda.", SUBDIRS[:3], cutoff),
        make_task("bot1", "bottleneck", "What is the root bottleneck in 'GUI and web navigation agents', "
                                        "and what opportunity opens if it is reduced?", (), cutoff),
        make_task("ven1", "venue", "We build an agent that calls external tools and APIs, with a new benchmark "
                                   "of function-calling accuracy for language models.", VENUE_OPTIONS, cutoff),
    ]


def screened_paper(arxiv_id: str, title: str = "t", abstract: str = "a", published: date = date(2025, 1, 10), *,
                   domain: str = "d", label: str = "core", relevance: float = 0.1) -> ScreenedPaper:
    """A screened paper with test defaults."""
    return ScreenedPaper(arxiv_id=arxiv_id, title=title, abstract=abstract, published=published, domain=domain,
                         relevance=relevance, label=label, reason="test")


def sampled_shipped_corpus(corpus_dir, every: int, extra_lines: tuple[str, ...] = ()):
    """Every `every`-th paper of the shipped llm_agent corpus into `corpus_dir` (plus raw
    `extra_lines`, e.g. a malformed record): a small real corpus for end-to-end runs."""
    import gzip

    from core.papers import SHIPPED_DIR

    corpus_dir.mkdir(parents=True, exist_ok=True)
    with gzip.open(SHIPPED_DIR / "llm_agent.jsonl.gz", "rt") as src, \
            gzip.open(corpus_dir / "llm_agent.jsonl.gz", "wt") as dst:
        for i, line in enumerate(src):
            if i % every == 0:
                dst.write(line)
        for line in extra_lines:
            dst.write(line)
    return corpus_dir


def snapshot_partition(tmp_path, papers, domain: str = "llm_agent", cutoff: str = "2025-12-31"):
    """A store holding `papers` as the corpus snapshot of one partition, and an ephemeral
    Dagster instance that knows the partition: (storage, store, instance, partition key)."""
    import dagster as dg

    from assets.partitions import partition_key
    from resources.storage import StorageResource

    storage = StorageResource(root=str(tmp_path / "wh"), duckdb_path=str(tmp_path / "f.duckdb"))
    store = storage.store()
    store.write_records("corpus_snapshot", domain, cutoff, papers, ScreenedPaper)
    instance = dg.DagsterInstance.ephemeral()
    instance.add_dynamic_partitions("cutoff", [cutoff])
    return storage, store, instance, partition_key(domain, cutoff)


# -- venue projects: real titles from the shipped 2026 accepted-paper lists -----------------------

VENUE_PROJECT_TITLES = {  # decided after CUTOFF (2025-12-31): ICLR 2026 (January), CVPR 2026 (February), ACL 2026 (April)
    "ICLR/ICML/NeurIPS": ["Seeing Through Deception: Uncovering Misleading Creator Intent in Multimodal News with "
                          "Vision-Language Models", "Provably Explaining Neural Additive Models",
                          "ImageDoctor: Diagnosing Text-to-Image Generation via Grounded Image Reasoning"],
    "CVPR/ICCV/ECCV": ["3D Space as a Scratchpad for Editable Text-to-Image Generation", "3D-IDE: 3D Implicit Depth Emergent",
                       "4D-RGPT: Toward Region-level 4D Understanding via Perceptual Distillation"],
    "ACL/EMNLP/NAACL": ["OctoTools: A Multi-Agent Framework with Extensible Tools for Complex Reasoning",
                        "No Reader Left Behind: Multi-Agent Summaries Everyone Can Understand",
                        "Discover and Prove: An Open-source Agentic Framework for Hard Mode Automated Theorem Proving "
                        "in Lean 4"],
}


VENUE_PROJECT_TEXT = [  # (problem, gap, approach) per project: distinct words, so no two decisions are duplicates
    ("often fail when dozens of external APIs return malformed outputs", "ignore schema validation of responses",
     "repairs malformed calls with typed contracts"),
    ("lose track of page state across long browsing sessions", "replay entire histories at every click",
     "summarises the visited pages into a compact map"),
    ("forget user preferences after a few conversation turns", "store raw transcripts without any forgetting policy",
     "consolidates episodic traces into stable profiles"),
    ("commit to brittle plans before observing environment feedback", "search exhaustively over action sequences",
     "revises subgoals after every observation"),
    ("repeat the same mistakes across successive attempts", "reflect only in free text that nobody grades",
     "scores critiques against executable unit checks"),
    ("converge to a shared wrong answer during group discussion", "weight every debater equally regardless of track record",
     "assigns votes by calibrated historical accuracy"),
    ("patch failing repositories with edits that break other tests", "localise faults from stack traces alone",
     "ranks candidate patches by regression coverage"),
    ("misclick on dense desktop screens with tiny widgets", "ground instructions on screenshots at a single resolution",
     "zooms into candidate regions before acting"),
    ("stall on olympiad proofs that need long lemma chains", "sample whole proofs without checking intermediate lemmas",
     "verifies each lemma with a formal kernel"),
]


def make_venue_papers(records=None) -> list[ScreenedPaper]:
    """The partition's papers for venue projects: nine recent preprints whose real titles are on a
    2026 accepted-paper list (three per family), with abstracts that describe cleanly, plus every
    evidence-record paper of `records` as a public paper (the projects' neighbours)."""
    out = []
    for f, titles in enumerate(VENUE_PROJECT_TITLES.values()):
        for i, title in enumerate(titles):
            topic, (problem, gap, fix) = TOPICS[3 * f + i], VENUE_PROJECT_TEXT[3 * f + i]
            out.append(ScreenedPaper(
                arxiv_id=f"2512.{f}{i}001", title=title, published=date(2025, 12 - i, 10 + f), domain=DOMAIN,
                relevance=0.1, label="core", reason="test",
                abstract=(f"Agents for {topic} {problem}. However, existing {topic} systems {gap}. "
                          f"We propose a verified {topic} planner that {fix}. Experiments on three benchmarks "
                          "show consistent gains.")))
    for r in records or []:
        for ev in r.papers:
            out.append(ScreenedPaper(arxiv_id=ev.arxiv_id, title=f"A Study of {r.node_label.title()} Agents {ev.arxiv_id}",
                                     abstract=f"{ev.problem} {ev.method}", published=ev.published, domain=DOMAIN,
                                     relevance=0.1, label="core", reason="test"))
    return out


def materialize_offline_partition(root, domain: str, cutoff: str, shipped_dir: str = ""):
    """Every asset and check of one partition, offline, in a temporary warehouse under `root`:
    (dagster result, resources). `shipped_dir` replaces the shipped corpus (a sample)."""
    import dagster as dg

    from assets.partitions import partition_key
    from pipelines.definitions import ALL_ASSETS, ALL_CHECKS
    from resources.corpus_source import CorpusSourceResource
    from resources.embeddings import EmbeddingResource
    from resources.grobid import GrobidResource
    from resources.lance import LanceResource
    from resources.llm import LLMResource
    from resources.semantic_scholar import SemanticScholarResource
    from resources.storage import StorageResource

    resources = {
        "storage": StorageResource(root=str(root / "wh"), duckdb_path=str(root / "f.duckdb")),
        "corpus_source": CorpusSourceResource(shipped_dir=shipped_dir) if shipped_dir else CorpusSourceResource(),
        "embeddings": EmbeddingResource(),
        "lance": LanceResource(uri=str(root / "lance")),
        "llm": LLMResource(model="", cache_dir=str(root / "cache")),
        "judge_llm": LLMResource(model="", cache_dir=str(root / "cache")),
        "grobid": GrobidResource(),
        "semantic_scholar": SemanticScholarResource(),
    }
    instance = dg.DagsterInstance.ephemeral()
    instance.add_dynamic_partitions("cutoff", [cutoff])
    result = dg.materialize(ALL_ASSETS + ALL_CHECKS, partition_key=partition_key(domain, cutoff), instance=instance,
                            resources=resources)
    assert result.success
    return result, resources


# -- a release in the ForeSci authors' format (tests/fixtures/foresci_release) -------------------

AUTHORS_RELEASE = Path(__file__).parent / "fixtures" / "foresci_release"
AUTHORS_TASKS, AUTHORS_HIDDEN = AUTHORS_RELEASE / "tasks.jsonl", AUTHORS_RELEASE / "tasks_hidden_eval.jsonl"

# A bring-your-own agent (`NAME=PATH:answer`) for imported tasks with and without options.
BYO_AGENT_SOURCE = (
    "def answer(task, kb):\n"
    "    hits = kb.search(task['question'], k=3)\n"
    "    opts = [o['option_id'] for o in task.get('options') or []]\n"
    "    if task['family'] == 'direction':\n"
    "        a = {'choice': opts[0] if opts else hits[0]['title'], 'trajectory': 'steady'}\n"
    "    elif task['family'] == 'bottleneck':\n"
    "        a = {'bottleneck': hits[0]['title'], 'opportunity': hits[1]['title']}\n"
    "    else:\n"
    "        a = {'ranking': opts or [h['title'] for h in hits]}\n"
    "    return {'answer': {**a, 'cited_ids': [h['arxiv_id'] for h in hits][:2]}, 'backbone': 'none'}\n")


def small_kb_factory(root: Path):
    """A replacement for `assets.release.evaluate.cutoff_kb`: a cutoff-bound KB of every 10th
    shipped paper of the domain up to the cutoff, built once per (domain, cutoff) under `root`."""
    import lancedb

    from assets.knowledge_base.logic import KnowledgeBaseView, build_kb, table_name
    from core.papers import SHIPPED_DIR, read_jsonl

    built: dict = {}

    def factory(domain, cutoff, embed, db_dir=None):
        if (domain, cutoff) not in built:
            papers, _ = read_jsonl(SHIPPED_DIR / f"{domain}.jsonl.gz")
            visible = [p for p in papers if p.published <= cutoff][::10]
            screened = [ScreenedPaper(**p.model_dump(), domain=domain, relevance=0.5, label="core", reason="t")
                        for p in visible]
            table, _ = build_kb(lancedb.connect(str(root)), table_name(domain, cutoff.isoformat()), screened, embed)
            built[(domain, cutoff)] = KnowledgeBaseView(table, cutoff, embed)
        return built[(domain, cutoff)]

    return factory

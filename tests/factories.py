"""Test helpers shared by several test files: canned model replies through the real
LLM client path, small record builders, and the small hand-made worlds more than one test
module builds on (gold, release, evidence, validity, taxonomy blobs, rediscovery, artifacts,
arena, the agents' RecordingClient), each under a prefixed name that a module may import
under its old local one. No test module imports another."""

from __future__ import annotations

import hashlib
import json
import re
import threading
import zlib
from collections import Counter
from collections.abc import Callable
from datetime import date, timedelta
from pathlib import Path
from typing import Literal, get_args, get_origin

import numpy as np
import pyarrow as pa
from pydantic import BaseModel

from assets.agents.aris import EvidenceCards
from assets.agents.backbones import BackboneEntry, BackboneRegistry
from assets.agents.coi import ChainAnalysis
from assets.agents.research_agent import Review, StageDraft
from assets.artifacts.tuples import PaperSource
from assets.evidence.quotes import paper_source_text
from assets.gold.logic import build_gold
from assets.ranking.presentation import write_presented
from assets.tasks.logic import build_tasks
from assets.toolbox.building import BuildSettings
from core.papers import read_jsonl
from core.records import (
    Answer,
    EvidenceRecord,
    GoldClaim,
    GoldSlot,
    GoldTarget,
    PaperEvidence,
    ScreenedPaper,
    Signal,
    Task,
    TaskOption,
    TaskRating,
    TaxonomyNode,
)
from resources.llm import LLMClient, LLMResource
from resources.storage import StorageResource
from tests.fixture_data import fixture_path

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
        return self._client.structured(messages, schema, purpose=purpose, mock_response=self._mock(purpose, messages), **kw)

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

    return AgentContext(task=task, kb=kb, llm=llm, seed=seed, backbone=backbone, embed=embed, volume=volume, config=config)


# -- task-building inputs: candidates, evidence, bottlenecks, feasibility, venue profiles ------

DOMAIN = "llm_agent"
CUTOFF = date(2025, 12, 31)
WINDOW_END = date(2026, 6, 30)
VENUES = [("ACL/EMNLP/NAACL", 40), ("AAAI/IJCAI", 0), ("CVPR/ICCV/ECCV", 25), ("ICLR/ICML/NeurIPS", 90), ("SIGIR/KDD/WWW", 0)]
BOTTLENECKS = [
    ("hallucination", "However, agents suffer from hallucination of tool outputs."),
    ("high latency", "Planning suffers from high latency."),
    ("prompt injection", "Agents are vulnerable to prompt injection."),
    ("lack of annotated data", "Training is limited by the scarcity of annotated data."),
]
TOPICS = [
    "tool use",
    "web navigation",
    "memory",
    "planning",
    "reflection",
    "multi-agent debate",
    "code repair",
    "gui control",
    "theorem proving",
    "travel booking",
    "negotiation",
    "data analysis",
]


def node(dim: str, k: int) -> str:
    return f"{DOMAIN}:{dim}:n{k}"


APPROACHES = {  # two roles of the shipped catalog (assets/evidence/roles.yaml): role id, members
    0: ("policy_optimisation", ("grpo", "ppo", "dpo", "kto", "simpo")),
    7: ("test_time_search", ("mcts", "revision", "sc", "bon", "beam")),
}


def make_task_inputs(n_papers: int = 12, with_duplicate: bool = False):
    """12 candidates (6 per dimension), 3 of them (0, 3, 7) with four limitations their papers
    mention, all with feasibility, 5 approaches inside 2 of them, 5 venue profiles."""
    signals, records = [], []
    for k, topic in enumerate(TOPICS):
        dim = "methodologies" if k < 6 else "tasks"
        nid = node(dim, k)
        pids = [f"2501.{k:02d}{i:03d}" for i in range(n_papers)]
        signals.append(
            Signal(
                signal_id=f"sig:cand:{k}",
                kind="candidate_direction",
                domain=DOMAIN,
                cutoff=CUTOFF,
                title=f"{topic} / agents",
                summary=f"Agents for {topic}.",
                node_ids=[nid],
                evidence_ids=[f"ev:{nid}"],
                paper_ids=pids,
                stats={
                    "n_papers": n_papers,
                    "share_recent": 0.01 * (k + 1),
                    "share_prior": 0.05,
                    "growth": 0.2 * (k % 6 + 1),
                    "age_months": 12,
                    "slope": 0.0,
                },
                details={
                    "parent": ["agent design"],  # one parent for the test vocabulary (assets/toolbox/option_level.parent_of)
                    "keywords": [topic.split()[0], "llm", "benchmark"],
                    "representative_titles": [f"A Study of {topic.title()} Agents"],
                    "gloss": [f"{topic.capitalize()} agents are LLM agents built for {topic}."],
                },
            )
        )
        records.append(
            EvidenceRecord(
                record_id=f"ev:{nid}",
                node_id=nid,
                domain=DOMAIN,
                cutoff=CUTOFF,
                node_label=topic,
                representative_ids=pids[:3],
                supporting_ids=pids,
                papers=[
                    PaperEvidence(
                        arxiv_id=p,
                        published=date(2025, 1 + i % 12, 1),
                        problem=f"Agents for {topic} fail on long horizons (case {i}).",
                        method=f"We propose a {topic} planner with verification (variant {i}).",
                        limitation=f"The {topic} planner is costly (case {i}).",
                    )
                    for i, p in enumerate(pids)
                ],
            )
        )
        signals.append(
            Signal(
                signal_id=f"sig:feas:{k}",
                kind="feasibility",
                domain=DOMAIN,
                cutoff=CUTOFF,
                title="f",
                summary="f",
                node_ids=[nid],
                stats={"support": n_papers, "maturity_months": 14, "n_bottlenecks": 1},
                details={"dependencies": [f"{topic} benchmark"], "risks": ["evaluation saturation"]},
            )
        )
    for k in (0, 7):  # the catalogued alternatives for two roles (the planning family's options)
        from assets.evidence.approaches import load_roles

        role_id, member_ids = APPROACHES[k]
        role = next(r for r in load_roles() if r.role_id == role_id)
        nid = node("methodologies" if k < 6 else "tasks", k)
        pids = [f"2501.{k:02d}{i:03d}" for i in range(n_papers)]
        for j, mid in enumerate(member_ids):
            m = next(x for x in role.members if x.member_id == mid)
            signals.append(
                Signal(
                    signal_id=f"sig:approach:{role_id}:{mid}",
                    kind="approach",
                    domain=DOMAIN,
                    cutoff=CUTOFF,
                    title=m.name,
                    summary=f"{m.name} for {role.subfield}.",
                    node_ids=[nid],
                    evidence_ids=[f"ev:{nid}"],
                    paper_ids=pids[2 * j : 2 * j + 2],
                    stats={"n_papers": 2, "n_members": 2, "n_recent_members": 5.0 - j, "role_order": float(k)},
                    details={
                        "role": [role_id],
                        "role_name": [role.role],
                        "member": [mid],
                        "direction_name": [role.subfield],
                        "member_ids": pids[2 * j : 2 * j + 2],
                        "recent_ids": pids[2 * j : 2 * j + 2],
                        "representative_titles": [f"Building on {m.name.split()[0]} for {TOPICS[k].title()} Agents"],
                        "gloss": [m.gloss],
                    },
                )
            )
    # four limitation themes, each mentioned by the papers of candidates 0, 3 and 7 (their subjects)
    subject_papers = [f"2501.{k:02d}{i:03d}" for k in (0, 3, 7) for i in range(n_papers)]
    for j, (name, quote) in enumerate(BOTTLENECKS):
        signals.append(
            Signal(
                signal_id=f"sig:bn:{j}",
                kind="bottleneck",
                domain=DOMAIN,
                cutoff=CUTOFF,
                title=name,
                summary=quote,
                node_ids=[node("methodologies", 0)],
                evidence_ids=[f"ev:{node('methodologies', 0)}"],
                paper_ids=[f"2501.00{j:03d}"],
                stats={"recurrence": 3, "n_nodes": 1},
                details={
                    "quotes": [quote],
                    "category": ["technical_risk"],
                    "nodes": [node("methodologies", 0)],
                    "key": [name],
                    "aliases": [name],
                    "mention_ids": subject_papers,
                },
            )
        )
    if with_duplicate:  # a second candidate on exactly the same papers as candidate 0
        dup = signals[0].model_copy(update={"signal_id": "sig:cand:dup", "node_ids": [node("methodologies", 99)]})
        signals.append(dup)
    for i, (fam, n) in enumerate(VENUES):
        signals.append(
            Signal(
                signal_id=f"sig:venue:{i}",
                kind="venue_profile",
                domain=DOMAIN,
                cutoff=CUTOFF,
                title=fam,
                summary="",
                stats={"n_papers": n, "domain_share": 0.1},
                details={"contribution_styles": ["empirical systems"], "top_terms": ["agents"]},
            )
        )
    return signals, records


def task_settings(**kw):
    """The task builder's settings for the `make_task_inputs` world."""
    from assets.toolbox.building import BuildSettings

    return BuildSettings(
        **{"domain": DOMAIN, "domain_title": "LLM Agents", "cutoff": CUTOFF, "window_end": WINDOW_END, "horizon_months": 6, **kw}
    )


# -- the agent tests' world: public tasks of every family over the real llm_agent sample ----

AGENT_CUTOFF = date(2025, 6, 30)  # the agent tests' knowledge-base world
SUBDIRS = [
    "GUI and web navigation agents",
    "multi-agent collaboration and debate",
    "tool use and function calling",
    "memory and reflection for agents",
]
VENUE_OPTIONS = [
    "ICLR/ICML/NeurIPS: machine learning methods, learning theory and large-scale training",
    "ACL/EMNLP/NAACL: natural language processing, language model behaviour and evaluation",
    "CVPR/ICCV/ECCV: computer vision, images and video",
]


def make_task(task_id, family, question, options=(), cutoff=AGENT_CUTOFF):
    return Task(
        task_id=task_id,
        family=family,
        domain="llm_agent",
        cutoff=cutoff,
        window_start=cutoff + timedelta(days=1),
        window_end=date(cutoff.year + 1, 1, 1) - timedelta(days=1),
        horizon="6 months",
        title=f"{family} task {task_id}",
        question=question,
        instructions="Answer from pre-cutoff evidence only.",
        answer_requirements=["rank all options"],
        options=[TaskOption(option_id=f"o{i}", text=t) for i, t in enumerate(options)],
    )


def sample_tasks(cutoff=AGENT_CUTOFF):
    return [
        make_task("dir1", "direction", "Which subdirection of LLM agents will gain the most momentum?", SUBDIRS, cutoff),
        make_task("plan1", "planning", "Order these directions for a 6-month research agenda.", SUBDIRS[:3], cutoff),
        make_task(
            "bot1",
            "bottleneck",
            "What is the root bottleneck in 'GUI and web navigation agents', and what opportunity opens if it is reduced?",
            (),
            cutoff,
        ),
        make_task(
            "ven1",
            "venue",
            "We build an agent that calls external tools and APIs, with a new benchmark "
            "of function-calling accuracy for language models.",
            VENUE_OPTIONS,
            cutoff,
        ),
    ]


def screened_paper(
    arxiv_id: str,
    title: str = "t",
    abstract: str = "a",
    published: date = date(2025, 1, 10),
    *,
    domain: str = "d",
    label: str = "core",
    relevance: float = 0.1,
) -> ScreenedPaper:
    """A screened paper with test defaults."""
    return ScreenedPaper(
        arxiv_id=arxiv_id,
        title=title,
        abstract=abstract,
        published=published,
        domain=domain,
        relevance=relevance,
        label=label,
        reason="test",
    )


def sampled_shipped_corpus(corpus_dir, every: int, extra_lines: tuple[str, ...] = ()):
    """Every `every`-th paper of the shipped llm_agent corpus into `corpus_dir` (plus raw
    `extra_lines`, e.g. a malformed record): a small real corpus for end-to-end runs."""
    import gzip

    from core.papers import SHIPPED_DIR

    corpus_dir.mkdir(parents=True, exist_ok=True)
    with gzip.open(SHIPPED_DIR / "llm_agent.jsonl.gz", "rt") as src, gzip.open(corpus_dir / "llm_agent.jsonl.gz", "wt") as dst:
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
    "ICLR/ICML/NeurIPS": [
        "Seeing Through Deception: Uncovering Misleading Creator Intent in Multimodal News with Vision-Language Models",
        "Provably Explaining Neural Additive Models",
        "ImageDoctor: Diagnosing Text-to-Image Generation via Grounded Image Reasoning",
    ],
    "CVPR/ICCV/ECCV": [
        "3D Space as a Scratchpad for Editable Text-to-Image Generation",
        "3D-IDE: 3D Implicit Depth Emergent",
        "4D-RGPT: Toward Region-level 4D Understanding via Perceptual Distillation",
    ],
    "ACL/EMNLP/NAACL": [
        "OctoTools: A Multi-Agent Framework with Extensible Tools for Complex Reasoning",
        "No Reader Left Behind: Multi-Agent Summaries Everyone Can Understand",
        "Discover and Prove: An Open-source Agentic Framework for Hard Mode Automated Theorem Proving in Lean 4",
    ],
}


VENUE_PROJECT_TEXT = [  # (problem, gap, approach) per project: distinct words, so no two decisions are duplicates
    (
        "often fail when dozens of external APIs return malformed outputs",
        "ignore schema validation of responses",
        "repairs malformed calls with typed contracts",
    ),
    (
        "lose track of page state across long browsing sessions",
        "replay entire histories at every click",
        "summarises the visited pages into a compact map",
    ),
    (
        "forget user preferences after a few conversation turns",
        "store raw transcripts without any forgetting policy",
        "consolidates episodic traces into stable profiles",
    ),
    (
        "commit to brittle plans before observing environment feedback",
        "search exhaustively over action sequences",
        "revises subgoals after every observation",
    ),
    (
        "repeat the same mistakes across successive attempts",
        "reflect only in free text that nobody grades",
        "scores critiques against executable unit checks",
    ),
    (
        "converge to a shared wrong answer during group discussion",
        "weight every debater equally regardless of track record",
        "assigns votes by calibrated historical accuracy",
    ),
    (
        "patch failing repositories with edits that break other tests",
        "localise faults from stack traces alone",
        "ranks candidate patches by regression coverage",
    ),
    (
        "misclick on dense desktop screens with tiny widgets",
        "ground instructions on screenshots at a single resolution",
        "zooms into candidate regions before acting",
    ),
    (
        "stall on olympiad proofs that need long lemma chains",
        "sample whole proofs without checking intermediate lemmas",
        "verifies each lemma with a formal kernel",
    ),
]


def make_venue_papers(records=None) -> list[ScreenedPaper]:
    """The partition's papers for venue projects: nine recent preprints whose real titles are on a
    2026 accepted-paper list (three per family), with abstracts that describe cleanly, plus every
    evidence-record paper of `records` as a public paper (the projects' neighbours)."""
    out = []
    for f, titles in enumerate(VENUE_PROJECT_TITLES.values()):
        for i, title in enumerate(titles):
            topic, (problem, gap, fix) = TOPICS[3 * f + i], VENUE_PROJECT_TEXT[3 * f + i]
            out.append(
                ScreenedPaper(
                    arxiv_id=f"2512.{f}{i}001",
                    title=title,
                    published=date(2025, 12 - i, 10 + f),
                    domain=DOMAIN,
                    relevance=0.1,
                    label="core",
                    reason="test",
                    abstract=(
                        f"Agents for {topic} {problem}. However, existing {topic} systems {gap}. "
                        f"We propose a verified {topic} planner that {fix}. Experiments on three benchmarks "
                        "show consistent gains."
                    ),
                )
            )
    for r in records or []:
        for ev in r.papers:
            out.append(
                ScreenedPaper(
                    arxiv_id=ev.arxiv_id,
                    title=f"A Study of {r.node_label.title()} Agents {ev.arxiv_id}",
                    abstract=f"{ev.problem} {ev.method}",
                    published=ev.published,
                    domain=DOMAIN,
                    relevance=0.1,
                    label="core",
                    reason="test",
                )
            )
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
    result = dg.materialize(
        ALL_ASSETS + ALL_CHECKS, partition_key=partition_key(domain, cutoff), instance=instance, resources=resources
    )
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
    "    return {'answer': {**a, 'cited_ids': [h['arxiv_id'] for h in hits][:2]}, 'backbone': 'none'}\n"
)


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
            screened = [ScreenedPaper(**p.model_dump(), domain=domain, relevance=0.5, label="core", reason="t") for p in visible]
            table, _ = build_kb(lancedb.connect(str(root)), table_name(domain, cutoff.isoformat()), screened, embed)
            built[(domain, cutoff)] = KnowledgeBaseView(table, cutoff, embed)
        return built[(domain, cutoff)]

    return factory


# -- the gold tests' world: a token embedder, candidates and direction tasks (llm_agent, 2025-12-31) ---

GOLD_DIM = 96


def gold_embed(texts: list[str]) -> np.ndarray:
    """Deterministic: each token 'tK' adds basis vector K; 'noisy' adds small hashed noise."""
    out = np.zeros((len(texts), GOLD_DIM), dtype=np.float32)
    for i, text in enumerate(texts):
        for k in re.findall(r"\bt(\d+)\b", text):
            out[i, int(k)] += 1.0
        if "noisy" in text:
            seed = int(hashlib.md5(text.encode()).hexdigest()[:8], 16)
            out[i] += 0.03 * np.random.default_rng(seed).standard_normal(GOLD_DIM).astype(np.float32)
        if not out[i].any():
            out[i, GOLD_DIM - 1] = 1.0
    return out / np.linalg.norm(out, axis=1, keepdims=True)


def gold_paper(pid: str, text: str, day: date, title: str | None = None, label: str = "core") -> ScreenedPaper:
    return screened_paper(pid, title or f"Paper {pid}", text, day, domain=DOMAIN, label=label)


def gold_background(prefix: str, n: int, start: date, span_days: int) -> list[ScreenedPaper]:
    """Unrelated papers, each on its own pair of dimensions 20..89 (never near a gold_candidate)."""
    return [
        gold_paper(
            f"{prefix}.{i:05d}", f"t{20 + i % 70} t{20 + (i * 7 + 3) % 70} noisy {i}", start + timedelta(days=i % span_days)
        )
        for i in range(n)
    ]


GOLD_PHRASES = ("speculative decoding", "sparse attention")  # the candidates' names (core.phrases keys)


def gold_candidate(k: int, dim: int, paper_ids: list[str], **stats) -> Signal:
    return Signal(
        signal_id=f"sig:cand:{k}",
        kind="candidate_direction",
        domain=DOMAIN,
        cutoff=CUTOFF,
        title=GOLD_PHRASES[k],
        summary="",
        node_ids=[f"{DOMAIN}:methodologies:n{k}"],
        evidence_ids=[f"ev:{DOMAIN}:methodologies:n{k}"],
        paper_ids=paper_ids,
        stats={"n_papers": len(paper_ids), **stats},
        details={
            "keywords": [f"kw{k}"],
            "representative_titles": [],
            "defining_phrases": [GOLD_PHRASES[k]],
            "member_ids": sorted(paper_ids),
        },
    )


def gold_task(family: str, options: list[str], n: int = 1, question: str = "Which direction gains momentum?") -> Task:
    return Task(
        task_id=f"{DOMAIN}-{CUTOFF}-{family}-{n:02d}",
        family=family,
        domain=DOMAIN,
        cutoff=CUTOFF,
        window_start=CUTOFF + timedelta(days=1),
        window_end=WINDOW_END,
        horizon="6-month",
        title="t",
        question=question,
        instructions="i",
        answer_requirements=["r"],
        options=[TaskOption(option_id=o, text=f"Option {o} text") for o in options],
    )


def gold_of(t, b, signals, public, future, nodes=(), **kw) -> GoldTarget:
    [g] = build_gold([t], [b], signals, list(nodes), public, future, gold_embed, cutoff=CUTOFF, window_end=WINDOW_END, **kw)
    return g


# -- a small released partition: four tasks, ratings, golds, a one-paper KB (llm_agent, 2025-12-31) ---

RELEASE_C = "2025-12-31"


def release_task(i: int, family: str, horizon: str = "6-month") -> Task:
    return Task(
        task_id=f"{DOMAIN}-{RELEASE_C}-{family}-{i:02d}",
        family=family,
        domain=DOMAIN,
        cutoff=CUTOFF,
        window_start=CUTOFF + timedelta(days=1),
        window_end=date(2026, 6, 30),
        horizon=horizon,
        title=f"{family} {i}",
        question=f"Which option of set {i} gains momentum? Rank them.",
        instructions="Use pre-cutoff evidence only.",
        answer_requirements=["one option"],
        options=[TaskOption(option_id="A", text=f"alpha {i}"), TaskOption(option_id="B", text=f"beta {i}")],
        support_paper_ids=["2501.00001"],
    )


def release_gold(t: Task) -> GoldTarget:
    return GoldTarget(
        task_id=t.task_id,
        family=t.family,
        domain=DOMAIN,
        cutoff=CUTOFF,
        preferred_ranking=["B", "A"],
        trajectory="accelerating",
        slots=[GoldSlot(slot="primary_direction", variants=["beta"])],
        claims=[
            GoldClaim(
                claim_id=f"{t.task_id}-c01",
                text=f"beta {t.task_id} gained the largest share of the window's papers",
                type="future-realisation",
                time_scope="w",
                importance=1.0,
            )
        ],
        numbers={"momentum:B": 1.5},
        future_paper_ids=["2602.00001"],
        strength=0.7,
    )


RELEASE_TASKS = [
    release_task(1, "direction"),
    release_task(2, "direction"),
    release_task(1, "planning"),
    release_task(1, "venue", "venue cycle"),
]
RELEASE_RATINGS = [
    TaskRating(task_id=t.task_id, family=t.family, elo=1200.0 + i, rank_in_family=1, released=i != 1, quality=0.5)
    for i, t in enumerate(RELEASE_TASKS)
]
RELEASE_GOLDS = [release_gold(t) for t in RELEASE_TASKS]
RELEASE_KB = [{"arxiv_id": "2501.00001", "title": "A paper", "published": "2025-01-05"}]


def seed_store(root: Path, tasks=RELEASE_TASKS) -> StorageResource:
    storage = StorageResource(root=str(root / "wh"), duckdb_path=str(root / "f.duckdb"))
    store = storage.store()
    paper = dict(abstract="An abstract.", domain=DOMAIN, relevance=0.5, label="core", reason="r")
    store.write_records("tasks", DOMAIN, RELEASE_C, tasks, Task)
    store.write_records("task_ranking", DOMAIN, RELEASE_C, RELEASE_RATINGS, TaskRating)
    store.write_records("gold_targets", DOMAIN, RELEASE_C, RELEASE_GOLDS, GoldTarget)
    write_presented(store, DOMAIN, RELEASE_C, tasks, RELEASE_GOLDS, RELEASE_RATINGS)  # what task_ranking writes
    store.write_records(
        "corpus_snapshot",
        DOMAIN,
        RELEASE_C,
        [ScreenedPaper(arxiv_id="2501.00001", title="A paper", published=date(2025, 1, 5), **paper)],
        ScreenedPaper,
    )
    store.write_records(
        "future_window",
        DOMAIN,
        RELEASE_C,
        [ScreenedPaper(arxiv_id="2602.00001", title="A future paper", published=date(2026, 2, 5), **paper)],
        ScreenedPaper,
    )
    store.write_records(
        "taxonomy",
        DOMAIN,
        RELEASE_C,
        [
            TaxonomyNode(
                node_id=f"{DOMAIN}:tasks:root",
                domain=DOMAIN,
                dimension="tasks",
                label="root",
                description="",
                parent_id=None,
                level=0,
                created_slice="2025-Q1",
                created_by="initial",
                paper_ids=["2501.00001"],
            )
        ],
        TaxonomyNode,
    )
    store.write_table(
        "knowledge_base",
        DOMAIN,
        RELEASE_C,
        pa.table({"arxiv_id": ["2501.00001"], "title": ["A paper"], "published": pa.array([date(2025, 1, 5)], pa.date32())}),
    )
    return storage


def materialize_release(storage, root: Path, config: dict | None = None) -> tuple[bool, str]:
    """(success, the step failure's error text) of one release_package run on its own entered instance."""
    import dagster as dg

    from assets.partitions import partition_key
    from assets.release.definitions import release_package

    with dg.DagsterInstance.ephemeral() as instance:
        instance.add_dynamic_partitions("cutoff", [RELEASE_C])
        result = dg.materialize(
            [release_package],
            partition_key=partition_key(DOMAIN, RELEASE_C),
            instance=instance,
            resources={"storage": storage, "llm": LLMResource(model="", cache_dir=str(root / "cache"))},
            run_config={"ops": {"release_package": {"config": config or {}}}},
            raise_on_error=False,
        )
        errors = [str(e.event_specific_data.error) for e in result.all_events if e.event_type_value == "STEP_FAILURE"]
        return result.success, "\n".join(errors)


# -- the evidence tests' sample: the llm_agent sample with deterministic labels, a KMeans taxonomy ---


def labelled_sample_papers(domain: str = "llm_agent") -> list[ScreenedPaper]:
    papers, failures = read_jsonl(fixture_path(f"arxiv/samples/{domain}.sample.jsonl"))
    assert not failures
    papers = [p for p in papers if p.published <= CUTOFF]  # the public snapshot
    # every third paper "support", one in ten "excluded": deterministic labels without the screen
    return [
        ScreenedPaper(
            **p.model_dump(),
            domain=domain,
            relevance=0.1,
            label="excluded" if i % 10 == 9 else "support" if i % 3 == 2 else "core",
            reason="test",
        )
        for i, p in enumerate(papers)
    ]


def kmeans_taxonomy(papers: list[ScreenedPaper], embed, domain="llm_agent", k1=3, k2=2) -> list[TaxonomyNode]:
    """A stand-in taxonomy: one root per dimension, KMeans children and grandchildren."""
    from sklearn.cluster import KMeans

    usable = [p for p in papers if p.label != "excluded"]
    vecs = embed([paper_source_text(p) for p in usable])
    nodes = []
    for dim, seed in (("methodologies", 0), ("tasks", 1)):
        root = f"{domain}:{dim}"
        nodes.append(
            TaxonomyNode(
                node_id=root,
                domain=domain,
                dimension=dim,
                label=dim,
                description=dim,
                parent_id=None,
                level=0,
                created_slice="2023-Q1",
                created_by="initial",
                paper_ids=[p.arxiv_id for p in usable],
            )
        )
        labels = KMeans(k1, random_state=seed, n_init=2).fit_predict(vecs)
        for c in range(k1):
            idx = np.where(labels == c)[0]
            nid = f"{root}/{c}"
            words = Counter(w for i in idx for w in usable[i].title.lower().split() if len(w) > 5)
            nodes.append(
                TaxonomyNode(
                    node_id=nid,
                    domain=domain,
                    dimension=dim,
                    label=" ".join(w for w, _ in words.most_common(3)),
                    description=f"cluster {c}",
                    parent_id=root,
                    level=1,
                    created_slice="2024-Q1",
                    created_by="initial",
                    paper_ids=[usable[i].arxiv_id for i in idx],
                    keywords=[w for w, _ in words.most_common(3)],
                )
            )
            sub = KMeans(k2, random_state=seed, n_init=2).fit_predict(vecs[idx]) if len(idx) >= k2 else np.zeros(len(idx), int)
            for c2 in range(k2):
                idx2 = idx[sub == c2]
                words2 = Counter(w for i in idx2 for w in usable[i].title.lower().split() if len(w) > 5)
                nodes.append(
                    TaxonomyNode(
                        node_id=f"{nid}/{c2}",
                        domain=domain,
                        dimension=dim,
                        label=" ".join(w for w, _ in words2.most_common(3)),
                        description=f"sub {c2}",
                        parent_id=nid,
                        level=2,
                        created_slice="2025-Q1",
                        created_by="depth",
                        paper_ids=[usable[i].arxiv_id for i in idx2],
                        keywords=[w for w, _ in words2.most_common(3)],
                    )
                )
    return nodes


# -- the validity tests' tasks: four direction options in a rotating order, a bag-of-words embedder ---

VALIDITY_OPTIONS = [
    "Tool use and function calling",
    "GUI and web navigation agents",
    "Memory and reflection",
    "Multi-agent debate",
]


def words_embed(texts):
    """Bag of words over a small vocabulary: identical texts are identical vectors."""
    vocab = sorted({w for t in VALIDITY_OPTIONS + ["accelerating steady cooling fragmenting is"] for w in t.lower().split()})
    out = np.zeros((len(texts), len(vocab) + 1), dtype=np.float32)
    for i, t in enumerate(texts):
        for w in t.lower().split():
            out[i, vocab.index(w) if w in vocab else len(vocab)] += 1
        if not out[i].any():
            out[i, -1] = 1
    return out


def validity_task(i: int, family: str = "direction") -> Task:
    opts = VALIDITY_OPTIONS[i % 4 :] + VALIDITY_OPTIONS[: i % 4]  # a different order per validity_task
    return Task(
        task_id=f"t{i}",
        family=family,
        domain="d",
        cutoff=CUTOFF,
        window_start=date(2026, 1, 1),
        window_end=date(2026, 6, 30),
        horizon="6-month",
        title=f"t{i}",
        question="Which direction gains momentum? rank",
        instructions="",
        answer_requirements=[],
        options=[TaskOption(option_id="ABCD"[j], text=t) for j, t in enumerate(opts)],
    )


def validity_gold(t: Task, top: str = "B") -> GoldTarget:
    text = {o.option_id: o.text for o in t.options}
    ranking = [top] + [o for o in "ABCD" if o != top]
    return GoldTarget(
        task_id=t.task_id,
        family=t.family,
        domain="d",
        cutoff=CUTOFF,
        preferred_ranking=ranking,
        trajectory="accelerating",
        strength=1.0,
        future_paper_ids=["2601.00001"],
        slots=[
            GoldSlot(slot="primary_direction", variants=[text[top]]),
            GoldSlot(slot="trajectory", variants=[f"{text[top]} is accelerating"]),
        ],
        claims=[GoldClaim(claim_id=f"{t.task_id}-c01", text="x", type="historical", time_scope="p")],
    )


# -- the taxonomy tests' blobs: papers whose token blobK an embedder maps to axis K ------------------

BLOB_DIM = 32
BLOB_CENTERS = np.eye(BLOB_DIM, dtype=np.float32)[:8]  # blob K points along axis K


def blob_embed(texts: list[str]) -> np.ndarray:
    """blobK -> axis K plus small noise (deterministic per text); other texts -> noise only."""
    out = []
    for text in texts:
        rng = np.random.default_rng(zlib.crc32(text.encode()))
        vec = rng.normal(0, 0.08, BLOB_DIM).astype(np.float32)
        for k in range(len(BLOB_CENTERS)):
            if f"blob{k} " in text + " ":
                vec += BLOB_CENTERS[k]
        out.append(vec / np.linalg.norm(vec))
    return np.stack(out)


def blob_paper(i: int, blob: int, published: date, label: str = "core") -> ScreenedPaper:
    return ScreenedPaper(
        arxiv_id=f"2401.{i:05d}",
        title=f"Paper {i} on topic{blob} blob{blob}",
        abstract=f"We study topic{blob} alpha{blob} beta{blob} gamma{blob} with item {i}. blob{blob}",
        published=published,
        domain="synthetic",
        relevance=0.1,
        label=label,
        reason="test",
    )


def blob_papers(start: int, blob: int, n: int, published: date) -> list[ScreenedPaper]:
    return [blob_paper(start + j, blob, published) for j in range(n)]


def blob_of(arxiv_id: str, papers: list[ScreenedPaper]) -> int:
    return next(int(p.title.rsplit("blob", 1)[1]) for p in papers if p.arxiv_id == arxiv_id)


# -- the rediscovery tests' world: six topics, each a pre-cutoff paper with findings and older work ---


def rediscovery_paper(pid: str, abstract: str, day: date, title: str = "Agents and tool errors") -> ScreenedPaper:
    return ScreenedPaper(
        arxiv_id=pid,
        title=title,
        abstract=abstract,
        published=day,
        domain="llm_agent",
        relevance=1.0,
        label="core",
        reason="test",
    )


REDISCOVERY_TOPICS = [
    ("tool errors", "retry prompting", "web navigation"),
    ("memory", "episodic summaries", "long dialogues"),
    ("planning", "tree search", "household tasks"),
    ("code agents", "unit-test feedback", "repository repair"),
    ("multi-agent debate", "role prompts", "math word problems"),
    ("web search", "query rewriting", "open-domain questions"),
]


def rediscovery_abstract(topic, method, setting, k):
    return (
        f"Agents for {topic} are widely deployed. In this rediscovery_paper, we investigate whether {method} helps agents on "
        f"{setting}. We collect {100 + k} episodes from four environments and compare against plain prompting. "
        f"We find that {method} raises success on {setting} by {5 + k}% for small open models. "
        f"The benefit of {method} shrinks for agents with larger context windows on {setting}."
    )


def rediscovery_world():
    cutoff = date(2025, 12, 31)
    papers, background = [], []
    for k, (topic, method, setting) in enumerate(REDISCOVERY_TOPICS):
        papers.append(
            rediscovery_paper(
                f"2512.{k:05d}",
                rediscovery_abstract(topic, method, setting, k),
                cutoff - timedelta(days=5 + 9 * k),
                title=f"{method.title()} for {topic}",
            )
        )
        for i in range(4):  # older papers the KB can find
            background.append(
                rediscovery_paper(
                    f"2506.{k:03d}{i:02d}",
                    f"Prior work on {topic}. We show that {method} improves {setting} accuracy for agents by {i + 2}%.",
                    date(2025, 6, 1 + i),
                    title=f"{topic} study {i}",
                )
            )
    return cutoff, papers, background


# -- the artifact tests' one source paper and an answer citing it ------------------------------------

ARTIFACT_PID = "2501.00001"
ARTIFACT_ABSTRACT = (
    "Agents that retrieve tool documentation reduce hallucinated API calls. "
    "We evaluate on ToolBench and improve accuracy by 12 points over the baseline. "
    "The gain comes from filtering redundant tools before planning."
)
ARTIFACT_SOURCES = {
    ARTIFACT_PID: PaperSource(
        ARTIFACT_PID, "Retrieval of tool documentation for agents", date(2025, 1, 1), [("abstract", ARTIFACT_ABSTRACT)]
    )
}
artifact_lookup = ARTIFACT_SOURCES.get


def artifact_answer(
    claims, *, decision=("tool documentation retrieval for agents",), cited=(ARTIFACT_PID,), artifacts=None, **kw
):
    return Answer(
        answer_id="t1::m::b::0",
        task_id="t1",
        family="direction",
        method="m",
        backbone="b",
        claims=list(claims),
        decision=list(decision),
        evidence_ids=list(cited),
        artifacts=artifacts or {},
        **kw,
    )


# -- the arena tests' world: four topics with evidence records, public papers and window papers ------

ARENA_TOPICS = [  # (node label, subject words, method, metric)
    ("web navigation agents", "web navigation", "hierarchical planner", "task success"),
    ("tool calling agents", "tool calling", "schema-guided decoder", "call accuracy"),
    ("agent memory", "long-term memory", "episodic retrieval store", "recall accuracy"),
    ("multi-agent debate", "multi-agent debate", "adversarial critic loop", "answer accuracy"),
]


def arena_paper(pid: str, title: str, abstract: str, day: date, label: str = "core") -> ScreenedPaper:
    return ScreenedPaper(
        arxiv_id=pid,
        title=title,
        abstract=abstract,
        published=day,
        categories=["cs.CL"],
        domain=DOMAIN,
        relevance=0.9,
        label=label,
        reason="test",
    )


def arena_world():
    """Per topic: an evidence record of 6 pre-cutoff papers (a limitation, a method, a
    testable outcome and a cross-discipline idea), 6 window papers that pursue the topic's
    limitation, and public papers for the KB."""
    records, public, window = [], [], []
    for k, (label, subject, method, metric) in enumerate(ARENA_TOPICS):
        pids = [f"2505.{k:02d}{i:03d}" for i in range(6)]
        evid = []
        for i, pid in enumerate(pids):
            day = date(2025, 5 + i, 3)
            evid.append(
                PaperEvidence(
                    arxiv_id=pid,
                    published=day,
                    problem=f"Existing {subject} agents fail to handle long horizons and remain brittle in complex arena_settings.",
                    method=(
                        f"We propose a novel {method} for {subject} agents that is inspired by human cognition and "
                        "could scale beyond them."
                        if i % 2 == 0
                        else f"We propose a novel {method} for {subject} agents that could scale beyond them (variant {i})."
                    ),
                    evaluation_focus=f"Our {method} improves {metric} by {10 + i}% over strong baselines on {subject} "
                    "benchmarks, a gain that may generalize.",
                    limitation=f"The {method} remains costly and its generalization to unseen {subject} tasks is an "
                    f"open question ({i}).",
                )
            )
            public.append(
                arena_paper(
                    pid,
                    f"{method.title()} for {subject} v{i}",
                    f"We study {subject} agents. We propose a {method} for {subject} agents. Our "
                    f"{method} improves {metric} by {10 + i}% over strong baselines on {subject} benchmarks.",
                    day,
                )
            )
        records.append(
            EvidenceRecord(
                record_id=f"ev:{DOMAIN}:methodologies:n{k}",
                node_id=f"{DOMAIN}:methodologies:n{k}",
                domain=DOMAIN,
                cutoff=CUTOFF,
                node_label=label,
                representative_ids=pids[:3],
                supporting_ids=pids,
                papers=evid,
            )
        )
        for j in range(6):  # the gap and the direction after it (synthesize, design), an evaluation (evaluate)
            window.append(
                arena_paper(
                    f"2602.{k:02d}{j:03d}",
                    f"Cheaper {subject} agents with {method} generalization {j}",
                    f"Existing {subject} agents remain brittle on long horizons ({j}). We propose a cheaper {method} for "
                    f"{subject} agents that handles long horizons in complex arena_settings (variant {j}). Experiments show "
                    f"our {method} variant, evaluated with a held-out long-horizon test suite and human judges, raises "
                    f"{metric} by {j + 5}% at {j + 2}x lower cost.",
                    date(2026, 2, 1 + j),
                )
            )
    return records, public, window


def arena_settings(**kw) -> BuildSettings:
    return BuildSettings(domain=DOMAIN, domain_title="LLM Agents", cutoff=CUTOFF, window_end=WINDOW_END, horizon_months=6, **kw)


def arena_phase_tasks(records, papers=None, **kw):
    tasks, builds, failures = build_tasks([], records, arena_settings(**kw), papers=papers)
    keep = {t.task_id for t in tasks if t.family == "phase"}
    return [t for t in tasks if t.task_id in keep], [b for b in builds if b.task_id in keep], failures


# -- the agent tests' recording client: a real LLMClient with replies computed from the prompt -------

MOCK_BACKBONE = "openai/mock-backbone"
TEST_REGISTRY = BackboneRegistry.load().with_entries(
    BackboneEntry(model="mock-backbone", knowledge_cutoff=date(2024, 1, 31), source="test double")
)
FAKE_ID = "9999.99999"
_ARXIV_ID = re.compile(r"\b(\d{4}\.\d{4,5})\b")


class RecordingClient(LLMClient):
    """Mock replies: family answers cite the first arXiv id shown plus a fabricated one and
    rank the options reversed; reviews score `review_overall`; with `break_contract` the
    first family answer per prompt uses an unknown option id (ARIS repair path); with
    `fabricate` family answers also cite an id that was never shown (FAKE_ID)."""

    def __init__(
        self,
        tmp_path,
        *,
        review_overall: int = 5,
        break_contract: bool = False,
        model: str = MOCK_BACKBONE,
        fabricate: bool = True,
    ):
        super().__init__(model, api_key="k", cache_dir=str(tmp_path / "llm_cache"), backoff_s=0.0, max_retries=1)
        self.review_overall = review_overall
        self.break_contract = break_contract
        self.fabricate = fabricate
        self.seen: list[list[dict]] = []
        self.purposes: list[str] = []
        self._rec_lock = threading.Lock()

    def reply(self, messages, schema, purpose) -> dict:
        user = "\n".join(m["content"] for m in messages if m["role"] == "user")
        ids = list(dict.fromkeys(_ARXIV_ID.findall(user)))
        options = re.findall(r"^- (o\d+): ", user, flags=re.M)
        if schema is ChainAnalysis:
            return {
                "evolution": "from planning to acting",
                "frontier": "tool use",
                "next_step": "self-correction",
                "momentum": "rising",
                "claims": ["The chain keeps rising."],
            }
        if schema is StageDraft:
            return {"summary": f"stage summary ({purpose})", "points": ["point one"], "cited_ids": ids[:1]}
        if schema is Review:
            return {
                "overall": self.review_overall,
                "criteria": [{"criterion": "clarity", "score": self.review_overall}],
                "feedback": ["Name the candidate explicitly."],
            }
        if schema is EvidenceCards:
            return {
                "cards": [{"statement": "evidence statement", "cited_ids": ids[:2], "bears_on": "o0"}],
                "uncertainties": ["small sample"],
            }
        family = schema.__name__.replace("Answer", "").lower()
        repairing = "breaks the contract" in messages[-1]["content"]
        ranking = list(reversed(options))
        if self.break_contract and not repairing:
            ranking = ["o_unknown"] + ranking[:1]
        cited = ids[:1] + ([FAKE_ID] if self.fabricate and not repairing else [])
        return {
            "direction": {
                "choice": ranking[0] if ranking else "o0",
                "trajectory": "accelerating",
                "ranking": ranking,
                "rationale": "trend",
                "claims": ["It will keep rising."],
                "cited_ids": cited,
            },
            "bottleneck": {
                "bottleneck": "grounding actions in unseen interfaces",
                "opportunity": "general-purpose GUI agents",
                "mechanism": "m",
                "claims": ["c"],
                "cited_ids": cited,
            },
            "planning": {
                "ranking": ranking,
                "milestones": ["m1"],
                "dependencies": [],
                "risks": ["r"],
                "go_no_go": "go",
                "claims": ["Start now."],
                "cited_ids": cited,
            },
            "venue": {
                "ranking": ranking,
                "framing": "f",
                "reviewer_risks": ["r"],
                "evidence_upgrades": [],
                "claims": ["c"],
                "cited_ids": cited,
            },
        }[family]

    def structured(self, messages, schema, *, purpose, temperature=None, seed=None, max_tokens=None, mock_response=None):
        with self._rec_lock:
            self.seen.append(messages)
            self.purposes.append(purpose)
        reply = json.dumps(self.reply(messages, schema, purpose))
        return super().structured(
            messages, schema, purpose=purpose, temperature=temperature, seed=seed, max_tokens=max_tokens, mock_response=reply
        )

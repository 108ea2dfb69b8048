"""A built partition exported to Hugging Face datasets and run in Inspect AI, offline.

One partition (every 8th paper of the shipped llm_agent corpus: enough to release tasks) through the whole graph,
then:

- the `hf_export` asset wrote the public dataset and, under hidden/, the private gold;
- `foresci export hf` writes the same dataset to a folder; every config (public and
  private) loads with `datasets.load_dataset`; the KB rebuilt from the export returns the
  same top-10 papers as the pipeline's LanceDB KB for the tasks' questions, in every mode;
- `inspect eval foresci/<family>` (the entry point, Inspect's CLI, `mockllm/model`) runs every
  family offline, and the Inspect log's scores equal foresci's own scores of the same
  answers: the mock's non-JSON reply equals the pipeline's `control:empty` scores (the
  validity stage's, computed without Inspect); a replayed gold answer equals the pipeline's
  `control:gold`; an answer citing what a `kb_search` tool call returned equals the score of
  the same answer given through foresci's bring-your-own-agent runner and judged by
  `assets.judging.scoring.score_answers`.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import dagster as dg
import pytest

from assets.families import get_family
from assets.partitions import partition_key
from core.records import GoldTarget, Score, Task
from resources.corpus_source import CorpusSourceResource
from resources.embeddings import EmbeddingResource
from resources.lance import LanceResource
from resources.llm import LLMResource
from resources.storage import StorageResource
from tests.factories import sampled_shipped_corpus

pytestmark = pytest.mark.slow
D, C = "llm_agent", "2025-12-31"
ENV = {
    "HF_HUB_OFFLINE": "1",
    "HF_DATASETS_OFFLINE": "1",
    "LITELLM_LOCAL_MODEL_COST_MAP": "True",
    "INSPECT_DISPLAY": "none",
    "INSPECT_LOG_FORMAT": "eval",
}


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    from pipelines.definitions import ALL_ASSETS
    from pipelines.resources import default_resources

    root = tmp_path_factory.mktemp("export")
    corpus = sampled_shipped_corpus(root / "corpus", 8)  # every 40th releases no task
    resources = {
        **default_resources(),
        "storage": StorageResource(root=str(root / "warehouse"), duckdb_path=str(root / "foresci.duckdb")),
        "corpus_source": CorpusSourceResource(shipped_dir=str(corpus)),
        "embeddings": EmbeddingResource(),
        "lance": LanceResource(uri=str(root / "lancedb")),
        "llm": LLMResource(model="", cache_dir=str(root / "cache")),
        "judge_llm": LLMResource(model="", cache_dir=str(root / "cache")),
    }
    instance = dg.DagsterInstance.ephemeral()
    instance.add_dynamic_partitions("cutoff", [C])
    selection = [a for a in ALL_ASSETS if a.key.to_user_string() != "leaderboard"]
    assert dg.materialize(selection, partition_key=partition_key(D, C), instance=instance, resources=resources).success
    return root, resources["storage"].store(), resources


@pytest.fixture(scope="module")
def exported(built, tmp_path_factory):
    """`foresci export hf` of the built partition (FORESCI_HOME pointed at it)."""
    from pipelines.cli import main

    root, store, _ = built
    out = tmp_path_factory.mktemp("hf") / "foresci-llm_agent"
    old = os.environ.get("FORESCI_HOME")
    os.environ["FORESCI_HOME"] = str(root)
    try:
        assert main(["export", "hf", "--domain", D, "--cutoff", C, str(out)]) == 0
    finally:
        os.environ.pop("FORESCI_HOME") if old is None else os.environ.__setitem__("FORESCI_HOME", old)
    return out, out.parent / f"{out.name}-private"


def configs_of(folder: Path) -> list[str]:
    import yaml

    header = yaml.safe_load((folder / "README.md").read_text().split("---\n")[1])
    return [c["config_name"] for c in header["configs"]]


def test_the_asset_writes_the_public_dataset_and_hides_the_gold(built, exported):
    root, store, _ = built
    base = f"_artifacts/hf_export/domain={D}/cutoff={C}"
    public, hidden = root / "warehouse" / "public" / base / "hf", root / "warehouse" / "hidden" / base / "hf_private"
    assert (public / "README.md").exists() and (hidden / "README.md").exists()
    assert not (root / "warehouse" / "public" / base / "hf_private").exists()
    out, _ = exported
    # the asset and the CLI write the same dataset
    for path in out.rglob("*.parquet"):
        assert (public / path.relative_to(out)).read_bytes() == path.read_bytes()
    golds = [
        GoldTarget.model_validate_json(line)
        for line in store.read_bytes(store.artifact_path("release", D, C, "gold.jsonl")).decode().splitlines()
    ]
    text = b"".join(p.read_bytes() for p in public.rglob("*") if p.is_file())
    assert golds and not any(c.text.encode() in text for g in golds for c in g.claims if c.type == "future-realisation")


def test_every_config_loads_and_the_kb_rebuilds_with_the_same_hits(built, exported):
    import time

    from datasets import load_dataset

    from assets.knowledge_base.logic import KnowledgeBaseView, table_name
    from foresci.inspect_bench import ExportedRelease

    root, store, resources = built
    out, private = exported
    started = time.perf_counter()
    rows = {config: load_dataset(str(out), name=config, split="test") for config in configs_of(out)}
    load_s = time.perf_counter() - started
    released = json.loads(store.read_bytes(store.artifact_path("release", D, C, "manifest.json")))
    families = [c for c in rows if c not in ("kb", "releases")]
    assert families and sum(len(rows[f]) for f in families) == released["counts"]["tasks"]
    assert len(rows["kb"]) == released["counts"]["kb_papers"] and all(rows["kb"]["abstract"])
    for config in configs_of(private):
        gold = load_dataset(str(private), name=config, split="test")
        assert sorted(gold["task_id"]) == sorted(rows[config]["task_id"])
    size = sum(p.stat().st_size for p in out.rglob("*") if p.is_file())
    print(f"\nexport: {size} bytes public, {len(rows['kb'])} KB papers, loaded every config in {load_s:.2f} s")

    embed = resources["embeddings"].embedder().encode
    lance = resources["lance"].connect()
    original = KnowledgeBaseView(
        lance.open_table(table_name(D, C)), released and Task.model_validate(rows[families[0]][0]).cutoff, embed
    )
    rebuilt = ExportedRelease(out).view(D, C)
    questions = [r["question"] for f in families for r in rows[f]][:6]
    assert len(questions) >= 3
    for q in questions:
        for mode in ("hybrid", "dense", "text"):
            assert [h.arxiv_id for h in original.search(q, k=10, mode=mode)] == [
                h.arxiv_id for h in rebuilt.search(q, k=10, mode=mode)
            ], (q, mode)


# -- Inspect ---------------------------------------------------------------------------


def sample_scores(log) -> dict[str, dict[str, float]]:
    assert log.status == "success", log.error
    return {str(s.id): s.scores["foresci_scorer"].value for s in log.samples}


def controls(store, method: str) -> dict[str, dict[str, float]]:
    from foresci.inspect_bench import score_values

    return {
        s.task_id: score_values(s) for s in store.read_records("validity_controls", D, C, Score) if s.method == method
    }  # one empty and one gold control per task


def test_inspect_cli_runs_offline_and_its_scores_equal_the_pipelines_empty_control(built, exported, tmp_path):
    from inspect_ai.log import list_eval_logs, read_eval_log

    _, store, _ = built
    out, _ = exported
    families = [c for c in configs_of(out) if c not in ("kb", "releases")]
    assert families, "the partition released no task: nothing to evaluate"
    inspect = Path(sys.executable).parent / "inspect"
    for family in families:
        run = subprocess.run(
            [
                str(inspect),
                "eval",
                f"foresci/{family}",
                "--model",
                "mockllm/model",
                "-T",
                f"release={out}",
                "--log-dir",
                str(tmp_path / family),
                "--no-log-images",
            ],
            env={**os.environ, **ENV},
            capture_output=True,
            text=True,
            timeout=1800,
        )
        assert run.returncode == 0, run.stderr[-3000:]
        logs = list_eval_logs(str(tmp_path / family))
        assert len(logs) == 1
        got = sample_scores(read_eval_log(logs[0]))
        expected = controls(store, "control:empty")
        assert got and set(got) <= set(expected)
        if get_family(family).answer_kind in ("text", "report"):
            # mockllm's default reply is prose: for a free-text family it is a (content-free) report,
            # not the empty answer, so only the range is checked here; the next test compares the
            # same answers exactly for every family
            assert all(0.0 <= v <= 1.0 for values in got.values() for v in values.values() if v is not None)
            continue
        for task_id, values in got.items():
            assert values == pytest.approx(expected[task_id], rel=1e-9, abs=1e-12), task_id


def replay_model(tasks: list[Task], replies: dict[str, dict], search: bool):
    """mockllm outputs: per task (found by its prompt), optionally one kb_search call for the
    task's question, then the JSON reply `replies[task_id]` (plus the ids the search returned
    as cited_ids)."""
    from inspect_ai.model import ChatMessageTool, ChatMessageUser, ModelOutput, get_model

    from foresci.inspect_bench import messages

    by_prompt = {messages(t)[1]: t for t in tasks}

    def output(input, tools, tool_choice, config):
        prompt = next(m.text for m in input if isinstance(m, ChatMessageUser))
        task = by_prompt[prompt]
        results = [m for m in input if isinstance(m, ChatMessageTool)]
        if search and not results:
            return ModelOutput.for_tool_call("mockllm/model", "kb_search", {"query": task.question, "k": 5})
        reply = dict(replies[task.task_id])
        if results:
            reply["cited_ids"] = [h["arxiv_id"] for h in json.loads(results[0].text)][:3]
        return ModelOutput.from_content("mockllm/model", json.dumps(reply))

    return get_model("mockllm/model", custom_outputs=output)


def test_inspect_scores_equal_foresci_scores_of_the_same_answers(built, exported, tmp_path):
    from inspect_ai import eval as inspect_eval

    from assets.agents.external import ExternalAgentSpec, python_agent
    from assets.agents.runner import run_method
    from assets.families.registry import get_family
    from assets.judging.scoring import score_answers
    from foresci.inspect_bench import ExportedRelease, score_values
    from foresci.inspect_tasks import foresci_task

    _, store, resources = built
    out, _ = exported
    bench = ExportedRelease(out)
    gold_control = controls(store, "control:gold")
    compared = 0
    for family in bench.families:
        tasks, golds = bench.tasks(family), bench.golds(family)
        replies = {t.task_id: get_family(family).stated_answer(t, golds[t.task_id]) for t in tasks}
        # 1. the gold answer replayed by the model, no retrieval: the pipeline's control:gold
        logs = inspect_eval(
            foresci_task(family, str(out)),
            model=replay_model(tasks, replies, search=False),
            log_dir=str(tmp_path / f"{family}-gold"),
            display="none",
        )
        for task_id, values in sample_scores(logs[0]).items():
            assert values == pytest.approx(gold_control[task_id], rel=1e-9, abs=1e-12), task_id
            compared += 1
        # 2. the gold answer citing what kb_search returned: foresci's BYO runner + score_answers
        logs = inspect_eval(
            foresci_task(family, str(out)),
            model=replay_model(tasks, replies, search=True),
            log_dir=str(tmp_path / f"{family}-cited"),
            display="none",
        )
        inspect_scores = sample_scores(logs[0])

        def agent(task: dict, kb) -> dict:  # called in this iteration only
            hits = kb.search(task["question"], k=5)
            return {
                "answer": {**replies[task["task_id"]], "cited_ids": [h["arxiv_id"] for h in hits][:3]},  # noqa: B023
                "backbone": "none",
            }

        view = bench.view(D, C)
        answers, failures = run_method(python_agent(ExternalAgentSpec("replay", "x:agent"), agent), tasks, view)
        assert not failures and len(answers) == len(tasks)
        assert any(a.evidence_ids for a in answers)
        scores, _ = score_answers(
            answers, tasks, list(golds.values()), bench.embed, view.dates(), cutoff=tasks[0].cutoff, kb_get=view.get
        )
        for s in scores:
            assert inspect_scores[s.task_id] == pytest.approx(score_values(s), rel=1e-9, abs=1e-12), s.task_id
            compared += 1
    print(f"\nInspect vs foresci: {compared} answer scores equal")
    assert compared >= 2

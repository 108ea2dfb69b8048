"""The Inspect tasks on a release in the ForeSci authors' format (tests/fixtures/foresci_release):
`foresci/<family> -T release=<tasks.jsonl> -T hidden=<hidden.jsonl>` imports it as `foresci
evaluate` does, binds every sample to its own cutoff's knowledge base and scores with the same
scorers. In-process `inspect_ai.eval` with `mockllm` (offline); each cutoff's KB is a small one
(`assets.release.evaluate.cutoff_kb` replaced, as in tests/pipelines/test_evaluate_cli.py).
"""

from __future__ import annotations

import os

os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")
os.environ.setdefault("INSPECT_DISPLAY", "none")

import json
from collections import Counter
from datetime import date

import pytest

from tests.factories import AUTHORS_HIDDEN as HIDDEN
from tests.factories import AUTHORS_TASKS as TASKS
from tests.factories import small_kb_factory


@pytest.fixture(scope="module")
def kbs(tmp_path_factory):
    return small_kb_factory(tmp_path_factory.mktemp("kbs"))


@pytest.fixture
def imported(kbs, tmp_path, monkeypatch):
    import foresci.inspect_tasks as inspect_tasks

    monkeypatch.setattr("assets.release.evaluate.cutoff_kb", kbs)
    monkeypatch.setattr(inspect_tasks, "_RELEASES", {})
    return tmp_path


def replay_model(tasks, replies: dict[str, dict] | None, searched: list):
    """mockllm: per task (found by its prompt) one kb_search for its question, then the JSON
    reply `replies[task_id]` citing what the search returned -- or, `replies` None, prose
    (no JSON: foresci's empty answer). `searched` collects (task, hits) of every search."""
    from inspect_ai.model import ChatMessageTool, ChatMessageUser, ModelOutput, get_model

    from foresci.inspect_bench import messages

    by_prompt = {messages(t)[1]: t for t in tasks}

    def output(input, tools, tool_choice, config):
        task = by_prompt[next(m.text for m in input if isinstance(m, ChatMessageUser))]
        results = [m for m in input if isinstance(m, ChatMessageTool)]
        if not results:
            return ModelOutput.for_tool_call("mockllm/model", "kb_search", {"query": task.question, "k": 5})
        hits = json.loads(results[0].text)
        searched.append((task, hits))
        if replies is None:
            return ModelOutput.from_content("mockllm/model", "I think the field will grow.")
        reply = {**replies[task.task_id], "cited_ids": [h["arxiv_id"] for h in hits][:3]}
        return ModelOutput.from_content("mockllm/model", json.dumps(reply))

    return get_model("mockllm/model", custom_outputs=output)


def sample_scores(log) -> dict[str, dict[str, float]]:
    assert log.status == "success", log.error
    return {str(s.id): s.scores["foresci_scorer"].value for s in log.samples}


def sample_answers(log) -> dict[str, tuple[dict, dict]]:
    """Per sample: (the foresci Score, the foresci Answer) the scorer kept in its metadata."""
    return {
        str(s.id): (s.scores["foresci_scorer"].metadata["foresci_score"], s.scores["foresci_scorer"].metadata["foresci_answer"])
        for s in log.samples
    }


def test_every_family_of_the_import_is_an_inspect_task_bound_to_its_cutoff(imported):
    from assets.release.importer import import_release
    from foresci.inspect_tasks import bottleneck, direction, planning, venue

    expected = Counter(t.family for t in import_release(TASKS, HIDDEN).tasks)
    cutoffs = {t.task_id: t.cutoff.isoformat() for t in import_release(TASKS, HIDDEN).tasks}
    for make in (direction, bottleneck, planning, venue):
        task = make(release=str(TASKS), hidden=str(HIDDEN), kb_dir=str(imported / "kb"))
        samples = list(task.dataset)
        family = make.__name__
        assert len(samples) == expected[family] == 3, family
        assert task.metadata["imported"] is True and task.metadata["missing_gold"] == []
        for s in samples:
            assert s.metadata["family"] == family and s.metadata["cutoff"] == cutoffs[s.id]
            assert s.metadata["task"]["cutoff"] == cutoffs[s.id]
            blob = json.dumps(s.metadata) + json.dumps([m.model_dump() for m in s.input], default=str)
            assert "ground_truth" not in blob and "gold_answer" not in blob  # nothing hidden in a sample
    # a family with samples at two cutoffs, and a filter on one of them
    assert venue(release=str(TASKS), hidden=str(HIDDEN)).metadata["cutoffs"] == ["2025-08-31", "2025-11-30"]
    assert [s.id for s in venue(release=str(TASKS), hidden=str(HIDDEN), cutoff="2025-11-30").dataset] == [
        "RTLX-0010",
        "RTLX-0011",
    ]


def test_without_the_hidden_file_an_imported_release_is_refused(imported):
    from assets.release.importer import MissingGoldError
    from foresci.inspect_tasks import planning

    with pytest.raises(MissingGoldError, match="hidden"):
        planning(release=str(TASKS))


@pytest.mark.parametrize("family", ["direction", "bottleneck", "planning", "venue"])
def test_the_reference_answer_scores_above_an_empty_one_and_tools_see_only_the_cutoff(imported, family):
    from inspect_ai import eval as inspect_eval

    from assets.validity.controls import stated_fields
    from foresci.inspect_tasks import foresci_task, load_release

    bench = load_release(str(TASKS), "", str(imported / "kb"), str(HIDDEN))
    tasks, golds = bench.tasks(family), bench.golds(family)
    replies = {t.task_id: stated_fields(t, golds[t.task_id]) for t in tasks}  # the control:gold fields
    searched: list = []
    ref_log = inspect_eval(
        foresci_task(family, str(TASKS), kb_dir=str(imported / "kb"), hidden=str(HIDDEN)),
        model=replay_model(tasks, replies, searched),
        log_dir=str(imported / "ref"),
        display="none",
    )[0]
    empty = sample_scores(
        inspect_eval(
            foresci_task(family, str(TASKS), kb_dir=str(imported / "kb"), hidden=str(HIDDEN)),
            model=replay_model(tasks, None, searched),
            log_dir=str(imported / "empty"),
            display="none",
        )[0]
    )
    ref = sample_scores(ref_log)
    assert set(ref) == set(empty) == {t.task_id for t in tasks}
    for tid, (score, answer) in sample_answers(ref_log).items():
        assert ref[tid]["fta"] >= 0.9 and ref[tid]["fta"] > empty[tid]["fta"], (tid, ref[tid], empty[tid])
        # it cites what the cutoff-bound kb_search returned (so no citation is dated after the cutoff)
        returned = {h["arxiv_id"] for task, hits in searched if task.task_id == tid for h in hits}
        assert answer["evidence_ids"] and set(answer["evidence_ids"]) <= returned, (tid, answer["evidence_ids"])
        assert score["trace_linkage"] is not None and "not dated <= cutoff" not in (score["note"] or ""), score
    # every kb_search of a sample returned papers of its own domain dated on or before its own cutoff
    assert len(searched) == 2 * len(tasks) and all(hits for _, hits in searched)
    for task, hits in searched:
        assert all(date.fromisoformat(h["published"][:10]) <= task.cutoff for h in hits), task.task_id

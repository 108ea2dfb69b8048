"""The blind-reading sample: a seeded draw of released tasks per family over partitions, with
the public task and its hidden gold, and nothing of the author's (ratings, notes)."""

from datetime import date

from assets.ranking.presentation import PRESENTED_GOLDS, PRESENTED_TASKS
from assets.validity.review_sample import review_sample, review_sheet_lines
from core.records import GoldTarget, Task, TaskOption, TaskRating
from resources.storage import PartitionStore

C = "2025-12-31"


def _task(tid: str, family: str, domain: str) -> Task:
    return Task(
        task_id=tid,
        family=family,
        domain=domain,
        cutoff=date(2025, 12, 31),
        window_start=date(2026, 1, 1),
        window_end=date(2026, 6, 30),
        horizon="6-month",
        title=f"title {tid}",
        question=f"question {tid}?",
        instructions="",
        answer_requirements=[],
        options=[TaskOption(option_id="A", text="DPO"), TaskOption(option_id="B", text="GRPO")],
    )


def _store(tmp_path) -> PartitionStore:
    store = PartitionStore(str(tmp_path / "wh"))
    for d in ("llm_agent", "rag_and_retrieval_structuring"):
        ids = [f"{d}-{f}-{i}" for f in ("direction", "planning") for i in range(4)]
        ratings = [
            TaskRating(
                task_id=t, family=t.split("-")[1], elo=1200.0, rank_in_family=1, released=i % 4 != 3, quality=1.0, note="author"
            )
            for i, t in enumerate(ids)
        ]
        store.write_records("task_ranking", d, C, ratings, TaskRating)
        store.write_records(PRESENTED_TASKS, d, C, [_task(t, t.split("-")[1], d) for t in ids], Task)
        golds = [
            GoldTarget(
                task_id=t,
                family=t.split("-")[1],
                domain=d,
                cutoff=date(2025, 12, 31),
                preferred_ranking=["B", "A"],
                counted={"B": ['2601.00001 A GRPO paper -- "we train with GRPO"'], "A": []},
            )
            for t in ids
        ]
        store.write_records(PRESENTED_GOLDS, d, C, golds, GoldTarget)
    return store


def test_the_sample_is_seeded_per_family_over_partitions_and_released_only(tmp_path):
    store = _store(tmp_path)
    parts = [("llm_agent", C), ("rag_and_retrieval_structuring", C)]
    first = review_sample(store, parts, 2, seed=7)
    assert [e["task_id"] for e in first] == [e["task_id"] for e in review_sample(store, parts, 2, seed=7)]
    assert sorted({e["family"] for e in first}) == ["direction", "planning"]
    assert sum(e["family"] == "planning" for e in first) == 2
    assert all(not e["task_id"].endswith("-3") for e in first)  # unreleased tasks are never drawn
    many = {tuple(e["task_id"] for e in review_sample(store, parts, 2, seed=s)) for s in range(10)}
    assert len(many) > 1  # the seed changes the draw
    assert all(len(review_sample(store, parts, 99, seed=s)) == 12 for s in (1, 2))  # 6 released per family


def test_the_sheet_shows_the_task_and_the_gold_papers_and_no_author_note(tmp_path):
    [entry] = review_sample(_store(tmp_path), [("llm_agent", C)], 1, seed=3)[:1]
    assert entry["gold"]["ranking"] == ["B: GRPO", "A: DPO"]
    assert entry["gold"]["counted"]["GRPO"] == ['2601.00001 A GRPO paper -- "we train with GRPO"']
    text = "\n".join(review_sheet_lines([entry], 3))
    assert "seed 3" in text and entry["question"] in text and "we train with GRPO" in text
    assert "author" not in text.lower().replace("author's", "")
    assert "| readable | decision-worthy | answerable | gold right |" in text

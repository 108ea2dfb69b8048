"""A child process that appends decisions (test_curation's two-writer test). Kept apart from
the test module so a spawned child imports only the decisions store, not the whole suite."""

from resources.decisions import DecisionStore


def write_many(path: str, reviewer: str, n: int) -> None:
    store = DecisionStore(path)
    for i in range(n):
        store.record(
            domain="llm_agent", cutoff="2025-12-31", task_id=f"t{i % 5}", content_hash="h", action="approve", reviewer=reviewer
        )

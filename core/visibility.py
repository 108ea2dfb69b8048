"""Which tables and files are hidden: declared here, once, and nowhere else.

Hidden data (what happened after the cutoff, gold, construction records, observations
made after the cutoff) is stored under `warehouse/hidden/`, never read by a public asset
or an agent. The store (`resources.storage`) places every table and artifact by this
list, the asset definitions tag their assets from it, and the code location's
public/hidden asset lists (tests/pipelines/test_definitions.py walks the graph with them) derive
from it.
"""

from __future__ import annotations

from pathlib import PurePosixPath
from typing import Literal

Visibility = Literal["public", "hidden"]

HIDDEN_TABLES = frozenset(
    {
        "future_window",  # papers after the cutoff
        "gold_targets",  # hidden targets
        "presented_golds",  # the gold targets in the presented release's option letters (task_ranking)
        "task_builds",  # which signals each task came from, build traces
        "paper_metadata_observed",  # S2 values observed after the cutoff
        "audit_queue",  # curation: reviewer-facing audit records (gold, flags, model review)
        "audit_decisions",  # curation: reviewers' decisions, names and notes (resources/decisions.py)
    }
)
HIDDEN_ARTIFACTS = frozenset(
    {
        "gold.jsonl",  # release files meant for a private repository
        "independence.jsonl",  # a release's duplicate groups: task ids joined by hidden gold and projects
    }
)
# artifact folders whose every file is hidden: the HF export's gold dataset (assets/export/)
HIDDEN_ARTIFACT_DIRS = frozenset({"hf_private"})


def visibility_of(table: str) -> Visibility:
    return "hidden" if table in HIDDEN_TABLES else "public"


def artifact_visibility(name: str) -> Visibility:
    path = PurePosixPath(name)
    hidden = path.name in HIDDEN_ARTIFACTS or (len(path.parts) > 1 and path.parts[0] in HIDDEN_ARTIFACT_DIRS)
    return "hidden" if hidden else "public"


def visibility_tags(table: str) -> dict[str, str]:
    """Dagster tags of an asset: its visibility, as the UI shows and filters it."""
    return {"visibility": visibility_of(table)}


# What an agent may be shown (with the cutoff-bound KB): none of these may have a hidden
# ancestor in the asset graph (tests/pipelines/test_definitions.py). Evaluation outputs (ranking,
# scores, leaderboard) are public too but legitimately read gold, so they are not here.
AGENT_VISIBLE = frozenset(
    {
        "corpus_snapshot",
        "corpus_volume",
        "paper_metadata",
        "paper_fulltext",
        "knowledge_base",
        "taxonomy",
        "evidence_records",
        "research_signals",
        "tasks",
    }
)

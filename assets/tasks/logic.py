"""Task builders (ForeSci §3.4, Appendix B.7): every registered family, in registry order.

Each family module (`assets/families/`) turns pre-cutoff signals into public `Task`s;
`assets.toolbox.building` holds what they share (support packets, option sampling,
drafting, curation, construction records). Offline the question text comes from each
family's documented template; `drafter` is the hook for LLM drafting (it receives a
`Draft` and returns (title, question) or a `DraftResult` with its trace).
"""

from __future__ import annotations

from assets.families import all_families
from assets.toolbox.building import BuildSettings, Drafter, TaskBuilder
from core.records import EvidenceRecord, Failure, Signal, Task, TaskBuild


def build_tasks(signals: list[Signal], records: list[EvidenceRecord], settings: BuildSettings,
                drafter: Drafter | None = None, *, papers: list | None = None, fulltext: dict | None = None,
                tree_drafter=None, inspiration_drafter=None, embed=None,
                llm=None) -> tuple[list[Task], list[TaskBuild], list[Failure]]:
    """Public tasks of every registered family, their construction records, and failure rows.

    Deterministic for fixed inputs and seed. Dropped drafts, duplicates, candidates
    without a stable premise and families below their minimum become failure rows.
    `embed` (texts -> L2-normalised vectors), if given, is there for families that compare
    papers (venue: a project's home domain and nearest pre-cutoff papers). `llm`, if given, is
    the drafting model client; families that draft parts with a model (phase: inspirations,
    rediscovery: problem trees) build their drafter from it unless one is passed explicitly.
    """
    failures: list[Failure] = []
    builder = TaskBuilder(signals, records, settings, drafter, failures)
    # families built from papers (TaskFamily.reads_papers, e.g. rediscovery): the partition's
    # screened papers, their GROBID sections by id, and an optional problem-tree drafter
    builder.papers, builder.fulltext, builder.tree_drafter = papers or [], fulltext or {}, tree_drafter
    builder.embed = embed
    builder.llm = llm  # the drafting model client (None offline): families draft their own parts with it
    # the phase family's inspirations (DeepResearch Arena): model-drafted with a model, else the offline extractor
    builder.inspiration_drafter, builder.inspirations = inspiration_drafter, []
    for family in all_families():
        family.build(builder)
    for family in all_families():
        builder.report_minimum(family.name)
    return builder.tasks, builder.builds, failures

"""Task builders (ForeSci §3.4, Appendix B.7): every registered family, in registry order.

Each family module (`assets/families/`) turns pre-cutoff signals into public `Task`s;
`assets.toolbox.building` holds what they share (support packets, option sampling,
drafting, curation, construction records). Offline the question text comes from each
family's documented template; `drafter` is the hook for LLM drafting (it receives a
`Draft` and returns (title, question) or a `DraftResult` with its trace).
"""

from __future__ import annotations

from assets.families import all_families
from assets.toolbox.building import BuildInputs, BuildSettings, Drafter, TaskBuilder
from core.records import EvidenceRecord, Failure, Signal, Task, TaskBuild


def needed_inputs(families=None) -> frozenset[str]:
    """The build inputs the (registered, or given) families declare (`TaskFamily.needs`)."""
    families = all_families() if families is None else families
    return frozenset().union(*(f.needs for f in families)) if families else frozenset()


def build_tasks(
    signals: list[Signal],
    records: list[EvidenceRecord],
    settings: BuildSettings,
    drafter: Drafter | None = None,
    *,
    papers: list | None = None,
    fulltext: dict | None = None,
    tree_drafter=None,
    inspiration_drafter=None,
    embed=None,
    llm=None,
) -> tuple[list[Task], list[TaskBuild], list[Failure]]:
    """Public tasks of every registered family, their construction records, and failure rows.

    Deterministic for fixed inputs and seed. Dropped drafts, duplicates, candidates
    without a stable premise and families below their minimum become failure rows.
    `embed` (texts -> L2-normalised vectors), if given, is there for families that compare
    papers (venue: a project's home domain and nearest pre-cutoff papers). `llm`, if given, is
    the drafting model client; families that draft parts with a model (phase: inspirations,
    rediscovery: problem trees) build their drafter from it unless one is passed explicitly.
    """
    failures: list[Failure] = []
    # what families may read beyond signals and records (TaskFamily.needs): the partition's
    # screened papers, their GROBID sections by id, the embedder, the drafting model client
    inputs = BuildInputs(
        papers=papers or [],
        fulltext=fulltext or {},
        embed=embed,
        llm=llm,
        tree_drafter=tree_drafter,
        inspiration_drafter=inspiration_drafter,
    )
    builder = TaskBuilder(signals, records, settings, drafter, failures, inputs)
    for family in all_families():
        if family.build is not None:  # a family without a builder facet builds nothing here
            family.build(builder)
    for family in all_families():
        builder.report_minimum(family.name)
    return builder.tasks, builder.builds, failures

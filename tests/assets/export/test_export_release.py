"""The whole multi-cutoff release as one Hugging Face dataset and as Inspect tasks, over a tiny
two-cutoff release made from synthetic partitions (release files from `release_files`, the card
from `release_card`, the statistics from `release_statistics`): a split per cutoff with the right
rows, no gold in the public files, the card's counts and CI / MDD / verdict rows in the dataset
card, and Inspect samples of both cutoffs, each bound to the KB of its own cutoff."""

from __future__ import annotations

import os

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("HF_DATASETS_OFFLINE", "1")

import json
from datetime import date, timedelta

import pytest
import yaml

from assets.export.hf import ExportError, ReleaseFiles, cutoff_split, default_private_dir, export_release_hf
from assets.leaderboard.statistics import RELEASE_METRICS, pairwise_text
from assets.release.card import PartitionData, release_card, release_statistics
from assets.release.logic import kb_manifest_row, release_files
from core.leakage import GOLD_ONLY_KEYS, LeakageError
from core.papers import metadata_licence
from core.records import GoldClaim, GoldTarget, Score, TaskBuild, TaskOption, TaskRating
from tests.factories import make_task

D = "llm_agent"
C2, C3 = date(2025, 9, 30), date(2025, 12, 31)
CUTOFFS = [
    {"cutoff": c.isoformat(), "horizon_months": 6, "window_start": (c + timedelta(days=1)).isoformat(), "window_end": e}
    for c, e in ((C2, "2026-03-30"), (C3, "2026-06-30"))
]
OPTIONS = {
    "direction": ["Tool use for agents", "GUI agents", "World models", "Agent memory"],
    "planning": ["Reflection loops", "Program synthesis", "Tree search"],
    "venue": ["ICLR/ICML/NeurIPS", "ACL/EMNLP/NAACL", "CVPR/ICCV/ECCV"],
}
# per cutoff: family -> tasks built; the last task of each family is held back (not released)
BUILT = {C2: {"direction": 8, "venue": 3}, C3: {"direction": 9, "planning": 3, "venue": 4}}


def tasks_of(cutoff: date) -> list:
    out = []
    for family, n in BUILT[cutoff].items():
        for i in range(1, n + 1):
            t = make_task(
                f"{D}-{cutoff}-{family}-{i:02d}", family, f"Which option of set {i} gains momentum?", OPTIONS[family], cutoff
            )
            out.append(
                t.model_copy(
                    update={"options": [TaskOption(option_id=chr(65 + k), text=o.text) for k, o in enumerate(t.options)]}
                )
            )
    return out


def gold_of(t) -> GoldTarget:
    return GoldTarget(
        task_id=t.task_id,
        family=t.family,
        domain=D,
        cutoff=t.cutoff,
        preferred_ranking=["B", "A"],
        claims=[
            GoldClaim(
                claim_id=f"{t.task_id}-c1",
                text=f"secret outcome of {t.task_id} in the window",
                type="future-realisation",
                time_scope="w",
                importance=1.0,
            )
        ],
        future_paper_ids=["2603.00001"],
        strength=0.7,
    )


def scores_of(t, k: int) -> list[Score]:
    """A clearly better method (momentum) and a weaker one (retrieval), two seeds each."""
    fta = {"momentum": (0.9, 0.8) if k % 3 else (0.7, 0.8), "retrieval": (0.2, 0.3) if k % 2 else (0.3, 0.4)}
    return [
        Score(
            answer_id=f"{t.task_id}:{m}:{s}",
            task_id=t.task_id,
            family=t.family,
            method=m,
            backbone="offline",
            fta=v,
            trace_linkage=0.5,
        )
        for m, vs in fta.items()
        for s, v in enumerate(vs)
    ]


def partition(cutoff: date, kb_source) -> tuple[ReleaseFiles, PartitionData]:
    tasks = tasks_of(cutoff)
    held = {t.task_id for t in tasks if int(t.task_id[-2:]) == BUILT[cutoff][t.family]}
    ratings = [
        TaskRating(task_id=t.task_id, family=t.family, elo=1200.0, rank_in_family=1, released=t.task_id not in held, quality=0.5)
        for t in tasks
    ]
    golds = [gold_of(t) for t in tasks]
    kb = [
        kb_manifest_row({**p.model_dump(), "licence": metadata_licence(p.source)})
        for p in kb_source
        if p.published <= cutoff and p.label != "excluded"
    ]
    window = next(c for c in CUTOFFS if c["cutoff"] == cutoff.isoformat())
    public, hidden, manifest = release_files(
        tasks,
        ratings,
        golds,
        kb,
        domain=D,
        cutoff=cutoff.isoformat(),
        window_end=window["window_end"],
        horizon_months=6,
        corpus_version="c",
        taxonomy_version="t",
        window_start=window["window_start"],
    )
    files = ReleaseFiles.from_bytes({**public, **hidden})
    released = files.tasks
    rows = [
        {
            "family": f,
            "tasks_released": sum(t.family == f for t in released),
            "tasks_dropped": BUILT[cutoff][f] - sum(t.family == f for t in released),
            "drop_reasons": json.dumps({"ranking: held back": 1}),
            "passed": True,
            "problems": "",
            "controls_gated": False,
            "released_with_defects": 0,
        }
        for f in BUILT[cutoff]
    ]
    controls = [
        Score(answer_id=f"{t.task_id}:{m}", task_id=t.task_id, family=t.family, method=m, backbone="offline", fta=v)
        for t in released
        for m, v in (
            ("control:gold", 1.0),
            ("control:random", 0.3),
            ("control:first_option", 0.3),
            ("control:empty", 0.0),
            ("control:every_option", 0.25),
            ("control:other_gold", 0.3),
        )
    ]
    judged = [s for k, t in enumerate(tasks) for s in scores_of(t, k)]  # held-back tasks are scored too
    data = PartitionData(
        domain=D,
        cutoff=cutoff.isoformat(),
        horizon_months=6,
        window_start=window["window_start"],
        window_end=window["window_end"],
        manifest=manifest,
        built=tasks,
        released=released,
        golds={g.task_id: g for g in files.golds},
        builds={t.task_id: TaskBuild(task_id=t.task_id, signal_ids=[], node_ids=[]) for t in released},
        validity=rows,
        controls=controls,
        scores=judged,
    )
    return files, data


@pytest.fixture(scope="module")
def release(sample_papers):
    pairs = [partition(c, sample_papers) for c in (C2, C3)]
    releases, parts = [r for r, _ in pairs], [p for _, p in pairs]
    card, _ = release_card(parts, cutoffs=CUTOFFS, domains=[D], name="test-r")
    return releases, parts, card, release_statistics(parts)


@pytest.fixture(scope="module")
def exported(release, tmp_path_factory):
    releases, _, card, stats = release
    out = tmp_path_factory.mktemp("hf-release") / "foresci-release"
    export = export_release_hf(releases, card, stats)
    export.write(out, default_private_dir(out))
    return out, default_private_dir(out), export


def test_a_split_per_cutoff_with_the_right_rows(release, exported):
    from datasets import load_dataset

    releases, _, card, _ = release
    out, private, export = exported
    header = yaml.safe_load((out / "README.md").read_text().split("---\n")[1])
    splits = [cutoff_split(C2.isoformat()), cutoff_split(C3.isoformat())]
    assert splits == ["cutoff_2025_09_30", "cutoff_2025_12_31"]
    configs = {c["config_name"]: [f["split"] for f in c["data_files"]] for c in header["configs"]}
    # a split per cutoff; a config without rows at a cutoff has no split there (no planning task at C2)
    assert configs == {**{name: splits for name in ("direction", "venue", "kb", "releases")}, "planning": splits[1:]}
    released = {(r.cutoff, t.family): 0 for r in releases for t in r.tasks}
    for r in releases:
        for t in r.tasks:
            released[(r.cutoff, t.family)] += 1
    # built minus the held-back task of each family; no planning at the first cutoff
    assert released == {
        ("2025-09-30", "direction"): 7,
        ("2025-09-30", "venue"): 2,
        ("2025-12-31", "direction"): 8,
        ("2025-12-31", "planning"): 2,
        ("2025-12-31", "venue"): 3,
    }
    for family in ("direction", "planning", "venue"):
        for split, cutoff in zip(splits, (C2, C3)):
            if split not in configs[family]:
                assert (cutoff.isoformat(), family) not in released and split not in export.splits[family]
                continue
            data = load_dataset(str(out), name=family, split=split)
            assert len(data) == released.get((cutoff.isoformat(), family), 0) == export.splits[family][split]
            assert set(data["cutoff"]) <= {cutoff.isoformat()} and set(data["domain"]) <= {D}
            assert not set(data.column_names) & GOLD_ONLY_KEYS
            gold = load_dataset(str(private), name=family, split=split)
            assert sorted(gold["task_id"]) == sorted(data["task_id"])
    for split, cutoff in zip(splits, (C2, C3)):
        kb = load_dataset(str(out), name="kb", split=split)
        assert len(kb) == next(len(r.kb_rows) for r in releases if r.cutoff == cutoff.isoformat()) > 0
        assert max(kb["published"]) <= cutoff.isoformat() and set(kb["cutoff"]) == {cutoff.isoformat()}
        assert len(load_dataset(str(out), name="releases", split=split)) == 1
    assert json.loads((out / "release_card" / "card.json").read_text())["card_version"] == card["card_version"]


def readable(folder) -> str:
    """Every file of an export as text: Parquet rows as JSON (the files are compressed), the rest as is."""
    import pyarrow.parquet as pq

    return "\n".join(
        json.dumps(pq.read_table(p).to_pylist(), default=str) if p.suffix == ".parquet" else p.read_text()
        for p in sorted(folder.rglob("*"))
        if p.is_file()
    )


def test_no_gold_in_the_public_files(release, exported):
    releases = release[0]
    out, private, _ = exported
    public_text, private_text = readable(out), readable(private)
    golds = [g for r in releases for g in r.golds]
    assert len(golds) == 22  # the released tasks' golds
    for g in golds:
        assert g.claims[0].text not in public_text and g.claims[0].text in private_text
    from assets.export.hf import read_private_golds

    assert {g.task_id: g for f in ("direction", "planning", "venue") for g in read_private_golds(private, f)} == {
        g.task_id: g for g in golds
    }
    assert not any("gold" in p.name or "independence" in p.name for p in out.rglob("*"))
    assert not any(key in public_text for key in ('"preferred_ranking"', '"claims"', '"future_paper_ids"'))


def test_leakage_is_checked_per_cutoff_and_a_stale_card_is_refused(release):
    releases, _, card, stats = release
    early, late = releases
    # a task of the first cutoff quoting its own gold: refused
    leaky = early.tasks[0].model_copy(update={"question": early.tasks[0].question + " " + early.golds[0].claims[0].text})
    bad = ReleaseFiles(
        domain=D,
        cutoff=early.cutoff,
        manifest=early.manifest,
        tasks=[leaky, *early.tasks[1:]],
        kb_rows=early.kb_rows,
        golds=early.golds,
    )
    with pytest.raises(LeakageError, match=leaky.task_id):
        export_release_hf([bad, late], card, stats)
    # a partition whose release changed since the card was written: the card is stale
    changed = ReleaseFiles(
        domain=D,
        cutoff=late.cutoff,
        manifest={**late.manifest, "release_version": "other"},
        tasks=late.tasks,
        kb_rows=late.kb_rows,
        golds=late.golds,
    )
    with pytest.raises(ExportError, match="stale"):
        export_release_hf([early, changed], card, stats)
    with pytest.raises(ExportError, match="partitions"):
        export_release_hf([early], card, stats)


def test_the_dataset_card_shows_the_counts_and_the_statistics(release, exported):
    _, _, card, stats = release
    out = exported[0]
    text = (out / "README.md").read_text()
    # counts: the release card's own tables (per family, per family x domain x cutoff, independent)
    assert "# foresci benchmark release test-r" in text
    assert "| direction | 17 | 15 | 2 |" in text  # built / released / dropped over both cutoffs
    assert "| direction | llm_agent | 7 / 8 | 8 / 9 |" in text
    assert "| planning | llm_agent | – | 2 / 3 |" in text
    assert f"| all | 27 | 22 | 5 | {card['totals']['duplicates']} | {card['totals']['effective']} |" in text
    assert "| `cutoff_2025_09_30` | 2025-09-30 | 6 months | 2025-10-01 .. 2026-03-30 | 9 |" in text
    assert "| `cutoff_2025_12_31` | 2025-12-31 | 6 months | 2026-01-01 .. 2026-06-30 | 13 |" in text
    # statistics: per family x method mean, CI and MDD; the pairwise verdicts
    rows = {(r["family"], r["method"]): r for r in stats["methods"]}
    assert set(rows) == {(f, m) for f in ("direction", "planning", "venue") for m in ("momentum", "retrieval")}
    mom = rows[("direction", "momentum")]
    assert mom["n"] == 15 and mom["fta_ci_low"] < mom["fta"] < mom["fta_ci_high"] and mom["mdd"] > 0
    assert (
        f"| direction | momentum | 15 | {mom['fta']:.3f} | [{mom['fta_ci_low']:.3f}, {mom['fta_ci_high']:.3f}] | "
        f"{mom['mdd']:.3f} |"
    ) in text
    verdicts = {p["family"]: p["verdict"] for p in stats["pairwise"]}
    assert verdicts == {"direction": "differs", "planning": "cannot tell", "venue": "cannot tell"}
    for p in stats["pairwise"]:
        assert f"- {p['family']}: {pairwise_text(p)}" in text
    assert "Verdicts: 2 cannot tell, 1 differs." in text
    # only released tasks count: 15 direction tasks, not the 17 built (held-back ones are scored too)
    assert json.loads((out / "release_card" / "statistics.json").read_text()) == json.loads(json.dumps(stats))


def test_the_release_statistics_are_the_leaderboards():
    from pipelines.cli import LEADERBOARD_METRICS

    assert tuple(RELEASE_METRICS) == LEADERBOARD_METRICS


def test_inspect_samples_of_both_cutoffs_each_on_its_own_kb(release, exported, sample_papers, tmp_path):
    from foresci.inspect_bench import ExportedRelease
    from foresci.inspect_tasks import foresci_task

    releases = release[0]
    out = exported[0]
    task = foresci_task("direction", str(out), kb_dir=str(tmp_path / "kb"))
    by_cutoff = {}
    for s in task.dataset:
        by_cutoff.setdefault(s.metadata["cutoff"], []).append(s)
        assert s.metadata["task"]["cutoff"] == s.metadata["cutoff"] and s.metadata["split"] == cutoff_split(s.metadata["cutoff"])
        assert s.target in ("", [])  # the gold never enters a sample
    assert {c: len(v) for c, v in by_cutoff.items()} == {"2025-09-30": 7, "2025-12-31": 8}
    assert task.metadata["cutoffs"] == ["2025-09-30", "2025-12-31"]
    only = foresci_task("venue", str(out), kb_dir=str(tmp_path / "kb"), cutoff="2025-09-30")
    assert [s.metadata["cutoff"] for s in only.dataset] == ["2025-09-30"] * 2
    with pytest.raises(ValueError, match="not in"):
        foresci_task("venue", str(out), kb_dir=str(tmp_path / "kb"), cutoff="2024-01-01")
    # each sample answers from the KB of its own cutoff: a paper of Oct-Dec 2025 is in the later
    # cutoff's KB and invisible to a task of the earlier one
    bench = ExportedRelease(out, kb_dir=tmp_path / "kb")
    between = [p for p in sample_papers if C2 < p.published <= C3 and p.label != "excluded"]
    assert between
    early = next(t for t in bench.tasks("direction") if t.cutoff == C2)
    late = next(t for t in bench.tasks("direction") if t.cutoff == C3)
    for p in between:
        assert bench.task_view(early).get(p.arxiv_id) is None
        assert bench.task_view(late).get(p.arxiv_id) is not None
    hits = bench.task_view(early).search("LLM agents tool use", k=20)
    assert hits and max(h.published for h in hits) <= C2
    assert len(bench.golds("direction")) == sum(t.family == "direction" for r in releases for t in r.tasks)

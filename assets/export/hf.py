"""Hugging Face datasets export of a release: Parquet per config and a dataset card.

A release (assets/release/) is canonical JSON Lines per partition. The export re-encodes
one or more released partitions as a Hugging Face dataset repository:

    <out>/README.md                      dataset card (YAML header: licence, configs, task
                                         categories, size; prose: cutoff, window, hidden gold,
                                         scoring, citations)
    <out>/<family>/test.parquet          one config per task family (public Task fields)
    <out>/kb/test.parquet                the cutoff-bound KB: id, title, abstract, date,
                                         label, source, licence (+ domain, cutoff)
    <out>/releases/test.parquet          the release manifests (versions, counts, hashes)

and the hidden gold as its own dataset, meant for a *private* repository:

    <private>/README.md, <private>/<family>/test.parquet   (task_id, domain, cutoff, gold JSON)

The two are built as separate file maps so that nothing hidden can be written into the
public tree by construction; before anything is returned, the public files are read back
as a consumer would (Parquet -> rows) and checked with the release's own leakage
validator (`validate_release`) against every gold, and the public map may hold no gold
key or gold file. Gold objects are stored as JSON text (one column) because their nested
dicts (slots, numbers) have per-task keys that a Parquet struct cannot hold.

No Dagster import: the asset (assets/export/definitions.py) and the CLI
(`foresci export hf`, pipelines/cli/datasets.py) both call `export_hf`.
"""

from __future__ import annotations

import io
import json
from dataclasses import dataclass, field
from datetime import date
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq

from assets.export.card import cutoff_split, private_card, private_release_card, public_card, release_dataset_card
from assets.release.card import card_files
from assets.release.logic import KB_MANIFEST_FIELDS, canonical_jsonl, validate_release
from core.leakage import GOLD_ONLY_KEYS, LeakageError
from core.records import GoldTarget, ScreenedPaper, Task
from core.visibility import artifact_visibility

SPLIT = "test"  # a benchmark: every task is a test item
KB_CONFIG = "kb"
RELEASES_CONFIG = "releases"
PUBLIC_DIR, PRIVATE_DIR = "hf", "hf_private"  # artifact folders of the asset (core/visibility.py hides the second)
PRIVATE_SUFFIX = "-private"  # default private directory: <out>-private, a sibling, never inside


class ExportError(ValueError):
    """The export cannot be written as asked (no release, private inside public, ...)."""


@dataclass
class ReleaseFiles:
    """One released partition as read from its release files (tasks.jsonl, kb_manifest.jsonl,
    manifest.json and the hidden gold.jsonl)."""

    domain: str
    cutoff: str
    manifest: dict
    tasks: list[Task]
    kb_rows: list[dict]
    golds: list[GoldTarget] = field(default_factory=list)

    @classmethod
    def from_bytes(cls, files: dict[str, bytes]) -> ReleaseFiles:
        def lines(name: str) -> list[dict]:
            return [json.loads(line) for line in files.get(name, b"").decode().splitlines() if line.strip()]

        manifest = json.loads(files["manifest.json"])
        return cls(
            domain=manifest["domain"],
            cutoff=manifest["cutoff"],
            manifest=manifest,
            tasks=[Task.model_validate(r) for r in lines("tasks.jsonl")],
            kb_rows=lines("kb_manifest.jsonl"),
            golds=[GoldTarget.model_validate(r) for r in lines("gold.jsonl")],
        )


@dataclass
class HFExport:
    """The files of an export: relative path -> bytes, public and private apart."""

    public: dict[str, bytes]
    private: dict[str, bytes]
    configs: dict[str, int]  # config -> rows
    splits: dict[str, dict[str, int]] = field(default_factory=dict)  # release export: config -> split -> rows

    def write(self, out: Path, private: Path) -> dict[str, int]:
        """Write both trees (refusing a private directory inside the public one, or the
        reverse); returns bytes written per tree."""
        check_apart(out, private)
        sizes = {}
        for root, files in (("public", (out, self.public)), ("private", (private, self.private))):
            base, data = files
            for rel, payload in data.items():
                path = base / rel
                path.parent.mkdir(parents=True, exist_ok=True)
                path.write_bytes(payload)
            sizes[root] = sum(len(v) for v in data.values())
        return sizes


def check_apart(out: Path, private: Path) -> None:
    out, private = Path(out).resolve(), Path(private).resolve()
    if out == private or out in private.parents or private in out.parents:
        raise ExportError(
            f"the private gold directory {private} must lie outside the public export {out} "
            "(and the reverse): the public tree is uploaded as a whole"
        )


def default_private_dir(out: Path) -> Path:
    out = Path(out)
    return out.parent / f"{out.name}{PRIVATE_SUFFIX}"


def parquet_bytes(table: pa.Table) -> bytes:
    sink = io.BytesIO()
    pq.write_table(table, sink, compression="zstd")
    return sink.getvalue()


RELEASE_FILES = ("tasks.jsonl", "kb_manifest.jsonl", "manifest.json", "gold.jsonl")


def read_release(store, domain: str, cutoff: str) -> ReleaseFiles:
    """The latest release of a partition from a `PartitionStore` (public files and the hidden
    gold, each from its own subtree)."""
    import pyarrow.fs as pafs

    files = {}
    for name in RELEASE_FILES:
        path = store.artifact_path("release", domain, cutoff, name)
        if store.fs.get_file_info(path).type != pafs.FileType.File:
            raise ExportError(
                f"no release of {domain} @ {cutoff} ({name} missing): materialize release_package "
                f"first (foresci materialize --domain {domain} --cutoff {cutoff})"
            )
        files[name] = store.read_bytes(path)
    return ReleaseFiles.from_bytes(files)


# -- tables -----------------------------------------------------------------------------

TASK_SCHEMA = pa.schema(
    [
        ("task_id", pa.string()),
        ("family", pa.string()),
        ("domain", pa.string()),
        ("cutoff", pa.string()),
        ("window_start", pa.string()),
        ("window_end", pa.string()),
        ("horizon", pa.string()),
        ("title", pa.string()),
        ("question", pa.string()),
        ("instructions", pa.string()),
        ("answer_requirements", pa.list_(pa.string())),
        ("options", pa.list_(pa.struct([("option_id", pa.string()), ("text", pa.string())]))),
        ("support_paper_ids", pa.list_(pa.string())),
        ("support_evidence_ids", pa.list_(pa.string())),
        ("subtype", pa.string()),
    ]
)
KB_SCHEMA = pa.schema([(name, pa.string()) for name in ("domain", "cutoff", *KB_MANIFEST_FIELDS)])
GOLD_SCHEMA = pa.schema(
    [
        ("task_id", pa.string()),
        ("family", pa.string()),
        ("domain", pa.string()),
        ("cutoff", pa.string()),
        ("gold_json", pa.string()),
    ]
)
RELEASE_SCHEMA = pa.schema(
    [
        ("domain", pa.string()),
        ("cutoff", pa.string()),
        ("release_version", pa.string()),
        ("window_start", pa.string()),
        ("window_end", pa.string()),
        ("horizon_months", pa.int32()),
        ("tasks", pa.int32()),
        ("kb_papers", pa.int32()),
        ("manifest_json", pa.string()),
    ]
)


def task_rows(tasks: list[Task]) -> list[dict]:
    """Tasks exactly as tasks.jsonl holds them (dates as ISO strings)."""
    return [{name: row[name] for name in TASK_SCHEMA.names} for row in (t.model_dump(mode="json") for t in tasks)]


def tables(releases: list[ReleaseFiles]) -> tuple[dict[str, pa.Table], dict[str, pa.Table]]:
    """(public tables by config, private gold tables by family), rows sorted for byte stability."""
    if not releases:
        raise ExportError("nothing to export: no release given")
    families = sorted({t.family for r in releases for t in r.tasks})
    public: dict[str, pa.Table] = {}
    for family in families:
        rows = task_rows(
            sorted(
                (t for r in releases for t in r.tasks if t.family == family), key=lambda t: (t.domain, str(t.cutoff), t.task_id)
            )
        )
        public[family] = pa.Table.from_pylist(rows, schema=TASK_SCHEMA)
    kb = [
        {"domain": r.domain, "cutoff": r.cutoff, **{k: str(row.get(k) or "") for k in KB_MANIFEST_FIELDS}}
        for r in releases
        for row in r.kb_rows
    ]
    public[KB_CONFIG] = pa.Table.from_pylist(
        sorted(kb, key=lambda x: (x["domain"], x["cutoff"], x["arxiv_id"])), schema=KB_SCHEMA
    )
    public[RELEASES_CONFIG] = pa.Table.from_pylist(
        [
            {
                "domain": r.domain,
                "cutoff": r.cutoff,
                "release_version": r.manifest.get("release_version", ""),
                "window_start": (r.manifest.get("windows") or [{}])[0].get("start", ""),
                "window_end": r.manifest.get("window_end", ""),
                "horizon_months": r.manifest.get("horizon_months"),
                "tasks": len(r.tasks),
                "kb_papers": len(r.kb_rows),
                "manifest_json": json.dumps(r.manifest, sort_keys=True),
            }
            for r in sorted(releases, key=lambda r: (r.domain, r.cutoff))
        ],
        schema=RELEASE_SCHEMA,
    )
    released = {t.task_id for r in releases for t in r.tasks}
    private: dict[str, pa.Table] = {}
    for family in families:
        golds = sorted(
            (g for r in releases for g in r.golds if g.family == family and g.task_id in released),
            key=lambda g: (g.domain, str(g.cutoff), g.task_id),
        )
        private[family] = pa.Table.from_pylist(
            [
                {
                    "task_id": g.task_id,
                    "family": g.family,
                    "domain": g.domain,
                    "cutoff": str(g.cutoff),
                    "gold_json": g.model_dump_json(),
                }
                for g in golds
            ],
            schema=GOLD_SCHEMA,
        )
    return public, private


def config_path(config: str, split: str = SPLIT) -> str:
    return f"{config}/{split}.parquet"


def by_cutoff(table: pa.Table, cutoff: str) -> pa.Table:
    import pyarrow.compute as pc

    return table.filter(pc.equal(table.column("cutoff"), str(cutoff)))


# -- the export ---------------------------------------------------------------------------


def export_hf(releases: list[ReleaseFiles]) -> HFExport:
    """The public and private file maps of an export of `releases` (checked; see the module doc)."""
    public_tables, private_tables = tables(releases)
    public = {config_path(name): parquet_bytes(t) for name, t in public_tables.items()}
    private = {config_path(name): parquet_bytes(t) for name, t in private_tables.items()}
    counts = {name: t.num_rows for name, t in public_tables.items()}
    public["README.md"] = public_card(releases, counts).encode()
    private["README.md"] = private_card(releases, {n: t.num_rows for n, t in private_tables.items()}).encode()
    problems = public_violations(public, [g for r in releases for g in r.golds])
    if problems:
        raise LeakageError(f"HF export refused, {len(problems)} violation(s):\n" + "\n".join(problems))
    return HFExport(public=public, private=private, configs=counts)


# -- a whole release (every cutoff) --------------------------------------------------------

RELEASE_CARD_DIR = "release_card"  # the release card's public files (card.json, card.md) and statistics.json


def check_card(releases: list[ReleaseFiles], card: dict) -> None:
    """The release files are the ones the card describes: every partition of the card is
    there, with the release version the card names (else the card is stale)."""
    have = {(r.domain, r.cutoff): r.manifest.get("release_version") for r in releases}
    want = {(p["domain"], p["cutoff"]): p["release_version"] for p in card["partitions"]}
    if set(have) != set(want):
        raise ExportError(f"the release files ({sorted(have)}) are not the card's partitions ({sorted(want)})")
    stale = [f"{d}@{c}" for (d, c), v in want.items() if have[(d, c)] != v]
    if stale:
        raise ExportError(
            f"the release card is stale for {', '.join(stale)} (their release package changed): "
            "rewrite it with `foresci release --no-build` first"
        )


def export_release_hf(releases: list[ReleaseFiles], card: dict, statistics: dict) -> HFExport:
    """A whole release (the built partitions of a release card, every cutoff) as one dataset:
    each config (family, `kb`, `releases`) has a split per cutoff it has rows at (`cutoff_split`), every row
    its `domain` and `cutoff`; the private gold likewise. The dataset card carries the release
    card (`assets.release.card.card_markdown`) and the method statistics (`statistics`, from
    `assets.release.card.release_statistics`); `release_card/` holds card.json, card.md and
    statistics.json. The leakage check runs per cutoff: a cutoff's public files against the gold
    of that cutoff (a later cutoff's tasks and KB legitimately hold papers of an earlier
    cutoff's window: they are that cutoff's past, and the card says to answer a task with its
    own split only), and every file against gold-only keys and hidden file names."""
    check_card(releases, card)
    public_tables, private_tables = tables(releases)
    splits = {cutoff_split(c): c for c in sorted({r.cutoff for r in releases})}

    def split_files(named: dict[str, pa.Table]) -> tuple[dict[str, bytes], dict[str, dict[str, int]]]:
        files, rows = {}, {}
        for name, table in named.items():
            for split, cutoff in splits.items():
                part = by_cutoff(table, cutoff)
                if part.num_rows:  # `datasets` cannot read an empty Parquet split: a config has the cutoffs it has rows at
                    files[config_path(name, split)] = parquet_bytes(part)
                    rows.setdefault(name, {})[split] = part.num_rows
        return files, rows

    public, rows = split_files(public_tables)
    private, private_rows = split_files(private_tables)
    release_files_ = card_files(card, [])
    for name in ("card.json", "card.md"):
        public[f"{RELEASE_CARD_DIR}/{name}"] = release_files_[name]
    public[f"{RELEASE_CARD_DIR}/statistics.json"] = (json.dumps(statistics, sort_keys=True, indent=2) + "\n").encode()
    public["README.md"] = release_dataset_card(releases, card, statistics, rows).encode()
    private["README.md"] = private_release_card(releases, card, private_rows).encode()
    problems = public_violations(public, [])
    for split, cutoff in splits.items():
        problems += public_violations(
            {k: v for k, v in public.items() if k.endswith(f"/{split}.parquet")},
            [g for r in releases if r.cutoff == cutoff for g in r.golds],
        )
    if problems:
        raise LeakageError(f"HF release export refused, {len(problems)} violation(s):\n" + "\n".join(sorted(set(problems))))
    return HFExport(public=public, private=private, configs={n: sum(v.values()) for n, v in rows.items()}, splits=rows)


def public_violations(public: dict[str, bytes], golds: list[GoldTarget]) -> list[str]:
    """The release validator over the export as a consumer reads it: every family config's
    rows as tasks.jsonl, the KB config as kb_manifest.jsonl and each release manifest; plus
    no gold key in any column and no gold file name in the public tree."""
    messages: list[str] = []
    task_rows_: list[dict] = []
    manifests: list[dict] = []
    kb = b""
    for rel, data in sorted(public.items()):
        if artifact_visibility(rel) == "hidden" or rel.split("/", 1)[0] == PRIVATE_DIR:
            messages.append(f"{rel}: a hidden file in the public export")
            continue
        if not rel.endswith(".parquet"):
            continue
        table = pq.read_table(io.BytesIO(data))
        for column in sorted(set(table.column_names) & GOLD_ONLY_KEYS):
            messages.append(f"{rel}: gold-only column {column!r}")
        rows = table.to_pylist()
        config = rel.split("/", 1)[0]
        if config == KB_CONFIG:
            kb = canonical_jsonl([{k: r[k] for k in KB_MANIFEST_FIELDS} for r in rows])
        elif config == RELEASES_CONFIG:
            manifests += [json.loads(r["manifest_json"]) for r in rows]
        else:
            task_rows_ += rows
    for manifest in manifests or [{}]:
        files = {
            "tasks.jsonl": canonical_jsonl(task_rows_),
            "manifest.json": json.dumps(manifest).encode(),
            "kb_manifest.jsonl": kb,
        }
        messages += validate_release(files, golds)
    return sorted(set(messages))


# -- reading an export back ------------------------------------------------------------


def config_rows(out: Path, config: str) -> list[dict]:
    """Every row of a config, over all its splits (one `test` split, or a split per cutoff)."""
    return [r for path in sorted((Path(out) / config).glob("*.parquet")) for r in pq.read_table(path).to_pylist()]


def read_export_tasks(out: Path, family: str) -> list[Task]:
    return [Task.model_validate(r) for r in config_rows(out, family)]


def export_families(out: Path) -> list[str]:
    return sorted({p.parent.name for p in Path(out).glob("*/*.parquet")} - {KB_CONFIG, RELEASES_CONFIG})


def read_private_golds(private: Path, family: str) -> list[GoldTarget]:
    return [GoldTarget.model_validate_json(r["gold_json"]) for r in config_rows(private, family)]


def kb_papers(rows: list[dict], domain: str, cutoff: str) -> list[ScreenedPaper]:
    """The KB papers of one partition from the export's KB rows (the `kb` config), as the
    records `build_kb` indexes: same ids, titles, abstracts, dates and labels as the
    original, so the rebuilt KB returns the same hits."""
    return [
        ScreenedPaper(
            arxiv_id=r["arxiv_id"],
            title=r["title"],
            abstract=r["abstract"],
            published=date.fromisoformat(r["published"]),
            source=r.get("source") or "",
            domain=domain,
            relevance=0.0,
            label=r["label"] or "core",
            reason="hf export",
        )
        for r in rows
        if r["domain"] == domain and r["cutoff"] == cutoff
    ]

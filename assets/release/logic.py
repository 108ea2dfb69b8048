"""Release package and leaderboard: what a benchmark maintainer ships and reads.

A release is byte-reproducible: files are canonical JSON Lines (sorted keys, records
sorted by id) with no timestamps, and its version is the hash of its contents. The
hidden gold file is written apart from the public package (hidden/ subtree).

A release is also immutable: `publish_release` writes it once under its version
(`<release_name or release_version>`); publishing the same version again with the same
bytes is a no-op, with different bytes it raises `ReleaseImmutableError`. Before
anything is written, `validate_release` re-reads the public files as a consumer would and
fails on gold-only keys or content, post-cutoff terms and cross-task leakage.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections import Counter, defaultdict

from assets.scorers.registry import reported_values
from core.leakage import AUDIT_ONLY_KEYS, GOLD_ONLY_KEYS, check_release_texts
from core.metrics import bootstrap_ci
from core.records import GoldTarget, Score, Task, TaskRating


class ReleaseImmutableError(RuntimeError):
    """A release version already exists with different content."""


def canonical_jsonl(records: list[dict]) -> bytes:
    return "".join(json.dumps(r, sort_keys=True, ensure_ascii=False, default=str) + "\n" for r in records).encode()


def sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def release_files(
    tasks: list[Task],
    ratings: list[TaskRating],
    golds: list[GoldTarget],
    kb_rows: list[dict],
    *,
    domain: str,
    cutoff: str,
    window_end: str,
    horizon_months: int,
    corpus_version: str,
    taxonomy_version: str,
    window_start: str | None = None,
    release_name: str = "",
    approved: set[str] | None = None,
    curation: dict | None = None,
    checklists: list[dict] | None = None,
) -> tuple[dict[str, bytes], dict[str, bytes], dict]:
    """Public files, hidden files and the manifest of one partition's release.

    The manifest holds counts by family, domain and horizon, the cutoffs and windows,
    the corpus and taxonomy versions and the sha256 of every file; `release_version` is
    the hash of the manifest itself, so equal inputs give an equal version.

    With `approved` (the release policy `require_approval`, assets/audit/policy.py) only the
    ranking's tasks that reviewers approved are released, and `curation` (counts only: no
    reviewer, note or decision) goes into the manifest; `tasks` then carry the revisions.

    `checklists` (ACE stage one, made from the public prompts only, assets/arena/ace.py):
    the released tasks' checklists go to `checklists.jsonl`, so ACE scores can be re-derived.
    """
    released = {r.task_id for r in ratings if r.released}
    if approved is not None:
        released &= approved
    public_tasks = sorted((t for t in tasks if t.task_id in released), key=lambda t: t.task_id)
    hidden_gold = sorted((g for g in golds if g.task_id in released), key=lambda g: g.task_id)
    tasks_bytes = canonical_jsonl([t.model_dump(mode="json") for t in public_tasks])
    kb_bytes = canonical_jsonl(sorted(kb_rows, key=lambda r: r["arxiv_id"]))
    gold_bytes = canonical_jsonl([g.model_dump(mode="json") for g in hidden_gold])
    windows = sorted({(str(t.window_start), str(t.window_end)) for t in public_tasks})
    manifest = {
        "format": "foresci-release/1",
        "domain": domain,
        "cutoff": cutoff,
        "window_end": window_end,
        "horizon_months": horizon_months,
        "cutoffs": sorted({str(t.cutoff) for t in public_tasks} | {cutoff}),
        "windows": [{"start": a, "end": b} for a, b in windows]
        or ([{"start": window_start, "end": window_end}] if window_start else []),
        "counts": {
            "tasks": len(public_tasks),
            "by_family": dict(sorted(Counter(t.family for t in public_tasks).items())),
            "by_domain": dict(sorted(Counter(t.domain for t in public_tasks).items())),
            "by_horizon": dict(sorted(Counter(t.horizon for t in public_tasks).items())),
            "by_family_horizon": dict(sorted(Counter(f"{t.family}/{t.horizon}" for t in public_tasks).items())),
            "kb_papers": len(kb_rows),
            "gold_targets": len(hidden_gold),
        },
        "corpus_version": corpus_version,
        "taxonomy_version": taxonomy_version,
        "sha256": {"tasks.jsonl": sha256(tasks_bytes), "kb_manifest.jsonl": sha256(kb_bytes), "gold.jsonl": sha256(gold_bytes)},
    }
    lists = sorted((c for c in checklists or [] if c["task_id"] in released), key=lambda c: c["task_id"])
    lists_bytes = canonical_jsonl(lists) if lists else b""
    if lists:
        manifest["sha256"]["checklists.jsonl"] = sha256(lists_bytes)
        manifest["counts"]["checklists"] = len(lists)
    if release_name:
        manifest["release_name"] = release_name
    if curation is not None:
        manifest["curation"] = curation
    if not public_tasks:  # an empty release is a result, not an error: say why in one line
        manifest["empty_reason"] = empty_reason(tasks, ratings, len(kb_rows))
    manifest["release_version"] = sha256(json.dumps(manifest, sort_keys=True).encode())[:16]
    public = {
        "tasks.jsonl": tasks_bytes,
        "kb_manifest.jsonl": kb_bytes,
        "manifest.json": (json.dumps(manifest, sort_keys=True, indent=2) + "\n").encode(),
    }
    if lists:
        public["checklists.jsonl"] = lists_bytes
    return public, {"gold.jsonl": gold_bytes}, manifest


KB_MANIFEST_FIELDS = ("arxiv_id", "title", "abstract", "published", "label", "source", "licence")


def kb_manifest_row(row: dict) -> dict:
    """One `kb_manifest.jsonl` row: enough to rebuild the cutoff-bound KB (id, title,
    abstract, date, label) and the licence of its text per source. A KB partition built
    before abstracts were kept gives empty strings (rebuild that partition to fill them)."""
    out = {key: row.get(key) or "" for key in KB_MANIFEST_FIELDS}
    out["published"] = str(row["published"])
    return out


def empty_reason(tasks: list[Task], ratings: list[TaskRating], kb_papers: int) -> str:
    """One line on why a partition releases no task: none was built, or the gate held back all."""
    if not tasks:
        return (
            f"no task built: the {kb_papers} relevant paper(s) before the cutoff gave no candidate "
            "direction, bottleneck or venue profile to build a task on"
        )
    notes = Counter(r.note or "not released" for r in ratings if not r.released)
    top = ", ".join(f"{note} ({n})" for note, n in notes.most_common(2))
    return f"no task released: all {len(tasks)} built tasks were held back ({top})"


def release_id(manifest: dict) -> str:
    """The folder name of a release: its name if given, else r-<content hash>."""
    return manifest.get("release_name") or f"r-{manifest['release_version']}"


def validate_release(
    public: dict[str, bytes], golds: list[GoldTarget], *, novel_terms=(), audit_texts: dict[str, list[str]] | None = None
) -> list[str]:
    """Leakage checks on the public files as a consumer reads them (empty list = clean).

    tasks.jsonl rows are checked as plain dicts (so an unexpected gold-only or audit key is
    seen), against every gold of the partition (cross-task); manifest.json and
    kb_manifest.jsonl may hold no gold-only or audit key either. `audit_texts` are the
    curation's internal texts: `notes` (reviewers' free text, >= 12 chars) may appear in no
    public file, `reviewers` (names) in no key or value of the manifests.
    """
    messages: list[str] = []
    rows = [json.loads(line) for line in public["tasks.jsonl"].decode().splitlines() if line.strip()]
    messages += check_release_texts(rows, golds, novel_terms=novel_terms)
    for row in rows:
        for key in sorted(set(row) & AUDIT_ONLY_KEYS):
            messages.append(f"{row.get('task_id')}: audit key {key!r} in a public task")
    messages += audit_text_violations(public, audit_texts or {})
    manifest = json.loads(public["manifest.json"])

    def keys(obj, path=""):
        if isinstance(obj, dict):
            for k, v in obj.items():
                yield k, f"{path}.{k}" if path else k
                yield from keys(v, f"{path}.{k}" if path else k)

    for key, where in keys(manifest):
        if key in GOLD_ONLY_KEYS:
            messages.append(f"manifest.json: gold-only key {where!r}")
        if key in AUDIT_ONLY_KEYS:
            messages.append(f"manifest.json: audit key {where!r}")
    for line in public.get("kb_manifest.jsonl", b"").decode().splitlines():
        if line.strip() and set(json.loads(line)) & GOLD_ONLY_KEYS:
            messages.append(f"kb_manifest.jsonl: gold-only key in {line[:80]!r}")
        if line.strip() and set(json.loads(line)) & AUDIT_ONLY_KEYS:
            messages.append(f"kb_manifest.jsonl: audit key in {line[:80]!r}")
    return messages


MIN_NOTE_CHARS = 12  # shorter notes ("ok", "dup") would match public text by coincidence


def audit_text_violations(public: dict[str, bytes], audit_texts: dict[str, list[str]]) -> list[str]:
    """Reviewers' notes in any public file; reviewer names in the manifests (see validate_release)."""
    messages = []
    notes = sorted({" ".join(n.lower().split()) for n in audit_texts.get("notes", []) if len(n.strip()) >= MIN_NOTE_CHARS})
    for name, data in sorted(public.items()):
        text = " ".join(data.decode(errors="replace").lower().split())
        messages += [f"{name}: a reviewer's note appears: {n[:60]!r}" for n in notes if n in text]
    reviewers = sorted({r.strip().lower() for r in audit_texts.get("reviewers", []) if r.strip()})
    for name in ("manifest.json", "kb_manifest.jsonl"):
        words = set(re.findall(r"[\w.@-]+", public.get(name, b"").decode(errors="replace").lower()))
        messages += [f"{name}: reviewer name {r!r}" for r in reviewers if r in words]
    return messages


def publish_release(
    store, domain: str, cutoff: str, version: str, public: dict[str, bytes], hidden: dict[str, bytes]
) -> dict[str, str]:
    """Write a release version once. Same bytes again: no-op; different bytes: ReleaseImmutableError.

    `store` is a `PartitionStore` (duck-typed: artifact_path, fs, read_bytes, write_bytes).
    Public files go to public/_artifacts/releases/domain=<d>/cutoff=<t>/<version>/, the gold
    to the same place under hidden/. Every file is compared before any is written, so a
    refused publish leaves the existing version untouched. Returns name -> written path.
    """
    import pyarrow.fs as pafs

    planned = [
        (name, data, store.artifact_path("releases", domain, cutoff, f"{version}/{name}"))
        for name, data in sorted(public.items())
    ]
    planned += [
        (name, data, store.artifact_path("releases", domain, cutoff, f"{version}/{name}"))
        for name, data in sorted(hidden.items())
    ]
    existing = {path: store.fs.get_file_info(path).type == pafs.FileType.File for _, _, path in planned}
    if any(existing.values()):
        differing = [name for name, data, path in planned if not existing[path] or store.read_bytes(path) != data]
        if differing:
            raise ReleaseImmutableError(
                f"release {version} of {domain} @ {cutoff} already exists and differs in {', '.join(differing)}; "
                "a release version is immutable: publish under a new version"
            )
        return {name: store.uri(path) for name, _, path in planned}
    return {name: store.write_bytes(path, data) for name, data, path in planned}


def leaderboard_rows(scores: list[Score], released: set[str]) -> list[dict]:
    """Family x method means with bootstrap 95% intervals, over released tasks only."""
    groups: dict[tuple[str, str, str], list[Score]] = defaultdict(list)
    for s in scores:
        if s.task_id in released:
            groups[(s.family, s.method, s.backbone)].append(s)
            groups[("all", s.method, s.backbone)].append(s)
    rows = []
    for (family, method, backbone), group in sorted(groups.items()):
        row = {"family": family, "method": method, "backbone": backbone, "n_answers": len(group)}
        for metric in reported_values():
            mean, lo, hi = bootstrap_ci([s.value(metric) for s in group])
            row[metric], row[f"{metric}_lo"], row[f"{metric}_hi"] = mean, lo, hi
        rows.append(row)
    return rows


def leaderboard_markdown(rows: list[dict]) -> str:
    def fmt(v):
        return "–" if v is None else f"{v:.3f}"

    lines = ["| family | method | n | FTA [95% CI] | Trace-link | Fact | Pers |", "|---|---|---|---|---|---|---|"]
    for r in rows:
        fta = fmt(r["fta"]) if r["fta"] is None else f"{r['fta']:.3f} [{r['fta_lo']:.2f}, {r['fta_hi']:.2f}]"
        lines.append(
            f"| {r['family']} | {r['method']} | {r['n_answers']} | {fta} | {fmt(r['trace_linkage'])} | "
            f"{fmt(r['fact'])} | {fmt(r['pers'])} |"
        )
    return "\n".join(lines)


# --------------------------------------------------------------------------------------
# prospective packages: forecasts frozen (hash + timestamp) before the window opens
# --------------------------------------------------------------------------------------

PROSPECTIVE_FILES = ("tasks.jsonl", "forecasts.jsonl", "freeze.json")


class FrozenForecastError(RuntimeError):
    """A frozen prospective package is missing, altered, or not yet scorable."""


def freeze_package(
    tasks: list[Task], answers: list, *, domain: str, cutoff: str, window_start: str, window_end: str, created_at: str
) -> dict[str, bytes]:
    """The files of a prediction-only package: tasks, forecasts and freeze.json.

    freeze.json records the sha256 of tasks.jsonl and forecasts.jsonl, their combined
    `package_sha256`, the UTC `created_at` timestamp and whether it precedes the window
    (`frozen_before_window`); a package frozen after the window opened is a replay.
    """
    tasks_bytes = canonical_jsonl([t.model_dump(mode="json") for t in sorted(tasks, key=lambda t: t.task_id)])
    fc_bytes = canonical_jsonl([a.model_dump(mode="json") for a in sorted(answers, key=lambda a: a.answer_id)])
    hashes = {"tasks.jsonl": sha256(tasks_bytes), "forecasts.jsonl": sha256(fc_bytes)}
    freeze = {
        "domain": domain,
        "cutoff": cutoff,
        "window_start": window_start,
        "window_end": window_end,
        "created_at": created_at,
        "frozen_before_window": created_at[:10] < window_start,
        "n_tasks": len(tasks),
        "n_forecasts": len(answers),
        "by_family": dict(sorted(Counter(t.family for t in tasks).items())),
        "methods": sorted({a.method for a in answers}),
        "sha256": hashes,
        "package_sha256": sha256(json.dumps(hashes, sort_keys=True).encode()),
    }
    return {
        "tasks.jsonl": tasks_bytes,
        "forecasts.jsonl": fc_bytes,
        "freeze.json": (json.dumps(freeze, sort_keys=True, indent=2) + "\n").encode(),
    }


def verify_package(files: dict[str, bytes]) -> dict:
    """The freeze record, after checking every file against its recorded hash."""
    freeze = json.loads(files["freeze.json"])
    for name, digest in freeze["sha256"].items():
        if sha256(files[name]) != digest:
            raise FrozenForecastError(
                f"{name} of the frozen package {freeze['domain']} @ {freeze['cutoff']} "
                "does not match its frozen sha256: the package was altered after freezing"
            )
    if sha256(json.dumps(freeze["sha256"], sort_keys=True).encode()) != freeze["package_sha256"]:
        raise FrozenForecastError("freeze.json's package_sha256 does not match its file hashes")
    return freeze


def write_frozen(store, domain: str, cutoff: str, files: dict[str, bytes]) -> tuple[dict, bool]:
    """Write a package once; never overwrite. Returns (freeze record, newly_written).

    If a package already exists it is verified and returned untouched (a rerun of the
    prediction job cannot change frozen forecasts).
    """
    existing = read_frozen(store, domain, cutoff)
    if existing is not None:
        return verify_package(existing), False
    # forecasts and tasks first, freeze.json last: a package without freeze.json is not frozen
    for name in PROSPECTIVE_FILES:
        store.write_bytes(store.artifact_path("prospective", domain, cutoff, name), files[name])
    return verify_package(files), True


def read_frozen(store, domain: str, cutoff: str) -> dict[str, bytes] | None:
    import pyarrow.fs as pafs

    paths = {n: store.artifact_path("prospective", domain, cutoff, n) for n in PROSPECTIVE_FILES}
    if store.fs.get_file_info(paths["freeze.json"]).type != pafs.FileType.File:
        return None
    return {n: store.read_bytes(p) for n, p in paths.items()}

"""`foresci export ...`: a release in the formats where users already are.

    foresci export hf --domain llm_agent --cutoff 2025-12-31 out/foresci-release
    foresci export hf --domain llm_agent --domain rag_and_retrieval_structuring --cutoff 2025-12-31 out/r \
        --private-dir secrets/r-gold

    foresci export hf --release out/foresci-release            # the whole release (every cutoff)
    foresci export hf --release --name v1.0 out/foresci-v1.0   # a named release's card

`hf` writes a Hugging Face dataset folder (Parquet per family config, the KB config, the
release manifests, a dataset card) and the hidden gold as a separate dataset in
`--private-dir` (default `<OUT>-private`, which must lie outside OUT): upload the first to
a public repository and the second to a private one (docs/export.md). Inspect AI runs on
the pair (foresci/inspect_tasks.py). `--release` exports the whole release of the latest
release card (or `--name`'s; written by `foresci release`): every built partition, a split per
cutoff, the release card and the method statistics in the dataset card.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path


def add_export_parser(sub) -> None:
    export = sub.add_parser("export", help="export a release (Hugging Face datasets; docs/export.md)")
    export_sub = export.add_subparsers(dest="export_command", required=True)
    hf = export_sub.add_parser("hf", help="a release as a Hugging Face dataset folder + a private gold folder",
                               formatter_class=argparse.RawDescriptionHelpFormatter,
                               description=__doc__.split("\n\n")[2])
    hf.add_argument("--domain", dest="domains", action="append",
                    help="a released domain (repeat for several partitions in one dataset)")
    hf.add_argument("--cutoff")
    hf.add_argument("--release", action="store_true",
                    help="the whole release of the release card (every built partition, a split per cutoff)")
    hf.add_argument("--name", default="", help="with --release: the release's name (or r-<card version>); "
                                               "default: the latest card")
    hf.add_argument("out", help="the public dataset folder (created; existing files are overwritten)")
    hf.add_argument("--private-dir", help="the hidden gold's folder (default: <OUT>-private)")
    hf.set_defaults(func=cmd_export_hf)


def cmd_export_hf(args) -> int:
    from assets.export.hf import ExportError, default_private_dir, export_hf, read_release
    from pipelines.console import UserError
    from pipelines.resources import default_resources

    if (args.domains or args.cutoff) if args.release else not (args.domains and args.cutoff):
        raise UserError("give either --release [--name N] or --domain D [--domain D2 ...] --cutoff C")
    if args.name and not args.release:
        raise UserError("--name goes with --release")
    store = default_resources()["storage"].store()
    out = Path(args.out)
    private = Path(args.private_dir) if args.private_dir else default_private_dir(out)
    started = time.perf_counter()
    try:
        if args.release:
            export = release_export(store, args.name)
        else:
            export = export_hf([read_release(store, d, args.cutoff) for d in args.domains])
        sizes = export.write(out, private)
    except ExportError as exc:
        raise UserError(str(exc)) from exc
    if export.splits:
        splits = sorted({s for rows in export.splits.values() for s in rows})
        print(f"splits: {', '.join(splits)}")
        for name, rows in export.splits.items():
            print(f"  {name:>10}: " + ", ".join(str(rows.get(s, 0)) for s in splits) + f"  (total {sum(rows.values())})")
    configs = ", ".join(f"{name} ({rows})" for name, rows in export.configs.items())
    print(f"public dataset: {out}  ({sizes['public']:,} bytes; configs: {configs})")
    print(f"private gold:   {private}  ({sizes['private']:,} bytes): upload to a PRIVATE repository only")
    print(f"written in {time.perf_counter() - started:.1f} s; load with "
          f"datasets.load_dataset({str(out)!r}, name=<config>, split={'<split>' if export.splits else repr('test')})")
    return 0


def read_release_card(store, name: str = "") -> dict:
    """The release card (card.json) of release `name` (its version folder: the name, or
    r-<card version>), or the latest one `foresci release` wrote."""
    import json

    import pyarrow.fs as pafs

    from assets.export.hf import ExportError
    from assets.release.card import card_path

    path = card_path(store, "card.json", name or None)
    if store.fs.get_file_info(path).type != pafs.FileType.File:
        raise ExportError(f"no release card at {path}: write one with `foresci release` "
                          "(or `foresci release --no-build --allow-missing` over what is built)"
                          + (f"; is {name!r} the release's name (or r-<card version>)?" if name else ""))
    return json.loads(store.read_bytes(path))


def release_export(store, name: str = ""):
    """The whole release of a card: its built partitions' release files (the card's partitions),
    the method statistics over their released tasks (`release_statistics`, read as the card
    reads them: `pipelines.release.read_partition`) and the export (`export_release_hf`)."""
    from assets.export.hf import ExportError, export_release_hf, read_release
    from assets.release.card import release_statistics
    from pipelines.release import read_partition

    card = read_release_card(store, name)
    if not card["partitions"]:
        raise ExportError("the release card has no built partition: nothing to export")
    horizon = {c["cutoff"]: c["horizon_months"] for c in card["cutoffs"]}
    pairs = [(p["domain"], p["cutoff"]) for p in card["partitions"]]
    releases = [read_release(store, d, c) for d, c in pairs]
    parts = [read_partition(store, d, c, horizon[c]) for d, c in pairs]
    # a card written before the statistics joined it: compute them as the release does
    return export_release_hf(releases, card, card.get("statistics") or release_statistics(parts))

"""`foresci export ...`: a release in the formats where users already are.

    foresci export hf --domain llm_agent --cutoff 2025-12-31 out/foresci-release
    foresci export hf --domain llm_agent --domain rag_and_retrieval_structuring --cutoff 2025-12-31 out/r \
        --private-dir secrets/r-gold

`hf` writes a Hugging Face dataset folder (Parquet per family config, the KB config, the
release manifests, a dataset card) and the hidden gold as a separate dataset in
`--private-dir` (default `<OUT>-private`, which must lie outside OUT): upload the first to
a public repository and the second to a private one (docs/export.md). Inspect AI runs on
the pair (foresci/inspect_tasks.py).
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
    hf.add_argument("--domain", dest="domains", action="append", required=True,
                    help="a released domain (repeat for several partitions in one dataset)")
    hf.add_argument("--cutoff", required=True)
    hf.add_argument("out", help="the public dataset folder (created; existing files are overwritten)")
    hf.add_argument("--private-dir", help="the hidden gold's folder (default: <OUT>-private)")
    hf.set_defaults(func=cmd_export_hf)


def cmd_export_hf(args) -> int:
    from assets.export.hf import ExportError, default_private_dir, export_hf, read_release
    from pipelines.console import UserError
    from pipelines.resources import default_resources

    store = default_resources()["storage"].store()
    out = Path(args.out)
    private = Path(args.private_dir) if args.private_dir else default_private_dir(out)
    started = time.perf_counter()
    try:
        releases = [read_release(store, d, args.cutoff) for d in args.domains]
        export = export_hf(releases)
        sizes = export.write(out, private)
    except ExportError as exc:
        raise UserError(str(exc)) from exc
    configs = ", ".join(f"{name} ({rows})" for name, rows in export.configs.items())
    print(f"public dataset: {out}  ({sizes['public']:,} bytes; configs: {configs})")
    print(f"private gold:   {private}  ({sizes['private']:,} bytes): upload to a PRIVATE repository only")
    print(f"written in {time.perf_counter() - started:.1f} s; load with "
          f"datasets.load_dataset({str(out)!r}, name=<config>, split='test')")
    return 0

"""HF export figures of a built partition: export time, size, `load_dataset` time, KB rebuild.

    .venv/bin/python benchmarks/export_bench.py --domain llm_agent --cutoff 2025-12-31 [--out /tmp/x]

Reads the partition from $FORESCI_HOME (default .foresci; build it first with `foresci
materialize`), writes the export to --out (default a temp folder) and prints a markdown
table (benchmarks/results.md, "HF export and Inspect AI"). Not part of `make bench`: it
needs a built partition.
"""

from __future__ import annotations

import argparse
import os
import tempfile
import time
from datetime import date
from pathlib import Path

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("HF_DATASETS_OFFLINE", "1")
os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--domain", default="llm_agent")
    parser.add_argument("--cutoff", default="2025-12-31")
    parser.add_argument("--out")
    args = parser.parse_args()
    tmp = Path(tempfile.mkdtemp(prefix="foresci-export-"))
    out = Path(args.out) if args.out else tmp / f"foresci-{args.domain}"
    os.environ["HF_DATASETS_CACHE"] = str(tmp / "hf-cache")  # cold: nothing cached yet

    import yaml

    from assets.export.hf import default_private_dir, export_hf, read_release
    from assets.knowledge_base.logic import KnowledgeBaseView, table_name
    from foresci.inspect_bench import ExportedRelease
    from pipelines.resources import default_resources

    resources = default_resources()
    started = time.perf_counter()
    export = export_hf([read_release(resources["storage"].store(), args.domain, args.cutoff)])
    sizes = export.write(out, default_private_dir(out))
    export_s = time.perf_counter() - started

    from datasets import load_dataset

    configs = [c["config_name"] for c in yaml.safe_load((out / "README.md").read_text().split("---\n")[1])["configs"]]
    started = time.perf_counter()
    rows = {c: load_dataset(str(out), name=c, split="test") for c in configs}
    cold_s = time.perf_counter() - started
    started = time.perf_counter()
    for c in configs:
        load_dataset(str(out), name=c, split="test")
    warm_s = time.perf_counter() - started

    embed = resources["embeddings"].embedder().encode
    original = KnowledgeBaseView(
        resources["lance"].connect().open_table(table_name(args.domain, args.cutoff)), date.fromisoformat(args.cutoff), embed
    )
    started = time.perf_counter()
    rebuilt = ExportedRelease(out, kb_dir=tmp / "kb").view(args.domain, args.cutoff)
    rebuild_s = time.perf_counter() - started
    queries = [r["question"] for c in configs if c not in ("kb", "releases") for r in rows[c]][:12]
    pairs = [(q, m) for q in queries for m in ("hybrid", "dense", "text")]
    same = sum(
        [h.arxiv_id for h in original.search(q, k=10, mode=m)] == [h.arxiv_id for h in rebuilt.search(q, k=10, mode=m)]
        for q, m in pairs
    )
    print("| what | figure |\n|---|---|")
    print(f"| export (read release, Parquet, card, validator, write) | {export_s:.1f} s |")
    print(f"| public / private bytes | {sizes['public']:,} / {sizes['private']:,} |")
    print(f"| configs (rows) | {', '.join(f'{c} ({n})' for c, n in export.configs.items())} |")
    print(f"| load_dataset, every config, cold / warm | {cold_s:.2f} s / {warm_s:.2f} s |")
    print(f"| KB rebuilt from the export | {rebuild_s:.1f} s; top-10 identical for {same} / {len(pairs)} (query, mode) |")


if __name__ == "__main__":
    main()

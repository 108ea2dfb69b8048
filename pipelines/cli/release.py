"""`foresci release`: the benchmark release (every domain x the release cutoffs, then its card:
`pipelines.release.full_release_job`, docs/releases.md), or one partition's release package
(`assets.release.definitions.release_package`, e.g. with --require-approval)."""

import json
import sys
import time
from pathlib import Path
from typing import Annotated

import typer

from pipelines.cli.common import command, complete_domain, instance, refresh_views_or_note, seed_cutoffs, variadic


def register(app: typer.Typer, panel: str) -> None:
    @command(
        app,
        "release",
        "build the benchmark release (every domain x the release cutoffs) and its card; with "
        "--domain and --cutoff: rebuild one partition's release package",
        [
            "foresci release",
            "foresci release --cutoffs 2025-09-30 2025-12-31 --domains llm_agent --workers 1",
            "foresci release --no-build --allow-missing   # the card of what is built",
            "foresci release --domain llm_agent --cutoff 2025-12-31 --require-approval --name v1.0",
        ],
        panel,
        cls=variadic("--cutoffs", "--domains"),
    )
    def release(
        domain: Annotated[str | None, typer.Option(help="one partition's package only (with --cutoff)")] = None,
        cutoff: Annotated[str | None, typer.Option(help="one partition's package only (with --domain)")] = None,
        require_approval: Annotated[
            bool, typer.Option("--require-approval", help="one partition's package: release only reviewer-approved tasks")
        ] = False,
        name: Annotated[str | None, typer.Option(help="release name (e.g. v1.0); default: the content hash")] = None,
        cutoffs: Annotated[
            list[str] | None,
            typer.Option(
                metavar="C ...", help="the release's cutoffs (default: registry defaults whose window has closed in the corpus)"
            ),
        ] = None,
        domains: Annotated[
            list[str] | None,
            typer.Option(metavar="D ...", help="the release's domains (default: all)", autocompletion=complete_domain),
        ] = None,
        workers: Annotated[int, typer.Option(help="partition runs at once, each in its own process")] = 2,
        rebuild: Annotated[bool, typer.Option("--rebuild", help="rebuild partitions that are already built")] = False,
        no_build: Annotated[
            bool, typer.Option("--no-build", help="only (re)write the card from the built partitions (it names the missing ones)")
        ] = False,
        allow_missing: Annotated[
            bool, typer.Option("--allow-missing", help="write the card even if partitions are missing")
        ] = False,
        keep_going: Annotated[bool, typer.Option("--keep-going", help="exit 0 even when the release misses its gate")] = False,
    ) -> int:
        from pipelines.console import UserError

        if bool(domain) != bool(cutoff):
            raise UserError("give both --domain and --cutoff (one partition's package), or neither (the whole release)")
        if not domain:
            if require_approval:
                raise UserError("--require-approval rebuilds one partition's package: give --domain and --cutoff")
            return release_all(
                cutoffs or [],
                domains or [],
                workers=workers,
                rebuild=rebuild,
                no_build=no_build,
                allow_missing=allow_missing,
                keep_going=keep_going,
                name=name or "",
            )
        return release_partition(domain, cutoff, require_approval, name or "")


def release_partition(domain: str, cutoff: str, require_approval: bool, name: str) -> int:
    import dagster as dg

    from assets.partitions import partition_key
    from assets.release.definitions import release_package
    from pipelines.resources import default_resources

    inst = instance()
    seed_cutoffs(inst, [cutoff])
    config = {"require_approval": require_approval, "release_name": name}
    result = dg.materialize(
        [release_package],
        partition_key=partition_key(domain, cutoff),
        instance=inst,
        resources=default_resources(),
        raise_on_error=False,
        run_config={"ops": {"release_package": {"config": config}}, "loggers": {"console": {"config": {"log_level": "WARNING"}}}},
    )
    if not result.success:
        print("release failed: see the run in the UI (make ui)", file=sys.stderr)
        return 1
    [mat] = result.asset_materializations_for_node("release_package")
    meta = {k: v.value for k, v in mat.metadata.items()}
    print(f"release {meta['release_id']} of {domain} @ {cutoff}: {meta['tasks']} tasks")
    print(f"  curation: {json.dumps(meta['curation'])}")
    print(f"  files: {meta['versioned_dir']}")
    return 0


def release_all(
    cutoffs: list[str],
    domains: list[str],
    *,
    workers: int,
    rebuild: bool,
    no_build: bool,
    allow_missing: bool,
    keep_going: bool,
    name: str,
) -> int:
    """`make release`: `full_release_job` in this process (the UI launches the same job): builds the
    partitions of the release that are not built, `workers` processes at a time, then writes the
    release card and prints its per-family counts (docs/releases.md)."""
    import uuid

    import dagster as dg

    from assets.partitions import validate_cutoff
    from pipelines.console import check_cutoff
    from pipelines.release import full_release_job, release_card, release_cutoffs
    from pipelines.resources import default_resources

    cutoffs = [check_cutoff(c) for c in cutoffs]
    for c in cutoffs:
        validate_cutoff(c)  # a release cutoff's window must have closed in the corpus (CutoffError says why)
    if not cutoffs:
        chosen, left_out = release_cutoffs()
        print(
            "release cutoffs (registry defaults whose window has closed in the corpus): "
            + ", ".join(f"{c['cutoff']} ({c['horizon_months']}-month window to {c['window_end']})" for c in chosen)
        )
        for c, why in left_out.items():
            print(f"  left out {c}: {why}")
    inst = instance(cutoffs)
    config = {
        "cutoffs": cutoffs,
        "domains": domains,
        "build": not no_build,
        "rebuild": rebuild,
        "workers": workers,
        "name": name,
        "allow_missing": allow_missing or no_build,
    }
    start = time.time()
    job = dg.Definitions(assets=[release_card], jobs=[full_release_job], resources=default_resources()).resolve_job_def(
        "full_release_job"
    )
    result = job.execute_in_process(
        instance=inst,
        run_id=str(uuid.uuid4()),
        raise_on_error=False,
        run_config={"ops": {"release_card": {"config": config}}, "loggers": {"console": {"config": {"log_level": "WARNING"}}}},
    )
    if not result.success:
        failure = next((ev for ev in result.all_events if ev.event_type_value == "STEP_FAILURE"), None)
        error = failure.event_specific_data.error if failure else None
        cause = (error.cause or error) if error else None
        print(f"release failed: {cause.message.strip() if cause else 'see the run in the UI (make ui)'}", file=sys.stderr)
        return 1
    [mat] = result.asset_materializations_for_node("release_card")
    meta = {k: v.value for k, v in mat.metadata.items()}
    card_md = meta["card"]
    card = json.loads(Path(card_md).with_name("card.json").read_text()) if Path(card_md).exists() else None
    refresh_views_or_note()
    runs = meta["partition_runs"]
    print(
        f"\nRelease of {meta['partitions']} partitions in {time.time() - start:.0f}s"
        + (f" ({', '.join(f'{k} {v}' for k, v in runs.items())})" if runs else " (card only: nothing built)")
    )
    if card:
        from assets.release.card import summary_lines

        print("\n".join(summary_lines(card)))
        target = card["target"]
        print(
            f"ForeSci target ({target['per_family']} per family, {target['total']} in all): "
            + (
                "met"
                if target["met"]
                else "not met: " + ", ".join(f"{f} {n} short" for f, n in target["short_per_family"].items() if n)
            )
        )
        print(
            "Gate: "
            + (
                "passed"
                if card["gate"]["passed"]
                else "NOT passed: " + "; ".join(card["gate"]["partition_rows_failing"] + card["gate"]["pooled_failing"])
            )
        )
    print(f"Card: {card_md} (and card.json; duplicate groups in the hidden independence.jsonl)")
    if card and not card["gate"]["passed"] and not keep_going:
        return 2
    return 0

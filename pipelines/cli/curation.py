"""Curation (docs/curation.md): `audit status` prints one partition's review queue
(`pipelines.review.queue`), `review` serves the review page."""

import json
import os
import sys
from typing import Annotated

import typer

from pipelines.cli.common import CutoffOpt, DomainOpt, Format, command, print_rows, store, sub_app

PANEL = "Curation"


def register(app: typer.Typer) -> None:
    audit = sub_app(
        app,
        "audit",
        "the curation queue (docs/curation.md)",
        [
            "foresci audit status --domain llm_agent --cutoff 2025-12-31",
            "foresci audit status --domain llm_agent --cutoff 2025-12-31 --all --format json",
        ],
        PANEL,
    )

    @command(
        audit,
        "status",
        "print the review queue of one partition",
        [
            "foresci audit status --domain llm_agent --cutoff 2025-12-31",
            "foresci audit status --domain llm_agent --cutoff 2025-12-31 --all",
        ],
    )
    def status(
        domain: DomainOpt,
        cutoff: CutoffOpt,
        all: Annotated[bool, typer.Option("--all", help="list every candidate, not only the selected ones")] = False,
        format: Annotated[Format, typer.Option("--format", help="table, or json for scripts")] = Format.table,
    ) -> int:
        from pipelines.review.queue import QueueReader, matches, summary
        from resources.decisions import DecisionStore

        st = store()
        if not st.exists("audit_queue", domain, cutoff):
            print(f"no audit queue for {domain} @ {cutoff}: materialize audit_queue first", file=sys.stderr)
            return 1
        items = QueueReader(st, DecisionStore.for_store(st)).items(domain, cutoff)
        s = summary(items)
        if format == "json":
            print(json.dumps(s, indent=2))
            return 0
        print(
            f"{domain} @ {cutoff}: {s['candidates']} candidate tasks, {s['selected']} selected by the ranking, "
            f"{s['flagged']} flagged"
        )
        print(
            "  flagged by reason (all / selected): "
            + ", ".join(f"{k} {v}/{s['selected_flagged_by_reason'].get(k, 0)}" for k, v in s["flagged_by_reason"].items())
        )
        print("  decisions (all / selected): " + ", ".join(f"{k} {v}/{s['selected_states'][k]}" for k, v in s["states"].items()))
        if s["rejected_by_reason"]:
            print("  rejected by reason: " + ", ".join(f"{k} {v}" for k, v in sorted(s["rejected_by_reason"].items())))
        shown = [i for i in items if matches(i, selected="" if all else "yes")]
        print_rows(
            [
                {
                    "task": i.record.task_id,
                    "selected": "yes" if i.record.selected else "no",
                    "decision": i.state,
                    "by": i.decision.reviewer if i.decision else "",
                    "flags": ",".join(i.flag_codes) or "-",
                }
                for i in shown
            ]
        )
        return 0

    @command(app, "review", "the review page: a local web app on 127.0.0.1", ["foresci review --port 8765 --reviewer ana"], PANEL)
    def review(
        port: Annotated[int, typer.Option(help="the port on 127.0.0.1")] = 8765,
        reviewer: Annotated[str | None, typer.Option(help="default reviewer name in the form (else $USER)")] = None,
    ) -> int:
        from pipelines.review.app import create_app, serve

        server = serve(create_app(store(), reviewer=reviewer or os.environ.get("USER", "")), port)
        print(f"review page on http://127.0.0.1:{server.server_port}/ (Ctrl-C stops it)", flush=True)
        try:
            server.serve_forever()
        except KeyboardInterrupt:
            pass
        finally:
            server.server_close()
        return 0

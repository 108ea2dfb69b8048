"""`foresci sql`: the warehouse's DuckDB views from the command line, from any folder.

`-c "<query>"` runs one query and prints it as a table, CSV or JSON (for scripts); without
`-c`, an interactive shell reads statements ending in `;` (`.tables` lists the views, `.quit`
or Ctrl-D leaves). The connection comes from `foresci.connect()`'s route
(resources/duckdb_views.py), so relative globs resolve against the views file's folder.
"""

from __future__ import annotations

import csv
import io
import json
import sys
from datetime import date, datetime
from decimal import Decimal
from typing import TextIO

import duckdb

FORMATS = ("table", "csv", "json")


def format_result(con: duckdb.DuckDBPyConnection, query: str, fmt: str = "table") -> str:
    """One query's result as text: DuckDB's box table, CSV with a header, or a JSON list of rows."""
    rel = con.sql(query)
    if rel is None:  # a statement without a result (SET, CREATE …)
        return ""
    if fmt == "table":
        return str(rel)
    columns, rows = rel.columns, rel.fetchall()
    if fmt == "csv":
        out = io.StringIO()
        writer = csv.writer(out, lineterminator="\n")
        writer.writerow(columns)
        writer.writerows(rows)
        return out.getvalue()
    if fmt == "json":
        return json.dumps([dict(zip(columns, row)) for row in rows], default=_json_value, indent=1)
    raise ValueError(f"unknown format {fmt!r}: one of {', '.join(FORMATS)}")


def _json_value(value):
    if isinstance(value, (date, datetime)):
        return value.isoformat()
    if isinstance(value, Decimal):
        return float(value)
    return str(value)


def shell(
    con: duckdb.DuckDBPyConnection, stdin: TextIO = sys.stdin, stdout: TextIO = sys.stdout, interactive: bool | None = None
) -> int:
    """A small read-eval-print loop over `con`; returns the number of failed statements."""
    interactive = stdin.isatty() if interactive is None else interactive
    if interactive:
        print(
            "foresci sql: DuckDB views of the warehouse. End statements with ';'. .tables lists the views, .quit leaves.",
            file=stdout,
        )
    failed, buffer = 0, []
    while True:
        if interactive:
            stdout.write("foresci> " if not buffer else "     ...> ")
            stdout.flush()
        line = stdin.readline()
        if not line:  # end of input
            break
        text = line.strip()
        if not buffer and text in (".quit", ".exit"):
            break
        if not buffer and text == ".tables":
            names = [
                r[0] for r in con.execute("SELECT view_name FROM duckdb_views() WHERE NOT internal ORDER BY view_name").fetchall()
            ]
            print("\n".join(names), file=stdout)
            continue
        buffer.append(line)
        if not text.endswith(";"):
            continue
        statement, buffer = "".join(buffer), []
        try:
            print(format_result(con, statement), file=stdout)
        except duckdb.Error as exc:
            failed += 1
            print(f"Error: {exc}", file=stdout)
    return failed

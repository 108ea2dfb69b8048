"""Records <-> Arrow tables.

Scalar and list-of-scalar fields become typed columns (what analysts query in DuckDB);
the full record is also kept as JSON in `record_json`, so nested fields (options,
slots, evidence) come back exactly as they were written.
"""

from __future__ import annotations

import json
from datetime import date
from typing import TypeVar

import pyarrow as pa
from pydantic import BaseModel

M = TypeVar("M", bound=BaseModel)

_SCALARS = (str, int, float, bool, date, type(None))


def _is_flat(value: object) -> bool:
    if isinstance(value, _SCALARS):
        return True
    if isinstance(value, list):
        return all(isinstance(v, (str, int, float)) for v in value)
    return False


def records_to_table(records: list[BaseModel], model: type[BaseModel]) -> pa.Table:
    """One row per record. Empty lists give a table with the record_json column only."""
    rows = []
    for record in records:
        dumped = record.model_dump(mode="python")
        row = {k: v for k, v in dumped.items() if _is_flat(v)}
        row["record_json"] = record.model_dump_json()
        rows.append(row)
    if not rows:
        return pa.table({"record_json": pa.array([], type=pa.string())})
    # Columns that are None in every row would be typed null; keep them as strings.
    table = pa.Table.from_pylist(rows)
    for i, field in enumerate(table.schema):
        if pa.types.is_null(field.type):
            table = table.set_column(i, field.name, table.column(i).cast(pa.string()))
    return table


def table_to_records(table: pa.Table, model: type[M]) -> list[M]:
    return [model.model_validate_json(js) for js in table.column("record_json").to_pylist()]


def json_cell(value: object) -> str:
    """Stable JSON for metadata and hashing."""
    return json.dumps(value, sort_keys=True, default=str)

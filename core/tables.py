"""Records <-> Arrow tables.

Scalar and list-of-scalar fields become typed columns (what analysts query in DuckDB);
the full record is also kept as JSON in `record_json`, so nested fields (options,
slots, evidence) come back exactly as they were written.
"""

from __future__ import annotations

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
    # A column that is None in every row (e.g. LLM-only metrics offline) would be typed
    # null; give it the type its field declares so DuckDB can still average it.
    table = pa.Table.from_pylist(rows)
    for i, field in enumerate(table.schema):
        if pa.types.is_null(field.type):
            table = table.set_column(i, field.name, table.column(i).cast(_arrow_type(model, field.name)))
    return table


def _arrow_type(model: type[BaseModel], name: str) -> pa.DataType:
    annotation = str(model.model_fields[name].annotation) if name in model.model_fields else ""
    for token, arrow_type in (("float", pa.float64()), ("int", pa.int64()), ("bool", pa.bool_())):
        if token in annotation:
            return arrow_type
    return pa.string()


def table_to_records(table: pa.Table, model: type[M]) -> list[M]:
    return [model.model_validate_json(js) for js in table.column("record_json").to_pylist()]


"""Records <-> Arrow tables.

Scalar and list-of-scalar fields become typed columns (what analysts query in DuckDB);
the full record is also kept as JSON in `record_json`, so nested fields (options,
slots, evidence) come back exactly as they were written.
"""

from __future__ import annotations

import types
from datetime import date
from typing import Literal, TypeVar, Union, get_args, get_origin

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
    """One row per record. An empty list gives a table with the model's flat columns and no
    rows, so an empty partition still has the columns DuckDB views join on."""
    rows = []
    for record in records:
        dumped = record.model_dump(mode="python")
        row = {k: v for k, v in dumped.items() if _is_flat(v)}
        row["record_json"] = record.model_dump_json()
        rows.append(row)
    if not rows:
        return empty_table(model)
    # A column that is None in every row (e.g. LLM-only metrics offline) would be typed
    # null; give it the type its field declares so DuckDB can still average it.
    table = pa.Table.from_pylist(rows)
    for i, field in enumerate(table.schema):
        if pa.types.is_null(field.type):
            table = table.set_column(i, field.name, table.column(i).cast(_arrow_type(model, field.name)))
    return table


_SIMPLE = {str: pa.string(), bool: pa.bool_(), int: pa.int64(), float: pa.float64(), date: pa.date32()}


def _column_type(annotation) -> pa.DataType | None:
    """The Arrow type a field's values take in `records_to_table`, None for nested fields."""
    origin, args = get_origin(annotation), get_args(annotation)
    if origin in (Union, types.UnionType):
        inner = [a for a in args if a is not type(None)]
        return _column_type(inner[0]) if len(inner) == 1 else None
    if origin is Literal:
        return _SIMPLE.get(type(args[0])) if args else None
    if origin is list:
        item = _column_type(args[0]) if args else None
        return pa.list_(item) if item in (pa.string(), pa.int64(), pa.float64()) else None
    return _SIMPLE.get(annotation)


def empty_table(model: type[BaseModel]) -> pa.Table:
    columns = {name: pa.array([], t) for name, f in model.model_fields.items() if (t := _column_type(f.annotation)) is not None}
    return pa.table({**columns, "record_json": pa.array([], type=pa.string())})


def _arrow_type(model: type[BaseModel], name: str) -> pa.DataType:
    annotation = str(model.model_fields[name].annotation) if name in model.model_fields else ""
    for token, arrow_type in (("float", pa.float64()), ("int", pa.int64()), ("bool", pa.bool_())):
        if token in annotation:
            return arrow_type
    return pa.string()


def table_to_records(table: pa.Table, model: type[M]) -> list[M]:
    return [model.model_validate_json(js) for js in table.column("record_json").to_pylist()]

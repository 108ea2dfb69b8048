"""HTML pages from Jinja2 templates: one environment factory for every report page.

The product builds no HTML by string concatenation: a page module keeps its templates in a
`templates/` folder beside it and renders them with `render(package, name, **context)`.

* Autoescape is on for every template (`select_autoescape(default=True)`, so `.html` files and
  template strings alike): any value a template prints is escaped, whatever it holds (task
  titles, answer claims and quotes, method names). No template uses `|safe` on data.
* `StrictUndefined`: a misspelt variable fails the render instead of printing nothing.
* The loader looks in the page's package first (`PackageLoader(package)`, its `templates/`
  folder), then in `core/templates/`, which holds the shared layout (`page.html`: the head,
  stylesheet and `<h1>`) and the macros (`macros.html`: `table`, `img`). `PackageLoader` finds
  the folder in a clean clone, an editable install and a wheel (pyproject's package-data ships
  `templates/*.html`).
* `cell` filter: how a table cell prints a value — None as "–", a float with 3 decimals, any
  other value as its `str` (then escaped).
* `numeric_columns` filter: the columns of a table whose every filled cell is a number (int or
  float, not bool) or a number as text, alone or followed by an interval or a bracket
  ("0.650 [0.52, 0.78]", "+0.050 (≥ –)", "1.084 (prior sd)"; `NUMBER`); the table macro
  right-aligns those (class `num`) and left-aligns text.
* `cell_parts` filter: a number with its interval or bracket ("0.513 [0.51, 0.52]") as two
  parts; the macro keeps the bracket on one line (class `nb`), so a narrow column wraps
  between the value and its interval, never inside it.
"""

from __future__ import annotations

import base64
import re
from collections.abc import Sequence
from functools import cache

import jinja2


def cell(value) -> str:
    """A table cell's text: "–" for None, 3 decimals for a float, else `str(value)`."""
    if value is None:
        return "–"
    if isinstance(value, float):
        return f"{value:.3f}"
    return str(value)


NUMBER = re.compile(r"^[-+−]?\d+(\.\d+)?%?( \[[^]]*\]| \([^)]*\))?$")  # 0.650, 0.650 [0.52, 0.78], 1.084 (prior sd)


def _numeric(value) -> bool | None:
    """True for a number or a number as text (`NUMBER`), False for other text, None for empty ("–")."""
    if value is None or value == "–" or value == "":
        return None
    if isinstance(value, bool):
        return False
    if isinstance(value, (int, float)):
        return True
    return bool(NUMBER.match(str(value)))


def numeric_columns(rows: Sequence[dict], columns: Sequence[str]) -> set[str]:
    """The columns whose filled cells are all numbers (at least one filled)."""
    out = set()
    for c in columns:
        kinds = {_numeric(r.get(c)) for r in rows} - {None}
        if kinds == {True}:
            out.add(c)
    return out


BRACKET = re.compile(r"^(\S+) (\[[^]]*\]|\([^)]*\))$")  # "0.513 [0.51, 0.52]", "1.416 (pooled sd)"


def cell_parts(value) -> tuple[str, str]:
    """A cell's text as (value, bracket): "0.513 [0.51, 0.52]" -> ("0.513", "[0.51, 0.52]"), so
    a narrow column breaks the line between them, never inside the interval; else (text, "")."""
    text = cell(value)
    m = BRACKET.match(text)
    return (m.group(1), m.group(2)) if m else (text, "")


def b64(data: bytes) -> str:
    """Bytes as base64 text (a PNG for a `data:` URI)."""
    return base64.b64encode(data).decode()


@cache
def environment(package: str) -> jinja2.Environment:
    """The autoescaping environment of a page package (its templates, then core's shared ones)."""
    env = jinja2.Environment(
        loader=jinja2.ChoiceLoader([jinja2.PackageLoader(package), jinja2.PackageLoader("core")]),
        autoescape=jinja2.select_autoescape(default=True, default_for_string=True),
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
    )
    env.filters["cell"] = cell
    env.filters["b64"] = b64
    env.filters["numeric_columns"] = numeric_columns
    env.filters["cell_parts"] = cell_parts
    return env


def render(package: str, template: str, **context) -> str:
    """Render `template` of `package` (e.g. "assets.leaderboard", "report.html") with `context`."""
    return environment(package).get_template(template).render(**context)

"""The meta table page, ``/meta``: the table ``tactica meta`` wrote (the folder given to
``tactica serve --meta``) to sort and filter: by faction, target, phase and edition, by
part of a unit's name, sorted by any figure, a page of rows at a time. Rendered on the
server from a GET form (no script), so every view is a link; DuckDB reads the Parquet
files for each page (``tactica.meta.query.browse``), the whole table never in memory.
"""

from __future__ import annotations

import math
from pathlib import Path
from typing import TYPE_CHECKING, Any

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse

from ..service import player_faction

if TYPE_CHECKING:
    from ..service import Browse

__all__ = ["COLUMNS", "DETACHMENT_COLUMN", "PAGE_ROWS", "router"]



router = APIRouter()

#: Rows on one page.
PAGE_ROWS = 50

#: The table's columns as the page shows them: (column, heading, format).
COLUMNS = (
    ("attacker", "Unit", "text"),
    ("attacker_faction", "Faction", "faction"),
    ("attacker_points", "Points", "int"),
    ("target", "Target", "text"),
    ("phase", "Phase", "text"),
    ("edition", "Edition", "text"),
    ("expected_damage", "Expected damage", "2f"),
    ("models_destroyed", "Models destroyed", "2f"),
    ("p_destroyed", "Chance to destroy", "pct"),
    ("points_destroyed", "Points destroyed", "1f"),
    ("points_per_100", "Points per 100 points", "2f"),
)
#: The column a table of each faction's detachment rules adds (not a sort: a table
#: without it has no such column to sort by).
DETACHMENT_COLUMN = ("detachment", "Detachment", "text")
_LABELS = {"attacker_faction": "Faction", "target": "Target", "phase": "Phase",
           "edition": "Edition"}


def _cell(value: Any, kind: str) -> str:
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return "–"
    if kind == "int":
        return f"{int(value)}"
    if kind == "pct":
        return f"{float(value):.0%}"
    if kind in ("1f", "2f"):
        return f"{float(value):.{kind[0]}f}"
    if kind == "faction":  # as players name it (Space Marines for Adeptus Astartes)
        return player_faction(str(value)).name
    return str(value)


def _view(params: dict[str, str], known: dict[str, list[str]]) -> tuple[Browse, list[str]]:
    """The page's view from its query string; what cannot be read is named and dropped."""
    from ..service import BROWSE_FILTERS, SORTABLE, Browse
    errors = []
    filters = []
    for column in BROWSE_FILTERS:
        value = params.get(column, "").strip()
        if value and value not in known[column]:
            errors.append(f"{_LABELS[column]}: no rows for {value!r}")
        elif value:
            filters.append((column, value))
    sort = params.get("sort", "points_per_100")
    if sort not in SORTABLE:
        errors.append("sort: pick a column heading")
        sort = "points_per_100"
    try:
        page = max(1, int(params.get("page", "1")))
    except ValueError:
        errors.append("page: a whole number")
        page = 1
    return Browse(filters=tuple(filters), unit=params.get("unit", "")[:200],
                  refused=params.get("refused") == "1", sort=sort,
                  descending=params.get("order", "desc") != "asc", limit=PAGE_ROWS,
                  offset=(page - 1) * PAGE_ROWS), errors


def _link(params: dict[str, str], **change: Any) -> str:
    from urllib.parse import urlencode

    merged = {k: v for k, v in {**params, **change}.items() if v not in ("", None)}
    return "/meta?" + urlencode(merged)


@router.get("/meta", response_class=HTMLResponse)
def meta_page(request: Request) -> HTMLResponse:
    """The table's page: the filters and sort in the query string."""
    from ..service import BROWSE_FILTERS, QueryError, browse, choices  # on first use
    from .pages import _page

    folder: Path | None = request.app.state.meta_folder
    params = {k: v for k, v in request.query_params.items()
              if k in (*BROWSE_FILTERS, "unit", "refused", "sort", "order", "page")}
    context: dict[str, Any] = {"params": params, "columns": COLUMNS, "rows": None,
                               "errors": [], "folder": folder}
    if folder is None:
        return _page(request, "meta.html", title="Meta table", **context)
    try:
        known = choices(folder)
        view, errors = _view(params, known)
        rows, total = browse(folder, view)
    except QueryError as exc:
        context["errors"] = [str(exc)]
        return _page(request, "meta.html", status=404, title="Meta table", **context)
    page = view.offset // PAGE_ROWS + 1
    pages = max(1, math.ceil(total / PAGE_ROWS))
    columns = (*COLUMNS, DETACHMENT_COLUMN) if "detachment" in rows.columns else COLUMNS
    heads = []
    for column, heading, _ in columns:
        here = column == view.sort
        order = "asc" if here and view.descending else "desc"
        heads.append({"heading": heading, "href": _link(params, sort=column, order=order,
                                                        page="")
                      if column != DETACHMENT_COLUMN[0] else None,
                      "sorted": ("descending" if view.descending else "ascending")
                      if here else None})
    context.update(
        errors=errors, known=known, labels=_LABELS, heads=heads, total=total, page=page,
        said=lambda column, v: _cell(v, "faction") if column == "attacker_faction" else v,
        pages=pages,
        rows=[[_cell(r.get(c), kind) for c, _, kind in columns]
              for r in rows.to_dict("records")],
        prev=_link(params, page=page - 1) if page > 1 else None,
        next=_link(params, page=page + 1) if page < pages else None)
    return _page(request, "meta.html", status=422 if errors else 200, title="Meta table",
                 **context)

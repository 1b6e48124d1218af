"""``tactica units``' table from rows of text (``tactica.lookup.unit_index``: the unit
index's rows, or a library's datasheets through ``unit_cells``).

Formatting only, from the rows' texts, so that a look-up in the unit index loads no data
model. All text from the data is wrapped in ``rich.text.Text``, so brackets in a name are
never read as markup.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING

from rich import box
from rich.table import Table
from rich.text import Text

if TYPE_CHECKING:
    from rich.console import Console

    from ..service import Rules

__all__ = ["rows_table", "show_units", "unknown_faction"]


def rows_table(rows: Iterable[Sequence[str]]) -> Table:
    """The ``tactica units`` table: name, faction keywords, rules version, points, source."""
    table = Table(box=box.SIMPLE_HEAD, title="Units")
    for column in ("Unit", "Faction keywords", "Rules", "Points", "Source"):
        table.add_column(column)
    for row in rows:
        table.add_row(*(Text(cell) for cell in row))
    return table


def show_units(console: Console, faction: str | None = None,
               rules: Rules | None = None) -> None:
    """``tactica units``: the table of the units of ``faction`` (every unit without one)
    in ``rules`` (``tactica.lookup.unit_index.unit_rows``), in alphabetical order.
    ``UnknownNameError`` (with close names) for a faction no unit has."""
    from ..service import name_key, unit_rows

    rows = unit_rows(faction, rules)  # by name as names are matched, then rules version
    console.print(rows_table(sorted(rows, key=lambda r: (name_key(r[0]), r[2]))))


def unknown_faction(err: Console, exc: LookupError) -> int:
    """A faction nothing has: the error with its close names, and what the sources lack
    (the dataset not installed), on stderr; the exit code (2, the usage-error code)."""
    from ..service import units_missing

    err.print(f"error: {exc}", markup=False)
    for hint in units_missing():
        err.print(f"note: {hint}", markup=False)
    return 2

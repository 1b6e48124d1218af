"""``tactica units``: the table in alphabetical order of unit name (case, apostrophes and
punctuation ignored, as names are matched), the 10th-edition datasheet before the 11th
of one name, so that a player finds a unit by scanning."""

from __future__ import annotations

import re
import unicodedata

import pytest
from typer.testing import CliRunner

from tactica.cli import commands


def _names(args: list[str]) -> list[str]:
    result = CliRunner().invoke(commands.app, args, env={"COLUMNS": "400"})
    assert result.exit_code == 0, result.output
    rows = [ln for ln in result.stdout.splitlines() if re.search(r"\s(10th|11th)\s", ln)]
    return [re.split(r"\s{2,}", ln.strip())[0] for ln in rows]


def _key(name: str) -> str:
    """Letters and digits, accents dropped (Brôkhyr as Brokhyr), case ignored."""
    bare = unicodedata.normalize("NFKD", name).encode("ascii", "ignore").decode()
    return re.sub(r"[^0-9a-z]", "", bare.casefold())


@pytest.mark.parametrize("args", [["units"], ["units", "--faction", "Orks"]],
                         ids=["every unit", "one faction"])
def test_units_are_listed_alphabetically(args: list[str]) -> None:
    names = _names(args)
    assert len(names) > 5
    assert [_key(n) for n in names] == sorted(_key(n) for n in names), names[:20]

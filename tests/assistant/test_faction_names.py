"""A misspelt faction is answered with close names as players name factions: "Spcae
Marines" suggested only "Chaos Space Marines" (the library lists the Space Marines as
"Adeptus Astartes"). Each suggestion is itself a faction the library reads."""

from __future__ import annotations

from typing import Any

import pytest
from mcp.server.lowlevel import Server

from tactica.library import load_library

from .helpers import call, refusal

pytest.importorskip("wh40kdc")

CASES = [("Spcae Marines", "Space Marines"), ("Space Marinez", "Space Marines"),
         ("Eldar", "Aeldari"), ("Chaos Spcae Marines", "Chaos Space Marines")]


@pytest.mark.parametrize(("typed", "meant"), CASES)
def test_the_close_names_are_the_players(server: Server[Any], typed: str, meant: str) -> None:
    line = refusal(call(server, "list_units", {"faction": typed}))
    assert line.startswith(f"error: faction: no faction named '{typed}'; did you mean: "
                           f"{meant}"), line
    suggested = line.partition("did you mean: ")[2].removesuffix("?").split(", ")
    library = load_library()
    for name in suggested:
        library.faction(name)  # each one is read (UnknownNameError otherwise)

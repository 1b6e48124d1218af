"""A plan's options name units of the two sides (``destroy``, ``forbid``, ``distances``,
``charge_modifiers``, ``reroll_charges``, ``stratagems``): a name no unit of its side has
is refused in one line that starts with the option as the user gave it and, when no name
is close, lists the units the option may name. The same line from the Python API, the
assistant's ``plan``/``matchup`` tools and the web page's form; and each box of the web
page shows an example entry the request itself accepts (``tactica.plan.request.WORDS``).
"""

from __future__ import annotations

from html import unescape
from typing import Any

import pytest
from fastapi.testclient import TestClient

from tactica.library import Library, load_library
from tactica.plan.request import WORDS, MatchupRequest, PlanRequest
from tactica.service import UnknownNameError

pytest.importorskip("wh40kdc")

MINE, ENEMY = "Intercessor Squad", "Boyz"

#: (the plan's option, its value naming a unit no side has, the line's start, its end)
CASES: list[tuple[str, Any, str, str]] = [
    ("destroy", ("Nope",), "destroy: no unit of enemy list named 'Nope'", "its units: Boyz"),
    ("forbid", (("Intercessor Squad", "Nope"),), "forbid: no unit of enemy list named 'Nope'",
     "its units: Boyz"),
    ("forbid", (("Nope", "Boyz"),), "forbid: no unit of my list named 'Nope'",
     "its units: Intercessor Squad"),
    ("distances", {"Nope": 12.0}, "distances: no unit of my list or enemy list named 'Nope'",
     "its units: Intercessor Squad, Boyz"),
    ("distances", {"Intercessor Squad>Boys": 12.0},
     "distances: no unit of enemy list named 'Boys'", "did you mean: Boyz?"),
    ("charge_modifiers", {"Nope": 1}, "charge_modifiers: no unit of my list named 'Nope'",
     "its units: Intercessor Squad"),
    ("reroll_charges", ("Nope",), "reroll_charges: no unit of my list named 'Nope'",
     "its units: Intercessor Squad"),
    ("stratagems", {"Nope": ("Fire Overwatch",)}, "stratagems: no unit named 'Nope'",
     "the units: Intercessor Squad"),
]
IDS = [f"{c[0]}-{i}" for i, c in enumerate(CASES)]


@pytest.fixture(scope="module")
def library() -> Library:
    return load_library()


def _phase(option: str) -> str:
    return "fight" if option in ("charge_modifiers", "reroll_charges") else "shooting"


@pytest.mark.parametrize(("option", "value", "start", "end"), CASES, ids=IDS)
def test_the_python_api_names_the_option(library: Library, option: str, value: Any,
                                         start: str, end: str) -> None:
    request = PlanRequest(mine=MINE, enemy=ENEMY, phase=_phase(option),  # type: ignore[arg-type]
                          **{option: value})
    with pytest.raises(UnknownNameError) as caught:
        request.run(library)
    line = str(caught.value)
    assert line.startswith(start) and line.endswith(end), line


def test_a_matchup_names_distances_too(library: Library) -> None:
    request = MatchupRequest(mine=MINE, enemy=ENEMY, distances={"Nope": 3.0})
    with pytest.raises(UnknownNameError, match=r"^distances: no unit .*'Nope'; its units"):
        request.run(library)


@pytest.mark.parametrize(("option", "value", "start", "end"), CASES, ids=IDS)
def test_the_assistant_gives_the_same_line(library: Library, option: str, value: Any,
                                           start: str, end: str) -> None:
    pytest.importorskip("mcp")
    from assistant.helpers import call, refusal
    from tactica.assistant import create_server

    args: dict[str, Any] = {"mine": MINE, "enemy": ENEMY, "phase": _phase(option),
                            option: value}
    line = refusal(call(create_server(), "plan", args))
    assert line.startswith(f"error: {start}") and line.endswith(end), line


@pytest.fixture(scope="module")
def web(library: Library, calc_pool: Any) -> Any:
    from tactica.web import create_app

    with TestClient(create_app(library=lambda: library, calc_pool=calc_pool)) as client:
        yield client


def test_the_web_page_shows_the_same_line(web: TestClient) -> None:
    """The form's words (one entry a line) read to the same request: the same refusal,
    shown on the page as one line."""
    answer = web.post("/plan", data={"mine": MINE, "enemy": ENEMY, "destroy": "Nope"})
    assert answer.status_code == 422
    assert "destroy: no unit of enemy list named &#39;Nope&#39;; its units: Boyz" in \
        answer.text


def test_each_box_of_the_web_page_shows_an_example_the_request_accepts(
        web: TestClient) -> None:
    """The example in each box is read by the request itself (``from_words``, the core's
    bounds): the charge modifiers' example once was "Boyz=18", past their -6..+6."""
    page = unescape(web.get("/plan").text)
    for name, (example, words) in WORDS.items():
        assert f'placeholder="{example}"' in page, name
        assert f"e.g. <code>{example}</code>: {words}" in page, name
        words_in = {"mine": MINE, "enemy": ENEMY, name: example}
        if name in ("charge_modifiers", "reroll_charges"):
            words_in["phase"] = "fight"
        PlanRequest.from_words(words_in)  # in bounds (raises RequestError otherwise)
    assert set(WORDS) == {n for n, f in PlanRequest.model_fields.items()
                          if n not in ("mine", "enemy") and isinstance(
                              f.get_default(call_default_factory=True), dict | tuple)}

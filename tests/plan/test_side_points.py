"""A side's points (issue 48): the list's printed points where the list gives them, the
dataset's otherwise, and which source each side's came from; unit names checked against
the datasheet's sizes; refusals naming the side and its file or text.

The printed points are read from the list file by a regular expression written here, not
by the list's parser."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tactica.army.formats import load_roster
from tactica.army.pricing import price_roster
from tactica.library import load_library
from tactica.plan import SideError, plan, read_side

GSC = Path(__file__).resolve().parents[1] / "fixtures" / "rosters" / "gsc" / \
    "listgrok_official_7.gw-app-10e.txt"


def _printed(path: Path) -> list[tuple[str, int]]:
    """The app's unit lines "NAME (N points)" after the header (its 7th line on)."""
    lines = path.read_text(encoding="utf-8").splitlines()[7:]
    return [(m.group(1), int(m.group(2))) for line in lines
            if (m := re.fullmatch(r"(\S.*?) \((\d+) points\)", line.strip()))
            and not re.match(r"(Strike Force|Incursion|Onslaught)", m.group(1))]


def test_a_side_is_valued_at_the_list_s_printed_points() -> None:
    """The 10th-edition GSC list prints 2,000 pts (Neophyte Hybrids at 65); the dataset
    prices it at 2,025 (the Neophytes at 90): the side is worth what the list says."""
    lib = load_library()
    side = read_side(GSC, lib)
    printed = _printed(GSC)
    assert sum(p for _, p in printed) == 2000 == side.points
    assert side.points_source == "the list's printed points"
    assert ("Neophyte Hybrids", 65) in printed
    (neophytes,) = [u for u in side.units if u.body.name == "Neophyte Hybrids"]
    assert neophytes.points == 65 + sum(u.points or 0 for u in neophytes.leaders)
    dataset = read_side(GSC, lib, prices="dataset")
    assert dataset.points == price_roster(load_roster(GSC, library=lib), lib).total == 2025
    assert dataset.points_source == "the dataset's points"
    # a model's share of its unit follows the unit's value
    for u in side.units:
        assert sum(n * p for n, p in u.entry_points) == pytest.approx(u.points)


def test_the_plan_says_where_each_side_s_points_came_from() -> None:
    p = plan(GSC, "Intercessor Squad:10, Gretchin:20")
    assert p.points_from == ("my list: 2000 pts, the list's printed points",
                             "enemy list: 230 pts, the dataset's points")
    assert p.to_json()["points_from"] == list(p.points_from)


def test_a_unit_printed_at_0_is_priced_from_the_dataset() -> None:
    """A format that must print a price writes an unknown one as 0 (``army.formats``)."""
    text = GSC.read_text(encoding="utf-8").replace("Neophyte Hybrids (65 points)",
                                                   "Neophyte Hybrids (0 points)", 1)
    side = read_side(text, load_library())
    assert side.points == 2000 - 65 + 90
    assert side.points_source.startswith("the list's printed points for ")
    assert side.points_source.endswith(" units, the dataset's for the others")


@pytest.mark.parametrize(("names", "message"), [
    ("Gretchin:25", "enemy list: unit 1 ('Gretchin:25'): Gretchin has 10-20 models; 25 "
     "asked for"),
    ("Boyz, Gretchin:9", "enemy list: unit 2 ('Gretchin:9'): Gretchin has 10-20 models; 9 "
     "asked for"),
    ("Lieutenant:2", "enemy list: unit 1 ('Lieutenant:2'): Lieutenant has 1 models; 2 "
     "asked for"),
])
def test_unit_names_are_sized_as_their_datasheet_allows(names: str, message: str) -> None:
    with pytest.raises(SideError) as info:
        read_side(names, load_library(), name="enemy list")
    assert str(info.value) == message


def test_the_sizes_at_the_bounds_are_read() -> None:
    side = read_side("Gretchin:10, Gretchin:20, Intercessor Squad:5", load_library())
    assert [u.body.models for u in side.units] == [10, 20, 5]


def test_unit_names_of_any_length_are_never_a_file_name(tmp_path: Path) -> None:
    """Past 255 characters (a file name's longest) and past 4,096 (a path's)."""
    lib = load_library()
    for n in (20, 300):
        names = ", ".join(["Intercessor Squad:5"] * n)
        assert len(names) > 255
        assert len(read_side(names, lib).units) == n
    with pytest.raises(SideError, match=r"^my list: unit 301 \('Gretchen'\): no unit named"):
        read_side(", ".join(["Intercessor Squad:5"] * 300 + ["Gretchen"]), lib,
                  name="my list")


def test_every_refusal_names_the_side_and_the_file(tmp_path: Path) -> None:
    lib = load_library()
    empty = tmp_path / "empty.txt"
    empty.write_text("", encoding="utf-8")
    for source in (empty, str(empty)):
        with pytest.raises(SideError) as info:
            read_side(source, lib, name="enemy list")
        assert str(info.value) == f"enemy list: {empty}: empty file"
    with pytest.raises(SideError) as info:
        read_side(str(tmp_path / "gone.txt"), lib, name="my list")
    assert str(info.value).startswith(f"my list: {tmp_path / 'gone.txt'}: no such file")

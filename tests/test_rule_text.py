"""Rule text generated from the dataset's effect code in the look-up and on the command
line (issue 41, item 7): ``tactica rule`` reads it from the index of rules by name on disk
(the index keeps it, and is keyed by the generator's code), and ``tactica sheet`` shows
it for a datasheet's abilities, each marked as generated, with the dataset's notes.

The index here is built from a small library holding a few records of the full one (the
army rule Oath of Moment, two stratagems without effect code, the Bullgryn Squad
datasheet and its Wall of Muscle), so that the test does not index every rule.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from typer.testing import CliRunner

pytest.importorskip("wh40kdc")

from tactica.cache import CACHE_ENV
from tactica.cli.app import app as cli_app
from tactica.cli.rule_view import NO_CODE
from tactica.index import Library
from tactica.library import load_library
from tactica.lookup import GENERATED, RuleEntry, rule_entries
from tactica.lookup import rule_index as rule_index_module
from tactica.lookup.entries import entry_from_json
from tactica.lookup.rule_index import RuleIndex, build_index
from tactica.names import name_key

pytestmark = pytest.mark.usefixtures("pinned_dataset")

#: checked by hand against the record's effect code (``tests/effects/test_wording.py``)
OATH = ("At the start of your Command phase, select one enemy unit. Re-roll failed Hit "
        "rolls for attacks that target the designated enemy unit, until your next Command "
        "phase.")
OATH_NOTES = "Additionally add 1 to the Wound roll against the Oath of Moment target IF"
#: Wall of Muscle: {"type": "damage-reduction", "target": "unit", "modifier": {"reduction": 1}}
WALL = ("Each time an attack is allocated to a model in the unit, subtract 1 from the "
        "Damage characteristic of that attack.")


#: Records of the dataset with no effect code: Armour of Contempt in the Gladius Task
#: Force (its same-named stratagems that have one all say the same), Know No Fear in the
#: Vengeful Hosts (no other record of that name has effect code).
BORROWER, WORDLESS = ("armour-of-contempt-gladius-task-force", "know-no-fear-vengeful-hosts")
#: Armour of Contempt (Angelic Inheritors), a stratagem: trigger {"event":
#: "on-unit-selected", "subject": "enemy-unit"}, scope {"duration": "phase"}, effect
#: {"type": "stat-modifier", "target": "unit", "modifier": {"stat": "AP", "operation":
#: "add", "value": 1, "incoming": true}} (AP worsened for the attacks on the unit)
CONTEMPT = ("When an enemy unit is selected, worsen the Armour Penetration characteristic "
            "of attacks that target the unit by 1, until the end of the phase.")


@pytest.fixture(scope="module")
def small() -> Library:
    full = load_library(dataset=True)
    picked = [r for r in full.records() if getattr(r, "name", None) == "Oath of Moment"
              or getattr(r, "key", None) in (BORROWER, WORDLESS)]
    return Library(datasheets=[full.datasheet("Bullgryn Squad", "11th")], records=picked)


@pytest.fixture(scope="module")
def index(small: Library, tmp_path_factory: pytest.TempPathFactory) -> RuleIndex:
    path = tmp_path_factory.mktemp("index") / "rules-test.sqlite"
    build_index(small, path)
    return RuleIndex(path)


def test_a_dataset_record_s_entry_carries_its_generated_text_and_notes(small: Library) -> None:
    (oath,) = rule_entries("Oath of Moment", library=small)
    assert (oath.kind, oath.generated, oath.generated_from) == ("army_rule", OATH, GENERATED)
    assert oath.notes is not None and oath.notes.startswith(OATH_NOTES)
    (wall,) = rule_entries("Wall of Muscle", library=small)
    assert (wall.kind, wall.where, wall.generated) == ("ability", "Bullgryn Squad", WALL)
    # JSON (the assistant's answer, a row of the index) marks it, and reads back the same
    document = oath.as_json()
    assert document["generated"] == OATH and document["generated_from"] == GENERATED
    assert entry_from_json(document) == oath


def test_a_record_without_effect_code_borrows_the_same_named_records_words(
        small: Library) -> None:
    (contempt,) = rule_entries("Armour of Contempt", library=small)
    assert contempt.generated == CONTEMPT
    assert contempt.generated_from == (
        "generated from the dataset's effect code of the same-named stratagem of Angelic "
        "Inheritors (this record has none), not the published text")
    assert contempt.notes is None  # the notes are the other record's
    (fearless,) = rule_entries("Know No Fear", library=small)
    assert fearless.generated is None and fearless.generated_from is None


def test_a_record_with_published_text_has_none_generated() -> None:
    from tactica.library import load_seed_library

    (primed,) = rule_entries("Primed and Readied", library=load_seed_library())
    assert primed.record["effect"] and primed.generated is None and primed.notes is None


def test_the_index_keeps_the_generated_text(index: RuleIndex, small: Library) -> None:
    for name in ("Oath of Moment", "Wall of Muscle"):
        found = index.get(name_key(name))
        assert found is not None
        assert found[0] == rule_entries(name, library=small)
    assert index.get(name_key("Oath of Moment"))[0][0].generated == OATH  # type: ignore[index]


def test_the_index_is_keyed_by_the_generator_s_code() -> None:
    """``index_path`` stamps the files of ``index_files._CODE``: the generator's modules
    and the look-up that calls it are among them, so a changed generator gives another
    index file (a stale text is never read)."""
    import tactica
    import tactica.effects.rule_text
    import tactica.effects.wording.combat
    import tactica.lookup.entries

    root = Path(tactica.__file__).resolve().parent
    from tactica.lookup import index_files

    parts = [root / p for p in index_files._CODE]
    for module in (tactica.effects.wording.combat, tactica.effects.rule_text,
                   tactica.lookup.entries):
        path = Path(module.__file__ or "").resolve()
        assert any(path.is_relative_to(p) for p in parts), path


@pytest.fixture
def from_index(index: RuleIndex, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """``tactica rule`` answering from the small index, as it answers from the user's."""
    monkeypatch.delenv(CACHE_ENV, raising=False)
    monkeypatch.setattr(rule_index_module, "configured_index", lambda: index)
    yield None


@pytest.mark.usefixtures("from_index")
def test_tactica_rule_shows_the_generated_text_marked_with_the_notes() -> None:
    done = CliRunner().invoke(cli_app, ["rule", "Oath of Moment"], env={"COLUMNS": "240"})
    assert done.exit_code == 0, done.stderr
    text = " ".join(done.stdout.replace("│", " ").split())
    assert f"Effect: {OATH}" in text
    assert f"({GENERATED})" in text
    assert f"Dataset notes: {OATH_NOTES}" in text
    wall = CliRunner().invoke(cli_app, ["rule", "Wall of Muscle"], env={"COLUMNS": "240"})
    assert wall.exit_code == 0, wall.stderr
    said = " ".join(wall.stdout.replace("│", " ").split())
    assert f"Effect: {WALL}" in said and "(no text on the datasheet)" not in said
    fearless = CliRunner().invoke(cli_app, ["rule", "Know No Fear"], env={"COLUMNS": "240"})
    assert fearless.exit_code == 0, fearless.stderr
    assert NO_CODE in " ".join(fearless.stdout.replace("│", " ").split())


def test_tactica_sheet_shows_an_ability_s_generated_text_marked() -> None:
    done = CliRunner().invoke(cli_app, ["sheet", "Bullgryn Squad", "--rules", "11th"],
                              env={"COLUMNS": "400"})
    assert done.exit_code == 0, done.stderr
    text = " ".join(done.stdout.replace("│", " ").split())
    assert f"Wall of Muscle: {WALL} ({GENERATED})" in text
    assert "(no text)" not in text


def test_an_entry_without_generated_text_reads_back_from_older_json() -> None:
    entry = RuleEntry(name="X", kind="stratagem", rules="11th", calculator="", record={})
    data = entry.as_json()
    assert data["generated"] is None and data["generated_from"] is None
    assert entry_from_json(data) == entry

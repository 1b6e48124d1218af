"""Leader attachment (24.22, seed 000) in every door, by hand: the issue's pairs, one
leader unit and one support unit, and an attached unit as one unit (its keywords). The
sweep of every leader record is ``test_leader_sweep``."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from typer.testing import CliRunner

from tactica.library import Library, load_library
from tactica.model import Datasheet, Source
from tactica.units import (
    LeaderError,
    ScenarioDocument,
    UnitError,
    check_leaders,
    lead_refusal,
    resolve,
)

pytest.importorskip("wh40kdc.data")


@pytest.fixture(scope="module")
def lib() -> Library:
    return load_library(dataset=True)


def test_the_issue_s_pairs_in_the_python_api(lib: Library) -> None:
    # 24.22 and the records: Inquisitor leads IMPERIUM BATTLELINE INFANTRY units
    assert lead_refusal(lib.datasheet("Inquisitor"), lib.datasheet("Cadian Shock Troops")) is None
    for leader, unit, why in [
        ("Inquisitor", "Boyz", "it leads IMPERIUM BATTLELINE INFANTRY units"),
        ("Inquisitor", "Termagants", "it leads IMPERIUM BATTLELINE INFANTRY units"),
        ("Leman Russ Battle Tank", "Intercessor Squad", "no Leader ability"),
        ("Hellblaster Squad", "Intercessor Squad", "no Leader ability"),
    ]:
        refusal = lead_refusal(lib.datasheet(leader), lib.datasheet(unit))
        assert refusal is not None and why in refusal, (leader, unit, refusal)


@pytest.mark.parametrize(("led_by", "why"), [
    # the Lieutenant is a support unit (the dataset's attachment_role): 2 leader units
    (["Captain", "Chaplain", "Lieutenant"], "one leader unit may be attached, not 2 "
                                            "(Captain, Chaplain)"),
    (["Lieutenant", "Lieutenant"], "Lieutenant is attached twice"),
    (["Inquisitor"], "Inquisitor cannot lead Hellblaster Squad"),  # not BATTLELINE
])
def test_scenario_refuses_illegal_attachments(lib: Library, led_by: list[str],
                                              why: str) -> None:
    unit = "Hellblaster Squad" if led_by == ["Inquisitor"] else "Intercessor Squad"
    doc = ScenarioDocument.model_validate({
        "attacker": {"unit": unit, "led_by": led_by},
        "target": {"unit": "meq"}})
    with pytest.raises(UnitError, match=re.escape(why)):
        resolve(doc, lib)


def test_scenario_accepts_a_keyword_pair(lib: Library) -> None:
    doc = ScenarioDocument.model_validate({
        "attacker": {"unit": "Cadian Shock Troops", "led_by": "Inquisitor"},
        "target": {"unit": "meq"}})
    scenario, resolved, _ = resolve(doc, lib)
    assert "Inquisitor" in scenario.context.led_by
    assert any(t.startswith("1 Inquisitor:") for t in resolved.attacker_models)


def test_one_leader_and_one_support() -> None:
    # 24.22: one leader unit and one support unit; SUPPORT is the datasheet's ability
    from tactica.model.datasheet import Ability

    s = Source(file="x")
    guard = Datasheet(name="Squad", rules="11th", source=s)
    a = Datasheet(name="A", rules="11th", source=s, leader_of=("Squad",))
    b = Datasheet(name="B", rules="11th", source=s, leader_of=("Squad",),
                  abilities=(Ability(name="Support", kind="core"),))
    c = Datasheet(name="C", rules="11th", source=s, leader_of=("Squad",))
    check_leaders(guard, [a, b])
    with pytest.raises(LeaderError, match="one leader unit may be attached, not 2"):
        check_leaders(guard, [a, c])


def test_cli_led_by_uses_the_same_check(lib: Library) -> None:
    from tactica.cli.app import app

    runner = CliRunner()
    ok = runner.invoke(app, ["calc", "--attacker", "Cadian Shock Troops", "--led-by",
                             "Inquisitor", "--target", "meq"])
    assert ok.exit_code == 0, ok.output
    bad = runner.invoke(app, ["calc", "--attacker", "Boyz", "--led-by", "Inquisitor",
                              "--target", "meq"])
    assert bad.exit_code != 0 and "Inquisitor cannot lead Boyz" in bad.output


def test_web_leader_list_has_the_keyword_leaders(lib: Library) -> None:
    from tactica.units import leaders_of

    names = leaders_of(lib.datasheet("Cadian Shock Troops"), lib.datasheets())
    assert "Inquisitor" in names
    assert "Inquisitor" not in leaders_of(lib.datasheet("Boyz"), lib.datasheets())


def test_a_support_unit_whether_or_not_the_list_states_it(lib: Library) -> None:
    """The official app's Orks list attaches Zodgrod Wortsnagga as the leader and a
    Runtherd as support to one Gretchin unit; the dataset gives the Runtherd
    ``attachment_role: support`` too, so named as ``support`` or among ``led_by`` it is
    the second attached unit (24.22)."""
    for target in ({"unit": "Gretchin", "led_by": "Zodgrod Wortsnagga", "support": "Runtherd"},
                   {"unit": "Gretchin", "led_by": ["Zodgrod Wortsnagga", "Runtherd"]}):
        doc = ScenarioDocument.model_validate({"attacker": {"unit": "Intercessor Squad"},
                                               "target": target})
        scenario, _, _ = resolve(doc, lib)
        assert {"Zodgrod Wortsnagga", "Runtherd"} <= {g.name for g in scenario.target.models}


def test_the_datasheet_s_role_comes_before_the_list_s() -> None:
    """A unit's role is its datasheet's (the dataset's ``attach_role``, else a SUPPORT
    ability); the role a list states counts only where the datasheet says nothing."""
    from tactica.units.leaders import role

    s = Source(file="x")
    lieutenant = Datasheet(name="L", rules="11th", source=s, attach_role="support")
    captain = Datasheet(name="C", rules="11th", source=s, attach_role="leader")
    plain = Datasheet(name="P", rules="11th", source=s)
    assert [role(lieutenant), role(lieutenant, "leader")] == ["support", "support"]
    assert [role(captain), role(captain, "support")] == ["leader", "leader"]
    assert [role(plain), role(plain, "leader"), role(plain, "support")] == [
        "leader", "leader", "support"]


def test_tenth_edition_takes_one_leader_unit() -> None:
    """10th edition, Leader: one leader unit per bodyguard unit, no support units."""
    s = Source(file="x")
    guard = Datasheet(name="Squad", rules="10th", source=s)
    a = Datasheet(name="A", rules="10th", source=s, leader_of=("Squad",))
    b = Datasheet(name="B", rules="10th", source=s, leader_of=("Squad",),
                  attach_role="support")
    with pytest.raises(LeaderError, match="one leader unit may be attached, not 2"):
        check_leaders(guard, [a, b])
    check_leaders(guard, [a, b], rules="11th")


# --- the issue's examples, by hand ----------------------------------------------------------


def _cli(*args: str) -> Any:
    from tactica.cli.app import app

    return CliRunner().invoke(app, ["calc", *args])


def test_a_terminator_squad_led_by_a_chaplain_in_terminator_armour(lib: Library) -> None:
    """The record's "Terminator Squad" is the Space Marines datasheet of that name, not a
    keyword: the Terminator Squad is accepted, the Chaos Terminators (whose keywords hold
    TERMINATOR SQUAD) refused. The Chaplain's Litany of Hate (+1 to wound in the fight
    phase) reaches the bodyguard's Power Fists. By hand, against 5 Intercessors (T5,
    Sv3+): 5 Power Fists A3 WS3+ S8 need 3+ to wound, 2+ with the +1: hits 15 x 4/6 = 10,
    wounds 10 x 5/6 = 25/3; the Crozius Arcanum A5 + Cleave 1 (one five in the target)
    WS2+ S6 (3+, 2+ with the +1): hits 6 x 5/6 = 5, wounds 5 x 5/6 = 25/6."""
    out = _cli("--attacker", "Terminator Squad", "--led-by", "Chaplain in Terminator Armour",
               "--target", "Intercessor Squad", "--phase", "fight", "--json")
    assert out.exit_code == 0, out.output
    result = json.loads(out.stdout)
    weapons = {w["weapon"]: w for w in result["weapons"]}
    assert weapons["Power Fist"]["hits"] == pytest.approx(10, abs=1e-12)
    assert weapons["Power Fist"]["wounds"] == pytest.approx(25 / 3, abs=1e-12)
    assert weapons["Crozius Arcanum"]["wounds"] == pytest.approx(25 / 6, abs=1e-12)
    alone = _cli("--attacker", "Terminator Squad", "--target", "Intercessor Squad",
                 "--phase", "fight", "--json")
    fists = next(w for w in json.loads(alone.stdout)["weapons"] if w["weapon"] == "Power Fist")
    assert fists["wounds"] == pytest.approx(10 * 4 / 6, abs=1e-12)  # 3+ without the Chaplain
    chaos = _cli("--attacker", "Chaos Terminators", "--led-by",
                 "Chaplain in Terminator Armour", "--target", "meq")
    assert chaos.exit_code != 0
    assert "Chaplain in Terminator Armour cannot lead Chaos Terminators" in chaos.output


def test_hellblasters_take_a_captain_and_a_lieutenant(lib: Library) -> None:
    """24.22: one leader unit (the Captain) and one support unit (the Lieutenant, the
    dataset's ``attachment_role: support``). Two leader units, or two support units (the
    Lieutenant and an Apothecary), are refused."""
    ok = _cli("--attacker", "Hellblaster Squad", "--led-by", "Captain", "--led-by",
              "Lieutenant", "--target", "meq", "--json")
    assert ok.exit_code == 0, ok.output
    resolved = json.loads(ok.stdout)["resolved"]["attacker_models"]
    assert any(m.startswith("1 Captain:") for m in resolved)
    assert any(m.startswith("1 Lieutenant:") for m in resolved)
    for pair, why in ((("Captain", "Chaplain"), "one leader unit may be attached, not 2"),
                      (("Lieutenant", "Apothecary"), "one support unit may be attached, "
                                                     "not 2")):
        bad = _cli("--attacker", "Hellblaster Squad", "--led-by", pair[0], "--led-by",
                   pair[1], "--target", "meq")
        assert bad.exit_code != 0 and why in bad.output, bad.output


def test_prideful_superiority_against_an_attached_unit(lib: Library) -> None:
    """An attached unit "is treated as a single unit for all rules purposes" (Leader,
    BSData wh40k-11e): an Intercessor Squad led by a Captain is a CHARACTER unit, so
    *Prideful Superiority* (re-roll hit and wound rolls against a CHARACTER unit) applies.
    By hand, 5 Infractors in the fight phase: 4 Power sword attacks (WS3+, S5 vs T5: 4+)
    and 16 Duelling sabre attacks (WS3+, S4: 5+), each roll re-rolled: hits 20 x 8/9,
    wounds 4 x 8/9 x 3/4 + 16 x 8/9 x 5/9."""
    args = ("--attacker", "Infractors", "--phase", "fight", "--target", "Intercessor Squad",
            "--target-led-by", "Captain", "--json")
    out = _cli(*args, "--effect", "Prideful Superiority")
    assert out.exit_code == 0, out.output
    result = json.loads(out.stdout)
    assert result["effects_applied"] == ["Prideful Superiority"]
    assert result["hits"]["mean"] == pytest.approx(20 * 8 / 9, abs=1e-12)
    assert result["wounds"]["mean"] == pytest.approx(
        4 * 8 / 9 * 3 / 4 + 16 * 8 / 9 * 5 / 9, abs=1e-12)
    bare = _cli("--attacker", "Infractors", "--phase", "fight", "--target",
                "Intercessor Squad", "--effect", "Prideful Superiority")
    assert bare.exit_code != 0 and "not a CHARACTER unit" in bare.output


def test_an_attached_unit_has_the_keywords_of_its_units(lib: Library) -> None:
    """The attacking and the target unit alike: the bodyguard's keywords and its
    leaders'."""
    doc = ScenarioDocument.model_validate({
        "attacker": {"unit": "Hellblaster Squad", "led_by": ["Captain", "Lieutenant"]},
        "target": {"unit": "Intercessor Squad", "led_by": "Captain"}})
    scenario, _, _ = resolve(doc, lib)
    assert "CHARACTER" in scenario.attacker.keywords
    assert "CHARACTER" in scenario.target.keywords
    assert "CHARACTER" not in lib.datasheet("Intercessor Squad").keywords


# --- army lists: the same check -------------------------------------------------------------


def _hellblaster_list(*attached: str) -> Any:
    from tactica.army.roster import Roster, RosterUnit

    units = [RosterUnit(id=f"u{i}", name=name, warlord=i == 1, attached_to="u9")
             for i, name in enumerate(attached, start=1)]
    return Roster(name="Test", faction="Space Marines", battle_size="Strike Force",
                  detachments=("Gladius Task Force",),
                  units=(*units, RosterUnit(id="u9", name="Hellblaster Squad", models=5)))


def test_an_army_list_with_a_captain_and_a_lieutenant_on_hellblasters(lib: Library) -> None:
    """The list states no roles (each attached unit is read as a leader): the datasheets'
    roles decide, as in ``calc``. Validation and the list's attacker agree."""
    from tactica.army.attack import list_attacker
    from tactica.army.validation import validate

    roster = _hellblaster_list("Captain", "Lieutenant")
    assert [u.attach_role for u in roster.units[:2]] == ["leader", "leader"]
    report = validate(roster, lib)
    assert not [v for v in report.violations if v.code.startswith("LEADER")]
    assert report.legal, report.violations
    built = list_attacker(roster, "Hellblaster Squad", lib, "shooting")
    assert built.led_by == ("Captain", "Lieutenant")
    two = validate(_hellblaster_list("Captain", "Chaplain"), lib)
    assert [(v.code, v.unit_id, v.message) for v in two.violations if v.code.startswith(
        "LEADER")] == [("LEADER_TOO_MANY", "u9", "Hellblaster Squad: one leader unit may be "
                        "attached, not 2 (Captain, Chaplain)")]
    with pytest.raises(LeaderError, match="one leader unit may be attached, not 2"):
        list_attacker(_hellblaster_list("Captain", "Chaplain"), "Hellblaster Squad", lib,
                      "shooting")

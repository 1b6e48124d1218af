"""Named effects on the command line: ``tactica calc --effect NAME`` over the packaged unit
library, and ``tactica effects``.

The calc examples use the packaged library (seed pages + reference facts). The seeds have
no wargear lists, so without ``--weapon`` ``calc`` picks a default weapon (a choice that
may change); the issue's exact command is checked for what does not depend on it, and the
numeric examples name the weapon.

Neophyte Hybrids (003 page, reference facts §1): 10 models; ``--weapon "Hybrid firearm"``:
10 x (A1, BS4+, S3, AP0, D1, [RAPID FIRE 1] - no distance given, so no extra attack).
Target preset geq: 10 Cadian Shock Troops, T3, Sv5+, W1.
"""

from __future__ import annotations

import json
from fractions import Fraction

import pytest
from typer.testing import CliRunner

from tactica.cli import commands
from tactica.effects import EFFECTS, NON_COMBAT

runner = CliRunner()
app = commands.app  # tactica.cli registers calc and effects on it
WIDE = {"COLUMNS": "200"}
F = Fraction

CALC = ["calc", "--attacker", "Neophyte Hybrids", "--target", "geq"]
FIREARM = [*CALC, "--weapon", "Hybrid firearm"]
EFFECTS_ARGS = ["--effect", "Primed and Readied", "--effect", "Coordinated Trap"]


def _run(*args: str) -> tuple[int, str, str]:
    result = runner.invoke(app, list(args), env=WIDE)
    return result.exit_code, result.stdout, result.stderr


def _flat(text: str) -> str:
    """Whitespace collapsed (rich wraps long lines)."""
    return " ".join(text.split())


def test_calc_primed_and_readied_and_coordinated_trap() -> None:
    """The issue's command, as given: the combined result is printed with both effects
    listed and the CP spent (2CP + 2CP = 4CP); the wound stage shows Coordinated Trap's
    +1 whatever weapon is picked by default."""
    code, out, err = _run(*CALC, *EFFECTS_ARGS)
    assert code == 0, err
    flat = _flat(out)
    assert "effects: Primed and Readied, Coordinated Trap (4CP)" in flat
    assert "Expected" in flat
    assert "; modifier +1" in flat


def test_calc_primed_and_readied_and_coordinated_trap_numbers() -> None:
    """The same with the Hybrid firearm named. 10 attacks BS4+: hits 10 * 1/2 = 5
    (critical hits on 5+ change no number: the firearm has no critical-hit ability).
    S3 against T3 wounds on 4+, +1 (Coordinated Trap) -> 3+: wounds 5 * 2/3 = 10/3 =
    3.333. Sv5+ against AP0 fails with 4/6: unsaved = damage = models destroyed =
    10/3 * 2/3 = 20/9 = 2.222. P(no model destroyed) = (1 - 1/2 * 2/3 * 2/3)^10 =
    (7/9)^10 = 8.1%."""
    code, out, err = _run(*FIREARM, *EFFECTS_ARGS)
    assert code == 0, err
    flat = _flat(out)
    assert "effects: Primed and Readied, Coordinated Trap (4CP)" in flat
    assert "BS4+; critical on 5+" in flat
    assert "S3 vs T3: 4+; modifier +1" in flat
    expected_row = f"10.000 │ 5.000 │ {float(F(10, 3)):.3f} │ {float(F(20, 9)):.3f} │"
    assert expected_row in flat
    assert f"0 {float(F(7, 9) ** 10):.1%} 100.0%" in flat  # 8.1%


def test_calc_effects_json() -> None:
    """The Hybrid firearm example with --json: effects_applied, cp_spent and the exact
    numbers above."""
    code, out, err = _run(*FIREARM, *EFFECTS_ARGS, "--json")
    assert code == 0, err
    doc = json.loads(out)
    assert doc["effects_applied"] == ["Primed and Readied", "Coordinated Trap"]
    assert doc["cp_spent"] == 4
    assert doc["hits"]["mean"] == pytest.approx(5, abs=1e-12)
    assert doc["wounds"]["mean"] == pytest.approx(float(F(10, 3)), abs=1e-12)
    assert doc["damage"]["mean"] == pytest.approx(float(F(20, 9)), abs=1e-12)
    assert doc["models_destroyed"]["pmf"][0] == pytest.approx(float(F(7, 9) ** 10),
                                                              abs=1e-12)


def test_calc_led_by_primus_adds_cult_demagogue() -> None:
    """--led-by Primus adds Cult Demagogue (+1 to Hit): 10 attacks on 3+: 10 * 4/6 =
    6.667 hits; S3 against T3 on 4+: 10/3 wounds; 0CP."""
    code, out, err = _run(*FIREARM, "--led-by", "Primus", "--json")
    assert code == 0, err
    doc = json.loads(out)
    assert doc["effects_applied"] == ["Cult Demagogue"]
    assert doc["cp_spent"] == 0
    assert doc["hits"]["mean"] == pytest.approx(float(F(20, 3)), abs=1e-12)
    assert doc["wounds"]["mean"] == pytest.approx(float(F(10, 3)), abs=1e-12)


def test_calc_refused_effect_exits_2_naming_the_condition() -> None:
    """The Banehammer is ASTRA MILITARUM, not GENESTEALER CULTS: Primed and Readied is
    refused (exit 2) with the failed condition on stderr."""
    code, out, err = _run("calc", "--attacker", "Banehammer", "--target", "geq",
                          "--effect", "Primed and Readied")
    assert code == 2
    assert out == ""
    assert ("--effect 'Primed and Readied': the attacker is not a GENESTEALER CULTS unit"
            in _flat(err))


def test_calc_unknown_effect_did_you_mean() -> None:
    code, out, err = _run(*CALC, "--effect", "Primed and Readyed")
    assert code == 2
    assert out == ""
    assert ("unknown effect 'Primed and Readyed'; did you mean: Primed and Readied?"
            in _flat(err))


def test_calc_non_combat_rule_not_calculated() -> None:
    """Insane Bravery (battle-shock) changes no number: 5 hits as without it, listed as
    not calculated, no effects line."""
    code, out, err = _run(*FIREARM, "--effect", "Insane Bravery")
    assert code == 0, err
    flat = _flat(out)
    assert "not calculated: Insane Bravery: not a combat rule (battle-shock)" in flat
    assert "10.000 │ 5.000 │" in flat
    assert "effects:" not in flat


def test_effects_command_json_lists_the_catalogue() -> None:
    code, out, err = _run("effects", "--json")
    assert code == 0, err
    doc = json.loads(out)
    assert [e["name"] for e in doc["effects"]] == [e.name for e in EFFECTS]
    assert doc["non_combat"] == NON_COMBAT
    primed = next(e for e in doc["effects"] if e["name"] == "Primed and Readied")
    assert primed["cp"] == 2
    assert primed["source"] == "Host of Ascension"
    assert primed["conditions"] == ["attacker is GENESTEALER CULTS"]


def test_effects_command_by_detachment() -> None:
    code, out, err = _run("effects", "--detachment", "Final Day", "--json")
    assert code == 0, err
    sources = {e["source"] for e in json.loads(out)["effects"]}
    assert sources == {"Final Day", "Core"}


def test_effects_command_by_unit() -> None:
    """The Tyrannocyte (TYRANIDS MONSTER): no GSC-only effects; Psionic Parasitism and
    Crushing Impact are listed."""
    code, out, err = _run("effects", "--unit", "Tyrannocyte", "--json")
    assert code == 0, err
    names = {e["name"] for e in json.loads(out)["effects"]}
    assert {"Psionic Parasitism", "Crushing Impact", "Synapse"} <= names
    assert "Primed and Readied" not in names


def test_effects_command_table() -> None:
    code, out, err = _run("effects")
    assert code == 0, err
    flat = _flat(out)
    assert "Named effects" in flat
    assert "Seed rules with no combat effect" in flat
    assert "Primed and Readied" in flat
    assert "Insane Bravery" in flat


def test_calc_applies_the_attackers_own_damaged_profile() -> None:
    """The 10th Banehammer page's DAMAGED: 1-8 WOUNDS REMAINING (-1 to Hit) is one of the
    unit's own abilities: with --wounds-left 5 it applies (the hit stage shows -1); with
    12 wounds left it does not. One lascannon BS4+: 3/6 hits, 2/6 when damaged."""
    # the lascannons are an option ("2 lascannons and 2 twin heavy ..."): one of the two
    base = ["calc", "--attacker", "Banehammer", "--rules", "10th", "--target", "tank",
            "--wargear", "Lascannon", "--weapon", "Lascannon:1", "--json"]
    code, out, err = _run(*base, "--wounds-left", "5")
    assert code == 0, err
    doc = json.loads(out)
    assert doc["effects_applied"] == ["Damaged: 1-8 wounds remaining"]
    assert doc["hits"]["mean"] == pytest.approx(2 / 6, abs=1e-12)
    code, out, err = _run(*base, "--wounds-left", "12")
    assert code == 0, err
    doc = json.loads(out)
    assert doc["effects_applied"] == []
    assert doc["hits"]["mean"] == pytest.approx(3 / 6, abs=1e-12)


@pytest.mark.parametrize(("unit", "army_rule", "faction_detachment"), [
    ("Intercessor Squad", "Oath of Moment", "Gladius Task Force"),
    ("Boyz", "Waaagh!", "War Horde"),
    ("Neophyte Hybrids", "Primed and Readied", "Host of Ascension"),
])
def test_effects_for_a_unit_are_its_own_armys(unit: str, army_rule: str,
                                              faction_detachment: str) -> None:
    """Issue 46: ``--for UNIT`` offers the core rules, its faction's army rules and its
    detachments' rules, never another faction's."""
    done = runner.invoke(app, ["effects", "--for", unit, "--json"])
    assert done.exit_code == 0, done.output
    offered = json.loads(done.stdout)["effects"]
    names, sources = {e["name"] for e in offered}, {e["source"] for e in offered}
    assert army_rule in names and faction_detachment in sources and "Core" in sources
    others = {"Host of Ascension", "Gladius Task Force", "War Horde"} - {faction_detachment}
    assert not sources & others


def test_effects_for_narrows_to_a_detachment_and_names_its_flags() -> None:
    done = runner.invoke(app, ["effects", "--for", "Intercessor Squad", "--detachment",
                               "Gladius Task Force", "--json"])
    sources = {e["source"] for e in json.loads(done.stdout)["effects"]
               if e["kind"] in ("stratagem", "detachment rule", "enhancement")}
    assert sources <= {"Gladius Task Force", "Core"} and "Gladius Task Force" in sources
    bad = runner.invoke(app, ["effects", "--for", "Intercesor Squad"])
    assert bad.exit_code == 2
    assert bad.output.strip().startswith("error: --for: no unit named 'Intercesor Squad'")

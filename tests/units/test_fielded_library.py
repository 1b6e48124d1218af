"""Units as fielded from the library's real data (the bundled wh40kdc dataset; the sweep
also reads the real BSData catalogues — the real-data suite, ``TACTICA_REAL_DATA``).

Default loadouts are pinned against the datasheets' wording, as the dataset records it
(``unit_compositions`` default equipment; ``tactica sheet`` prints the same words): each
pin says what the datasheet says every model carries, and what the unit then fires or
fights with at its minimum size.
"""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest
from typer.testing import CliRunner

import tactica
from tactica.library import Library, load_library
from tactica.model.wargear import loadout_text
from tactica.units import UnitError, UnitRef, WargearError, resolve_attacker


@pytest.fixture(scope="module")
def lib() -> Library:
    return load_library(dataset=True)


def fired(lib: Library, unit: str, phase: str = "shooting", **ref: object) -> dict[str, int]:
    """Weapon (without its profile) -> how many models use it."""
    attacker, _ = resolve_attacker(UnitRef.model_validate({"unit": unit, **ref}), lib, "11th",
                                   phase)  # type: ignore[arg-type]
    out: Counter[str] = Counter()
    for line in attacker.weapons:
        out[line.name.split(" – ")[0]] += line.count
    return dict(out)


#: (unit, faction, the datasheet's wording of the default equipment, shooting, fight);
#: ``None`` for a phase the unit has no weapon for.
PINS = [
    ("Intercessor Squad", "ADEPTUS ASTARTES",
     "Every Intercessor is equipped with: Bolt Pistol, Bolt Rifle, Knives and Fists.",
     {"Bolt Rifle": 5, "Grenade Launcher": 1}, {"Knives and Fists": 5}),
    ("Hellblaster Squad", "ADEPTUS ASTARTES",
     "Every model is equipped with: Bolt Pistol, Ceramite Fists, Plasma Incinerator.",
     {"Plasma Incinerator": 5}, {"Ceramite Fists": 5}),
    ("Leman Russ Battle Tank", "ASTRA MILITARUM",
     "Every model is equipped with: Lascannon, Armoured tracks, Leman Russ battle cannon.",
     {"Lascannon": 1, "Leman Russ battle cannon": 1}, {"Armoured tracks": 1}),
    ("Neophyte Hybrids", "GENESTEALER CULTS",
     "Every Neophyte Hybrid is equipped with: Hybrid firearm, Close combat weapon, "
     "Autopistol.", {"Hybrid firearm": 10}, {"Close combat weapon": 10}),
    ("Primus", "GENESTEALER CULTS",
     "Every model is equipped with: Scoped needle pistol, Cult bonesword, Toxin injector "
     "claw.", {"Scoped needle pistol": 1}, {"Cult bonesword": 1, "Toxin injector claw": 1}),
    ("Arco-flagellants", "ADEPTA SORORITAS",
     "Every model is equipped with: Arco-flails.", None, {"Arco-flails": 3}),
    ("Battle Sisters Squad", "ADEPTA SORORITAS",
     "Every model is equipped with: Boltgun, Bolt pistol, Close combat weapon.",
     {"Boltgun": 10}, {"Close combat weapon": 10}),
    ("Boyz", "ORKS", "Every Boy is equipped with: Choppa, Shoota, Slugga.",
     {"Shoota": 9, "Kombi-skorcha": 1}, {"Choppa": 9, "Kustom Choppa": 1}),
    ("Gretchin", "ORKS", "Every model is equipped with: Grot Blasta, Scavenged Shivs.",
     {"Grot Blasta": 10}, {"Scavenged Shivs": 10}),
    ("Necron Warriors", "NECRONS",
     "Every model is equipped with: Close combat weapon, Gauss flayer.",
     {"Gauss flayer": 10}, {"Close combat weapon": 10}),
    ("Immortals", "NECRONS", "Every model is equipped with: Gauss blaster, Close combat "
     "weapon.", {"Gauss blaster": 5}, {"Close combat weapon": 5}),
    ("Strike Team", "T’AU EMPIRE",
     "Every Fire Warrior is equipped with: Pulse pistol, Pulse rifle, Close combat weapon.",
     {"Pulse rifle": 10, "Support turret": 1}, {"Close combat weapon": 10}),
    ("Guardian Defenders", "ASURYANI",
     "Every Guardian Defender is equipped with: Shuriken catapult, Close combat weapon.",
     {"Shuriken catapult": 10, "Shuriken cannon": 1}, {"Close combat weapon": 11}),
    ("Wraithguard", "ASURYANI",
     "Every model is equipped with: Wraithcannon, Close combat weapon.",
     {"Wraithcannon": 5}, {"Close combat weapon": 5}),
    ("Termagants", "TYRANIDS",
     "Every model is equipped with: Fleshborer, Chitinous claws and teeth.",
     {"Fleshborer": 10}, {"Chitinous claws and teeth": 10}),
    ("Hormagaunts", "TYRANIDS", "Every model is equipped with: Hormagaunt talons.",
     None, {"Hormagaunt talons": 10}),
    ("Cadian Shock Troops", "ASTRA MILITARUM",
     "Every Shock Trooper is equipped with: Lasgun, Close combat weapon.",
     {"Lasgun": 9, "Laspistol": 1}, {"Close combat weapon": 9, "Chainsword": 1}),
    ("Custodian Guard", "ADEPTUS CUSTODES", "Every model is equipped with: Guardian spear.",
     {"Guardian spear": 4}, {"Guardian spear": 4}),
    ("Legionaries", "HERETIC ASTARTES",
     "Every model is equipped with: Boltgun, Close combat weapon, Bolt pistol.",
     {"Boltgun": 5}, {"Close combat weapon": 5}),
    ("Plague Marines", "DEATH GUARD", "Every Plague Marine is equipped with: Boltgun, "
     "Plague knives.", {"Boltgun": 5}, {"Plague knives": 5}),
    ("Kabalite Warriors", "DRUKHARI", "Every Kabalite Warrior is equipped with: Splinter "
     "rifle, Close combat weapon.", {"Splinter rifle": 10}, {"Close combat weapon": 10}),
    ("Strike Squad", "GREY KNIGHTS",
     "Every model is equipped with: Storm bolter, Nemesis force weapon.",
     {"Storm bolter": 5}, {"Nemesis force weapon": 5}),
    ("Skitarii Rangers", "ADEPTUS MECHANICUS", "Every Skitarii Ranger is equipped with: "
     "Galvanic rifle, Close combat weapon.", {"Galvanic rifle": 10},
     {"Close combat weapon": 10}),
    ("Rubric Marines", "THOUSAND SONS", "Every Rubric Marine is equipped with: Inferno "
     "boltgun, Close combat weapon.", {"Inferno boltgun": 4, "Malefic Curse": 1},
     {"Close combat weapon": 4, "Force weapon": 1}),
    ("Bloodletters", "LEGIONES DAEMONICA", "Every model is equipped with: Hellblade.",
     None, {"Hellblade": 10}),
    ("Tactical Squad", "ADEPTUS ASTARTES", "Every Tactical Marine is equipped with: "
     "Boltgun, Bolt pistol, Close combat weapon.", {"Boltgun": 10},
     {"Close combat weapon": 10}),
    ("Assault Intercessor Squad", "ADEPTUS ASTARTES", "Every model is equipped with: Heavy "
     "Bolt Pistol, Astartes chainsword.", {"Heavy Bolt Pistol": 5},
     {"Astartes chainsword": 5}),
]


def test_pins_cover_25_units_of_10_factions() -> None:
    assert len({p[0] for p in PINS}) >= 25
    assert len({p[1] for p in PINS}) >= 10


@pytest.mark.parametrize(("unit", "faction", "wording", "shooting", "fight"), PINS,
                         ids=[p[0] for p in PINS])
def test_default_loadout(lib: Library, unit: str, faction: str, wording: str,
                         shooting: dict[str, int] | None, fight: dict[str, int]) -> None:
    """The datasheet's words are on the sheet; at minimum size the unit shoots and fights
    with exactly those weapons: a model with a pistol and another gun fires the gun (not
    both), and a model fights with one melee weapon. Intercessors fire 5 bolt rifles
    (and the Sergeant's grenade launcher the dataset gives him), not 5 Astartes grenade
    launchers; Hellblasters fire plasma incinerators, not bolt pistols; the Leman Russ
    fires its battle cannon and lascannon, its sponsons only when chosen."""
    sheet = lib.datasheet(unit)
    assert faction in sheet.faction_keywords
    assert wording in loadout_text(sheet.model_types, sheet.wargear, sheet.wargear_budgets)
    if shooting is None:
        with pytest.raises(UnitError, match=f"{unit} (have|has) no ranged weapons"):
            fired(lib, unit)
    else:
        assert fired(lib, unit) == shooting
    assert fired(lib, unit, "fight") == fight


def test_intercessor_grenade_launchers_are_limited_per_ten_models(lib: Library) -> None:
    """"For every 5 models in this unit, 1 model can be equipped with 1 Astartes grenade
    launcher" (dataset: per_n_models 5, and a budget of 2 per 10 models)."""
    assert fired(lib, "Intercessor Squad", models=10,
                 wargear=["Astartes grenade launcher:2"])["Astartes grenade launcher"] == 2
    with pytest.raises(UnitError, match="Intercessor Squad: at most 2 Astartes grenade "
                                        "launchers in 10 models"):
        fired(lib, "Intercessor Squad", models=10, wargear=["Astartes grenade launcher:3"])
    with pytest.raises(UnitError, match="at most 1 Astartes grenade launcher in 5 models"):
        fired(lib, "Intercessor Squad", wargear=["Astartes grenade launcher:2"])


def test_a_sergeant_only_swap(lib: Library) -> None:
    """"The Hellblaster Sergeant's bolt pistol can be replaced with a plasma pistol"; no
    other model can take it."""
    sheet = lib.datasheet("Hellblaster Squad")
    assert ("- The Hellblaster Sergeant's Bolt Pistol can be replaced with Plasma pistol."
            in loadout_text(sheet.model_types, sheet.wargear))
    with pytest.raises(WargearError, match="at most 1 Plasma pistol on the Hellblaster "
                                           "Sergeant"):
        from tactica.units import field_unit

        field_unit(sheet, 5, ["Plasma pistol:2"])


def test_leman_russ_plasma_sponsons_change_the_attack(lib: Library) -> None:
    """Choosing the plasma cannon sponsons (the option "2 plasma cannons") adds two plasma
    cannons to the battle cannon and lascannon: two more lines of A D3 (mean 2 each), so
    4 more attacks on average, and more damage against a Rhino-like target (T9 Sv3+
    W10) than without them."""
    assert fired(lib, "Leman Russ Battle Tank", wargear=["Plasma cannon"]) == {
        "Lascannon": 1, "Leman Russ battle cannon": 1, "Plasma cannon": 2}
    target = {"models": [{"T": 9, "Sv": 3, "W": 10}]}
    plain = tactica.calculate({"attacker": {"unit": "Leman Russ Battle Tank"},
                               "target": target}, lib)
    sponsons = tactica.calculate({"attacker": {"unit": "Leman Russ Battle Tank",
                                               "wargear": ["plasma cannon"]},
                                  "target": target}, lib)
    assert sponsons.attacks.mean == pytest.approx(plain.attacks.mean + 4, abs=1e-9)
    assert sponsons.damage.mean > plain.damage.mean
    assert sponsons.resolved is not None
    assert sponsons.resolved.defaults == ("Leman Russ Battle Tank models: the minimum, 1",)


def test_primus_led_neophytes_attack_with_the_primus_weapons() -> None:
    """The issue's command: ``tactica calc --attacker "Neophyte Hybrids" --led-by Primus
    --target meq`` fires the ten hybrid firearms and the Primus's scoped needle pistol,
    with Cult Demagogue (+1 to Hit) applied."""
    from tactica.cli import commands

    result = CliRunner().invoke(commands.app, [
        "calc", "--attacker", "Neophyte Hybrids", "--led-by", "Primus", "--target", "meq",
        "--json"])
    assert result.exit_code == 0, result.stderr
    doc = json.loads(result.stdout)
    lines = {w["name"]: w["count"] for w in doc["resolved"]["attacker"]}
    assert lines == {"Hybrid firearm": 10, "Scoped needle pistol": 1}
    assert "Cult Demagogue" in doc["effects_applied"]


def test_primus_led_neophytes_as_a_target_allocate_the_primus_last(lib: Library) -> None:
    """10 attacks that always hit (Torrent), wound T3 on 2+ (S12) and leave no armour
    save (AP-6), D1, against 10 Neophyte Hybrids (W1) led by a Primus (W4, CHARACTER):
    every wounding attack is allocated to a bodyguard model, so models destroyed is
    Binomial(10, 5/6): mean 50/6, and the unit is never wiped."""
    r = tactica.calculate({
        "attacker": {"weapons": [{"name": "x", "count": 10, "A": "1", "skill": None,
                                  "S": 12, "AP": -6, "D": "1", "abilities": ["Torrent"]}]},
        "target": {"unit": "Neophyte Hybrids", "led_by": "Primus"}}, lib)
    assert r.resolved is not None
    assert [(g.name, g.count, g.character) for g in r.resolved.target] == [
        ("Neophyte Leader", 1, False), ("Neophyte Hybrid", 9, False), ("Primus", 1, True)]
    assert r.models_destroyed.mean == pytest.approx(50 / 6, abs=1e-9)
    assert r.p_unit_destroyed == 0


def test_a_leader_that_cannot_lead_the_unit_is_refused(lib: Library) -> None:
    with pytest.raises(UnitError, match=r"attacker\.led_by: Primus cannot lead "
                                        r"Intercessor Squad"):
        fired(lib, "Intercessor Squad", led_by="Primus")


def test_unknown_unit_is_refused_with_suggestions(lib: Library) -> None:
    with pytest.raises(UnitError, match=r"attacker\.unit: no unit named 'Intercesor "
                                        r"Squad'; did you mean: Intercessor Squad"):
        fired(lib, "Intercesor Squad")


def test_real_data_sweep_every_unit_both_phases_both_sides(bsdata: Path) -> None:
    """Every unit of the library (seed pages, the BSData catalogues, the dataset) x both
    phases x attacker and target through ``tactica.calculate`` with unit references: a
    result, or a ``UnitError`` that names the unit and the reason; nothing else. Each
    unit attacks the next one, so one calculation covers an attacker and a target; a
    refused attacker is replaced by one bolt rifle (melee: one fist) to test the target."""
    lib = load_library([bsdata], dataset=True)
    sheets = lib.datasheets()
    plain = {"shooting": {"weapons": [{"name": "Bolt rifle", "A": "1", "skill": 3, "S": 4,
                                       "AP": -1, "D": "1"}]},
             "fight": {"weapons": [{"name": "Fist", "range": "Melee", "A": "1", "skill": 3,
                                    "S": 4, "D": "1"}]}}
    counts: Counter[str] = Counter()
    for i, sheet in enumerate(sheets):
        other = sheets[(i + 1) % len(sheets)]
        for phase in ("shooting", "fight"):
            doc = {"rules": sheet.rules, "phase": phase, "attacker": {"unit": sheet.name},
                   "target": {"unit": other.name}}
            try:
                tactica.calculate(doc, lib)
                counts["attacker result"] += 1
                counts["target result"] += 1
                continue
            except UnitError as exc:
                # the attacker's (its fields, or the phase it has no weapons for)
                side = "target" if str(exc).startswith("target") else "attacker"
                named = sheet.name if side == "attacker" else other.name
                assert named in str(exc), str(exc)
                counts[f"{side} refusal"] += 1
            if side == "target":  # the attacker against a standard target instead
                try:
                    tactica.calculate({**doc, "target": {"unit": "meq"}}, lib)
                    counts["attacker result"] += 1
                except UnitError as exc:
                    assert sheet.name in str(exc), str(exc)
                    counts["attacker refusal"] += 1
            try:
                tactica.calculate({**doc, "attacker": plain[phase]}, lib)
                counts["target result"] += 1
            except UnitError as exc:
                assert other.name in str(exc), str(exc)
                # a model type the data gives no stat line (Servitor Battleclade's Gun
                # Servitors) is refused as a target, never given another's
                assert "no stat line" in str(exc), str(exc)
                counts["target refusal"] += 1
    print(dict(counts))
    assert counts["attacker result"] + counts["attacker refusal"] >= 2 * len(sheets) - 1
    assert counts["attacker result"] > 0.8 * 2 * len(sheets)
    assert counts["target refusal"] <= 2 * 20


def test_sheet_shows_the_wargear_as_a_datasheet_does() -> None:
    """``tactica sheet`` prints the composition's equipment and the options in the
    datasheet's words: the Intercessor Squad (dataset) and the Banehammer seed page, whose
    page has only its options ("This model's 2 twin heavy flamers can be replaced with 2
    twin heavy bolters"), so its equipment is derived from them and says so."""
    from tactica.cli.app import app

    runner = CliRunner()
    out = " ".join(runner.invoke(app, ["sheet", "Intercessor Squad"],
                                 env={"COLUMNS": "200"}).stdout.split())
    assert "Every Intercessor is equipped with: Bolt Pistol, Bolt Rifle, Knives and Fists." in out
    assert "- 1 in 5 models can be equipped with Astartes grenade launcher." in out
    assert ("- The Intercessor Sergeant's Bolt Rifle can be replaced with one of: Hand "
            "Flamer; Plasma pistol; Power Weapon; Astartes chainsword.") in out
    out = " ".join(runner.invoke(app, ["--no-dataset", "sheet", "Banehammer"],
                                 env={"COLUMNS": "200"}).stdout.split())
    assert ("Every model is equipped with: Tremor cannon, 2 Twin heavy flamer, Armoured "
            "tracks.") in out
    assert "- This model's 2 Twin heavy flamer can be replaced with 2 Twin heavy bolter." in out
    assert "(equipment derived: the data lists the options only)" in out


def test_bsdata_models_and_variants(bsdata: Path) -> None:
    """BSData (Genestealer Cults catalogue): "Acolyte Hybrid w/ Auto Pistol" is the
    group's default model (autopistol, cult claws and knife); "Acolyte Hybrid w/ Heavy
    Mining Tool" (max 6) is a whole-model option. 10 models fight with 10 cult claws and
    knives; with 6 heavy mining tools, 4 + 6; a 7th is refused."""
    lib = load_library([bsdata], dataset=False)
    sheet = lib.datasheet("Acolyte Hybrids with Autopistols")
    assert sheet.source.file == "Genestealer Cults.json"
    assert ("Every Acolyte Hybrid is equipped with: Autopistol, Cult claws and knife."
            in loadout_text(sheet.model_types, sheet.wargear))
    unit = "Acolyte Hybrids with Autopistols"
    assert fired(lib, unit, "fight", models=10) == {"Cult claws and knife": 10}
    assert fired(lib, unit, "fight", models=10, wargear=["Heavy mining tool:6"]) == {
        "Cult claws and knife": 4, "Heavy mining tool": 6}
    with pytest.raises(UnitError, match="at most 6 Heavy mining tools in 10 models"):
        fired(lib, unit, "fight", models=10, wargear=["Heavy mining tool:7"])


def test_conditional_defences_and_weapon_abilities(lib: Library) -> None:
    """Step 6, decided per attack when the units resolve:

    * Knight Paladin: "5+ invulnerable save against ranged attacks" — 5+ in the shooting
      phase, none in the fight phase;
    * the Ork Slugga: "[LETHAL HITS] (not against MONSTER/VEHICLE)" — the line the
      engine reads carries the limited ability (``Limited``, which the engine decides);
    * Tankbustas' Busta Rokkit Launcha: its Hunter profile "can only target MONSTER and
      VEHICLE units" — against a tank the launchers fire Hunter, against MEQ Standard.
    """
    def knight(phase: str) -> int | None:
        r = tactica.calculate({"phase": phase, "attacker": {"weapons": [
            {"A": "1", "skill": 3, "S": 4, "D": "1",
             "range": "Melee" if phase == "fight" else 24}]},
            "target": {"unit": "Knight Paladin"}}, lib)
        assert r.resolved is not None
        return r.resolved.target[0].invuln

    assert (knight("shooting"), knight("fight")) == (5, None)

    def slugga(target: str) -> list[str]:
        r = tactica.calculate({"attacker": {"unit": "Boyz", "weapons": ["Slugga"]},
                               "target": {"unit": target}}, lib)
        assert r.resolved is not None
        return [str(a) for a in r.resolved.attacker[0].abilities]

    assert "Lethal Hits (not against Monster/Vehicle)" in slugga("meq")

    def launchers(target: str) -> set[str]:
        r = tactica.calculate({"attacker": {"unit": "Tankbustas"}, "target": {"unit": target}},
                              lib)
        assert r.resolved is not None
        return {w.name for w in r.resolved.attacker if "Launcha" in w.name}

    assert launchers("tank") == {"Busta Rokkit Launcha – Hunter"}
    assert launchers("meq") == {"Busta Rokkit Launcha – Standard"}
    with pytest.raises(UnitError, match="Busta Rokkit Launcha – Hunter can only target "
                                        "MONSTER/VEHICLE units"):
        tactica.calculate({"attacker": {"unit": "Tankbustas",
                                        "weapons": ["Busta Rokkit Launcha – Hunter"]},
                           "target": {"unit": "meq"}}, lib)

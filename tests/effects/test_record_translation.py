"""Faction rules that are right, not only modelled (issue 24): each defect class of the
effect translation on real records of the installed dataset (wh40kdc 1.4.5), with the
expected value computed in the test from the record's own effect code
(``record_oracle``: exact fractions, no engine code).

Baseline unless a test says otherwise: 10 attacks (one line, A1 x 10), W1 targets of 20
models and D1, so mean damage = mean unsaved wounds (+ mortal wounds).
"""

from __future__ import annotations

import json
from fractions import Fraction as F
from typing import Any

import pytest
from typer.testing import CliRunner

from tactica import calculate
from tactica.cli import commands
from tactica.combat.exact.effects import NamedEffectError

from . import approx, scenario, target, weapon
from .record_oracle import Attack, mortal_mean

wh40kdc = pytest.importorskip("wh40kdc")

from wh40kdc.data import raw_data  # noqa: E402

from tactica.effects.dataset import dataset_effects  # noqa: E402
from tactica.loaders.wh40kdc_rules import dataset_rules  # noqa: E402

pytestmark = pytest.mark.usefixtures("pinned_dataset")

RAW = {a["ability_id"]: a for a in raw_data()["abilities"]}


def modifier(aid: str, *path: int | str) -> dict[str, Any]:
    """The modifier at ``path`` in the record's effect tree (read by the test, not by
    the code under test)."""
    node: Any = RAW[aid]["effect"]
    for step in path:
        node = node[step]
    return dict(node["modifier"])


def mean_damage(effects: list[str], keywords: list[str], *, line: dict[str, Any] | None = None,
                tgt: dict[str, Any] | None = None, phase: str = "shooting",
                **context: Any) -> float:
    s = scenario(line or weapon(count=10), effects=effects, keywords=keywords, phase=phase,
                 tgt=tgt, **context)
    return float(calculate(s).damage.mean)


# --- 1. dice counts are dice, not their largest total -------------------------------------

MORTAL = [  # (record, name as a player writes it, attacker keywords, path to the leaf,
    # the phase its WHEN names)
    ("pterrorshades-traitoris-lance", "Pterrorshades", ["CHAOS KNIGHTS"], (), "shooting"),
    ("crushed-like-vermin-lords-of-dread", "Crushed Like Vermin", ["CHAOS KNIGHTS"], (),
     "shooting"),
    ("bilious-blessing-lords-of-the-warp", "Bilious Blessing",
     ["LEGIONES DAEMONICA", "CHARACTER", "NURGLE"], (), "shooting"),
    ("mutagenic-magicks-ritual-of-regeneration", "Mutagenic Magicks", ["THOUSAND SONS"], (),
     "fight"),
    ("warpflame-gargoyles-warpforged-cabal", "Warpflame Gargoyles",
     ["THOUSAND SONS", "VEHICLE"], ("steps", 0), "fight"),
    ("internal-grenade-racks-retaliation-cadre", "Internal Grenade Racks",
     ["T'AU EMPIRE", "BATTLESUIT"], ("steps", 1), "shooting"),
]


@pytest.mark.parametrize("aid,name,keywords,path,phase", MORTAL)
def test_dice_then_threshold_is_a_distribution(aid: str, name: str, keywords: list[str],
                                               path: tuple[int | str, ...],
                                               phase: str) -> None:
    """"6D6, each 4+ = 1 mortal wound" is six dice: mean 6 x 1/2 = 3, never 36 dice (18).
    The count of dice and the threshold are read here from the record's modifier."""
    m = modifier(aid, *path)
    rolled = str(m.get("dice") or m.get("count"))
    threshold = int(str(m.get("threshold", m.get("per_roll"))).rstrip("+"))
    expected = mortal_mean(int(rolled.upper().split("D")[0]), threshold,
                           int(m.get("mortal_per_success") or 1))
    plain = mean_damage([], keywords, phase=phase)
    assert mean_damage([name], keywords, phase=phase) - plain == approx(expected)
    assert expected <= 7 * F(1, 2)  # at most 7 dice: the 36-dice reading gave 18


# --- 2. choice options as bare effect nodes, named by what they do -----------------------


@pytest.mark.parametrize("option,expected", [
    ("Dacatarai", Attack(10, 3, 4, 0, 4, 7, sustained=1)),
    ("Sustained Hits 1", Attack(10, 3, 4, 0, 4, 7, sustained=1)),
    ("Rendax", Attack(10, 3, 4, 0, 4, 7, lethal=True)),
    ("Lethal Hits", Attack(10, 3, 4, 0, 4, 7, lethal=True)),
])
def test_martial_katah_stances(option: str, expected: Attack) -> None:
    """Martial Ka'tah's options are two bare keyword-grant nodes (Sustained Hits 1,
    Lethal Hits), in the Fight phase: WS2+ is skill 3 here (a 3+ weapon)."""
    opts = RAW["martial-ka-tah"]["effect"]["effect"]["options"]
    assert [o["modifier"]["keywords"] for o in opts] == [["Sustained Hits 1"], ["Lethal Hits"]]
    got = mean_damage([f"Martial Ka'tah: {option}"], ["ADEPTUS CUSTODES"],
                      line=weapon(count=10, skill=3), phase="fight")
    assert got == approx(expected.unsaved())


def test_unknown_option_is_refused_with_the_options() -> None:
    with pytest.raises(NamedEffectError) as err:
        mean_damage(["Martial Ka'tah: Bogus"], ["ADEPTUS CUSTODES"], phase="fight")
    message = str(err.value)
    assert "no option 'Bogus'" in message
    assert "Dacatarai (Sustained Hits 1)" in message and "Rendax (Lethal Hits)" in message


@pytest.mark.parametrize("name,count", [
    ("Armoured Wrath", 3), ("Path of the Warrior", 2), ("Synaptic Imperatives", 3),
    ("Dark Pacts", 2), ("Augmented Targeting", 3), ("Hulking Brutes", 2)])
def test_every_option_of_a_choice_is_kept(name: str, count: int) -> None:
    """Each option node of the record is one option, none is dropped, and each is
    named by what it does (never "option N" when it has a combat effect)."""
    entry = dataset_effects().find(name)  # type: ignore[union-attr]
    assert entry is not None and entry.status == "modelled"
    assert len(entry.options) == count
    combat = {p.option for p in entry.compiled.parts}
    assert all(not label.startswith("option ") for label in combat if label)


def test_armoured_wrath_hit_option() -> None:
    """Armoured Wrath, the hit re-roll option ('all-failures' in the record): BS4+."""
    aid = "armoured-wrath"
    assert RAW[aid]["effect"]["options"][0]["modifier"] == {"roll": "hit",
                                                            "subset": "all-failures"}
    got = mean_damage(["Armoured Wrath: re-roll hit rolls"], ["ADEPTUS ASTARTES"])
    assert got == approx(Attack(10, 4, 4, 0, 4, 7, reroll_hit="failed").unsaved())


# --- 3. conditions on a modifier ---------------------------------------------------------


def test_flawless_construction_only_when_strength_exceeds_toughness() -> None:
    """Solar Spearhead's Flawless Construction: -1 to wound when the attack's S > the
    unit's T (``applies_when``). S4 into T5: no change; S6 into T5: 3+ becomes 4+."""
    m = modifier("flawless-construction-solar-spearhead")
    assert m["applies_when"] == "attacker-strength-greater-than-target-toughness"
    tgt = target(T=5)
    tgt["keywords"] = ["ADEPTUS CUSTODES", "VEHICLE"]
    name = "Flawless Construction (Solar Spearhead)"
    with pytest.raises(NamedEffectError, match="no attack has a Strength greater"):
        mean_damage([name], ["ORKS"], tgt=tgt)
    strong = mean_damage([name], ["ORKS"], line=weapon(count=10, S=6), tgt=tgt)
    assert strong == approx(Attack(10, 4, 6, 0, 5, 7, wound_mod=-1).unsaved())


@pytest.mark.parametrize("phase,invuln", [("shooting", 4), ("fight", 5)])
def test_veil_of_medrengard_ranged_and_melee(phase: str, invuln: int) -> None:
    """4+ invulnerable against ranged attacks, 5+ against melee (``context``): AP-3
    into Sv3+ needs the invulnerable save."""
    steps = RAW["veil-of-medrengard-traitoris-lance"]["effect"]["steps"]
    assert [s["modifier"]["context"] for s in steps] == ["vs-ranged", "vs-melee"]
    tgt = target(Sv=3)
    tgt["keywords"] = ["CHAOS KNIGHTS"]
    got = mean_damage(["Veil of Medrengard"], ["ORKS"], line=weapon(count=10, AP=-3),
                      tgt=tgt, phase=phase)
    assert got == approx(Attack(10, 4, 4, -3, 4, 3, invuln=invuln).unsaved())


def test_threat_cogitation_targeters_needs_a_monster_or_vehicle() -> None:
    m = modifier("threat-cogitation-targeters-eradication-cohort")
    assert m["vs_keywords"] == ["Monster", "Vehicle"]
    with pytest.raises(NamedEffectError, match="not a MONSTER or VEHICLE"):
        mean_damage(["Threat-cogitation Targeters"],
                    ["ADEPTUS MECHANICUS", "SKITARII", "VEHICLE"])


def test_synchronised_inferno_only_for_torrent_weapons() -> None:
    """[BLAST] is given to Torrent weapons only (``requires: Torrent``)."""
    assert modifier("synchronised-inferno-silent-hunters")["requires"] == "Torrent"
    with pytest.raises(NamedEffectError, match="no Torrent weapon"):
        mean_damage(["Synchronised Inferno"], ["ADEPTUS CUSTODES", "WITCHSEEKERS"])


def test_archangels_shard_keeps_its_anti_chaos() -> None:
    """[LANCE] and [ANTI-CHAOS 5+] on melee weapons: against a CHAOS unit, critical
    wounds on 5+ (S4 vs T4: 4+ anyway, so criticals do not change the odds without
    Devastating Wounds; against T8, 6+ becomes 5+)."""
    m = modifier("archangels-shard-the-angelic-host")
    assert (m["anti_keyword"], m["anti_threshold"]) == ("Chaos", 5)
    tgt = target(T=8)
    tgt["keywords"] = ["CHAOS"]
    got = mean_damage(["Archangel's Shard"], ["BLOOD ANGELS", "ADEPTUS ASTARTES", "JUMP PACK"],
                      tgt=tgt, phase="fight")
    assert got == approx(Attack(10, 4, 4, 0, 8, 7, crit_wound=5).unsaved())


def test_a_condition_on_an_option_is_kept() -> None:
    """Hulking Brutes' first option applies only to attacks with S > T."""
    entry = dataset_effects().find("Hulking Brutes")  # type: ignore[union-attr]
    assert entry is not None
    first = [p for p in entry.compiled.parts if p.option == entry.options[0][0]]
    assert first and all(p.strength_over_toughness for p in first)


# --- 4. critical_on and keyword values ---------------------------------------------------


@pytest.mark.parametrize("aid,name,keywords,phase", [
    ("passion-of-the-penitent-penitent-host", "Passion of the Penitent",
     ["ADEPTA SORORITAS", "PENITENT"], "fight"),
    ("frenzied-focus-possessed-slaughterband", "Frenzied Focus",
     ["WORLD EATERS", "DAEMON", "POSSESSED"], "fight"),
])
def test_critical_on_is_a_critical_threshold(aid: str, name: str, keywords: list[str],
                                             phase: str) -> None:
    """``critical_on: 5`` on the Hit roll: with [SUSTAINED HITS 1] a 5 is two hits."""
    node: Any = RAW[aid]["effect"]
    while "modifier" not in node:
        node = node["effect"]
    crit = node["modifier"]["critical_on"]
    line = weapon(count=10, abilities=["Sustained Hits 1"])
    got = mean_damage([name], keywords, line=line, phase=phase)
    assert got == approx(Attack(10, 4, 4, 0, 4, 7, crit_hit=crit, sustained=1).unsaved())


def test_keyword_with_a_value_keeps_it() -> None:
    """Root out Heresy: {keyword: "Sustained Hits", value: 1} against a CHAOS unit, for
    the models its notes name (Inquisitors, Arbites...: ``record_readings``)."""
    step = RAW["root-out-heresy"]["effect"]["steps"][1]["effect"]["modifier"]
    assert (step["keyword"], step["value"]) == ("Sustained Hits", 1)
    tgt = target()
    tgt["keywords"] = ["CHAOS"]
    inquisitor = ["AGENTS OF THE IMPERIUM", "INQUISITOR"]
    got = mean_damage(["Root out Heresy"], inquisitor, tgt=tgt)
    assert got == approx(Attack(10, 4, 4, 0, 4, 7, sustained=1).unsaved())
    plain = mean_damage(["Root out Heresy"], inquisitor)
    assert plain == approx(Attack(10, 4, 4, 0, 4, 7).unsaved())
    with pytest.raises(NamedEffectError, match="not an ADEPTUS ARBITES or INQUISITOR"):
        mean_damage(["Root out Heresy"], ["AGENTS OF THE IMPERIUM"], tgt=tgt)


# --- 5. target: attacker bonuses are the buffed unit's own -------------------------------


def test_bonded_heroes_buffs_the_tau_unit() -> None:
    """Bonded Heroes: +1 S (enemy within 12") and AP improved by 1 (within 8") on the
    T'au unit's ranged attacks (``target: attacker``, as wh40kdc's cruncher applies it):
    S4 -> 5 into T4 wounds on 3+; AP0 -> -1 into Sv4+."""
    got = mean_damage(["Bonded Heroes"], ["T'AU EMPIRE", "BATTLESUIT"],
                      tgt=target(Sv=4), distance=6)
    assert got == approx(Attack(10, 4, 4, 0, 4, 4, S_mod=1, AP_mod=-1).unsaved())
    tgt = target(Sv=4)
    tgt["keywords"] = ["T'AU EMPIRE"]
    with pytest.raises(NamedEffectError, match=r"not a T.AU EMPIRE"):
        mean_damage(["Bonded Heroes"], ["ADEPTUS ASTARTES"], tgt=tgt, distance=6)


def test_tau_hunters_instincts_is_the_kroot_units_own() -> None:
    """Kroot Hunting Pack's Hunter's Instincts: +1 to hit below Starting Strength, and +1
    to wound too when Below Half-strength, for the T'au unit: the unit's strength is
    read from ``context.below_strength`` (issue 41: never assumed)."""
    keywords = ["T'AU EMPIRE", "KROOT"]
    half = calculate(scenario(weapon(count=10), effects=["Hunter's Instincts"],
                              keywords=keywords, below_strength="half"))
    assert float(half.damage.mean) == approx(
        Attack(10, 4, 4, 0, 4, 7, hit_mod=1, wound_mod=1).unsaved())
    below = calculate(scenario(weapon(count=10), effects=["Hunter's Instincts"],
                               keywords=keywords, below_strength="starting"))
    assert float(below.damage.mean) == approx(Attack(10, 4, 4, 0, 4, 7, hit_mod=1).unsaved())
    assert any("not applied: +1 to wound rolls: needs context.below_strength" in n
               for n in below.notes)
    with pytest.raises(NamedEffectError, match=r"needs context\.below_strength"):
        calculate(scenario(weapon(count=10), effects=["Hunter's Instincts"],
                           keywords=keywords))


# --- 6. unit-keyword limits, factions, resolution by army --------------------------------


@pytest.mark.parametrize("name,keywords,defender,phase,refusal", [
    ("Anathema Blademastery", ["ADEPTUS CUSTODES"], [], "fight", "not a VIGILATORS"),
    ("Wrath Beyond Reason", ["ORKS"], ["WORLD EATERS"], "shooting",
     "target is not a TERMINATOR SQUAD"),
    ("Call to Murder", ["LEGIONES DAEMONICA", "CHARACTER", "KHORNE", "MONSTER"], [],
     "fight", "is a MONSTER"),
])
def test_unit_keyword_limits(name: str, keywords: list[str], defender: list[str], phase: str,
                             refusal: str) -> None:
    """The record's ``applies_to`` (required and excluded keywords), on the unit whose
    rule it is: the attacker, or the target for a defensive rule."""
    tgt = target()
    tgt["keywords"] = defender
    with pytest.raises(NamedEffectError, match=refusal):
        mean_damage([name], keywords, tgt=tgt, phase=phase, charged=True)


@pytest.mark.parametrize("name,keywords", [
    ("Oath of Moment", ["ADEPTUS ASTARTES", "GREY KNIGHTS"]),
    ("Martial Examplars", ["ADEPTUS ASTARTES", "ULTRAMARINES"]),  # a Blood Angels one
])
def test_faction_checks_do_not_leak_through_shared_keywords(name: str,
                                                            keywords: list[str]) -> None:
    with pytest.raises(NamedEffectError, match="is not a"):
        mean_damage([name], keywords, phase="fight")


def test_same_name_resolved_by_army() -> None:
    """Fire Discipline is a Dark Angels stratagem (Assault, Heavy, Ignores Cover) and a
    Gladius Task Force one (Sustained Hits 1 when led): an Ultramarines unit gets the
    Gladius one; a unit of no faction is refused with the candidates named."""
    got = calculate(scenario(weapon(count=10), effects=["Fire Discipline"],
                             keywords=["ADEPTUS ASTARTES", "ULTRAMARINES"],
                             led_by=["Captain"]))
    assert float(got.damage.mean) == approx(Attack(10, 4, 4, 0, 4, 7, sustained=1).unsaved())
    with pytest.raises(NamedEffectError, match=r"Unforgiven Task Force.*Gladius Task Force|"
                                               r"Gladius Task Force.*Unforgiven Task Force"):
        mean_damage(["Fire Discipline"], ["ORKS"])


def test_a_stratagem_of_another_detachment_is_refused() -> None:
    with pytest.raises(NamedEffectError, match="the army's detachment is Gladius"):
        mean_damage(["Fire Discipline (Unforgiven Task Force)"], ["ADEPTUS ASTARTES",
                                                                  "DARK ANGELS"],
                    detachment="Gladius Task Force")


# --- 7. uncaptured parts are listed, unknown keys counted --------------------------------


def test_uncaptured_parts_are_listed() -> None:
    notes = RAW["root-out-heresy"]["community_notes"]
    assert "not modeled" in notes
    r = calculate(scenario(weapon(count=10), effects=["Root out Heresy"],
                           keywords=["AGENTS OF THE IMPERIUM", "INQUISITOR"]))
    assert any("5 or more models" in n for n in r.not_calculated)


def test_coverage_counts_what_records_do() -> None:
    result = CliRunner().invoke(commands.app, ["data", "report", "--coverage", "--json"])
    doc = json.loads(result.stdout)
    t = doc["totals"]
    assert t["modelled"] + t["partly"] + t["non-combat"] + t["not modelled"] == t["records"]
    data = dataset_effects()
    assert data is not None
    unread = sum(len(e.compiled.unread) > 0 for e in data.entries)
    assert sum(doc["unknown_modifier_keys"].values()) >= unread > 0
    assert 0 < doc["modelled_in_full_share_of_records_with_effect"] < 1


# --- wh40kdc's own cruncher as a golden reference ----------------------------------------

_CRUNCHER = {"hit-mod": "hit", "wound-mod": "wound", "strength-mod": "strength",
             "attacks-mod": "attacks"}


def _cruncher_buffs(raw: dict[str, Any]) -> set[tuple[Any, ...]]:
    """What wh40kdc's cruncher (``cruncher.from_dsl.effect_to_buffs``, attacker
    perspective) applies to the buffed unit's attacks, in the shooting or fight phase."""
    from wh40kdc.cruncher.from_dsl import effect_to_buffs

    out: set[tuple[Any, ...]] = set()
    for phase in ("shooting", "fight"):
        got = effect_to_buffs(raw["effect"], {"kind": "ability", "abilityKind": "detachment",
                                              "abilityId": raw["ability_id"]},
                              {"phase": phase}, "attacker")
        for buff in got["applied"]:
            c = buff["contribution"]
            if c["type"] in _CRUNCHER:
                out.add((_CRUNCHER[c["type"]], c["value"]))
            elif c["type"] == "reroll" and c["roll"] in ("hit", "wound"):
                out.add(("reroll", c["roll"],
                         {"ones": "ones", "all-failures": "failed"}[c["subset"]]))
    return out


def _ours(parts: Any, owner: str) -> set[tuple[Any, ...]]:
    out: set[tuple[Any, ...]] = set()
    for p in parts:
        if p.owner != owner:
            continue
        for m in p.modifiers:
            out |= {(f, getattr(m, f)) for f in ("hit", "wound", "strength", "attacks")
                    if getattr(m, f) is not None}
            if m.reroll in ("hit", "wound") and m.which in ("ones", "failed"):
                out.add(("reroll", m.reroll, m.which))
    return out


def test_the_translation_agrees_with_wh40kdcs_cruncher() -> None:
    """Every modelled record whose effect wh40kdc's cruncher turns into a hit, wound,
    Strength or Attacks modifier or a hit/wound re-roll of the buffed unit's attacks has
    the same here; the only differences are penalties (-1 to hit or wound) that the
    record puts on attacks made *on* the unit (``incoming``, Flawless Construction,
    Prey on the Weak), which the cruncher's attacker view gives the unit's own attacks
    and this translation gives the enemy's attacks on the unit (the rule's text)."""
    data = dataset_effects()
    assert data is not None
    compared = same = 0
    for e in data.entries:
        raw = dataset_rules().effect_of(e.record)
        if e.status != "modelled" or raw is None or not raw.get("effect"):
            continue
        theirs = _cruncher_buffs(dict(raw))
        if not theirs:
            continue
        compared += 1
        ours = _ours(e.compiled.parts, "attacker")
        missing = theirs - ours
        if not missing:
            same += 1
            continue
        for kind, *rest in missing:
            assert kind in ("hit", "wound") and rest[0] < 0, (e.record.name, missing)
            assert (kind, rest[0]) in _ours(e.compiled.parts, "target"), e.record.name
    assert compared >= 130 and same >= 0.8 * compared

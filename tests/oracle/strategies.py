"""Hypothesis strategies for small scenarios the brute-force oracle can enumerate.

``scenarios()`` draws a scenario (the contract in ``tactica.combat.contract.scenario``) small
enough to enumerate die by die: one or two weapon lines, at most ``MAX_ATTACK_DICE``
attack dice in the worst case, a target of up to three models in one or two allocation
groups with W 1-3 (or five 1-wound models, so Blast adds dice), D up to ``D3+1``.

Coverage:

- phases: shooting (ranged weapons, cover, Stealth, snap shooting) and fight (melee);
  cover and Stealth are also drawn in the fight phase, where they must do nothing;
- weapon abilities: Torrent (skill null), Sustained Hits 1 / D3, Lethal Hits,
  Devastating Wounds, Anti-Infantry 4+ / Anti-Vehicle 2+, Blast, Rapid Fire 1, Melta 1 /
  Melta 2, Heavy, Lance, Twin-linked, Precision, Hazardous, Ignores Cover;
- targets: invulnerable saves, Sv 7 (no save), Feel No Pain, a wounded model, merged
  entries, two groups with different profiles, an attached CHARACTER (own group, the
  bodyguard's T), a lone CHARACTER, damage reduction, half damage, keywords for Anti;
- effects: hit / wound / save / AP / strength / attacks / damage / skill modifiers,
  re-rolls of hits, wounds and saves ("ones" and "failed"), critical hits and wounds on
  5+, granted Lethal Hits and Sustained Hits 1, Feel No Pain, snap shooting;
- context: distance (a line beyond its range makes no attacks, 04.02), half range,
  remained stationary, charged, cover, Stealth; attacker keywords
  (MONSTER / VEHICLE matter for 11th Hazardous).

Left out on purpose, because they are policy choices or the spec leaves them open:

- re-rolls "any" (fishing), damage and attack re-rolls, named effects, Psychic and
  Indirect Fire (the oracle refuses them);
- two CHARACTER models (after a Precision target dies, does the next attack go to the
  other CHARACTER or back to the bodyguard?);
- more than one wounded model (several wounded groups may come "in any order");
- an ``attacks`` -1 effect together with Rapid Fire or Blast (is "A at least 1" applied
  before or after they add attacks? the oracle applies it to the total);
- positive ``ap`` effects (the oracle keeps AP at most 0);
- two abilities of one kind on a weapon (two Sustained Hits, two Meltas);
- Heavy in the fight phase, and Torrent, Blast, Rapid Fire and Melta on melee weapons.

11th-edition Lethal Hits together with Devastating Wounds *is* generated: the agreement
test accepts either choice on those weapon lines (``bruteforce.lethal_alternatives``).
"""

from __future__ import annotations

from typing import Any

from hypothesis import strategies as st

from tactica.combat.contract.scenario import Scenario
from tactica.model.abilities import Blast, RapidFire

__all__ = ["MAX_ATTACK_DICE", "attack_dice_bound", "pooled_scenarios", "scenarios"]

#: The most attack dice a generated scenario can roll (all weapon lines together).
MAX_ATTACK_DICE = 4

RANGED_ABILITIES = (
    "Torrent",
    "Sustained Hits 1",
    "Sustained Hits D3",
    "Lethal Hits",
    "Devastating Wounds",
    "Anti-Infantry 4+",
    "Anti-Vehicle 2+",
    "Blast",
    "Rapid Fire 1",
    "Melta 1",
    "Melta 2",
    "Heavy",
    "Lance",
    "Twin-linked",
    "Precision",
    "Hazardous",
    "Ignores Cover",
)
MELEE_ABILITIES = (
    "Sustained Hits 1",
    "Sustained Hits D3",
    "Lethal Hits",
    "Devastating Wounds",
    "Anti-Infantry 4+",
    "Anti-Vehicle 2+",
    "Lance",
    "Twin-linked",
    "Precision",
    "Hazardous",
)

PLAIN_EFFECTS: tuple[dict[str, Any], ...] = (
    {"hit": 1},
    {"hit": -1},
    {"wound": 1},
    {"wound": -1},
    {"save": 1},
    {"save": -1},
    {"ap": -1},
    {"strength": 1},
    {"strength": -2},
    {"attacks": 1},
    {"damage": 1},
    {"damage": -1},
    {"skill": -1},
    {"skill": 1},
    {"reroll": "hit", "which": "ones"},
    {"reroll": "hit", "which": "failed"},
    {"reroll": "wound", "which": "ones"},
    {"reroll": "wound", "which": "failed"},
    {"reroll": "save", "which": "ones"},
    {"reroll": "save", "which": "failed"},
    {"critical_hit_on": 5},
    {"critical_wound_on": 5},
    {"grant": "Lethal Hits"},
    {"fnp": 5},
    {"fnp": 6},
)
#: Drawn only when they make sense (see ``_effects``).
SUSTAINED_GRANT: dict[str, Any] = {"grant": "Sustained Hits 1"}
FEWER_ATTACKS: dict[str, Any] = {"attacks": -1}
SNAP_SHOOTING: dict[str, Any] = {"snap_shooting": True}


def _kind(ability: str) -> str:
    """Abilities of one kind (two Sustained Hits, two Meltas) are not drawn together."""
    return ability.rsplit(" ", 1)[0] if ability[-1].isdigit() else ability


@st.composite
def weapon_lines(draw: st.DrawFn, phase: str, min_abilities: int = 0) -> dict[str, Any]:
    pool = RANGED_ABILITIES if phase == "shooting" else MELEE_ABILITIES
    abilities = draw(
        st.lists(st.sampled_from(pool), min_size=min_abilities, max_size=3, unique_by=_kind)
    )
    torrent = "Torrent" in abilities
    return {
        "name": f"weapon {draw(st.integers(0, 99))}",
        "count": draw(st.integers(1, 2)),
        "range": draw(st.sampled_from([12, 24])) if phase == "shooting" else "Melee",
        "A": draw(st.sampled_from(["1", "2", "D3"])),
        "skill": None if torrent and draw(st.booleans()) else draw(st.integers(2, 6)),
        "S": draw(st.integers(2, 10)),
        "AP": draw(st.integers(-3, 0)),
        "D": draw(st.sampled_from(["1", "2", "3", "D3", "D3+1"])),
        "abilities": abilities,
    }


@st.composite
def model_entries(draw: st.DrawFn, count: int, character: bool = False) -> dict[str, Any]:
    return {
        "name": "leader" if character else "model",
        "count": count,
        "T": draw(st.integers(2, 8)),
        "Sv": draw(st.integers(2, 7)),
        "invuln": draw(st.sampled_from([None, None, 4, 5])),
        "W": draw(st.integers(1, 3)),
        "fnp": draw(st.sampled_from([None, None, 5, 6])),
        "character": character,
    }


@st.composite
def targets(draw: st.DrawFn) -> dict[str, Any]:
    shape = draw(st.sampled_from(["one", "two", "led", "horde", "lone character"]))
    if shape == "one":
        entries = [draw(model_entries(draw(st.integers(1, 3))))]
    elif shape == "two":
        first = draw(model_entries(draw(st.integers(1, 2))))
        second = draw(model_entries(draw(st.integers(1, 2))))
        if draw(st.booleans()):  # the same profile: the entries merge into one group
            second = {**first, "count": 1, "fnp": second["fnp"], "T": second["T"]}
        entries = [first, second]
    elif shape == "led":
        entries = [draw(model_entries(draw(st.integers(1, 2)))), draw(model_entries(1, True))]
    elif shape == "horde":
        entries = [{**draw(model_entries(5)), "W": 1}]
    else:
        entries = [draw(model_entries(1, True))]
    # no, one or (two entries) both entries with a wounded model: the current group must
    # stay current after its wounded model dies (05.04.01), groups with a wounded model
    # go first in the order listed
    wounded = draw(st.sampled_from([*range(-1, len(entries)), "all"]))
    for i, entry in enumerate(entries):
        if (wounded == "all" or wounded == i) and entry["W"] > 1:
            entry["wounds_lost"] = draw(st.integers(1, entry["W"] - 1))
    return {
        "name": "target",
        "keywords": draw(st.lists(st.sampled_from(["INFANTRY", "VEHICLE"]), unique=True)),
        "models": entries,
        "damage_reduction": draw(st.sampled_from([0, 0, 1])),
        "half_damage": draw(st.booleans()),
    }


def attack_dice_bound(scenario: Scenario) -> int:
    """The most attack dice the scenario can roll (every weapon line, every copy)."""
    bonus = sum(e.attacks or 0 for e in scenario.plain_effects)
    total = 0
    for line in scenario.attacker.weapons:
        per_copy = line.A.max + bonus
        for ability in line.abilities:
            if isinstance(ability, Blast):
                per_copy += ability.extra * (scenario.target.model_count // 5)
            if isinstance(ability, RapidFire) and scenario.context.half_range(line.range):
                per_copy += ability.extra.max
        total += line.count * max(1, per_copy)
    return total


def _shrink_to_budget(scenario: dict[str, Any]) -> None:
    """Fewer copies, then A 1, then fewer lines, until the dice bound fits."""

    def over() -> bool:
        return attack_dice_bound(Scenario.model_validate(scenario)) > MAX_ATTACK_DICE

    lines = scenario["attacker"]["weapons"]
    for line in reversed(lines):
        while over() and line["count"] > 1:
            line["count"] -= 1
        if over():
            line["A"] = "1"
    while over() and len(lines) > 1:
        lines.pop()


@st.composite
def _effects(draw: st.DrawFn, phase: str, weapons: list[dict[str, Any]]) -> list[dict[str, Any]]:
    pool = list(PLAIN_EFFECTS)
    abilities = {a for w in weapons for a in w["abilities"]}
    if not any(a.startswith("Sustained") for a in abilities):
        pool.append(SUSTAINED_GRANT)
    if not abilities & {"Rapid Fire 1", "Blast"}:
        pool.append(FEWER_ATTACKS)  # "A at least 1" is then unambiguous
    if phase == "shooting":
        pool.append(SNAP_SHOOTING)
    return draw(st.lists(st.sampled_from(pool), max_size=3, unique_by=lambda e: repr(e)))


@st.composite
def scenario_dicts(draw: st.DrawFn, rules: str | None = None) -> dict[str, Any]:
    phase = draw(st.sampled_from(["shooting", "fight"]))
    # the first line has at least one ability; a second line may have none
    weapons = [draw(weapon_lines(phase, min_abilities=1))]
    weapons += draw(st.lists(weapon_lines(phase), max_size=1))
    scenario: dict[str, Any] = {
        "rules": rules or draw(st.sampled_from(["10th", "11th"])),
        "phase": phase,
        "attacker": {
            "name": "attacker",
            "keywords": draw(
                st.lists(st.sampled_from(["INFANTRY", "MONSTER", "VEHICLE"]), unique=True)
            ),
            "weapons": weapons,
        },
        "target": draw(targets()),
        "context": {
            # 18": a 12" line out of range, a 24" one in; 30": both out (04.02)
            "distance": draw(st.sampled_from([None, None, 18, 30])),
            "within_half_range": draw(st.booleans()),
            "remained_stationary": draw(st.booleans()),
            "charged": draw(st.booleans()),
            "cover": draw(st.booleans()),
            "stealth": draw(st.booleans()),
        },
        "effects": draw(_effects(phase, weapons)),
    }
    _shrink_to_budget(scenario)
    return scenario


def scenarios(rules: str | None = None) -> st.SearchStrategy[Scenario]:
    """Small valid scenarios (``rules`` fixed, or drawn from 10th and 11th)."""
    return scenario_dicts(rules).map(Scenario.model_validate)


@st.composite
def _pooled_dicts(draw: st.DrawFn) -> dict[str, Any]:
    """Two weapon lines with Devastating Wounds into a target of two or three allocation
    groups whose saves differ (the cases where 05.04's sorted save dice and 24.10's
    per-line mortal wounds change the result, reference facts §6.2-§6.3)."""
    scenario = draw(scenario_dicts("11th"))
    phase = scenario["phase"]
    lines = [draw(weapon_lines(phase)) for _ in range(2)]
    for line in lines:
        kept = [a for a in line["abilities"] if a != "Devastating Wounds"][:2]
        line["abilities"] = [*kept, "Devastating Wounds"]
        line["count"], line["A"] = 1, draw(st.sampled_from(["1", "2"]))
    bodyguard = draw(model_entries(draw(st.integers(1, 2))))
    other = draw(model_entries(1, character=draw(st.booleans())))
    other["Sv"] = draw(st.sampled_from([s for s in range(2, 8) if s != bodyguard["Sv"]]))
    entries = [bodyguard, other]
    # a third group, a CHARACTER with yet another save (never two CHARACTER models: see
    # the module docstring)
    if not other["character"] and draw(st.booleans()):
        third = draw(model_entries(1, character=True))
        third["W"] = 1
        entries.append(third)
    scenario["attacker"]["weapons"] = lines
    scenario["target"]["models"] = entries
    scenario["effects"] = draw(_effects(phase, lines))
    _shrink_to_budget(scenario)
    return scenario


def pooled_scenarios() -> st.SearchStrategy[Scenario]:
    """Small 11th-edition scenarios with several allocation groups of different saves and
    two Devastating Wounds lines (see ``_pooled_dicts``)."""
    return _pooled_dicts().map(Scenario.model_validate)

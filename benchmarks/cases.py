"""The six benchmark cases: tactica scenarios and the neutral description peers read.

Every case is built from tactica's own data where the data has it (the packaged unit
library and its target presets, ``tactica.library.load_library``) and is a validated
``Scenario``. ``describe(case)`` turns a case's scenario into a plain, library-neutral
description (``CaseSpec``: weapons with their stats and abilities, one target profile)
that each peer adapter in ``benchmarks/peers.py`` translates into its own API, so every
tool computes exactly the same attacks.

The cases (issue 4, part 3):

* ``stress``: 40 attacks BS3+ S6 AP-1 D6, Sustained Hits 2, Lethal Hits, Devastating
  Wounds into 10 models T5 Sv3+ W3 with Feel No Pain 5+ (the engine issue's stress case).
* ``bolt-rifles``: 10 bolt rifle shots BS3+ S4 AP-1 D1 into 10 Intercessors T4 Sv3+ W2.
  The issue's headline numbers use this 10th-edition MEQ profile (0.5877 models); the
  library's ``meq`` preset is the 11th-edition profile (5 models, T5), so the target is
  written out here.
* ``lascannon``: the Banehammer's lascannon (BS4+ S12 AP-3 D6+1) into the ``tank`` preset
  (Predator Destructor T10 Sv3+ W11).
* ``neophytes``: 10 Neophyte Hybrids with hybrid firearms (Rapid Fire 1, within half
  range) into the ``geq`` preset (10 Cadian Shock Troops T3 Sv5+ W1).
* ``primus``: the Primus's Cult bonesword and Toxin injector claw (Anti-Infantry 2+,
  Extra Attacks) in the fight phase into the ``teq`` preset (5 Terminators T6 Sv2+ 4++ W3).
* ``webber``: one Neophyte Hybrid's webber (D6 attacks, Torrent, S2, Devastating Wounds)
  into the ``geq`` preset.

All cases use tactica's default rules version (11th).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

from tactica.combat.contract.scenario import Phase, Scenario, Target, WeaponLine
from tactica.dice import DiceExpr
from tactica.library import Library, load_library
from tactica.model.abilities import Anti, Blast, Flag, Melta, RapidFire, SustainedHits
from tactica.model.datasheet import WeaponProfile

__all__ = [
    "CASES",
    "Case",
    "CaseSpec",
    "TargetSpec",
    "WeaponSpec",
    "build_cases",
    "describe",
]


# --- the neutral description ---------------------------------------------------------


@dataclass(frozen=True)
class WeaponSpec:
    """One weapon line: ``count`` models each making ``attacks`` attacks with it.

    ``skill`` is BS/WS before the "+" (``None`` for Torrent); ``attacks`` and ``damage``
    are dice expressions as printed ("1", "D6", "D6+1"); ``rapid_fire`` is the Rapid Fire
    value (extra attacks within half range); ``anti`` is (keyword, X) of Anti-KEYWORD X+;
    ``other`` names abilities the fields above do not describe (peers may refuse them).
    """

    name: str
    count: int
    attacks: str
    skill: int | None
    strength: int
    ap: int
    damage: str
    melee: bool
    sustained_hits: str | None = None
    lethal_hits: bool = False
    devastating_wounds: bool = False
    torrent: bool = False
    rapid_fire: str | None = None
    anti: tuple[str, int] | None = None
    extra_attacks: bool = False
    other: tuple[str, ...] = ()

    def attacks_per_model(self, half_range: bool) -> str:
        """The attacks characteristic after Rapid Fire (a dice expression)."""
        if not (half_range and self.rapid_fire):
            return self.attacks
        base, extra = DiceExpr.parse(self.attacks), DiceExpr.parse(self.rapid_fire)
        if base.is_random and extra.is_random:
            raise ValueError(f"{self.name}: random attacks plus random Rapid Fire")
        return str(DiceExpr(base.n or extra.n, base.sides if base.n else extra.sides,
                            base.plus + extra.plus))


@dataclass(frozen=True)
class TargetSpec:
    """One target profile: ``models`` identical models (``invuln``/``fnp`` before the
    "+", ``None`` = none)."""

    name: str
    models: int
    toughness: int
    save: int
    invuln: int | None
    wounds: int
    fnp: int | None
    keywords: tuple[str, ...]
    damage_reduction: int = 0


@dataclass(frozen=True)
class CaseSpec:
    """What a peer needs: the weapons, the target and the circumstances."""

    phase: Literal["shooting", "fight"]
    half_range: bool
    weapons: tuple[WeaponSpec, ...]
    target: TargetSpec

    @property
    def total_attacks_mean(self) -> float:
        """Mean number of attack dice (for reading throughput figures)."""
        return sum(w.count * float(DiceExpr.parse(w.attacks_per_model(self.half_range)).mean)
                   for w in self.weapons)


@dataclass(frozen=True)
class Case:
    """A benchmark case: a key, a one-line title and tactica's scenario document."""

    key: str
    title: str
    document: dict[str, Any] = field(repr=False)

    def scenario(self, method: Literal["exact", "monte-carlo"] = "exact",
                 trials: int | None = None, seed: int | None = None) -> Scenario:
        """The validated scenario, exact or Monte Carlo."""
        extra: dict[str, Any] = {"method": method}
        if method == "monte-carlo":
            extra |= {"trials": trials or 100_000, "seed": 1 if seed is None else seed}
        return Scenario.model_validate({**self.document, **extra})


def _weapon_spec(line: WeaponLine, phase: str) -> WeaponSpec:
    flags = {a.name for a in line.abilities if isinstance(a, Flag)}
    sustained = next((a for a in line.abilities if isinstance(a, SustainedHits)), None)
    rapid = next((a for a in line.abilities if isinstance(a, RapidFire)), None)
    anti = next((a for a in line.abilities if isinstance(a, Anti)), None)
    known = {"Lethal Hits", "Devastating Wounds", "Torrent", "Extra Attacks"}
    other: list[str] = sorted(f for f in flags if f not in known)
    other += [str(a) for a in line.abilities if isinstance(a, Blast | Melta)]
    return WeaponSpec(
        name=line.name, count=line.count, attacks=str(line.A), skill=line.skill,
        strength=line.S, ap=line.AP, damage=str(line.D), melee=phase == "fight",
        sustained_hits=None if sustained is None else str(sustained.hits),
        lethal_hits="Lethal Hits" in flags,
        devastating_wounds="Devastating Wounds" in flags,
        torrent="Torrent" in flags,
        rapid_fire=None if rapid is None else str(rapid.extra),
        anti=None if anti is None else (anti.keyword, anti.threshold),
        extra_attacks="Extra Attacks" in flags,
        other=tuple(other),
    )


def describe(case: Case) -> CaseSpec:
    """The neutral description of ``case``, read off its validated scenario."""
    s = case.scenario()
    if s.effects:
        raise ValueError(f"{case.key}: effects are not part of the neutral description")
    if len(s.target.models) != 1:
        raise ValueError(f"{case.key}: the neutral description has one model profile")
    g = s.target.models[0]
    if g.wounds_lost or s.target.half_damage:
        raise ValueError(f"{case.key}: wounds lost / half damage are not described")
    half = any(s.context.half_range(w.range) for w in s.attacker.weapons)
    return CaseSpec(
        phase=s.phase,
        half_range=half,
        weapons=tuple(_weapon_spec(w, s.phase) for w in s.attacker.weapons),
        target=TargetSpec(
            name=s.target.name, models=g.count, toughness=g.T, save=g.Sv, invuln=g.invuln,
            wounds=g.W, fnp=g.fnp, keywords=s.target.keywords,
            damage_reduction=s.target.damage_reduction,
        ),
    )


# --- the cases -----------------------------------------------------------------------


def _line(profile: WeaponProfile, count: int) -> dict[str, Any]:
    """A scenario weapon line from a library weapon profile."""
    line = WeaponLine(name=profile.name, count=count, range=profile.range, A=profile.A,
                      skill=profile.skill, S=profile.S, AP=profile.AP, D=profile.D,
                      abilities=profile.abilities)
    return line.model_dump(mode="json")


def _weapon(lib: Library, unit: str, weapon: str) -> WeaponProfile:
    sheet = lib.datasheet(unit)
    found = next((w for w in sheet.weapons if w.name.casefold() == weapon.casefold()), None)
    if found is None:
        raise KeyError(f"{unit} has no weapon {weapon!r}")
    return found.profiles[0]


def _target(target: Target) -> dict[str, Any]:
    return target.model_dump(mode="json")


def _preset(lib: Library, name: str, phase: Phase = "shooting") -> dict[str, Any]:
    """A target preset as one stat line, its own data (``TargetPreset.to_target``): the
    unit it names is fielded with a model group per model type (the Sergeant apart), with
    the same defences (``tests/test_presets.py``), but the neutral description reads one."""
    return _target(lib.preset(name).to_target(phase=phase))


def build_cases(lib: Library | None = None) -> tuple[Case, ...]:
    """The six cases, from ``lib`` (default: the packaged library)."""
    lib = lib or load_library()
    geq = _preset(lib, "geq")
    stress = Case("stress", "40 × BS3+ S6 AP-1 D6, Sustained Hits 2, Lethal Hits, Devastating "
                   "Wounds → 10 × T5 Sv3+ W3, Feel No Pain 5+", {
        "phase": "shooting",
        "attacker": {"name": "stress", "weapons": [{
            "name": "stress gun", "count": 40, "range": 24, "A": "1", "skill": 3, "S": 6,
            "AP": -1, "D": "D6",
            "abilities": ["Sustained Hits 2", "Lethal Hits", "Devastating Wounds"]}]},
        "target": {"name": "10 x T5 Sv3+ W3 FNP5+", "models": [
            {"name": "model", "count": 10, "T": 5, "Sv": 3, "W": 3, "fnp": 5}]},
    })
    bolt = Case("bolt-rifles", "10 bolt rifle shots BS3+ S4 AP-1 D1 → 10 × MEQ (T4 Sv3+ W2)", {
        "phase": "shooting",
        "attacker": {"name": "Intercessors", "weapons": [{
            "name": "Bolt rifle", "count": 10, "range": 24, "A": "1", "skill": 3, "S": 4,
            "AP": -1, "D": "1"}]},
        "target": {"name": "Intercessor Squad (10th-edition MEQ)", "keywords": ["INFANTRY"],
                   "models": [{"name": "Intercessor", "count": 10, "T": 4, "Sv": 3, "W": 2}]},
    })
    lascannon = Case("lascannon", "Banehammer lascannon BS4+ S12 AP-3 D6+1 → tank (T10 Sv3+ W11)", {
        "phase": "shooting",
        "attacker": {"name": "Banehammer",
                     "weapons": [_line(_weapon(lib, "Banehammer", "Lascannon"), 1)]},
        "target": _preset(lib, "tank"),
    })
    neophytes = Case("neophytes", "10 Neophyte Hybrids, hybrid firearm BS4+ S3 AP0 D1, "
                     "Rapid Fire 1 at half range → GEQ (10 × T3 Sv5+ W1)", {
        "phase": "shooting",
        "attacker": {"name": "Neophyte Hybrids", "weapons": [
            _line(_weapon(lib, "Neophyte Hybrids", "Hybrid firearm"), 10)]},
        "target": geq,
        "context": {"within_half_range": True},
    })
    primus = Case("primus", "Primus in melee: Cult bonesword (A5 WS2+ S5 AP-2 D1) + Toxin "
                  "injector claw (A2 S2 D3, Anti-Infantry 2+, Extra Attacks) → TEQ "
                  "(5 × T6 Sv2+ 4++ W3)", {
        "phase": "fight",
        "attacker": {"name": "Primus", "keywords": ["INFANTRY", "CHARACTER"], "weapons": [
            _line(_weapon(lib, "Primus", "Cult bonesword"), 1),
            _line(_weapon(lib, "Primus", "Toxin injector claw"), 1)]},
        "target": _preset(lib, "teq", "fight"),
    })
    webber = Case("webber", "1 webber: D6 attacks, Torrent, S2 AP0 D1, Devastating Wounds → "
                  "GEQ (10 × T3 Sv5+ W1)", {
        "phase": "shooting",
        "attacker": {"name": "Neophyte Hybrids", "weapons": [
            _line(_weapon(lib, "Neophyte Hybrids", "Webber"), 1)]},
        "target": geq,
        "context": {"within_half_range": False},
    })
    return (stress, bolt, lascannon, neophytes, primus, webber)


#: The cases, built once from the packaged library.
CASES: tuple[Case, ...] = build_cases()

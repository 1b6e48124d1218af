"""Weapon abilities (the bracketed keywords of a weapon profile) as typed values.

``parse_weapon_ability`` turns rulebook words into one of the classes below; the list of
recognised abilities is ``RECOGNISED_WEAPON_ABILITIES``. Anything else is an error
(``UnknownAbilityError``), never silently ignored.

>>> parse_weapon_ability("anti-infantry 2+")
Anti(keyword='INFANTRY', threshold=2)
>>> parse_weapon_ability("Sustained Hits D3")
SustainedHits(hits=DiceExpr.parse('D3'))
>>> parse_weapon_ability("blast")
Blast(extra=1)
>>> str(parse_weapon_ability("RAPID FIRE 2"))
'Rapid Fire 2'
"""

from __future__ import annotations

import re
from typing import Annotated, Literal

from pydantic import Field, field_validator

from ..dice import DiceError, DiceExpr
from .common import Frozen

__all__ = [
    "RECOGNISED_WEAPON_ABILITIES",
    "Anti",
    "Blast",
    "Cleave",
    "Flag",
    "FlagName",
    "Limited",
    "Melta",
    "NamedWeaponRule",
    "RapidFire",
    "SustainedHits",
    "UnknownAbilityError",
    "WeaponAbility",
    "parse_weapon_ability",
]

#: Abilities without a parameter, in rulebook spelling (24.xx in 11th, unnumbered in 10th).
FlagName = Literal[
    "Assault",
    "Close-quarters",
    "Conversion",
    "Devastating Wounds",
    "Extra Attacks",
    "Hazardous",
    "Heavy",
    "Ignores Cover",
    "Indirect Fire",
    "Lance",
    "Lethal Hits",
    "One Shot",
    "Pistol",
    "Precision",
    "Psychic",
    "Torrent",
    "Twin-linked",
]

_FLAGS: dict[str, FlagName] = {
    "assault": "Assault",
    "close-quarters": "Close-quarters",
    "close quarters": "Close-quarters",
    "conversion": "Conversion",
    "devastating wounds": "Devastating Wounds",
    "extra attacks": "Extra Attacks",
    "hazardous": "Hazardous",
    "heavy": "Heavy",
    "ignores cover": "Ignores Cover",
    "indirect fire": "Indirect Fire",
    "lance": "Lance",
    "lethal hits": "Lethal Hits",
    "one shot": "One Shot",
    "pistol": "Pistol",
    "precision": "Precision",
    "psychic": "Psychic",
    "torrent": "Torrent",
    "twin-linked": "Twin-linked",
    "twin linked": "Twin-linked",
}

#: Weapon rules of the bundled dataset that are written out on their datasheets; the data
#: carries their names, not their texts, so the engine lists them as not calculated.
_DATASHEET_RULES: dict[str, str] = {
    "overcharge": "Overcharge",
    "linked fire": "Linked Fire",
    "plasma warhead": "Plasma Warhead",
    "psychic assassin": "Psychic Assassin",
    "reverberating summons": "Reverberating Summons",
    "bubblechukka": "Bubblechukka",
    "dead choppy": "Dead Choppy",
    "harpooned": "Harpooned",
    "hooked": "Hooked",
    "impaled": "Impaled",
    "snagged": "Snagged",
}

#: Every weapon ability the loaders and the scenario accept (parameterised ones with X).
RECOGNISED_WEAPON_ABILITIES: tuple[str, ...] = (
    *sorted(set(_FLAGS.values())),
    "Anti-KEYWORD X+",
    "Blast",
    "Blast X",
    "Cleave X",
    "Hunter KEYWORD",
    "ABILITY (only against / not against KEYWORD/KEYWORD)",
    "Melta X",
    "Rapid Fire X",
    "Sustained Hits X",
    *sorted(_DATASHEET_RULES.values()),
)


class UnknownAbilityError(ValueError):
    """A weapon ability that is not in ``RECOGNISED_WEAPON_ABILITIES``."""


class Flag(Frozen):
    """A parameterless ability such as ``Torrent`` or ``Devastating Wounds``."""

    kind: Literal["flag"] = "flag"
    name: FlagName

    def __str__(self) -> str:
        return self.name

    def __repr__(self) -> str:
        return f"Flag(name={self.name!r})"


class Anti(Frozen):
    """24.03 [ANTI-X Y+]: against a target with keyword X, an unmodified wound roll of Y+ is
    a critical wound."""

    kind: Literal["anti"] = "anti"
    keyword: str
    threshold: int = Field(ge=2, le=6)

    def __str__(self) -> str:
        return f"Anti-{self.keyword.title()} {self.threshold}+"

    def __repr__(self) -> str:
        return f"Anti(keyword={self.keyword!r}, threshold={self.threshold})"


class SustainedHits(Frozen):
    """24.36 [SUSTAINED HITS X]: a critical hit scores X additional hits (X may be dice)."""

    kind: Literal["sustained_hits"] = "sustained_hits"
    hits: DiceExpr

    def __str__(self) -> str:
        return f"Sustained Hits {self.hits}"

    def __repr__(self) -> str:
        return f"SustainedHits(hits={self.hits!r})"


class RapidFire(Frozen):
    """Rapid Fire X: within half range, the A characteristic is increased by X."""

    kind: Literal["rapid_fire"] = "rapid_fire"
    extra: DiceExpr

    def __str__(self) -> str:
        return f"Rapid Fire {self.extra}"

    def __repr__(self) -> str:
        return f"RapidFire(extra={self.extra!r})"


class Blast(Frozen):
    """24.05 [BLAST] / [BLAST X]: X more attack dice per five models in the target."""

    kind: Literal["blast"] = "blast"
    extra: int = Field(default=1, ge=1, le=10)

    def __str__(self) -> str:
        return "Blast" if self.extra == 1 else f"Blast {self.extra}"

    def __repr__(self) -> str:
        return f"Blast(extra={self.extra})"


class Cleave(Frozen):
    """24.06 [CLEAVE X] (11th): "Each time you gather attack dice for a [CLEAVE] weapon,
    if you only selected one target for all of that weapon's attacks, add X additional
    attack dice for every five models that were in the target unit in the Select Targets
    step (rounding down)" (a scenario has one target)."""

    kind: Literal["cleave"] = "cleave"
    extra: int = Field(default=1, ge=1, le=10)

    def __str__(self) -> str:
        return f"Cleave {self.extra}"

    def __repr__(self) -> str:
        return f"Cleave(extra={self.extra})"


class NamedWeaponRule(Frozen):
    """A weapon rule the data names without its text ([HUNTER X], Overcharge, Linked
    Fire, ...): carried so that a result lists it under ``not_calculated``."""

    kind: Literal["named"] = "named"
    name: str
    parameter: str | None = None

    @property
    def reason(self) -> str:
        return "a weapon rule whose text is not in the data: not calculated"

    def __str__(self) -> str:
        return self.name if self.parameter is None else f"{self.name} {self.parameter}"

    def __repr__(self) -> str:
        return f"NamedWeaponRule(name={self.name!r}, parameter={self.parameter!r})"


class Melta(Frozen):
    """Melta X (reference facts §3): within half range, the attack's D is increased by X."""

    kind: Literal["melta"] = "melta"
    extra: DiceExpr

    @field_validator("extra")
    @classmethod
    def _positive(cls, value: DiceExpr) -> DiceExpr:
        if value.max < 1:  # "Melta 0" adds nothing: a typo, not a rule
            raise ValueError("Melta X needs X of at least 1")
        return value

    def __str__(self) -> str:
        return f"Melta {self.extra}"

    def __repr__(self) -> str:
        return f"Melta(extra={self.extra!r})"


PlainAbility = Annotated[
    Flag | Anti | SustainedHits | RapidFire | Blast | Cleave | Melta | NamedWeaponRule,
    Field(discriminator="kind")
]


class Limited(Frozen):
    """An ability a weapon has only against some targets ("Lethal Hits (not against
    Monster/Vehicle)", as the bundled dataset limits some keywords): it applies when the
    target has one of ``only`` (if given) and none of ``excluded``."""

    kind: Literal["limited"] = "limited"
    ability: PlainAbility
    only: tuple[str, ...] = ()
    excluded: tuple[str, ...] = ()

    def applies(self, keywords: tuple[str, ...]) -> bool:
        kws = {k.upper() for k in keywords}
        return (not self.only or bool(kws & set(self.only))) and not kws & set(self.excluded)

    def __str__(self) -> str:
        words = []
        if self.only:
            words.append("only against " + "/".join(k.title() for k in self.only))
        if self.excluded:
            words.append("not against " + "/".join(k.title() for k in self.excluded))
        return f"{self.ability} ({' and '.join(words)})"

    def __repr__(self) -> str:
        return f"Limited(ability={self.ability!r}, only={self.only!r}, excluded={self.excluded!r})"


WeaponAbility = Annotated[PlainAbility | Limited, Field(discriminator="kind")]

_LIMIT = re.compile(r"^(.*?)\s*\((.+)\)$")
_LIMIT_PART = re.compile(r"^(only|not) against ([a-z][a-z '/\-]*)$")


def _limited(text: str) -> Limited | None:
    """"Lethal Hits (not against Monster/Vehicle)" -> Limited, else None."""
    m = _LIMIT.match(" ".join(text.strip().lower().split()))
    if not m:
        return None
    only: list[str] = []
    excluded: list[str] = []
    for part in m.group(2).split(" and "):
        pm = _LIMIT_PART.match(part.strip())
        if not pm:
            return None
        words = [w.strip().upper() for w in pm.group(2).split("/") if w.strip()]
        (only if pm.group(1) == "only" else excluded).extend(words)
    inner = parse_weapon_ability(m.group(1))
    if isinstance(inner, Limited):
        return None
    return Limited(ability=inner, only=tuple(only), excluded=tuple(excluded))

_ANTI = re.compile(r"^anti[-\s]+([a-z][a-z '\-]*?)\s+([2-6])\+$")
_PARAM = re.compile(r"^(sustained hits|rapid fire|blast|cleave|melta)(?:\s+(\S+))?$")
_HUNTER = re.compile(r"^hunter(?:[-\s]+([a-z][a-z '\-]*))?$")


def parse_weapon_ability(text: str) -> WeaponAbility:
    """Parse one ability in rulebook words, case-insensitively.

    >>> parse_weapon_ability("Frobnicate")
    Traceback (most recent call last):
    ...
    UnknownAbilityError: unknown weapon ability 'Frobnicate'
    """
    raw = text
    if "(" in text:
        limited = _limited(text)
        if limited is not None:
            return limited
    t = " ".join(text.strip().strip("[]").replace("–", "-").lower().split())
    if t in _FLAGS:
        return Flag(name=_FLAGS[t])
    if t in _DATASHEET_RULES:
        return NamedWeaponRule(name=_DATASHEET_RULES[t])
    hunter = _HUNTER.match(t)
    if hunter:
        keyword = hunter.group(1)
        return NamedWeaponRule(name="Hunter", parameter=keyword.upper() if keyword else None)
    m = _ANTI.match(t)
    if m:
        return Anti(keyword=m.group(1).upper(), threshold=int(m.group(2)))
    m = _PARAM.match(t)
    if m:
        name, param = m.group(1), m.group(2)
        try:
            if name in ("blast", "cleave"):
                if param is None:
                    return Blast() if name == "blast" else Cleave()
                if not param.isdigit() or not 1 <= int(param) <= 10:
                    raise UnknownAbilityError(
                        f"malformed weapon ability {raw!r}: {name.title()} X")
                return Blast(extra=int(param)) if name == "blast" else Cleave(extra=int(param))
            if param is None:
                raise UnknownAbilityError(
                    f"malformed weapon ability {raw!r}: {name.title()} needs a value"
                )
            dice = DiceExpr.parse(param)
        except DiceError as exc:
            raise UnknownAbilityError(f"malformed weapon ability {raw!r}: {exc}") from None
        if name == "sustained hits":
            return SustainedHits(hits=dice)
        if name == "rapid fire":
            return RapidFire(extra=dice)
        return Melta(extra=dice)
    raise UnknownAbilityError(f"unknown weapon ability {raw!r}")

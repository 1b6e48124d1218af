"""The scenario contract (version 1, ``shared/spec/scenario.md``): what the calculator reads.

>>> s = Scenario.model_validate({
...     "attacker": {"name": "Bolt rifles", "weapons": [
...         {"name": "Bolt rifle", "count": 10, "range": 24, "A": "1", "skill": 3,
...          "S": 4, "AP": -1, "D": "1"}]},
...     "target": {"name": "MEQ", "models": [{"count": 10, "T": 4, "Sv": 3, "W": 2}]}})
>>> s.rules, s.phase, s.attacker.weapons[0].D
('11th', 'shooting', DiceExpr.parse('1'))

Malformed input is refused with the field named:

>>> Scenario.model_validate({"attacker": {"weapons": [{"name": "x", "A": "1", "skill": 3,
...     "S": 4, "AP": 1, "D": "1"}]}, "target": {"models": [{"T": 4, "Sv": 3, "W": 2}]}})
Traceback (most recent call last):
...
pydantic_core._pydantic_core.ValidationError: 1 validation error for Scenario
attacker.weapons.0.AP
  Input should be less than or equal to 0 ...
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator
from pydantic.config import JsonDict

from tactica.dice import DiceExpr
from tactica.errors import ScenarioError
from tactica.inputs import checked_texts, clean_text
from tactica.model.abilities import (
    Flag,
    NamedWeaponRule,
    UnknownAbilityError,
    WeaponAbility,
    parse_weapon_ability,
)
from tactica.model.common import RulesVersion, hashed_once, inches_or_melee
from tactica.model.trusted import constructed

from .sampling import DEFAULT_TRIALS, Seed, Trials, check_trial_lines

__all__ = [
    "MAX_MODELS",
    "MAX_WEAPON_LINES",
    "Attacker",
    "Context",
    "Effect",
    "ModelGroup",
    "Phase",
    "Scenario",
    "ScenarioError",
    "Strength",
    "Target",
    "WeaponLine",
    "together_refusal",
]

#: Sane-size limits: larger requests are refused with the field named.
MAX_WEAPON_LINES = 100
MAX_MODELS = 200

Phase = Literal["shooting", "fight"]
RerollStage = Literal["hit", "wound", "save", "damage", "attacks"]
#: How far below its Starting Strength a unit is: "starting" (below it), "half" (Below
#: Half-strength, which is below it too).
Strength = Literal["starting", "half"]
RerollWhich = Literal["ones", "failed", "any", "below"]
#: The rolls whose results a threshold re-roll (``"which": "below"``) applies to: a
#: characteristic rolled with dice (damage, attacks), not a test against a target number.
THRESHOLD_STAGES = ("damage", "attacks")


def _check_length(value: Any, low: int, high: int, what: str) -> Any:
    """Length limits checked before the items (a refusal names only the real problem,
    and an oversized request is refused before any item is validated)."""
    if isinstance(value, list | tuple):
        if len(value) < low:
            raise ValueError(f"at least {low} {what} needed")
        if len(value) > high:
            raise ValueError(f"{len(value)} {what}s; at most {high}")
    return value


@hashed_once  # a record's hash worked out once (a cache's key: issue 42)
class _Strict(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")
    __slots__ = ("_value_hash",)

    @field_validator("*", mode="after")
    @classmethod
    def _plain_text(cls, value: Any) -> Any:
        """Names and other text are plain (``inputs.clean_text``): a lone surrogate would
        break the result's JSON, a control character the report's line. (Asked of every
        field of every model of a document: a number, a flag or a model is returned at
        once.)"""
        if isinstance(value, str | tuple):
            return checked_texts(value, clean_text)
        return value


#: A weapon ability as printed, which the validators read (``parse_weapon_ability``).
_ABILITY_TEXT: JsonDict = {
    "type": "string", "maxLength": 200,
    "description": "an ability as printed: 'Rapid Fire 1', 'Anti-Infantry 4+', 'Heavy'"}


def _or_ability_text(schema: JsonDict) -> None:
    """The JSON Schema admits what the validator reads: an ability object or its text
    (in a list of abilities, or alone)."""
    items = schema.get("items")
    if isinstance(items, dict):
        schema["items"] = {"anyOf": [items, _ABILITY_TEXT]}
    elif isinstance(schema.get("anyOf"), list):
        schema["anyOf"] = [*schema["anyOf"], _ABILITY_TEXT]  # type: ignore[misc]


class WeaponLine(_Strict):
    """``count`` copies of one weapon profile (one per model carrying it)."""

    name: str = "weapon"
    count: int = Field(default=1, ge=1, le=MAX_MODELS)
    range: int | Literal["Melee"] = Field(
        default=24, description="inches (1 or more), or \"Melee\"; beyond it "
        "(context.distance) a ranged line makes no attacks (04.02)")
    A: DiceExpr
    skill: int | None = Field(ge=2, le=6, description="BS/WS before the +; null for Torrent")
    S: int = Field(ge=1, le=30)
    AP: int = Field(default=0, ge=-6, le=0)
    D: DiceExpr
    abilities: tuple[WeaponAbility, ...] = Field(default=(), json_schema_extra=_or_ability_text)
    firing_deck: bool = Field(
        default=False, description="an embarked model's ranged weapon, taken by the "
        "TRANSPORT through its Firing Deck ability (24.14), with that model's BS")

    @field_validator("abilities", mode="before")
    @classmethod
    def _parse_abilities(cls, value: Any) -> Any:
        if isinstance(value, list | tuple):
            out: list[Any] = []
            for item in value:
                if isinstance(item, str):
                    try:
                        out.append(parse_weapon_ability(item))
                    except UnknownAbilityError as exc:
                        raise ValueError(str(exc)) from None
                else:
                    out.append(item)
            return tuple(out)
        return value

    @field_validator("range")
    @classmethod
    def _inches(cls, value: int | str) -> int | str:
        return inches_or_melee(value)

    @field_validator("A")
    @classmethod
    def _attacks_positive(cls, value: DiceExpr) -> DiceExpr:
        if value.max < 1:
            raise ValueError("A must be at least 1")
        return value

    @field_validator("D")
    @classmethod
    def _damage_positive(cls, value: DiceExpr) -> DiceExpr:
        if value.min < 1:
            raise ValueError("D must be at least 1")
        return value

    @model_validator(mode="after")
    def _torrent_skill(self) -> WeaponLine:
        if self.skill is None and not self.has("Torrent"):
            raise ValueError(f"weapon {self.name!r}: skill is null but it has no Torrent")
        return self

    def has(self, flag: str) -> bool:
        """An ability named ``flag`` (the abilities with a name: flags and named rules;
        asked by type, as a missing attribute costs pydantic microseconds)."""
        return any(isinstance(a, Flag | NamedWeaponRule) and a.name == flag
                   for a in self.abilities)


class Attacker(_Strict):
    name: str = "attacker"
    keywords: tuple[str, ...] = ()
    weapons: tuple[WeaponLine, ...] = Field(
        json_schema_extra={"minItems": 1, "maxItems": MAX_WEAPON_LINES})
    abilities: tuple[str, ...] = Field(
        default=(), description="the unit's rules by name (\"Firing Deck 12\"), so that "
        "a result lists those the engine does not compute")
    rules_applied: tuple[str, ...] = Field(
        default=(), max_length=100, description="the unit's own abilities the fielding "
        "applied, each with what it does (the result's notes list them)")
    rules_not_applied: tuple[str, ...] = Field(
        default=(), max_length=100, description="the unit's own abilities (or parts) not "
        "in the numbers, each with why (the result's not_calculated lists them)")
    firing_deck: int | None = Field(
        default=None, ge=1, le=MAX_MODELS, description="Firing Deck X: up to X embarked "
        "models' weapons (weapon lines with firing_deck) join the TRANSPORT's attack")

    @model_validator(mode="after")
    def _firing_deck(self) -> Attacker:
        """24.14 Firing Deck X: one ranged weapon (not [ONE SHOT]) from each of up to X
        embarked models."""
        deck = [w for w in self.weapons if w.firing_deck]
        if not deck:
            return self
        if self.firing_deck is None:
            raise ValueError("weapons with firing_deck need attacker.firing_deck (its X)")
        taken = sum(w.count for w in deck)
        if taken > self.firing_deck:
            raise ValueError(f"{taken} Firing Deck weapons; Firing Deck {self.firing_deck} "
                             f"takes one weapon from each of up to {self.firing_deck} models")
        for w in deck:
            if w.range == "Melee" or w.has("One Shot"):
                raise ValueError(f"weapon {w.name!r}: Firing Deck takes ranged weapons that "
                                 "are not [ONE SHOT]")
        return self

    @field_validator("weapons", mode="before")
    @classmethod
    def _weapon_count(cls, value: Any) -> Any:
        return _check_length(value, 1, MAX_WEAPON_LINES, "weapon line")

    @field_validator("keywords")
    @classmethod
    def _upper(cls, v: tuple[str, ...]) -> tuple[str, ...]:
        return tuple(k.strip().upper() for k in v)


class ModelGroup(_Strict):
    """Identical models of the target. ``wounds_lost`` is damage already on one of them;
    ``character`` marks a CHARACTER model (an attached leader)."""

    name: str = "model"
    count: int = Field(default=1, ge=1, le=MAX_MODELS)
    T: int = Field(ge=1, le=20)
    Sv: int = Field(ge=2, le=7)
    invuln: int | None = Field(default=None, ge=2, le=6)
    W: int = Field(ge=1, le=60)
    fnp: int | None = Field(default=None, ge=2, le=6)
    character: bool = False
    wounds_lost: int = Field(default=0, ge=0)

    @model_validator(mode="after")
    def _wounds_lost(self) -> ModelGroup:
        if self.wounds_lost >= self.W:
            raise ValueError(f"wounds_lost {self.wounds_lost} must be below W {self.W}")
        return self


class Target(_Strict):
    name: str = "target"
    keywords: tuple[str, ...] = ()
    models: tuple[ModelGroup, ...] = Field(json_schema_extra={"minItems": 1, "maxItems": 20})

    @field_validator("models", mode="before")
    @classmethod
    def _group_count(cls, value: Any) -> Any:
        return _check_length(value, 1, 20, "model group")
    damage_reduction: int = Field(default=0, ge=0, le=6)
    half_damage: bool = False
    abilities: tuple[str, ...] = Field(
        default=(), description="the unit's rules by name (\"Deadly Demise D6+2\"), so "
        "that a result lists those the engine does not compute")
    rules_applied: tuple[str, ...] = Field(
        default=(), max_length=100, description="the unit's own defensive abilities the "
        "fielding applied, each with what it does (the result's notes list them)")
    rules_not_applied: tuple[str, ...] = Field(
        default=(), max_length=100, description="the unit's own abilities (or parts) not "
        "in the numbers, each with why (the result's not_calculated lists them)")
    deadly_demise: DiceExpr | None = Field(
        default=None, description="Deadly Demise X (24.08): mortal wounds to the attacking "
        "unit, on a 6 for each model destroyed, when it is within 6\"")

    @field_validator("keywords")
    @classmethod
    def _upper(cls, v: tuple[str, ...]) -> tuple[str, ...]:
        return tuple(k.strip().upper() for k in v)

    @model_validator(mode="after")
    def _size(self) -> Target:
        total = sum(g.count for g in self.models)
        if total > MAX_MODELS:
            raise ValueError(f"target has {total} models; at most {MAX_MODELS}")
        return self

    @property
    def model_count(self) -> int:
        return sum(g.count for g in self.models)


@dataclass(frozen=True)
class Said:
    """How a circumstance is shown and said (``contract.circumstances``): its control's
    ``label``, its name in a sentence (``words``), the words when it holds (``{}``: its
    value) and when not, the ``short`` name of its command-line flag when not the field's
    own, and the words of each of its choices (``none``: unset). Pydantic calls it with
    the field's JSON schema, which it leaves as it is: the words are the doors', not the
    contract's."""

    label: str
    words: str
    when: str | None = None
    unless: str | None = None
    short: str | None = None
    choices: tuple[tuple[str, str], ...] = ()

    def __call__(self, schema: JsonDict) -> None:
        """Nothing added to the schema."""


def _said(label: str, words: str, when: str | None = None, unless: str | None = None, *,
          short: str | None = None, **choices: str) -> Said:
    """``Said`` with ``unless`` defaulting to "not" and ``when``."""
    if when is not None and unless is None:
        unless = f"not {when}"
    return Said(label, words, when, unless, short, tuple(choices.items()))


class Context(_Strict):
    """Circumstances of the attack. ``distance`` (inches to the target) derives half
    range (Rapid Fire, Melta) unless ``within_half_range`` is given, and range: a ranged
    line beyond it makes no attacks (04.02); ``None``: every weapon within range. Each
    field says how the doors show it (``_said``): the CLI's options, the page's controls
    and the assistant's arguments are made from these fields."""

    distance: float | None = Field(
        default=None, ge=0, le=200, description="inches to the target (a ranged weapon "
        "beyond its Range makes no attacks, 04.02)", json_schema_extra=_said(
            "Distance (″)", "the distance", "{}″ away", "no distance"))
    within_half_range: bool | None = Field(
        default=None, description="within half the weapon's range (Rapid Fire, Melta); "
        "unset: from the distance", json_schema_extra=_said(
            "Within half range", "half range", "within half range", "not within half range",
            short="half-range", none="half range from the distance"))
    remained_stationary: bool = Field(
        default=False, description="the attacking unit remained stationary (Heavy)",
        json_schema_extra=_said("Remained stationary", "remained stationary",
                                "remained stationary", "moved", short="stationary"))
    charged: bool = Field(
        default=False, description="the attacking unit made a charge move this turn "
        "(Lance)", json_schema_extra=_said("Charged", "charged", "charged", "did not charge"))
    advanced: bool = Field(
        default=False, description="the attacking unit advanced (Assault weapons only)",
        json_schema_extra=_said("Advanced", "advanced", "advanced", "did not advance"))
    cover: bool = Field(
        default=False, description="the target has the Benefit of Cover (13.08)",
        json_schema_extra=_said("Target in cover", "the target in cover", "target in cover",
                                "not in cover"))
    stealth: bool = Field(
        default=False, description="the target has Stealth (24.33)",
        json_schema_extra=_said("Target has Stealth", "Stealth", "target has Stealth",
                                "no Stealth"))
    # --- circumstances that named effects check (issue "Rules that change the numbers") --
    arrived_from_reserves: bool = Field(
        default=False,
        description="the attacking unit was set up as Reinforcements this turn or last "
        "(A Perfect Ambush, A Chink in Their Armour last until your next Fight phase)",
        json_schema_extra=_said("Arrived from Reserves", "arrived from Reserves",
                                "arrived from Reserves", "not from Reserves",
                                short="arrived"))
    disembarked: bool = Field(
        default=False, description="disembarked this turn", json_schema_extra=_said(
            "Disembarked", "disembarked", "disembarked", "did not disembark"))
    led_by: tuple[str, ...] = Field(
        default=(), description="leaders attached (Primus...)",
        json_schema_extra=_said("Led by", "the leader attached"))
    attacker_wounds_left: int | None = Field(
        default=None, ge=1, le=60, description="wounds left on the attacking model "
        "(Damaged profiles)", json_schema_extra=_said("Wounds left", "wounds left",
                                                       "{} wounds left", "all wounds left",
                                                       short="wounds-left"))
    tyranids_nearby: bool = Field(
        default=False, description="a friendly TYRANIDS unit is within 6\" of the target",
        json_schema_extra=_said("TYRANIDS within 6″ of target",
                                "a TYRANIDS unit within 6″ of the target",
                                "TYRANIDS within 6″ of the target",
                                "no TYRANIDS near the target"))
    attacker_toughness: int | None = Field(
        default=None, ge=1, le=20, description="T of the attacking model (Crushing Impact)",
        json_schema_extra=_said("Attacker's Toughness", "the attacker's Toughness"))
    army_faction: str | None = Field(
        default=None, description="the attacking army's faction (its army rule)",
        json_schema_extra=_said("Army faction", "the army's faction"))
    detachment: str | None = Field(
        default=None, description="the attacking army's detachment: its rules are found "
        "first, and a stratagem of another detachment is refused",
        json_schema_extra=_said("Detachment", "the detachment", "{}", "any detachment"))
    game_mode: Literal["standard", "boarding actions", "combat patrol"] = Field(
        default="standard", description="the game mode: Boarding Actions and Combat Patrol "
        "stratagems are refused outside theirs (15.01)", json_schema_extra=_said(
            "Game mode", "the game mode"))
    below_strength: Strength | None = Field(
        default=None, description="the attacking unit is below its Starting Strength "
        "(\"starting\") or Below Half-strength (\"half\", and so below its Starting "
        "Strength too); unset: neither, and a rule that needs it does not apply (Heroes "
        "of the Chapter's +1 to wound)", json_schema_extra=_said(
            "Attacker's strength", "the attacker's strength",
            none="attacker at Starting Strength", starting="attacker below Starting Strength",
            half="attacker Below Half-strength"))
    target_below_strength: Strength | None = Field(
        default=None, description="the same for the target unit (Kill Shot)",
        json_schema_extra=_said(
            "Target's strength", "the target's strength",
            none="target at Starting Strength", starting="target below Starting Strength",
            half="target Below Half-strength"))
    designated: tuple[str, ...] | None = Field(
        default=None, description="the rules whose chosen enemy unit the target is (Oath "
        "of Moment); unset: naming such a rule says the target is its chosen unit",
        json_schema_extra=_said("Chosen by", "the rules that chose the target"))
    # --- circumstances of the 11th-edition fine print (issue 17) -------------------------
    indirect: Literal["unseen", "spotted"] | None = Field(
        default=None, description="an [INDIRECT FIRE] weapon shoots a target it cannot see "
        "(10.07): \"unseen\", or \"spotted\" (the unit remained stationary and a friendly "
        "observer sees the target)", json_schema_extra=_said(
            "Indirect Fire", "Indirect Fire", none="target visible",
            unseen="indirect, target not visible", spotted="indirect, spotted"))
    plunging_fire: bool = Field(
        default=False, description="the attack has Plunging Fire (22.05: BS improved by 1)",
        json_schema_extra=_said("Plunging Fire", "Plunging Fire", "Plunging Fire",
                                "no Plunging Fire"))
    engaged: bool = Field(
        default=False, description="the attacking unit is engaged (close-quarters shooting, "
        "10.06: -1 to hit for MONSTER/VEHICLE models unless a [CLOSE-QUARTERS] weapon; "
        "no [HEAVY])", json_schema_extra=_said("Attacker is engaged", "the attacker engaged",
                                               "attacker engaged", "attacker not engaged"))
    target_engaged: bool = Field(
        default=False, description="the target is engaged with friendly units (-1 to hit "
        "a MONSTER/VEHICLE target, 17.03)", json_schema_extra=_said(
            "Target is engaged with friendly units", "the target engaged",
            "target engaged with friendly units", "target not engaged"))

    def half_range(self, weapon_range: int | str) -> bool:
        if self.within_half_range is not None:
            return self.within_half_range
        if self.distance is None or not isinstance(weapon_range, int):
            return False
        return self.distance <= weapon_range / 2


class Effect(_Strict):
    """A plain modifier. Exactly one kind per effect, e.g. ``{"hit": 1}`` or
    ``{"reroll": "wound", "which": "ones"}``."""

    hit: int | None = Field(default=None, ge=-3, le=3)
    wound: int | None = Field(default=None, ge=-3, le=3)
    save: int | None = Field(default=None, ge=-3, le=3)
    ap: int | None = Field(default=None, ge=-4, le=4)
    strength: int | None = Field(default=None, ge=-10, le=10)
    attacks: int | None = Field(default=None, ge=-10, le=10)
    damage: int | None = Field(default=None, ge=-3, le=6)
    skill: int | None = Field(default=None, ge=-3, le=3)
    reroll: RerollStage | None = None
    which: RerollWhich | None = None
    below: int | None = Field(
        default=None, ge=2, le=36, description='with "which": "below": re-roll a damage '
        "or attacks roll whose result is below this value (\"re-roll damage rolls below "
        "3\"), once (reference facts §4.5)")
    critical_hit_on: int | None = Field(default=None, ge=2, le=6)
    critical_wound_on: int | None = Field(default=None, ge=2, le=6)
    grant: WeaponAbility | None = Field(default=None, json_schema_extra=_or_ability_text)
    fnp: int | None = Field(default=None, ge=2, le=6)
    fnp_mortal: int | None = Field(
        default=None, ge=2, le=6, description="Feel No Pain against mortal wounds only "
        "(mortal wounds before the attacks, Devastating Wounds); normal damage is not "
        "rolled for")
    snap_shooting: bool | None = None
    snap_hit_on: int | None = Field(
        default=None, ge=2, le=6,
        description="while snap shooting, hits are scored on unmodified rolls of X+")
    command_reroll: Literal["hit", "wound"] | None = Field(
        default=None, description="re-roll one die of the unit's hit or wound rolls "
        "(15.02 Command Re-roll); the engine re-rolls the failed die that gains most")
    mortal_wounds: DiceExpr | None = Field(
        default=None, description="mortal wounds the target suffers before the attacks")
    weapons: tuple[str, ...] | None = Field(
        default=None, description="only these weapon lines (by name, any case); "
        "default: every weapon line of the attacker")

    def applies_to(self, weapon_name: str) -> bool:
        """Whether this effect is scoped to (or not limited away from) a weapon line."""
        return self.weapons is None or weapon_name.casefold() in {
            w.casefold() for w in self.weapons}

    @field_validator("grant", mode="before")
    @classmethod
    def _parse_grant(cls, value: Any) -> Any:
        if isinstance(value, str):
            try:
                return parse_weapon_ability(value)
            except UnknownAbilityError as exc:
                raise ValueError(str(exc)) from None
        return value

    @model_validator(mode="after")
    def _one_kind(self) -> Effect:
        kinds = [k for k, v in self
                 if v is not None and k not in ("which", "below", "weapons")]
        if len(kinds) != 1:
            raise ValueError(
                "an effect sets exactly one modifier (e.g. {\"hit\": 1}); got "
                + (", ".join(kinds) or "none")
            )
        if (self.reroll is None) != (self.which is None):
            raise ValueError('a re-roll effect needs both "reroll" and "which"')
        if (self.which == "below") != (self.below is not None):
            raise ValueError('a threshold re-roll needs both "which": "below" and "below" '
                             '(e.g. {"reroll": "damage", "which": "below", "below": 3})')
        if self.which == "below" and self.reroll not in THRESHOLD_STAGES:
            raise ValueError(f're-rolls "below" a value are for damage or attacks rolls, '
                             f'not {self.reroll} rolls (use "ones" or "failed")')
        return self


EffectEntry = Annotated[Effect | str, Field(union_mode="left_to_right")]


def together_refusal(attacker: Attacker, phase: Phase, method: str,
                     trials: int | None) -> str | None:
    """What the scenario's parts refuse together, written once (the contract's validator
    and ``Scenario.trusted`` ask it), or None: Monte Carlo trials x weapon lines within
    ``sampling.MAX_TRIAL_LINES``; 24.14: Firing Deck works "In your Shooting phase"."""
    if method == "monte-carlo":
        try:
            check_trial_lines(trials or DEFAULT_TRIALS, len(attacker.weapons))
        except ValueError as exc:
            return str(exc)
    if phase != "shooting" and any(w.firing_deck for w in attacker.weapons):
        return "attacker.weapons: Firing Deck weapons shoot in the shooting phase only"
    return None


class Scenario(_Strict):
    """An attacking unit's weapons, a target unit and the circumstances."""

    rules: RulesVersion = "11th"
    phase: Phase = "shooting"
    method: Literal["exact", "monte-carlo"] = "exact"
    trials: Trials = None
    seed: Seed = None
    attacker: Attacker
    target: Target
    context: Context = Context()
    effects: tuple[EffectEntry, ...] = Field(default=(), max_length=50)

    @model_validator(mode="after")
    def _together(self) -> Scenario:
        """The checks of the scenario's parts together (``together_refusal``). (A library
        unit's weapons, picked by name in a version-2 document, are checked once they are
        resolved: ``trusted``.)"""
        if isinstance(self.attacker, Attacker):
            why = together_refusal(self.attacker, self.phase, self.method, self.trials)
            if why is not None:
                raise ValueError(why)
        return self

    @classmethod
    def trusted(cls, data: dict[str, Any]) -> Scenario:
        """The scenario of ``data`` whose parts are valid already (a document's fields,
        validated as a scenario's, and the units as fielded): made without validating
        them again (``model.trusted.constructed``), only the checks of the parts together
        run (``together_refusal``); when one refuses, ``data`` is validated, so the
        refusal is the one any document gets."""
        if together_refusal(data["attacker"], data.get("phase", "shooting"),
                            data.get("method", "exact"), data.get("trials")) is not None:
            return cls.model_validate(data)
        return constructed(cls, data)

    @property
    def plain_effects(self) -> tuple[Effect, ...]:
        return tuple(e for e in self.effects if isinstance(e, Effect))

    @property
    def named_effects(self) -> tuple[str, ...]:
        return tuple(e for e in self.effects if isinstance(e, str))

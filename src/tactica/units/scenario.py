"""The scenario contract, version 2: ``attacker`` and ``target`` may name library units.

``{"unit": "Intercessor Squad", "models": 10, "wargear": ["Astartes grenade launcher"],
"led_by": "Lieutenant"}`` — every field but ``unit`` optional — is resolved through the
library into the version-1 weapon lines and model groups (``tactica.units.resolve``).
A plain version-1 attacker or target is read as before.

>>> doc = ScenarioDocument.model_validate({"attacker": {"unit": "Primus"},
...                                        "target": {"unit": "Neophyte Hybrids"}})
>>> doc.attacker.unit, doc.target.models
('Primus', None)
"""

from __future__ import annotations

import os
from typing import Annotated, Any

from pydantic import ConfigDict, Discriminator, Field, Tag, field_validator
from pydantic.config import JsonDict

from ..combat.contract.scenario import MAX_MODELS, Attacker, Scenario, Target, _Strict
from ..errors import DocumentError
from ..inputs import loads

__all__ = ["ScenarioDocument", "UnitRef", "document_loc", "file_named", "file_refusal",
           "parse_document"]


def _or_one_name(schema: JsonDict) -> None:
    """The JSON Schema admits what the validator reads: one leader's name or a list."""
    listed = {k: v for k, v in schema.items() if k not in ("description", "default")}
    for k in listed:
        del schema[k]
    schema["anyOf"] = [{"type": "string", "minLength": 1, "maxLength": 200}, listed]


class UnitRef(_Strict):
    """A library unit as fielded: its name, size, wargear choices, attached leader and
    the weapon profiles to use (multi-profile weapons; default: the best)."""

    unit: str = Field(min_length=1, max_length=200)
    models: int | None = Field(default=None, ge=1, le=MAX_MODELS,
                               description="default: the datasheet's minimum")
    wargear: tuple[str, ...] = Field(
        default=(), max_length=40,
        description="options taken: 'NAME', 'NAME + NAME' (one bundle), ':N' models; "
        "default: the datasheet's loadout")
    led_by: tuple[str, ...] = Field(default=(), max_length=3,
                                    description="leaders attached (one name or a list)",
                                    json_schema_extra=_or_one_name)
    support: str | None = Field(
        default=None, max_length=200,
        description="a support unit attached besides the leader (24.22: one leader unit "
        "and one support unit), as an army list states it ('Attached as: Support')")
    weapons: tuple[str, ...] = Field(
        default=(), max_length=40,
        description="weapons picked by hand instead of the loadout: 'NAME' or 'NAME:COUNT'")
    profiles: tuple[str, ...] = Field(
        default=(), max_length=40,
        description="profiles to use ('Plasma incinerator – supercharge', or 'supercharge' "
        "when only one weapon the models carry has it); default: the most expected damage "
        "less a Hazardous profile's expected cost")

    @field_validator("led_by", mode="before")
    @classmethod
    def _one_or_many(cls, value: Any) -> Any:
        if isinstance(value, str):
            return (value,)
        if value is None:
            return ()
        return value


def _side(value: Any) -> str:
    if isinstance(value, dict):
        return "unit" if "unit" in value else "plain"
    return "unit" if isinstance(value, UnitRef) else "plain"


AttackerEntry = Annotated[
    Annotated[Attacker, Tag("plain")] | Annotated[UnitRef, Tag("unit")], Discriminator(_side)]
TargetEntry = Annotated[
    Annotated[Target, Tag("plain")] | Annotated[UnitRef, Tag("unit")], Discriminator(_side)]


class ScenarioDocument(Scenario):
    """A scenario whose attacker or target may be a ``UnitRef`` (the scenario contract,
    version 2: ``docs/scenario.md``)."""

    model_config = ConfigDict(title="Scenario", json_schema_extra={
        "description": "A scenario (contract version 2): the attacker and the target are "
        "weapon lines and model groups, or library units as fielded ({\"unit\": ...})."})

    attacker: AttackerEntry  # type: ignore[assignment]
    target: TargetEntry  # type: ignore[assignment]

    @property
    def has_units(self) -> bool:
        return isinstance(self.attacker, UnitRef) or isinstance(self.target, UnitRef)


def _names_units(data: Any) -> bool:
    return isinstance(data, dict) and any(
        isinstance(data.get(side), dict) and "unit" in data[side]
        for side in ("attacker", "target"))


def file_named(value: object) -> str | None:
    """The file name ``value`` is instead of a document (a path, or a one-line text
    ending in ``.json``), so that the refusal can say so; else ``None``. The file system
    is not asked (a door's caller learns nothing of the server's files)."""
    if isinstance(value, os.PathLike):
        return os.fspath(value)  # type: ignore[no-any-return]
    if isinstance(value, str) and len(value) < 1024 and "\n" not in value \
            and value.strip().casefold().endswith(".json"):
        return value.strip()
    return None


def file_refusal(name: str) -> str:
    """The refusal of a file name given as a document."""
    return (f"document: {name!r} is a file name, not a scenario: give the file's text "
            "(Path(name).read_text()) or its parsed JSON")


def parse_document(scenario: Scenario | dict[str, Any] | str) -> Scenario:
    """A scenario document: a ``ScenarioDocument`` when it names units, else the plain
    version-1 ``Scenario`` (so its refusals name the fields exactly as before). Raises
    pydantic's ``ValidationError``.

    >>> type(parse_document({"attacker": {"unit": "Primus"}, "target": {"unit": "meq"}}))
    <class 'tactica.units.scenario.ScenarioDocument'>
    """
    if isinstance(scenario, Scenario):
        return scenario
    named = file_named(scenario)
    if named is not None:
        raise DocumentError(file_refusal(named))
    if isinstance(scenario, str):
        try:
            data = loads(scenario)
        except ValueError:
            return Scenario.model_validate_json(scenario)  # pydantic's own JSON refusal
    else:
        data = scenario
    if _names_units(data):
        return ScenarioDocument.model_validate(data)
    return Scenario.model_validate(data)


def document_loc(loc: tuple[str | int, ...] | list[str | int]) -> list[str | int]:
    """A validation error's field path in the document's own terms: the union tag that
    pydantic adds after ``attacker``/``target`` ("plain", "unit") is not a field.

    >>> document_loc(("body", "attacker", "plain", "weapons", 0, "AP"))
    ['body', 'attacker', 'weapons', 0, 'AP']
    """
    out: list[str | int] = []
    for i, part in enumerate(loc):
        if i and loc[i - 1] in ("attacker", "target") and part in ("plain", "unit"):
            continue
        out.append(part)
    return out

"""Army lists: a roster that prices itself and reports every rule it breaks.

* ``Roster`` / ``RosterUnit`` (``tactica.army.roster``): battle size, Army Faction,
  detachments, units with models, wargear and enhancements, the Warlord, attached leaders
  and support units, units embarked at the start.
* ``price_roster`` (``tactica.army.pricing``): model-count brackets, escalating costs by
  unit ordinal, enhancements; a priced breakdown.
* ``validate`` (``tactica.army.validation``): every violation at once, each with a stable
  code (``CODES``), the unit it concerns and a sentence.
* ``load_roster`` / ``parse_roster`` / ``export_roster`` (``tactica.army.formats``): the
  official app's text export, New Recruit JSON and text (simple, WTC), List Forge.
* ``list_attacker`` (``tactica.army.attack``): a unit as built in the list, as a combat
  attacker (weapons from its wargear, attached leader, enhancement, detachment rule).

Unit look-ups go through ``tactica.library.Library``: a list naming a unit the library
lacks is still read, and that unit is reported (``UNKNOWN_DATASHEET``, with close names).
"""

from .formats import (
    EXPORT_FORMATS,
    IMPORT_FORMATS,
    RosterParseError,
    UnsupportedFormatError,
    detect_format,
    export_roster,
    load_roster,
    parse_roster,
)
from .pricing import PriceBreakdown, UnitPrice, price_roster, resolve
from .roster import (
    BATTLE_SIZE_POINTS,
    EnhancementChoice,
    ModelEntry,
    Roster,
    RosterUnit,
    WargearItem,
)
from .validation import CODES, ValidationReport, Violation, resurgence_points, validate

__all__ = [
    "BATTLE_SIZE_POINTS",
    "CODES",
    "EXPORT_FORMATS",
    "IMPORT_FORMATS",
    "EnhancementChoice",
    "ModelEntry",
    "PriceBreakdown",
    "Roster",
    "RosterParseError",
    "RosterUnit",
    "UnitPrice",
    "UnsupportedFormatError",
    "ValidationReport",
    "Violation",
    "WargearItem",
    "detect_format",
    "export_roster",
    "load_roster",
    "parse_roster",
    "price_roster",
    "resolve",
    "resurgence_points",
    "validate",
]

"""Malformed scenarios are refused, with a message naming the offending field.

Contract errors (shape, ranges, dice, abilities) are ``pydantic.ValidationError`` raised
while reading the scenario; what only the engine can see (a melee weapon in the shooting
phase, a named effect it does not know) is a ``ValueError`` raised by ``calculate``.
Either way the message carries the field path (``attacker.weapons.0.AP``).
"""

from __future__ import annotations

import copy
import json
import re
from collections.abc import Callable
from typing import Any

import pytest
from pydantic import ValidationError

from tactica import Scenario, ScenarioError, calculate
from tactica.errors import DocumentError

Json = dict[str, Any]


def valid() -> Json:
    """A small valid scenario: two ranged weapons into five Intercessors."""
    return {
        "rules": "11th",
        "phase": "shooting",
        "attacker": {"name": "Hybrids", "weapons": [
            {"name": "Autogun", "count": 5, "range": 24, "A": "1", "skill": 4, "S": 3,
             "AP": 0, "D": "1", "abilities": ["Rapid Fire 1"]},
            {"name": "Mining laser", "count": 1, "range": 24, "A": "1", "skill": 4,
             "S": 10, "AP": -3, "D": "D6+1", "abilities": ["Heavy"]},
        ]},
        "target": {"name": "Intercessors",
                   "models": [{"name": "Intercessor", "count": 5, "T": 4, "Sv": 3, "W": 2}]},
        "effects": [],
    }


def with_change(change: Callable[[Json], None]) -> Json:
    scenario = copy.deepcopy(valid())
    change(scenario)
    return scenario


def set_weapon(index: int, **fields: Any) -> Callable[[Json], None]:
    def change(s: Json) -> None:
        s["attacker"]["weapons"][index].update(fields)
    return change


def set_model(index: int, **fields: Any) -> Callable[[Json], None]:
    def change(s: Json) -> None:
        s["target"]["models"][index].update(fields)
    return change


def set_effects(*effects: Any) -> Callable[[Json], None]:
    def change(s: Json) -> None:
        s["effects"] = list(effects)
    return change


def test_the_base_scenario_is_valid() -> None:
    """The refusals below each change one field of this scenario, which is computed."""
    result = calculate(valid())
    assert result.attacks.mean == pytest.approx(6.0)


CONTRACT_REFUSALS: list[tuple[str, Callable[[Json], None], str, str]] = [
    ("unknown ability", set_weapon(0, abilities=["Frobnicate"]),
     "attacker.weapons.0.abilities", "Frobnicate"),
    ("unknown ability, second weapon", set_weapon(1, abilities=["Heavy", "Frobnicate"]),
     "attacker.weapons.1.abilities", "Frobnicate"),
    ("malformed Sustained Hits", set_weapon(0, abilities=["Sustained Hits"]),
     "attacker.weapons.0.abilities", "Sustained Hits"),
    ("AP +1", set_weapon(0, AP=1), "attacker.weapons.0.AP", "less than or equal to 0"),
    ("W 0", set_model(0, W=0), "target.models.0.W", "greater than or equal to 1"),
    ("A 0D6", set_weapon(0, A="0D6"), "attacker.weapons.0.A", "0D6"),
    ("A 2D", set_weapon(0, A="2D"), "attacker.weapons.0.A", "2D"),
    ("A D6++1", set_weapon(0, A="D6++1"), "attacker.weapons.0.A", "D6++1"),
    ("A 11D6", set_weapon(0, A="11D6"), "attacker.weapons.0.A", "11D6"),
    ("D 0D6", set_weapon(1, D="0D6"), "attacker.weapons.1.D", "0D6"),
    ("D 2D", set_weapon(1, D="2D"), "attacker.weapons.1.D", "2D"),
    ("D D6++1", set_weapon(1, D="D6++1"), "attacker.weapons.1.D", "D6++1"),
    ("D 11D6", set_weapon(1, D="11D6"), "attacker.weapons.1.D", "11D6"),
    ("D D7", set_weapon(1, D="D7"), "attacker.weapons.1.D", "D7"),
    ("D 0", set_weapon(1, D="0"), "attacker.weapons.1.D", "at least 1"),
    ("10,000 models", set_model(0, count=10_000), "target.models.0.count", "200"),
    ("wounds_lost >= W", set_model(0, wounds_lost=2), "target.models.0", "wounds_lost"),
    ("skill null without Torrent", set_weapon(1, skill=None), "attacker.weapons.1",
     "Torrent"),
    ("rules 9th", lambda s: s.update(rules="9th"), "rules", "9th"),
    ("phase movement", lambda s: s.update(phase="movement"), "phase", "movement"),
    ("unknown field", set_model(0, Toughness=4), "target.models.0.Toughness",
     "Extra inputs"),
    ("two modifiers in one effect", set_effects({"hit": 1}, {"hit": 1, "wound": 1}),
     "effects.1", "exactly one modifier"),
    ("re-roll without which", set_effects({"reroll": "hit"}), "effects.0", '"which"'),
    ("grant of an unknown ability", set_effects({"grant": "Frobnicate"}), "effects.0",
     "Frobnicate"),
]


@pytest.mark.parametrize(
    ("change", "field", "words"),
    [pytest.param(c, f, w, id=name) for name, c, f, w in CONTRACT_REFUSALS],
)
def test_contract_refusal_names_the_field(
    change: Callable[[Json], None], field: str, words: str
) -> None:
    scenario = with_change(change)
    with pytest.raises(ValidationError) as exc:
        Scenario.model_validate(scenario)
    message = str(exc.value)
    assert field in message
    assert words in message
    # the same refusal through the public API, from a dict and from JSON text: tactica's
    # own one-line DocumentError naming the field (issue 46)
    dotted = re.sub(r"\.(\d+)", r"[\1]", field)  # attacker.weapons.0.AP -> weapons[0]
    for doc in (scenario, json.dumps(scenario)):
        with pytest.raises(DocumentError) as refused:
            calculate(doc)
        loc = refused.value.loc  # a union member's tag or a capitalised key is left out
        assert dotted.startswith(loc) or loc.startswith(dotted), (loc, dotted)
        assert str(refused.value).startswith(loc) and "\n" not in str(refused.value)


def test_too_many_models_over_several_entries() -> None:
    """Each entry below the limit, 150 + 150 = 300 models together: refused at target."""
    scenario = with_change(lambda s: s["target"].update(models=[
        {"count": 150, "T": 4, "Sv": 3, "W": 2}, {"count": 150, "T": 4, "Sv": 3, "W": 1}]))
    with pytest.raises(DocumentError) as exc:
        calculate(scenario)
    assert "target" in str(exc.value)
    assert "300 models" in str(exc.value)


@pytest.mark.parametrize(
    ("phase", "index", "weapon_range", "kind"),
    [("shooting", 1, "Melee", "melee"), ("fight", 0, 24, "ranged")],
)
def test_weapon_of_the_wrong_type_for_the_phase(
    phase: str, index: int, weapon_range: int | str, kind: str
) -> None:
    """A melee weapon in the shooting phase (or a ranged one in the fight phase) is a
    ScenarioError naming ``attacker.weapons.N``."""
    def change(s: Json) -> None:
        s["phase"] = phase
        for w in s["attacker"]["weapons"]:
            w["range"] = "Melee" if phase == "fight" else 24
        s["attacker"]["weapons"][index]["range"] = weapon_range

    with pytest.raises(ScenarioError) as exc:
        calculate(with_change(change))
    assert f"attacker.weapons.{index}" in str(exc.value)
    assert kind in str(exc.value)


def test_unknown_named_effect() -> None:
    """A named effect that the library does not know is refused, naming ``effects.N``."""
    scenario = with_change(set_effects({"hit": 1}, "Frobnicate"))
    with pytest.raises(ValueError, match=r"effects\.1") as exc:
        calculate(scenario)
    assert "Frobnicate" in str(exc.value)


def only_first_weapon(change: Callable[[Json], None]) -> Callable[[Json], None]:
    def both(s: Json) -> None:
        s["attacker"]["weapons"] = s["attacker"]["weapons"][:1]
        change(s)
    return both


@pytest.mark.parametrize(
    ("change", "location"),
    [
        pytest.param(only_first_weapon(set_weapon(0, AP=1)),
                     ("attacker", "weapons", 0, "AP"), id="AP"),
        pytest.param(only_first_weapon(set_weapon(0, abilities=["Frobnicate"])),
                     ("attacker", "weapons", 0, "abilities"), id="abilities"),
        pytest.param(set_model(0, W=0), ("target", "models", 0, "W"), id="W"),
    ],
)
def test_a_refusal_reports_only_the_real_violation(
    change: Callable[[Json], None], location: tuple[str | int, ...]
) -> None:
    """Validation reports every problem, and only real ones (style: "validators collect
    all violations"): one bad field in a one-item list is one error. A spurious
    "Tuple should have at least 1 item after validation, not 0" on ``attacker.weapons``
    / ``target.models`` (the list does have an item) points the user at a field that is
    fine."""
    with pytest.raises(ValidationError) as exc:
        Scenario.model_validate(with_change(change))
    assert [e["loc"] for e in exc.value.errors()] == [location]


@pytest.mark.parametrize(("doc", "loc"), [
    ({"attacker": {"unit": ""}, "target": {"unit": "meq"}}, "attacker.unit"),
    ({"attacker": {"weapons": []}, "target": {"models": [{"T": 4, "Sv": 3, "W": 1}]}},
     "attacker.weapons"),
    ({"attacker": {"unit": "Intercessor Squad"}, "target": {"unit": "meq"},
      "context": {"distance": -1}}, "context.distance"),
    ("not a document", "document"),
])
def test_tactica_calculate_refuses_a_bad_document_with_its_own_error(
        doc: object, loc: str) -> None:
    """Issue 46: never pydantic's multi-line report out of ``tactica.calculate``: a
    ``DocumentError`` (a ``ValueError``) of one line naming the field."""
    import pydantic

    import tactica
    from tactica.errors import DocumentError

    with pytest.raises(DocumentError) as err:
        tactica.calculate(doc)  # type: ignore[arg-type]
    assert not isinstance(err.value, pydantic.ValidationError)
    assert isinstance(err.value, ValueError) and err.value.loc == loc
    text = str(err.value)
    assert "\n" not in text and "errors.pydantic.dev" not in text and text.startswith(loc)

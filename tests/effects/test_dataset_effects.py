"""Every faction's rules as named effects, on the real installed dataset (real data: needs
``wh40kdc``): the meta-test that every record has one status, the coverage target, and
the issue's command-line examples.

Expected numbers are ratios worked by hand, so they do not depend on the unit's size:

* Oath of Moment (re-roll the Hit roll): BS3+ hits 4/6 -> 4/6 + 2/6 x 4/6 = 8/9, x 4/3;
* Accuracy Under Pressure (Steel Hammer, re-roll the Hit roll): BS4+ 1/2 -> 3/4, x 3/2;
* A Tempting Trap (Kauyon, +1 to Wound): S5 vs the meq preset's T5 4+ -> 3+, wounds
  x 4/3;
* Armour of Contempt (a Blood Angels detachment, worsen AP by 1): AP-1 into Sv3+ fails
  1/2 of saves, AP0 1/3: unsaved x 2/3.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from typer.testing import CliRunner

from tactica.cli import commands

wh40kdc = pytest.importorskip("wh40kdc")

from tactica.effects.dataset import dataset_effects  # noqa: E402

runner = CliRunner()


def calc(*args: str) -> tuple[int, dict[str, Any] | str]:
    result = runner.invoke(commands.app, ["calc", *args, "--json"], env={"COLUMNS": "200"})
    if result.exit_code:
        return result.exit_code, result.stderr
    return 0, json.loads(result.stdout)


def mean(doc: dict[str, Any] | str, stage: str) -> float:
    assert isinstance(doc, dict)
    return float(doc[stage]["mean"])


def test_every_record_has_one_status_and_coverage_meets_the_target(pinned_dataset: str
                                                                   ) -> None:
    effects = dataset_effects()
    assert effects is not None
    assert len(effects.entries) == 1434 + 999 + 242 + 26  # stratagems, enhancements, ...
    assert all(e.status in ("modelled", "non-combat", "not modelled") for e in effects.entries)
    assert all(e.reason for e in effects.entries if e.status != "modelled")
    with_effect = [e for e in effects.entries if e.has_effect]
    not_modelled = [e for e in with_effect if e.status == "not modelled"]
    assert len(not_modelled) <= 0.05 * len(with_effect)
    coverage = effects.coverage()
    assert len(coverage) >= 34  # every faction with records (and Core)


def test_oath_of_moment_with_its_condition() -> None:
    base = ["--attacker", "Intercessor Squad", "--target", "meq", "--weapon", "Bolt rifle"]
    code, plain = calc(*base)
    code2, oath = calc(*base, "--effect", "Oath of Moment")
    assert code == code2 == 0
    assert mean(oath, "hits") == pytest.approx(mean(plain, "hits") * 4 / 3)
    assert isinstance(oath, dict) and oath["effects_applied"] == ["Oath of Moment"]
    assert "Oath of Moment: assumes the target is the Oath of Moment target" in oath["notes"]
    code, refused = calc(*base, "--effect", "Oath of Moment", "--designated", "Another rule")
    assert code == 2 and "not the Oath of Moment target" in str(refused)
    code, ok = calc(*base, "--effect", "Oath of Moment", "--designated", "Oath of Moment")
    assert code == 0 and mean(ok, "hits") == pytest.approx(mean(oath, "hits"))


@pytest.mark.parametrize("attacker,weapon,target,effect,stage,ratio", [
    ("Cadian Shock Troops", "Lasgun", "meq", "Accuracy Under Pressure", "hits", 3 / 2),
    ("Strike Team", "Pulse rifle", "meq", "A Tempting Trap", "wounds", 4 / 3),
    ("Intercessor Squad", "Bolt rifle", "Death Company Marines", "Armour of Contempt",
     "unsaved", 2 / 3),
])
def test_detachment_stratagems_of_three_factions(attacker: str, weapon: str, target: str,
                                                 effect: str, stage: str,
                                                 ratio: float) -> None:
    base = ["--attacker", attacker, "--weapon", weapon, "--target", target]
    _, plain = calc(*base)
    code, used = calc(*base, "--effect", effect)
    assert code == 0, used
    assert mean(used, stage) == pytest.approx(mean(plain, stage) * ratio)
    record = dataset_effects().find(effect)  # type: ignore[union-attr]
    assert isinstance(used, dict) and used["cp_spent"] == record.effect.cp > 0


def test_a_stratagem_of_another_faction_is_refused_with_the_reason() -> None:
    code, err = calc("--attacker", "Intercessor Squad", "--target", "meq",
                     "--effect", "A Tempting Trap")
    assert code == 2 and "not a T’AU EMPIRE unit" in str(err)


def test_a_shooting_stratagem_is_refused_in_the_fight_phase() -> None:
    code, err = calc("--attacker", "Strike Team", "--target", "meq", "--phase", "fight",
                     "--effect", "A Tempting Trap")
    assert code == 2 and "shooting phase" in str(err)

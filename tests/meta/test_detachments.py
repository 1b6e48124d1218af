"""``Selection.detachment_rules``: each matchup again under each detachment of the
attacker's faction, the detachment's rules that hold applied (and reproduced by the row's
document), every other rule listed with why."""

from __future__ import annotations

import json
from pathlib import Path

import pyarrow.parquet as pq
import pytest

from tactica.library import load_library
from tactica.meta import Selection, load, run
from tactica.meta.detachments import faction_detachments
from tactica.meta.table import SCHEMA, SELECTION_FILE

from .test_traceable import _check_rows


@pytest.fixture(scope="module")
def beastboss(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, object]:
    lib = load_library()
    folder = tmp_path_factory.mktemp("detachments")
    sel = Selection(attackers=("Beastboss",), targets=("tank", "meq"), editions=("11th",),
                    phases=("shooting",), detachment_rules=True)
    run(sel, folder, lib=lib)
    return folder, lib


def test_da_big_hunt_improves_the_ap_against_a_vehicle(beastboss: tuple[Path, object]
                                                       ) -> None:
    """Hand calculation. The Beastboss shoots its Shoota (the dataset: A2, BS4+, S4, AP0,
    D1; its Dodge Dis gives +1 to hit: 3+) at the tank preset (a Predator Destructor: T10,
    Sv3+, W11): 2 shots x 4/6 hit x 1/6 wound (S4 vs T10: 6+) x 2/6 unsaved (3+ fails
    on 1-2) x 1 damage = 16/216 = 2/27. Da Big Hunt's Da Hunt Is On (a BEAST SNAGGA unit
    attacking a MONSTER or VEHICLE: AP improved by 1) makes the save 4+: 3/6 unsaved,
    24/216 = 1/9. Against MEQ (INFANTRY) it does not hold: the row equals the one
    without it, and says why."""
    folder, _ = beastboss
    sheet = load_library().datasheet("Beastboss", "11th")
    shoota = next(p for w in sheet.weapons for p in w.profiles if p.name == "Shoota")
    assert (str(shoota.A), shoota.skill, shoota.S, shoota.AP, str(shoota.D)) == (
        "2", 4, 4, 0, "1")
    df = load(folder)
    tank = df[df.target == "tank"].set_index("detachment", drop=False)
    base = df[(df.target == "tank") & df.detachment.isna()].iloc[0]
    assert base.expected_damage == pytest.approx(2 / 27, abs=1e-12)
    hunt = tank.loc["Da Big Hunt"]
    assert list(hunt.effects) == ["Da Hunt Is On"]
    assert hunt.expected_damage == pytest.approx(1 / 9, abs=1e-12)
    meq = df[df.target == "meq"]
    meq_base = meq[meq.detachment.isna()].iloc[0]
    meq_hunt = meq[meq.detachment == "Da Big Hunt"].iloc[0]
    assert list(meq_hunt.effects) == []
    assert meq_hunt.expected_damage == meq_base.expected_damage
    assert any(t.startswith("Da Hunt Is On (detachment rule) not applied")
               for t in meq_hunt.detachment_not_applied)


def test_one_row_per_detachment_and_no_rule_dropped(beastboss: tuple[Path, object]) -> None:
    folder, lib = beastboss
    df = load(folder)
    orks = faction_detachments("Orks")
    assert len(orks) > 5
    # per target: the row without detachment rules, then one per detachment
    assert len(df) == 2 * (1 + len(orks))
    assert df.detachment.isna().sum() == 2
    for d in orks:
        for _, row in df[df.detachment == d.name].iterrows():
            for rule in d.rules:  # applied (an effect) or listed with why
                assert rule in list(row.effects) or any(
                    t.startswith(rule) for t in row.detachment_not_applied), (d.name, rule)
    # every row, the detachment's included, is its own calculate call
    assert _check_rows(df, lib) == len(df)  # type: ignore[arg-type]


def test_without_the_option_the_table_is_as_before(tmp_path: Path) -> None:
    """No detachment columns, and the selection written as before the option existed
    (so that a table made then keeps its bytes and a rerun resumes it)."""
    sel = Selection(attackers=("Beastboss",), targets=("meq",), editions=("11th",),
                    phases=("fight",))
    run(sel, tmp_path, lib=load_library())
    assert "detachment_rules" not in json.loads((tmp_path / SELECTION_FILE).read_text())
    (part,) = tmp_path.glob("part-*.parquet")
    schema = pq.read_schema(part)
    assert schema.names == SCHEMA.names
    assert b"tactica.selection.sha256" in schema.metadata

"""The library commands of the CLI: units, sheet, rule, schema, --version.

The first tests run the commands over a small hand-built library (``load_library`` is
replaced); the tests marked "packaged" run them over the real seed pages.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from pydantic import ValidationError
from typer.testing import CliRunner

import tactica.cli.app as cli_app
from tactica.cli import main
from tactica.cli.app import app
from tactica.library import Library, apply_facts, load_reference_facts
from tactica.model import (
    Ability,
    CompositionLine,
    CoreRule,
    Datasheet,
    EscalatingPoints,
    PointsBracket,
    RuleRecord,
    Source,
    Stratagem,
    Weapon,
    WeaponProfile,
)
from tactica.units.scenario import ScenarioDocument

runner = CliRunner()
WIDE = {"COLUMNS": "200"}


def _weapon(
    name: str, range_: int | str, a: str, skill: int, s: int, ap: int, d: str, abilities: list[str]
) -> Weapon:
    from tactica.model import parse_weapon_ability

    profile = WeaponProfile(
        name=name,
        range=range_,
        A=a,
        skill=skill,
        S=s,
        AP=ap,
        D=d,
        abilities=tuple(parse_weapon_ability(x) for x in abilities),
    )
    return Weapon(name=name, profiles=(profile,))


def _library() -> Library:
    primus = Datasheet(
        name="Primus",
        rules="11th",
        faction_keywords=("GENESTEALER CULTS",),
        keywords=("INFANTRY", "CHARACTER", "GREAT DEVOURER", "PRIMUS"),
        weapons=(
            _weapon(
                "Scoped needle pistol",
                18,
                "1",
                2,
                1,
                0,
                "D3",
                ["anti-infantry 2+", "ignores cover", "pistol"],
            ),
            _weapon("Cult bonesword", "Melee", "5", 2, 5, -2, "1", []),
            _weapon(
                "Toxin injector claw",
                "Melee",
                "2",
                2,
                2,
                0,
                "D3",
                ["anti-infantry 2+", "extra attacks"],
            ),
        ),
        abilities=(
            Ability(name="Deep Strike", kind="core"),
            Ability(name="Leader", kind="core"),
            Ability(name="Cult Demagogue", text="you can add 1 to the Hit roll [sic]."),
        ),
        composition=(CompositionLine(model="Primus", min=1, max=1),),
        points=(PointsBracket(models=1, points=70),),
        source=Source(file="000_0f632543a676f819.txt", line=1),
    )
    facts = load_reference_facts().for_unit("Primus")
    assert facts is not None
    tyrannocyte = Datasheet(
        name="Tyrannocyte",
        rules="11th",
        faction_keywords=("TYRANIDS",),
        points=EscalatingPoints.model_validate(
            {
                "tiers": [
                    {"first": 1, "last": 3, "brackets": [{"models": 1, "points": 80}]},
                    {"first": 4, "brackets": [{"models": 1, "points": 90}]},
                ]
            }
        ),
        source=Source(file="004_232e81cc8b38017b.txt", line=1),
    )
    records: list[RuleRecord] = [
        Stratagem(
            name="PRIMED AND READIED",
            cp=2,
            detachment="Host of Ascension",
            category="Battle Tactic",
            when="Your Shooting phase or the Fight phase.",
            effect="a Critical Hit is scored on an unmodified Hit roll of 5+",
            rules="11th",
            source=Source(file="000_0f632543a676f819.txt", line=550),
        ),
        CoreRule(
            title="Deep Strike",
            text='more than 9" horizontally away',
            rules="10th",
            source=Source(file="001_b82711a41152aa42.txt", line=200),
        ),
    ]
    return Library([apply_facts(primus, facts), tyrannocyte], records)


@pytest.fixture
def small(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(cli_app, "load_library", _library)
    # ``tactica rule`` asks the core's look-up (``tactica.lookup``): no index on disk,
    # the configured library is this one
    monkeypatch.setenv("TACTICA_CACHE", "0")
    monkeypatch.setattr("tactica.library.load_library", _library)


def _run(*args: str) -> tuple[int, str, str]:
    result = runner.invoke(app, list(args), env=WIDE)
    return result.exit_code, result.stdout, result.stderr


# --- over a hand-built library ----------------------------------------------------------

PRIMUS_CARD = [
    'M6"',
    "T3",
    "Sv5+",
    "5++",
    "W4",
    "Ld6+",
    "OC1",
    "Scoped needle pistol",
    "Cult bonesword",
    "Toxin injector claw",
    "Anti-Infantry 2+",
    "Ignores Cover",
    "Pistol",
    "Extra Attacks",
]


@pytest.mark.usefixtures("small")
def test_sheet_card() -> None:
    code, out, _ = _run("sheet", "primus")
    assert code == 0
    for text in PRIMUS_CARD:
        assert text in out
    assert 'M6" T3 Sv5+ 5++ W4 Ld6+ OC1' in out
    for text in (
        "CORE: Deep Strike, Leader",
        "Cult Demagogue",
        "[sic]",
        "1 Primus",
        "1 model: 70 pts",
        "INFANTRY, CHARACTER",
        "GENESTEALER CULTS",
        "Can lead: Acolyte Hybrids with Autopistols",
        "reference_facts.md §1",
    ):
        assert text in out


@pytest.mark.usefixtures("small")
def test_sheet_json_and_escalating_points() -> None:
    code, out, _ = _run("sheet", "TYRANNOCYTE", "--json")
    assert code == 0
    data = json.loads(out)
    assert data["name"] == "Tyrannocyte"
    tiers = data["points"]["tiers"]
    assert [(t["first"], t["last"], t["brackets"][0]["points"]) for t in tiers] == [
        (1, 3, 80),
        (4, None, 90),
    ]
    code, out, _ = _run("sheet", "Tyrannocyte")
    assert "units 1st–3rd: 1 model: 80 pts; units 4th+: 1 model: 90 pts" in out


@pytest.mark.usefixtures("small")
def test_sheet_rules_option_falls_back_with_a_note() -> None:
    code, out, _ = _run("sheet", "Primus", "--rules", "10th", "--json")
    assert code == 0
    assert json.loads(out)["notes"][-1] == "no 10th datasheet for Primus; this is the 11th page"


@pytest.mark.usefixtures("small")
def test_unknown_unit_exits_2_with_did_you_mean_on_stderr() -> None:
    code, out, err = _run("sheet", "Primsu")
    assert code == 2
    assert out == ""
    assert "no unit named 'Primsu'; did you mean: Primus?" in err


@pytest.mark.usefixtures("small")
def test_units_table() -> None:
    code, out, _ = _run("units")
    assert code == 0
    for text in (
        "Primus",
        "GENESTEALER CULTS",
        "11th",
        "1 model: 70 pts",
        "000_0f632543a676f819.txt:1",
        "Tyrannocyte",
        "TYRANIDS",
    ):
        assert text in out


@pytest.mark.usefixtures("small")
def test_rule_stratagem() -> None:
    code, out, _ = _run("rule", "primed and readied")
    assert code == 0
    for text in (
        "PRIMED AND READIED",
        "2CP",
        "Host of Ascension",
        "Battle Tactic",
        "WHEN: Your Shooting phase",
        "11th rules",
        "000_0f632543a676f819.txt:550",
    ):
        assert text in out


@pytest.mark.usefixtures("small")
def test_rule_ability_and_version_note() -> None:
    code, out, _ = _run("rule", "Cult Demagogue")
    assert code == 0
    assert "Unit ability of Primus" in out and "[sic]" in out
    code, out, _ = _run("rule", "deep strike", "--rules", "11th")
    assert code == 0
    assert "no 11th version of 'deep strike'; this is the 10th text" in out


@pytest.mark.usefixtures("small")
def test_unknown_rule_exits_2() -> None:
    code, _, err = _run("rule", "Primed and Reddied")
    assert code == 2
    assert "did you mean: PRIMED AND READIED?" in err


# --- schema and version (no library needed) ------------------------------------------


@pytest.mark.parametrize("kind", ["scenario", "result", "datasheet"])
def test_schema_prints_valid_json(kind: str) -> None:
    code, out, _ = _run("schema", kind)
    assert code == 0
    schema = json.loads(out)
    assert "properties" in schema
    assert (
        schema["title"]
        == {"scenario": "Scenario", "result": "Result", "datasheet": "Datasheet"}[kind]
    )


def test_schema_scenario_names_the_contract_fields() -> None:
    _, out, _ = _run("schema", "scenario")
    assert {"rules", "attacker", "target", "effects"} <= set(json.loads(out)["properties"])


EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def test_schema_scenario_admits_what_the_calculator_reads() -> None:
    """Version 2 of the contract: the project's own example (abilities as printed), unit
    references (one leader's name or a list) and named effects validate; a misspelt
    field of a unit reference does not, as the calculator refuses it too."""
    import jsonschema

    _, out, _ = _run("schema", "scenario")
    schema = json.loads(out)
    example = json.loads((EXAMPLES / "neophytes_vs_intercessors.json").read_text("utf-8"))
    jsonschema.validate(example, schema)
    jsonschema.validate({"attacker": {"unit": "Primus", "led_by": "Acolyte Iconward"},
                         "target": {"unit": "meq", "models": 5},
                         "effects": [{"grant": "Lethal Hits"}, "Oath of Moment"]}, schema)
    jsonschema.validate({"attacker": {"unit": "Neophyte Hybrids", "led_by": ["Primus"]},
                         "target": {"unit": "Intercessor Squad"}}, schema)
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate({"attacker": {"unit": "Primus", "ledby": "Primus"},
                             "target": {"unit": "meq"}}, schema)
    with pytest.raises(ValidationError):
        ScenarioDocument.model_validate({"attacker": {"unit": "Primus", "ledby": "Primus"},
                                         "target": {"unit": "meq"}})


def test_schema_all_and_export(tmp_path: Path) -> None:
    _, out, _ = _run("schema")
    assert set(json.loads(out)) == {"scenario", "result", "datasheet"}
    code, out, _ = _run("schema", "result", "--out", str(tmp_path / "schemas"))
    assert code == 0
    written = tmp_path / "schemas" / "result.schema.json"
    assert out.strip() == str(written)
    assert json.loads(written.read_text(encoding="utf-8"))["title"] == "Result"


def test_version() -> None:
    code, out, _ = _run("--version")
    assert code == 0
    assert out.startswith("tactica ") and out.strip() != "tactica"


def test_main_is_the_console_script(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr("sys.argv", ["tactica", "--version"])
    with pytest.raises(SystemExit) as info:
        main()
    assert info.value.code == 0
    assert capsys.readouterr().out.startswith("tactica ")


# --- over the packaged library (reads the seed pages through load_seed_page) ----------


def test_packaged_sheet_primus() -> None:
    code, out, _ = _run("sheet", "Primus")
    assert code == 0
    for text in PRIMUS_CARD:
        assert text in out


def test_packaged_sheet_tyrannocyte_json() -> None:
    code, out, _ = _run("sheet", "Tyrannocyte", "--json")
    assert code == 0
    data = json.loads(out)
    assert data["rules"] == "11th"
    tiers = data["points"]["tiers"]
    assert [(t["first"], t["last"], [b["points"] for b in t["brackets"]]) for t in tiers] == [
        (1, 3, [80]),
        (4, None, [90]),
    ]


def test_packaged_sheet_ten_th_page_carries_its_note() -> None:
    # with the bundled dataset the 11th Death Riders come from it; the seed page is the 10th
    code, out, _ = _run("sheet", "death-riders", "--rules", "10th", "--json")
    assert code == 0
    data = json.loads(out)
    assert data["rules"] == "10th"
    assert "page layout is 10th; stat line from 11th data (reference_facts.md §1)" in data["notes"]


def test_packaged_rule_primed_and_readied() -> None:
    code, out, _ = _run("rule", "Primed and Readied")
    assert code == 0
    # the seed text is written in 10th-edition terms (inventory §E.4, "Ver" column: O)
    for text in ("2CP", "Host of Ascension", "Battle Tactic", "10th", "000_0f632543a676f819.txt"):
        assert text in out


def test_packaged_units_and_unknown_name() -> None:
    code, out, _ = _run("units")
    assert code == 0
    for name in ("Primus", "Banehammer", "Death Riders", "Tyrannocyte", "Neophyte Hybrids"):
        assert name in out
    code, _, err = _run("sheet", "Banehamer")
    assert code == 2
    assert "did you mean: Banehammer" in err

"""One library over several sources (``tactica.sources``), the seed units compared across
the three sources, and the command line over them (``--data``, ``--faction``,
``data report``, ``--version``).

The first part builds libraries from hand-made datasheets; the comparison part reads the
seed pages, the real BSData files (the ``bsdata`` fixture of the real-data suite,
``TACTICA_REAL_DATA``: not in the repository) and the installed wh40kdc dataset. Every
pinned value there was read from the source files: the seed pages
(``src/tactica/data/seeds/00N_*.txt``), the BSData JSON and ``wh40kdc/_bundle.json`` of
the version the ``pinned_dataset`` fixture names (other versions skip those tests).
"""

from __future__ import annotations

import functools
import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any, Literal

import pytest
from typer.testing import CliRunner

from tactica.cli.app import app
from tactica.library import (
    Library,
    configured_sources,
    load_library,
    load_seed_library,
)
from tactica.loaders.bsdata import load_bsdata
from tactica.loaders.report import LoadReport, UnitReport
from tactica.loaders.wh40kdc import (
    ATTRIBUTION,
    INSTALL_HINT,
    embedded_dataset,
    installed_version,
)
from tactica.model import (
    CompositionLine,
    Datasheet,
    EscalatingPoints,
    ModelProfile,
    PointsBracket,
    PointsTier,
    Source,
    Weapon,
    WeaponProfile,
)
from tactica.names import UnknownNameError
from tactica.sources import (
    REASONS,
    RejectedUnitError,
    SourcedLibrary,
    build_library,
    compare,
)

runner = CliRunner()
FIXTURE_CATALOGUE = Path(__file__).resolve().parent / "fixtures" / "bsdata" / "Xenos - Testers.json"
#: The installed dataset's source label ("wh40kdc 1.4.5").
DATASET = f"wh40kdc {installed_version()}"


@pytest.fixture(scope="session")
def gsc(bsdata: Path) -> Path:
    """The real BSData Genestealer Cults catalogue (real-data suite)."""
    return bsdata / "Genestealer Cults.json"
WIDE = {"COLUMNS": "250"}


# --- hand-made sources ---------------------------------------------------------------


class StaticSource:
    """A source holding ready datasheets (the protocol ``SourcedLibrary`` asks for)."""

    def __init__(self, kind: Literal["catalogue", "dataset"], label: str,
                 sheets: Sequence[Datasheet], faction: str,
                 rejected: dict[str, str] | None = None) -> None:
        self.kind = kind
        self.label = label
        self.sheets = {s.name.casefold(): s for s in sheets}
        self.faction_label = faction
        self.rejected = rejected or {}
        self.asked: list[str] = []

    def names(self) -> tuple[str, ...]:
        return (*(s.name for s in self.sheets.values()), *self.rejected)

    def aliases(self) -> dict[str, str]:
        return {f"{s.name} ({self.faction_label})": s.name for s in self.sheets.values()}

    def __contains__(self, name: object) -> bool:
        return isinstance(name, str) and (name.casefold() in self.sheets
                                          or name in self.rejected)

    def datasheet(self, name: str) -> Datasheet | None:
        self.asked.append(name)
        return self.sheets.get(name.casefold())

    def unit_report(self, name: str) -> UnitReport:
        if name in self.rejected:
            from tactica.loaders.report import Issue

            return UnitReport(unit=name, status="rejected",
                              issues=(Issue(kind="rejected", record="unit",
                                            message=self.rejected[name]),))
        if name.casefold() not in self.sheets:
            raise UnknownNameError("unit", name)
        return UnitReport(unit=name, status="loaded")

    def factions_of(self, name: str) -> tuple[str, ...]:
        sheet = self.sheets.get(name.casefold())
        if name in self.rejected or (
            sheet is not None and self.faction_label.upper() in sheet.faction_keywords
        ):
            return (self.faction_label,)
        return ()

    def factions(self) -> tuple[str, ...]:
        return (self.faction_label,)

    def report(self) -> LoadReport:
        return LoadReport(source=self.label,
                          units=tuple(self.unit_report(n) for n in self.names()))


def _sheet(name: str, rules: Literal["10th", "11th"], points: int, *, T: int = 3,
           source: str = "x", leader_of: tuple[str, ...] = (), sv: int = 5,
           factions: tuple[str, ...] = ("GENESTEALER CULTS",)) -> Datasheet:
    return Datasheet(
        name=name, rules=rules, faction_keywords=factions, keywords=("INFANTRY",),
        models=(ModelProfile(name=name, M=6, T=T, Sv=sv, W=4, Ld=6, OC=1),),
        weapons=(Weapon(name="Claw", profiles=(WeaponProfile(
            name="Claw", range="Melee", A="2", skill=2, S=5, AP=-1, D="1"),)),),
        composition=(CompositionLine(model=name, min=1, max=1),),
        points=(PointsBracket(models=1, points=points),),
        leader_of=leader_of, source=Source(file=source),
    )


def _library() -> tuple[SourcedLibrary, StaticSource, StaticSource]:
    seeds = Library([_sheet("Primus", "11th", 70, source="000.txt"),
                     _sheet("Death Riders", "10th", 70, source="002.txt",
                            factions=("ASTRA MILITARUM",))], presets=())
    catalogue = StaticSource("catalogue", "BSData gsc.json", [
        _sheet("Primus", "11th", 90, T=4, source="gsc.json"),
        _sheet("Neophyte Hybrids", "11th", 70, source="gsc.json"),
    ], "Genestealer Cults", rejected={"Banehammer": "link target not loaded"})
    dataset = StaticSource("dataset", "wh40kdc test", [
        _sheet("Primus", "11th", 70, source="wh"),
        _sheet("Neophyte Hybrids", "11th", 65, source="wh", leader_of=("Nobody",)),
        _sheet("Death Riders", "11th", 60, source="wh", factions=("ASTRA MILITARUM",)),
        _sheet("Magus", "11th", 50, source="wh"),
    ], "Genestealer Cults")
    return SourcedLibrary(seeds, [catalogue], dataset, presets=()), catalogue, dataset


def test_names_in_precedence_order_and_lazy() -> None:
    lib, catalogue, dataset = _library()
    assert lib.names() == ("Primus", "Death Riders", "Neophyte Hybrids", "Banehammer", "Magus")
    assert catalogue.asked == [] and dataset.asked == []  # nothing converted yet
    assert lib.datasheet("magus").name == "Magus"
    assert catalogue.asked == [] and dataset.asked == ["Magus"]
    assert lib.datasheet("Magus (Genestealer Cults)").name == "Magus"  # a source's alias


def test_seed_page_wins_its_own_version_and_the_disagreement_is_shown() -> None:
    lib, _, _ = _library()
    primus = lib.datasheet("Primus")
    assert primus.source.file == "000.txt"
    assert primus.points == (PointsBracket(models=1, points=70),)
    decisions = {d.field: d for d in lib.decisions("Primus")}
    assert set(decisions) == {"points", "Primus T"}
    points = decisions["points"]
    assert (points.used, points.value, points.others, points.reason) == (
        "seed pages", "1 model: 70 pts", (("BSData gsc.json", "1 model: 90 pts"),),
        REASONS["seed"])
    assert str(decisions["Primus T"]) == ("Primus T: 3 from seed pages (seed page for its own "
                                         "rules version first); BSData gsc.json: 4")
    assert "11th datasheet from seed pages; also in BSData gsc.json, wh40kdc test" in primus.notes
    assert f"sources differ: {points}" in primus.notes


def test_catalogue_before_dataset_and_gaps_filled_from_the_next_source() -> None:
    lib, _, _ = _library()
    sheet = lib.datasheet("Neophyte Hybrids")
    assert sheet.source.file == "gsc.json"
    assert sheet.points == (PointsBracket(models=1, points=70),)
    (decision,) = lib.decisions("Neophyte Hybrids")
    assert (decision.field, decision.reason, decision.others) == (
        "points", REASONS["catalogue"], (("wh40kdc test", "1 model: 65 pts"),))
    assert sheet.leader_of == ("Nobody",)
    assert "leader of: from wh40kdc test (BSData gsc.json has none)" in sheet.notes


def test_ten_th_seed_page_stays_the_10th_datasheet() -> None:
    lib, _, _ = _library()
    assert [d.rules for d in lib.datasheet_versions("Death Riders")] == ["11th", "10th"]
    eleventh = lib.datasheet("death riders")
    assert (eleventh.rules, eleventh.source.file) == ("11th", "wh")
    assert lib.decisions("Death Riders") == ()  # the 10th page is not compared
    assert "the 10th seed page (002.txt) is that version's datasheet; not compared" in (
        eleventh.notes)
    assert lib.datasheet("Death Riders", "10th").source.file == "002.txt"


def test_a_unit_every_source_rejected() -> None:
    lib, _, _ = _library()
    with pytest.raises(RejectedUnitError) as info:
        lib.datasheet("Banehammer")
    assert str(info.value) == ("no datasheet for 'Banehammer': BSData gsc.json rejected it "
                               "(unit: link target not loaded)")
    assert isinstance(info.value, UnknownNameError)


def test_unknown_unit_and_faction_suggest() -> None:
    lib, _, _ = _library()
    with pytest.raises(UnknownNameError, match="did you mean: Magus"):
        lib.datasheet("Magsu")
    with pytest.raises(UnknownNameError, match="no faction named 'Genestealers'"):
        lib.faction_names("Genestealers")


def test_faction_listing_uses_each_sources_filing() -> None:
    lib, _, _ = _library()
    assert lib.faction_names("genestealer cults") == (
        "Primus", "Neophyte Hybrids", "Banehammer", "Magus")
    assert [d.name for d in lib.faction_datasheets("Genestealer Cults")] == [
        "Primus", "Neophyte Hybrids", "Magus"]  # Banehammer: rejected, no datasheet


def test_reports_per_source() -> None:
    lib, _, _ = _library()
    assert [(r.source, r.counts()) for r in lib.reports()] == [
        ("seed pages", {"loaded": 2, "repaired": 0, "rejected": 0}),
        ("BSData gsc.json", {"loaded": 2, "repaired": 0, "rejected": 1}),
        ("wh40kdc test", {"loaded": 4, "repaired": 0, "rejected": 0}),
    ]


def test_compare_lists_each_kind_of_difference() -> None:
    a = _sheet("Unit", "11th", 70)
    b = a.model_copy(update={
        "points": EscalatingPoints(tiers=(
            PointsTier(first=1, last=1, brackets=(PointsBracket(models=1, points=80),)),
            PointsTier(first=2, brackets=(PointsBracket(models=1, points=90),)))),
        "keywords": ("INFANTRY", "FLY"),
        "weapons": (),
    })
    assert [str(d) for d in compare(a, b)] == [
        "points: 1 model: 70 pts | unit 1: 1 model: 80 pts; units 2+: 1 model: 90 pts",
        "keywords: - | FLY",
    ]  # no weapons on one side is a gap, not a difference


def test_build_library_without_the_dataset(monkeypatch: pytest.MonkeyPatch) -> None:
    from tactica.loaders import wh40kdc

    def missing() -> None:
        raise wh40kdc.DatasetMissingError()

    monkeypatch.setattr(wh40kdc, "embedded_dataset", missing)
    monkeypatch.setattr(wh40kdc, "installed_version", lambda: None)
    lib = build_library([], dataset=True, seeds=Library([_sheet("Primus", "11th", 70)],
                                                        presets=()))
    assert lib.missing == (INSTALL_HINT,)
    assert lib.names() == ("Primus",)


# --- the seed units across seed pages, BSData and wh40kdc -----------------------------

#: Points as each source gives them (seed pages: the "| N models | P |" rows).
POINTS: dict[str, dict[str, Any]] = {
    "Primus": {"seed": {1: 70}, "bsdata": {1: 70}, "wh40kdc": {1: 70}},
    "Tyrannocyte": {"seed": [(1, 3, {1: 80}), (4, None, {1: 90})], "bsdata": {1: 90},
                    "wh40kdc": [(1, 3, {1: 80}), (4, None, {1: 90})]},
    "Banehammer": {"seed": {1: 450}, "bsdata": None,
                   "wh40kdc": [(1, 1, {1: 385}), (2, None, {1: 420})]},
    "Death Riders": {"seed": {5: 70, 10: 140}, "bsdata": None,
                     "wh40kdc": {5: 60, **{n: 110 for n in range(6, 11)}}},
    "Neophyte Hybrids": {"seed": {10: 90, 20: 180},
                         "bsdata": {10: 70, **{n: 145 for n in range(11, 21)}},
                         "wh40kdc": {10: 70, **{n: 135 for n in range(11, 21)}}},
}

#: What ``compare`` finds between two sources' datasheets of a seed unit.
DIFFERENCES: dict[tuple[str, str, str], list[str]] = {
    ("Primus", "seed", "bsdata"): [],
    ("Primus", "seed", "wh40kdc"): [],
    ("Primus", "bsdata", "wh40kdc"): [],
    ("Tyrannocyte", "seed", "bsdata"): [
        "points: units 1-3: 1 model: 80 pts; units 4+: 1 model: 90 pts | 1 model: 90 pts",
        "keywords: FRAME | -",
    ],
    ("Tyrannocyte", "seed", "wh40kdc"): ["keywords: FRAME | -", "abilities: Synapse | -"],
    ("Tyrannocyte", "bsdata", "wh40kdc"): [
        "points: 1 model: 90 pts | units 1-3: 1 model: 80 pts; units 4+: 1 model: 90 pts",
        "abilities: Synapse | -",
    ],
    ("Banehammer", "seed", "wh40kdc"): [
        "points: 1 model: 450 pts | unit 1: 1 model: 385 pts; units 2+: 1 model: 420 pts",
        "abilities: Firing Deck 12 | Firing Deck 6",
    ],
    ("Death Riders", "seed", "wh40kdc"): [
        "points: 5 models: 70 pts, 10 models: 140 pts | 5 models: 60 pts, "
        "6-10 models: 110 pts",
        "weapon Steed's savage claws: Melee A2 WS4+ S4 AP-1 D:1 [Extra Attacks] | -",
        "weapon Savage claws: - | Melee A2 WS4+ S4 AP-1 D:1 [Extra Attacks]",
    ],
    ("Neophyte Hybrids", "seed", "bsdata"): [
        "points: 10 models: 90 pts, 20 models: 180 pts | 10 models: 70 pts, "
        "11-20 models: 145 pts",
        "weapon Leader pistol: 12\" A1 BS4+ S4 AP0 D:1 [Pistol] | -",
        "weapon Mining laser: 24\" A1 BS5+ S12 AP-3 D:D6+1 [Heavy] | "
        "24\" A1 BS5+ S10 AP-3 D:D6+1 [Heavy]",
        "weapon Seismic cannon: 24\" A4 BS5+ S6 AP-1 D:D3 [Heavy, Rapid Fire 2] | "
        "24\" A2 BS5+ S6 AP-1 D:D3 [Heavy, Rapid Fire 2]",
        "weapon Anointed pistol: - | 12\" A1 BS4+ S4 AP0 D:1 [Pistol]",
        "keywords: - | NEOPHYTE HYBRIDS, GREAT DEVOURER",
    ],
    ("Neophyte Hybrids", "seed", "wh40kdc"): [
        "points: 10 models: 90 pts, 20 models: 180 pts | 10 models: 70 pts, "
        "11-20 models: 135 pts",
        "weapon Leader pistol: 12\" A1 BS4+ S4 AP0 D:1 [Pistol] | -",
        "weapon Mining laser: 24\" A1 BS5+ S12 AP-3 D:D6+1 [Heavy] | "
        "24\" A1 BS5+ S10 AP-3 D:D6+1 [Heavy]",
        "weapon Seismic cannon: 24\" A4 BS5+ S6 AP-1 D:D3 [Heavy, Rapid Fire 2] | "
        "24\" A2 BS5+ S6 AP-1 D:D3 [Heavy, Rapid Fire 2]",
        "weapon Anointed pistol: - | 12\" A1 BS4+ S4 AP0 D:1 [Pistol]",
        "keywords: - | GREAT DEVOURER, NEOPHYTE HYBRIDS",
    ],
    ("Neophyte Hybrids", "bsdata", "wh40kdc"): [
        "points: 10 models: 70 pts, 11-20 models: 145 pts | 10 models: 70 pts, "
        "11-20 models: 135 pts",
        "abilities: Cult Ambush | -",
    ],
}

#: Stat lines (M T Sv InSv W Ld OC), the same in all three sources.
STATS = {
    "Primus": ['M6" T3 Sv5+ 5++ W4 Ld6+ OC1'],
    "Tyrannocyte": ['M8" T9 Sv3+ W10 Ld8+ OC2'],
    "Banehammer": ['M12" T13 Sv2+ W24 Ld7+ OC8'],
    "Death Riders": ['M10" T4 Sv4+ W2 Ld7+ OC1'] * 2,
    "Neophyte Hybrids": ['M6" T3 Sv5+ W1 Ld7+ OC2'] * 2,
}


def _sheets(name: str, gsc: Path) -> dict[str, Datasheet | None]:
    bsdata = load_bsdata([gsc])
    return {
        "seed": load_seed_library().datasheet(name),
        "bsdata": bsdata.datasheet(name) if name in bsdata else None,
        "wh40kdc": embedded_dataset().datasheet(name),
    }


def _points(sheet: Datasheet | None) -> Any:
    if sheet is None:
        return None
    if isinstance(sheet.points, EscalatingPoints):
        return [(t.first, t.last, {b.models: b.points for b in t.brackets})
                for t in sheet.points.tiers]
    return {b.models: b.points for b in sheet.points}


@pytest.mark.parametrize("name", list(POINTS))
def test_seed_unit_points_and_stats_in_each_source(name: str, gsc: Path,
                                                  pinned_dataset: str) -> None:
    sheets = _sheets(name, gsc)
    assert {k: _points(v) for k, v in sheets.items()} == POINTS[name]
    for sheet in sheets.values():
        if sheet is not None:
            assert [m.statline() for m in sheet.models] == STATS[name]


@pytest.mark.parametrize(("name", "first", "second"), list(DIFFERENCES))
def test_seed_unit_differences_between_sources(name: str, first: str, second: str,
                                              gsc: Path, pinned_dataset: str) -> None:
    sheets = _sheets(name, gsc)
    a, b = sheets[first], sheets[second]
    assert a is not None and b is not None
    assert [str(d) for d in compare(a, b)] == DIFFERENCES[(name, first, second)]


def test_seed_pages_are_the_versions_they_are() -> None:
    rules = {d.name: d.rules for d in load_seed_library().datasheets()}
    assert rules == {"Primus": "11th", "Banehammer": "10th", "Death Riders": "10th",
                     "Neophyte Hybrids": "10th", "Tyrannocyte": "11th"}


def test_brood_brothers_are_not_in_the_real_bsdata_copy(gsc: Path) -> None:
    report = load_bsdata([gsc]).report()
    for name in ("Banehammer", "Death Riders"):
        (reason,) = report.unit(name).reasons
        assert reason.endswith("(not loaded: 'Imperium - Astra Militarum - Library')")


def test_genestealer_cults_units_per_source(gsc: Path, pinned_dataset: str) -> None:
    bsdata = load_bsdata([gsc])
    ds = embedded_dataset()
    in_bsdata = {n for n in bsdata.names()
                 if (s := bsdata.datasheet(n)) and "GENESTEALER CULTS" in s.faction_keywords}
    in_wh40kdc = {n for n in ds.names() if ds.factions_of(n) == ("Genestealer Cults",)}
    assert len(in_bsdata) == len(in_wh40kdc) == 28
    assert in_bsdata - in_wh40kdc == {"Tectonic Fragdrill", "Cult Insurrectionist [Crucible]",
                                      "Cult Guerrilla [Crucible]",
                                      "Voice of the Patriarch [Crucible]"}
    assert in_wh40kdc - in_bsdata == {"Claw of Ascension Achilles Ridgerunner",
                                      "Claw of Ascension Atalan Jackals",
                                      "Claw of Ascension Hybrid Metamorphs", "Shanus Daskovian"}


# --- the merged library over the real sources -------------------------------------------


@pytest.fixture(scope="module")
def merged(gsc: Path) -> Library:
    return load_library([gsc], dataset=True)


def test_merged_library_is_cached_and_separate_from_the_seed_library(
        merged: Library, gsc: Path) -> None:
    assert merged is load_library([gsc], dataset=True)
    assert load_library(dataset=False) is load_seed_library()


def test_merged_tyrannocyte_keeps_the_seed_points_and_lists_the_others(merged: Library) -> None:
    assert isinstance(merged, SourcedLibrary)
    sheet = merged.datasheet("Tyrannocyte")
    assert sheet.source.file == "004_232e81cc8b38017b.txt"
    points = next(d for d in merged.decisions("Tyrannocyte") if d.field == "points")
    assert points.used == "seed pages"
    assert points.others == (("BSData Genestealer Cults.json", "1 model: 90 pts"),)


def test_merged_neophytes_11th_from_the_catalogue_10th_from_the_page(
        merged: Library, pinned_dataset: str) -> None:
    assert isinstance(merged, SourcedLibrary)
    eleventh = merged.datasheet("Neophyte Hybrids")
    assert eleventh.source.file == "Genestealer Cults.json"
    (points,) = [d for d in merged.decisions("Neophyte Hybrids") if d.field == "points"]
    assert points.others == ((DATASET, "10 models: 70 pts, 11-20 models: 135 pts"),)
    assert merged.datasheet("Neophyte Hybrids", "10th").source.file == (
        "003_b9ee116837e603c7.txt")


def test_merged_death_riders_say_why_bsdata_has_none(merged: Library) -> None:
    sheet = merged.datasheet("Death Riders")
    assert sheet.source.file == DATASET
    assert any(n.startswith("not from BSData Genestealer Cults.json: entry: link target")
               for n in sheet.notes)


def test_target_from_the_bundled_dataset(merged: Library, pinned_dataset: str) -> None:
    target = merged.target("Custodian Guard")
    assert [(g.count, g.T, g.Sv, g.invuln, g.W) for g in target.models] == [(4, 6, 2, 4, 3)]


# --- the command line ------------------------------------------------------------------


def _run(*args: str) -> tuple[int, str, str]:
    result = runner.invoke(app, list(args), env=WIDE)
    return result.exit_code, result.stdout, result.stderr


def test_version_credits_40kdc_data() -> None:
    code, out, _ = _run("--version")
    assert code == 0
    lines = out.splitlines()
    assert lines[0].startswith("tactica ")
    assert lines[1] == f"bundled dataset: {DATASET}. {ATTRIBUTION}"
    assert "Powered by 40kdc-data" in out and "https://40kdc.alpacasoft.dev" in out


def test_calc_from_the_bundled_dataset(pinned_dataset: str) -> None:
    code, out, err = _run("calc", "--attacker", "Acolyte Hybrids with Hand Flamers",
                          "--target", "Custodian Guard", "--weapon", "Hand flamer", "--json")
    assert code == 0, err
    result = json.loads(out)
    # 5 models x D6 (Torrent: every attack hits); S3 vs T6 wounds on 6+, and the unit's
    # own Industrialised Destruction (the dataset: re-roll wound rolls of 1, always):
    # 1/6 + 1/6 x 1/6 = 7/36 per hit
    assert result["attacks"]["mean"] == pytest.approx(17.5)
    assert result["hits"]["mean"] == pytest.approx(17.5)
    assert result["wounds"]["mean"] == pytest.approx(17.5 * 7 / 36)
    assert any(n.startswith("Industrialised Destruction") for n in result["notes"])


def test_sheet_magus_and_units_by_faction(gsc: Path) -> None:
    code, out, _ = _run("sheet", "Magus")
    assert code == 0
    assert f"11th datasheet from {DATASET}" in out
    code, out, _ = _run("--data", str(gsc), "units", "--faction", "genestealer cults")
    assert code == 0
    for name in ("Primus", "Magus", "Tectonic Fragdrill", "Shanus Daskovian"):
        assert name in out
    assert "Banehammer" not in out  # rejected by BSData, Astra Militarum in the others
    code, _, err = _run("units", "--faction", "Genestealer Cult")
    assert code == 2 and "did you mean: Genestealer Cults?" in err


def test_sources_do_not_leak_between_commands() -> None:
    before = configured_sources()
    _run("--no-dataset", "--data", str(FIXTURE_CATALOGUE), "units", "--faction", "Testers")
    assert configured_sources() == before


def test_data_report(gsc: Path, pinned_dataset: str) -> None:
    code, out, _ = _run("--data", str(gsc), "data", "report")
    assert code == 0
    rows = {line.split()[0]: line.split()[-4:] for line in out.splitlines()
            if line.strip().startswith(("seed", "BSData", "wh40kdc"))
            and all(cell.isdigit() for cell in line.split()[-4:])}
    assert rows == {"seed": ["5", "5", "0", "0"], "BSData": ["175", "66", "1", "108"],
                    "wh40kdc": ["1096", "1066", "30", "0"]}  # 20 mended (issue 23)
    assert "links 'Imperium - Astra Militarum - Library'" in out
    code, out, _ = _run("--no-dataset", "data", "report", "--details")
    assert code == 0 and "wh40kdc" not in out
    code, out, _ = _run("data", "report", "--json")
    reports = json.loads(out)
    assert [r["source"] for r in reports] == ["seed pages", DATASET]


def test_missing_dataset_is_explained(monkeypatch: pytest.MonkeyPatch) -> None:
    import tactica.library as library
    from tactica.loaders import wh40kdc

    def missing() -> None:
        raise wh40kdc.DatasetMissingError()

    monkeypatch.setattr(wh40kdc, "embedded_dataset", missing)
    monkeypatch.setattr(wh40kdc, "installed_version", lambda: None)
    # a library cache of this test's own (the run's, put back after it, keeps the library
    # it has loaded: clearing it would load that again)
    monkeypatch.setattr(library, "_load_sourced_library",
                        functools.cache(library._load_sourced_library.__wrapped__))
    code, _, err = _run("sheet", "Magus")
    assert code == 2
    assert f"note: {INSTALL_HINT}" in err


def test_bad_data_path_is_a_usage_error(tmp_path: Path) -> None:
    code, _, err = _run("--data", str(tmp_path / "absent.json"), "units")
    assert code == 2 and "no such file or folder" in err
    notes = tmp_path / "notes.json"
    notes.write_text("not json", encoding="utf-8")
    code, _, err = _run("--data", str(notes), "units")
    assert code == 2 and "not a readable JSON file" in err

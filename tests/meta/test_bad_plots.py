"""Generated arguments for ``tactica meta plot`` (issue 47): each kind of picture, files
of every suffix and place (none, .pdf, a folder, a folder that does not exist, a lone
surrogate), tables present, empty or missing, metrics and filters good and bad, ``--top``
from 0 to a billion. Each run is an answer (the picture written) or a refusal of one line
(``answered``), never a traceback.

The default run checks a sample; the ``_at_volume`` twin (``-m slow``) the full count.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from answered import answered
from tactica.cli import commands
from tactica.meta import Selection, run
from volume import sampled

KIND = st.sampled_from(["bars", "heatmap", "bars", "heatmap", "pie", ""])
FILE = st.sampled_from(["p.png", "p.svg", "p.png", "p.svg", "p.pdf", "p", "DIR",
                        "FILE/p.png", "\ud800.png", ".png", "p.PNG"])
FOLDER = st.sampled_from(["TABLE", "TABLE", "TABLE", "/nonexistent", "EMPTY"])
#: the seed library has no points: only the damage and models metrics draw (often drawn)
METRIC = st.sampled_from(["expected_damage", "expected_damage", "models_destroyed",
                          "expected_damage", None, "points_per_100", "points_destroyed",
                          "p_destroyed", "attacker", "nope", "", "\ud800"])
NAMES = st.one_of(st.just([]), st.just([]), st.lists(st.sampled_from(
    ["meq", "MEQ", "geq", "nope", "", "\ud800", "Genestealer Cults", "Orks"]), max_size=2))
PHASE = st.sampled_from([None, "shooting", "fight", "charge"])
TOP = st.sampled_from([None, "0", "1", "5", "1000000000", "-3", "x"])

GENERATED = settings(derandomize=True, max_examples=250, deadline=None,
                     suppress_health_check=[HealthCheck.too_slow,
                                            HealthCheck.function_scoped_fixture])
runner = CliRunner()


@pytest.fixture(scope="module")
def folders(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    """A small table (the seed library's Primus and Neophytes against meq and geq, both
    phases; no points in the seed library, so points_per_100 is empty) and an empty
    folder."""
    table = tmp_path_factory.mktemp("meta") / "t"
    run(Selection(attackers=("Primus", "Neophyte Hybrids"), targets=("meq", "geq"),
                  dataset=False), table)
    return {"TABLE": str(table), "EMPTY": str(tmp_path_factory.mktemp("empty")),
            "/nonexistent": "/nonexistent", "DIR": str(tmp_path_factory.mktemp("dir"))}


def _args(folders: dict[str, str], out: Path, kind: str, file: str, folder: str,
          metric: str | None, targets: list[str], factions: list[str], phase: str | None,
          top: str | None) -> list[str]:
    picture = folders["DIR"] if file == "DIR" else str(out / file)
    if file.startswith("FILE/"):  # a folder that cannot be made: a file has its name
        (out / "FILE").write_text("x", encoding="utf-8")
    args = ["meta", "plot", kind, "--file", picture, "-o", folders[folder]]
    args += [] if metric is None else ["--metric", metric]
    for t in targets:
        args += ["--target", t]
    for f in factions:
        args += ["--faction", f]
    args += [] if phase is None else ["--phase", phase]
    return args + ([] if top is None else ["--top", top])


@GENERATED
@given(KIND, FILE, FOLDER, METRIC, NAMES, NAMES, PHASE, TOP)
def test_meta_plot_answers_or_refuses_in_one_line(
        folders: dict[str, str], tmp_path: Path, kind: str, file: str, folder: str,
        metric: str | None, targets: list[str], factions: list[str], phase: str | None,
        top: str | None) -> None:
    args = _args(folders, tmp_path, kind, file, folder, metric, targets, factions, phase,
                 top)
    outcome = answered(runner.invoke(commands.app, args))
    if outcome == "answer":
        written = Path(args[4])
        assert written.is_file() and written.stat().st_size > 0, args
    event(f"meta plot: {outcome}")


def test_the_generated_plots_reach_both_outcomes(folders: dict[str, str],
                                                 tmp_path: Path) -> None:
    for kind in ("bars", "heatmap"):  # the seed library has no points: damage drawn
        ok = _args(folders, tmp_path, kind, "p.svg", "TABLE", "expected_damage", [], [],
                   None, None)
        assert answered(runner.invoke(commands.app, ok)) == "answer"
    for bad in (_args(folders, tmp_path, "bars", "p.pdf", "TABLE", None, [], [], None, None),
                _args(folders, tmp_path, "heatmap", "p.png", "EMPTY", None, [], [], None,
                      None),
                _args(folders, tmp_path, "bars", "p.png", "TABLE", "nope", [], [], None,
                      None)):
        assert answered(runner.invoke(commands.app, bad)) == "refusal", bad


#: Arguments the generator met, kept (issue 47): a billion bars asked for made the
#: figure's height of them (a traceback from matplotlib); a file in a folder that cannot
#: be made ended in an OSError.
KEPT = [("bars", "p.png", "1000000000", "answer"), ("heatmap", "p.svg", "1000000000", "answer"),
        ("bars", "FILE/p.png", None, "refusal")]


@pytest.mark.parametrize(("kind", "file", "top", "outcome"), KEPT)
def test_the_kept_plots(folders: dict[str, str], tmp_path: Path, kind: str, file: str,
                        top: str | None, outcome: str) -> None:
    args = _args(folders, tmp_path, kind, file, "TABLE", "expected_damage", [], [], None,
                 top)
    assert answered(runner.invoke(commands.app, args)) == outcome


# --- the default run's sample (tests/volume.py) ---
(test_meta_plot_answers_or_refuses_in_one_line,
 test_meta_plot_answers_or_refuses_in_one_line_at_volume) = sampled(
    test_meta_plot_answers_or_refuses_in_one_line, 15)

"""The figures are a pure function of one record (issue 42): ``figures_exact`` computes
a matchup's three figures from its ``FiguresInputs`` alone (the lines made again from
their numbers, the groups without names, a constant scenario), so the record is the
memo's key and cannot forget a part the figures read. Checked here: a line made again
from its numbers has the same numbers (the round trip the record relies on), on real
library lines; two scenarios that differ only in what the record leaves out share one
calculation; and a refusal is the scenario's own, word for word (its lines' names)."""

from __future__ import annotations

from typing import Any

import pytest

from tactica.combat import calculate
from tactica.combat.batch import figures_each
from tactica.combat.contract.scenario import Scenario, ScenarioError
from tactica.combat.exact.engine import _prepare
from tactica.combat.exact.figures import FiguresInputs, figures_exact
from tactica.combat.exact.profile import ResolvedWeapon

from .library_sample import library_sample
from .test_size_refusals import OVERSIZE


def test_a_line_made_from_its_numbers_has_the_same_numbers() -> None:
    """Every library line of a sample against the presets: ``from_numbers`` of its
    numbers gives them back, array for array (``tobytes``)."""
    attackers, targets = library_sample(40)
    seen = 0
    for phase, attacker in attackers:
        for target in targets[:3]:
            s = Scenario.model_validate({"attacker": attacker, "target": target,
                                         "phase": phase})
            for w in _prepare(s).weapons:
                again = ResolvedWeapon.from_numbers(w.numbers, "again")
                assert again.numbers == w.numbers
                seen += 1
    assert seen > 50


def _s(name: str, keywords: list[str], **more: Any) -> Scenario:
    return Scenario.model_validate({
        "attacker": {"name": name, "weapons": [{"name": name, "count": 5, "A": "2",
                                                "skill": 3, "S": 5, "AP": -1, "D": "2"}]},
        "target": {"name": name, "keywords": keywords,
                   "models": [{"name": name, "count": 5, "T": 4, "Sv": 3, "W": 2}]},
        **more})


def test_what_the_record_leaves_out_is_not_read() -> None:
    """Names and the target's keywords (read by no figure) give one record and one
    calculation; a Feel No Pain effect (read) another."""
    a, b = _s("Alpha", []), _s("Beta", ["INFANTRY"])
    fnp = _s("Alpha", [], effects=[{"fnp": 5}])
    records = [FiguresInputs.of(_prepare(x)) for x in (a, b, fnp)]
    assert records[0] == records[1] != records[2]
    memo: dict[Any, Any] = {}
    got = figures_each([a, b, fnp], memo)
    assert sum(1 for k in memo if k[0] == "figures") == 2
    assert got[0] == got[1] != got[2]
    assert got[2].damage < got[0].damage  # type: ignore[union-attr]


@pytest.mark.parametrize("kind", ["a line's totals", "held-back criticals"])
def test_a_refused_matchup_gives_the_documents_refusal_word_for_word(kind: str) -> None:
    """The figures are computed from lines without their names; a refusal still names
    the scenario's own lines (the document's error, word for word)."""
    s = Scenario.model_validate(OVERSIZE[kind][0])
    with pytest.raises(ScenarioError) as document:
        calculate(s)
    with pytest.raises(ScenarioError) as figures:
        figures_exact(s)
    assert str(figures.value) == str(document.value)
    assert [str(x) for x in figures_each([s])] == [str(document.value)]


def test_a_part_left_out_of_the_record_changes_the_figures(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The figures read the record alone: a record that forgot the effects (mortal
    wounds before the attacks here, 06.02) gives other figures than the document's,
    where a key written beside the computation would have given the right ones (and
    shared them wrongly)."""
    s = _s("Alpha", [], effects=[{"mortal_wounds": "3"}])
    document = calculate(s)
    right = figures_exact(s)
    assert right == (document.damage.mean, document.models_destroyed.mean,
                     document.p_unit_destroyed)
    real = FiguresInputs.of

    def forgetful(cls: type[FiguresInputs], prep: Any) -> FiguresInputs:
        return real(prep)._replace(effects=())

    monkeypatch.setattr(FiguresInputs, "of", classmethod(forgetful))
    assert figures_exact(s)[0] < right[0]  # no mortal wounds: less damage

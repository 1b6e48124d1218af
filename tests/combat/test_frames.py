"""Results as DataFrames and as a notebook's HTML: the numbers are the result's own, the
columns pmfs that sum to 1, a refusal keeps its row, and text from the scenario is
escaped in the HTML."""

from __future__ import annotations

import math

import pytest

import tactica
from tactica.combat import ScenarioError

TWO_GUNS = {"weapons": [
    {"name": "Bolt <rifle>", "count": 5, "A": "2", "skill": 3, "S": 4, "AP": -1, "D": "1"},
    {"name": "Plasma & co", "count": 1, "A": "1", "skill": 3, "S": 8, "AP": -3, "D": "2"}]}
MEQ = {"models": [{"count": 5, "T": 4, "Sv": 3, "W": 2}]}


def test_the_frame_is_the_result_s_pmfs() -> None:
    r = tactica.calculate({"attacker": TWO_GUNS, "target": MEQ})
    df = r.to_frame()
    for stage in df.columns:
        pmf = getattr(r, stage).pmf
        assert df[stage].tolist()[:len(pmf)] == list(pmf)
        assert not df[stage].iloc[len(pmf):].any()
        assert math.isclose(float(df[stage].sum()), 1.0, abs_tol=1e-12)
        # the column's mean is the result's mean (the frame's own arithmetic)
        assert math.isclose(float((df.index * df[stage]).sum()), getattr(r, stage).mean,
                            abs_tol=1e-12)
    # exact: 5 x 2 + 1 attacks, for sure: products and sums of 0.0 and 1.0 alone
    assert df["attacks"][11] == 1.0


def test_a_batch_frame_has_a_row_per_result_and_keeps_refusals() -> None:
    geq = {"models": [{"count": 10, "T": 3, "Sv": 5, "W": 1}]}
    batch = tactica.calculate_many({"attacker": TWO_GUNS, "target": MEQ},
                                   targets=[MEQ, geq, {"unit": "No Such Unit"}])
    df = tactica.to_frame(batch, labels=["meq", "geq", "nowhere"])
    assert list(df.index) == ["meq", "geq", "nowhere"]
    for label, r in zip(("meq", "geq"), batch[:2], strict=True):
        assert not isinstance(r, ScenarioError)
        assert df.loc[label, "damage"] == r.damage.mean
        assert df.loc[label, "models_destroyed"] == r.models_destroyed.mean
        assert df.loc[label, "p_unit_destroyed"] == r.p_unit_destroyed
        assert df.loc[label, "status"] == "computed"
    assert df.loc["nowhere", "status"] == "refused"
    assert "No Such Unit" in df.loc["nowhere", "note"]
    assert math.isnan(df.loc["nowhere", "damage"])
    with pytest.raises(ValueError, match="labels: 1 given for 3 results"):
        tactica.to_frame(batch, labels=["meq"])


def test_the_html_table_shows_the_figures_and_escapes_names() -> None:
    r = tactica.calculate({"attacker": TWO_GUNS, "target": MEQ})
    html = r._repr_html_()
    assert html.startswith("<div><table>") and html.endswith("</div>")
    assert f"<td>{r.damage.mean:.3f}</td>" in html
    assert f"{r.p_unit_destroyed:.1%}" in html
    assert "Bolt &lt;rifle&gt;" in html and "Plasma &amp; co" in html
    assert "<rifle>" not in html

"""The circumstances of an attack are made from the scenario contract in every door
(issue 46): the CLI's options, the page's controls and the assistant's arguments. A field
added to a copy of the contract appears in the CLI and on the page; every field of the
real contract has a CLI option and an assistant argument with the contract's help."""

from __future__ import annotations

from typing import Any, Literal

import pytest
import typer
from pydantic import Field
from typer.main import get_command
from typer.testing import CliRunner

from tactica.cli.app import app
from tactica.cli.circumstances import context_of, with_circumstances
from tactica.combat.contract.circumstances import circumstances
from tactica.combat.contract.scenario import Context, _said


class WithFlares(Context):
    """A copy of the contract with two more circumstances."""

    lit_by_flares: bool = Field(default=False, description="the target is lit by flares",
                                json_schema_extra=_said("Lit by flares", "flares",
                                                        "lit by flares", "in the dark"))
    weather: Literal["clear", "fog"] | None = Field(default=None, description="the weather")


def _options(command: Any) -> dict[str, Any]:
    """A command's options by flag (typer's own click or click: read by duck typing)."""
    return {opt: p for p in command.params if p.param_type_name == "option"
            for opt in p.opts}


def test_every_context_field_is_an_option_of_calc() -> None:
    """Each field of the contract's ``Context`` is an option of ``tactica calc``, with the
    contract's help, flag and bounds (``led_by``: the attacker's leaders)."""
    from tactica.cli.calc import calc

    alone = typer.Typer()
    alone.command()(calc)
    options = _options(get_command(alone))
    missing = [c.flag for c in circumstances() if c.flag not in options]
    assert missing == []
    for c in circumstances():
        option = options[c.flag]
        if c.name != "led_by":
            assert option.help is not None and option.help.startswith(c.help), c.name
        if c.maximum is not None:
            # typer's own click holds the bound on the option, click on its type
            bound = getattr(option, "max", None) or getattr(getattr(option, "type", None),
                                                            "max", None)
            assert bound == c.maximum, c.name  # exact: a bound as written
    assert len(circumstances()) == len(Context.model_fields)


def test_a_field_added_to_the_contract_is_an_option() -> None:
    seen: dict[str, Any] = {}
    probe = typer.Typer()

    @probe.command()
    @with_circumstances(fields=circumstances(WithFlares))
    def attack(name: str = "x", **given: Any) -> None:
        seen.update(given)

    out = CliRunner().invoke(probe, ["--help"], terminal_width=200)
    assert "--lit-by-flares" in out.output and "--weather" in out.output
    result = CliRunner().invoke(probe, ["--lit-by-flares", "--weather", "fog",
                                        "--distance", "12"])
    assert result.exit_code == 0, result.output
    assert seen["lit_by_flares"] is True and seen["weather"] == "fog"
    given = {k: v for k, v in seen.items() if k in Context.model_fields}
    assert context_of(given) == {"distance": 12.0}  # exact: a parsed option
    refused = CliRunner().invoke(probe, ["--weather", "rain"])
    assert refused.exit_code == 2 and "--weather" in refused.output


def test_the_calc_option_reaches_the_scenario(monkeypatch: pytest.MonkeyPatch) -> None:
    """Each generated flag of ``tactica calc`` is the contract's field in the scenario."""
    from tactica.cli import calc as calc_module

    sent: list[Any] = []
    real = calc_module.calculate

    def spy(scenario: Any) -> Any:
        sent.append(scenario)
        return real(scenario)

    monkeypatch.setattr(calc_module, "calculate", spy)
    runner = CliRunner()
    args = ["calc", "--attacker", "Intercessor Squad", "--target", "meq", "--json",
            "--plunging-fire", "--engaged", "--target-engaged", "--advanced",
            "--indirect", "spotted", "--half-range", "--attacker-toughness", "4"]
    result = runner.invoke(app, args)
    assert result.exit_code == 0, result.output
    context = sent[0].context.model_dump()
    assert context["plunging_fire"] and context["engaged"] and context["target_engaged"]
    assert context["advanced"] and context["indirect"] == "spotted"
    assert context["within_half_range"] is True and context["attacker_toughness"] == 4


@pytest.mark.parametrize("model", [Context, WithFlares])
def test_the_page_shows_every_circumstance(model: type[Context],
                                           monkeypatch: pytest.MonkeyPatch) -> None:
    """The calculator page has a control for each circumstance of the contract (or of a
    copy with more), except those other controls set, with the contract's label."""
    from fastapi.testclient import TestClient

    from tactica.library import load_seed_library
    from tactica.web import create_app, pages

    monkeypatch.setattr(pages, "circumstances", lambda: circumstances(model))
    pages.circumstance_fields.cache_clear()
    try:
        with TestClient(create_app(library=load_seed_library)) as client:
            html = client.get("/").text
    finally:
        pages.circumstance_fields.cache_clear()
    for c in circumstances(model):
        if c.name in pages.PLACED:  # set by another control: no generated one
            assert f'data-ctx="{c.name}"' not in html, c.name
        else:
            assert f'id="ctx-{c.name}" data-ctx="{c.name}"' in html, c.name
    # the controls that set the placed ones (army_faction comes from the unit itself)
    for own in ("ctx-led-by", "ctx-detachment", "ctx-attacker-toughness"):
        assert f'id="{own}"' in html, own
    if model is WithFlares:
        assert 'data-ctx="lit_by_flares"' in html and "Lit by flares" in html
        assert '<option value="fog">' in html


def test_the_documents_table_is_the_contracts() -> None:
    """``docs/scenario.md``'s table of circumstances is generated from the contract; after
    a change, paste ``circumstances_table()`` between its markers."""
    import re
    from pathlib import Path

    from tactica.combat.contract.circumstances import circumstances_table

    text = (Path(__file__).resolve().parents[1] / "docs" / "scenario.md").read_text(
        encoding="utf-8")
    found = re.search(r"<!-- circumstances:start -->\n(.*?)\n<!-- circumstances:end -->",
                      text, re.S)
    assert found is not None
    assert found.group(1) == circumstances_table()

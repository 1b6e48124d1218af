"""The shortcuts a table of many matchups takes through fielding give what the full
path gives, on every library unit: ``scenario_against`` is the scenario composed step by
step; an ability with no part of the attacker's side writes the lines an evaluation
would (``abilities.held_by``, worked out once per attacker); an armament without a
choice answers every aim with the answer each aim gets afresh."""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import Any

import pytest

from tactica.combat.contract.scenario import Effect, Scenario, Target
from tactica.effects.candidates import apply_candidates
from tactica.effects.unit_abilities import evaluate
from tactica.library import Library, load_library
from tactica.names import name_key
from tactica.units import (
    Aim,
    ScenarioDocument,
    UnitError,
    UnitRef,
    resolve_against,
    resolve_attacker,
    resolve_target,
    scenario_against,
)
from tactica.units.defences import describe, held_abilities

abilities = importlib.import_module("tactica.units.abilities")
resolving = importlib.import_module("tactica.units.resolve")

#: Aims of different numbers (T, Sv, W, invuln): a choice of profiles may differ.
_AIMS = (Aim(T=3, Sv=5, W=1), Aim(T=4, Sv=3, W=2), Aim(T=10, Sv=2, W=12, invuln=4),
         Aim(T=6, Sv=4, W=3, invuln=5))


@pytest.fixture(scope="module")
def lib() -> Library:
    return load_library()


def _document(name: str, phase: str, rules: str) -> ScenarioDocument:
    return ScenarioDocument.model_validate({
        "attacker": {"unit": name}, "target": {"unit": name}, "phase": phase,
        "rules": rules})


def _resolved(*args: Any) -> Scenario:
    return resolve_against(*args)[0]


def _outcome(made: Callable[..., Scenario], *args: Any) -> Scenario | str:
    """``made(*args)``, the scenario, or the refusal's message."""
    try:
        return made(*args)
    except UnitError as exc:
        return str(exc)


def _reference_abilities(s: Scenario, sheets: list[Any],
                         lines_of: dict[str, tuple[str, ...]]) -> tuple[Any, ...]:
    """What ``apply_attacker_abilities`` writes, worked out as it was before any part
    was kept: every ability evaluated against the scenario and described."""
    applied: list[str] = []
    not_applied: list[str] = []
    effects: list[Effect] = []
    for sheet in sheets:
        for h in held_abilities(sheet):
            v = evaluate(h.compiled, "attacker", s, lines_of.get(sheet.name) or
                         abilities._lines_of(sheet, s))
            a, n = describe(h, v, "attacker")
            applied += a
            not_applied += n
            effects += v.effects
    return tuple(applied), tuple(not_applied), tuple(effects)


def _composed(doc: ScenarioDocument, lib: Library, target: Target, tside: Any) -> Scenario:
    """The scenario of ``doc`` against the fielded target put together step by step, as
    the calculator did before any step was shared: the attacker fielded against the
    target's aim, the scenario validated, the abilities named as effects applied, then
    every ability of the attacker's datasheets evaluated and noted (its name off the
    unit's list), then the target's abilities that wait for the attack."""
    attacker, side = resolving._attacker(doc.attacker, lib, doc.rules, doc.phase,
                                         resolving._aim(target))
    context = resolving._led(doc.context, side)
    s = Scenario.model_validate({**{k: getattr(doc, k) for k in resolving._DOC_FIELDS},
                                 "attacker": attacker, "target": target,
                                 "context": context})
    if side.effects:
        s, _ = apply_candidates(s, list(side.effects), "ability", report_skipped=False)
    sheets = [x for x, _ in side.loadouts]
    names = {name_key(h.ability.name) for x in sheets for h in held_abilities(x)}
    if names:
        applied, not_applied, effects = _reference_abilities(s, sheets, side.lines_of)
        a = s.attacker
        s = s.model_copy(update={"effects": (*s.effects, *effects), "attacker": a.model_copy(
            update={"abilities": tuple(n for n in a.abilities if name_key(n) not in names),
                    "rules_applied": (*a.rules_applied, *applied),
                    "rules_not_applied": (*a.rules_not_applied, *not_applied)})})
    done: Scenario = abilities.apply_pending_defences(s, tside.pending)
    return done


def test_the_scenario_alone_is_the_one_composed_step_by_step(lib: Library) -> None:
    """Every 5th library unit against three presets and two library units, both phases:
    ``scenario_against`` (what a table builds, and ``tactica.calculate`` through
    ``resolve_against``) is the scenario composed step by step (``_composed``), or the
    same refusal; units with abilities applied by name and with their own abilities met."""
    sheets = lib.datasheets()
    targets = ["meq", "vehicle", "monster", sheets[3].name, sheets[len(sheets) // 2].name]
    seen = refused = named = noted = 0
    for sheet in sheets[::5]:
        for phase in ("shooting", "fight"):
            doc = _document(sheet.name, phase, sheet.rules)
            for name in targets:
                try:
                    fielded = resolve_target(UnitRef(unit=name), lib, sheet.rules, phase)
                except (UnitError, ValueError, LookupError):
                    continue
                got = _outcome(scenario_against, doc, lib, *fielded)
                assert got == _outcome(_composed, doc, lib, *fielded), sheet.name
                assert got == _outcome(_resolved, doc, lib, *fielded)
                refused += isinstance(got, str)
                seen += 1
                if not isinstance(got, str):
                    named += bool(got.attacker.rules_applied) and any(
                        isinstance(e, Effect) for e in got.effects)
                    noted += bool(got.attacker.rules_not_applied)
    assert refused and seen > refused and named and noted  # each kind met


def test_the_attackers_abilities_come_to_what_an_evaluation_afresh_gives(
        lib: Library) -> None:
    """Every library unit, each phase it attacks in, against three presets and two
    library units in turn (their keywords differ: INFANTRY, MONSTER, VEHICLE...), with
    and without a charge: the attacker ``apply_attacker_abilities`` notes and the
    effects it adds are those of every ability evaluated afresh against that target,
    whether its lines were kept once per attacker (no part of the attacker's side), its
    judgement shared by every target (no part reads the target) or made per target. All
    three kinds are met."""
    targets = ["meq", "monster", "vehicle", "Primus", "Neophyte Hybrids"]
    fixed = live = reading = charged = 0
    seen: list[tuple[Effect, ...]] = []
    for sheet in lib.datasheets():
        for phase in ("shooting", "fight"):
            doc = _document(sheet.name, phase, sheet.rules)
            for name in targets:
                try:
                    target = resolve_target(UnitRef(unit=name), lib, sheet.rules, phase)[0]
                    attacker, side = resolving._attacker(
                        doc.attacker, lib, sheet.rules, phase, resolving._aim(target))
                except (UnitError, ValueError, LookupError):
                    continue
                led = resolving._led(doc.context, side)
                seen.clear()
                for context in (led, led.model_copy(update={"charged": True})):
                    s = Scenario(rules=sheet.rules, phase=phase, attacker=attacker,
                                 target=target, context=context)
                    sheets = [x for x, _ in side.loadouts]
                    held = abilities.held_by(sheets)
                    fixed += sum(f is not None for *_, f in held.lines)
                    live += sum(f is None for *_, f in held.lines)
                    reading += held.reads_target
                    done = abilities.apply_attacker_abilities(s, sheets, side.lines_of)
                    applied, not_applied, effects = _reference_abilities(s, sheets,
                                                                         side.lines_of)
                    if not held.names:
                        assert done is s
                        continue
                    # a sentence two parts of one ability write is said once
                    assert done.attacker.rules_applied == tuple(dict.fromkeys(
                        (*attacker.rules_applied, *applied)))
                    assert done.attacker.rules_not_applied == tuple(dict.fromkeys(
                        (*attacker.rules_not_applied, *not_applied)))
                    assert done.effects == effects
                    seen.append(effects)
                charged += len(seen) > 1 and seen[-1] != seen[-2]  # the charge changed them
    assert fixed and live > reading > 0 and charged  # each kind met


def test_an_armament_without_a_choice_answers_every_aim_as_afresh(lib: Library) -> None:
    """Every 3rd library unit, both phases: an attacker whose armaments choose nothing
    (``Armament.fixed``) gives one answer for every aim, the one each aim's own fielding
    gives; one with a choice is answered per aim, each also the fresh one."""
    aimless = choosing = 0
    for sheet in lib.datasheets()[::3]:
        for phase in ("shooting", "fight"):
            try:
                armed = resolving._armed(UnitRef(unit=sheet.name), lib, sheet.rules,
                                         phase, ())
            except UnitError:
                continue
            answers = [armed.against(aim)[0] for aim in _AIMS]
            fresh = [resolve_attacker(UnitRef(unit=sheet.name), lib, sheet.rules, phase,
                                      aim)[0] for aim in _AIMS]
            assert answers == fresh
            if armed.aimless:
                assert all(a is answers[0] for a in answers)
                aimless += 1
            else:
                choosing += 1
    assert aimless and choosing  # both kinds met


def test_the_documents_fields_are_kept_not_shared(lib: Library) -> None:
    """The document's fields kept for a table are copied into each scenario's data: a
    scenario built from them leaves the kept ones as they were."""
    doc = _document("Primus", "fight", "11th")
    target = resolve_target(UnitRef(unit="meq"), lib, "11th", "fight")[0]
    first = scenario_against(doc, lib, target, None)
    kept = dict(resolving._doc_fields(doc))
    again = scenario_against(doc, lib, target, None)
    assert again == first and resolving._doc_fields(doc) == kept
    assert "attacker" not in kept and "target" not in kept

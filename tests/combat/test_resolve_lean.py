"""The weapon line's resolution on its lean paths equals what the plain computations give,
bit for bit: ``ResolvedWeapon.made`` (its fields set at once) against the dataclass's own
``__init__``, and the copies ``shift_floor``, ``power`` and ``damage_distribution`` return
where nothing moves against the sums they stand for, on the library sample and on
generated distributions."""

from __future__ import annotations

import dataclasses
from itertools import product

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from tactica.combat.contract.scenario import Effect, Scenario, WeaponLine
from tactica.combat.exact.engine import _prepare
from tactica.combat.exact.profile import NOT_MODELLED, ResolvedWeapon, _not_calculated
from tactica.combat.exact.stages.attacks import power, shift_floor
from tactica.combat.exact.stages.damage import damage_distribution
from tactica.combat.exact.stages.inputs import WeaponInputs
from tactica.model.abilities import (
    Anti,
    Blast,
    Cleave,
    Flag,
    Limited,
    Melta,
    NamedWeaponRule,
    RapidFire,
    SustainedHits,
)
from tactica.rules import get_ruleset
from tactica.rules.base import AttackCircumstances, RuleSet
from volume import sampled

from .library_sample import library_sample

_EXTRAS: tuple[tuple[Effect, ...], ...] = (
    (),
    (Effect(attacks=1), Effect(damage=1), Effect(reroll="damage", which="ones")),
    (Effect(damage=-1), Effect(grant="Devastating Wounds"), Effect(hit=-1)),
)


def _same(a: object, b: object) -> bool:
    if isinstance(a, np.ndarray) and isinstance(b, np.ndarray):
        return a.shape == b.shape and a.tobytes() == b.tobytes()
    return a == b


def test_made_weapons_are_those_init_makes_on_the_library() -> None:
    attackers, targets = library_sample(9)
    seen = 0
    for (phase, a), t, extra, rules in product(attackers[::2], targets[::3], _EXTRAS,
                                               ("11th", "10th")):
        s = Scenario(rules=rules, phase=phase, attacker=a, target=t, effects=extra)
        for w in _prepare(s).weapons:
            again = dataclasses.replace(w)  # through the frozen __init__
            for f in dataclasses.fields(ResolvedWeapon):
                assert _same(getattr(w, f.name), getattr(again, f.name)), f.name
            with pytest.raises(dataclasses.FrozenInstanceError):
                w.count = 2  # type: ignore[misc]
            seen += 1
    assert seen >= 300


def test_made_refuses_a_missing_or_unknown_field() -> None:
    w = _prepare(Scenario.model_validate({
        "attacker": {"weapons": [{"A": "1", "skill": 3, "S": 4, "D": "1"}]},
        "target": {"models": [{"T": 4, "Sv": 3, "W": 2}]}})).weapons[0]
    values = {f.name: getattr(w, f.name) for f in dataclasses.fields(w)}
    del values["ap"]
    with pytest.raises(TypeError, match="ap"):
        ResolvedWeapon.made(**values)
    with pytest.raises(TypeError, match="bogus"):
        ResolvedWeapon.made(**values, ap=0, bogus=1)


def _plain_inputs(weapon: WeaponLine, s: Scenario, rules: RuleSet,
                  effects: tuple[Effect, ...]) -> tuple[object, ...]:
    """``WeaponInputs.of``'s abilities, flags, circumstances, what is not calculated and
    what the stages' records take from the abilities (Blast, Cleave, Rapid Fire,
    Sustained Hits, Anti, Melta) as plainly computed (every ability looked at, nothing
    kept), written for the test."""
    if effects:
        effects = tuple(e for e in effects if e.applies_to(weapon.name))
    kws = s.target.keywords
    own = tuple(a.ability if isinstance(a, Limited) else a for a in weapon.abilities
                if not isinstance(a, Limited) or a.applies(kws))
    abilities = own + tuple(e.grant for e in effects if e.grant is not None)
    flags = frozenset(a.name for a in abilities if isinstance(a, Flag))
    ctx = s.context
    ranged = s.phase == "shooting"
    indirect = ranged and "Indirect Fire" in flags and ctx.indirect is not None
    circ = AttackCircumstances(
        ranged=ranged, cover=ctx.cover or (indirect and rules.indirect_gives_cover),
        stealth=ctx.stealth or any(a.casefold() == "stealth" for a in s.target.abilities),
        ignores_cover="Ignores Cover" in flags, psychic="Psychic" in flags,
        indirect=ctx.indirect if indirect else None)
    not_calc = [NOT_MODELLED[f] for f in sorted(flags) if f in NOT_MODELLED]
    not_calc += [f"{a}: {a.reason}" for a in abilities if isinstance(a, NamedWeaponRule)]
    if "Indirect Fire" in flags and circ.indirect is None:
        not_calc.append("Indirect Fire: the target is taken to be visible (context.indirect "
                        "unset): an ordinary attack")
    kinds = (flags, tuple(a for a in abilities if isinstance(a, Blast | Cleave | RapidFire)),
             any(isinstance(a, Blast | Cleave) for a in abilities),
             next((a.hits for a in abilities if isinstance(a, SustainedHits)), None),
             tuple(a for a in abilities if isinstance(a, Anti)),
             tuple(a for a in abilities if isinstance(a, Melta)))
    return effects, abilities, flags, circ, tuple(not_calc), kinds


#: Lines the library sample may lack: a Limited ability against targets it does and
#: does not apply to, and Stealth on the target.
_LIMITED = WeaponLine.model_validate({
    "name": "Limited gun", "A": "2", "skill": 3, "S": 5, "D": "1", "range": 24,
    "abilities": ["Lethal Hits (not against Monster/Vehicle)", "Indirect Fire", "Assault"]})


def test_the_inputs_lean_paths_are_the_plain_ones_on_the_library() -> None:
    """Every line of the library sample (and a Limited line) against every preset (and
    one with Stealth), with and without effects that grant abilities, under both rule
    sets and with the context's cover, Stealth and indirect fire: ``WeaponInputs.of``
    and ``_not_calculated`` (cached by the line's abilities) give the plain computation's
    answers."""
    attackers, targets = library_sample(9)
    targets = [*targets, targets[0].model_copy(update={"abilities": ("STEALTH",)})]
    contexts: tuple[dict[str, object], ...] = ({}, {"cover": True, "stealth": True},
                                             {"indirect": "unseen"})
    seen = limited = 0
    found: set[str] = set()  # the kinds of ability met (each key's part exercised)
    for (phase, a), t, extra, rules, ctx in product(
            [*attackers[::2], ("shooting", a0 := attackers[0][1].model_copy(
                update={"weapons": (_LIMITED,)}))], targets[::2] + targets[-1:],
            _EXTRAS, ("11th", "10th"), contexts):
        if phase != "shooting" and a is a0:
            continue
        s = Scenario(rules=rules, phase=phase, attacker=a, target=t, effects=extra,
                     context=ctx)
        rs = get_ruleset(rules)
        for w in s.attacker.weapons:
            inp = WeaponInputs.of(w, s, rs, extra)
            plain = _plain_inputs(w, s, rs, extra)
            assert (inp.effects, inp.abilities, inp.flags, inp.circumstances,
                    _not_calculated(inp.flags, inp.abilities, inp.circumstances.indirect is None),
                    tuple(inp.kinds)) == plain
            seen += 1
            limited += any(isinstance(x, Limited) for x in w.abilities)
            k = plain[-1]
            found.update(name for name, v in (("adding", k[1]), ("sustained", k[3]),
                                              ("anti", k[4]), ("melta", k[5])) if v)
    assert limited and found == {"adding", "sustained", "anti", "melta"}  # each met


_PMF = st.lists(st.floats(0, 1), min_size=1, max_size=14).map(
    lambda xs: np.array(xs, dtype=np.float64))


def _shift_floor_sums(pmf: np.ndarray, shift: int, floor: int) -> np.ndarray:
    out = np.zeros(max(len(pmf) + shift, floor + 1), dtype=np.float64)
    for v, p in enumerate(pmf.tolist()):
        if p:
            out[max(floor, v + shift)] += p
    return out


@given(_PMF, st.integers(-3, 3), st.integers(0, 3), st.booleans())
def test_shift_floor_is_the_sums(pmf: np.ndarray, shift: int, floor: int,
                                 zero_below: bool) -> None:
    if zero_below:
        pmf[:floor] = 0.0
    got = shift_floor(pmf, shift, floor)
    assert _same(got, _shift_floor_sums(pmf, shift, floor))
    assert got is not pmf


@given(_PMF)
def test_one_copy_is_the_convolution(pmf: np.ndarray) -> None:
    got = power(pmf, 1)
    assert _same(got, np.convolve(np.array([1.0]), pmf)) and got is not pmf


def _damage_sums(base: np.ndarray, plus: np.ndarray, half: bool, reduction: int
                 ) -> np.ndarray:
    total = np.convolve(base, plus)
    out = np.zeros(len(total))
    for v, p in enumerate(total.tolist()):
        if p:
            out[max(1, (-(-v // 2) if half else v) - reduction)] += p
    return out


@given(_PMF.filter(lambda a: len(a) > 1),  # a damage of at least 1 is possible
       st.sampled_from([[1.0], [0.0, 0.5, 0.5]]), st.booleans(), st.integers(0, 2),
       st.booleans())
def test_damage_distribution_is_the_sums(base: np.ndarray, plus: list[float], half: bool,
                                         reduction: int, zero_first: bool) -> None:
    if zero_first:
        base[0] = 0.0
    got = damage_distribution(base, np.array(plus), half, reduction)
    assert _same(got, _damage_sums(base, np.array(plus), half, reduction))
    assert got is not base


# --- the default run's samples (tests/volume.py): each property below runs a few
# dozen examples by default and its full count as its ``_at_volume`` twin (slow) ---
(test_shift_floor_is_the_sums,
 test_shift_floor_is_the_sums_at_volume) = sampled(
    test_shift_floor_is_the_sums, 30)
(test_one_copy_is_the_convolution,
 test_one_copy_is_the_convolution_at_volume) = sampled(
    test_one_copy_is_the_convolution, 30)
(test_damage_distribution_is_the_sums,
 test_damage_distribution_is_the_sums_at_volume) = sampled(
    test_damage_distribution_is_the_sums, 30)

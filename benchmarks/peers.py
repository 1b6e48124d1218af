"""One adapter per peer library: a benchmark case in, the peer's numbers and time out.

Each adapter (``prepare_*``) reads the neutral ``CaseSpec`` of ``benchmarks/cases.py``
and returns a ``Prepared`` computation (building the peer's own objects and computing
mean damage and mean models destroyed or ``None``; plus the ways the peer's model of the
attack differs from tactica's that apply to this case), or ``CannotExpress`` with the
reason when the peer has no faithful way to state a rule of the case. ``Peer.run(spec,
runs)`` gives the numbers with the median time of ``runs`` calls after a warm-up call;
``benchmarks/run.py`` times the prepared computations interleaved with tactica's.

The peers (the optional ``bench`` extra, ``pip install -e .[bench]``):

* ``wh40kdc`` 1.4.5: its damage-projection "cruncher"
  (``wh40kdc.cruncher.crunch(input, dataset)``): closed-form expected values per stage,
  one weapon profile at a time; weapons and the target are the 40kdc schema's dicts.
* ``warhammer-stats`` 0.1.1: ``Attack(Weapon(...), Target(...)).run()`` (several
  weapons: ``MultiAttack``) returns exact distributions (``PMF``) of damage and kills;
  rules are ``ModifierCollection`` entries (re-rolls, generators on a roll of N...).
* ``icepool`` 2.1.3: dice algebra. The adapter writes one die per attack (hit roll →
  Sustained/Lethal Hits → wound roll → save or Devastating Wounds → damage → Feel No
  Pain per wound point) and sums them (``n @ die``): the exact distribution of the total
  damage, without allocation to models.

A peer that is not installed is reported as "not installed" by ``PEERS``' callers.
"""

from __future__ import annotations

import importlib.metadata
import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from cases import CaseSpec, TargetSpec, WeaponSpec

from tactica.dice import DiceExpr
from tactica.rules.base import RuleSet

__all__ = [
    "PEERS",
    "CannotExpress",
    "Peer",
    "PeerOutcome",
    "PeerResult",
    "Prepared",
    "icepool_damage_die",
    "median_seconds",
    "prepare_icepool",
    "prepare_warhammer_stats",
    "prepare_wh40kdc",
]


Numbers = tuple[float, float | None]  # mean damage, mean models destroyed (None: n/a)


@dataclass(frozen=True)
class Prepared:
    """A peer's computation for one case, ready to time: ``compute()`` builds the peer's
    inputs and computes; ``causes``: how the peer's model of the attack differs from
    tactica's, for the differences that can change the numbers in this case;
    ``caveats``: what it does not compute or approximates everywhere."""

    compute: Callable[[], Numbers]
    causes: tuple[str, ...] = ()
    caveats: tuple[str, ...] = ()


@dataclass(frozen=True)
class PeerResult:
    """A peer's numbers for one case and the median time of its computation."""

    damage: float
    models: float | None
    seconds: float
    causes: tuple[str, ...] = ()
    caveats: tuple[str, ...] = ()


@dataclass(frozen=True)
class CannotExpress:
    reason: str

    def __str__(self) -> str:
        return f"cannot express: {self.reason}"


PeerOutcome = PeerResult | CannotExpress


def median_seconds(fn: Callable[[], object], runs: int) -> float:
    """Median wall time of ``runs`` calls of ``fn`` after one warm-up call."""
    fn()
    times = []
    for _ in range(max(1, runs)):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


@dataclass(frozen=True)
class Peer:
    """``package`` is the distribution name; ``distributions``: computes distributions
    (the README's speed claim is about those peers)."""

    package: str
    what: str
    distributions: bool
    prepare: Callable[[CaseSpec], Prepared | CannotExpress]

    def run(self, spec: CaseSpec, runs: int) -> PeerOutcome:
        """Mean damage, mean models destroyed (or ``None``) and the median time of
        ``runs`` computations, or why the peer cannot express the case."""
        prepared = self.prepare(spec)
        if isinstance(prepared, CannotExpress):
            return prepared
        damage, models = prepared.compute()
        return PeerResult(damage, models, median_seconds(prepared.compute, runs),
                          prepared.causes, prepared.caveats)

    @property
    def version(self) -> str | None:
        try:
            return importlib.metadata.version(self.package)
        except importlib.metadata.PackageNotFoundError:
            return None

    @property
    def label(self) -> str:
        return f"{self.package} {self.version or '(not installed)'}"


# --- facts about a case that decide which differences apply --------------------------


def _dice(text: str) -> DiceExpr:
    return DiceExpr.parse(text)


def wound_needed(strength: int, toughness: int) -> int:
    """The wound roll table (the same in 10th and 11th): the rule set's own."""
    return RuleSet.wound_roll_needed(strength, toughness)


def save_needed(w: WeaponSpec, t: TargetSpec) -> int:
    """The save the target rolls (armour after AP or invulnerable), 7 = none."""
    armour = min(7, t.save - w.ap)
    return min(armour, t.invuln) if t.invuln is not None else armour


def anti_threshold(w: WeaponSpec, t: TargetSpec) -> int:
    """Critical wounds on this roll or more (Anti-KEYWORD X+ against a matching target)."""
    if w.anti is not None and w.anti[0].upper() in {k.upper() for k in t.keywords}:
        return min(6, w.anti[1])
    return 6


def max_wounds_scored(w: WeaponSpec, half_range: bool) -> int:
    """The most wounds (and Devastating Wounds criticals) one weapon line can score."""
    sustained = _dice(w.sustained_hits).max if w.sustained_hits else 0
    return w.count * _dice(w.attacks_per_model(half_range)).max * (1 + sustained)


def overkill_possible(spec: CaseSpec) -> bool:
    """Can damage be lost to allocation: an attack doing more than the wounds its model
    has left, or more damage than the whole unit has?"""
    t = spec.target
    total = sum(max_wounds_scored(w, spec.half_range) * _dice(w.damage).max
                for w in spec.weapons)
    if total <= t.wounds:
        return False  # even one model takes it all
    if total > t.models * t.wounds:
        return True
    most = max(_dice(w.damage).max for w in spec.weapons)
    least = min(_dice(w.damage).min for w in spec.weapons)
    return most > 1 and (most != least or t.wounds % most != 0)


# --- wh40kdc: expected values --------------------------------------------------------

NOT_ALLOCATED = ("damage not allocated: damage beyond a model's wounds left (or the "
                 "unit's) still counts")

_WH40KDC_DATASET: Any = None


def _wh40kdc_dataset() -> Any:
    """The embedded 40kdc dataset (the weapon-keyword catalogue the cruncher reads),
    loaded once and outside the timed calls."""
    global _WH40KDC_DATASET
    if _WH40KDC_DATASET is None:
        from wh40kdc.data.dataset import Dataset

        _WH40KDC_DATASET = Dataset.embedded()
    return _WH40KDC_DATASET


def _stat(text: str) -> int | str:
    expr = _dice(text)
    return str(expr) if expr.is_random else expr.plus


def _wh40kdc_weapon(w: WeaponSpec) -> dict[str, Any]:
    keywords: list[dict[str, Any]] = []
    if w.sustained_hits:
        keywords.append({"keyword_id": "sustained-hits",
                         "parameters": {"value": _stat(w.sustained_hits)}})
    for flag, kid in ((w.lethal_hits, "lethal-hits"), (w.devastating_wounds,
                      "devastating-wounds"), (w.torrent, "torrent"),
                      (w.extra_attacks, "extra-attacks")):
        if flag:
            keywords.append({"keyword_id": kid})
    if w.rapid_fire:
        keywords.append({"keyword_id": "rapid-fire",
                         "parameters": {"value": _stat(w.rapid_fire)}})
    if w.anti:
        keywords.append({"keyword_id": "anti", "parameters": {
            "target_keyword": w.anti[0].title(), "threshold": w.anti[1]}})
    stats: dict[str, Any] = {"A": _stat(w.attacks), "S": w.strength, "AP": w.ap,
                             "D": _stat(w.damage)}
    if w.skill is not None:
        stats["WS" if w.melee else "BS"] = w.skill
    slug = w.name.lower().replace(" ", "-")
    return {
        "id": slug, "name": w.name, "type": "melee" if w.melee else "ranged",
        "profiles": [{"name": w.name, "range": "Melee" if w.melee else 24,
                      "stats": stats, "keywords": keywords}],
    }


def _wh40kdc_unit(t: TargetSpec) -> dict[str, Any]:
    profile: dict[str, Any] = {"name": t.name, "T": t.toughness, "Sv": t.save, "W": t.wounds}
    if t.invuln is not None:
        profile["invuln_sv"] = t.invuln
    return {"id": "target", "name": t.name, "profiles": [profile],
            "keywords": list(t.keywords), "faction_keywords": [],
            "model_count": {"min": t.models, "max": t.models}}


def prepare_wh40kdc(spec: CaseSpec) -> Prepared | CannotExpress:
    """Expected damage after Feel No Pain summed over the weapons (``after-fnp``
    stage of ``crunch``), models destroyed = that damage / W, at most the unit's size
    (how ``wh40kdc.compare.expected_damage`` says to combine weapons)."""
    from wh40kdc.cruncher import crunch

    if any(w.other for w in spec.weapons):
        return CannotExpress(", ".join(o for w in spec.weapons for o in w.other))
    dataset = _wh40kdc_dataset()
    t = spec.target
    buffs: list[dict[str, Any]] = []
    if t.fnp is not None:
        buffs.append({"source": {"kind": "manual"},
                      "contribution": {"type": "feel-no-pain", "threshold": t.fnp}})
    if t.damage_reduction:
        buffs.append({"source": {"kind": "manual"}, "contribution": {
            "type": "damage-reduction", "value": t.damage_reduction}})
    context = {"phase": spec.phase, "withinHalfRange": spec.half_range}

    def compute() -> Numbers:
        unit = _wh40kdc_unit(t)
        damage = 0.0
        for w in spec.weapons:
            out = crunch({
                "attacker": {"weapon": _wh40kdc_weapon(w), "profileIndex": 0},
                "target": {"unit": unit, "profileIndex": 0, "modelCount": t.models},
                "modelsFiring": w.count, "buffs": buffs, "context": dict(context),
            }, dataset)
            damage += next(s["expected"] for s in out["stages"] if s["name"] == "after-fnp")
        return damage, min(t.models, damage / t.wounds)

    causes = []
    if overkill_possible(spec):
        causes.append(NOT_ALLOCATED)
    if t.wounds > 1 or overkill_possible(spec):
        causes.append("models destroyed = damage / W (a wounded model counts as a "
                      "fraction of a model)")
    return Prepared(compute, tuple(causes), ("expected values only",))


# --- warhammer-stats: exact distributions -------------------------------------------


def _ws_dice(text: str) -> Any:
    """A dice expression as a warhammer-stats ``PMFCollection`` (its dice, plus a
    constant)."""
    from warhammer_stats import PMF, PMFCollection

    expr = _dice(text)
    if not expr.is_random:
        return PMFCollection.static(expr.plus)
    pmfs = [PMF.dn(expr.sides)] * expr.n
    return PMFCollection(pmfs).plus(expr.plus) if expr.plus else PMFCollection(pmfs)


def prepare_warhammer_stats(spec: CaseSpec) -> Prepared | CannotExpress:
    """``MultiAttack([Weapon, ...], Target).run()``: means of ``total_damage_dist`` and
    ``kills_dist``.

    Expressed: attacks (per model, summed), BS/WS, S vs T, AP, invulnerable save, damage
    dice, Feel No Pain, Sustained Hits X (``GenerateExtraAutomaticHitsUnmodifiable(6,
    X)``: X extra hits on an unmodified 6), Anti-KEYWORD X+ when the weapon has no other
    critical-wound rule (the wound roll succeeds on X+ when X+ is better than the S vs T
    roll: ``SetThresholdToN``), Torrent
    (hit dice floored at 2 against a 2+: every attack hits, none is a critical hit).
    Not expressible in 0.1.1: Lethal Hits and Devastating Wounds. The "end the attack
    and generate ..." modifiers zero the 6s before the generators read them, so they
    generate nothing (checked: ``EndAttackAndGenrateMortalWoundsUnmodifiable(6, 1)``
    gives 0 mortal wounds; ``EndAttackAndGenrateExtraWoundsUnmodifiable`` also
    misspells its generator method), and the "extra AP on a 6" splitter weights the
    6 by its unconditional chance (1/6), not its chance among successful wounds.
    """
    from warhammer_stats import ModifierCollection, MultiAttack, PMFCollection, Target, Weapon
    from warhammer_stats.modifiers.generator_modifiers import (
        GenerateExtraAutomaticHitsUnmodifiable,
    )
    from warhammer_stats.modifiers.value_setter_modifiers import (
        MinimumValue,
        SetThresholdToN,
    )

    t = spec.target
    missing: list[str] = []
    for w in spec.weapons:
        if w.lethal_hits:
            missing.append("Lethal Hits (a critical hit cannot both skip the wound roll "
                           "and trigger Sustained Hits; its end-the-attack generators "
                           "produce nothing in 0.1.1)")
        if w.devastating_wounds:
            missing.append("Devastating Wounds (its end-the-attack mortal-wound "
                           "generators produce nothing in 0.1.1; the AP-on-a-6 splitter "
                           "weights the 6 by 1/6, not by its share of successful wounds)")
        if w.sustained_hits and _dice(w.sustained_hits).is_random:
            missing.append(f"Sustained Hits {w.sustained_hits} (fixed values only)")
        if w.sustained_hits and w.torrent:
            missing.append("Sustained Hits with Torrent (its Torrent stand-in keeps 6s)")
        missing += list(w.other)
    if t.damage_reduction:
        missing.append("damage reduction")
    if missing:
        return CannotExpress("; ".join(dict.fromkeys(missing)))

    def weapon(w: WeaponSpec) -> Any:
        hit: list[Any] = []
        wound: list[Any] = []
        if w.sustained_hits:
            hit.append(GenerateExtraAutomaticHitsUnmodifiable(6, _dice(w.sustained_hits).plus))
        if w.torrent:
            hit.append(MinimumValue(2))
        anti = anti_threshold(w, t)
        if anti < wound_needed(w.strength, t.toughness):
            wound.append(SetThresholdToN(anti))
        per_model = _ws_dice(w.attacks_per_model(spec.half_range))
        shots = PMFCollection(per_model.pmfs * w.count)
        return Weapon(bs=2 if w.torrent else int(w.skill or 2), shots=shots,
                      strength=w.strength, ap=-w.ap, damage=_ws_dice(w.damage),
                      modifiers=ModifierCollection(hit_mods=hit, wound_mods=wound),
                      name=w.name)

    def compute() -> Numbers:
        target = Target(toughness=t.toughness, save=t.save, invuln=t.invuln or 7,
                        fnp=t.fnp or 7, wounds=t.wounds)
        result = MultiAttack([weapon(w) for w in spec.weapons], target).run()
        return float(result.total_damage_dist.mean()), float(result.kills_dist.mean())

    causes = []
    if overkill_possible(spec):
        causes.append("damage not allocated: each failed save's damage is capped at W, "
                      "then summed (damage beyond a wounded model's wounds left counts)")
    if len(spec.weapons) > 1:
        causes.append("kills: each weapon's kills are computed separately from fresh "
                      "models and added (no damage carried from weapon to weapon)")
    if sum(max_wounds_scored(w, spec.half_range) for w in spec.weapons) > t.models:
        causes.append(f"kills not capped at the unit's {t.models} models")
    return Prepared(compute, tuple(causes), ("drops outcomes of probability below 1e-5",))


# --- icepool: the damage distribution -------------------------------------------------


def _ip_dice(text: str) -> Any:
    import icepool

    expr = _dice(text)
    if not expr.is_random:
        return icepool.Die([expr.plus])
    return expr.n @ icepool.d(expr.sides) + expr.plus


def _after_fnp(damage: Any, fnp: int) -> Any:
    """Damage after Feel No Pain ``fnp``+: each wound point is ignored on fnp+."""
    import icepool

    point = icepool.Die({0: 7 - fnp, 1: fnp - 1})
    return damage.map(lambda d: d @ point)


def _ip_mix(outcomes: list[Any]) -> Any:
    """The D6 face-by-face mixture ``outcomes[face - 1]``, equal outcomes merged (fewer,
    smaller weights keep icepool's integer arithmetic small)."""
    import icepool

    merged: dict[int, tuple[Any, int]] = {}
    for outcome in outcomes:
        key = id(outcome)
        merged[key] = (outcome, merged.get(key, (outcome, 0))[1] + 1)
    dice, times = zip(*merged.values(), strict=True)
    return icepool.Die(list(dice), times=list(times)).simplify()


def icepool_damage_die(spec: CaseSpec) -> Any:
    """The icepool ``Die`` of the total damage of the case's attacks, no allocation."""
    import icepool

    t = spec.target
    zero = icepool.Die([0])
    total = zero
    for w in spec.weapons:
        damage = _ip_dice(w.damage)
        if t.damage_reduction:
            damage = damage.map(lambda d: max(1, d - t.damage_reduction))
        if t.fnp is not None:
            damage = _after_fnp(damage, t.fnp)
        save = save_needed(w, t)
        normal_wound = _ip_mix([damage if f == 1 or f < save else zero for f in range(1, 7)])
        critical_wound = damage if w.devastating_wounds else normal_wound
        need, critical = wound_needed(w.strength, t.toughness), anti_threshold(w, t)
        hit = _ip_mix([critical_wound if f >= critical else
                       normal_wound if f >= need and f != 1 else zero for f in range(1, 7)])
        if w.torrent:
            attack = hit
        else:
            skill = int(w.skill or 2)
            critical_hit = normal_wound if w.lethal_hits else hit
            if w.sustained_hits:
                critical_hit = critical_hit + _ip_dice(w.sustained_hits) @ hit
            attack = _ip_mix([critical_hit if f == 6 else hit if f >= skill and f != 1
                              else zero for f in range(1, 7)])
        per_model = _dice(w.attacks_per_model(spec.half_range))
        if per_model.is_random:
            total = total + (w.count @ _ip_dice(str(per_model))) @ attack
        else:
            total = total + (w.count * per_model.plus) @ attack
    return total


def prepare_icepool(spec: CaseSpec) -> Prepared | CannotExpress:
    """The mean of ``icepool_damage_die`` (Lethal Hits always taken); no models
    destroyed."""
    others = [o for w in spec.weapons for o in w.other]
    if others:
        return CannotExpress("not written for " + ", ".join(others))

    def compute() -> Numbers:
        return float(icepool_damage_die(spec).mean()), None

    causes = (NOT_ALLOCATED,) if overkill_possible(spec) else ()
    return Prepared(compute, causes,
                    ("damage distribution only (no allocation, no models destroyed)",))


PEERS: tuple[Peer, ...] = (
    Peer("wh40kdc", "expected values (cruncher)", False, prepare_wh40kdc),
    Peer("warhammer-stats", "exact distributions", True, prepare_warhammer_stats),
    Peer("icepool", "damage distribution (dice algebra)", True, prepare_icepool),
)

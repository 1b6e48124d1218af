"""The attack tools: ``simulate_combat`` (units by name: the scenario or turn document it
builds, computed by ``tactica.calculate``, read by ``tactica.summary.headline``) and
``calculate`` (a document as ``tactica calc`` reads it).

A ``context`` naming a detachment or an army faction the library does not know is the
core's refusal (``tactica.calculate``, with close names, as at every door). Before the
core computes: in ``simulate_combat`` a leader named in ``context.led_by``
is fielded with the attacker, as ``attacker.led_by`` fields it (in a ``calculate``
document whose attacker is a library unit it is refused, saying where it belongs: the
document is the contract, and the contract's ``context.led_by`` only marks a condition).
"""

from __future__ import annotations

import re
from typing import Any

from ..service import Library
from .arguments import MAX_TRIALS, CalculateArgs, SimulateArgs

__all__ = ["argument_place", "calculate", "simulate_combat", "simulate_document"]

Document = dict[str, Any]


def _bounded_trials(document: Document) -> None:
    """A Monte Carlo document asks for at most ``MAX_TRIALS`` trials."""
    trials = document.get("trials")
    if isinstance(trials, int) and not isinstance(trials, bool) and trials > MAX_TRIALS:
        raise ValueError(f"trials: at most {MAX_TRIALS:,} trials per call (asked for "
                         f"{trials:,})")


def _check_document(document: Document, library: Library) -> None:
    """A ``calculate`` document's contexts (module text)."""
    contexts = [("context", document.get("context"), document.get("attacker"))]
    steps = document.get("steps")
    if isinstance(steps, list):
        contexts += [(f"steps[{i}].context", s.get("context"), s.get("attacker"))
                     for i, s in enumerate(steps) if isinstance(s, dict)]
    for where, context, attacker in contexts:
        if isinstance(context, dict) and context.get("led_by") and \
                isinstance(attacker, dict) and "unit" in attacker:
            owner = where.removesuffix("context")
            raise ValueError(f"{where}.led_by: a library unit's leader is fielded with it: "
                             f"name it in {owner}attacker.led_by")


def calculate(args: CalculateArgs, library: Library) -> Document:
    """The result document of a scenario or a sequence."""
    from ..service import calculate as compute

    _bounded_trials(args.document)
    _check_document(args.document, library)
    result = compute(args.document, library)
    return {**result.model_dump(mode="json"), "omitted": []}


# --- simulate_combat -----------------------------------------------------------------------


def _ref(value: Any, leaders: tuple[str, ...] = ()) -> Document:
    dumped: Document = {"unit": value} if isinstance(value, str) else \
        value.model_dump(exclude_defaults=True)
    if leaders:
        dumped["led_by"] = list(dict.fromkeys((*dumped.get("led_by", ()), *leaders)))
    return dumped


def _effects(entries: tuple[Any, ...]) -> list[Any]:
    return [e if isinstance(e, str) else e.model_dump(exclude_defaults=True) for e in entries]


def _leadership(args: SimulateArgs, target: Document, library: Library) -> int | None:
    """The defender's Leadership for battle-shock: the argument, else its datasheet's best
    (lowest) Ld, as ``tactica turn`` takes it; ``None`` for a standard target."""
    if args.leadership is not None:
        return args.leadership
    try:
        sheet = library.datasheet(target["unit"], args.rules)
    except LookupError:
        return None  # a preset (meq): no Leadership known
    return min((m.Ld for m in sheet.models if m.Ld is not None), default=None)


def simulate_document(args: SimulateArgs, library: Library | None = None) -> Document:
    """The scenario (one phase) or sequence (a turn) document the arguments describe
    (``context.led_by`` fielded with the attacker; a turn's battle-shock test against the
    defender's Leadership when ``library`` knows it)."""
    context = args.context.model_dump(mode="json", exclude_defaults=True)
    leaders = tuple(context.pop("led_by", ()))
    effects = _effects(args.effects)
    common: Document = {"rules": args.rules, "method": args.method}
    if args.method == "monte-carlo":
        common.update({k: v for k, v in (("trials", args.trials), ("seed", args.seed))
                       if v is not None})
    attacker, target = _ref(args.attacker, leaders), _ref(args.defender)
    if len(args.phases) == 1:
        return {**common, "phase": args.phases[0], "attacker": attacker, "target": target,
                "context": context, "effects": effects}
    steps: list[Document] = []
    for phase in args.phases:
        if phase == "charge":
            steps.append({"phase": "charge", "unit": attacker["unit"],
                          "distance": args.charge_distance})
            continue
        ctx = {**context, "charged": True} if phase == "fight" and "charge" in args.phases \
            else context
        step: Document = {"phase": phase, "attacker": attacker, "context": ctx}
        if phase in args.effects_by_phase:
            step["effects"] = _effects(args.effects_by_phase[phase])
        steps.append(step)
    out = {**common, "target": target, "steps": steps}
    ld = _leadership(args, target, library) if library is not None else args.leadership
    if ld is not None:
        out["target_leadership"] = ld
    return out


def _fielded(result: Any) -> list[str]:
    resolved = [result.resolved] if result.resolved is not None else []
    resolved += [s.resolved for s in getattr(result, "steps", ()) if s.resolved is not None]
    out = [m for r in resolved for m in (*r.attacker_models, *r.target_models)]
    out += [f"default: {d}" for r in resolved for d in r.defaults]
    return list(dict.fromkeys(out))


_STEP = re.compile(r"^steps(?:\[(\d+)\]|\.(\d+))\.(\w+)((?:\[\d+\]|\.\d+)?)")


def argument_place(text: str, phases: tuple[str, ...]) -> str:
    """A refusal of the document ``simulate_combat`` built, naming the argument the user
    gave instead of the document's field: the defender is the document's ``target``, a
    turn's step (``steps[2]``) is its phase's.

    >>> argument_place("steps[2].effects[1]: 'X' is given twice", ("shooting", "charge",
    ...                "fight"))
    "effects_by_phase.fight[1]: 'X' is given twice"
    >>> argument_place("steps[0].phase: no ranged weapons", ("shooting", "fight"))
    'phases: no ranged weapons'
    """
    m = _STEP.match(text)
    if m is not None:
        i, field = int(m.group(1) or m.group(2)), m.group(3)
        index = f"[{m.group(4).strip('.[]')}]" if m.group(4) else ""
        phase = phases[i] if i < len(phases) else ""
        place = {"attacker": "attacker", "effects": f"effects_by_phase.{phase}",
                 "phase": "phases", "context": "context", "distance": "charge_distance",
                 "unit": "attacker"}.get(field)
        if place is not None:
            return place + index + text[m.end():]
    for word, argument in (("target", "defender"), ("phase:", "phases:")):
        if text.startswith(word):
            return argument + text.removeprefix(word)
    return text


def simulate_combat(args: SimulateArgs, library: Library) -> Document:
    """The headline figures of one unit attacking another (module text), a turn's
    battle-shock test, the units as fielded and the document computed."""
    from ..service import calculate as compute
    from ..service import headline

    document = simulate_document(args, library)
    try:
        result = compute(document, library)
    except ValueError as exc:  # the refusal names the document's field: name the argument
        raise ValueError(argument_place(str(exc), args.phases)) from None
    shock = getattr(result, "battle_shock", None)
    out: Document = {"headline": headline(result).model_dump(mode="json"),
                     "battle_shock": None if shock is None else shock.model_dump(mode="json"),
                     "fielded": _fielded(result), "document": document}
    omitted = []
    if args.full_result:
        out["result"] = result.model_dump(mode="json")
    else:
        omitted.append("the whole result (every distribution, weapon by weapon and stage by "
                       "stage): full_result true, or this document to calculate")
    if len(args.phases) == 1:
        omitted.append("battle-shock: tested after a turn (phases [\"shooting\", \"charge\", "
                       "\"fight\"] and the like)")
    elif shock is None:
        omitted.append("battle-shock: the defender's Leadership is unknown (a standard "
                       "target): give leadership")
    out["omitted"] = omitted
    return out

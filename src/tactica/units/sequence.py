"""Unit references in a sequence document (``docs/sequence.md``): each step's ``attacker``
and the sequence's ``target`` may name library units, resolved as a single scenario's are.

The target is fielded once (``resolve_target``, in the phase of the first attacking step);
each shooting or fight step's unit through ``resolve`` — the step's phase decides which
weapons fire, its leaders and abilities join its context and effects as in a scenario. A
fight step's unit also gives the step's ``models`` (the target fighting back needs them);
a fight-back step without ``attacker`` fights with the target unit's own weapons. A fight
step's lines say which of its model groups carry them (``carriers``: its ``carried_by``),
so that losses take them away with their models. A charge
step's ``unit`` is the library's name for it. Refusals are ``UnitError``s naming the
step's field path (``steps[1].attacker: ...``).
"""

from __future__ import annotations

import contextlib
from typing import Any, Literal

from pydantic import ConfigDict, Field, model_validator

from ..combat.contract.result import Resolved
from ..combat.contract.scenario import Target
from ..combat.contract.sequence import MAX_STEPS, Sequence, Step
from ..errors import one_line
from ..names import UnknownNameError
from .carriers import carriers
from .resolve import UnitError, UnitLibrary, _aim, resolve, resolve_target
from .scenario import AttackerEntry, ScenarioDocument, TargetEntry, UnitRef

__all__ = ["SequenceDocument", "StepDocument", "names_units", "resolve_sequence"]


class StepDocument(Step):
    """A step whose ``attacker`` may be a ``UnitRef``; a fight back may leave it out (the
    target unit's own melee weapons, when the target is a unit reference)."""

    attacker: AttackerEntry | None = None  # type: ignore[assignment]

    @model_validator(mode="after")
    def _kind(self) -> StepDocument:
        if self.fights_back and self.attacker is None:
            return self
        self.check_kind(self.attacker is not None)
        return self


class SequenceDocument(Sequence):
    """The sequence contract with library units (``docs/sequence.md``): the ``target``
    and each step's ``attacker`` are weapon lines and model groups, or units by name."""

    model_config = ConfigDict(title="Sequence", json_schema_extra={
        "description": "A turn against one target (docs/sequence.md): the target and each "
        "step's attacker are model groups and weapon lines, or library units as fielded "
        "({\"unit\": ...})."})

    target: TargetEntry  # type: ignore[assignment]
    steps: tuple[StepDocument, ...] = Field(
        min_length=1, max_length=MAX_STEPS)


def _is_ref(value: Any) -> bool:
    return isinstance(value, dict) and "unit" in value


def names_units(data: Any) -> bool:
    """Whether a sequence document names a library unit anywhere.

    >>> names_units({"target": {"unit": "meq"}, "steps": []})
    True
    """
    return isinstance(data, dict) and (_is_ref(data.get("target")) or any(
        isinstance(s, dict) and _is_ref(s.get("attacker")) for s in data.get("steps") or ()))


def _ref(value: Any, where: str) -> UnitRef:
    try:
        return UnitRef.model_validate(value)
    except ValueError as exc:
        raise UnitError(f"{where}: {one_line(exc)}") from None


def _target(data: dict[str, Any], lib: UnitLibrary, rules: Any
            ) -> tuple[Any, UnitRef | None, Resolved | None, list[str]]:
    raw = data.get("target")
    if not _is_ref(raw):
        return raw, None, None, []
    ref = _ref(raw, "target")
    phases = [s.get("phase") for s in data.get("steps") or () if isinstance(s, dict)]
    phase: Literal["shooting", "fight"] = "fight" if "fight" in phases and "shooting" not in \
        phases else "shooting"
    target, side = resolve_target(ref, lib, rules, phase)
    return target, ref, Resolved(target=target.models, target_models=side.texts(),
                                 defaults=tuple(side.defaults)), list(side.notes)


def _step(step: dict[str, Any], i: int, target: Target, target_ref: UnitRef | None,
          lib: UnitLibrary, rules: Any) -> tuple[dict[str, Any], Resolved | None, list[str]]:
    where = f"steps[{i}]"
    step = dict(step)
    if isinstance(step.get("against"), str):
        with contextlib.suppress(UnknownNameError):  # else a unit given by weapon lines
            step["against"] = lib.datasheet(step["against"], rules).name
    if step.get("phase") == "charge" and isinstance(step.get("unit"), str):
        with contextlib.suppress(UnknownNameError):  # else a unit given by weapon lines
            step["unit"] = lib.datasheet(step["unit"], rules).name
        return step, None, []
    raw = step.get("attacker")
    if raw is None and step.get("fights_back") and target_ref is not None:
        raw = target_ref.model_dump(exclude_defaults=True)
    if not _is_ref(raw):
        return step, None, []
    ref = _ref(raw, f"{where}.attacker")
    phase = "fight" if step.get("phase") == "fight" else "shooting"
    doc = ScenarioDocument.model_validate(
        {"rules": rules, "phase": phase, "attacker": ref, "target": target,
         "context": step.get("context") or {}, "effects": step.get("effects") or ()})
    try:
        scenario, resolved, notes = resolve(doc, lib)
    except UnitError as exc:
        raise UnitError(f"{where}.{exc}") from None
    step.update(attacker=scenario.attacker, context=scenario.context,
                effects=scenario.effects)
    if phase == "fight" and "carried_by" not in step:
        step["carried_by"] = carriers(ref, lib, rules, "fight", _aim(target))
    if phase == "fight" and not step.get("fights_back") and "models" not in step:
        try:
            step["models"] = resolve_target(ref, lib, rules, "fight")[0].models
        except UnitError as exc:
            raise UnitError(f"{where}.attacker{str(exc).removeprefix('target')}") from None
    return step, resolved, notes


def resolve_sequence(data: dict[str, Any], lib: UnitLibrary
                     ) -> tuple[dict[str, Any], Resolved | None, dict[int, Resolved], list[str]]:
    """The plain sequence document of ``data``, what its target and each step's unit
    resolved into (by step index), and notes."""
    rules = data.get("rules", "11th")
    target, target_ref, target_resolved, notes = _target(data, lib, rules)
    if target_ref is not None:
        plain_target = target
    else:
        plain_target = Target.model_validate(target)
    steps: list[Any] = []
    per_step: dict[int, Resolved] = {}
    for i, raw in enumerate(data.get("steps") or ()):
        if not isinstance(raw, dict):
            steps.append(raw)
            continue
        step, resolved, more = _step(raw, i, plain_target, target_ref, lib, rules)
        steps.append(step)
        notes += more
        if resolved is not None:
            per_step[i] = resolved
    out = {**data, "target": plain_target, "steps": steps}
    return out, target_resolved, per_step, notes

"""How a compiled dataset record applies to one scenario (issue 16, issue 24): the parts
whose conditions hold, the option chosen, the weapon lines a part concerns, and what is
noted or listed as not calculated.

A part owned by the attacking unit (a bonus to its attacks) of a detachment's record is
applied only when the army has that detachment (``context.detachment``, ``tactica calc
--detachment`` or the army list), when it is given: "a stratagem of a detachment the
army does not have" is refused (11th 15.01: an army uses its own detachment's
stratagems). A defensive part is the other player's, whose detachment a scenario does
not state.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Literal

from ..combat.contract.scenario import Scenario
from ..names import name_key
from .compiled import Compiled, Part
from .dsl_conditions import Owner
from .model import Condition, Outcome

__all__ = ["OPTION_NAMES", "RecordApply", "Status", "name_options", "note_gaps",
           "pick_option"]

Status = Literal["modelled", "non-combat", "not modelled"]

_GAP = re.compile(r"not (?:encoded|modell?ed|gated|captured|represented)|approximat|"
                  r"\[APPROX\]|opaque grant|cannot share|is ignored", re.IGNORECASE)


def note_gaps(notes: str | None) -> tuple[str, ...]:
    """The sentences of a record's ``community_notes`` that say part of the rule is not
    encoded or approximated (69 modelled records of 1.4.5 say so); a note marked
    ``[APPROX]`` without such a sentence gives that mark.

    >>> note_gaps("[APPROX] Re-roll one Hit roll. The single-roll limit is not encoded.")
    ('The single-roll limit is not encoded',)
    >>> note_gaps("[APPROX] Re-roll one Hit roll."), note_gaps("Re-roll hits.")
    (('the dataset marks its effect as approximate',), ())
    """
    if not notes:
        return ()
    text = notes.replace("Full rule in raw-text store.", "")
    sentences = [x.strip().removeprefix("[APPROX]").strip()
                 for x in re.split(r"(?<=[.;])\s+", text) if x.strip()]
    found = tuple(dict.fromkeys(x.rstrip(".;") for x in sentences
                                if _GAP.search(x) and x.strip() != "[APPROX]"))
    if not found and "[APPROX]" in notes:
        return ("the dataset marks its effect as approximate",)
    return found


#: "Plasma incinerator – Supercharge": a weapon's name, then its profile's.
_PROFILE = re.compile(r"\s+[–-]\s+")


def _scoped(part: Part, s: Scenario) -> Part | None:
    """``part`` with its modifiers limited to the attacker's weapon lines it concerns:
    those it names (by weapon ability or weapon name) and, for a part that applies only
    when the attack's Strength is greater than the target's Toughness (``applies_when``),
    those whose S is greater than every target model's T; ``None`` when none is left. A
    defensive part's modifiers are limited the same way: they change the enemy's
    attack lines too (Flawless Construction)."""
    if not (part.weapon_keyword or part.weapon_names or part.strength_over_toughness):
        return part
    lines = s.attacker.weapons
    if part.weapon_names:
        named = {name_key(n) for n in part.weapon_names}
        lines = tuple(w for w in lines if name_key(w.name) in named
                      or name_key(_PROFILE.split(w.name)[0]) in named)
    elif part.weapon_keyword:
        wanted = name_key(part.weapon_keyword)
        lines = tuple(w for w in lines
                      if any(name_key(str(a)).startswith(wanted) for a in w.abilities))
    if part.strength_over_toughness:
        toughness = max(g.T for g in s.target.models)
        lines = tuple(w for w in lines if toughness < w.S)
    if not lines:
        return None
    names = tuple(w.name for w in lines)
    mods = tuple(m.model_copy(update={"weapons": names}) for m in part.modifiers)
    return replace(part, modifiers=mods)


#: Options the records name only by what they do, under the names players use
#: (Adeptus Custodes Martial Ka'tah: the Dacatarai stance is [SUSTAINED HITS 1], the
#: Rendax stance [LETHAL HITS]).
OPTION_NAMES: dict[tuple[str, str], str] = {
    (name_key("Martial Ka'tah"), "Dacatarai"): "Sustained Hits 1",
    (name_key("Martial Ka'tah"), "Rendax"): "Lethal Hits",
}


def name_options(rule: str, compiled: Compiled) -> Compiled:
    """``compiled`` with the options ``OPTION_NAMES`` knows by their players' names
    ("Dacatarai"), what each does kept in ``option_terms``."""
    names = {name_key(does): stance for (r, stance), does in OPTION_NAMES.items()
             if r == name_key(rule)}
    renamed = {o: names[name_key(o)] for o in compiled.options if name_key(o) in names}
    if not renamed:
        return compiled
    return replace(compiled, options=[renamed.get(o, o) for o in compiled.options],
                   option_terms={renamed.get(o, o): d for o, d in compiled.option_terms.items()},
                   parts=[replace(p, option=renamed.get(p.option, p.option)) if p.option
                          else p for p in compiled.parts])


def pick_option(rule: str, param: str, options: Sequence[str],
                does: Mapping[str, str]) -> str | None:
    """The option ``param`` names: its label, what it does, "option N" or N, a stance
    name (``OPTION_NAMES``), or the one option whose label contains it.

    >>> pick_option("Martial Ka'tah", "Dacatarai", ["Sustained Hits 1", "Lethal Hits"], {})
    'Sustained Hits 1'
    >>> pick_option("X", "option 2", ["a", "b"], {}), pick_option("X", "c", ["a", "b"], {})
    ('b', None)
    """
    stances = {(r, name_key(n)): does for (r, n), does in OPTION_NAMES.items()}
    wanted = name_key(stances.get((name_key(rule), name_key(param)), param))
    for label in options:
        if wanted in (name_key(label), name_key(does.get(label, ""))):
            return label
    heads = [o for o in options if name_key(o.split(",")[0]) == wanted]
    if len(heads) == 1:  # "Lethal Hits" for "Lethal Hits, ranged attacks"
        return heads[0]
    number = re.fullmatch(r"\s*(?:option\s*)?(\d+)\s*", param, re.IGNORECASE)
    if number and 1 <= int(number.group(1)) <= len(options):
        return options[int(number.group(1)) - 1]
    close = [o for o in options if wanted and (wanted in name_key(o) or wanted in name_key(
        does.get(o, "")))]
    return close[0] if len(close) == 1 else None


def _no_weapon(part: Part) -> str:
    if part.strength_over_toughness and not (part.weapon_keyword or part.weapon_names):
        return "no attack has a Strength greater than the target's Toughness"
    what = part.weapon_keyword or " or ".join(part.weapon_names)
    return f"the attacker has no {what} weapon" + (
        " with a Strength greater than the target's Toughness"
        if part.strength_over_toughness else "")


class RecordApply:
    """``NamedEffect.apply`` of a compiled record: the parts whose conditions hold."""

    def __init__(self, name: str, entry: Compiled, status: Status, reason: str,
                 record_conditions: dict[Owner, tuple[Condition, ...]],
                 phases: tuple[str, ...], detachments: tuple[str, ...] = (),
                 gaps: tuple[str, ...] = ()) -> None:
        self.name, self.entry, self.status, self.reason = name, entry, status, reason
        self.record_conditions = record_conditions
        self.phases = phases
        #: the detachments whose record this is (none: an army rule, a core stratagem)
        self.detachments = detachments
        #: what the record's notes say is not encoded or approximated
        self.gaps = gaps

    def detachment_problem(self, s: Scenario) -> str | None:
        """Why the attacking army may not use this record: its detachment is not the
        army's (``context.detachment``), or ``None``."""
        army = s.context.detachment
        if not army or not self.detachments or name_key(army) in {
                name_key(d) for d in self.detachments}:
            return None
        return (f"a rule of the {' / '.join(self.detachments)} detachment; the army's "
                f"detachment is {army}")

    def __call__(self, s: Scenario, param: str | None) -> Outcome:
        if self.status != "modelled":
            what = "not a combat rule" if self.status == "non-combat" else "not modelled"
            return Outcome(not_calculated=(f"{self.name}: {what} ({self.reason})",))
        parts = self._chosen(param)
        applied: list[Part] = []
        skipped: list[str] = []
        for part in parts:
            why = self._why_not(part, s)
            scoped = _scoped(part, s)
            if why is None and scoped is None:
                why = _no_weapon(part)
            if why:
                skipped.append(f"{part.terms}: {why}")
            else:
                assert scoped is not None
                applied.append(scoped)
        if not applied:
            raise ValueError(f"{self.name}: " + "; ".join(dict.fromkeys(skipped)))
        out = self._outcome(applied, skipped, s)
        chosen = dict.fromkeys(p.option for p in applied if p.option)
        if param is not None and chosen:  # the option as the record names it
            out = replace(out, notes=(*out.notes, f"{self.name}: the option "
                                      + "; ".join(self._described(o) for o in chosen)))
        return out

    def _chosen(self, param: str | None) -> list[Part]:
        options = self.entry.options
        if not options:
            return list(self.entry.parts)
        listed = "; ".join(self._described(o) for o in options)
        if param is None:
            fixed = [p for p in self.entry.parts if p.option is None]
            if fixed:
                return fixed
            raise ValueError(f"{self.name}: name the option chosen ('{self.name}: "
                             f"{options[0]}'); options: {listed}")
        label = pick_option(self.name, param, options, self.entry.option_terms)
        if label is None:
            raise ValueError(f"{self.name}: no option {param!r}; options: {listed}")
        return [p for p in self.entry.parts if p.option is None or p.option == label]

    def _described(self, label: str) -> str:
        does = self.entry.option_terms.get(label)
        return label if does is None or label.endswith(does) else f"{label} ({does})"

    def _why_not(self, part: Part, s: Scenario) -> str | None:
        if part.attack == "ranged" and s.phase != "shooting":
            return "only ranged attacks"
        if part.attack == "melee" and s.phase != "fight":
            return "only melee attacks"
        failed = [c.failure for c in (*self.record_conditions[part.owner], *part.conditions)
                  if not c.test(s)]
        if part.owner == "attacker" and (problem := self.detachment_problem(s)):
            failed.insert(0, problem)
        return "; ".join(failed) or None

    def _outcome(self, applied: list[Part], skipped: list[str], s: Scenario) -> Outcome:
        notes = [f"{self.name}: not applied: {x}" for x in skipped]
        assumed = dict.fromkeys(a for p in applied for a in p.assumptions)
        assumed.update(dict.fromkeys(  # not stated: the distance, the picked unit
            c.description for p in applied for c in p.conditions
            if c.unstated is not None and c.unstated(s)))
        notes += [f"{self.name}: assumes {a}" for a in assumed]
        not_calc = [f"{self.name}: part not modelled ({u})"
                    for u in dict.fromkeys(self.entry.unmodelled)]
        not_calc += [f"{self.name}: part not modelled (the dataset's {k!r} of "
                     f"{p.terms!r} is not read)" for p in applied for k in p.unread]
        not_calc += [f"{self.name}: not calculated: {g}" for g in self.gaps]
        context: dict[str, object] = {}
        for p in applied:
            context.update(dict(p.context))
        return Outcome(
            modifiers=tuple(m for p in applied for m in p.modifiers), context=context,
            mortal_before=tuple((f"{self.name}: {p.terms}", p.mortal_before)
                                for p in applied if p.mortal_before is not None),
            side=tuple((f"{self.name}: {p.terms}", p.side) for p in applied
                       if p.side is not None),
            notes=tuple(notes), not_calculated=tuple(not_calc),
            target_changes=tuple(c for p in applied for c in p.target_changes))

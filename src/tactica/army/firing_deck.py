"""Firing Deck X (24.14): a TRANSPORT's attack with its passengers' guns.

The 11th text (BSData game system file): "Select up to X models embarked within this
TRANSPORT ... For each selected model, select one of its ranged weapons (excluding [ONE
SHOT] weapons). Until this TRANSPORT has resolved all of its attacks, it has all of those
selected weapons in addition to its other weapons." The 10th text (Banehammer page) says
the same. The passengers' weapon lines keep their own characteristics (the embarked
models' BS); they are marked ``firing_deck`` so that rules about "the weapons it has as a
result of the Firing Deck ability" (Cartographic Data-leech) apply to them only.
"""

from __future__ import annotations

from ..combat.contract.scenario import Attacker, WeaponLine
from ..model.datasheet import Datasheet

__all__ = ["firing_deck_size", "with_firing_deck"]


def firing_deck_size(transport: Datasheet) -> int:
    """X of the transport's Firing Deck X. Raises ``ValueError`` if it has none."""
    ability = transport.ability("Firing Deck")
    if ability is None or ability.parameter is None or ability.parameter.is_random:
        raise ValueError(f"{transport.name} has no Firing Deck ability")
    return ability.parameter.max


def with_firing_deck(transport: Attacker, x: int, passengers: str,
                     lines: tuple[WeaponLine, ...]) -> tuple[Attacker, list[str]]:
    """``transport`` with the passengers' weapon ``lines`` (one weapon per model) added
    as Firing Deck weapons: at most ``x`` models' weapons, [ONE SHOT] and melee weapons
    left out (each said in the notes)."""
    notes: list[str] = []
    taken: list[WeaponLine] = []
    budget = x
    for line in lines:
        if line.range == "Melee" or line.has("One Shot"):
            notes.append(f"{line.name}: not a Firing Deck weapon (melee or [ONE SHOT])")
            continue
        count = min(line.count, budget)
        if count < line.count:
            notes.append(f"{line.name}: {line.count - count} left out (Firing Deck {x}: "
                         f"up to {x} embarked models)")
        if count:
            taken.append(line.model_copy(update={
                "name": f"{line.name} (embarked {passengers})", "count": count,
                "firing_deck": True}))
            budget -= count
    if not taken:
        raise ValueError(f"{passengers}: no ranged weapon for the Firing Deck")
    notes.append(f"Firing Deck {x}: {sum(w.count for w in taken)} embarked {passengers} "
                 "model(s) shoot with the transport, with their own BS")
    return transport.model_copy(update={"weapons": transport.weapons + tuple(taken),
                                        "firing_deck": x}), notes

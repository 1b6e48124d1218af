"""The rules of a turn around the attacks, per edition: the charge roll, the order of the
fight phase, battle-shock and the stratagem limits (knobs and small methods, as in
``rules.base``).

Texts (seed pages; 10th: 001-003, 11th: 000/004):

* charge roll: 10th "You then make a Charge roll for the charging unit by rolling 2D6";
  11th 11.02 (the seeds reference it; 15.02 "excluding charge rolls, which you must
  re-roll in full"). A re-roll of a charge roll re-rolls both dice, at most once.
* fight order: 10th Charge Bonus "each time a unit makes a Charge move, until the end of
  the turn, that unit has the Fights First ability"; 11th 11.04 "each model ... has the
  Fights First ability until the end of the turn"; 24.13 "See the Resolve Fights First
  Combats step in the Fight phase (12.04)". Fights First units fight first, then the
  remaining combats; in each step the players alternate, starting with the player whose
  turn is not taking place (10th Fight phase; 12.04 is missing from the seeds, the same
  sequence is taken for 11th and said so in the notes).
* battle-shock: 10th "take a Battle-shock test for each of your units ... that is Below
  Half-strength. To do so, roll 2D6: if the result is greater than or equal to the best
  Leadership characteristic in that unit, the test is passed"; 11th 01.07 "makes a
  leadership roll" (the leadership roll itself is missing from the seeds: 2D6 against
  Ld, as in 10th) for units "at or below half-strength" (01.02.04).
* stratagems: "you cannot use the same Stratagem more than once in the same phase"
  (both editions; 11th section 15 is missing from the seeds, the limit is taken as in
  10th), per player.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar, Literal

from ..model.common import RulesVersion

__all__ = ["Fighter", "TurnRules", "get_turn_rules"]

Side = Literal["attacker", "defender"]


@dataclass(frozen=True)
class Fighter:
    """A unit eligible to fight: its place in the sequence, side and Fights First."""

    index: int
    side: Side
    fights_first: bool


class TurnRules:
    """What both editions share; subclasses set the knobs that differ."""

    name: ClassVar[RulesVersion]
    #: Dice of a charge roll and of a battle-shock test.
    charge_dice: ClassVar[int] = 2
    battle_shock_dice: ClassVar[int] = 2
    #: A charge move grants Fights First until the end of the turn (10th Charge Bonus;
    #: 11th 11.04).
    charge_grants_fights_first: ClassVar[bool] = True
    #: Who selects first in each step of the fight phase.
    fight_alternation_starts: ClassVar[Side] = "defender"
    #: The battle-shock test is taken at half strength too ("at or below"), not only below.
    half_strength_inclusive: ClassVar[bool]
    #: The same stratagem is used at most once per phase (per player).
    stratagem_once_per_phase: ClassVar[bool] = True
    #: The fight-phase sequence, in the player's words (the result's notes).
    fight_order_note: ClassVar[str]

    def below_half(self, models_left: int, starting_models: int, wounds_left: int,
                   starting_wounds: int) -> bool:
        """Whether the unit takes a battle-shock test: fewer (11th: at most) than half
        its starting models, or for a single-model unit half its starting wounds. A
        destroyed unit takes none.

        >>> ten = get_turn_rules("10th")
        >>> ten.below_half(2, 5, 4, 10), ten.below_half(3, 5, 6, 10)
        (True, False)
        """
        if models_left == 0:
            return False
        if starting_models == 1:
            left, start = wounds_left, starting_wounds
        else:
            left, start = models_left, starting_models
        return 2 * left <= start if self.half_strength_inclusive else 2 * left < start

    def fight_order(self, fighters: list[Fighter]) -> list[Fighter]:
        """The order the units fight in: the Fights First step, then the remaining
        combats; in each the players alternate, ``fight_alternation_starts`` first, each
        player's units in the order the sequence lists them.

        >>> r = get_turn_rules("10th")
        >>> [f.index for f in r.fight_order([Fighter(0, "attacker", True),
        ...                                  Fighter(1, "defender", False)])]
        [0, 1]
        >>> [f.index for f in r.fight_order([Fighter(0, "attacker", True),
        ...                                  Fighter(1, "defender", True)])]
        [1, 0]
        """
        out: list[Fighter] = []
        for first in (True, False):
            queues = {side: [f for f in fighters if f.fights_first == first and f.side == side]
                      for side in ("attacker", "defender")}
            side: Side = self.fight_alternation_starts
            while queues["attacker"] or queues["defender"]:
                if queues[side]:
                    out.append(queues[side].pop(0))
                side = "attacker" if side == "defender" else "defender"
        return out


class TenthTurn(TurnRules):
    name = "10th"
    half_strength_inclusive = False  # "Below Half-strength"
    fight_order_note = ("Fight order (10th): units that charged fight first (Charge Bonus: "
                        "Fights First), then the remaining combats; in each step the "
                        "player whose turn it is not selects first")


class EleventhTurn(TurnRules):
    name = "11th"
    half_strength_inclusive = True  # 01.02.04 "at or below half-strength"
    fight_order_note = ("Fight order (11th): Fights First units first (a charge move gives "
                        "Fights First, 11.04), then the remaining combats; in each step the "
                        "player whose turn it is not selects first (as 10th: the 12.04 text "
                        "is not in the source pages)")


_TURN_RULES: dict[str, TurnRules] = {"10th": TenthTurn(), "11th": EleventhTurn()}


def get_turn_rules(name: RulesVersion | str = "11th") -> TurnRules:
    """The turn rules of ``"11th"`` (default) or ``"10th"``."""
    try:
        return _TURN_RULES[name]
    except KeyError:
        raise ValueError(f"unknown rules version {name!r}; known: 11th, 10th") from None

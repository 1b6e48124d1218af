"""Army against army: the matchup matrix of two lists and the best shooting plan, exactly.

* ``matchup(MINE, ENEMY)`` (``tactica.plan.matrix``): every unit of each side against
  every unit of the other, shooting and fighting: expected models destroyed, P(unit
  destroyed), damage, points destroyed and points destroyed per 100 points of the
  attacker; ``.to_frame()`` gives a pandas DataFrame.
* ``plan(MINE, ENEMY)`` (``tactica.plan.solver``): each shooting unit assigned to one
  enemy unit to maximise the expected points destroyed (or the chance to destroy named
  units), several units at one target evaluated exactly in their firing order.

Each side is a list file, a list's text, or unit names (``tactica.plan.army``).
"""

from .army import Side, SideError, SideUnit, read_side
from .cells import Cell, Conditions
from .matrix import Matchup, matchup, matchup_sides
from .solver import Plan, Volley, plan, solve

__all__ = ["Cell", "Conditions", "Matchup", "Plan", "Side", "SideError", "SideUnit",
           "Volley", "matchup", "matchup_sides", "plan", "read_side", "solve"]

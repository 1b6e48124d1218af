"""Survivors and their weapons: which models of a unit's entries are alive in a state of
its allocation groups, which weapon lines each entry carries, and how many of each line
the survivors still fight with (``docs/sequence.md``; 05.04.04: a destroyed model makes no
attacks).

Within an allocation group the wounded model is removed first, then the models in the
order listed. Within an entry the models with the lines listed first are removed last (the
defender's choice), so line i keeps ``min(share_i, alive - shares of the lines before
it)``; [EXTRA ATTACKS] lines are carried besides: ``min(share, alive)``.
"""

from __future__ import annotations

from collections.abc import Mapping

from tactica.cache_registry import lasting_cache

from ...rules import RuleSet, get_ruleset
from ..contract.scenario import Attacker, ModelGroup, ScenarioError, Target
from ..exact.allocation import Group, State, build_groups

__all__ = ["Shares", "alive_per_entry", "line_counts", "line_shares", "scaled_attacker"]


@lasting_cache(maxsize=None)
def _parts(entries: tuple[ModelGroup, ...]) -> tuple[tuple[int, ...], ...]:
    """The entries each allocation part holds, found by building the parts entry by entry
    (``build_groups`` itself decides; an entry either grows a part or adds new ones)."""
    parts: list[list[int]] = []
    before: tuple[Group, ...] = ()
    for j in range(len(entries)):
        after = build_groups(Target(models=entries[: j + 1]))
        if len(after) > len(before):
            parts.extend([j] for _ in range(len(after) - len(before)))
        else:  # merged into an existing part: the one whose count grew
            grown = next(i for i, (a, b) in enumerate(zip(before, after, strict=True))
                         if a.count != b.count)
            parts[grown].append(j)
        before = after
    return tuple(tuple(p) for p in parts)


def alive_per_entry(entries: tuple[ModelGroup, ...], state: State,
                    rules: RuleSet | None = None) -> list[int]:
    """Models alive of each listed entry, from a state of ``build_groups`` of them: the
    entries each allocation part holds (found by building the parts entry by entry), the
    wounded model removed first, then the models in the order listed (``rules``'
    ``RuleSet.model_order``; the default rule set's).

    >>> e = (ModelGroup(name="Sgt", count=1, T=4, Sv=3, W=2),
    ...      ModelGroup(name="Marine", count=4, T=4, Sv=3, W=2))
    >>> alive_per_entry(e, (2, 2, -1, -1))     # 3 of 5 removed: the Sgt (listed first) and 2
    [0, 2]
    """
    orders = _orders(entries, rules if rules is not None else get_ruleset())
    alive = [0] * len(entries)
    for gi, order in enumerate(orders):
        k = state[2 * gi]
        for j in order[len(order) - k:] if k else ():
            alive[j] += 1
    return alive


@lasting_cache(maxsize=None)
def _orders(entries: tuple[ModelGroup, ...], rules: RuleSet) -> tuple[tuple[int, ...], ...]:
    """Each allocation part's models (as the entries they belong to) in the order attacks
    go to them (``RuleSet.model_order``): worked out once per entries and rule set, a
    turn asks it for every state."""
    out = []
    for members in _parts(entries):
        j0 = members[0]
        listed = [j0] if entries[j0].character else [
            j for j in members for _ in range(entries[j].count)]
        # the first model of an entry carries its ``wounds_lost`` (reference facts §5.1)
        first = [i == listed.index(j) and bool(entries[j].wounds_lost)
                 for i, j in enumerate(listed)]
        out.append(tuple(listed[i] for i in rules.model_order(first)))
    return tuple(out)


Shares = tuple[tuple[int, ...], ...]


def _describe(entries: tuple[ModelGroup, ...]) -> str:
    return ", ".join(f"{e.count} {e.name}" for e in entries)


def line_shares(attacker: Attacker, entries: tuple[ModelGroup, ...],
                carried_by: Mapping[str, str | Mapping[str, int]]) -> Shares:
    """How many of each weapon line each model entry carries (``shares[line][entry]``).

    ``carried_by`` names the entry of a line (``"Sergeant"``) or splits it
    (``{"Sergeant": 1, "Intercessor": 4}``, summing to the line's count). Otherwise one
    entry carries every line; with several entries a line is matched: one per model when
    its count is the unit's size, else the one entry of exactly that many models. A line
    no entry can carry is refused (``ScenarioError`` naming ``weapons.K``), never guessed.

    >>> e = (ModelGroup(name="Sgt", count=1, T=4, Sv=3, W=2),
    ...      ModelGroup(name="Marine", count=4, T=4, Sv=3, W=2))
    >>> a = Attacker(weapons=[{"name": "Fist", "A": "3", "skill": 3, "S": 8, "D": "2",
    ...     "range": "Melee"}, {"name": "Knife", "count": 5, "A": "3", "skill": 3, "S": 4,
    ...     "D": "1", "range": "Melee"}])
    >>> line_shares(a, e, {})
    ((1, 0), (1, 4))
    """
    names = {e.name.casefold(): j for j, e in enumerate(entries)}
    size = sum(e.count for e in entries)
    out: list[tuple[int, ...]] = []
    for k, line in enumerate(attacker.weapons):
        share = [0] * len(entries)
        owner = carried_by.get(line.name)
        where = f"weapons.{k}"
        if isinstance(owner, str):
            owner = {owner: line.count}
        if owner is not None:
            for name, n in owner.items():
                j = names.get(name.casefold())
                if j is None:
                    raise ScenarioError(f"{where}: carried_by names {name!r}, not one of the "
                                        f"unit's models ({_describe(entries)})")
                share[j] += n
            if sum(share) != line.count:
                raise ScenarioError(f"{where}: carried_by gives {sum(share)} {line.name}; "
                                    f"the line has {line.count}")
        elif len(entries) == 1:
            share[0] = line.count
        elif line.count == size:
            share = [e.count for e in entries]
        else:
            fits = [j for j, e in enumerate(entries) if e.count == line.count]
            if len(fits) != 1:
                raise ScenarioError(
                    f"{where}: which models carry {line.count} {line.name}? The unit is "
                    f"{_describe(entries)}: give one per model ({size}), or name the models "
                    "in carried_by")
            share[fits[0]] = line.count
        out.append(tuple(share))
    return tuple(out)


def line_counts(attacker: Attacker, shares: Shares, alive: list[int]) -> tuple[int, ...]:
    """The count of each weapon line for the models alive of each entry (see the module
    docstring): within an entry the lines listed first are kept longest; [EXTRA ATTACKS]
    lines are carried besides.

    >>> a = Attacker(weapons=[{"name": "Fist", "A": "3", "skill": 3, "S": 8, "D": "2",
    ...     "range": "Melee"}, {"name": "Blade", "count": 4, "A": "3", "skill": 3, "S": 4,
    ...     "D": "1", "range": "Melee"}])
    >>> line_counts(a, ((1,), (4,)), [3])
    (1, 2)
    """
    used = [0] * len(alive)
    out = []
    for line, share in zip(attacker.weapons, shares, strict=True):
        n = 0
        for j, c in enumerate(share):
            if not c:
                continue
            if line.has("Extra Attacks"):
                n += min(c, alive[j])
                continue
            n += max(0, min(c, alive[j] - used[j]))
            used[j] += c
        out.append(n)
    return tuple(out)


def scaled_attacker(attacker: Attacker, counts: tuple[int, ...]) -> Attacker | None:
    lines = tuple(line.model_copy(update={"count": c})
                  for line, c in zip(attacker.weapons, counts, strict=True) if c > 0)
    return attacker.model_copy(update={"weapons": lines}) if lines else None

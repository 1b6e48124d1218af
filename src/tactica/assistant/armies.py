"""Army against army: ``matchup`` (``tactica.plan.matchup_sides``) and ``plan``
(``tactica.plan.solve``), each army read from its text by ``tactica.plan.read_side``.

By default an answer is a summary an assistant can read whole (14 KB for two 2,000-point
lists of the app, whose whole matrix is 484 KB): the matrix's best cells per side
and phase, the units that cannot attack and why, and each note once with the units it
concerns; the plan without the naive plan's volleys. ``detail: "all"`` gives the whole
document ``tactica matchup --json`` / ``tactica plan --json`` prints. Every answer says
under ``omitted`` what it left out and how to ask for it.
"""

from __future__ import annotations

import json
from typing import Any, Literal

from ..service import Library
from .arguments import MAX_ARMY_UNITS, MatchupArgs, PlanArgs

__all__ = ["matchup", "plan", "summary_of_matchup", "summary_of_plan"]

Document = dict[str, Any]

#: A cell's figures kept in a summary (``side``, ``phase`` are its group's).
_FIGURES = ("attacker", "target", "models_destroyed", "p_destroyed", "damage",
            "points_destroyed", "per_100_points")


def _sides(args: MatchupArgs | PlanArgs, library: Library) -> tuple[Any, Any, Any]:
    """Both armies read from their text (never from a file of the server's) and the
    conditions, each army of at most ``MAX_ARMY_UNITS`` units."""
    from ..service import SideError, read_side

    sides = []
    for field, label in (("mine", "my list"), ("enemy", "enemy list")):
        side = read_side(getattr(args, field), library, name=label, rules=args.rules,
                         files=False, strict=args.strict)
        if len(side.units) > MAX_ARMY_UNITS:
            raise SideError(f"{field}: {len(side.units)} units; at most {MAX_ARMY_UNITS} "
                            "per army")
        sides.append(side)
    conditions = args.conditions()  # checked by the core, naming the argument
    return sides[0], sides[1], conditions


def _kb(document: Document) -> str:
    return f"{len(json.dumps(document, ensure_ascii=False).encode()) / 1024:,.0f} KB"


def _side(side: Document) -> Document:
    """A side's units as label, points and models (what a unit cannot attack with is
    said once, under ``cannot_attack``)."""
    units = [{k: u[k] for k in ("label", "points", "models") if k in u}
             for u in side.get("units", ())]
    return {**{k: v for k, v in side.items() if k != "units"}, "units": units}


def _cell(cell: Document) -> Document:
    out = {k: cell[k] for k in _FIGURES if k in cell}
    if cell.get("p_charge") is not None:
        out["p_charge"] = cell["p_charge"]
    for key in ("effects", "cp"):
        if cell.get(key):
            out[key] = cell[key]
    return out


def _notes(notes: dict[str, list[str]], cells: list[Document]) -> list[Document]:
    """Each note once, with the attackers whose cells have it, or the side whose every
    attacker's do (an army rule of the list)."""
    by_side: dict[str, set[str]] = {}
    for cell in cells:
        by_side.setdefault(cell["side"], set()).add(cell["attacker"])
    out: list[Document] = []
    for note, attackers in notes.items():
        side = next((s for s, every in by_side.items() if every == set(attackers)), None)
        out.append({"note": note, "side": side} if side is not None and len(attackers) > 1
                   else {"note": note, "attackers": attackers})
    return out


def summary_of_matchup(whole: Document, top: int) -> Document:
    """The summary of a matchup document (module text): per side and phase the ``top``
    cells by expected points destroyed; each note once, with the attackers it concerns
    (``side``: every attacker of that side)."""
    cells: list[Document] = whole.get("cells", [])
    best: dict[str, dict[str, list[Document]]] = {}
    cannot: dict[tuple[str, str, str], str] = {}
    notes: dict[str, list[str]] = {}
    for cell in cells:
        if cell.get("status", "ok") != "ok":
            cannot.setdefault((cell["side"], cell["phase"], cell["attacker"]),
                              cell.get("reason", ""))
            continue
        best.setdefault(cell["side"], {}).setdefault(cell["phase"], []).append(cell)
        for note in cell.get("notes", ()):
            attackers = notes.setdefault(note, [])
            if cell["attacker"] not in attackers:
                attackers.append(cell["attacker"])
    kept = 0
    for phases in best.values():
        for phase, group in phases.items():
            group.sort(key=lambda c: -float(c.get("points_destroyed") or 0.0))
            phases[phase] = [_cell(c) for c in group[:top]]
            kept += len(phases[phase])
    out: Document = {
        "detail": "summary", "warnings": whole.get("warnings", []),
        "mine": _side(whole.get("mine", {})), "enemy": _side(whole.get("enemy", {})),
        "conditions": whole.get("conditions", {}), "best": best,
        "cannot_attack": [{"side": s, "phase": p, "attacker": a, "reason": r}
                          for (s, p, a), r in cannot.items()],
        "notes": _notes(notes, cells)}
    omitted = []
    if kept < len(cells) - sum(1 for c in cells if c.get("status", "ok") != "ok"):
        omitted.append(f"cells: {len(cells)} in all (an attacker, a target, a phase); here "
                       f"the best {top} per side and phase by expected points destroyed, "
                       f"without their notes (under notes, once each): top up to 50 for "
                       f"more, detail \"all\" for every cell ({_kb(whole)})")
    out["omitted"] = omitted
    return out


def summary_of_plan(whole: Document) -> Document:
    """The summary of a plan document: the naive plan by its totals alone."""
    naive = whole.get("naive", {})
    out = {**whole, "detail": "summary",
           "naive": {k: v for k, v in naive.items() if k != "volleys"}}
    out["omitted"] = ["the naive plan's volleys (each unit at its own best target): "
                      "detail \"all\""] if naive.get("volleys") else []
    return out


def matchup(args: MatchupArgs, library: Library) -> Document:
    """The matchup matrix: ``tactica matchup --json``'s document, or its summary."""
    from ..service import matchup_sides

    mine, enemy, conditions = _sides(args, library)
    sides: tuple[Literal["mine", "enemy"], ...] = \
        ("mine", "enemy") if args.sides == "both" else (args.sides,)
    m = matchup_sides(mine, enemy, phases=args.phases, sides=sides, conditions=conditions)
    whole = m.to_json()
    if args.detail == "all":
        return {**whole, "detail": "all", "omitted": []}
    return summary_of_matchup(whole, args.top)


def plan(args: PlanArgs, library: Library) -> Document:
    """The shooting plan: ``tactica plan --json``'s document, or its summary."""
    from ..service import solve

    mine, enemy, conditions = _sides(args, library)
    p = solve(mine, enemy, conditions, forbidden=args.forbid, destroy=args.destroy,
              objective=args.objective, phase=args.phase)
    whole = p.to_json()
    if args.detail == "all":
        return {**whole, "detail": "all", "omitted": []}
    return summary_of_plan(whole)

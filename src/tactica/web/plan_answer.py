"""The army page's answer (``tactica.web.plan``) as JSON: the matrix's grids as coloured
cells, the plan and its picture, or the one line refusing the lists. Computed in a
calculation worker process (``plan_line``, called by ``tactica.web.compute``), or on the
server's plan thread for a library no worker can build.
"""

from __future__ import annotations

import base64
import json
from dataclasses import replace
from typing import Any

from ..service import (
    Library,
    Matchup,
    Plan,
    PlanRequest,
    SideError,
    UnknownNameError,
    cell_value,
    matchup_sides,
    plan_svg,
)

__all__ = ["compute", "plan_line"]


def _heat(v: float | None, top: float) -> str:
    """The CSS class colouring a cell: ``heat-0`` (nothing) to ``heat-9`` (the most)."""
    if v is None:
        return "heat-none"
    return f"heat-{min(9, int(10 * v / top)) if top > 0 else 0}"


def _grids(m: Matchup, value: str) -> list[dict[str, Any]]:
    out = []
    for (side, phase), grid in m.grids.items():
        values = [v for row in grid for c in row if (v := cell_value(c, value)) is not None]
        top = max(values, default=0.0)
        rows = []
        for unit, row in zip(m.attackers(side).units, grid, strict=True):
            cells = []
            for c in row:
                v = cell_value(c, value)
                text = "–" if v is None else f"{v:.0%}" if value == "destroy" else f"{v:.1f}"
                tip = (f"{c.attacker} → {c.target}: " + (c.reason if v is None else
                       f"{c.points:.1f} points, {c.models_destroyed:.2f} models, "
                       f"{c.p_destroyed:.0%} destroyed"))
                cells.append({"text": text, "css": _heat(v, top), "tip": tip})
            rows.append({"label": unit.label, "points": unit.points, "cells": cells})
        who = "My units" if side == "mine" else "The enemy's units"
        out.append({"title": f"{who}: {phase}", "rows": rows, "targets": [
            {"label": u.label, "points": u.points} for u in m.defenders(side).units]})
    return out


def _volleys(volleys: Any) -> list[dict[str, Any]]:
    return [{"target": v.target, "order": list(v.order),
             "outcome": {"points": v.outcome.points, "models": v.outcome.models,
                         "p_destroyed": v.outcome.p_destroyed}} for v in volleys]


def _plan_view(p: Plan) -> dict[str, Any]:
    """What the page shows of a plan, as JSON (a worker's answer)."""
    return {"phase": p.phase, "points": p.points, "objective": p.objective,
            "method": p.method, "assignments": p.assignments, "optimal": p.optimal,
            "bound": p.bound, "gap": p.gap, "volleys": _volleys(p.volleys),
            "naive_points": p.naive_points, "naive_volleys": _volleys(p.naive_volleys),
            "idle": dict(p.idle), "warnings": list(p.warnings)}


def compute(request: PlanRequest, charge: float | None, value: str, lib: Library
             ) -> dict[str, Any]:
    """The page's answer as JSON: the grids (showing ``value``), the plan and its picture,
    or ``error``: the one line refusing the lists."""
    try:
        mine, enemy = request.read(lib)
        m = matchup_sides(mine, enemy, conditions=replace(request.conditions(),
                                                          charge=charge))
        p = request.solve(mine, enemy)
    except (SideError, UnknownNameError, ValueError, LookupError) as exc:
        return {"error": " ".join(str(exc).split())}
    try:  # an image (a data: URL): the page's policy refuses an inline SVG's styles
        svg = plan_svg(p).encode()
        picture: str | None = "data:image/svg+xml;base64," + base64.b64encode(svg).decode()
    except (ImportError, LookupError):  # without the plot extra: the tables alone
        picture = None
    return {"grids": _grids(m, value), "plan": _plan_view(p), "picture": picture}


def plan_line(recipe: str, request_json: str) -> str:
    """A worker's answer (``tactica.web.compute``): the request (the plan's, the charge
    and the value shown, as JSON) over the library of ``recipe``, as JSON."""
    from .lists import recipe_library

    data = json.loads(request_json)
    request = PlanRequest.model_validate(data["request"])
    return json.dumps(compute(request, data["charge"], data["value"],
                               recipe_library(recipe)))

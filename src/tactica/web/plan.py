"""The army-against-army page, ``/plan``: paste (or open) two army lists, see the matchup
matrix as a coloured table for each side and phase, and the plan (shooting or charge) with
its picture beside the naive plan (``tactica.plan``). The plan's options are the fields of
``PlanRequest`` (the options of ``tactica plan``), one control each, made from the field.
Rendered on the server (no script): the form posts to ``/plan`` and the answer carries
a share link, ``/plan?s=...``, holding both lists and the options (zlib-compressed JSON
in base64url), which renders the same page again.

A computation runs on its own thread and is refused past ``PLAN_TIMEOUT`` seconds; a list
that cannot be read or does not validate is shown as its one-line reason.
"""

from __future__ import annotations

import asyncio
import base64
import binascii
import json
import typing
import zlib
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field, replace
from typing import Any
from urllib.parse import parse_qs

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse

from ..service import (
    VALUES,
    WORDS,
    Library,
    Matchup,
    Plan,
    PlanRequest,
    RequestError,
    SideError,
    UnknownNameError,
    cell_value,
    field_kind,
    matchup_sides,
    plan_svg,
)

__all__ = ["PLAN_TIMEOUT", "decode_share", "encode_share", "router"]

router = APIRouter()

#: Seconds one page's matrix and plan may take.
PLAN_TIMEOUT = 30.0
#: The longest list accepted (each), in characters.
MAX_LIST = 64 * 1024
#: A share link's state, compressed, at most this long (the server's head limit is 16 KB).
MAX_SHARE = 12 * 1024

_WORKER = ThreadPoolExecutor(max_workers=1, thread_name_prefix="tactica-plan")


#: The request's fields the page asks for beside the two lists, each a control made from
#: the field (``controls``): the options of ``tactica plan``.
OPTIONS = tuple(name for name in PlanRequest.model_fields if name not in ("mine", "enemy"))



@dataclass
class Form:
    """What the page asks: both lists, what the matrix shows, the charge before its
    fights, and the plan's options (``options``: each field's words as typed)."""

    mine: str = ""
    enemy: str = ""
    value: str = "points"
    charge: float | None = None
    options: dict[str, str] = field(default_factory=dict)
    errors: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    request: PlanRequest | None = None

    def state(self) -> dict[str, Any]:
        return {"mine": self.mine, "enemy": self.enemy, "value": self.value,
                "charge": self.charge, **{k: v for k, v in self.options.items() if v}}


def controls(form: Form, model: type[PlanRequest] = PlanRequest) -> list[dict[str, Any]]:
    """One control a field of the request (``PlanRequest``) but the lists: its name,
    label, kind (``tactica.plan.request.field_kind``), help, an example entry (a box's,
    ``tactica.plan.request.WORDS``), choices, bounds and the words typed."""
    out = []
    for name, info in model.model_fields.items():
        if name in ("mine", "enemy"):
            continue
        kind = field_kind(info.annotation)
        bounds = {k: getattr(m, k) for m in info.metadata for k in ("ge", "le")
                  if hasattr(m, k)}
        default = info.get_default(call_default_factory=True)
        example, words = WORDS.get(name, ("", ""))
        out.append({"name": name, "label": name.replace("_", " "), "kind": kind,
                    "help": words or info.description or "", "example": example,
                    "min": bounds.get("ge"),
                    "max": bounds.get("le"),
                    "choices": typing.get_args(info.annotation) if kind == "choice" else (),
                    "value": form.options.get(name, str(default) if kind == "choice"
                                              else "")})
    return out


def encode_share(form: Form) -> str:
    """The share token of ``form``.

    >>> decode_share(encode_share(Form("Rhino", "Gretchin:10", "per100", 9.0))).state()
    {'mine': 'Rhino', 'enemy': 'Gretchin:10', 'value': 'per100', 'charge': 9.0}
    """
    raw = zlib.compress(json.dumps(form.state(), separators=(",", ":")).encode(), 9)
    return base64.urlsafe_b64encode(raw).decode().rstrip("=")


def decode_share(token: str) -> Form:
    """The form a share token holds (``errors`` says why when it cannot be read)."""
    try:
        if len(token) > MAX_SHARE:
            raise ValueError("too long")
        raw = base64.urlsafe_b64decode(token + "=" * (-len(token) % 4))
        data = json.loads(zlib.decompressobj().decompress(raw, 4 * MAX_LIST))
        if not isinstance(data, dict):
            raise ValueError("not a form")
        return _form({k: str(v) for k, v in data.items() if v is not None})
    except (ValueError, binascii.Error, zlib.error, UnicodeError):
        return Form(errors=["this share link cannot be read (it was cut short?)"])


def _form(data: dict[str, str]) -> Form:
    form = Form(mine=data.get("mine", "").strip(), enemy=data.get("enemy", "").strip(),
                value=data.get("value", "points"))
    if form.value not in VALUES:
        form.errors.append(f"show: one of {', '.join(VALUES)}")
        form.value = "points"
    charge = data.get("charge", "").strip()
    if charge:
        try:
            form.charge = float(charge)
            if not 0 <= form.charge <= 48:
                raise ValueError
        except ValueError:
            form.errors.append("charge: a distance in inches from 0 to 48")
            form.charge = None
    for label, text in (("my list", form.mine), ("enemy list", form.enemy)):
        if not text:
            form.errors.append(f"{label}: paste a list or write unit names")
        elif len(text) > MAX_LIST:
            form.errors.append(f"{label}: at most {MAX_LIST // 1024} KB")
    form.options = {k: data[k].strip() for k in OPTIONS if data.get(k, "").strip()}
    if not form.errors:
        try:
            form.request = PlanRequest.from_words(_words(form))
        except RequestError as exc:
            form.errors.append(" ".join(str(exc).split()))
    return form


def _words(form: Form) -> dict[str, Any]:
    """The request's words: a box ticked is "on", a number box left empty is none."""
    words: dict[str, Any] = {"mine": form.mine, "enemy": form.enemy}
    for name in OPTIONS:
        text = form.options.get(name, "")
        kind = field_kind(PlanRequest.model_fields[name].annotation)
        if kind == "flag":
            words[name] = text.lower() in ("on", "true", "1", "yes")
        elif text or kind not in ("number", "choice"):
            words[name] = text
    return words


# --- the answer -----------------------------------------------------------------------------


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
        out.append({"title": f"{who}: {phase}", "targets": m.defenders(side).units,
                    "rows": rows})
    return out


def _compute(request: PlanRequest, charge: float | None, lib: Library
             ) -> tuple[Matchup, Plan, str | None]:
    mine, enemy = request.read(lib)
    m = matchup_sides(mine, enemy, conditions=replace(request.conditions(), charge=charge))
    p = request.solve(mine, enemy)
    try:  # an image (a data: URL): the page's policy refuses an inline SVG's styles
        svg = plan_svg(p).encode()
        picture: str | None = "data:image/svg+xml;base64," + base64.b64encode(svg).decode()
    except (ImportError, LookupError):  # without the plot extra: the tables alone
        picture = None
    return m, p, picture


async def _answer(request: Request, form: Form) -> HTMLResponse:
    from .pages import _page

    context: dict[str, Any] = {"form": form, "values": VALUES, "grids": None, "plan": None,
                               "share": None, "controls": controls(form), "picture": None}
    token = encode_share(form) if form.mine or form.enemy else ""
    if len(token) > MAX_SHARE:
        form.notes.append("these lists are too long for a share link")
    elif token:
        context["share"] = f"/plan?s={token}"
    if not form.errors and form.request is not None:
        lib: Library = request.app.state.library()
        work = asyncio.get_running_loop().run_in_executor(
            _WORKER, _compute, form.request, form.charge, lib)
        try:
            m, p, picture = await asyncio.wait_for(work, PLAN_TIMEOUT)
            context.update(grids=_grids(m, form.value), plan=p, matchup=m, picture=picture)
            form.notes += [f"warning: {w}" for w in p.warnings]  # answered all the same
        except TimeoutError:
            form.errors.append(f"the lists took more than {PLAN_TIMEOUT:g} s to compute")
        except (SideError, UnknownNameError, ValueError, LookupError) as exc:
            form.errors.append(" ".join(str(exc).split()))
    status = 422 if form.errors and (form.mine or form.enemy) else 200
    return _page(request, "plan.html", status=status, title="Army against army", **context)


@router.get("/plan", response_class=HTMLResponse)
async def plan_page(request: Request, s: str | None = None) -> HTMLResponse:
    """The page; with ``s`` (a share token) the lists it holds, computed."""
    return await _answer(request, decode_share(s) if s else Form())


@router.post("/plan", response_class=HTMLResponse)
async def plan_post(request: Request) -> HTMLResponse:
    """The form's answer: ``application/x-www-form-urlencoded``, or ``multipart/form-data``
    with the lists as files (``mine_file``, ``enemy_file``: a file replaces the pasted
    text of its side)."""
    if request.headers.get("content-type", "").startswith("multipart/form-data"):
        fields: dict[str, str] = {}
        async with request.form(max_files=2, max_fields=40) as data:
            for key, item in data.multi_items():
                if isinstance(item, str):
                    fields.setdefault(key, item)
                elif key in ("mine_file", "enemy_file"):
                    text = (await item.read()).decode("utf-8", errors="replace")
                    if text.strip():
                        fields[key.removesuffix("_file")] = text
        return await _answer(request, _form(fields))
    body = (await request.body()).decode("utf-8", errors="replace")
    plain = {k: v[0] for k, v in parse_qs(body, keep_blank_values=True).items()}
    return await _answer(request, _form(plain))

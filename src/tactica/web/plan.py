"""The army-against-army page, ``/plan``: paste (or open) two army lists, see the matchup
matrix as a coloured table for each side and phase, and the plan (shooting or charge) with
its picture beside the naive plan (``tactica.plan``). The plan's options are the fields of
``PlanRequest`` (the options of ``tactica plan``), one control each, made from the field.
Rendered on the server (no script): the form posts to ``/plan`` and the answer carries
a share link, ``/plan?s=...``, holding both lists and the options (zlib-compressed JSON
in base64url), which renders the same page again.

A computation runs in a calculation worker process (``tactica.web.compute``: ``plan_line``
there), stopped past ``PLAN_TIMEOUT`` seconds, so that a computation refused for its time
never runs on, holding the next requests back; a library no worker can build (one a
program passed to ``create_app``) is computed on the server's own plan thread, and a
request finding that thread still busy with an abandoned computation is refused at once
as busy. A list that cannot be read or does not validate is shown as its one-line reason.
"""

from __future__ import annotations

import asyncio
import base64
import binascii
import json
import threading
import typing
import zlib
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import parse_qs

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse

from ..service import (
    VALUES,
    WORDS,
    Library,
    PlanRequest,
    RequestError,
    field_kind,
)
from . import plan_answer

__all__ = ["PLAN_TIMEOUT", "decode_share", "encode_share", "router"]

router = APIRouter()

#: Seconds one page's matrix and plan may take.
PLAN_TIMEOUT = 30.0
#: The longest list accepted (each), in characters.
MAX_LIST = 64 * 1024
#: A share link's state, compressed, at most this long (the server's head limit is 16 KB).
MAX_SHARE = 12 * 1024

_WORKER = ThreadPoolExecutor(max_workers=1, thread_name_prefix="tactica-plan")
#: Held while the plan thread computes (a computation abandoned for its time included).
_BUSY = threading.Lock()


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


async def _in_thread(request: Request, form: Form) -> dict[str, Any]:
    """The answer computed on the server's plan thread (a library no worker can build);
    refused at once while the thread still runs a computation abandoned for its time."""
    if _BUSY.locked():
        return {"busy": "the army page is still busy with a computation; try again in a "
                        "moment"}
    lib: Library = request.app.state.library()
    asked = form.request
    assert asked is not None

    def work() -> dict[str, Any]:
        with _BUSY:
            return plan_answer.compute(asked, form.charge, form.value, lib)

    try:
        return await asyncio.wait_for(asyncio.get_running_loop().run_in_executor(
            _WORKER, work), PLAN_TIMEOUT)
    except TimeoutError:
        return {"error": f"the lists took more than {PLAN_TIMEOUT:g} s to compute"}


async def _in_worker(request: Request, form: Form, recipe: str) -> dict[str, Any]:
    """The answer computed in a calculation worker, stopped past ``PLAN_TIMEOUT``."""
    from .compute import CalcBusy, CalcCrashed, CalcPool, CalcTimeout

    assert form.request is not None
    pool: CalcPool = request.app.state.calc_pool
    line = json.dumps({"request": form.request.model_dump(mode="json"),
                       "charge": form.charge, "value": form.value})
    try:
        answer: dict[str, Any] = json.loads(await pool.plan(recipe, line, PLAN_TIMEOUT))
    except CalcTimeout:
        return {"error": f"the lists took more than {PLAN_TIMEOUT:g} s to compute"}
    except CalcBusy as exc:
        return {"busy": str(exc)}
    except CalcCrashed as exc:
        return {"error": f"the computation failed: {exc}"}
    return answer


async def _answer(request: Request, form: Form) -> HTMLResponse:
    from .pages import _page

    context: dict[str, Any] = {"form": form, "values": VALUES, "grids": None, "plan": None,
                               "share": None, "controls": controls(form), "picture": None}
    token = encode_share(form) if form.mine or form.enemy else ""
    if len(token) > MAX_SHARE:
        form.notes.append("these lists are too long for a share link")
    elif token:
        context["share"] = f"/plan?s={token}"
    busy = False
    if not form.errors and form.request is not None:
        from .lists import library_recipe

        recipe = library_recipe(request.app.state.library)
        answer = await (_in_thread(request, form) if recipe is None
                        else _in_worker(request, form, recipe))
        if "plan" in answer:
            context.update(grids=answer["grids"], plan=answer["plan"],
                           picture=answer["picture"])
            form.notes += [f"warning: {w}" for w in answer["plan"]["warnings"]]
        busy = "busy" in answer
        refusal = answer.get("error") or answer.get("busy")
        if refusal:
            form.errors.append(refusal)
    status = 503 if busy else 422 if form.errors and (form.mine or form.enemy) else 200
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

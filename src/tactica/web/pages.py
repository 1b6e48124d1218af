"""The pages: the calculator, the datasheets, the rule texts, the list checker and the
API docs, rendered on the server with Jinja2 (autoescaped: data and user text are shown,
never trusted as markup). The calculator and list pages then talk to ``/api`` from
``static/calc.js`` and ``static/list.js``.
"""

from __future__ import annotations

import json
import re
from collections import defaultdict
from collections.abc import Callable
from functools import lru_cache
from typing import Any
from urllib.parse import quote

from fastapi import APIRouter, FastAPI, Request
from fastapi.responses import HTMLResponse, JSONResponse, Response
from fastapi.templating import Jinja2Templates
from jinja2 import Environment, PackageLoader, StrictUndefined, select_autoescape
from starlette.exceptions import HTTPException as StarletteHTTPException

from ..service import (
    ATTRIBUTION,
    GENERATED,
    RECOGNISED_WEAPON_ABILITIES,
    Datasheet,
    Detachment,
    Errata,
    FaqEntry,
    Library,
    PlayerFaction,
    RuleEntry,
    RulesVersion,
    UnknownNameError,
    WeaponProfile,
    __version__,
    ability_text,
    circumstances,
    player_faction,
)
from .rule_groups import rule_index
from .rules import found_rules, rule_source_label, rules_notes
from .wording import player_text, source_label

__all__ = ["ability_rule_name", "install", "router", "rule_url", "unit_url"]

router = APIRouter()

_PARAM = re.compile(r"\s+(?:\d+|\d*D[36](?:\+\d+)?|\d\+)$", re.IGNORECASE)

NAV = (("/", "Calculator"), ("/turn", "Turn"), ("/units", "Datasheets"), ("/rules", "Rules"),
       ("/list", "Army list"), ("/plan", "Army v army"), ("/meta", "Meta"), ("/docs", "API"),
       ("/about", "About"))

#: Abilities offered to grant in the calculator: every flag, and the usual values of the
#: abilities that take one (any other is typed).
GRANTABLE = (*(a for a in RECOGNISED_WEAPON_ABILITIES if "X" not in a),
             "Sustained Hits 1", "Sustained Hits 2", "Sustained Hits D3", "Rapid Fire 1",
             "Rapid Fire 2", "Melta 2", "Anti-Infantry 4+", "Anti-Vehicle 4+",
             "Anti-Monster 4+", "Anti-Character 4+")

#: The credit the bundled dataset's licence asks every public deployment to show.
CREDIT_URL = "https://40kdc.alpacasoft.dev"


def unit_url(name: str, rules: str | None = None) -> str:
    """The page of a unit.

    >>> unit_url("Neophyte Hybrids", "10th")
    '/units/Neophyte%20Hybrids?rules=10th'
    """
    return f"/units/{quote(name, safe='')}" + (f"?rules={rules}" if rules else "")


def rule_url(name: str) -> str:
    """The page of a rule.

    >>> rule_url("Vengeance for the Martyr!")
    '/rules/Vengeance%20for%20the%20Martyr%21'
    """
    return f"/rules/{quote(name, safe='')}"


def ability_rule_name(text: str) -> str:
    """The rule a weapon ability is an instance of.

    >>> [ability_rule_name(t) for t in ("Sustained Hits D3", "Anti-Infantry 4+", "Blast")]
    ['Sustained Hits', 'Anti', 'Blast']
    """
    if text.casefold().startswith("anti-"):
        return "Anti"
    return _PARAM.sub("", text)


@lru_cache(maxsize=1)
def _environment() -> Environment:
    env = Environment(loader=PackageLoader("tactica.web", "templates"),
                      autoescape=select_autoescape(["html"]), undefined=StrictUndefined,
                      trim_blocks=True, lstrip_blocks=True)
    env.globals.update(unit_url=unit_url, rule_url=rule_url, nav=NAV, version=__version__,
                       source_label=source_label, credit_url=CREDIT_URL,
                       generated_label=GENERATED, generated_text=ability_text)
    env.filters["plain"] = player_text
    return env


def _templates() -> Jinja2Templates:
    return Jinja2Templates(env=_environment())


def _library(request: Request) -> Library:
    getter: Callable[[], Library] = request.app.state.library
    return getter()


def _page(request: Request, template: str, status: int = 200, **context: Any) -> HTMLResponse:
    context.setdefault("title", "Not found" if status == 404 else "tactica")
    return _templates().TemplateResponse(request, template, context, status_code=status)


def _rule_linker(lib: Library) -> Callable[[str], str | None]:
    """A function giving the rule page of a name, or None when the library has no text."""
    known: dict[str, str | None] = {}

    def link(name: str) -> str | None:
        if name not in known:
            try:
                lib.find_rules(name)
                known[name] = rule_url(name)
            except UnknownNameError:
                known[name] = None
        return known[name]

    return link


def _not_found(request: Request, exc: UnknownNameError, back: str) -> HTMLResponse:
    return _page(request, "missing.html", status=404, error=str(exc), kind=exc.kind,
                 suggestions=exc.suggestions, back=back)


# --- routes -------------------------------------------------------------------------------


#: The circumstances other controls of the calculator set: the leader picker, the rules
#: panel's detachment, and the attacker's Toughness and faction (from its unit).
PLACED = frozenset({"led_by", "detachment", "attacker_toughness", "army_faction"})


@lru_cache(maxsize=1)
def circumstance_fields() -> tuple[dict[str, Any], ...]:
    """The contract's circumstances as the page shows and says them (issue 46: the
    controls and the result's sentence are made from the contract, nothing copied)."""
    out = []
    for c in circumstances():
        words = dict(c.choice_words)
        out.append({
            "name": c.name, "kind": c.kind, "label": c.label, "help": c.help,
            "words": c.words, "when": c.when, "unless": c.unless,
            "none": words.pop("none", ""), "options": [(v, words.get(v, v)) for v in c.choices],
            "minimum": c.minimum, "maximum": c.maximum, "default": c.default,
            "placed": c.name in PLACED})
    return tuple(out)


def _circumstances_json() -> str:
    """``circumstance_fields`` for the page's scripts (``form.js``, ``results.js``),
    safe inside a script element."""
    return json.dumps(circumstance_fields(), ensure_ascii=False).replace("</", "<\\/")


@router.get("/", response_class=HTMLResponse)
def calculator(request: Request) -> HTMLResponse:
    lib = _library(request)
    names = list(lib.names())
    shown = [c for c in circumstance_fields() if not c["placed"]]
    return _page(request, "calc.html", title="Calculator", units=names,
                 presets=lib.presets(), abilities=GRANTABLE, circumstances=shown,
                 circumstances_json=_circumstances_json())


@router.get("/turn", response_class=HTMLResponse)
def turn(request: Request) -> HTMLResponse:
    """A turn: steps of the player's units against one target (``static/turn.js``)."""
    lib = _library(request)
    return _page(request, "turn.html", title="Turn", units=list(lib.names()),
                 presets=lib.presets())


def _home_faction(sheet: Datasheet) -> PlayerFaction | None:
    """The faction a datasheet is listed under: its most specific faction keyword (Blood
    Angels rather than Space Marines), in the players' words."""
    found = [player_faction(k) for k in sheet.faction_keywords]
    return next((f for f in found if f.part_of), found[0] if found else None)


def _faction_order(f: PlayerFaction | None) -> tuple[bool, str, bool, str]:
    """By name, each faction followed by those that belong to it; no faction last."""
    if f is None:
        return (True, "", False, "")
    return (False, (f.part_of or f.name).casefold(), f.part_of is not None, f.name.casefold())


@router.get("/units", response_class=HTMLResponse)
def units(request: Request) -> HTMLResponse:
    """Every unit by faction, as players name the factions (the keyword beside)."""
    groups: dict[PlayerFaction | None, dict[str, list[Datasheet]]] = defaultdict(dict)
    for sheet in _library(request).datasheets():
        groups[_home_faction(sheet)].setdefault(sheet.name, []).append(sheet)
    ordered = sorted(groups.items(), key=lambda kv: _faction_order(kv[0]))
    return _page(request, "units.html", title="Datasheets", groups=ordered)


def _weapon_rows(sheet: Datasheet, melee: bool) -> list[tuple[str, WeaponProfile, list[str]]]:
    rows = []
    for w in sheet.weapons:
        if w.is_melee != melee:
            continue
        for p in w.profiles:
            label = p.name if p.name.startswith(w.name) else f"{w.name} – {p.name}"
            rows.append((label, p, [str(a) for a in p.abilities]))
    return rows


@router.get("/units/{name}", response_class=HTMLResponse)
def unit(request: Request, name: str, rules: RulesVersion | None = None) -> HTMLResponse:
    lib = _library(request)
    try:
        versions = lib.datasheet_versions(name)
        sheet = lib.datasheet(name, rules)
    except UnknownNameError as exc:
        return _not_found(request, exc, "/units")
    link = _rule_linker(lib)
    known_units = {n.casefold() for n in lib.names()}
    from .api import unit_summary

    return _page(
        request, "unit.html", title=sheet.name, sheet=sheet,
        factions=[player_faction(k) for k in sheet.faction_keywords],
        versions=[v.rules for v in versions], points=unit_summary(sheet).points,
        ranged=_weapon_rows(sheet, melee=False), melee=_weapon_rows(sheet, melee=True),
        ability_link=lambda text: link(ability_rule_name(text)), rule_link=link,
        is_unit=lambda n: n.casefold() in known_units,
        calc_attacker=f"/?attacker={quote(sheet.name)}&rules={sheet.rules}",
        calc_target=f"/?target={quote(sheet.name)}&rules={sheet.rules}")


@router.get("/rules", response_class=HTMLResponse)
def rules_index(request: Request) -> HTMLResponse:
    """The core rules, then each faction's army rules and detachments
    (``tactica.web.rule_groups``), the units' abilities, the FAQs and errata."""
    lib = _library(request)
    abilities: dict[str, set[str]] = {}
    for sheet in lib.datasheets():
        for ability in sheet.abilities:
            if ability.kind == "unit" and ability.text:
                abilities.setdefault(ability.name, set()).add(sheet.name)
    records = list(lib.records())
    detachments = {r.name for r in records if isinstance(r, Detachment)}
    faqs = [r for r in records if isinstance(r, FaqEntry | Errata)]
    return _page(request, "rules.html", title="Rules", index=rule_index(records),
                 detachments=detachments, abilities=sorted(abilities.items()), faqs=faqs)


@router.get("/rules/{name:path}", response_class=HTMLResponse)
def rule(request: Request, name: str, rules: RulesVersion | None = None) -> HTMLResponse:
    """The rules of that name as ``tactica rule NAME`` shows them (``tactica.web.rules``:
    the same look-up), with the calculator's status and notes."""
    try:
        found = found_rules(request, name, rules)
    except UnknownNameError as exc:
        return _not_found(request, exc, "/rules")
    entries = [(e, rule_source_label(e), _version_note(e, name, rules)) for e in found]
    notes = [player_text(n) for n in rules_notes(request, name, rules)]
    return _page(request, "rule.html", title=name, name=name, entries=entries, notes=notes)


def _version_note(entry: RuleEntry, name: str, rules: RulesVersion | None) -> str | None:
    """The note ``tactica rule`` prints on an entry of another rules version."""
    if rules is None or entry.rules == rules:
        return None
    return f"No {rules} version of {name!r}; this is the {entry.rules} text."


@router.get("/about", response_class=HTMLResponse)
def about(request: Request) -> HTMLResponse:
    return _page(request, "about.html", title="About", attribution=ATTRIBUTION)


@router.get("/list", response_class=HTMLResponse)
def army_list(request: Request) -> HTMLResponse:
    return _page(request, "list.html", title="Army list")


def _schema_name(ref: str) -> str:
    return ref.rsplit("/", 1)[-1]


@router.get("/docs", response_class=HTMLResponse)
def docs(request: Request) -> HTMLResponse:
    """The API reference, rendered from the app's OpenAPI document (no external assets)."""
    spec = request.app.openapi()
    operations = []
    for path, methods in spec.get("paths", {}).items():
        for method, op in methods.items():
            body = op.get("requestBody", {}).get("content", {}).get("application/json", {})
            ref = body.get("schema", {}).get("$ref")
            responses = []
            for code, resp in op.get("responses", {}).items():
                schema = resp.get("content", {}).get("application/json", {}).get("schema", {})
                target = schema.get("$ref") or schema.get("items", {}).get("$ref")
                responses.append((code, resp.get("description", ""),
                                  _schema_name(target) if target else None))
            operations.append({
                "method": method.upper(), "path": path, "summary": op.get("summary", ""),
                "description": op.get("description", ""),
                "parameters": op.get("parameters", []),
                "body": _schema_name(ref) if ref else None, "responses": responses})
    schemas = sorted(spec.get("components", {}).get("schemas", {}).items())
    return _page(request, "docs.html", title="API", spec=spec, operations=operations,
                 schemas=schemas, schema_name=_schema_name)


def install(app: FastAPI) -> None:
    """Pages for errors outside the API: a 404 page (the API keeps JSON)."""

    async def not_found(request: Request, exc: Exception) -> Response:
        assert isinstance(exc, StarletteHTTPException)
        if request.url.path.startswith("/api") or exc.status_code != 404:
            return JSONResponse({"detail": exc.detail}, status_code=exc.status_code,
                                headers=getattr(exc, "headers", None))
        return _page(request, "missing.html", status=404, error="no such page",
                     kind="page", suggestions=(), back="/")

    app.add_exception_handler(StarletteHTTPException, not_found)

"""``tactica rule NAME``'s panels: one rich panel per rule found (``tactica.lookup``'s
``RuleEntry``: its kind, its record as data, its rules version and source).

Formatting only, from the entry's record (the fields of the library's rule records), so
that a look-up in the index of rules by name loads no data model. All text from the data
is wrapped in ``rich.text.Text``, so brackets in a rule text are never read as markup.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from rich import box
from rich.console import Group
from rich.panel import Panel
from rich.text import Text

if TYPE_CHECKING:
    from rich.console import Console

    from ..service import RuleEntry, Rules

__all__ = ["NO_CODE", "generated_lines", "rule_panel", "show_rule", "unknown_rule"]

Record = dict[str, Any]
Field = Callable[[str, Any], None]


def _stratagem(r: Record, lines: list[Text], field: Field) -> str:
    kind = " – ".join(x for x in (r.get("detachment"), r.get("category")) if x)
    section = f" ({r['section']})" if r.get("section") else ""
    lines.append(Text(f"{kind} Stratagem{section}"))
    if r.get("flavour"):
        lines.append(Text(r["flavour"], style="italic"))
    if r.get("phases"):  # the dataset's records: when, not the card's WHEN text
        turn = {"your-turn": "your turn", "opponent-turn": "opponent's turn"}.get(
            r.get("turn") or "", "either player's turn")
        timing = (r.get("timing") or "once-per-phase").replace("-", " ")
        field("Used", f"{'/'.join(r['phases'])} phase, {turn}, {timing}")
    for label, key in (("WHEN", "when"), ("TARGET", "target"), ("EFFECT", "effect"),
                       ("RESTRICTIONS", "restrictions")):
        field(label, r.get(key))
    return f"{r['name']} – {r['cp']}CP"


def _enhancement(r: Record, lines: list[Text], field: Field) -> str:
    lines.append(Text(f"{r['detachment']} Enhancement"))
    field("Bearer", r.get("eligibility"))
    if r.get("flavour"):
        lines.append(Text(r["flavour"], style="italic"))
    field("Not for", " ".join(r.get("excluded_keywords") or ()) or None)
    if r.get("unique"):
        field("Unique", "yes")
    lines.append(Text(r.get("text") or "(no text in the source)"))
    pts = "" if r.get("points") is None else f" – {r['points']} pts"
    return f"{r['name']}{pts}"


def _detachment(r: Record, lines: list[Text], field: Field) -> str:
    lines.append(Text(f"{r['faction']} detachment"))
    field("Also for", ", ".join(f for f in r.get("factions", ()) if f != r["faction"]) or None)
    for label, key in (("Rule", "rule_names"), ("Stratagems", "stratagems"),
                       ("Enhancements", "enhancements")):
        field(label, ", ".join(r.get(key) or ()) or None)
    field("Every unit needs", " ".join(r.get("required_keywords") or ()) or None)
    for g in r.get("granted_keywords") or ():
        cap = f" (up to {g['max_selected']})" if g.get("max_selected") else ""
        field("Grants", f"{g['keyword']} to {' '.join(g['to_keywords'])} units{cap}")
    return str(r["name"]) + ("" if r.get("points") is None else f" – {r['points']} DP")


def _simple(r: Record, lines: list[Text], field: Field, kind: str) -> str:
    if kind == "detachment_rule":
        lines.append(Text(f"{r.get('detachment') or 'Detachment'} rule"))
        lines.append(Text(r.get("text") or "(no rule text in the source)"))
        return str(r["name"])
    if kind == "army_rule":
        lines.append(Text(f"Army rule of {', '.join(r.get('factions', ()))}"))
        return str(r["name"])
    if kind == "core_rule":
        lines.append(Text("Core rule"))
        lines.append(Text(r["text"]))
        return f"{r['section']} {r['title']}" if r.get("section") else str(r["title"])
    if kind == "ability":
        a = r["ability"]
        lines.append(Text(f"{a['kind'].capitalize()} ability of {r['datasheet']}"))
        lines.append(Text(a.get("text") or "(no text on the datasheet)"))
        parameter = a.get("parameter")
        suffix = "+" if a["name"] == "Feel No Pain" else ""
        return a["name"] if parameter is None else f"{a['name']} {parameter}{suffix}"
    if kind == "faq":
        field("Q", r.get("question"))
        field("A", r.get("answer"))
        return f"FAQ: {r.get('topic') or r.get('question')}"
    lines.append(Text(r.get("text") or ""))
    return f"Errata: {r.get('target') or ''}".strip()


def _rule_lines(kind: str, record: Record) -> tuple[str, list[Text]]:
    """A title and the body lines of one rule record or unit ability."""
    lines: list[Text] = []

    def field(label: str, value: Any) -> None:
        if value:
            lines.append(Text.assemble((f"{label}: ", "bold"), str(value)))

    shaped = {"stratagem": _stratagem, "enhancement": _enhancement,
              "detachment": _detachment}.get(kind)
    title = shaped(record, lines, field) if shaped is not None else \
        _simple(record, lines, field, kind)
    return title, lines


#: What a record without published text shows in place of it.
_NO_TEXT = frozenset({"(no text in the source)", "(no rule text in the source)",
                      "(no text on the datasheet)"})


#: A dataset record with neither text nor effect code (issue 41: most of the dataset's
#: stratagems and enhancements without an ability record).
NO_CODE = "(no text: the dataset has neither the published text nor effect code for it)"
_RECORDS = frozenset({"stratagem", "enhancement", "detachment_rule", "army_rule"})


def _wordless(entry: RuleEntry) -> bool:
    """A rule record of the bundled dataset with no text and none generated."""
    return entry.kind in _RECORDS and (entry.source or "").startswith("wh40kdc") and \
        not any(entry.record.get(k) for k in ("text", "when", "target", "effect"))


def generated_lines(text: str, notes: str | None, mark: str | None = None) -> list[Text]:
    """A text generated from the dataset's effect code, marked as such (``mark``: the
    entry's own, default ``GENERATED``), and the dataset's notes beside it."""
    from ..service import GENERATED

    lines = [Text.assemble(("Effect: ", "bold"), text),
             Text(f"({mark or GENERATED})", style="dim italic")]
    if notes:
        lines.append(Text.assemble(("Dataset notes: ", "bold"), notes))
    return lines


def rule_panel(entry: RuleEntry, note: str | None = None) -> Panel:
    """One rule with its rules version and source (``note``: e.g. a version fallback);
    a record without published text shows its effect code in words, marked generated."""
    title, lines = _rule_lines(entry.kind, entry.record)
    if entry.generated:
        lines = [line for line in lines if line.plain not in _NO_TEXT]
        lines += generated_lines(entry.generated, entry.notes, entry.generated_from)
    elif _wordless(entry):
        lines = [line for line in lines if line.plain not in _NO_TEXT]
        lines.append(Text(NO_CODE, style="dim"))
    if note:
        lines.append(Text(f"note: {note}", style="dim"))
    where = "" if entry.source is None else f" · source: {entry.source}"
    return Panel(Group(*lines), title=Text(title, style="bold"),
                 subtitle=Text(f"{entry.rules} rules{where}"), box=box.ROUNDED)


def show_rule(console: Console, name: str, rules: Rules | None = None) -> None:
    """``tactica rule NAME``: a panel per rule found (``tactica.lookup.rule_entries``),
    then the calculator's notes on it. ``UnknownNameError`` (with close names) when
    nothing has that name."""
    from ..service import rule_entries, rule_notes

    for entry in rule_entries(name, rules):
        if not entry.published:  # the calculator's note alone: printed below
            continue
        note = None
        if rules is not None and entry.rules != rules:
            note = f"no {rules} version of {name!r}; this is the {entry.rules} text"
        if entry.effect is not None:  # issue 16: whether the calculator models it
            note = "; ".join(x for x in (note, f"in the calculator: {entry.effect}") if x)
        console.print(rule_panel(entry, note))
    for text in rule_notes(name, rules):
        console.print(f"calculator: {text}")


def unknown_rule(err: Console, exc: LookupError) -> int:
    """A name nothing has: the error with its close names, and what the sources lack (the
    dataset not installed), on stderr; the exit code (2, the usage-error code)."""
    from ..service import sources_missing

    err.print(f"error: {exc}", markup=False)
    for hint in sources_missing():
        err.print(f"note: {hint}", markup=False)
    return 2

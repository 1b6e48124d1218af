"""The tools' JSON Schemas as an assistant's client reads them: flat and small.

pydantic writes a model's schema with ``$ref``/``$defs``, ``title`` on every field,
``anyOf`` with ``null`` for each optional field and a ``discriminator`` per tagged union:
correct, but 59 KB for the eight tools, and beyond what clients with limited schema
support read (the MCP Inspector passes JSON only to an argument whose schema says
``"type": "object"`` or ``"array"``). ``flatten`` writes the same contract without them:

* every ``$ref`` inlined (no ``$defs``), every ``title`` and ``discriminator`` dropped;
* an optional field is its type alone (absent means unset; ``null`` is not advertised,
  though the server still reads it);
* an argument that is a name or an object (``attacker``) is advertised as the object (a
  bare name is still read, as ``{"unit": NAME}``);
* past ``detail`` levels, descriptions and defaults are left out (and empty defaults
  everywhere); below the arguments, bounds on lengths and ``additionalProperties:
  false``; from ``depth`` levels down a nested object or list is only its type (the
  server still checks every field, and refuses in one line naming it).

So a schema advertised here never refuses what the server computes (``tests/assistant/
test_schemas.py`` validates every example document and every document a tool returns
against it); it may accept what the server then refuses.

>>> flatten({"$defs": {"U": {"title": "U", "type": "object", "properties": {
...     "unit": {"title": "Unit", "type": "string"}}}}, "type": "object",
...     "properties": {"who": {"anyOf": [{"$ref": "#/$defs/U"}, {"type": "null"}],
...                            "default": None}}})["properties"]
{'who': {'type': 'object', 'properties': {'unit': {'type': 'string'}}}}
"""

from __future__ import annotations

import copy
from typing import Any

__all__ = ["flatten", "merge_objects", "prefer_object", "size"]

Schema = dict[str, Any]

#: Keywords that say what a value is (kept at every level, even past ``depth``).
_KIND = ("type", "enum", "const")
#: Keywords for people (left out past ``detail``).
_WORDS = ("description", "default", "examples")
#: Bounds on lengths and the refusal of unknown fields, left out below the arguments
#: (level 2 and deeper): the server refuses past them in one line naming the field.
_FINE = ("maxLength", "minLength", "maxItems", "minItems", "pattern", "additionalProperties")


def size(schema: Any) -> int:
    """Bytes of ``schema`` as the protocol sends it (compact JSON, UTF-8)."""
    import json

    return len(json.dumps(schema, separators=(",", ":"), ensure_ascii=False).encode())


def _resolve(node: Schema, defs: Schema) -> Schema:
    """``node`` with its ``$ref`` (and a one-member ``allOf``) replaced by the definition,
    the node's own keywords (a field's description) over the definition's."""
    while "$ref" in node or (len(node.get("allOf", ())) == 1):
        if "$ref" in node:
            name = node["$ref"].rsplit("/", 1)[-1]
            rest = {k: v for k, v in node.items() if k != "$ref"}
        else:
            name, rest = "", {k: v for k, v in node.items() if k != "allOf"}
        inner = defs[name] if name else node["allOf"][0]
        node = {**copy.deepcopy(inner), **rest}
    return node


def _optional(node: Schema) -> Schema:
    """An ``anyOf`` with ``null``: the other branch alone (its ``null`` default gone)."""
    branches = [b for b in node.get("anyOf", ()) if b != {"type": "null"}]
    if "anyOf" not in node or len(branches) == len(node["anyOf"]):
        return node
    rest = {k: v for k, v in node.items() if k != "anyOf"}
    if rest.get("default", 0) is None:
        del rest["default"]
    if len(branches) == 1:
        return {**branches[0], **rest}
    return {**rest, "anyOf": branches}


def _kind_only(node: Schema) -> Schema:
    """A nested object or list by its type alone (a list says what it holds, when its
    items have one type)."""
    out = {k: node[k] for k in _KIND if k in node}
    items = node.get("items")
    if isinstance(items, dict) and "type" in items:
        out["items"] = {k: items[k] for k in _KIND if k in items}
    return out


def _unique(branches: list[Any]) -> list[Any]:
    out: list[Any] = []
    for branch in branches:
        if branch not in out:
            out.append(branch)
    return out


def _walk(node: Any, defs: Schema, level: int, detail: int, depth: int) -> Any:
    if not isinstance(node, dict):
        return node
    node = _resolve(_optional(_resolve(node, defs)), defs)
    if level >= depth and node.get("type") in ("object", "array"):
        return _kind_only(node)
    out: Schema = {}
    for key, value in node.items():
        if key in ("title", "discriminator", "$defs") or (key in _WORDS and level > detail):
            continue
        if key in _WORDS[1:] and (value in (None, False, [], (), "") or isinstance(value, dict)):
            continue  # an empty default says nothing, an object's is its fields' defaults
        if key in _FINE and level >= 2 and not isinstance(value, dict):
            continue
        if key == "properties":
            out[key] = {k: _walk(v, defs, level + 1, detail, depth) for k, v in value.items()}
        elif key in ("items", "additionalProperties") and isinstance(value, dict):
            out[key] = _walk(value, defs, level + 1, detail, depth)
        elif key in ("anyOf", "oneOf"):
            branches = _unique([_walk(v, defs, level, detail, depth) for v in value])
            if len(branches) == 1:
                out.update(branches[0])
            else:
                out["anyOf"] = branches
        else:
            out[key] = value
    return out


def flatten(schema: Schema, detail: int = 2, depth: int = 99, level: int = 0) -> Schema:
    """``schema`` without ``$ref``, titles, discriminators and ``null`` branches; words
    (descriptions, defaults other than empty ones) down to level ``detail``; an object or
    list at level ``depth`` or deeper by its type alone (the schema itself is level 0,
    its properties level 1, theirs or its items' level 2; ``level``: the schema's own,
    when it is an argument's)."""
    flat: Schema = _walk(schema, schema.get("$defs", {}), level, detail, depth)
    return flat


def prefer_object(schema: Schema, *names: str) -> Schema:
    """The properties ``names`` of an object schema, each an ``anyOf`` of a string and an
    object, advertised as the object (a client then sends JSON, not text); the string
    form stays readable by the server and is said in the description."""
    out = copy.deepcopy(schema)
    for name in names:
        prop = out["properties"][name]
        objects = [b for b in prop.pop("anyOf", ()) if b.get("type") == "object"]
        if len(objects) != 1:
            raise ValueError(f"{name}: no single object branch to advertise")
        out["properties"][name] = {**objects[0], **prop}
    return out


def merge_objects(description: str, *schemas: Schema) -> Schema:
    """One object schema holding the properties of each of ``schemas`` (flattened object
    schemas, e.g. a scenario and a turn): a property two of them give differently is
    what both say alike (the looser: a scenario's 10,000,000 trials and a turn's
    1,000,000 are any number from 100), or either when they share no type; what each
    requires is said as an ``anyOf`` of its required names (a client sees one
    ``"type": "object"`` with every field)."""
    properties: Schema = {}
    for schema in schemas:
        for key, value in schema["properties"].items():
            known = properties.setdefault(key, value)
            if known == value:
                continue
            if known.get("type") is not None and known.get("type") == value.get("type"):
                properties[key] = {k: v for k, v in known.items() if value.get(k) == v}
            else:
                properties[key] = {"anyOf": [known, value]}
    out: Schema = {"type": "object", "description": description, "properties": properties,
                   "additionalProperties": False}
    needs = [{"required": s["required"]} for s in schemas if s.get("required")]
    if needs:
        out["anyOf"] = needs
    return out

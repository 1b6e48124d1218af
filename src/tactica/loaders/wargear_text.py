"""Wargear options written in a datasheet's words -> ``WargearOption`` values.

The seed pages print options as GW writes them (seed 001, Banehammer):

    - This model's 2 twin heavy flamers can be replaced with 2 twin heavy bolters.
    - This model can be equipped with one of the following:
    - 2 lascannons and 2 twin heavy bolters
    - 2 lascannons and 2 twin heavy flamers

Hand-written (no library parses this prose): two sentence shapes, "X can be replaced with
Y" and "can be equipped with Y", Y either one bundle or "one of the following" with one
bundle per line; a bundle is items joined by "and"/","; an item is "[N] weapon", the name
matched to the datasheet's weapons singular or plural. A sentence of another shape, or an
item that names no weapon, is returned as a reason (the caller logs it) — never guessed.

>>> names = ("Lascannon", "Twin heavy bolter", "Twin heavy flamer", "Tremor cannon")
>>> opts, bad = parse_wargear_options(
...     ["This model’s 2 twin heavy flamers can be replaced with 2 twin heavy bolters."], names)
>>> opts[0].replaces, opts[0].choices, bad
(('Twin heavy flamer', 'Twin heavy flamer'), (('Twin heavy bolter', 'Twin heavy bolter'),), [])
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from ..model.wargear import WargearOption
from ..names import name_key

__all__ = ["parse_wargear_options"]

_REPLACE = re.compile(r"^(?:this model|the [^’']+)[’']s (.+?) can be replaced with (.+?)\.?$",
                      re.IGNORECASE | re.DOTALL)
_EQUIP = re.compile(r"^(?:this model|the [^’']+) can be equipped with (.+?)\.?$",
                    re.IGNORECASE | re.DOTALL)
_ONE_OF = re.compile(r"^one of the following:?\s*(.*)$", re.IGNORECASE | re.DOTALL)
_ITEM = re.compile(r"^(?:(\d+)\s+)?(.+)$")
_NUMBERS = {"one": 1, "two": 2, "three": 3, "four": 4, "1": 1}


def _weapon(text: str, names: Sequence[str]) -> str | None:
    key = name_key(text)
    for name in names:
        k = name_key(name)
        if key in (k, k + "s", k + "es") or (key.endswith("s") and key[:-1] == k):
            return name
    return None


def _bundle(text: str, names: Sequence[str]) -> tuple[str, ...] | str:
    items: list[str] = []
    for part in re.split(r"\s*(?:,|\band\b)\s*", text.strip().strip(".")):
        if not part:
            continue
        match = _ITEM.match(part.strip())
        assert match is not None
        count_text, what = match.groups()
        words = what.split(" ", 1)
        count = int(count_text) if count_text else 1
        if not count_text and words[0].casefold() in _NUMBERS and len(words) > 1:
            count, what = _NUMBERS[words[0].casefold()], words[1]
        name = _weapon(what, names)
        if name is None:
            return f"{what!r} is not a weapon of this datasheet"
        items += [name] * count
    return tuple(items) if items else "no items"


def _choices(text: str, names: Sequence[str]) -> tuple[tuple[str, ...], ...] | str:
    one_of = _ONE_OF.match(text.strip())
    parts = ([p.strip().lstrip("-•").strip() for p in one_of.group(1).splitlines()]
             if one_of else [text])
    out: list[tuple[str, ...]] = []
    for part in parts:
        if not part:
            continue
        made = _bundle(part, names)
        if isinstance(made, str):
            return made
        out.append(made)
    return tuple(out) if out else "no choices"


def parse_wargear_options(
    texts: Sequence[str], weapon_names: Sequence[str]
) -> tuple[list[WargearOption], list[str]]:
    """The options read from ``texts`` and, for each text not read, why."""
    options: list[WargearOption] = []
    problems: list[str] = []
    for text in texts:
        flat = text.replace("’", "'").strip()
        replace = _REPLACE.match(flat)
        equip = _EQUIP.match(flat) if replace is None else None
        if replace is None and equip is None:
            problems.append(f"wargear option {text.splitlines()[0]!r}: wording not read")
            continue
        replaces: tuple[str, ...] | str = ()
        if replace is not None:
            replaces = _bundle(replace.group(1), weapon_names)
            choices = _choices(replace.group(2), weapon_names)
        else:
            assert equip is not None
            choices = _choices(equip.group(1), weapon_names)
        for made in (replaces, choices):
            if isinstance(made, str):
                problems.append(f"wargear option {text.splitlines()[0]!r}: {made}")
                break
        else:
            assert not isinstance(replaces, str) and not isinstance(choices, str)
            options.append(WargearOption(replaces=replaces, choices=choices, text=text))
    return options, problems

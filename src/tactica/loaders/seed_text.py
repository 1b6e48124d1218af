"""Line-level helpers for the seed pages: headings, glued text, titles, rules wording.

The seed pages are text captures of datasheet web pages: every tooltip the page links to
is printed after the datasheet, one heading line and its body, but the capture often
glues a heading (or a site caption) to the end of the previous paragraph. This module
knows what a heading looks like so that ``split_glued`` can cut such lines apart:

>>> split_glued("... against that attack (13.08).[IGNORES COVER]24.18", lambda s: False)
['... against that attack (13.08).', '[IGNORES COVER]24.18']
>>> parse_numbered("ADVANCE MOVE09.06")
Heading(title='Advance Move', section='09.06')
>>> parse_numbered("06.03 Hazard Rolls")
Heading(title='Hazard Rolls', section='06.03')
>>> title_case("VENGEANCE FOR THE MARTYR!"), title_case("[LETHAL HITS]")
('Vengeance for the Martyr!', 'Lethal Hits')
>>> wording_version("each time the unit is engaged, +1 to charge rolls", "10th")
'11th'
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from ..model.common import RulesVersion

__all__ = [
    "CP_LINE",
    "DETACHMENT_LINE",
    "FAQ_ROW",
    "KNOWN_TITLES",
    "LOST_TABLE",
    "MULTI_PROFILE",
    "SUBHEADINGS",
    "Fingerprint",
    "Heading",
    "fingerprint",
    "is_category",
    "is_junk_header",
    "key",
    "parse_numbered",
    "split_glued",
    "split_sentences",
    "title_case",
    "wording_version",
]

#: "1CP" under a stratagem name.
CP_LINE = re.compile(r"^(\d+)CP$")
#: "Host of Ascension Detachment": opens a detachment rule or an enhancement description.
DETACHMENT_LINE = re.compile(r"^(?P<detachment>[A-Z][\w’' ]*?) Detachment$")
#: A row of an FAQ box: "| Q: | question |" / "| A: | answer |".
FAQ_ROW = re.compile(r"^\|\s*(?P<who>[QA]):\s*\|\s*(?P<text>.*?)\s*\|?$")
#: A table whose cells were lost in the capture: nothing but pipes ("|", "| ||||...").
LOST_TABLE = re.compile(r"^\|[\s|]*$")
#: The stray generic tooltip for weapons with several profiles (e.g. 003's grenade launcher).
MULTI_PROFILE = (
    "Before selecting targets for this weapon, select one of its profiles to make attacks with."
)

_SECTION = r"\d{2}\.\d{2}(?:\.\d{2})?"
# "13.08 Benefit of Cover", "01.05.01 Automatically Successful/Passes/Hits/Wounds"
_NUMBERED_LEAD = re.compile(rf"^(?P<section>{_SECTION}) (?P<title>[A-Z][^.]{{0,70}})$")
# "LEADER24.22", "[LETHAL HITS]24.23", "COMMAND RE-ROLL15.02", "FALL-BACK MOVE09.07"
_TAIL = r"(?P<titleN>\[?[A-Z][A-Z0-9 ,'’!/\-]*\]?)(?P<sectionN>" + _SECTION + ")"
_NUMBERED_TAIL = re.compile("^" + _TAIL.replace("N>", ">") + "$")
# "LEADER24.22 / SUPPORT24.23" (000 line 398)
_NUMBERED_PAIR = re.compile(
    "^" + _TAIL.replace("N>", ">") + " / " + _TAIL.replace("N>", "2>") + "$"
)

_KEYWORD_LIST = re.compile(r"^The\b.*\bkeywords? (?:is|are) used in the following .*datasheets:$")
_CATEGORY_WORDS = frozenset({
    "characters", "character", "battleline", "dedicated", "transports", "transport",
    "fortifications", "other", "infantry", "monster", "mounted", "vehicle", "titanic",
    "artillery", "epic", "hero", "beasts", "swarm", "aircraft", "walker", "fly",
})
_SMALL_WORDS = frozenset({
    "a", "an", "and", "as", "at", "by", "for", "from", "in", "into", "of", "on", "or", "the",
    "to", "with",
})
# glue: a sentence end directly followed by the next text, without a space
_GLUE = re.compile(r"(?<=[.!?)’”])(?=[\[A-Z0-9])")
_SENTENCE_GLUE = re.compile(r"(?<=[.!?’”])(?=[A-Z])")


def key(text: str) -> str:
    """A comparison key: case-folded, brackets dropped, curly apostrophes straightened."""
    t = text.strip().strip("[]").replace("’", "'").replace("–", "-")
    return " ".join(t.casefold().split())


#: Unnumbered rule headings the site prints (10th-edition tooltips, and the few 11th
#: blocks that lost their numbers, inventory D.1/D.2), compared with ``key``.
KNOWN_TITLES = frozenset(
    key(t)
    for t in (
        # 10th core rules (inventory D.2)
        "Hit Roll", "Wound Roll", "Saving Throw", "Invulnerable Saves", "Mortal Wounds",
        "Re-rolls", "Engagement Range", "Normal Moves", "Advance Moves", "Fall Back Moves",
        "Charging with a Unit", "Charge Bonus", "Benefit of Cover", "Unit Visible",
        "2. Battle-shock", "Destroyed", "Embark", "Disembark", "Characters",
        # 10th abilities (inventory B/C) and the ones rules refer to
        "Deadly Demise", "Firing Deck", "Deep Strike", "Stealth", "Leader", "Fights First",
        "Blast", "Sustained Hits", "Twin-linked", "Ignores Cover", "Torrent", "Hazardous",
        "Devastating Wounds", "Lethal Hits", "Assault", "Extra Attacks", "Lance", "Heavy",
        "Rapid Fire", "Pistol", "Precision", "Anti", "Melta", "One Shot", "Indirect Fire",
        "Psychic", "Feel No Pain", "Scouts", "Infiltrators", "Lone Operative", "Hover",
        # army rules
        "Cult Ambush", "Synapse", "The Star Children’s Blessings",
        # 11th blocks printed without their numbers (inventory D.1)
        "CRITICAL HITS", "CRITICAL WOUNDS", "Save Rolls",
        "Moving a Model in a Straight Line", "Rotating a Model",
    )
)

#: Sub-headings and sidebars kept inside their parent's text (parent title -> headings).
#: Outside that parent, "Unit Visible" is the 10th-edition rule of that name (001, 002).
SUBHEADINGS: dict[str, frozenset[str]] = {
    key(parent): frozenset(key(s) for s in subs)
    for parent, subs in {
        "Visibility": ("Model Visible", "Model Fully Visible", "Unit Visible",
                       "Unit Fully Visible"),
        "Engagement": ("WHAT IS ENGAGEMENT?", "ENGAGEMENT"),
        "Mortal Wounds": ("MORTAL WOUNDS AND NORMAL DAMAGE",),
        "Disembark Move": ("RAPID DISEMBARK",),
        "Battle-shock Rolls": ("BATTLEFIELD MORALE",),
        "Fall Back Moves": ("Desperate Escape Tests",),
        "Cult Ambush": ("Units in Cult Ambush", "Cult Ambush Markers"),
    }.items()
}


@dataclass(frozen=True, slots=True)
class Heading:
    """A rule heading: its title (title case) and its section number (11th) or None."""

    title: str
    section: str | None = None


def title_case(text: str) -> str:
    """An ALL-CAPS heading in title case (small words lower, hyphen parts lower after the
    first: "COMMAND RE-ROLL" -> "Command Re-roll"); mixed-case text is kept as printed.
    Brackets around ability names are dropped."""
    t = " ".join(text.strip().strip("[]").split())
    if any(c.islower() for c in t):
        return t
    words = t.split(" ")
    out = []
    for i, word in enumerate(words):
        low = word.lower()
        if i and low in _SMALL_WORDS:
            out.append(low)
        else:
            out.append(low[:1].upper() + low[1:])
    return " ".join(out)


def parse_numbered(text: str) -> Heading | None:
    """A numbered (11th-edition) heading: "13.08 Benefit of Cover", "LEADER24.22",
    "[LETHAL HITS]24.23", "LEADER24.22 / SUPPORT24.23" (title "Leader / Support")."""
    m = _NUMBERED_LEAD.match(text)
    if m:
        return Heading(title_case(m["title"]), m["section"])
    m = _NUMBERED_TAIL.match(text)
    if m:
        return Heading(title_case(m["title"]), m["section"])
    m = _NUMBERED_PAIR.match(text)
    if m:
        return Heading(
            f"{title_case(m['title'])} / {title_case(m['title2'])}",
            f"{m['section']} / {m['section2']}",
        )
    return None


def is_junk_header(text: str) -> bool:
    """Site furniture that is not a rule: "The X keyword is used in the following Genestealer
    Cults datasheets:", "Army List", "Datasheets collated..." (category lists follow)."""
    return bool(_KEYWORD_LIST.match(text)) or text == "Army List" or text.startswith(
        "Datasheets collated"
    )


def is_category(text: str) -> bool:
    """An army-list category under a keyword list ("Characters", "Infantry Epic Hero",
    "and others...")."""
    if text == "and others...":
        return True
    words = text.split()
    return 0 < len(words) <= 3 and all(w.casefold() in _CATEGORY_WORDS for w in words)


def split_glued(text: str, is_heading: Callable[[str], bool]) -> list[str]:
    """Cut ``text`` where a heading was glued to the end of a sentence
    ("...(13.08).[IGNORES COVER]24.18", "...Select Weapons step.The GENESTEALER CULTS keyword
    is used..."). ``is_heading`` says whether a trailing piece is a heading; numbered
    headings, keyword lists, FAQ/SEE ALSO/Army List/Errata boxes, "X Detachment" lines and
    the multi-profile tooltip are always recognised."""
    for m in _GLUE.finditer(text):
        at = m.start()
        if at == 0 or (text[at - 1] == "." and text[at - 2 : at - 1].isdigit()):
            continue  # not after a section number's own dot ("05.04.04")
        tail = text[at:]
        if _is_glued_heading(tail, is_heading):
            return [*split_glued(text[:at], is_heading), tail]
    return [text]


def _is_glued_heading(tail: str, is_heading: Callable[[str], bool]) -> bool:
    return (
        parse_numbered(tail) is not None
        or tail in ("FAQ", "SEE ALSO", "Army List", "Errata", MULTI_PROFILE)
        or bool(_KEYWORD_LIST.match(tail))
        or bool(DETACHMENT_LINE.match(tail))
        or is_heading(tail)
    )


def split_sentences(text: str) -> list[str]:
    """Split at every glue point (a sentence end followed directly by a capital): used on
    pages whose tooltip bodies were run together without titles (003)."""
    return [p for p in _SENTENCE_GLUE.split(text) if p]


# --- which rules version a text is written in ------------------------------------------

# 11th wording (inventory 0 "N"): engaged/unengaged, lower-case roll names, critical hits,
# strategic reserves, ingress moves, attack dice, Resurgence points, allocation groups.
_NEW_TERMS = re.compile(
    r"\b(?:un)?engaged\b|\b(?:hit|wound|save|charge|advance|hazard|battle-shock|leadership)"
    r" rolls?\b|\bcritical (?:hit|wound)s?\b|\bstrategic reserves\b|\bingress move\b"
    r"|\battack dice\b|\bResurgence points?\b|\bCHARACTER groups?\b"
)
# 10th wording (inventory 0 "O"): Engagement Range, tests, saving throws, capitalised roll
# names and move names, Reserves as a capitalised state.
_OLD_TERMS = re.compile(
    r"Engagement Range|Battle-shock tests?|Hazardous tests?|Desperate Escape tests?"
    r"|saving throws?|\bFell Back\b|\bFalls? Back\b|\bAdvanced\b|\bRemained Stationary\b"
    r"|\b(?:Hit|Wound|Charge|Advance|Damage) rolls?\b|\bCritical (?:Hit|Wound)s?\b"
    r"|\b(?:in|from|into) Reserves\b"
)


def wording_version(text: str, default: RulesVersion) -> RulesVersion:
    """The rules version a text's terminology belongs to; ``default`` when it has no
    marker of either (or as many of each)."""
    new = len(_NEW_TERMS.findall(text))
    old = len(_OLD_TERMS.findall(text))
    if new > old:
        return "11th"
    if old > new:
        return "10th"
    return default


# --- tooltip bodies without titles (003) ------------------------------------------------


@dataclass(frozen=True, slots=True)
class Fingerprint:
    """What an untitled tooltip body is, recognised by its opening words."""

    kind: str  # "rule" or "detachment_rule"
    title: str


_OPENINGS: tuple[tuple[str, Fingerprint], ...] = tuple(
    (opening, Fingerprint(kind, title))
    for opening, kind, title in (
        # flavour lines of the 10th-edition tooltips (same words as the titled copies in
        # 000-002 where those exist)
        ("Some units make their way to battle", "rule", "Deep Strike"),
        ("Some weapons can inflict strikes of such power", "rule", "Devastating Wounds"),
        ("Some attacks are so powerful that no armour", "rule", "Mortal Wounds"),
        ("Some attacks inflict mortal wounds", "rule", "Mortal Wounds"),
        ("Some warriors are masters of disguise", "rule", "Stealth"),
        ("Weapons powered by unstable", "rule", "Hazardous"),
        ("Whether shielded by force fields", "rule", "Invulnerable Saves"),
        ("Shattered ruins and twisted wreckage", "rule", "Benefit of Cover"),
        ("Many warriors thunder headlong", "rule", "Charge Bonus"),
        ("Pistols can be wielded", "rule", "Pistol"),
        ("Some weapons are designed to root", "rule", "Ignores Cover"),
        ("Genestealer Cults keep their fighting strength", "rule", "Cult Ambush"),
        ("High-explosive", "rule", "Blast"),
        ("Torrent weapons shoot", "rule", "Torrent"),
        ("Rapid fire weapons", "rule", "Rapid Fire"),
        ("Heavy weapons are", "rule", "Heavy"),
        ("Some weapons can inflict fatal injuries", "rule", "Lethal Hits"),
        ("Assault weapons fire", "rule", "Assault"),
        ("Lance weapons are", "rule", "Lance"),
        ("Dual weapons are often grafted", "rule", "Twin-linked"),
        ("Some weapons strike in a flurry", "rule", "Sustained Hits"),
        ("From detonating ammo stores", "rule", "Deadly Demise"),
        ("Some transports have firing", "rule", "Firing Deck"),
        # 003's detachment rule: A Perfect Ambush's effect under other flavour text and no
        # name (inventory F.1: probably the index-era Ascension Day rule)
        ("For generations an insidious threat", "detachment_rule",
         "(unnamed detachment rule)"),
    )
)
_WEAPONS_WITH = re.compile(r"^Weapons with \[(?P<x>[A-Z][A-Z \-]*?)(?: X)?\] in their profile")


def fingerprint(text: str) -> Fingerprint | None:
    """The rule an untitled body starts, from its opening words (inventory A4: in 003 "the
    tooltip bodies appear without their titles").

    >>> fingerprint("Weapons with [RAPID FIRE X] in their profile are known as ...")
    Fingerprint(kind='rule', title='Rapid Fire')
    """
    for opening, fp in _OPENINGS:
        if text.startswith(opening):
            return fp
    m = _WEAPONS_WITH.match(text)
    if m:
        return Fingerprint("rule", title_case(m["x"]))
    return None

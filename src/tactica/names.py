"""Name normalisation and "did you mean" suggestions for library look-ups.

Names are compared case-, accent- and punctuation-insensitively (the library brief:
"Name look-up is case-, accent- and punctuation-insensitive and suggests close names when
nothing matches"), every kind of apostrophe alike (' ’ ‘ ʼ), and without the kind the app
and the dataset write after a rule's name ("Snarling Rivalry (Upgrade)", "Final Howl
(Aura)": ``bare``). This module is the one look-up every door shares (issue 46, item 7):
``name_key`` is the key, ``find`` the match, ``suggest`` (ranked by ``rank``, the plain
name first) the "did you mean".

>>> normalise("  Death-Riders ")
'death riders'
>>> normalise("Prímus"), normalise("VENGEANCE FOR THE MARTYR!")
('primus', 'vengeance for the martyr')
>>> name_key("C’tan Shard of the Nightbringer") == name_key("ctan shard of the nightbringer")
True
>>> name_key("Snarling Rivalry (Upgrade)") == name_key("snarling rivalry")
True
>>> suggest("Primsu", ["Primus", "Banehammer", "Death Riders"])
('Primus',)
>>> raise UnknownNameError("unit", "Primsu", ("Primus",))
Traceback (most recent call last):
...
UnknownNameError: no unit named 'Primsu'; did you mean: Primus?
"""

from __future__ import annotations

import difflib
import re
import unicodedata
from collections.abc import Iterable

from tactica.cache_registry import lasting_cache

__all__ = ["Query", "UnknownNameError", "article", "bare", "find", "name_key", "normalise",
           "rank", "stem", "suggest"]

#: Apostrophes vanish ("C'tan" -> "ctan"); every other punctuation mark separates words.
_APOSTROPHES = frozenset("'’‘`´ʼ")
#: ``normalise`` of one ASCII character (which NFKD leaves as it is and which is never
#: combining): an apostrophe vanishes, punctuation, symbols, separators and control
#: characters become a space, the rest stay.
_ASCII = {c: None if chr(c) in _APOSTROPHES else " "
          for c in range(128) if chr(c) in _APOSTROPHES
          or unicodedata.category(chr(c))[0] in "PSZC"}


@lasting_cache(maxsize=1 << 16)
def normalise(name: str) -> str:
    """Casefold, strip accents, turn punctuation (curly quotes and dashes included) into
    spaces, drop apostrophes, and collapse runs of spaces.

    >>> normalise("Grenade launcher – frag")
    'grenade launcher frag'
    >>> normalise("Gene-sire’s  Reliquant")
    'gene sires reliquant'
    >>> normalise("“Straße”")
    'strasse'
    """
    if name.isascii():  # most names: the same answer by one table (``_ASCII``)
        return " ".join(name.casefold().translate(_ASCII).split())
    return _normalise_any(name)


def _normalise_any(name: str) -> str:
    """``normalise`` of any text, character by character."""
    decomposed = unicodedata.normalize("NFKD", name.casefold())
    out: list[str] = []
    for ch in decomposed:
        if unicodedata.combining(ch):
            continue
        if ch in _APOSTROPHES:
            continue
        category = unicodedata.category(ch)
        if category[0] in "PSZC":  # punctuation, symbols, separators, control characters
            out.append(" ")
        else:
            out.append(ch)
    return " ".join("".join(out).split())


#: The kinds written after a rule's name, in brackets, that are not part of it.
_KIND = re.compile(r"\s*\((?:upgrade|aura|psychic)\)\s*$", re.I)


def bare(name: str) -> str:
    """``name`` without the kind written after it ("(Upgrade)", "(Aura)", "(Psychic)"),
    as the app and the dataset write some enhancements.

    >>> bare("Final Howl (Aura)"), bare("Bolt rifle (Saturation)"), bare("(Aura)")
    ('Final Howl', 'Bolt rifle (Saturation)', '(Aura)')
    """
    if not name.endswith(")"):
        return name
    return _KIND.sub("", name) or name


@lasting_cache(maxsize=1 << 16)
def name_key(name: str) -> str:
    """The look-up key: ``normalise`` of the ``bare`` name without spaces, so
    "deathriders" finds "Death Riders" too.

    >>> name_key("Death Riders") == name_key("death-riders") == name_key("DEATHRIDERS")
    True
    >>> name_key("Gene-sire’s Reliquant") == name_key("GENE-SIREʼS reliquant")
    True
    """
    return normalise(bare(name)).replace(" ", "")


#: Words that say nothing of which unit or rule is meant: left out of a match unless the
#: text is made of nothing else.
_FILLER = frozenset({"a", "an", "and", "for", "in", "of", "on", "the", "to", "with"})
#: How alike two words must be (difflib's ratio) to count as the same word misspelt.
_CLOSE = 0.8
#: How alike two whole names must be when no word of one is in the other.
_WHOLE = 0.7


def stem(word: str) -> str:
    """A normalised word without its plural ending: "intercessors" and "intercessor",
    "carnifexes" and "carnifex", "harpies" and "harpy" are one word.

    >>> [stem(w) for w in ("intercessors", "carnifexes", "harpies", "boyz", "class")]
    ['intercessor', 'carnifex', 'harpy', 'boyz', 'class']
    """
    if len(word) <= 3:
        return word
    if word.endswith("ies"):
        return word[:-3] + "y"
    if word.endswith(("xes", "ses", "zes", "ches", "shes")):
        return word[:-2]
    if word.endswith("s") and not word.endswith("ss"):
        return word[:-1]
    return word


class Query:
    """Typed text, matched against names word by word (module ``rank``): each of its
    words is found in a name when it is the same word (plural or not), the start of one
    (three letters at least), or a close misspelling (difflib ratio 0.8 or more)."""

    def __init__(self, text: str) -> None:
        self.text = normalise(bare(text))
        self.key = self.text.replace(" ", "")
        words = self.text.split()
        meaningful = [w for w in words if w not in _FILLER]
        self.words = tuple(stem(w) for w in (meaningful or words))
        self._alike: dict[str, tuple[float, ...]] = {}
        # difflib indexes its second sequence: the query's, once
        self._matchers = [_matcher(w) for w in self.words]
        self._whole = _matcher(self.text)

    def _likeness(self, word: str) -> tuple[float, ...]:
        """How well each of this query's words matches ``word`` (a normalised word of a
        name): 1 the same word, 0.9 the start of it, else difflib's ratio from 0.8 up,
        else 0 (kept per word: a library's names share most of their words)."""
        known = self._alike.get(word)
        if known is None:
            target = stem(word)
            known = self._alike[word] = tuple(
                _word_likeness(w, target, m) for w, m in zip(self.words, self._matchers,
                                                             strict=True))
        return known

    def coverage(self, words: Iterable[str]) -> float:
        """The share of this query's words found among ``words`` (each counted by how
        well it matches), from 0 to 1.

        >>> Query("Tactical Marines").coverage(["plague", "marines"])
        0.5
        """
        if not self.words:
            return 0.0
        rows = [self._likeness(w) for w in words]
        return sum(max((r[i] for r in rows), default=0.0)
                   for i in range(len(self.words))) / len(self.words)

    def finds_every(self, words: Iterable[str]) -> bool:
        """Whether each of this query's words is one of ``words`` (or starts or is a
        close misspelling of one).

        >>> Query("infantry characters").finds_every(["infantry", "character", "imperium"])
        True
        """
        rows = [self._likeness(w) for w in words]
        return bool(self.words) and all(
            max((r[i] for r in rows), default=0.0) >= _CLOSE for i in range(len(self.words)))

    def score(self, name: str) -> tuple[float, ...] | None:
        """How well ``name`` matches (higher is better; tuples compare in order), or
        ``None`` when it does not match at all: the same name; the share of the query's
        words it has; the query inside it (ignoring spaces); a name that starts with one
        of those words (the plain unit first, "Intercessor Squad" before "Assault
        Intercessor Squad"); fewer words of its own besides; difflib's ratio of the whole
        names (0.7 at least when nothing else matches)."""
        text = normalise(bare(name))
        if not text or not self.text:
            return None
        key = text.replace(" ", "")
        words = [w for w in text.split() if w not in _FILLER] or text.split()
        coverage = self.coverage(words)
        inside = len(self.key) >= 3 and self.key in key
        matched = key == self.key or coverage or inside
        ratio = _ratio(self._whole, self.text, text, 0.0 if matched else _WHOLE)
        if not matched and not ratio:
            return None
        found = [max(self._likeness(w)) >= _CLOSE for w in words]
        return (float(key == self.key), round(coverage, 3), float(inside), float(found[0]),
                -float(found.count(False)), round(ratio, 3))


def _matcher(text: str) -> difflib.SequenceMatcher[str]:
    matcher: difflib.SequenceMatcher[str] = difflib.SequenceMatcher(None)
    matcher.set_seq2(text)
    return matcher


def _ratio(matcher: difflib.SequenceMatcher[str], mine: str, text: str,
           cutoff: float) -> float:
    """difflib's ratio of ``text`` to ``mine`` (the matcher's second sequence), or 0 below
    ``cutoff`` (the lengths and the letters tried first, as ``difflib.get_close_matches``
    does)."""
    total = len(text) + len(mine)
    if not total or 2 * min(len(text), len(mine)) / total < cutoff:
        return 0.0
    matcher.set_seq1(text)
    if matcher.quick_ratio() < cutoff:
        return 0.0
    ratio = matcher.ratio()
    return ratio if ratio >= cutoff else 0.0


def _word_likeness(typed: str, word: str, matcher: difflib.SequenceMatcher[str]) -> float:
    if typed == word:
        return 1.0
    if len(typed) >= 3 and word.startswith(typed):
        return 0.9
    return _ratio(matcher, typed, word, _CLOSE)


def _ranked(name: str, candidates: Iterable[str]) -> list[tuple[tuple[float, ...], str]]:
    query = Query(name)
    scored: dict[str, tuple[tuple[float, ...], int, str]] = {}
    for i, candidate in enumerate(candidates):
        text = normalise(candidate)
        if text in scored:
            continue
        score = query.score(candidate)
        if score is not None:
            scored[text] = (score, -i, candidate)
    return [(score, c) for score, _, c in sorted(scored.values(), reverse=True)]


def rank(name: str, candidates: Iterable[str]) -> list[str]:
    """Every candidate that matches ``name``, best first (``Query.score``), each
    normalised name once, in its own spelling: the ranking of every "did you mean" and of
    the assistant's unit search.

    >>> rank("Intercessors", ["Assault Intercessor Squad", "Interceptor Squad",
    ...                       "Intercessor Squad", "Primus"])
    ['Intercessor Squad', 'Assault Intercessor Squad', 'Interceptor Squad']
    >>> rank("Space Marine Captain", ["Blood Angels Captain", "Captain", "Plague Marines"])
    ['Captain', 'Plague Marines', 'Blood Angels Captain']
    """
    return [c for _, c in _ranked(name, candidates)]


#: A "did you mean" leaves out names that have fewer of the typed words than this share,
#: when the best one has this share or more (typed "Coordinated Trapp": Coordinated Trap,
#: not Coordinated Strike).
_CLEAR = 0.75


def suggest(name: str, candidates: Iterable[str], n: int = 3) -> tuple[str, ...]:
    """Up to ``n`` candidates close to ``name``, best first (``rank``), in their own
    spelling; when the best has most of the typed words, only those that do too.

    >>> suggest("death", ["Primus", "Death Riders", "Deadly Demise"])
    ('Death Riders',)
    >>> suggest("zzzz", ["Primus"])
    ()
    >>> suggest("Coordinated Trapp", ["Coordinated Strike", "Coordinated Trap"])
    ('Coordinated Trap',)
    """
    if n < 1:
        return ()
    ranked = _ranked(name, candidates)
    if not ranked:
        return ()
    floor = min(ranked[0][0][1], _CLEAR)
    return tuple(c for score, c in ranked if score[1] >= floor)[:n]


def find(kind: str, name: str, candidates: Iterable[str]) -> str:
    """The candidate ``name`` names (``name_key``: case, punctuation, apostrophes and the
    kind after it ignored), in its own spelling; else ``UnknownNameError`` with the
    closest (``suggest``): the one look-up of every door.

    >>> find("detachment", "host of ascension", ["Host of Ascension", "Biosanctic Broodsurge"])
    'Host of Ascension'
    >>> find("rule", "Final Howl", ["Final Howl (Aura)"])
    'Final Howl (Aura)'
    >>> try:
    ...     find("detachment", "Host of Acension", ["Host of Ascension"])
    ... except UnknownNameError as exc:
    ...     print(exc.suggestions)
    ('Host of Ascension',)
    """
    listed = list(candidates)
    key = name_key(name)
    found = next((c for c in listed if name_key(c) == key), None)
    if found is None:
        raise UnknownNameError(kind, name, suggest(name, listed))
    return found


class UnknownNameError(LookupError):
    """Nothing in the library has this name. ``kind`` says what was looked for ("unit",
    "rule", "target"); ``suggestions`` holds close names, best first."""

    def __init__(self, kind: str, name: str, suggestions: Iterable[str] = ()) -> None:
        self.kind = kind
        self.name = name
        self.suggestions = tuple(suggestions)
        message = f"no {kind} named {name!r}"
        if self.suggestions:
            message += f"; did you mean: {', '.join(self.suggestions)}?"
        super().__init__(message)


def article(word: str) -> str:
    """The indefinite article before ``word`` as the rules write it.

    >>> f"{article('ORKS')} ORKS unit", f"{article('VEHICLE')} VEHICLE unit"
    ('an ORKS unit', 'a VEHICLE unit')
    """
    return "an" if word[:1] and word[:1].upper() in "AEIOU" else "a"

"""Caches by value (issue 42): no module keeps a memo of its own outside
``tactica.cache_registry``, no cache is keyed by an object's identity, and the bug class
the issue names ("a matchup silently gets another matchup's roll") is checked on
fielding: equal records share an entry, a changed copy never gets the old entry's
answer (each compared with the answer worked out with every cache empty)."""

from __future__ import annotations

import ast
import copy
import importlib
import pickle
import pkgutil
from pathlib import Path
from typing import Any

import pytest

import tactica
from tactica import cache_registry
from tactica.calculator import prepare
from tactica.combat.batch import figures_each
from tactica.library import Library, load_seed_library
from tactica.model.datasheet import Datasheet
from tactica.model.trusted import constructed
from tactica.units import field_unit
from tactica.units.abilities import held_by

SRC = Path(tactica.__file__).resolve().parent

#: The module-level dicts that start empty and are filled as the program runs, other
#: than the registered caches, each with why it is no memo to register.
ALLOWED_DICTS = {
    ("cli/errors.py", "LAZY"): "the commands imported on first use: a table of the CLI's "
                               "commands filled at import, never an answer",
    ("effects/__init__.py", "_INDEX"): "the named effects by their names' keys, filled "
                                       "once at import from constants",
    ("loaders/wh40kdc_cache.py", "_opened"): "the dataset's files opened, one per path "
                                             "(an open file, not an answer of values)",
    ("model/common.py", "_GETTERS"): "a record class's field getter (``Frozen.__hash__``): "
                                     "keyed by the class, which lives as long as the program",
    ("model/trusted.py", "_made_fields"): "a dataclass's field names, keyed by the class, "
                                          "which lives as long as the program",
}

#: The calls that make a dict to fill later.
_DICT_MAKERS = {"dict", "OrderedDict", "defaultdict", "WeakKeyDictionary",
                "WeakValueDictionary", "Counter"}


def _called(value: ast.expr) -> str | None:
    if isinstance(value, ast.Call):
        f = value.func
        return f.id if isinstance(f, ast.Name) else f.attr if isinstance(f, ast.Attribute) \
            else None
    return None


def _module_dicts() -> dict[tuple[str, str], str]:
    """Every module-level name of ``src/tactica`` bound to an empty dict (a literal or one
    of ``_DICT_MAKERS``) or to a ``LastingMemo``: (file, name) -> what makes it."""
    found: dict[tuple[str, str], str] = {}
    for path in sorted(SRC.rglob("*.py")):
        rel = path.relative_to(SRC).as_posix()
        for node in ast.parse(path.read_text(encoding="utf-8")).body:
            if isinstance(node, ast.Assign):
                names = [t.id for t in node.targets if isinstance(t, ast.Name)]
                value: ast.expr | None = node.value
            elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
                names, value = [node.target.id], node.value
            else:
                continue
            if value is None:
                continue
            maker = "{}" if isinstance(value, ast.Dict) and not value.keys else _called(value)
            if maker in ({"{}", "LastingMemo"} | _DICT_MAKERS):
                for name in names:
                    found[(rel, name)] = str(maker)
    return found


def test_no_module_keeps_a_dict_of_its_own_but_the_registered_and_the_allowed() -> None:
    found = _module_dicts()
    unregistered = {k: m for k, m in found.items()
                    if m != "LastingMemo" and k not in ALLOWED_DICTS}
    assert not unregistered, (
        "a module-level dict filled at run time: make it a memo of the run, or a "
        f"cache_registry.LastingMemo / lasting_cache, or allow it with why: {unregistered}")
    assert not set(ALLOWED_DICTS) - set(found), "an allowed dict no longer exists"
    # the scan sees what it must: the registered memos of fielding and the meta table
    assert found[("units/resolve.py", "_attackers")] == "LastingMemo"
    assert found[("meta/compute.py", "_memo")] == "LastingMemo"


def test_the_scan_finds_an_unregistered_memo() -> None:
    """The scan itself is checked on a module written for it."""
    tree = ast.parse("_kept: dict[str, int] = {}\n_also = dict()\nCONST = {'a': 1}\n")
    makers = [_called(n.value) or ("{}" if isinstance(n.value, ast.Dict) and
                                   not n.value.keys else None)
              for n in tree.body if isinstance(n, ast.Assign | ast.AnnAssign)
              and n.value is not None]
    assert makers == ["{}", "dict", None]


#: The module-level functions cached by ``functools`` without registering, each with why
#: it holds no answer and no data (a fact of the program or of the process, fixed once
#: it runs): every other one is a ``cache_registry.lasting_cache``.
ALLOWED_FUNCTION_CACHES = {
    ("model/trusted.py", "_fields"): "a model class's field names: fixed with the class",
    ("combat/contract/circumstances.py", "circumstances"): "read off the contract's "
        "classes: fixed with them",
    ("combat/exact/threads.py", "_blas"): "the BLAS libraries the process loaded",
    ("cache.py", "_sources_hash"): "the digest of the program's own source files",
    ("meta/table.py", "_schema_of"): "the table's Arrow schema, fixed with the code",
    ("meta/table.py", "_versions"): "the versions of the packages installed",
    ("meta/table.py", "_umask"): "the process's file-creation mask",
    ("seed_pages.py", "records_adapter"): "a pydantic type adapter: fixed with the classes",
    ("web/pages.py", "_environment"): "the web door's templates, read once per process",
    ("web/pages.py", "circumstance_fields"): "the web door's controls, read off the "
        "contract once per process",
    ("web/strict.py", "scenario_number_fields"): "the contract's number fields, fixed "
        "with its classes",
}

_FUNCTOOLS_CACHES = {"cache", "lru_cache"}


def _decorator_name(node: ast.expr) -> str | None:
    target = node.func if isinstance(node, ast.Call) else node
    if isinstance(target, ast.Attribute):
        return target.attr
    return target.id if isinstance(target, ast.Name) else None


def _function_caches(source: str) -> list[str]:
    """The module-level functions of ``source`` under ``functools.cache`` or
    ``lru_cache`` (however imported): registered caches are ``lasting_cache``."""
    return [node.name for node in ast.parse(source).body
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)
            and any(_decorator_name(d) in _FUNCTOOLS_CACHES for d in node.decorator_list)]


def test_every_module_level_cache_is_registered_or_allowed() -> None:
    """One ``clear()`` empties every cache of answers and data (issue 42): a module-level
    function cached by ``functools`` is a ``lasting_cache``, or allowed with why."""
    found = {(path.relative_to(SRC).as_posix(), name)
             for path in sorted(SRC.rglob("*.py"))
             for name in _function_caches(path.read_text(encoding="utf-8"))}
    unregistered = sorted(found - set(ALLOWED_FUNCTION_CACHES))
    assert not unregistered, (
        "a functools cache outside the registry: make it cache_registry.lasting_cache "
        f"(kind 'answers' or 'data'), or allow it with why: {unregistered}")
    assert not set(ALLOWED_FUNCTION_CACHES) - found, "an allowed cache no longer exists"


def test_the_cache_scan_finds_each_spelling() -> None:
    source = ("import functools\nfrom functools import cache, lru_cache\n"
              "@functools.cache\ndef a(): ...\n@lru_cache(maxsize=2)\ndef b(): ...\n"
              "@cache\ndef c(): ...\n@functools.lru_cache(maxsize=None)\ndef d(): ...\n"
              "@lasting_cache(maxsize=4)\ndef e(): ...\ndef f(): ...\n")
    assert _function_caches(source) == ["a", "b", "c", "d"]


def _fielding_modules() -> list[Any]:
    import tactica.units as units

    names = [f"tactica.units.{m.name}" for m in pkgutil.iter_modules(units.__path__)]
    return [importlib.import_module(n) for n in (*names, "tactica.meta.compute")]


def test_every_cache_of_fielding_and_the_meta_table_is_registered() -> None:
    """Every ``functools`` cache and ``LastingMemo`` of ``tactica.units`` and the meta
    table's computation is one ``cache_registry.clear()`` empties."""
    modules = _fielding_modules()  # imported first: their caches registered
    registered = cache_registry.registered()
    caches = [(m.__name__, name) for m in modules
              for name, value in vars(m).items()
              if (callable(getattr(value, "cache_clear", None)) or
                  isinstance(value, cache_registry.LastingMemo))
              and getattr(value, "__module__", m.__name__) == m.__name__
              and not any(value is r for r in registered)]
    assert not caches


def test_clear_empties_fielding_and_the_meta_memo() -> None:
    from tactica.meta import compute

    resolving = importlib.import_module("tactica.units.resolve")
    lib = load_seed_library()
    prepare(DOC, lib)
    compute._memo[("probe",)] = 1
    assert len(resolving._attackers) and len(compute._memo)
    cache_registry.clear("answers")
    assert not resolving._attackers and not compute._memo


# --- a record's hash: by value, worked out once, never carried to a changed copy -------

def _sheet(lib: Library) -> Datasheet:
    return lib.datasheet("Neophyte Hybrids", "11th")  # as the calculator fields it


def test_a_record_hashes_by_value_and_a_changed_copy_by_its_own() -> None:
    sheet = _sheet(load_seed_library())
    twin = copy.deepcopy(sheet)
    assert twin is not sheet and twin == sheet and hash(twin) == hash(sheet)
    assert hash(pickle.loads(pickle.dumps(sheet))) == hash(sheet)
    # constructed from its fields in another order: equal, the same hash
    values = dict(reversed(list(sheet.__dict__.items())))
    again = constructed(Datasheet, values)
    assert again == sheet and hash(again) == hash(sheet)
    hash(sheet)  # worked out: a copy changed afterwards must not carry it
    renamed = sheet.model_copy(update={"name": "Neophytes 2"})
    assert renamed != sheet
    assert hash(renamed) == hash(sheet.model_copy(update={"name": "Neophytes 2"}, deep=True))
    assert hash(renamed) != hash(sheet)  # the old hash is not carried over


def test_a_record_s_equality_is_pydantic_s() -> None:
    """``hashed_once``'s early answers agree with pydantic's own equality (the oracle,
    ``BaseModel.__eq__``) on every pair of a set of datasheets and contract records:
    equal copies, changed copies, other classes, hashes worked out or not, and a
    ``__dict__`` that holds more than the fields (a ``cached_property``'s value)."""
    from pydantic import BaseModel

    from tactica.combat.contract.scenario import Context, Target

    lib = load_seed_library()
    sheets = [lib.datasheet("Primus"), lib.datasheet("Neophyte Hybrids")]
    sheet = sheets[0]
    stronger = sheet.model_copy(update={"name": sheet.name + " (copy)"})
    target = Target.model_validate({"models": [{"T": 4, "Sv": 3, "W": 2, "count": 5}]})
    records: list[Any] = [*sheets, copy.deepcopy(sheet), stronger, target,
                          copy.deepcopy(target), target.model_copy(update={"cover": True}),
                          Context(), Context(distance=12), Context(distance=12)]
    hash(records[0]), hash(records[4]), hash(records[8])  # some worked out, some not
    records[1].__dict__["_probe"] = 1  # more than the fields (as a cached_property)
    for a in records:
        for b in records:
            assert (a == b) is BaseModel.__eq__(a, b), (a, b)
            assert (a != b) is not BaseModel.__eq__(a, b)
    del records[1].__dict__["_probe"]


def test_no_copy_carries_a_worked_out_hash() -> None:
    """A copy (``model_copy``, ``copy``, ``deepcopy``, pickling: another process's string
    hashes differ) starts without the hash, for a datasheet and a contract record."""
    from tactica.combat.contract.scenario import Attacker, WeaponLine

    lib = load_seed_library()
    attacker = Attacker(name="a", weapons=(WeaponLine(name="w", A="1", skill=3, S=4, D="1"),))
    for record in (_sheet(lib), attacker):
        hash(record)
        assert hasattr(record, "_value_hash")
        for made in (record.model_copy(), record.model_copy(update={"name": "b"}),
                     copy.copy(record), copy.deepcopy(record),
                     pickle.loads(pickle.dumps(record))):
            assert not hasattr(made, "_value_hash"), type(made)
            assert hash(made) == hash(made.model_copy(deep=True))
    changed = attacker.model_copy(update={"weapons": (attacker.weapons[0].model_copy(
        update={"S": 5}),)})
    assert changed != attacker and hash(changed) != hash(attacker)


# --- metamorphic: equal values share an entry, a changed copy gets its own answer ------

class _Swapped:
    """A library that answers ``sheet`` for its name, and the library otherwise."""

    def __init__(self, lib: Library, sheet: Datasheet) -> None:
        self.lib, self.sheet = lib, sheet

    def datasheet(self, name: str, rules: Any = None) -> Datasheet:
        found = self.lib.datasheet(name, rules)
        return self.sheet if found.name == self.sheet.name else found

    def presets(self) -> Any:
        return self.lib.presets()


DOC = {"attacker": {"unit": "Neophyte Hybrids"}, "target": {"unit": "meq"}}


def _answer(lib: Any) -> tuple[Any, ...]:
    scenario = prepare(DOC, lib)[0]
    return scenario, figures_each([scenario])[0]


def _stronger(sheet: Datasheet, line: str) -> Datasheet:
    """``sheet`` with the profile fired as ``line`` at +2 Strength (a changed copy)."""
    weapons = []
    for w in sheet.weapons:
        ps = tuple(p.model_copy(update={"S": p.S + 2}) if p.name == line else p
                   for p in w.profiles)
        weapons.append(w.model_copy(update={"profiles": ps}))
    return sheet.model_copy(update={"weapons": tuple(weapons)})


def test_an_equal_datasheet_shares_the_entry_and_gives_the_same_answer() -> None:
    resolving = importlib.import_module("tactica.units.resolve")
    lib = load_seed_library()
    sheet = _sheet(lib)
    first = _answer(lib)
    twin = copy.deepcopy(sheet)
    assert twin is not sheet
    entries = len(resolving._attackers)
    assert _answer(_Swapped(lib, twin)) == first
    assert len(resolving._attackers) == entries  # the twin found the entry: none added
    assert field_unit(twin) is field_unit(sheet)
    assert held_by([twin]) is held_by([sheet])


@pytest.mark.parametrize("cold_first", [False, True])
def test_a_changed_datasheet_never_gets_the_old_entry_s_answer(cold_first: bool) -> None:
    """One profile's Strength changed through ``model_copy(update=...)``: the changed
    copy's scenario and figures are those worked out with every cache empty, and not the
    original's (met first, its entries cached, or after the changed copy's)."""
    lib = load_seed_library()
    sheet = _sheet(lib)
    original = _answer(lib)
    line = original[0].attacker.weapons[0].name
    changed = _Swapped(lib, _stronger(sheet, line))
    cache_registry.clear("answers")
    cold = _answer(changed)
    if not cold_first:
        cache_registry.clear("answers")
        assert _answer(lib) == original  # the original's entries are cached again
    warm = _answer(changed)
    assert warm == cold
    assert warm[0].attacker.weapons[0].S == original[0].attacker.weapons[0].S + 2
    assert warm[1] != original[1]  # stronger: other figures
    assert _answer(lib) == original  # and the original still gets its own

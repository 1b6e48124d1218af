"""What a test needs from the machine, in one place: the real data and a browser.

The test suite runs on a fresh clone with nothing beside it. Two suites need more:

* the **real-data suite** (marker ``real_data``, fixture ``real_data``): the BSData 11th
  edition catalogues, which state no licence and so are not in the repository. It runs
  when ``TACTICA_REAL_DATA`` names a folder laid out like the project's ``shared/data``
  (``bsdata-11e/`` with ``Genestealer Cults.json`` and the game system file); a relative
  path is read from the repository root;
* the **browser suite** (marker ``browser``, fixture ``chromium``): the end-to-end tests of
  ``tests/web/test_e2e.py``, with a Chromium found as ``TACTICA_CHROMIUM``, on the ``PATH``
  (``chromium``, ``chromium-browser``) or at ``/usr/bin/chromium``.

Without what they need these tests are skipped with the reason. When ``CI`` or
``TACTICA_STRICT_TESTS`` is set (to anything but ``0``/``false``) they fail instead: CI
(``.ci/run``) makes both suites mandatory.

Tests that pin values of the installed ``wh40kdc`` dataset use the ``pinned_dataset``
fixture: on another version they are skipped (the pinned version is
``PINNED_DATASET``), while the rest of the dataset tests compare the converter's output
with the installed version's own records.

No test asserts on time: hypothesis runs without deadlines (the ``tactica`` profile
below), and speed is measured in ``benchmarks/``.

The web apps of the tests share one calculation worker (``calc_pool``): each worker is a
Python process that loads every faction's rules before its first calculation, seconds of
CPU that one run pays once. Only the tests of the pool itself (timeouts, a busy pool)
start workers of their own.
"""

from __future__ import annotations

import os

# every record made without validation (``tactica.model.trusted``) is validated again and
# compared, in this process and the doors' subprocesses: set before tactica is imported
os.environ.setdefault("TACTICA_VALIDATE_ALL", "1")
import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, NoReturn

import pytest
from hypothesis import settings

from tactica.cache import CACHE_DIR_ENV
from tactica.loaders.wh40kdc import PINNED_VERSION, installed_version

if TYPE_CHECKING:
    from fastapi.testclient import TestClient

    from tactica.library import Library
    from tactica.web.compute import CalcPool

REAL_DATA_ENV = "TACTICA_REAL_DATA"
CHROMIUM_ENV = "TACTICA_CHROMIUM"
STRICT_ENVS = ("CI", "TACTICA_STRICT_TESTS")
#: The dataset version whose values the ``pinned_dataset`` tests state.
PINNED_DATASET = PINNED_VERSION
#: The calculation bound of the shared worker (``calc_pool``): long enough for a worker to
#: start Python and load tactica on a loaded machine (its first calculation includes
#: that). The bound itself is tested with pools of their own, never against the clock.
PATIENT = 600.0
#: What the real-data suite reads inside ``TACTICA_REAL_DATA``.
REAL_DATA_FILES = ("bsdata-11e/Genestealer Cults.json", "bsdata-11e/Warhammer 40,000.json")


# No wall-clock bound on property tests (a loaded machine must not fail them): every
# ``@given`` test without its own ``deadline`` has none.
settings.register_profile("tactica", deadline=None)
settings.load_profile("tactica")


def strict() -> bool:
    """Whether a missing requirement fails the test (CI) rather than skipping it."""
    return any(os.environ.get(name, "").strip().lower() not in ("", "0", "false")
               for name in STRICT_ENVS)


def missing(reason: str) -> NoReturn:
    """Skip the test for ``reason``, or fail it when the run is strict (``strict``)."""
    if strict():
        pytest.fail(f"{reason} (required: {' or '.join(STRICT_ENVS)} is set)", pytrace=False)
    pytest.skip(reason)


def pytest_configure(config: pytest.Config) -> None:
    # tactica's cache for the tests, never the user's: kept between runs in pytest's
    # cache folder (``.pytest_cache``), so a run after the first reads the converted
    # dataset, the seed library and the index of rules instead of building them again.
    # Its entries are keyed by the code and data that build them (``tactica.cache``): an
    # edit gives new keys and the older entries of a kind are removed as new ones are
    # written. Without pytest's cache (``-p no:cacheprovider``), a folder for this run.
    os.environ[CACHE_DIR_ENV] = _test_cache_dir(config)
    config.addinivalue_line(
        "markers", f"real_data: needs {REAL_DATA_ENV} (the BSData catalogues, not shipped)")
    config.addinivalue_line("markers", "browser: needs a Chromium (end-to-end tests)")
    config.addinivalue_line("markers", "slow: generated inputs at volume and whole-library "
                            "sweeps; left out of the default run, run in CI with -m slow")
    config.addinivalue_line("markers", "fuzz: the property suite of tests/fuzz (a few "
                            "examples; TACTICA_FUZZ_EXAMPLES=3000 for the long run)")


#: The cache folder made for this run alone (no pytest cache), removed with the run.
_RUN_CACHE = pytest.StashKey[str]()


def _test_cache_dir(config: pytest.Config) -> str:
    cache = getattr(config, "cache", None)
    if cache is not None:
        return str(cache.mkdir("tactica"))
    folder = tempfile.mkdtemp(prefix="tactica-test-cache-")
    config.stash[_RUN_CACHE] = folder
    return folder


def pytest_unconfigure(config: pytest.Config) -> None:
    folder = config.stash.get(_RUN_CACHE, "")
    if folder:  # this run's own folder (no pytest cache): removed with the run
        shutil.rmtree(folder, ignore_errors=True)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Mark every test by the fixtures it asks for, so ``-m real_data`` / ``-m browser``
    select a suite and ``-m "not real_data and not browser"`` the self-contained rest."""
    for item in items:
        names = getattr(item, "fixturenames", ())
        if "real_data" in names:
            item.add_marker(pytest.mark.real_data)
        if "chromium" in names:
            item.add_marker(pytest.mark.browser)


@pytest.fixture(scope="session")
def real_data(pytestconfig: pytest.Config) -> Path:
    """The folder ``TACTICA_REAL_DATA`` names (see the module text)."""
    value = os.environ.get(REAL_DATA_ENV, "").strip()
    if not value:
        missing(f"real-data test: set {REAL_DATA_ENV} to a folder like shared/data "
                "(the BSData catalogues are not in the repository)")
    folder = Path(value).expanduser()
    if not folder.is_absolute():
        folder = pytestconfig.rootpath / folder
    absent = [name for name in REAL_DATA_FILES if not (folder / name).is_file()]
    if absent:
        missing(f"real-data test: {REAL_DATA_ENV}={value} has no {', '.join(absent)}")
    return folder.resolve()


@pytest.fixture(scope="session")
def bsdata(real_data: Path) -> Path:
    """The real BSData 11th-edition folder (``<real data>/bsdata-11e``)."""
    return real_data / "bsdata-11e"


@pytest.fixture(scope="session")
def chromium() -> Path:
    """A Chromium executable for the end-to-end tests (see the module text)."""
    candidates = [os.environ.get(CHROMIUM_ENV, "").strip(),
                  shutil.which("chromium") or "", shutil.which("chromium-browser") or "",
                  "/usr/bin/chromium"]
    found = next((Path(c) for c in candidates if c and Path(c).is_file()), None)
    if found is None:
        missing(f"browser test: no Chromium found (set {CHROMIUM_ENV}, or install "
                "Debian's chromium package as .ci/run does)")
    return found


@pytest.fixture(scope="session")
def pinned_dataset() -> str:
    """The installed ``wh40kdc`` version, when it is the one the test's values were read
    from (``PINNED_DATASET``); otherwise the test is skipped, saying so."""
    version = installed_version()
    if version is None:
        missing("dataset test: wh40kdc is not installed")
    if version != PINNED_DATASET:
        pytest.skip(f"pins values of wh40kdc {PINNED_DATASET}; {version} is installed")
    return version


@pytest.fixture(scope="session")
def calc_pool() -> Iterator[CalcPool]:
    """The one calculation worker the tests' web apps share (``create_app(calc_pool=...)``),
    patient (``PATIENT``) for a loaded machine; stopped at the end of the run."""
    from tactica.web.compute import CalcPool

    pool = CalcPool(workers=1, timeout=PATIENT, wait=PATIENT)
    yield pool
    pool.close()


@pytest.fixture(scope="module")
def library() -> Library:
    """The library every door answers from (a module's own ``library`` fixture, such as
    the seed pages', takes its place there)."""
    from tactica.library import load_library

    return load_library()


@pytest.fixture(scope="module")
def web(library: Library, calc_pool: CalcPool) -> Iterator[TestClient]:
    """The web door over ``library``, sharing the tests' calculation worker."""
    from fastapi.testclient import TestClient

    from tactica.web import create_app

    with TestClient(create_app(library=lambda: library, calc_pool=calc_pool)) as client:
        yield client


def pytest_collection_finish(session: pytest.Session) -> None:
    """Set the collected modules, fixtures' code and the library caches aside from the
    garbage collector (``gc.freeze``), as the command line does after its start-up
    (``loaders.bulk``): a long run otherwise walks them at every full collection.

    What the tests load later (the library, every faction's rules, the sides of a
    matrix: millions of objects kept for the run by module and session caches) is set
    aside the same way: after each full collection (generation 2, found by a
    ``gc.callbacks`` hook) the objects that survived it are frozen once the running test
    ends (``pytest_runtest_teardown``), never in the middle of a test. Each later full
    collection then walks only what was made since; without this, each of them walked
    the whole library again (about 0.5 s of CPU each, a tenth of a long run's time in
    the collector)."""
    import gc

    gc.collect()
    gc.freeze()
    gc.callbacks.append(_note_full_collection)


_FULL_COLLECTIONS = {"since_freeze": 0}


def _note_full_collection(phase: str, info: dict[str, int]) -> None:
    """A ``gc.callbacks`` hook: count the full collections since the last freeze."""
    if phase == "stop" and info["generation"] == 2:
        _FULL_COLLECTIONS["since_freeze"] += 1


@pytest.hookimpl(trylast=True)
def pytest_runtest_teardown(item: pytest.Item) -> None:
    """After a test during which the collector ran a full collection, freeze what
    survived it (``pytest_collection_finish``)."""
    import gc

    if _FULL_COLLECTIONS["since_freeze"]:
        _FULL_COLLECTIONS["since_freeze"] = 0
        gc.freeze()

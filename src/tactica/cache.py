"""tactica's on-disk cache: where it lives, how entries are keyed, how they are written.

Issue 11 ("Fast start"): a command should not rebuild, in every process, what the last
one built from the same inputs. Two things are cached: the converted ``wh40kdc`` dataset
(``tactica.loaders.wh40kdc_cache``) and the seed library (``tactica.library``); and the
code Python compiles from source text while a command starts (``tactica.code_cache``).

* Folder: ``TACTICA_CACHE_DIR``, else the user cache folder
  (``platformdirs.user_cache_dir("tactica")``, e.g. ``~/.cache/tactica``).
* ``TACTICA_CACHE=0`` (or ``off``, ``false``, ``no``) turns the cache off.
* Keys (``cache_key``): the tactica and pydantic versions, a hash of the sources of the
  code that builds the entry (the ``loaders`` and ``model`` packages, ``names.py``,
  ``dice.py``, ``facts.py``, ``reference_facts.py``, ``seed_pages.py``, ``library.py`` and
  the packaged data files) and whatever the caller adds (the dataset version): a change
  to any of them gives another key, so a stale entry is never read. The hash of those
  sources is itself kept, under their ``files_stamp``, so it is computed once per change.
* Writing (``write_atomically``): the whole entry goes to a temporary file in the same
  folder, which is then renamed into place (``os.replace``, atomic), so processes running
  at once never see half an entry; older entries of the same kind are removed.
* Stamps (``files_stamp``, ``code_stamp``): a digest of the names, sizes and modification
  times of files (no file is read), for an entry that must be cheap to find: the index of
  rules by name (``tactica.lookup.rule_index``) is keyed by the stamps of its data sources
  and of the code that builds it.
* A folder that cannot be written, or an entry that cannot be read, is not an error: the
  caller builds the thing in the process, as without a cache.
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import os
import re
import tempfile
from collections.abc import Callable, Iterable
from importlib import resources
from pathlib import Path
from typing import Any

__all__ = ["CACHE_DIR_ENV", "CACHE_ENV", "cache_dir", "cache_enabled", "cache_key",
           "code_stamp", "files_stamp", "write_atomically"]

CACHE_ENV = "TACTICA_CACHE"
CACHE_DIR_ENV = "TACTICA_CACHE_DIR"
#: The parts of tactica whose code or data decide what a cached entry holds.
_BUILDER_SOURCES = ("loaders", "model", "data", "data/seeds", "names.py", "dice.py",
                    "facts.py", "reference_facts.py", "seed_pages.py", "library.py")
_SUFFIXES = (".py", ".json", ".yaml", ".txt")
_SCHEMA = 1


def cache_enabled() -> bool:
    """False when ``TACTICA_CACHE`` is ``0``, ``off``, ``false`` or ``no``."""
    return os.environ.get(CACHE_ENV, "").strip().lower() not in ("0", "off", "false", "no")


def cache_dir() -> Path:
    """``TACTICA_CACHE_DIR``, else the user cache folder for tactica."""
    configured = os.environ.get(CACHE_DIR_ENV, "").strip()
    if configured:
        return Path(configured).expanduser()
    import platformdirs

    return Path(platformdirs.user_cache_dir("tactica", appauthor=False))


@functools.cache
def _sources_hash() -> str:
    """The digest of the contents of ``_BUILDER_SOURCES``, kept in the cache folder under
    their ``files_stamp`` (names, sizes, modification times): a command reads and hashes
    the ~600 kB only after one of them changed (2% of a warm ``calc``'s instructions)."""
    memo = None
    if cache_enabled():
        root = Path(__file__).resolve().parent
        stamp = files_stamp([root / part for part in _BUILDER_SOURCES], _SUFFIXES)
        memo = cache_dir() / f"sources-{stamp}.txt"
        with contextlib.suppress(OSError, ValueError):
            kept = memo.read_text(encoding="ascii").strip()
            if re.fullmatch(r"[0-9a-f]{64}", kept):
                return kept
    digest = _hash_sources()
    if memo is not None:
        with contextlib.suppress(OSError):
            write_atomically(memo, lambda p: p.write_text(digest, encoding="ascii"),
                             "sources-*.txt")
    return digest


def _hash_sources() -> str:
    digest = hashlib.sha256()
    root = resources.files("tactica")
    for part in _BUILDER_SOURCES:
        node = root.joinpath(part)
        files = sorted((f for f in node.iterdir() if f.is_file()), key=lambda f: f.name) \
            if node.is_dir() else [node]
        for f in files:
            if f.name.endswith(_SUFFIXES):
                digest.update(f"{part}/{f.name}".encode())
                digest.update(f.read_bytes())
    return digest.hexdigest()


def cache_key(*parts: str) -> str:
    """The key of an entry built from ``parts`` (e.g. ``"wh40kdc 1.4.5"``) by this very
    tactica (see the module text)."""
    import pydantic

    from .version import __version__

    every = [f"schema {_SCHEMA}", *parts, f"tactica {__version__}",
             f"pydantic {pydantic.VERSION}", _sources_hash()]
    return hashlib.sha256("\n".join(every).encode()).hexdigest()[:24]


def _stat_lines(path: Path, suffixes: tuple[str, ...]) -> list[str]:
    try:
        if not path.is_dir():
            st = path.stat()
            return [f"{path}\t{st.st_size}\t{st.st_mtime_ns}"]
        entries = sorted(os.scandir(path), key=lambda e: e.name)
    except OSError:
        return [f"{path}\tabsent"]
    lines = []
    for entry in entries:
        if entry.is_dir() and entry.name != "__pycache__":
            lines += _stat_lines(Path(entry.path), suffixes)
        elif entry.is_file() and (not suffixes or entry.name.endswith(suffixes)):
            st = entry.stat()
            lines.append(f"{entry.path}\t{st.st_size}\t{st.st_mtime_ns}")
    return lines


def files_stamp(paths: Iterable[Path], suffixes: tuple[str, ...] = ()) -> str:
    """A digest of the files at ``paths`` (a folder: every file under it, ``__pycache__``
    left out; only names ending in ``suffixes`` when given): their paths, sizes and
    modification times, so that a changed, added or removed file gives another stamp.
    A path that cannot be read counts as absent."""
    digest = hashlib.sha256()
    for path in paths:
        for line in _stat_lines(Path(path), suffixes):
            digest.update(line.encode() + b"\n")
    return digest.hexdigest()[:24]


def code_stamp(parts: Iterable[str]) -> str:
    """``files_stamp`` of these parts of tactica's own code and data (paths inside the
    package: ``"effects"``, ``"lookup"``, ``"names.py"``) and tactica's version."""
    from .version import __version__

    root = Path(__file__).resolve().parent
    return f"{__version__}-" + files_stamp([root / p for p in parts],
                                           (".py", ".json", ".yaml", ".txt"))


def write_atomically(path: Path, write: Callable[[Path], Any], stale: str) -> None:
    """Build an entry with ``write(temporary path)`` and rename it to ``path``; entries
    matching the glob ``stale`` in that folder (other keys) are removed. Raises
    ``OSError`` (or whatever ``write`` raises) when it cannot be done; the temporary file
    never stays behind."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, name = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    os.close(fd)
    temporary = Path(name)
    try:
        temporary.unlink()  # ``write`` creates it (sqlite3 wants to create its own file)
        write(temporary)
        os.replace(temporary, path)
    except BaseException:
        temporary.unlink(missing_ok=True)
        raise
    for old in path.parent.glob(stale):
        if old != path:
            old.unlink(missing_ok=True)

"""BattleScribe roster files (``.ros``: XML; ``.rosz``: the same XML zipped): refused in
one line (issue 16, "import or refuse with one clear line").

Decision: refused rather than read. A ``.ros`` roster names its units by BattleScribe
catalogue entry ids (``entryId``) that only the catalogue it was built with resolves, and
the shared material holds no ``.ros``/``.rosz`` file to test a reader on (PROVENANCE.md:
"none has a .rosz file"). The refusal says what to export instead.
"""

from __future__ import annotations

import zipfile
from pathlib import Path

from ._common import UnsupportedFormatError

__all__ = ["REFUSAL", "refuse_battlescribe"]

REFUSAL = ("BattleScribe roster file (.ros/.rosz): not supported; export the list from "
           "New Recruit or the app as JSON or text instead")


def refuse_battlescribe(path: Path) -> None:
    """Raise ``UnsupportedFormatError`` when ``path`` is a BattleScribe roster: by its
    suffix, a zip archive holding a ``.ros`` file, or XML with a ``<roster`` element."""
    suffix = path.suffix.lower()
    if suffix in (".ros", ".rosz"):
        raise UnsupportedFormatError(f"{path.name}: {REFUSAL}")
    if path.is_file() and zipfile.is_zipfile(path):
        with zipfile.ZipFile(path) as archive:
            if any(n.lower().endswith(".ros") for n in archive.namelist()):
                raise UnsupportedFormatError(f"{path.name}: {REFUSAL}")
        raise UnsupportedFormatError(f"{path.name}: a zip archive, not an army list")
    try:
        head = path.read_bytes()[:512].decode("utf-8", "ignore")
    except OSError:
        return
    if head.lstrip("\ufeff \r\n\t").startswith("<") and "<roster" in head:
        raise UnsupportedFormatError(f"{path.name}: {REFUSAL}")

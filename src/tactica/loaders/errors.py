"""The one error every loader raises: it names the source, the line and the text."""

from __future__ import annotations

__all__ = ["LoadError"]


class LoadError(ValueError):
    """A malformed input: ``source`` (file name), 1-based ``line`` and the offending
    ``text`` are kept as attributes and quoted in the message.

    >>> raise LoadError("003.txt", 12, "| Autopistol | 12\\"", "truncated weapon row")
    Traceback (most recent call last):
    ...
    LoadError: 003.txt:12: truncated weapon row: '| Autopistol | 12"'
    """

    def __init__(self, source: str, line: int | None, text: str, problem: str) -> None:
        self.source = source
        self.line = line
        self.text = text
        self.problem = problem
        where = f"{source}:{line}" if line is not None else source
        super().__init__(f"{where}: {problem}: {text!r}")

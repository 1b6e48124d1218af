"""What every door promises for any input, checked by the generators of bad inputs
(``tests/plan/test_bad_inputs.py``, ``tests/meta/test_bad_queries.py``,
``tests/assistant/test_stdio_garbage.py``): an answer, or a refusal of one line that
starts ``error:`` (exit code 2 on the command line), never a traceback.

``answered(result)`` checks one command-line run (typer's ``CliRunner``) and says which
it was, so that a generator can also check that its inputs reach both outcomes.
"""

from __future__ import annotations

import traceback
from typing import Any, Literal

#: The exit code of a refusal on the command line (click's usage-error code).
REFUSED = 2


def answered(result: Any) -> Literal["answer", "refusal"]:
    """``"answer"`` (exit code 0) or ``"refusal"`` (exit code 2, one line ``error: ...``
    on stderr); anything else (a traceback, another exit code, a refusal of several
    lines) fails the test with what was printed."""
    exc = result.exception
    if exc is not None and not isinstance(exc, SystemExit):
        raise AssertionError("a traceback: " + "".join(
            traceback.format_exception(type(exc), exc, exc.__traceback__))[-3000:])
    assert "Traceback (most recent call last)" not in result.output, result.output[-3000:]
    if result.exit_code == 0:
        return "answer"
    lines = [line for line in result.stderr.splitlines() if line.strip()]
    assert result.exit_code == REFUSED, (result.exit_code, result.output[-2000:])
    assert len(lines) == 1 and lines[0].startswith("error: "), lines[:5]
    return "refusal"

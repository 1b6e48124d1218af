"""A property test in two sizes: a sample in the default run, its full count in the slow
suite.

``test_x, test_x_at_volume = sampled(test_x, 20)`` turns a ``@given`` test (its
``@settings``, or the run's profile, give the full count) into the same test with 20
examples, which the default run (``python -m pytest``) checks, and its twin with the full
count marked ``slow`` (``python -m pytest -m slow``; CI runs both). The twin is the very
same test function, strategies and settings: only ``max_examples`` differs, so no
assertion is weakened, and the default run keeps a few dozen examples of every property
rather than dropping any. Why: generating examples is where much of a hypothesis test's
time goes, and the default run is a contributor's between-two-edits check
(CONTRIBUTING.md, "Keeping the default run fast").
"""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings


def sampled(test: Any, examples: int) -> tuple[Any, Any]:
    """The ``@given`` test ``test`` with ``examples`` examples, and its twin with the
    count its own settings give, marked ``slow``; pytest marks on ``test`` (a
    ``parametrize``) are kept on both."""
    handle = test.hypothesis
    full: settings = getattr(test, "_hypothesis_internal_use_settings", settings.default)
    examples = min(examples, full.max_examples)  # a long run asked for fewer: all of them
    marks = list(getattr(test, "pytestmark", []))

    def copy(count: int) -> Any:
        # hypothesis keeps what @given was given on the test (``_given_kwargs``)
        made = settings(full, max_examples=count)(
            given(**handle._given_kwargs)(handle.inner_test))
        made.pytestmark = list(marks)
        return made

    return copy(examples), pytest.mark.slow(copy(full.max_examples))

"""No test compares a computed float with ``==`` to a float written in the test.

A probability or a mean the engine computes is a sum, and the order of a sum's terms is
numpy's and BLAS's to choose: it changes with their versions and the machine (issue 40:
the charge chance 2D6 >= 7 came out one bit away from ``21 / 36`` with numpy 2.4). A test
that means an exact value checks it within 1e-12 (``math.isclose(x, want, rel_tol=0,
abs_tol=1e-12)``, ``pytest.approx(want, abs=1e-12)``) or with ``Fraction``s from an
oracle, and says why.

This test reads every test module (``ast``), and the doctest examples of ``src/tactica``
and the README (the run checks them too), and fails, naming each line, on a comparison
with ``==``, ``!=``, ``in`` or ``not in`` of which one side is a float written there: a
float literal (``0.5``), a division of number literals (``21 / 36``), or a list, tuple,
set or dict holding one (``{21 / 36}``, ``[0.0] * 3 + [1.0]``). Left alone: a side that
is ``round(...)`` (the rounding is the tolerance) or ``approx(...)``. A comparison that
is exact by design (a certain die: products and sums of 0.0 and 1.0 alone; sums of a
few halves and quarters; a parsed input, never computed) says so on one of its lines or
the line above, with a comment ``# exact: <why>``.

Comparisons of two computed floats (a door's numbers against the core's, a fast path
against its plain formulation, bit for bit) are not this test's: they are the same
additions in the same order by design, and their tests say so.
"""

from __future__ import annotations

import ast
import doctest
import re
from collections.abc import Iterator
from pathlib import Path

TESTS = Path(__file__).resolve().parent
ROOT = TESTS.parent
#: The opt-out: ``# exact:`` and a reason.
EXACT = re.compile(r"#\s*exact:\s*\S")
_COMPARES = (ast.Eq, ast.NotEq, ast.In, ast.NotIn)


def _number(node: ast.expr) -> bool:
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.USub, ast.UAdd)):
        return _number(node.operand)
    return (isinstance(node, ast.Constant) and type(node.value) in (int, float)
            and not isinstance(node.value, bool))


def _written_float(node: ast.expr | None) -> bool:
    """A float written in the test: a float literal, a division of number literals, or
    a container (or a sum or repetition of containers) holding one."""
    if node is None:
        return False
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.USub, ast.UAdd)):
        return _written_float(node.operand)
    if isinstance(node, ast.Constant):
        return type(node.value) is float
    if isinstance(node, ast.BinOp):
        if isinstance(node.op, ast.Div) and _number(node.left) and _number(node.right):
            return True
        if isinstance(node.op, (ast.Add, ast.Mult)):
            return _written_float(node.left) or _written_float(node.right)
        return False
    if isinstance(node, (ast.List, ast.Tuple, ast.Set)):
        return any(_written_float(e) for e in node.elts)
    if isinstance(node, ast.Dict):
        return any(_written_float(v) for v in (*node.keys, *node.values))
    return False


def _tolerant(node: ast.expr) -> bool:
    """``round(...)`` or ``approx(...)`` (``pytest.approx``): a tolerance is stated."""
    if not isinstance(node, ast.Call):
        return False
    f = node.func
    name = f.id if isinstance(f, ast.Name) else f.attr if isinstance(f, ast.Attribute) else ""
    return name in ("round", "approx")


def exact_float_comparisons(source: str) -> Iterator[int]:
    """The lines of ``source`` that compare with a float written in it, without
    ``# exact: <why>`` on the comparison's lines or the line above."""
    lines = source.splitlines()
    for node in ast.walk(ast.parse(source)):
        if not isinstance(node, ast.Compare):
            continue
        sides = [node.left, *node.comparators]
        for k, op in enumerate(node.ops):
            pair = sides[k], sides[k + 1]
            if not isinstance(op, _COMPARES) or any(_tolerant(s) for s in pair):
                continue
            if any(_written_float(s) for s in pair):
                end = node.end_lineno or node.lineno
                around = lines[max(node.lineno - 2, 0):end]
                if not any(EXACT.search(line) for line in around):
                    yield node.lineno
                break


def doctest_comparisons(text: str) -> Iterator[int]:
    """``exact_float_comparisons`` over the doctest examples in ``text`` (a module or
    the README): the lines of ``text``."""
    for example in doctest.DocTestParser().get_examples(text):
        try:
            hits = set(exact_float_comparisons(example.source))
        except SyntaxError:  # not Python on its own (a doctest may continue another)
            continue
        yield from (example.lineno + n for n in hits)


def test_no_test_compares_a_computed_float_exactly() -> None:
    found = []
    for path in sorted(TESTS.rglob("*.py")):
        source = path.read_text(encoding="utf-8")
        lines = source.splitlines()
        found += [f"{path.relative_to(ROOT)}:{n}: {lines[n - 1].strip()}"
                  for n in sorted(set(exact_float_comparisons(source)))]
    for path in [ROOT / "README.md", *sorted((ROOT / "src" / "tactica").rglob("*.py"))]:
        text = path.read_text(encoding="utf-8")
        lines = text.splitlines()
        found += [f"{path.relative_to(ROOT)}:{n}: {lines[n - 1].strip()}"
                  for n in sorted(set(doctest_comparisons(text)))]
    assert not found, (
        "a float written in a test compared with ==: check it within 1e-12 (math.isclose "
        "or pytest.approx with abs=1e-12) or with Fractions, or say why it is exact with "
        "'# exact: <why>':\n" + "\n".join(found))


def test_the_scan_finds_each_pattern_and_keeps_the_stated_ones() -> None:
    flagged = {
        "assert p == 0.5": 1,
        "assert p == 21 / 36": 1,
        "assert {c for c in cells} == {21 / 36}": 1,
        "assert pmf.tolist() == [0.0] * 3 + [1.0]": 1,
        "assert doc == {'p': -0.25}": 1,
        "ok = f != 1.0": 1,
        "assert p in (0.5, 1)": 1,
        "assert 0 < p == 0.5": 1,
        "assert (p ==\n        0.5)": 1,
    }
    for source, line in flagged.items():
        assert list(exact_float_comparisons(source)) == [line], source
    kept = [
        "assert p == pytest.approx(21 / 36, abs=1e-12)",
        "assert round(p, 4) == 0.5877",
        "assert abs(p - 21 / 36) <= 1e-12",
        "assert n == 3 and name == 'x'",
        "assert p == want",
        "assert p == 0.5  # exact: a half, one product",
        "# exact: dyadic halves, summed in any order\nassert pmf == [0.5, 0.5]",
        "assert (p ==\n        0.5)  # exact: a parsed input",
    ]
    for source in kept:
        assert list(exact_float_comparisons(source)) == [], source
    # a bare '# exact:' gives no reason: still flagged
    assert list(exact_float_comparisons("assert p == 0.5  # exact:")) == [1]
    # a doctest's example, on its line of the text
    text = '''"""Doc.

>>> r = 1
>>> r == 21 / 36
False
"""
'''
    assert list(doctest_comparisons(text)) == [4]

"""A lean core and each door an extra (issue 40): ``pip install tactica`` brings what the
calculator, the lists and the Python API need; the web, the meta table, the assistant
server and the plan's pictures and frames are extras, and a door whose extra is missing
refuses in one line naming the command to run.

The doors' stacks are hidden from a fresh interpreter by ``sys.modules[name] = None`` (the
import system's own way to say "not installed": ``import name`` raises
``ModuleNotFoundError`` and ``importlib.util.find_spec`` finds nothing)."""

from __future__ import annotations

import json
import re
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PYPROJECT_TEXT = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
PROJECT = tomllib.loads(PYPROJECT_TEXT)["project"]

#: Each door's stack: the import names of the packages its extra brings.
STACKS = {
    "web": ("fastapi", "uvicorn", "jinja2", "starlette"),
    "meta": ("distributed", "dask", "pyarrow", "duckdb", "pandas", "matplotlib"),
    "mcp": ("mcp",),
    "plan": ("pandas", "matplotlib"),
}
#: The distributions behind them, as pyproject names them.
DISTRIBUTIONS = {"fastapi", "uvicorn", "jinja2", "dask", "pyarrow", "duckdb", "pandas",
                 "matplotlib", "mcp"}
EVERY_STACK = sorted({m for stack in STACKS.values() for m in stack})


def _name(requirement: str) -> str:
    return re.split(r"[\[<>=!~; ]", requirement, maxsplit=1)[0].lower()


def test_the_mandatory_requirements_hold_no_door_stack() -> None:
    names = {_name(r) for r in PROJECT["dependencies"]}
    assert not names & DISTRIBUTIONS, names & DISTRIBUTIONS
    assert {"numpy", "pydantic", "typer", "rich", "wh40kdc"} <= names


def test_each_mandatory_requirement_says_what_needs_it() -> None:
    block = PYPROJECT_TEXT.split("dependencies = [", 1)[1].split("]\n", 1)[0]
    lines = [line.strip() for line in block.splitlines() if line.strip().startswith('"')]
    assert len(lines) == len(PROJECT["dependencies"])
    for line in lines:
        # the comment is on the line, or on the line before it (a long one)
        above = block.split(line, 1)[0].rstrip().rsplit("\n", 1)[-1].strip()
        assert "#" in line or above.startswith("#"), f"no comment says what needs {line}"


def test_each_door_is_an_extra_and_dev_installs_them_all() -> None:
    extras = PROJECT["optional-dependencies"]
    for extra, stack in (("web", {"fastapi", "uvicorn", "jinja2"}),
                         ("meta", {"dask", "pyarrow", "duckdb", "pandas", "matplotlib"}),
                         ("mcp", {"mcp"}), ("plan", {"pandas", "matplotlib"})):
        assert {_name(r) for r in extras[extra]} == stack, extra
    assert extras["all"] == ["tactica[web,meta,mcp,plan]"]
    assert "tactica[all]" in extras["dev"]


def _run(code: str, hide: tuple[str, ...] = ()) -> subprocess.CompletedProcess[str]:
    prelude = f"import sys\nfor _m in {hide!r}:\n    sys.modules[_m] = None\n"
    return subprocess.run([sys.executable, "-c", prelude + code], capture_output=True,
                          text=True, check=False, timeout=300, cwd=ROOT)


def test_the_core_and_a_library_matchup_import_no_door_stack() -> None:
    done = _run(f"""
import json, sys
import tactica
r = tactica.calculate({{"attacker": {{"unit": "Intercessor Squad"}},
                       "target": {{"unit": "Termagants", "models": 10}}}})
assert r.damage.mean > 0
from tactica.launch import main
sys.argv = ["tactica", "calc", "--attacker", "Intercessor Squad", "--target", "meq"]
try:
    main()
except SystemExit as stop:
    assert not stop.code, stop.code
print(json.dumps(sorted(m for m in {EVERY_STACK!r} if m in sys.modules)))
""")
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout.strip().splitlines()[-1]) == []


def test_the_calculator_works_with_every_door_stack_hidden() -> None:
    done = _run("""
import sys
from tactica.launch import main
sys.argv = ["tactica", "calc", "--attacker", "Intercessor Squad", "--target", "meq"]
main()
""", hide=tuple(EVERY_STACK))
    assert done.returncode == 0, done.stderr
    assert "models destroyed" in done.stdout


@pytest.mark.parametrize(("argv", "extra", "what"), [
    (["serve"], "web", "tactica serve"),
    (["mcp"], "mcp", "tactica mcp"),
    (["meta", "query", "SELECT 1", "-o", "nowhere"], "meta", "tactica meta"),
    (["matchup", "Intercessor Squad:5", "Boyz:10", "--plot", "{tmp}/m.png"], "plan",
     "tactica matchup --plot"),
    (["plan", "Intercessor Squad:5", "Boyz:10", "--plot", "{tmp}/p.png"], "plan",
     "tactica plan --plot"),
])
def test_a_door_without_its_extra_refuses_in_one_line(
        argv: list[str], extra: str, what: str, tmp_path: Path) -> None:
    argv = [a.replace("{tmp}", str(tmp_path)) for a in argv]
    done = _run(f"""
import sys
from tactica.launch import main
sys.argv = ["tactica", *{argv!r}]
main()
""", hide=STACKS[extra])
    assert done.returncode == 2, (done.stdout, done.stderr)
    assert done.stderr.strip().splitlines() == [
        f'error: {what} needs the {extra} extra: pip install "tactica[{extra}]"'], done.stderr
    assert not list(tmp_path.iterdir())  # nothing written


def test_to_frame_without_pandas_names_its_extra() -> None:
    done = _run("""
import tactica
from tactica.errors import MissingExtraError
r = tactica.calculate({"attacker": {"unit": "Intercessor Squad"},
                       "target": {"unit": "Termagants", "models": 10}})
try:
    r.to_frame()
except MissingExtraError as exc:
    print(exc)
""", hide=STACKS["plan"])
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == 'to_frame needs the plan extra: pip install "tactica[plan]"'

"""The import contract of ``docs/architecture.md``, read from the code (``ast``, every
``import`` in every module, the lazy ones inside functions and the ``TYPE_CHECKING`` ones
included): no import circle between modules, and every arrow between parts points down
the layers written below. A new module belongs to the part its path names; a new part
must be added here (and to the document) before its first import is accepted.
"""

from __future__ import annotations

import ast
import functools
import re
from collections import defaultdict
from collections.abc import Iterator
from pathlib import Path

import pytest

from tactica.loaders.bulk import collector_paused

SRC = Path(__file__).resolve().parents[1] / "src"
DOC = Path(__file__).resolve().parents[1] / "docs" / "architecture.md"

#: The parts, lowest first. A part may import its own modules and any part of a lower
#: layer; parts of one layer may not import each other unless listed in ``SIDEWAYS``.
LAYERS: tuple[tuple[str, ...], ...] = (
    ("cache_registry",),
    ("dice", "errors", "names", "version", "inputs", "textfile", "source_choice"),
    ("cache", "model"),
    ("rules", "loaders", "code_cache"),
    ("combat.contract",),
    ("facts", "reference_facts", "datasheet_diff"),
    ("effects",),
    ("units",),
    ("index",),
    ("seed_pages",),
    ("library", "sources"),
    ("combat.exact",),
    ("combat.sampled",),
    ("combat.turn",),
    ("combat",),
    ("calculator", "army", "lookup", "summary"),
    ("tactica",),
    ("plan", "meta"),
    ("service",),
    ("cli", "web", "assistant"),
    ("launch",),
    ("__main__",),
)

#: Arrows allowed inside one layer: (from, to).
SIDEWAYS: frozenset[tuple[str, str]] = frozenset({
    ("errors", "inputs"),     # a refusal's text is made printable by the input rules
    ("library", "sources"),   # load_library() merges the configured sources
    ("army", "calculator"),   # a list's unit is prepared like any scenario's
    ("meta", "plan"),
    ("reference_facts", "facts"),  # both read a packaged YAML file the same way
})

#: The shells (doors) never import each other, except a launcher: the command that
#: starts another door imports that door's entry point and nothing more.
SHELLS = frozenset({"cli", "web", "assistant"})
LAUNCHERS: dict[str, frozenset[str]] = {
    "tactica.cli.serve": frozenset({"tactica.web", "tactica.web.serve"}),
    # the early answer to an assistant's initialize, before the server is imported
    "tactica.cli.mcp": frozenset({"tactica.assistant", "tactica.assistant.server",
                                  "tactica.assistant.early"}),
}


def _modules() -> dict[str, Path]:
    out = {}
    for path in (SRC / "tactica").rglob("*.py"):
        parts = list(path.relative_to(SRC).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        out[".".join(parts)] = path
    return out


@functools.cache
def _tree(path: Path) -> ast.Module:
    """The module at ``path`` parsed, once per run (every test here reads every module);
    the trees are kept, so the garbage collector's walks would find nothing to free."""
    with collector_paused():
        return ast.parse(path.read_text(encoding="utf-8"))


#: The fields of a node that hold statements (imports and function definitions are
#: statements: the expressions between them need no visit).
_BODIES = ("body", "orelse", "finalbody", "handlers", "cases")


def _statements(tree: ast.Module) -> Iterator[ast.AST]:
    """Every statement of ``tree``, those nested in functions, classes and blocks
    included (``ast.walk`` without the expressions, a tenth of the nodes)."""
    stack: list[ast.AST] = [tree]
    while stack:
        node = stack.pop()
        yield node
        for field in _BODIES:
            children = getattr(node, field, None)
            if isinstance(children, list):
                stack.extend(children)


def _imports(name: str, path: Path, modules: dict[str, Path]) -> set[str]:
    """The tactica modules ``name`` imports (a name imported from a package is the module
    of that name where there is one, else the package)."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: set[str] = set()
    for node in _statements(_tree(path)):
        if isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - node.level + 1]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            if not target.startswith("tactica"):
                continue
            subs = {f"{target}.{a.name}" for a in node.names} & modules.keys()
            found |= subs
            if len(subs) < len(node.names):
                found.add(_owner(target, modules))
        elif isinstance(node, ast.Import):
            found |= {_owner(a.name, modules) for a in node.names
                      if a.name.startswith("tactica")}
    found.discard(name)
    return found


def _owner(target: str, modules: dict[str, Path]) -> str:
    while target not in modules:
        target = target.rpartition(".")[0]
    return target


def part_of(module: str) -> str:
    """The part a module belongs to: the longest part name its path starts with."""
    rest = module.removeprefix("tactica").lstrip(".")
    names = sorted((p for layer in LAYERS for p in layer), key=len, reverse=True)
    for part in names:
        if rest == part or rest.startswith(part + "."):
            return part
    head = rest.split(".")[0] or "tactica"
    return head


def _rank() -> dict[str, int]:
    return {p: i for i, layer in enumerate(LAYERS) for p in layer}


def import_graph() -> dict[str, set[str]]:
    """Each tactica module and the tactica modules it imports (a fresh copy of
    ``_import_graph``)."""
    return {name: set(targets) for name, targets in _import_graph().items()}


@functools.cache
def _import_graph() -> dict[str, frozenset[str]]:
    """Read once per run: walking every module's tree is most of this file's time."""
    modules = _modules()
    return {name: frozenset(_imports(name, path, modules)) for name, path in modules.items()}


def part_graph() -> dict[str, set[str]]:
    arrows: dict[str, set[str]] = defaultdict(set)
    for a, targets in import_graph().items():
        for b in targets:
            pa, pb = part_of(a), part_of(b)
            if pa != pb:
                arrows[pa].add(pb)
    return arrows


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    out: list[list[str]] = []
    counter = 0

    def visit(v: str) -> None:  # Tarjan's strongly connected components
        nonlocal counter
        index[v] = low[v] = counter
        counter += 1
        stack.append(v)
        on.add(v)
        for w in graph.get(v, ()):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return out


def test_every_module_belongs_to_a_declared_part() -> None:
    rank = _rank()
    unknown = sorted({part_of(m) for m in _modules()} - rank.keys())
    assert not unknown, f"parts not in LAYERS (add them, and to docs/architecture.md): {unknown}"


def test_no_import_circles() -> None:
    assert _cycles(import_graph()) == []


def test_a_circle_is_found() -> None:
    """The circle finder itself, on a graph with one circle of three and a tail."""
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    assert _cycles(graph) == [["a", "b", "c"]]


def test_arrows_point_down_the_layers() -> None:
    rank = _rank()
    wrong = []
    for module, targets in import_graph().items():
        for target in targets:
            a, b = part_of(module), part_of(target)
            if a == b or (module in LAUNCHERS and target in LAUNCHERS[module]):
                continue
            if a in SHELLS and b in SHELLS:
                wrong.append(f"{module} -> {target} (a door imports another door)")
            elif rank[b] > rank[a] or (rank[b] == rank[a] and (a, b) not in SIDEWAYS):
                wrong.append(f"{module} -> {target} ({a} may not import {b})")
    assert wrong == []


def test_doors_import_only_the_service() -> None:
    """One core under every door (issue 46): a door imports its own modules, the service
    (``tactica.service``) and a launcher's entry point, never another part of the core."""
    wrong = []
    for module, targets in import_graph().items():
        door = part_of(module)
        if door not in SHELLS:
            continue
        for target in targets:
            allowed = (part_of(target) == door or target == "tactica.service"
                       or target in LAUNCHERS.get(module, ()))
            if not allowed:
                wrong.append(f"{module} -> {target}")
    # nor by name: a module named in a string (``importlib.import_module("tactica.x")``)
    for module, path in _modules().items():
        door = part_of(module)
        if door not in SHELLS:
            continue
        for node in ast.walk(_tree(path)):
            if isinstance(node, ast.Call) and node.args and isinstance(
                    node.args[0], ast.Constant) and isinstance(node.args[0].value, str):
                named = node.args[0].value
                if named.startswith("tactica.") and not named.startswith(
                        (f"tactica.{door}", "tactica.service")):
                    wrong.append(f"{module} -> {named} (by name)")
    assert wrong == []


def test_the_service_offers_what_it_imports() -> None:
    """Every name the service offers is imported on first use from the module its
    typing block names (the two lists cannot drift apart), and each resolves."""
    import tactica.service as service

    tree = _tree(SRC / "tactica" / "service.py")
    typed: dict[str, str] = {}
    for node in _statements(tree):
        if isinstance(node, ast.If):  # if TYPE_CHECKING:
            for inner in node.body:
                if isinstance(inner, ast.ImportFrom):
                    for alias in inner.names:
                        typed[alias.asname or alias.name] = "." + (inner.module or "")
    typed.pop("UnitLibrary", None)  # a type of ``calculate``'s signature only
    lazy = {name: module for module, names in service._LAZY.items() for name in names}
    assert lazy == typed
    missing = [name for name in service.__all__ if getattr(service, name, None) is None]
    assert missing == []


def reduced(arrows: dict[str, set[str]]) -> dict[str, set[str]]:
    """The arrows no longer path implies (the transitive reduction of an acyclic graph):
    what the picture draws, so that it stays readable."""

    def reach(a: str, seen: set[str]) -> set[str]:
        for b in arrows.get(a, ()):
            if b not in seen:
                seen.add(b)
                reach(b, seen)
        return seen

    out: dict[str, set[str]] = {}
    for a, targets in arrows.items():
        implied = set().union(*(reach(b, set()) for b in targets)) if targets else set()
        out[a] = targets - implied
    return out


def mermaid() -> str:
    """The parts and their arrows as the document draws them (a Mermaid flowchart; an
    arrow that a longer path implies is left out)."""
    arrows = reduced(part_graph())
    lines = ["flowchart BT"]
    for a in sorted(arrows):
        for b in sorted(arrows[a]):
            lines.append(f"    {_node(a)} --> {_node(b)}")
    return "\n".join(lines)


def _node(part: str) -> str:
    return re.sub(r"\W", "_", part) + f'["{part}"]'


def test_the_document_draws_the_code() -> None:
    """``docs/architecture.md``'s picture is the part graph read from the code; after a
    change of arrows, paste the output of ``python tests/test_architecture.py``."""
    text = DOC.read_text(encoding="utf-8")
    found = re.search(r"```mermaid\n(.*?)\n```", text, re.S)
    assert found is not None, "docs/architecture.md has no mermaid picture"
    assert found.group(1) == mermaid()


@pytest.mark.parametrize("part", ["combat.contract", "combat.exact", "combat.sampled",
                                  "combat.turn"])
def test_each_engine_part_says_what_it_owns(part: str) -> None:
    init = SRC / "tactica" / Path(*part.split(".")) / "__init__.py"
    doc = ast.get_docstring(ast.parse(init.read_text(encoding="utf-8"))) or ""
    assert "May import" in doc


if __name__ == "__main__":
    print(mermaid())


#: Modules allowed past 600 lines and functions past 80, each with its reason.
LONG_MODULES: dict[str, str] = {}
LONG_FUNCTIONS: dict[str, str] = {}


def test_modules_and_functions_stay_short() -> None:
    """One concept per module (~600 lines at most), functions of ~80 lines at most."""
    long: list[str] = []
    for name, path in sorted(_modules().items()):
        text = path.read_text(encoding="utf-8")
        if text.count("\n") > 600 and name not in LONG_MODULES:
            long.append(f"{name}: {text.count(chr(10))} lines")
        for node in _statements(_tree(path)):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                size = (node.end_lineno or node.lineno) - node.lineno + 1
                if size > 80 and f"{name}.{node.name}" not in LONG_FUNCTIONS:
                    long.append(f"{name}.{node.name}: {size} lines")
    assert long == []

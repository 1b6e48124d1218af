"""The long run of the property suite (issue 26), counted: N freshly generated inputs of
one kind, each answered or refused, classified rather than stopping at the first failure.

The strategies are the suite's own (``tests/fuzz/test_properties.py`` and the mutated
catalogue of ``tests/test_fuzz.py``), plus a list file of each format: a real roster
(``tests/fixtures/rosters``) written in that format by tactica's exporters (the
Rosterizer file as found), then mutated line by line and, for JSON, value by value.

Each input is run in-process with a CPU-time alarm (``--limit`` s of this process's CPU: on
the shared machine a niced run's wall time is many times its CPU time) and counted as:

* ``answered``: a result whose distributions sum to 1 and serialise (a list read and
  checked; a catalogue loaded);
* ``refused``: the project's own error (``ValueError`` / ``LookupError`` subclasses, not
  the bare built-ins) in one printable line;
* ``traceback``: any other exception; ``unsound``: a result that does not serialise or
  whose pmfs do not sum to 1; ``multi-line``: a refusal of several lines (or, on the
  command line, an exit status 2 whose output is not one ``error:`` line); ``hang``: past
  the limit.

Run one kind at a time (the whole run is CPU-heavy; nice it)::

    nice -n 10 python benchmarks/fuzz_run.py scenario --n 3000 --out fuzz.jsonl

Kinds: scenario, document-text, sequence, unit-reference, list-<format> (``--list`` names
them), catalogue, cli, http. Hypothesis draws the inputs with a fresh random seed (printed;
``--seed`` repeats a run); nothing is shrunk. Failing inputs are written beside the counts
as they are found; ``--table FILE`` prints the counts as the table of
``benchmarks/README.md``.
"""

from __future__ import annotations

import argparse
import copy
import json
import math
import random
import signal
import sys
import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, Phase, given, seed, settings
from hypothesis import strategies as st

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))

import tactica  # noqa: E402
from fuzz import test_properties as props  # noqa: E402
from tactica.errors import one_line  # noqa: E402

ROSTER = ROOT / "tests" / "fixtures" / "rosters" / "chaos-knights-houndpack"
BAD_LINES = ["", "• 1x [/x]", "• 10000000000000000000000x Gun", "Primus (85 points)",
             "• Enhancement: ", "+++", "•", "• Attached as: Bodyguard", "\ud800",
             "Attached Unit 9", "War Dog Stalker (-5 points)", "Char1: x", "\x00",
             "+ FACTION KEYWORD: Xenos - Orks", "Strike Force (99999999999 points)"]
BAD_VALUES = [False, None, "x", -5, [], {}, 10**30, "\ud800", [1], {"id": 1}, "a" * 300]


class _Late(BaseException):
    pass


#: set when the alarm fires: an exception raised in a garbage collector's callback is
#: swallowed ("Exception ignored in ..."), so the input is counted late by the flag
_FIRED = [False]


def _alarm(*_: object) -> None:
    _FIRED[0] = True
    raise _Late


def _sound(result: Any) -> bool:
    doc = json.loads(result.model_dump_json())
    ok = True

    def walk(node: Any) -> None:
        nonlocal ok
        if isinstance(node, dict):
            pmf = node.get("pmf")
            if isinstance(pmf, list) and pmf and (
                    any(math.isnan(p) for p in pmf)
                    or not math.isclose(sum(pmf), 1.0, abs_tol=1e-9)):
                ok = False
            for value in node.values():
                walk(value)
        elif isinstance(node, list):
            for value in node:
                walk(value)
    walk(doc)
    return ok


def _refusal(exc: BaseException) -> str:
    if type(exc) in (ValueError, LookupError, KeyError, IndexError, UnicodeError):
        return "traceback"
    line = one_line(exc)
    try:
        line.encode("utf-8")
    except UnicodeError:
        return "unsound"
    return "refused" if line and "\n" not in line else "multi-line"


# --- the kinds ------------------------------------------------------------------------------

def _calculate(library: Callable[[], Any]) -> Callable[[Any], str]:
    def run(doc: Any) -> str:
        try:
            result = tactica.calculate(doc, library())
        except (ValueError, LookupError) as exc:
            return _refusal(exc)
        return "answered" if _sound(result) else "unsound"
    return run


def _unit_reference() -> st.SearchStrategy[Any]:
    target = st.one_of(props.UNIT_REF, st.just({"models": [
        {"count": 10, "T": 4, "Sv": 3, "W": 2}]}), st.sampled_from(["meq", "geq", "x"]))
    return st.fixed_dictionaries({"phase": st.sampled_from(["shooting", "fight"]),
                                  "attacker": props.UNIT_REF, "target": target},
                                 optional={"rules": st.sampled_from(["10th", "11th"])})


def _list_texts() -> dict[str, str]:
    from tactica.army.formats import EXPORT_FORMATS, export_roster, load_roster

    roster = load_roster(ROSTER / "input.newrecruit-json.json")
    texts = {fmt: export_roster(roster, fmt) for fmt in EXPORT_FORMATS}
    texts["rosterizer"] = (ROSTER / "input.rosterizer.json").read_text(encoding="utf-8")
    return texts


def _json_paths(node: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    out = [path] if path else []
    if isinstance(node, dict):
        for key, value in node.items():
            out += _json_paths(value, (*path, key))
    elif isinstance(node, list):
        for i, value in enumerate(node):
            out += _json_paths(value, (*path, i))
    return out


def _mutated_list(text: str) -> st.SearchStrategy[str]:
    lines = text.splitlines()
    edit = st.tuples(st.sampled_from(["delete", "duplicate", "replace", "indent", "cut"]),
                     st.integers(0, max(0, len(lines) - 1)),
                     st.sampled_from(BAD_LINES) | props.ODD_TEXT)

    def by_lines(edits: list[tuple[str, int, str]]) -> str:
        out = list(lines)
        for kind, i, new in edits:
            i %= max(1, len(out))
            if not out:
                break
            if kind == "delete":
                out = out[:i] + out[i + 1:]
            elif kind == "duplicate":
                out = out[:i + 1] + out[i:]
            elif kind == "indent":
                out = [*out[:i], "    " + out[i], *out[i + 1:]]
            elif kind == "cut":
                out = [*out[:i], out[i][:len(out[i]) // 2]]
            else:
                out = [*out[:i], new, *out[i + 1:]]
        return "\n".join(out)

    texts = st.lists(edit, min_size=1, max_size=4).map(by_lines)
    try:
        doc = json.loads(text)
    except ValueError:
        return texts
    paths = _json_paths(doc)

    def by_values(changes: list[tuple[tuple[Any, ...], Any]]) -> str:
        return json.dumps(_changed(doc, changes), ensure_ascii=False)

    values = st.lists(st.tuples(st.sampled_from(paths), st.sampled_from(BAD_VALUES)),
                      min_size=1, max_size=3).map(by_values)
    return st.one_of(texts, values, values)


def _changed(doc: Any, changes: list[tuple[tuple[Any, ...], Any]]) -> Any:
    """A copy of the JSON ``doc`` with each (path, value) set where the path exists."""
    out = copy.deepcopy(doc)
    for path, value in changes:
        node = out
        try:
            for key in path[:-1]:
                node = node[key]
            node[path[-1]] = value
        except (KeyError, IndexError, TypeError):
            continue
    return out


def _read_list(library: Any) -> Callable[[str], str]:
    from tactica.army import parse_roster, validate

    def run(text: str) -> str:
        try:
            roster = parse_roster(text, file="army.txt", library=library)
            checked = validate(roster, library)
            roster.model_dump_json()
            json.dumps([v.model_dump(mode="json") for v in checked.violations])
        except (ValueError, LookupError) as exc:
            return _refusal(exc)
        return "answered"
    return run


def _catalogue() -> tuple[st.SearchStrategy[Any], Callable[[Any], str]]:
    import test_fuzz as tf
    from tactica.loaders.errors import LoadError

    changes = st.lists(st.tuples(st.sampled_from(tf.CATALOGUE_PATHS),
                                 st.sampled_from(BAD_VALUES)), min_size=1, max_size=3)

    def run(change: list[tuple[tuple[Any, ...], Any]]) -> str:
        import shutil
        import tempfile

        from tactica.loaders.bsdata import load_bsdata

        doc = _changed(tf.CATALOGUE, change)
        with tempfile.TemporaryDirectory() as folder:
            for other in tf.CATALOGUES.glob("*.json"):
                if other.name != "Xenos - Testers.json":
                    shutil.copy(other, Path(folder) / other.name)
            target = Path(folder) / "Xenos - Testers.json"
            target.write_text(json.dumps(doc, ensure_ascii=False), encoding="utf-8",
                              errors="surrogatepass")
            try:
                source = load_bsdata([target])
                for sheet in source.datasheets():
                    sheet.model_dump_json()
            except LoadError as exc:
                return _refusal(exc) if exc.source else "multi-line"
            except (ValueError, LookupError) as exc:
                return _refusal(exc)
        return "answered"
    return changes, run


def _cli(args: list[str]) -> str:
    from typer.testing import CliRunner

    from tactica.cli import commands

    run = CliRunner().invoke(commands.app, args, env={"COLUMNS": "40"})
    if run.exception is not None and not isinstance(run.exception, SystemExit):
        return "traceback"
    if "Traceback" in run.output:
        return "traceback"
    if run.exit_code == 2:
        lines = [ln for ln in run.output.splitlines() if ln.strip()]
        return "refused" if len(lines) == 1 and lines[0].startswith("error: ") \
            else "multi-line"
    return "answered" if run.exit_code == 0 else f"exit {run.exit_code}"


def _http() -> tuple[st.SearchStrategy[Any], Callable[[Any], str]]:
    import anyio
    import httpx

    from tactica.library import load_seed_library
    from tactica.web import create_app

    app = create_app(library=load_seed_library, calc_timeout=60)
    transport = httpx.ASGITransport(app=app)

    def run(case: tuple[str, str]) -> str:
        body, path = case

        async def send() -> httpx.Response:
            async with httpx.AsyncClient(transport=transport,
                                         base_url="http://tactica.test") as c:
                return await c.post(path, content=body.encode("utf-8", "surrogatepass"),
                                    headers={"content-type": "application/json"})

        response = anyio.run(send)
        if response.status_code >= 500 and response.status_code != 503:
            return "traceback"
        try:
            answer = response.json()
        except ValueError:
            return "unsound"
        if response.status_code == 200:
            return "answered" if all(
                math.isclose(sum(d["pmf"]), 1.0, abs_tol=1e-9)
                for d in (answer.get("damage"), answer.get("models_destroyed")) if d) \
                else "unsound"
        detail = str(answer.get("detail", ""))
        return "refused" if detail and "\n" not in detail else "multi-line"
    return st.tuples(props.BODIES, st.sampled_from(["/api/calc", "/api/turn"])), run


def kinds() -> dict[str, Callable[[], tuple[st.SearchStrategy[Any], Callable[[Any], str]]]]:
    from tactica.library import load_library, load_seed_library

    out: dict[str, Callable[[], tuple[st.SearchStrategy[Any], Callable[[Any], str]]]] = {
        "scenario": lambda: (props.SCENARIO, _calculate(load_seed_library)),
        "document-text": lambda: (props.DOCUMENT_TEXT, _calculate(load_seed_library)),
        "sequence": lambda: (props.SEQUENCE, _calculate(load_seed_library)),
        "unit-reference": lambda: (_unit_reference(), _calculate(load_library)),
        "catalogue": _catalogue,
        "cli": lambda: (props.ARGS, _cli),
        "http": _http,
    }
    for fmt in ("gw-text", "newrecruit-json", "newrecruit-text", "wtc", "listforge-text",
                "tactica-json", "rosterizer"):
        out[f"list-{fmt}"] = (lambda f=fmt: (_mutated_list(_list_texts()[f]),
                                             _read_list(load_library())))
    return out


def table(path: Path) -> str:
    """The markdown table of the counts a run appended to ``path``."""
    rows = ["| input kind | inputs | answered | refused in one line | tracebacks | hangs | "
            "unsound | multi-line | slowest (CPU s) | seed |", "|---|" + "---:|" * 8 + "---|"]
    for line in path.read_text(encoding="utf-8").splitlines():
        r = json.loads(line)
        c = r["counts"]
        crashed = sum(v for k, v in c.items() if k.startswith("traceback"))
        rows.append(f"| {r['kind']} | {r['inputs']:,} | {c.get('answered', 0):,} | "
                    f"{c.get('refused', 0):,} | {crashed} | {c.get('hang', 0)} | "
                    f"{c.get('unsound', 0)} | {c.get('multi-line', 0)} | "
                    f"{r['slowest_cpu_s'][0] if r['slowest_cpu_s'] else 0:.2f} | "
                    f"{r['seed']} |")
    return "\n".join(rows)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("kind", nargs="?")
    parser.add_argument("--n", type=int, default=3000)
    parser.add_argument("--limit", type=float, default=30.0, help="CPU seconds an input "
                        "may take before it counts as a hang")
    parser.add_argument("--seed", type=int, default=None)
    parser.add_argument("--out", type=Path, default=None, help="append the counts (JSONL)")
    parser.add_argument("--list", action="store_true", help="name the kinds")
    parser.add_argument("--table", type=Path, default=None,
                        help="print the markdown table of a run's counts (its --out file)")
    args = parser.parse_args(argv)
    if args.table is not None:
        print(table(args.table))
        return 0
    known = kinds()
    if args.list or args.kind is None:
        print("\n".join(known))
        return 0
    strategy, check = known[args.kind]()
    chosen = args.seed if args.seed is not None else random.SystemRandom().randrange(2**32)
    counts: Counter[str] = Counter()
    cpu: list[float] = []
    failures: list[dict[str, Any]] = []
    signal.signal(signal.SIGPROF, _alarm)
    progress = None if args.out is None else args.out.with_suffix(f".{args.kind}.progress")

    @seed(chosen)
    @settings(max_examples=args.n, deadline=None, database=None, phases=[Phase.generate],
              suppress_health_check=list(HealthCheck))
    @given(strategy)
    def one(value: Any) -> None:
        _FIRED[0] = False
        signal.setitimer(signal.ITIMER_PROF, args.limit)
        t0 = time.process_time()
        try:
            outcome = check(value)
        except _Late:
            outcome = "hang"
        except Exception as exc:  # counted, with the input, not raised
            outcome = f"traceback ({type(exc).__name__}: {str(exc)[:100]})"
        finally:
            signal.setitimer(signal.ITIMER_PROF, 0)
        cpu.append(time.process_time() - t0)
        if _FIRED[0] and outcome != "hang":
            outcome = "hang"
        counts[outcome] += 1
        if progress is not None and len(cpu) % 100 == 0:
            progress.write_text(f"{args.kind}: {len(cpu)} inputs, {dict(counts)}\n")
        if outcome not in ("answered", "refused"):
            failure = {"kind": args.kind, "outcome": outcome, "input": ascii(value)[:2000],
                       "cpu_s": round(cpu[-1], 2)}
            failures.append(failure)
            if args.out is not None:  # at once: a long run may be stopped
                with args.out.with_suffix(".failures.jsonl").open("a", encoding="utf-8") as f:
                    f.write(json.dumps(failure) + "\n")

    start = time.time()
    one()
    cpu.sort(reverse=True)
    record = {"kind": args.kind, "seed": chosen, "inputs": sum(counts.values()),
              "counts": dict(counts.most_common()), "wall_s": round(time.time() - start, 1),
              "cpu_s": round(sum(cpu), 1), "slowest_cpu_s": [round(t, 2) for t in cpu[:3]]}
    print(json.dumps(record))
    if args.out is not None:
        with args.out.open("a", encoding="utf-8") as f:
            f.write(json.dumps(record) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

"""A script of ``benchmarks/`` loaded as a module (the benchmarks are not a package):
the former forms the tests compare the engine with, and the benchmark cases."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

BENCHMARKS = Path(__file__).resolve().parents[2] / "benchmarks"


def load_benchmark(stem: str) -> ModuleType:
    """``benchmarks/<stem>.py`` under the name ``tactica_<stem>`` (which cannot clash
    with other modules), loaded once."""
    name = f"tactica_{stem}"
    if name not in sys.modules:
        spec = importlib.util.spec_from_file_location(name, BENCHMARKS / f"{stem}.py")
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module  # dataclasses look their module up while it is built
        spec.loader.exec_module(module)
    return sys.modules[name]

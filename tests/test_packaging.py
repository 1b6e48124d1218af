"""What a new user meets first (issue 11): the licence, ``python -m tactica``, the dataset
as a dependency and its version in ``tactica --version``."""

from __future__ import annotations

import subprocess
import sys
import tomllib
from pathlib import Path

from tactica.loaders.wh40kdc import SUPPORTED_VERSIONS, installed_version

ROOT = Path(__file__).resolve().parents[1]
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))


def test_the_licence_file_is_the_one_pyproject_names() -> None:
    assert PYPROJECT["project"]["license"] == {"text": "MIT"}
    assert (ROOT / "LICENSE").read_text(encoding="utf-8").startswith("MIT License\n")


def test_the_dataset_is_a_dependency_with_a_range() -> None:
    assert f"wh40kdc{SUPPORTED_VERSIONS}" in PYPROJECT["project"]["dependencies"]


def test_python_dash_m_tactica_names_the_dataset_version() -> None:
    done = subprocess.run([sys.executable, "-m", "tactica", "--version"], capture_output=True,
                          text=True, check=False, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("tactica ")
    assert f"bundled dataset: wh40kdc {installed_version()}." in done.stdout

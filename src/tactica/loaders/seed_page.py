"""Seed-page loader (to be written): text captured from a datasheet web page -> model."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from ..model.common import RulesVersion
from ..model.datasheet import Datasheet
from ..model.rules import RuleRecord

__all__ = ["SeedPage", "load_seed_page"]


@dataclass(frozen=True, slots=True)
class SeedPage:
    """Everything read from one page: its datasheet (if the page has one) and every rule
    record on it, each carrying its own rules version and source line."""

    file: str
    rules: RulesVersion
    datasheet: Datasheet | None
    records: tuple[RuleRecord, ...]


def load_seed_page(path: str | Path, text: str | None = None) -> SeedPage:
    raise NotImplementedError

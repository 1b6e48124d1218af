"""A unit's own abilities are explained without compiling every faction's rules.

``effects.dataset_names`` keeps the bundled dataset's record names and kinds in tactica's
cache; ``find_effect(..., dataset=False)`` and ``unit_ability_effect`` look only in the
seed catalogue. These are what keep ``tactica calc`` from loading every faction's rules
for the "not calculated" list (issue 11, fast start).
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tactica.cache import CACHE_DIR_ENV
from tactica.effects import UnknownEffectError, dataset_names, find_effect, unit_ability_effect


def test_the_names_match_the_compiled_records_and_are_cached() -> None:
    from tactica.effects import dataset_effects

    data = dataset_effects()
    assert data is not None
    dataset_names._names.cache_clear()
    assert dataset_names.dataset_record_kind("Oath of Moment") == "army rule"
    assert dataset_names.dataset_record_kind("oath of moment") == "army rule"
    assert dataset_names.dataset_record_kind("Not A Rule Anywhere") is None
    every = {e.effect.kind for e in data.entries if e.record.name == "Armour of Contempt"}
    assert dataset_names.dataset_record_kind("Armour of Contempt") in every
    folder = Path(os.environ[CACHE_DIR_ENV])
    written = list(folder.glob("dataset-rule-names-*.json"))
    assert len(written) == 1
    dataset_names._names.cache_clear()  # a new process reads the file, not the dataset
    assert dataset_names.dataset_record_kind("Oath of Moment") == "army rule"


def test_the_seed_only_lookups_do_not_reach_the_dataset() -> None:
    assert find_effect("Oath of Moment")[0].kind == "army rule"
    with pytest.raises(UnknownEffectError):
        find_effect("Oath of Moment", dataset=False)
    assert unit_ability_effect("Oath of Moment") is None
    cult = unit_ability_effect("cult demagogue")
    assert cult is not None and cult.name == "Cult Demagogue"

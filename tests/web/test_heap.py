"""The server's heap frozen out of the collector's way (``tactica.web.heap``): what it
has loaded at start, and what survives a slow full collection later. The collector stays
enabled and nothing is unfrozen (CONTRIBUTING: the run's own freeze is kept)."""

from __future__ import annotations

import gc

import pytest

from tactica.web import heap


def test_what_the_server_loaded_is_frozen_and_a_slow_collection_freezes_again(
        monkeypatch: pytest.MonkeyPatch) -> None:
    loaded = [[i] for i in range(2000)]  # what a server would have loaded
    before = gc.get_freeze_count()
    heap.freeze_loaded()
    try:
        assert gc.get_freeze_count() >= before + len(loaded)
        assert gc.isenabled()
        assert heap._after_slow_collections in gc.callbacks
        heap.freeze_loaded()  # once is one callback
        assert gc.callbacks.count(heap._after_slow_collections) == 1
        built = [[i] for i in range(2000)]  # a cache built later, on a page's first ask
        frozen = gc.get_freeze_count()
        monkeypatch.setattr(heap, "SLOW", 0.0)  # any full collection is slow
        gc.collect()
        assert gc.get_freeze_count() >= frozen + len(built)
        monkeypatch.setattr(heap, "SLOW", 3600.0)  # a quick one freezes nothing
        more = [[i] for i in range(2000)]
        frozen = gc.get_freeze_count()
        gc.collect()
        assert gc.get_freeze_count() == frozen
        assert more
    finally:
        gc.callbacks.remove(heap._after_slow_collections)

"""A scheduler that cannot be reached, through the library call (``run``), with the
real deadlines: refused in one line within 10 s, and nothing left behind: no folder, no
process, no Dask client (the command line's refusal is tested in test_cli_meta)."""

from __future__ import annotations

import socket
import threading
import time
from pathlib import Path

import pytest

from tactica.meta import Selection, run
from tactica.meta.run import SchedulerError


def _children() -> set[str]:
    out: set[str] = set()
    for task in Path("/proc/self/task").glob("*/children"):
        out |= set(task.read_text().split())
    return out


@pytest.mark.skipif(not Path("/proc/self/task").is_dir(), reason="reads /proc (Linux)")
def test_an_unreachable_scheduler_is_refused_within_ten_seconds_leaving_nothing(
        tmp_path: Path) -> None:
    sel = Selection(attackers=("Primus",), targets=("meq",), dataset=False)
    silent = socket.socket()  # accepts, then never says a word
    silent.bind(("127.0.0.1", 0))
    silent.listen()
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        closed = s.getsockname()[1]
    before = _children()
    clients = _clients()
    with silent:
        for address, words in [("tcp://127.0.0.1:8786x", "not a Dask scheduler's address"),
                               (f"tcp://127.0.0.1:{closed}", "connection refused"),
                               (f"tcp://127.0.0.1:{silent.getsockname()[1]}",
                                "no Dask scheduler answered there within 5 s")]:
            folder = tmp_path / "t"
            t0 = time.monotonic()
            with pytest.raises(SchedulerError) as refused:
                run(sel, folder, scheduler=address)
            assert time.monotonic() - t0 < 10.0
            text = str(refused.value)
            assert "\n" not in text and text.startswith(repr(address)) and words in text
            assert not folder.exists()
    assert _children() <= before
    assert _clients() <= clients  # no Dask client made and left as a default one
    # the handshake given up on ends once the silent server is gone
    deadline = time.monotonic() + 20
    while any(t.name == "tactica-meta-connect" for t in threading.enumerate()):
        assert time.monotonic() < deadline
        time.sleep(0.1)


def _clients() -> set[int]:
    """The Dask clients of this process (other tests may have left some)."""
    import distributed.client

    return {id(c) for c in getattr(distributed.client, "_global_clients", {}).values()
            if getattr(c, "status", "") != "closed"}

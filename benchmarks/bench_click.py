"""Browser benchmark: the calculator's click-to-result time, as a player sees it.

The app (seed library) is served by uvicorn in this process on 127.0.0.1; Debian's
Chromium (``/usr/bin/chromium``, or ``--chromium PATH``) is driven by Playwright at phone
(390×844) and desktop (1280×900) size. For each case the attacker and target are picked,
then Calculate is pressed ``--runs`` times (after one warm-up, an input changed between
presses so each is a fresh calculation); the time from the click to the result drawn
(``#result[data-state=done]``, charts and tables included) is measured in the page
(``performance.now()``), and the median and the slowest are reported.

Run ``python benchmarks/bench_click.py`` (``--runs N``, ``--no-write``). It prints a
markdown table and writes it into ``benchmarks/README.md`` between the markers
``<!-- click:start -->`` and ``<!-- click:end -->``. Times are reported, never asserted.
"""

from __future__ import annotations

import argparse
import platform
import socket
import statistics
import threading
import time
from pathlib import Path
from typing import Any

import uvicorn
from readme import README, write_section

from tactica.library import load_seed_library
from tactica.web import create_app

#: (label, attacker, target preset, target's unit name)
CASES = [("Neophyte Hybrids → GEQ", "Neophyte Hybrids", "geq", "Cadian Shock Troops"),
         ("Banehammer → Knight", "Banehammer", "knight", None),
         ("Death Riders (fight) → MEQ", "Death Riders", "meq", "Intercessor Squad")]
SIZES = {"phone 390×844": (390, 844), "desktop 1280×900": (1280, 900)}

#: Click Calculate and wait, in the page, for the result to be drawn.
CLICK = """() => new Promise(done => {
  const result = document.getElementById('result');
  const start = performance.now();
  const seen = new MutationObserver(() => {
    if (result.dataset.state === 'done') { seen.disconnect(); done(performance.now() - start); }
  });
  seen.observe(result, { attributes: true, attributeFilter: ['data-state'] });
  document.getElementById('calculate').click();
})"""


def serve() -> tuple[uvicorn.Server, str]:
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.bind(("127.0.0.1", 0))
    server = uvicorn.Server(uvicorn.Config(create_app(library=load_seed_library),
                                           log_level="warning"))
    threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True).start()
    while not server.started:
        time.sleep(0.05)
    return server, f"http://127.0.0.1:{sock.getsockname()[1]}"


def pick(page: Any, field: str, name: str, shown: str, check: str) -> None:
    page.fill(field, name)
    page.press(field, "Tab")
    page.wait_for_function(f"n => document.getElementById('{check}').value === n", arg=shown)


def measure(page: Any, url: str, case: tuple[str, str, str, str | None],
            runs: int) -> list[float]:
    _, attacker, target, unit = case
    page.goto(url + "/")
    pick(page, "#attacker-unit", attacker, attacker, "attacker-name")
    if attacker == "Death Riders":
        page.select_option("#phase", "fight")
        page.wait_for_function(
            "() => document.querySelector('#weapons .f-range')?.value === 'Melee'")
    page.fill("#target-unit", target)
    page.press("#target-unit", "Tab")
    page.wait_for_function("() => document.getElementById('target-name').value !== 'target'")
    if unit:
        page.wait_for_function(f"() => document.getElementById('target-name').value === {unit!r}")
    times = []
    for k in range(runs + 1):
        if page.is_visible("#edit-form"):
            page.click("#edit-form")
        page.fill("#ctx-distance", str(6 + k % 12))  # a fresh calculation each time
        ms = float(page.evaluate(CLICK))
        if k:
            times.append(ms)
    return times


def table(rows: list[tuple[str, str, list[float]]], chromium: str) -> str:
    lines = [f"Click-to-result in Chromium ({chromium}) on {platform.machine()}, "
             f"{platform.python_implementation()} {platform.python_version()}; the app and "
             "the browser share the machine. Median and slowest of the runs, in ms.", "",
             "| case | screen | median ms | slowest ms |", "|---|---|---:|---:|"]
    for case, size, times in rows:
        lines.append(f"| {case} | {size} | {statistics.median(times):.0f} | {max(times):.0f} |")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--runs", type=int, default=10)
    parser.add_argument("--chromium", type=Path, default=Path("/usr/bin/chromium"))
    parser.add_argument("--no-write", action="store_true")
    args = parser.parse_args(argv)
    from playwright.sync_api import sync_playwright

    server, url = serve()
    rows = []
    try:
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(
                executable_path=str(args.chromium), headless=True,
                args=["--no-sandbox", "--disable-gpu"])
            version = browser.version
            for size, (width, height) in SIZES.items():
                page = browser.new_page(viewport={"width": width, "height": height})
                for case in CASES:
                    rows.append((case[0], size, measure(page, url, case, args.runs)))
                page.close()
            browser.close()
    finally:
        server.should_exit = True
    block = table(rows, version)
    print(block)
    if not args.no_write:
        write_section("click", block, README, appended="## Calculator click-to-result\n\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

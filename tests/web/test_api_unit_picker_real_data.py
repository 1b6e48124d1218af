"""The calculator's unit picker offers, for every unit of the library (seed pages, the
bundled dataset and — the real-data suite — the BSData catalogues), a phase the unit has
weapons for when no phase is asked (Arco-flagellants open in the fight phase); asked for
a phase it has no weapon for, it answers that phase with no rows and says why."""

from __future__ import annotations

import asyncio
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from urllib.parse import quote

import httpx

from tactica.library import Library, load_library
from tactica.web import create_app


async def _offered(lib: Library) -> Counter[str]:
    app = create_app(library=lambda: lib, workers=1)
    counts: Counter[str] = Counter()
    try:
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://t") as client:
            for sheet in lib.datasheets():
                url = f"/api/units/{quote(sheet.name, safe='')}/attacker?rules={sheet.rules}"
                r = await client.get(url)  # no phase: the first one it has weapons for
                assert r.status_code == 200, (sheet.name, r.text)
                choice = r.json()
                picked = [w for w in choice["weapons"] if w["selected"]]
                if not picked:  # no weapons, or none carried: said in the notes
                    assert choice["notes"], sheet.name
                    counts["none"] += 1
                    continue
                assert all((w["range"] == "Melee") == (choice["phase"] == "fight")
                           for w in choice["weapons"]), sheet.name
                counts[choice["phase"]] += 1
            arco = (await client.get("/api/units/Arco-flagellants/attacker")).json()
            assert arco["phase"] == "fight"
            assert "Arco-flagellants have no ranged weapons" in arco["notes"]
            asked = (await client.get("/api/units/Arco-flagellants/attacker",
                                      params={"phase": "shooting"})).json()
            assert (asked["phase"], asked["weapons"]) == ("shooting", [])
            assert "Arco-flagellants have no ranged weapons" in asked["notes"]
    finally:
        app.state.calc_pool.close()
    return counts


def test_every_unit_opens_in_a_phase_it_has_weapons_for(bsdata: Path) -> None:
    lib = load_library([bsdata], dataset=True)
    with ThreadPoolExecutor(max_workers=1) as pool:  # Playwright may hold this thread's loop
        counts = pool.submit(asyncio.run, _offered(lib)).result()
    print(dict(counts))
    assert counts["shooting"] > counts["fight"] > 0

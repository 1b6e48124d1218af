"""The calculator's unit picker over the whole library (seed pages, the BSData catalogues
of ``../shared``, the bundled dataset — the real-data suite): every unit answers, none
with a 500, and the phase offered is one the unit has weapons for (Arco-flagellants open
in the fight phase)."""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from urllib.parse import quote

import httpx
import pytest

from tactica.library import load_library
from tactica.web import create_app

BSDATA = Path(__file__).resolve().parents[2] / ".." / "shared" / "data" / "bsdata-11e"


@pytest.mark.anyio
async def test_every_unit_opens_in_a_phase_it_has_weapons_for() -> None:
    lib = load_library([BSDATA], dataset=True)
    app = create_app(library=lambda: lib, workers=1)
    counts: Counter[str] = Counter()
    try:
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://t") as client:
            for sheet in lib.datasheets():
                url = f"/api/units/{quote(sheet.name, safe='')}/attacker?rules={sheet.rules}"
                r = await client.get(url)
                assert r.status_code == 200, (sheet.name, r.text)
                choice = r.json()
                melee = {w.is_melee for w in sheet.weapons}
                if not sheet.weapons:
                    assert choice["weapons"] == [] and choice["notes"], sheet.name
                    counts["no weapons"] += 1
                    continue
                picked = [w for w in choice["weapons"] if w["selected"]]
                if not picked:  # the data names weapons but no model carries them
                    assert choice["notes"], sheet.name
                    counts["nothing carried"] += 1
                    continue
                assert (choice["phase"] == "fight") in melee, sheet.name
                assert all((w["range"] == "Melee") == (choice["phase"] == "fight")
                           for w in choice["weapons"]), sheet.name
                counts[choice["phase"]] += 1
            arco = (await client.get("/api/units/Arco-flagellants/attacker",
                                     params={"phase": "shooting"})).json()
            assert arco["phase"] == "fight"
            assert "Arco-flagellants have no ranged weapons" in arco["notes"]
    finally:
        app.state.calc_pool.close()
    print(dict(counts))
    assert counts["shooting"] > counts["fight"] > 0

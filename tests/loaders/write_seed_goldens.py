"""Write the golden datasheets of the seed pages (run once, then check each file by hand).

    /work/venv/bin/python tests/loaders/write_seed_goldens.py

Each ``tests/golden/seed_datasheets/<page stem>.json`` is ``Datasheet.model_dump(mode="json")``
of that page; ``test_seed_page.py`` compares the loader's output with it.
"""

from __future__ import annotations

import json
from pathlib import Path

import tactica
from tactica.loaders.seed_page import load_seed_page

SEEDS = Path(tactica.__file__).parent / "data" / "seeds"
GOLDEN = Path(__file__).resolve().parent.parent / "golden" / "seed_datasheets"


def write_goldens() -> list[Path]:
    GOLDEN.mkdir(parents=True, exist_ok=True)
    written = []
    for page in sorted(SEEDS.glob("*.txt")):
        sheet = load_seed_page(page).datasheet
        assert sheet is not None, page.name
        out = GOLDEN / f"{page.stem}.json"
        out.write_text(
            json.dumps(sheet.model_dump(mode="json"), indent=2, ensure_ascii=False) + "\n",
            encoding="utf-8",
        )
        written.append(out)
    return written


if __name__ == "__main__":
    for path in write_goldens():
        print(path)

"""docs/variants/uzje.md names every option of UzjeRules, so the page cannot drift from the
code."""

from __future__ import annotations

import dataclasses
from pathlib import Path

from engine.variants.uzje.rules import UZJE_4P

PAGE = Path(__file__).resolve().parents[4] / "docs" / "variants" / "uzje.md"


def test_every_option_is_documented() -> None:
    text = PAGE.read_text(encoding="utf-8")
    missing = [
        spec.name
        for spec in dataclasses.fields(UZJE_4P)
        if spec.name != "name" and f"`{spec.name}`" not in text
    ]
    assert missing == []

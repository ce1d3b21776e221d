"""docs/rules.md documents every option, and its preset table matches the code."""

from __future__ import annotations

import dataclasses
import re
from pathlib import Path

from engine.rules import PRESETS, Ruleset

RULES_DOC = Path(__file__).resolve().parents[3] / "docs" / "rules.md"
OPTIONS = [field.name for field in dataclasses.fields(Ruleset) if field.name != "name"]


def _cell(value: object) -> str:
    if value is None:
        return "none"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, list):
        return ", ".join(str(item) for item in value) or "—"
    return str(value)


def _table() -> tuple[list[str], dict[str, list[str]]]:
    lines = RULES_DOC.read_text(encoding="utf-8").splitlines()
    header_index = next(i for i, line in enumerate(lines) if line.startswith("| option |"))
    names = [cell.strip() for cell in lines[header_index].strip("|").split("|")[1:]]
    rows: dict[str, list[str]] = {}
    for line in lines[header_index + 2 :]:
        if not line.startswith("| `"):
            break
        cells = [cell.strip() for cell in line.strip("|").split("|")]
        rows[cells[0].strip("`")] = cells[1:]
    return names, rows


def test_every_option_is_explained_in_prose() -> None:
    text = RULES_DOC.read_text(encoding="utf-8")
    prose = text[text.index("## The options, one by one") :]
    missing = [name for name in OPTIONS if f"`{name}`" not in prose]
    assert not missing, f"options without an explanation in docs/rules.md: {missing}"


def test_preset_table_matches_the_presets() -> None:
    names, rows = _table()
    assert set(rows) == set(OPTIONS), "the table must have one row per option"
    for column, name in enumerate(names):
        options = PRESETS[name].options()
        for option, cells in rows.items():
            assert cells[column] == _cell(options[option]), (
                f"docs/rules.md says {name}.{option} = {cells[column]!r}, "
                f"the code has {_cell(options[option])!r}"
            )


def test_every_documented_preset_name_exists() -> None:
    text = RULES_DOC.read_text(encoding="utf-8")
    for name in re.findall(r"`((?:tenhou|majsoul|minigame|ema|wrc)[\w-]*)`", text):
        if name.endswith("-"):
            continue
        assert name in PRESETS, f"docs/rules.md names an unknown preset {name!r}"

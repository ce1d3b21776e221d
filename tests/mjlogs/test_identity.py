"""The identity hashes' text (mjlogs/identity.py): orjson's fast text must be, byte for byte, what
json.dumps writes (engine.identity.json_text), since every stored hash was made with it."""

from __future__ import annotations

import hashlib
import json
import math
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.formats import canonical, read_games
from engine.identity import json_text, play_content, play_identity
from engine.sim.selfplay import simulate
from engine.variants.uzje.selfplay import simulate as uzje_simulate
from mjlogs import identity as identity_module
from mjlogs.identity import identities, identity_text, play_hash, record_claims

CORPUS = Path(__file__).resolve().parents[3] / "shared" / "corpus"


def by_json(content: Any) -> bytes:
    return json.dumps(content, sort_keys=True, ensure_ascii=False, separators=(",", ":")).encode()


def documents() -> list[dict[str, Any]]:
    found = []
    for path in sorted(CORPUS.rglob("*")):
        if path.is_file() and path.suffix != ".tsv":
            games, _ = read_games(path.read_bytes(), file_name=path.name)
            found += [canonical.game_to_json(game) for game in games]
    for preset in ("tenhou-4p-east", "tenhou-3p-east", "majsoul-4p-east", "space-4p", "small-4p"):
        found += [canonical.game_to_json(game) for game in simulate(preset, 2, 3)]
    found += [canonical.game_to_json(game) for game in uzje_simulate(2, 5)]
    return found


@pytest.mark.skipif(not CORPUS.is_dir(), reason="needs ../shared/corpus")
def test_the_identity_text_of_every_known_game_is_json_dumps_text() -> None:
    checked = documents()
    assert len(checked) > 137
    halves = 0
    for document in checked:
        for content in (play_content(document), record_claims(document)):
            assert identity_text(content) == by_json(content) == json_text(content)
            halves += "2.5" in json.dumps(content)
        assert play_hash(document) == play_identity(document)
        play, record = identities(document)
        whole = by_json({"claims": record_claims(document), "play": play})
        assert record == hashlib.sha256(whole).hexdigest()
    assert halves  # Ùzje's exact halves: floats went through the fast writer


@pytest.mark.parametrize(
    "content",
    [
        {"b": 1, "a": [1.5, 0.1, 100.0, -0.0, 12345.678], "é": '東 ü \u2028 \x1f " \\ \n \t'},
        {"big": 1e16, "plain": 1e15},
        {"small": 1e-05},
        {"small": 0.0001, "smaller": 0.00009999},
        {"nan": math.nan, "inf": math.inf, "none": None},
        {"huge": 2**70, "names": ["2e3", "nullpo"]},
        {"z": {"y": {"x": []}}, "emoji": "🀄", "bool": [True, False]},
    ],
)
def test_odd_values_are_written_as_json_dumps_writes_them(content: dict[str, Any]) -> None:
    assert identity_text(content) == by_json(content)


def test_what_json_dumps_refuses_is_still_refused() -> None:
    with pytest.raises(TypeError):
        identity_text({"when": datetime(2026, 1, 1, tzinfo=UTC)})
    with pytest.raises(UnicodeEncodeError):
        identity_text({"name": "\ud800"})
    assert identity_text({1: "a"}) == by_json({1: "a"})  # json writes int keys as text


@given(st.lists(st.floats(allow_nan=True, allow_infinity=True), max_size=5), st.integers())
def test_any_number_is_written_as_json_dumps_writes_it(numbers: list[float], whole: int) -> None:
    content = {"numbers": numbers, "whole": whole, "name": "Ann"}
    assert identity_text(content) == by_json(content)


def test_draws_and_discards_skipped_by_the_claims_claim_nothing(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from mjlogs import identity as identity_module

    games = simulate("tenhou-4p-east", 2, 11)
    documents = [canonical.game_to_json(game) for game in games]
    odd = json.loads(json.dumps(documents[0]))
    draw = next(e for r in odd["rounds"] for e in r["events"] if e["type"] == "draw")
    draw["recorded_payments"] = [1000, -1000, 0, 0]  # a claim where none is expected
    documents.append(odd)
    fast = [record_claims(document) for document in documents]
    assert any(claim.endswith("/payments") for claim in fast[-1])
    monkeypatch.setattr(identity_module, "plain_move_members", lambda _: False)  # none skipped
    assert [record_claims(document) for document in documents] == fast


def test_a_record_hash_is_written_by_the_fast_writer(monkeypatch: pytest.MonkeyPatch) -> None:
    """The play's hash (hex: "3e" looks like an exponent) no longer sends the record's text to
    json.dumps; only a claim that needs it does."""
    documents = [canonical.game_to_json(game) for game in simulate("tenhou-4p-east", 6, 17)]
    expected = [identities(document) for document in documents]
    assert any("e" in play for play, _ in expected)

    def refused(*args: Any, **kwargs: Any) -> Any:
        raise AssertionError("written by json.dumps")

    monkeypatch.setattr(identity_module.json, "dumps", refused)
    assert [identities(document) for document in documents] == expected

"""Tile acceptance (engine/hand/acceptance.py, engine.hand.shanten.discard_acceptance): hands
worked out by hand in the comments, and the fast table against the plain definition (every
discard, every draw, :func:`engine.hand.shanten.shanten`) on many random hands."""

from __future__ import annotations

import random

import pytest

from engine.errors import InvalidHandError
from engine.hand.acceptance import acceptance, discard_outcome
from engine.hand.shanten import discard_acceptance, shanten
from engine.hand.shapes import SPACE
from engine.tiles import format_kind, parse_counts

FOUR = [4] * 34
SANMA = [0 if 1 <= kind <= 7 else 4 for kind in range(34)]
NOTHING_SEEN = [0] * 34


def kind(name: str) -> int:
    (found,) = [k for k in range(34) if format_kind(k) == name]
    return found


def seen(**copies: int) -> list[int]:
    """Copies seen on the table, by tile name (``p2=2`` for two 2p; ``z1`` is East)."""
    out = [0] * 34
    for name, count in copies.items():
        out[kind(name[1:] + name[0])] = count
    return out


def table(result: object) -> list[tuple[str, int, int, dict[str, int]]]:
    """(discard, shanten, count, {accepted tile: unseen}) of every choice, best first."""
    return [
        (
            format_kind(choice.kind),
            choice.shanten,
            choice.count,
            {format_kind(k): n for k, n in zip(choice.accepted, choice.unseen, strict=True)},
        )
        for choice in result.choices  # type: ignore[attr-defined]
    ]


# -- hands worked out by hand ----------------------------------------------------------------------

# 123m 9m 456p 13p 789s East White: three runs, the closed wait 13p, three lone tiles (9m, East,
# White) and no pair. 14 tiles: 8 - 3 melds - min(4 blocks, 4) = 1-shanten. Dropping a lone tile
# leaves 13 tiles one step from tenpai, which a draw brings to tenpai in three ways only:
#   - 2p fills the closed wait (four runs and two lone tiles: tenpai on either);
#   - a copy of one of the two lone tiles left makes the pair (13p then waits on 2p).
# Nothing else does: a tile beside a lone tile makes a partial run but still no pair; a tile
# touching a run (1m: 11m + 23m, 4p: 44p + 56p, ...) trades a run for two partial blocks.
# Unseen from the player's view with nothing on the table: 2p 4 (none held), 9m, East, White 3
# each (one held, the discarded one counts: the player saw it). So each lone tile's discard
# accepts 4 + 3 + 3 = 10. Dropping a tile of a run or of 13p leaves a 2-shanten hand.
ONE_SHANTEN = "1239m13456p789s15z"


def test_a_one_shanten_hand_counted_by_hand() -> None:
    result = acceptance(parse_counts(ONE_SHANTEN), FOUR, NOTHING_SEEN)
    rows = table(result)
    # Ties keep the kind order: 9m, East (1z), White (5z).
    assert rows[:3] == [
        ("9m", 1, 10, {"2p": 4, "1z": 3, "5z": 3}),
        ("1z", 1, 10, {"9m": 3, "2p": 4, "5z": 3}),
        ("5z", 1, 10, {"9m": 3, "2p": 4, "1z": 3}),
    ]
    assert result.shanten == 1 and result.best == 10
    assert all(row[1] == 2 for row in rows[3:])  # every other discard raises the shanten
    assert sorted(row[0] for row in rows) == sorted(
        ["1m", "2m", "3m", "9m", "1p", "3p", "4p", "5p", "6p", "7s", "8s", "9s", "1z", "5z"]
    )
    # The 2-shanten discards come after, most accepted first (1p: the lone 3p then takes 1p-5p
    # and more, 44 copies), and never "keep the most acceptance".
    assert rows[3][:3] == ("1p", 2, 44)
    assert result.loss(kind("1z")) == 0 and result.kept_most(kind("1z"))
    assert result.loss(kind("1p")) is None and not result.kept_most(kind("1p"))
    assert result.loss(kind("2s")) is None  # not in the hand


def test_tiles_on_the_table_lower_the_counts() -> None:
    # The same hand; two 2p lie in the rivers and a 9m in someone's meld. Unseen now: 2p 4 - 2
    # = 2, 9m 4 - 1 held - 1 seen = 2, East and White 3 each. Dropping East accepts 9m, 2p,
    # White: 2 + 2 + 3 = 7; dropping White likewise 7; dropping 9m accepts 2p, East, White:
    # 2 + 3 + 3 = 8, now the best; the other two lose 1.
    on_table = seen(p2=2, m9=1)
    result = acceptance(parse_counts(ONE_SHANTEN), FOUR, on_table)
    assert table(result)[:3] == [
        ("9m", 1, 8, {"2p": 2, "1z": 3, "5z": 3}),
        ("1z", 1, 7, {"9m": 2, "2p": 2, "5z": 3}),
        ("5z", 1, 7, {"9m": 2, "2p": 2, "1z": 3}),
    ]
    assert result.best == 8
    assert [result.loss(kind(name)) for name in ("9m", "1z", "5z")] == [0, 1, 1]
    counts = parse_counts(ONE_SHANTEN)
    assert discard_outcome(counts, FOUR, on_table, kind("1z"))[0] == 1
    assert discard_outcome(counts, FOUR, on_table, kind("9m"))[0] == 0
    assert discard_outcome(counts, FOUR, on_table, kind("3p"))[0] is None


# 11m 55m 22p 88p 33s 99s East White: six pairs and two lone honours. As seven pairs:
# 6 - 6 pairs = 0, tenpai after dropping either lone honour, waiting on the other; as a regular
# hand (six pairs, no run) it is 3-shanten. So dropping East accepts only White: 4 - 1 held = 3;
# dropping White accepts only East, 3. With two Whites in the rivers, dropping East accepts
# 4 - 1 - 2 = 1 White, and dropping White (3 Easts) is best by 2. Breaking a pair leaves five
# pairs and three lone tiles (8 kinds): 1-shanten.
SEVEN_PAIRS = "1155m2288p3399s15z"


def test_seven_pairs() -> None:
    counts = parse_counts(SEVEN_PAIRS)
    assert shanten(counts) == 0
    result = acceptance(counts, FOUR, NOTHING_SEEN)
    assert table(result)[:2] == [("1z", 0, 3, {"5z": 3}), ("5z", 0, 3, {"1z": 3})]
    assert {row[1] for row in table(result)[2:]} == {1}
    result = acceptance(counts, FOUR, seen(z5=2))
    assert table(result)[:2] == [("5z", 0, 3, {"1z": 3}), ("1z", 0, 1, {"5z": 1})]
    assert result.loss(kind("1z")) == 2


# 1m 9m 123p 456p 789s East East White in three-player mahjong (no 2m-8m): three runs, the East
# pair, lone 1m, 9m and White. 14 tiles: 8 - 3 - min(4, 5) = 1-shanten. 1m and 9m cannot make
# runs there (like honours), so dropping White leaves a hand that only a copy of a lone tile
# brings to tenpai: 1m (3 unseen), 9m (3), or a third East (4 - 2 held = 2): 8 copies. Dropping
# 1m accepts 9m, East, White (3 + 2 + 3 = 8), dropping 9m accepts 1m, East, White (8).
# In four-player mahjong the same hand has 2m-8m: after dropping White, 2m and 3m make a
# partial run with 1m, 7m and 8m with 9m, so White's drop accepts 1m 3 + 2m 4 + 3m 4 + 7m 4
# + 8m 4 + 9m 3 + East 2 = 24, and it is the only best discard.
SANMA_HAND = "19m123456p789s115z"


def test_three_player_has_no_2m_to_8m() -> None:
    counts = parse_counts(SANMA_HAND)
    sanma = acceptance(counts, SANMA, NOTHING_SEEN, three_player=True)
    assert table(sanma)[:3] == [
        ("1m", 1, 8, {"9m": 3, "1z": 2, "5z": 3}),
        ("9m", 1, 8, {"1m": 3, "1z": 2, "5z": 3}),
        ("5z", 1, 8, {"1m": 3, "9m": 3, "1z": 2}),
    ]
    assert not any(
        name in accepted
        for _, _, _, accepted in table(sanma)
        for name in ("2m", "3m", "4m", "5m", "6m", "7m", "8m")
    )
    four = acceptance(counts, FOUR, NOTHING_SEEN)
    assert table(four)[0] == (
        "5z",
        1,
        24,
        {"1m": 3, "2m": 4, "3m": 4, "7m": 4, "8m": 4, "9m": 3, "1z": 2},
    )
    assert table(four)[1][:3] == ("1m", 1, 16)  # 9m then takes 7m 8m: 4 + 4 + 3 + 2 + 3


def test_a_swap_call_leaves_out_the_forbidden_discards() -> None:
    counts = parse_counts(ONE_SHANTEN)
    result = acceptance(counts, FOUR, NOTHING_SEEN, discards={kind("1z"), kind("3p")})
    assert [row[0] for row in table(result)] == ["1z", "3p"]
    with pytest.raises(InvalidHandError):
        acceptance(counts, FOUR, NOTHING_SEEN, discards=set())
    with pytest.raises(InvalidHandError):
        discard_outcome(counts, FOUR, NOTHING_SEEN, kind("9m"), discards={kind("1z")})


def test_called_melds_are_implied_by_the_tile_count() -> None:
    # 11 concealed tiles: one meld was called. 123m 456p 789s with the call are four melds,
    # East and White lone: 8 - 4 melds - min(4 blocks, 4) = 0. Dropping East leaves a White
    # single wait (3 unseen), dropping White an East one (3); any other drop breaks a run.
    counts = parse_counts("123m456p789s15z")
    result = acceptance(counts, FOUR, NOTHING_SEEN)
    assert table(result)[:2] == [("1z", 0, 3, {"5z": 3}), ("5z", 0, 3, {"1z": 3})]
    assert {row[1] for row in table(result)[2:]} == {1}


def test_space_mahjong_shapes_wrap_around() -> None:
    # Space mahjong: 9m-1m makes a two-sided partial run (it waits on 8m and 2m). 123p 456p
    # 789s East East with 19m and White: dropping White leaves 19m, which 8m or 2m complete as
    # a run (891m, 912m): tenpai; standard shapes would accept 1m and 9m (pairing) only.
    counts = parse_counts(SANMA_HAND)
    result = acceptance(counts, FOUR, NOTHING_SEEN, shapes=SPACE)
    rows = {row[0]: row for row in table(result)}
    assert rows["5z"][1] == 0
    assert set(rows["5z"][3]) >= {"8m", "2m"}


def test_bad_hands_are_refused() -> None:
    with pytest.raises(InvalidHandError):
        acceptance(parse_counts("123m456p789s1z"), FOUR, NOTHING_SEEN)  # 3n+1 tiles
    with pytest.raises(InvalidHandError):
        discard_acceptance(parse_counts("234m456p789s11z12s"), three_player=True)  # 2m in sanma
    with pytest.raises(InvalidHandError):
        discard_acceptance([5] + [1] * 9 + [0] * 24)


# -- the fast table against the plain definition ------------------------------------------------


def plain(counts: list[int], three_player: bool) -> list[tuple[int, int, int]]:
    """Every discard, every draw, with shanten(): the definition."""
    draws = [k for k in range(34) if not (three_player and 1 <= k <= 7)]
    out = []
    for discard in range(34):
        if not counts[discard]:
            continue
        counts[discard] -= 1
        number = shanten(counts, three_player=three_player)
        mask = 0
        for draw in draws:
            if counts[draw] < 4:
                counts[draw] += 1
                if shanten(counts, three_player=three_player) < number:
                    mask |= 0xFF << 8 * draw
                counts[draw] -= 1
        counts[discard] += 1
        out.append((discard, number, mask))
    return out


def dealt(rng: random.Random, tiles: int, three_player: bool, quads: bool) -> list[int]:
    kinds = [k for k in range(34) if not (three_player and 1 <= k <= 7)]
    if rng.random() < 0.5:  # one suit and the honours: long runs, many shapes
        suit = rng.choice((9, 18) if three_player else (0, 9, 18))
        kinds = [k for k in kinds if suit <= k < suit + 9 or k >= 27]
    counts = [0] * 34
    if quads and tiles >= 5:
        counts[rng.choice(kinds)] = 4
    wall = [k for k in kinds for _ in range(4 - counts[k])]
    rng.shuffle(wall)
    for k in wall[: tiles - sum(counts)]:
        counts[k] += 1
    return counts


@pytest.mark.parametrize("three_player", [False, True], ids=["4p", "3p"])
@pytest.mark.parametrize("quads", [False, True], ids=["plain", "four-of-a-kind"])
def test_the_table_is_the_definition(three_player: bool, quads: bool) -> None:
    rng = random.Random(2024 + 2 * three_player + quads)
    for _ in range(150):
        counts = dealt(rng, rng.choice([14, 14, 14, 11, 8, 5, 2]), three_player, quads)
        expected = plain(list(counts), three_player)
        assert discard_acceptance(counts, three_player=three_player) == expected, counts
        lowest = min(number for _, number, _ in expected)
        assert discard_acceptance(counts, three_player=three_player, lowest_only=True) == [
            row for row in expected if row[1] == lowest
        ]


@pytest.mark.parametrize("three_player", [False, True], ids=["4p", "3p"])
def test_the_outcome_of_a_discard_is_what_the_choices_say(three_player: bool) -> None:
    # discard_outcome skips the choices' masks above the lowest shanten; its loss and lowest
    # shanten must still be those of the whole acceptance, for every discard of the hand, with
    # some tiles seen and with a swap call forbidding some discards.
    copies = SANMA if three_player else FOUR
    rng = random.Random(42 + three_player)
    for _ in range(100):
        counts = dealt(rng, rng.choice([14, 14, 11, 8]), three_player, quads=False)
        on_table = [rng.randint(0, max(0, c - h)) // 2 for c, h in zip(copies, counts, strict=True)]
        held = [k for k in range(34) if counts[k]]
        allowed = set(rng.sample(held, max(1, len(held) - 2))) if rng.random() < 0.3 else None
        found = acceptance(counts, copies, on_table, three_player=three_player, discards=allowed)
        for discard in allowed or held:
            outcome = discard_outcome(
                counts, copies, on_table, discard, three_player=three_player, discards=allowed
            )
            assert outcome == (found.loss(discard), found.shanten), (counts, discard)

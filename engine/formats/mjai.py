"""mjai JSON lines: the event stream of gimite's mjai protocol, as bots and their logs use it.

**Reading.** One JSON event per line (blank lines are skipped); a line holding a JSON *array* is
a batch of events (the mjai.app bot input). ``start_game`` ... ``end_game`` is one game and a
file may hold several; a file that stops before ``end_game`` yields an incomplete game
(``recorded_final`` is ``None``), and so does one
that gimite's server stopped with an ``error`` event. The dialects read are Mortal/libriichi,
RiichiEnv (``kita`` for 3-player games; the Mortal-family sanma engines' ``nukidora`` is read
too), gimite's original mjai, its Tenhou converter and mjai-manue (``start_game`` ``uri``;
``hora`` with ``yakus``, ``fu``, ``fan``, ``hora_points``, ``uradora_markers``; ``ryukyoku``
with ``reason`` and ``tenpais``), akochan (``kyoku_first``, ``aka_flag``, ``haiyama``,
``scores`` instead of ``deltas``), jansou and mjai.app's batches. Fields a dialect adds beyond
these are ignored. Every tool's ``ryukyoku`` reasons are read (:data:`DRAW_REASONS`). A Tenhou
log id in ``uri`` (gimite's converter: ``http://tenhou.net/0/?log=<id>&tw=0``) is the game's
source id and gives its start time. A missing ``kyotaku`` is the sticks the last round left.

Converter quirks whose meaning is clear are read as they mean, each with a warning in
:attr:`~engine.events.Game.warnings` (docs/format.md, "Reader warnings"): gimite's converter's
``tsumogiri`` true on the discard right after a chi or pon (read as false), one ``sangenpai``
per dragon triplet, ``fan`` 100 for a hand of several yakuman, ``end_game`` scores before the
leftover sticks go to first place; and gimite's server's ``error`` (the game ends there).

What the source claims becomes the ``recorded`` fields: deltas are taken from ``deltas``, or
worked out from ``scores`` (the scores after the event) when only those are given. gimite's
yaku names are mapped to the engine's (``sangenpai``, ``jikaze`` and ``bakaze`` name no tile, so
the dragon, seat wind or round wind is found from the winner's tiles and seat; ``suanko``,
``churenpoton`` and ``kokushimuso`` name no wait, so the hand's wait tells the yakuman;
``renho`` below a yakuman is Tenhou's mangan renhou); a yakuman counts 100 "fan" in gimite's
scheme and 13 han here; akochan's unrounded fu (``38``) are rounded up to the ten as every
scorer reports them. ``reach_accepted``'s ``deltas``/``scores`` (Mortal) are
ignored: the riichi stick follows from the event itself.

mjai carries no rules. When ``start_game`` has our extension members ``ruleset`` (a preset's
name) and ``rule_overrides`` (as in the canonical header), as :func:`write` writes them, they are
the game's rule set. Otherwise it is ``tenhou-4p`` (``tenhou-3p`` for three players), ``-east``
when akochan's ``kyoku_first`` is 4 (East-only), ``-nored`` when ``aka_flag`` is false or, without
``aka_flag``, when no red five appears in the game.

Hidden tiles (``?``) cannot be verified and raise :class:`~engine.errors.UnsupportedLogError`
(except in ``ryukyoku``'s revealed hands, which are not read). Anything else that makes no sense
raises :class:`~engine.errors.MalformedLogError` naming the line (``line 12`` or, in a batch,
``line 3, event 5``).

**Writing** produces the Mortal / mjai-reviewer dialect: ``start_game`` {names, kyoku_first
(0, or 4 for an East-only rule set), aka_flag, id when known, and our ``ruleset`` and
``rule_overrides`` (when any)}, ``start_kyoku``, ``tsumo``,
``dahai`` {tsumogiri}, ``chi``/``pon``/``daiminkan``, ``kakan`` {consumed = the pon's three
tiles}, ``ankan``, ``dora``, ``reach``, ``reach_accepted``, ``hora`` {actor, target, pai, deltas,
ura_markers, and when recorded fu, fan, yakus (gimite names), hora_points, hora_tehais (without
the winning tile, as gimite writes them), pao}, ``ryukyoku`` {reason (gimite names), deltas,
tenpais}, ``end_kyoku`` and ``end_game`` {scores} when the game's end is recorded.

A **3-player** game is written with 3-seat arrays (names, scores, tehais, deltas, tenpais) and
``nukidora`` {actor, pai "N"} events, as the Mortal-family sanma engines (libriichi3p) read
them: plain mjai is 4-seat only, and Mortal itself does not read sanma. (RiichiEnv writes and
reads ``kita`` instead.) Games of more than 4 players, and :class:`~engine.events.ScoreChange`
events, have no mjai form and are refused with :class:`~engine.errors.UnsupportedLogError`.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from json.scanner import make_scanner
from typing import Any, Final, TypeAlias

from engine.errors import MalformedLogError, UnsupportedLogError
from engine.events import (
    AbortiveDraw,
    AbortKind,
    AddedKan,
    Chi,
    ClosedKan,
    Discard,
    DoraRevealed,
    Draw,
    Event,
    ExhaustiveDraw,
    FinalResult,
    Game,
    GameHeader,
    NagashiMangan,
    NorthExtraction,
    OpenKan,
    Player,
    Pon,
    RecordedWin,
    RiichiAccepted,
    RiichiDeclared,
    Round,
    ScoreChange,
    Source,
    Win,
)
from engine.formats.base import (
    MAX_JSON_INT_DIGITS,
    Format,
    ReaderWarnings,
    check_strings,
    cut_short,
    cut_short_message,
    json_loads,
    tenhou_log_started_at,
)
from engine.formats.mjlog import log_id_from_name
from engine.formats.riichi_only import refuse_variant
from engine.rules.presets import PRESETS
from engine.rules.tenhou import TenhouLobby, log_date, tenhou_game_rules
from engine.rules.yaku import DRAGON_YAKU, ROUND_WIND_YAKU, SEAT_WIND_YAKU, YAKU
from engine.tiles import DRAGONS, EAST, HAKU, YAOCHUU, Tile, is_yaochuu, tile_of

FORMAT_NAME: Final = "mjai"

# -- tiles ------------------------------------------------------------------------------------

#: Every mjai tile code and its tile (one shared object per tile: no per-tile allocation).
TILES: Final[dict[str, Tile]] = {
    **{f"{rank}{suit}": tile_of(suit, rank) for suit in "mps" for rank in range(1, 10)},
    **{f"5{suit}r": tile_of(suit, 5, red=True) for suit in "mps"},
    **{letter: tile_of("z", rank) for rank, letter in enumerate("ESWNPFC", start=1)},
}
#: The mjai code of every tile.
CODES: Final[dict[Tile, str]] = {tile: code for code, tile in TILES.items()}
#: mjai's code of an unknown tile (another player's hidden tile).
HIDDEN: Final = "?"
NORTH_TILE: Final = TILES["N"]
#: The event a 3-player North extraction is written as: the Mortal-family sanma engines
#: (libriichi3p) read ``nukidora`` {actor, pai "N"}. The reader also takes ``kita``, which
#: RiichiEnv and jansou write (and this writer wrote before).
NORTH_EVENT: Final = "nukidora"

WIND_LETTERS: Final = "ESWN"

# -- yaku ---------------------------------------------------------------------------------------

#: gimite's yaku names (lib/mjai/hora.rb) and the engine's. ``jikaze``, ``bakaze`` and
#: ``sangenpai`` are absent: they name no tile and are resolved from the hand (see
#: :func:`_resolve_yaku`). The names after ``chuurenpoton`` are not gimite's (it has no such yaku);
#: the writer uses them for the engine's yaku that gimite lacks, and the reader accepts them back.
YAKU_FROM_MJAI: Final[dict[str, str]] = {
    "menzenchin_tsumoho": "menzen_tsumo",
    "reach": "riichi",
    "ippatsu": "ippatsu",
    "chankan": "chankan",
    "rinshankaiho": "rinshan",
    "haiteiraoyue": "haitei",
    "hoteiraoyui": "houtei",
    "pinfu": "pinfu",
    "tanyaochu": "tanyao",
    "ipeko": "iipeikou",
    "double_reach": "double_riichi",
    "chitoitsu": "chiitoitsu",
    "honchantaiyao": "chanta",
    "ikkitsukan": "ittsu",
    "sanshokudojun": "sanshoku",
    "sanshokudoko": "sanshoku_doukou",
    "sankantsu": "sankantsu",
    "toitoiho": "toitoi",
    "sananko": "sanankou",
    "shosangen": "shousangen",
    "honroto": "honroutou",
    "ryanpeko": "ryanpeikou",
    "junchantaiyao": "junchan",
    "honiso": "honitsu",
    "chiniso": "chinitsu",
    "tenho": "tenhou",
    "chiho": "chiihou",
    "daisangen": "daisangen",
    "suanko": "suuankou",
    "tsuiso": "tsuuiisou",
    "ryuiso": "ryuuiisou",
    "chinroto": "chinroutou",
    "churenpoton": "chuuren",
    "kokushimuso": "kokushi",
    "daisushi": "daisuushii",
    "shosushi": "shousuushii",
    "sukantsu": "suukantsu",
    "dora": "dora",
    "uradora": "ura_dora",
    "akadora": "aka_dora",
    # Not gimite's: the engine's yaku that gimite does not know.
    "kokushimuso_jusanmen": "kokushi_13",
    "suanko_tanki": "suuankou_tanki",
    "junsei_churenpoton": "junsei_chuuren",
    "renho": "renhou",
    "renho_mangan": "renhou_mangan",
    "nukidora": "kita",
}
YAKU_TO_MJAI: Final[dict[str, str]] = {ours: theirs for theirs, ours in YAKU_FROM_MJAI.items()}
#: gimite's han of one yakuman (``YAKUMAN_FAN``); the engine counts 13.
MJAI_YAKUMAN_FAN: Final = 100
YAKUMAN_HAN: Final = 13

# -- draws --------------------------------------------------------------------------------------

#: Stands for nagashi mangan among the draw kinds below.
NAGASHI: Final = "nagashi"
#: Every ``ryukyoku`` reason the common tools write, and the draw it means (``None``: the
#: exhaustive draw). The spellings, from each tool's source:
#:
#: - gimite/mjai (``tenhou_archive.rb``, ``active_game.rb``) and akochan: ``fanpai``,
#:   ``kyushukyuhai``, ``sufonrenta``, ``suchareach``, ``sanchaho``, ``sukaikan``,
#:   ``nagashimangan`` (what :func:`write` writes);
#: - RiichiEnv (``riichienv-core/src/state``): ``exhaustive_draw``, ``kyushu_kyuhai``,
#:   ``sufuurenta``, ``suucha_riichi``, ``sanchaho``, ``suukansansen``, ``nagashimangan``;
#: - jansou (``jansou/io/paifu.py``): its own ``exhaustive``, Tenhou's mjlog ``type`` names
#:   (``yao9``, ``kaze4``, ``reach4``, ``ron3``, ``kan4``, ``nm``), the tenhou.net/6 labels it
#:   passes through (``流局``, ``九種九牌``, ...) and the other spellings it lists as the mjai
#:   ecosystem's (``nine_terminals``, ``sanchahou``, ``suufon_renda``, ``suukaikan``, ...);
#: - Mortal/libriichi and mjai.app write no reason (see :func:`_infer_draw`).
DRAW_REASONS: Final[dict[str, AbortKind | str | None]] = {
    **dict.fromkeys(
        ("fanpai", "exhaustive", "exhaustive_draw", "流局", "全員聴牌", "全員不聴"), None
    ),
    **dict.fromkeys(
        ("kyushukyuhai", "kyushu_kyuhai", "yao9", "nine_terminals", "九種九牌"),
        AbortKind.NINE_TERMINALS,
    ),
    **dict.fromkeys(
        ("sufonrenta", "sufuurenta", "suufon_renda", "kaze4", "four_winds", "四風連打"),
        AbortKind.FOUR_WINDS,
    ),
    **dict.fromkeys(
        ("suchareach", "suucha_riichi", "reach4", "four_riichi", "四家立直"),
        AbortKind.FOUR_RIICHI,
    ),
    **dict.fromkeys(
        ("sanchaho", "sanchahou", "ron3", "triple_ron", "三家和了", "三家和"),
        AbortKind.TRIPLE_RON,
    ),
    **dict.fromkeys(
        ("sukaikan", "suukansansen", "suukaikan", "kan4", "four_kans", "四槓散了", "四開槓"),
        AbortKind.FOUR_KANS,
    ),
    **dict.fromkeys(("nagashimangan", "nagashi_mangan", "nagashi", "nm", "流し満貫"), NAGASHI),
}
ABORT_REASONS: Final[dict[AbortKind, str]] = {
    AbortKind.NINE_TERMINALS: "kyushukyuhai",
    AbortKind.FOUR_WINDS: "sufonrenta",
    AbortKind.FOUR_RIICHI: "suchareach",
    AbortKind.TRIPLE_RON: "sanchaho",
    AbortKind.FOUR_KANS: "sukaikan",
}

#: Draws (live and replacement) in a round whose wall runs out: 136 tiles less the 14 of the
#: dead wall and 13 per hand for 4 players, 108 less 14 and 39 for 3. Each replacement draw
#: shortens the live wall by one, so the total stays the same.
LIVE_DRAWS: Final = {4: 70, 3: 55}
RIICHI_STICK: Final = 1000
#: Everyone's score at the start of a game whose first ``start_kyoku`` gives none.
STARTING_SCORE: Final = 25000


def _kind(value: object) -> str:
    """What a JSON value is, for error messages."""
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, int | float):
        return "a number"
    if isinstance(value, dict):
        return "an object"
    if isinstance(value, list):
        return "an array"
    return "a string" if isinstance(value, str) else "null"


# -- reading: typed fields ------------------------------------------------------------------------


class _Event:
    """One mjai event being read: typed access to its fields, errors naming its place."""

    __slots__ = ("obj", "type", "where")

    def __init__(self, obj: dict[str, Any], type_: str, where: str) -> None:
        self.obj = obj
        self.type = type_
        self.where = where

    def error(self, message: str) -> MalformedLogError:
        return MalformedLogError(f"{self.type}: {message}", self.where)

    def has(self, key: str) -> bool:
        return self.obj.get(key) is not None

    def raw(self, key: str) -> Any:
        value = self.obj.get(key)
        if value is None:
            raise self.error(f"missing {key!r}")
        return value

    def integer(self, key: str, low: int = 0, high: int | None = None) -> int:
        return self.check_int(self.raw(key), key, low, high)

    def check_int(self, value: Any, what: str, low: int | None, high: int | None) -> int:
        if isinstance(value, bool) or not isinstance(value, int):
            raise self.error(f"{what} must be an integer, got {_kind(value)}")
        if (low is not None and value < low) or (high is not None and value > high):
            raise self.error(f"{what} out of range: {value}")
        return value

    def seat(self, key: str, players: int) -> int:
        return self.integer(key, 0, players - 1)

    def string(self, key: str) -> str:
        value = self.raw(key)
        if not isinstance(value, str):
            raise self.error(f"{key} must be a string, got {_kind(value)}")
        return value

    def tile(self, key: str) -> Tile:
        return self.to_tile(self.raw(key), key)

    def to_tile(self, value: Any, what: str) -> Tile:
        tile = TILES.get(value) if isinstance(value, str) else None
        if tile is not None:
            return tile
        if value == HIDDEN:
            raise UnsupportedLogError(
                f"{self.where}: {self.type}: hidden tiles ('?') cannot be verified; this "
                "log shows only one player's view (a full-information log is needed)"
            )
        raise self.error(
            f"{what}: {value!r} is not an mjai tile (1m-9m, 1p-9p, 1s-9s, E S W N P F C, "
            "5mr 5pr 5sr)"
        )

    def array(self, key: str) -> list[Any]:
        return self.check_list(self.raw(key), key)

    def check_list(self, value: Any, what: str) -> list[Any]:
        if not isinstance(value, list):
            raise self.error(f"{what} must be an array, got {_kind(value)}")
        return value

    def tiles(self, key: str, count: int | None = None) -> tuple[Tile, ...]:
        return self.to_tiles(self.raw(key), key, count)

    def to_tiles(self, value: Any, what: str, count: int | None = None) -> tuple[Tile, ...]:
        items = self.check_list(value, what)
        if count is not None and len(items) != count:
            raise self.error(f"{what} must hold {count} tiles, got {len(items)}")
        try:
            return tuple([TILES[item] for item in items])  # (codes are strings: no other key fits)
        except (KeyError, TypeError):  # a bad or hidden tile, or an unhashable value
            return tuple([self.to_tile(item, what) for item in items])

    def per_seat(self, key: str, players: int) -> list[Any]:
        """A per-seat array: ``players`` entries, or 4 for 3 players (the empty seat dropped)."""
        items = self.array(key)
        if len(items) == 4 and players == 3:
            return items[:3]
        if len(items) != players:
            raise self.error(f"{key} must have {players} entries, got {len(items)}")
        return items

    def ints_per_seat(self, key: str, players: int) -> tuple[int, ...]:
        items = self.per_seat(key, players)
        return tuple([self.check_int(item, key, None, None) for item in items])


# -- reading: rounds ----------------------------------------------------------------------------


class _RoundReader:
    """One round being read: its events so far and what later events need to know."""

    def __init__(
        self,
        *,
        wind: int,
        number: int,
        dealer: int,
        honba: int,
        sticks: int,
        scores: tuple[int, ...],
        hands: tuple[tuple[Tile, ...], ...],
        dora: Tile,
    ) -> None:
        self.wind = wind
        self.number = number
        self.dealer = dealer
        self.honba = honba
        self.start_sticks = sticks
        self.start_scores = scores
        self.hands = hands
        self.dora = dora
        self.players = len(scores)
        self.events: list[Event] = []
        self.ura: tuple[Tile, ...] = ()
        #: Running scores and sticks (riichi sticks go down on acceptance, wins and draws move
        #: points), to turn a source's after-the-event ``scores`` into deltas.
        self.scores = list(scores)
        self.sticks = sticks
        #: Whether every round end so far had deltas, so that ``scores`` are known.
        self.scores_known = True
        self.draws = 0
        #: Per seat: the tile just drawn, while it is still in hand as the newest tile.
        self.just_drawn: list[Tile | None] = [None] * self.players
        #: Seats that called chi or pon and have not discarded since: their discard follows
        #: no draw.
        self.after_call: set[int] = set()
        #: The last tile put into play (a draw, discard or kan) and its seat: what a win takes.
        self.last_action: Event | None = None
        #: Seats whose next discard is a riichi discard.
        self.riichi_declared: set[int] = set()
        #: Seat -> index in ``events`` of its riichi discard, until it is accepted or ronned.
        self.riichi_discard_at: dict[int, int] = {}
        self.ended = False

    @property
    def name(self) -> str:
        return f"{WIND_LETTERS[self.wind]}{self.number}"

    def build(self) -> Round:
        return Round(
            wind=self.wind,
            number=self.number,
            dealer=self.dealer,
            honba=self.honba,
            sticks=self.start_sticks,
            scores=self.start_scores,
            hands=self.hands,
            dora_indicators=(self.dora,),
            events=tuple(self.events),
            ura_indicators=self.ura,
        )

    def play(self, ev: _Event, event: Event) -> None:
        """Append an action, refusing it once the round has ended."""
        if self.ended:
            raise ev.error(f"round {self.name} has already ended")
        self.events.append(event)

    def apply_deltas(self, ev: _Event, deltas: tuple[int, ...] | None) -> tuple[int, ...] | None:
        """Move the running scores by a round end's deltas, or find the deltas from the
        event's ``scores`` (after the event) when it has no ``deltas``."""
        if deltas is None and ev.has("scores"):
            after = ev.ints_per_seat("scores", self.players)
            if self.scores_known:
                deltas = tuple(new - old for new, old in zip(after, self.scores, strict=True))
        if deltas is None:
            self.scores_known = False
            return None
        self.scores = [score + delta for score, delta in zip(self.scores, deltas, strict=True)]
        return deltas

    def hand_counts(self, seat: int) -> tuple[list[int], set[int]]:
        """The concealed tile counts by kind of ``seat`` now, and the kinds of its melds."""
        counts = [0] * 34
        for tile in self.hands[seat]:
            counts[tile.kind] += 1
        melds: set[int] = set()
        for event in self.events:
            if getattr(event, "seat", None) != seat:
                continue
            if isinstance(event, Draw):
                counts[event.tile.kind] += 1
            elif isinstance(event, Discard | NorthExtraction | AddedKan):
                counts[event.tile.kind] -= 1
            elif isinstance(event, Chi | Pon | OpenKan):
                for tile in event.consumed:
                    counts[tile.kind] -= 1
                if not isinstance(event, Chi):
                    melds.add(event.tile.kind)
            elif isinstance(event, ClosedKan):
                for tile in event.tiles:
                    counts[tile.kind] -= 1
                melds.add(event.tiles[0].kind)
        return counts, melds


def _with_leftover_sticks(scores: Sequence[int], sticks: int) -> tuple[int, ...]:
    """The final scores: the riichi sticks left on the table go to the top player (Tenhou;
    ties: the first seat)."""
    final = list(scores)
    if sticks:
        top = max(range(len(final)), key=lambda seat: (final[seat], -seat))
        final[top] += RIICHI_STICK * sticks
    return tuple(final)


def _source_id(id_: object, uri: object) -> tuple[str | None, str | None]:
    """The game's source id and start time from ``start_game``: a Tenhou log id in ``uri``
    (gimite's converter writes ``http://tenhou.net/0/?log=<log id>&tw=0``), or ``id`` (a Tenhou
    log id, as :func:`write` writes, gives the start time too), else the ``uri`` itself."""
    log_id = log_id_from_name(uri) if isinstance(uri, str) else None
    if log_id is None and isinstance(id_, str) and log_id_from_name(id_) == id_:
        log_id = id_
    if log_id is not None:
        return log_id, tenhou_log_started_at(log_id)
    if isinstance(id_, str | int) and not isinstance(id_, bool):
        return str(id_), None
    return (uri if isinstance(uri, str) else None), None


def _empty_seat(hand: Any) -> bool:
    """Whether a 4th ``tehais`` entry is sanma's empty seat: no tiles, or 13 unknown ones
    (a Tenhou converter's filler)."""
    return hand in ([], None) or (isinstance(hand, list) and all(tile == HIDDEN for tile in hand))


#: gimite's names of the yakuman that Tenhou (and the engine) tell apart by the wait, which
#: gimite's ``tenhou_archive.rb`` maps to one name (Tenhou ids 40 and 41, 45 and 46, 47 and 48):
#: the plain yakuman, and the one the winning hand makes when the wait is the special one.
_WAIT_YAKUMAN: Final = {
    "suanko": ("suuankou", "suuankou_tanki"),
    "churenpoton": ("chuuren", "junsei_chuuren"),
    "kokushimuso": ("kokushi", "kokushi_13"),
}
_SUIT_OF: Final = {kind: kind // 9 for kind in range(27)}


def _special_wait(name: str, counts: Sequence[int], tile: Tile) -> bool:
    """Whether the winning hand (concealed ``counts``, the winning ``tile`` included) has the
    special wait of the yakuman ``name`` (the engine's plain name): a pair wait for four
    concealed triplets, the nine-sided wait for nine gates, the thirteen-sided wait for
    thirteen orphans."""
    before = list(counts)
    before[tile.kind] -= 1
    if name == "suuankou":
        return counts[tile.kind] == 2
    if name == "kokushi":
        return all(before[kind] == 1 for kind in YAOCHUU)
    suit = _SUIT_OF.get(tile.kind)
    return suit is not None and before[9 * suit : 9 * suit + 9] == [3, 1, 1, 1, 1, 1, 1, 1, 3]


def _resolve_yaku(
    ev: _Event,
    round_: _RoundReader,
    seat: int,
    tile: Tile,
    tsumo: bool,
    warnings: ReaderWarnings,
) -> tuple[tuple[str, int], ...]:
    """``yakus`` in the engine's names. gimite's names that name no tile or no wait are
    resolved from the winner's seat and hand: ``jikaze`` and ``bakaze`` are the seat wind's
    and round wind's yaku, ``sangenpai`` the dragons' (gimite's scorer writes one entry whose
    han counts the dragon triplets, its Tenhou converter one entry of 1 han per triplet: the
    entries' han together must count them), ``suanko``, ``churenpoton`` and ``kokushimuso`` the
    yakuman of the hand's wait, ``renho`` worth less than a yakuman Tenhou's mangan renhou."""
    counts, melds = round_.hand_counts(seat)
    if not tsumo:
        counts[tile.kind] += 1
    out: list[tuple[str, int]] = []
    dragon_entries: list[int] = []
    dragons_at = 0
    for index, entry in enumerate(ev.array("yakus")):
        what = f"yakus[{index}]"
        if not isinstance(entry, list) or len(entry) != 2 or not isinstance(entry[0], str):
            raise ev.error(f"{what} must be [name, han]")
        name = entry[0]
        han = ev.check_int(entry[1], what, 0, None)
        if han == 0:
            continue  # a zero entry (no dora) is no yaku
        if name == "jikaze":
            out.append((SEAT_WIND_YAKU[(seat - round_.dealer) % round_.players], han))
        elif name == "bakaze":
            out.append((ROUND_WIND_YAKU[round_.wind], han))
        elif name == "sangenpai":
            if not dragon_entries:
                dragons_at = len(out)
            dragon_entries.append(han)
        elif name == "renho" and han < MJAI_YAKUMAN_FAN:
            out.append(("renhou_mangan", han))  # Tenhou values renhou as a mangan
        else:
            ours = YAKU_FROM_MJAI.get(name)
            if ours is None:
                raise ev.error(f"unknown yaku {name!r} in {what}")
            if name in _WAIT_YAKUMAN:
                plain, special = _WAIT_YAKUMAN[name]
                ours = special if _special_wait(plain, counts, tile) else plain
            if YAKU[ours].yakuman and han >= MJAI_YAKUMAN_FAN:
                han = YAKUMAN_HAN * (han // MJAI_YAKUMAN_FAN)
            out.append((ours, han))
    if dragon_entries:
        dragons = [kind for kind in DRAGONS if counts[kind] >= 3 or kind in melds]
        if sum(dragon_entries) != len(dragons):
            raise ev.error(
                f"sangenpai {' + '.join(map(str, dragon_entries))} but the winner has "
                f"{len(dragons)} dragon sets"
            )
        names = [DRAGON_YAKU[kind - HAKU] for kind in dragons]
        out[dragons_at:dragons_at] = [(name, 1) for name in names]
        if len(dragon_entries) > 1:
            warnings.add(
                f"hora: {len(dragon_entries)} sangenpai entries, one per dragon triplet (as "
                "gimite/mjai's tenhou_archive.rb writes Tenhou's haku, hatsu and chun), where "
                "one entry counts them all; read as "
                f"{' and '.join(names)} from the winner's dragon triplets",
                ev.where,
            )
    return tuple(out)


# -- reading: games -----------------------------------------------------------------------------


class _GameReader:
    """One game being read, from ``start_game`` (or the first ``start_kyoku``) to its end."""

    def __init__(self, ev: _Event | None) -> None:
        self.names: list[str] = []
        self.source_id: str | None = None
        self.started_at: str | None = None
        self.warnings = ReaderWarnings()
        self.aka_flag: bool | None = None
        self.east_only = False
        #: The rule set named by our own extension of ``start_game`` (written by :func:`write`).
        self.ruleset: str | None = None
        self.rule_overrides: dict[str, object] = {}
        if ev is not None:
            self.start(ev)
        self.rounds: list[Round] = []
        self.round: _RoundReader | None = None
        #: The round read last (open or closed): its scores give the final ones.
        self.last_round: _RoundReader | None = None
        self.players: int | None = None
        self.saw_red = False
        self.final: FinalResult | None = None

    def start(self, ev: _Event) -> None:
        if ev.has("names"):
            names = ev.array("names")
            if not all(isinstance(name, str) for name in names):
                raise ev.error("names must be strings")
            self.names = names
        self.source_id, self.started_at = _source_id(ev.obj.get("id"), ev.obj.get("uri"))
        if ev.has("aka_flag"):
            flag = ev.raw("aka_flag")
            if not isinstance(flag, bool):
                raise ev.error(f"aka_flag must be true or false, got {_kind(flag)}")
            self.aka_flag = flag
        # akochan: 0 for an East-South game, 4 for East only (the first round index to play
        # counted back from the end of the South round).
        if ev.has("kyoku_first"):
            self.east_only = ev.integer("kyoku_first", 0, 7) == 4
        if ev.has("ruleset"):
            name = ev.raw("ruleset")
            if not isinstance(name, str):
                raise ev.error(f"ruleset must be a rule set's name, got {_kind(name)}")
            if not name:
                raise ev.error("ruleset is empty")
            self.ruleset = name
        if ev.has("rule_overrides"):
            overrides = ev.raw("rule_overrides")
            if not isinstance(overrides, dict):
                raise ev.error(f"rule_overrides must be an object, got {_kind(overrides)}")
            self.rule_overrides = overrides

    # -- structure --

    def close_round(self) -> None:
        if self.round is not None:
            self.rounds.append(self.round.build())
            self.round = None

    def current(self, ev: _Event) -> _RoundReader:
        if self.round is None:
            raise ev.error("event outside a round (no start_kyoku before it)")
        return self.round

    def finish(self, ev: _Event) -> None:
        """``end_game``: the final scores as given, or as the last round left them."""
        last = self.last_round
        self.close_round()
        players = self.players or 4
        known = last is not None and last.ended and last.scores_known
        if ev.has("scores"):
            scores = ev.ints_per_seat("scores", players)
            if known and last is not None and last.sticks and list(scores) == last.scores:
                # gimite's converter writes the last hand's scores (Tenhou's sc), before the
                # sticks left on the table go to first place (Tenhou's owari).
                self.warnings.add(
                    f"end_game: scores are the last hand's, without the {last.sticks} riichi "
                    "stick(s) left on the table (as gimite/mjai's tenhou_archive.rb writes "
                    "them); read with the sticks going to first place",
                    ev.where,
                )
                scores = _with_leftover_sticks(last.scores, last.sticks)
            self.final = FinalResult(scores=scores)
        elif known and last is not None:
            self.final = FinalResult(scores=_with_leftover_sticks(last.scores, last.sticks))

    def game(self) -> Game:
        self.close_round()
        players = self.players or (len(self.names) if 2 <= len(self.names) <= 4 else 4)
        names = [*self.names[:players], *[""] * (players - len(self.names))]
        if self.ruleset is not None:
            ruleset, overrides = self.ruleset, self.rule_overrides
        else:
            ruleset, overrides = self.inferred_ruleset(players)
        header = GameHeader(
            ruleset=ruleset,
            rule_overrides=overrides,
            players=tuple(Player(name) for name in names),
            source=Source(format=FORMAT_NAME, id=self.source_id),
            started_at=self.started_at,
        )
        return Game(
            header=header,
            rounds=tuple(self.rounds),
            recorded_final=self.final,
            warnings=self.warnings.lines(),
        )

    def inferred_ruleset(self, players: int) -> tuple[str, dict[str, object]]:
        """The rule set of a record that does not name one: Tenhou's, from the flags, as on
        the day of the Tenhou log it was converted from (its ``uri``) when it names one."""
        red = self.aka_flag if self.aka_flag is not None else self.saw_red
        lobby = TenhouLobby.from_flags(
            three_player=players == 3, east_only=bool(self.east_only), red=bool(red)
        )
        return tenhou_game_rules(lobby, log_date(self.source_id))

    # -- events --

    def start_kyoku(self, ev: _Event) -> None:
        self.close_round()
        raw_hands = ev.array("tehais")
        players = len(raw_hands)
        if (players == 4 and _empty_seat(raw_hands[3])) or (
            ev.has("scores") and len(ev.array("scores")) == 3
        ):
            players = 3  # sanma with the 4th seat left empty
        if players not in (3, 4):
            raise ev.error(f"tehais must hold 3 or 4 hands, got {len(raw_hands)}")
        if self.players is None:
            self.players = players
        elif players != self.players:
            raise ev.error(f"{players} players in a {self.players}-player game")
        bakaze = ev.string("bakaze")
        if len(bakaze) != 1 or bakaze not in WIND_LETTERS:
            raise ev.error(f"bakaze must be one of E, S, W, N; got {bakaze!r}")
        hands = tuple(
            ev.to_tiles(hand, f"tehais[{seat}]", 13)
            for seat, hand in enumerate(raw_hands[:players])
        )
        if not self.saw_red:
            self.saw_red = any(tile.red for hand in hands for tile in hand)
        self.round = self.last_round = _RoundReader(
            wind=WIND_LETTERS.index(bakaze),
            number=ev.integer("kyoku", 1, 4),
            dealer=ev.seat("oya", players),
            honba=ev.integer("honba"),
            sticks=self._start_sticks(ev),
            scores=self._start_scores(ev, players),
            hands=hands,
            dora=ev.tile("dora_marker"),
        )

    def _start_sticks(self, ev: _Event) -> int:
        """The round's ``kyotaku`` (RiichiEnv also spells it ``kyoutaku``); gimite's Tenhou
        converter leaves it out: then the sticks are those the last round left on the table,
        or none in the first round."""
        for key in ("kyotaku", "kyoutaku"):
            if ev.has(key):
                return ev.integer(key)
        last = self.last_round
        if last is None:
            return 0
        if not last.ended:
            raise ev.error("no kyotaku, and the last round did not end")
        return last.sticks

    def _start_scores(self, ev: _Event, players: int) -> tuple[int, ...]:
        """The round's ``scores``; mjai-manue leaves them out: then they are where the last
        round left them, or the usual 25000 each in the first round."""
        if ev.has("scores"):
            return ev.ints_per_seat("scores", players)
        last = self.last_round
        if last is None:
            return (STARTING_SCORE,) * players
        if not (last.ended and last.scores_known):
            raise ev.error("no scores, and the last round does not say how it changed them")
        return tuple(last.scores)

    def tsumo(self, ev: _Event) -> None:
        round_ = self.current(ev)
        seat = ev.seat("actor", round_.players)
        tile = ev.tile("pai")
        if tile.red:
            self.saw_red = True
        draw = Draw(seat, tile)
        round_.play(ev, draw)
        round_.draws += 1
        round_.just_drawn[seat] = tile
        round_.after_call.discard(seat)
        round_.last_action = draw

    def dahai(self, ev: _Event) -> None:
        round_ = self.current(ev)
        seat = ev.seat("actor", round_.players)
        tile = ev.tile("pai")
        drawn = round_.just_drawn[seat]
        if ev.has("tsumogiri"):
            tsumogiri = ev.raw("tsumogiri")
            if not isinstance(tsumogiri, bool):
                raise ev.error(f"tsumogiri must be true or false, got {_kind(tsumogiri)}")
            if tsumogiri and drawn != tile:
                if seat not in round_.after_call:
                    raise ev.error(f"tsumogiri of {CODES[tile]} but the tile just drawn is not one")
                # gimite's converter compares the discard with the last tile it remembers
                # drawing; after a call nothing was drawn, so the flag cannot hold.
                self.warnings.add(
                    "dahai: tsumogiri true on the discard right after a chi or pon, when no "
                    "tile was drawn (gimite/mjai's tenhou_archive.rb compares it with an "
                    "earlier draw); read as not tsumogiri",
                    ev.where,
                )
                tsumogiri = False
        else:
            tsumogiri = drawn == tile
        discard = Discard(seat, tile, tsumogiri)
        round_.play(ev, discard)
        round_.just_drawn[seat] = None
        round_.after_call.discard(seat)
        round_.last_action = discard
        if seat in round_.riichi_declared:
            round_.riichi_declared.discard(seat)
            round_.riichi_discard_at[seat] = len(round_.events) - 1

    def _call(self, ev: _Event, cls: type[Chi | Pon | OpenKan], consumed: int) -> None:
        round_ = self.current(ev)
        seat = ev.seat("actor", round_.players)
        target = ev.seat("target", round_.players)
        if target == seat:
            raise ev.error("a call must take another player's discard")
        round_.play(ev, cls(seat, target, ev.tile("pai"), ev.tiles("consumed", consumed)))
        round_.just_drawn[seat] = None
        if cls is not OpenKan:  # an open kan is followed by its replacement draw
            round_.after_call.add(seat)

    def chi(self, ev: _Event) -> None:
        self._call(ev, Chi, 2)

    def pon(self, ev: _Event) -> None:
        self._call(ev, Pon, 2)

    def daiminkan(self, ev: _Event) -> None:
        self._call(ev, OpenKan, 3)

    def kakan(self, ev: _Event) -> None:
        round_ = self.current(ev)
        seat = ev.seat("actor", round_.players)
        kan = AddedKan(seat, ev.tile("pai"))
        round_.play(ev, kan)
        round_.just_drawn[seat] = None
        round_.last_action = kan

    def ankan(self, ev: _Event) -> None:
        round_ = self.current(ev)
        seat = ev.seat("actor", round_.players)
        kan = ClosedKan(seat, ev.tiles("consumed", 4))
        round_.play(ev, kan)
        round_.just_drawn[seat] = None
        round_.last_action = kan

    def kita(self, ev: _Event) -> None:
        round_ = self.current(ev)
        seat = ev.seat("actor", round_.players)
        tile = ev.tile("pai") if ev.has("pai") else NORTH_TILE
        if tile != NORTH_TILE:
            raise ev.error(f"only North can be set aside, got {CODES[tile]}")
        north = NorthExtraction(seat, tile)
        round_.play(ev, north)
        round_.just_drawn[seat] = None
        round_.last_action = north  # a player waiting on North may ron it

    def dora(self, ev: _Event) -> None:
        round_ = self.current(ev)
        tile = ev.tile("dora_marker")
        if tile.red:
            self.saw_red = True
        round_.play(ev, DoraRevealed(tile))

    def reach(self, ev: _Event) -> None:
        round_ = self.current(ev)
        seat = ev.seat("actor", round_.players)
        round_.play(ev, RiichiDeclared(seat))
        round_.riichi_declared.add(seat)

    def reach_accepted(self, ev: _Event) -> None:
        # Mortal adds deltas and scores here: ignored, the stick follows from the event.
        round_ = self.current(ev)
        seat = ev.seat("actor", round_.players)
        at = round_.riichi_discard_at.pop(seat, None)
        if at is None:
            raise ev.error(f"seat {seat} has no riichi discard to accept")
        if round_.ended:
            raise ev.error(f"round {round_.name} has already ended")
        # Canonical order puts the acceptance right after the riichi discard, wherever the
        # source put it (some put it after the call on that discard).
        round_.events.insert(at + 1, RiichiAccepted(seat))
        for other, index in round_.riichi_discard_at.items():
            if index > at:
                round_.riichi_discard_at[other] = index + 1
        round_.scores[seat] -= RIICHI_STICK
        round_.sticks += 1

    def hora(self, ev: _Event) -> None:
        round_ = self.current(ev)
        if round_.ended and not (round_.events and isinstance(round_.events[-1], Win)):
            raise ev.error(f"round {round_.name} has already ended")
        seat = ev.seat("actor", round_.players)
        target = ev.seat("target", round_.players)
        tile = self._winning_tile(ev, round_, seat, target)
        if ev.has("pai") and ev.tile("pai") != tile:
            raise ev.error(f"pai {ev.raw('pai')} is not the winning tile {CODES[tile]}")
        round_.riichi_discard_at.pop(target, None)  # ronned: the stick never goes down
        recorded = self._recorded_win(ev, round_, seat, target, tile)
        round_.events.append(Win(seat, target, tile, recorded))
        round_.ended = True
        round_.sticks = 0

    def _winning_tile(self, ev: _Event, round_: _RoundReader, seat: int, target: int) -> Tile:
        """The tile a win takes: the winner's draw (tsumo), else the target's discard or the
        tile of its kan (robbing a kan)."""
        last = round_.last_action
        if seat == target:
            if isinstance(last, Draw) and last.seat == seat:
                return last.tile
            raise ev.error(f"tsumo by seat {seat}, who has not just drawn")
        if isinstance(last, Discard | AddedKan | NorthExtraction) and last.seat == target:
            return last.tile
        if isinstance(last, ClosedKan) and last.seat == target:  # thirteen orphans robs it
            wanted = ev.tile("pai") if ev.has("pai") else last.tiles[0]
            return wanted if wanted in last.tiles else last.tiles[0]
        raise ev.error(
            f"ron on seat {target}, who has not just discarded, added a kan or set a North aside"
        )

    def _recorded_win(
        self, ev: _Event, round_: _RoundReader, seat: int, target: int, tile: Tile
    ) -> RecordedWin | None:
        """What the ``hora`` claims (``None`` when it claims nothing); moves the running
        scores and keeps the ura indicators."""
        players = round_.players
        ura_key = next(
            (key for key in ("ura_markers", "uradora_markers", "uradora_marker") if ev.has(key)),
            None,
        )
        if ura_key is not None:
            ura = ev.tiles(ura_key)
            if len(ura) > len(round_.ura):  # each riichi winner shows the same indicators
                round_.ura = ura
        deltas = round_.apply_deltas(
            ev, ev.ints_per_seat("deltas", players) if ev.has("deltas") else None
        )
        han_key = "fan" if ev.has("fan") else "han"
        han = ev.integer(han_key) if ev.has(han_key) else None
        if han is not None and han >= MJAI_YAKUMAN_FAN:
            han = YAKUMAN_HAN * (han // MJAI_YAKUMAN_FAN)
        fu = ev.integer("fu") if ev.has("fu") else None
        if fu is not None and fu % 10 and fu != 25:
            fu += 10 - fu % 10  # akochan reports the fu before rounding
        hand = None
        if ev.has("hora_tehais"):
            shown = ev.array("hora_tehais")
            if HIDDEN not in shown:
                hand = ev.to_tiles(shown, "hora_tehais")
                if len(hand) % 3 == 1:  # gimite leaves the winning tile out
                    hand = (*hand, tile)
        yaku = None
        if ev.has("yakus"):
            yaku = _resolve_yaku(ev, round_, seat, tile, seat == target, self.warnings)
            han = self._yakuman_han(ev, han, yaku)
        recorded = RecordedWin(
            han=han,
            fu=fu,
            yaku=yaku,
            points=ev.integer("hora_points") if ev.has("hora_points") else None,
            deltas=deltas,
            liable=ev.seat("pao", players) if ev.has("pao") else None,
            hand=hand,
        )
        return None if recorded == RecordedWin() else recorded

    def _yakuman_han(
        self, ev: _Event, han: int | None, yaku: tuple[tuple[str, int], ...]
    ) -> int | None:
        """The han of a win whose ``fan`` counts one yakuman while its ``yakus`` hold several:
        gimite's Tenhou converter writes ``fan`` 100 for any yakuman hand, with one 100-fan
        entry per Tenhou yakuman, which Tenhou adds up. Any other ``han`` is kept."""
        total = sum(h for name, h in yaku if YAKU[name].yakuman)
        if han != YAKUMAN_HAN or total <= YAKUMAN_HAN or total != sum(h for _, h in yaku):
            return han
        self.warnings.add(
            f"hora: fan {MJAI_YAKUMAN_FAN} (one yakuman) with {total // YAKUMAN_HAN} yakuman "
            "in yakus (gimite/mjai's tenhou_archive.rb writes 100 for any yakuman hand); read "
            f"as {total} han, the yakus' sum",
            ev.where,
        )
        return total

    def ryukyoku(self, ev: _Event) -> None:
        round_ = self.current(ev)
        if round_.ended:
            raise ev.error(f"round {round_.name} has already ended")
        players = round_.players
        reason = ev.string("reason") if ev.has("reason") else None
        if reason is None:
            kind: AbortKind | str | None = _infer_draw(ev, round_)
        elif reason in DRAW_REASONS:
            kind = DRAW_REASONS[reason]
        else:
            raise ev.error(f"unknown reason {reason!r}; known: {', '.join(DRAW_REASONS)}")
        deltas = round_.apply_deltas(
            ev, ev.ints_per_seat("deltas", players) if ev.has("deltas") else None
        )
        end: Event
        if kind is None:
            tenpai = None
            if ev.has("tenpais"):
                flags = ev.per_seat("tenpais", players)
                if not all(isinstance(flag, bool) for flag in flags):
                    raise ev.error("tenpais must be true or false per seat")
                tenpai = tuple(seat for seat, flag in enumerate(flags) if flag)
            end = ExhaustiveDraw(recorded_tenpai=tenpai, recorded_deltas=deltas)
        elif kind == NAGASHI:
            end = NagashiMangan(seats=_nagashi_seats(ev, round_), recorded_deltas=deltas)
        else:
            assert isinstance(kind, AbortKind)
            end = AbortiveDraw(kind, _abort_seat(ev, round_, kind), deltas)
        round_.events.append(end)
        round_.ended = True


def _abort_seat(ev: _Event, round_: _RoundReader, kind: AbortKind) -> int | None:
    """Who declared nine terminals (``actor``, or the seat that just drew), or who discarded
    the tile three players ron."""
    if ev.has("actor"):
        return ev.seat("actor", round_.players)
    last = round_.last_action
    if kind is AbortKind.NINE_TERMINALS and isinstance(last, Draw):
        return last.seat
    if kind is AbortKind.TRIPLE_RON and isinstance(last, Discard):
        return last.seat
    return None


def _nagashi_seats(ev: _Event, round_: _RoundReader) -> tuple[int, ...]:
    """The seats that discarded only terminals and honours and had none of them called."""
    eligible = set(range(round_.players))
    for event in round_.events:
        if isinstance(event, Discard) and not is_yaochuu(event.tile.kind):
            eligible.discard(event.seat)
        elif isinstance(event, Chi | Pon | OpenKan):
            eligible.discard(event.from_seat)
    if not eligible:
        raise ev.error("nagashi mangan, but every seat discarded a simple or was called from")
    return tuple(sorted(eligible))


def _infer_draw(ev: _Event, round_: _RoundReader) -> AbortKind | None:
    """Which draw a ``ryukyoku`` without ``reason`` is: exhaustive when the wall is used up,
    else the abortive draw the events fit (``None`` = exhaustive)."""
    if round_.draws >= LIVE_DRAWS[round_.players]:
        return None
    events = round_.events
    calls = [e for e in events if isinstance(e, Chi | Pon | OpenKan | ClosedKan | AddedKan)]
    discards = [e for e in events if isinstance(e, Discard)]
    last = round_.last_action
    if isinstance(last, Draw) and not calls and all(d.seat != last.seat for d in discards):
        kinds = {tile.kind for tile in round_.hands[last.seat]} | {last.tile.kind}
        if sum(1 for kind in kinds if is_yaochuu(kind)) >= 9:
            return AbortKind.NINE_TERMINALS
    if (
        len(discards) == round_.players == 4
        and not calls
        and len({d.tile.kind for d in discards}) == 1
        and EAST <= discards[0].tile.kind < EAST + 4
    ):
        return AbortKind.FOUR_WINDS
    if len({e.seat for e in events if isinstance(e, RiichiDeclared)}) == 4:
        return AbortKind.FOUR_RIICHI
    if sum(1 for e in calls if not isinstance(e, Chi | Pon)) >= 4:
        return AbortKind.FOUR_KANS
    raise ev.error(
        f"no reason given, the wall is not exhausted ({round_.draws} of "
        f"{LIVE_DRAWS[round_.players]} draws) and no abortive draw fits; give a reason "
        "(fanpai, kyushukyuhai, sufonrenta, suchareach, sanchaho, sukaikan, nagashimangan)"
    )


#: The handler of each event type. ``end_kyoku`` closes the round (it may also be left out).
_HANDLERS: Final[dict[str, Callable[[_GameReader, _Event], None]]] = {
    "start_kyoku": _GameReader.start_kyoku,
    "tsumo": _GameReader.tsumo,
    "dahai": _GameReader.dahai,
    "chi": _GameReader.chi,
    "pon": _GameReader.pon,
    "daiminkan": _GameReader.daiminkan,
    "kan": _GameReader.daiminkan,  # RiichiEnv's name
    "kakan": _GameReader.kakan,
    "ankan": _GameReader.ankan,
    "kita": _GameReader.kita,
    "nukidora": _GameReader.kita,
    "dora": _GameReader.dora,
    "reach": _GameReader.reach,
    "reach_accepted": _GameReader.reach_accepted,
    "hora": _GameReader.hora,
    "ryukyoku": _GameReader.ryukyoku,
    "end_kyoku": lambda game, ev: game.close_round(),
}
#: gimite's mjai server logs this, and stops the game, when a player's response is invalid.
SERVER_ERROR: Final = "error"
_KNOWN_TYPES: Final = ("start_game", "end_game", *_HANDLERS, SERVER_ERROR)

# -- reading: the fast path -----------------------------------------------------------------------
#
# Nine events in ten are draws and discards, and a game's thousands of them are a few hundred
# distinct lines of text (4 seats, 37 tiles, the tsumogiri flag). So a ``tsumo`` or ``dahai``
# line is parsed once and remembered, by its text, as a move (:data:`_Move`): its seat, its tile
# and the shared events it makes, which are frozen values (as the mjlog reader shares its
# Draw and Discard events). A move is played directly (:func:`_play`) when everything the
# handlers would check holds; anything else (a round that has ended, a seat the game does not
# have, a tsumogiri flag that does not fit) goes to the careful path, the handlers above, whose
# messages are the reader's words.

#: A draw or discard as its line says it: (is a draw, seat, tile, event, tsumogiri event, the
#: line's ``tsumogiri`` or ``None``). A draw's two events are its Draw; a discard's are its
#: Discard not tsumogiri and tsumogiri, of which the game picks (a discard without the flag is
#: tsumogiri when its tile is the one just drawn), and the seat must be one of the game's:
#: :func:`_play` decides.
_Move: TypeAlias = tuple[bool, int, Tile, Event, Event, bool | None]

#: Moves by their field values (type, seat, tile code, tsumogiri flag): at most 2 x 4 x 37 x 3.
_MOVES: Final[dict[tuple[str, int, str, bool | None], _Move]] = {}
#: Moves by the text of their line, for lines of at most :data:`_LINE_LIMIT` characters; cleared
#: when it holds :data:`_LINES_HELD` (lines with fields that change, such as a bot's notes,
#: would otherwise fill it).
_LINES: Final[dict[str, _Move]] = {}
_LINE_LIMIT: Final = 160
_LINES_HELD: Final = 4096


def _move_of(obj: dict[str, Any]) -> _Move | None:
    """The move of a ``tsumo`` or ``dahai`` event whose fields are all well formed, else
    ``None`` (another event, or one the careful path must read and word)."""
    type_ = obj.get("type")
    if type_ != "tsumo" and type_ != "dahai":
        return None
    seat = obj.get("actor")
    code = obj.get("pai")
    if type(seat) is not int or not 0 <= seat < 4 or type(code) is not str:
        return None
    tile = TILES.get(code)
    if tile is None:
        return None
    flag = obj.get("tsumogiri") if type_ == "dahai" else None
    if flag is not None and type(flag) is not bool:
        return None
    key = (type_, seat, code, flag)
    move = _MOVES.get(key)
    if move is None:
        if type_ == "tsumo":
            draw = Draw(seat, tile)
            move = (True, seat, tile, draw, draw, None)
        else:
            move = (False, seat, tile, Discard(seat, tile, False), Discard(seat, tile, True), flag)
        _MOVES[key] = move
    return move


def _play(game: _GameReader | None, move: _Move) -> bool:
    """Play a move as the ``tsumo`` or ``dahai`` handler would, when it is plainly legal to
    read: ``False`` (nothing done) when the careful path must read it."""
    if game is None:
        return False
    round_ = game.round
    if round_ is None or round_.ended:
        return False
    is_draw, seat, tile, event, tsumogiri_event, flag = move
    if seat >= round_.players:
        return False
    if is_draw:
        if tile.red:
            game.saw_red = True
        round_.events.append(event)
        round_.draws += 1
        round_.just_drawn[seat] = tile
        round_.after_call.discard(seat)
        round_.last_action = event
        return True
    # Tiles are shared objects (TILES): the tile just drawn is this one if and only if it is it.
    drawn = round_.just_drawn[seat]
    if flag is None:
        tsumogiri = drawn is tile
    elif flag and drawn is not tile:
        return False  # an error, or a converter's quirk with its warning: the careful path's
    else:
        tsumogiri = flag
    if tsumogiri:
        event = tsumogiri_event
    events = round_.events
    events.append(event)
    round_.just_drawn[seat] = None
    round_.after_call.discard(seat)
    round_.last_action = event
    if seat in round_.riichi_declared:
        round_.riichi_declared.discard(seat)
        round_.riichi_discard_at[seat] = len(events) - 1
    return True


# -- reading: lines -------------------------------------------------------------------------------

#: The JSON scanner of lines that cannot hold a number of more than :data:`MAX_JSON_INT_DIGITS`
#: digits (shorter lines), without ``parse_int``: one call into C per line.
_SCAN: Final[Callable[[str, int], tuple[Any, int]]] = make_scanner(
    json.JSONDecoder()  # type: ignore[arg-type]  # (typeshed: make_scanner takes a scanner)
)
_JSON_SPACE: Final = " \t\n\r"


def _parse(line: str, number: int, lines: list[str]) -> Any:
    """The JSON value of line ``number``, as ``json.loads(line, parse_int=json_int)`` reads it
    (:func:`_parse_carefully`, whose errors are the reader's, for anything unusual).

    :raises MalformedLogError: bad JSON, or a string no record may hold.
    """
    if len(line) <= MAX_JSON_INT_DIGITS:
        try:
            value, end = _SCAN(line, 0)
        except (StopIteration, ValueError, RecursionError):
            pass  # (leading white space, bad JSON: the careful parse says which)
        else:
            if end == len(line) or not line[end:].strip(_JSON_SPACE):
                if "\\u" in line:  # only an escape can make a NUL or a lone surrogate
                    check_strings(value, f"line {number}")
                return value
    return _parse_carefully(line, number, lines)


def _parse_carefully(line: str, number: int, lines: list[str]) -> Any:
    """:func:`_parse` by ``json.loads``, every failure worded."""
    try:
        value = json_loads(line)
    except json.JSONDecodeError as error:
        detail = f"not valid JSON: {error.msg}, column {error.colno}"
        last = max((at for at, text in enumerate(lines, start=1) if text.strip()), default=0)
        if number == last and cut_short(error):  # the file stops inside its last event
            size = f"{sum(map(len, lines)) + len(lines) - 1:,} characters"
            raise MalformedLogError(
                cut_short_message("last event", size, detail), f"line {number}"
            ) from None
        raise MalformedLogError(
            f"not valid JSON ({error.msg} at column {error.colno})", f"line {number}"
        ) from None
    except (ValueError, RecursionError) as error:  # a 5000-digit number, deep nesting
        raise MalformedLogError(f"unreadable JSON ({error})", f"line {number}") from None
    if "\\u" in line:  # only an escape can make a NUL or a lone surrogate
        check_strings(value, f"line {number}")
    return value


def _event(games: list[Game], game: _GameReader | None, obj: Any, where: str) -> _GameReader | None:
    """Read one event (the careful path): the game being read after it (``None`` between
    games); a game that ends goes to ``games``."""
    if not isinstance(obj, dict):
        raise MalformedLogError(f"an event must be a JSON object, got {_kind(obj)}", where)
    type_ = obj.get("type")
    if not isinstance(type_, str):
        raise MalformedLogError("event without a string 'type'", where)
    ev = _Event(obj, type_, where)
    if type_ == SERVER_ERROR:
        if game is not None:
            # The server stopped the game: the record ends here, the game unfinished.
            message = obj.get("message")
            game.warnings.add(
                "error: the mjai server stopped the game here"
                + (f" ({message})" if isinstance(message, str) and message else "")
                + "; the game is read up to this point, as one that does not end",
                where,
            )
            games.append(game.game())
        return None
    if type_ == "start_game":
        if game is not None:
            games.append(game.game())  # the previous game stopped before its end
        return _GameReader(ev)
    handler = _HANDLERS.get(type_)
    if handler is None and type_ != "end_game":
        raise ev.error(f"unknown event type; known: {', '.join(_KNOWN_TYPES)}")
    if game is None:
        if type_ != "start_kyoku":
            raise ev.error("event before start_game or start_kyoku")
        game = _GameReader(None)  # a fragment that starts with its first round
    if type_ == "end_game":
        game.finish(ev)
        games.append(game.game())
        return None
    assert handler is not None
    handler(game, ev)
    return game


def read(data: bytes) -> list[Game]:
    """Every game in mjai JSON lines.

    :raises MalformedLogError: bad JSON, an unknown event type, a missing or bad field, an
        event that does not fit where it is; the message names the line.
    :raises UnsupportedLogError: hidden tiles (``?``) in anything the replay needs.
    """
    return _read(data, fast=True)


def _read(data: bytes, *, fast: bool) -> list[Game]:
    """:func:`read`; without ``fast``, every event by the careful path alone (the reference
    the fast path is tested against)."""
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        raise MalformedLogError(f"not UTF-8 text ({error.reason} at byte {error.start})") from None
    games: list[Game] = []
    game: _GameReader | None = None
    # Split on newlines only: str.splitlines() also splits on U+2028 and others, which JSON
    # strings (player names) may hold.
    lines = text.split("\n")
    known = _LINES if fast else {}
    number = 0
    for line in lines:
        number += 1
        move = known.get(line)
        if move is not None:
            if not _play(game, move):
                game = _event(games, game, _parse(line, number, lines), f"line {number}")
            continue
        if not line.strip():
            continue
        value = _parse(line, number, lines)
        if isinstance(value, list):  # a batch of events
            for index, item in enumerate(value, start=1):
                move = _move_of(item) if fast and isinstance(item, dict) else None
                if move is None or not _play(game, move):
                    game = _event(games, game, item, f"line {number}, event {index}")
            continue
        move = _move_of(value) if fast and isinstance(value, dict) else None
        if move is None:
            game = _event(games, game, value, f"line {number}")
            continue
        if len(line) <= _LINE_LIMIT:
            if len(known) >= _LINES_HELD:
                known.clear()
            known[line] = move
        if not _play(game, move):
            game = _event(games, game, value, f"line {number}")
    if game is not None:
        games.append(game.game())
    if not games:
        raise MalformedLogError("no mjai events in the file")
    return games


# -- writing --------------------------------------------------------------------------------------


def _code(tile: Tile) -> str:
    code = CODES.get(tile)
    if code is None:
        raise UnsupportedLogError(f"tile {tile} has no mjai code (mjai knows the standard 34)")
    return code


def _codes(tiles: Sequence[Tile]) -> list[str]:
    return [_code(tile) for tile in tiles]


class _RoundWriter:
    """Writes one round's events, tracking pons so that an added kan can name its pon."""

    def __init__(self, round_: Round, where: str) -> None:
        self.round = round_
        self.where = where
        self.pons: dict[tuple[int, int], Pon] = {}
        riichi = {e.seat for e in round_.events if isinstance(e, RiichiDeclared)}
        winners = [e.seat for e in round_.events if isinstance(e, Win)]
        # The ura indicators go on the riichi winners' hora (on the first hora if no winner
        # was in riichi, so that they are not lost).
        self.ura_for = {seat for seat in winners if seat in riichi} or set(winners[:1])

    def start(self) -> dict[str, Any]:
        round_ = self.round
        if not round_.dora_indicators:
            raise MalformedLogError("a round needs a dora indicator", self.where)
        return {
            "type": "start_kyoku",
            "bakaze": WIND_LETTERS[round_.wind],
            "dora_marker": _code(round_.dora_indicators[0]),
            "kyoku": round_.number,
            "honba": round_.honba,
            "kyotaku": round_.sticks,
            "oya": round_.dealer,
            "scores": list(round_.scores),
            "tehais": [_codes(hand) for hand in round_.hands],
        }

    def events(self) -> list[dict[str, Any]]:
        out = [self.start()]
        # A round that opens with several indicators: the others as if revealed at once.
        extra = self.round.dora_indicators[1:]
        out.extend({"type": "dora", "dora_marker": _code(tile)} for tile in extra)
        for index, event in enumerate(self.round.events):
            out.append(self.event(event, f"{self.where}, event {index}"))
        out.append({"type": "end_kyoku"})
        return out

    def event(self, event: Event, where: str) -> dict[str, Any]:
        if isinstance(event, Draw):
            return {"type": "tsumo", "actor": event.seat, "pai": _code(event.tile)}
        if isinstance(event, Discard):
            return {
                "type": "dahai",
                "actor": event.seat,
                "pai": _code(event.tile),
                "tsumogiri": event.tsumogiri,
            }
        if isinstance(event, Chi | Pon | OpenKan):
            if isinstance(event, Pon):
                self.pons[event.seat, event.tile.kind] = event
            name = {Chi: "chi", Pon: "pon", OpenKan: "daiminkan"}[type(event)]
            return {
                "type": name,
                "actor": event.seat,
                "target": event.from_seat,
                "pai": _code(event.tile),
                "consumed": _codes(event.consumed),
            }
        if isinstance(event, AddedKan):
            pon = self.pons.get((event.seat, event.tile.kind))
            if pon is None:
                raise MalformedLogError(f"added kan of {event.tile} without a pon", where)
            return {
                "type": "kakan",
                "actor": event.seat,
                "pai": _code(event.tile),
                "consumed": _codes((pon.tile, *pon.consumed)),
            }
        if isinstance(event, ClosedKan):
            return {"type": "ankan", "actor": event.seat, "consumed": _codes(event.tiles)}
        if isinstance(event, NorthExtraction):
            return {"type": NORTH_EVENT, "actor": event.seat, "pai": _code(event.tile)}
        if isinstance(event, RiichiDeclared):
            return {"type": "reach", "actor": event.seat}
        if isinstance(event, RiichiAccepted):
            return {"type": "reach_accepted", "actor": event.seat}
        if isinstance(event, DoraRevealed):
            return {"type": "dora", "dora_marker": _code(event.indicator)}
        if isinstance(event, Win):
            return self.win(event)
        if isinstance(event, ExhaustiveDraw):
            out: dict[str, Any] = {"type": "ryukyoku", "reason": "fanpai"}
            if event.recorded_deltas is not None:
                out["deltas"] = list(event.recorded_deltas)
            if event.recorded_tenpai is not None:
                tenpai = set(event.recorded_tenpai)
                out["tenpais"] = [seat in tenpai for seat in range(len(self.round.scores))]
            return out
        if isinstance(event, AbortiveDraw):
            out = {"type": "ryukyoku", "reason": ABORT_REASONS[event.kind]}
            if event.seat is not None and event.kind is AbortKind.NINE_TERMINALS:
                out["actor"] = event.seat
            if event.recorded_deltas is not None:
                out["deltas"] = list(event.recorded_deltas)
            return out
        if isinstance(event, NagashiMangan):
            out = {"type": "ryukyoku", "reason": "nagashimangan"}
            if event.recorded_deltas is not None:
                out["deltas"] = list(event.recorded_deltas)
            return out
        assert isinstance(event, ScoreChange)
        raise UnsupportedLogError(
            f"{where}: a score change ({event.reason}) has no mjai event; it cannot be written"
        )

    def win(self, event: Win) -> dict[str, Any]:
        out: dict[str, Any] = {
            "type": "hora",
            "actor": event.seat,
            "target": event.from_seat,
            "pai": _code(event.tile),
        }
        recorded = event.recorded or RecordedWin()
        if recorded.deltas is not None:
            out["deltas"] = list(recorded.deltas)
        out["ura_markers"] = _codes(self.round.ura_indicators) if event.seat in self.ura_for else []
        if recorded.hand is not None:
            hand = list(recorded.hand)
            if len(hand) % 3 == 2 and event.tile in hand:  # gimite leaves the winning tile out
                del hand[len(hand) - 1 - hand[::-1].index(event.tile)]
            out["hora_tehais"] = _codes(hand)
        if recorded.yaku is not None:
            out["yakus"] = _yaku_to_mjai(recorded.yaku)
        if recorded.fu is not None:
            out["fu"] = recorded.fu
        if recorded.han is not None:
            yakuman = recorded.yaku is not None and any(
                name in YAKU and YAKU[name].yakuman for name, _ in recorded.yaku
            )
            multiple = recorded.han // YAKUMAN_HAN
            out["fan"] = MJAI_YAKUMAN_FAN * multiple if yakuman and multiple else recorded.han
        if recorded.points is not None:
            out["hora_points"] = recorded.points
        if recorded.liable is not None:
            out["pao"] = recorded.liable
        return out


def _yaku_to_mjai(yaku: Sequence[tuple[str, int]]) -> list[list[Any]]:
    """The engine's yaku in gimite's names: one ``sangenpai`` for all dragons (where the first
    one stands), ``jikaze``/``bakaze`` for the winds, 100 fan per yakuman."""
    out: list[list[Any]] = []
    dragons: list[Any] | None = None
    for name, han in yaku:
        if name in DRAGON_YAKU:
            if dragons is None:
                dragons = ["sangenpai", 0]
                out.append(dragons)
            dragons[1] += han
        elif name in SEAT_WIND_YAKU:
            out.append(["jikaze", han])
        elif name in ROUND_WIND_YAKU:
            out.append(["bakaze", han])
        else:
            theirs = YAKU_TO_MJAI.get(name)
            if theirs is None:
                raise MalformedLogError(f"yaku {name!r} has no mjai name")
            if YAKU.get(name) is not None and YAKU[name].yakuman:
                han = MJAI_YAKUMAN_FAN * max(1, han // YAKUMAN_HAN)
            out.append([theirs, han])
    return out


def _ruleset_flags(header: GameHeader) -> tuple[bool, bool]:
    """(red fives, East only) of the game's rule set, overrides included. A rule set that is
    no preset is judged by its name (``-nored``, ``-east``)."""
    preset = PRESETS.get(header.ruleset)
    red = any(preset.red_fives) if preset else "nored" not in header.ruleset
    east = preset.length == "east" if preset else "-east" in header.ruleset
    overrides = header.rule_overrides
    if isinstance(overrides.get("red_fives"), list | tuple):
        red = any(overrides["red_fives"])  # type: ignore[arg-type]
    if "length" in overrides:
        east = overrides["length"] == "east"
    return red, east


def game_events(game: Game, index: int = 0) -> list[dict[str, Any]]:
    """The mjai events of one game.

    :raises UnsupportedLogError: a game that is not riichi mahjong, more than 4 players, or an
        event mjai cannot express.
    """
    refuse_variant(game, "mjai", f"mjai (game {index})")
    players = game.players
    if players not in (3, 4):
        raise UnsupportedLogError(
            f"game {index}: mjai has no form for {players}-player games (only 4, and 3 as "
            "RiichiEnv writes them)"
        )
    red, east = _ruleset_flags(game.header)
    start: dict[str, Any] = {
        "type": "start_game",
        "names": [player.name for player in game.header.players],
        "kyoku_first": 4 if east else 0,
        "aka_flag": red,
        # Our extension (other mjai readers ignore it): the rule set itself, which the two
        # flags above only hint at (a Mahjong Soul game would otherwise read back as Tenhou's).
        "ruleset": game.header.ruleset,
    }
    if game.header.rule_overrides:
        start["rule_overrides"] = dict(game.header.rule_overrides)
    if game.header.source.id is not None:
        start["id"] = game.header.source.id
    out = [start]
    for round_ in game.rounds:
        out.extend(_RoundWriter(round_, f"game {index}, round {round_.name}").events())
    if game.recorded_final is not None:
        out.append({"type": "end_game", "scores": list(game.recorded_final.scores)})
    return out


def write(games: Sequence[Game]) -> bytes:
    """Games as mjai JSON lines (one event per line, games one after another).

    :raises UnsupportedLogError: a game mjai cannot express (see the module docstring).
    """
    lines = [
        json.dumps(event, ensure_ascii=False, separators=(",", ":"))
        for index, game in enumerate(games)
        for event in game_events(game, index)
    ]
    return ("\n".join(lines) + "\n").encode() if lines else b""


# -- sniffing -------------------------------------------------------------------------------------

#: How much of a file the sniffer reads: enough for a first line with long bot comments.
SNIFF_BYTES: Final = 256 * 1024


def sniff(data: bytes) -> bool:
    """Whether the first non-blank line is an mjai event (or a batch of them)."""
    head = data[:SNIFF_BYTES].lstrip(b"\xef\xbb\xbf \t\r\n")
    line = head.split(b"\n", 1)[0].strip()
    if not line.startswith((b"{", b"[")) or b'"type"' not in line:
        return False
    try:
        value = json_loads(line)
    except (ValueError, RecursionError):  # bad JSON or UTF-8, a 5000-digit number, deep nesting
        return False
    if isinstance(value, list) and value:
        value = value[0]
    return isinstance(value, dict) and value.get("type") in _KNOWN_TYPES


FORMAT = Format(
    name=FORMAT_NAME,
    title="mjai JSON lines",
    extensions=(".jsonl", ".mjson", ".log", ".json"),
    sniff=sniff,
    read=read,
    write=write,
)

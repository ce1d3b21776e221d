"""Tenhou mjlog XML reader (format ``mjlog``).

An mjlog is one ``<mjloggm>`` element whose children are the game's tags in play order: a header
(``SHUFFLE``, ``GO``, ``UN``, ``TAIKYOKU``), then per round an ``INIT``, the draws (``T``/``U``/
``V``/``W`` + tile id), discards (``D``/``E``/``F``/``G`` + tile id), calls (``N``), riichi
(``REACH``) and new dora (``DORA``), and the round end (``AGARI``, one per winner, or
``RYUUKYOKU``); ``owari`` on the last end holds the final result. ``BYE`` and reconnecting
``UN`` tags may appear anywhere. The fields are described in
``../shared/docs/reference/log-formats.md`` (section A).

:func:`read_mjlog` turns one file into one :class:`~engine.events.Game` following the
conventions of :mod:`engine.events`. It accepts UTF-8 or UTF-16 (with or without a byte-order
mark), gzip-compressed or not, and refuses any DTD or entity, the only way an XML document can
expand itself (billion laughs) or reach outside (external entities). Everything it cannot make
sense of raises :class:`~engine.errors.MalformedLogError` naming the round and tag.

The reader checks what it must to place each event correctly (a called tile is the last discard,
a ron is on the last offered tile) and leaves the rules to the replayer.
"""

from __future__ import annotations

import math
import re
from typing import Final, NamedTuple, NoReturn, TypeAlias
from urllib.parse import unquote
from xml.parsers import expat
from xml.parsers.expat import errors as expat_errors

from engine.errors import MalformedLogError
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
    Source,
    Win,
)
from engine.formats.base import Format, cut_short_message, decompress
from engine.rules.tenhou import TenhouLobby, log_date, tenhou_game_rules
from engine.rules.yaku import DORA_NAMES, YAKU
from engine.scoring.limits import yakuman_limit
from engine.tiles import NORTH, Tile, is_yaochuu, tile_from_tenhou136

_Attrs: TypeAlias = dict[str, str]

# -- tables ---------------------------------------------------------------------------------------

#: The 136 tiles by Tenhou id, with red fives (ids 16, 52, 88) and without: one shared Tile per
#: id, so reading a tile is one index.
_TILES_RED: Final = tuple(tile_from_tenhou136(i, red_fives=True) for i in range(136))
_TILES_PLAIN: Final = tuple(tile_from_tenhou136(i, red_fives=False) for i in range(136))

#: Every draw and discard tag (``T23``, ``D124``) -> (is a draw, seat, tile id, seat * 136 + tile
#: id: the index of its event in :class:`_MoveEvents`). One dict look-up per tag instead of
#: parsing its name: these are nine tags in ten.
_MOVES: Final[dict[str, tuple[bool, int, int, int]]] = {
    f"{letter}{tile_id}": (is_draw, seat, tile_id, seat * 136 + tile_id)
    for letters, is_draw in (("TUVW", True), ("DEFG", False))
    for seat, letter in enumerate(letters)
    for tile_id in range(136)
}
#: The moves of seats 0-2 only, for 3-player games (a move by seat 3 is not one of them).
_MOVES_3: Final = {name: move for name, move in _MOVES.items() if move[1] < 3}
_MOVE_LETTERS: Final = "TUVWDEFG"


class _MoveEvents:
    """The Draw and Discard events of one tile set, each made on first use and then shared:
    events are frozen values, so a game's thousands of moves can point at a few hundred objects
    instead of building one each (the largest cost of reading a log). Also the tiles by the
    text of their id, for reading lists of ids (see :meth:`_GameReader._tiles`)."""

    __slots__ = ("by_text", "discards", "draws", "tiles")

    def __init__(self, tiles: tuple[Tile, ...]) -> None:
        self.tiles = tiles
        self.by_text = {str(tile_id): tile for tile_id, tile in enumerate(tiles)}
        #: Index ``seat * 136 + tile id``.
        self.draws: list[Draw | None] = [None] * (4 * 136)
        #: Index ``(seat * 136 + tile id) * 2 + tsumogiri``.
        self.discards: list[Discard | None] = [None] * (8 * 136)


_MOVE_EVENTS_RED: Final = _MoveEvents(_TILES_RED)
_MOVE_EVENTS_PLAIN: Final = _MoveEvents(_TILES_PLAIN)
#: Tile ids of terminals and honours (nagashi mangan discards).
_YAOCHUU_IDS: Final = frozenset(i for i in range(136) if is_yaochuu(i // 4))

#: Our yaku names by Tenhou yaku id (``AGARI yaku``/``yakuman``), ids 0-54 (spec §A.6).
#: Id 36 (人和) is ``renhou_mangan``: Tenhou values renhou as a mangan. Id 52 (dora) also counts
#: sanma North extractions: Tenhou has no entry of their own.
TENHOU_YAKU: Final[tuple[str, ...]] = tuple(
    """
    menzen_tsumo riichi ippatsu chankan rinshan
    haitei houtei pinfu tanyao iipeikou
    seat_wind_east seat_wind_south seat_wind_west seat_wind_north round_wind_east
    round_wind_south round_wind_west round_wind_north haku hatsu
    chun double_riichi chiitoitsu chanta ittsu
    sanshoku sanshoku_doukou sankantsu toitoi sanankou
    shousangen honroutou ryanpeikou junchan honitsu
    chinitsu renhou_mangan tenhou chiihou daisangen
    suuankou suuankou_tanki tsuuiisou ryuuiisou chinroutou
    chuuren junsei_chuuren kokushi kokushi_13 daisuushii
    shousuushii suukantsu dora ura_dora aka_dora
    """.split()  # noqa: SIM905 - five a line in id order, checkable against the spec
)

#: Tenhou's rank labels by ``UN dan`` index.
DAN_LABELS: Final[tuple[str, ...]] = (
    "新人",
    *(f"{n}級" for n in range(9, 0, -1)),
    *(f"{n}段" for n in ("初", "二", "三", "四", "五", "六", "七", "八", "九", "十")),
    "天鳳",
)

#: ``AGARI ten`` limit codes (kazoe yakuman is code 5 too).
_LIMITS: Final = (None, "mangan", "haneman", "baiman", "sanbaiman", "yakuman")

_ABORTS: Final = {
    "yao9": AbortKind.NINE_TERMINALS,
    "kaze4": AbortKind.FOUR_WINDS,
    "reach4": AbortKind.FOUR_RIICHI,
    "kan4": AbortKind.FOUR_KANS,
    "ron3": AbortKind.TRIPLE_RON,
}

#: Tags that carry nothing for the record: the wall seed, disconnects, furiten notices.
_IGNORED: Final = frozenset({"SHUFFLE", "BYE", "FURITEN"})

_LOG_ID = re.compile(r"(\d{10})gm-[0-9a-f]{4}-[0-9A-Za-z]+-[0-9a-f]{8}")


# -- calls ----------------------------------------------------------------------------------------


class MeldCode(NamedTuple):
    """One ``N`` tag's ``m`` value, decoded (spec §A.5)."""

    #: ``chi``, ``pon``, ``added_kan``, ``north``, ``open_kan`` or ``closed_kan``.
    kind: str
    #: Every tile id of the meld, ascending (chi: low, middle, high; added kan: all four).
    tiles: tuple[int, ...]
    #: The id taken from another seat (chi, pon, open kan), added (added kan) or set aside
    #: (north); -1 for a closed kan.
    called: int
    #: Where the called tile came from, counted from the caller: 1 right, 2 across, 3 left
    #: (0 for the caller's own tiles). An added kan keeps its pon's offset.
    offset: int


def decode_meld(m: int) -> MeldCode:
    """Decode a Tenhou meld code (``N m``), following spec §A.5 bit for bit.

    :raises ValueError: a code out of 0-65535 or naming tiles that do not exist.
    """
    if not 0 <= m <= 0xFFFF:
        raise ValueError(f"meld code {m} is not a 16-bit value")
    offset = m & 3
    if m & 0x4:  # chi: a base run number, which of its 3 tiles was taken, each tile's copy
        packed = m >> 10
        called = packed % 3
        run = packed // 3
        if run >= 21:  # 7 runs per number suit
            raise ValueError(f"chi code {m} names run {run}; there are 21")
        base = (run // 7) * 9 + run % 7
        tiles = tuple((base + i) * 4 + ((m >> (3 + 2 * i)) & 3) for i in range(3))
        return MeldCode("chi", tiles, tiles[called], offset)
    if m & 0x18:  # pon or added kan: a kind, which of 3 tiles was taken, the 4th copy
        packed = m >> 9
        called = packed % 3
        kind = packed // 3
        if kind >= 34:
            raise ValueError(f"pon code {m} names tile kind {kind}; there are 34")
        fourth = kind * 4 + ((m >> 5) & 3)
        pon = tuple(tile for tile in range(kind * 4, kind * 4 + 4) if tile != fourth)
        if m & 0x8:
            return MeldCode("pon", pon, pon[called], offset)
        return MeldCode("added_kan", tuple(range(kind * 4, kind * 4 + 4)), fourth, offset)
    tile = m >> 8
    if tile >= 136:
        raise ValueError(f"meld code {m} names tile id {tile}; ids are 0-135")
    if m & 0x20:
        if tile // 4 != NORTH:
            raise ValueError(f"north extraction code {m} names tile id {tile}, not a North")
        return MeldCode("north", (tile,), tile, offset)
    quad = tuple(range(tile - tile % 4, tile - tile % 4 + 4))
    if offset == 0:
        return MeldCode("closed_kan", quad, -1, 0)
    return MeldCode("open_kan", quad, tile, offset)


# -- small parsers --------------------------------------------------------------------------------


class _TagError(Exception):
    """A problem in the tag being read; the main loop adds where it is."""


def _short(text: str, limit: int = 40) -> str:
    return repr(text) if len(text) <= limit else repr(text[:limit]) + "..."


def _finite(text: str) -> float:
    """A decimal number (a rating, a result): ``float()`` without the infinities and NaN it also
    reads (``inf``, ``1e999``), which no record means and no JSON document can hold.

    :raises ValueError: not a finite number.
    """
    value = float(text)
    if not math.isfinite(value):
        raise ValueError(text)
    return value


def _attr(attrs: _Attrs, key: str) -> str:
    try:
        return attrs[key]
    except KeyError:
        raise _TagError(f"missing attribute {key}") from None


def _int(attrs: _Attrs, key: str) -> int:
    text = _attr(attrs, key)
    try:
        return int(text)
    except ValueError:
        raise _TagError(f"attribute {key}={_short(text)} is not an integer") from None


def _ints(attrs: _Attrs, key: str, at_least: int = 0) -> list[int]:
    """A comma-separated list of integers (empty text is an empty list)."""
    text = _attr(attrs, key)
    try:
        values = list(map(int, text.split(","))) if text else []
    except ValueError:
        raise _TagError(f"attribute {key}={_short(text)} is not a list of integers") from None
    if len(values) < at_least:
        raise _TagError(
            f"attribute {key}={_short(text)} has {len(values)} values, expected {at_least}"
        )
    return values


def _tile_ids(attrs: _Attrs, key: str) -> list[int]:
    ids = _ints(attrs, key)
    for tile_id in ids:
        if not 0 <= tile_id < 136:
            raise _TagError(f"attribute {key} holds tile id {tile_id}; ids are 0-135")
    return ids


def _refuse_dtd(*_: object) -> NoReturn:
    raise MalformedLogError("XML DTDs and entities are not allowed in an mjlog")


# -- public helpers -------------------------------------------------------------------------------


def log_id_from_name(filename: str) -> str | None:
    """The Tenhou log id in a file name or URL (``2010081709gm-00a9-0000-fe3371ad`` from
    ``.../2010081709gm-00a9-0000-fe3371ad&tw=2.mjlog``), or ``None`` when it holds none."""
    found = _LOG_ID.search(filename)
    return found.group(0) if found else None


def _started_at(log_id: str | None) -> str | None:
    """Tenhou ids start with the game's date and hour in Japan time (``YYYYMMDDHH``)."""
    found = _LOG_ID.match(log_id) if log_id else None
    if not found:
        return None
    d = found.group(1)
    return f"{d[:4]}-{d[4:6]}-{d[6:8]}T{d[8:10]}:00:00+09:00"


def _utf16_codec(data: bytes) -> str | None:
    """The UTF-16 codec of a document that starts with a byte-order mark or has a 0 byte among
    its first two (``<`` encoded without a mark), or ``None``."""
    if data[:2] in (b"\xff\xfe", b"\xfe\xff"):
        return "utf-16"
    if data[1:2] == b"\x00":
        return "utf-16-le"
    if data[:1] == b"\x00":
        return "utf-16-be"
    return None


def _to_utf8(data: bytes) -> bytes:
    """The document as UTF-8: UTF-16 (a byte-order mark, or a 0 byte among the first two) is
    transcoded; anything else is taken as UTF-8 and left to expat to check."""
    if data[:3] == b"\xef\xbb\xbf":
        return data[3:]
    codec = _utf16_codec(data)
    if codec is None:
        return data
    try:
        return data.decode(codec).encode("utf-8")
    except UnicodeError as error:
        raise MalformedLogError(f"bad UTF-16 text ({error})") from None


#: Expat's errors for a document that stops early: no root element closed, a tag or a
#: character left unfinished at the end.
_CUT_SHORT: Final = frozenset(
    expat_errors.codes[message]
    for message in (
        expat_errors.XML_ERROR_NO_ELEMENTS,
        expat_errors.XML_ERROR_UNCLOSED_TOKEN,
        expat_errors.XML_ERROR_PARTIAL_CHAR,
    )
)


def _elements(data: bytes) -> tuple[list[str], list[_Attrs]]:
    """Every element's name, and its attributes, in document order, with expat refusing DTDs.
    (Two lists rather than one of pairs: no pair to build, nor for the garbage collector to
    track, per element.)"""
    parser = expat.ParserCreate(encoding="UTF-8")  # overrides the declaration: we transcoded
    parser.SetParamEntityParsing(expat.XML_PARAM_ENTITY_PARSING_NEVER)
    parser.StartDoctypeDeclHandler = _refuse_dtd
    parser.EntityDeclHandler = _refuse_dtd
    parser.ExternalEntityRefHandler = _refuse_dtd
    names: list[str] = []
    attributes: list[_Attrs] = []
    add_name, add_attributes = names.append, attributes.append

    def start(name: str, attrs: _Attrs) -> None:
        add_name(name)
        add_attributes(attrs)

    parser.StartElementHandler = start
    try:
        parser.Parse(_to_utf8(data), True)
    except expat.ExpatError as error:
        place = f"line {error.lineno}, column {error.offset}"
        words = expat.ErrorString(error.code)
        if error.code in _CUT_SHORT:
            detail = f"not well-formed XML: {words}"
            size = f"{len(data):,} bytes"
            raise MalformedLogError(cut_short_message("XML", size, detail), place) from None
        raise MalformedLogError(f"not well-formed XML ({words})", place) from None
    return names, attributes


def _xml_text_start(data: bytes) -> str:
    """The first characters of a document as text, past any byte-order mark, XML declaration
    and comments (for sniffing)."""
    head = data[:1024]
    codec = _utf16_codec(head)
    text = head.decode(codec or "utf-8", "ignore")
    text = text.lstrip("\ufeff \t\r\n")
    while text.startswith(("<?", "<!--")):
        end = text.find("?>" if text[1] == "?" else "-->")
        if end < 0:
            return ""
        text = text[end + (2 if text[1] == "?" else 3) :].lstrip()
    return text


def sniff(data: bytes) -> bool:
    """Whether the (decompressed) bytes are an mjlog: their root element is ``<mjloggm``, or
    a DTD comes first in a document naming ``mjloggm`` (the reader then refuses the DTD by
    name, rather than sniffing failing with "not a game record in any known format")."""
    start = _xml_text_start(data)
    if start.startswith("<!DOCTYPE"):
        head = data[:_DTD_SNIFF_BYTES]
        return "mjloggm" in head.decode(_utf16_codec(head) or "utf-8", "ignore")
    return start.startswith("<mjloggm")


#: How far the sniffer looks for ``mjloggm`` past a DTD (entity declarations can be long).
_DTD_SNIFF_BYTES = 64 * 1024


# -- the reader -----------------------------------------------------------------------------------


class _RoundStart(NamedTuple):
    """What an ``INIT`` says, kept until the round's events are all read."""

    kyoku: int  # Tenhou's round index: 0-3 East 1-4, 4-7 South 1-4, ...
    honba: int
    sticks: int
    dealer: int
    scores: tuple[int, ...]
    hands: tuple[tuple[Tile, ...], ...]
    dora: Tile

    @property
    def name(self) -> str:
        return f"{'ESWN'[self.kyoku // 4]}{self.kyoku % 4 + 1}"


class _GameReader:
    """Reads the element list of one mjlog into a :class:`Game`, one tag at a time.

    Header tags fill the header fields. Round tags add events to the open round, which is built
    (``Round`` is frozen) when the next ``INIT`` or the end of the document comes.
    """

    def __init__(self, log_id: str | None) -> None:
        self.log_id = log_id
        self.go: _Attrs | None = None
        self.players = 4
        self.tiles = _TILES_RED
        self.move_events = _MOVE_EVENTS_RED
        self.roster: _Attrs | None = None
        self.rounds: list[Round] = []
        self.final: FinalResult | None = None
        # The round being read: its INIT values, events, and what placing events needs.
        self.in_round = False
        self.ended = False  # an AGARI or RYUUKYOKU closed it (more AGARI = multi-ron)
        self.ended_by_win = False
        self.start: _RoundStart
        self.events: list[Event] = []
        self.last_draw: list[int] = []  # per seat: id of the tile just drawn, -1 if none
        self.offer_seat = -1  # the last tile another seat could ron: discard, added kan, north
        self.offer_tile = -1
        self.discard_seat = -1  # the last discard, the one a chi/pon/open kan can call
        self.discard_tile = -1
        # Per seat: None before their first discard, then whether every discard was a terminal
        # or honour and none was called (nagashi mangan).
        self.nagashi: list[bool | None] = []
        self.ura: list[int] = []

    # -- driving --------------------------------------------------------------------------------

    def read(self, names: list[str], attributes: list[_Attrs]) -> Game:
        if not names or names[0] != "mjloggm":
            root = names[0] if names else "nothing"
            raise MalformedLogError(f"not an mjlog: the root element is <{root}>, not <mjloggm>")
        moves = _MOVES
        index, count = 1, len(names)
        while index < count:
            name = names[index]
            try:
                move = moves.get(name)
                if move is not None:
                    end = self._moves(names, index)
                    if end == index:  # the run stops at its first move: a bad one
                        self._bad_move(move[0], move[1])
                    index = end
                    continue
                if name[0] in _MOVE_LETTERS and name[1:].isascii() and name[1:].isdigit():
                    self._odd_move(name)
                else:
                    self._tag(name, attributes[index])
            except _TagError as error:
                raise MalformedLogError(str(error), self._where(index, name)) from None
            index += 1
        if self.in_round:
            self._close_round()
        return self._game()

    def _where(self, index: int, name: str) -> str:
        if self.in_round:
            return f"round {len(self.rounds) + 1} ({self.start.name}), tag {index} <{name}>"
        return f"tag {index} <{name}>"

    def _tag(self, name: str, attrs: _Attrs) -> None:
        if name == "N":
            self._call(attrs)
        elif name == "REACH":
            self._reach(attrs)
        elif name == "DORA":
            self._in_play(name)
            self.events.append(DoraRevealed(self.tiles[self._tile(attrs, "hai")]))
        elif name == "INIT":
            self._init(attrs)
        elif name == "AGARI":
            self._agari(attrs)
        elif name == "RYUUKYOKU":
            self._ryuukyoku(attrs)
        elif name == "UN":
            self._un(attrs)
        elif name == "GO" or name == "TAIKYOKU":
            if self.rounds or self.in_round:
                raise _TagError(f"<{name}> after the first round started")
            if name == "GO":
                self._go(attrs)
            elif attrs.get("oya", "0") != "0":
                raise _TagError(
                    f"first dealer oya={_short(attrs['oya'])}: only games where seat 0 deals "
                    "first are supported (Tenhou always writes 0)"
                )
        elif name in _IGNORED:
            pass
        elif self.in_round and not self.ended:
            raise _TagError(f"unknown tag <{name}> inside a round")
        # Unknown tags between rounds are someone's extension: nothing of the game is lost.

    def _in_play(self, name: str) -> None:
        if not self.in_round:
            raise _TagError(f"<{name}> outside a round (no <INIT> before it)")
        if self.ended:
            raise _TagError(f"<{name}> after the round ended")

    # -- header ---------------------------------------------------------------------------------

    def _go(self, attrs: _Attrs) -> None:
        go_type = _int(attrs, "type")
        if go_type < 0:
            raise _TagError(f"GO type {go_type} is negative")
        self.go = attrs
        self.players = 3 if go_type & 0x10 else 4
        red = not go_type & 0x02
        self.tiles = _TILES_RED if red else _TILES_PLAIN
        self.move_events = _MOVE_EVENTS_RED if red else _MOVE_EVENTS_PLAIN

    def _un(self, attrs: _Attrs) -> None:
        """The roster (a UN naming two or more seats); a UN naming one seat is a reconnect."""
        names = sum(1 for seat in range(4) if f"n{seat}" in attrs)
        if names >= 2 and self.roster is None:
            self.roster = attrs

    def _header(self) -> GameHeader:
        if self.go is None:
            raise MalformedLogError("no <GO> tag: the rules of the game are unknown")
        if self.roster is None:
            raise MalformedLogError("no <UN> tag naming the players")
        go_type = int(self.go["type"])
        # The lobby's rules as Tenhou played them on the game's day.
        number = self.go.get("lobby", "0")
        lobby = TenhouLobby.from_go_type(
            go_type,
            custom_rules=self.go.get("csrule", "").strip(),
            number=int(number) if number.isascii() and number.isdigit() else 0,
        )
        name, overrides = tenhou_game_rules(lobby, log_date(self.log_id))
        extra = {"go_type": str(go_type), "lobby": self.go.get("lobby", "0")}
        if lobby.custom_rules:
            extra["csrule"] = lobby.custom_rules
        return GameHeader(
            ruleset=name,
            rule_overrides=overrides,
            players=self._players(),
            source=Source(format="mjlog", id=self.log_id, extra=extra),
            started_at=_started_at(self.log_id),
        )

    def _players(self) -> tuple[Player, ...]:
        roster = self.roster
        assert roster is not None
        where = "<UN>"
        dans = roster.get("dan", "").split(",") if roster.get("dan") else []
        rates = roster.get("rate", "").split(",") if roster.get("rate") else []
        players = []
        for seat in range(self.players):
            rank = rating = None
            try:
                if seat < len(dans):
                    dan = int(dans[seat])
                    if not 0 <= dan < len(DAN_LABELS):
                        raise ValueError(dan)
                    rank = DAN_LABELS[dan]
                if seat < len(rates):
                    rating = _finite(rates[seat])
            except (ValueError, IndexError):
                raise MalformedLogError(
                    f"bad dan or rate of seat {seat} ({_short(roster.get('dan', ''))}, "
                    f"{_short(roster.get('rate', ''))})",
                    where,
                ) from None
            name = unquote(roster.get(f"n{seat}", ""))
            if "\x00" in name:  # %00: no database stores it
                raise MalformedLogError(f"the name of seat {seat} holds U+0000 (NUL)", where)
            players.append(Player(name, rank, rating))
        return tuple(players)

    def _game(self) -> Game:
        if not self.rounds:
            raise MalformedLogError("no round in the log (no <INIT> tag)")
        return Game(self._header(), tuple(self.rounds), self.final)

    # -- rounds ---------------------------------------------------------------------------------

    def _init(self, attrs: _Attrs) -> None:
        if self.go is None:
            raise _TagError("<INIT> before the <GO> tag that gives the rules")
        if self.final is not None:
            raise _TagError("<INIT> after the game's final result (owari)")
        if self.in_round:
            self._close_round()
        players = self.players
        seed = _ints(attrs, "seed", 6)
        round_index, honba, sticks = seed[0], seed[1], seed[2]
        if not 0 <= round_index < 16 or honba < 0 or sticks < 0:
            raise _TagError(f"seed {_short(attrs['seed'])}: round, honba or sticks out of range")
        dora = seed[5]
        if not 0 <= dora < 136:
            raise _TagError(f"seed {_short(attrs['seed'])}: dora indicator id {dora} is not 0-135")
        scores = tuple(points * 100 for points in _ints(attrs, "ten", players)[:players])
        dealer = _int(attrs, "oya")
        if not 0 <= dealer < players:
            raise _TagError(f"oya={dealer} is not a seat of this {players}-player game")
        tiles = self.tiles
        hands = []
        for seat in range(players):
            hand = self._tiles(attrs, f"hai{seat}")
            if len(hand) != 13:
                raise _TagError(f"hai{seat} has {len(hand)} tiles, expected 13")
            hands.append(hand)
        self.start = _RoundStart(
            round_index, honba, sticks, dealer, scores, tuple(hands), tiles[dora]
        )
        self.in_round = True
        self.ended = self.ended_by_win = False
        self.events = []
        self.last_draw = [-1] * players
        self.offer_seat = self.offer_tile = self.discard_seat = self.discard_tile = -1
        self.nagashi = [None] * players
        self.ura = []

    def _close_round(self) -> None:
        start = self.start
        self.rounds.append(
            Round(
                wind=start.kyoku // 4,
                number=start.kyoku % 4 + 1,
                dealer=start.dealer,
                honba=start.honba,
                sticks=start.sticks,
                scores=start.scores,
                hands=start.hands,
                dora_indicators=(start.dora,),
                events=tuple(self.events),
                ura_indicators=tuple(self.tiles[i] for i in self.ura),
            )
        )
        self.in_round = False

    def _moves(self, names: list[str], start: int) -> int:
        """Read the draws and discards from ``names[start]`` on, up to the first other tag
        or the first bad move (by a seat the game does not have, or out of play: for
        :meth:`_bad_move` to word): the index where it stopped.

        Nine tags in ten are moves, so this is the hot loop of reading a log. Within a run of
        moves the reader's state is kept in locals: only other tags change it (a new round, its
        end) or read the last discard (calls, wins, draws), which is stored when the run ends.
        """
        if not self.in_round or self.ended:
            return start
        moves = _MOVES if self.players == 4 else _MOVES_3
        shared = self.move_events
        draws, discards, tiles = shared.draws, shared.discards, shared.tiles
        append = self.events.append
        last_draw = self.last_draw
        nagashi = self.nagashi
        discard_seat = discard_tile = -1
        for index in range(start, len(names)):
            move = moves.get(names[index])
            if move is None:
                break
            is_draw, seat, tile_id, key = move
            if is_draw:
                draw = draws[key]
                if draw is None:
                    draw = draws[key] = Draw(seat, tiles[tile_id])
                append(draw)
                last_draw[seat] = tile_id
            else:
                tsumogiri = last_draw[seat] == tile_id
                key = 2 * key + tsumogiri
                discard = discards[key]
                if discard is None:
                    discard = discards[key] = Discard(seat, tiles[tile_id], tsumogiri)
                append(discard)
                last_draw[seat] = -1
                discard_seat, discard_tile = seat, tile_id
                if nagashi[seat] is not False:
                    nagashi[seat] = tile_id in _YAOCHUU_IDS
        else:
            index = len(names)  # (every name from start on was a move)
        if discard_seat >= 0:  # the last discard, the tile a call or a ron can take
            self.offer_seat = self.discard_seat = discard_seat
            self.offer_tile = self.discard_tile = discard_tile
        return index

    def _bad_move(self, is_draw: bool, seat: int) -> NoReturn:
        what = "draw" if is_draw else "discard"
        if seat >= self.players:
            raise _TagError(f"a {what} by seat {seat} in a {self.players}-player game")
        self._in_play(what)
        raise AssertionError("unreachable")  # pragma: no cover

    def _odd_move(self, name: str) -> None:
        """A draw or discard tag the table does not hold: a bad id, or leading zeros."""
        tile_id = int(name[1:])
        if tile_id >= 136:
            raise _TagError(f"tile id {tile_id} in <{name}>; ids are 0-135")
        letter = _MOVE_LETTERS.index(name[0])
        if not self._moves([f"{name[0]}{tile_id}"], 0):  # as if written plainly
            self._bad_move(letter < 4, letter % 4)

    def _tile(self, attrs: _Attrs, key: str) -> int:
        tile_id = _int(attrs, key)
        if not 0 <= tile_id < 136:
            raise _TagError(f"attribute {key}={tile_id} is not a tile id (0-135)")
        return tile_id

    def _tiles(self, attrs: _Attrs, key: str) -> tuple[Tile, ...]:
        """The tiles of a list of tile ids (:func:`_tile_ids`).

        The usual text, ids written plainly (``12,40,135``), is read by a look-up per id; any
        other (a missing attribute, an empty list, a bad id, ``007``) falls to :func:`_tile_ids`,
        which reads it or words what is wrong, as it did for every list before.
        """
        by_text = self.move_events.by_text
        try:
            return tuple([by_text[text] for text in attrs[key].split(",")])
        except KeyError:
            return tuple(self.tiles[i] for i in _tile_ids(attrs, key))

    def _seat(self, attrs: _Attrs, key: str) -> int:
        seat = _int(attrs, key)
        if not 0 <= seat < self.players:
            raise _TagError(f"{key}={seat} is not a seat of this {self.players}-player game")
        return seat

    def _call(self, attrs: _Attrs) -> None:
        self._in_play("N")
        seat = self._seat(attrs, "who")
        m = _int(attrs, "m")
        try:
            meld = decode_meld(m)
        except ValueError as error:
            raise _TagError(str(error)) from None
        tiles = self.tiles
        kind = meld.kind
        if kind == "closed_kan":
            self.events.append(ClosedKan(seat, tuple(tiles[i] for i in meld.tiles)))
            return
        called = meld.called
        if kind == "added_kan" or kind == "north":
            event: Event = (
                AddedKan(seat, tiles[called])
                if kind == "added_kan"
                else NorthExtraction(seat, tiles[called])
            )
            self.events.append(event)
            self.offer_seat, self.offer_tile = seat, called  # chankan / ron on a North
            return
        # Chi, pon, open kan: the called tile must be the last discard, and the offset must
        # point at its discarder. Tenhou counts the offset over four seats even in sanma (the
        # empty North seat included): in the stored sanma game seat 2 pons seat 0's discard
        # with offset 2 and seat 1's with offset 3, so from = (who + offset) % 4 always.
        from_seat = (seat + meld.offset) % 4
        if called != self.discard_tile or self.discard_seat < 0:
            last = f"tile id {self.discard_tile}" if self.discard_tile >= 0 else "no discard"
            raise _TagError(f"{kind} m={m} calls tile id {called}, but the last discard is {last}")
        if from_seat != self.discard_seat or from_seat == seat:
            raise _TagError(
                f"{kind} m={m} by seat {seat} takes from seat {from_seat}, but seat "
                f"{self.discard_seat} discarded tile id {called}"
            )
        consumed = tuple(tiles[i] for i in meld.tiles if i != called)
        cls = Chi if kind == "chi" else Pon if kind == "pon" else OpenKan
        self.events.append(cls(seat, from_seat, tiles[called], consumed))
        self.nagashi[from_seat] = False
        # The caller's last draw was cleared by their last discard: the discard after a call is
        # never tsumogiri.
        self.discard_seat = self.discard_tile = -1  # a discard is called once

    def _reach(self, attrs: _Attrs) -> None:
        self._in_play("REACH")
        seat = self._seat(attrs, "who")
        step = _int(attrs, "step")
        if step == 1:
            self.events.append(RiichiDeclared(seat))
        elif step == 2:
            self.events.append(RiichiAccepted(seat))
        else:
            raise _TagError(f"REACH step={step}; expected 1 or 2")

    # -- round ends -----------------------------------------------------------------------------

    def _deltas(self, attrs: _Attrs) -> tuple[int, ...]:
        """Every seat's score change from ``sc`` (before, delta pairs in hundreds; chip lobbies
        add more pairs after the seats')."""
        values = _ints(attrs, "sc", 2 * self.players)
        return tuple(delta * 100 for delta in values[1 : 2 * self.players : 2])

    def _owari(self, attrs: _Attrs) -> None:
        text = attrs.get("owari")
        if text is None:
            return
        parts = text.split(",")
        if len(parts) < 2 * self.players:
            raise _TagError(f"owari={_short(text)} has fewer than {2 * self.players} values")
        try:
            scores = tuple(int(parts[2 * s]) * 100 for s in range(self.players))
            results = tuple(_finite(parts[2 * s + 1]) for s in range(self.players))
        except ValueError:
            raise _TagError(f"owari={_short(text)} is not points and results") from None
        self.final = FinalResult(scores, results)

    def _agari(self, attrs: _Attrs) -> None:
        if not self.in_round:
            raise _TagError("<AGARI> outside a round (no <INIT> before it)")
        if self.ended and not self.ended_by_win:
            raise _TagError("<AGARI> after the round ended in a draw")
        seat = self._seat(attrs, "who")
        from_seat = self._seat(attrs, "fromWho")
        machi = self._tile(attrs, "machi")
        if seat == from_seat:
            if machi != self.last_draw[seat]:
                raise _TagError(f"tsumo on tile id {machi}, not the tile seat {seat} drew")
        elif (from_seat, machi) != (self.offer_seat, self.offer_tile):
            raise _TagError(
                f"ron on tile id {machi} from seat {from_seat}, but the last tile offered is "
                f"{self.offer_tile} from seat {self.offer_seat}"
            )
        fu, points, limit_code = _ints(attrs, "ten", 3)[:3]
        if not 0 <= limit_code < len(_LIMITS):
            raise _TagError(f"ten limit code {limit_code}; expected 0-5")
        yaku, han, yakuman = self._yaku(attrs)
        limit = _LIMITS[limit_code]
        if limit == "yakuman" and yakuman:
            limit = self._yakuman_limit(seat, from_seat, points)
        liable = self._seat(attrs, "paoWho") if "paoWho" in attrs else None
        hand = self._tiles(attrs, "hai")
        for ura in _tile_ids(attrs, "doraHaiUra") if "doraHaiUra" in attrs else ():
            if ura not in self.ura:
                self.ura.append(ura)
        recorded = RecordedWin(
            han=han,
            fu=fu,
            yaku=yaku,
            points=points,
            limit=limit,
            deltas=self._deltas(attrs),
            liable=liable,
            hand=hand,
        )
        self.events.append(Win(seat, from_seat, self.tiles[machi], recorded))
        self.ended = self.ended_by_win = True
        self._owari(attrs)

    def _yaku(self, attrs: _Attrs) -> tuple[tuple[tuple[str, int], ...], int, int]:
        """(yaku, total han, number of yakuman) of an AGARI; 0-han dora entries are dropped."""
        if "yaku" not in attrs and "yakuman" not in attrs:
            raise _TagError("AGARI has neither yaku nor yakuman")
        pairs = _ints(attrs, "yaku") if "yaku" in attrs else []
        if len(pairs) % 2:
            raise _TagError(f"yaku={_short(attrs['yaku'])} is not id,han pairs")
        yaku: list[tuple[str, int]] = []
        han = 0
        for i in range(0, len(pairs), 2):
            name, value = self._yaku_name(pairs[i]), pairs[i + 1]
            if value < 0:
                raise _TagError(f"yaku id {pairs[i]} has {value} han")
            if value == 0 and name in DORA_NAMES:  # "53,0": ura dora looked for, none
                continue
            yaku.append((name, value))
            han += value
        yakuman = _ints(attrs, "yakuman") if "yakuman" in attrs else []
        for yaku_id in yakuman:
            name = self._yaku_name(yaku_id)
            if not YAKU[name].yakuman:
                raise _TagError(f"yakuman id {yaku_id} ({name}) is not a yakuman")
            yaku.append((name, 13))
            han += 13
        return tuple(yaku), han, len(yakuman)

    @staticmethod
    def _yaku_name(yaku_id: int) -> str:
        if not 0 <= yaku_id < len(TENHOU_YAKU):
            raise _TagError(f"unknown yaku id {yaku_id} (Tenhou ids are 0-54)")
        return TENHOU_YAKU[yaku_id]

    def _yakuman_limit(self, seat: int, from_seat: int, points: int) -> str:
        """``yakuman``, or ``double_yakuman`` ... when the points are a multiple of it.

        A yakuman's base is 8000; a ron or a 4-player tsumo is worth 6 bases to the dealer and
        4 to the others; a sanma tsumo loses the absent seat's share (4 and 3)."""
        dealer = seat == self.start.dealer
        if seat != from_seat or self.players == 4:
            factor = 6 if dealer else 4
        else:
            factor = 4 if dealer else 3
        single = 8000 * factor
        if points > single and points % single == 0:
            return yakuman_limit(points // single)[1]
        return "yakuman"

    def _ryuukyoku(self, attrs: _Attrs) -> None:
        self._in_play("RYUUKYOKU")
        deltas = self._deltas(attrs) if "sc" in attrs else None
        shown = tuple(seat for seat in range(self.players) if f"hai{seat}" in attrs)
        kind = attrs.get("type")
        event: Event
        if kind is None:
            event = ExhaustiveDraw(recorded_tenpai=shown, recorded_deltas=deltas)
        elif kind == "nm":
            event = NagashiMangan(self._nagashi_seats(deltas), recorded_deltas=deltas)
        elif kind in _ABORTS:
            abort = _ABORTS[kind]
            seat: int | None = None
            if abort is AbortKind.NINE_TERMINALS:
                seat = shown[0] if len(shown) == 1 else self._last_drawer()
            elif abort is AbortKind.TRIPLE_RON:
                seat = self.offer_seat if self.offer_seat >= 0 else None
            event = AbortiveDraw(abort, seat=seat, recorded_deltas=deltas)
        else:
            raise _TagError(f"unknown RYUUKYOKU type {_short(kind)}")
        self.events.append(event)
        self.ended = True
        self._owari(attrs)

    def _nagashi_seats(self, deltas: tuple[int, ...] | None) -> tuple[int, ...]:
        """The seats that discarded only terminals and honours, none called; checked against
        the payments: exactly those seats gain."""
        seats = tuple(seat for seat, clean in enumerate(self.nagashi) if clean is True)
        if not seats:
            raise _TagError("nagashi mangan, but every seat discarded a simple or was called")
        if deltas is not None:
            gaining = tuple(seat for seat, delta in enumerate(deltas) if delta > 0)
            if gaining != seats:
                raise _TagError(
                    f"nagashi mangan: seats {list(seats)} discarded only terminals and "
                    f"honours, but seats {list(gaining)} are paid"
                )
        return seats

    def _last_drawer(self) -> int | None:
        for event in reversed(self.events):
            if isinstance(event, Draw):
                return event.seat
        return None


# -- the format -----------------------------------------------------------------------------------


def read_mjlog(data: bytes, log_id: str | None = None) -> Game:
    """The game of one mjlog file (gzip-compressed or not).

    ``log_id`` is the Tenhou id when the caller knows it (see :func:`log_id_from_name`): it
    becomes ``Source.id`` and gives the start time.

    :raises MalformedLogError: anything that is not a readable mjlog, naming the place.
    """
    return _GameReader(log_id).read(*_elements(decompress(data)))


def read(data: bytes) -> list[Game]:
    """The :class:`Format` reader: one mjlog holds one game."""
    return [read_mjlog(data)]


def read_named(data: bytes, file_name: str) -> list[Game]:
    """The reader given the file's name: Tenhou names an mjlog after its log id."""
    return [read_mjlog(data, log_id_from_name(file_name))]


FORMAT = Format(
    name="mjlog",
    title="Tenhou mjlog XML",
    extensions=(".mjlog", ".xml", ".txt"),
    sniff=sniff,
    read=read,
    write=None,
    read_named=read_named,
    markup="xml",
)

"""The canonical game record: a header, rounds, and the events of each round.

Every format the service reads becomes this, and every format it writes is made from it. The
classes are frozen dataclasses; the JSON form (version :data:`FORMAT_VERSION`) is written and read
by :mod:`engine.formats.canonical` and described field by field in ``docs/format.md``.

Seats are absolute (0 is the first dealer's seat; ``Round.dealer`` says who deals this round).
Scores are points (25000, not 250). Tiles are :class:`~engine.tiles.Tile` values (``0m`` is a red
five in the JSON form).

**Recorded versus computed.** Whatever a source *claims* about the outcome (its han, fu, yaku,
points, score deltas, final scores) is kept in fields named ``recorded``/``recorded_*``. The
engine never trusts them: the replayer computes its own values from the actions and compares.
Actions (draws, discards, calls, declarations) are the record itself and are checked for
legality, not compared.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from typing import ClassVar, TypeAlias

from engine.tiles import Tile

#: Version of the canonical JSON form. Bump it on any incompatible change, and keep a reader for
#: the old one.
FORMAT_VERSION = 1


# -- game header --------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Player:
    """A player as the source names them."""

    name: str
    #: The source's rank label (Tenhou dan ``七段``), when given.
    rank: str | None = None
    #: The source's rating (Tenhou R), when given.
    rating: float | None = None


@dataclass(frozen=True, slots=True)
class Source:
    """Where a game came from."""

    #: Format name of the original (``mjlog``, ``tenhou6``, ``mjai``, ``canonical``, ``sim``).
    format: str
    #: The source's own id of the game (Tenhou log id), when it has one.
    id: str | None = None
    #: Source details worth keeping that have no field of their own (Tenhou ``lobby``, GO
    #: ``type``, ``rule.disp``), as strings.
    extra: Mapping[str, str] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class GameHeader:
    """What holds for the whole game."""

    #: Rule-set preset name (see ``engine.rules.presets``).
    ruleset: str
    #: Options that differ from the preset (``Ruleset`` field names and JSON values).
    rule_overrides: Mapping[str, object]
    #: One entry per seat, in seat order.
    players: tuple[Player, ...]
    source: Source
    #: Start time, ISO 8601 (``2010-08-17T09:00:00+09:00`` or a date only), when known.
    started_at: str | None = None


# -- events ---------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Draw:
    """``seat`` draws ``tile`` (from the live wall, or the dead wall after a kan or kita)."""

    type: ClassVar[str] = "draw"
    seat: int
    tile: Tile


@dataclass(frozen=True, slots=True)
class Discard:
    """``seat`` discards ``tile``; ``tsumogiri`` when it is the tile just drawn."""

    type: ClassVar[str] = "discard"
    seat: int
    tile: Tile
    tsumogiri: bool = False


@dataclass(frozen=True, slots=True)
class Chi:
    """``seat`` calls a run on ``tile`` discarded by ``from_seat``, showing ``consumed``."""

    type: ClassVar[str] = "chi"
    seat: int
    from_seat: int
    tile: Tile
    consumed: tuple[Tile, ...]


@dataclass(frozen=True, slots=True)
class Pon:
    """``seat`` calls a triplet on ``tile`` discarded by ``from_seat``, showing ``consumed``."""

    type: ClassVar[str] = "pon"
    seat: int
    from_seat: int
    tile: Tile
    consumed: tuple[Tile, ...]


@dataclass(frozen=True, slots=True)
class OpenKan:
    """``seat`` calls a quad on ``tile`` discarded by ``from_seat`` (daiminkan)."""

    type: ClassVar[str] = "open_kan"
    seat: int
    from_seat: int
    tile: Tile
    consumed: tuple[Tile, ...]


@dataclass(frozen=True, slots=True)
class ClosedKan:
    """``seat`` declares a quad of four concealed ``tiles`` (ankan)."""

    type: ClassVar[str] = "closed_kan"
    seat: int
    tiles: tuple[Tile, ...]


@dataclass(frozen=True, slots=True)
class AddedKan:
    """``seat`` adds ``tile`` to their called triplet of its kind (kakan, shouminkan)."""

    type: ClassVar[str] = "added_kan"
    seat: int
    tile: Tile


@dataclass(frozen=True, slots=True)
class NorthExtraction:
    """3-player: ``seat`` sets a North ``tile`` aside as a bonus dora (kita, nukidora)."""

    type: ClassVar[str] = "north"
    seat: int
    tile: Tile


@dataclass(frozen=True, slots=True)
class RiichiDeclared:
    """``seat`` declares riichi; their next discard is the riichi discard."""

    type: ClassVar[str] = "riichi"
    seat: int


@dataclass(frozen=True, slots=True)
class RiichiAccepted:
    """The riichi discard of ``seat`` passed without ron: the 1000-point stick goes down."""

    type: ClassVar[str] = "riichi_accepted"
    seat: int


@dataclass(frozen=True, slots=True)
class DoraRevealed:
    """A new (kan) dora ``indicator`` is turned over."""

    type: ClassVar[str] = "dora"
    indicator: Tile


@dataclass(frozen=True, slots=True)
class RecordedWin:
    """What the source says a win was worth. Every field is optional: sources differ."""

    han: int | None = None
    fu: int | None = None
    #: ``(yaku name, han)`` pairs with the engine's yaku names (``engine.rules.yaku``); a
    #: yakuman counts 13 per time it counts.
    yaku: tuple[tuple[str, int], ...] | None = None
    #: The hand's value before honba and sticks (Tenhou's ``ten`` points).
    points: int | None = None
    #: ``mangan`` ... ``yakuman`` (``engine.scoring.limits`` names), ``None`` for no limit.
    limit: str | None = None
    #: Score change of every seat from this win, honba and sticks included.
    deltas: tuple[int, ...] | None = None
    #: The seat the source holds liable (pao), if any.
    liable: int | None = None
    #: The winner's concealed tiles as the source shows them (winning tile included).
    hand: tuple[Tile, ...] | None = None


@dataclass(frozen=True, slots=True)
class Win:
    """``seat`` wins on ``tile``: by tsumo when ``from_seat == seat``, else by ron on
    ``from_seat``'s discard (or their added kan: chankan). One event per winner."""

    type: ClassVar[str] = "win"
    seat: int
    from_seat: int
    tile: Tile
    recorded: RecordedWin | None = None

    @property
    def tsumo(self) -> bool:
        """Whether this is a self-drawn win."""
        return self.seat == self.from_seat


@dataclass(frozen=True, slots=True)
class ExhaustiveDraw:
    """The live wall ran out. ``recorded_tenpai`` are the seats the source shows as tenpai
    (their hands revealed); ``recorded_deltas`` the noten payments it records."""

    type: ClassVar[str] = "exhaustive_draw"
    recorded_tenpai: tuple[int, ...] | None = None
    recorded_deltas: tuple[int, ...] | None = None


class AbortKind(StrEnum):
    """The abortive draws."""

    NINE_TERMINALS = "nine_terminals"  # kyuushu kyuuhai
    FOUR_WINDS = "four_winds"  # suufon renda
    FOUR_RIICHI = "four_riichi"  # suucha riichi
    FOUR_KANS = "four_kans"  # suukaikan
    TRIPLE_RON = "triple_ron"  # sanchahou


@dataclass(frozen=True, slots=True)
class AbortiveDraw:
    """The hand is abandoned: ``kind`` says why; ``seat`` is who declared nine terminals.
    For a triple ron, ``seat`` is the discarder."""

    type: ClassVar[str] = "abortive_draw"
    kind: AbortKind
    seat: int | None = None
    recorded_deltas: tuple[int, ...] | None = None


@dataclass(frozen=True, slots=True)
class NagashiMangan:
    """The wall ran out and ``seats`` discarded only terminals and honours, none called: they
    are paid as for a mangan tsumo (instead of the noten payments)."""

    type: ClassVar[str] = "nagashi_mangan"
    seats: tuple[int, ...]
    recorded_deltas: tuple[int, ...] | None = None


@dataclass(frozen=True, slots=True)
class ScoreChange:
    """Points moved for a reason outside the hand's play (a penalty, an adjustment), applied as
    written. ``deltas`` has one entry per seat."""

    type: ClassVar[str] = "score_change"
    deltas: tuple[int, ...]
    reason: str


@dataclass(frozen=True, slots=True)
class Swap:
    """A rule modifier's action (``swap``, :mod:`engine.rules.modifiers`): ``seat`` swaps its
    concealed ``tile`` with the dora ``indicator`` showing: the tile becomes that indicator and
    the indicator joins the seat's hand. No riichi rule set has it, so the formats built for
    riichi (tenhou.net/6, mjai) cannot hold it."""

    type: ClassVar[str] = "swap"
    seat: int
    tile: Tile
    indicator: Tile


Event: TypeAlias = (
    Draw
    | Discard
    | Chi
    | Pon
    | OpenKan
    | ClosedKan
    | AddedKan
    | NorthExtraction
    | RiichiDeclared
    | RiichiAccepted
    | DoraRevealed
    | Win
    | ExhaustiveDraw
    | AbortiveDraw
    | NagashiMangan
    | ScoreChange
    | Swap
)

#: Every event class by its ``type`` name.
EVENT_TYPES: dict[str, type[Event]] = {
    cls.type: cls
    for cls in (
        Draw,
        Discard,
        Chi,
        Pon,
        OpenKan,
        ClosedKan,
        AddedKan,
        NorthExtraction,
        RiichiDeclared,
        RiichiAccepted,
        DoraRevealed,
        Win,
        ExhaustiveDraw,
        AbortiveDraw,
        NagashiMangan,
        ScoreChange,
        Swap,
    )
}

#: Events that only rule modifiers make (:mod:`engine.rules.modifiers`): no format built for
#: riichi mahjong can hold them (:func:`engine.formats.riichi_only.refuse_variant`).
MODIFIER_EVENTS: tuple[type[Event], ...] = (Swap,)

#: Events that end a round (a double ron is several ``Win`` events in a row).
ROUND_ENDS = (Win, ExhaustiveDraw, AbortiveDraw, NagashiMangan)


# -- rounds and the game --------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Wall:
    """The whole wall of a round, when the source knows it (self-play, Tenhou with its seed).

    ``live`` is the draw order after the deal; ``replacements`` the dead-wall draws after kans
    and north extractions, in order; ``dora_indicators`` and ``ura_indicators`` the indicator
    stacks in reveal order (the first is the round's opening indicator).
    """

    live: tuple[Tile, ...]
    replacements: tuple[Tile, ...]
    dora_indicators: tuple[Tile, ...]
    ura_indicators: tuple[Tile, ...]


@dataclass(frozen=True, slots=True)
class Round:
    """One hand (kyoku): how it starts, and what happened."""

    #: Round wind: 0 East, 1 South, 2 West, 3 North.
    wind: int
    #: Hand number within the wind, 1-4 (East 1 ... East 4).
    number: int
    #: Dealer's seat.
    dealer: int
    honba: int
    #: Riichi sticks on the table at the start.
    sticks: int
    #: Every seat's score at the start.
    scores: tuple[int, ...]
    #: Every seat's 13 starting tiles (an empty hand for the empty seat of sanma is not stored:
    #: a 3-player game has three hands).
    hands: tuple[tuple[Tile, ...], ...]
    #: Indicators shown at the start (normally one).
    dora_indicators: tuple[Tile, ...]
    events: tuple[Event, ...]
    #: Ura indicators as revealed at the end (empty unless a riichi winner revealed them).
    ura_indicators: tuple[Tile, ...] = ()
    wall: Wall | None = None

    @property
    def name(self) -> str:
        """``E1``, ``S3``, ...: the round's usual short name."""
        return f"{'ESWN'[self.wind]}{self.number}"


@dataclass(frozen=True, slots=True)
class FinalResult:
    """The end of the game as the source records it."""

    #: Final points per seat (leftover sticks included where the rules give them to first).
    scores: tuple[int, ...]
    #: The source's game result per seat after uma and oka (Tenhou's ``owari`` figures).
    results: tuple[float, ...] | None = None


@dataclass(frozen=True, slots=True)
class Game:
    """A whole game record."""

    header: GameHeader
    rounds: tuple[Round, ...]
    #: ``None`` when the record stops before the game's end.
    recorded_final: FinalResult | None = None
    #: What the reader accepted although the source wrote it oddly (a converter's known quirk
    #: whose meaning is unambiguous), one sentence each naming the place and how it was read.
    #: Empty for a record read as written. The replay report carries them; they never change
    #: the verdict.
    warnings: tuple[str, ...] = ()

    @property
    def players(self) -> int:
        """Number of seats."""
        return len(self.header.players)

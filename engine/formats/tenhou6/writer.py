"""Writing tenhou.net/6 objects: Tenhou's structure, hands and melds in Tenhou's order."""

from __future__ import annotations

import json
from typing import Any

from engine.errors import MalformedLogError, UnsupportedLogError
from engine.events import (
    AbortiveDraw,
    AddedKan,
    Chi,
    ClosedKan,
    Discard,
    DoraRevealed,
    Draw,
    Event,
    ExhaustiveDraw,
    Game,
    GameHeader,
    NagashiMangan,
    NorthExtraction,
    OpenKan,
    Pon,
    RecordedWin,
    RiichiDeclared,
    Round,
    ScoreChange,
    Win,
)
from engine.formats.riichi_only import refuse_variant
from engine.formats.tenhou6.calls import (
    DUMMY,
    TSUMOGIRI,
    CallString,
    format_call,
    tenhou_order,
    tile_code,
    tile_text,
)
from engine.formats.tenhou6.strings import (
    ABORT_LABELS,
    NAGASHI,
    WON,
    disp_rules,
    format_score,
    format_yaku,
    room_of,
)
from engine.game_flow import final_points
from engine.rules.majsoul import is_majsoul_record
from engine.rules.presets import PRESETS, with_overrides
from engine.rules.tenhou import dated_overrides, log_date
from engine.tiles import Tile

# -- writing --------------------------------------------------------------------------------------


def game_to_json(game: Game) -> dict[str, Any]:
    """The tenhou.net/6 object of one game."""
    refuse_variant(game, "tenhou6", "tenhou.net/6")
    header, players = game.header, game.players
    rules = _writable_rules(header, players)
    _, east_only, kuitan, red = rules
    extra = header.source.extra
    disp = extra.get("disp")
    majsoul = header.ruleset.startswith("majsoul-")
    if (
        disp is None
        or disp_rules(disp) != rules
        or majsoul != is_majsoul_record([disp], header.source.id)
    ):  # keep the source's text when it says the same
        room, fast = room_of(extra.get("go_type", ""))
        if majsoul:  # Mahjong Soul's name: the reader gives such a game Mahjong Soul's rules
            room, fast = "雀魂", False
        disp = ("三" if players == 3 else "") + room + ("東" if east_only else "南")
        disp += ("喰" if kuitan else "") + ("赤" if red else "") + ("速" if fast else "")
    lobby = extra.get("lobby", "0")
    obj: dict[str, Any] = {
        "ver": 2.3,
        "ref": header.source.id or "",
        "log": [_round_to_json(round_, players, i) for i, round_ in enumerate(game.rounds)],
        "ratingc": f"PF{players}",
        "rule": {"disp": disp, "aka53": int(red), "aka52": int(red), "aka51": int(red)},
        "lobby": int(lobby) if lobby.isdigit() else lobby,
    }
    people = header.players
    if any(p.rank is not None for p in people):
        obj["dan"] = _pad([p.rank or "" for p in people], "")
    if any(p.rating is not None for p in people):
        obj["rate"] = _pad([_plain(p.rating or 0.0) for p in people], 0)
    if len(extra.get("sx", "").split(",")) == 4:  # M, F or C (computer): only if the source said
        obj["sx"] = extra["sx"].split(",")
    final = game.recorded_final
    if final is not None:  # (points, result) per seat, the empty sanma seat included
        points = _pad(list(final.scores), 0)
        results = final.results
        if results is None:  # a record without them (self-play): the rules' final points
            ruleset = with_overrides(header.ruleset, header.rule_overrides)
            results = tuple(tenths / 10 for tenths in final_points(final.scores, ruleset)[0])
        shown = _pad([_plain(result) for result in results], 0)
        obj["sc"] = [value for pair in zip(points, shown, strict=True) for value in pair]
    obj["name"] = _pad([p.name for p in people], "")
    title = _title(extra.get("title"))
    if title:
        obj["title"] = title
    return obj


def _title(text: str | None) -> list[str] | None:
    """The ``title`` the reader kept as JSON text (a list of strings), if it is one."""
    try:
        title = json.loads(text) if text else None
    except ValueError:
        return None
    return title if isinstance(title, list) and all(isinstance(t, str) for t in title) else None


def _writable_rules(header: GameHeader, players: int) -> tuple[bool, bool, bool, bool]:
    """(sanma, east only, open tanyao, red fives) of a Tenhou rule set; others are refused."""
    preset = PRESETS.get(header.ruleset)
    options = dict(header.rule_overrides)
    # Options the game's date implies (Tenhou's rule history) go without saying: the reader
    # gives them back from the log id.
    if preset is not None and preset.name.startswith("tenhou-"):
        for option, value in dated_overrides(preset, log_date(header.source.id)).items():
            if options.get(option) == value:
                del options[option]
    # A custom lobby's final points count by its own settings: the reader leaves them unchecked
    # again for the lobby number the record keeps.
    lobby = header.source.extra.get("lobby", "0")
    if lobby.isdigit() and int(lobby) and options.get("points_rounding") == "unchecked":
        del options["points_rounding"]
    red_fives = options.pop("red_fives", preset.red_fives if preset else None)
    kuitan = options.pop("kuitan", preset.kuitan if preset else None)
    if (
        preset is None
        or not preset.name.startswith(("tenhou-", "majsoul-"))
        or options
        or players != preset.players
    ):
        raise UnsupportedLogError(
            "tenhou.net/6 holds Tenhou and Mahjong Soul games: rule set "
            f"{header.ruleset!r} with options {sorted(header.rule_overrides)} and {players} "
            "players is not one"
        )
    if not isinstance(red_fives, list | tuple):
        raise UnsupportedLogError(f"rule option red_fives={red_fives!r} is not three counts")
    return players == 3, preset.length == "east", bool(kuitan), any(red_fives)


def _plain(value: float) -> float | int:
    """Integral floats as integers, as Tenhou writes them (``-19``, ``70.7``)."""
    return int(value) if float(value).is_integer() else value


def _pad(values: list[Any], filler: Any) -> list[Any]:
    """Four entries: sanma arrays keep the empty North seat."""
    return values + [filler] * (4 - len(values))


def _round_to_json(round_: Round, players: int, index: int) -> list[Any]:
    place = f"rounds[{index}] ({round_.name})"
    if round_.dealer != round_.number - 1:
        raise UnsupportedLogError(
            f"{place}: dealer seat {round_.dealer} in hand {round_.number}; Tenhou's first "
            "dealer is seat 0"
        )
    takes: list[list[Any]] = [[] for _ in range(4)]
    discards: list[list[Any]] = [[] for _ in range(4)]
    dora = [tile_code(tile) for tile in round_.dora_indicators]
    last_draw: list[Tile | None] = [None] * players
    riichi = [False] * players
    pons: dict[tuple[int, int], str] = {}
    wins: list[Win] = []
    end: Event | None = None
    for number, event in enumerate(round_.events):
        where = f"{place} events[{number}]"
        if isinstance(event, Draw):
            takes[event.seat].append(tile_code(event.tile))
            last_draw[event.seat] = event.tile
            continue
        if isinstance(
            event, Discard | Chi | Pon | OpenKan | ClosedKan | AddedKan | NorthExtraction
        ):
            # the tile just drawn (60) is the seat's own draw right before: nothing between
            drawn, last_draw[event.seat] = last_draw[event.seat], None
        if isinstance(event, Discard):
            tsumogiri = event.tsumogiri and drawn == event.tile
            code = TSUMOGIRI if tsumogiri else tile_code(event.tile)
            discards[event.seat].append(f"r{code}" if riichi[event.seat] else code)
            riichi[event.seat] = False
        elif isinstance(event, RiichiDeclared):
            riichi[event.seat] = True
        elif isinstance(event, Chi | Pon | OpenKan):
            kind = event.type  # chi, pon, open_kan: CallString's kinds
            offset = (event.from_seat - event.seat) % 4
            if kind == "chi" and offset != 3:
                raise MalformedLogError("a chi from another seat than the left one", where)
            text = format_call(CallString(kind, event.tile, tenhou_order(event.consumed), offset))
            takes[event.seat].append(text)
            if kind == "pon":
                pons[event.seat, event.tile.kind] = text
            elif kind == "open_kan":
                discards[event.seat].append(DUMMY)
        elif isinstance(event, ClosedKan):
            if len(event.tiles) != 4:
                raise MalformedLogError(f"a closed kan of {len(event.tiles)} tiles", where)
            quad = tenhou_order(event.tiles)
            discards[event.seat].append(format_call(CallString("closed_kan", quad[3], quad, 0)))
        elif isinstance(event, AddedKan):
            pon = pons.get((event.seat, event.tile.kind))
            if pon is None:
                raise MalformedLogError(f"seat {event.seat} adds {event.tile} to no pon", where)
            discards[event.seat].append(pon.replace("p", "k" + tile_text(event.tile), 1))
        elif isinstance(event, NorthExtraction):
            discards[event.seat].append("f" + tile_text(event.tile))
        elif isinstance(event, DoraRevealed):
            dora.append(tile_code(event.indicator))
        elif isinstance(event, Win):
            wins.append(event)
        elif isinstance(event, ExhaustiveDraw | AbortiveDraw | NagashiMangan):
            end = event
        elif isinstance(event, ScoreChange):
            raise UnsupportedLogError(f"{where}: tenhou.net/6 has no place for a score change")
    out: list[Any] = [
        [4 * round_.wind + round_.number - 1, round_.honba, round_.sticks],
        _pad(list(round_.scores), 0),
        dora,
        [tile_code(tile) for tile in round_.ura_indicators],
    ]
    for seat in range(4):
        hand = (
            [tile_code(tile) for tile in tenhou_order(round_.hands[seat])] if seat < players else []
        )
        out += [hand, takes[seat], discards[seat]]
    return [*out, _result_to_json(round_, wins, end, players, place)]


def _result_to_json(
    round_: Round, wins: list[Win], end: Event | None, players: int, place: str
) -> list[Any]:
    if wins:
        result: list[Any] = [WON]
        for win in wins:
            recorded = win.recorded or RecordedWin()
            liable = win.seat if recorded.liable is None else recorded.liable
            detail: list[Any] = [win.seat, win.from_seat, liable]
            if recorded.points is not None:
                dealer = win.seat == round_.dealer
                detail.append(
                    format_score(recorded, tsumo=win.tsumo, dealer=dealer, players=players)
                )
                detail += [format_yaku(name, han) for name, han in recorded.yaku or ()]
            result += [_pad(list(recorded.deltas or (0,) * players), 0), detail]
        return result
    if isinstance(end, NagashiMangan):
        return [NAGASHI, _pad(list(end.recorded_deltas or (0,) * players), 0)]
    if isinstance(end, AbortiveDraw):
        paid = end.recorded_deltas if end.recorded_deltas and any(end.recorded_deltas) else None
        return [ABORT_LABELS[end.kind], *([_pad(list(paid), 0)] if paid else [])]
    if isinstance(end, ExhaustiveDraw):
        deltas = end.recorded_deltas
        if not (deltas and any(deltas)) and end.recorded_tenpai in ((), tuple(range(players))):
            return ["全員不聴" if end.recorded_tenpai == () else "全員聴牌"]
        return ["流局", _pad(list(deltas), 0)] if deltas is not None else ["流局"]
    raise MalformedLogError(
        f"{place}: the round has no end (a win or a draw); tenhou.net/6 needs one"
    )

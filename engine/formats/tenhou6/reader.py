"""Reading tenhou.net/6 files: objects, grouping them into games, and each game's header."""

from __future__ import annotations

import dataclasses
import json
import re
from dataclasses import dataclass
from typing import Any, Final

from engine.errors import MalformedLogError, UnsupportedLogError
from engine.events import (
    AbortiveDraw,
    Discard,
    DoraRevealed,
    Draw,
    ExhaustiveDraw,
    FinalResult,
    Game,
    GameHeader,
    NagashiMangan,
    NorthExtraction,
    Player,
    RiichiAccepted,
    RiichiDeclared,
    Round,
    Source,
    Win,
)
from engine.formats.base import (
    ReaderWarnings,
    check_strings,
    cut_short,
    cut_short_message,
    json_loads,
    tenhou_log_started_at,
)
from engine.formats.tenhou6.interleave import read_round
from engine.formats.tenhou6.links import link_values
from engine.formats.tenhou6.round_data import RoundData
from engine.formats.tenhou6.strings import disp_rules, is_tenhou_disp
from engine.formats.tenhou6.values import as_array, as_int, as_number, as_str, kind_name
from engine.rules.majsoul import is_majsoul_record, majsoul_length, majsoul_preset
from engine.rules.presets import with_overrides
from engine.rules.ruleset import KanDoraTiming
from engine.rules.tenhou import TenhouLobby, log_date, tenhou_game_rules
from engine.rules.tenhou_csrule import is_csrule

NAME: Final = "tenhou6"


# -- games ----------------------------------------------------------------------------------------


@dataclass(slots=True)
class _Part:
    """One tenhou.net/6 object, decoded: its rounds, and the object for its header values."""

    obj: dict[str, Any]
    place: str
    players: int
    rounds: list[Round]
    #: What its rounds held that was odd but readable.
    warnings: ReaderWarnings
    #: Its ``rule``, as one object (:func:`_rule`).
    rule: dict[str, Any]
    #: A custom lobby's own rules (its ``csrule``), or ``""``.
    custom_rules: str

    @property
    def key(self) -> object:
        """What objects of one game share: the log id, else the player names."""
        ref = self.obj.get("ref")
        return ref if isinstance(ref, str) and ref else repr(self.obj.get("name"))


def _load(data: bytes) -> list[tuple[Any, str]]:
    """Every top-level JSON value (one, an array's items, JSON lines, or the records of a text's
    tenhou.net links), each with the prefix that names its place in error messages."""
    try:
        text = data.decode("utf-16" if data[:2] in (b"\xff\xfe", b"\xfe\xff") else "utf-8-sig")
    except UnicodeDecodeError as error:
        raise MalformedLogError(f"not UTF-8 text ({error.reason} at byte {error.start})") from None
    text = strip_comment_lines(text)
    if not text.lstrip().startswith(("{", "[")):
        # Not JSON itself: a text holding tenhou.net links with the records in them?
        linked = link_values(text)
        if linked:
            return linked
    try:
        value = _json(text)
    except MalformedLogError:
        # Split on newlines only: str.splitlines() also splits on U+2028 and others, which the
        # JSON strings of a line (player names) may hold as they are.
        lines = [(n, line) for n, line in enumerate(text.split("\n"), 1) if line.strip()]
        if len(lines) < 2:
            raise
        return [(_json(line, f"line {n}"), f"line {n}: ") for n, line in lines]
    if isinstance(value, list):
        if not value:
            raise MalformedLogError("an empty array holds no game")
        return [(item, f"[{i}].") for i, item in enumerate(value)]
    return [(value, "")]


#: A whole line that is a ``//`` comment, leading blanks allowed: a note some files carry before
#: or between their JSON (as JavaScript allows; JSON has no comments).
_COMMENT_LINE: Final = re.compile(r"^[ \t]*//[^\n]*", re.MULTILINE)


def strip_comment_lines(text: str) -> str:
    """``text`` with every whole-line ``//`` comment emptied, the line itself kept so that
    errors keep naming the file's own line numbers. Such a line is never inside a JSON string:
    a string cannot hold a line break, so every line starts outside one. A ``//`` after a value
    on the same line is not taken for a comment (it could be inside a string)."""
    return _COMMENT_LINE.sub("", text) if "//" in text else text


def _json(text: str, where: str | None = None) -> Any:
    """Parse JSON, refusing what Python's parser accepts beyond it (NaN, Infinity)."""
    try:
        value = json_loads(text, parse_constant=_no_constant)
    except json.JSONDecodeError as error:
        place = where or f"line {error.lineno}"
        detail = f"not valid JSON: {error.msg}, column {error.colno}"
        if cut_short(error):
            size = f"{len(text):,} characters"
            raise MalformedLogError(cut_short_message("JSON", size, detail), place) from None
        message = f"not valid JSON ({error.msg}, column {error.colno})"
        raise MalformedLogError(message, place) from None
    except RecursionError:
        raise MalformedLogError("JSON nested too deeply", where) from None
    except ValueError as error:
        raise MalformedLogError(str(error), where) from None
    if "\\u" in text:  # only an escape can make a NUL or a lone surrogate
        check_strings(value, where)
    return value


def _tiles_as_text(raw: list[Any]) -> bool:
    """Whether a round writes tiles as text (``"3s"``, ``"r5z"``): Tenhou writes numbers, and
    its call strings (``"c121314"``, ``"5252p52"``) are never a digit and a suit alone."""
    return any(
        isinstance(item, str) and _TILE_TEXT.fullmatch(item) is not None
        for element in raw
        if isinstance(element, list)
        for item in element
    )


_TILE_TEXT: Final = re.compile(r"[a-z]?[0-9][mpsz]")


def _no_constant(name: str) -> None:
    raise ValueError(f"{name} is not a JSON number")


def _is_majiang(obj: dict[str, Any]) -> bool:
    """Whether an object is 電脳麻将's own game log (kobalab/majiang-core ``Game``'s paipu): it
    names the first dealer (``qijia``), and its rounds are lists of event objects, the first
    ``{"qipai": ...}``, where tenhou.net/6 has 17-element arrays."""
    log = obj.get("log")
    first = log[0] if isinstance(log, list) and log else None
    starts_with_qipai = (
        isinstance(first, list)
        and bool(first)
        and isinstance(first[0], dict)
        and "qipai" in first[0]
    )
    return starts_with_qipai or ("qijia" in obj and "player" in obj)


def _part(obj: Any, prefix: str) -> _Part:
    """Decode one object's rounds. Sanma: ``三`` in ``rule.disp`` (or ``ratingc`` PF3), or
    seat 3 without a hand in every round."""
    if not isinstance(obj, dict):
        raise MalformedLogError(
            f"expected a tenhou.net/6 object, got {kind_name(obj)}", prefix.rstrip(".: ") or None
        )
    if _is_majiang(obj):
        # Its "log" makes it look like tenhou.net/6 at a glance; say what it is rather than
        # which of Tenhou's elements its rounds lack.
        at = prefix.rstrip(".: ")
        raise UnsupportedLogError(
            (f"{at}: " if at else "")
            + "a 電脳麻将 (Majiang) JSON game log (the paipu of kobalab/majiang-core: title, "
            "player, qijia, and rounds of qipai, zimo, dapai... events), not tenhou.net/6; this "
            "format is not read"
        )
    log = as_array(obj.get("log"), f"{prefix}log")
    for r, raw in enumerate(log):
        if _tiles_as_text(as_array(raw, f"{prefix}log[{r}]")):
            # majsoul-analysis-suite's look-alike: its own layout, not Tenhou's. Say what it is
            # rather than which of Tenhou's elements it lacks.
            raise UnsupportedLogError(
                f"{prefix}log[{r}]: a look-alike of tenhou.net/6 with tiles as text ('3s', "
                "'r5z') in a layout of its own, not Tenhou's format"
            )
        if len(raw) != 17:
            raise MalformedLogError(f"a round has 17 elements, not {len(raw)}", f"{prefix}log[{r}]")
    rule, custom_rules = _rule(obj, prefix)
    disp = as_str(rule.get("disp", ""), f"{prefix}rule.disp")
    said_sanma = "三" in disp or obj.get("ratingc") == "PF3"
    no_north = [raw[13] == [] for raw in log]
    if any(no_north) and not all(no_north):
        raise MalformedLogError("seat 3 has a starting hand in some rounds only", f"{prefix}log")
    players = 3 if (log and all(no_north)) or (said_sanma and not log) else 4
    if said_sanma and players == 4:
        raise MalformedLogError(
            f"rule {disp!r} is sanma, but seat 3 has a hand", f"{prefix}log[0][13]"
        )
    warnings = ReaderWarnings()
    # A round lists its opening indicator and one a kan: a game without kan dora lists one only.
    kan_dora = [isinstance(raw[2], list) and len(raw[2]) > 1 for raw in log]
    rounds = [
        read_round(
            RoundData(
                raw,
                players,
                f"{prefix}log[{r}]",
                warnings,
                kan_dora_elsewhere=any(kan_dora[:r] + kan_dora[r + 1 :]),
            )
        )
        for r, raw in enumerate(log)
    ]
    return _Part(obj, prefix, players, rounds, warnings, rule, custom_rules)


def _rule(obj: dict[str, Any], prefix: str) -> tuple[dict[str, Any], str]:
    """A record's ``rule`` as one object, and a custom lobby's own rules (its ``csrule``) as
    text, ``""`` for none.

    Tenhou's ranked lobbies write an object (``{"disp": "般南喰赤", "aka": 1}``). A custom or
    tournament lobby's record adds its csrule: as a member of ``rule`` or of the record, as text
    or as an array of its fields; or writes ``rule`` as an array of such parts. Each part is
    read for what it is: an object's members as ``rule``'s, a Tenhou rule text (``般南喰赤``) as
    ``disp``, a csrule in the published layout (:func:`is_csrule`) as the csrule, an array that
    is the csrule's fields as the csrule. Anything else is kept with the lobby's own rules, which
    the replay then names as not read rather than guess them.
    """
    value = obj.get("rule", {})
    where = f"{prefix}rule"
    other: list[Any] = []
    if isinstance(value, dict):
        rule = dict(value)
    elif isinstance(value, list):
        rule = {}
        if _csrule_fields(value):
            rule["csrule"] = value
        else:
            for item in value:
                if isinstance(item, dict):
                    for key, member in item.items():
                        rule.setdefault(key, member)
                elif isinstance(item, str) and is_csrule(item) and "csrule" not in rule:
                    rule["csrule"] = item
                elif isinstance(item, str) and is_tenhou_disp(item) and "disp" not in rule:
                    rule["disp"] = item
                else:
                    other.append(item)
    else:
        raise MalformedLogError(f"expected an object or an array, got {kind_name(value)}", where)
    csrule = rule.get("csrule", obj.get("csrule", ""))
    if isinstance(csrule, list) and _csrule_fields(csrule):
        csrule = ",".join("" if field is None else str(field) for field in csrule)
    elif not isinstance(csrule, str):
        other.append(csrule)
        csrule = ""
    if other:
        # Parts of no known meaning: the lobby's own rules, not read (and a csrule beside them
        # is not read either, as the rules it is part of are not all known).
        unknown = json.dumps(other, ensure_ascii=False)
        csrule = f"{csrule}; {unknown}" if csrule else unknown
    return rule, csrule.strip()


def _csrule_fields(value: list[Any]) -> bool:
    """Whether an array is a csrule's fields: its two flag words, then numbers or nothing."""
    return (
        len(value) >= 2
        and all(isinstance(flag, str) and _FLAG_WORD.fullmatch(flag) for flag in value[:2])
        and all(
            field is None
            or (isinstance(field, int) and not isinstance(field, bool))
            or (isinstance(field, str) and (field == "" or field.lstrip("-").isdigit()))
            for field in value[2:]
        )
    )


#: A csrule's flag word: 8 hex digits.
_FLAG_WORD: Final = re.compile(r"[0-9a-fA-F]{8}")


def read_log(data: bytes) -> list[Game]:
    """Every game in a tenhou.net/6 file (:func:`engine.formats.tenhou6.read`)."""
    return [_game(group) for group in _games([_part(obj, at) for obj, at in _load(data)])]


def _games(parts: list[_Part]) -> list[list[_Part]]:
    """Group consecutive parts of one game: same key and seats, rounds going forward (a game's
    (wind, hand, honba) only grows: a repeated hand has one more honba)."""
    games: list[list[_Part]] = []
    for part in parts:
        before = games[-1][-1] if games else None
        if (
            before is not None
            and (part.key, part.players) == (before.key, before.players)
            and (
                not part.rounds
                or not before.rounds
                or _order(part.rounds[0]) > _order(before.rounds[-1])
            )
        ):
            games[-1].append(part)
        else:
            games.append([part])
    return games


def _order(round_: Round) -> tuple[int, int, int]:
    return round_.wind, round_.number, round_.honba


def _game(parts: list[_Part]) -> Game:
    first, last = parts[0], parts[-1]
    obj, prefix, players = first.obj, first.place, first.players
    rounds = tuple(round_ for part in parts for round_ in part.rounds)
    rule = first.rule
    disp = rule.get("disp", "")
    ref = (as_str(obj["ref"], f"{prefix}ref") or None) if "ref" in obj else None
    final = _final(last.obj.get("sc"), rounds[-1] if rounds else None, players, f"{last.place}sc")
    ruleset_name, overrides = _rules(obj, first, disp, ref, rounds, final)
    if with_overrides(ruleset_name, overrides).open_kan_dora_timing is KanDoraTiming.AFTER_DISCARD:
        rounds = tuple(_dora_after_discards(round_) for round_ in rounds)
    header = GameHeader(
        ruleset=ruleset_name,
        rule_overrides=overrides,
        players=_players(obj, players, prefix),
        source=Source(format=NAME, id=ref, extra=_extra(obj, rule, first.custom_rules)),
        started_at=tenhou_log_started_at(ref),
    )
    warnings = ReaderWarnings()
    for part in parts:
        warnings.extend(part.warnings)
    return Game(header=header, rounds=rounds, recorded_final=final, warnings=warnings.lines())


def _rules(
    obj: dict[str, Any],
    part: _Part,
    disp: str,
    ref: str | None,
    rounds: tuple[Round, ...],
    final: FinalResult | None,
) -> tuple[str, dict[str, object]]:
    """The rule set (preset and overrides) of a game, by where and when it was played: a
    Mahjong Soul game converted to this format gets Mahjong Soul's rules; a Tenhou game its
    lobby's rules as on the day of its log id, a custom lobby's with its own rules
    (``engine/rules/tenhou.py``)."""
    rule, players = part.rule, part.players
    title = obj.get("title")
    texts = [disp, *(text for text in _flat_strings(title))]
    flags = [rule[key] for key in ("aka", "aka51", "aka52", "aka53") if key in rule]
    shows_red = any(_shows_red(round_) for round_ in rounds)
    if is_majsoul_record(texts, ref):
        length = majsoul_length(texts) or _length_by_its_end(rounds, final)
        name = majsoul_preset(players == 3, length == "east")
        red = (any(flags) if flags else True) or shows_red
        return name, ({} if red else {"red_fives": [0, 0, 0]})
    _, east_only, kuitan, red = disp_rules(disp)
    if not is_tenhou_disp(disp):  # a converter's text: the aka flags say, else yes
        red = any(flags) if flags else True
    lobby = TenhouLobby.from_flags(
        three_player=players == 3, east_only=east_only, red=red or shows_red, kuitan=kuitan
    )
    number = obj.get("lobby", 0)
    if isinstance(number, str) and number.isascii() and number.isdigit():
        number = int(number)
    if part.custom_rules or (isinstance(number, int) and number > 0):
        lobby = dataclasses.replace(
            lobby,
            custom_rules=part.custom_rules,
            number=number if isinstance(number, int) and number > 0 else 0,
        )
    return tenhou_game_rules(lobby, log_date(ref))


def _dora_after_discards(round_: Round) -> Round:
    """The round with each open or added kan's dora turned after the kanner's next discard or
    North extraction (Mahjong Soul) instead of before it (Tenhou, as the events are placed):
    the format lists only the indicators, and where they turn is the rules'."""
    events = list(round_.events)
    index = 0
    while index < len(events) - 1:
        event = events[index]
        if isinstance(event, DoraRevealed):
            after = index + 1
            if isinstance(events[after], RiichiDeclared) and after + 1 < len(events):
                after += 1
            # A North extraction made instead of the discard turns it too (the rules').
            if isinstance(events[after], Discard | NorthExtraction):
                events.insert(after, events.pop(index))
                index = after
        index += 1
    return dataclasses.replace(round_, events=tuple(events))


def _flat_strings(value: Any) -> list[str]:
    """Every string in a title (a string, or lists of them, as the converters write it)."""
    if isinstance(value, str):
        return [value]
    if isinstance(value, list):
        return [text for item in value for text in _flat_strings(item)]
    return []


def _length_by_its_end(rounds: tuple[Round, ...], final: FinalResult | None) -> str:
    """The length of a game whose rule text does not say: one that ended (a final result)
    in the East round with nobody below zero was an East-only game; any other, a hanchan."""
    if final is not None and rounds and rounds[-1].wind == 0 and min(final.scores) >= 0:
        return "east"
    return "east_south"


def _shows_red(round_: Round) -> bool:
    """Whether a red five shows: every tile of a round is dealt, drawn or an indicator."""
    return any(tile.red for hand in round_.hands for tile in hand) or any(
        event.tile.red for event in round_.events if isinstance(event, Draw)
    )


def _players(obj: dict[str, Any], players: int, prefix: str) -> tuple[Player, ...]:
    names, dans, rates = (
        as_array(obj.get(key, []), prefix + key) for key in ("name", "dan", "rate")
    )
    # Tenhou writes four names for three players, the fourth empty; a name beyond the seats
    # would be a player the game does not have, dropped without a word if read.
    extra = [name for name in names[players:] if name != ""]
    if extra:
        raise MalformedLogError(
            f"{len(names)} names for a {players}-player game (the rule set's); a seat beyond "
            f"the {players}th must be empty, and {extra[0]!r} is not",
            prefix + "name",
        )
    return tuple(
        Player(
            as_str(names[seat], f"{prefix}name[{seat}]") if seat < len(names) else "",
            (as_str(dans[seat], f"{prefix}dan[{seat}]") if seat < len(dans) else "") or None,
            as_number(rates[seat], f"{prefix}rate[{seat}]") if seat < len(rates) else None,
        )
        for seat in range(players)
    )


def _extra(obj: dict[str, Any], rule: dict[str, Any], custom_rules: str) -> dict[str, str]:
    """Header values with no field of their own, as strings (the title as its JSON)."""
    extra = {"disp": str(rule["disp"])} if "disp" in rule else {}
    if custom_rules:
        extra["csrule"] = custom_rules
    if "lobby" in obj:
        extra["lobby"] = str(obj["lobby"])
    if isinstance(obj.get("title"), list) and any(obj["title"]):
        extra["title"] = json.dumps(obj["title"], ensure_ascii=False)
    if isinstance(obj.get("sx"), list):
        extra["sx"] = ",".join(map(str, obj["sx"]))
    return extra


def _final(value: Any, last: Round | None, players: int, where: str) -> FinalResult | None:
    """The final ``sc`` (points, result pairs) when the log's last round ends the game: its end
    scores are the final points but for the leftover riichi sticks, which go to one seat (first
    place). A trimmed log (a few rounds of a game) keeps the whole game's ``sc``: no match."""
    if value is None or last is None:
        return None
    values = as_array(value, where)
    if len(values) < 2 * players:
        raise MalformedLogError(f"{len(values)} values, not (points, result) per seat", where)
    points = tuple(as_int(values[2 * s], f"{where}[{2 * s}]") for s in range(players))
    results = tuple(as_number(values[2 * s + 1], f"{where}[{2 * s + 1}]") for s in range(players))
    end = list(last.scores)
    sticks = last.sticks
    for event in last.events:
        deltas: tuple[int, ...] | None = None
        if isinstance(event, RiichiAccepted):
            end[event.seat] -= 1000
            sticks += 1
        elif isinstance(event, Win):
            deltas = event.recorded.deltas if event.recorded else None
            sticks = 0
        elif isinstance(event, ExhaustiveDraw | AbortiveDraw | NagashiMangan):
            deltas = event.recorded_deltas
        for seat, delta in enumerate(deltas or ()):
            end[seat] += delta
    off = [p - e for p, e in zip(points, end, strict=True) if p != e]
    return FinalResult(points, results) if off in ([], [1000 * sticks]) else None

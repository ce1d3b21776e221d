"""jansou (PyPI ``jansou``, pure Python): reads our mjai and our tenhou.net/6, replays every
hand through its live game flow and scores every win against the record.

Per export (``mjai``, and ``tenhou6`` for Tenhou rule sets, the only ones tenhou.net/6 holds):

* **reading**: ``jansou.io.mjai.parse_mjai`` / ``jansou.io.tenhou_json.parse_tenhou_json``;
* **actions**: ``jansou.io.replay.replay_round_decisions`` drives each hand through jansou's own
  flow, which offers the legal actions at every decision and raises ``ReplayError`` at the
  first recorded action or event that its flow does not produce;
* **wins**: what ``jansou-validate`` does (``jansou.validation.check.check_win``): each win is
  rebuilt by jansou's replay (``replay_round``), scored, and its value (points before honba and
  sticks, read from the record's deltas) and fu compared with the record.

mjai carries no rules, and jansou reads a ``preset`` member of ``start_game`` (its own
extension) to know them, else plays Tenhou's. The referee adds ``"preset"`` (jansou's name for
the rule set: ``tenhou``, ``tenhou-3p``, ``mahjong-soul``, ``mahjong-soul-3p``) to the
``start_game`` line it hands to jansou; the rest of the file is our writer's, unchanged.
"""

from __future__ import annotations

import dataclasses
import json
import re

from jansou.game.events import ScoreChange
from jansou.io.mjai import parse_mjai
from jansou.io.paifu import replay_round
from jansou.io.replay import ReplayError, replay_round_decisions
from jansou.io.tenhou_json import parse_tenhou_json
from jansou.validation.check import check_win
from mahjong.agari import Agari
from riichienv._riichienv import calculate_score

from benchmarks.referee import judge_jansou_game
from benchmarks.referee.findings import Verdicts, round_label
from benchmarks.referee.hand_shapes import (
    dora_kind,
    hands_before,
    is_thirteen_orphans,
    kan_karaten,
)
from benchmarks.referee.judge_game_flow import scores_after
from benchmarks.referee.judge_jansou_game import HandEnd
from benchmarks.referee.situation import hands_at_end
from engine.events import (
    AbortiveDraw,
    AddedKan,
    Chi,
    ClosedKan,
    Discard,
    DoraRevealed,
    Draw,
    ExhaustiveDraw,
    Game,
    NagashiMangan,
    NorthExtraction,
    OpenKan,
    Pon,
    RiichiDeclared,
    Win,
)
from engine.replay import replay

PEER = "jansou"

PRESETS = {
    "tenhou-4p": "tenhou",
    "tenhou-3p": "tenhou-3p",
    "majsoul-4p": "mahjong-soul",
    "majsoul-3p": "mahjong-soul-3p",
}
#: jansou's tenhou.net/6 reader takes the players from ``name`` (Tenhou lists four, the last
#: empty, in sanma) and has no North extraction: Tenhou's sanma records are beyond it.
SANMA_TENHOU6 = "does not read Tenhou sanma tenhou.net/6"
#: jansou's mjai reader knows the robbed tile of an added kan or a North, not of a closed kan.
ANKAN_RON = "cannot read a ron on a closed kan (thirteen orphans)"
#: jansou's rules pool the noten payments at 3,000 (``noten_penalty_pool`` is 0 or 3,000), its
#: sanma presets included; Tenhou and Mahjong Soul sanma pool them at 2,000.
SANMA_NOTEN = "sanma noten payments from a 3,000 pool"
#: jansou's pao covers a whole composite yakuman (Tenhou's way) on Mahjong Soul too.
COMPOSITE_PAO = "pao over the whole of a composite yakuman"
#: jansou counts a hand noten when its every wait is a kind its own kans hold four of.
KAN_KARATEN = "tenpai on a kind held four times in own kans counted noten"
#: jansou turns a waiting kan indicator after an added kan's robbing window, not before it.
CHANKAN_DORA = "waiting kan indicator turned before a chankan left unplayed"
#: ...and so it settles that chankan without the indicator's dora.
CHANKAN_DORA_SETTLEMENT = "chankan settled without the waiting kan indicator's dora"
_AGARI = Agari()
#: The canonical events that jansou's parsed rounds hold, in the same order (riichi is a flag
#: of its discard; acceptance, wins and draws of the hand are the outcome).
_JANSOU_EVENTS = (
    Draw,
    Discard,
    Chi,
    Pon,
    OpenKan,
    ClosedKan,
    AddedKan,
    NorthExtraction,
    DoraRevealed,
)


def with_preset(mjai_text: str, ruleset: str) -> str:
    """Our mjai with jansou's ``preset`` member added to ``start_game``."""
    first, _, rest = mjai_text.partition("\n")
    start = json.loads(first)
    start["preset"] = PRESETS[ruleset.removesuffix("-east")]
    return json.dumps(start, ensure_ascii=False, separators=(",", ":")) + "\n" + rest


def judge(game: Game, export: str, text: str, verdicts: Verdicts) -> None:
    """Read, replay and score one game from one of our exports (``mjai`` or ``tenhou6``)."""
    peer = f"{PEER} ({export})"
    skipped: set[int] = set()
    try:
        paifu = _parse(game, export, text)
    except Exception as error:  # jansou's parse errors have no common base class
        robbing = _rounds_robbing_ankan(game) if export == "mjai" else set()
        if not robbing or "hora without a preceding" not in str(error):
            sanma = export == "tenhou6" and game.players == 3
            what = SANMA_TENHOU6 if sanma else "cannot read the export"
            verdicts.add(peer, what, "", None, "readable", f"{type(error).__name__}: {error}")
            return
        # jansou cannot read the hands where thirteen orphans robs a closed kan: those alone
        # are left out, and the rest of the game is judged.
        for index in sorted(robbing):
            verdicts.add(
                peer,
                ANKAN_RON,
                round_label(index, game.rounds[index].name),
                None,
                "readable",
                f"{type(error).__name__}: {error}",
            )
        skipped = robbing
        if len(skipped) == len(game.rounds):
            return  # (a game of that one hand: nothing else to judge)
        try:
            paifu = _parse(game, export, _without_rounds(text, skipped))
        except Exception as again:
            problem = f"{type(again).__name__}: {again}"
            verdicts.add(peer, "cannot read the export", "", None, "readable", problem)
            return
    if paifu.player_count != game.players:
        what = SANMA_TENHOU6 if export == "tenhou6" else "reads another number of players"
        verdicts.add(peer, what, "", None, game.players, f"{paifu.player_count} players")
        return
    verdicts.checks[peer] += 1
    kept = [index for index in range(len(game.rounds)) if index not in skipped]
    if len(paifu.rounds) != len(kept):
        verdicts.add(peer, "hands read", "", None, len(kept), len(paifu.rounds))
        return
    ends: list[HandEnd | None] = []
    for position, (index, round_log) in enumerate(zip(kept, paifu.rounds, strict=True)):
        round_ = game.rounds[index]
        label = round_label(index, round_.name)
        end = HandEnd()
        settled = _replay(paifu, position, round_, label, peer, verdicts, end)
        ends.append(end if settled is not None else None)
        if _score(paifu, round_log, round_, label, peer, verdicts) and settled is not None:
            _settle(game, index, settled, label, peer, verdicts, end.unplayed_indicator)
    if export == "mjai" and not skipped:
        after = [scores_after(round_) for round_ in game.rounds]
        judge_jansou_game.judge(game, ends, after, paifu.rules, verdicts)  # type: ignore[attr-defined]


def _parse(game: Game, export: str, text: str) -> object:
    if export == "mjai":
        return parse_mjai(with_preset(text, game.header.ruleset))
    return parse_tenhou_json(text)


def _without_rounds(mjai_text: str, skipped: set[int]) -> str:
    """Our mjai without the hands numbered in ``skipped`` (from ``start_kyoku`` to
    ``end_kyoku``)."""
    kept = []
    number = -1
    dropping = False
    for line in mjai_text.splitlines():
        if '"type":"start_kyoku"' in line:
            number += 1
            dropping = number in skipped
        if not dropping:
            kept.append(line)
        if '"type":"end_kyoku"' in line:
            dropping = False
    return "".join(line + "\n" for line in kept)


def _replay(
    paifu: object,
    index: int,
    round_: object,
    label: str,
    peer: str,
    verdicts: Verdicts,
    end: HandEnd | None = None,
) -> list[tuple[int, ...]] | None:
    """Replay one hand through jansou's flow; the deltas of its settlements (``ScoreChange``
    events: the hand's payments, honba and sticks included, riichi deposits apart), or
    ``None`` when the replay stopped. ``end``, when given, keeps how the hand ended."""
    settlements: list[tuple[int, ...]] = []

    def observe(event: object) -> None:
        if isinstance(event, ScoreChange):
            settlements.append(tuple(event.deltas))
        if end is not None:
            end.observe(event)

    try:
        for _decision in replay_round_decisions(paifu, index, observe=observe):  # type: ignore[arg-type]
            verdicts.checks[peer] += 1
    except ReplayError as error:
        message = str(error).split(": ", 1)[-1]
        chankan_dora = _indicator_before_chankan(round_, message)
        verdicts.add(
            peer,
            CHANKAN_DORA if chankan_dora else f"replay stops: {_pattern(message)}",
            label,
            _canonical_index(round_, error.event_index),
            "legal",
            message,
        )
        # The hand was played to its end before jansou found that indicator unplayed: its
        # settlement still counts, so that the class excuses that one indicator only.
        if chankan_dora and end is not None:
            end.unplayed_indicator = True
        return settlements if chankan_dora and settlements else None
    return settlements


_UNPLAYED = re.compile(
    r"DoraReveal\(indicator=Tile\(kind=<TileKind\.\w+: (\d+)>, red=(\w+)\)\) still unplayed"
)


def _indicator_before_chankan(round_: object, message: str) -> bool:
    """Whether jansou stopped on exactly the indicator our record turns between an added kan
    and a ron robbing it (the waiting indicator of an earlier open or added kan, turned at the
    added kan's declaration), left unplayed by jansou: the message must name that indicator."""
    events = round_.events  # type: ignore[attr-defined]
    found = _UNPLAYED.search(message)
    if (
        found is None
        or len(events) < 3
        or not isinstance(events[-3], AddedKan)
        or not isinstance(events[-2], DoraRevealed)
        or not isinstance(events[-1], Win)
        or events[-1].tsumo
    ):
        return False
    indicator = events[-2].indicator
    return int(found.group(1)) == indicator.kind and (found.group(2) == "True") == indicator.red


def _settle(
    game: Game,
    index: int,
    settlements: list[tuple[int, ...]],
    label: str,
    peer: str,
    verdicts: Verdicts,
    unplayed_indicator: bool = False,
) -> None:
    """jansou's settlement of the hand against our recorded deltas, added up over the hand's
    wins (or its draw): noten payments, nagashi mangan, pao, honba, sticks, double ron."""
    events = game.rounds[index].events
    ours: list[int] | None = None
    end = len(events)
    for position, event in enumerate(events):
        deltas = (
            event.recorded.deltas
            if isinstance(event, Win) and event.recorded is not None
            else getattr(event, "recorded_deltas", None)
            if isinstance(event, ExhaustiveDraw | NagashiMangan | AbortiveDraw)
            else None
        )
        if deltas is None:
            continue
        end = min(end, position)
        ours = [a + b for a, b in zip(ours or [0] * len(deltas), deltas, strict=True)]
    if ours is None:
        return
    theirs = [sum(column) for column in zip(*settlements, strict=True)] if settlements else []
    if not theirs:
        theirs = [0] * len(ours)
    verdicts.checks[peer] += 1
    if theirs != ours:
        what = (
            CHANKAN_DORA_SETTLEMENT
            if unplayed_indicator and _paid_without_last_indicator(game, index, ours, theirs)
            else _settlement_class(game, index, ours, theirs)
        )
        verdicts.add(peer, what, label, end, ours, theirs)


def _settlement_class(game: Game, index: int, ours: list[int], theirs: list[int]) -> str:
    """The class of a settlement that differs: a known rule of jansou's by name where jansou's
    figures are exactly what that rule gives, else "hand settlement".

    * sanma noten payments: jansou's are ours from a 3,000 pool instead of 2,000;
    * kan karaten: jansou's are the noten payments with the hands whose every wait is a kind
      their own kans hold four of counted noten;
    * composite pao: jansou's are what our engine pays with the liability over the whole
      composite yakuman (Tenhou's way) instead of its liable part (Mahjong Soul's).
    """
    round_ = game.rounds[index]
    events = round_.events
    last = events[-1] if events else None
    players = len(ours)
    if isinstance(last, ExhaustiveDraw) and last.recorded_tenpai is not None:
        tenpai = set(last.recorded_tenpai)
        pool = 3000  # jansou's noten pool, in sanma too
        if players == 3 and theirs == _noten_payments(tenpai, players, pool):
            return SANMA_NOTEN
        karaten = {
            seat
            for seat, (tiles, melds) in enumerate(hands_at_end(round_))
            if kan_karaten(tiles, melds)  # type: ignore[arg-type]
        }
        if karaten and theirs == _noten_payments(tenpai - karaten, players, pool):
            return KAN_KARATEN
    wins = [e for e in events if isinstance(e, Win) and e.recorded is not None]
    for win in wins:
        recorded = win.recorded
        if recorded is None or recorded.liable is None:
            continue
        yakuman = [name for name, han in recorded.yaku or () if han >= 13]
        # A composite first: its liability is for one of its yakuman (daisangen fed by the
        # player who also fed the fourth kan is still daisangen's pao, not four kans').
        if len(yakuman) > 1 and theirs == _deltas_under(
            game, index, {"pao_only_liable_yakuman": False}
        ):
            return COMPOSITE_PAO
        if "suukantsu" in yakuman:
            return "suukantsu with a liable feeder paid without pao"
    return "hand settlement"


def _paid_without_last_indicator(
    game: Game, index: int, ours: list[int], theirs: list[int]
) -> bool:
    """Whether jansou's settlement of a chankan is ours less exactly the han of the indicator
    jansou left unplayed (the last one, turned at the added kan): the discarder pays the ron
    as riichienv's ``calculate_score`` values it with that many han fewer, and the winner gets
    that much less; nobody else differs. The indicator's han are its dora and, for a riichi
    winner, the ura dora of the indicator under it."""
    round_ = game.rounds[index]
    events = round_.events
    win, indicator = events[-1], events[-2]
    if not isinstance(win, Win) or win.tsumo or not isinstance(indicator, DoraRevealed):
        return False
    recorded = win.recorded
    if recorded is None or recorded.han is None or recorded.fu is None:
        return False
    tiles, melds = hands_before(round_, len(events) - 1)[win.seat]
    held = [*tiles, win.tile, *(tile for meld in melds for tile in meld.tiles)]
    # The indicator's dora, and for a riichi winner its ura indicator's (the one under it).
    kinds = [dora_kind(indicator.indicator.kind, game.players)]
    number = sum(isinstance(e, DoraRevealed) for e in events)  # (the opening one is 0)
    riichi = any(isinstance(e, RiichiDeclared) and e.seat == win.seat for e in events)
    if riichi and number < len(round_.ura_indicators):
        kinds.append(dora_kind(round_.ura_indicators[number].kind, game.players))
    fewer = recorded.han - sum(tile.kind == kind for kind in kinds for tile in held)
    if fewer <= 0 or recorded.han >= 13:
        return False
    score = calculate_score(
        fewer, recorded.fu, win.seat == round_.dealer, False, round_.honba, game.players
    )
    less = -ours[win.from_seat] - score.pay_ron
    expected = list(ours)
    expected[win.from_seat] += less
    expected[win.seat] -= less
    return less > 0 and theirs == expected


def _noten_payments(tenpai: set[int], players: int, pool: int) -> list[int]:
    deltas = [0] * players
    if 0 < len(tenpai) < players:
        for seat in range(players):
            if seat in tenpai:
                deltas[seat] = pool // len(tenpai)
            else:
                deltas[seat] = -pool // (players - len(tenpai))
    return deltas


def _deltas_under(game: Game, index: int, options: dict[str, object]) -> list[int] | None:
    """Our engine's payments for hand ``index`` under the game's rules changed by
    ``options``: what the hand pays under the peer's rule."""
    header = dataclasses.replace(
        game.header, rule_overrides={**game.header.rule_overrides, **options}
    )
    report = replay(dataclasses.replace(game, header=header))
    rounds = [summary for summary in report.rounds if summary.index == index]
    return rounds[0].deltas if rounds else None


def _score(
    paifu: object, round_log: object, round_: object, label: str, peer: str, verdicts: Verdicts
) -> bool:
    """Score the hand's wins as ``jansou-validate`` does; whether every one agreed (then its
    settlement is worth comparing: a win valued differently pays differently anyway)."""
    wins = [i for i, e in enumerate(round_.events) if isinstance(e, Win)]  # type: ignore[attr-defined]
    try:
        records = replay_round(round_log, paifu.rules, paifu.player_count)  # type: ignore[attr-defined,arg-type]
    except Exception as error:
        verdicts.add(
            peer,
            "cannot rebuild the wins",
            label,
            None,
            "scorable",
            f"{type(error).__name__}: {error}",
        )
        return False
    agreed = True
    for position, record in enumerate(records):
        verdicts.checks[peer] += 1
        verdict = check_win(record)
        if verdict.passed:
            continue
        agreed = False
        event = wins[position] if position < len(wins) else None
        detail = verdict.detail
        what = detail.split(" ", 1)[0].rstrip(":")
        ours, _, theirs = detail.partition(" != expected ")
        verdicts.add(
            peer,
            f"win {what}",
            label,
            event,
            theirs or "-",
            ours.split(" ")[-1] if theirs else detail,
        )
    return agreed


def _rounds_robbing_ankan(game: Game) -> set[int]:
    """The hands of the game where a ron right after a closed kan completes thirteen orphans
    (the only ron a closed kan allows, on Mahjong Soul)."""
    found = set()
    for number, round_ in enumerate(game.rounds):
        events = round_.events
        for index, event in enumerate(events):
            if not isinstance(event, Win) or event.tsumo:
                continue
            # The closed kan's dora indicator may come between it and the ron.
            before = index - 1
            while before >= 0 and isinstance(events[before], DoraRevealed | Win):
                before -= 1
            kan = events[before] if before >= 0 else None
            if isinstance(kan, ClosedKan):
                tiles, _melds = hands_before(round_, index)[event.seat]
                if is_thirteen_orphans([*tiles, kan.tiles[0]]):
                    found.add(number)
    return found


def _canonical_index(round_: object, jansou_index: int | None) -> int | None:
    """Our event index of jansou's ``jansou_index``-th event of the round."""
    if jansou_index is None:
        return None
    seen = -1
    for index, event in enumerate(round_.events):  # type: ignore[attr-defined]
        if isinstance(event, _JANSOU_EVENTS):
            seen += 1
            if seen == jansou_index:
                return index
    return None


def _pattern(message: str) -> str:
    """jansou's message without its tiles and numbers, so one kind of stop is one class."""
    words = []
    for word in message.split():
        if any(ch.isdigit() for ch in word) or "(" in word or ")" in word:
            words.append("_")
        else:
            words.append(word)
    return " ".join(words)[:80]

"""riichienv (PyPI ``riichienv``, a Rust engine): replays our mjai, checks every action and every
win's value, 4 and 3 players, under its Tenhou or Mahjong Soul rules.

* **Actions**: ``MjaiReplay.from_jsonl(path, rule)`` then, per hand, ``Kyoku.steps()``, which
  drives riichienv's own game state through the record and gives, before each recorded action,
  the acting seat's ``Observation``: the action must be among ``obs.legal_actions()`` (the check
  of riichienv's ``scripts/validate_logs.py``, "the replayed action is always contained in
  legal_actions").
* **Wins**: ``Kyoku.take_win_result_contexts()`` gives each win's tiles, melds, indicators and
  conditions as riichienv's replay tracks them; the hand is valued with riichienv's
  ``HandEvaluator`` (``HandEvaluator3P`` in sanma) and its han, fu, yaku and points are compared
  with our record, and its payments (``calculate_score`` with the honba) with our deltas.

riichienv's win contexts have four defects on mjai input (``riichienv-core/src/replay/``), which
the referee works around with riichienv's own definitions, so that the rest of its judgement
still counts:

* the live wall is counted down twice (``mjai_replay.rs``: the builder decrements
  ``left_tile_count`` for every ``tsumo``; ``WinResultContextIterator`` starts from that spent
  count and decrements again), so every win comes out as haitei or houtei: the two flags are
  recomputed with riichienv's formula (``left == 0`` and not rinshan) from the draws before
  the win;
* ``rinshan`` is cleared by every action that is not a win, the replacement draw included, and
  set again only by a draw that carries dora (Mahjong Soul's paifu, never mjai): it is set
  when the winning draw follows a kan or a North extraction;
* kan dora are counted twice (``current_doras`` starts from every indicator of the hand and
  each ``dora`` event appends its own again): the indicators are the opening one and those the
  iterator appended before the win;
* a closed kan is read as a kan of 1m (``tile_raw_id: 0``), so the winner's tiles and melds
  are taken from riichienv's game state in ``steps()`` (the observation at the winning action);
  that shows the first winner of a multiple ron only, so a later winner holding a closed kan is
  not valued (counted as "riichienv (not judged)").

Everything else (riichi, ippatsu, chankan, first-turn wins, winds, North count, ura indicators,
the valuation itself) is riichienv's.
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import Sequence

import riichienv
from riichienv import ActionType, MjaiReplay

# The Rust classes themselves: riichienv's top-level HandEvaluator is a Python wrapper with
# another argument order and its own Conditions dataclass.
from riichienv._riichienv import HandEvaluator, HandEvaluator3P, calculate_score

from benchmarks.referee.choices import Key, compare_choices, decision_key, swap_call_kinds
from benchmarks.referee.findings import Verdicts, round_label
from benchmarks.referee.hand_shapes import hands_before, in_temporary_furiten, waits
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
    NagashiMangan,
    NorthExtraction,
    OpenKan,
    Pon,
    RiichiAccepted,
    RiichiDeclared,
    Round,
    Win,
)
from engine.rules.presets import get_ruleset

PEER = "riichienv"

#: riichienv yaku ids (``get_all_yaku``) and the engine's names; the wind yaku are by position
#: only there ("seat wind", "round wind"), so ours are folded the same way before comparing.
_YAKU = {
    1: "menzen_tsumo",
    2: "riichi",
    3: "chankan",
    4: "rinshan",
    5: "haitei",
    6: "houtei",
    7: "haku",
    8: "hatsu",
    9: "chun",
    10: "seat_wind",
    11: "round_wind",
    12: "tanyao",
    13: "iipeikou",
    14: "pinfu",
    15: "chanta",
    16: "ittsu",
    17: "sanshoku",
    18: "double_riichi",
    19: "sanshoku_doukou",
    20: "sankantsu",
    21: "toitoi",
    22: "sanankou",
    23: "shousangen",
    24: "honroutou",
    25: "chiitoitsu",
    26: "junchan",
    27: "honitsu",
    28: "ryanpeikou",
    29: "chinitsu",
    30: "ippatsu",
    35: "tenhou",
    36: "chiihou",
    37: "daisangen",
    38: "suuankou",
    39: "tsuuiisou",
    40: "ryuuiisou",
    41: "chinroutou",
    42: "kokushi",
    43: "shousuushii",
    44: "suukantsu",
    45: "chuuren",
    47: "junsei_chuuren",
    48: "suuankou_tanki",
    49: "kokushi_13",
    50: "daisuushii",
}
#: Dora, red fives, ura dora and north dora: counted in han, not compared as yaku.
_DORA_IDS = frozenset((31, 32, 33, 34))
_NOT_YAKU = frozenset(("dora", "aka_dora", "ura_dora", "kita"))

#: The canonical event type that each riichienv action type records.
_ACTION_EVENTS: dict[int, tuple[type[Event], ...]] = {
    int(ActionType.DISCARD): (Discard,),
    int(ActionType.CHI): (Chi,),
    int(ActionType.PON): (Pon,),
    int(ActionType.DAIMINKAN): (OpenKan,),
    int(ActionType.RON): (Win,),
    int(ActionType.TSUMO): (Win,),
    int(ActionType.RIICHI): (RiichiDeclared,),
    int(ActionType.ANKAN): (ClosedKan,),
    int(ActionType.KAKAN): (AddedKan,),
    int(ActionType.KYUSHU_KYUHAI): (AbortiveDraw,),
    int(ActionType.KITA): (NorthExtraction,),
}
_ACTION_NAMES = {
    int(getattr(ActionType, name)): name.lower()
    for name in (
        "DISCARD",
        "CHI",
        "PON",
        "DAIMINKAN",
        "RON",
        "RIICHI",
        "TSUMO",
        "PASS",
        "ANKAN",
        "KAKAN",
        "KYUSHU_KYUHAI",
        "KITA",
    )
}
_PASS = int(ActionType.PASS)
#: riichienv's action types as :mod:`benchmarks.referee.choices` keys them (a ron and a tsumo
#: are both "hora", as in mjai).
_MJAI_TYPES = {
    int(ActionType.DISCARD): "dahai",
    int(ActionType.CHI): "chi",
    int(ActionType.PON): "pon",
    int(ActionType.DAIMINKAN): "daiminkan",
    int(ActionType.RON): "hora",
    int(ActionType.TSUMO): "hora",
    int(ActionType.RIICHI): "reach",
    int(ActionType.ANKAN): "ankan",
    int(ActionType.KAKAN): "kakan",
    int(ActionType.KYUSHU_KYUHAI): "ryukyoku",
    int(ActionType.KITA): "kita",
}
#: The yakuman forms riichienv always counts double, and the class of a Tenhou win where it did.
_DOUBLE_FORMS = frozenset(("suuankou_tanki", "kokushi_13", "junsei_chuuren", "daisuushii"))
_DOUBLE_TENHOU = "double yakuman form counted double (Tenhou has none)"
#: riichienv's mjai replay takes a first-discard riichi as double riichi unless a chi, pon or
#: kan came before it: a North extraction does not count there.
DOUBLE_RIICHI_KITA = "double riichi after a North extraction"
_KITA = int(ActionType.KITA)
_ANKAN = int(riichienv.MeldType.Ankan)
_WIN_ACTIONS = frozenset((int(ActionType.RON), int(ActionType.TSUMO)))
_CLAIMS = frozenset(
    (int(ActionType.CHI), int(ActionType.PON), int(ActionType.DAIMINKAN), int(ActionType.RON))
)


def rule_name(ruleset: str) -> str:
    """riichienv's rule for our preset: ``tenhou`` or ``mjsoul``."""
    return "mjsoul" if ruleset.startswith("majsoul") else "tenhou"


def _key(action: object) -> tuple[int, int | None, tuple[int, ...]]:
    """An action's identity for the legality check, as riichienv's ``validate_logs.py`` takes
    it: type, tile and consumed tiles; a North extraction by type alone (the replayed kita
    carries no tile, the offered one does)."""
    data = action.to_dict()  # type: ignore[attr-defined]
    if data["type"] == _KITA:
        return _KITA, None, ()
    return data["type"], data["tile"], tuple(sorted(data["consume_tiles"]))


def judge(
    game: Game,
    mjai_text: str,
    verdicts: Verdicts,
    choices: Sequence[dict[tuple[int, int], set[Key]]] | None = None,
) -> None:
    """Replay one game's mjai through riichienv (see the module docstring)."""
    ruleset = game.header.ruleset
    with tempfile.NamedTemporaryFile("w", suffix=".jsonl", dir=_tmp_dir(), delete=False) as f:
        f.write(mjai_text)
        path = f.name
    try:
        replay = MjaiReplay.from_jsonl(path, rule=rule_name(ruleset))
        kyokus = list(replay.take_kyokus())
    finally:
        os.unlink(path)
    if len(kyokus) != len(game.rounds):
        verdicts.add(PEER, "hands read", "", None, len(game.rounds), len(kyokus))
        return
    players = game.players
    rules = get_ruleset(ruleset)
    live_wall = rules.live_wall
    for index, (round_, kyoku) in enumerate(zip(game.rounds, kyokus, strict=True)):
        label = round_label(index, round_.name)
        ours = None if choices is None else dict(choices[index])
        hands = _judge_actions(round_, kyoku, players, label, verdicts, ours)
        _judge_wins(round_, kyoku, hands, ruleset, live_wall, label, verdicts)


def _tmp_dir() -> str | None:
    """A RAM-backed folder for the replay files when there is one (they are written and read
    once per game)."""
    return "/dev/shm" if os.path.isdir("/dev/shm") else None


Hand = tuple[list[int], list[object]]


def _judge_actions(
    round_: Round,
    kyoku: object,
    players: int,
    label: str,
    verdicts: Verdicts,
    ours: dict[tuple[int, int], set[Key]] | None = None,
) -> dict[int, Hand]:
    """Check every recorded action against riichienv's legal actions, and (given ``ours``, our
    legal actions at every decision: :func:`benchmarks.referee.choices.our_choices`) compare
    the whole sets; return, per winning seat, its concealed tiles and melds in riichienv's own
    game state at the win."""
    events = round_.events
    cursor = 0
    hands: dict[int, Hand] = {}
    theirs: dict[tuple[int, int], set[Key]] = {}
    partial: set[tuple[int, int]] = set()
    window = -1  # the last discard, kan or North others may claim: where a pass belongs
    steps = iter(kyoku.steps(skip_single_action=False))  # type: ignore[attr-defined]
    stopped = False
    while True:
        try:
            seat, obs, action = next(steps)
        except StopIteration:
            break
        except ValueError as error:
            # riichienv stops its replay where the recorded action is not one its state
            # would take ("Replay desync"): a refusal like the ones below.
            text = str(error)
            env = text.partition("action_type: ")[2].split(",", 1)[0].split(" ", 1)[0]
            logged = text.partition("Log action: ")[2].split(" ", 1)[0]
            verdicts.checks[PEER] += 1
            verdicts.add(
                PEER,
                f"replay desync: expects {env or '?'}, the record has {logged}",
                label,
                _next_event(events, cursor),
                "legal",
                " ".join(text.split())[:300],
            )
            stopped = True
            break
        key = _key(action)
        options = obs.legal_actions()
        if key[0] == _PASS:
            # A seat that could claim and did not: nothing to place, but its options count.
            if ours is not None and window >= 0:
                theirs.setdefault((window, seat), set()).update(_set_of(options))
            continue
        if key[0] in _WIN_ACTIONS:
            # By absolute seat in both observations (Observation3P's docstring says
            # "relative", but its melds are listed by seat, as the 4-player ones).
            hands[seat] = (list(obs.hand), list(obs.melds[seat]))
        # The canonical event this action records: the next of its type by that seat.
        kinds = _ACTION_EVENTS.get(key[0], ())
        found = None
        for position in range(cursor, len(events)):
            event = events[position]
            if isinstance(event, kinds) and getattr(event, "seat", None) == seat:
                found = position
                break
        if found is not None:
            cursor = found + 1
            if ours is not None:
                decision = (decision_key(events, found), seat)
                if key[0] in _CLAIMS:
                    # Where the record claims, riichienv lists the recorded claim and a pass
                    # only: its set there is not its whole choice (the check below remains).
                    partial.add(decision)
                theirs.setdefault(decision, set()).update(_set_of(options))
            if isinstance(events[found], Discard | AddedKan | ClosedKan | NorthExtraction):
                window = found
        verdicts.checks[PEER] += 1
        legal = {_key(option) for option in options}
        if key not in legal:
            name = _ACTION_NAMES.get(key[0], str(key[0]))
            verdicts.add(
                PEER, f"{name} not among the legal actions", label, found, "legal", action.to_mjai()
            )
    if ours is not None and not stopped:
        for decision in partial:
            ours.pop(decision, None)
            theirs.pop(decision, None)
        compare_choices(
            PEER,
            ours,
            theirs,
            label,
            verdicts,
            skip=lambda d, mine, other: _not_asked(events, d, mine, other),
            classify=lambda d, kind, mine, other: _known_choice(round_, d, kind, other),
        )
    return hands


#: riichienv's replay lists, after a chi or pon, the discards a swap call forbids.
SWAP_CALL = "riichienv lists swap-call discards after a call (kuikae)"
#: riichienv lets a riichi hand kan the kind it waits on (its waits after the kan still count
#: the kind, of which no copy is left).
WAITED_KAN = "riichienv allows a closed kan of a waited kind in riichi"
#: riichienv's replay offers a ron to a seat that let a winning tile pass this go-around.
TEMPORARY_FURITEN = "riichienv offers a ron in temporary furiten"


def _not_asked(
    events: Sequence[Event], decision: tuple[int, int], mine: set[Key], other: set[Key]
) -> bool:
    """Whether riichienv's replay never gave the seat this decision in full: at a discard the
    record's ron ends, it asks the first winner only (a second winner of a double ron, or a
    seat that could ron or call and did not, is not asked); it asks nobody after an added or
    closed kan or a North that nobody robbed, nor after the hand's last discard (its
    ``_collect_pass_observations`` follows discards the hand goes on after); and it gives no
    observation for a nine-terminals declaration that ends the hand."""
    index, seat = decision
    following = [e for e in events[index + 1 :] if not isinstance(e, DoraRevealed | RiichiAccepted)]
    first = following[0] if following else None
    if not other and isinstance(first, AbortiveDraw) and first.seat == seat:
        return True
    offered = events[index] if index >= 0 else None
    if (
        not other
        and isinstance(offered, AddedKan | ClosedKan | NorthExtraction)
        and offered.seat != seat
    ):
        return True
    if (
        not other
        and isinstance(offered, Discard)
        and isinstance(first, ExhaustiveDraw | NagashiMangan)
    ):
        return True
    winners = []
    for event in following:
        if not isinstance(event, Win):
            break
        winners.append(event.seat)
    return bool(winners) and (
        not other or (not other - mine and all(key[0] == "hora" for key in mine - other))
    )


def _known_choice(
    round_: Round, decision: tuple[int, int], kind: str, other: set[Key]
) -> str | None:
    """The class of a known difference of riichienv's replay, where it is exactly that: after a
    call, it lists the discards that swap calling forbids (its ``kuikae_forbidden`` rule is not
    applied to the replay's legal actions); it offers a ron to a seat in temporary furiten,
    one that let a tile of its waits pass since its last discard."""
    events = round_.events
    index, seat = decision
    if kind == "hora" and other and in_temporary_furiten(round_, index, seat):
        return TEMPORARY_FURITEN
    if kind == "ankan" and other and _kans_a_waited_kind(round_, index, seat, other):
        return WAITED_KAN
    call = events[index] if index >= 0 else None
    if (
        kind == "dahai"
        and isinstance(call, Chi | Pon)
        and call.seat == seat
        and other
        and {tile.removesuffix("r") for _, tile, _ in other} <= swap_call_kinds(call)
    ):
        return SWAP_CALL
    return None


def _kans_a_waited_kind(round_: Round, index: int, seat: int, other: set[Key]) -> bool:
    """Whether every closed kan only riichienv allows here is of a kind the riichi hand waited
    on before its draw (the decision after a draw of that seat, in riichi)."""
    events = round_.events
    draw = events[index] if index >= 0 else None
    declared = any(isinstance(e, RiichiDeclared) and e.seat == seat for e in events[:index])
    if not declared or not isinstance(draw, Draw) or draw.seat != seat:
        return False
    tiles, _melds = hands_before(round_, index + 1)[seat]
    tiles = list(tiles)
    tiles.remove(draw.tile)
    waited = {_KIND_CODES[kind] for kind in waits(tiles)}
    return all(key[0] == "ankan" and key[1] in waited for key in other)


_KIND_CODES = [f"{rank}{suit}" for suit in "mps" for rank in range(1, 10)] + list("ESWNPFC")


def _set_of(options: Sequence[object]) -> set[Key]:
    """riichienv's legal actions as :data:`~benchmarks.referee.choices.Key` values (a pass
    left out: it is no action)."""
    out: set[Key] = set()
    for option in options:
        data = option.to_dict()  # type: ignore[attr-defined]
        kind = _MJAI_TYPES.get(data["type"])
        if kind is None:
            continue
        tile = data["tile"]
        if kind in ("dahai", "chi", "pon", "daiminkan"):
            taken: tuple[str, ...] = ()
            if kind in ("chi", "pon"):
                # riichienv lists the claimed tile among the consumed ones where the call is the
                # step's own action (three tiles), not where it is an option beside a pass.
                consumed = list(data["consume_tiles"])
                if len(consumed) == 3:
                    consumed.remove(tile)
                taken = tuple(sorted(_code(t, red=False) for t in consumed))
            out.add((kind, _code(tile), taken))
        elif kind == "ankan":
            out.add((kind, _code(data["consume_tiles"][0], red=False), ()))
        elif kind == "kakan":
            out.add((kind, _code(tile, red=False), ()))
        else:
            out.add((kind, "", ()))
    return out


#: riichienv's tile ids are Tenhou's 136 (kind * 4 + copy); its red fives are copy 0.
_RED_IDS = frozenset((16, 52, 88))


def _code(tile_id: int, red: bool = True) -> str:
    kind = tile_id // 4
    if kind >= 27:
        return "ESWNPFC"[kind - 27]
    mark = "r" if red and tile_id in _RED_IDS else ""
    return f"{kind % 9 + 1}{'mps'[kind // 9]}{mark}"


def _next_event(events: Sequence[Event], cursor: int) -> int | None:
    """The first decision event from ``cursor`` on: where a stopped replay stopped."""
    kinds = tuple(kind for group in _ACTION_EVENTS.values() for kind in group)
    for position in range(cursor, len(events)):
        if isinstance(events[position], kinds):
            return position
    return None


def _judge_wins(
    round_: object,
    kyoku: object,
    hands: dict[int, Hand],
    ruleset: str,
    live_wall: int,
    label: str,
    verdicts: Verdicts,
) -> None:
    players = len(round_.scores)  # type: ignore[attr-defined]
    events = round_.events  # type: ignore[attr-defined]
    wins = [(i, e) for i, e in enumerate(events) if isinstance(e, Win)]
    contexts = list(kyoku.take_win_result_contexts())  # type: ignore[attr-defined]
    if len(contexts) != len(wins):
        verdicts.add(PEER, "wins read", label, None, len(wins), len(contexts))
        return
    # The kyoku's own indicators (the opening one and every kan dora of the hand): each win
    # context starts from all of them and then appends the kan dora again as it meets them.
    opening = len(kyoku.doras)  # type: ignore[attr-defined]
    # Mahjong Soul counts the four double-yakuman forms double, as riichienv always does.
    double_forms = ruleset.startswith("majsoul")
    honba = round_.honba  # type: ignore[attr-defined]
    dealer = round_.dealer  # type: ignore[attr-defined]
    for (index, win), ctx in zip(wins, contexts, strict=True):
        recorded = win.recorded
        if recorded is None:
            continue
        if win.seat in hands:
            tiles, melds = hands[win.seat]
        elif any(int(m.meld_type) == _ANKAN for m in ctx.melds):
            # riichienv's steps show the first winner of a multiple ron only, and the win
            # context reads every closed kan as a kan of 1m (MjaiReplay: tile_raw_id 0): no
            # faithful hand to value here.
            verdicts.checks[f"{PEER} (not judged)"] += 1
            continue
        else:
            tiles, melds = list(ctx.tiles), list(ctx.melds)
            if not win.tsumo:
                tiles.remove(ctx.agari_tile)  # the context's hand holds the ron tile
        verdicts.checks[PEER] += 1
        draws = sum(isinstance(e, Draw) for e in events[:index])
        conditions = ctx.conditions
        conditions.rinshan = win.tsumo and _after_kan(events, index)
        left_empty = draws >= live_wall
        conditions.haitei = left_empty and win.tsumo and not conditions.rinshan
        conditions.houtei = left_empty and not win.tsumo and not conditions.rinshan
        dora = list(ctx.dora_indicators)
        dora = dora[:1] + dora[opening:]
        if not win.tsumo:
            tiles = [*tiles, ctx.agari_tile]
        if players == 3:
            conditions.is_sanma = True
            conditions.num_players = 3
            evaluator = HandEvaluator3P(tiles, list(melds))
        else:
            evaluator = HandEvaluator(tiles, list(melds))
        result = evaluator.calc(ctx.agari_tile, dora, list(ctx.ura_indicators), conditions)
        if not result.is_win:
            verdicts.add(PEER, "not a win", label, index, recorded.han, "no win")
            continue
        yakuman = result.yakuman
        theirs_yaku = sorted(_YAKU.get(y, f"id {y}") for y in result.yaku if y not in _DORA_IDS)
        if (
            not double_forms
            and yakuman
            and recorded.han is not None
            and _DOUBLE_FORMS & set(theirs_yaku)
            # exactly one more yakuman for each double form riichienv found, nothing else
            and result.han == recorded.han + 13 * len(_DOUBLE_FORMS & set(theirs_yaku))
        ):
            verdicts.add(PEER, _DOUBLE_TENHOU, label, index, recorded.han, result.han)
            continue
        ours_yaku = sorted(_fold(name) for name, _ in recorded.yaku or () if name not in _NOT_YAKU)
        if (
            "double_riichi" in theirs_yaku
            and "riichi" in ours_yaku
            and _north_before_riichi(events, index, win.seat)
            # the one yaku differs, by the one han it is worth more, nothing else
            and sorted("double_riichi" if y == "riichi" else y for y in ours_yaku) == theirs_yaku
            and recorded.han is not None
            and result.han == recorded.han + 1
        ):
            verdicts.add(PEER, DOUBLE_RIICHI_KITA, label, index, ours_yaku, theirs_yaku)
            continue
        if ours_yaku != theirs_yaku:
            verdicts.add(PEER, "win yaku", label, index, ours_yaku, theirs_yaku)
        if recorded.han != result.han:
            verdicts.add(PEER, "win han", label, index, recorded.han, result.han)
        if not yakuman and recorded.fu != result.fu:
            verdicts.add(PEER, "win fu", label, index, recorded.fu, result.fu)
        dealer_win = win.seat == dealer
        if win.tsumo:
            if dealer_win:
                points = result.tsumo_agari_ko * (players - 1)
            else:
                points = result.tsumo_agari_oya + result.tsumo_agari_ko * (players - 2)
        else:
            points = result.ron_agari
        if recorded.points != points:
            verdicts.add(PEER, "win points", label, index, recorded.points, points)
            continue
        _judge_payments(win, result, honba, dealer, players, wins, label, index, verdicts)


def _judge_payments(
    win: Win,
    result: object,
    honba: int,
    dealer: int,
    players: int,
    wins: list[tuple[int, Win]],
    label: str,
    index: int,
    verdicts: Verdicts,
) -> None:
    """The payers' deltas, honba included, against riichienv's ``calculate_score``; only where
    one payer pays the whole of one win (no pao, no second winner sharing the honba)."""
    recorded = win.recorded
    if recorded is None or recorded.deltas is None or recorded.liable is not None:
        return
    if len(wins) > 1:
        return
    han = result.han  # type: ignore[attr-defined]
    if not result.yakuman and han > 13:  # type: ignore[attr-defined]
        han = 13  # riichienv's HandEvaluator caps counted yakuman the same way
    score = calculate_score(
        han,
        result.fu,  # type: ignore[attr-defined]
        win.seat == dealer,
        win.tsumo,
        honba,
        players,
    )
    deltas = recorded.deltas
    if win.tsumo:
        expected = [
            0
            if seat == win.seat
            else -(score.pay_tsumo_oya if seat == dealer else score.pay_tsumo_ko)
            for seat in range(players)
        ]
        mine = [0 if seat == win.seat else deltas[seat] for seat in range(players)]
    else:
        expected = [-score.pay_ron if seat == win.from_seat else 0 for seat in range(players)]
        mine = [deltas[seat] if seat == win.from_seat else 0 for seat in range(players)]
    if mine != expected:
        verdicts.add(PEER, "win payments", label, index, mine, expected)


def _north_before_riichi(events: Sequence[Event], index: int, seat: int) -> bool:
    """Whether a North was extracted before ``seat``'s riichi discard (before event ``index``)."""
    declared = False
    north = False
    for event in events[:index]:
        if isinstance(event, NorthExtraction):
            north = True
        elif isinstance(event, RiichiDeclared) and event.seat == seat:
            declared = True
        elif isinstance(event, Discard) and event.seat == seat and declared:
            return north
    return False


def _after_kan(events: Sequence[Event], index: int) -> bool:
    """Whether the draw before event ``index`` came after a kan or a North extraction (dora
    indicators aside): what riichienv's tracker means by ``rinshan``."""
    position = index - 1
    while position >= 0 and isinstance(events[position], DoraRevealed):
        position -= 1
    if position < 0 or not isinstance(events[position], Draw):
        return False
    position -= 1
    while position >= 0 and isinstance(events[position], DoraRevealed):
        position -= 1
    return position >= 0 and isinstance(
        events[position], ClosedKan | OpenKan | AddedKan | NorthExtraction
    )


def _fold(name: str) -> str:
    if name.startswith("seat_wind_"):
        return "seat_wind"
    if name.startswith("round_wind_"):
        return "round_wind"
    return name

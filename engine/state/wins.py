"""Wins: checking a ron or tsumo, valuing it with the scorer, and settling the sticks.

A win is valued when it is checked (only the scorer can say whether the hand has a yaku):
``_check_win`` keeps the value in ``_pending`` for ``_win`` to record. ``_settle_sticks`` folds
the wins into the hand's deltas when the hand ends, moving the sticks and counters of a multiple
ron where the rules say.
"""

from __future__ import annotations

import dataclasses

from engine.errors import EngineError, InvalidConditionsError, NoYakuError
from engine.events import AbortKind, Win
from engine.rules.ruleset import Renhou, StickWinner
from engine.scoring.score import WinConditions, WinningHand, score_hand
from engine.state.hand_ends import HandEndRules
from engine.state.results import HandResult, Phase, WinResult
from engine.tiles import Tile


class WinRules(HandEndRules):
    """Wins (a part of :class:`~engine.state.GameState`)."""

    # -- wins ------------------------------------------------------------------------------------

    def _check_win(self, event: Win) -> str | None:
        try:
            self._pending = self._value_win(event)
        except _Refused as refusal:
            return str(refusal)
        return None

    def _value_win(self, event: Win) -> WinResult:
        seat, tile = event.seat, event.tile
        data = self.seats[seat]
        ruleset = self.ruleset
        rob = False
        if event.tsumo:
            if self.phase is not Phase.ACT or seat != self.turn or self.last_draw is None:
                raise _Refused(f"seat {seat} cannot win by tsumo now ({self._phase_words()})")
            if tile != self.last_draw:
                raise _Refused(f"the tile just drawn is {self.last_draw}, not {tile}")
            concealed = data.tiles()
        else:
            discarder = event.from_seat
            if self.phase is Phase.WON:
                # Another winner on the same tile as the first.
                first = self.win_events[0]
                rob = self.rob_won
                if discarder != first.from_seat or tile != first.tile:
                    raise _Refused(
                        f"the tile won is seat {first.from_seat}'s {first.tile}, "
                        f"not seat {discarder}'s {tile}"
                    )
            elif self.phase is Phase.CLAIM:
                if discarder != self.last_discarder or tile != self.last_discard:
                    raise _Refused(
                        f"the last discard is seat {self.last_discarder}'s {self.last_discard}, "
                        f"not seat {discarder}'s {tile}"
                    )
                if self.forced_abort is AbortKind.FOUR_RIICHI:
                    raise _Refused("the fourth riichi already ended the hand")
                # An open kan's indicator due after the discard (Mahjong Soul) is turned with
                # the discard, before anyone claims it: a ron on that discard counts it.
                blocked = self._dora_blocks()
                if blocked:
                    raise _Refused(blocked)
            elif self.phase is Phase.ROB:
                if discarder != self.turn or tile != self.rob_tile:
                    raise _Refused(f"only seat {self.turn}'s {self.rob_tile} can be robbed now")
                if self.rob_kind == "north" and not ruleset.ron_on_kita:
                    raise _Refused("an extracted North cannot be ronned in these rules")
                if self.rob_kind == "north":  # an indicator the extraction turned counts
                    blocked = self._dora_blocks()
                    if blocked:
                        raise _Refused(blocked)
                rob = self.rob_kind == "added_kan"
            else:
                raise _Refused(f"no ron now ({self._phase_words()})")
            if seat == discarder:
                raise _Refused("a player cannot ron their own tile")
            if ruleset.ron_needs_riichi and not data.riichi:
                raise _Refused(
                    f"seat {seat} has not declared riichi, and in {ruleset.name} only a player "
                    "in riichi may ron"
                )
            if self.phase is Phase.WON:
                if len(self.win_events) >= ruleset.max_ron_winners:
                    raise _Refused(
                        f"at most {ruleset.max_ron_winners} player(s) may ron one discard here"
                    )
                if any(win.seat == seat for win in self.win_events):
                    raise _Refused(f"seat {seat} has already won")
                previous = self.win_events[-1].seat
                if (seat - discarder) % self.players < (previous - discarder) % self.players:
                    raise _Refused("several rons are listed in turn order from the discarder")
            if not self.completes(seat, tile.kind):
                raise _Refused(f"{tile} does not complete seat {seat}'s hand")
            if self.furiten(seat):
                raise _Refused(f"seat {seat} is furiten and cannot ron")
            concealed = [*data.tiles(), tile]
            if (
                self.rob_kind == "closed_kan"
                and self.phase is Phase.ROB
                and not ruleset.kokushi_robs_ankan
            ):
                raise _Refused("a closed kan cannot be robbed in these rules")
        conditions = self._conditions(event, rob)
        hand = WinningHand(
            tiles=tuple(concealed),
            win_tile=tile,
            melds=tuple(data.melds),
            dora_indicators=tuple(self.dora_indicators),
            ura_indicators=self._ura() if data.riichi else (),
            conditions=conditions,
            discarder=None if event.tsumo else self.seat_wind(event.from_seat),
            liable=None if data.liable is None else self.seat_wind(data.liable),
        )
        # Valued under the winner's own powers (a seat's power applies to its wins alone).
        scoring = self.scoring_rules[seat]
        try:
            try:
                score = score_hand(hand, scoring)
            except InvalidConditionsError:
                if hand.liable is None:
                    raise
                hand = dataclasses.replace(hand, liable=None)
                score = score_hand(hand, scoring)
        except NoYakuError:
            raise _Refused(f"seat {seat}'s hand has no yaku") from None
        except EngineError as error:
            raise _Refused(f"seat {seat}'s win is impossible: {error}") from None
        if (
            self.phase is Phase.ROB
            and self.rob_kind == "closed_kan"
            and not any(name.startswith("kokushi") for name, _ in score.yaku)
        ):
            raise _Refused("only thirteen orphans may rob a closed kan")
        deltas = [0] * self.players
        for payer, amount in score.payments:
            payer_seat = self._seat_of_letter(payer) if payer != "discarder" else event.from_seat
            deltas[payer_seat] -= amount
        deltas[seat] += score.total
        liable = None if hand.liable is None else data.liable
        paid = sum(amount for _, amount in score.payments)
        if event.tsumo and liable is None:
            points = paid - ruleset.honba_tsumo_each * conditions.honba * len(score.payments)
        else:
            # A ron, or a tsumo under liability: the honba are paid once, as on a ron (the
            # liable player pays 300 a honba on Tenhou, not 100 from each of the others).
            points = paid - ruleset.honba_ron * conditions.honba
        return WinResult(seat, event.from_seat, score, tuple(deltas), liable, conditions, points)

    def _ura(self) -> tuple[Tile, ...]:
        ruleset = self.ruleset
        if not ruleset.ura_dora:
            return ()
        count = len(self.dora_indicators) if ruleset.kan_ura else 1
        if self.wall is not None:
            return self.wall.ura_indicators[:count]
        return self.ura_indicators[:count]

    def _conditions(self, event: Win, rob: bool) -> WinConditions:
        seat = event.seat
        data = self.seats[seat]
        first = self.first_turn
        tsumo = event.tsumo
        dealer = seat == self.dealer
        # The sticks and counters go to one winner of a multiple ron: the first listed (the
        # first in turn order); _settle_sticks moves them where the rules say otherwise. With
        # honba_to_each_winner every winner is paid the counters.
        takes_sticks = not self.win_events
        takes_honba = takes_sticks or self.ruleset.honba_to_each_winner
        last_tile = self.tiles_left <= 0
        return WinConditions(
            tsumo=tsumo,
            riichi=data.riichi and not data.double_riichi,
            double_riichi=data.double_riichi,
            ippatsu=data.ippatsu,
            rinshan=tsumo and self.rinshan,
            chankan=rob,
            haitei=tsumo and last_tile and not self.rinshan,
            houtei=not tsumo and last_tile and not rob and self.rob_kind != "north",
            tenhou=tsumo and first and dealer and data.draws == 1,
            chiihou=tsumo and first and not dealer and data.draws == 1,
            renhou=(
                not tsumo
                and first
                and not dealer
                and data.draws == 0
                and self.ruleset.renhou is not Renhou.NONE
            ),
            seat_wind=self.seat_wind(seat),
            round_wind=self.round_wind,
            honba=self.position.honba if takes_honba and self.position else 0,
            sticks=self.sticks if takes_sticks else 0,
            kita=data.kita,
        )

    def _win(self, event: Win) -> None:
        result = self._pending
        if self.result is None:
            self.result = HandResult("win")
        self.result.wins.append(result)
        self.win_events.append(event)
        if event.tsumo:
            self.phase = Phase.OVER
        else:
            if self.phase is Phase.ROB:
                self.rob_won = self.rob_kind == "added_kan"
            if self.pending_riichi is not None and event.from_seat == self.pending_riichi:
                # The riichi discard was ronned: the declaration stands, no stick is paid.
                self.pending_riichi = None
            self.phase = Phase.WON

    def _settle_sticks(self, result: HandResult) -> None:
        """Fold the wins' deltas into the hand's deltas (once).

        Each win was valued as it came, the first one with the sticks and counters (every one
        with the counters under ``honba_to_each_winner``). Where the rules give them to the
        ronning winner nearest the dealer instead, they move here (the counters only when one
        winner has them).
        """
        if result.deltas:
            return
        wins = result.wins
        rule = self.ruleset.multi_ron_sticks
        if len(wins) > 1 and rule is not StickWinner.FIRST_FROM_DISCARDER:
            players = self.players
            if rule is StickWinner.NEAREST_DEALER_CLOCKWISE:
                # Clockwise from the dealer: against turn order (the dealer, then the seat
                # before the dealer, ...).
                nearest = min(wins, key=lambda win: (self.dealer - win.seat) % players)
            else:
                nearest = min(wins, key=lambda win: (win.seat - self.dealer) % players)
            first = wins[0]
            if nearest is not first:
                assert self.position is not None
                honba = (
                    0
                    if self.ruleset.honba_to_each_winner
                    else self.ruleset.honba_ron * self.position.honba
                )
                bonus = 1000 * self.sticks + honba
                moved_first = list(first.deltas)
                moved_first[first.seat] -= bonus
                moved_first[first.from_seat] += honba
                moved_nearest = list(nearest.deltas)
                moved_nearest[nearest.seat] += bonus
                moved_nearest[nearest.from_seat] -= honba
                index = wins.index(nearest)
                wins[0] = _with_deltas(first, moved_first)
                wins[index] = _with_deltas(nearest, moved_nearest)
        deltas = [0] * self.players
        for win in wins:
            for seat, delta in enumerate(win.deltas):
                deltas[seat] += delta
        result.deltas = deltas


class _Refused(Exception):
    """Why a win is not allowed (internal: turned into a reason string)."""


def _with_deltas(win: WinResult, deltas: list[int]) -> WinResult:
    return dataclasses.replace(win, deltas=tuple(deltas))

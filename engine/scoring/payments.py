"""Who pays what for a win: ron and tsumo, dealer and non-dealer, honba, 3-player, pao."""

from __future__ import annotations

from dataclasses import dataclass

from engine.rules.ruleset import Ruleset, SanmaTsumo
from engine.scoring.limits import round_up_100
from engine.tiles import EAST, WIND_LETTERS

#: Payer label of a ron when the discarder's seat is not known.
DISCARDER = "discarder"


@dataclass(frozen=True, slots=True)
class Payment:
    """One player's payment to the winner, honba included.

    ``payer`` is the paying seat's wind letter (``E``, ``S``, ``W``, ``N``), or ``discarder``
    for a ron whose discarder was not named.
    """

    payer: str
    amount: int


def _label(seat: int | None) -> str:
    return DISCARDER if seat is None else WIND_LETTERS[seat - EAST]


def ron_value(base: int, dealer: bool) -> int:
    """What a ron is worth before honba: 6x base for the dealer, 4x otherwise, rounded up."""
    return round_up_100(base * (6 if dealer else 4))


def tsumo_shares(base: int, winner: int, ruleset: Ruleset) -> dict[int, int]:
    """Each payer's share of a tsumo before honba, by seat wind kind."""
    seats = range(EAST, EAST + ruleset.players)
    dealer = winner == EAST
    split = ruleset.three_player and ruleset.sanma_tsumo is SanmaTsumo.SPLIT
    shares: dict[int, int] = {}
    for seat in seats:
        if seat == winner:
            continue
        if dealer:
            share = 3 * base if split else 2 * base
        elif seat == EAST:
            share = 5 * base // 2 if split else 2 * base
        else:
            share = 3 * base // 2 if split else base
        shares[seat] = round_up_100(share)
    return shares


def win_payments(
    base: int,
    *,
    winner: int,
    tsumo: bool,
    honba: int,
    ruleset: Ruleset,
    discarder: int | None = None,
    liable: int | None = None,
    liable_base: int = 0,
) -> list[Payment]:
    """The payments for one win, honba included (riichi sticks are not payments).

    ``winner``, ``discarder`` and ``liable`` are seat wind kinds. With a ``liable`` player (pao),
    ``liable_base`` is the part of ``base`` the liability covers (all of it on Tenhou, only the
    liable yakuman on Mahjong Soul). The liable player pays the covered part in full on a tsumo
    and half of it on a ron, and pays all the honba.
    """
    dealer = winner == EAST
    owed: dict[int | None, int] = {}

    def pay(seat: int | None, amount: int) -> None:
        owed[seat] = owed.get(seat, 0) + amount

    if liable is not None and liable_base:
        rest = base - liable_base
        honba_total = ruleset.honba_ron * honba
        covered = ron_value(liable_base, dealer)
        if tsumo:
            pay(liable, covered + honba_total)
            if rest:
                for seat, share in tsumo_shares(rest, winner, ruleset).items():
                    pay(seat, share)
        elif liable == discarder:
            pay(discarder, ron_value(base, dealer) + honba_total)
        else:
            pay(liable, covered // 2 + honba_total)
            pay(discarder, covered - covered // 2 + (ron_value(rest, dealer) if rest else 0))
    elif tsumo:
        for seat, share in tsumo_shares(base, winner, ruleset).items():
            pay(seat, share + ruleset.honba_tsumo_each * honba)
    else:
        pay(discarder, ron_value(base, dealer) + ruleset.honba_ron * honba)

    order = sorted(owed, key=lambda seat: -1 if seat is None else seat)
    return [Payment(_label(seat), owed[seat]) for seat in order]

"""Who pays what for a win: ron and tsumo, dealer and non-dealer, honba, 3-player, pao."""

from __future__ import annotations

from typing import Final, NamedTuple

from engine.rules.ruleset import Ruleset, SanmaTsumo
from engine.scoring.limits import round_up_100
from engine.tiles import EAST, WIND_LETTERS

#: Payer label of a ron when the discarder's seat is not known.
DISCARDER = "discarder"


class Payment(NamedTuple):
    """One player's payment to the winner, honba included.

    ``payer`` is the paying seat's wind letter (``E``, ``S``, ``W``, ``N``), or ``discarder``
    for a ron whose discarder was not named.
    """

    payer: str
    amount: int


_LETTERS: Final = {EAST + index: letter for index, letter in enumerate(WIND_LETTERS)}


def _label(seat: int | None) -> str:
    return DISCARDER if seat is None else WIND_LETTERS[seat - EAST]


def ron_value(base: int, dealer: bool) -> int:
    """What a ron is worth before honba: 6x base for the dealer, 4x otherwise, rounded up."""
    return round_up_100(base * (6 if dealer else 4))


def tsumo_halves(dealer: bool, ruleset: Ruleset) -> tuple[int, int]:
    """What the dealer and what each other payer pays for a tsumo, in halves of the base points
    (each payment is ``base * halves // 2``, rounded up to 100).

    For a dealer's tsumo both numbers are what every payer pays. In 3-player tsumo loss the
    payers pay as with four players; with the North share split they each pay half of it more.
    """
    split = ruleset.players == 3 and ruleset.sanma_tsumo is SanmaTsumo.SPLIT
    if dealer:
        return (6, 6) if split else (4, 4)
    return (5, 3) if split else (4, 2)


def tsumo_payments(base: int, dealer: bool, ruleset: Ruleset) -> tuple[int, int]:
    """What the dealer and what each other payer pays for a tsumo, before honba (for a dealer's
    tsumo both numbers are what every payer pays; see :func:`tsumo_halves`)."""
    from_dealer, from_other = tsumo_halves(dealer, ruleset)
    return round_up_100(base * from_dealer // 2), round_up_100(base * from_other // 2)


def tsumo_shares(base: int, winner: int, ruleset: Ruleset) -> dict[int, int]:
    """Each payer's share of a tsumo before honba, by seat wind kind."""
    from_dealer, from_other = tsumo_payments(base, winner == EAST, ruleset)
    return {
        seat: from_dealer if seat == EAST else from_other
        for seat in _SEATS[ruleset.players]
        if seat != winner
    }


def tsumo_total(base: int, dealer: bool, ruleset: Ruleset) -> int:
    """Everything a tsumo brings the winner before honba (what ranks the readings of a hand;
    the scorer works it out from its rule tables)."""
    from_dealer, from_other = tsumo_payments(base, dealer, ruleset)
    if dealer:
        return (ruleset.players - 1) * from_dealer
    return from_dealer + (ruleset.players - 2) * from_other


_SEATS: Final = {3: (EAST, EAST + 1, EAST + 2), 4: (EAST, EAST + 1, EAST + 2, EAST + 3)}
#: The other seats' letters, by player count and the winner's seat index.
_OTHERS: Final = {
    players: tuple(
        tuple(letter for other, letter in enumerate(WIND_LETTERS[:players]) if other != winner)
        for winner in range(players)
    )
    for players in (3, 4)
}


#: tuple.__new__, to build Payments without NamedTuple's Python-level __new__ on the hot path.
_new_tuple: Final = tuple.__new__


def plain_payments(
    first: int,
    rest: int,
    winner: int,
    tsumo: bool,
    honba: int,
    ruleset: Ruleset,
    discarder: int | None,
) -> list[Payment]:
    """:func:`win_payments` without liability, the common case, from what is paid before honba:
    for a ron ``first`` is its value (:func:`ron_value`), for a tsumo ``first`` and ``rest`` are
    :func:`tsumo_payments`. Positional: the scorer calls it for every hand, with the amounts it
    ranked the hand's readings by."""
    if not tsumo:
        amount = first + ruleset.honba_ron * honba
        payer = DISCARDER if discarder is None else WIND_LETTERS[discarder - EAST]
        return [_new_tuple(Payment, (payer, amount))]
    # The dealer pays first, the other payers after (for a dealer's tsumo first equals rest).
    bonus = ruleset.honba_tsumo_each * honba
    letters = _OTHERS[ruleset.players][winner - EAST]
    payments = [_new_tuple(Payment, (letters[0], first + bonus))]
    rest += bonus
    for letter in letters[1:]:
        payments.append(_new_tuple(Payment, (letter, rest)))
    return payments


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
    and half of it on a ron, and the honba (on a ron the discarder pays them instead where
    ``pao_honba_by_liable`` is off, as in EMA).
    """
    dealer = winner == EAST
    if liable is None:
        first, rest = (
            tsumo_payments(base, dealer, ruleset) if tsumo else (ron_value(base, dealer), 0)
        )
        return plain_payments(first, rest, winner, tsumo, honba, ruleset, discarder)
    owed: dict[int | None, int] = {}

    def pay(seat: int | None, amount: int) -> None:
        owed[seat] = owed.get(seat, 0) + amount

    if liable_base:
        rest = base - liable_base
        honba_total = ruleset.honba_ron * honba
        covered = ron_value(liable_base, dealer)
        if tsumo:
            # The liable player pays what the tsumo's payers would have paid (in 3-player
            # tsumo loss, less than a ron: a dealer's yakuman 32,000, not 48,000), and its honba.
            pay(liable, tsumo_total(liable_base, dealer, ruleset) + honba_total)
            if rest:
                for seat, share in tsumo_shares(rest, winner, ruleset).items():
                    pay(seat, share)
        elif liable == discarder:
            pay(discarder, ron_value(base, dealer) + honba_total)
        else:
            liable_honba = honba_total if ruleset.pao_honba_by_liable else 0
            pay(liable, covered // 2 + liable_honba)
            pay(
                discarder,
                covered
                - covered // 2
                + (ron_value(rest, dealer) if rest else 0)
                + (honba_total - liable_honba),
            )
    elif tsumo:
        for seat, share in tsumo_shares(base, winner, ruleset).items():
            pay(seat, share + ruleset.honba_tsumo_each * honba)
    else:
        pay(discarder, ron_value(base, dealer) + ruleset.honba_ron * honba)

    order = sorted(owed, key=lambda seat: -1 if seat is None else seat)
    return [Payment(_label(seat), owed[seat]) for seat in order]

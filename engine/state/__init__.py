"""The game state machine: what the rules allow next, and what an action does.

:class:`GameState` follows one game hand by hand. For each canonical event
(:mod:`engine.events`) it can say whether the event is legal now (:meth:`GameState.is_legal`,
:meth:`GameState.why_illegal` with the reason in words), list what is legal
(:meth:`GameState.legal_actions`, for bots), and apply it (:meth:`GameState.apply`, which refuses
an illegal event). Checking and applying are separate, as in python-chess (``Board.is_legal`` /
``Board.push``).

The rules are those of the :class:`~engine.rules.ruleset.Ruleset`; ``replay-checklist.md`` in the
shared reference lists them with their sources. The state knows every player's tiles (records of
finished games show them all), so it checks furiten, tenpai and the value of every win itself.

The phases of a hand are listed in :mod:`engine.state.results` (:class:`Phase`).

The machine is split into short modules by concept. :class:`GameState` is put together from one
part per concept, each a subclass of the one below it, all over a base class that declares every
attribute:

* :mod:`~engine.state.results`: ``Phase``, ``WinResult``, ``HandResult``;
* :mod:`~engine.state.seat`: one seat's part of a hand, and the waits of a hand (memoized);
* :mod:`~engine.state.base`: the base class (attributes, shared helpers, the phase in words);
* :mod:`~engine.state.game`: ``GameState`` itself: starting and ending hands, checking and
  applying events, with the replayer's fast paths;
* :mod:`~engine.state.draw_discard`: draws and discards;
* :mod:`~engine.state.calls`: calls on a discard, and kans and kita on one's own turn;
* :mod:`~engine.state.riichi`: riichi and kan dora;
* :mod:`~engine.state.wins`: rons and tsumos, their value, the sticks;
* :mod:`~engine.state.hand_ends`: hands that end without a win, and score changes;
* :mod:`~engine.state.legal`: every legal event now, for bots;
* :mod:`~engine.state.powers`: the rule modifiers' play hooks (``engine/rules/modifiers.py``):
  which power allows a redraw or a call, the swap, and what a seat may see.
"""

from engine.state.game import GameState
from engine.state.results import HandResult, Phase, WinResult
from engine.state.seat import hand_waits

__all__ = ["GameState", "HandResult", "Phase", "WinResult", "hand_waits"]

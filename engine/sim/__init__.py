"""Self-play: shuffled walls, bots, and whole games played by bots through the state machine.

>>> from engine.sim import simulate
>>> game = next(simulate("tenhou-4p", games=1, seed=7))  # doctest: +SKIP
"""

from engine.bots import Bot
from engine.errors import SimulationError
from engine.sim.bots import GreedyBot, RandomBot, RiichiBot
from engine.sim.selfplay import play_game, simulate
from engine.sim.wall import deal, tile_set

__all__ = [
    "Bot",
    "GreedyBot",
    "RandomBot",
    "RiichiBot",
    "SimulationError",
    "deal",
    "play_game",
    "simulate",
    "tile_set",
]

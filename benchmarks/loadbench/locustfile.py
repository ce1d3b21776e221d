"""The load ``benchmarks/load.py`` runs against the served database (locust, headless).

Each simulated user browses as a reader does: the game list (page and API, first pages mostly),
a game's page, a round of the viewer (its frames over the API) and a player's statistics (API).
The ids come from a JSON file the benchmark writes (``LOADBENCH_TARGETS``): a random sample of
games with their round counts, and a sample of players that includes the most active ones.
"""

from __future__ import annotations

import json
import os
import random

from locust import HttpUser, between, task

with open(os.environ["LOADBENCH_TARGETS"], encoding="utf-8") as targets_file:
    TARGETS = json.load(targets_file)
GAMES: list[list[int]] = TARGETS["games"]  # [game id, rounds]
PLAYERS: list[int] = TARGETS["players"]
LIST_PAGES: int = TARGETS["list_pages"]


def _page() -> int:
    # Readers mostly look at the first pages; some go deeper.
    # A list of one page has no deeper page (the smoke run's few games).
    if LIST_PAGES < 2 or random.random() < 0.6:
        return 1
    return random.randint(2, LIST_PAGES)


class Reader(HttpUser):
    wait_time = between(0.2, 1.0)

    def on_start(self) -> None:
        # Every reader lands on each endpoint once, so even a short run measures all of them.
        self.game_list()
        self.game_list_api()
        self.game_page()
        self.viewer_frames()
        self.player_stats()

    @task(3)
    def game_list(self) -> None:
        self.client.get(f"/games/?page={_page()}", name="game list (page)")

    @task(3)
    def game_list_api(self) -> None:
        self.client.get(f"/api/games/?page={_page()}", name="game list (API)")

    @task(2)
    def game_page(self) -> None:
        game_id, _ = random.choice(GAMES)
        self.client.get(f"/games/{game_id}/", name="game page")

    @task(3)
    def viewer_frames(self) -> None:
        game_id, rounds = random.choice(GAMES)
        round_index = random.randrange(max(rounds, 1))
        self.client.get(
            f"/api/games/{game_id}/rounds/{round_index}/frames/", name="viewer frames (API)"
        )

    @task(3)
    def player_stats(self) -> None:
        player_id = random.choice(PLAYERS)
        self.client.get(f"/api/players/{player_id}/stats/", name="player stats (API)")

"""Who a seat is (mjlogs.provenance): a name is one player on one platform, guests (NoName, no
name, Tenhou's hidden names) are seats of their own and never ranked, self-play seats are bots
under every rule set; what the record says of a player's rank is kept and shown."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import AnonymousUser
from django.test import Client

from mjlogs.models import Game, GameSeat, Player, PlayerKind
from mjlogs.selectors import player_list
from stats.catch_up import player_summaries_update
from stats.selectors import leaderboard
from tests.engine.corpus import corpus_dir
from tests.mjlogs.conftest import Store
from tests.mjlogs.pages import engine_game, plain, rows, text

pytestmark = pytest.mark.django_db

EAST_4P = "tenhou-4p-east"


def _seat_players(game: Game) -> list[Player]:
    return [seat.player for seat in GameSeat.objects.filter(game=game).order_by("seat")]


def test_guests_are_seats_of_their_own_never_listed_or_ranked(client: Client, store: Store) -> None:
    first = store(
        engine_game(EAST_4P, 1, names=("NoName", "NoName", "Ann", "")), file_format="tenhou6"
    )
    second = store(
        engine_game(EAST_4P, 2, names=("NoName", "Ben", "Ann", " ")), file_format="tenhou6"
    )
    seated = [p for game in (first, second) for p in _seat_players(game)]
    guests = [p for p in seated if p.name not in ("Ann", "Ben")]
    # Five guest seats, five players: none shares a row with another, whatever the name.
    assert len(guests) == 5 and len({p.pk for p in guests}) == 5
    assert {p.kind for p in guests} == {PlayerKind.ANONYMOUS}
    assert {p.name for p in guests} == {"NoName", "(no name)"}
    ann = Player.objects.get(name="Ann")
    assert ann.kind == PlayerKind.PERSON and ann.seats.count() == 2
    # Not on the player list, not on any leaderboard, even with no minimum of games.
    listed = list(rows(text(client.get("/players/")), "player-list"))
    assert [plain(row).split(" ")[0] for row in listed] == ["Ann", "Ben"]
    player_summaries_update(p.pk for game in (first, second) for p in _seat_players(game))
    ranked = {row.player.name for row in leaderboard("average_placement", 0)}
    assert ranked == {"Ann", "Ben"}
    # A guest's page answers, and says what it is.
    page = text(client.get(f"/players/{guests[0].pk}/"))
    assert "a <strong>guest seat</strong>" in page
    assert client.get(f"/stats/players/{guests[0].pk}/").status_code == 200


def test_tenhou_s_hidden_names_are_guests_on_tenhou_only(store: Store) -> None:
    """A tenhou.net/6 export with the names hidden seats ``Aさん`` to ``Dさん`` (mjx's): guests,
    like NoName, each seat a player of its own and never ranked. Only those exact names, and
    only in a Tenhou record: on Mahjong Soul ``Aさん`` is a name like any other."""
    hidden = ("Aさん", "Bさん", "Cさん", "Dさん")
    games = [
        store(engine_game(EAST_4P, seed, names=hidden), file_format="tenhou6") for seed in (1, 2)
    ]
    seated = [p for game in games for p in _seat_players(game)]
    assert {(p.kind, p.platform) for p in seated} == {(PlayerKind.ANONYMOUS, "tenhou")}
    assert len({p.pk for p in seated}) == 8 and {p.name for p in seated} == set(hidden)
    almost = store(
        engine_game(EAST_4P, 3, names=("Aさん2", "aさん", "Eさん", "A さん")), file_format="tenhou6"
    )
    assert {p.kind for p in _seat_players(almost)} == {PlayerKind.PERSON}
    majsoul = store(engine_game("majsoul-4p", 4, names=hidden), file_format="tenhou6")
    assert {p.kind for p in _seat_players(majsoul)} == {PlayerKind.PERSON}
    player_summaries_update(p.pk for game in (*games, almost) for p in _seat_players(game))
    ranked = {row.player.pk for row in leaderboard("average_placement", 0)}
    others = {p.pk for game in (almost, majsoul) for p in _seat_players(game)}
    assert ranked == others and not ranked & {p.pk for p in seated}
    listed = {p.pk for p in player_list(AnonymousUser())}
    assert listed == others


@pytest.mark.parametrize(
    ("language", "says"),
    [
        ("en", "Guests (Tenhou’s NoName; Aさん to Dさん, the names Tenhou writes when it hides"),  # noqa: RUF001
        ("ja", "ゲスト（天鳳の NoName、天鳳が名前を伏せたときの Aさん〜Dさん、名前のない席）"),  # noqa: RUF001
    ],
)
def test_the_player_list_says_which_names_are_guests(
    client: Client, language: str, says: str
) -> None:
    """Tenhou's hidden names are guests like NoName (issue 39): the player list says so."""
    page = plain(text(client.get("/players/", HTTP_ACCEPT_LANGUAGE=language)))
    assert says in page


def test_a_name_on_two_platforms_is_two_players(store: Store) -> None:
    tenhou = store(
        engine_game(EAST_4P, 1, names=("Ann", "Ben", "Cho", "Dai")), file_format="tenhou6"
    )
    majsoul = store(
        engine_game("majsoul-4p-east", 1, names=("Ann", "Ben", "Cho", "Dai")), file_format="tenhou6"
    )
    assert majsoul.ruleset.startswith("majsoul")
    on_tenhou, on_majsoul = _seat_players(tenhou)[0], _seat_players(majsoul)[0]
    assert on_tenhou.pk != on_majsoul.pk
    assert (on_tenhou.platform, on_majsoul.platform) == ("tenhou", "majsoul")
    # The same name on the same platform again is the same player.
    again = store(
        engine_game(EAST_4P, 2, names=("Eve", "Ann", "Cho", "Dai")), file_format="tenhou6"
    )
    assert _seat_players(again)[1].pk == on_tenhou.pk


def test_self_play_seats_are_bots_ranked_only_when_asked(client: Client, store: Store) -> None:
    game = store(engine_game(EAST_4P, 1))
    players = _seat_players(game)
    assert {p.kind for p in players} == {PlayerKind.BOT}
    assert {p.platform for p in players} == {"sim"}
    player_summaries_update(p.pk for p in players)
    assert list(leaderboard("average_placement", 0)) == []
    assert len(list(leaderboard("average_placement", 0, bots=True))) == 4
    page = text(client.get("/stats/leaderboard/?min_games=0"))
    assert players[0].name not in page
    with_bots = text(client.get("/stats/leaderboard/?min_games=0&bots=on"))
    assert players[0].name in with_bots and 'data-kind="bot"' in with_bots
    api = client.get("/api/stats/leaderboard/", {"min_games": 0}).json()
    assert api["count"] == 0 and api["bots"] is False
    api = client.get("/api/stats/leaderboard/", {"min_games": 0, "bots": "true"}).json()
    assert api["count"] == 4 and api["bots"] is True


def test_the_demo_s_self_played_seats_are_bots_under_every_rule_set(store: Store) -> None:
    """The demo's games (mjlogs.demo), a Mahjong Soul rule set among them: every seat is a bot
    of the self-play platform, none a Mahjong Soul player, none ranked."""
    from mjlogs.demo import DEMO_PRESETS, import_demo_games

    assert any(preset.startswith("majsoul") for preset in DEMO_PRESETS)
    import_demo_games(per_preset=1)
    players = Player.objects.filter(seats__isnull=False).distinct()
    assert players.exists()
    assert {(p.kind, p.platform) for p in players} == {(PlayerKind.BOT, "sim")}
    player_summaries_update(p.pk for p in players)
    assert list(leaderboard("average_placement", 0)) == []


def _real_mjlog_with_ranks() -> Any:
    """A corpus mjlog whose UN gives every seat a dan and a rate."""
    from engine.formats.mjlog import read_mjlog

    for path in sorted((corpus_dir() / "mjlog_xml").rglob("*.mjlog")):
        game = read_mjlog(path.read_bytes())
        if all(p.rank and p.rating for p in game.header.players) and game.recorded_final:
            return path, game
    pytest.skip("no corpus mjlog with ranks")


@pytest.mark.corpus
def test_what_the_record_says_of_each_player_is_kept_and_shown(
    client: Client, store: Store
) -> None:
    path, record = _real_mjlog_with_ranks()
    game = store(path.read_bytes())
    seats = list(GameSeat.objects.filter(game=game).order_by("seat"))
    assert [s.recorded_rank for s in seats] == [p.rank for p in record.header.players]
    assert [s.recorded_rating for s in seats] == [p.rating for p in record.header.players]
    player = seats[0].player
    page = text(client.get(f"/players/{player.pk}/"))
    assert record.header.players[0].rank in page
    series = client.get(f"/api/players/{player.pk}/stats/series/").json()
    assert series["games"][0]["recorded_rank"] == record.header.players[0].rank
    assert series["games"][0]["recorded_rating"] == record.header.players[0].rating


def test_a_mahjong_soul_rank_is_kept_on_its_own_ladder(client: Client, store: Store) -> None:
    """A converted Mahjong Soul record's ``dan`` and ``rate`` are its rank and rank points: kept
    and shown as such, charted on Mahjong Soul's ladder, never beside Tenhou's R."""
    import json
    import re
    from pathlib import Path

    from mjlogs.provenance import MAJSOUL_RANKS

    path = (
        Path(__file__).resolve().parents[1]
        / "data/real/tenhou6_json/kbkn3__MahjongSoul-review-supporter/kazoe_yakuman.json"
    )
    record = json.loads(path.read_text())
    game = store(path.read_bytes())
    seat = GameSeat.objects.select_related("player").get(game=game, seat=1)
    assert seat.player.platform == "majsoul"
    assert (seat.recorded_rank, seat.recorded_rating) == (record["dan"][1], record["rate"][1])
    page = text(client.get(f"/players/{seat.player_id}/"))
    assert "Latest rank points" in page and record["dan"][1] in page
    stats_page = client.get(f"/stats/players/{seat.player_id}/").content.decode()
    found = re.search(
        r'<script id="stats-series" type="application/json">(.*?)</script>', stats_page
    )
    assert found is not None
    charted = json.loads(found.group(1))
    assert charted["recorded_rank"] == [MAJSOUL_RANKS.index(record["dan"][1])]
    assert charted["rank_labels"] == list(MAJSOUL_RANKS)
    assert charted["recorded_rating"] == [None]

"""The data the migrations fill in: mjlogs.0004 gives the games verified whole before seats kept
their points those of their verification's report (the others none); mjlogs.0005 gives the Tenhou
games stored before their room, from their documents' source; mjlogs.0006 gives every seat the
player it has now (per platform, guests apart); mjlogs.0008 makes Tenhou's hidden names guests and
self-play bots; mjlogs.0009 folds the copies of one game; mjlogs.0012 seats a canonical record's
names on the platform ``canonical``, whatever its source claims; mjlogs.0013 packs every
document and back."""

from __future__ import annotations

from typing import Any

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from engine.formats import canonical
from mjlogs.models import Game, GameSeat, Player
from stats.models import RoundFact, SummaryBacklog

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("latest_schema_after"),
]

BEFORE = [
    ("mjlogs", "0003_game_identity_by_visibility"),
    ("replay", "0003_verification_frames_index"),
]
AFTER = [("mjlogs", "0004_seat_points")]


def abortive_fact(fact_model: Any, game: Any, player: Any, seat: int) -> None:
    """A hand fact of the historical ``RoundFact`` (the model as a migration sees it): a first
    hand drawn out, the fields that every version of the model has."""
    fact_model.objects.create(
        game=game, player=player, seat=seat, round_index=0, round_name="E1",
        dealer=seat == 0, turns=5, outcome="abortive_draw", won=False, tsumo=False,
        dealt_in=False, win_points=0, deal_in_points=0, han=0, fu=0, ura=0,
        ippatsu=False, win_turn=0, riichi=False, riichi_turn=0, riichi_chasing=False,
        riichi_wait_kinds=0, calls=0, open_hand=False, delta=0, score_after=25000,
    )  # fmt: skip


def test_the_migration_fills_the_points_of_games_verified_whole() -> None:
    executor = MigrationExecutor(connection)
    executor.migrate(BEFORE)
    apps = executor.loader.project_state(BEFORE).apps
    player = apps.get_model("mjlogs", "Player").objects.create(name="P")
    games = {}
    for verdict, source_id in (("verified", "whole"), ("score_mismatch", "wrong")):
        game = apps.get_model("mjlogs", "Game").objects.create(
            ruleset="tenhou-4p", players_count=4, rounds_count=1, complete=True,
            source_format="canonical", source_id=source_id, content_hash=source_id,
            document={}, raw=b"", raw_size=0,
        )  # fmt: skip
        for seat in range(4):
            apps.get_model("mjlogs", "GameSeat").objects.create(
                game=game, seat=seat, player=player, start_score=25000
            )
        apps.get_model("replay", "Verification").objects.create(
            game=game, verdict=verdict, complete=True,
            report={"points": [48.0, 4.0, -17.0, -35.0]},
        )  # fmt: skip
        games[source_id] = game.pk
    MigrationExecutor(connection).migrate(AFTER)
    points = {
        source_id: list(
            GameSeat.objects.filter(game_id=pk).order_by("seat").values_list("points", flat=True)
        )
        for source_id, pk in games.items()
    }
    assert points == {"whole": [48.0, 4.0, -17.0, -35.0], "wrong": [None] * 4}


def test_the_migration_gives_stored_tenhou_games_their_room() -> None:
    before = [("mjlogs", "0004_seat_points")]
    executor = MigrationExecutor(connection)
    executor.migrate(before)
    game = executor.loader.project_state(before).apps.get_model("mjlogs", "Game")
    sources = {
        "houou": ("mjlog", {"go_type": "169", "lobby": "0"}),
        "custom": ("mjlog", {"go_type": "9", "lobby": "7994"}),
        "tokujou": ("tenhou6", {"disp": "特南喰赤"}),
        "canonical": ("canonical", {"go_type": "169"}),  # not a Tenhou record: no room
    }
    for source_id, (source_format, extra) in sources.items():
        game.objects.create(
            ruleset="tenhou-4p", players_count=4, rounds_count=1, complete=True,
            source_format=source_format, source_id=source_id, content_hash=source_id,
            document={"source": {"format": source_format, "extra": extra}}, raw=b"", raw_size=0,
        )  # fmt: skip
    MigrationExecutor(connection).migrate([("mjlogs", "0005_game_room")])
    rooms = dict(Game.objects.values_list("source_id", "room"))
    assert rooms == {"houou": "houou", "custom": "custom", "tokujou": "tokujou", "canonical": ""}


def test_the_migration_gives_every_seat_the_player_it_has_now() -> None:
    """mjlogs.0006: guests sharing a name become one player a seat, a name seen in a Mahjong
    Soul game becomes a Mahjong Soul player apart from the Tenhou one (who keeps their id), the
    fact rows follow their seats, and what the records say of ranks is filled in."""
    before = [("mjlogs", "0005_game_room"), ("stats", "0008_queued_catch_up_changed_at")]
    executor = MigrationExecutor(connection)
    executor.migrate(before)
    apps = executor.loader.project_state(before).apps
    player_model, name_model = (
        apps.get_model("mjlogs", "Player"),
        apps.get_model("mjlogs", "PlayerName"),
    )
    game_model, seat_model = apps.get_model("mjlogs", "Game"), apps.get_model("mjlogs", "GameSeat")
    fact_model = apps.get_model("stats", "RoundFact")
    players = {}
    for name in ("NoName", "Ann", "Ben"):
        players[name] = player_model.objects.create(name=name)
        name_model.objects.create(player=players[name], platform="tenhou", name=name)
    tables = {
        "tenhou": ("tenhou-4p", "mjlog", {"go_type": "169"}, ("NoName", "NoName", "Ann", "Ben")),
        "majsoul": (
            "majsoul-4p",
            "tenhou6",
            {"disp": "玉の間南喰赤"},
            ("Ann", "NoName", "Ben", "Ben"),
        ),
    }
    for source_id, (ruleset, source_format, extra, names) in tables.items():
        game = game_model.objects.create(
            ruleset=ruleset, players_count=4, rounds_count=1, complete=True,
            source_format=source_format, source_id=source_id, content_hash=source_id, raw=b"",
            raw_size=0,
            document={
                "source": {"format": source_format, "extra": extra},
                "players": [
                    {"name": n, "rank": "四段", "rating": 1700.5 + seat}
                    for seat, n in enumerate(names)
                ],
            },
        )  # fmt: skip
        for seat, name in enumerate(names):
            seat_model.objects.create(game=game, seat=seat, player=players[name], start_score=25000)
            abortive_fact(fact_model, game, players[name], seat)
    MigrationExecutor(connection).migrate([("mjlogs", "0006_player_identity")])

    def seated(source_id: str) -> list[Player]:
        seats = GameSeat.objects.filter(game__source_id=source_id).order_by("seat")
        return [seat.player for seat in seats]

    tenhou, majsoul = seated("tenhou"), seated("majsoul")
    guests = [tenhou[0], tenhou[1], majsoul[1]]
    assert len({p.pk for p in guests}) == 3 and {p.kind for p in guests} == {"anonymous"}
    assert not Player.objects.filter(pk=players["NoName"].pk).exists()
    # Ann on Tenhou keeps her player; Ann on Mahjong Soul is another, as is Ben.
    assert tenhou[2].pk == players["Ann"].pk and tenhou[2].platform == "tenhou"
    assert majsoul[0].pk != players["Ann"].pk and majsoul[0].platform == "majsoul"
    assert majsoul[2].pk == majsoul[3].pk != tenhou[3].pk
    for source_id, seated_players in (("tenhou", tenhou), ("majsoul", majsoul)):
        # Only the column this migration knows (later ones add columns to the facts).
        facts = RoundFact.objects.filter(game__source_id=source_id).order_by("seat")
        assert list(facts.values_list("player_id", flat=True)) == [p.pk for p in seated_players]
    seats = GameSeat.objects.filter(game__source_id="majsoul").order_by("seat")
    assert [(s.recorded_rank, s.recorded_rating) for s in seats] == [
        ("四段", 1700.5 + seat) for seat in range(4)
    ]
    # (Only the columns this migration knows: later ones add columns to the games.)
    assert Game.objects.filter(source_id="majsoul").values_list("room", flat=True).get() == "jade"
    # Every player whose seats changed is marked for a new summary.
    marked = set(SummaryBacklog.objects.values_list("player_id", flat=True))
    assert {p.pk for p in guests} | {majsoul[0].pk, majsoul[2].pk} <= marked


def test_the_migration_makes_hidden_names_guests_and_self_play_bots() -> None:
    """mjlogs.0008: Tenhou's placeholders for hidden names (one ``Aさん`` player seated in two
    games) become a guest a seat, the same name on Mahjong Soul stays a person, a self-played
    Mahjong Soul game's seats become the bots of their names; facts follow their seats."""
    before = [("mjlogs", "0007_link_import"), ("stats", "0010_study_discards")]
    executor = MigrationExecutor(connection)
    executor.migrate(before)
    apps = executor.loader.project_state(before).apps
    player_model, name_model = (
        apps.get_model("mjlogs", "Player"),
        apps.get_model("mjlogs", "PlayerName"),
    )
    game_model, seat_model = apps.get_model("mjlogs", "Game"), apps.get_model("mjlogs", "GameSeat")
    fact_model = apps.get_model("stats", "RoundFact")
    players = {}
    for platform, name in (
        ("tenhou", "Aさん"), ("tenhou", "Bさん"), ("tenhou", "Ann"), ("majsoul", "Aさん"),
        ("majsoul", "GreedyBot 0"), ("majsoul", "GreedyBot 1"), ("sim", "GreedyBot 0"),
    ):  # fmt: skip
        player = player_model.objects.create(name=name, platform=platform, kind="person")
        name_model.objects.create(player=player, platform=platform, name=name)
        players[platform, name] = player
    players["sim", "GreedyBot 0"].kind = "bot"
    players["sim", "GreedyBot 0"].save()
    # Each game's rule set, source format, and its seats' players as 0007 seated them.
    tables = {
        "hidden-1": ("tenhou-4p", "tenhou6", "tenhou", ("Aさん", "Bさん", "Ann", "Bさん")),
        "hidden-2": ("tenhou-4p", "tenhou6", "tenhou", ("Aさん", "Ann", "Bさん", "Aさん")),
        "majsoul": ("majsoul-4p", "tenhou6", "majsoul", ("Aさん",) * 4),
        "demo": ("majsoul-4p-east", "sim", "majsoul", ("GreedyBot 0", "GreedyBot 1") * 2),
    }
    for source_id, (ruleset, source_format, platform, names) in tables.items():
        game = game_model.objects.create(
            ruleset=ruleset, players_count=4, rounds_count=1, complete=True,
            source_format="canonical", source_id=source_id, content_hash=source_id, raw=b"",
            raw_size=0,
            document={
                "source": {"format": source_format},
                "players": [{"name": name} for name in names],
            },
        )  # fmt: skip
        for seat, name in enumerate(names):
            player = players[platform, name]
            seat_model.objects.create(game=game, seat=seat, player=player, start_score=25000)
            abortive_fact(fact_model, game, player, seat)
    MigrationExecutor(connection).migrate([("mjlogs", "0008_hidden_names_and_bots")])

    def seated(source_id: str) -> list[Player]:
        seats = GameSeat.objects.filter(game__source_id=source_id).order_by("seat")
        return [seat.player for seat in seats]

    hidden = [p for source_id in ("hidden-1", "hidden-2") for p in seated(source_id)]
    guests = [p for p in hidden if p.name != "Ann"]
    assert len(guests) == 6 and len({p.pk for p in guests}) == 6
    assert {(p.kind, p.platform) for p in guests} == {("anonymous", "tenhou")}
    assert {p.name for p in guests} == {"Aさん", "Bさん"}
    ann = [p for p in hidden if p.name == "Ann"]
    assert {p.pk for p in ann} == {players["tenhou", "Ann"].pk} and ann[0].kind == "person"
    assert not Player.objects.filter(
        pk__in=[players["tenhou", "Aさん"].pk, players["tenhou", "Bさん"].pk]
    ).exists()
    # The same name on Mahjong Soul is a name like any other.
    assert {p.pk for p in seated("majsoul")} == {players["majsoul", "Aさん"].pk}
    # The demo's self-played Mahjong Soul seats are the bots of their names.
    demo = seated("demo")
    assert [p.kind for p in demo] == ["bot"] * 4 and {p.platform for p in demo} == {"sim"}
    assert demo[0].pk == demo[2].pk == players["sim", "GreedyBot 0"].pk != demo[1].pk
    assert not Player.objects.filter(platform="majsoul", name__startswith="GreedyBot").exists()
    for source_id in tables:
        facts = RoundFact.objects.filter(game__source_id=source_id).order_by("seat")
        assert list(facts.values_list("player_id", flat=True)) == [p.pk for p in seated(source_id)]
    marked = set(SummaryBacklog.objects.values_list("player_id", flat=True))
    assert {p.pk for p in guests} | {demo[0].pk, demo[1].pk} <= marked
    assert players["tenhou", "Ann"].pk not in marked


def test_the_migration_folds_the_copies_of_a_game_and_back() -> None:
    """mjlogs.0009: every game gets its play and its record's identity; a game stored as a
    record with the names and as one with Tenhou's hidden names is folded (the named one
    counts, the other names it), its copy's players marked for a new summary; a document no
    identity reads is a game of its own. Undone, the hashes are 0003's again."""
    from engine.formats import get_format, read_games
    from mjlogs.identity import identities
    from mjlogs.migrations._identity_0003 import identity_hash_0003
    from tests.mjlogs.pages import engine_game

    before = [("mjlogs", "0008_hidden_names_and_bots"), ("replay", "0004_game_end_from_reports")]
    after = [("mjlogs", "0009_game_copies")]
    executor = MigrationExecutor(connection)
    executor.migrate(before)
    apps = executor.loader.project_state(before).apps
    game_model, seat_model = apps.get_model("mjlogs", "Game"), apps.get_model("mjlogs", "GameSeat")
    player_model = apps.get_model("mjlogs", "Player")
    verification_model = apps.get_model("replay", "Verification")
    writer = get_format("tenhou6").write
    assert writer is not None

    def document(seed: int, names: tuple[str, ...]) -> dict[str, Any]:
        (game,), _ = read_games(writer([engine_game("tenhou-4p-east", seed, names=names)]))
        return canonical.game_to_json(game)

    documents = {
        "named": document(7, ("Ann", "Ben", "Cat", "Dan")),
        "hidden": document(7, ("Aさん", "Bさん", "Cさん", "Dさん")),
        "alone": document(8, ("Ann", "Ben", "Cat", "Dan")),
        "unread": {},
    }
    kinds = {"hidden": "anonymous"}
    for source_id, doc in documents.items():
        old = identity_hash_0003(doc) if doc else "unread-hash"
        game = game_model.objects.create(
            ruleset="tenhou-4p-east", players_count=4, rounds_count=1, complete=True,
            source_format="tenhou6", source_id=source_id, content_hash=old, document=doc,
            raw=b"", raw_size=0,
        )  # fmt: skip
        for seat in range(4):
            player = player_model.objects.create(
                name=f"{source_id}{seat}", kind=kinds.get(source_id, "person")
            )
            seat_model.objects.create(game=game, seat=seat, player=player, start_score=25000)
        verification_model.objects.create(game=game, verdict="verified", complete=True)
    MigrationExecutor(connection).migrate(after)
    rows = {
        row["source_id"]: row
        for row in Game.objects.values(
            "pk", "source_id", "play_hash", "content_hash", "copy_of_id", "copy_conflicts"
        )
    }
    for source_id in ("named", "hidden", "alone"):
        play, record = identities(documents[source_id])
        assert (rows[source_id]["play_hash"], rows[source_id]["content_hash"]) == (play, record)
    assert rows["named"]["play_hash"] == rows["hidden"]["play_hash"] != rows["alone"]["play_hash"]
    assert rows["hidden"]["copy_of_id"] == rows["named"]["pk"]
    assert rows["named"]["copy_of_id"] is rows["alone"]["copy_of_id"] is None
    assert rows["hidden"]["copy_conflicts"] == rows["named"]["copy_conflicts"] == []
    assert rows["unread"]["play_hash"] == rows["unread"]["content_hash"] == "unread-hash"
    marked = set(SummaryBacklog.objects.values_list("player__name", flat=True))
    assert {f"hidden{seat}" for seat in range(4)} <= marked
    assert not marked & {f"alone{seat}" for seat in range(4)}
    # Undone: 0003's hashes again, and nothing a copy.
    MigrationExecutor(connection).migrate(before)
    apps = MigrationExecutor(connection).loader.project_state(before).apps
    hashes = dict(apps.get_model("mjlogs", "Game").objects.values_list("source_id", "content_hash"))
    assert hashes == {
        source_id: identity_hash_0003(doc) if doc else "unread-hash"
        for source_id, doc in documents.items()
    }


def test_the_migration_seats_canonical_records_on_their_own_platform() -> None:
    """mjlogs.0012: a canonical record that claimed to be Tenhou's seated the Tenhou player of
    its name and took the room it claimed; after, the canonical player of that name (one for
    both of its games), no room, and the Tenhou player keeps only their real game. A canonical
    self-played game keeps its bots; a game read from an mjlog keeps its Tenhou players."""
    before = [("mjlogs", "0011_rule_options_at_their_values"), ("stats", "0011_study_defence")]
    executor = MigrationExecutor(connection)
    executor.migrate(before)
    apps = executor.loader.project_state(before).apps
    player_model, name_model = (
        apps.get_model("mjlogs", "Player"),
        apps.get_model("mjlogs", "PlayerName"),
    )
    game_model, seat_model = apps.get_model("mjlogs", "Game"), apps.get_model("mjlogs", "GameSeat")
    fact_model = apps.get_model("stats", "RoundFact")
    players = {}
    for platform, name, kind in (
        ("tenhou", "Ann", "person"), ("tenhou", "Ben", "person"), ("sim", "Bot", "bot"),
    ):  # fmt: skip
        player = player_model.objects.create(name=name, platform=platform, kind=kind)
        name_model.objects.create(player=player, platform=platform, name=name)
        players[platform, name] = player
    guest = player_model.objects.create(name="NoName", platform="tenhou", kind="anonymous")
    # Each game: the format its file was read in, what its source claims, its room as stored,
    # and its seats as 0011 seated them.
    ann, ben, bot = players["tenhou", "Ann"], players["tenhou", "Ben"], players["sim", "Bot"]
    tables = {
        "real": ("mjlog", "mjlog", "houou", (ann, ben)),
        "forged-1": ("canonical", "mjlog", "houou", (ann, guest)),
        "forged-2": ("canonical", "tenhou6", "", (ben, ann)),
        "self-play": ("canonical", "sim", "", (bot, bot)),
    }
    for source_id, (read_format, claimed, room, seated_as) in tables.items():
        game = game_model.objects.create(
            ruleset="tenhou-4p", players_count=2, rounds_count=1, complete=True,
            source_format=read_format, source_id=source_id, content_hash=source_id,
            play_hash=source_id, raw=b"",
            raw_size=0, room=room,
            document={
                "source": {"format": claimed},
                "players": [{"name": player.name} for player in seated_as],
            },
        )  # fmt: skip
        for seat, player in enumerate(seated_as):
            seat_model.objects.create(game=game, seat=seat, player=player, start_score=25000)
            abortive_fact(fact_model, game, player, seat)
    MigrationExecutor(connection).migrate([("mjlogs", "0012_canonical_origin_is_a_claim")])

    def seated(source_id: str) -> list[Player]:
        seats = GameSeat.objects.filter(game__source_id=source_id).order_by("seat")
        return [seat.player for seat in seats]

    assert [p.pk for p in seated("real")] == [ann.pk, ben.pk]
    forged = seated("forged-1") + seated("forged-2")
    assert [(p.name, p.platform) for p in forged] == [
        ("Ann", "canonical"), ("NoName", "canonical"), ("Ben", "canonical"), ("Ann", "canonical"),
    ]  # fmt: skip
    assert forged[0].pk == forged[3].pk and forged[1].kind == "anonymous"
    assert [p.pk for p in seated("self-play")] == [bot.pk, bot.pk]
    rooms = dict(Game.objects.values_list("source_id", "room"))
    assert rooms == {"real": "houou", "forged-1": "", "forged-2": "", "self-play": ""}
    assert not Player.objects.filter(pk=guest.pk).exists()
    for source_id in tables:
        facts = RoundFact.objects.filter(game__source_id=source_id).order_by("seat")
        assert list(facts.values_list("player_id", flat=True)) == [p.pk for p in seated(source_id)]
    marked = set(SummaryBacklog.objects.values_list("player_id", flat=True))
    assert {ann.pk, ben.pk, forged[0].pk, forged[2].pk} <= marked
    assert bot.pk not in marked


def test_the_migration_packs_every_document_and_back() -> None:
    """mjlogs.0013: every stored document reads back the same once packed (a self-played game,
    an integer beyond 64 bits, text of several bytes, a document with nothing in it), and the
    column holds compressed bytes, not JSON; undone, the JSON column holds the same
    documents."""
    import json

    from config import compression
    from engine.sim.selfplay import simulate

    before = [("mjlogs", "0012_canonical_origin_is_a_claim")]
    after = [("mjlogs", "0013_game_document_packed")]
    executor = MigrationExecutor(connection)
    executor.migrate(before)
    game_model = executor.loader.project_state(before).apps.get_model("mjlogs", "Game")
    (played,) = simulate("tenhou-4p-east", 1, 5)
    documents = {
        "played": canonical.game_to_json(played),
        "odd": {"players": [{"name": '東 \u2028 "q"'}], "n": 2**70 + 1, "x": [1.5, None]},
        "empty": {},
    }
    for source_id, document in documents.items():
        game_model.objects.create(
            ruleset="tenhou-4p-east", players_count=4, rounds_count=1, complete=True,
            source_format="canonical", source_id=source_id, content_hash=source_id,
            play_hash=source_id, raw=b"", raw_size=0, document=document,
        )  # fmt: skip
    MigrationExecutor(connection).migrate(after)
    assert dict(Game.objects.values_list("source_id", "document")) == documents
    with connection.cursor() as cursor:
        cursor.execute("SELECT document FROM mjlogs_game WHERE source_id = 'odd'")
        (stored,) = cursor.fetchone()
    assert json.loads(compression.decompress(stored)) == documents["odd"]  # the JSON, compressed
    MigrationExecutor(connection).migrate(before)
    game_model = (
        MigrationExecutor(connection).loader.project_state(before).apps.get_model("mjlogs", "Game")
    )
    assert dict(game_model.objects.values_list("source_id", "document")) == documents
